//! "Golden files show a turn report, a 'your move' mail and a digest for each
//! game": each game played by mail with bots through the real pipeline (Maildir in, sled,
//! the file outbox) on a fixed seed and clock; three of its mails are kept as golden files
//! in tests/golden/reports/GAME/:
//!
//! * `turn-report.txt`: the game master's last report of a turn (the public report);
//! * `your-move.txt`: the first seat's last "your move" mail (its report with its own part
//!   at the top);
//! * `digest.txt`: the last seat chose `SET REPORTS NONE`: its last mail, which asks it to
//!   move, tells everything since its previous one.
//!
//! `CASTELLAN_BLESS=1 cargo test --test report_goldens` rewrites them; the diff is the
//! review.

use castellan::config::Config;
use castellan::play::demo::LocalJudge;
use castellan::play::players::MailPlayers;
use castellan_judge::Store;
use std::path::{Path, PathBuf};

const GM: &str = "gm@players.invalid";

fn base() -> Config {
    Config {
        templates_dir: PathBuf::from(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/crates/judge/templates"
        )),
        ..Config::default()
    }
}

/// (to, subject, text part) of every mail, in the order the judge wrote them.
type Mail = (String, String, String);

fn play(game: &str, players: usize, mails: usize) -> Vec<Mail> {
    let dir = tempfile::tempdir().unwrap();
    let j = LocalJudge::open(&base(), dir.path(), 7).unwrap();
    let mut bots = MailPlayers::new(&j.svc, "golden").unwrap();
    let id = bots.create_game(&j.svc, game, players, &[]).unwrap();
    j.pass_after(600).unwrap();
    let mut out: Vec<Mail> = Vec::new();
    let mut collect = |bots: &mut MailPlayers| {
        let mut batch = bots.read_outbox().unwrap();
        batch.sort_by(|a, b| a.0.cmp(&b.0));
        for (_, m) in batch {
            out.push((m.to.join(","), m.subject.clone(), m.body.clone()));
        }
    };
    collect(&mut bots);
    let rec = j.svc.store.game(&id).unwrap().unwrap();
    bots.send(&j.svc, &rec, players - 1, "SET REPORTS NONE\n")
        .unwrap();
    j.pass_after(600).unwrap();
    collect(&mut bots);
    for _ in 0..mails {
        if bots.play_one(&j.svc, &id, 500).unwrap().is_none() {
            break;
        }
        j.pass_after(600).unwrap();
        collect(&mut bots);
    }
    out
}

fn check(dir: &Path, name: &str, mail: Option<&Mail>, problems: &mut Vec<String>) {
    let Some((_, subject, body)) = mail else {
        problems.push(format!("{}/{name}: no such mail was sent", dir.display()));
        return;
    };
    let got = format!("Subject: {subject}\n\n{body}");
    let path = dir.join(name);
    if std::env::var("CASTELLAN_BLESS").is_ok() {
        std::fs::create_dir_all(dir).unwrap();
        std::fs::write(&path, &got).unwrap();
        return;
    }
    match std::fs::read_to_string(&path) {
        Ok(want) if want == got => {}
        Ok(want) => problems.push(format!(
            "{} differs (CASTELLAN_BLESS=1 rewrites it):\n--- want\n{want}\n--- got\n{got}",
            path.display()
        )),
        Err(e) => problems.push(format!("{}: {e}", path.display())),
    }
}

#[test]
fn each_game_has_a_golden_turn_report_your_move_mail_and_digest() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/golden/reports");
    let mut problems = Vec::new();
    // Each game's seats; a game not listed: its fewest (and it needs its golden files).
    let listed = [
        ("castle-risk", 3),
        ("risk", 3),
        ("castrum", 3),
        ("castello", 2),
    ];
    for (info, players) in castellan::games::cases(&listed, |g| g.min_seats).unwrap() {
        let (game, mails) = (info.name, 14);
        let sent = play(game, players, mails);
        let first = castellan::play::players::player_address(1);
        let last = castellan::play::players::player_address(players);
        let turn_report = sent
            .iter()
            .rev()
            .find(|m| m.0 == GM && m.1.contains(" to move"));
        let your_move = sent
            .iter()
            .rev()
            .find(|m| m.0 == first && m.1.contains("your move"));
        let digest = sent
            .iter()
            .rev()
            .find(|m| m.0 == last && m.1.contains("your move"));
        // The digest reader got nothing that asked nothing of it after SET REPORTS NONE.
        let after_set = sent
            .iter()
            .position(|m| m.0 == last && m.2.contains("only the mails that ask something"))
            .unwrap_or_else(|| panic!("{game}: SET REPORTS NONE was not answered"));
        for m in &sent[after_set + 1..] {
            // An answer to the reader's own mail is exempt (it has the subject of the
            // report it carries, not "Re: ...").
            if m.0 == last && !m.2.starts_with("The judge answers your mail.") {
                assert!(
                    m.2.contains("You are asked:") || m.2.contains("The game is over"),
                    "{game}: a mail that asks nothing reached a NONE reader:\n{}",
                    m.2
                );
            }
        }
        let dir = root.join(game);
        check(&dir, "turn-report.txt", turn_report, &mut problems);
        check(&dir, "your-move.txt", your_move, &mut problems);
        check(&dir, "digest.txt", digest, &mut problems);
    }
    assert!(problems.is_empty(), "{}", problems.join("\n\n"));
}
