//! Games stored by earlier builds still load, verify (replayed from their seed) and tell
//! exactly the same story, word for word, in English and French (the engine's
//! `testing::stored` checks them, as for every game).
//!
//! A game stored before the picture's fields existed loads and verifies too.
//!
//! tests/fixtures/ holds complete games (bots, a resignation, a draw agreed) as the judge stores them (`Session::to_json`),
//! each with its whole narration, final views and outcome in `<name>.en.txt` and
//! `<name>.fr.txt`. They were written once by `write_fixtures` (ignored; run it only to add
//! a game, never to bless a change: a difference is a broken stored game; it never
//! overwrites one).

use castellan_castello::{Castello, Options};
use castellan_engine::dice::Secret;
use castellan_engine::testing::stored::{self, Fixtures, Told};
use castellan_engine::{
    load_table_json, options_from_pairs, play_out, Lang, Session, Table, Viewer,
};
use std::path::PathBuf;

fn dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures")
}

/// (name, options, lines played before the bots play: (seat, line, moves first)).
type Game = (
    &'static str,
    &'static [(&'static str, &'static str)],
    &'static [(usize, &'static str)],
);

const GAMES: &[Game] = &[
    ("default", &[], &[]),
    ("black-first", &[("first", "black")], &[]),
    (
        "random-strict",
        &[("first", "random"), ("strict_centre", "true")],
        &[],
    ),
    ("move-limit", &[("move_limit", "10")], &[]),
    (
        "repetition",
        &[("repetition", "2"), ("move_limit", "40")],
        &[],
    ),
    ("resigned", &[], &[(1, "OFFER DRAW"), (1, "RESIGN")]),
    ("agreed", &[], &[(0, "OFFER DRAW"), (1, "ACCEPT DRAW")]),
];

#[test]
#[ignore = "writes the fixtures: run once to add a game, never to bless a change"]
fn write_fixtures() {
    for (name, options, lines) in GAMES {
        if dir().join(format!("{name}.json")).exists() {
            continue; // a stored game is never written again
        }
        let pairs: Vec<(String, String)> = options
            .iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect();
        let players = vec!["Alice".to_string(), "Bruno".to_string()];
        let id = format!("fixture-{name}");
        let mut t: Table<Castello> = Table::new(
            &id,
            Secret::derive(id.as_bytes()),
            players,
            options_from_pairs(&pairs).unwrap(),
        )
        .unwrap();
        if !lines.is_empty() {
            // A few moves first, then the lines.
            for _ in 0..6 {
                let seat = t.awaiting()[0];
                t.play_bot(seat).unwrap();
            }
            for (seat, line) in *lines {
                t.submit(*seat, line, Lang::En).unwrap();
            }
        }
        let p = play_out(&mut t, 50_000).unwrap();
        assert!(!p.capped && p.outcome.is_some(), "{name} finished");
        for (file, text) in stored::files(name, &t, Told::Sections) {
            std::fs::write(dir().join(file), text).unwrap();
        }
    }
}

#[test]
fn stored_games_load_verify_and_tell_the_same() {
    let names: Vec<&str> = GAMES.iter().map(|g| g.0).collect();
    let fixtures = Fixtures {
        names: &names,
        unfinished: &[],
        told: Told::Sections,
    };
    stored::check::<Castello>(&fixtures, &|f| {
        std::fs::read_to_string(dir().join(f)).expect(f)
    });
}

/// The last move's path and captures are kept for the picture only
/// (`Rules::PICTURE_ONLY`): a game saved without them verifies against its replay, and its
/// picture draws once the next move is played.
#[test]
fn a_game_stored_without_the_last_path_still_verifies() {
    let mut t: Table<Castello> = Table::new(
        "stored-1",
        Secret::derive(b"stored"),
        vec!["Alice".into(), "Bruno".into()],
        Options::default(),
    )
    .unwrap();
    for _ in 0..12 {
        let seat = t.awaiting()[0];
        t.play_bot(seat).unwrap();
    }
    let mut json = t.to_json().unwrap();
    let state = json["state"].as_object_mut().unwrap();
    assert!(state.remove("last_path").is_some(), "the path is stored");
    state.remove("last_captured");
    let old = load_table_json::<Castello>(json).unwrap();
    old.verify().unwrap();
    assert!(!old
        .picture(Viewer::Public, Lang::En)
        .unwrap()
        .contains("<polyline"));
    assert!(t
        .picture(Viewer::Public, Lang::En)
        .unwrap()
        .contains("<polyline"));
}
