//! End-to-end behaviours of the judge on its embedded defaults, with real parts only: a
//! real Maildir inbox, sled on disk, the file outbox, and the real `castellan` binary where
//! a process boundary matters (crash, ingest). Bot players play by mail: each order is a
//! raw RFC 5322 message (see src/players.rs). The real SMTP + IMAP tests are in
//! tests/real_mail.rs.

use castellan::config::Config;
use castellan::play::demo::{LocalJudge, DEMO_EPOCH};
use castellan::play::players::{load_session, play_games, MailPlayers, PlayError, PLAYER_DOMAIN};
use castellan::serve::service::Service;
use castellan_judge::{AdminCommand, Status, Store, StoredGame};
use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::atomic::Ordering;

/// The judge on the embedded defaults under `dir`, with this checkout's templates.
fn open(dir: &Path, seed: u64) -> LocalJudge {
    let base = Config {
        templates_dir: PathBuf::from(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/crates/judge/templates"
        )),
        ..Config::default()
    };
    LocalJudge::open(&base, dir, seed).unwrap()
}

/// Ten simulated minutes, then one pass: inbox, deadlines, outbox.
fn pass(j: &LocalJudge) {
    j.pass_after(600).unwrap();
}

fn outbox_mails(dir: &Path) -> Vec<castellan_mail::Inbound> {
    let mut paths: Vec<PathBuf> = std::fs::read_dir(dir.join("mail/outbox"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "eml"))
        .collect();
    paths.sort();
    paths
        .iter()
        .map(|p| castellan_mail::parse(&std::fs::read(p).unwrap(), usize::MAX).unwrap())
        .collect()
}

fn count(dir: &Path) -> usize {
    std::fs::read_dir(dir).map(|rd| rd.count()).unwrap_or(0)
}

/// Play `game` with `players` bots by mail to its end; returns the judge and the game id.
fn play_to_the_end(
    dir: &Path,
    game: &str,
    players: usize,
    seed: u64,
) -> (LocalJudge, String, usize) {
    let j = open(dir, seed);
    let mut bots = MailPlayers::new(&j.svc, &format!("t{seed}")).unwrap();
    let id = bots.create_game(&j.svc, game, players, &[]).unwrap();
    pass(&j);
    let played = play_games(
        &j.svc,
        &mut bots,
        std::slice::from_ref(&id),
        5_000,
        500,
        |_| {
            pass(&j);
            Ok(())
        },
    )
    .unwrap();
    (j, id, played.mails)
}

/// "Machines read data, not prose": with a welcome template reworded so that no
/// sentence of the built-in wording is left, the bot players still learn their tokens (from
/// the welcome mail's `X-Castellan-*` headers) and play a whole game by mail.
#[test]
fn bots_play_a_whole_game_with_a_reworded_welcome_template() {
    let tmp = tempfile::tempdir().unwrap();
    let templates = tmp.path().join("templates");
    std::fs::create_dir_all(&templates).unwrap();
    std::fs::write(
        templates.join("welcome.txt"),
        "Ahoy {{ name }}! Table {{ game_id }} awaits. Secret word {{ password }}.\n",
    )
    .unwrap();
    let base = Config {
        templates_dir: templates,
        ..Config::default()
    };
    let j = LocalJudge::open(&base, &tmp.path().join("judge"), 7).unwrap();
    let mut bots = MailPlayers::new(&j.svc, "reworded").unwrap();
    let id = bots.create_game(&j.svc, "castrum", 2, &[]).unwrap();
    pass(&j);
    let welcomes: Vec<_> = outbox_mails(&tmp.path().join("judge"))
        .into_iter()
        .filter(|m| m.body.starts_with("Ahoy "))
        .collect();
    assert_eq!(
        welcomes.len(),
        3,
        "the reworded welcome went to 2 players and the GM"
    );
    assert!(welcomes.iter().all(|m| !m.body.contains("Your password")));
    play_games(
        &j.svc,
        &mut bots,
        std::slice::from_ref(&id),
        5_000,
        500,
        |_| {
            pass(&j);
            Ok(())
        },
    )
    .unwrap();
    let rec = j.svc.store.game(&id).unwrap().unwrap();
    assert_eq!(rec.status, Status::Finished, "{id} is played to its end");
}

/// "A whole game by email" for every game, through Maildir → judge → sled →
/// outbox, ending with a dice audit that passes.
#[test]
fn every_game_is_played_to_its_end_by_mail_and_passes_the_dice_audit() {
    // Each game's seats; a game not listed: its fewest.
    let listed = [
        ("castle-risk", 3),
        ("risk", 3),
        ("castrum", 3),
        ("castello", 2),
    ];
    for (info, players) in castellan::games::cases(&listed, |g| g.min_seats).unwrap() {
        let game = info.name;
        let tmp = tempfile::tempdir().unwrap();
        let (j, id, mails) = play_to_the_end(tmp.path(), game, players, 11);
        let rec = j.svc.store.game(&id).unwrap().unwrap();
        assert_eq!(rec.status, Status::Finished, "{game}: {:?}", rec.ended);
        // Every order mail was acknowledged (moved to cur/), none left waiting.
        let inbox = tmp.path().join("mail/inbox");
        assert_eq!(count(&inbox.join("new")), 0, "{game}");
        assert_eq!(count(&inbox.join("cur")), mails, "{game}");
        // Every player got the final report, which reveals the secret key.
        let mails_out = outbox_mails(tmp.path());
        for seat in 1..=players {
            let to = castellan::play::players::player_address(seat);
            assert!(
                mails_out.iter().any(|m| m.to.contains(&to)
                        && m.body.contains("The game is over")
                        // A game with hidden cards reveals their key at the end.
                        && (game == "castello" || m.body.contains("card-stream key"))),
                "{game}: no final report to {to}"
            );
        }
        let (_, audit) = j
            .svc
            .judge
            .admin(
                &j.svc.store,
                AdminCommand::Verify { game: id.clone() },
                &j.svc.env(),
            )
            .unwrap_or_else(|e| panic!("{game}: audit failed: {e}"));
        assert!(
            audit.contains("replays from its secret and its orders: ok"),
            "{audit}"
        );
    }
}

/// The text/html part of a raw mail, if it has one.
fn html_part(raw: &[u8]) -> Option<String> {
    let m = mail_parser::MessageParser::default().parse(raw)?;
    m.html_part(0)
        .filter(|p| p.is_text_html())
        .and_then(|p| p.text_contents().map(str::to_string))
}

/// HTML text as a reader sees it: the entities the pages use decoded.
fn unescape(s: &str) -> String {
    s.replace("&lt;", "<")
        .replace("&gt;", ">")
        .replace("&quot;", "\"")
        .replace("&#39;", "'")
        .replace("&amp;", "&")
}

/// How the games' private views start the lines that hold hidden facts.
const PRIVATE_LINES: [&str; 5] = [
    "Your hand",
    "Hand:",
    "Your cards:",
    "Hidden armies:",
    "You draw",
];

/// Standards: "no message reaches a player with another player's private facts". After
/// every pass we take each seat's secret lines at that moment (its hand, hidden armies and
/// draws as its private view shows them, when no other seat's view and no public view
/// shows the same line) and its token, and check every mail
/// written in that pass: none to anyone else may hold them. Played over several games and
/// player counts so hands, Spy cards and Castrum answers all come up.
#[test]
fn no_mail_reaches_anyone_with_another_players_private_facts() {
    for (game, players, seed) in [("castrum", 3, 1), ("castle-risk", 4, 3), ("risk", 3, 4)] {
        let tmp = tempfile::tempdir().unwrap();
        let j = open(tmp.path(), seed);
        let mut bots = MailPlayers::new(&j.svc, "leak").unwrap();
        let id = bots.create_game(&j.svc, game, players, &[]).unwrap();
        pass(&j);
        let mut seen: BTreeSet<PathBuf> = BTreeSet::new();
        let mut checked = 0usize;
        let mut hidden: BTreeSet<String> = BTreeSet::new();
        let mut htmls = 0usize;
        let mut check = |svc: &Service| {
            let rec = svc.store.game(&id).unwrap().unwrap();
            let Some(s) = castellan::play::players::load_session(&rec).unwrap() else {
                return;
            };
            // The hidden facts each game shows a player: hands, hidden armies, draws.
            let lines = |text: String| -> BTreeSet<String> {
                text.lines()
                    .map(|l| l.trim().to_string())
                    .filter(|l| PRIVATE_LINES.iter().any(|p| l.starts_with(p)))
                    .collect()
            };
            let public = lines(s.public_view(castellan_engine::Lang::En));
            let views: Vec<BTreeSet<String>> = (0..players)
                .map(|i| lines(s.private_view(i, castellan_engine::Lang::En)))
                .collect();
            let mut secrets: BTreeMap<usize, Vec<String>> = BTreeMap::new();
            for (i, v) in views.iter().enumerate() {
                for l in v {
                    let shared = public.contains(l)
                        || views
                            .iter()
                            .enumerate()
                            .any(|(k, w)| k != i && w.contains(l));
                    if !shared {
                        hidden.insert(l.clone());
                        secrets.entry(i).or_default().push(l.clone());
                    }
                }
                secrets
                    .entry(i)
                    .or_default()
                    .push(format!("#{}]", rec.seats[i].token));
            }
            let mut fresh: Vec<PathBuf> = std::fs::read_dir(tmp.path().join("mail/outbox"))
                .unwrap()
                .map(|e| e.unwrap().path())
                .filter(|p| p.extension().is_some_and(|x| x == "eml") && !seen.contains(p))
                .collect();
            fresh.sort();
            for p in fresh {
                let raw = std::fs::read(&p).unwrap();
                let m = castellan_mail::parse(&raw, usize::MAX).unwrap();
                seen.insert(p);
                let to = m.to.first().cloned().unwrap_or_default();
                let reader = (1..=players)
                    .find(|&k| castellan::play::players::player_address(k) == to)
                    .map(|k| k - 1);
                // The HTML part and its picture are scanned too, as a reader
                // sees them (entities decoded); a picture made for a seat goes to that
                // seat alone.
                let html = html_part(&raw);
                if let Some(h) = &html {
                    htmls += 1;
                    for (k, _) in h.match_indices("data-viewer=\"seat-") {
                        let n: String = h[k + 18..]
                            .chars()
                            .take_while(|c| c.is_ascii_digit())
                            .collect();
                        assert_eq!(
                            Some(n.parse::<usize>().unwrap() - 1),
                            reader,
                            "{game}: a mail to {to} carries seat {n}'s picture"
                        );
                    }
                }
                let text = format!(
                    "{}\n{}\n{}",
                    m.subject,
                    m.body,
                    html.as_deref().map(unescape).unwrap_or_default()
                );
                // A private view line is matched as a whole line (a seat's "Hand: Diplomat"
                // is not in another's "Hand: Diplomat, General"); a token anywhere.
                let text_lines: BTreeSet<&str> = text.lines().map(str::trim).collect();
                for (seat, ls) in &secrets {
                    if Some(*seat) == reader {
                        continue;
                    }
                    for l in ls {
                        let leaked = if l.starts_with('#') {
                            text.contains(l.as_str())
                        } else {
                            text_lines.contains(l.trim())
                        };
                        assert!(
                            !leaked,
                            "{game}: a mail to {to} holds seat {}'s private line {l:?}:\n{}",
                            seat + 1,
                            m.body
                        );
                    }
                }
                checked += 1;
            }
        };
        check(&j.svc);
        play_games(
            &j.svc,
            &mut bots,
            std::slice::from_ref(&id),
            3_000,
            500,
            |_| {
                pass(&j);
                check(&j.svc);
                Ok::<(), PlayError>(())
            },
        )
        .unwrap();
        assert!(checked > 50, "{game}: only {checked} mails checked");
        assert!(htmls > 20, "{game}: only {htmls} HTML parts checked");
        assert!(
            hidden.len() >= 10,
            "{game}: only {} distinct hidden facts came up: too few for the test to mean anything",
            hidden.len()
        );
        // The game master plays no seat: it got mail too, and none of it private.
        let mails = outbox_mails(tmp.path());
        assert!(mails
            .iter()
            .any(|m| m.to.contains(&format!("gm@{PLAYER_DOMAIN}"))));
    }
}

fn bin() -> Command {
    Command::new(env!("CARGO_BIN_EXE_castellan"))
}

fn write_config(dir: &Path) -> PathBuf {
    let p = dir.join("castellan.yaml");
    std::fs::write(
        &p,
        format!(
            "data_dir: {}\ntemplates_dir: {}/crates/judge/templates\n",
            dir.display(),
            env!("CARGO_MANIFEST_DIR")
        ),
    )
    .unwrap();
    p
}

/// design.md's crash-safety order: journal, acknowledge, commit. A real process killed right
/// after the sled commit and its flush (CASTELLAN_FAULT=after-commit aborts it) has moved
/// the mail to cur/ already, not fsynced; a power cut may undo that move, so the mail is put
/// back in new/ as one would: the next run acknowledges it without applying it again, and
/// answers it once. (A kill between the acknowledgement and the commit: tests/recover.rs,
/// `a_crash_between_acknowledgement_and_commit_is_rolled_forward_at_the_next_open`.)
#[test]
fn a_crash_between_commit_and_acknowledgement_applies_the_mail_exactly_once() {
    let tmp = tempfile::tempdir().unwrap();
    let cfg = write_config(tmp.path());
    let out = bin()
        .args(["--config"])
        .arg(&cfg)
        .args([
            "game",
            "new",
            "--game",
            "castle-risk",
            "--gm",
            "gm@players.invalid",
            "--player",
            "A=bot1@players.invalid",
            "--player",
            "B=bot2@players.invalid",
        ])
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let sent;
    let before;
    {
        let svc = Service::open(
            castellan::config::Config::load(&cfg, true).unwrap(),
            castellan::serve::env::system_clock(),
        )
        .unwrap();
        let mut bots = MailPlayers::new(&svc, "crash").unwrap();
        sent = bots
            .play_one(&svc, "castle-1", 500)
            .unwrap()
            .expect("the game waits for a player");
        before = castellan::play::players::progress(&svc, "castle-1").unwrap();
    }
    let crashed = bin()
        .arg("--config")
        .arg(&cfg)
        .args(["serve", "--once"])
        .env("CASTELLAN_FAULT", "after-commit")
        .output()
        .unwrap();
    assert!(
        !crashed.status.success(),
        "the injected crash did not happen"
    );
    assert!(String::from_utf8_lossy(&crashed.stderr).contains("injected crash at after-commit"));
    assert!(
        !sent.path.exists(),
        "the mail is acknowledged before its commit"
    );
    let name = sent
        .path
        .file_name()
        .unwrap()
        .to_string_lossy()
        .into_owned();
    let cur = sent.path.parent().unwrap().with_file_name("cur");
    let moved = std::fs::read_dir(&cur)
        .unwrap()
        .flatten()
        .find(|e| e.file_name().to_string_lossy().starts_with(&name))
        .expect("the mail in cur/");
    std::fs::rename(moved.path(), &sent.path).unwrap();
    let after_crash = {
        let svc = Service::open(
            castellan::config::Config::load(&cfg, true).unwrap(),
            castellan::serve::env::system_clock(),
        )
        .unwrap();
        castellan::play::players::progress(&svc, "castle-1").unwrap()
    };
    assert_ne!(
        after_crash, before,
        "the orders were committed before the crash"
    );
    let again = bin()
        .arg("--config")
        .arg(&cfg)
        .args(["serve", "--once"])
        .output()
        .unwrap();
    assert!(
        again.status.success(),
        "{}",
        String::from_utf8_lossy(&again.stderr)
    );
    assert!(
        !sent.path.exists(),
        "the mail is acknowledged on the second run"
    );
    let svc = Service::open(
        castellan::config::Config::load(&cfg, true).unwrap(),
        castellan::serve::env::system_clock(),
    )
    .unwrap();
    assert_eq!(
        castellan::play::players::progress(&svc, "castle-1").unwrap(),
        after_crash,
        "applied twice"
    );
    let answers = outbox_mails(tmp.path())
        .into_iter()
        .filter(|m| m.in_reply_to.as_deref() == Some(sent.message_id.as_str()))
        .count();
    assert_eq!(answers, 1, "one answer to the mail, not two");
}

/// `castellan ingest` (an MTA pipe): the message is stored, handled, answered; exit 0.
#[test]
fn ingest_from_a_pipe_handles_the_message_and_answers_it() {
    use std::io::Write;
    let tmp = tempfile::tempdir().unwrap();
    let cfg = write_config(tmp.path());
    let mut child = bin()
        .arg("--config")
        .arg(&cfg)
        .arg("ingest")
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(b"From: Ann <ann@example.org>\r\nTo: judge@castellan.invalid\r\nSubject: hi\r\nMessage-ID: <ingest-1@example.org>\r\n\r\nLIST\r\n")
        .unwrap();
    let out = child.wait_with_output().unwrap();
    assert!(out.status.success());
    let replies: Vec<_> = outbox_mails(tmp.path())
        .into_iter()
        .filter(|m| m.in_reply_to.as_deref() == Some("<ingest-1@example.org>"))
        .collect();
    assert_eq!(replies.len(), 1);
    assert!(replies[0].body.contains("LIST"), "{}", replies[0].body);
}

/// A game leaves one judge and arrives in another intact: export, import, and the game
/// goes on (it replays; the next mail is accepted).
#[test]
fn an_exported_game_imports_into_another_judge_and_goes_on() {
    let a = tempfile::tempdir().unwrap();
    let j = open(a.path(), 5);
    let mut bots = MailPlayers::new(&j.svc, "exp").unwrap();
    let id = bots.create_game(&j.svc, "castle-risk", 2, &[]).unwrap();
    pass(&j);
    for _ in 0..3 {
        bots.play_one(&j.svc, &id, 500).unwrap().unwrap();
        pass(&j);
    }
    let exported = castellan::ops::transfer::export(&j.svc.store, &id).unwrap();
    let text = serde_json::to_string(&exported).unwrap();
    let b = tempfile::tempdir().unwrap();
    let k = open(b.path(), 6);
    let games = castellan::games::all();
    assert_eq!(
        castellan::ops::transfer::import(&k.svc, &text, &games).unwrap(),
        id
    );
    assert_eq!(
        k.svc.store.game(&id).unwrap(),
        j.svc.store.game(&id).unwrap()
    );
    assert_eq!(
        k.svc.store.game_log(&id).unwrap(),
        j.svc.store.game_log(&id).unwrap()
    );
    // Importing again changes nothing and says why.
    let e = castellan::ops::transfer::import(&k.svc, &text, &games)
        .unwrap_err()
        .to_string();
    assert!(e.contains("exists already"), "{e}");
    // A tampered export is refused.
    let bad = text.replace("\"castle-risk\"", "\"no-such-game\"");
    assert!(castellan::ops::transfer::import(
        &open(tempfile::tempdir().unwrap().path(), 7).svc,
        &bad,
        &games
    )
    .is_err());
}

/// `castellan backup` / `backup --restore`: every record comes back, byte for byte.
#[test]
fn a_backup_restores_into_an_empty_database_identically() {
    let a = tempfile::tempdir().unwrap();
    let (j, id, _) = play_to_the_end(a.path(), "castle-risk", 2, 8);
    let mut buf = Vec::new();
    let n = castellan::ops::backup::write(&j.svc.store, &mut buf).unwrap();
    assert!(n > 10);
    let b = tempfile::tempdir().unwrap();
    let k = open(b.path(), 9);
    assert_eq!(
        castellan::ops::backup::restore(&k.svc.store, &mut buf.as_slice(), &mut || {})
            .unwrap()
            .records,
        n as u64
    );
    assert_eq!(
        k.svc.store.game(&id).unwrap(),
        j.svc.store.game(&id).unwrap()
    );
    let mut again = Vec::new();
    castellan::ops::backup::write(&k.svc.store, &mut again).unwrap();
    // The same records (the header's key generator may differ).
    let records = |b: &[u8]| -> Vec<String> {
        String::from_utf8(b.to_vec())
            .unwrap()
            .lines()
            .skip(1)
            .map(String::from)
            .collect()
    };
    assert_eq!(records(&again), records(&buf));
    // Restoring into a database that holds games is refused.
    assert!(
        castellan::ops::backup::restore(&k.svc.store, &mut buf.as_slice(), &mut || {}).is_err()
    );
}

/// README: the demo runs on the embedded defaults and ends with a passing audit.
#[test]
fn the_demo_plays_a_whole_game_and_audits_it() {
    let tmp = tempfile::tempdir().unwrap();
    let cfg = write_config(tmp.path());
    let out = bin()
        .arg("--config")
        .arg(&cfg)
        .args(["demo", "--players", "2", "--dir"])
        .arg(tmp.path().join("demo"))
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{text}\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(text.contains("Finished"), "{text}");
    assert!(
        text.contains("replays from its secret and its orders: ok"),
        "{text}"
    );
}

/// "A sender task drains the outbox with retries and backoff": a relay that is down
/// (a closed port on 127.0.0.1) is a transient failure that ends the drain; the reply that
/// found it so stays in the outbox with its error and a doubled delay, the others wait
/// uncharged for the next drain, and after `max_attempts` each is parked, never dropped.
#[test]
fn replies_wait_with_backoff_while_the_relay_is_down_and_are_parked_not_dropped() {
    let tmp = tempfile::tempdir().unwrap();
    let closed = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let port = closed.local_addr().unwrap().port();
    drop(closed);
    let mut j = open(tmp.path(), 1);
    let o = &mut j.svc.config.outbound;
    o.kind = castellan::config::OutboundKind::Smtp;
    o.smtp.host = "127.0.0.1".into();
    o.smtp.port = port;
    o.smtp.security = "none".into();
    o.max_attempts = 3;
    o.retry_base_seconds = 30;
    j.transport = j.svc.transport();
    let (svc, t, now) = (&j.svc, &j.transport, &j.now);
    let mut bots = MailPlayers::new(svc, "down").unwrap();
    bots.create_game(svc, "castle-risk", 2, &[]).unwrap();
    let queued = svc.store.outbox().unwrap().len();
    assert!(queued >= 3, "welcome mails queued");
    let (sent, failed) = j.block_on(svc.drain_outbox(t)).unwrap();
    assert_eq!((sent, failed), (0, queued));
    let items = svc.store.outbox().unwrap();
    assert_eq!(items.len(), queued, "nothing dropped");
    // The first reply found the relay down: charged; the others not tried.
    let charged = |i: &castellan::store::OutboxItem| {
        assert_eq!(i.attempts, 1);
        assert!(!i.failed);
        assert_eq!(i.not_before, DEMO_EPOCH + 60, "30 s doubled once");
        assert!(
            i.last_error.as_deref().unwrap_or("").contains("temporary"),
            "{:?}",
            i.last_error
        );
    };
    let untried = |i: &castellan::store::OutboxItem| {
        assert_eq!((i.attempts, i.failed, i.not_before), (0, false, 0));
        assert_eq!(i.last_error, None);
    };
    charged(&items[0].1);
    items[1..].iter().for_each(|(_, i)| untried(i));
    // The first is not due yet: the next drain charges the second, and ends there.
    assert_eq!(j.block_on(svc.drain_outbox(t)).unwrap(), (0, queued - 1));
    let items = svc.store.outbox().unwrap();
    charged(&items[0].1);
    charged(&items[1].1);
    items[2..].iter().for_each(|(_, i)| untried(i));
    // Each drain charges the first reply due: in time every one is parked, none dropped.
    let parked = || svc.store.outbox().unwrap().iter().all(|(_, i)| i.failed);
    for _ in 0..3 * queued {
        if parked() {
            break;
        }
        now.fetch_add(3601, Ordering::SeqCst);
        let (sent, failed) = j.block_on(svc.drain_outbox(t)).unwrap();
        assert_eq!(sent, 0);
        assert!(failed >= 1);
    }
    let items = svc.store.outbox().unwrap();
    assert_eq!(items.len(), queued, "parked replies stay in the database");
    assert!(items.iter().all(|(_, i)| i.failed && i.attempts == 3));
    now.fetch_add(7200, Ordering::SeqCst);
    assert_eq!(
        j.block_on(svc.drain_outbox(t)).unwrap(),
        (0, 0),
        "parked: not retried"
    );
    // `castellan outbox --retry`: parked replies get a fresh start and are tried again.
    assert_eq!(svc.store.retry_parked().unwrap(), queued);
    assert!(svc
        .store
        .outbox()
        .unwrap()
        .iter()
        .all(|(_, i)| !i.failed && i.attempts == 0));
    assert_eq!(j.block_on(svc.drain_outbox(t)).unwrap(), (0, queued));
}

/// `castellan serve`, the daemon: a mail dropped into the Maildir while it runs is answered
/// within a few polls, and SIGINT stops it cleanly (exit 0, database flushed).
#[test]
fn the_daemon_answers_mail_as_it_arrives_and_stops_on_sigint() {
    let tmp = tempfile::tempdir().unwrap();
    let cfg = write_config(tmp.path());
    let child = bin()
        .arg("--config")
        .arg(&cfg)
        .arg("serve")
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let inbox = castellan_mail::Maildir::open(tmp.path().join("mail/inbox")).unwrap();
    inbox
        .deliver(b"From: Ann <ann@example.org>\r\nTo: judge@castellan.invalid\r\nSubject: help\r\nMessage-ID: <daemon-1@example.org>\r\n\r\nHELP\r\n")
        .unwrap();
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(60);
    let answered = loop {
        let found = std::fs::read_dir(tmp.path().join("mail/outbox"))
            .map(|rd| rd.count() > 0)
            .unwrap_or(false);
        if found || std::time::Instant::now() > deadline {
            break found;
        }
        std::thread::sleep(std::time::Duration::from_millis(100));
    };
    let killed = Command::new("kill")
        .args(["-INT", &child.id().to_string()])
        .status()
        .unwrap();
    assert!(killed.success());
    let out = child.wait_with_output().unwrap();
    assert!(
        answered,
        "no answer within 60 s: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let replies: Vec<_> = outbox_mails(tmp.path())
        .into_iter()
        .filter(|m| m.in_reply_to.as_deref() == Some("<daemon-1@example.org>"))
        .collect();
    assert_eq!(replies.len(), 1);
}

/// "A game record that cannot be loaded puts that game alone in quarantine ...
/// its mail is kept for later, and every other game goes on", even when the game's header
/// itself is unreadable (nobody is known to tell, but the pass does not fail).
#[test]
fn a_game_whose_header_is_unreadable_waits_alone() {
    let dir = tempfile::tempdir().unwrap();
    let j = open(dir.path(), 32);
    let (mut bots, broken, fine, good) = two_castello_games(&j, "garbled");
    j.svc
        .store
        .db()
        .open_tree("games")
        .unwrap()
        .insert(broken.as_bytes(), &b"not a game"[..])
        .unwrap();
    one_order_mail_each(&j, &mut bots, &good, &fine);
    let kept = std::fs::read_dir(j.svc.config.inbox_path().join("new"))
        .unwrap()
        .count();
    assert_eq!(kept, 1, "the unreadable game's mail is kept for later");
}

/// Two running Castello games for the quarantine tests: (their bots, the game to be
/// damaged, the other one, the first one's record as it stands).
fn two_castello_games(j: &LocalJudge, label: &str) -> (MailPlayers, String, String, StoredGame) {
    let mut bots = MailPlayers::new(&j.svc, label).unwrap();
    let broken = bots.create_game(&j.svc, "castello", 2, &[]).unwrap();
    let fine = bots.create_game(&j.svc, "castello", 2, &[]).unwrap();
    pass(j);
    bots.read_outbox().unwrap();
    let good = j.svc.store.game(&broken).unwrap().unwrap();
    (bots, broken, fine, good)
}

/// The game of `good` stored with a table that cannot be loaded.
fn damage(j: &LocalJudge, good: &StoredGame) {
    let mut bad = good.clone();
    bad.table = Some(castellan_engine::StoredTable {
        snapshot: castellan_engine::Snapshot::from_bytes(
            br#"{"history_len":0,"not":"a castello game"}"#.to_vec(),
        ),
        base: 0,
        entries: Vec::new(),
    });
    j.svc
        .commit(&castellan_judge::Changes {
            games: vec![bad],
            ..Default::default()
        })
        .unwrap();
}

/// One order mail to each game (RESIGN to the damaged one, as `good` stood), two passes;
/// the other game goes on. Returns the seat that resigned.
fn one_order_mail_each(
    j: &LocalJudge,
    bots: &mut MailPlayers,
    good: &StoredGame,
    fine: &str,
) -> usize {
    let seat = load_session(good).unwrap().unwrap().awaiting()[0];
    bots.send(&j.svc, good, seat, "RESIGN\n").unwrap();
    let before = j.svc.store.game(fine).unwrap().unwrap();
    bots.play_one(&j.svc, fine, 500).unwrap().unwrap();
    pass(j);
    pass(j);
    let after = j.svc.store.game(fine).unwrap().unwrap();
    assert_ne!(after.table, before.table, "the other game went on");
    seat
}

/// "Faults degrade, never stop": "A game record that cannot be loaded puts that
/// game alone in quarantine: it is logged, its game master is told, its mail is kept for
/// later, and every other game goes on." One game's stored table is damaged: the other
/// game's mail is answered; the damaged game's mail stays in the Maildir; its game master
/// is told once; once the table is mended, the kept mail is handled.
#[test]
fn a_game_that_cannot_be_loaded_waits_alone_in_quarantine() {
    let dir = tempfile::tempdir().unwrap();
    let j = open(dir.path(), 31);
    let (mut bots, broken, fine, good) = two_castello_games(&j, "quarantine");
    damage(&j, &good);
    let new_mail = || {
        std::fs::read_dir(j.svc.config.inbox_path().join("new"))
            .unwrap()
            .count()
    };
    let seat = one_order_mail_each(&j, &mut bots, &good, &fine);
    assert_eq!(new_mail(), 1, "the damaged game's mail is kept for later");
    let told: Vec<_> = bots
        .read_outbox()
        .unwrap()
        .into_iter()
        .filter(|(_, m)| m.subject.contains("quarantine"))
        .collect();
    assert_eq!(told.len(), 1, "the game master is told once");
    assert!(told[0].1.to.iter().any(|t| t.starts_with("gm@")));
    // Mended: the kept mail is handled, the quarantine lifted.
    let mut mended = j.svc.store.game(&broken).unwrap().unwrap();
    assert!(mended.quarantine.is_some());
    mended.table = good.table.clone();
    j.svc
        .commit(&castellan_judge::Changes {
            games: vec![mended],
            ..Default::default()
        })
        .unwrap();
    pass(&j);
    assert_eq!(new_mail(), 0);
    let rec = j.svc.store.game(&broken).unwrap().unwrap();
    assert!(rec.quarantine.is_none());
    // RESIGN in Castello concedes the game (a game order); elsewhere the seat resigns.
    assert!(
        rec.status == Status::Finished || rec.seats[seat].resigned,
        "the kept mail was applied: {:?}",
        rec.status
    );
}

/// The names in the file outbox: (hidden files being written, mails out).
fn outbox_files(dir: &Path) -> (Vec<PathBuf>, Vec<PathBuf>) {
    let (mut hidden, mut out) = (Vec::new(), Vec::new());
    for e in std::fs::read_dir(dir).unwrap() {
        let p = e.unwrap().path();
        let name = p.file_name().unwrap().to_string_lossy().into_owned();
        if name.starts_with('.') {
            hidden.push(p);
        } else if name.ends_with(".eml") {
            out.push(p);
        }
    }
    (hidden, out)
}

/// Group commit: "No reply and no acknowledgement comes before the flush." A
/// batch's replies are rendered and written while the batch is handled, to hidden files no
/// reader takes (src/serve/prestage.rs); after the flush the drain makes them visible, each the
/// bytes it would have rendered itself, and leaves no hidden file behind.
#[test]
fn a_batchs_replies_are_written_ahead_hidden_and_go_out_after_its_flush() {
    let dir = tempfile::tempdir().unwrap();
    let j = open(dir.path(), 41);
    let mut bots = MailPlayers::new(&j.svc, "ahead").unwrap();
    let id = bots.create_game(&j.svc, "castello", 2, &[]).unwrap();
    pass(&j);
    bots.read_outbox().unwrap();
    let outbox = j.svc.config.outbox_path();
    let (_, out_before) = outbox_files(&outbox);
    bots.play_one(&j.svc, &id, 500).unwrap().unwrap();
    // The inbox alone: the batch handled, flushed and acknowledged; no drain yet.
    assert_eq!(j.svc.process_maildir().unwrap(), 1);
    let (hidden, out) = outbox_files(&outbox);
    assert_eq!(out, out_before, "no reply is visible before the drain");
    let due: Vec<_> = j.svc.store.outbox().unwrap();
    assert!(!due.is_empty());
    assert_eq!(hidden.len(), due.len(), "every reply was written ahead");
    let now = j.now.load(Ordering::SeqCst);
    let from = &j.svc.config.judge.address;
    // lettre draws each multipart boundary at random: compared without it.
    let unbound = |bytes: Vec<u8>| {
        let text = String::from_utf8(bytes).unwrap();
        match text
            .split("boundary=\"")
            .nth(1)
            .and_then(|b| b.split('"').next())
        {
            Some(b) => text.replace(b, "BOUNDARY"),
            None => text,
        }
    };
    let mut ahead: Vec<String> = hidden
        .iter()
        .map(|p| unbound(std::fs::read(p).unwrap()))
        .collect();
    let mut rendered: Vec<String> = due
        .iter()
        .map(|(_, item)| {
            let mail = castellan::serve::service::to_outgoing(&item.mail, from);
            unbound(castellan_mail::render(&mail, now))
        })
        .collect();
    ahead.sort();
    rendered.sort();
    assert!(ahead == rendered, "written ahead as the drain renders them");
    // The drain adopts them: visible, none hidden, none left due.
    let (sent, failed) = j.block_on(j.svc.drain_outbox(&j.transport)).unwrap();
    assert_eq!((sent, failed), (due.len(), 0));
    let (hidden, out) = outbox_files(&outbox);
    assert!(hidden.is_empty(), "{hidden:?}");
    assert_eq!(out.len(), out_before.len() + due.len());
    assert!(j.svc.store.outbox().unwrap().is_empty());
}

/// Throughput: a batch's mails are judged side by side and committed in order
/// (src/serve/optimistic.rs), and the result is the one of judging them one after the other. In
/// one batch, the seat not to move resigns a two-player Castello game (which ends it), then
/// the seat to move sends its move. Judged alone, on the game as the batch found it, the
/// move would be accepted and its commit would bring the ended game back to life; judged in
/// order, it finds the game over. The game must stay ended and a second game of the same
/// batch must go on.
#[test]
fn mails_judged_side_by_side_end_as_if_judged_in_order() {
    let dir = tempfile::tempdir().unwrap();
    let mut j = open(dir.path(), 43);
    // Every mail judged on the store as the batch found it, then committed.
    j.svc.judges = 2;
    j.svc.judge_batch_first = true;
    let mut bots = MailPlayers::new(&j.svc, "side").unwrap();
    let ending = bots.create_game(&j.svc, "castello", 2, &[]).unwrap();
    let other = bots.create_game(&j.svc, "castello", 2, &[]).unwrap();
    pass(&j);
    bots.read_outbox().unwrap();
    let before = j.svc.store.game(&ending).unwrap().unwrap();
    let to_move = load_session(&before).unwrap().unwrap().awaiting()[0];
    bots.send(&j.svc, &before, 1 - to_move, "RESIGN\n").unwrap();
    bots.play_one(&j.svc, &ending, 500).unwrap().unwrap();
    let other_before = j.svc.store.game(&other).unwrap().unwrap();
    bots.play_one(&j.svc, &other, 500).unwrap().unwrap();
    assert_eq!(
        j.svc.process_maildir().unwrap(),
        3,
        "one batch of three mails"
    );
    let after = j.svc.store.game(&ending).unwrap().unwrap();
    assert_ne!(after.status, Status::Running, "the resignation stands");
    let session = load_session(&after).unwrap().unwrap();
    assert!(session.outcome().is_some(), "the game is over");
    let other_after = j.svc.store.game(&other).unwrap().unwrap();
    assert_ne!(
        other_after.table, other_before.table,
        "the other game went on"
    );
}

/// The whole database after `rounds` rounds of bot mail over twelve games (Castello and
/// Castle Risk), each round one batch, judged by `judges` threads and committed in groups
/// of at most `group` mails (1: each alone): the backup's bytes.
/// Every third round a Castello game ends by a resignation that comes, in the same batch,
/// before its other seat's move.
fn database_after_rounds(dir: &Path, judges: usize, group: usize, rounds: usize) -> Vec<u8> {
    let mut j = open(dir, 47);
    j.svc.judges = judges;
    j.svc.group = group;
    j.svc.judge_batch_first = judges > 1;
    let mut bots = MailPlayers::new(&j.svc, "same").unwrap();
    let mut ids = Vec::new();
    for k in 0..12 {
        let game = if k % 3 == 0 {
            "castle-risk"
        } else {
            "castello"
        };
        let players = if game == "castello" { 2 } else { 3 };
        ids.push(bots.create_game(&j.svc, game, players, &[]).unwrap());
    }
    pass(&j);
    let castello: Vec<&String> = ids.iter().filter(|id| id.starts_with("castello")).collect();
    for round in 0..rounds {
        // Every third round, before the moves, the seat not to move in a Castello game
        // resigns: in this same batch the seat to move then finds the game over.
        if round % 3 == 2 {
            let rec = j.svc.store.game(castello[round / 3]).unwrap().unwrap();
            if let Some(&seat) = load_session(&rec).unwrap().unwrap().awaiting().first() {
                bots.send(&j.svc, &rec, 1 - seat, "RESIGN\n").unwrap();
            }
        }
        for id in &ids {
            bots.play_one(&j.svc, id, 500).unwrap();
        }
        pass(&j);
    }
    let file = dir.join("all.jsonl");
    castellan::ops::backup::write_file(&j.svc.store, &file, None).unwrap();
    std::fs::read(file).unwrap()
}

/// Throughput: judging a batch's mails side by side and committing them in
/// groups changes nothing. The same games, the same mail and the same clock and entropy,
/// judged by one thread and committed one by one, and judged by four (each batch judged
/// whole before any of it is committed: the stalest schedule) and committed in groups:
/// the two databases are the same, record for record, byte for byte (the outbox keys, the
/// log, the senders' records, every game's history).
#[test]
fn judging_side_by_side_gives_the_database_of_judging_in_order() {
    let (a, b) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
    let in_order = database_after_rounds(a.path(), 1, 1, 12);
    let side_by_side = database_after_rounds(b.path(), 4, castellan::serve::service::GROUP, 12);
    // One thread, committing in groups: each mail judged on the store without the group
    // it joins, and judged again if it read what the group writes.
    let c = tempfile::tempdir().unwrap();
    let in_groups = database_after_rounds(c.path(), 1, castellan::serve::service::GROUP, 12);
    assert!(
        in_order == in_groups,
        "one thread, in groups: not the same database"
    );
    assert!(in_order.len() > 100_000, "{} bytes", in_order.len());
    let (x, y) = (
        String::from_utf8_lossy(&in_order),
        String::from_utf8_lossy(&side_by_side),
    );
    let first_difference = x.lines().zip(y.lines()).find(|(l, r)| l != r);
    assert!(x == y, "first difference: {first_difference:?}");
}

/// A game in quarantine has "its game master told", once, and `recover` loses
/// no accepted change. The quarantine's mark (and its notice) is journaled with the rest:
/// the database rebuilt from the journal alone still knows the game waits in quarantine
/// (so its game master is not told again), and the other game's mail is there.
#[test]
fn a_quarantine_is_journaled_and_survives_recover() {
    let dir = tempfile::tempdir().unwrap();
    let j = open(dir.path(), 53);
    let (mut bots, broken, fine, good) = two_castello_games(&j, "q-recover");
    damage(&j, &good);
    one_order_mail_each(&j, &mut bots, &good, &fine);
    let marked = j.svc.store.game_header(&broken).unwrap().unwrap();
    assert!(marked.quarantine.is_some());
    let fine_before = j.svc.store.game(&fine).unwrap().unwrap();
    let config = j.svc.config.clone();
    let now = j.now.load(Ordering::SeqCst);
    drop(bots);
    drop(j);
    std::fs::remove_dir_all(config.database_path()).unwrap();
    let r = castellan::ops::recover::recover(&config, std::sync::Arc::new(move || now)).unwrap();
    assert!(r.backup.is_none(), "{r:?}");
    let store = castellan::store::SledStore::open(&config.database_path()).unwrap();
    let rec = store.game_header(&broken).unwrap().unwrap();
    assert_eq!(
        rec.quarantine, marked.quarantine,
        "the quarantine's mark is replayed"
    );
    assert_eq!(store.game(&fine).unwrap().unwrap().table, fine_before.table);
}
