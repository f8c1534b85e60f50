//! The state machine, by concept: `setup.rs` (the first player, claims, drafts, the
//! placement of the starting armies, headquarters), `turn.rs` (reinforcements, trades,
//! fortifying), `battle.rs` (attacks, conquests, eliminations), `end.rs` (the end of a turn,
//! the turn limit, victory) and `stored.rs` (a state-version-1 game converts on load).
//! `validate` (game/validate/) checks an order completely; `execute` then cannot fail.

use crate::cards::Card;
use crate::map::board;
use crate::*;
use castellan_engine::board::TerritoryId;

mod battle;
mod end;
mod setup;
pub(crate) mod stored;
mod turn;
mod validate;

pub use setup::setup;
pub use stored::upgrade_state;

impl Risk {
    pub fn n(&self) -> usize {
        self.players.len()
    }
    pub fn two_player(&self) -> bool {
        self.players.len() == 2
    }
    pub fn cap(&self) -> u32 {
        self.opts.max_armies_per_territory
    }
    /// Armies that may still be put on `t` (u32::MAX without a limit).
    pub fn room(&self, t: TerritoryId) -> u32 {
        match self.cap() {
            0 => u32::MAX,
            c => c.saturating_sub(self.board[t].armies),
        }
    }
    pub fn owns(&self, seat: Seat, t: TerritoryId) -> bool {
        self.board
            .get(t)
            .is_some_and(|x| x.owner == Owner::Seat(seat))
    }
    pub fn owned(&self, seat: Seat) -> Vec<TerritoryId> {
        (0..self.board.len())
            .filter(|&t| self.owns(seat, t))
            .collect()
    }
    pub fn count_owned(&self, seat: Seat) -> usize {
        self.board
            .iter()
            .filter(|x| x.owner == Owner::Seat(seat))
            .count()
    }
    /// Seats in play order starting at `seat`.
    pub fn order_from(&self, seat: Seat) -> Vec<Seat> {
        (0..self.n()).map(|i| (seat + i) % self.n()).collect()
    }
    pub fn next_alive(&self, seat: Seat) -> Seat {
        for i in 1..=self.n() {
            let s = (seat + i) % self.n();
            if !self.players[s].eliminated {
                return s;
            }
        }
        seat
    }
    /// Continents held whole by `seat`.
    pub fn continents_of(&self, seat: Seat) -> Vec<usize> {
        board()
            .groups
            .iter()
            .enumerate()
            .filter(|(_, g)| g.members.iter().all(|&t| self.owns(seat, t)))
            .map(|(i, _)| i)
            .collect()
    }
    /// Rule (003 §Ramasser): max(3, territories ÷ 3) + continent bonuses.
    pub fn base_reinforcements(&self, seat: Seat) -> (u32, u32, Vec<usize>) {
        let terr = self.count_owned(seat) as u32;
        let conts = self.continents_of(seat);
        let base = (terr / 3).max(3);
        let bonus: u32 = conts.iter().map(|&g| board().groups[g].bonus).sum();
        (terr, base + bonus, conts)
    }
    /// The seat answering for the defender of `t` when `attacker` attacks it.
    pub fn responder(&self, attacker: Seat, t: TerritoryId) -> Seat {
        match self.board[t].owner {
            Owner::Seat(d) => d,
            _ => (attacker + 1) % self.n(),
        }
    }
    pub(crate) fn policy_of(&self, attacker: Seat, t: TerritoryId) -> Policy {
        match self.board[t].owner {
            Owner::Seat(d) => self.players[d].stand_defend,
            _ => self.players[self.responder(attacker, t)].stand_neutral,
        }
    }
    /// Most armies a seat may still place in total (the 12-army rule).
    pub(crate) fn capacity(&self, seat: Seat) -> u32 {
        if self.cap() == 0 {
            return u32::MAX;
        }
        self.owned(seat).iter().map(|&t| self.room(t)).sum()
    }
    /// The required number of headquarters (own excluded).
    pub fn hq_needed(&self) -> usize {
        let others = self.n() - 1;
        match (self.opts.headquarters, self.n()) {
            (Headquarters::Quick, 4) => 2,
            (Headquarters::Quick, 5..) => 3,
            _ => others,
        }
    }
    pub fn blind_or_rounds(&self) -> Phase {
        if self.opts.placement == Placement::Blind {
            Phase::BlindPlace
        } else {
            Phase::Place
        }
    }
    pub(crate) fn advance_dice_turn(&mut self) {
        self.dice_turn += 1;
    }

    /// Carry out a validated order.
    pub fn execute(&mut self, seat: Seat, order: &Order, dice: &mut DiceBox, ev: &mut Vec<Event>) {
        match order {
            Order::SetDefend(p) => self.set_standing(seat, false, *p, ev),
            Order::SetNeutral(p) => self.set_standing(seat, true, *p, ev),
            Order::Defend(d) => {
                if let Some(b) = self.battle.take() {
                    self.run_battle(b, Some(*d), dice, ev);
                }
            }
            Order::Claim(t) => self.claim(seat, *t, ev),
            Order::Rank(list) => self.rank(seat, list, ev),
            Order::Place { own, neutral } => match self.phase {
                Phase::Place => self.place_in_turn(seat, own, neutral, ev),
                Phase::BlindPlace => self.place_blind(seat, own, neutral, ev),
                _ => self.reinforce(seat, own, ev),
            },
            Order::Hq(t) => self.choose_hq(seat, *t, dice, ev),
            Order::Trade(refs) => self.trade(seat, refs, ev),
            Order::Attack {
                to,
                from,
                plan,
                reroll,
                commander,
            } => {
                let b = Battle {
                    from: *from,
                    to: *to,
                    plan: *plan,
                    reroll: *reroll,
                    commander: *commander,
                    rolls: 0,
                    responder: self.responder(seat, *to),
                };
                self.run_battle(b, None, dice, ev);
            }
            Order::Fortify { from, to, armies } => {
                self.fortify(seat, *from, *to, *armies, dice, ev)
            }
            Order::End => self.end_turn(seat, dice, ev),
        }
    }

    /// Every card, wherever it is (for conservation checks).
    pub fn all_cards(&self) -> Vec<Card> {
        let mut v: Vec<Card> = self.deck.clone();
        v.extend(self.discard.iter().copied());
        for p in &self.players {
            v.extend(p.hand.iter().copied());
        }
        if self.hq_revealed {
            v.extend(self.players.iter().filter_map(|p| p.hq));
        }
        v.sort_unstable();
        v
    }
}
