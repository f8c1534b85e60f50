//! The published starting position, loaded from `data/board.yaml` (a copy of
//! `shared/research/castello.yaml`: Ludii's Castello.lud after Boutin, *Le Livre des Jeux de
//! Pions* p. 41, cross-checked with Sackson's 1972 diary).

use crate::geom::{Sq, COLS, ROWS};
use crate::Side;
use serde::Deserialize;

/// The board file, embedded at compile time (no I/O at run time).
pub const BOARD_YAML: &str = include_str!("../data/board.yaml");

#[derive(Deserialize)]
struct File {
    board: Dims,
    sections: Sections,
    castles: Castles,
    diagram: String,
}

#[derive(Deserialize)]
struct Dims {
    columns: usize,
    rows: usize,
}

#[derive(Deserialize)]
struct Sections {
    red_home: Section,
    central: Section,
    black_home: Section,
}

#[derive(Deserialize)]
struct Section {
    col_index: [usize; 2],
}

#[derive(Deserialize)]
struct Castles {
    red_home: Vec<String>,
    central: Vec<String>,
    black_home: Vec<String>,
    centre_castle: String,
}

/// What a square holds at the start.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Start {
    Empty,
    Pawn(Side),
    Castle,
}

/// A castle's place and section.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CastleSpec {
    pub sq: Sq,
    /// The seat whose home section holds it (0 red, 1 black); `None` in the central section.
    pub home: Option<Side>,
    /// The middle castle of the central section.
    pub centre: bool,
}

/// The starting position.
#[derive(Clone, Debug)]
pub struct Layout {
    /// Cell by [`Sq::idx`].
    pub cells: Vec<Start>,
    pub castles: Vec<CastleSpec>,
}

fn squares(list: &[String]) -> Result<Vec<Sq>, String> {
    list.iter()
        .map(|s| Sq::parse(s).ok_or_else(|| format!("bad square {s} in board.yaml")))
        .collect()
}

/// Parse a board file (the embedded one is [`BOARD_YAML`]).
pub fn parse(yaml: &str) -> Result<Layout, String> {
    let f: File = serde_yaml::from_str(yaml).map_err(|e| format!("board.yaml: {e}"))?;
    if f.board.columns != COLS || f.board.rows != ROWS {
        return Err(format!(
            "board.yaml: the board is {}x{}, this build plays {COLS}x{ROWS}",
            f.board.columns, f.board.rows
        ));
    }
    let in_section = |s: &Section, col: usize| (s.col_index[0]..=s.col_index[1]).contains(&col);
    let mut cells = vec![Start::Empty; COLS * ROWS];
    let mut seen_rows = 0;
    for line in f.diagram.lines() {
        let line = line.trim();
        let Some((num, rest)) = line.split_once(' ') else {
            continue;
        };
        let Ok(row) = num.parse::<usize>() else {
            continue;
        };
        let marks: Vec<char> = rest.trim().chars().filter(|c| *c != '|').collect();
        if marks.len() != COLS || !(1..=ROWS).contains(&row) {
            return Err(format!("board.yaml: diagram row {row} is malformed"));
        }
        for (c, m) in marks.iter().enumerate() {
            let s = Sq::new(c as i32, row as i32 - 1).ok_or("diagram square off board")?;
            cells[s.idx()] = match m {
                '.' => Start::Empty,
                'R' => Start::Pawn(Side::Red),
                'B' => Start::Pawn(Side::Black),
                '#' => Start::Castle,
                _ => return Err(format!("board.yaml: unknown mark {m} in row {row}")),
            };
        }
        seen_rows += 1;
    }
    if seen_rows != ROWS {
        return Err(format!("board.yaml: diagram has {seen_rows} rows"));
    }
    let centre = Sq::parse(&f.castles.centre_castle).ok_or("board.yaml: bad centre castle")?;
    let mut castles = Vec::new();
    for (list, home, section) in [
        (&f.castles.red_home, Some(Side::Red), &f.sections.red_home),
        (&f.castles.central, None, &f.sections.central),
        (
            &f.castles.black_home,
            Some(Side::Black),
            &f.sections.black_home,
        ),
    ] {
        for s in squares(list)? {
            if !in_section(section, s.col as usize + 1) {
                return Err(format!("board.yaml: castle {s} is outside its section"));
            }
            if cells[s.idx()] != Start::Castle {
                return Err(format!("board.yaml: castle {s} is not in the diagram"));
            }
            castles.push(CastleSpec {
                sq: s,
                home,
                centre: s == centre,
            });
        }
    }
    let in_diagram = cells.iter().filter(|c| **c == Start::Castle).count();
    if in_diagram != castles.len() || !castles.iter().any(|c| c.centre) {
        return Err("board.yaml: castle lists and diagram disagree".into());
    }
    castles.sort_by_key(|c| (c.sq.col, c.sq.row));
    Ok(Layout { cells, castles })
}

/// The published starting position.
pub fn published() -> Result<Layout, String> {
    parse(BOARD_YAML)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::geom::sq;

    /// Seed §Équipement: "71 pièces dont 30 pions rouges, 30 pions noirs et 11 châteaux",
    /// "un tablier rectangulaire de 315 cases (21 × 15)", three sections.
    #[test]
    fn published_layout_matches_the_equipment() {
        let l = published().unwrap();
        assert_eq!(l.cells.len(), 315);
        let count = |x: Start| l.cells.iter().filter(|c| **c == x).count();
        assert_eq!(count(Start::Pawn(Side::Red)), 30);
        assert_eq!(count(Start::Pawn(Side::Black)), 30);
        assert_eq!(count(Start::Castle), 11);
        assert_eq!(l.castles.len(), 11);
        let homes = |h| l.castles.iter().filter(|c| c.home == h).count();
        assert_eq!(
            (
                homes(Some(Side::Red)),
                homes(None),
                homes(Some(Side::Black))
            ),
            (4, 3, 4)
        );
        assert_eq!(l.castles.iter().find(|c| c.centre).unwrap().sq, sq("K8"));
        assert_eq!(l.cells[sq("A1").idx()], Start::Pawn(Side::Red));
        assert_eq!(l.cells[sq("B15").idx()], Start::Pawn(Side::Red));
        assert_eq!(l.cells[sq("U15").idx()], Start::Pawn(Side::Black));
        assert_eq!(l.cells[sq("C1").idx()], Start::Empty);
    }

    #[test]
    fn a_broken_file_is_refused() {
        assert!(parse("board: {columns: 20, rows: 15}").is_err());
        let bad = BOARD_YAML.replace("RR....#|", "RR.....|");
        assert!(parse(&bad).is_err());
    }
}
