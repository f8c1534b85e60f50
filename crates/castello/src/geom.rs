//! Squares of the 21 × 15 board: columns A–U (left to right), rows 1–15 (bottom to top),
//! as in the published notation (Ludii, Boutin) and the seed's "E4-E2-C2-A2-C4".

use serde::{Deserialize, Serialize};
use std::fmt;

/// Number of columns (files A..U).
pub const COLS: usize = 21;
/// Number of rows (ranks 1..15).
pub const ROWS: usize = 15;
/// Number of squares.
pub const SQUARES: usize = COLS * ROWS;

/// The 8 directions a pawn steps or jumps in (seed: "horizontalement, verticalement ou en
/// diagonale").
pub const DIRS: [(i32, i32); 8] = [
    (0, 1),
    (1, 1),
    (1, 0),
    (1, -1),
    (0, -1),
    (-1, -1),
    (-1, 0),
    (-1, 1),
];

/// The 4 orthogonal directions (castle capture).
pub const ORTHO: [(i32, i32); 4] = [(0, 1), (1, 0), (0, -1), (-1, 0)];

/// A square, 0-based column and row. Written and stored as "E4".
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(try_from = "String", into = "String")]
pub struct Sq {
    pub col: u8,
    pub row: u8,
}

impl Sq {
    /// The square at 0-based `col`, `row`, if on the board.
    pub fn new(col: i32, row: i32) -> Option<Sq> {
        if (0..COLS as i32).contains(&col) && (0..ROWS as i32).contains(&row) {
            Some(Sq {
                col: col as u8,
                row: row as u8,
            })
        } else {
            None
        }
    }

    /// Index into the board's cell vector.
    pub fn idx(self) -> usize {
        self.row as usize * COLS + self.col as usize
    }

    /// The square of a cell index.
    pub fn from_idx(i: usize) -> Sq {
        Sq {
            col: (i % COLS) as u8,
            row: (i / COLS) as u8,
        }
    }

    /// The square `k` steps in direction `d`, if on the board.
    pub fn step(self, d: (i32, i32), k: i32) -> Option<Sq> {
        Sq::new(self.col as i32 + d.0 * k, self.row as i32 + d.1 * k)
    }

    /// Column letter.
    pub fn letter(self) -> char {
        (b'A' + self.col) as char
    }

    /// King-move distance.
    pub fn dist(self, o: Sq) -> u32 {
        (self.col as i32 - o.col as i32)
            .unsigned_abs()
            .max((self.row as i32 - o.row as i32).unsigned_abs())
    }

    /// Parse "E4", "e4", "U15". `None` if it is not a square of the board.
    pub fn parse(s: &str) -> Option<Sq> {
        let s = s.trim();
        let mut ch = s.chars();
        let l = ch.next()?.to_ascii_uppercase();
        if !l.is_ascii_uppercase() {
            return None;
        }
        let digits: String = ch.collect();
        if digits.is_empty() || digits.len() > 2 || !digits.chars().all(|c| c.is_ascii_digit()) {
            return None;
        }
        let row: i32 = digits.parse().ok()?;
        Sq::new(l as i32 - 'A' as i32, row - 1)
    }
}

impl fmt::Display for Sq {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", self.letter(), self.row + 1)
    }
}

impl From<Sq> for String {
    fn from(s: Sq) -> String {
        s.to_string()
    }
}

impl TryFrom<String> for Sq {
    type Error = String;
    fn try_from(s: String) -> Result<Sq, String> {
        Sq::parse(&s).ok_or_else(|| format!("\"{s}\" is not a square (A1..U15)"))
    }
}

/// Shorthand for tests and data: the square named `s` (panics on a bad name; use
/// [`Sq::parse`] for player input).
pub fn sq(s: &str) -> Sq {
    Sq::parse(s).unwrap_or_else(|| panic!("bad square {s}"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn notation_round_trips() {
        for i in 0..SQUARES {
            let s = Sq::from_idx(i);
            assert_eq!(Sq::parse(&s.to_string()), Some(s));
            assert_eq!(s.idx(), i);
        }
        assert_eq!(Sq::parse("a1"), Some(Sq { col: 0, row: 0 }));
        assert_eq!(Sq::parse("U15"), Some(Sq { col: 20, row: 14 }));
        assert_eq!(Sq::parse("V1"), None);
        assert_eq!(Sq::parse("A16"), None);
        assert_eq!(Sq::parse("A0"), None);
        assert_eq!(Sq::parse("É4"), None);
    }
}
