//! "Recovery without loss" and "faults degrade, never stop", with real parts: a
//! real Maildir, sled on disk, the journal, the real `castellan` binary where a process
//! boundary matters (damaged database, concurrent `ingest`s, a crash after the journal).

use castellan::config::Config;
use castellan::play::demo::LocalJudge;
use castellan::play::players::{play_games, MailPlayers};
use castellan::store::SledStore;
use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::sync::atomic::Ordering;
use std::sync::Arc;
use std::time::Duration;

fn base() -> Config {
    Config {
        templates_dir: PathBuf::from(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/crates/judge/templates"
        )),
        ..Config::default()
    }
}

/// What the database holds, in a form two databases that went through the same handlings
/// share: games, processed marks, senders and the journal mark byte for byte; each game's
/// log lines in order; the Message-IDs of the replies waiting and of those sent (their
/// keys come from sled's id generator, which skips ahead after a reopen).
#[derive(Debug, PartialEq)]
struct Dump {
    trees: BTreeMap<String, BTreeMap<Vec<u8>, Vec<u8>>>,
    log: BTreeMap<Vec<u8>, Vec<Vec<u8>>>,
    waiting: BTreeSet<String>,
    sent: BTreeSet<Vec<u8>>,
}

fn dump(store: &SledStore) -> Dump {
    let mut d = Dump {
        trees: BTreeMap::new(),
        log: BTreeMap::new(),
        waiting: BTreeSet::new(),
        sent: BTreeSet::new(),
    };
    for name in ["games", "processed", "senders", "meta"] {
        let t = store.db().open_tree(name).unwrap();
        d.trees.insert(
            name.into(),
            t.iter()
                .map(|kv| {
                    let (k, v) = kv.unwrap();
                    (k.to_vec(), v.to_vec())
                })
                .collect(),
        );
    }
    for kv in store.db().open_tree("log").unwrap().iter() {
        let (k, v) = kv.unwrap();
        let game = k[..k.len() - 9].to_vec();
        d.log.entry(game).or_default().push(v.to_vec());
    }
    for kv in store.db().open_tree("sent").unwrap().iter() {
        d.sent.insert(kv.unwrap().0.to_vec());
    }
    for (_, item) in store.outbox().unwrap() {
        d.waiting.insert(item.mail.message_id);
    }
    d
}

/// `after` went through the same handlings as `before`: every mail applied once (games,
/// processed marks, log lines, senders equal byte for byte), every reply sent known as
/// sent, and none sent queued again.
fn same_handlings(after: &Dump, before: &Dump) {
    assert_eq!(after.trees, before.trees);
    assert_eq!(after.log, before.log);
    assert_eq!(after.sent, before.sent, "every reply sent is known as sent");
    assert_eq!(
        after.waiting, before.waiting,
        "no reply sent is queued again"
    );
}

/// A game played by mail through the real pipeline (Maildir, sled, file outbox) on a fake
/// clock, with a rolling backup taken after `backup_after` passes. Returns the config.
fn play_with_a_backup_midway(
    dir: &Path,
    backup_after: usize,
) -> (Config, Arc<std::sync::atomic::AtomicI64>) {
    let j = LocalJudge::open(&base(), dir, 5).unwrap();
    let mut bots = MailPlayers::new(&j.svc, "rec").unwrap();
    let id = bots.create_game(&j.svc, "castle-risk", 3, &[]).unwrap();
    j.pass_after(600).unwrap();
    let mut passes = 0;
    play_games(&j.svc, &mut bots, &[id], 5_000, 500, |_| {
        j.pass_after(600).unwrap();
        passes += 1;
        if passes == backup_after {
            let now = (j.svc.clock)();
            castellan::ops::backup::write_file(
                &j.svc.store,
                &castellan::ops::backup::path_at(&j.svc.config, now),
                None,
            )
            .unwrap();
        }
        Ok(())
    })
    .unwrap();
    assert!(
        passes > backup_after.saturating_add(5) || backup_after == usize::MAX,
        "the game went on after the backup"
    );
    let config = j.svc.config.clone();
    let now = j.now.clone();
    drop(j);
    (config, now)
}

fn clock(now: &Arc<std::sync::atomic::AtomicI64>) -> castellan::serve::env::Clock {
    let now = now.clone();
    Arc::new(move || now.load(Ordering::SeqCst))
}

/// "Recovery without loss": the database folder deleted after a whole game by
/// mail; `recover` rebuilds it from the backup made midway and the journal, and it holds
/// exactly what the lost one held: every mail applied once (games, processed marks, log
/// lines, senders equal byte for byte), and no reply already sent queued again.
#[test]
fn recover_rebuilds_a_deleted_database_exactly_from_the_backup_and_the_journal() {
    let tmp = tempfile::tempdir().unwrap();
    let (config, now) = play_with_a_backup_midway(tmp.path(), 10);
    let before = dump(&opened(&config.database_path()));
    assert!(!before.trees["games"].is_empty());
    std::fs::remove_dir_all(config.database_path()).unwrap();
    // A database that is gone (sled would make an empty one) is refused, not used.
    let e = castellan::serve::service::Service::open(config.clone(), clock(&now))
        .err()
        .expect("an empty database in place of a used one is refused")
        .to_string();
    assert!(
        e.contains("went back in time") && e.contains("castellan recover"),
        "{e}"
    );
    let r = castellan::ops::recover::recover(&config, clock(&now)).unwrap();
    assert!(r.backup.is_some(), "{r:?}");
    assert!(r.mails > 10, "{r:?}");
    let after = dump(&opened(&config.database_path()));
    same_handlings(&after, &before);
    // And the service opens and goes on (once sled lets go of the store just dropped, as
    // `opened` waits: CI met it busy once).
    castellan::serve::service::Service::open_waiting(config, clock(&now), Duration::from_secs(10))
        .unwrap();
}

/// Constant cost over months: with a rolling backup every hour of a game's
/// play (kept: 2), the journal is cut at each backup and the segments both kept backups
/// hold are removed, so neither the journal on disk nor what `recover` reads grows with
/// the service's age; the database deleted at the end is still rebuilt exactly, from the
/// newest backup and the segments after it.
#[test]
fn rolling_backups_cut_the_journal_and_recover_still_rebuilds_exactly() {
    let tmp = tempfile::tempdir().unwrap();
    let (config, handled) = cut_journal_and_recover(tmp.path(), false);
    // Without `inbound.prune_handled`, every handled mail stays in cur/.
    assert_eq!(maildir_cur(&config), handled);
}

/// `inbound.prune_handled` (constant cost over months): a handled mail leaves
/// the Maildir's cur/ when the journal segment that names it is removed, so cur/ holds
/// only what `recover` can still need (the mails the kept segments name) and does not
/// grow with the service's age; and `recover` still rebuilds the database exactly.
#[test]
fn handled_mail_no_kept_backup_needs_leaves_the_maildir_and_recover_still_rebuilds() {
    let tmp = tempfile::tempdir().unwrap();
    let (config, handled) = cut_journal_and_recover(tmp.path(), true);
    let cur = maildir_cur(&config);
    let named = journal_mails(&config);
    assert!(
        cur.len() < handled.len(),
        "{} of {} handled mails still in cur/",
        cur.len(),
        handled.len()
    );
    assert!(!cur.is_empty(), "the mails after the last backup stay");
    assert_eq!(cur, named, "cur/ holds what the kept journal names");
}

/// The handled mails in the Maildir's cur/, by their names as delivered.
fn maildir_cur(config: &Config) -> BTreeSet<String> {
    std::fs::read_dir(config.inbox_path().join("cur"))
        .unwrap()
        .map(|e| {
            let name = e.unwrap().file_name().to_string_lossy().into_owned();
            castellan_mail::delivered_name(&name).to_string()
        })
        .collect()
}

/// The Maildir mails the journal still names: its closed segments and its current file.
fn journal_mails(config: &Config) -> BTreeSet<String> {
    let path = config.journal_path();
    castellan::store::journal::segments(&path)
        .into_iter()
        .map(|(_, p)| p)
        .chain(std::iter::once(path))
        .flat_map(|p| {
            std::fs::read_to_string(p)
                .unwrap()
                .lines()
                .filter_map(|l| match serde_json::from_str(l).unwrap() {
                    castellan::store::journal::Entry::Mail { file, .. } => Some(file),
                    _ => None,
                })
                .collect::<Vec<_>>()
        })
        .collect()
}

/// A game played by mail with a rolling backup every hour (kept: 2) and `prune_handled`
/// as given; then the database deleted and rebuilt by `recover`, which must hold exactly
/// what the lost one held. Returns the configuration and every mail handled (the
/// journal's entries before any was removed are not needed: cur/ before pruning is).
fn cut_journal_and_recover(dir: &Path, prune_handled: bool) -> (Config, BTreeSet<String>) {
    let mut cfg = base();
    cfg.backup.every_hours = 1;
    cfg.backup.keep = 2;
    cfg.inbound.prune_handled = prune_handled;
    let j = LocalJudge::open(&cfg, dir, 5).unwrap();
    let mut handled = BTreeSet::new();
    let mut bots = MailPlayers::new(&j.svc, "cut").unwrap();
    let id = bots.create_game(&j.svc, "castle-risk", 3, &[]).unwrap();
    j.pass_after(600).unwrap();
    let mut backups = 0;
    play_games(&j.svc, &mut bots, &[id], 5_000, 500, |round| {
        j.pass_after(600).unwrap();
        for m in round {
            let name = m.path.file_name().unwrap().to_string_lossy().into_owned();
            handled.insert(castellan_mail::delivered_name(&name).to_string());
        }
        backups += usize::from(j.svc.rolling_backup().unwrap().is_some());
        Ok(())
    })
    .unwrap();
    let config = j.svc.config.clone();
    let now = j.now.clone();
    drop(j);
    assert!(backups >= 4, "{backups} backups: the game was too short");
    assert_eq!(castellan::ops::rolling::list(&config.backup_dir()).len(), 2);
    let held = castellan::ops::rolling::oldest_kept_seq(&config).unwrap();
    let segments = castellan::store::journal::segments(&config.journal_path());
    assert!(!segments.is_empty(), "the journal was cut");
    assert!(
        segments.len() < backups,
        "{} segments after {backups} backups: none removed",
        segments.len()
    );
    for (last, path) in &segments {
        assert!(
            *last > held,
            "{} is held by every kept backup",
            path.display()
        );
    }
    let before = dump(&opened(&config.database_path()));
    std::fs::remove_dir_all(config.database_path()).unwrap();
    let r = castellan::ops::recover::recover(&config, clock(&now)).unwrap();
    assert!(r.backup.is_some(), "{r:?}");
    assert!(r.from_seq >= held, "{r:?}");
    let after = dump(&opened(&config.database_path()));
    same_handlings(&after, &before);
    castellan::serve::service::Service::open_waiting(
        config.clone(),
        clock(&now),
        Duration::from_secs(10),
    )
    .unwrap();
    (config, handled)
}

/// Recovery from the journal alone (no backup yet) when the database file is garbage.
#[test]
fn recover_rebuilds_a_garbage_database_from_the_journal_alone() {
    let tmp = tempfile::tempdir().unwrap();
    let (config, now) = play_with_a_backup_midway(tmp.path(), usize::MAX);
    let before = dump(&opened(&config.database_path()));
    for (_, b) in castellan::ops::rolling::list(&config.backup_dir()) {
        std::fs::remove_file(b).unwrap();
    }
    let db_file = config.database_path().join("db");
    let len = std::fs::metadata(&db_file).unwrap().len() as usize;
    std::fs::write(&db_file, vec![0x5a; len]).unwrap();
    let r = castellan::ops::recover::recover(&config, clock(&now)).unwrap();
    assert!(r.backup.is_none() && r.set_aside.is_some(), "{r:?}");
    let after = dump(&opened(&config.database_path()));
    assert_eq!(after.trees, before.trees);
    assert_eq!(after.log, before.log);
    assert_eq!(after.waiting, before.waiting);
}

/// The real binary on the configuration `cfg`.
fn castellan(cfg: &Path) -> Command {
    let mut c = Command::new(env!("CARGO_BIN_EXE_castellan"));
    c.arg("--config").arg(cfg);
    c
}

/// `castellan ARGS` started in the background, its output to nowhere and its log to
/// `stderr`.
fn started(cfg: &Path, args: &[&str], stderr: impl Into<Stdio>) -> std::process::Child {
    castellan(cfg)
        .args(args)
        .stdout(Stdio::null())
        .stderr(stderr)
        .spawn()
        .unwrap()
}

/// Ask `child` to stop as a service manager does (SIGTERM).
fn terminate(child: &std::process::Child) {
    let _ = Command::new("kill")
        .args(["-TERM", &child.id().to_string()])
        .status();
}

fn write_config(dir: &Path) -> PathBuf {
    let p = dir.join("castellan.yaml");
    std::fs::write(&p, format!("data_dir: {}\n", dir.display())).unwrap();
    p
}

fn letter(n: u32) -> Vec<u8> {
    format!(
        "From: Ann <ann@example.org>\r\nTo: judge@castellan.invalid\r\nSubject: hi\r\n\
         Message-ID: <recover-{n}@example.org>\r\n\r\nLIST\r\n"
    )
    .into_bytes()
}

fn ingest(cfg: &Path, dir: &Path, n: u32, env: &[(&str, &str)]) -> Output {
    let msg = dir.join(format!("msg-{n}.eml"));
    std::fs::write(&msg, letter(n)).unwrap();
    let mut c = castellan(cfg);
    c.arg("ingest").arg(&msg);
    for (k, v) in env {
        c.env(k, v);
    }
    c.output().unwrap()
}

/// The store at `path`, opened once no store holds it: sled lets go of its lock when the
/// background flusher of a store just dropped (in this process too) has stopped, which
/// may take a moment; one `handled` after another met it (busy) under load.
fn opened(path: &Path) -> SledStore {
    let give_up = std::time::Instant::now() + Duration::from_secs(10);
    loop {
        match SledStore::open(path) {
            Err(e) if SledStore::is_busy_error(&e) && std::time::Instant::now() < give_up => {
                std::thread::sleep(Duration::from_millis(20))
            }
            r => return r.unwrap(),
        }
    }
}

fn handled(dir: &Path, n: u32) -> bool {
    opened(&dir.join("db"))
        .handled_message_id(&format!("<recover-{n}@example.org>"))
        .unwrap()
}

fn waiting_in_new(dir: &Path) -> usize {
    std::fs::read_dir(dir.join("mail/inbox/new"))
        .unwrap()
        .count()
}

/// A truncated or garbage db file: `ingest` logs what is wrong, naming the
/// folder and `castellan recover`, exits 75 (the MTA keeps the mail), never panics; after
/// `castellan recover` the mail is handled, and the one before it is not applied twice.
#[test]
fn a_truncated_or_garbage_database_makes_ingest_exit_75_and_recover_repairs_it() {
    for damage in ["truncate", "garbage"] {
        let tmp = tempfile::tempdir().unwrap();
        let dir = tmp.path();
        let cfg = write_config(dir);
        let out = ingest(&cfg, dir, 1, &[]);
        assert!(out.status.success(), "{out:?}");
        let db_file = dir.join("db/db");
        match damage {
            "truncate" => std::fs::File::options()
                .write(true)
                .open(&db_file)
                .unwrap()
                .set_len(0)
                .unwrap(),
            _ => {
                let len = std::fs::metadata(&db_file).unwrap().len() as usize;
                std::fs::write(&db_file, vec![0xa5; len.max(4096)]).unwrap()
            }
        }
        let log = dir.join("ingest.log");
        let out = ingest(
            &cfg,
            dir,
            2,
            &[("CASTELLAN_LOG_FILE", log.to_str().unwrap())],
        );
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(75), "{damage}: {stderr}");
        assert!(!stderr.contains("panicked"), "{damage}: {stderr}");
        // What ingest prints may reach the sender in a bounce: the detail is in the log.
        assert!(
            !stderr.contains(&dir.join("db").display().to_string()),
            "{damage}: {stderr}"
        );
        let logged = std::fs::read_to_string(&log).unwrap();
        assert!(
            logged.contains(&dir.join("db").display().to_string())
                && logged.contains("castellan recover"),
            "{damage}: {logged}"
        );
        assert_eq!(waiting_in_new(dir), 1, "{damage}: the mail is kept");
        let out = castellan(&cfg).arg("recover").output().unwrap();
        assert!(out.status.success(), "{damage}: {out:?}");
        // The MTA tries again: the copy in the inbox and the new one are one mail.
        let out = ingest(&cfg, dir, 2, &[]);
        assert!(out.status.success(), "{damage}: {out:?}");
        assert_eq!(waiting_in_new(dir), 0);
        assert!(handled(dir, 1) && handled(dir, 2), "{damage}");
    }
}

/// Concurrent ingests: N real `castellan ingest` processes at once; by the
/// time the last exits, every message is handled (none left in new/).
#[test]
fn concurrent_ingests_leave_no_message_behind() {
    for _trial in 0..3 {
        let tmp = tempfile::tempdir().unwrap();
        let dir = tmp.path();
        let cfg = write_config(dir);
        assert!(ingest(&cfg, dir, 0, &[]).status.success());
        let n = 8;
        let children: Vec<_> = (1..=n)
            .map(|i| {
                let msg = dir.join(format!("msg-{i}.eml"));
                std::fs::write(&msg, letter(i)).unwrap();
                castellan(&cfg)
                    .arg("ingest")
                    .arg(&msg)
                    .stdout(std::process::Stdio::null())
                    .spawn()
                    .unwrap()
            })
            .collect();
        for mut c in children {
            assert!(c.wait().unwrap().success());
        }
        assert_eq!(waiting_in_new(dir), 0, "every message handled");
        for i in 0..=n {
            assert!(handled(dir, i), "message {i}");
        }
    }
}

/// A crash after the journal entry is on the device and before its mail is acknowledged
/// or committed: the entry is pending, rolled forward at the next open (its time and
/// entropy, not aborted), the mail found in new/ then a duplicate, and `recover` applies it
/// once (not twice, and not lost).
#[test]
fn a_crash_after_the_journal_entry_is_rolled_forward_and_recover_applies_the_mail_once() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    let cfg = write_config(dir);
    assert!(ingest(&cfg, dir, 1, &[]).status.success());
    let out = ingest(&cfg, dir, 2, &[("CASTELLAN_FAULT", "after-journal")]);
    assert!(!out.status.success(), "the crash happened");
    assert_eq!(waiting_in_new(dir), 1);
    assert!(ingest(&cfg, dir, 3, &[]).status.success());
    assert_eq!(waiting_in_new(dir), 0);
    let journal = std::fs::read_to_string(dir.join("journal.jsonl")).unwrap();
    assert!(!journal.contains(r#""kind":"aborted""#), "{journal}");
    for i in 1..=3 {
        assert_eq!(sent_replies_to(dir, i), 1, "message {i} answered once");
    }
    std::fs::remove_dir_all(dir.join("db")).unwrap();
    let out = castellan(&cfg).arg("recover").output().unwrap();
    assert!(out.status.success(), "{out:?}");
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        text.contains("3 mail(s)") && text.contains("0 entr") && text.contains("3 reply"),
        "{text}"
    );
    for i in 1..=3 {
        assert!(handled(dir, i), "message {i}");
    }
}

/// A crash between the acknowledgement (the mail moved to cur/, its journal entry on the
/// device) and the commit: the database never saw the mail and nothing is left in new/.
/// The next open rolls the entry forward (the mail read from cur/, at its journaled time and
/// entropy): the mail is applied once and answered with exactly one set of replies, and
/// `recover` makes the same replies (same Message-IDs: the one sent is not queued again).
#[test]
fn a_crash_between_acknowledgement_and_commit_is_rolled_forward_at_the_next_open() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    let cfg = write_config(dir);
    assert!(ingest(&cfg, dir, 1, &[]).status.success());
    let out = ingest(&cfg, dir, 2, &[("CASTELLAN_FAULT", "after-acknowledge")]);
    assert!(!out.status.success(), "the crash happened");
    assert_eq!(waiting_in_new(dir), 0, "acknowledged before the crash");
    assert!(!handled(dir, 2), "not committed before the crash");
    assert_eq!(sent_replies_to(dir, 2), 0);
    // The next open (any command that opens the service: here one that only lists the
    // outbox) rolls it forward; its reply waits in the outbox, the next pass sends it.
    let out = castellan(&cfg).arg("outbox").output().unwrap();
    assert!(out.status.success(), "{out:?}");
    assert!(handled(dir, 2), "rolled forward");
    assert_eq!(sent_replies_to(dir, 2), 0);
    assert!(ingest(&cfg, dir, 3, &[]).status.success());
    assert_eq!(sent_replies_to(dir, 2), 1, "one set of replies");
    // Delivered again by an MTA that did not see the exit: a duplicate, not applied again.
    assert!(ingest(&cfg, dir, 2, &[]).status.success());
    for i in 1..=3 {
        assert_eq!(sent_replies_to(dir, i), 1, "message {i} answered once");
    }
    let journal = std::fs::read_to_string(dir.join("journal.jsonl")).unwrap();
    assert!(!journal.contains(r#""kind":"aborted""#), "{journal}");
    std::fs::remove_dir_all(dir.join("db")).unwrap();
    let out = castellan(&cfg).arg("recover").output().unwrap();
    assert!(out.status.success(), "{out:?}");
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        text.contains("3 mail(s)") && text.contains("0 entr") && text.contains("3 reply"),
        "{text}"
    );
    assert_eq!(opened(&dir.join("db")).outbox().unwrap().len(), 0, "{text}");
}

/// "Faults degrade, never stop": `serve` (and `serve --once`) started while an
/// `ingest` holds the database for a moment waits for it instead of exiting (an MTA
/// delivers at any time, so a daemon started by its service manager met this at random).
#[test]
fn serve_started_while_the_database_is_held_for_a_moment_waits_for_it() {
    for args in [&["serve", "--once"][..], &["serve"][..]] {
        let tmp = tempfile::tempdir().unwrap();
        let dir = tmp.path();
        let cfg = write_config(dir);
        assert!(ingest(&cfg, dir, 1, &[]).status.success());
        let held = opened(&dir.join("db"));
        let mut serve = started(&cfg, args, Stdio::piped());
        std::thread::sleep(Duration::from_millis(800));
        assert!(
            serve.try_wait().unwrap().is_none(),
            "{args:?} gave up while the database was held: {:?}",
            serve.wait_with_output()
        );
        drop(held);
        if args.len() == 1 {
            // The daemon took the database: a mail given to ingest now is left to it.
            let start = std::time::Instant::now();
            while !dir.join("serve.pid").exists() {
                assert!(
                    start.elapsed() < Duration::from_secs(30),
                    "serve never started"
                );
                std::thread::sleep(Duration::from_millis(50));
            }
            terminate(&serve);
        }
        let out = serve.wait_with_output().unwrap();
        assert!(out.status.success(), "{args:?}: {out:?}");
    }
}

/// The replies in the file outbox that answer message `n`.
fn replies_to(dir: &Path, n: u32) -> usize {
    let wanted = format!("In-Reply-To: <recover-{n}@example.org>");
    std::fs::read_dir(dir.join("mail/outbox"))
        .unwrap()
        .filter_map(|e| std::fs::read_to_string(e.unwrap().path()).ok())
        .filter(|text| text.contains(&wanted))
        .count()
}

/// The replies made visible in the file outbox that answer message `n` (a crashed batch
/// may leave a hidden file it wrote ahead, which `serve` sweeps later and nothing sends).
fn sent_replies_to(dir: &Path, n: u32) -> usize {
    let wanted = format!("In-Reply-To: <recover-{n}@example.org>");
    std::fs::read_dir(dir.join("mail/outbox"))
        .unwrap()
        .map(|e| e.unwrap())
        .filter(|e| !e.file_name().to_string_lossy().starts_with('.'))
        .filter_map(|e| std::fs::read_to_string(e.path()).ok())
        .filter(|text| text.contains(&wanted))
        .count()
}

/// "No accepted mail is lost and none is applied twice", with mail arriving
/// while `castellan recover` (or `castellan compact`) runs: real `ingest` processes, one
/// after another, from before it starts until after it ends (an MTA does not stop for a
/// repair). Each holds the database's lock from start to end, and a store takes its lock
/// before it touches the folder, so an `ingest` meanwhile waits or leaves its mail in the
/// inbox, and never opens the folder about to be set aside or swapped. Once `serve --once`
/// has run, every message is handled and answered exactly once.
#[test]
fn mail_that_arrives_while_recover_runs_is_neither_lost_nor_applied_twice() {
    let mut overlapped = 0;
    for (trial, command) in ["recover", "compact", "recover", "compact"]
        .into_iter()
        .enumerate()
    {
        let tmp = tempfile::tempdir().unwrap();
        let dir = tmp.path();
        let cfg = write_config(dir);
        // One sender sends every message: room for all of them in the hour.
        let yaml = std::fs::read_to_string(&cfg).unwrap();
        std::fs::write(
            &cfg,
            format!("{yaml}judge:\n  rate_limit_per_hour: 10000\n"),
        )
        .unwrap();
        let mut n = 0;
        for _ in 0..40 {
            n += 1;
            assert!(ingest(&cfg, dir, n, &[]).status.success());
        }
        let mut recover = started(&cfg, &[command], Stdio::piped());
        let status = loop {
            let running = recover.try_wait().unwrap();
            n += 1;
            let out = ingest(&cfg, dir, n, &[]);
            // 75: the MTA keeps the mail and tries again; its copy in the inbox is
            // taken by the next pass either way.
            assert!(
                out.status.success() || out.status.code() == Some(75),
                "trial {trial}, message {n}: {out:?}"
            );
            match running {
                None => overlapped += 1,
                Some(status) => break status,
            }
        };
        let mut stderr = String::new();
        std::io::Read::read_to_string(&mut recover.stderr.take().unwrap(), &mut stderr).unwrap();
        assert!(
            status.success(),
            "trial {trial}: {command} failed: {stderr}"
        );
        for _ in 0..3 {
            n += 1;
            let out = ingest(&cfg, dir, n, &[]);
            assert!(
                out.status.success(),
                "trial {trial}, message {n} after recover: {out:?}"
            );
        }
        let out = castellan(&cfg).args(["serve", "--once"]).output().unwrap();
        assert!(out.status.success(), "{out:?}");
        assert_eq!(waiting_in_new(dir), 0, "trial {trial}");
        for i in 1..=n {
            assert!(handled(dir, i), "trial {trial}: message {i} lost");
            assert_eq!(
                replies_to(dir, i),
                1,
                "trial {trial}: message {i}'s replies"
            );
        }
    }
    assert!(
        overlapped > 0,
        "no mail arrived while recover or compact ran"
    );
}

/// A small tmpfs mounted for the test (tests run as root); unmounted on drop. A test that
/// cannot mount fails loudly, never skips.
struct Tmpfs(PathBuf);
impl Tmpfs {
    fn mount(at: &Path, size: &str) -> Tmpfs {
        std::fs::create_dir_all(at).unwrap();
        let out = Command::new("mount")
            .args(["-t", "tmpfs", "-o", &format!("size={size}"), "tmpfs"])
            .arg(at)
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "this test needs to mount a tmpfs (run it as root): {}",
            String::from_utf8_lossy(&out.stderr)
        );
        Tmpfs(at.to_path_buf())
    }
}
impl Drop for Tmpfs {
    fn drop(&mut self) {
        let _ = Command::new("umount").arg(&self.0).status();
    }
}

/// Fill the file system that holds `dir` to the last byte.
fn fill(dir: &Path) -> PathBuf {
    use std::io::Write;
    let filler = dir.join("filler");
    let mut f = std::fs::File::create(&filler).unwrap();
    let block = vec![7u8; 64 * 1024];
    while f.write_all(&block).is_ok() {}
    let small = [7u8; 512];
    while f.write_all(&small).is_ok() {}
    let _ = f.sync_all();
    filler
}

/// A full disk: on a full file system `ingest` exits 75 (the MTA keeps the
/// mail); `serve` logs the failed passes, stays up, and once there is space again takes
/// the waiting mail by itself, nothing half-written (the mail handled once, the database
/// opens).
#[test]
fn on_a_full_disk_ingest_exits_75_and_serve_waits_then_goes_on_by_itself() {
    let tmp = tempfile::tempdir().unwrap();
    let mnt = Tmpfs::mount(&tmp.path().join("fs"), "24m");
    let dir = mnt.0.clone();
    let cfg = write_config(&dir);
    assert!(ingest(&cfg, &dir, 1, &[]).status.success());
    // A mail waiting in new/ (delivered while there was room), then the disk fills.
    castellan_mail::Maildir::open(dir.join("mail/inbox"))
        .unwrap()
        .deliver(&letter(2))
        .unwrap();
    let filler = fill(&dir);
    let msg = tmp.path().join("msg-3.eml");
    std::fs::write(&msg, letter(3)).unwrap();
    let out = castellan(&cfg).arg("ingest").arg(&msg).output().unwrap();
    assert_eq!(out.status.code(), Some(75), "{out:?}");
    let log = tmp.path().join("serve.log");
    let mut serve = started(&cfg, &["serve"], std::fs::File::create(&log).unwrap());
    std::thread::sleep(Duration::from_secs(4));
    assert!(
        serve.try_wait().unwrap().is_none(),
        "serve stays up on a full disk: {}",
        std::fs::read_to_string(&log).unwrap()
    );
    let text = std::fs::read_to_string(&log).unwrap();
    assert!(
        text.contains("the pass failed") || text.contains("the disk is full"),
        "{text}"
    );
    std::fs::remove_file(&filler).unwrap();
    let deadline = std::time::Instant::now() + Duration::from_secs(90);
    while waiting_in_new(&dir) > 0 && std::time::Instant::now() < deadline {
        std::thread::sleep(Duration::from_millis(500));
    }
    terminate(&serve);
    let _ = serve.wait();
    let text = std::fs::read_to_string(&log).unwrap();
    assert_eq!(waiting_in_new(&dir), 0, "serve went on by itself: {text}");
    assert!(handled(&dir, 1) && handled(&dir, 2), "{text}");
}
