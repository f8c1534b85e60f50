//! Castello (Carl Renström, BRIO/Alga): a two-player game on a 21 × 15 board. Each side
//! moves one pawn a turn (a step in 8 directions, two squares on its first move, or chained
//! jumps over pawns that capture the enemy ones jumped, at most five); castles fall when
//! three of their four orthogonal neighbours hold the capturer's pawns. Four castles or 28
//! enemy pawns win.
//!
//! Rules: `/work/shared/seeds/004_fccdcef77053ae88.txt`; decisions in
//! `docs/rules/castello.md`; order language in `docs/orders/castello.md`. The starting
//! position is the published one, `data/board.yaml`.
//!
//! There is no hidden information and no die in this game: who moves first is an option
//! (`first: red|black|random`, random uses one public draw at setup).

pub mod bot;
pub mod geom;
pub mod layout;
pub mod moves;
pub mod picture;
mod stored;
mod text;
pub mod words;

pub use geom::{sq, Sq};
pub use moves::{Kind, Move, MAX_CAPTURES};
pub use words::End;

use castellan_engine::{
    BotRng, DiceBox, Lang, OrderError, Outcome, Prompt, PromptKind, Rules, Seat, Viewer,
};
use geom::{COLS, ORTHO, ROWS};
use serde::{Deserialize, Serialize};
use words::{accept_draw_word, colour_in, offer_draw_word, resign_word};

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

/// Seed "But du jeu": "Capturer 4 châteaux ... ou 28 pions opposés."
pub const CASTLES_TO_WIN: usize = 4;
pub const PAWNS_TO_WIN: u32 = 28;

/// How many legal moves a prompt lists as choices.
const PROMPT_CHOICES: usize = 40;

/// "Red" or "Black".
pub fn colour(side: Side) -> &'static str {
    colour_in(side, Lang::En)
}

fn other(side: Side) -> Side {
    side.other()
}

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

/// An order.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Order {
    /// The squares the pawn stands on in turn: "E4-E5", "E4-E6", "E4-E2-C2-A2-C4".
    Move(Vec<Sq>),
    Resign,
    OfferDraw,
    AcceptDraw,
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
    options: Options,
    players: Vec<String>,
    #[serde(with = "board_rows")]
    cells: Vec<Cell>,
    castles: Vec<Castle>,
    first: Side,
    to_move: Side,
    /// Moves played.
    ply: u32,
    /// Moves since the last capture of a pawn or a castle.
    quiet: u32,
    /// Position hashes since the last capture (repetition draw).
    seen: Vec<u64>,
    pawns_taken: [u32; 2],
    draw_offer: Option<Side>,
    /// The last move (older builds stored it as words, "Red E4-E5": `stored.rs`).
    #[serde(deserialize_with = "stored::last")]
    last: Option<LastMove>,
    /// The last move's squares and the pawns it captured (the picture draws them).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    last_path: Vec<Sq>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    last_captured: Vec<Sq>,
    /// How the game ended (older builds stored the engine's outcome, its reason in
    /// English: `stored.rs`).
    #[serde(deserialize_with = "stored::result")]
    result: Option<End>,
    /// The default move of this position, computed once: every prompt shows it and the bot
    /// search behind it is the costliest thing the judge asks of a position. Not stored;
    /// emptied by every change of the position.
    #[serde(skip)]
    default_memo: std::sync::OnceLock<Order>,
}

mod board_rows {
    //! The board stored as 15 text rows, row 15 first ("R" red pawn not yet moved, "r"
    //! moved, "B"/"b" black, "#" castle, "." empty).
    use super::{Cell, Side};
    use crate::geom::{COLS, ROWS};
    use serde::{Deserialize, Deserializer, Serialize, Serializer};

    pub fn glyph(c: Cell) -> char {
        match c {
            Cell::Empty => '.',
            Cell::Castle => '#',
            Cell::Pawn {
                seat: Side::Red,
                moved,
            } => {
                if moved {
                    'r'
                } else {
                    'R'
                }
            }
            Cell::Pawn { moved, .. } => {
                if moved {
                    'b'
                } else {
                    'B'
                }
            }
        }
    }

    pub fn from_glyph(g: char) -> Option<Cell> {
        Some(match g {
            '.' => Cell::Empty,
            '#' => Cell::Castle,
            'R' => Cell::Pawn {
                seat: Side::Red,
                moved: false,
            },
            'r' => Cell::Pawn {
                seat: Side::Red,
                moved: true,
            },
            'B' => Cell::Pawn {
                seat: Side::Black,
                moved: false,
            },
            'b' => Cell::Pawn {
                seat: Side::Black,
                moved: true,
            },
            _ => return None,
        })
    }

    pub fn serialize<S: Serializer>(cells: &[Cell], s: S) -> Result<S::Ok, S::Error> {
        let rows: Vec<String> = (0..ROWS)
            .rev()
            .map(|r| (0..COLS).map(|c| glyph(cells[r * COLS + c])).collect())
            .collect();
        rows.serialize(s)
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Vec<Cell>, D::Error> {
        let rows = Vec::<String>::deserialize(d)?;
        parse_rows(&rows).map_err(serde::de::Error::custom)
    }

    pub fn parse_rows(rows: &[String]) -> Result<Vec<Cell>, String> {
        if rows.len() != ROWS {
            return Err(format!("the board has {} rows, not {ROWS}", rows.len()));
        }
        let mut cells = vec![Cell::Empty; ROWS * COLS];
        for (i, line) in rows.iter().enumerate() {
            let r = ROWS - 1 - i;
            let g: Vec<char> = line
                .chars()
                .filter(|c| !c.is_whitespace() && *c != '|')
                .collect();
            if g.len() != COLS {
                return Err(format!("row {} has {} squares, not {COLS}", r + 1, g.len()));
            }
            for (c, ch) in g.into_iter().enumerate() {
                cells[r * COLS + c] =
                    from_glyph(ch).ok_or_else(|| format!("unknown mark {ch} in row {}", r + 1))?;
            }
        }
        Ok(cells)
    }
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
    /// A game at the published start position.
    pub fn new(players: &[String], options: &Options, first: Side) -> Result<Castello, String> {
        let l = layout::published()?;
        let cells = l
            .cells
            .iter()
            .map(|c| match c {
                layout::Start::Empty => Cell::Empty,
                layout::Start::Castle => Cell::Castle,
                layout::Start::Pawn(s) => Cell::Pawn {
                    seat: *s,
                    moved: false,
                },
            })
            .collect();
        let castles = l
            .castles
            .iter()
            .map(|c| Castle {
                sq: c.sq,
                home: c.home,
                centre: c.centre,
                taken_by: None,
            })
            .collect();
        let mut g = Castello {
            options: options.clone(),
            players: players.to_vec(),
            cells,
            castles,
            first,
            to_move: first,
            ply: 0,
            quiet: 0,
            seen: Vec::new(),
            pawns_taken: [0, 0],
            draw_offer: None,
            last: None,
            last_path: Vec::new(),
            last_captured: Vec::new(),
            result: None,
            default_memo: std::sync::OnceLock::new(),
        };
        g.seen.push(g.position_hash());
        Ok(g)
    }

    /// A position set up from a diagram (15 rows, row 15 first; `R`/`r` red pawn not yet
    /// moved / moved, `B`/`b` black, `#` castle, `.` empty; spaces and `|` ignored), with
    /// `to_move` to play. Castles keep their published sections; a published castle square
    /// shown empty counts as taken by nobody and is simply gone. For tests and analysis.
    pub fn from_diagram(
        rows: &[&str],
        to_move: Side,
        options: &Options,
    ) -> Result<Castello, String> {
        let rows: Vec<String> = rows.iter().map(|s| s.to_string()).collect();
        let cells = board_rows::parse_rows(&rows)?;
        let l = layout::published()?;
        let mut castles = Vec::new();
        for c in &l.castles {
            if cells[c.sq.idx()] == Cell::Castle {
                castles.push(Castle {
                    sq: c.sq,
                    home: c.home,
                    centre: c.centre,
                    taken_by: None,
                });
            }
        }
        for (i, c) in cells.iter().enumerate() {
            if *c == Cell::Castle && !castles.iter().any(|k| k.sq.idx() == i) {
                return Err(format!("{} is not a castle square", Sq::from_idx(i)));
            }
        }
        let mut g = Castello::new(&["Red".into(), "Black".into()], options, to_move)?;
        g.cells = cells;
        g.castles = castles;
        g.to_move = to_move;
        g.seen = vec![g.position_hash()];
        Ok(g)
    }

    /// Mark the castle on `s` as already taken by `seat` (test set-ups: "Black has already
    /// taken one castle of the enemy home"). The square must not hold a castle any more in
    /// the diagram; the castle is added with its published section.
    pub fn with_castle_taken(mut self, s: Sq, seat: Side) -> Result<Castello, String> {
        self.default_memo = std::sync::OnceLock::new();
        let l = layout::published()?;
        let spec = l
            .castles
            .iter()
            .find(|c| c.sq == s)
            .ok_or_else(|| format!("{s} is not a castle square"))?;
        self.castles.retain(|c| c.sq != s);
        self.castles.push(Castle {
            sq: s,
            home: spec.home,
            centre: spec.centre,
            taken_by: Some(seat),
        });
        if self.cells[s.idx()] == Cell::Castle {
            self.cells[s.idx()] = Cell::Empty;
        }
        Ok(self)
    }

    /// Set the count of pawns `seat` has captured (test set-ups).
    pub fn with_pawns_taken(mut self, seat: Side, n: u32) -> Castello {
        self.default_memo = std::sync::OnceLock::new();
        self.pawns_taken[seat as usize] = n;
        self
    }

    /// Set the moves-without-capture counter (test set-ups).
    pub fn with_quiet_moves(mut self, n: u32) -> Castello {
        self.default_memo = std::sync::OnceLock::new();
        self.quiet = n;
        self
    }

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
        self.pawns_taken[seat as usize]
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

    fn position_hash(&self) -> u64 {
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
                .any(|k| k.taken_by == Some(seat) && k.home == Some(other(seat)))
        } else {
            true
        }
    }

    /// Play a legal move (already checked) and everything it causes.
    fn play(&mut self, seat: Side, mv: &Move) -> Vec<Event> {
        self.default_memo = std::sync::OnceLock::new();
        let mut ev = Vec::new();
        self.cells[mv.from().idx()] = Cell::Empty;
        for c in &mv.captures {
            self.cells[c.idx()] = Cell::Empty;
        }
        self.cells[mv.to().idx()] = Cell::Pawn { seat, moved: true };
        self.pawns_taken[seat as usize] += mv.captures.len() as u32;
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
        self.to_move = other(seat);
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
        if self.draw_offer == Some(other(seat)) {
            self.draw_offer = None;
            ev.push(Event::DrawDeclined { seat });
        }
        let h = self.position_hash();
        self.seen.push(h);
        let end = if self.castle_count(seat) >= CASTLES_TO_WIN {
            Some(End::Castles(seat))
        } else if self.pawns_taken[seat as usize] >= PAWNS_TO_WIN {
            Some(End::Pawns(seat))
        } else if self.options.repetition > 0
            && self.seen.iter().filter(|x| **x == h).count() >= self.options.repetition as usize
        {
            Some(End::Repetition(self.options.repetition))
        } else if self.quiet >= self.options.move_limit {
            Some(End::MoveLimit(self.options.move_limit))
        } else if !self.has_move(other(seat)) {
            Some(End::Stuck(other(seat)))
        } else {
            None
        };
        if let Some(end) = end {
            self.finish(end, &mut ev);
        }
        ev
    }

    /// End the game.
    fn finish(&mut self, end: End, ev: &mut Vec<Event>) {
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

    /// "Red (Alice)" / "Rouge (Alice)".
    fn name_in(&self, seat: Side, lang: Lang) -> String {
        match self.players.get(seat as usize) {
            Some(n) => format!("{} ({n})", colour_in(seat, lang)),
            None => colour_in(seat, lang).to_string(),
        }
    }

    /// The order as written in `lang`: the moves are the same squares in both languages,
    /// the other orders take the French keywords (`ABANDON`, `PROPOSE NULLE`,
    /// `ACCEPTE NULLE`). Every line parses back to `order` whatever the language.
    pub fn order_text_in(&self, order: &Order, lang: Lang) -> String {
        match order {
            Order::Move(p) => moves::path_text(p),
            Order::Resign => resign_word(lang).into(),
            Order::OfferDraw => offer_draw_word(lang).into(),
            Order::AcceptDraw => accept_draw_word(lang).into(),
        }
    }

    /// The text board with coordinates.
    pub fn board_text(&self) -> String {
        self.board_text_in(Lang::En)
    }

    /// The text board with coordinates; in French black pawns are `N`/`n` (noir).
    pub fn board_text_in(&self, lang: Lang) -> String {
        let mark = |c: Cell| match (lang, board_rows::glyph(c)) {
            (Lang::Fr, 'B') => 'N',
            (Lang::Fr, 'b') => 'n',
            (_, g) => g,
        };
        let mut s = String::new();
        let header: String = {
            let mut h = String::from("     ");
            for c in 0..COLS {
                if c == 7 || c == 14 {
                    h.push_str("| ");
                }
                h.push((b'A' + c as u8) as char);
                h.push(' ');
            }
            h.trim_end().to_string()
        };
        s.push_str(&header);
        s.push('\n');
        for r in (0..ROWS).rev() {
            s.push_str(&format!("{:>3}  ", r + 1));
            for c in 0..COLS {
                if c == 7 || c == 14 {
                    s.push_str("| ");
                }
                s.push(mark(self.cells[r * COLS + c]));
                s.push(' ');
            }
            s.push_str(&format!("{}\n", r + 1));
        }
        s.push_str(&header);
        s.push('\n');
        s
    }
}

/// The side a seat plays, or the error for a seat Castello does not have.
fn side_of(seat: Seat) -> Result<Side, OrderError> {
    Side::of_seat(seat).ok_or_else(|| {
        OrderError::new(format!("there is no seat {seat} in Castello"))
            .fr(format!("il n'y a pas de place {seat} à Castello"))
    })
}

/// An order error in both languages, with the general hint on writing a move.
fn path_error(en: String, fr: String) -> OrderError {
    OrderError::new(en)
        .fr(fr)
        .hint(moves::GENERAL[0])
        .hint_fr(moves::GENERAL[1])
}

/// Split an order line into squares: "E4-E2-C2", "e4 e2 c2", "E4xE2xC2", "E4 - E6".
fn parse_path(text: &str) -> Result<Vec<Sq>, OrderError> {
    let chars: Vec<char> = text.chars().collect();
    let mut i = 0;
    let mut out = Vec::new();
    while i < chars.len() {
        let c = chars[i];
        if c.is_whitespace() || "-xX,;:>/–—".contains(c) {
            i += 1;
            continue;
        }
        if c.is_alphabetic() {
            let mut j = i + 1;
            while j < chars.len() && chars[j].is_ascii_digit() {
                j += 1;
            }
            let tok: String = chars[i..j].iter().collect();
            if j == i + 1 {
                let mut k = i;
                while k < chars.len() && chars[k].is_alphanumeric() {
                    k += 1;
                }
                let word: String = chars[i..k].iter().collect();
                return Err(path_error(
                    format!(
                        "\"{word}\" is not a square or an order (squares are A1..U15; orders: a \
                         move, RESIGN, OFFER DRAW, ACCEPT DRAW)"
                    ),
                    format!(
                        "« {word} » n'est ni une case ni un ordre (cases : A1..U15 ; ordres : un \
                         coup, ABANDON, PROPOSE NULLE, ACCEPTE NULLE)"
                    ),
                ));
            }
            match Sq::parse(&tok) {
                Some(s) => out.push(s),
                None => {
                    return Err(path_error(
                        format!("{tok} is off the board: columns run A to U, rows 1 to 15"),
                        format!(
                            "{tok} est hors du tablier : les colonnes vont de A à U, les \
                             rangées de 1 à 15"
                        ),
                    ))
                }
            }
            i = j;
            continue;
        }
        return Err(path_error(
            format!("unexpected \"{c}\" in a move"),
            format!("« {c} » inattendu dans un coup"),
        ));
    }
    if out.is_empty() {
        return Err(path_error(
            "no move given".into(),
            "aucun coup indiqué".into(),
        ));
    }
    Ok(out)
}

impl Castello {
    /// A parse error's hint with one legal move of the seat to play as an example.
    fn with_example(&self, seat: Side, e: OrderError) -> OrderError {
        let (Some(h), Some(h_fr)) = (e.hint_in(Lang::En), e.hint_in(Lang::Fr)) else {
            return e;
        };
        if self.result.is_some() || seat != self.to_move {
            return e;
        }
        let Some(m) = self.legal_moves(seat).first().map(Move::text) else {
            return e;
        };
        let (h, h_fr) = (
            format!("{h} (for instance {m})"),
            format!("{h_fr} (par exemple {m})"),
        );
        e.hint(h).hint_fr(h_fr)
    }

    fn offer_draw(&mut self, seat: Side) -> Result<Vec<Event>, OrderError> {
        let (them_en, them_fr) = (colour(other(seat)), colour_in(other(seat), Lang::Fr));
        if self.draw_offer == Some(other(seat)) {
            return Err(
                OrderError::new(format!("{them_en} has already offered a draw"))
                    .fr(format!("{them_fr} a déjà proposé la nulle"))
                    .hint("write: ACCEPT DRAW")
                    .hint_fr("écrivez : ACCEPTE NULLE"),
            );
        }
        if self.draw_offer == Some(seat) {
            return Err(OrderError::new("your draw offer already stands")
                .fr("votre proposition de nulle tient déjà")
                .hint("wait for the answer, or write a move")
                .hint_fr("attendez la réponse, ou écrivez un coup"));
        }
        self.draw_offer = Some(seat);
        Ok(vec![Event::DrawOffered { seat }])
    }

    fn accept_draw(&mut self, seat: Side) -> Result<Vec<Event>, OrderError> {
        if self.draw_offer != Some(other(seat)) {
            return Err(
                OrderError::new(format!("{} has not offered a draw", colour(other(seat))))
                    .fr(format!(
                        "{} n'a pas proposé la nulle",
                        colour_in(other(seat), Lang::Fr)
                    ))
                    .hint("write: OFFER DRAW, to offer one yourself")
                    .hint_fr("écrivez : PROPOSE NULLE, pour la proposer vous-même"),
            );
        }
        let mut ev = vec![Event::DrawAgreed];
        self.finish(End::Agreed, &mut ev);
        Ok(ev)
    }

    fn check_options(options: &Options) -> Result<(), OrderError> {
        if !(10..=1000).contains(&options.move_limit) {
            let n = options.move_limit;
            return Err(OrderError::new(format!("move_limit {n} is out of range"))
                .fr(format!("move_limit {n} est hors limites"))
                .hint("move_limit is a number of moves from 10 to 1000, e.g. move_limit=100")
                .hint_fr(
                    "move_limit est un nombre de coups de 10 à 1000, par exemple move_limit=100",
                ));
        }
        if options.repetition == 1 || options.repetition > 10 {
            let n = options.repetition;
            return Err(OrderError::new(format!("repetition {n} is out of range"))
                .fr(format!("repetition {n} est hors limites"))
                .hint("repetition is 0 (off) or 2 to 10, e.g. repetition=3")
                .hint_fr("repetition vaut 0 (désactivée) ou de 2 à 10, par exemple repetition=3"));
        }
        Ok(())
    }
}

impl Rules for Castello {
    type Options = Options;
    type Order = Order;
    type Event = Event;
    const GAME: &'static str = "castello";
    const STATE_VERSION: u32 = 1;
    const PROMPT_KINDS: &'static [PromptKind] = &[PromptKind::Move];
    const PICTURE_ONLY: &'static [&'static str] = &["last_path", "last_captured"];

    fn seat_range() -> std::ops::RangeInclusive<usize> {
        2..=2
    }

    fn setup(
        players: &[String],
        options: &Options,
        dice: &mut DiceBox,
    ) -> Result<(Self, Vec<Event>), OrderError> {
        if players.len() != 2 {
            return Err(OrderError::new("Castello is played by exactly 2 players")
                .fr("Castello se joue à 2 joueurs exactement"));
        }
        Castello::check_options(options)?;
        let (first, drawn) = match options.first {
            First::Red => (RED, false),
            First::Black => (BLACK, false),
            First::Random => (Side::BOTH[dice.public_below(2)], true),
        };
        let g = Castello::new(players, options, first).map_err(|e| {
            OrderError::new(e.clone()).fr(format!("données du tablier invalides : {e}"))
        })?;
        Ok((g, vec![Event::Start { first, drawn }]))
    }

    fn turn(&self) -> u32 {
        self.ply + 1
    }

    fn pending(&self, lang: Lang) -> Vec<Prompt> {
        if self.result.is_some() {
            return vec![];
        }
        let seat = self.to_move;
        let moves = moves::spread_for_listing(self.legal_moves(seat));
        let mut choices: Vec<String> = moves.iter().take(PROMPT_CHOICES).map(Move::text).collect();
        let mut question = self.question(seat, moves.len(), lang);
        if self.draw_offer == Some(other(seat)) {
            question.push_str(&match lang {
                Lang::En => format!(
                    " {} offers a draw: ACCEPT DRAW, or move to decline.",
                    colour(other(seat))
                ),
                Lang::Fr => format!(
                    " {} propose la nulle : ACCEPTE NULLE, ou jouez un coup pour refuser.",
                    colour_in(other(seat), lang)
                ),
            });
            choices.push(accept_draw_word(lang).into());
        }
        let default = self.order_text_in(&self.default_move(), lang);
        vec![Prompt {
            seat: seat as Seat,
            kind: PromptKind::Move,
            question,
            choices,
            default,
            standing: None,
        }]
    }

    fn parse(&self, seat: Seat, line: &str) -> Result<Order, OrderError> {
        let seat = side_of(seat)?;
        let toks: Vec<String> = line
            .split_whitespace()
            .map(|w| w.to_uppercase().trim_end_matches(['.', '!']).to_string())
            .collect();
        let joined = toks.join(" ");
        if let Some(o) = words::keyword_order(&words::fold(&joined)) {
            return Ok(o);
        }
        let move_word = toks
            .first()
            .is_some_and(|w| words::is_move_word(&words::fold(w)));
        // A line that starts with a word (not a square such as E4, not a move word) is not
        // an order at all: a signature or a "thanks!" after the move is ignored, not refused.
        let starts_with_word = !move_word
            && toks.first().is_some_and(|w| {
                let mut c = w.chars();
                c.next().is_some_and(char::is_alphabetic)
                    && !c.next().is_some_and(|d| d.is_ascii_digit())
            });
        let body = if move_word {
            toks[1..].join(" ")
        } else {
            joined.clone()
        };
        let path = parse_path(&body).map_err(|e| {
            let e = self.with_example(seat, e);
            if starts_with_word {
                e.not_an_order()
            } else {
                e
            }
        })?;
        if path.len() < 2 {
            return Err(self.no_destination(seat, path[0]));
        }
        Ok(Order::Move(path))
    }

    fn apply(
        &mut self,
        seat: Seat,
        order: &Order,
        _dice: &mut DiceBox,
    ) -> Result<Vec<Event>, OrderError> {
        self.default_memo = std::sync::OnceLock::new();
        let seat = side_of(seat)?;
        if let Some(end) = self.result {
            return Err(
                OrderError::new(format!("the game is over: {}", end.text(Lang::En)))
                    .fr(format!("la partie est terminée : {}", end.text(Lang::Fr))),
            );
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
                    return Err(OrderError::new(format!(
                        "it is {}'s move, not yours",
                        colour(self.to_move)
                    ))
                    .fr(format!(
                        "c'est à {} de jouer, pas à vous",
                        colour_in(self.to_move, Lang::Fr)
                    ))
                    .hint("wait for your turn (you may OFFER DRAW or RESIGN at any time)")
                    .hint_fr(
                        "attendez votre tour (vous pouvez écrire PROPOSE NULLE ou ABANDON à \
                         tout moment)",
                    ));
                }
                let mv = self.check_path(seat, path)?;
                Ok(self.play(seat, &mv))
            }
        }
    }

    fn default_order(&self, _prompt: &Prompt) -> Order {
        self.default_move()
    }

    fn bot_order(&self, seat: Seat, rng: &mut BotRng) -> Order {
        match Side::of_seat(seat) {
            Some(side) => bot::choose(self, side, rng),
            None => Order::Resign,
        }
    }

    fn order_text(&self, order: &Order) -> String {
        self.order_text_in(order, Lang::En)
    }

    fn narrate(&self, event: &Event, _viewer: Viewer, lang: Lang) -> Option<String> {
        // Nothing in Castello is hidden: every viewer reads the same line.
        Some(self.narrate_in(event, lang))
    }

    fn public_view(&self, lang: Lang) -> String {
        self.public_view_in(lang)
    }

    fn private_view(&self, seat: Seat, lang: Lang) -> String {
        self.private_view_in(seat, lang)
    }

    // No `eliminated`: a Castello game ends when one side is beaten, so nobody is put out
    // while it goes on; the default (none) holds.
    fn outcome(&self) -> Option<Outcome> {
        self.result
            .map(|end| Outcome::new(end.winners(), end.text(Lang::En)).fr(end.text(Lang::Fr)))
    }

    fn order_help(lang: Lang) -> String {
        text::order_help(lang)
    }

    fn picture(&self, viewer: Viewer, lang: Lang) -> Option<String> {
        Some(self.picture_in(viewer, lang))
    }

    /// Castello has no secrets: every seat sees the public board.
    fn picture_shows_secrets(&self, _seat: Seat) -> bool {
        false
    }
}
