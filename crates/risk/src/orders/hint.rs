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
