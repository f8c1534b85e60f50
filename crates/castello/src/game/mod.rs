//! The state of a game of Castello ([`Castello`]: the board, the castles, whose move) and
//! its rules by concept: `setup.rs` (the published start, diagrams for tests, options),
//! `play.rs` (a move and what it causes, draws, resigning, the end), `side.rs` (red and
//! black), `board_rows.rs` (the board as stored), `stored.rs` (older saves read on load).

mod board_rows;
mod play;
mod setup;
mod side;
mod stored;

pub(crate) use board_rows::glyph;
pub use side::{Side, BLACK, RED};

use crate::geom::{Sq, ORTHO};
use crate::words::End;
use crate::Order;
use castellan_engine::Seat;
use serde::{Deserialize, Serialize};

/// Seed "But du jeu": "Capturer 4 châteaux ... ou 28 pions opposés."
pub const CASTLES_TO_WIN: usize = 4;
pub const PAWNS_TO_WIN: u32 = 28;

/// What a square holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Cell {
    Empty,
    /// A pawn; `moved` is false until its first move (which may go two squares).
    Pawn {
        seat: Side,
        moved: bool,
    },
    Castle,
}

/// A castle: where, which section, and who took it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Castle {
    pub sq: Sq,
    /// Home section it stands in (its owner may never take it); `None` = central section.
    pub home: Option<Side>,
    /// The middle castle of the central section (K8).
    pub centre: bool,
    pub taken_by: Option<Side>,
}

/// Who moves first.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(rename_all = "snake_case")]
pub enum First {
    #[default]
    Red,
    Black,
    /// One public draw at setup.
    Random,
}

/// Game options (`--option key=value` or a CREATE mail).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, rename_all = "snake_case")]
pub struct Options {
    /// Who moves first: red (default), black or random.
    pub first: First,
    /// The game is drawn after this many moves in a row (both sides counted) with no pawn
    /// and no castle captured. 10..=1000; default 100.
    pub move_limit: u32,
    /// The game is drawn when the same position (same pawns, same side to move) occurs this
    /// many times since the last capture. 0 turns it off; otherwise 2..=10; default 3.
    pub repetition: u32,
    /// Sackson's reading: no central castle (not only K8) may be taken before a castle of
    /// the enemy home. Default false (the seed: only "le château du milieu").
    pub strict_centre: bool,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            first: First::Red,
            move_limit: 100,
            repetition: 3,
            strict_centre: false,
        }
    }
}

/// What happened.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Event {
    Start {
        first: Side,
        drawn: bool,
    },
    Moved {
        seat: Side,
        path: Vec<Sq>,
        captured: Vec<Sq>,
    },
    CastleTaken {
        seat: Side,
        sq: Sq,
        total: usize,
    },
    DrawOffered {
        seat: Side,
    },
    DrawDeclined {
        seat: Side,
    },
    DrawAgreed,
    Resigned {
        seat: Side,
    },
    /// The game is over. Games stored before the end was typed hold its English reason,
    /// read once on load (`game/stored.rs`).
    Ended {
        winners: Vec<Seat>,
        #[serde(alias = "reason", deserialize_with = "stored::end")]
        end: End,
    },
}

/// A move as the public view recalls it: who played it, and its squares.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct LastMove {
    pub side: Side,
    pub path: Vec<Sq>,
}

/// The state of a game of Castello.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Castello {
    pub(crate) options: Options,
    pub(crate) players: Vec<String>,
    #[serde(with = "board_rows")]
    pub(crate) cells: Vec<Cell>,
    pub(crate) castles: Vec<Castle>,
    pub(crate) first: Side,
    pub(crate) to_move: Side,
    /// Moves played.
    pub(crate) ply: u32,
    /// Moves since the last capture of a pawn or a castle.
    pub(crate) quiet: u32,
    /// Position hashes since the last capture (repetition draw).
    pub(crate) seen: Vec<u64>,
    pub(crate) pawns_taken: [u32; 2],
    pub(crate) draw_offer: Option<Side>,
    /// The last move (older builds stored it as words, "Red E4-E5": `stored.rs`).
    #[serde(default, deserialize_with = "stored::last")]
    pub(crate) last: Option<LastMove>,
    /// The last move's squares and the pawns it captured (the picture draws them).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub(crate) last_path: Vec<Sq>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub(crate) last_captured: Vec<Sq>,
    /// How the game ended (older builds stored the engine's outcome, its reason in
    /// English: `stored.rs`).
    #[serde(default, deserialize_with = "stored::result")]
    pub(crate) result: Option<End>,
    /// The default move of this position, computed once: every prompt shows it and the bot
    /// search behind it is the costliest thing the judge asks of a position. Not stored;
    /// emptied by every change of the position.
    #[serde(skip)]
    pub(crate) default_memo: std::sync::OnceLock<Order>,
}

/// FNV-1a: a position hash that is stable across Rust versions (it is stored).
fn fnv(bytes: impl Iterator<Item = u8>) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for b in bytes {
        h ^= b as u64;
        h = h.wrapping_mul(0x0100_0000_01b3);
    }
    h
}

impl Castello {
    pub fn cell(&self, s: Sq) -> Cell {
        self.cells[s.idx()]
    }
    pub fn to_move(&self) -> Side {
        self.to_move
    }
    pub fn first(&self) -> Side {
        self.first
    }
    pub fn ply(&self) -> u32 {
        self.ply
    }
    pub fn quiet(&self) -> u32 {
        self.quiet
    }
    pub fn options(&self) -> &Options {
        &self.options
    }
    pub fn draw_offer(&self) -> Option<Side> {
        self.draw_offer
    }
    pub fn pawns_taken(&self, seat: Side) -> u32 {
        self.pawns_taken[seat.index()]
    }
    /// How the game ended (`None`: it goes on).
    pub fn result(&self) -> Option<End> {
        self.result
    }
    pub fn castles(&self) -> &[Castle] {
        &self.castles
    }
    /// Castles `seat` has taken.
    pub fn castles_taken(&self, seat: Side) -> Vec<Sq> {
        self.castles
            .iter()
            .filter(|c| c.taken_by == Some(seat))
            .map(|c| c.sq)
            .collect()
    }
    /// How many castles `seat` has taken.
    pub fn castle_count(&self, seat: Side) -> usize {
        self.castles
            .iter()
            .filter(|c| c.taken_by == Some(seat))
            .count()
    }
    pub fn pawn_count(&self, seat: Side) -> usize {
        self.cells
            .iter()
            .filter(|c| matches!(c, Cell::Pawn { seat: s, .. } if *s == seat))
            .count()
    }
    pub(crate) fn position_hash(&self) -> u64 {
        fnv(self
            .cells
            .iter()
            .map(|c| board_rows::glyph(*c) as u8)
            .chain([u8::from(self.to_move)]))
    }
    /// Pawns of `seat` on the castle's four orthogonal neighbours.
    pub fn surround(&self, castle: Sq, seat: Side) -> usize {
        ORTHO
            .iter()
            .filter_map(|d| castle.step(*d, 1))
            .filter(|s| matches!(self.cells[s.idx()], Cell::Pawn { seat: p, .. } if p == seat))
            .count()
    }
    /// May `seat` take this castle now? Never one of its own home; the centre castle (with
    /// `strict_centre`, any central one) only after a castle of the enemy home.
    pub fn may_take(&self, c: &Castle, seat: Side) -> bool {
        if c.taken_by.is_some() || c.home == Some(seat) {
            return false;
        }
        let needs_enemy_home = c.centre || (self.options.strict_centre && c.home.is_none());
        if needs_enemy_home {
            self.castles
                .iter()
                .any(|k| k.taken_by == Some(seat) && k.home == Some(seat.other()))
        } else {
            true
        }
    }
}
