//! Hints built from the player's own position: a refused order's "write: ..." names what
//! the player can write now (their own armies, a vacated territory they may take, a port
//! they hold), not the rules' example; the rules' example only when the position offers
//! none. `attack.rs` has the attack's ([`super::attack::attack_hint`]).

use super::*;
use crate::game::{Interrupt, Phase};
use crate::map::{shares_sea, Sea};

/// A hint in both languages.
pub(crate) type Hint = (String, String);

fn write(en: String, fr: String) -> Hint {
    (format!("write: {en}"), format!("écrivez : {fr}"))
}

/// The armies `seat` must place now and where: its castle if it holds it, else its
/// territory of most armies. `None` when it has none to place.
pub(crate) fn place_example(g: &CastleRisk, seat: Seat) -> Option<(u32, T)> {
    let p = &g.players[seat];
    let due = match &g.phase {
        Phase::Place { .. } => p.setup_armies.min(5),
        Phase::Blind { .. } => p.setup_armies,
        Phase::Play if g.current == seat => g.to_place,
        _ => 0,
    };
    if due == 0 {
        return None;
    }
    let mine = |t: T| g.board[t].owner == Some(seat);
    let at = p.castle.filter(|&c| mine(c)).or_else(|| {
        g.board
            .ids()
            .filter(|&t| mine(t))
            .max_by_key(|&t| (g.board[t].armies, std::cmp::Reverse(t)))
    })?;
    Some((due, at))
}

/// "write: PLACE 5 Paris" ([`place_example`]); the rules' example when the seat has
/// nothing to place.
pub(crate) fn place_hint(g: &CastleRisk, seat: Seat) -> Hint {
    match place_example(g, seat) {
        Some((n, t)) => write(
            format!("PLACE {n} {}", tn(t, Lang::En)),
            format!("PLACER {n} {}", tn(t, Lang::Fr)),
        ),
        None => write("PLACE 5 Livonia".into(), "PLACER 5 Livonie".into()),
    }
}

/// The vacated territory `seat` may re-occupy now and the territory its army comes from
/// (`None` for the source: it has no army to spare, and may only PASS). `None` when no
/// re-occupation waits for it.
pub(crate) fn occupy_example(g: &CastleRisk, seat: Seat) -> Option<(T, Option<T>)> {
    let Some(Interrupt::Reoccupy {
        victor,
        vacated,
        castle,
    }) = &g.interrupt
    else {
        return None;
    };
    if *victor != seat {
        return None;
    }
    let t = vacated
        .iter()
        .copied()
        .find(|&t| g.board[t].owner.is_none())?;
    Some((t, g.default_source(seat, Some(*castle))))
}

/// "write: OCCUPY Bohemia FROM Saxony" ([`occupy_example`]), "write: PASS" when the seat
/// has no army to spare; the rules' example when no re-occupation waits for it.
pub(crate) fn occupy_hint(g: &CastleRisk, seat: Seat) -> Hint {
    match occupy_example(g, seat) {
        Some((t, Some(from))) => write(
            format!("OCCUPY {} FROM {}", tn(t, Lang::En), tn(from, Lang::En)),
            format!("OCCUPER {} DEPUIS {}", tn(t, Lang::Fr), tn(from, Lang::Fr)),
        ),
        Some((_, None)) => write("PASS".into(), "PASSER".into()),
        None => (
            "write: OCCUPY Livonia FROM Poland".into(),
            "écrivez : OCCUPER Livonie DEPUIS Pologne".into(),
        ),
    }
}

/// The vacated territory `seat` may annex now and the territory its army comes from (the
/// game's default choice). `None` when it is not its turn to annex, or it has no army to
/// spare.
pub(crate) fn annex_example(g: &CastleRisk, seat: Seat) -> Option<(T, T)> {
    let Some(Interrupt::Annex { vacated, next, .. }) = &g.interrupt else {
        return None;
    };
    if *next != seat || vacated.is_empty() {
        return None;
    }
    let (t, from) = g.default_annex(seat, vacated);
    (g.board[from].owner == Some(seat) && g.board[from].armies >= 2).then_some((t, from))
}

/// "write: ANNEX Bohemia FROM Saxony" ([`annex_example`]); the rules' example when the
/// seat has nothing to annex now.
pub(crate) fn annex_hint(g: &CastleRisk, seat: Seat) -> Hint {
    match annex_example(g, seat) {
        Some((t, from)) => write(
            format!("ANNEX {} FROM {}", tn(t, Lang::En), tn(from, Lang::En)),
            format!("ANNEXER {} DEPUIS {}", tn(t, Lang::Fr), tn(from, Lang::Fr)),
        ),
        None => (
            "write: ANNEX Livonia FROM Poland".into(),
            "écrivez : ANNEXER Livonie DEPUIS Pologne".into(),
        ),
    }
}

/// An Admiral's attack `seat` could write now, as (armies, from, to): every army but one
/// boards at a coastal territory of its own (the first of `from` that can, else the one
/// of most armies) and sails to a coastal territory of a player it has no truce with on
/// the same sea (the first of `to` that can be, else the first). `None` without an
/// Admiral in hand, or with no such crossing.
pub(crate) fn sail_example(
    g: &CastleRisk,
    seat: Seat,
    to: &[T],
    from: &[T],
) -> Option<(u32, T, T)> {
    if !g.hand_has(seat, Card::Admiral) {
        return None;
    }
    let sea = |t: T| map().sea[t];
    let port =
        |f: T| g.board[f].owner == Some(seat) && g.board[f].armies >= 2 && sea(f) != Sea::None;
    let target = |f: T, t: T| {
        sea(t) != Sea::None
            && shares_sea(sea(f), sea(t))
            && g.board[t]
                .owner
                .is_some_and(|o| o != seat && !g.truce_between(seat, o))
    };
    let targets = |f: T| g.board.ids().filter(move |&t| target(f, t));
    let can = |f: &T| port(*f) && targets(*f).next().is_some();
    let from = from.iter().copied().find(can).or_else(|| {
        let mut own: Vec<T> = g.board.ids().filter(can).collect();
        own.sort_by_key(|&f| {
            let near = to.iter().any(|&t| target(f, t));
            (!near, std::cmp::Reverse(g.board[f].armies))
        });
        own.first().copied()
    })?;
    let to = to
        .iter()
        .copied()
        .find(|&t| target(from, t))
        .or_else(|| targets(from).next())?;
    Some((g.board[from].armies - 1, from, to))
}

/// "write: SAIL 5 FROM Brittany TO Naples" ([`sail_example`]); without an Admiral, an
/// attack by land ([`super::attack::attack_hint_now`]); the rules' example when the seat
/// can make neither.
pub(crate) fn sail_hint(g: &CastleRisk, seat: Seat, to: &[T], from: &[T]) -> Hint {
    sail_hint_now(g, seat, to, from).unwrap_or((
        "write: SAIL 6 FROM Marseille TO Naples".into(),
        "écrivez : AMIRAL 6 DEPUIS Marseille VERS Naples".into(),
    ))
}

/// [`sail_hint`] when the seat can make the crossing or, without an Admiral, an attack by
/// land; `None` otherwise (a refusal then keeps its own words).
pub(crate) fn sail_hint_now(g: &CastleRisk, seat: Seat, to: &[T], from: &[T]) -> Option<Hint> {
    if let Some((n, from, to)) = sail_example(g, seat, to, from) {
        return Some(write(
            format!(
                "SAIL {n} FROM {} TO {}",
                tn(from, Lang::En),
                tn(to, Lang::En)
            ),
            format!(
                "AMIRAL {n} DEPUIS {} VERS {}",
                tn(from, Lang::Fr),
                tn(to, Lang::Fr)
            ),
        ));
    }
    if g.hand_has(seat, Card::Admiral) {
        return None;
    }
    let (en, fr) = super::attack::attack_hint_now(g, seat, to, from)?;
    Some((
        format!("without an Admiral, attack by land: {en}"),
        format!("sans Amiral, attaquez par la terre : {fr}"),
    ))
}

/// The territory of `seat`'s unused hidden armies it holds now, to reveal them.
pub(crate) fn reveal_example(g: &CastleRisk, seat: Seat) -> Option<T> {
    g.players[seat]
        .hidden
        .iter()
        .filter(|h| !h.used)
        .map(|h| h.territory)
        .find(|&t| g.board[t].owner == Some(seat))
}

/// "write: REVEAL Naples" ([`reveal_example`]); the rules' example when the seat holds
/// none of its hidden armies' territories.
pub(crate) fn reveal_hint(g: &CastleRisk, seat: Seat) -> Hint {
    match reveal_example(g, seat) {
        Some(t) => write(
            format!("REVEAL {}", tn(t, Lang::En)),
            format!("DÉVOILER {}", tn(t, Lang::Fr)),
        ),
        None => (
            "write: REVEAL Livonia".into(),
            "écrivez : DÉVOILER Livonie".into(),
        ),
    }
}

/// A territory `seat` may put its castle on now: the first free one of its empire.
pub(crate) fn castle_example(g: &CastleRisk, seat: Seat) -> Option<T> {
    let e = g.players[seat].empire;
    map().board.groups[e]
        .members
        .iter()
        .copied()
        .find(|&t| g.board[t].owner.is_none())
}

/// "write: CASTLE Paris" with a territory of the seat's own empire.
pub(crate) fn castle_hint(g: &CastleRisk, seat: Seat) -> Hint {
    match castle_example(g, seat).filter(|_| matches!(g.phase, Phase::Castles { .. })) {
        Some(t) => write(
            format!("CASTLE {}", tn(t, Lang::En)),
            format!("{} {}", kw(Lang::Fr, "CASTLE"), tn(t, Lang::Fr)),
        ),
        None => (
            "write: CASTLE Paris".into(),
            "écrivez : CHÂTEAU Paris".into(),
        ),
    }
}

/// "write: CLAIM Livonia" with a territory nobody holds yet.
pub(crate) fn claim_hint(g: &CastleRisk) -> Hint {
    match g.free_territories().first() {
        Some(&t) if matches!(g.phase, Phase::Claim { .. }) => write(
            format!("CLAIM {}", tn(t, Lang::En)),
            format!("PRENDRE {}", tn(t, Lang::Fr)),
        ),
        _ => (
            "write: CLAIM Livonia".into(),
            "écrivez : PRENDRE Livonie".into(),
        ),
    }
}

/// "write: HIDE Livonia" with a territory of the seat's own that has no castle (hidden
/// armies go anywhere but on a castle; one's own is the one it is sure to hold).
pub(crate) fn hide_hint(g: &CastleRisk, seat: Seat) -> Hint {
    let free = |t: &T| g.castle_owner_at(*t).is_none();
    let t = g
        .board
        .ids()
        .filter(free)
        .find(|&t| g.board[t].owner == Some(seat))
        .or_else(|| g.board.ids().find(free));
    match t {
        Some(t) => write(
            format!("HIDE {}", tn(t, Lang::En)),
            format!("CACHER {}", tn(t, Lang::Fr)),
        ),
        None => (
            "write: HIDE Livonia".into(),
            "écrivez : CACHER Livonie".into(),
        ),
    }
}

/// The first other player still in the game, by name, for TRUCE and SPY hints.
pub(crate) fn other_player(g: &CastleRisk, seat: Seat) -> Option<&str> {
    (0..g.n())
        .filter(|&s| s != seat && g.players[s].alive)
        .map(|s| g.name(s))
        .next()
}
