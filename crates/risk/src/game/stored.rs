//! The stored state: JSON of [`Risk`], of this version or an older one. Version 1 kept
//! thirteen parallel per-seat lists and two per-territory lists, and the outcome with its
//! reason in English words; it is converted to [`Player`]s, [`Territory`]s and a typed
//! [`Won`] as it is read. Its events carried words too (`Allotted.how`, `Won.reason`):
//! [`allotment`] and [`win_reason`] read them back as the typed value whose English
//! narration is exactly those words.

use crate::narrate;
use crate::*;
use serde::de::Error as _;
use serde::{Deserializer, Serializer};

impl Serialize for Risk {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        Risk::serialize(self, s)
    }
}

/// This version's state, read as it is (no JSON tree on the way). A version-1 state does
/// not read here: `upgrade_state` converts it first (the engine asks the game to, through
/// `Rules::upgrade_json`, when a stored state does not read as it is).
impl<'de> Deserialize<'de> for Risk {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Risk, D::Error> {
        Risk::deserialize(d)
    }
}

/// A stored state of version 1 (it has no `version`) brought to this version's shape; any
/// other left as it is (and one that does not convert, to be refused as it is read).
pub fn upgrade_state(state: &mut serde_json::Value) {
    if state.get("version").is_some() {
        return;
    }
    let converted = serde_json::from_value::<V1>(state.clone())
        .map_err(|e| e.to_string())
        .and_then(Risk::try_from)
        .and_then(|g| serde_json::to_value(&g).map_err(|e| e.to_string()));
    if let Ok(v) = converted {
        *state = v;
    }
}

/// A value stored typed, or as the words version 1 stored.
#[derive(Deserialize)]
#[serde(untagged)]
enum TypedOrWords<T> {
    Typed(T),
    Words(String),
}

/// `Allotted.how`: typed, or version 1's English words.
pub(crate) fn allotment<'de, D: Deserializer<'de>>(d: D) -> Result<Allotment, D::Error> {
    match TypedOrWords::<Allotment>::deserialize(d)? {
        TypedOrWords::Typed(a) => Ok(a),
        TypedOrWords::Words(w) => [Allotment::Piles, Allotment::Random, Allotment::Draft]
            .into_iter()
            .find(|a| narrate::allotment(*a, Lang::En) == w)
            .ok_or_else(|| D::Error::custom(format!("no allotment is told \"{w}\""))),
    }
}

/// `Won.reason`: typed, or version 1's English words.
pub(crate) fn win_reason<'de, D: Deserializer<'de>>(d: D) -> Result<WinReason, D::Error> {
    match TypedOrWords::<WinReason>::deserialize(d)? {
        TypedOrWords::Typed(r) => Ok(r),
        TypedOrWords::Words(w) => reason_from_words(&w).map_err(D::Error::custom),
    }
}

/// The reason whose English narration is `words`: each kind of reason is tried with the
/// numbers the words hold, and kept only if told exactly so.
fn reason_from_words(words: &str) -> Result<WinReason, String> {
    let numbers: Vec<u32> = words
        .split(|c: char| !c.is_ascii_digit())
        .filter_map(|n| n.parse().ok())
        .collect();
    let first = numbers.first().copied().unwrap_or(0);
    let second = numbers.get(1).copied().unwrap_or(0);
    [
        WinReason::Opponent,
        WinReason::World,
        WinReason::Headquarters { taken: first },
        WinReason::TurnLimit {
            territories: first,
            rounds: second,
        },
    ]
    .into_iter()
    .find(|r| narrate::reason(*r, Lang::En) == words)
    .ok_or_else(|| format!("no winning reason is told \"{words}\""))
}

/// The state as version 1 stored it.
#[derive(Deserialize)]
struct V1 {
    players: Vec<String>,
    opts: Options,
    phase: Phase,
    owner: Vec<Owner>,
    armies: Vec<u32>,
    to_move: Seat,
    first: Seat,
    dice_turn: u32,
    round: u32,
    limit_round: u32,
    hands: Vec<Vec<Card>>,
    deck: Vec<Card>,
    discard: Vec<Card>,
    sets_traded: u32,
    to_place: Vec<u32>,
    neutral_to_place: Vec<u32>,
    stand_defend: Vec<Policy>,
    stand_neutral: Vec<Policy>,
    ranks: Vec<Option<Vec<TerritoryId>>>,
    blind: Vec<Option<(Placements, Placements)>>,
    hq: Vec<Option<TerritoryId>>,
    hq_salt: Vec<Option<Secret>>,
    hq_commit: Vec<Option<String>>,
    hq_revealed: bool,
    hq_card_holder: Vec<Seat>,
    eliminated: Vec<bool>,
    turn_state: TurnState,
    battle: Option<Battle>,
    outcome: Option<Outcome>,
}

impl TryFrom<V1> for Risk {
    type Error = String;

    fn try_from(o: V1) -> Result<Risk, String> {
        let n = o.players.len();
        let lists = [
            o.hands.len(),
            o.to_place.len(),
            o.neutral_to_place.len(),
            o.stand_defend.len(),
            o.stand_neutral.len(),
            o.ranks.len(),
            o.blind.len(),
            o.hq.len(),
            o.hq_salt.len(),
            o.hq_commit.len(),
            o.hq_card_holder.len(),
            o.eliminated.len(),
        ];
        if lists.iter().any(|&k| k != n) || o.owner.len() != o.armies.len() {
            return Err("a stored version-1 game's lists differ in length".into());
        }
        let players = (0..n)
            .map(|s| Player {
                name: o.players[s].clone(),
                hand: o.hands[s].clone(),
                to_place: o.to_place[s],
                neutral_to_place: o.neutral_to_place[s],
                stand_defend: o.stand_defend[s],
                stand_neutral: o.stand_neutral[s],
                rank: o.ranks[s].clone(),
                blind: o.blind[s].clone(),
                hq: o.hq[s],
                hq_salt: o.hq_salt[s],
                hq_commit: o.hq_commit[s].clone(),
                hq_card_holder: o.hq_card_holder[s],
                eliminated: o.eliminated[s],
            })
            .collect();
        let board = o
            .owner
            .iter()
            .zip(&o.armies)
            .map(|(&owner, &armies)| Territory { owner, armies })
            .collect();
        let won = match o.outcome {
            Some(out) => Some(Won {
                winners: out.winners,
                reason: reason_from_words(&out.reason)?,
            }),
            None => None,
        };
        Ok(Risk {
            version: STATE_VERSION,
            opts: o.opts,
            phase: o.phase,
            players,
            board,
            to_move: o.to_move,
            first: o.first,
            dice_turn: o.dice_turn,
            round: o.round,
            limit_round: o.limit_round,
            deck: o.deck,
            discard: o.discard,
            sets_traded: o.sets_traded,
            hq_revealed: o.hq_revealed,
            turn_state: o.turn_state,
            battle: o.battle,
            won,
        })
    }
}
