//! What happens in a game, as typed facts: who, where, how many, which way. The words
//! are the narration's (narrate.rs), in each reader's language.

use crate::cards::Card;
use crate::{Owner, Placements, Policy};
use castellan_engine::board::TerritoryId;
use castellan_engine::{Seat, Secret};
use serde::{Deserialize, Serialize};

/// How the territories were shared out at the start.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Allotment {
    /// The 2-player game: the territory cards dealt into three piles (two seats, neutral).
    Piles,
    /// Dealt round-robin with public dice (`claim=random`).
    Random,
    /// Drafted round-robin from the ranked lists (`claim=draft`).
    Draft,
}

/// Why the game ended with its winners.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum WinReason {
    /// The 2-player game: the opponent is out.
    Opponent,
    /// Every opponent is out: the winner holds all 42 territories.
    World,
    /// The headquarters game: this many enemy headquarters held, and one's own.
    Headquarters { taken: u32 },
    /// The turn limit: the most territories when the last round ended.
    TurnLimit { territories: u32, rounds: u32 },
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum Event {
    FirstPlayer {
        seat: Seat,
    },
    Claimed {
        seat: Seat,
        t: TerritoryId,
    },
    Ranked {
        seat: Seat,
        list: Vec<TerritoryId>,
    },
    Allotted {
        /// (owner, territory) in the order given.
        picks: Vec<(Owner, TerritoryId)>,
        /// Stored as words by state version 1: read either way.
        #[serde(deserialize_with = "crate::game::stored::allotment")]
        how: Allotment,
    },
    Placed {
        seat: Seat,
        own: Placements,
        neutral: Placements,
    },
    BlindSent {
        seat: Seat,
        own: Placements,
        neutral: Placements,
    },
    BlindRevealed {
        all: Vec<(Seat, Placements, Placements)>,
    },
    HqCommitted {
        seat: Seat,
        t: TerritoryId,
        commitment: String,
    },
    HqRevealed {
        all: Vec<(Seat, TerritoryId, Secret)>,
    },
    TurnBegins {
        seat: Seat,
        round: u32,
        territories: u32,
        base: u32,
        continents: Vec<usize>,
        total: u32,
    },
    Traded {
        seat: Seat,
        cards: Vec<Card>,
        value: u32,
        bonus_on: Option<TerritoryId>,
    },
    ArmiesLost {
        seat: Seat,
        armies: u32,
    },
    AwaitDefence {
        responder: Seat,
        from: TerritoryId,
        to: TerritoryId,
    },
    Battle {
        seat: Seat,
        from: TerritoryId,
        to: TerritoryId,
        attack: Vec<u8>,
        defence: Vec<u8>,
        attacker_losses: u32,
        defender_losses: u32,
        /// (card shown, die before, die after)
        reroll: Option<(Card, u8, u8)>,
        /// die turned to 6
        commander: Option<u8>,
        /// Who held the territory attacked, and its armies after this roll (kept since the
        /// narration names the loser; absent from older builds' battles).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        held: Option<(Owner, u32)>,
    },
    Conquered {
        seat: Seat,
        from: TerritoryId,
        to: TerritoryId,
        moved: u32,
    },
    HqTaken {
        seat: Seat,
        of: Seat,
        t: TerritoryId,
    },
    Eliminated {
        victim: Seat,
        by: Seat,
        cards: Vec<Card>,
    },
    MustTrade {
        seat: Seat,
        cards: usize,
    },
    Drew {
        seat: Seat,
        card: Card,
    },
    Fortified {
        seat: Seat,
        from: TerritoryId,
        to: TerritoryId,
        armies: u32,
    },
    TurnEnds {
        seat: Seat,
    },
    StandingSet {
        seat: Seat,
        neutral: bool,
        policy: Policy,
    },
    Extended {
        round: u32,
        tied: Vec<Seat>,
    },
    Won {
        winners: Vec<Seat>,
        /// Stored as words by state version 1: read either way.
        #[serde(deserialize_with = "crate::game::stored::win_reason")]
        reason: WinReason,
    },
}
