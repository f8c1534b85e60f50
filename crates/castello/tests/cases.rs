//! Castello's rule cases, one a file in tests/cases/ (the engine's `testing::cases`):
//! the rule quoted, a position, a seat's order lines and the exact verdict.
//! `CASTELLAN_BLESS=1` writes the expected parts anew.
#[path = "../../engine/tests/support/case_files.rs"]
mod case_files;
mod common;

use castellan_castello::{Castello, Options, BLACK, RED};
use castellan_engine::testing::cases;
use castellan_engine::{options_from_pairs, DiceBox, Rules, Secret};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// The published castles, these pawns ('R'/'r' red not moved / moved, 'B'/'b' black), the
/// side to move, `key=value` options, and lines played first ("red: E8-E10").
#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct Position {
    pieces: BTreeMap<String, char>,
    to_move: String,
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    options: BTreeMap<String, String>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    played: Vec<String>,
}

fn build(p: &Position) -> (Castello, DiceBox) {
    let pairs: Vec<(String, String)> = p.options.clone().into_iter().collect();
    let o: Options = options_from_pairs(&pairs).unwrap();
    let side = if p.to_move == "red" { RED } else { BLACK };
    let pieces: Vec<(&str, char)> = p.pieces.iter().map(|(s, c)| (s.as_str(), *c)).collect();
    let mut g = common::pos_with(&pieces, side, &o);
    let mut dice = DiceBox::new("case", Secret::derive(b"case"));
    for played in &p.played {
        let (side, line) = played.split_once(": ").expect("side: line");
        let seat = if side == "red" { RED } else { BLACK }.seat();
        let order = g.parse(seat, line).unwrap();
        g.apply(seat, &order, &mut dice).unwrap();
    }
    (g, dice)
}

#[test]
fn rule_cases() {
    case_files::check(env!("CARGO_MANIFEST_DIR"), |files, bless| {
        cases::run(files, build, bless)
    });
}
