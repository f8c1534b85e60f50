//! Move generation and validation: steps, the first move of two squares, chained jumps
//! with captures (at most five), and why a written move is not legal.

use crate::geom::{Sq, COLS, DIRS, ROWS};
use crate::words::{self, a_pawn_in, colour_in, SIDES};
use crate::Side;
use crate::{colour, Castello, Cell, LastMove};
use castellan_engine::words::{refusal, Hints};
use castellan_engine::{Lang, OrderError};

/// Seed: "un pion peut prendre un maximum de cinq pions adverses".
pub const MAX_CAPTURES: usize = 5;

/// How many moves a full enumeration lists at most (jump chains over a crowd of pawns can
/// branch a lot; every move listed is legal, the list is just not exhaustive beyond this).
pub const ENUM_BUDGET: usize = 4000;

/// What kind of move a path is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// One square in one of 8 directions.
    Step,
    /// Two squares in a straight line over an empty square: a pawn's first move only.
    Double,
    /// One or more jumps over adjacent pawns.
    Jump,
}

/// A legal move: the squares the pawn stands on in turn, and the enemy pawns it takes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Move {
    pub path: Vec<Sq>,
    pub captures: Vec<Sq>,
    pub kind: Kind,
}

impl Move {
    pub fn text(&self) -> String {
        path_text(&self.path)
    }
    pub fn from(&self) -> Sq {
        self.path[0]
    }
    pub fn to(&self) -> Sq {
        self.path[self.path.len() - 1]
    }
}

/// "E4-E2-C2".
pub fn path_text(path: &[Sq]) -> String {
    path.iter()
        .map(|s| s.to_string())
        .collect::<Vec<_>>()
        .join("-")
}

impl LastMove {
    /// "Red E4-E5" / "Rouge E4-E5": the last move, for the views.
    pub fn text_in(&self, lang: Lang) -> String {
        format!("{} {}", colour_in(self.side, lang), path_text(&self.path))
    }
}

fn cell_words(c: Cell, lang: Lang) -> String {
    match c {
        Cell::Empty => lang.pick("empty", "vide").into(),
        Cell::Castle => lang.pick("a castle", "un château").into(),
        Cell::Pawn { seat, .. } => a_pawn_in(seat, lang),
    }
}

impl Castello {
    fn is_pawn(&self, s: Sq) -> bool {
        matches!(self.cells[s.idx()], Cell::Pawn { .. })
    }
    fn is_empty(&self, s: Sq) -> bool {
        self.cells[s.idx()] == Cell::Empty
    }

    /// Every legal move of `seat` (up to [`ENUM_BUDGET`]), in board order: pawns by column
    /// then row, each pawn's steps, then its jump chains.
    pub fn legal_moves(&self, seat: Side) -> Vec<Move> {
        let mut out = Vec::new();
        let mut budget = ENUM_BUDGET;
        for s in self.pawn_squares(seat) {
            self.gen_from(s, &mut budget, &mut out);
        }
        out
    }

    /// The legal moves of the pawn on `from` (empty if there is none or it cannot move).
    pub fn moves_of(&self, from: Sq) -> Vec<Move> {
        let mut out = Vec::new();
        let mut budget = ENUM_BUDGET;
        self.gen_from(from, &mut budget, &mut out);
        out
    }

    /// Squares of `seat`'s pawns, by column then row.
    pub fn pawn_squares(&self, seat: Side) -> Vec<Sq> {
        let mut v = Vec::with_capacity(32);
        for col in 0..COLS {
            for row in 0..ROWS {
                let i = row * COLS + col;
                if matches!(self.cells[i], Cell::Pawn { seat: s, .. } if s == seat) {
                    v.push(Sq::from_idx(i));
                }
            }
        }
        v
    }

    /// True if `seat` has at least one legal move (cheap: no enumeration).
    pub fn has_move(&self, seat: Side) -> bool {
        (0..self.cells.len()).any(|i| {
            let s = Sq::from_idx(i);
            matches!(self.cells[i], Cell::Pawn { seat: p, .. } if p == seat)
                && DIRS.iter().any(|&d| match s.step(d, 1) {
                    Some(t) if self.is_empty(t) => true,
                    Some(t) if self.is_pawn(t) => s.step(d, 2).is_some_and(|u| self.is_empty(u)),
                    _ => false,
                })
        })
    }

    fn gen_from(&self, from: Sq, budget: &mut usize, out: &mut Vec<Move>) {
        let Cell::Pawn { seat, moved } = self.cells[from.idx()] else {
            return;
        };
        for &d in &DIRS {
            if *budget == 0 {
                return;
            }
            if let Some(t) = from.step(d, 1) {
                if self.is_empty(t) {
                    out.push(Move {
                        path: vec![from, t],
                        captures: vec![],
                        kind: Kind::Step,
                    });
                    *budget -= 1;
                    if !moved {
                        if let Some(u) = from.step(d, 2) {
                            if self.is_empty(u) {
                                out.push(Move {
                                    path: vec![from, u],
                                    captures: vec![],
                                    kind: Kind::Double,
                                });
                                *budget = budget.saturating_sub(1);
                            }
                        }
                    }
                }
            }
        }
        let mut cells = self.cells.clone();
        cells[from.idx()] = Cell::Empty;
        let mut path = vec![from];
        let mut caps = Vec::new();
        jumps(&mut cells, seat, &mut path, &mut caps, budget, out);
    }

    /// "a move names the pawn's square and where it goes", with that pawn's moves.
    pub(crate) fn no_destination(&self, seat: Side, f: Sq) -> OrderError {
        refusal(
            format!("a move names the pawn's square and where it goes; \"{f}\" has no destination"),
            format!(
            "un coup indique la case du pion puis sa destination ; « {f} » n'a pas de destination"
        ),
        )
        .hints(
            self.moves_hint(seat, f),
            self.moves_hint_in(seat, f, Lang::Fr),
        )
    }

    /// The pawn on `from` must be one of `seat`'s.
    fn check_from(&self, seat: Side, from: Sq) -> Result<(), OrderError> {
        let (en, fr) = match self.cells[from.idx()] {
            Cell::Pawn { seat: s, .. } if s == seat => return Ok(()),
            Cell::Pawn { seat: s, .. } => (
                format!(
                    "the pawn on {from} is {}'s; you play {}",
                    colour(s),
                    colour(seat)
                ),
                format!(
                    "le pion en {from} est {} ; vous jouez avec {}",
                    SIDES[s.index()].fr_adj,
                    words::les(seat)
                ),
            ),
            Cell::Castle => (
                format!("{from} is a castle, and castles never move"),
                format!("{from} est un château, et les châteaux ne bougent jamais"),
            ),
            Cell::Empty => (
                format!("there is no pawn on {from}"),
                format!("il n'y a pas de pion en {from}"),
            ),
        };
        Err(refusal(en, fr).hints(
            self.movable_hint(seat),
            self.movable_hint_in(seat, Lang::Fr),
        ))
    }

    /// Check a written path for `seat` and say exactly what is wrong if it is not legal.
    pub fn check_path(&self, seat: Side, path: &[Sq]) -> Result<Move, OrderError> {
        if path.len() < 2 {
            return Err(match path.first() {
                Some(f) => self.no_destination(seat, *f),
                None => {
                    refusal("no move given", "aucun coup indiqué").hints(GENERAL[0], GENERAL[1])
                }
            });
        }
        let from = path[0];
        self.check_from(seat, from)?;
        let Cell::Pawn { moved, .. } = self.cells[from.idx()] else {
            return Err(refusal("no pawn", "pas de pion"));
        };
        let bad = |(en, fr): (String, String)| {
            Err(refusal(en, fr).hints(
                self.moves_hint(seat, from),
                self.moves_hint_in(seat, from, Lang::Fr),
            ))
        };
        let mut cells = self.cells.clone();
        cells[from.idx()] = Cell::Empty;
        let mut captures = Vec::new();
        let mut kind = Kind::Jump;
        for (leg, w) in path.windows(2).enumerate() {
            let (a, b) = (w[0], w[1]);
            let dc = b.col as i32 - a.col as i32;
            let dr = b.row as i32 - a.row as i32;
            if captures.len() >= MAX_CAPTURES {
                return bad(why::fifth(a, b));
            }
            if path[..=leg].contains(&b) {
                return bad(why::twice(b));
            }
            if cells[b.idx()] != Cell::Empty {
                return bad(why::not_free(b, cells[b.idx()]));
            }
            let adjacent = dc.abs() <= 1 && dr.abs() <= 1;
            let straight2 = (dc.abs() == 2 || dc == 0) && (dr.abs() == 2 || dr == 0) && a != b;
            if adjacent {
                if path.len() > 2 {
                    return bad(why::step_chained(a, b));
                }
                kind = Kind::Step;
                continue;
            }
            if !straight2 {
                return bad(why::not_a_move(a, b));
            }
            let mid = Sq::new(a.col as i32 + dc / 2, a.row as i32 + dr / 2)
                .ok_or_else(|| refusal("off the board", "hors du tablier"))?;
            match cells[mid.idx()] {
                Cell::Castle => return bad(why::over_castle(a, b, mid)),
                Cell::Empty => {
                    if path.len() > 2 {
                        return bad(why::nothing_to_jump(a, b, mid));
                    }
                    if moved {
                        return bad(why::already_moved(from));
                    }
                    kind = Kind::Double;
                }
                Cell::Pawn { seat: s, .. } => {
                    if s != seat {
                        captures.push(mid);
                        cells[mid.idx()] = Cell::Empty;
                    }
                }
            }
        }
        Ok(Move {
            path: path.to_vec(),
            captures,
            kind,
        })
    }

    /// "legal moves of E4: ..." (or which pawns can move if that one cannot).
    pub fn moves_hint(&self, seat: Side, from: Sq) -> String {
        self.moves_hint_in(seat, from, Lang::En)
    }

    /// [`Castello::moves_hint`] in `lang`.
    pub fn moves_hint_in(&self, seat: Side, from: Sq, lang: Lang) -> String {
        match self.cells[from.idx()] {
            Cell::Pawn { seat: s, .. } if s == seat => {}
            _ => return self.movable_hint_in(seat, lang),
        }
        let ms = self.moves_of(from);
        if ms.is_empty() {
            let rest = self.movable_hint_in(seat, lang);
            return lang.pick(
                format!("the pawn on {from} cannot move; {rest}"),
                format!("le pion en {from} ne peut pas bouger ; {rest}"),
            );
        }
        let mut lines: Vec<String> = sorted_for_listing(ms).iter().map(Move::text).collect();
        let more = lines.len().saturating_sub(16);
        lines.truncate(16);
        let tail = match (more, lang) {
            (0, _) => String::new(),
            (_, Lang::En) => format!(" and {more} more"),
            (_, Lang::Fr) => format!(" et {more} autres"),
        };
        let list = lines.join(", ");
        lang.pick(
            format!("legal moves of {from}: {list}{tail}"),
            format!("coups légaux de {from} : {list}{tail}"),
        )
    }

    /// Which pawns of `seat` can move, with one example line.
    pub fn movable_hint(&self, seat: Side) -> String {
        self.movable_hint_in(seat, Lang::En)
    }

    /// [`Castello::movable_hint`] in `lang`.
    pub fn movable_hint_in(&self, seat: Side, lang: Lang) -> String {
        let movable: Vec<Sq> = self
            .pawn_squares(seat)
            .into_iter()
            .filter(|s| !self.moves_of(*s).is_empty())
            .collect();
        let Some(first) = movable.first() else {
            return lang.pick(
                format!("{} has no legal move", colour(seat)),
                format!("{} n'a aucun coup légal", colour_in(seat, lang)),
            );
        };
        let example = self.moves_of(*first)[0].text();
        let names: Vec<String> = movable.iter().take(20).map(|s| s.to_string()).collect();
        let (names, etc) = (
            names.join(" "),
            if movable.len() > 20 { " ..." } else { "" },
        );
        lang.pick(
            format!("write: {example} (your pawns that can move: {names}{etc})"),
            format!("écrivez : {example} (vos pions qui peuvent bouger : {names}{etc})"),
        )
    }
}

/// How to write a move: (English, French).
pub(crate) const GENERAL: [&str; 2] = [
    "write the pawn's square, then each square it stops on: E4-E5 (a step), \
     E4-E6 (a first move of two, or a jump), E4-E2-C2-A2-C4 (jumps)",
    "écrivez la case du pion, puis chaque case où il s'arrête : E4-E5 (une case), \
     E4-E6 (un premier mouvement de deux cases, ou un saut), E4-E2-C2-A2-C4 (des sauts)",
];

/// Why a leg of a written move is not legal: (English, French).
mod why {
    use super::{cell_words, Cell, Lang, Sq};

    pub fn fifth(a: Sq, b: Sq) -> (String, String) {
        (
            format!("a move ends behind the fifth captured pawn (at {a}); it cannot go on to {b}"),
            format!(
                "un coup s'achève derrière le cinquième pion capturé (en {a}) ; il ne peut pas \
                 continuer vers {b}"
            ),
        )
    }
    pub fn twice(b: Sq) -> (String, String) {
        (
            format!("the move lands on {b} twice; a jump sequence never comes back to a square"),
            format!(
                "le coup s'arrête deux fois en {b} ; une suite de sauts ne revient jamais sur \
                 une case"
            ),
        )
    }
    pub fn not_free(b: Sq, c: Cell) -> (String, String) {
        (
            format!(
                "{b} is not free ({}); a pawn only stops on an empty square",
                cell_words(c, Lang::En)
            ),
            format!(
                "{b} n'est pas libre ({}) ; un pion ne s'arrête que sur une case libre",
                cell_words(c, Lang::Fr)
            ),
        )
    }
    pub fn step_chained(a: Sq, b: Sq) -> (String, String) {
        (
            format!("{a}-{b} is a step, and a step is a whole move: only jumps chain"),
            format!(
                "{a}-{b} est un déplacement d'une case, qui fait à lui seul un coup : seuls les \
                 sauts s'enchaînent"
            ),
        )
    }
    pub fn not_a_move(a: Sq, b: Sq) -> (String, String) {
        (
            format!(
                "{a} to {b} is not a move: a pawn goes one square in any of the 8 \
                 directions, two on its first move, or jumps over an adjacent pawn"
            ),
            format!(
                "{a} vers {b} n'est pas un coup : un pion avance d'une case dans l'une des 8 \
                 directions, de deux cases lors de son premier mouvement, ou saute un pion voisin"
            ),
        )
    }
    pub fn over_castle(a: Sq, b: Sq, mid: Sq) -> (String, String) {
        (
            format!("{a}-{b} would jump over the castle on {mid}; a pawn never jumps a castle"),
            format!("{a}-{b} sauterait le château en {mid} ; un pion ne saute jamais un château"),
        )
    }
    pub fn nothing_to_jump(a: Sq, b: Sq, mid: Sq) -> (String, String) {
        (
            format!(
                "{a}-{b}: {mid} is empty, there is no pawn to jump over (a move \
                 of several legs is made of jumps only)"
            ),
            format!(
                "{a}-{b} : {mid} est vide, il n'y a pas de pion à sauter (un coup en plusieurs \
                 étapes n'est fait que de sauts)"
            ),
        )
    }
    pub fn already_moved(from: Sq) -> (String, String) {
        (
            format!(
                "the pawn on {from} has already moved: only a pawn's first move \
                 may go two squares"
            ),
            format!(
                "le pion en {from} a déjà bougé : seul le premier mouvement d'un pion peut aller \
                 de deux cases"
            ),
        )
    }
}

/// Captures first (most first), then board order.
pub fn sorted_for_listing(mut ms: Vec<Move>) -> Vec<Move> {
    ms.sort_by(|a, b| {
        b.captures
            .len()
            .cmp(&a.captures.len())
            .then_with(|| (a.from().col, a.from().row).cmp(&(b.from().col, b.from().row)))
            .then_with(|| a.path.len().cmp(&b.path.len()))
            .then_with(|| a.path.cmp(&b.path))
    });
    ms
}

/// A listing that shows every pawn early: captures first (most first), then one move of
/// each pawn in board order, then a second of each, and so on.
pub fn spread_for_listing(ms: Vec<Move>) -> Vec<Move> {
    let ms = sorted_for_listing(ms);
    let (caps, quiet): (Vec<Move>, Vec<Move>) =
        ms.into_iter().partition(|m| !m.captures.is_empty());
    let mut groups: Vec<Vec<Move>> = Vec::new();
    for m in quiet {
        match groups.last_mut() {
            Some(g) if g[0].from() == m.from() => g.push(m),
            _ => groups.push(vec![m]),
        }
    }
    let mut out = caps;
    let longest = groups.iter().map(Vec::len).max().unwrap_or(0);
    for k in 0..longest {
        for g in &groups {
            if let Some(m) = g.get(k) {
                out.push(m.clone());
            }
        }
    }
    out
}

fn jumps(
    cells: &mut [Cell],
    seat: Side,
    path: &mut Vec<Sq>,
    caps: &mut Vec<Sq>,
    budget: &mut usize,
    out: &mut Vec<Move>,
) {
    if caps.len() >= MAX_CAPTURES {
        return;
    }
    let cur = path[path.len() - 1];
    for &d in &DIRS {
        if *budget == 0 {
            return;
        }
        let (Some(mid), Some(land)) = (cur.step(d, 1), cur.step(d, 2)) else {
            continue;
        };
        let old = cells[mid.idx()];
        let Cell::Pawn { seat: s, .. } = old else {
            continue;
        };
        if cells[land.idx()] != Cell::Empty || path.contains(&land) {
            continue;
        }
        let enemy = s != seat;
        if enemy {
            caps.push(mid);
            cells[mid.idx()] = Cell::Empty;
        }
        path.push(land);
        out.push(Move {
            path: path.clone(),
            captures: caps.clone(),
            kind: Kind::Jump,
        });
        *budget -= 1;
        jumps(cells, seat, path, caps, budget, out);
        path.pop();
        if enemy {
            caps.pop();
            cells[mid.idx()] = old;
        }
    }
}
