//! Risk's rule cases, one a file in tests/cases/ (the engine's `testing::cases`): the rule
//! quoted, a position, a seat's order lines and the exact verdict.
//! `CASTELLAN_BLESS=1` writes the expected parts anew.
#[path = "../../engine/tests/support/case_files.rs"]
mod case_files;
mod common;

use castellan_engine::testing::cases;
use castellan_engine::DiceBox;
use castellan_risk::{Owner, Risk, Stage};
use common::*;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// `common::position`: a game in play (random claim, blind placement, these `key=value`
/// options), `to_move` in its attack stage with nothing to place, every territory `rest`'s
/// ("P1", "neutral") with 1 army but those listed ("P0 5"); then the stage and the armies to
/// place, the mover's hand (territory cards by name, "wild"), and lines played first
/// ("P0: FORTIFY 3 FROM South Africa TO Brazil").
#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct Position {
    seats: usize,
    seed: String,
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    options: BTreeMap<String, String>,
    to_move: usize,
    rest: String,
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    territories: BTreeMap<String, String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    stage: Option<Stage>,
    #[serde(default, skip_serializing_if = "is_zero")]
    reinforcements: u32,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    hand: Vec<String>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    played: Vec<String>,
}

fn is_zero(n: &u32) -> bool {
    *n == 0
}

fn owner(o: &str) -> Owner {
    match o {
        "neutral" => Owner::Neutral,
        "nobody" => Owner::Nobody,
        p => seat(
            p.strip_prefix('P')
                .and_then(|n| n.parse().ok())
                .expect("P0..P5"),
        ),
    }
}

fn build(p: &Position) -> (Risk, DiceBox) {
    let v: Vec<(&str, &str)> = p
        .options
        .iter()
        .map(|(k, v)| (k.as_str(), v.as_str()))
        .collect();
    let listed: Vec<(&str, Owner, u32)> = p
        .territories
        .iter()
        .map(|(name, o)| {
            let (who, armies) = o.split_once(' ').expect("owner armies");
            (name.as_str(), owner(who), armies.parse().unwrap())
        })
        .collect();
    let mut t = position(p.seats, &v, &p.seed, p.to_move, owner(&p.rest), &listed);
    let s = &mut t.state;
    if let Some(stage) = p.stage {
        s.turn_state.stage = stage;
    }
    s.turn_state.reinforcements = p.reinforcements;
    if !p.hand.is_empty() {
        let hand: Vec<usize> = p
            .hand
            .iter()
            .map(|c| if c == "wild" { 42 } else { id(c) })
            .collect();
        s.deck.retain(|c| !hand.contains(c));
        s.players[p.to_move].hand = hand;
    }
    for played in &p.played {
        let (who, line) = played.split_once(": ").expect("P0: line");
        let Owner::Seat(who) = owner(who) else {
            panic!("{played}: a seat plays")
        };
        submit(&mut t, who, line);
    }
    (t.state, t.dice)
}

#[test]
fn rule_cases() {
    case_files::check(env!("CARGO_MANIFEST_DIR"), |files, bless| {
        cases::run(files, build, bless)
    });
}

/// The line a refusal's hint says to write ("write: FORTIFY 4 FROM Alaska TO Alberta", in
/// English and French) is one the seat can write in that position: it is accepted there.
#[test]
fn every_hint_is_a_line_the_seat_can_write_now() {
    use castellan_engine::Rules;
    case_files::check(env!("CARGO_MANIFEST_DIR"), |files, _| {
        let mut tried = 0;
        for (name, text) in files {
            let case: cases::Case<Position> = serde_yaml::from_str(text).unwrap();
            let Some(refused) = &case.refused else {
                continue;
            };
            let hints = [(&refused.hint, "write: "), (&refused.hint_fr, "écrivez : ")];
            for (hint, word) in hints {
                let Some(line) = hint.as_deref().and_then(|h| written(h, word)) else {
                    continue;
                };
                // A list as it was likely meant, or a placeholder, is no line to try.
                if line.starts_with("RANK") || line.starts_with("CLASSE") || line.contains('<') {
                    continue;
                }
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

/// The line after `word` in a hint, up to a parenthesis or a semicolon.
fn written<'h>(hint: &'h str, word: &str) -> Option<&'h str> {
    let i = hint.rfind(word)?;
    let line = &hint[i + word.len()..];
    Some(line.split([';', '(']).next().unwrap_or(line).trim())
}
