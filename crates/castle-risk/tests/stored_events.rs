//! Games stored by earlier builds load, verify (replay from their seed) and are told, in
//! English and French, exactly as the build that stored them told them.
//!
//! `fixtures/*.json` are whole bot games (the JSON of `Session::to_json`) stored by the
//! build whose events carried English sentences (`Waiting { what }`, `StandingSet { text }`,
//! `TurnEnds { detail }`, `GameOver { reason }`); `fixtures/*.en.txt` and `*.fr.txt` are
//! that build's narration of their whole history (`castle-risk-v1.*.txt`: the narration of
//! tests/data/castle-risk-v1.json, stored by the state-version-1 build, as told then).

use castellan_castle_risk::CastleRisk;
use castellan_engine::{Lang, Rules, StoredTable, Table};
use std::path::PathBuf;

fn dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures")
}

/// The fixtures: whole bot games played and stored by the build whose events carried
/// sentences (its `bless_fixtures` wrote them): 2 seats ending in stalemate (draft claim), 3
/// seats in ask mode with standing orders set before and during play, 4 seats with a draft,
/// blind placement and ask mode, 5 seats to a turn limit (random deal), 6 seats.
const FIXTURES: [&str; 5] = ["h-2-15657", "fx-3-ask", "fx-4-blind", "fx-5-limit", "fx-6"];

/// The whole history told in `lang`: each entry's public lines, then each seat's own.
fn told(t: &Table<CastleRisk>, lang: Lang) -> String {
    let mut one = Table {
        history: Vec::new(),
        ..t.clone()
    };
    let mut out = String::new();
    for (i, e) in t.history.iter().enumerate() {
        one.history = vec![e.clone()];
        one.base = t.base + i;
        let n = one.narrate_since(one.base, lang);
        out.push_str(&format!("# entry {}\n", one.base));
        for l in &n.public {
            out.push_str(l);
            out.push('\n');
        }
        for (s, l) in &n.private {
            out.push_str(&format!("[{s}] {l}\n"));
        }
    }
    out
}

fn v1() -> serde_json::Value {
    serde_json::from_str(include_str!("data/castle-risk-v1.json")).unwrap()
}

/// The same text, or the first line that differs.
fn same(got: &str, want: &str, what: &str) {
    if got != want {
        let (i, (g, w)) = got
            .lines()
            .zip(want.lines())
            .enumerate()
            .find(|(_, (g, w))| g != w)
            .unwrap_or((0, ("(lengths differ)", "")));
        panic!("{what}: line {}:\n got: {g}\nwant: {w}", i + 1);
    }
}

fn read(name: &str) -> String {
    std::fs::read_to_string(dir().join(name)).unwrap_or_else(|e| panic!("{name}: {e}"))
}

/// Every stored fixture loads through the judge's registry, replays from its seed to the
/// same state, and is told in both languages as the build that stored it told it.
#[test]
fn stored_games_load_verify_and_are_told_as_before() {
    for name in FIXTURES {
        let json: serde_json::Value =
            serde_json::from_str(&read(&format!("{}.json", name))).unwrap();
        // As the judge's store gives it: the snapshot and the entries apart.
        let parts = StoredTable::from_table_json(&json).unwrap();
        let session = (castellan_castle_risk::game_info().load)(parts)
            .unwrap_or_else(|e| panic!("{}: {e}", name));
        session.verify().unwrap_or_else(|e| panic!("{}: {e}", name));
        assert!(session.outcome().is_some(), "{}", name);
        let t = castellan_castle_risk::upgrade_table(json.clone()).unwrap();
        assert_eq!(t.state_version, CastleRisk::STATE_VERSION);
        for (lang, ext) in [(Lang::En, "en"), (Lang::Fr, "fr")] {
            let want = read(&format!("{}.{ext}.txt", name));
            same(&told(&t, lang), &want, &format!("{} in {ext}", name));
        }
        // A game begun by the older build and stored since by this one: the snapshot of
        // this version, the history entries as the older build appended them.
        let mut mixed = json.clone();
        mixed["state_version"] = CastleRisk::STATE_VERSION.into();
        mixed["state"]["version"] = CastleRisk::STATE_VERSION.into();
        let m = Table::<CastleRisk>::from_stored(&StoredTable::from_table_json(&mixed).unwrap())
            .unwrap_or_else(|e| panic!("{name}, mixed: {e}"));
        same(&told(&m, Lang::En), &told(&t, Lang::En), name);
        // Stored again by this build, it loads and is told the same.
        let again = Table::<CastleRisk>::from_stored(&session.stored(0).unwrap()).unwrap();
        same(&told(&again, Lang::Fr), &told(&t, Lang::Fr), name);
    }
    let t = castellan_castle_risk::upgrade_table(v1()).unwrap();
    for (lang, ext) in [(Lang::En, "en"), (Lang::Fr, "fr")] {
        same(
            &told(&t, lang),
            &read(&format!("castle-risk-v1.{ext}.txt")),
            "v1",
        );
    }
}
