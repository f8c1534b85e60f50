//! Attacks: the exchanges of dice (with the re-roll and commander options), the defender
//! asked when its standing order says so, conquests, captured headquarters and
//! eliminations.

use crate::cards::Card;
use crate::*;
use castellan_engine::battle::{exchange, max_attack_dice, max_defence_dice};

impl Risk {
    /// Roll exchanges until the plan stops, the territory falls, or the defender must be
    /// asked (then the battle waits in `self.battle`).
    pub(crate) fn run_battle(
        &mut self,
        mut b: Battle,
        mut answer: Option<u32>,
        dice: &mut DiceBox,
        ev: &mut Vec<Event>,
    ) {
        let seat = self.to_move;
        loop {
            let (att, def) = (self.board[b.from].armies, self.board[b.to].armies);
            if !b.plan.go_on(att, def, b.rolls) {
                break;
            }
            let dmax = max_defence_dice(def, 2);
            let dn = match answer.take() {
                Some(n) => n.clamp(1, dmax),
                None if dmax == 1 => 1,
                None => match self.policy_of(seat, b.to) {
                    Policy::Dice(n) => n.clamp(1, dmax),
                    Policy::Ask => {
                        ev.push(Event::AwaitDefence {
                            responder: b.responder,
                            from: b.from,
                            to: b.to,
                        });
                        self.battle = Some(b);
                        return;
                    }
                },
            };
            let an = b.plan.dice_now(max_attack_dice(att, 3), att).max(1);
            let mut a: Vec<u8> = (0..an).map(|_| dice.roll(6).value).collect();
            let d: Vec<u8> = (0..dn).map(|_| dice.roll(6).value).collect();
            a.sort_unstable_by(|x, y| y.cmp(x));
            let reroll = if b.reroll {
                self.reroll(seat, &b, &mut a, &d, dice)
            } else {
                None
            };
            let commander = if b.commander && !self.turn_state.commander_used {
                self.commander(&mut a, &d)
            } else {
                None
            };
            let e = exchange(&a, &d, 0, 0);
            self.board[b.from].armies -= e.attacker_losses.min(self.board[b.from].armies - 1);
            self.board[b.to].armies -= e.defender_losses.min(self.board[b.to].armies);
            b.rolls += 1;
            ev.push(Event::Battle {
                seat,
                from: b.from,
                to: b.to,
                attack: e.attacker,
                defence: e.defender,
                attacker_losses: e.attacker_losses,
                defender_losses: e.defender_losses,
                reroll,
                commander,
                held: Some((self.board[b.to].owner, self.board[b.to].armies)),
            });
            if self.board[b.to].armies == 0 {
                self.conquer(seat, &b, an, dice, ev);
                break;
            }
        }
        self.battle = None;
    }

    /// The re-roll option: when the attacker would lose armies and holds the card of either
    /// territory, the lowest of its dice that are compared is rolled again. (card, before,
    /// after) when it was.
    fn reroll(
        &self,
        seat: Seat,
        b: &Battle,
        a: &mut [u8],
        d: &[u8],
        dice: &mut DiceBox,
    ) -> Option<(Card, u8, u8)> {
        let card = self.players[seat]
            .hand
            .iter()
            .copied()
            .find(|&c| c == b.from || c == b.to)?;
        if exchange(a, d, 0, 0).attacker_losses == 0 {
            return None;
        }
        let i = (a.len().min(d.len())).saturating_sub(1);
        let old = a[i];
        let new = dice.roll(6).value;
        a[i] = new;
        a.sort_unstable_by(|x, y| y.cmp(x));
        Some((card, old, new))
    }

    /// The commander option, once a turn: the attacker's die whose turning to 6 helps most
    /// (fewest own losses, then most of the defender's) is turned; the die before, when one
    /// helps at all.
    fn commander(&mut self, a: &mut [u8], d: &[u8]) -> Option<u8> {
        let key = |e: &castellan_engine::battle::Exchange| {
            (e.attacker_losses, std::cmp::Reverse(e.defender_losses))
        };
        let base = key(&exchange(a, d, 0, 0));
        let mut best: Option<(usize, (u32, std::cmp::Reverse<u32>))> = None;
        for i in 0..a.len() {
            let mut t = a.to_vec();
            t[i] = 6;
            let k = key(&exchange(&t, d, 0, 0));
            if k < base && best.is_none_or(|(_, b)| k < b) {
                best = Some((i, k));
            }
        }
        let (i, _) = best?;
        let old = a[i];
        a[i] = 6;
        a.sort_unstable_by(|x, y| y.cmp(x));
        self.turn_state.commander_used = true;
        Some(old)
    }

    pub(crate) fn conquer(
        &mut self,
        seat: Seat,
        b: &Battle,
        last_dice: u32,
        _dice: &mut DiceBox,
        ev: &mut Vec<Event>,
    ) {
        let loser = self.board[b.to].owner;
        let att = self.board[b.from].armies;
        let mut moved = b.plan.armies_to_move(att, last_dice);
        if self.cap() > 0 {
            moved = moved.min(self.cap());
        }
        moved = moved.clamp(1, att.saturating_sub(1).max(1));
        self.board[b.from].armies -= moved.min(att - 1);
        self.board[b.to].armies = moved;
        self.board[b.to].owner = Owner::Seat(seat);
        self.turn_state.conquered = true;
        ev.push(Event::Conquered {
            seat,
            from: b.from,
            to: b.to,
            moved,
        });
        if self.hq_revealed {
            if let Some(of) = (0..self.n()).find(|&s| self.players[s].hq == Some(b.to)) {
                if of != seat && self.players[of].hq_card_holder != seat {
                    self.players[of].hq_card_holder = seat;
                    ev.push(Event::HqTaken { seat, of, t: b.to });
                }
            }
        }
        if let Owner::Seat(v) = loser {
            if self.count_owned(v) == 0 {
                self.players[v].eliminated = true;
                let taken = std::mem::take(&mut self.players[v].hand);
                self.players[seat].hand.extend(taken.iter().copied());
                for p in self.players.iter_mut() {
                    if p.hq_card_holder == v {
                        p.hq_card_holder = seat;
                    }
                }
                ev.push(Event::Eliminated {
                    victim: v,
                    by: seat,
                    cards: taken,
                });
                // Rule: six or more cards after taking them: trade at once down to 4 or fewer.
                if self.players[seat].hand.len() >= 6 && self.check_win(seat, ev).is_none() {
                    self.turn_state.stage = Stage::Reinforce;
                    self.turn_state.reinforcements = 0;
                    ev.push(Event::MustTrade {
                        seat,
                        cards: self.players[seat].hand.len(),
                    });
                    return;
                }
            }
        }
        self.check_win(seat, ev);
    }
}
