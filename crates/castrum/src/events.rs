//! What happens, typed: the history's events, the standing orders and the end of a game.
//! Words are the narration's (`narrate.rs`); a game stored by an older build is read into
//! these types on load (`stored.rs`).

use crate::{Card, DefendPolicy, Happening, Order, Piece};
use castellan_engine::Seat;
use serde::{Deserialize, Serialize};

/// Everything that happens, for the history and the reports.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Event {
    /// Each player's die for who starts, and the winner of the roll.
    FirstPlayer {
        rolls: Vec<Vec<(Seat, u8)>>,
        seat: Seat,
    },
    /// Cards dealt or drawn (private to `seat`; the public learns only how many).
    Drew {
        seat: Seat,
        cards: Vec<Card>,
    },
    /// The pile ran out: the cards under it were shuffled into a new pile.
    Reshuffled {
        cards: usize,
    },
    TurnBegins {
        seat: Seat,
        round: u32,
    },
    /// A Mage leaves the site it blocked (its caster's turn came).
    MageLeaves {
        caster: Seat,
        victim: Seat,
    },
    Placed {
        seat: Seat,
        card: Card,
    },
    Wheel {
        seat: Seat,
    },
    Attacked {
        attacker: Seat,
        victim: Seat,
        card: Card,
        aim: Option<Card>,
    },
    Defended {
        victim: Seat,
        defence: Card,
        attack: Card,
    },
    /// Incendie, family: one die per site card, even = lost.
    FireDie {
        victim: Seat,
        card: Card,
        die: u8,
        lost: bool,
    },
    /// Incendie, expert: cards in lots of three, one taken from each full lot.
    FireLots {
        victim: Seat,
        lots: usize,
        lost: Vec<Card>,
    },
    Witch {
        victim: Seat,
        card: Card,
        die: Option<u8>,
        destroyed: bool,
    },
    Stolen {
        attacker: Seat,
        victim: Seat,
    },
    Blocked {
        caster: Seat,
        victim: Seat,
    },
    Built {
        seat: Seat,
        piece: Piece,
        used: Vec<Card>,
        walls: u8,
        towers: u8,
    },
    Exchanged {
        seat: Seat,
        card: Card,
    },
    /// An EXCHANGE found fewer than two simple cards in the pile: the x2 card stays on the
    /// site (rules revision 2).
    ExchangeFailed {
        seat: Seat,
        card: Card,
    },
    /// Discarded (face down: private to `seat`; the public learns how many).
    Discarded {
        seat: Seat,
        cards: Vec<Card>,
    },
    TurnEnds {
        seat: Seat,
    },
    EventDie {
        round: u32,
        die: u8,
        happening: Happening,
    },
    Plague {
        seat: Seat,
        lost: Vec<Card>,
    },
    Gave {
        seat: Seat,
        card: Card,
    },
    /// Feast of fools: `seat` now holds these cards (private), passed by `from`.
    Received {
        seat: Seat,
        from: Seat,
        cards: Vec<Card>,
    },
    HandsPassed,
    /// A standing answer set (SET DEFEND, SET WORKS). Games stored before it was typed
    /// hold the order's English line, read once on load (`stored.rs`).
    StandingSet {
        seat: Seat,
        #[serde(alias = "text", deserialize_with = "crate::stored::standing")]
        standing: Standing,
    },
    /// Final scores (timed game, or a classic game at the round limit).
    Scores {
        points: Vec<u32>,
    },
    /// The game is over. Games stored before the end was typed hold its reason as
    /// English and French text, read once on load (`stored.rs`).
    Won {
        winners: Vec<Seat>,
        #[serde(alias = "reason", deserialize_with = "crate::stored::end")]
        end: End,
    },
}

/// A standing answer to attacks or to "for the works", as SET sets it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Standing {
    Defend(DefendPolicy),
    /// The first of these cards on my site (empty: ask me).
    Works(Vec<Card>),
}

impl Standing {
    /// The SET order that sets it.
    pub fn order(&self) -> Order {
        match self {
            Standing::Defend(p) => Order::SetDefend(*p),
            Standing::Works(v) => Order::SetWorks(v.clone()),
        }
    }
}

/// Why a game of Castrum is over (its words: `narrate::end_reason`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum End {
    /// The winner completed a castle of 4 walls and a tower.
    Castle,
    /// A timed game's `rounds` are over; the winners have `points` each.
    RoundsOver { rounds: u32, points: u32 },
    /// A classic game reached the round limit (`rounds`) with no castle complete; the
    /// winners have `points` each.
    RoundLimit { rounds: u32, points: u32 },
}

/// The end of a game: who won, and why.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Finish {
    pub winners: Vec<Seat>,
    /// Games stored before the end was typed hold the engine's outcome (its reason in
    /// English and French), read once on load (`stored.rs`).
    #[serde(alias = "reason", deserialize_with = "crate::stored::end")]
    pub end: End,
}
