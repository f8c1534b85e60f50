//! The end of a turn (the card drawn, the next seat, the turn limit) and victory.

use crate::cards::Card;
use crate::*;

impl Risk {
    /// Victory after a conquest. Returns the winner if the game ended.
    pub(crate) fn check_win(&mut self, seat: Seat, ev: &mut Vec<Event>) -> Option<Seat> {
        if let Some(w) = &self.won {
            return w.winners.first().copied();
        }
        let alive: Vec<Seat> = (0..self.n())
            .filter(|&s| !self.players[s].eliminated)
            .collect();
        let reason = if alive == vec![seat] {
            if self.two_player() {
                WinReason::Opponent
            } else {
                WinReason::World
            }
        } else if self.opts.headquarters != Headquarters::None && self.hq_revealed {
            let holds = |s: Seat| self.players[s].hq.is_some_and(|t| self.owns(seat, t));
            let taken = (0..self.n()).filter(|&s| s != seat && holds(s)).count();
            if !(holds(seat) && taken >= self.hq_needed()) {
                return None;
            }
            WinReason::Headquarters {
                taken: taken as u32,
            }
        } else {
            return None;
        };
        self.finish(vec![seat], reason, ev);
        Some(seat)
    }

    pub(crate) fn finish(&mut self, winners: Vec<Seat>, reason: WinReason, ev: &mut Vec<Event>) {
        self.phase = Phase::Over;
        self.battle = None;
        self.won = Some(Won {
            winners: winners.clone(),
            reason,
        });
        ev.push(Event::Won { winners, reason });
    }

    pub(crate) fn draw_card(&mut self, dice: &mut DiceBox) -> Option<Card> {
        if self.deck.is_empty() {
            self.deck = std::mem::take(&mut self.discard);
            self.deck.sort_unstable();
        }
        if self.deck.is_empty() {
            return None;
        }
        let i = dice.secret_below(self.deck.len());
        Some(self.deck.remove(i))
    }

    pub(crate) fn end_turn(&mut self, seat: Seat, dice: &mut DiceBox, ev: &mut Vec<Event>) {
        if self.turn_state.conquered {
            if let Some(c) = self.draw_card(dice) {
                self.players[seat].hand.push(c);
                ev.push(Event::Drew { seat, card: c });
            }
        }
        ev.push(Event::TurnEnds { seat });
        let next = self.next_alive(seat);
        let pos = |s: Seat| (s + self.n() - self.first) % self.n();
        if pos(next) <= pos(seat) {
            // a round is over
            if self.opts.turn_limit > 0 && self.round >= self.limit_round {
                let counts: Vec<usize> = (0..self.n()).map(|s| self.count_owned(s)).collect();
                let best = counts.iter().copied().max().unwrap_or(0);
                let top: Vec<Seat> = (0..self.n()).filter(|&s| counts[s] == best).collect();
                if top.len() == 1 {
                    let reason = WinReason::TurnLimit {
                        territories: best as u32,
                        rounds: self.round,
                    };
                    self.finish(top, reason, ev);
                    return;
                }
                self.limit_round += 1;
                ev.push(Event::Extended {
                    round: self.limit_round,
                    tied: top,
                });
            }
            self.round += 1;
        }
        self.start_turn(next, ev);
    }
}
