//! How an attack is told: on one line with every roll's dice and the loser named, to the
//! table; addressed to the defender ("You lost Alaska to P0 (3 → 0)"); counts agreeing.
mod common;

use castellan_engine::{Lang, Rules, Viewer};
use castellan_risk::{Event, Owner, Risk};
use common::*;

/// P0 attacks Alaska (P1's, 3 armies) from Kamchatka: two rolls, the second takes it.
fn attack() -> (Risk, Vec<Event>) {
    let t = table(3, &[], "narration");
    let (from, to) = (id("Kamchatka"), id("Alaska"));
    let battle = |attack: Vec<u8>, defence: Vec<u8>, a, d, left| Event::Battle {
        seat: 0,
        from,
        to,
        attack,
        defence,
        attacker_losses: a,
        defender_losses: d,
        reroll: None,
        commander: None,
        held: Some((Owner::Seat(1), left)),
    };
    let ev = vec![
        battle(vec![6, 5, 3], vec![6, 2], 1, 1, 2),
        battle(vec![6, 5, 1], vec![4, 3], 0, 2, 0),
        Event::Conquered {
            seat: 0,
            from,
            to,
            moved: 1,
        },
    ];
    (t.state, ev)
}

/// The line shows each roll's dice and names who lost what; the conquest "takes it".
#[test]
fn an_attack_is_told_with_its_dice_and_its_losers_named() {
    let (g, ev) = attack();
    let run: Vec<&Event> = ev.iter().collect();
    assert!(g.continues_run(&run[..1], run[1]) && g.continues_run(&run[..2], run[2]));
    assert_eq!(
        g.narrate_run(&run, Viewer::Public, Lang::En).unwrap(),
        "P0 attacks Alaska from Kamchatka: 6 5 3 against 6 2, 6 5 1 against 4 3 — P0 loses 1, P1 loses 3, and P0 takes it, moving in 1."
    );
    assert_eq!(
        g.narrate_run(&run, Viewer::Public, Lang::Fr).unwrap(),
        "P0 attaque l'Alaska depuis le Kamchatka : 6 5 3 contre 6 2, 6 5 1 contre 4 3 — P0 perd 1, P1 perd 3, et P0 s'en empare en y faisant entrer 1 armée."
    );
}

/// The defender reads the attack as their own loss, with the armies before and after; no
/// one else is addressed.
#[test]
fn the_defender_is_told_their_loss_addressed() {
    let (g, ev) = attack();
    let run: Vec<&Event> = ev.iter().collect();
    assert_eq!(
        g.narrate_to(&run, 1, Lang::En).as_deref(),
        Some("You lost Alaska to P0 (3 → 0): 6 5 3 against 6 2, 6 5 1 against 4 3; P0 lost 1 and moved in 1.")
    );
    assert_eq!(
        g.narrate_to(&run, 1, Lang::Fr).as_deref(),
        Some("Vous avez perdu l'Alaska au profit de P0 (3 → 0) : 6 5 3 contre 6 2, 6 5 1 contre 4 3 ; P0 a perdu 1 et y a fait entrer 1 armée.")
    );
    assert_eq!(g.narrate_to(&run, 0, Lang::En), None, "the attacker");
    assert_eq!(g.narrate_to(&run, 2, Lang::En), None, "a bystander");
    // A roll that does not take it: the defender's armies before and after.
    assert_eq!(
        g.narrate_to(&run[..1], 1, Lang::En).as_deref(),
        Some(
            "P0 attacked Alaska from Kamchatka: 6 5 3 against 6 2 — you lost 1 (3 → 2), P0 lost 1."
        )
    );
}

/// Counts agree: "moves 1 army".
#[test]
fn a_move_of_one_army_says_army() {
    let (g, _) = attack();
    let e = Event::Fortified {
        seat: 0,
        from: id("Kamchatka"),
        to: id("Alaska"),
        armies: 1,
    };
    assert_eq!(
        g.narrate(&e, Viewer::Public, Lang::En).unwrap(),
        "P0 moves 1 army from Kamchatka to Alaska."
    );
}
