#![allow(dead_code)]
//! Positions for rule tests: a real set-up game whose hands, sites and pile are then
//! arranged by hand (cards are taken out of the pile, so the 90 stay accounted for).

use castellan_castrum::*;
use castellan_engine::{DiceBox, OrderError, Rules, Secret};

pub const NAMES: [&str; 4] = ["Alice", "Bob", "Carol", "Dave"];

pub fn players(n: usize) -> Vec<String> {
    NAMES[..n].iter().map(|s| s.to_string()).collect()
}

pub fn new_game(n: usize, options: &Options, seed: &str) -> (Castrum, DiceBox) {
    let mut dice = DiceBox::new(seed, Secret::derive(seed.as_bytes()));
    let (g, _) = Castrum::setup(&players(n), options, &mut dice).expect("setup");
    dice.take_rolls();
    (g, dice)
}

/// Alice (seat 0) to play her first card of round 1; hands and sites as given (missing
/// seats: empty site, and a hand of 5 Rustici), every other card in the pile.
pub fn position(
    n: usize,
    options: &Options,
    seed: &str,
    hands: &[&[Card]],
    sites: &[&[Card]],
) -> (Castrum, DiceBox) {
    let (mut g, dice) = new_game(n, options, seed);
    let mut pool = Deck::standard().unwrap().cards();
    let mut take = |c: Card| {
        let i = pool.iter().position(|x| *x == c).expect("card in deck");
        pool.remove(i);
    };
    let mut hs = Vec::new();
    let mut ss = Vec::new();
    for s in 0..n {
        let h: Vec<Card> = hands
            .get(s)
            .map(|h| h.to_vec())
            .unwrap_or_else(|| vec![Card::Rustici; 5]);
        let si: Vec<Card> = sites.get(s).map(|x| x.to_vec()).unwrap_or_default();
        for c in h.iter().chain(si.iter()) {
            take(*c);
        }
        hs.push(h);
        ss.push(Site {
            cards: si,
            ..Site::default()
        });
    }
    g.hands = hs;
    g.sites = ss;
    g.pile = pool;
    g.under.clear();
    g.first = 0;
    g.current = 0;
    g.round = 1;
    g.turn_state = TurnState::default();
    g.phase = Phase::Turn;
    g.in_force = None;
    assert_eq!(g.card_count(), 90);
    (g, dice)
}

/// Parse and apply one line for `seat`.
pub fn play(
    g: &mut Castrum,
    dice: &mut DiceBox,
    seat: usize,
    line: &str,
) -> Result<Vec<Event>, OrderError> {
    let o = g.parse(seat, line)?;
    dice.enter_turn(g.turn());
    let r = g.apply(seat, &o, dice);
    dice.take_rolls();
    r
}

pub fn ok(g: &mut Castrum, dice: &mut DiceBox, seat: usize, line: &str) -> Vec<Event> {
    match play(g, dice, seat, line) {
        Ok(ev) => {
            assert_eq!(g.card_count(), 90, "cards conserved after {line}");
            ev
        }
        Err(e) => panic!("\"{line}\" refused: {} ({:?})", e.message, e.hint),
    }
}

pub fn refused(g: &mut Castrum, dice: &mut DiceBox, seat: usize, line: &str) -> OrderError {
    let before = g.clone();
    match play(g, dice, seat, line) {
        Ok(_) => panic!("\"{line}\" should be refused"),
        Err(e) => {
            assert_eq!(*g, before, "a refused order changes nothing");
            e
        }
    }
}

/// Answer any "for the works" prompts with their defaults.
pub fn settle(g: &mut Castrum, dice: &mut DiceBox) {
    while let Phase::Works(owed) = g.phase.clone() {
        let s = owed[0];
        let o = g.default_for(s);
        dice.enter_turn(g.turn());
        g.apply(s, &o, dice).expect("default works order");
    }
}

/// The rule tests play the text's game, in which the victim of an attack chooses
/// (`defend=ask`); by mail new games start with SET DEFEND ALWAYS (tests/games.rs).
pub fn family() -> Options {
    Options {
        defend: castellan_castrum::DefendPolicy::Ask,
        ..Options::default()
    }
}

pub fn expert() -> Options {
    Options {
        mode: Mode::Expert,
        ..family()
    }
}
