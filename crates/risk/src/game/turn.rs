//! A turn in play: reinforcements (with the 12-army rule), trading sets, placing,
//! fortifying, standing orders.

use crate::cards::{self, CardRef};
use crate::*;
use castellan_engine::board::TerritoryId;

impl Risk {
    pub(crate) fn start_turn(&mut self, seat: Seat, ev: &mut Vec<Event>) {
        self.to_move = seat;
        self.advance_dice_turn();
        let (terr, total, conts) = self.base_reinforcements(seat);
        let base = (terr / 3).max(3);
        self.turn_state = TurnState {
            stage: Stage::Reinforce,
            reinforcements: total,
            bonus_given: false,
            conquered: false,
            commander_used: false,
        };
        ev.push(Event::TurnBegins {
            seat,
            round: self.round,
            territories: terr,
            base,
            continents: conts,
            total,
        });
        self.cap_loss(seat, ev);
        self.maybe_leave_reinforce(seat, ev);
    }

    /// The 12-army rule: armies that cannot be placed are lost.
    pub(crate) fn cap_loss(&mut self, seat: Seat, ev: &mut Vec<Event>) {
        let cap = self.capacity(seat);
        if self.turn_state.reinforcements > cap {
            let lost = self.turn_state.reinforcements - cap;
            self.turn_state.reinforcements = cap;
            ev.push(Event::ArmiesLost { seat, armies: lost });
        }
    }

    pub(crate) fn maybe_leave_reinforce(&mut self, seat: Seat, ev: &mut Vec<Event>) {
        if self.turn_state.stage == Stage::Reinforce {
            if self.players[seat].hand.len() >= 5 {
                ev.push(Event::MustTrade {
                    seat,
                    cards: self.players[seat].hand.len(),
                });
            } else if self.turn_state.reinforcements == 0 {
                self.turn_state.stage = Stage::Attack;
            }
        }
    }

    pub(super) fn set_standing(
        &mut self,
        seat: Seat,
        neutral: bool,
        p: Policy,
        ev: &mut Vec<Event>,
    ) {
        let player = &mut self.players[seat];
        if neutral {
            player.stand_neutral = p;
        } else {
            player.stand_defend = p;
        }
        ev.push(Event::StandingSet {
            seat,
            neutral,
            policy: p,
        });
    }

    /// Reinforcements placed in play.
    pub(super) fn reinforce(&mut self, seat: Seat, own: &Placements, ev: &mut Vec<Event>) {
        for &(t, k) in own {
            self.board[t].armies += k;
            self.turn_state.reinforcements -= k;
        }
        ev.push(Event::Placed {
            seat,
            own: own.clone(),
            neutral: vec![],
        });
        self.maybe_leave_reinforce(seat, ev);
    }

    pub(super) fn trade(&mut self, seat: Seat, refs: &[CardRef], ev: &mut Vec<Event>) {
        let Ok(cs) = self.cards_for(seat, refs) else {
            return;
        };
        self.players[seat].hand.retain(|c| !cs.contains(c));
        self.discard.extend(cs.iter().copied());
        self.sets_traded += 1;
        let value = cards::set_value(self.sets_traded, self.opts.rising_sets);
        self.turn_state.reinforcements += value;
        let mut bonus_on = None;
        if !self.turn_state.bonus_given {
            if let Some(&t) = cs
                .iter()
                .find(|&&c| !cards::is_wild(c) && self.owns(seat, c))
            {
                self.turn_state.bonus_given = true;
                let add = 2.min(self.room(t));
                self.board[t].armies += add;
                bonus_on = Some(t);
                if add < 2 {
                    ev.push(Event::ArmiesLost {
                        seat,
                        armies: 2 - add,
                    });
                }
            }
        }
        ev.push(Event::Traded {
            seat,
            cards: cs,
            value,
            bonus_on,
        });
        self.cap_loss(seat, ev);
        self.maybe_leave_reinforce(seat, ev);
    }

    pub(super) fn fortify(
        &mut self,
        seat: Seat,
        from: TerritoryId,
        to: TerritoryId,
        armies: u32,
        dice: &mut DiceBox,
        ev: &mut Vec<Event>,
    ) {
        self.board[from].armies -= armies;
        self.board[to].armies += armies;
        ev.push(Event::Fortified {
            seat,
            from,
            to,
            armies,
        });
        if self.opts.free_fortify {
            self.turn_state.stage = Stage::Fortify;
        } else {
            self.end_turn(seat, dice, ev);
        }
    }
}
