//! Games stored by earlier builds still load, verify (replayed from their seed) and tell
//! exactly the same story, word for word, in English and French (the engine's
//! `testing::stored` checks them, as for every game).
//!
//! tests/fixtures/ holds complete bot games as the judge stores them (`Session::to_json`),
//! each with its whole narration, final views and outcome in `<name>.en.txt` and
//! `<name>.fr.txt`. They were written once by `write_fixtures` (ignored; run it only to add
//! a game, never to bless a change: a difference is a broken stored game; it never
//! overwrites one).

use castellan_castrum::Castrum;
use castellan_engine::dice::Secret;
use castellan_engine::testing::stored::{self, Fixtures, Told};
use castellan_engine::{options_from_pairs, play_out, Lang, Table};
use std::path::PathBuf;

fn dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures")
}

/// (name, players, options, standing orders set before the bots play).
type Game = (
    &'static str,
    usize,
    &'static [(&'static str, &'static str)],
    &'static [(usize, &'static str)],
);

const GAMES: &[Game] = &[
    ("two-family", 2, &[], &[(0, "SET DEFEND ALWAYS")]),
    (
        "three-expert-ask",
        3,
        &[("mode", "expert"), ("defend", "ask")],
        &[(1, "SET WORKS Rustici, Lapides"), (2, "SET DEFEND NEVER")],
    ),
    (
        "four-timed",
        4,
        &[("victory", "timed"), ("rounds", "20")],
        &[(3, "SET WORKS ASK"), (0, "SET DEFEND ASK")],
    ),
    (
        "two-timed-one-round",
        2,
        &[("victory", "timed"), ("rounds", "1"), ("defend", "ask")],
        &[],
    ),
    ("three-revision-0", 3, &[("revision", "0")], &[]),
];

#[test]
#[ignore = "writes the fixtures: run once to add a game, never to bless a change"]
fn write_fixtures() {
    let names = ["Alice", "Bob", "Carol", "Dave"];
    for (name, seats, options, standing) in GAMES {
        if dir().join(format!("{name}.json")).exists() {
            continue; // a stored game is never written again
        }
        let pairs: Vec<(String, String)> = options
            .iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect();
        let players = names[..*seats].iter().map(|s| s.to_string()).collect();
        let id = format!("fixture-{name}");
        let mut t: Table<Castrum> = Table::new(
            &id,
            Secret::derive(id.as_bytes()),
            players,
            options_from_pairs(&pairs).unwrap(),
        )
        .unwrap();
        for (seat, line) in *standing {
            t.submit(*seat, line, Lang::En).unwrap();
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
    stored::check::<Castrum>(&fixtures, &|f| {
        std::fs::read_to_string(dir().join(f)).expect(f)
    });
}
