//! Games stored by earlier builds still load, replay from their seed, and are told word
//! for word as they were. tests/fixtures/ holds bot games played and saved by the build
//! whose state kept parallel per-seat lists and whose events carried English prose
//! (`Allotted.how`, `Won.reason`): each `NAME.json` is the stored table
//! (`Session::to_json`), `NAME.en.txt` and `NAME.fr.txt` what that build told of it.
//!
//! The engine's `testing::stored` checks them, as for every game. `write_fixtures`
//! (ignored) writes those missing (the ones there are what an older build saved: never
//! written over).

use castellan_engine::testing::stored::{self, Fixtures, Told};
use castellan_engine::{play_out, Lang, Secret, Session, Table};
use castellan_risk::Risk;
use std::path::PathBuf;

/// `key=value` game options.
type Opts = &'static [(&'static str, &'static str)];

/// (name, seats, options, order cap): the games the fixtures hold.
const GAMES: &[(&str, usize, Opts, usize)] = &[
    ("two-players", 2, &[], 100_000),
    (
        "three-draft-hq",
        3,
        &[("claim", "draft"), ("headquarters", "all")],
        100_000,
    ),
    (
        "four-random-quick-hq",
        4,
        &[
            ("claim", "random"),
            ("headquarters", "quick"),
            ("rising_sets", "true"),
        ],
        100_000,
    ),
    (
        "five-blind-limit",
        5,
        &[
            ("claim", "random"),
            ("placement", "blind"),
            ("turn_limit", "4"),
            ("max_armies_per_territory", "12"),
            ("reroll", "true"),
            ("commander", "true"),
        ],
        100_000,
    ),
    (
        "six-table-fortify",
        6,
        &[("free_fortify", "true"), ("place_per_turn", "3")],
        100_000,
    ),
    (
        "three-table-unfinished",
        3,
        &[("reroll", "true"), ("commander", "true")],
        400,
    ),
];

fn dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures")
}

fn play(name: &str, seats: usize, opts: &[(&str, &str)], cap: usize) -> Table<Risk> {
    let id = format!("fixture-{name}");
    let names = (0..seats).map(|i| format!("P{i}")).collect();
    let pairs: Vec<(String, String)> = opts
        .iter()
        .map(|(k, v)| (k.to_string(), v.to_string()))
        .collect();
    let o = castellan_engine::options_from_pairs(&pairs).expect("options");
    let mut t = Table::<Risk>::new(&id, Secret::derive(id.as_bytes()), names, o).expect("setup");
    play_out(&mut t, cap).expect("bots play");
    t
}

#[test]
#[ignore = "writes the fixtures: run once to add a game, never to bless a change"]
fn write_fixtures() {
    for (name, seats, opts, cap) in GAMES {
        if dir().join(format!("{name}.json")).exists() {
            continue; // a stored game is never written again
        }
        let t = play(name, *seats, opts, *cap);
        for (file, text) in stored::files(name, &t, Told::WithDice) {
            std::fs::write(dir().join(file), text).unwrap();
        }
    }
}

#[test]
fn stored_games_load_replay_and_are_told_as_before() {
    let names: Vec<&str> = GAMES.iter().map(|g| g.0).collect();
    let fixtures = Fixtures {
        names: &names,
        unfinished: &["three-table-unfinished"],
        told: Told::WithDice,
    };
    stored::check::<Risk>(&fixtures, &|f| {
        std::fs::read_to_string(dir().join(f)).expect(f)
    });
}

/// A version-1 game converts to this build's state: one `Player` a seat, one `Territory` a
/// territory, the result typed; an outcome stored before its French wording reads the same.
#[test]
fn a_version_1_state_converts_to_this_build() {
    let json = std::fs::read_to_string(dir().join("two-players.json")).unwrap();
    let mut json: serde_json::Value = serde_json::from_str(&json).unwrap();
    assert_eq!(json["state_version"], 1);
    assert!(json["state"]["owner"].is_array(), "a version-1 fixture");
    json["state"]["outcome"]
        .as_object_mut()
        .unwrap()
        .remove("reason_fr");
    let s = castellan_engine::load_table_json::<Risk>(json).unwrap();
    let t: Table<Risk> = serde_json::from_value(s.to_json().unwrap()).unwrap();
    assert_eq!(t.state_version, castellan_risk::STATE_VERSION);
    assert_eq!(t.state.version, castellan_risk::STATE_VERSION);
    assert_eq!(t.state.players.len(), 2);
    assert_eq!(t.state.board.len(), 42);
    let o = castellan_engine::Rules::outcome(&t.state).expect("over");
    assert_eq!(o.reason_in(Lang::Fr), "a éliminé son adversaire");
    // stored again, it is this build's shape, and loads as it is
    let again = Session::to_json(&t).unwrap();
    assert_eq!(again["state_version"], castellan_risk::STATE_VERSION);
    assert!(again["state"]["owner"].is_null());
    let s = castellan_engine::load_table::<Risk>(t.stored(0).unwrap()).unwrap();
    s.verify().unwrap();
    let want = std::fs::read_to_string(dir().join("two-players.fr.txt")).unwrap();
    let t: Table<Risk> = serde_json::from_value(s.to_json().unwrap()).unwrap();
    castellan_engine::testing::same(
        &stored::told(Told::WithDice, &t, Lang::Fr),
        &want,
        "two-players stored again",
    );
}
