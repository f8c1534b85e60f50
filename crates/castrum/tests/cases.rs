//! Castrum's rule cases, one a file in tests/cases/ (the engine's `testing::cases`): the
//! rule quoted, a position, a seat's order lines and the exact verdict.
//! `CASTELLAN_BLESS=1` writes the expected parts anew.
#[path = "../../engine/tests/support/case_files.rs"]
mod case_files;
mod common;

use castellan_castrum::{Card, Castrum, DefendPolicy, Happening, Options};
use castellan_engine::testing::cases;
use castellan_engine::{options_from_pairs, DiceBox};
use common::*;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// `common::position`: Alice to play her first card of round 1 in the rules' family game
/// (`defend=ask`) with these `key=value` options, these hands (a seat not given holds 5
/// Rustici) and sites; then walls built, the round's event in force, seats that never
/// defend, and lines played first ("Alice: PLAY Mage ON Bob").
#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct Position {
    seats: usize,
    seed: String,
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    options: BTreeMap<String, String>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    hands: Vec<Vec<Card>>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    sites: Vec<Vec<Card>>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    walls: Vec<u8>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    in_force: Option<Happening>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    never_defend: Vec<usize>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    played: Vec<String>,
}

fn build(p: &Position) -> (Castrum, DiceBox) {
    let mut pairs: Vec<(String, String)> = p.options.clone().into_iter().collect();
    if !p.options.contains_key("defend") {
        pairs.push(("defend".into(), "ask".into()));
    }
    let o: Options = options_from_pairs(&pairs).unwrap();
    let hands: Vec<&[Card]> = p.hands.iter().map(Vec::as_slice).collect();
    let sites: Vec<&[Card]> = p.sites.iter().map(Vec::as_slice).collect();
    let (mut g, mut d) = position(p.seats, &o, &p.seed, &hands, &sites);
    for (s, w) in p.walls.iter().enumerate() {
        g.sites[s].walls = *w;
    }
    g.in_force = p.in_force;
    for s in &p.never_defend {
        g.defend[*s] = DefendPolicy::Never;
    }
    for played in &p.played {
        let (name, line) = played.split_once(": ").expect("Name: line");
        let seat = NAMES
            .iter()
            .position(|n| *n == name)
            .expect("a seat's name");
        ok(&mut g, &mut d, seat, line);
    }
    (g, d)
}

#[test]
fn rule_cases() {
    case_files::check(env!("CARGO_MANIFEST_DIR"), |files, bless| {
        cases::run(files, build, bless)
    });
}
