//! Castle Risk's rule cases, one a file in tests/cases/ (the engine's `testing::cases`):
//! the rule quoted (the French rules, seeds/000), a position, a seat's order lines and the
//! exact verdict. `CASTELLAN_BLESS=1` writes the expected parts anew.
#[path = "../../engine/tests/support/case_files.rs"]
mod case_files;
mod common;

use castellan_castle_risk::game::{Hidden, Interrupt};
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
    /// Territories a castle's capture left empty, and who takes them now.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    vacated: Option<Vacated>,
}

/// Territories emptied by the capture of a castle (they hold no army), as the game holds
/// them: the victor re-occupying (`castle`: the castle taken), or a player annexing
/// (`next`).
#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct Vacated {
    victor: String,
    territories: Vec<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    castle: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    next: Option<String>,
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
    if let Some(v) = &p.vacated {
        let vacated: Vec<usize> = v.territories.iter().map(|x| t(x)).collect();
        for &x in &vacated {
            g.board[x].owner = None;
            g.board[x].armies = 0;
        }
        let victor = seat_of(&v.victor);
        g.interrupt = Some(match (&v.castle, &v.next) {
            (Some(c), None) => Interrupt::Reoccupy {
                victor,
                vacated,
                castle: t(c),
            },
            (None, Some(n)) => Interrupt::Annex {
                victor,
                vacated,
                next: seat_of(n),
            },
            _ => panic!("vacated: a castle (re-occupation) or next (annexation)"),
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

/// The line a refusal's hint says to write ("write: OCCUPY Bohemia FROM Saxony", in
/// English and French) is one the seat can write in that position: it is accepted there.
/// A hint for a later step ("conquer it first, then write: REVEAL") is not tried.
#[test]
fn every_hint_is_a_line_the_seat_can_write_now() {
    case_files::check(env!("CARGO_MANIFEST_DIR"), |files, _| {
        let mut tried = 0;
        for (name, text) in files {
            let case: cases::Case<Position> = serde_yaml::from_str(text).unwrap();
            let Some(refused) = &case.refused else {
                continue;
            };
            // A RANK line's hint is the list as meant: a position here is in play, when
            // no RANK is taken.
            if name == "names-every-bad-name-of-a-list.yaml" {
                continue;
            }
            let hints = [(&refused.hint, "write: "), (&refused.hint_fr, "écrivez : ")];
            for (hint, word) in hints {
                let Some(line) = hint.as_deref().and_then(|h| written(h, word)) else {
                    continue;
                };
                let (mut g, mut d) = build(&case.position);
                d.enter_turn(g.turn());
                let done = g
                    .parse(case.seat, line)
                    .and_then(|o| g.apply(case.seat, &o, &mut d));
                assert!(done.is_ok(), "{name}: the hint's line {line:?}: {done:?}");
                tried += 1;
            }
        }
        assert!(tried >= 10, "{tried} hints tried");
        Vec::new()
    });
}

/// The line after `word` in a hint, up to a parenthesis or a semicolon; `None` for a later
/// step's.
fn written<'h>(hint: &'h str, word: &str) -> Option<&'h str> {
    let i = hint.rfind(word)?;
    let before = &hint[..i];
    if before.contains("then ") || before.contains("puis ") {
        return None;
    }
    let line = &hint[i + word.len()..];
    Some(line.split([';', '(']).next().unwrap_or(line).trim())
}
