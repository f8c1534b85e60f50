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
