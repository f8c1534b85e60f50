//! Rule cases as data, one file a case, the habit of the Diplomacy adjudicators' test cases:
//! the rule a case checks (a quote of the seed's rule text), a small position in the game's
//! own readable terms, the order lines one seat writes, and what must come of them: every
//! line accepted with the events told to that seat, or the first refused line with the
//! refusal's exact words in English and French.
//!
//! ```yaml
//! rule: 'Rule 5: "from an own territory with ≥ 2 armies to an adjacent ... territory"'
//! position: { ... }        # the game's own Position (its tests/cases.rs)
//! seat: 0
//! orders: ATTACK Brittany FROM Gascony
//! refused:                 # absent: every line accepted
//!   line: 1
//!   message: ...
//!   hint: ...
//!   message_fr: ...
//!   hint_fr: ...
//! events: []               # the seat's narration (English) of the lines applied
//! ```
//!
//! A refused line must change nothing. With `bless`, the expected parts (`refused`,
//! `events`) are written anew from what the game does.

use crate::{DiceBox, Lang, Rules, Seat, Viewer};
use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};

/// One case, as its file holds it; `P` is the game's description of a position.
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Case<P> {
    pub rule: String,
    pub position: P,
    pub seat: Seat,
    pub orders: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub refused: Option<Refusal>,
    #[serde(default)]
    pub events: Vec<String>,
}

/// The first refused line and what the refusal says, in both languages.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Refusal {
    pub line: usize,
    pub message: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub hint: Option<String>,
    pub message_fr: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub hint_fr: Option<String>,
    /// The line is no order of the game at all.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub not_an_order: bool,
}

/// What the orders came to.
#[derive(Debug, PartialEq, Eq)]
struct Verdict {
    refused: Option<Refusal>,
    events: Vec<String>,
}

/// Play a case's orders on the position `build` gives (its state and dice), each line as
/// `Table` plays it.
fn judge<R: Rules>(mut g: R, mut dice: DiceBox, seat: Seat, orders: &str) -> Verdict {
    let mut events = Vec::new();
    for (i, line) in orders.lines().enumerate() {
        let before = serde_json::to_string(&g).unwrap();
        dice.enter_turn(g.turn()); // as `Table` plays a line
        let done = g
            .parse(seat, line)
            .and_then(|o| g.apply(seat, &o, &mut dice));
        match done {
            Ok(evs) => events.extend(
                evs.iter()
                    .filter_map(|e| g.narrate(e, Viewer::Seat(seat), Lang::En)),
            ),
            Err(e) => {
                assert_eq!(
                    serde_json::to_string(&g).unwrap(),
                    before,
                    "the refused line {line:?} changed nothing"
                );
                let refused = Refusal {
                    line: i + 1,
                    message: e.message_in(Lang::En).to_string(),
                    hint: e.hint_in(Lang::En).map(str::to_string),
                    message_fr: e.message_in(Lang::Fr).to_string(),
                    hint_fr: e.hint_in(Lang::Fr).map(str::to_string),
                    not_an_order: e.not_an_order,
                };
                return Verdict {
                    refused: Some(refused),
                    events,
                };
            }
        }
    }
    Verdict {
        refused: None,
        events,
    }
}

/// Run every case (`files`: each file's name and text). Panics naming every case whose
/// verdict differs, unless `bless`; returns the files to write anew (with `bless`, those
/// whose expected parts changed).
pub fn run<R, P>(
    files: &[(String, String)],
    build: impl Fn(&P) -> (R, DiceBox),
    bless: bool,
) -> Vec<(String, String)>
where
    R: Rules,
    P: Serialize + DeserializeOwned,
{
    assert!(!files.is_empty(), "no rule cases found");
    let mut failures = Vec::new();
    let mut rewrite = Vec::new();
    for (name, text) in files {
        let mut case: Case<P> =
            serde_yaml::from_str(text).unwrap_or_else(|e| panic!("{name}: {e}"));
        assert!(
            case.rule.contains('"') || case.rule.contains('«'),
            "{name}: the rule quotes the rule text"
        );
        assert!(!case.orders.trim().is_empty(), "{name}: no orders");
        let (g, dice) = build(&case.position);
        let got = judge(g, dice, case.seat, &case.orders);
        let want = Verdict {
            refused: case.refused.clone(),
            events: case.events.clone(),
        };
        if got == want {
            continue;
        }
        if bless {
            case.refused = got.refused;
            case.events = got.events;
            rewrite.push((name.clone(), serde_yaml::to_string(&case).unwrap()));
        } else {
            failures.push(format!(
                "{name} ({}):\n  want: {want:?}\n  got:  {got:?}",
                case.rule
            ));
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {} rule cases differ (CASTELLAN_BLESS=1 rewrites them):\n{}",
        failures.len(),
        files.len(),
        failures.join("\n")
    );
    rewrite
}
