//! An attack on a site: defended, or its effect (fire, witch, gold, mage).

use super::*;

impl Castrum {
    pub(super) fn defend_now(&mut self, att: &Attack, dice: &mut DiceBox) -> Vec<Event> {
        let def = att.defence_card();
        let mut ev = Vec::new();
        remove_one(&mut self.hands[att.victim], def);
        // "les deux cartes sont placées sous la pioche qui est ensuite mélangée"
        self.under.push(att.card);
        self.under.push(def);
        self.shuffle_in();
        ev.push(Event::Defended {
            victim: att.victim,
            defence: def,
            attack: att.card,
        });
        // "N'oubliez pas de reconstituer votre main avant que le joueur suivant ne commence"
        ev.extend(self.refill(att.victim, dice));
        ev
    }

    /// The attack hits (no defence).
    pub(super) fn resolve(&mut self, att: &Attack, dice: &mut DiceBox) -> Vec<Event> {
        let mut ev = Vec::new();
        let v = att.victim;
        match att.card {
            Card::Incendie => {
                match self.options.mode {
                    Mode::Family => {
                        let cards = std::mem::take(&mut self.sites[v].cards);
                        for c in cards {
                            let die = dice.roll(6).value;
                            let lost = die.is_multiple_of(2);
                            if lost {
                                self.under.push(c);
                            } else {
                                self.sites[v].cards.push(c);
                            }
                            ev.push(Event::FireDie {
                                victim: v,
                                card: c,
                                die,
                                lost,
                            });
                        }
                    }
                    Mode::Expert => {
                        let lots = self.sites[v].cards.len() / 3;
                        let mut lost = Vec::new();
                        for _ in 0..lots {
                            let n = self.sites[v].cards.len();
                            if n == 0 {
                                break;
                            }
                            let i = dice.public_below(n.min(255));
                            let c = self.sites[v].cards.remove(i);
                            self.under.push(c);
                            lost.push(c);
                        }
                        ev.push(Event::FireLots {
                            victim: v,
                            lots,
                            lost,
                        });
                    }
                }
                self.under.push(Card::Incendie);
            }
            Card::Sorciere => {
                let aim = att.aim.unwrap_or(Card::Structores);
                let die = match self.options.mode {
                    Mode::Family => Some(dice.roll(6).value),
                    Mode::Expert => None,
                };
                let destroyed = die.map(|d| d.is_multiple_of(2)).unwrap_or(true)
                    && remove_one(&mut self.sites[v].cards, aim);
                if destroyed {
                    self.under.push(aim);
                }
                ev.push(Event::Witch {
                    victim: v,
                    card: aim,
                    die,
                    destroyed,
                });
                self.under.push(Card::Sorciere);
            }
            Card::PiecesOr => {
                if remove_one(&mut self.sites[v].cards, Card::Structores) {
                    self.sites[att.attacker].cards.push(Card::Structores);
                    ev.push(Event::Stolen {
                        attacker: att.attacker,
                        victim: v,
                    });
                }
                self.under.push(Card::PiecesOr);
            }
            Card::Mage => {
                self.sites[v].mage = Some(att.attacker);
                ev.push(Event::Blocked {
                    caster: att.attacker,
                    victim: v,
                });
            }
            other => self.under.push(other),
        }
        ev
    }
}
