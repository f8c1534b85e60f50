//! Languages, end to end: a whole game by mail on real parts (Maildir, sled, the file
//! outbox) where one seat reads French and the others English. Bot players play by mail
//! (src/players.rs); each mail is read back from the outbox as a player's client would.

use castellan::config::Config;
use castellan::play::demo::LocalJudge;
use castellan::play::players::{play_games, MailPlayers};
use castellan_judge::{Status, Store};
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

/// Words only an English sentence of the judge or of a game uses (none is a French word, a
/// command word a French mail may quote, or a proper noun of the games).
const ENGLISH: &[&str] = &[
    "the",
    "and",
    "you",
    "your",
    "yours",
    "with",
    "from",
    "turn",
    "turns",
    "armies",
    "army",
    "attack",
    "attacks",
    "attacked",
    "waiting",
    "deadline",
    "dice",
    "die",
    "seed",
    "seeds",
    "players",
    "player",
    "is",
    "are",
    "to",
    "of",
    "has",
    "have",
    "for",
    "nothing",
    "game",
    "won",
    "wins",
    "send",
    "write",
    "orders",
    "by",
    "this",
    "that",
    "what",
    "who",
    "it",
    "its",
    "will",
    "not",
    "now",
    "when",
    "each",
    "every",
    "all",
    "more",
    "asked",
    "move",
    "view",
    "card",
    "cards",
    "defend",
    "defends",
    "territory",
    "territories",
    "captured",
    "takes",
    "report",
    "reports",
    "password",
    "token",
    "judge's",
    "seat",
    "seats",
    "welcome",
    "played",
    "default",
    "yourself",
    "answers",
    "mail",
    "mails",
    "draws",
    "line",
    "lines",
    "applied",
    "hours",
    "left",
    "which",
];

/// The lines of `text` holding an English word, with the word.
fn english_lines(text: &str) -> Vec<(String, String)> {
    let mut out = Vec::new();
    for line in text.lines() {
        let lower = line.to_lowercase();
        let words = lower
            .split(|c: char| !(c.is_alphabetic() || c == '\''))
            .filter(|w| !w.is_empty());
        for w in words {
            if ENGLISH.contains(&w) {
                out.push((w.to_string(), line.to_string()));
                break;
            }
        }
    }
    out
}

/// The bots play game `id` by mail to its end, a pass of the judge ten minutes after each
/// round of mail.
fn play_to_its_end(j: &LocalJudge, bots: &mut MailPlayers, id: &str) {
    play_games(
        &j.svc,
        bots,
        std::slice::from_ref(&id.to_string()),
        5_000,
        500,
        |_| {
            j.pass_after(600)
                .map(|_| ())
                .map_err(|e| castellan::play::players::PlayError::Io(e.to_string()))
        },
    )
    .unwrap();
    let rec = j.svc.store.game(id).unwrap().unwrap();
    assert_eq!(rec.status, Status::Finished, "{id} is played to its end");
}

fn outbox_files(dir: &Path) -> BTreeSet<PathBuf> {
    std::fs::read_dir(dir.join("mail/outbox"))
        .map(|rd| {
            rd.filter_map(|e| e.ok().map(|e| e.path()))
                .filter(|p| p.extension().is_some_and(|x| x == "eml"))
                .collect()
        })
        .unwrap_or_default()
}

/// A French player plays a whole Castle Risk game by mail reading
/// only French (`SET LANGUAGE fr` for one seat; every mail that seat gets afterwards is
/// checked), while the other seats read English.
#[test]
fn a_french_player_plays_a_whole_castle_risk_game_reading_only_french() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("judge");
    let j = LocalJudge::open(&Config::default(), &dir, 11).unwrap();
    let mut bots = MailPlayers::new(&j.svc, "fr").unwrap();
    let id = bots.create_game(&j.svc, "castle-risk", 3, &[]).unwrap();
    j.pass_after(600).unwrap();
    let rec = j.svc.store.game(&id).unwrap().unwrap();
    let french = rec.seats[0].address.clone().unwrap();
    let english = rec.seats[1].address.clone().unwrap();
    bots.send(&j.svc, &rec, 0, "SET LANGUAGE fr\n").unwrap();
    let before = outbox_files(&dir);
    j.pass_after(600).unwrap();
    play_to_its_end(&j, &mut bots, &id);

    let mut french_mails = 0;
    let mut english_mails = 0;
    let mut english_with_english = 0;
    for p in outbox_files(&dir).difference(&before) {
        let raw = std::fs::read(p).unwrap();
        let m = castellan_mail::parse(&raw, usize::MAX).unwrap();
        if m.to.contains(&french) {
            french_mails += 1;
            // A reply's subject echoes the player's own ("orders", as the bots write it).
            let subject = m.subject.trim_end_matches(" orders");
            let leaks = english_lines(&format!("{subject}\n{}", m.body));
            assert!(
                leaks.is_empty(),
                "{}: the French seat's mail \"{}\" has English: {:?}",
                p.display(),
                m.subject,
                &leaks[..leaks.len().min(5)]
            );
        } else if m.to.contains(&english) {
            english_mails += 1;
            if !english_lines(&m.body).is_empty() {
                english_with_english += 1;
            }
        }
    }
    assert!(
        french_mails > 10,
        "the French seat got {french_mails} mails"
    );
    assert_eq!(
        english_with_english, english_mails,
        "every mail of the English seat is in English"
    );
}

/// The detector itself: it finds an English sentence and lets a French one through.
#[test]
fn the_english_detector_tells_the_two_languages_apart() {
    assert!(english_lines("Rouge attaque la Prusse depuis Berlin avec 3 armées.").is_empty());
    assert_eq!(
        english_lines("Red attacks Prussia from Berlin")[0].0,
        "attacks".to_string()
    );
    assert!(english_lines("Tour 3 : à vous de jouer, échéance le 25 novembre.").is_empty());
}

/// A French game (`language=fr` at its creation) of each of the four games, played to its
/// end by mail: every mail of it, to every seat and to the game master, welcomes included,
/// is French. The detector (`ENGLISH`) lists words only an English sentence uses, so names
/// (Bot1, Castello's "Rouge"), tokens, hashes, addresses and order lines pass; the subject's
/// " orders" is the bots' own word, and lines quoting a mail ("> ...") are the writer's.
#[test]
fn a_french_game_of_each_game_reads_only_french_to_everyone() {
    let mut leaks_all = Vec::new();
    for (n, (game, players)) in [
        ("castle-risk", 3),
        ("risk", 3),
        ("castrum", 3),
        ("castello", 2),
    ]
    .into_iter()
    .enumerate()
    {
        let tmp = tempfile::tempdir().unwrap();
        let dir = tmp.path().join("judge");
        let j = LocalJudge::open(&Config::default(), &dir, 21 + n as u64).unwrap();
        let mut bots = MailPlayers::new(&j.svc, "fr-game").unwrap();
        let options = [("language".to_string(), "fr".to_string())];
        let id = bots.create_game(&j.svc, game, players, &options).unwrap();
        j.pass_after(600).unwrap();
        play_to_its_end(&j, &mut bots, &id);
        let mut mails = 0;
        for p in outbox_files(&dir) {
            let raw = std::fs::read(&p).unwrap();
            let m = castellan_mail::parse(&raw, usize::MAX).unwrap();
            mails += 1;
            let subject = m.subject.trim_end_matches(" orders");
            for (w, line) in english_lines(&format!("{subject}\n{}", without_orders(&m.body))) {
                leaks_all.push(format!("{game} to {:?}: {w}: {line}", m.to));
            }
        }
        assert!(mails > 10, "{game}: {mails} mails");
    }
    leaks_all.sort();
    leaks_all.dedup();
    assert!(
        leaks_all.is_empty(),
        "{} English lines:\n{}",
        leaks_all.len(),
        leaks_all[..leaks_all.len().min(200)].join("\n")
    );
}

/// A mail's body without the lines that quote what the player wrote (order lines are
/// tokens: the bots write their orders in English).
fn without_orders(body: &str) -> String {
    body.lines()
        .filter(|l| !l.trim_start().starts_with('>'))
        .collect::<Vec<_>>()
        .join("\n")
}
