//! The house bot: one move deep with a look at the opponent's replies. It prefers taking
//! castles and pawns, avoids leaving pawns to be jumped or a castle to be closed, and
//! walks its pawns towards the castles it may take.

use crate::geom::{Sq, DIRS, ORTHO};
use crate::moves::Move;
use crate::Side;
use crate::{Castello, Cell, Order, CASTLES_TO_WIN};
use castellan_engine::BotRng;

const PAWN: i64 = 100;
const CASTLE: i64 = 1500;
/// Value of having 0, 1 or 2 pawns around a castle one may still close.
const PRESSURE: [i64; 4] = [0, 12, 40, 40];

/// The bot's order for `me`. Always a legal move when `me` is to move and has one.
pub fn choose(g: &Castello, me: Side, rng: &mut BotRng) -> Order {
    let moves = g.legal_moves(me);
    if moves.is_empty() || g.result.is_some() || g.to_move != me {
        return match moves.first() {
            Some(m) => Order::Move(m.path.clone()),
            None => Order::Resign,
        };
    }
    let mut best: Option<(i64, &Move)> = None;
    for m in &moves {
        let s = score(g, me, m) * 8 + rng.below(8) as i64;
        if best.is_none_or(|(b, _)| s > b) {
            best = Some((s, m));
        }
    }
    match best {
        Some((_, m)) => Order::Move(m.path.clone()),
        None => Order::Resign,
    }
}

fn material(g: &Castello, me: Side) -> i64 {
    let op = me.other();
    (g.pawns_taken(me) as i64 - g.pawns_taken(op) as i64) * PAWN
        + (g.castle_count(me) as i64 - g.castle_count(op) as i64) * CASTLE
}

/// How `me` stands after playing `m` (higher is better).
pub fn score(g: &Castello, me: Side, m: &Move) -> i64 {
    let op = me.other();
    let mut h = g.clone();
    h.play(me, m);
    if let Some(end) = h.result {
        return match end.winners().first() {
            Some(w) if *w == me.seat() => 1_000_000,
            Some(_) => -1_000_000,
            None => 0,
        };
    }
    let mut s = material(&h, me);
    // Castle pressure, ours and theirs.
    for c in h.castles.iter().filter(|c| c.taken_by.is_none()) {
        let empty = empty_neighbours(&h, c.sq);
        if c.home != Some(me) {
            let n = h.surround(c.sq, me);
            if n + empty >= 3 {
                let w = PRESSURE[n.min(3)];
                s += if h.may_take(c, me) { w } else { w / 3 };
            }
        }
        if c.home != Some(op) && h.may_take(c, op) {
            let n = h.surround(c.sq, op);
            if n + empty >= 3 {
                s -= PRESSURE[n.min(3)] / 2;
            }
        }
    }
    // The opponent's best reply: pawns jumped, castles closed.
    let (caps, castle) = threats(&h, op);
    s -= caps as i64 * PAWN * 9 / 10;
    if castle {
        let near_win = h.castle_count(op) + 1 >= CASTLES_TO_WIN;
        s -= if near_win { 500_000 } else { CASTLE * 9 / 10 };
    }
    // Walk towards a castle one may take.
    let before = target_distance(g, me, m.from());
    let after = target_distance(&h, me, m.to());
    s += (before as i64 - after as i64) * 6;
    s
}

fn empty_neighbours(g: &Castello, c: Sq) -> usize {
    ORTHO
        .iter()
        .filter_map(|d| c.step(*d, 1))
        .filter(|s| g.cell(*s) == Cell::Empty)
        .count()
}

/// Distance from `from` to the nearest empty orthogonal neighbour of a castle `me` may
/// take (or will be allowed to take later).
fn target_distance(g: &Castello, me: Side, from: Sq) -> u32 {
    let mut best = 40;
    for c in g
        .castles
        .iter()
        .filter(|c| c.taken_by.is_none() && c.home != Some(me))
    {
        let penalty = if g.may_take(c, me) { 0 } else { 4 };
        for t in ORTHO.iter().filter_map(|d| c.sq.step(*d, 1)) {
            if g.cell(t) == Cell::Empty || t == from {
                best = best.min(from.dist(t) + penalty);
            }
        }
    }
    best
}

/// The most pawns `seat` can take in one move, and whether it can close a castle.
pub fn threats(g: &Castello, seat: Side) -> (usize, bool) {
    let mut caps = 0;
    // A capture needs a jump over an enemy pawn: first the pawns that have one now (their
    // chains searched deeply), then chains that start over own pawns (searched briefly).
    let direct = |i: usize| {
        let p = Sq::from_idx(i);
        DIRS.iter().any(|&d| {
            matches!((p.step(d, 1), p.step(d, 2)), (Some(a), Some(b))
                if matches!(g.cell(a), Cell::Pawn { seat: s, .. } if s != seat)
                    && g.cell(b) == Cell::Empty)
        })
    };
    let mine = |c: Cell| matches!(c, Cell::Pawn { seat: s, .. } if s == seat);
    let mut cells = g.cells.clone();
    let mut any_direct = false;
    for pass in 0..2 {
        for i in 0..cells.len() {
            if !mine(cells[i]) || direct(i) != (pass == 0) {
                continue;
            }
            any_direct = true;
            let p = Sq::from_idx(i);
            let pawn = cells[i];
            cells[i] = Cell::Empty;
            let mut path = vec![p];
            let mut budget = if pass == 0 { 2000 } else { 10 };
            caps = caps.max(max_caps(&mut cells, seat, &mut path, 0, &mut budget));
            cells[i] = pawn;
            if caps >= crate::MAX_CAPTURES {
                break;
            }
        }
        if !any_direct {
            break;
        }
    }
    let mut castle = false;
    for c in g.castles.iter().filter(|c| c.taken_by.is_none()) {
        if !g.may_take(c, seat) || g.surround(c.sq, seat) != 2 {
            continue;
        }
        let ring: Vec<Sq> = ORTHO.iter().filter_map(|d| c.sq.step(*d, 1)).collect();
        for e in ring.iter().filter(|e| g.cell(**e) == Cell::Empty) {
            let reach = DIRS.iter().any(|&d| {
                let near = e.step(d, 1);
                let one = near.is_some_and(|p| {
                    !ring.contains(&p)
                        && matches!(g.cell(p), Cell::Pawn { seat: s, .. } if s == seat)
                });
                let two = e.step(d, 2).is_some_and(|p| {
                    !ring.contains(&p)
                        && matches!(g.cell(p), Cell::Pawn { seat: s, moved: false } if s == seat)
                        && near.is_some_and(|n| g.cell(n) == Cell::Empty)
                });
                one || two
            });
            if reach {
                castle = true;
            }
        }
    }
    (caps, castle)
}

/// The most enemy pawns a jump chain from the end of `path` can still take (on a scratch
/// board it restores).
fn max_caps(
    cells: &mut [Cell],
    seat: Side,
    path: &mut Vec<Sq>,
    taken: usize,
    budget: &mut u32,
) -> usize {
    if taken >= crate::MAX_CAPTURES || *budget == 0 {
        return taken;
    }
    let mut best = taken;
    let cur = path[path.len() - 1];
    for &d in &DIRS {
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
            cells[mid.idx()] = Cell::Empty;
        }
        *budget = budget.saturating_sub(1);
        path.push(land);
        best = best.max(max_caps(
            cells,
            seat,
            path,
            taken + usize::from(enemy),
            budget,
        ));
        path.pop();
        cells[mid.idx()] = old;
        if best >= crate::MAX_CAPTURES {
            break;
        }
    }
    best
}
