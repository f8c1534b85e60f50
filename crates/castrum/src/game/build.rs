//! Building a wall or a tower, the end of a turn, and the end of the game.

use super::*;

impl Castrum {
    /// Which site cards pay for `piece`: x2 cards first, then simple ones, one more x2 if
    /// the simple ones fall short (its second unit is lost).
    pub fn payment(&self, seat: Seat, piece: Piece) -> Vec<Card> {
        let (s, l, r) = piece.cost();
        let site = &self.sites[seat];
        let mut used = Vec::new();
        for _ in 0..s {
            used.push(Card::Structores);
        }
        for (simple, double, need) in [
            (Card::Lapides, Card::LapidesX2, l),
            (Card::Rustici, Card::RusticiX2, r),
        ] {
            let d = site.count(double) as u32;
            let sc = site.count(simple) as u32;
            let mut dbl = d.min(need / 2);
            let mut rest = need - 2 * dbl;
            let simple_used = rest.min(sc);
            rest -= simple_used;
            if rest > 0 && dbl < d {
                dbl += 1;
            }
            for _ in 0..dbl {
                used.push(double);
            }
            for _ in 0..simple_used {
                used.push(simple);
            }
        }
        used
    }

    pub(super) fn build(&mut self, seat: Seat, piece: Piece) -> Vec<Event> {
        let used = self.payment(seat, piece);
        for c in &used {
            if remove_one(&mut self.sites[seat].cards, *c) {
                self.under.push(*c);
            }
        }
        let site = &mut self.sites[seat];
        match piece {
            Piece::Wall => site.walls += 1,
            Piece::Tower => site.towers += 1,
        }
        let mut ev = vec![Event::Built {
            seat,
            piece,
            used,
            walls: site.walls,
            towers: site.towers,
        }];
        if site.complete() {
            ev.push(self.finish(vec![seat], End::Castle));
        }
        ev
    }

    pub(super) fn finish(&mut self, winners: Vec<Seat>, end: End) -> Event {
        self.outcome = Some(Finish {
            winners: winners.clone(),
            end,
        });
        self.phase = Phase::Over;
        Event::Won { winners, end }
    }

    pub(super) fn end_turn(&mut self, dice: &mut DiceBox) -> Vec<Event> {
        let seat = self.current;
        let mut ev = self.refill(seat, dice);
        ev.push(Event::TurnEnds { seat });
        let next = (seat + 1) % self.seats();
        if next == self.first {
            ev.extend(self.end_round(dice));
        } else {
            ev.extend(self.begin_turn(next, dice));
        }
        ev
    }

    /// Score the sites: the best win (`end` says why the game stops, with their points).
    pub(super) fn score(&mut self, end: impl Fn(u32) -> End) -> Vec<Event> {
        let points: Vec<u32> = self.sites.iter().map(|s| s.points()).collect();
        let best = points.iter().copied().max().unwrap_or(0);
        let winners: Vec<Seat> = (0..self.seats()).filter(|s| points[*s] == best).collect();
        vec![Event::Scores { points }, self.finish(winners, end(best))]
    }
}
