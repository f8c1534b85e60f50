//! Durability of what the judge stores, with the real binary on real files: what reaches
//! the device before a message is acknowledged, and what happens when a snapshot was cut
//! off by a crash.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn bin() -> Command {
    Command::new(env!("CARGO_BIN_EXE_castellan"))
}

/// A configuration with every path under `dir` (embedded defaults otherwise), without
/// rolling backups: the syncs traced are the handling's own, and the journal keeps its
/// entries (a backup holding them would have them removed).
fn write_config(dir: &Path) -> PathBuf {
    let p = dir.join("castellan.yaml");
    std::fs::write(
        &p,
        format!("data_dir: {}\nbackup:\n  every_hours: 0\n", dir.display()),
    )
    .unwrap();
    p
}

fn letter(n: u32) -> Vec<u8> {
    format!(
        "From: Ann <ann@example.org>\r\nTo: judge@castellan.invalid\r\nSubject: hi\r\n\
         Message-ID: <durable-{n}@example.org>\r\n\r\nLIST\r\n"
    )
    .into_bytes()
}

fn ingest(cfg: &Path, msg: &Path) -> Output {
    bin()
        .arg("--config")
        .arg(cfg)
        .arg("ingest")
        .arg(msg)
        .output()
        .unwrap()
}

fn files_in(dir: &Path) -> Vec<PathBuf> {
    std::fs::read_dir(dir)
        .map(|rd| rd.filter_map(|e| e.ok().map(|e| e.path())).collect())
        .unwrap_or_default()
}

/// "Durable means on the device": under strace, `castellan ingest` fdatasyncs the
/// journal's entry for the message (its file name, time and entropy: what makes it again)
/// after the message was delivered and before it renames it from new/ to cur/ (the
/// acknowledgement); the database is flushed after it (a sync of sled's log file, or of
/// its whole filesystem (`syncfs`) when the replies were written ahead), and the reply
/// is made visible in the outbox only after that flush. A kill between the
/// acknowledgement and the commit rolls the entry forward (tests/recover.rs,
/// `a_crash_between_acknowledgement_and_commit_is_rolled_forward_at_the_next_open`). The
/// move itself is not fsynced: a move a power cut undoes leaves a message already
/// journaled in new/, which is then a duplicate (tests/pipeline.rs,
/// `a_crash_between_commit_and_acknowledgement_applies_the_mail_exactly_once`).
#[test]
fn the_journal_entry_reaches_the_device_before_the_message_is_acknowledged() {
    let tmp = tempfile::tempdir().unwrap();
    let cfg = write_config(tmp.path());
    let msg = tmp.path().join("msg.eml");
    std::fs::write(&msg, letter(1)).unwrap();
    let trace = tmp.path().join("strace.txt");
    let out = Command::new("strace")
        .args([
            "-f",
            "-y",
            "-qq",
            "-e",
            "trace=fsync,fdatasync,syncfs,rename,renameat,renameat2",
        ])
        .arg("-o")
        .arg(&trace)
        .arg(env!("CARGO_BIN_EXE_castellan"))
        .arg("--config")
        .arg(&cfg)
        .arg("ingest")
        .arg(&msg)
        .output()
        .expect("strace is installed (scripts/install-test-deps.sh)");
    assert!(
        out.status.success(),
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    let lines: Vec<String> = std::fs::read_to_string(&trace)
        .unwrap()
        .lines()
        .map(str::to_string)
        .collect();
    let all = || lines.join("\n");
    let ack = lines
        .iter()
        .position(|l| l.contains("rename") && l.contains("/new/") && l.contains("/cur/"))
        .unwrap_or_else(|| panic!("no acknowledgement (rename new/ -> cur/):\n{}", all()));
    let journal_sync = lines[..ack]
        .iter()
        .rposition(|l| l.contains("fdatasync(") && l.contains("journal.jsonl>"))
        .unwrap_or_else(|| {
            panic!(
                "no fdatasync of the journal before the acknowledgement:\n{}",
                all()
            )
        });
    let delivered = lines[..journal_sync]
        .iter()
        .any(|l| l.contains("rename") && l.contains("/tmp/") && l.contains("/new/"));
    assert!(
        delivered,
        "the message was delivered to new/ before the journal sync"
    );
    let db_sync = ack
        + lines[ack..]
            .iter()
            .position(|l| {
                (l.contains("fdatasync(") || l.contains("fsync(") || l.contains("syncfs("))
                    && l.contains("/db>")
            })
            .unwrap_or_else(|| panic!("no sync of the database after the commit:\n{}", all()));
    let reply_shown = lines
        .iter()
        .position(|l| l.contains("rename") && l.contains("/outbox/") && l.contains(".eml"))
        .unwrap_or_else(|| panic!("no reply renamed into the outbox:\n{}", all()));
    assert!(
        reply_shown > db_sync,
        "the reply is visible only after the database's flush:\n{}",
        all()
    );
}

/// "Recovery without loss": a snapshot cut off by a crash leaves a
/// `snap.*.generating` file that makes sled 0.34 refuse to open; the judge removes it (and
/// only it) at open, and every stored message is still there.
#[test]
fn an_interrupted_snapshot_is_removed_at_open_and_nothing_is_lost() {
    let tmp = tempfile::tempdir().unwrap();
    let cfg = write_config(tmp.path());
    let msg = tmp.path().join("msg.eml");
    std::fs::write(&msg, letter(1)).unwrap();
    assert!(ingest(&cfg, &msg).status.success());
    let db = tmp.path().join("db");
    let stale = db.join("snap.0000000000000400.generating");
    std::fs::write(&stale, b"").unwrap();
    // The same message again: applied once, so it must be recognised as processed.
    let out = ingest(&cfg, &msg);
    assert!(out.status.success(), "{out:?}");
    assert!(!stale.exists(), "the interrupted snapshot is removed");
    let store = castellan::store::SledStore::open(&db).unwrap();
    let key =
        castellan_judge::processed_key(&castellan_mail::parse(&letter(1), usize::MAX).unwrap());
    assert!(
        key.starts_with("<durable-1@example.org> ann@example.org "),
        "{key}"
    );
    assert!(castellan_judge::Store::is_processed(&store, &key).unwrap());
    let outbox = tmp.path().join("mail/outbox");
    assert_eq!(files_in(&outbox).len(), 1, "answered once, not twice");
}

/// Five mails waiting in the Maildir under `dir`, then `serve --once` under strace
/// (following threads, naming each file descriptor's path) with `filter`, and
/// `CASTELLAN_FAULT` set to `fault` if any. The trace's lines.
fn serve_five_under_strace(dir: &Path, filter: &[&str], fault: Option<&str>) -> Vec<String> {
    let cfg = write_config(dir);
    let new = dir.join("mail/inbox/new");
    for sub in ["new", "cur", "tmp"] {
        std::fs::create_dir_all(dir.join("mail/inbox").join(sub)).unwrap();
    }
    for n in 1..=5 {
        std::fs::write(new.join(format!("100000000{n}.batch{n}.test")), letter(n)).unwrap();
    }
    let trace = dir.join("strace.txt");
    let mut strace = Command::new("strace");
    strace
        .args(["-f", "-y", "-qq"])
        .args(filter)
        .arg("-o")
        .arg(&trace);
    if let Some(fault) = fault {
        strace.env("CASTELLAN_FAULT", fault);
    }
    let out = strace
        .arg(env!("CARGO_BIN_EXE_castellan"))
        .arg("--config")
        .arg(&cfg)
        .args(["serve", "--once"])
        .output()
        .expect("strace is installed (scripts/install-test-deps.sh)");
    assert!(out.status.success(), "{out:?}");
    std::fs::read_to_string(&trace)
        .unwrap()
        .lines()
        .map(str::to_string)
        .collect()
}

/// Group commit: `serve --once` handles the messages waiting in the Maildir as one
/// batch: their journal entries made durable with one fdatasync, then every message
/// acknowledged with no sync of ours between two acknowledgements (with one sync per
/// message, they would alternate), then the batch made durable with one flush of the
/// database (the acknowledgement does not wait for it: the journal makes each mail again).
#[test]
fn a_batch_of_messages_is_acknowledged_after_one_journal_sync_and_flushed_once() {
    let tmp = tempfile::tempdir().unwrap();
    let new = tmp.path().join("mail/inbox/new");
    let lines = serve_five_under_strace(
        tmp.path(),
        &["-e", "trace=fdatasync,syncfs,rename,renameat,renameat2"],
        None,
    );
    let events: Vec<&str> = lines
        .iter()
        .filter_map(|l| {
            if (l.contains("fdatasync(") || l.contains("syncfs(")) && l.contains("/db>") {
                Some("sync")
            } else if l.contains("fdatasync(") && l.contains("journal.jsonl>") {
                Some("journal")
            } else if l.contains("rename") && l.contains("/new/") && l.contains("/cur/") {
                Some("ack")
            } else {
                None
            }
        })
        .collect();
    let first_ack = events
        .iter()
        .position(|e| *e == "ack")
        .expect("acknowledged");
    let last_ack = events.iter().rposition(|e| *e == "ack").unwrap();
    assert_eq!(
        events[..first_ack],
        ["journal"],
        "one journal sync, and nothing else, before the first acknowledgement: {events:?}"
    );
    assert_eq!(
        events[first_ack..=last_ack]
            .iter()
            .filter(|e| **e == "ack")
            .count(),
        5,
        "{events:?}"
    );
    assert!(
        events[first_ack..=last_ack].iter().all(|e| *e == "ack"),
        "no sync between the acknowledgements of one batch: {events:?}"
    );
    assert_eq!(
        events.get(last_ack + 1),
        Some(&"sync"),
        "the batch's flush of the database after its acknowledgements: {events:?}"
    );
    assert_eq!(std::fs::read_dir(&new).unwrap().count(), 0);
    // The replies were written ahead while the batch was handled, and the batch's one
    // `syncfs` made them durable with the database: the outbox syncs no filesystem again
    // (it fsyncs its folder after the renames only).
    let outbox_syncfs = lines
        .iter()
        .filter(|l| l.contains("syncfs(") && l.contains("/outbox>"))
        .count();
    let replies = std::fs::read_dir(tmp.path().join("mail/outbox"))
        .unwrap()
        .filter(|e| {
            e.as_ref()
                .is_ok_and(|e| e.file_name().to_string_lossy().ends_with(".eml"))
        })
        .count();
    assert!(replies >= 5, "{replies} replies");
    assert_eq!(outbox_syncfs, 0, "{lines:#?}");
    // The write-ahead step is grouped too: the batch's five journal entries are made
    // durable with one fdatasync of the journal before the judge runs, and the first sync
    // of the database comes after it.
    let journal: Vec<usize> = lines
        .iter()
        .enumerate()
        .filter(|(_, l)| l.contains("fdatasync(") && l.contains("journal.jsonl>"))
        .map(|(i, _)| i)
        .collect();
    let first_db_sync = lines
        .iter()
        .position(|l| (l.contains("fdatasync(") || l.contains("syncfs(")) && l.contains("/db>"))
        .expect("the database synced");
    assert_eq!(
        journal.iter().filter(|&&i| i < first_db_sync).count(),
        1,
        "one journal sync for the batch's entries: {lines:#?}"
    );
    let entries = std::fs::read_to_string(tmp.path().join("journal.jsonl")).unwrap();
    assert_eq!(
        entries
            .lines()
            .filter(|l| l.contains("\"kind\":\"mail\""))
            .count(),
        5,
        "{entries}"
    );
}

/// "Recovery without loss": a batch's journal entries are written ahead, and
/// their fdatasync runs on a thread of its own while the batch is judged; nothing of the
/// batch reaches the database's files before that fdatasync has returned. The fsync is
/// made to start 300 ms late (`CASTELLAN_FAULT=slow-journal-sync`), so a commit that did
/// not wait for it would write to sled's files first.
#[test]
fn a_batch_is_committed_only_once_its_journal_entries_are_on_the_device() {
    let tmp = tempfile::tempdir().unwrap();
    let lines = serve_five_under_strace(
        tmp.path(),
        &[
            "-s",
            "200",
            "-e",
            "trace=write,pwrite64,pwritev,pwritev2,fdatasync,fsync,sync_file_range",
        ],
        Some("slow-journal-sync"),
    );
    let pid = |l: &str| l.split_whitespace().next().unwrap_or_default().to_string();
    // The batch's entries written to the journal (not yet synced).
    let entries = lines
        .iter()
        .position(|l| l.contains("journal.jsonl>") && l.contains("\\\"kind\\\":\\\"mail\\\""))
        .expect("the batch's entries written to the journal");
    // The journal's fdatasync after them, and the line where it returned (strace splits a
    // call another thread interrupts into an unfinished line and a resumed one).
    let sync = entries
        + lines[entries..]
            .iter()
            .position(|l| l.contains("fdatasync(") && l.contains("journal.jsonl>"))
            .expect("the journal synced after the batch's entries");
    let returned = if lines[sync].contains("<unfinished") {
        let who = pid(&lines[sync]);
        sync + lines[sync..]
            .iter()
            .position(|l| pid(l) == who && l.contains("fdatasync resumed"))
            .expect("the journal's fsync returned")
    } else {
        sync
    };
    assert!(lines[returned].contains("= 0"), "{}", lines[returned]);
    // The first write of sled's files after the entries: after the fsync returned.
    let first_db_write = entries
        + lines[entries..]
            .iter()
            .position(|l| {
                (l.contains("pwrite") || l.contains("sync_file_range(") || l.contains("write("))
                    && l.contains("/db/")
            })
            .expect("the batch written to the database");
    assert!(
        first_db_write > returned,
        "sled wrote before the journal's fsync returned: {:#?}",
        &lines[entries..=first_db_write.max(returned)]
    );
}
