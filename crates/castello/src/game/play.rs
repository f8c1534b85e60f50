//! Playing: a move and everything it causes (captures, castles, the draw counters, the end
//! of the game), draw offers and resigning.

use super::*;
use crate::bot;
use crate::moves::Move;
use crate::orders::side_of;
use crate::words::{colour, colour_in};
use castellan_engine::words::{refusal, Hints};
use castellan_engine::{BotRng, Lang, OrderError};

impl Castello {
    /// Apply an order of `seat`; on error nothing changes.
    pub(crate) fn apply_order(
        &mut self,
        seat: Seat,
        order: &Order,
    ) -> Result<Vec<Event>, OrderError> {
        self.default_memo = std::sync::OnceLock::new();
        let seat = side_of(seat)?;
        if let Some(end) = self.result {
            return Err(refusal(
                format!("the game is over: {}", end.text(Lang::En)),
                format!("la partie est terminée : {}", end.text(Lang::Fr)),
            ));
        }
        match order {
            Order::Resign => {
                let mut ev = vec![Event::Resigned { seat }];
                self.finish(End::Resigned(seat), &mut ev);
                Ok(ev)
            }
            Order::OfferDraw => self.offer_draw(seat),
            Order::AcceptDraw => self.accept_draw(seat),
            Order::Move(path) => {
                if seat != self.to_move {
                    return Err(refusal(
                        format!("it is {}'s move, not yours", colour(self.to_move)),
                        format!(
                            "c'est à {} de jouer, pas à vous",
                            colour_in(self.to_move, Lang::Fr)
                        ),
                    )
                    .hints(
                        "wait for your turn (you may OFFER DRAW or RESIGN at any time)",
                        "attendez votre tour (vous pouvez écrire PROPOSE NULLE ou ABANDON à \
                         tout moment)",
                    ));
                }
                let mv = self.check_path(seat, path)?;
                Ok(self.play(seat, &mv))
            }
        }
    }

    /// Play a legal move (already checked) and everything it causes.
    pub(crate) fn play(&mut self, seat: Side, mv: &Move) -> Vec<Event> {
        self.default_memo = std::sync::OnceLock::new();
        let mut ev = Vec::new();
        self.cells[mv.from().idx()] = Cell::Empty;
        for c in &mv.captures {
            self.cells[c.idx()] = Cell::Empty;
        }
        self.cells[mv.to().idx()] = Cell::Pawn { seat, moved: true };
        self.pawns_taken[seat.index()] += mv.captures.len() as u32;
        ev.push(Event::Moved {
            seat,
            path: mv.path.clone(),
            captured: mv.captures.clone(),
        });
        // Castles: taking one of the enemy home may open the centre castle in the same move.
        let mut took = false;
        loop {
            let mut any = false;
            for i in 0..self.castles.len() {
                let c = &self.castles[i];
                if self.may_take(c, seat) && self.surround(c.sq, seat) >= 3 {
                    let s = c.sq;
                    self.castles[i].taken_by = Some(seat);
                    self.cells[s.idx()] = Cell::Empty;
                    let total = self.castle_count(seat);
                    ev.push(Event::CastleTaken { seat, sq: s, total });
                    any = true;
                    took = true;
                }
            }
            if !any {
                break;
            }
        }
        self.ply += 1;
        self.to_move = seat.other();
        self.last = Some(LastMove {
            side: seat,
            path: mv.path.clone(),
        });
        self.last_path = mv.path.clone();
        self.last_captured = mv.captures.clone();
        if took || !mv.captures.is_empty() {
            self.quiet = 0;
            self.seen.clear();
        } else {
            self.quiet += 1;
        }
        if self.draw_offer == Some(seat.other()) {
            self.draw_offer = None;
            ev.push(Event::DrawDeclined { seat });
        }
        let h = self.position_hash();
        self.seen.push(h);
        let end = if self.castle_count(seat) >= CASTLES_TO_WIN {
            Some(End::Castles(seat))
        } else if self.pawns_taken[seat.index()] >= PAWNS_TO_WIN {
            Some(End::Pawns(seat))
        } else if self.options.repetition > 0
            && self.seen.iter().filter(|x| **x == h).count() >= self.options.repetition as usize
        {
            Some(End::Repetition(self.options.repetition))
        } else if self.quiet >= self.options.move_limit {
            Some(End::MoveLimit(self.options.move_limit))
        } else if !self.has_move(seat.other()) {
            Some(End::Stuck(seat.other()))
        } else {
            None
        };
        if let Some(end) = end {
            self.finish(end, &mut ev);
        }
        ev
    }

    /// End the game.
    pub(crate) fn finish(&mut self, end: End, ev: &mut Vec<Event>) {
        self.default_memo = std::sync::OnceLock::new();
        self.draw_offer = None;
        self.result = Some(end);
        ev.push(Event::Ended {
            winners: end.winners(),
            end,
        });
    }

    /// The move the judge plays when the deadline passes: the house bot's choice, with its
    /// tie-break seeded by the move number only (so it is the same every time it is asked).
    pub fn default_move(&self) -> Order {
        self.default_memo
            .get_or_init(|| {
                let mut rng = BotRng::new(&format!("castello/default/{}", self.ply));
                bot::choose(self, self.to_move, &mut rng)
            })
            .clone()
    }

    fn offer_draw(&mut self, seat: Side) -> Result<Vec<Event>, OrderError> {
        let (them_en, them_fr) = (colour(seat.other()), colour_in(seat.other(), Lang::Fr));
        if self.draw_offer == Some(seat.other()) {
            return Err(refusal(
                format!("{them_en} has already offered a draw"),
                format!("{them_fr} a déjà proposé la nulle"),
            )
            .hints("write: ACCEPT DRAW", "écrivez : ACCEPTE NULLE"));
        }
        if self.draw_offer == Some(seat) {
            return Err(refusal(
                "your draw offer already stands",
                "votre proposition de nulle tient déjà",
            )
            .hints(
                "wait for the answer, or write a move",
                "attendez la réponse, ou écrivez un coup",
            ));
        }
        self.draw_offer = Some(seat);
        Ok(vec![Event::DrawOffered { seat }])
    }

    fn accept_draw(&mut self, seat: Side) -> Result<Vec<Event>, OrderError> {
        if self.draw_offer != Some(seat.other()) {
            return Err(refusal(
                format!("{} has not offered a draw", colour(seat.other())),
                format!(
                    "{} n'a pas proposé la nulle",
                    colour_in(seat.other(), Lang::Fr)
                ),
            )
            .hints(
                "write: OFFER DRAW, to offer one yourself",
                "écrivez : PROPOSE NULLE, pour la proposer vous-même",
            ));
        }
        let mut ev = vec![Event::DrawAgreed];
        self.finish(End::Agreed, &mut ev);
        Ok(ev)
    }
}
