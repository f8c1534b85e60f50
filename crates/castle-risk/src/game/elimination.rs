//! A castle captured: the owner is eliminated, the victor re-occupies, the others annex.

use super::*;

impl CastleRisk {
    /// Rule 6: capturing a castle eliminates its owner.
    pub(crate) fn capture_castle(&mut self, victor: Seat, loser: Seat, t: T) -> Vec<Event> {
        let mut ev = vec![Event::CastleCaptured { victor, loser, t }];
        self.players[loser].castle = None;
        self.players[loser].alive = false;
        let mut removed = 0;
        let mut vacated = Vec::new();
        for x in 0..self.board.len() {
            if self.board[x].owner == Some(loser) {
                removed += self.board[x].armies;
                self.board[x].armies = 0;
                self.board[x].owner = None;
                vacated.push(x);
            }
        }
        self.ledger.removed += removed as u64;
        let tokens = std::mem::take(&mut self.players[loser].tokens);
        self.players[victor].tokens.extend(tokens.iter().copied());
        // Engaged cards of the loser (a Marshal) go back to the hand first.
        let engaged: Vec<Card> = self
            .in_play
            .iter()
            .filter(|(s, _)| *s == loser)
            .map(|(_, c)| *c)
            .collect();
        self.in_play.retain(|(s, _)| *s != loser);
        self.players[loser].hand.extend(engaged);
        let cards = std::mem::take(&mut self.players[loser].hand);
        self.players[victor].hand.extend(cards.iter().copied());
        let unused: Vec<Hidden> = self.players[loser]
            .hidden
            .iter()
            .filter(|h| !h.used)
            .cloned()
            .collect();
        self.players[loser].hidden.retain(|h| h.used);
        let hidden_taken = unused.len();
        self.players[victor].hidden.extend(unused);
        self.truces.retain(|tr| tr.by != loser && tr.with != loser);
        ev.push(Event::Eliminated {
            seat: loser,
            by: victor,
            armies_removed: removed,
            tokens,
            cards,
            hidden_taken,
        });
        if self.players[victor].tokens.len() == self.n() || self.alive_count() == 1 {
            ev.push(self.end_game(vec![victor], EndReason::Tokens(victor)));
            return ev;
        }
        if self.alive_count() == 2 && !self.no_diplomats {
            self.purge_at_end = true;
        }
        if !vacated.is_empty() {
            ev.extend(self.start_reoccupy(victor, vacated, t));
        }
        ev
    }

    pub(crate) fn start_reoccupy(
        &mut self,
        victor: Seat,
        vacated: Vec<T>,
        castle: T,
    ) -> Vec<Event> {
        match self.players[victor].standing.reoccupy {
            Some(true) => {
                let mut ev = self.occupy_all(victor, &vacated, castle);
                let left: Vec<T> = vacated
                    .into_iter()
                    .filter(|t| self.board[*t].owner.is_none())
                    .collect();
                ev.extend(self.start_annex(victor, left));
                ev
            }
            Some(false) => self.start_annex(victor, vacated),
            None => {
                self.interrupt = Some(Interrupt::Reoccupy {
                    victor,
                    vacated,
                    castle,
                });
                vec![]
            }
        }
    }

    /// A source the victor may take one army from: the captured castle first ("en
    /// commençant par les armées avec lesquelles vous avez attaqué"), then the largest stack.
    pub fn default_source(&self, seat: Seat, first: Option<T>) -> Option<T> {
        if let Some(f) = first {
            if self.board[f].owner == Some(seat) && self.board[f].armies >= 2 {
                return Some(f);
            }
        }
        (0..self.board.len())
            .filter(|&t| self.board[t].owner == Some(seat) && self.board[t].armies >= 2)
            .max_by_key(|&t| (self.board[t].armies, std::cmp::Reverse(t)))
    }

    pub(crate) fn occupy_all(&mut self, victor: Seat, vacated: &[T], castle: T) -> Vec<Event> {
        let mut ev = Vec::new();
        for &t in vacated {
            if self.board[t].owner.is_some() {
                continue;
            }
            let Some(src) = self.default_source(victor, Some(castle)) else {
                break;
            };
            self.board[src].armies -= 1;
            self.board[t].armies = 1;
            self.board[t].owner = Some(victor);
            ev.push(Event::Reoccupied {
                seat: victor,
                t,
                from: src,
            });
        }
        ev
    }

    pub fn occupy(&mut self, seat: Seat, what: OccupyWhat) -> Result<Vec<Event>, OrderError> {
        let Some(Interrupt::Reoccupy {
            victor,
            vacated,
            castle,
        }) = self.interrupt.clone()
        else {
            return Err(refusal(
                "there is nothing to re-occupy now",
                "il n'y a rien à réoccuper maintenant",
            ));
        };
        if seat != victor {
            return Err(refusal(
                format!(
                    "{} re-occupies first; you will annex in turn",
                    self.name(victor)
                ),
                format!(
                    "{} réoccupe d'abord ; vous annexerez à votre tour",
                    self.name(victor)
                ),
            ));
        }
        let free: Vec<T> = vacated
            .iter()
            .copied()
            .filter(|t| self.board[*t].owner.is_none())
            .collect();
        let mut ev = Vec::new();
        match what {
            OccupyWhat::All => {
                ev.extend(self.occupy_all(seat, &free, castle));
            }
            OccupyWhat::Pass => {}
            OccupyWhat::One { t, from } => {
                let src = self.occupy_source(seat, t, from, &free, castle)?;
                self.board[src].armies -= 1;
                self.board[t] = Territory {
                    owner: Some(seat),
                    armies: 1,
                };
                ev.push(Event::Reoccupied { seat, t, from: src });
                let left: Vec<T> = free.into_iter().filter(|x| *x != t).collect();
                if !left.is_empty() && self.default_source(seat, Some(castle)).is_some() {
                    self.interrupt = Some(Interrupt::Reoccupy {
                        victor,
                        vacated: left,
                        castle,
                    });
                    return Ok(ev);
                }
            }
        }
        self.interrupt = None;
        let left: Vec<T> = vacated
            .into_iter()
            .filter(|t| self.board[*t].owner.is_none())
            .collect();
        ev.extend(self.start_annex(victor, left));
        Ok(ev)
    }

    /// Where the victor's army for vacated `t` comes from (the order's, else the default).
    fn occupy_source(
        &self,
        seat: Seat,
        t: T,
        from: Option<T>,
        free: &[T],
        castle: T,
    ) -> Result<T, OrderError> {
        if !free.contains(&t) {
            let names = |lang: Lang| {
                free.iter()
                    .map(|t| tn(*t, lang))
                    .collect::<Vec<_>>()
                    .join(", ")
            };
            let (en, fr) = crate::orders::hint::occupy_hint(self, seat);
            return Err(err(
                format!("{} is not a vacated territory", Self::tname(t)),
                format!("{} n'est pas un territoire libéré", cap(&words::le(t))),
                format!("vacated: {}; {en}", names(Lang::En)),
                format!("libérés : {} ; {fr}", names(Lang::Fr)),
            ));
        }
        match from {
            Some(f) => self.check_source(seat, f),
            None => self.default_source(seat, Some(castle)).ok_or_else(|| {
                err(
                    "you have no army to spare",
                    "vous n'avez pas d'armée disponible",
                    "write: PASS",
                    "écrivez : PASSER",
                )
            }),
        }
    }

    /// A territory a seat may take one army from (re-occupation, annexation).
    pub(crate) fn check_source(&self, seat: Seat, f: T) -> Result<T, OrderError> {
        if self.board[f].owner != Some(seat) || self.board[f].armies < 2 {
            let (en, fr) = match self.interrupt {
                Some(Interrupt::Reoccupy { .. }) => crate::orders::hint::occupy_hint(self, seat),
                _ => crate::orders::hint::annex_hint(self, seat),
            };
            return Err(err(
                format!(
                    "take the army from one of your territories with at least 2 armies, not {}",
                    Self::tname(f)
                ),
                format!(
                    "prenez l'armée sur un de vos territoires qui en a au moins 2, pas {}",
                    words::le(f)
                ),
                en,
                fr,
            ));
        }
        Ok(f)
    }

    pub(crate) fn start_annex(&mut self, victor: Seat, vacated: Vec<T>) -> Vec<Event> {
        if vacated.is_empty() {
            self.interrupt = None;
            return vec![];
        }
        let next = self.next_alive_after(victor);
        self.continue_annex(victor, vacated, next)
    }

    /// Annexation in turn order from `next`; players who cannot spare an army are passed;
    /// if nobody can, the annexing player puts a new army there (see the rules notes).
    pub(crate) fn continue_annex(
        &mut self,
        victor: Seat,
        mut vacated: Vec<T>,
        mut next: Seat,
    ) -> Vec<Event> {
        let mut ev = Vec::new();
        let mut skipped = 0;
        while !vacated.is_empty() {
            if next == victor {
                next = self.next_alive_after(next);
                if self.alive_count() <= 1 {
                    break;
                }
                continue;
            }
            if self.default_source(next, None).is_none() {
                skipped += 1;
                if skipped >= self.n() {
                    // Nobody has an army to spare: a new army from the box.
                    let t = vacated.remove(0);
                    self.put(next, t, 1);
                    ev.push(Event::Annexed {
                        seat: next,
                        t,
                        from: None,
                    });
                    skipped = 0;
                }
                next = self.next_alive_after(next);
                continue;
            }
            skipped = 0;
            let s = &self.players[next].standing;
            if s.annex.is_none() && self.options.ask {
                self.interrupt = Some(Interrupt::Annex {
                    victor,
                    vacated,
                    next,
                });
                return ev;
            }
            let (t, src) = self.default_annex(next, &vacated);
            ev.extend(self.do_annex(next, t, src));
            vacated.retain(|x| *x != t);
            next = self.next_alive_after(next);
        }
        self.interrupt = None;
        ev
    }

    /// The annexation a seat's standing order (or the default) picks: the first listed
    /// vacated territory, else the one bordering most of the seat's territories; the army
    /// from the seat's largest stack.
    pub fn default_annex(&self, seat: Seat, vacated: &[T]) -> (T, T) {
        let pref = self.players[seat]
            .standing
            .annex
            .clone()
            .unwrap_or_default();
        let t = pref
            .iter()
            .find(|t| vacated.contains(t))
            .copied()
            .unwrap_or_else(|| {
                *vacated
                    .iter()
                    .max_by_key(|&&v| {
                        (
                            map()
                                .board
                                .neighbors(v)
                                .filter(|&n| self.board[n].owner == Some(seat))
                                .count(),
                            std::cmp::Reverse(v),
                        )
                    })
                    .unwrap_or(&vacated[0])
            });
        let src = self.default_source(seat, None).unwrap_or(t);
        (t, src)
    }

    pub(crate) fn do_annex(&mut self, seat: Seat, t: T, src: T) -> Vec<Event> {
        self.board[src].armies -= 1;
        self.board[t].armies = 1;
        self.board[t].owner = Some(seat);
        vec![Event::Annexed {
            seat,
            t,
            from: Some(src),
        }]
    }

    pub fn annex(&mut self, seat: Seat, t: T, from: Option<T>) -> Result<Vec<Event>, OrderError> {
        let Some(Interrupt::Annex {
            victor,
            vacated,
            next,
        }) = self.interrupt.clone()
        else {
            return Err(refusal(
                "there is nothing to annex now",
                "il n'y a rien à annexer maintenant",
            ));
        };
        if seat != next {
            return Err(refusal(
                format!("it is {}'s turn to annex", self.name(next)),
                format!("c'est à {} d'annexer", self.name(next)),
            ));
        }
        if !vacated.contains(&t) {
            let d = self.default_annex(seat, &vacated).0;
            return Err(err(
                format!("{} is not a vacated territory", Self::tname(t)),
                format!("{} n'est pas un territoire libéré", cap(&words::le(t))),
                format!("write: ANNEX {}", Self::tname(d)),
                format!("écrivez : ANNEXER {}", tn(d, Lang::Fr)),
            ));
        }
        let src = match from {
            Some(f) => self.check_source(seat, f)?,
            None => self.default_annex(seat, &vacated).1,
        };
        let mut ev = self.do_annex(seat, t, src);
        let left: Vec<T> = vacated.into_iter().filter(|x| *x != t).collect();
        self.interrupt = None;
        let after = self.next_alive_after(seat);
        ev.extend(self.continue_annex(victor, left, after));
        Ok(ev)
    }
}
