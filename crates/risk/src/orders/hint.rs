//! Hints built from the player's own position: "write: ATTACK Ontario FROM Quebec" names
//! a territory the player holds and a neighbour they can attack, not the rules' example.

use crate::map::{self, board};
use crate::*;
use castellan_engine::board::TerritoryId;

/// The rules' example, for a seat with no attack to make (the set-up, or none left).
pub(super) const ATTACK_EXAMPLE: (&str, &str) = (
    "write: ATTACK Kamchatka FROM Alaska UNTIL CONQUERED",
    "écrivez : ATTAQUE Kamchatka DEPUIS Alaska JUSQU'À CONQUÊTE",
);

/// An attack `seat` could write now, for a hint ([`castellan_engine::board::Board::attack_example`]):
/// on a territory another holds (a player or the neutral armies).
pub(crate) fn attack_example(
    s: &Risk,
    seat: Seat,
    to: &[TerritoryId],
    from: &[TerritoryId],
) -> Option<(TerritoryId, TerritoryId)> {
    board().attack_example(
        to,
        from,
        |t| s.board[t].owner == Owner::Seat(seat),
        |t| {
            matches!(s.board[t].owner, Owner::Seat(o) if o != seat)
                || s.board[t].owner == Owner::Neutral
        },
        |t| s.board[t].armies,
    )
}

/// "write: ATTACK Ontario FROM Quebec UNTIL CONQUERED" with an attack the seat can make
/// ([`attack_example`]), in English and French; the rules' example when it has none.
pub(crate) fn attack_hint(
    s: &Risk,
    seat: Seat,
    to: &[TerritoryId],
    from: &[TerritoryId],
) -> (String, String) {
    match attack_example(s, seat, to, from) {
        Some((to, from)) => (
            format!(
                "write: ATTACK {} FROM {} UNTIL CONQUERED",
                map::name_in(to, Lang::En),
                map::name_in(from, Lang::En)
            ),
            format!(
                "écrivez : ATTAQUE {} DEPUIS {} JUSQU'À CONQUÊTE",
                map::name_in(to, Lang::Fr),
                map::name_in(from, Lang::Fr)
            ),
        ),
        None => (ATTACK_EXAMPLE.0.into(), ATTACK_EXAMPLE.1.into()),
    }
}

/// The armies `seat` places now: its reinforcements in its turn, else its setup armies
/// due; 0 when it places none.
fn place_due(s: &Risk, seat: Seat) -> u32 {
    match s.phase {
        Phase::Play if s.to_move == seat && s.turn_state.stage == Stage::Reinforce => {
            s.turn_state.reinforcements
        }
        Phase::Place | Phase::BlindPlace => s.placement_due(seat).0,
        _ => 0,
    }
}

/// "write: PLACE 3 Alaska" with the armies `seat` places now on a territory of its own
/// with room for them ([`Risk::place_hint`]); `fixed` when it places none now.
pub(crate) fn place_hint(s: &Risk, seat: Seat, fixed: (&str, &str)) -> (String, String) {
    match place_due(s, seat) {
        0 => (fixed.0.into(), fixed.1.into()),
        n => (
            s.place_hint(seat, n, Lang::En),
            s.place_hint(seat, n, Lang::Fr),
        ),
    }
}

/// A move `seat` could write now, as (armies, from, to): every army but one from a
/// territory of its own (the first of `from` that can, else the one of most armies) to
/// one of its own it borders (or, with free fortification, that a chain of its own joins)
/// with room (the first of `to` that can be, else the first). `None` when it has none.
pub(crate) fn fortify_example(
    s: &Risk,
    seat: Seat,
    to: &[TerritoryId],
    from: &[TerritoryId],
) -> Option<(u32, TerritoryId, TerritoryId)> {
    let reach = |f: TerritoryId, t: TerritoryId| {
        f != t
            && s.owns(seat, t)
            && s.room(t) >= 1
            && if s.opts.free_fortify {
                s.connected(seat, f, t)
            } else {
                board().adjacent(f, t)
            }
    };
    let targets = |f: TerritoryId| (0..s.board.len()).filter(move |&t| reach(f, t));
    let can = |f: &TerritoryId| {
        s.owns(seat, *f) && s.board[*f].armies >= 2 && targets(*f).next().is_some()
    };
    let from = from.iter().copied().find(can).or_else(|| {
        (0..s.board.len())
            .filter(can)
            .max_by_key(|&f| (s.board[f].armies, std::cmp::Reverse(f)))
    })?;
    let to = to
        .iter()
        .copied()
        .find(|&t| reach(from, t))
        .or_else(|| targets(from).next())?;
    let n = (s.board[from].armies - 1).min(s.room(to));
    Some((n, from, to))
}

/// "write: FORTIFY 3 FROM Ontario TO Quebec" ([`fortify_example`]), in English and French;
/// the rules' example when the seat has no move to make.
pub(crate) fn fortify_hint(
    s: &Risk,
    seat: Seat,
    to: &[TerritoryId],
    from: &[TerritoryId],
) -> (String, String) {
    fortify_hint_now(s, seat, to, from).unwrap_or((
        "write: FORTIFY 3 FROM Ontario TO Quebec".into(),
        "écrivez : FORTIFIE 3 DEPUIS Ontario VERS Québec".into(),
    ))
}

/// [`fortify_hint`] when the seat has a move to make, `None` otherwise.
pub(crate) fn fortify_hint_now(
    s: &Risk,
    seat: Seat,
    to: &[TerritoryId],
    from: &[TerritoryId],
) -> Option<(String, String)> {
    let (armies, from, to) = fortify_example(s, seat, to, from)?;
    let o = Order::Fortify { from, to, armies };
    Some((
        castellan_engine::words::write(Lang::En, &super::text_in(&o, Lang::En)),
        castellan_engine::words::write(Lang::Fr, &super::text_in(&o, Lang::Fr)),
    ))
}

/// "write: CLAIM Alaska" with a territory nobody holds yet; "write: HQ Alaska" with one
/// of the seat's own: `fixed` when there is none.
pub(crate) fn territory_hint(
    s: &Risk,
    seat: Seat,
    order: (&str, &str),
    fixed: (&str, &str),
) -> (String, String) {
    let t = match order.0 {
        "CLAIM" => (0..s.board.len()).find(|&t| s.board[t].owner == Owner::Nobody),
        _ => s.owned(seat).first().copied(),
    };
    match t {
        Some(t) => (
            format!("write: {} {}", order.0, map::name_in(t, Lang::En)),
            format!("écrivez : {} {}", order.1, map::name_in(t, Lang::Fr)),
        ),
        None => (fixed.0.into(), fixed.1.into()),
    }
}

/// "write: TRADE Alaska, Peru, WILD" with a set `seat` holds ([`Risk::trade_hint`]); the
/// rules' example when it holds none.
pub(crate) fn trade_hint(s: &Risk, seat: Seat) -> (String, String) {
    let held = |t: usize| s.owns(seat, t);
    if crate::cards::sets_in(&s.players[seat].hand, &held).is_empty() {
        return (
            "write: TRADE Alaska, Peru, WILD".into(),
            "écrivez : ÉCHANGE Alaska, Pérou, PASSE-PARTOUT".into(),
        );
    }
    (s.trade_hint(seat, Lang::En), s.trade_hint(seat, Lang::Fr))
}

/// An order `seat` can write now in its turn: its set to trade when it must, its armies to
/// place, an attack, a move, else END.
pub(crate) fn play_hint(s: &Risk, seat: Seat) -> (String, String) {
    let ts = &s.turn_state;
    let end = || ("write: END".to_string(), "écrivez : FIN".to_string());
    if s.to_move != seat {
        return end();
    }
    match ts.stage {
        Stage::Reinforce if s.players[seat].hand.len() >= 5 => trade_hint(s, seat),
        Stage::Reinforce if ts.reinforcements > 0 => place_hint(s, seat, end_pair()),
        Stage::Reinforce => end(),
        Stage::Attack => attack_example(s, seat, &[], &[])
            .map(|_| attack_hint(s, seat, &[], &[]))
            .or_else(|| fortify_hint_now(s, seat, &[], &[]))
            .unwrap_or_else(end),
        Stage::Fortify => fortify_hint_now(s, seat, &[], &[]).unwrap_or_else(end),
    }
}

fn end_pair() -> (&'static str, &'static str) {
    ("write: END", "écrivez : FIN")
}
