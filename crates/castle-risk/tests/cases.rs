//! Castle Risk's rule cases, one a file in tests/cases/ (the engine's `testing::cases`):
//! the rule quoted (the French rules, seeds/000), a position, a seat's order lines and the
//! exact verdict. `CASTELLAN_BLESS=1` writes the expected parts anew.
#[path = "../../engine/tests/support/case_files.rs"]
mod case_files;
mod common;

use castellan_castle_risk::game::Hidden;
use castellan_castle_risk::{Card, CastleRisk};
use castellan_engine::testing::cases;
use castellan_engine::{DiceBox, Rules};
use common::*;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// `common::position`: every territory round the table with 1 army, these castles in seat
/// order, these territories ("Alice 8"); then whose turn it is, hands, the Reinforcements
/// track, whether the mover has attacked, ask mode, the rules' revision, unused hidden armies
/// (a seat's name: the territory), and lines played first ("Alice: TRUCE Bruno").
#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct Position {
    seats: usize,
    castles: Vec<String>,
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    territories: BTreeMap<String, String>,
    #[serde(default, skip_serializing_if = "is_zero")]
    current: usize,
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    hands: BTreeMap<String, Vec<Card>>,
    #[serde(default, skip_serializing_if = "is_zero32")]
    track: u32,
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    attacked: bool,
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    ask: bool,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    revision: Option<u32>,
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    hidden: BTreeMap<String, String>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    played: Vec<String>,
}

fn is_zero(n: &usize) -> bool {
    *n == 0
}

fn is_zero32(n: &u32) -> bool {
    *n == 0
}

fn seat_of(name: &str) -> usize {
    names(6)
        .iter()
        .position(|n| n == name)
        .expect("a seat's name")
}

fn build(p: &Position) -> (CastleRisk, DiceBox) {
    let castles: Vec<&str> = p.castles.iter().map(String::as_str).collect();
    let owners: Vec<(&str, usize, u32)> = p
        .territories
        .iter()
        .map(|(x, o)| {
            let (who, armies) = o.split_once(' ').expect("owner armies");
            (x.as_str(), seat_of(who), armies.parse().unwrap())
        })
        .collect();
    let mut g = position(p.seats, &castles, &owners);
    g.current = p.current;
    for (who, cards) in &p.hands {
        give(&mut g, seat_of(who), cards);
    }
    g.track = p.track;
    g.attacked = p.attacked;
    g.options.ask = p.ask;
    if let Some(r) = p.revision {
        g.options.revision = r;
    }
    for (who, x) in &p.hidden {
        let s = seat_of(who);
        g.players[s].hidden.push(Hidden {
            territory: t(x),
            salt: "ab".into(),
            commitment: "cd".into(),
            chosen_by: s,
            used: false,
        });
    }
    let mut d = any_dice();
    for played in &p.played {
        let (who, line) = played.split_once(": ").expect("Name: line");
        let s = seat_of(who);
        let o = g.parse(s, line).unwrap_or_else(|e| panic!("{line}: {e:?}"));
        d.enter_turn(g.turn());
        g.apply(s, &o, &mut d)
            .unwrap_or_else(|e| panic!("{line}: {e:?}"));
    }
    (g, d)
}

#[test]
fn rule_cases() {
    case_files::check(env!("CARGO_MANIFEST_DIR"), |files, bless| {
        cases::run(files, build, bless)
    });
}
