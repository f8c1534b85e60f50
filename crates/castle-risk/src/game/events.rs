//! What happens in the game, as typed data: the events a history entry holds. They carry
//! seats, territories, cards and counts, never a sentence: narration words them in the
//! reader's language (narrate/). Events stored as English sentences by older builds are
//! converted as a stored game is read (stored.rs).

use super::{SetOrder, T};
use crate::cards::Card;
use crate::map::{EMPIRE_BONUS, INDEPENDENTS_BONUS, TOKEN_BONUS};
use castellan_engine::Seat;
use serde::{Deserialize, Serialize};

/// What the game waits for out of turn.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Awaited {
    /// The defender's answer to an attack on this territory.
    Defence(T),
    /// The Spy's target: counter the Spy or not.
    CounterSpy,
}

/// One part of a player's end-of-turn earnings.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Earning {
    /// A whole empire (its group on the map).
    Empire(usize),
    /// Every independent territory.
    Independents,
    /// Castle tokens captured from other players (one's own not counted).
    Tokens(u32),
}

impl Earning {
    /// The armies this part earns.
    pub fn armies(self) -> u32 {
        match self {
            Earning::Empire(_) => EMPIRE_BONUS,
            Earning::Independents => INDEPENDENTS_BONUS,
            Earning::Tokens(k) => TOKEN_BONUS * k,
        }
    }
}

/// Why the game ended.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum EndReason {
    /// The victor holds every castle token (or is the last player in).
    Tokens(Seat),
    /// The turn limit was reached after `turns` turns; the leader by territories wins.
    TurnLimit { turns: u32, leader: Option<Seat> },
    /// A dead position after `turns` turns, decided by territories then armies: each
    /// player still in with their territories and armies, best first.
    Stalemate {
        turns: u32,
        standings: Vec<(Seat, usize, u64)>,
    },
}

/// How armies came onto the board (for the ledger and narration).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum PlaceWhy {
    Setup,
    Reinforcements,
    Earnings,
}

#[derive(Clone, Debug, Serialize, Deserialize)]
pub enum Event {
    TokensDrawn {
        first: Seat,
        tokens: Vec<(Seat, usize)>,
    },
    CastlePlaced {
        seat: Seat,
        t: T,
    },
    Claimed {
        seat: Seat,
        t: T,
    },
    RankSent {
        seat: Seat,
        list: Vec<T>,
    },
    Drafted {
        picks: Vec<(Seat, T)>,
    },
    Dealt {
        picks: Vec<(Seat, T)>,
    },
    Placed {
        seat: Seat,
        placements: Vec<(T, u32)>,
        why: PlaceWhy,
    },
    BlindSent {
        seat: Seat,
        placements: Vec<(T, u32)>,
    },
    HiddenCommitted {
        seat: Seat,
        t: T,
        commitment: String,
    },
    CardsDealt {
        seat: Seat,
        cards: Vec<Card>,
    },
    FirstPlayer {
        seat: Seat,
    },
    TurnBegins {
        seat: Seat,
        number: u32,
    },
    Drew {
        seat: Seat,
        cards: Vec<Card>,
    },
    DiplomatReplaced {
        seat: Seat,
    },
    DiplomatsPurged {
        seat: Seat,
        count: usize,
    },
    TwoPlayerRule,
    Reinforced {
        seat: Seat,
        cards: u32,
        armies: u32,
        track: u32,
    },
    TruceMade {
        by: Seat,
        with: Seat,
    },
    SpyPlayed {
        seat: Seat,
        target: Seat,
    },
    SpyCountered {
        seat: Seat,
        target: Seat,
    },
    SpySaw {
        seat: Seat,
        target: Seat,
        hand: Vec<Card>,
    },
    SpyDiscarded {
        seat: Seat,
        target: Seat,
        card: Option<Card>,
    },
    HiddenRevealed {
        seat: Seat,
        t: T,
        armies: u32,
        salt: String,
        commitment: String,
    },
    /// The game waits for `seat`'s answer out of turn (ask mode).
    Waiting {
        seat: Seat,
        what: Awaited,
    },
    AttackDeclared {
        seat: Seat,
        from: T,
        to: T,
        ship: Option<u32>,
    },
    GeneralEngaged {
        seat: Seat,
    },
    MarshalEngaged {
        seat: Seat,
    },
    Battle {
        from: T,
        to: T,
        attacker: Vec<u8>,
        defender: Vec<u8>,
        general: bool,
        marshal: bool,
        attacker_losses: u32,
        defender_losses: u32,
        /// The attacker and the defender (kept since the narration names the loser; absent
        /// from older builds' battles).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        seats: Option<(Seat, Seat)>,
    },
    GeneralLost {
        seat: Seat,
    },
    /// An attack line asked for more dice than its armies now allow (they fell in battle):
    /// the report says so.
    DiceFewer {
        from: T,
        asked: u32,
        rolled: u32,
        armies: u32,
        ship: bool,
    },
    MarshalLost {
        seat: Seat,
    },
    AttackStopped {
        from: T,
        to: T,
        left: u32,
        defenders: u32,
    },
    Conquered {
        seat: Seat,
        from: T,
        to: T,
        moved: u32,
        by_sea: bool,
    },
    AdmiralLost {
        seat: Seat,
        to: T,
    },
    AdmiralBack {
        seat: Seat,
    },
    CastleCaptured {
        victor: Seat,
        loser: Seat,
        t: T,
    },
    Eliminated {
        seat: Seat,
        by: Seat,
        armies_removed: u32,
        tokens: Vec<usize>,
        cards: Vec<Card>,
        hidden_taken: usize,
    },
    Reoccupied {
        seat: Seat,
        t: T,
        from: T,
    },
    Annexed {
        seat: Seat,
        t: T,
        from: Option<T>,
    },
    StandingSet {
        seat: Seat,
        order: SetOrder,
    },
    TurnEnds {
        seat: Seat,
        earnings: u32,
        /// What the earnings are made of, in the order they are told.
        detail: Vec<Earning>,
    },
    CardReturned {
        seat: Seat,
        card: Card,
    },
    GameOver {
        winners: Vec<Seat>,
        reason: EndReason,
    },
}
