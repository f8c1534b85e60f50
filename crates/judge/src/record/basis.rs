//! A game as a handling loaded it, and a player's reliability: what the records (mod.rs)
//! compare and show.

use crate::model::*;

/// A game as it was when the handling loaded it: what the record needs to see a change.
#[derive(Clone, Debug)]
pub(crate) struct Basis {
    pub(super) status: Status,
    /// Per seat: address, misses, resigned.
    pub(super) seats: Vec<(Option<String>, u32, bool)>,
}

impl Basis {
    pub(crate) fn of(rec: &GameRecord) -> Basis {
        Basis {
            status: rec.status,
            seats: rec
                .seats
                .iter()
                .map(|s| (s.address.as_deref().map(lower), s.misses, s.resigned))
                .collect(),
        }
    }

    pub(crate) fn status(&self) -> Status {
        self.status
    }

    /// A game created in this handling.
    pub(super) fn new_game() -> Basis {
        Basis {
            status: Status::Forming,
            seats: Vec::new(),
        }
    }
}

/// What one game changed in one player's record since it was loaded.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct Tally {
    pub(crate) started: bool,
    pub(crate) missed: u32,
    pub(crate) resigned: bool,
    /// The game ended: its turns met are forgotten.
    pub(crate) ended: bool,
    /// Played to the end in the seat (not resigned, no bot standing in).
    pub(crate) finished: bool,
    pub(crate) won: bool,
}

impl Tally {
    pub(crate) fn apply(self, r: &mut PlayerRecord, game: &str) {
        r.played += u32::from(self.started);
        r.missed += self.missed;
        r.resigned += u32::from(self.resigned);
        r.finished += u32::from(self.finished);
        r.won += u32::from(self.won);
        if self.ended {
            r.met_turns.remove(game);
        }
    }
}

impl Basis {
    /// What changed for each seated address from this basis to `after`: a start, the
    /// misses and a resignation since (all of them for an address new in its seat), and at
    /// the end, who finished and who won. `bots[i]`: a bot plays seat `i`; `winners`: the
    /// seats the game's outcome names.
    pub(crate) fn tally(
        &self,
        after: &Basis,
        bots: &[bool],
        winners: &[usize],
    ) -> Vec<(String, Tally)> {
        let started = self.status == Status::Forming && after.status != Status::Forming;
        let ended = self.status != Status::Finished && after.status == Status::Finished;
        let mut out = Vec::new();
        for (i, (addr, misses, resigned)) in after.seats.iter().enumerate() {
            let Some(addr) = addr else { continue };
            let was = self.seats.get(i).filter(|b| b.0.as_deref() == Some(addr));
            let (missed, resigned_now) = match was {
                Some((_, old_misses, old_resigned)) => (
                    misses.saturating_sub(*old_misses),
                    *resigned && !old_resigned,
                ),
                None if *resigned => (0, true),
                None => (*misses, false),
            };
            let bot = bots.get(i).copied().unwrap_or(false);
            out.push((
                addr.clone(),
                Tally {
                    started,
                    missed,
                    resigned: resigned_now,
                    ended,
                    finished: ended && !resigned && !bot,
                    won: ended && winners.contains(&i),
                },
            ));
        }
        out
    }
}

impl PlayerRecord {
    /// Reliability in percent, njudge's ontime ratio: turns met / (turns met + deadlines
    /// missed), rounded down; 100 for a player with nothing due yet (njudge: "a newly
    /// registered player ... by definition has a perfect ratio (0/0)").
    pub fn reliability(&self) -> u32 {
        let due = u64::from(self.met) + u64::from(self.missed);
        (u64::from(self.met) * 100)
            .checked_div(due)
            .map_or(100, |p| p as u32)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn basis(status: Status, seats: &[(Option<&str>, u32, bool)]) -> Basis {
        Basis {
            status,
            seats: seats
                .iter()
                .map(|(a, m, r)| (a.map(str::to_string), *m, *r))
                .collect(),
        }
    }

    fn of<'a>(t: &'a [(String, Tally)], addr: &str) -> &'a Tally {
        &t.iter()
            .find(|(a, _)| a == addr)
            .expect("a tally for the address")
            .1
    }

    #[test]
    fn a_start_counts_one_game_played_for_every_seated_address_not_the_open_seat() {
        let before = basis(
            Status::Forming,
            &[(Some("a@x"), 0, false), (None, 0, false)],
        );
        let after = basis(
            Status::Running,
            &[(Some("a@x"), 0, false), (Some("b@x"), 0, false)],
        );
        let t = before.tally(&after, &[false, false], &[]);
        assert!(of(&t, "a@x").started && of(&t, "b@x").started);
        assert_eq!(t.len(), 2);
        let none = basis(Status::Running, &[(None, 0, false)]);
        assert!(none.tally(&none, &[false], &[]).is_empty());
    }

    #[test]
    fn only_misses_since_the_load_count_and_all_of_them_for_a_new_address() {
        let before = basis(
            Status::Running,
            &[(Some("a@x"), 2, false), (Some("b@x"), 3, false)],
        );
        // Seat 2 changed hands (REPLACE): every miss the seat shows counts for the new
        // address, as nothing tells whose they were.
        let after = basis(
            Status::Running,
            &[(Some("a@x"), 3, false), (Some("c@x"), 3, false)],
        );
        let t = before.tally(&after, &[false, false], &[]);
        assert_eq!(of(&t, "a@x").missed, 1);
        assert_eq!(of(&t, "c@x").missed, 3);
        assert!(!of(&t, "a@x").started);
    }

    #[test]
    fn a_resignation_counts_once_and_a_resigned_seat_does_not_finish() {
        let before = basis(
            Status::Running,
            &[(Some("a@x"), 0, false), (Some("b@x"), 0, true)],
        );
        let after = basis(
            Status::Finished,
            &[(Some("a@x"), 0, true), (Some("b@x"), 0, true)],
        );
        let t = before.tally(&after, &[false, true], &[1]);
        assert!(of(&t, "a@x").resigned);
        assert!(
            !of(&t, "b@x").resigned,
            "resigned before the load: counted then"
        );
        assert!(of(&t, "a@x").ended && !of(&t, "a@x").finished);
        // Won by the outcome even with a bot in the seat, but not finished by the player.
        assert!(of(&t, "b@x").won && !of(&t, "b@x").finished);
    }

    #[test]
    fn an_end_counts_finished_and_won_and_forgets_the_turns_met() {
        let before = basis(
            Status::Running,
            &[(Some("a@x"), 0, false), (Some("b@x"), 0, false)],
        );
        let after = basis(
            Status::Finished,
            &[(Some("a@x"), 0, false), (Some("b@x"), 0, false)],
        );
        let t = before.tally(&after, &[false, false], &[0]);
        let mut r = PlayerRecord {
            address: "a@x".into(),
            met_turns: [("castle-1".to_string(), 4)].into(),
            ..Default::default()
        };
        of(&t, "a@x").apply(&mut r, "castle-1");
        assert_eq!((r.finished, r.won, r.played), (1, 1, 0));
        assert!(r.met_turns.is_empty());
        let b = of(&t, "b@x");
        assert!(b.finished && !b.won);
        // Ended already: nothing more.
        assert!(after
            .tally(&after, &[false, false], &[0])
            .iter()
            .all(|(_, t)| !t.ended));
    }

    #[test]
    fn reliability_is_the_share_of_turns_met_and_whole_for_a_new_player() {
        let r = |met, missed| PlayerRecord {
            met,
            missed,
            ..Default::default()
        };
        assert_eq!(r(0, 0).reliability(), 100);
        assert_eq!(r(3, 1).reliability(), 75);
        assert_eq!(r(2, 1).reliability(), 66);
        assert_eq!(r(0, 5).reliability(), 0);
    }
}
