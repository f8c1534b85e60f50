//! Whole-database backups: `castellan backup`, `backup --restore`, and the rolling backups
//! `serve` makes between passes (`backup.every_hours`, `backup.keep`).
//!
//! A backup is JSON lines, written and read as a stream (memory does not grow with the
//! database): a header `{"format":"castellan-backup/2","next_id":N,"journal_seq":S}`, one
//! line per record of every tree `{"tree":..,"key":hex,"value":hex}`, and a trailer
//! `{"end":true,"records":n}`; a file without its trailer is truncated and refused. It
//! works on whole trees, whatever their layout. Files of format 1 (records only, no header
//! or trailer) still restore.
//!
//! A backup file is written as `NAME.partial`, fsynced, renamed, and its folder fsynced:
//! a crash or a full disk leaves either the whole backup or none.

use crate::config::Config;
use crate::error::ShellError;
use crate::serve::env::system_clock;
use crate::serve::service::Service;
use crate::store::SledStore;
use castellan_judge::StoreError;
use std::io::{BufRead, Write};
use std::path::Path;
use std::process::ExitCode;

pub const FORMAT: &str = "castellan-backup/2";

fn err(e: impl std::fmt::Display) -> StoreError {
    StoreError::new(e.to_string())
}

/// The trees of the database, sled's unused default tree aside.
fn tree_names(store: &SledStore) -> Vec<String> {
    let mut names: Vec<String> = store
        .db()
        .tree_names()
        .into_iter()
        .map(|n| String::from_utf8_lossy(&n).into_owned())
        .filter(|n| n != "__sled__default")
        .collect();
    names.sort();
    names
}

/// Write every tree to `out` (header, records, trailer). Returns the number of records.
pub fn write(store: &SledStore, out: &mut dyn Write) -> Result<usize, StoreError> {
    write_with(store, out, &mut || {})
}

/// [`write()`], calling `each` after every record (progress).
pub fn write_with(
    store: &SledStore,
    out: &mut dyn Write,
    each: &mut dyn FnMut(),
) -> Result<usize, StoreError> {
    let next_id = store.db().generate_id().map_err(err)?;
    let header = serde_json::json!({
        "format": FORMAT,
        "next_id": next_id,
        "journal_seq": store.journal_seq()?,
    });
    writeln!(out, "{header}").map_err(err)?;
    let mut n = 0;
    for name in tree_names(store) {
        let tree = store.db().open_tree(&name).map_err(err)?;
        for kv in tree.iter() {
            let (k, v) = kv.map_err(err)?;
            let line =
                serde_json::json!({"tree": name, "key": hex::encode(&k), "value": hex::encode(&v)});
            writeln!(out, "{line}").map_err(err)?;
            n += 1;
            each();
        }
    }
    writeln!(out, "{}", serde_json::json!({"end": true, "records": n})).map_err(err)?;
    out.flush().map_err(err)?;
    Ok(n)
}

/// Write a backup to `path`: `path.partial`, fsynced, renamed, folder fsynced. On failure
/// (a full disk) the partial file is removed and `path` is untouched.
pub fn write_file(
    store: &SledStore,
    path: &Path,
    progress: Option<&mut crate::progress::Progress>,
) -> Result<usize, ShellError> {
    let tmp = path.with_extension("partial");
    let result = (|| {
        if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
            std::fs::create_dir_all(dir).map_err(|e| ShellError::io(dir, e))?;
        }
        // The games' secrets are in it: 0600 whatever the umask.
        let file = crate::store::create_private(&tmp).map_err(|e| ShellError::io(&tmp, e))?;
        let mut f = std::io::BufWriter::new(file);
        let n = match progress {
            Some(progress) => write_with(store, &mut f, &mut || progress.inc(1))?,
            None => write(store, &mut f)?,
        };
        let f = f
            .into_inner()
            .map_err(|e| ShellError::io(&tmp, e.into_error()))?;
        f.sync_all().map_err(|e| ShellError::io(&tmp, e))?;
        std::fs::rename(&tmp, path).map_err(|e| ShellError::io(path, e))?;
        let dir = match path.parent() {
            Some(d) if !d.as_os_str().is_empty() => d,
            _ => Path::new("."),
        };
        castellan_mail::sync_dir(dir).map_err(|e| ShellError::io(dir, e))?;
        Ok(n)
    })();
    if result.is_err() {
        let _ = std::fs::remove_file(&tmp);
    }
    result
}

/// What a backup file holds, found by reading it once (bounded memory).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Checked {
    pub records: u64,
    pub next_id: Option<u64>,
    pub journal_seq: u64,
}

pub(super) enum Line {
    Header {
        next_id: u64,
        journal_seq: u64,
    },
    Record {
        tree: String,
        key: Vec<u8>,
        value: Vec<u8>,
    },
    End {
        records: u64,
    },
}

pub(super) fn parse_line(text: &str, number: u64) -> Result<Line, StoreError> {
    let bad = |why: String| err(format!("line {number}: {why}"));
    let v: serde_json::Value = serde_json::from_str(text).map_err(|e| bad(e.to_string()))?;
    if let Some(f) = v["format"].as_str() {
        if f != FORMAT {
            return Err(bad(format!(
                "unknown backup format {f:?} (this version reads {FORMAT})"
            )));
        }
        return Ok(Line::Header {
            next_id: v["next_id"].as_u64().unwrap_or(0),
            journal_seq: v["journal_seq"].as_u64().unwrap_or(0),
        });
    }
    if v["end"].as_bool() == Some(true) {
        return Ok(Line::End {
            records: v["records"].as_u64().unwrap_or(0),
        });
    }
    let (Some(tree), Some(k), Some(val)) =
        (v["tree"].as_str(), v["key"].as_str(), v["value"].as_str())
    else {
        return Err(bad("not a backup record".into()));
    };
    Ok(Line::Record {
        tree: tree.to_string(),
        key: hex::decode(k).map_err(|e| bad(e.to_string()))?,
        value: hex::decode(val).map_err(|e| bad(e.to_string()))?,
    })
}

/// Go through a backup line by line, calling `each` on every record.
fn read(
    input: &mut dyn BufRead,
    each: &mut dyn FnMut(String, Vec<u8>, Vec<u8>) -> Result<(), StoreError>,
) -> Result<Checked, StoreError> {
    let mut line = String::new();
    let mut number = 0u64;
    let mut checked = Checked::default();
    let mut header = false;
    let mut end = None;
    loop {
        line.clear();
        if input.read_line(&mut line).map_err(err)? == 0 {
            break;
        }
        number += 1;
        if line.trim().is_empty() {
            continue;
        }
        if end.is_some() {
            return Err(err(format!("line {number}: a record after the end")));
        }
        match parse_line(line.trim_end(), number)? {
            Line::Header {
                next_id,
                journal_seq,
            } if number == 1 => {
                header = true;
                checked.next_id = Some(next_id);
                checked.journal_seq = journal_seq;
            }
            Line::Header { .. } => return Err(err(format!("line {number}: a second header"))),
            Line::End { records } => end = Some(records),
            Line::Record { tree, key, value } => {
                each(tree, key, value)?;
                checked.records += 1;
            }
        }
    }
    match (header, end) {
        (true, None) => Err(err(
            "the backup ends early (no end line): it is truncated".to_string()
        )),
        (true, Some(r)) if r != checked.records => Err(err(format!(
            "the backup says {r} records but holds {}",
            checked.records
        ))),
        _ => Ok(checked),
    }
}

/// Read a whole backup without storing anything: is it complete and well formed?
pub fn check(input: &mut dyn BufRead) -> Result<Checked, StoreError> {
    read(input, &mut |_, _, _| Ok(()))
}

/// Bytes of records a restore writes in one batch.
const RESTORE_BATCH_BYTES: usize = 4 * 1024 * 1024;

/// Load a backup into this (empty) database, as a stream. The key generator is moved past
/// the backup's (or, for a format-1 file, past every restored outbox and log key), so what
/// comes after the restore never overwrites a restored reply or log line. Check the file
/// with [`check`] first: a bad line found here leaves the records before it stored.
pub fn restore(
    store: &SledStore,
    input: &mut dyn BufRead,
    each: &mut dyn FnMut(),
) -> Result<Checked, StoreError> {
    for name in tree_names(store) {
        let tree = store.db().open_tree(&name).map_err(err)?;
        // A new database holds only its marks: its layout's (SledStore::upgrade) and its
        // indexes'.
        let only_the_marks = name == "meta"
            && tree
                .iter()
                .keys()
                .all(|k| k.is_ok_and(|k| crate::store::is_mark(&k)));
        if !tree.is_empty() && !only_the_marks {
            return Err(err("restore needs an empty database"));
        }
    }
    // The new database's index marks say its (empty) indexes are whole; the backup's own
    // marks come with its records, and whatever index it lacks is built after them.
    let meta = store.db().open_tree("meta").map_err(err)?;
    for mark in crate::store::INDEX_MARKS {
        meta.remove(mark).map_err(err)?;
    }
    let mut highest: Option<u64> = None;
    // Records are written a tree's batch at a time (the backup lists a tree's records
    // together): far fewer, larger writes than one insert each, so the restored log is
    // close to the live data's size (`castellan compact`). sled 0.34 keeps much of what
    // its batches wrote in memory, though (a 1.7 GB backup of 100,000 games peaked at
    // 3.6 GB resident; one insert a record: 0.45 GB, but a compacted database 3.4 times
    // its live data instead of under 3).
    let mut batch: Option<(String, sled::Batch, usize)> = None;
    let apply = |batch: &mut Option<(String, sled::Batch, usize)>| -> Result<(), StoreError> {
        if let Some((tree, b, _)) = batch.take() {
            store
                .db()
                .open_tree(&tree)
                .map_err(err)?
                .apply_batch(b)
                .map_err(err)?;
        }
        Ok(())
    };
    let checked = read(input, &mut |tree, key, value| {
        if let Some(id) = generated_id(&tree, &key) {
            highest = highest.max(Some(id));
        }
        let full = batch
            .as_ref()
            .is_some_and(|(t, _, bytes)| *t != tree || *bytes > RESTORE_BATCH_BYTES);
        if full {
            apply(&mut batch)?;
        }
        let (_, b, bytes) = batch.get_or_insert_with(|| (tree, sled::Batch::default(), 0));
        *bytes += key.len() + value.len();
        b.insert(key, value);
        each();
        Ok(())
    })?;
    apply(&mut batch)?;
    // Written around the store: no game it kept decoded stands.
    store.forget_games();
    // A backup of an older layout holds games whole: convert them.
    store.upgrade(true)?;
    let floor = match checked.next_id {
        Some(n) => Some(n),
        None => highest.map(|h| h + 1),
    };
    if let Some(floor) = floor {
        // sled keeps the generator's high-water mark itself; it has no "set".
        while store.db().generate_id().map_err(err)? + 1 < floor {}
    }
    store.flush()?;
    Ok(checked)
}

/// [`restore`] from a file: checked whole first (nothing is stored from a truncated or
/// damaged file), then loaded.
pub fn restore_file(store: &SledStore, path: &Path, progress: bool) -> Result<Checked, ShellError> {
    let open = || -> Result<std::io::BufReader<std::fs::File>, ShellError> {
        Ok(std::io::BufReader::new(
            std::fs::File::open(path).map_err(|e| ShellError::io(path, e))?,
        ))
    };
    let bad = |e: StoreError| ShellError::BadInput {
        what: format!("backup {}", path.display()),
        why: e.0,
    };
    let checked = check(&mut open()?).map_err(bad)?;
    let mut bar = progress
        .then(|| crate::progress::Progress::new("restore", "records", Some(checked.records)));
    let done = restore(store, &mut open()?, &mut || {
        if let Some(b) = bar.as_mut() {
            b.inc(1)
        }
    })
    .map_err(bad)?;
    if let Some(b) = bar {
        b.finish();
    }
    Ok(done)
}

/// The generated id inside a key of `tree` (format-1 backups only): the whole key of
/// `outbox`, the last 8 bytes of `log` (game id, 0, id).
fn generated_id(tree: &str, key: &[u8]) -> Option<u64> {
    let tail = match tree {
        "outbox" => key,
        "log" => key.get(key.len().checked_sub(8)?..)?,
        _ => return None,
    };
    Some(u64::from_be_bytes(tail.try_into().ok()?))
}

/// The name of a backup made at `now` in the backup folder.
pub fn path_at(config: &Config, now: i64) -> std::path::PathBuf {
    config.backup_dir().join(format!("backup-{now}.jsonl"))
}

/// `backup [FILE]` and `backup --restore FILE`.
pub fn main(
    config: Config,
    file: Option<std::path::PathBuf>,
    restore: Option<std::path::PathBuf>,
) -> Result<ExitCode, ShellError> {
    let svc = Service::open(config, system_clock())?;
    if let Some(path) = restore {
        let done = restore_file(&svc.store, &path, true)?;
        println!("restored {} records from {}", done.records, path.display());
    } else {
        let path = file.unwrap_or_else(|| path_at(&svc.config, (svc.clock)()));
        let mut progress = crate::progress::Progress::new("backup", "records", None);
        let n = write_file(&svc.store, &path, Some(&mut progress))?;
        progress.finish();
        println!("{n} records written to {}", path.display());
    }
    Ok(ExitCode::SUCCESS)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ops::rolling::{list, rolling};
    use castellan_judge::{Changes, LogLine, Outbound, Store};

    fn changes(n: usize, tag: &str) -> Changes {
        Changes {
            processed: vec![format!("<{tag}@example.org>")],
            outbox: (0..n)
                .map(|i| Outbound {
                    message_id: format!("<{tag}-{i}@castellan.invalid>"),
                    to: "ann@example.org".into(),
                    subject: tag.into(),
                    body: format!("{tag} {i}\n"),
                    in_reply_to: None,
                    references: vec![],
                    headers: vec![],
                    html: None,
                    attachments: vec![],
                })
                .collect(),
            log: (0..n)
                .map(|i| LogLine {
                    game: "race-1".into(),
                    at: 1,
                    kind: "mail".into(),
                    text: format!("{tag} {i}"),
                })
                .collect(),
            ..Default::default()
        }
    }

    /// "Restore, then go on: keys continue after the restored ones, and nothing
    /// is overwritten": replies and log lines written after a restore are added beside the
    /// restored ones.
    #[test]
    fn after_a_restore_new_replies_and_log_lines_overwrite_nothing() {
        let dir = tempfile::tempdir().unwrap();
        let old = SledStore::open(&dir.path().join("old")).unwrap();
        old.commit(&changes(50, "before")).unwrap();
        let mut backup = Vec::new();
        write(&old, &mut backup).unwrap();
        let new = SledStore::open(&dir.path().join("new")).unwrap();
        restore(&new, &mut backup.as_slice(), &mut || {}).unwrap();
        new.commit(&changes(5, "after")).unwrap();
        let outbox = new.outbox().unwrap();
        assert_eq!(outbox.len(), 55, "50 restored replies and 5 new ones");
        let log = new.game_log("race-1").unwrap();
        assert_eq!(log.len(), 55, "50 restored log lines and 5 new ones");
        assert!(outbox.iter().any(|(_, i)| i.mail.subject == "before"));
    }

    /// A restore brings the games' indexes (tokens, addresses, the highest game number)
    /// as the backup holds them, and builds those it lacks (a backup written before an
    /// index existed): either way, every lookup agrees with the games restored.
    #[test]
    fn a_restore_keeps_the_indexes_its_backup_holds_and_builds_the_others() {
        let dir = tempfile::tempdir().unwrap();
        let old = SledStore::open(&dir.path().join("old")).unwrap();
        let mut rec = crate::fixtures::game_record("castle-7", "gm7", &["a7", "b7"]);
        rec.observers = vec!["watcher@example.org".into()];
        old.commit(&Changes {
            games: vec![rec.into()],
            ..Default::default()
        })
        .unwrap();
        let mut backup = Vec::new();
        write(&old, &mut backup).unwrap();
        let text = String::from_utf8(backup).unwrap();
        // The same backup as an older build wrote it: no index of addresses, no number.
        let older: String = text
            .lines()
            .filter(|l| {
                !l.contains(&format!("\"key\":\"{}", hex::encode(b"addr")))
                    && !l.contains(&format!("\"key\":\"{}\"", hex::encode(b"game_number")))
                    && !l.contains(&format!(
                        "\"key\":\"{}\"",
                        hex::encode(crate::store::ADDRESSES_KEY)
                    ))
                    && !l.contains(&format!(
                        "\"key\":\"{}\"",
                        hex::encode(crate::store::NUMBER_KEY)
                    ))
            })
            .map(|l| format!("{l}\n"))
            .collect();
        let records = older.lines().count() - 2;
        let older = older.replace(
            &format!("\"records\":{}", text.lines().count() - 2),
            &format!("\"records\":{records}"),
        );
        assert!(
            records < text.lines().count() - 2,
            "the older backup lacks records"
        );
        for (name, b) in [("current", text.as_str()), ("older", older.as_str())] {
            let new = SledStore::open(&dir.path().join(name)).unwrap();
            restore(&new, &mut b.as_bytes(), &mut || {}).unwrap();
            assert_eq!(
                new.game_of_token("b7").unwrap().as_deref(),
                Some("castle-7"),
                "{name}"
            );
            assert_eq!(
                new.games_of_address("watcher@example.org").unwrap(),
                ["castle-7"],
                "{name}"
            );
            assert_eq!(
                new.games_of_address("p1@example.org").unwrap(),
                ["castle-7"],
                "{name}"
            );
            assert_eq!(new.highest_game_number().unwrap(), 7, "{name}");
        }
    }

    /// A backup cut short (a full disk, a copy interrupted) is refused whole.
    #[test]
    fn a_truncated_backup_is_refused_and_restores_nothing() {
        let dir = tempfile::tempdir().unwrap();
        let old = SledStore::open(&dir.path().join("old")).unwrap();
        old.commit(&changes(20, "x")).unwrap();
        let mut backup = Vec::new();
        write(&old, &mut backup).unwrap();
        let text = String::from_utf8(backup).unwrap();
        let cut: String = text.lines().take(10).map(|l| format!("{l}\n")).collect();
        let e = check(&mut cut.as_bytes()).unwrap_err();
        assert!(e.0.contains("truncated"), "{e}");
        let file = dir.path().join("cut.jsonl");
        std::fs::write(&file, &cut).unwrap();
        let new = SledStore::open(&dir.path().join("new")).unwrap();
        assert!(restore_file(&new, &file, false).is_err());
        assert!(new.outbox().unwrap().is_empty(), "nothing stored");
        assert_eq!(
            check(&mut text.as_bytes()).unwrap().records,
            48,
            "20 replies, 20 log lines, the journal's mark, the layout's and the six indexes'"
        );
    }

    /// `backup.keep`: the rolling backups beyond the newest `keep` are removed, and none
    /// is made before `every_hours` have passed.
    #[test]
    fn rolling_backups_are_made_on_time_and_pruned() {
        let dir = tempfile::tempdir().unwrap();
        let mut config = Config {
            data_dir: dir.path().to_path_buf(),
            ..Config::default()
        };
        config.backup.every_hours = 1;
        config.backup.keep = 2;
        let store = SledStore::open(&config.database_path()).unwrap();
        store.commit(&changes(3, "x")).unwrap();
        let t0 = 1_000_000;
        assert!(rolling(&store, &config, t0).unwrap().is_some());
        assert!(rolling(&store, &config, t0 + 3599).unwrap().is_none());
        for i in 1..=3 {
            assert!(rolling(&store, &config, t0 + i * 3600).unwrap().is_some());
        }
        let kept: Vec<i64> = list(&config.backup_dir()).iter().map(|b| b.0).collect();
        assert_eq!(kept, vec![t0 + 3 * 3600, t0 + 2 * 3600]);
        let leftovers = std::fs::read_dir(config.backup_dir())
            .unwrap()
            .flatten()
            .filter(|e| e.file_name().to_string_lossy().ends_with(".partial"))
            .count();
        assert_eq!(leftovers, 0);
    }

    /// A player's record: records are kept on disk (read back after the
    /// database is closed and opened again) and carried by a backup.
    #[test]
    fn players_records_are_kept_on_disk_and_in_backups() {
        let dir = tempfile::tempdir().unwrap();
        let rec = castellan_judge::PlayerRecord {
            address: "ann@example.org".into(),
            played: 3,
            finished: 2,
            won: 1,
            met: 17,
            missed: 2,
            resigned: 1,
            ..Default::default()
        };
        {
            let db = SledStore::open(&dir.path().join("db")).unwrap();
            let mut c = changes(1, "rec");
            c.records.push(rec.clone());
            db.commit(&c).unwrap();
        }
        // Opened again once the first store let go of it (sled's flusher stops first).
        let db = SledStore::reopened(&dir.path().join("db"));
        assert_eq!(db.record("ann@example.org").unwrap(), Some(rec.clone()));
        assert_eq!(db.record("bob@example.org").unwrap(), None);
        let mut backup = Vec::new();
        write(&db, &mut backup).unwrap();
        let copy = SledStore::open(&dir.path().join("copy")).unwrap();
        restore(&copy, &mut std::io::Cursor::new(backup), &mut || {}).unwrap();
        assert_eq!(copy.record("ann@example.org").unwrap(), Some(rec));
    }
}
