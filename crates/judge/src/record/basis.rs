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
