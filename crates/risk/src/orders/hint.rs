//! Hints built from the player's own position: "write: ATTACK Ontario FROM Quebec" names
//! a territory the player holds and a neighbour they can attack, not the rules' example.

use crate::map::{self, board};
use crate::*;
use castellan_engine::board::TerritoryId;
use castellan_engine::names::NameError;

/// The rules' example, for a seat with no attack to make (the set-up, or none left).
pub(super) const ATTACK_EXAMPLE: (&str, &str) = (
    "write: ATTACK Kamchatka FROM Alaska UNTIL CONQUERED",
    "écrivez : ATTAQUE Kamchatka DEPUIS Alaska JUSQU'À CONQUÊTE",
);

/// The territory named, or those its name error suggests.
pub(super) fn meant(r: &Result<TerritoryId, NameError>) -> Vec<TerritoryId> {
    let names = match r {
        Ok(t) => return vec![*t],
        Err(NameError::Unknown { suggestions, .. }) => suggestions,
        Err(NameError::Ambiguous { candidates, .. }) => candidates,
    };
    names
        .iter()
        .filter_map(|n| board().resolve(n).ok())
        .collect()
}

/// An attack `seat` could write now: from the first of `from` (the territory named, or what
/// a misspelt name may have meant) the seat holds, else from its territory next to one of
/// `to`, else of most armies (ties: the first), with a neighbour another holds (a player or
/// the neutral armies); on the first of `to` that is such a neighbour, else on its first.
/// `None` when the seat has no such territory.
pub(crate) fn attack_example(
    s: &Risk,
    seat: Seat,
    to: &[TerritoryId],
    from: &[TerritoryId],
) -> Option<(TerritoryId, TerritoryId)> {
    let b = board();
    let foe = |t: TerritoryId| {
        matches!(s.board[t].owner, Owner::Seat(o) if o != seat)
            || s.board[t].owner == Owner::Neutral
    };
    let targets = |f: TerritoryId| b.neighbors(f).filter(move |&n| foe(n));
    let can =
        |f: &TerritoryId| s.board[*f].owner == Owner::Seat(seat) && targets(*f).next().is_some();
    let from = from.iter().copied().find(can).or_else(|| {
        let mut own: Vec<TerritoryId> = (0..s.board.len()).filter(can).collect();
        own.sort_by_key(|&f| {
            let near = to.iter().any(|&t| foe(t) && b.adjacent(f, t));
            (!near, std::cmp::Reverse(s.board[f].armies))
        });
        own.first().copied()
    })?;
    let to = to
        .iter()
        .copied()
        .find(|&t| foe(t) && b.adjacent(from, t))
        .or_else(|| targets(from).next())?;
    Some((to, from))
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
