//! The end of a round: the game's end by rounds, or the event die and its effects.

use super::*;

impl Castrum {
    pub(super) fn end_round(&mut self, dice: &mut DiceBox) -> Vec<Event> {
        if self.options.victory == Victory::Timed && self.round >= self.options.rounds {
            let rounds = self.options.rounds;
            return self.score(|points| End::RoundsOver { rounds, points });
        }
        if self.options.victory == Victory::Classic && self.round >= CLASSIC_ROUND_LIMIT {
            let rounds = CLASSIC_ROUND_LIMIT;
            return self.score(|points| End::RoundLimit { rounds, points });
        }
        let mut ev = Vec::new();
        let die = dice.roll(6).value;
        let h = Happening::from_die(die);
        ev.push(Event::EventDie {
            round: self.round,
            die,
            happening: h,
        });
        self.round += 1;
        ev.extend(self.happen(h, dice));
        ev
    }

    /// Put the round event `h` in force and carry out its immediate effects, then start
    /// the next round (unless "for the works" waits for players).
    pub fn happen(&mut self, h: Happening, dice: &mut DiceBox) -> Vec<Event> {
        let mut ev = Vec::new();
        self.in_force = Some(h);
        match h {
            Happening::Plague => {
                for s in 0..self.seats() {
                    let lost = self.plague(s);
                    if !lost.is_empty() {
                        ev.push(Event::Plague { seat: s, lost });
                    }
                }
            }
            Happening::FeastOfFools => {
                let n = self.seats();
                let old = std::mem::take(&mut self.hands);
                let mut new = vec![Vec::new(); n];
                for (i, h) in old.into_iter().enumerate() {
                    new[(i + 1) % n] = h;
                }
                self.hands = new;
                ev.push(Event::HandsPassed);
                for s in 0..n {
                    ev.push(Event::Received {
                        seat: s,
                        from: (s + n - 1) % n,
                        cards: self.hands[s].clone(),
                    });
                }
            }
            Happening::ForTheWorks => {
                let mut owed = Vec::new();
                for s in 0..self.seats() {
                    if self.sites[s].cards.is_empty() {
                        continue;
                    }
                    let pref = self.works[s]
                        .iter()
                        .find(|c| self.sites[s].cards.contains(c))
                        .copied();
                    match pref {
                        Some(c) => {
                            remove_one(&mut self.sites[s].cards, c);
                            self.under.push(c);
                            ev.push(Event::Gave { seat: s, card: c });
                        }
                        None => owed.push(s),
                    }
                }
                if !owed.is_empty() {
                    self.phase = Phase::Works(owed);
                    return ev;
                }
            }
            _ => {}
        }
        let first = self.first;
        ev.extend(self.begin_turn(first, dice));
        ev
    }

    /// "L'épidémie détruit une carte Rustici et Structures sur deux. Chaque joueur rassemble
    /// ses cartes Rustici et Structores et en retire une sur deux." The two kinds are gathered
    /// into one pile and half of it (rounded down) is removed: half of each kind, and when
    /// both counts are odd one card more, of the kind left with more cards (Rustici on a
    /// tie). A Rustici x2 is one card; simple Rustici go before x2 ones.
    pub(super) fn plague(&mut self, s: Seat) -> Vec<Card> {
        let site = &mut self.sites[s];
        let r = site.count(Card::Rustici) + site.count(Card::RusticiX2);
        let st = site.count(Card::Structores);
        let due = (r + st) / 2;
        let (mut lose_r, mut lose_s) = (r / 2, st / 2);
        if lose_r + lose_s < due && self.options.revision >= 1 {
            if r - lose_r >= st - lose_s {
                lose_r += 1;
            } else {
                lose_s += 1;
            }
        }
        let mut lost = Vec::new();
        for _ in 0..lose_r {
            let c = if site.cards.contains(&Card::Rustici) {
                Card::Rustici
            } else {
                Card::RusticiX2
            };
            if remove_one(&mut site.cards, c) {
                lost.push(c);
            }
        }
        for _ in 0..lose_s {
            if remove_one(&mut site.cards, Card::Structores) {
                lost.push(Card::Structores);
            }
        }
        self.under.extend(lost.iter().copied());
        lost
    }
}
