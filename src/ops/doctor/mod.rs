//! `castellan doctor`: checks an installation the way an operator would, one line per check,
//! with a fix for every problem. Exit status non-zero when any check fails; a warning (a
//! missing backup, a parked reply) does not fail the run.
//!
//! Checks: the configuration (parse, values, CA files), the data directory, the database's
//! health (every game record readable, the outbox), the inbox (Maildir, and IMAP login when
//! configured), the outbox (file folder, SMTP greeting, sendmail program), the templates and
//! the age of the newest backup. Read-only, except for one probe file in writable folders.

use crate::config::{Config, InboundKind, OutboundKind};
use crate::store::SledStore;
use castellan_judge::Store;
use std::io::Write;
use std::path::Path;
use std::time::{Duration, SystemTime};

mod defer;
mod mail;
use mail::{inbox, outbox};

/// How long a network check waits for a server.
const NET_TIMEOUT: Duration = Duration::from_secs(10);
/// A backup older than this is reported.
const BACKUP_MAX_AGE_DAYS: u64 = 7;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Level {
    Ok,
    Warn,
    Fail,
}

/// One check's outcome: what was checked, what was found, and how to fix it.
#[derive(Debug, Clone)]
pub struct Check {
    pub name: &'static str,
    pub level: Level,
    pub detail: String,
    pub fix: Option<String>,
}

fn ok(name: &'static str, detail: impl Into<String>) -> Check {
    Check {
        name,
        level: Level::Ok,
        detail: detail.into(),
        fix: None,
    }
}
fn warn(name: &'static str, detail: impl Into<String>, fix: impl Into<String>) -> Check {
    Check {
        name,
        level: Level::Warn,
        detail: detail.into(),
        fix: Some(fix.into()),
    }
}
fn fail(name: &'static str, detail: impl Into<String>, fix: impl Into<String>) -> Check {
    Check {
        name,
        level: Level::Fail,
        detail: detail.into(),
        fix: Some(fix.into()),
    }
}

/// Every check for the configuration at `path` (`must_exist`: named with `--config`), with
/// `data_dir` overriding the file's `data_dir` as the `--data-dir` flag does.
pub fn run(path: &Path, must_exist: bool, data_dir: Option<&Path>) -> Vec<Check> {
    let mut config = match Config::load(path, must_exist) {
        Ok(c) => c,
        Err(e) => {
            return vec![fail(
                "config",
                format!("{e} (the other checks need a configuration that loads)"),
                format!(
                    "correct {} at the place named; docs/config.md lists every key and its values",
                    path.display()
                ),
            )]
        }
    };
    let mut out = vec![ok(
        "config",
        if path.exists() {
            format!("{} loads", path.display())
        } else {
            format!("no file at {}: the defaults", path.display())
        },
    )];
    if let Some(d) = data_dir {
        config.data_dir = d.to_path_buf();
    }
    let user = defer::as_owner(path, &config.data_dir);
    let cannot_switch = user
        .iter()
        .any(|c| c.name == "user" && c.level == Level::Fail);
    out.extend(user);
    if cannot_switch {
        // Not as root on another user's folder: root's files would defer every ingest.
        return out;
    }
    out.extend(config_values(&config));
    out.push(data_dir_check(&config.data_dir));
    out.push(defer::foreign_files(&config.data_dir));
    out.extend(defer::recovery_leftovers(&config));
    let games = database(&config, &mut out);
    out.extend(defer::daemon(&config));
    out.extend(inbox(&config));
    out.extend(outbox(&config));
    out.push(templates(&config.templates_dir));
    out.push(backups(&config.backup_dir(), games));
    out
}

/// The report: one line per check, then a summary line. `true` when nothing failed.
pub fn render(checks: &[Check]) -> (String, bool) {
    let mut s = String::new();
    for c in checks {
        let tag = match c.level {
            Level::Ok => "ok  ",
            Level::Warn => "WARN",
            Level::Fail => "FAIL",
        };
        s.push_str(&format!("{tag}  {:<10} {}", c.name, c.detail));
        if let Some(fix) = &c.fix {
            s.push_str(&format!("; fix: {fix}"));
        }
        s.push('\n');
    }
    let fails = checks.iter().filter(|c| c.level == Level::Fail).count();
    let warns = checks.iter().filter(|c| c.level == Level::Warn).count();
    let plural = |n: usize, w: &str| format!("{n} {w}{}", if n == 1 { "" } else { "s" });
    if fails == 0 {
        s.push_str(&format!(
            "all is well ({} checks, {})\n",
            checks.len(),
            plural(warns, "warning")
        ));
    } else {
        s.push_str(&format!(
            "{} ({}): see the fixes above\n",
            plural(fails, "problem"),
            plural(warns, "warning")
        ));
    }
    (s, fails == 0)
}

fn is_loopback(host: &str) -> bool {
    host == "localhost"
        || host
            .parse::<std::net::IpAddr>()
            .map(|ip| ip.is_loopback())
            .unwrap_or(false)
}

fn config_values(c: &Config) -> Vec<Check> {
    let mut out = Vec::new();
    let addr = &c.judge.address;
    let parts = addr.split_once('@');
    if !matches!(parts, Some((l, d)) if !l.is_empty() && d.contains('.')) {
        out.push(fail(
            "config",
            format!("judge.address \"{addr}\" is not a mail address"),
            "set judge.address to the judge's own address, like judge@example.org",
        ));
    } else if c.outbound.kind != OutboundKind::File && addr.ends_with(".invalid") {
        out.push(warn(
            "config",
            format!("judge.address is still the placeholder {addr}, and replies go out for real"),
            "set judge.address and judge.domain to the judge's real address",
        ));
    }
    if c.outbound.kind == OutboundKind::Smtp
        && !matches!(
            c.outbound.smtp.security.to_lowercase().as_str(),
            "none" | "plain" | "starttls" | "tls" | "smtps"
        )
    {
        out.push(fail(
            "config",
            format!(
                "outbound.smtp.security \"{}\" is not none, starttls or tls",
                c.outbound.smtp.security
            ),
            "set outbound.smtp.security to starttls (port 587), tls (port 465) or none (127.0.0.1 only)",
        ));
    }
    if c.inbound.kind == InboundKind::Imap
        && !c.inbound.imap.tls
        && !is_loopback(&c.inbound.imap.host)
    {
        out.push(fail(
            "config",
            format!(
                "inbound.imap.tls is false for {}: the password would cross the network in clear",
                c.inbound.imap.host
            ),
            "set inbound.imap.tls: true (port 993), or use a server on 127.0.0.1",
        ));
    }
    if let Some(listen) = &c.metrics.listen {
        match crate::serve::metrics::check_listen(listen) {
            Ok(a) => out.push(ok(
                "config",
                format!("metrics on http://{a}/metrics when serve runs"),
            )),
            Err(e) => out.push(fail(
                "config",
                e,
                "set metrics.listen to a loopback address like 127.0.0.1:9464, or null (off)",
            )),
        }
    }
    for (key, f) in c.ca_files_in_use() {
        match castellan_mail::check_ca_file(f) {
            Ok(n) => out.push(ok("config", format!("{key}: {n} certificate(s)"))),
            Err(e) => out.push(fail(
                "config",
                format!("{key}: {e}"),
                format!("point {key} at a readable PEM file of CA certificates, or remove the key"),
            )),
        }
    }
    out
}

/// Can this process create a file in `dir`? (The probe file is removed at once.)
fn writable(dir: &Path) -> Result<(), String> {
    let probe = dir.join(format!(".castellan-doctor-{}", std::process::id()));
    std::fs::File::create(&probe)
        .and_then(|mut f| f.write_all(b"doctor"))
        .map_err(|e| e.to_string())?;
    let _ = std::fs::remove_file(&probe);
    Ok(())
}

fn data_dir_check(dir: &Path) -> Check {
    let owner_fix = format!(
        "make it a folder owned by the user that runs castellan: mkdir -p {0} && chown castellan {0}",
        dir.display()
    );
    match std::fs::metadata(dir) {
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => warn(
            "data dir",
            format!("{} does not exist yet", dir.display()),
            format!(
                "it is made on the first serve or ingest; or: mkdir -p {}",
                dir.display()
            ),
        ),
        Err(e) => fail("data dir", format!("{}: {e}", dir.display()), owner_fix),
        Ok(m) if !m.is_dir() => fail(
            "data dir",
            format!("{} is not a folder", dir.display()),
            format!(
                "set data_dir (or --data-dir) to a folder, or move the file {} away",
                dir.display()
            ),
        ),
        Ok(_) => match writable(dir) {
            Ok(()) => ok("data dir", format!("{} is writable", dir.display())),
            Err(e) => fail(
                "data dir",
                format!("{} is not writable: {e}", dir.display()),
                owner_fix,
            ),
        },
    }
}

/// The database's health; returns how many games it holds (None if it could not be read).
fn database(c: &Config, out: &mut Vec<Check>) -> Option<usize> {
    let path = c.database_path();
    if !path.exists() {
        out.push(ok(
            "database",
            format!(
                "none yet at {} (made on the first serve or ingest)",
                path.display()
            ),
        ));
        out.extend(defer::back_in_time(c, None));
        return Some(0);
    }
    let store = match SledStore::open(&path) {
        Ok(s) => s,
        Err(e) => {
            let text = e.0;
            if text.contains("lock")
                || text.contains("WouldBlock")
                || text.contains("temporarily unavailable")
            {
                out.push(warn(
                    "database",
                    format!(
                        "{} is in use by a running castellan (serve)",
                        path.display()
                    ),
                    "stop serve (systemctl stop castellan) for a full check, then start it again",
                ));
            } else {
                out.push(fail(
                    "database",
                    text,
                    "check the folder's owner and permissions; if it is damaged: castellan recover (it rebuilds it from the newest backup and the journal, every mail since included)",
                ));
            }
            return None;
        }
    };
    out.push(defer::journal_mark(c, &store));
    let ids = match store.game_ids() {
        Ok(ids) => ids,
        Err(e) => {
            out.push(fail(
                "database",
                format!("{}: cannot list games: {}", path.display(), e.0),
                "castellan recover (it rebuilds the database from the newest backup and the journal, every mail since included)",
            ));
            return None;
        }
    };
    let mut bad = Vec::new();
    for id in &ids {
        match store.game(id) {
            Ok(Some(_)) => {}
            Ok(None) => bad.push(format!("{id}: listed but missing")),
            Err(e) => bad.push(format!("{id}: {}", e.0)),
        }
    }
    if bad.is_empty() {
        out.push(ok(
            "database",
            format!(
                "{}: {} game(s), every record readable",
                path.display(),
                ids.len()
            ),
        ));
    } else {
        out.push(fail(
            "database",
            format!("{}: unreadable game records: {}", path.display(), bad.join("; ")),
            "castellan recover (it rebuilds the database from the newest backup and the journal, every mail since included)",
        ));
    }
    out.extend(disk_use(&path, &store, &c.compact));
    match store.outbox() {
        Ok(items) => {
            let parked = items.iter().filter(|(_, i)| i.failed).count();
            let waiting = items.len() - parked;
            if parked > 0 {
                out.push(warn(
                    "outbox",
                    format!("{waiting} repl(ies) waiting, {parked} parked after failures"),
                    "castellan outbox shows each one's last error; fix the relay or the address, then castellan outbox --retry",
                ));
            } else {
                out.push(ok("outbox", format!("{waiting} repl(ies) waiting, none parked")));
            }
        }
        Err(e) => out.push(fail(
            "outbox",
            format!("the outbox in the database is unreadable: {}", e.0),
            "castellan recover (it rebuilds the database from the newest backup and the journal, every mail since included)",
        )),
    }
    Some(ids.len())
}

/// The database's size on disk against its live data, and what an interrupted
/// `castellan compact` left beside it.
fn disk_use(path: &Path, store: &SledStore, compact: &crate::config::CompactConfig) -> Vec<Check> {
    let mut out = Vec::new();
    let on_disk = crate::store::dir_size(path);
    let mb = |b: u64| format!("{:.1} MB", b as f64 / 1e6);
    match store.live_bytes() {
        Ok(live) if compact.is_due(on_disk, live) => out.push(warn(
            "disk use",
            format!("{} on disk for {} of live data", mb(on_disk), mb(live)),
            "serve compacts it after its next rolling backup (compact.over_ratio); or stop \
             serve, run castellan compact, start serve again (docs/operating.md, \"Disk use\")",
        )),
        Ok(live) => out.push(ok(
            "disk use",
            format!("{} on disk for {} of live data", mb(on_disk), mb(live)),
        )),
        Err(e) => out.push(fail(
            "disk use",
            format!("cannot read every record: {}", e.0),
            "castellan recover (it rebuilds the database from the newest backup and the journal, every mail since included)",
        )),
    }
    let left: Vec<String> = crate::ops::compact::leftovers(path)
        .iter()
        .map(|p| p.display().to_string())
        .collect();
    if !left.is_empty() {
        out.push(warn(
            "disk use",
            format!("an interrupted castellan compact left {}", left.join(", ")),
            "the database in place is whole: once serve runs well, remove them (or run castellan compact again)",
        ));
    }
    out
}

fn templates(dir: &Path) -> Check {
    if !dir.is_dir() {
        return warn(
            "templates",
            format!(
                "{} is not a folder: the built-in wording is used",
                dir.display()
            ),
            "set templates_dir to the templates folder (the package's: /etc/castellan/templates)",
        );
    }
    let n = crate::serve::templates::template_files(dir).unwrap_or(0);
    match crate::serve::templates::load_templates(dir) {
        Ok(_) => ok(
            "templates",
            format!("{}: {n} template(s) parse", dir.display()),
        ),
        Err(e) => fail(
            "templates",
            e.to_string(),
            "correct the template named (or delete it: the built-in wording is used instead)",
        ),
    }
}

fn backups(dir: &Path, games: Option<usize>) -> Check {
    let newest = std::fs::read_dir(dir).ok().and_then(|rd| {
        rd.filter_map(|e| e.ok())
            .filter(|e| {
                let n = e.file_name();
                let n = n.to_string_lossy();
                n.starts_with("backup-") && n.ends_with(".jsonl")
            })
            .filter_map(|e| Some((e.metadata().ok()?.modified().ok()?, e.path())))
            .max()
    });
    let fix = format!(
        "castellan backup (writes {}/backup-<time>.jsonl); `serve` writes them itself every backup.every_hours",
        dir.display()
    );
    match (newest, games) {
        (None, Some(0)) => ok("backups", "none yet, and no game to keep"),
        (None, _) => warn("backups", format!("no backup in {}", dir.display()), fix),
        (Some((t, p)), _) => {
            let days = SystemTime::now()
                .duration_since(t)
                .map(|d| d.as_secs() / 86_400)
                .unwrap_or(0);
            if days > BACKUP_MAX_AGE_DAYS {
                warn(
                    "backups",
                    format!("the newest, {}, is {days} days old", p.display()),
                    fix,
                )
            } else {
                ok(
                    "backups",
                    format!("newest {}, {days} day(s) old", p.display()),
                )
            }
        }
    }
}

/// `castellan doctor`: the checks of the configuration `source` (loaded here: one that
/// does not load is a finding) and of its data folder, printed; a failure if any failed.
pub fn main(
    source: &crate::config::ConfigSource,
    data_dir: Option<&Path>,
) -> std::process::ExitCode {
    let checks = run(&source.path, source.must_exist, data_dir);
    let (text, healthy) = render(&checks);
    println!("{}", source.describe());
    print!("{text}");
    if healthy {
        std::process::ExitCode::SUCCESS
    } else {
        std::process::ExitCode::FAILURE
    }
}
