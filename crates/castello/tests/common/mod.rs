#![allow(dead_code)]
use castellan_castello::{sq, Castello, Options, Side};

/// The published castles.
pub const CASTLES: [&str; 11] = [
    "G2", "F6", "G10", "F14", "K3", "K8", "K13", "P2", "O6", "P10", "O14",
];

/// A position: the published castles plus `pieces` ('R'/'r' red not moved / moved,
/// 'B'/'b' black, '.' to clear a square).
pub fn pos_with(pieces: &[(&str, char)], to_move: Side, o: &Options) -> Castello {
    let mut grid = [['.'; 21]; 15];
    for c in CASTLES {
        let s = sq(c);
        grid[s.row as usize][s.col as usize] = '#';
    }
    for (s, c) in pieces {
        let s = sq(s);
        grid[s.row as usize][s.col as usize] = *c;
    }
    let rows: Vec<String> = (0..15).rev().map(|r| grid[r].iter().collect()).collect();
    let refs: Vec<&str> = rows.iter().map(String::as_str).collect();
    Castello::from_diagram(&refs, to_move, o).unwrap()
}
