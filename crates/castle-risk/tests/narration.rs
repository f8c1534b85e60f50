//! How an attack is told, rule by rule: on one line with every roll's dice and the loser
//! named (a General's +1 shown on its roll), to the table; and to the defender, addressed
//! ("You lost Brittany to Alice (1 → 0)"); in English and in French, counts agreeing.
mod common;

use castellan_castle_risk::{Card, CastleRisk, Event};
use castellan_engine::{Lang, Rules, Viewer};
use common::*;

/// Apply `line` for seat 0 with dice whose first faces are `faces`; the events, checked to
/// form one run (the engine tells a run in one line).
fn attack(
    owners: &[(&str, usize, u32)],
    general: bool,
    line: &str,
    faces: &[u8],
) -> (CastleRisk, Vec<Event>) {
    let mut g = position(2, &["Paris", "London"], owners);
    if general {
        give(&mut g, 0, &[Card::General]);
    }
    let want = faces.to_vec();
    let mut d = dice_with(faces.len(), move |f| f == want.as_slice());
    let o = g.parse(0, line).unwrap();
    let ev = g.apply_order(0, &o, &mut d).unwrap();
    for i in 1..ev.len() {
        let run: Vec<&Event> = ev[..i].iter().collect();
        assert!(g.continues_run(&run, &ev[i]), "one run: {ev:?}");
    }
    (g, ev)
}

fn told(g: &CastleRisk, ev: &[Event], lang: Lang) -> String {
    let run: Vec<&Event> = ev.iter().collect();
    g.narrate_run(&run, Viewer::Public, lang).unwrap()
}

fn told_to(g: &CastleRisk, ev: &[Event], seat: usize, lang: Lang) -> Option<String> {
    let run: Vec<&Event> = ev.iter().collect();
    g.narrate_to(&run, seat, lang)
}

/// The attack's line shows each die and names who lost what; a conquest "takes it".
#[test]
fn an_attack_is_told_with_its_dice_and_its_loser_named() {
    let (g, ev) = attack(
        &[("Gascony", 0, 2), ("Brittany", 1, 1)],
        false,
        "ATTACK Brittany FROM Gascony",
        &[6, 1],
    );
    assert_eq!(
        told(&g, &ev, Lang::En),
        "Alice attacks Brittany from Gascony: 6 against 1 — Bruno loses 1, and Alice takes it, moving in 1."
    );
    assert_eq!(
        told(&g, &ev, Lang::Fr),
        "Alice attaque la Bretagne depuis la Gascogne : 6 contre 1 — Bruno perd 1, et Alice s'en empare en y faisant entrer 1 armée."
    );
}

/// A General's +1 is shown on the roll it counted for; a beaten General is told after.
#[test]
fn a_generals_plus_one_is_shown_on_its_roll() {
    let (g, ev) = attack(
        &[("Gascony", 0, 2), ("Brittany", 1, 1)],
        true,
        "ATTACK Brittany FROM Gascony GENERAL",
        &[6, 1],
    );
    assert_eq!(
        told(&g, &ev, Lang::En),
        "Alice attacks Brittany from Gascony: 6 (+1 General) against 1 — Bruno loses 1, and Alice takes it, moving in 1."
    );
    let (g, ev) = attack(
        &[("Gascony", 0, 2), ("Marseille", 1, 1)],
        true,
        "ATTACK Marseille FROM Gascony GENERAL",
        &[4, 5],
    );
    assert_eq!(
        told(&g, &ev, Lang::En),
        "Alice attacks Marseille from Gascony: 4 (+1 General) against 5 — Alice loses 1; the attack stops: Gascony holds 1, Marseille holds 1. Alice's General is beaten and discarded."
    );
    assert_eq!(
        told(&g, &ev, Lang::Fr),
        "Alice attaque Marseille depuis la Gascogne : 4 (+1 Général) contre 5 — Alice perd 1 ; l'attaque s'arrête : il reste 1 armée en Gascogne et 1 armée à Marseille. Le Général d'Alice est battu et défaussé."
    );
}

/// The defender is told the attack as their own loss, with the armies before and after;
/// the attacker and the others are told nothing addressed.
#[test]
fn the_defender_is_told_their_loss_addressed() {
    let (g, ev) = attack(
        &[("Gascony", 0, 2), ("Brittany", 1, 1)],
        false,
        "ATTACK Brittany FROM Gascony",
        &[6, 1],
    );
    assert_eq!(
        told_to(&g, &ev, 1, Lang::En).as_deref(),
        Some("You lost Brittany to Alice (1 → 0): 6 against 1; Alice moved in 1.")
    );
    assert_eq!(
        told_to(&g, &ev, 1, Lang::Fr).as_deref(),
        Some("Vous avez perdu la Bretagne au profit d'Alice (1 → 0) : 6 contre 1 ; Alice y a fait entrer 1 armée.")
    );
    assert_eq!(told_to(&g, &ev, 0, Lang::En), None, "the attacker");
    let (g, ev) = attack(
        &[("Gascony", 0, 2), ("Marseille", 1, 1)],
        true,
        "ATTACK Marseille FROM Gascony GENERAL",
        &[4, 5],
    );
    assert_eq!(
        told_to(&g, &ev, 1, Lang::En).as_deref(),
        Some("Alice attacked Marseille from Gascony: 4 (+1 General) against 5 — you lost nothing (1 → 1), Alice lost 1.")
    );
}

/// Counts agree with their number: "1 army sails", "1 armée part", "is dealt 1 card".
#[test]
fn counts_agree_in_english_and_french() {
    let g = position(2, &["Paris", "London"], &[]);
    let e = Event::AttackDeclared {
        seat: 0,
        from: t("Gascony"),
        to: t("Ireland"),
        ship: Some(1),
    };
    assert_eq!(
        g.narrate(&e, Viewer::Public, Lang::En).unwrap(),
        "Alice plays an Admiral: 1 army sails from Gascony to attack Ireland."
    );
    assert_eq!(
        g.narrate(&e, Viewer::Public, Lang::Fr).unwrap(),
        "Alice joue un Amiral : 1 armée part par la mer de la Gascogne pour attaquer l'Irlande."
    );
    let e = Event::CardsDealt {
        seat: 0,
        cards: vec![Card::Spy],
    };
    assert_eq!(
        g.narrate(&e, Viewer::Seat(1), Lang::En).unwrap(),
        "Alice is dealt 1 card."
    );
}
