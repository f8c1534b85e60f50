//! The two sides, red and black.

use castellan_engine::Seat;
use serde::{Deserialize, Serialize};

/// One of the two sides. Seat 0 plays red (columns A–B at the start), seat 1 black
/// (columns T–U). Stored as its seat number, 0 or 1, as it always was.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(into = "u8", try_from = "u8")]
pub enum Side {
    Red = 0,
    Black = 1,
}

pub const RED: Side = Side::Red;

pub const BLACK: Side = Side::Black;

impl Side {
    pub const BOTH: [Side; 2] = [Side::Red, Side::Black];

    /// The side a seat plays (`None`: Castello has no such seat).
    pub fn of_seat(seat: Seat) -> Option<Side> {
        match seat {
            0 => Some(Side::Red),
            1 => Some(Side::Black),
            _ => None,
        }
    }

    pub fn seat(self) -> Seat {
        self as Seat
    }

    /// 0 or 1, for arrays indexed by side.
    pub fn index(self) -> usize {
        self as usize
    }

    pub fn other(self) -> Side {
        match self {
            Side::Red => Side::Black,
            Side::Black => Side::Red,
        }
    }
}

impl From<Side> for u8 {
    fn from(s: Side) -> u8 {
        s as u8
    }
}

impl TryFrom<u8> for Side {
    type Error = String;
    fn try_from(n: u8) -> Result<Side, String> {
        Side::of_seat(n as Seat).ok_or_else(|| format!("there is no side {n}"))
    }
}
