//! CHECK and refused mails tell nothing of a hand (docs/rules/dice.md,
//! "CHECK shows legality, never an outcome": "CHECK never tells what a legal line would do:
//! no result, no Spy's reveal, no hand"; and rule 1, "all or nothing until chance speaks",
//! whose "chance" must not be a hand the writer cannot see).
//!
//! The proof is by comparison: one position, Alice to play, and every holding of Bob's that
//! she cannot see (each defence card in his hand or none, each standing answer to attacks,
//! the pile's make-up); the answers to the same CHECK and the same refused mail must be
//! the same on every one.
mod common;

use castellan_castrum::Card::*;
use castellan_castrum::*;
use castellan_engine::{Lang, Secret, Table};
use common::*;

/// Alice's position: her hand and Bob's site as given; Bob's hand and standing answer to
/// attacks and the pile are the hidden holding.
fn table(
    alice: &[Card],
    bob_hand: &[Card],
    bob_defend: DefendPolicy,
    mode: Mode,
) -> Table<Castrum> {
    let options = Options {
        mode,
        ..Options::default()
    };
    let mut t =
        Table::<Castrum>::new("hid", Secret::derive(b"hid"), players(3), options.clone()).unwrap();
    let (g, _) = position(
        3,
        &options,
        "hid",
        &[alice, bob_hand, &[Rustici; 5]],
        &[
            &[Structores, Lapides],
            &[Structores, Lapides, LapidesX2, Rustici],
            &[],
        ],
    );
    t.state = g;
    t.state.defend[1] = bob_defend;
    t
}

/// Bob's hidden holdings: with each defence card or none, under each standing answer.
fn holdings() -> Vec<(Vec<Card>, DefendPolicy)> {
    let hands: [&[Card]; 4] = [
        &[Rustici, Rustici, Lapides, Lapides, Structores],
        &[Reliques, Rustici, Lapides, Lapides, Structores],
        &[Gardes, Rustici, Lapides, Lapides, Structores],
        &[Moines, Gardes, Reliques, Lapides, Structores],
    ];
    let mut out = Vec::new();
    for h in hands {
        for p in [DefendPolicy::Always, DefendPolicy::Ask, DefendPolicy::Never] {
            out.push((h.to_vec(), p));
        }
    }
    out
}

/// What a mail's sender is told by a refusal: which lines stood, which were refused and
/// why, which were not checked. Once a line stands, what it did is learnt by playing it
/// (its narration, and what the lines after it meet): then only which lines stood and the
/// first refusal are compared.
fn refusal(t: &mut Table<Castrum>, text: &str) -> String {
    match t.submit(0, text, Lang::En) {
        Ok(_) => "accepted".to_string(),
        Err(r) if !r.stood.is_empty() => {
            format!("stood {:?}; first error {:?}", r.stood, r.errors.first())
        }
        Err(r) => format!(
            "stood {:?}; errors {:?}; unchecked {:?}",
            r.stood, r.errors, r.unchecked
        ),
    }
}

fn same_answers(alice: &[Card], lines: &[&str], mode: Mode) {
    for line in lines {
        let mails = [
            format!("{line}\n{line}\nthis is no order"),
            format!("this is no order\n{line}"),
            format!("{line}\nthis is no order\nPLAY Lapides"),
        ];
        let mut first: Option<(String, Vec<String>)> = None;
        for (hand, policy) in holdings() {
            let t = table(alice, &hand, policy, mode);
            let check = format!("{:?}", t.check(0, &mails[0], Lang::En));
            let refused: Vec<String> = mails[1..]
                .iter()
                .map(|m| refusal(&mut t.clone(), m))
                .collect();
            match &first {
                None => first = Some((check, refused)),
                Some((c, r)) => {
                    assert_eq!(
                        c, &check,
                        "CHECK {line:?} differs with Bob's hand {hand:?} and {policy:?}"
                    );
                    assert_eq!(
                        r, &refused,
                        "a refused {line:?} differs with Bob's hand {hand:?} and {policy:?}"
                    );
                }
            }
        }
    }
}

/// docs/rules/dice.md, "CHECK shows legality, never an outcome" (no hand): an attack on
/// another player's site is answered the same whatever that player holds and whatever
/// their standing answer to attacks, by CHECK and in a refused mail (the attack plus a bad
/// line is no probe).
#[test]
fn check_and_refusals_of_an_attack_tell_nothing_of_the_victims_hand() {
    let alice = [Mage, Incendie, Sorciere, PiecesOr, Lapides];
    let lines = [
        "PLAY Mage ON Bob",
        "PLAY Incendie ON Bob",
        "PLAY Sorcière ON Bob TARGET Structores",
        "PLAY Pièces d'Or ON Bob",
        "PLAY Lapides",
        "PLAY Mage ON Carol",
    ];
    same_answers(&alice, &lines, Mode::Family);
    same_answers(&alice, &lines, Mode::Expert);
}

/// docs/rules/dice.md, "CHECK shows legality, never an outcome" (no hand): whether the
/// pile holds two simple cards for an exchange depends on the hands; an EXCHANGE is
/// answered the same whatever the others hold.
#[test]
fn check_and_refusals_of_an_exchange_tell_nothing_of_the_pile() {
    let alice = [Lapides, Rustici, Rustici, Rustici, Rustici];
    let mut first: Option<(String, String)> = None;
    // The pile holds many, two, one or no simple Lapides: the others hold the rest (the
    // cards they stand for here are Rustici; only the pile's make-up matters).
    for left in [usize::MAX, 2, 1, 0] {
        let mut t = table(&alice, &[Rustici; 5], DefendPolicy::Always, Mode::Family);
        t.state.sites[0].cards.push(LapidesX2);
        let x2 = t
            .state
            .pile
            .iter()
            .position(|c| *c == LapidesX2)
            .expect("an x2 in the pile");
        t.state.pile[x2] = Rustici;
        while t.state.pile.iter().filter(|c| **c == Lapides).count() > left {
            let i = t.state.pile.iter().position(|c| *c == Lapides).unwrap();
            t.state.pile[i] = Rustici;
        }
        let check = format!(
            "{:?}",
            t.check(0, "EXCHANGE Lapides x2\nthis is no order", Lang::En)
        );
        let refused = refusal(&mut t.clone(), "EXCHANGE Lapides x2\nthis is no order");
        // Played, the exchange looks: with fewer than two Lapides the x2 stays on the site.
        let mut played = t.clone();
        played.submit(0, "EXCHANGE Lapides x2", Lang::En).unwrap();
        assert_eq!(
            played.state.sites[0].cards.contains(&LapidesX2),
            left < 2,
            "{left} Lapides in the pile"
        );
        match &first {
            None => first = Some((check, refused)),
            Some((c, r)) => {
                assert_eq!(
                    c, &check,
                    "CHECK EXCHANGE differs with {left} Lapides in the pile"
                );
                assert_eq!(
                    r, &refused,
                    "a refused EXCHANGE differs with {left} Lapides in the pile"
                );
            }
        }
    }
}
