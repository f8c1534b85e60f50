//! Applying a checked order: what each order changes, and the events it causes.

use super::*;

impl Castrum {
    /// Apply a checked order. Never fails; call [`Castrum::check`] first.
    pub fn exec(&mut self, seat: Seat, order: &Order, dice: &mut DiceBox) -> Vec<Event> {
        let mut ev = Vec::new();
        match order {
            Order::SetDefend(p) => {
                self.defend[seat] = *p;
                ev.push(Event::StandingSet {
                    seat,
                    standing: Standing::Defend(*p),
                });
            }
            Order::SetWorks(v) => {
                self.works[seat] = v.clone();
                ev.push(Event::StandingSet {
                    seat,
                    standing: Standing::Works(v.clone()),
                });
            }
            Order::Defend => {
                if let Phase::Defence(att) = self.phase.clone() {
                    ev.extend(self.defend_now(&att, dice));
                    self.phase = Phase::Turn;
                }
            }
            Order::Accept => {
                if let Phase::Defence(att) = self.phase.clone() {
                    self.phase = Phase::Turn;
                    ev.extend(self.resolve(&att, dice));
                }
            }
            Order::Give(c) => {
                if remove_one(&mut self.sites[seat].cards, *c) {
                    self.under.push(*c);
                    ev.push(Event::Gave { seat, card: *c });
                }
                if let Phase::Works(owed) = &mut self.phase {
                    owed.retain(|s| *s != seat);
                    if owed.is_empty() {
                        let first = self.first;
                        ev.extend(self.begin_turn(first, dice));
                    }
                }
            }
            Order::Play { card, target, aim } => {
                ev.extend(self.play_card(seat, *card, *target, *aim, dice))
            }
            Order::Discard(cards) => {
                for c in cards {
                    if remove_one(&mut self.hands[seat], *c) {
                        self.under.push(*c);
                    }
                }
                ev.push(Event::Discarded {
                    seat,
                    cards: cards.clone(),
                });
                ev.extend(self.end_turn(dice));
            }
            Order::Build(piece) => ev.extend(self.build(seat, *piece)),
            Order::Exchange(card) => ev.extend(self.exchange(seat, *card, dice)),
            Order::End => ev.extend(self.end_turn(dice)),
        }
        ev
    }

    /// PLAY: a material or the Roue onto one's own site, or an attack on another's.
    fn play_card(
        &mut self,
        seat: Seat,
        card: Card,
        target: Option<Seat>,
        aim: Option<Card>,
        dice: &mut DiceBox,
    ) -> Vec<Event> {
        let mut ev = Vec::new();
        remove_one(&mut self.hands[seat], card);
        self.turn_state.played += 1;
        if card == Card::Roue {
            self.turn_state.wheel = true;
            self.under.push(Card::Roue);
            ev.push(Event::Wheel { seat });
        } else if card.is_material() {
            self.sites[seat].cards.push(card);
            ev.push(Event::Placed { seat, card });
        } else {
            self.turn_state.attacked = true;
            // Rules revision 2: an attack meets what the victim holds (a defence
            // card, their standing answer), which the attacker cannot see; it counts
            // as a hidden draw whatever they hold, so neither CHECK nor a refused
            // mail tells it (docs/rules/dice.md).
            if self.options.revision >= 2 {
                dice.secret_below(2);
            }
            let att = Attack {
                attacker: seat,
                victim: target.unwrap_or(0),
                card,
                aim: if card == Card::Sorciere { aim } else { None },
            };
            ev.push(Event::Attacked {
                attacker: seat,
                victim: att.victim,
                card,
                aim: att.aim,
            });
            let holds = self.hands[att.victim].contains(&att.defence_card());
            match self.defend[att.victim] {
                DefendPolicy::Always if holds => ev.extend(self.defend_now(&att, dice)),
                DefendPolicy::Always | DefendPolicy::Never => ev.extend(self.resolve(&att, dice)),
                DefendPolicy::Ask => self.phase = Phase::Defence(att),
            }
        }
        ev
    }

    /// EXCHANGE an x2 card of one's site for two simple cards from the pile.
    fn exchange(&mut self, seat: Seat, card: Card, dice: &mut DiceBox) -> Vec<Event> {
        let mut ev = Vec::new();
        // Rules revision 2: the pile's make-up is hidden (it depends on the hands),
        // so an exchange is a hidden draw and is never refused for it; with fewer
        // than two simple cards in the pile the x2 card stays on the site.
        if self.options.revision >= 2 {
            dice.secret_below(2);
            if self.simple_in_pile(card) < 2 {
                ev.push(Event::ExchangeFailed { seat, card });
                return ev;
            }
        }
        if remove_one(&mut self.sites[seat].cards, card) {
            let simple = card.simple();
            let mut taken = 0;
            while taken < 2 {
                if !remove_one(&mut self.pile, simple) && !remove_one(&mut self.under, simple) {
                    break;
                }
                self.sites[seat].cards.push(simple);
                taken += 1;
            }
            self.under.push(card);
            self.shuffle_in();
            ev.push(Event::Exchanged { seat, card });
        }
        ev
    }
}
