//! The end of a turn (earnings, cards back, truces expire) and of the game (every castle
//! token, a dead position, the turn limit).

use super::*;

impl CastleRisk {
    /// Why the position is still live (rules notes, "Stalemate"): the first thing some
    /// player in the game can still do, or may yet be dealt the means to do. `None` means no
    /// player can ever attack or gain an army again, whatever cards are drawn: a dead
    /// position. Truces are ignored (they expire within a round).
    pub fn still_live(&self) -> Option<String> {
        let m = map();
        // (a) A Reinforcements card not yet on the track can still be played by someone.
        if self.reinforcements_left() {
            return Some("a Reinforcements card is still to be played".into());
        }
        for s in (0..self.n()).filter(|&s| self.players[s].alive) {
            // (b) Earnings at the end of the turn.
            if self.earnings(s).0 > 0 {
                return Some(format!("{} earns armies", self.name(s)));
            }
            // (c) Hidden armies that can be revealed now (they are worth something).
            if self.hidden_value() > 0
                && self.players[s]
                    .hidden
                    .iter()
                    .any(|h| !h.used && self.board[h.territory].owner == Some(s))
            {
                return Some(format!("{} can reveal hidden armies", self.name(s)));
            }
            let enemy = |t: T| self.board[t].owner.is_some_and(|o| o != s);
            for from in (0..self.board.len())
                .filter(|&t| self.board[t].owner == Some(s) && self.board[t].armies >= 2)
            {
                // (d) A land (or dotted-line) attack.
                if let Some(to) = m.board.neighbors(from).find(|&n| enemy(n)) {
                    return Some(format!(
                        "{} can attack {} from {}",
                        self.name(s),
                        Self::tname(to),
                        Self::tname(from)
                    ));
                }
                // (e) A sea attack, with an Admiral held now or drawn later.
                if m.sea[from] != Sea::None {
                    if let Some(to) = (0..self.board.len())
                        .find(|&t| enemy(t) && shares_sea(m.sea[from], m.sea[t]))
                    {
                        return Some(format!(
                            "{} can sail from {} to {} with an Admiral",
                            self.name(s),
                            Self::tname(from),
                            Self::tname(to)
                        ));
                    }
                }
            }
        }
        None
    }

    /// Some Reinforcements card is not on the track yet (in a hand, the pile or the discard):
    /// someone can still play it.
    pub fn reinforcements_left(&self) -> bool {
        self.pile
            .iter()
            .chain(self.discard.iter())
            .chain(self.players.iter().flat_map(|p| &p.hand))
            .chain(self.in_play.iter().map(|(_, c)| c))
            .any(|c| *c == Card::Reinforcements)
    }

    /// A dead position (see [`CastleRisk::still_live`]); only in play, between orders.
    pub fn stalemate(&self) -> bool {
        self.phase == Phase::Play
            && self.interrupt.is_none()
            && self.alive_count() >= 2
            && self.still_live().is_none()
    }

    /// The stalemate standings, best first: (seat, territories, armies on the board).
    /// Castle tokens are not compared: a captured token earns 8 armies a turn, so in a dead
    /// position every player still in the game holds exactly its own.
    pub fn stalemate_standings(&self) -> Vec<(Seat, usize, u64)> {
        let mut v: Vec<(Seat, usize, u64)> = (0..self.n())
            .filter(|&s| self.players[s].alive)
            .map(|s| {
                let terr = self.territories_of(s);
                let armies = terr.iter().map(|t| self.board[*t].armies as u64).sum();
                (s, terr.len(), armies)
            })
            .collect();
        v.sort_by_key(|&(s, t, a)| (std::cmp::Reverse((t, a)), s));
        v
    }

    /// End a dead position: the most territories win, then the most armies on the board;
    /// players still equal share the result.
    pub(crate) fn end_in_stalemate(&mut self) -> Event {
        let table = self.stalemate_standings();
        let winners: Vec<Seat> = match table.first() {
            Some(&(_, t0, a0)) => table
                .iter()
                .filter(|&&(_, t, a)| (t, a) == (t0, a0))
                .map(|x| x.0)
                .collect(),
            None => vec![],
        };
        let reason = EndReason::Stalemate {
            turns: self.turns_played,
            standings: table,
        };
        self.end_game(winners, reason)
    }

    /// The game ends: its outcome, with the reason worded in both languages.
    pub(crate) fn end_game(&mut self, winners: Vec<Seat>, reason: EndReason) -> Event {
        self.phase = Phase::Over;
        self.interrupt = None;
        let words = |lang| crate::narrate::end_reason(self, &winners, &reason, lang);
        let outcome = Outcome::new(winners.clone(), words(Lang::En)).fr(words(Lang::Fr));
        self.outcome = Some(outcome);
        Event::GameOver { winners, reason }
    }

    /// The armies `seat` earns at the end of its turn, and what they are made of.
    pub fn earnings(&self, seat: Seat) -> (u32, Vec<Earning>) {
        let m = map();
        let holds = |ts: &[T]| ts.iter().all(|&t| self.board[t].owner == Some(seat));
        let mut parts: Vec<Earning> = (0..EMPIRES.len())
            .filter(|&g| holds(&m.board.groups[g].members))
            .map(Earning::Empire)
            .collect();
        if holds(&m.independents) {
            parts.push(Earning::Independents);
        }
        let captured = self.players[seat].tokens.len().saturating_sub(1) as u32;
        if captured > 0 {
            parts.push(Earning::Tokens(captured));
        }
        (parts.iter().map(|p| p.armies()).sum(), parts)
    }

    pub fn end(&mut self, seat: Seat, dice: &mut DiceBox) -> Result<Vec<Event>, OrderError> {
        self.in_turn(seat, "END")?;
        let (e, detail) = self.earnings(seat);
        let mut ev = vec![Event::TurnEnds {
            seat,
            earnings: e,
            detail,
        }];
        if e > 0 {
            self.to_place = e;
            self.placing_earnings = true;
            return Ok(ev);
        }
        ev.extend(self.finish_turn(dice));
        Ok(ev)
    }

    /// After earnings are placed: cards back, truces expire, next player.
    pub(crate) fn finish_turn(&mut self, dice: &mut DiceBox) -> Vec<Event> {
        let seat = self.current;
        let mut ev = Vec::new();
        // General (attacker) and Marshals (defenders) that survived return to the hand;
        // Diplomats played this turn are discarded.
        for (s, c) in std::mem::take(&mut self.in_play) {
            match c {
                Card::Diplomat => self.discard.push(c),
                _ => {
                    if self.players[s].alive {
                        self.players[s].hand.push(c);
                        ev.push(Event::CardReturned { seat: s, card: c });
                    } else {
                        self.discard.push(c);
                    }
                }
            }
        }
        let tp = self.turns_played;
        self.truces.retain(|t| !(t.with == seat && t.made < tp));
        if self.purge_at_end {
            self.purge_at_end = false;
            self.no_diplomats = true;
            self.truces.clear();
            ev.push(Event::TwoPlayerRule);
            for s in 0..self.n() {
                if !self.players[s].alive {
                    continue;
                }
                let k = self.players[s]
                    .hand
                    .iter()
                    .filter(|c| **c == Card::Diplomat)
                    .count();
                if k > 0 {
                    self.players[s].hand.retain(|c| *c != Card::Diplomat);
                    self.discard.extend(std::iter::repeat_n(Card::Diplomat, k));
                    ev.push(Event::DiplomatsPurged { seat: s, count: k });
                    let mut got = Vec::new();
                    for _ in 0..k {
                        if let Some(c) = self.draw(s, dice, &mut ev) {
                            got.push(c);
                        }
                    }
                    ev.push(Event::Drew {
                        seat: s,
                        cards: got,
                    });
                }
            }
        }
        if self.stalemate() {
            ev.push(self.end_in_stalemate());
            return ev;
        }
        if self.options.turn_limit > 0 && self.turns_played >= self.options.turn_limit {
            let best = (0..self.n())
                .filter(|&s| self.players[s].alive)
                .map(|s| (self.territories_of(s).len(), s))
                .max_by_key(|&(k, s)| (k, std::cmp::Reverse(s)));
            let winners = best.map(|b| vec![b.1]).unwrap_or_default();
            let reason = EndReason::TurnLimit {
                turns: self.turns_played,
                leader: winners.first().copied(),
            };
            ev.push(self.end_game(winners, reason));
            return ev;
        }
        let next = self.next_alive_after(seat);
        ev.extend(self.begin_turn(next, dice));
        ev
    }
}
