//! The cards played in turn: drawing, Reinforcements, the Diplomat's truce, the Spy and
//! its counter, and revealing hidden armies.

use super::*;

impl CastleRisk {
    /// Draw one card into `seat`'s hand: the pile is reshuffled from the discard when empty
    /// (Reinforcements never come back: they sit on the track); with two players a drawn
    /// Diplomat is discarded and replaced.
    pub(crate) fn draw(
        &mut self,
        seat: Seat,
        dice: &mut DiceBox,
        ev: &mut Vec<Event>,
    ) -> Option<Card> {
        for _ in 0..128 {
            if self.pile.is_empty() {
                if self.discard.is_empty() {
                    return None;
                }
                if self.no_diplomats && self.discard.iter().all(|c| *c == Card::Diplomat) {
                    return None;
                }
                self.pile.append(&mut self.discard);
                self.pile.sort();
            }
            if self.no_diplomats
                && self.pile.iter().all(|c| *c == Card::Diplomat)
                && self.discard.iter().all(|c| *c == Card::Diplomat)
            {
                return None;
            }
            let i = dice.secret_below(self.pile.len());
            let c = self.pile.remove(i);
            if self.no_diplomats && c == Card::Diplomat {
                self.discard.push(c);
                ev.push(Event::DiplomatReplaced { seat });
                continue;
            }
            self.players[seat].hand.push(c);
            return Some(c);
        }
        None
    }

    pub fn reinforce(&mut self, seat: Seat, cards: u32) -> Result<Vec<Event>, OrderError> {
        self.in_turn(seat, "REINFORCE")?;
        if self.attacked {
            return Err(refusal(
                "Reinforcements are played before the first attack of the turn",
                "les Renforts se jouent avant la première attaque du tour",
            )
            .hints(
                "play them at the start of your next turn",
                "jouez-les au début de votre prochain tour",
            ));
        }
        let held = self.players[seat]
            .hand
            .iter()
            .filter(|c| **c == Card::Reinforcements)
            .count() as u32;
        if cards == 0 || cards > held {
            return Err(err(
                format!(
                    "you hold {}, not {cards}",
                    castellan_engine::lang::en::count(
                        held,
                        "Reinforcements card",
                        "Reinforcements cards"
                    )
                ),
                format!(
                    "vous avez {}, pas {cards}",
                    castellan_engine::lang::fr::count(held, "carte Renfort", "cartes Renfort")
                ),
                if held > 0 {
                    format!("write: REINFORCE {held}")
                } else {
                    "you have no Reinforcements card to play".into()
                },
                if held > 0 {
                    format!("écrivez : RENFORT {held}")
                } else {
                    "vous n'avez aucune carte Renfort à jouer".into()
                },
            ));
        }
        let mut armies = 0;
        for _ in 0..cards {
            self.take_from_hand(seat, Card::Reinforcements);
            self.track += 1;
            armies += track_number(self.track);
        }
        self.to_place += armies;
        Ok(vec![Event::Reinforced {
            seat,
            cards,
            armies,
            track: self.track,
        }])
    }

    pub fn truce(&mut self, seat: Seat, with: Seat) -> Result<Vec<Event>, OrderError> {
        self.in_turn(seat, "TRUCE")?;
        if self.no_diplomats || self.alive_count() < 3 {
            return Err(refusal(
                "Diplomats are not used with two players",
                "les Diplomates ne servent pas à deux joueurs",
            ));
        }
        if self.attacked {
            return Err(refusal(
                "a Diplomat is played before the first attack of the turn",
                "un Diplomate se joue avant la première attaque du tour",
            ));
        }
        if with == seat || !self.players.get(with).is_some_and(|p| p.alive) {
            let e = refusal(
                "a truce is made with another player still in the game",
                "une trêve se fait avec un autre joueur encore en jeu",
            );
            return Err(match crate::orders::hint::other_player(self, seat) {
                Some(o) => e.hints(format!("write: TRUCE {o}"), format!("écrivez : TRÊVE {o}")),
                None => e,
            });
        }
        if !self.hand_has(seat, Card::Diplomat) {
            return Err(refusal(
                "you hold no Diplomat",
                "vous n'avez pas de Diplomate",
            ));
        }
        if self.truces.iter().any(|t| t.by == seat && t.with == with) {
            return Err(refusal(
                format!("you already have a truce with {}", self.name(with)),
                format!("vous avez déjà une trêve avec {}", self.name(with)),
            ));
        }
        self.take_from_hand(seat, Card::Diplomat);
        self.in_play.push((seat, Card::Diplomat));
        self.truces.push(Truce {
            by: seat,
            with,
            made: self.turns_played,
        });
        Ok(vec![Event::TruceMade { by: seat, with }])
    }

    pub fn spy(
        &mut self,
        seat: Seat,
        target: Seat,
        prefer: &[Card],
    ) -> Result<Vec<Event>, OrderError> {
        self.in_turn(seat, "SPY")?;
        if target == seat || !self.players.get(target).is_some_and(|p| p.alive) {
            let e = refusal(
                "spy on another player still in the game",
                "espionnez un autre joueur encore en jeu",
            );
            return Err(match crate::orders::hint::other_player(self, seat) {
                Some(o) => e.hints(format!("write: SPY {o}"), format!("écrivez : ESPION {o}")),
                None => e,
            });
        }
        if !self.hand_has(seat, Card::Spy) {
            return Err(refusal("you hold no Spy", "vous n'avez pas d'Espion"));
        }
        self.take_from_hand(seat, Card::Spy);
        let mut ev = vec![Event::SpyPlayed { seat, target }];
        let answer = self.players[target].standing.counterspy;
        match answer {
            None if self.options.ask => {
                // The Spy card waits on the table until the target answers.
                self.in_play.push((seat, Card::Spy));
                self.interrupt = Some(Interrupt::CounterSpy {
                    spy: seat,
                    target,
                    prefer: prefer.to_vec(),
                });
                ev.push(Event::Waiting {
                    seat: target,
                    what: Awaited::CounterSpy,
                });
            }
            _ => {
                let counter = answer.unwrap_or(DEFAULT_COUNTERSPY);
                self.discard.push(Card::Spy);
                ev.extend(self.resolve_spy(seat, target, prefer, counter));
            }
        }
        Ok(ev)
    }

    /// The Spy card is already discarded (or about to be, from in_play).
    pub(crate) fn resolve_spy(
        &mut self,
        seat: Seat,
        target: Seat,
        prefer: &[Card],
        counter: bool,
    ) -> Vec<Event> {
        if counter && self.take_from_hand(target, Card::Spy) {
            self.discard.push(Card::Spy);
            return vec![Event::SpyCountered { seat, target }];
        }
        let hand = self.players[target].hand.clone();
        let mut ev = vec![Event::SpySaw {
            seat,
            target,
            hand: hand.clone(),
        }];
        let pick = prefer
            .iter()
            .chain(SPY_PRIORITY.iter())
            .find(|c| hand.contains(c))
            .copied();
        if let Some(c) = pick {
            self.take_from_hand(target, c);
            self.discard_card(c);
        }
        ev.push(Event::SpyDiscarded {
            seat,
            target,
            card: pick,
        });
        ev
    }

    /// Put a card on the discard (a Reinforcements card, which never comes back into
    /// play, goes to the discard too but is never drawn again: see `draw`).
    pub(crate) fn discard_card(&mut self, c: Card) {
        self.discard.push(c);
    }

    pub fn counterspy(&mut self, seat: Seat, yes: bool) -> Result<Vec<Event>, OrderError> {
        let Some(Interrupt::CounterSpy {
            spy,
            target,
            prefer,
        }) = self.interrupt.clone()
        else {
            return Err(refusal(
                "no Spy is waiting for your answer",
                "aucun Espion n'attend votre réponse",
            ));
        };
        if seat != target {
            return Err(refusal(
                format!(
                    "the Spy waits for {}'s answer, not yours",
                    self.name(target)
                ),
                format!(
                    "l'Espion attend la réponse {}, pas la vôtre",
                    fr::de(self.name(target))
                ),
            ));
        }
        if yes && !self.hand_has(seat, Card::Spy) {
            return Err(err(
                "you hold no Spy to counter with",
                "vous n'avez pas d'Espion pour contrer",
                "write: NO COUNTERSPY",
                "écrivez : PAS DE CONTRE-ESPION",
            ));
        }
        self.interrupt = None;
        self.disengage(spy, Card::Spy);
        self.discard.push(Card::Spy);
        Ok(self.resolve_spy(spy, target, &prefer, yes))
    }

    /// Reveal hidden armies in `t` (or the only unused slot) during one's own turn.
    pub fn reveal(&mut self, seat: Seat, t: Option<T>) -> Result<Vec<Event>, OrderError> {
        self.in_turn(seat, "REVEAL")?;
        let slots: Vec<usize> = (0..self.players[seat].hidden.len())
            .filter(|&i| !self.players[seat].hidden[i].used)
            .filter(|&i| t.is_none_or(|t| self.players[seat].hidden[i].territory == t))
            .collect();
        let Some(&i) = slots.first() else {
            let held = crate::orders::hint::reveal_example(self, seat);
            return Err(match t {
                Some(t) => {
                    let e = refusal(
                        format!("you have no unused hidden armies in {}", Self::tname(t)),
                        format!(
                            "vous n'avez pas d'armées cachées inutilisées {}",
                            words::en(t)
                        ),
                    );
                    match held {
                        Some(h) => e.hints(
                            format!("write: REVEAL {}", Self::tname(h)),
                            format!("écrivez : DÉVOILER {}", tn(h, Lang::Fr)),
                        ),
                        None => e,
                    }
                }
                None => refusal(
                    "your hidden armies are already used",
                    "vos armées cachées ont déjà servi",
                ),
            });
        };
        let ht = self.players[seat].hidden[i].territory;
        if self.board[ht].owner != Some(seat) {
            return Err(refusal(
                format!(
                    "you must hold {} to reveal your hidden armies there",
                    Self::tname(ht)
                ),
                format!(
                    "vous devez occuper {} pour y dévoiler vos armées cachées",
                    words::le(ht)
                ),
            )
            .hints(
                "conquer it first, then write: REVEAL",
                "conquérez-le d'abord, puis écrivez : DÉVOILER",
            ));
        }
        self.check_reveal_worth()?;
        Ok(self.do_reveal(seat, i))
    }

    /// Hidden armies are worth "le nombre inscrit en face de la dernière carte de renfort
    /// jouée", so 0 before any is played, and they are "Utilisées une seule fois": a reveal
    /// then would use them up for nothing, and is refused (rules revision 2 on; it was
    /// accepted without a word).
    pub(crate) fn check_reveal_worth(&self) -> Result<(), OrderError> {
        if self.options.revision < 2 || self.hidden_value() > 0 {
            return Ok(());
        }
        Err(refusal(
            "no Reinforcements card has been played yet, so your hidden armies are worth 0: they bring the number facing the last Reinforcements card played, and can be revealed only once, so revealing now would use them up for nothing",
            "aucune carte Renfort n'a encore été jouée, donc vos armées cachées valent 0 : elles apportent le nombre inscrit en face de la dernière carte Renfort jouée, et ne se dévoilent qu'une fois ; les dévoiler maintenant les userait pour rien",
        )
        .hints(
            "keep them: REVEAL once a Reinforcements card has been played (REINFORCE; they are then worth 3 or more)",
            "gardez-les : DÉVOILER quand une carte Renfort aura été jouée (RENFORT ; elles vaudront alors 3 ou plus)",
        ))
    }

    pub(crate) fn do_reveal(&mut self, seat: Seat, i: usize) -> Vec<Event> {
        let h = self.players[seat].hidden[i].clone();
        self.players[seat].hidden[i].used = true;
        let n = self.hidden_value();
        self.board[h.territory].armies += n;
        self.ledger.placed += n as u64;
        vec![Event::HiddenRevealed {
            seat,
            t: h.territory,
            armies: n,
            salt: h.salt,
            commitment: h.commitment,
        }]
    }
}
