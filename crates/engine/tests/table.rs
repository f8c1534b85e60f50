//! The Table contract, on a tiny game made for this test ("race to ten": seats take turns
//! adding 1–3 to a shared count plus a die roll's parity; whoever reaches 10 wins).

use castellan_engine::toy::*;
use castellan_engine::*;
use serde::{Deserialize, Serialize};

fn table() -> Table<Race> {
    Table::new(
        "race-1",
        Secret::derive(b"t"),
        vec!["Ann".into(), "Bob".into()],
        (),
    )
    .unwrap()
}

#[test]
fn a_refused_line_applies_nothing_and_names_the_line() {
    let mut t = table();
    let before = serde_json::to_string(&t).unwrap();
    let err = t
        .submit(0, "# my plan\n\nADD 9", castellan_engine::Lang::En)
        .unwrap_err();
    assert_eq!(err.len(), 1);
    assert_eq!(err[0].line_no, 3);
    assert_eq!(err[0].line, "ADD 9");
    assert_eq!(err[0].hint.as_deref(), Some("write: ADD 2"));
    // A bad line first: nothing is applied, and the line after it, which would roll a die,
    // is not checked (checking it would show that die).
    let err = t
        .submit(0, "ADD 9\nADD 2", castellan_engine::Lang::En)
        .unwrap_err();
    assert_eq!((err.len(), err[0].line_no), (1, 1));
    assert_eq!(err.unchecked.len(), 1);
    assert_eq!(err.unchecked[0].line_no, 2);
    assert!(err.stood.is_empty() && err.narration.public.is_empty());
    assert_eq!(serde_json::to_string(&t).unwrap(), before);
}

/// docs/rules/dice.md, "A die once rolled stands": a good line that rolled a die, then a
/// refused one: the first stands (applied, its die recorded), the rest does not, and the
/// game is exactly as if the first line had been sent alone.
#[test]
fn a_die_once_rolled_stands_when_a_later_line_is_refused() {
    let mut t = table();
    let mut alone = table();
    let err = t
        .submit(0, "ADD 2\nADD 3", castellan_engine::Lang::En)
        .unwrap_err();
    assert_eq!(
        (err[0].line_no, err[0].message.as_str()),
        (2, "not your turn")
    );
    assert_eq!(err.stood, vec![1]);
    let n = alone
        .submit(0, "ADD 2", castellan_engine::Lang::En)
        .unwrap();
    assert_eq!(*err.narration, n);
    assert_eq!(
        serde_json::to_string(&t).unwrap(),
        serde_json::to_string(&alone).unwrap()
    );
    assert!(t.replay().is_ok());
}

#[test]
fn check_stops_at_the_first_die_and_changes_nothing() {
    let t = table();
    let before = serde_json::to_string(&t).unwrap();
    let v = t.check(0, "ADD 2\nADD 1", castellan_engine::Lang::En);
    assert_eq!(v[0].verdict, LineVerdict::NeedsDice);
    // The toy checks nothing past a die: the line after it is said unchecked, not legal.
    assert_eq!(v[1].verdict, LineVerdict::Unchecked);
    let v = t.check(0, "ADD 7", castellan_engine::Lang::En);
    assert!(matches!(v[0].verdict, LineVerdict::Err { .. }));
    assert_eq!(serde_json::to_string(&t).unwrap(), before);
}

#[test]
fn private_narration_goes_only_to_its_seat() {
    let t = table();
    let n = t.narrate_since(0, castellan_engine::Lang::En);
    assert_eq!(n.public, vec!["seat 0 draws a card".to_string()]);
    assert_eq!(n.private.len(), 1);
    assert_eq!(n.private[0].0, 0);
    assert!(n.private_for(1).is_empty());
}

#[test]
fn bots_play_out_and_the_game_replays_from_its_seed() {
    let mut t = table();
    let g = play_out(&mut t, 1000).unwrap();
    assert!(g.outcome.is_some() && !g.capped);
    let again = t.replay().unwrap();
    assert_eq!(
        serde_json::to_value(&again.state).unwrap(),
        serde_json::to_value(&t.state).unwrap()
    );
    // stored and reloaded through the object-safe face, in its stored form and as JSON
    let s = load_table::<Race>(t.stored(0).unwrap()).unwrap();
    assert!(s.verify().is_ok());
    assert_eq!(s.outcome(), t.state.outcome());
    let j = load_table_json::<Race>(serde_json::to_value(&t).unwrap()).unwrap();
    assert!(j.verify().is_ok());
    assert_eq!(j.to_json().unwrap(), s.to_json().unwrap());
}

#[test]
fn a_tampered_history_fails_verification() {
    let mut t = table();
    play_out(&mut t, 1000).unwrap();
    if let Some(Step::Add(n)) = t.history[1].order.as_mut() {
        *n = if *n == 1 { 2 } else { 1 };
    }
    assert!(t.replay().is_err());
}

#[test]
fn the_order_cap_is_reported_not_silent() {
    let mut t = table();
    let g = play_out(&mut t, 2).unwrap();
    assert!(g.capped && g.outcome.is_none());
}

#[test]
fn options_come_from_key_value_pairs() {
    #[derive(Default, Serialize, Deserialize, Debug, PartialEq)]
    #[serde(default)]
    struct Opts {
        blind_placement: bool,
        turn_limit: u32,
        deal: String,
    }
    let o: Opts = options_from_pairs(&[
        ("blind-placement".into(), "yes".into()),
        ("turn_limit".into(), "40".into()),
        ("deal".into(), "random".into()),
    ])
    .unwrap();
    assert_eq!(
        o,
        Opts {
            blind_placement: true,
            turn_limit: 40,
            deal: "random".into()
        }
    );
    let e = options_from_pairs::<Opts>(&[("colour".into(), "x".into())]).unwrap_err();
    assert!(
        e.contains("unknown option") && e.contains("blind-placement"),
        "{e}"
    );
}

#[test]
fn a_game_without_options_takes_no_pairs_and_refuses_any_key() {
    // Castello has `Options = ()`: creating it must not fail on "no options".
    options_from_pairs::<()>(&[]).unwrap();
    let e = options_from_pairs::<()>(&[("speed".into(), "2".into())]).unwrap_err();
    assert!(
        e.contains("unknown option \"speed\"") && e.contains("no options"),
        "{e}"
    );
}

#[test]
fn a_bot_turn_submitted_as_one_mail_is_accepted() {
    let mut t = table();
    let lines = t.bot_turn(0, 10);
    // Race passes the turn after each order: one line, then seat 1 is awaited.
    assert_eq!(lines.len(), 1);
    assert!(t
        .submit(0, &lines.join("\n"), castellan_engine::Lang::En)
        .is_ok());
    assert!(
        t.bot_turn(0, 10).is_empty(),
        "seat 0 is not awaited any more"
    );
}

/// "Forgiving, and honest about it": lines after the last order that are not
/// orders (a signature without "-- ", "thanks!") do not refuse the mail; they are ignored
/// and named, and the game is exactly as if the orders had been sent alone.
#[test]
fn lines_after_the_last_order_that_are_not_orders_are_ignored_and_named() {
    let mut t = table();
    let mut alone = table();
    let n = t
        .submit(
            0,
            "ADD 2\n\nCordialement,\nBruno",
            castellan_engine::Lang::En,
        )
        .unwrap();
    assert_eq!(
        n.ignored,
        vec![(3, "Cordialement,".to_string()), (4, "Bruno".to_string())]
    );
    let m = alone
        .submit(0, "ADD 2", castellan_engine::Lang::En)
        .unwrap();
    assert!(m.ignored.is_empty());
    assert_eq!(
        serde_json::to_string(&t).unwrap(),
        serde_json::to_string(&alone).unwrap()
    );
}

/// "An unknown line between orders still refuses the block, as now."; so do
/// non-orders before the first order, and a mistyped order word is never taken for a
/// signature when an order follows it.
#[test]
fn a_line_that_is_not_an_order_between_orders_or_first_still_refuses() {
    let mut t = table();
    let before = serde_json::to_string(&t).unwrap();
    let err = t
        .submit(0, "thanks!\nADD 2", castellan_engine::Lang::En)
        .unwrap_err();
    assert_eq!((err.len(), err[0].line_no), (1, 1));
    assert_eq!(serde_json::to_string(&t).unwrap(), before);

    let err = t
        .submit(0, "ADD 2\nthanks\nADD 1", castellan_engine::Lang::En)
        .unwrap_err();
    assert_eq!(err[0].line_no, 2, "{err:?}");
    assert_eq!(err[0].line, "thanks");
    // ADD 2 rolled a die before the refused line: it stands (docs/rules/dice.md).
    assert_eq!(err.stood, vec![1]);
    // A malformed order (its order word known) at the end is refused, not ignored.
    let mut u = table();
    let err = u
        .submit(0, "ADD 2\nADD", castellan_engine::Lang::En)
        .unwrap_err();
    assert_eq!(err[0].line_no, 2);
}
