//! Games stored by earlier builds load, verify (replay from their seed) and are told, in
//! English and French, exactly as the build that stored them told them (the engine's
//! `testing::stored` checks them, as for every game).
//!
//! `fixtures/*.json` are whole bot games (the JSON of `Session::to_json`) stored by the
//! build whose events carried English sentences (`Waiting { what }`, `StandingSet { text }`,
//! `TurnEnds { detail }`, `GameOver { reason }`); `fixtures/*.en.txt` and `*.fr.txt` are
//! that build's narration of their whole history (`castle-risk-v1.*.txt`: the narration of
//! tests/data/castle-risk-v1.json, stored by the state-version-1 build, as told then).

use castellan_castle_risk::CastleRisk;
use castellan_engine::testing::same;
use castellan_engine::testing::stored::{self, told, Fixtures, Told};
use castellan_engine::{Lang, Rules, StoredTable, Table};
use std::path::PathBuf;

/// The fixtures: whole bot games played and stored by the build whose events carried
/// sentences (its `bless_fixtures` wrote them): 2 seats ending in stalemate (draft claim), 3
/// seats in ask mode with standing orders set before and during play, 4 seats with a draft,
/// blind placement and ask mode, 5 seats to a turn limit (random deal), 6 seats.
const FIXTURES: Fixtures = Fixtures {
    names: &["h-2-15657", "fx-3-ask", "fx-4-blind", "fx-5-limit", "fx-6"],
    unfinished: &[],
    told: Told::ByEntry,
};

fn read(name: &str) -> String {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures");
    std::fs::read_to_string(path.join(name)).unwrap_or_else(|e| panic!("{name}: {e}"))
}

/// Every stored fixture loads, replays from its seed to the same state, and is told in both
/// languages as the build that stored it told it; read by `upgrade_table` it is of this
/// build's version, and begun by the older build and stored since by this one (the
/// snapshot of this version, the entries as the older build appended them) it is told the
/// same.
#[test]
fn stored_games_load_verify_and_are_told_as_before() {
    for game in stored::check::<CastleRisk>(&FIXTURES, &read) {
        let name = &game.name;
        let t = castellan_castle_risk::upgrade_table(game.json.clone()).unwrap();
        assert_eq!(t.state_version, CastleRisk::STATE_VERSION);
        let mut mixed = game.json.clone();
        mixed["state_version"] = CastleRisk::STATE_VERSION.into();
        mixed["state"]["version"] = CastleRisk::STATE_VERSION.into();
        let m = Table::<CastleRisk>::from_stored(&StoredTable::from_table_json(&mixed).unwrap())
            .unwrap_or_else(|e| panic!("{name}, mixed: {e}"));
        let want = told(Told::ByEntry, &game.table, Lang::En);
        same(&told(Told::ByEntry, &m, Lang::En), &want, name);
    }
    let v1 = serde_json::from_str(include_str!("data/castle-risk-v1.json")).unwrap();
    let t = castellan_castle_risk::upgrade_table(v1).unwrap();
    for (lang, ext) in [(Lang::En, "en"), (Lang::Fr, "fr")] {
        let want = read(&format!("castle-risk-v1.{ext}.txt"));
        same(&told(Told::ByEntry, &t, lang), &want, "v1");
    }
}
