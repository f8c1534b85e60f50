//! The rules: setting up, checking an order (nothing changes), applying it.
//!
//! `check` (game/check.rs) looks at everything first; `exec` (game/exec.rs) then mutates
//! and never fails, so `apply` changes nothing when it returns `Err`. An attack's effects
//! are in game/attack.rs, building and the end of a game in game/build.rs, the end of a
//! round and its event in game/round.rs.

use crate::words::{list, list_in};
use crate::*;
use castellan_engine::words::{refusal, Hints};
use castellan_engine::Lang;

mod attack;
mod build;
mod check;
mod exec;
mod round;

fn remove_one(v: &mut Vec<Card>, c: Card) -> bool {
    if let Some(i) = v.iter().position(|x| *x == c) {
        v.remove(i);
        true
    } else {
        false
    }
}

/// True if `hand` holds every card of `cards` (as a multiset).
pub fn holds_all(hand: &[Card], cards: &[Card]) -> bool {
    let mut h = hand.to_vec();
    cards.iter().all(|c| remove_one(&mut h, *c))
}

impl Castrum {
    /// Set a game up with a given deck (the standard one is `data/deck.yaml`).
    pub fn with_deck(
        players: &[String],
        options: &Options,
        deck: &Deck,
        dice: &mut DiceBox,
    ) -> Result<(Castrum, Vec<Event>), OrderError> {
        let n = players.len();
        if !(2..=4).contains(&n) {
            return Err(refusal(
                format!("Castrum is played by 2 to 4 players, not {n}"),
                format!("Castrum se joue à 2, 3 ou 4 joueurs, pas {n}"),
            ));
        }
        if (deck.total() as usize) < HAND * n {
            return Err(refusal(
                "the deck is too small to deal the hands",
                "le paquet est trop petit pour distribuer les mains",
            ));
        }
        if options.victory == Victory::Timed && options.rounds == 0 {
            return Err(refusal(
                "a timed game needs at least one round",
                "une partie programmée dure au moins un tour de table",
            )
            .write("rounds=15", "rounds=15"));
        }
        let mut g = Castrum {
            players: players.to_vec(),
            options: options.clone(),
            hands: vec![Vec::new(); n],
            sites: vec![Site::default(); n],
            pile: deck.cards(),
            under: Vec::new(),
            first: 0,
            current: 0,
            round: 1,
            dice_turn: 1,
            turn_state: TurnState::default(),
            phase: Phase::Turn,
            in_force: None,
            defend: vec![options.defend; n],
            works: vec![Vec::new(); n],
            outcome: None,
        };
        let mut events = Vec::new();
        // "Chaque joueur lance le dé et celui qui réalise le meilleur score débute."
        let mut contenders: Vec<Seat> = (0..n).collect();
        let mut rolls = Vec::new();
        for _ in 0..50 {
            let r: Vec<(Seat, u8)> = contenders
                .iter()
                .map(|s| (*s, dice.roll(6).value))
                .collect();
            let best = r.iter().map(|(_, v)| *v).max().unwrap_or(0);
            contenders = r
                .iter()
                .filter(|(_, v)| *v == best)
                .map(|(s, _)| *s)
                .collect();
            rolls.push(r);
            if contenders.len() == 1 {
                break;
            }
        }
        let first = contenders.first().copied().unwrap_or(0);
        events.push(Event::FirstPlayer { rolls, seat: first });
        for s in 0..n {
            events.extend(g.draw(s, HAND, dice));
        }
        g.first = first;
        events.extend(g.begin_turn(first, dice));
        Ok((g, events))
    }

    pub fn seats(&self) -> usize {
        self.players.len()
    }

    pub fn name(&self, seat: Seat) -> &str {
        self.players.get(seat).map(|s| s.as_str()).unwrap_or("?")
    }

    /// Every card of the game, wherever it is (always the deck's total).
    pub fn card_count(&self) -> usize {
        let pending = match &self.phase {
            Phase::Defence(_) => 1,
            _ => 0,
        };
        self.hands.iter().map(|h| h.len()).sum::<usize>()
            + self
                .sites
                .iter()
                .map(|s| s.cards.len() + usize::from(s.mage.is_some()))
                .sum::<usize>()
            + self.pile.len()
            + self.under.len()
            + pending
    }

    pub fn pile_size(&self) -> usize {
        self.pile.len() + self.under.len()
    }

    pub fn blocked(&self, seat: Seat) -> bool {
        self.sites
            .get(seat)
            .map(|s| s.mage.is_some())
            .unwrap_or(false)
    }

    /// Draw up to `k` cards for `seat` from the secret stream.
    pub(super) fn draw(&mut self, seat: Seat, k: usize, dice: &mut DiceBox) -> Vec<Event> {
        let mut ev = Vec::new();
        let mut got = Vec::new();
        for _ in 0..k {
            if self.pile.is_empty() && !self.under.is_empty() {
                ev.push(Event::Reshuffled {
                    cards: self.under.len(),
                });
                self.pile.append(&mut self.under);
            }
            if self.pile.is_empty() {
                break;
            }
            let i = dice.secret_below(self.pile.len());
            got.push(self.pile.swap_remove(i));
        }
        if !got.is_empty() {
            self.hands[seat].extend(got.iter().copied());
            ev.push(Event::Drew { seat, cards: got });
        }
        ev
    }

    pub(super) fn refill(&mut self, seat: Seat, dice: &mut DiceBox) -> Vec<Event> {
        let k = HAND.saturating_sub(self.hands[seat].len());
        self.draw(seat, k, dice)
    }

    /// Put the cards under the pile and shuffle the whole pile.
    pub(super) fn shuffle_in(&mut self) {
        self.pile.append(&mut self.under);
    }

    pub(super) fn begin_turn(&mut self, seat: Seat, dice: &mut DiceBox) -> Vec<Event> {
        let mut ev = Vec::new();
        self.dice_turn += 1;
        self.current = seat;
        self.turn_state = TurnState::default();
        self.phase = Phase::Turn;
        ev.push(Event::TurnBegins {
            seat,
            round: self.round,
        });
        // "la carte Mage reste sur le chantier cible jusqu'au tour suivant de celui qui l'a posée"
        for v in 0..self.seats() {
            if self.sites[v].mage == Some(seat) {
                self.sites[v].mage = None;
                self.under.push(Card::Mage);
                ev.push(Event::MageLeaves {
                    caster: seat,
                    victim: v,
                });
            }
        }
        // "Veillez à bien avoir toujours 5 cartes dans votre jeu"
        ev.extend(self.refill(seat, dice));
        ev
    }
}

impl Attack {
    pub fn defence_card(&self) -> Card {
        self.card.defence().unwrap_or(Card::Gardes)
    }
}
