//! What the game asks: the legal orders worth offering, the default at a deadline, and the
//! prompts with their questions in English or French.

use crate::orders::order_text_in;
use crate::*;
use castellan_engine::lang::fr;
use castellan_engine::{PromptKinds, PromptRole};

/// A prompt of Castrum: one of its kinds.
pub(crate) type Prompt = castellan_engine::Prompt<Ask>;

/// What Castrum asks of a seat.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Ask {
    /// Play a turn.
    Turn,
    /// Defend against an attack (or accept it).
    Defend,
    /// Give up a card for the works.
    Works,
}

impl PromptKinds for Ask {
    const ALL: &'static [Ask] = &[Ask::Turn, Ask::Defend, Ask::Works];

    fn name(self) -> &'static str {
        match self {
            Ask::Turn => "turn",
            Ask::Defend => "defend",
            Ask::Works => "works",
        }
    }

    fn role(self) -> PromptRole {
        match self {
            Ask::Turn => PromptRole::Turn,
            Ask::Defend => PromptRole::Question,
            Ask::Works => PromptRole::Step,
        }
    }
}

impl Castrum {
    /// Orders worth offering `seat` now (every one passes [`Castrum::check`]).
    pub fn legal_orders(&self, seat: Seat) -> Vec<Order> {
        let mut out = Vec::new();
        match &self.phase {
            Phase::Over => {}
            Phase::Defence(_) => {
                out.push(Order::Defend);
                out.push(Order::Accept);
            }
            Phase::Works(_) => {
                let mut seen = Vec::new();
                for c in &self.sites[seat].cards {
                    if !seen.contains(c) {
                        seen.push(*c);
                        out.push(Order::Give(*c));
                    }
                }
            }
            Phase::Turn => {
                out.push(Order::Build(Piece::Tower));
                out.push(Order::Build(Piece::Wall));
                for c in [Card::LapidesX2, Card::RusticiX2] {
                    out.push(Order::Exchange(c));
                }
                let mut distinct: Vec<Card> = self.hands[seat].clone();
                distinct.sort();
                distinct.dedup();
                for &c in &distinct {
                    if c.is_attack() {
                        for t in (0..self.seats()).filter(|t| *t != seat) {
                            if c == Card::Sorciere {
                                let mut aims = self.sites[t].cards.clone();
                                aims.sort();
                                aims.dedup();
                                for a in aims {
                                    out.push(Order::Play {
                                        card: c,
                                        target: Some(t),
                                        aim: Some(a),
                                    });
                                }
                            } else {
                                out.push(Order::Play {
                                    card: c,
                                    target: Some(t),
                                    aim: None,
                                });
                            }
                        }
                    } else {
                        out.push(Order::Play {
                            card: c,
                            target: None,
                            aim: None,
                        });
                    }
                }
                for &c in &distinct {
                    out.push(Order::Discard(vec![c]));
                }
                out.push(Order::End);
            }
        }
        out.retain(|o| self.check(seat, o).is_ok());
        out
    }

    /// The documented default (deadline passed): see docs/rules/castrum.md.
    pub fn default_for(&self, seat: Seat) -> Order {
        match &self.phase {
            Phase::Defence(att) => {
                if self.hands[seat].contains(&att.defence_card()) {
                    Order::Defend
                } else {
                    Order::Accept
                }
            }
            Phase::Works(_) => {
                for c in [
                    Card::Rustici,
                    Card::Lapides,
                    Card::RusticiX2,
                    Card::LapidesX2,
                    Card::Structores,
                ] {
                    if self.sites[seat].cards.contains(&c) {
                        return Order::Give(c);
                    }
                }
                Order::Give(
                    self.sites[seat]
                        .cards
                        .first()
                        .copied()
                        .unwrap_or(Card::Rustici),
                )
            }
            _ => {
                for p in [Piece::Tower, Piece::Wall] {
                    if self.check(seat, &Order::Build(p)).is_ok() {
                        return Order::Build(p);
                    }
                }
                if self.turn_state.played == 0 && !self.blocked(seat) {
                    let mut hand = self.hands[seat].clone();
                    hand.sort();
                    for c in hand.iter().filter(|c| c.is_material()) {
                        let o = Order::Play {
                            card: *c,
                            target: None,
                            aim: None,
                        };
                        if self.check(seat, &o).is_ok() {
                            return o;
                        }
                    }
                    // Discard one card of the type held most (ties: deck order).
                    let mut best: Option<(usize, Card)> = None;
                    for c in &hand {
                        let k = hand.iter().filter(|x| *x == c).count();
                        if best.map(|(bk, _)| k > bk).unwrap_or(true) {
                            best = Some((k, *c));
                        }
                    }
                    if let Some((_, c)) = best {
                        return Order::Discard(vec![c]);
                    }
                }
                Order::End
            }
        }
    }

    pub(crate) fn prompts(&self, lang: Lang) -> Vec<Prompt> {
        let mk = |seat: Seat, kind: Ask, question: String, standing: Option<Order>| {
            let choices: Vec<String> = self
                .legal_orders(seat)
                .iter()
                .take(24)
                .map(|o| order_text_in(self, o, lang))
                .collect();
            Prompt {
                seat,
                kind,
                question,
                choices,
                default: order_text_in(self, &self.default_for(seat), lang),
                standing: standing.map(|o| order_text_in(self, &o, lang)),
            }
        };
        match &self.phase {
            Phase::Over => vec![],
            Phase::Turn => {
                let s = self.current;
                vec![mk(s, Ask::Turn, self.turn_question(lang), None)]
            }
            Phase::Defence(att) => {
                let q = self.defence_question(att, lang);
                let standing = Order::SetDefend(DefendPolicy::Always);
                vec![mk(att.victim, Ask::Defend, q, Some(standing))]
            }
            Phase::Works(owed) => owed
                .iter()
                .map(|s| {
                    let q = lang.pick(
                        "For the works: give up one card of your site.",
                        "Pour les œuvres : cédez une carte de votre chantier.",
                    );
                    let standing = Order::SetWorks(vec![Card::Rustici, Card::Lapides]);
                    mk(*s, Ask::Works, q.to_string(), Some(standing))
                })
                .collect(),
        }
    }

    fn turn_question(&self, lang: Lang) -> String {
        let played = self.turn_state.played;
        match lang {
            Lang::En if self.blocked(self.current) => {
                "Your turn: your site is blocked by a Mage; you may DISCARD 1 to 3 cards or END."
                    .to_string()
            }
            Lang::En if played == 0 => {
                "Your turn: play 1 or 2 cards (or the Roue de Carrier and 3 building cards), or discard 1 to 3; BUILD whenever your site holds a wall or a tower; END when done.".to_string()
            }
            Lang::En => format!(
                "Your turn goes on: {played} card(s) played; play more, BUILD, or END."
            ),
            Lang::Fr if self.blocked(self.current) => {
                "À vous de jouer : votre chantier est bloqué par un Mage ; vous pouvez DÉFAUSSER 1 à 3 cartes ou FIN."
                    .to_string()
            }
            Lang::Fr if played == 0 => {
                "À vous de jouer : jouez 1 ou 2 cartes (ou la Roue de Carrier et 3 cartes de construction), ou défaussez-en 1 à 3 ; CONSTRUIRE dès que votre chantier réunit une muraille ou une tour ; FIN quand vous avez terminé.".to_string()
            }
            Lang::Fr => format!(
                "Votre tour continue : {} ; jouez-en d'autres, CONSTRUIRE ou FIN.",
                fr::count(played, "carte jouée", "cartes jouées")
            ),
        }
    }

    fn defence_question(&self, att: &Attack, lang: Lang) -> String {
        let (attacker, card, def) = (
            self.name(att.attacker),
            att.card.name(),
            att.defence_card().name(),
        );
        match lang {
            Lang::En => format!(
                "{attacker} plays {card} on your site{}. Answer at once: DEFEND (with {def}) or ACCEPT.",
                att.aim
                    .map(|a| format!(" (aiming at your {})", a.name()))
                    .unwrap_or_default(),
            ),
            Lang::Fr => format!(
                "{attacker} joue une carte {card} sur votre chantier{}. Répondez tout de suite : DÉFENDRE (avec {def}) ou ACCEPTER.",
                att.aim
                    .map(|a| format!(" (en visant votre carte {})", a.name()))
                    .unwrap_or_default(),
            ),
        }
    }
}
