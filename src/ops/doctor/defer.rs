//! The doctor's checks of what makes `ingest` defer a mail (exit 75, the MTA keeps it and
//! tries again, forever if nobody looks): the checks run as the data folder's owner (the
//! user `ingest` and `serve` run as), files of another user's in the folder, a
//! configuration that user cannot read, a database behind its journal (gone back in
//! time), an unfinished recovery, and a running daemon whose configuration is not this
//! one. Each a failure with its fix, so that doctor and ingest agree.

use super::{fail, ok, warn, Check};
use crate::config::Config;
use crate::ops::ownership::{foreign_owner, user_name};
use std::os::unix::fs::MetadataExt;
use std::path::{Path, PathBuf};

/// Run as root on a data folder of another user's: become that user (its group, no
/// other), so that every check sees what `ingest` sees and no file of root's is made.
/// Then the configuration must be readable by that user too.
pub(super) fn as_owner(config_path: &Path, data_dir: &Path) -> Vec<Check> {
    let Some(uid) = foreign_owner(data_dir) else {
        return Vec::new();
    };
    let user = user_name(uid);
    let gid = match std::fs::metadata(data_dir) {
        Ok(m) => m.gid(),
        Err(e) => return vec![fail("user", e.to_string(), "check the data folder")],
    };
    // SAFETY: plain system calls on this process's own credentials, made before any
    // other thread starts (doctor's network checks come later).
    let switched = unsafe {
        libc::setgroups(0, std::ptr::null()) == 0
            && libc::setgid(gid) == 0
            && libc::setuid(uid) == 0
    };
    if !switched {
        return vec![fail(
            "user",
            format!(
                "run as root, and cannot become {user}, who owns {}: {}",
                data_dir.display(),
                std::io::Error::last_os_error()
            ),
            format!("run it as that user: sudo -u {user} castellan doctor"),
        )];
    }
    let mut out = vec![ok(
        "user",
        format!(
            "checks run as {user}, who owns {} (as serve and ingest run), not as root",
            data_dir.display()
        ),
    )];
    if config_path.exists() {
        if let Err(e) = std::fs::read(config_path) {
            out.push(fail(
                "config",
                format!(
                    "{user} cannot read {}: {e}; every ingest defers",
                    config_path.display()
                ),
                format!("chgrp {user} {0} && chmod 0640 {0}", config_path.display()),
            ));
        }
    }
    out
}

/// Files under the data folder that are not its owner's: `ingest`, run as the owner,
/// cannot write them (a root-owned journal defers every mail).
pub(super) fn foreign_files(data_dir: &Path) -> Check {
    let Ok(meta) = std::fs::metadata(data_dir) else {
        return ok("ownership", "no data folder yet");
    };
    let owner = meta.uid();
    let mut found: Vec<(PathBuf, u32)> = Vec::new();
    let mut count = 0usize;
    let mut todo = vec![data_dir.to_path_buf()];
    // Bounded: a big Maildir is not walked whole.
    let mut seen = 0usize;
    while let Some(dir) = todo.pop() {
        let Ok(rd) = std::fs::read_dir(&dir) else {
            continue;
        };
        for e in rd.flatten() {
            seen += 1;
            if seen > 100_000 {
                break;
            }
            let Ok(m) = e.metadata() else { continue };
            if m.uid() != owner {
                count += 1;
                if found.len() < 3 {
                    found.push((e.path(), m.uid()));
                }
            }
            if m.is_dir() {
                todo.push(e.path());
            }
        }
    }
    let user = user_name(owner);
    if count == 0 {
        return ok(
            "ownership",
            format!("every file under {} is {user}'s", data_dir.display()),
        );
    }
    let examples: Vec<String> = found
        .iter()
        .map(|(p, u)| format!("{} ({})", p.display(), user_name(*u)))
        .collect();
    fail(
        "ownership",
        format!(
            "{count} file(s) under {} are not {user}'s, who owns the folder: {}; ingest, run \
             as {user}, defers every mail it cannot write there",
            data_dir.display(),
            examples.join(", ")
        ),
        format!(
            "chown -R {user}: {}, and run every command as {user} (sudo -u {user} castellan ...)",
            data_dir.display()
        ),
    )
}

/// The highest entry the journal says the database held (its `done` lines), 0 for none.
fn journal_done(journal: &Path) -> u64 {
    use crate::store::journal::Entry;
    let mut done = 0;
    let _ = crate::store::journal::read_all(journal, &mut |e| {
        match e {
            Entry::Done { seq } => done = done.max(seq),
            Entry::Start { done: d, .. } => done = done.max(d),
            _ => {}
        }
        Ok(())
    });
    done
}

/// The database against its journal: one that holds fewer entries than the journal says
/// were committed (`db_seq`; `None`: there is no database) went back in time, and
/// `ingest` refuses it.
pub(super) fn back_in_time(c: &Config, db_seq: Option<u64>) -> Option<Check> {
    let done = journal_done(&c.journal_path());
    let db = c.database_path();
    let fix = "castellan recover (it rebuilds the database from the newest backup and the \
               journal; the folder it replaces is kept aside)";
    match db_seq {
        None if done > 0 => Some(fail(
            "journal",
            format!(
                "there is no database at {}, but the journal holds {done} committed entries: \
                 it went back in time and every ingest defers",
                db.display()
            ),
            fix,
        )),
        Some(seq) if seq < done => Some(fail(
            "journal",
            format!(
                "the database at {} went back in time: it holds the journal's entries up to \
                 {seq}, but entries up to {done} were committed; every ingest defers",
                db.display()
            ),
            fix,
        )),
        Some(seq) => Some(ok(
            "journal",
            format!("the database holds the journal's entries up to {seq}"),
        )),
        None => None,
    }
}

/// [`back_in_time`] for the open database `store`.
pub(super) fn journal_mark(c: &Config, store: &crate::store::SledStore) -> Check {
    match store.journal_seq() {
        Ok(seq) => back_in_time(c, Some(seq)).unwrap_or_else(|| ok("journal", "")),
        Err(e) => fail(
            "journal",
            format!(
                "{}: cannot read its journal mark: {}",
                c.database_path().display(),
                e.0
            ),
            "castellan recover (it rebuilds the database from the newest backup and the journal)",
        ),
    }
}

/// What `castellan recover` leaves beside the database: its unfinished work, the
/// folders it set aside.
pub(super) fn recovery_leftovers(c: &Config) -> Vec<Check> {
    let db = c.database_path();
    let mut out = Vec::new();
    let building = db.with_extension("recovering");
    if building.exists() {
        out.push(warn(
            "recovery",
            format!(
                "{} is what an interrupted `castellan recover` left",
                building.display()
            ),
            "run castellan recover again (it starts over from the newest backup and the journal)",
        ));
    }
    let name = db
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    if let Some(parent) = db.parent() {
        for e in std::fs::read_dir(parent).into_iter().flatten().flatten() {
            let n = e.file_name().to_string_lossy().into_owned();
            if n.starts_with(&format!("{name}.damaged-")) {
                out.push(warn(
                    "recovery",
                    format!(
                        "{} was set aside by `castellan recover`",
                        e.path().display()
                    ),
                    format!(
                        "once the games look right (castellan game list), remove it: rm -r {}",
                        e.path().display()
                    ),
                ));
            }
        }
    }
    out
}

/// The running daemon (it answers on its admin socket) against this configuration.
pub(super) fn daemon(c: &Config) -> Option<Check> {
    use crate::serve::admin_socket::{effective, path, send, Request, Status};
    let socket = path(&c.data_dir);
    let answer = match send(&socket, &Request::Status) {
        Ok(Some(a)) => a,
        Ok(None) => return None,
        Err(e) => {
            return Some(fail(
                "daemon",
                format!(
                    "a daemon listens on {} but does not answer: {e}",
                    socket.display()
                ),
                "restart it: systemctl restart castellan",
            ))
        }
    };
    let Ok(status) = serde_json::from_str::<Status>(&answer.out) else {
        return Some(fail(
            "daemon",
            format!(
                "the daemon on {} answers what does not read",
                socket.display()
            ),
            "restart it with this version: systemctl restart castellan",
        ));
    };
    if status.effective == effective(c) {
        Some(ok(
            "daemon",
            format!(
                "the running daemon (pid {}) uses this same configuration",
                status.pid
            ),
        ))
    } else {
        let diff: Vec<String> = diff_lines(&status.effective, &effective(c));
        Some(fail(
            "daemon",
            format!(
                "the running daemon (pid {}) uses another configuration than this one: {}",
                status.pid,
                diff.join("; ")
            ),
            "restart the daemon to read the edited file (systemctl restart castellan), or run \
             doctor with the file the daemon reads (--config)",
        ))
    }
}

/// The lines of `theirs` and `ours` that differ (at most 3 each), as `daemon: ... / here: ...`.
fn diff_lines(theirs: &str, ours: &str) -> Vec<String> {
    let t: Vec<&str> = theirs.lines().collect();
    let o: Vec<&str> = ours.lines().collect();
    let only_t: Vec<&str> = t
        .iter()
        .filter(|l| !o.contains(l))
        .copied()
        .take(3)
        .collect();
    let only_o: Vec<&str> = o
        .iter()
        .filter(|l| !t.contains(l))
        .copied()
        .take(3)
        .collect();
    vec![
        format!("daemon: {}", only_t.join(" | ").trim()),
        format!("here: {}", only_o.join(" | ").trim()),
    ]
}
