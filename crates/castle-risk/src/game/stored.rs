//! The stored state: JSON of [`CastleRisk`], of this version or an older one. Version 1
//! kept nine parallel per-seat lists and two per-territory lists; it is converted to
//! [`Player`]s and [`Territory`]s as it is read.

use super::*;
use serde::de::Error as _;
use serde::{Deserializer, Serializer};

impl Serialize for CastleRisk {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        CastleRisk::serialize(self, s)
    }
}

impl<'de> Deserialize<'de> for CastleRisk {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<CastleRisk, D::Error> {
        let v = serde_json::Value::deserialize(d)?;
        match v.get("version").and_then(|v| v.as_u64()) {
            Some(1) => serde_json::from_value::<V1>(v)
                .map(CastleRisk::from)
                .map_err(D::Error::custom),
            _ => CastleRisk::deserialize(v).map_err(D::Error::custom),
        }
    }
}

/// The state as version 1 stored it.
#[derive(Deserialize)]
struct V1 {
    options: Options,
    players: Vec<String>,
    owner: Vec<Option<Seat>>,
    armies: Vec<u32>,
    castle: Vec<Option<T>>,
    empire: Vec<usize>,
    tokens: Vec<Vec<usize>>,
    alive: Vec<bool>,
    hands: Vec<Vec<Card>>,
    pile: Vec<Card>,
    discard: Vec<Card>,
    track: u32,
    in_play: Vec<(Seat, Card)>,
    hidden: Vec<Vec<Hidden>>,
    standing: Vec<Standing>,
    truces: Vec<Truce>,
    to_place_setup: Vec<u32>,
    phase: Phase,
    interrupt: Option<Interrupt>,
    turn: u32,
    turns_played: u32,
    current: Seat,
    attacked: bool,
    attacks: u32,
    to_place: u32,
    placing_earnings: bool,
    no_diplomats: bool,
    purge_at_end: bool,
    ledger: Ledger,
    outcome: Option<Outcome>,
}

impl From<V1> for CastleRisk {
    fn from(o: V1) -> CastleRisk {
        let players = (0..o.players.len())
            .map(|s| Player {
                name: o.players[s].clone(),
                castle: o.castle[s],
                empire: o.empire[s],
                tokens: o.tokens[s].clone(),
                alive: o.alive[s],
                hand: o.hands[s].clone(),
                hidden: o.hidden[s].clone(),
                standing: o.standing[s].clone(),
                setup_armies: o.to_place_setup[s],
            })
            .collect();
        let board = Board(
            o.owner
                .iter()
                .zip(&o.armies)
                .map(|(&owner, &armies)| Territory { owner, armies })
                .collect(),
        );
        CastleRisk {
            version: STATE_VERSION,
            options: o.options,
            players,
            board,
            pile: o.pile,
            discard: o.discard,
            track: o.track,
            in_play: o.in_play,
            truces: o.truces,
            phase: o.phase,
            interrupt: o.interrupt,
            turn: o.turn,
            turns_played: o.turns_played,
            current: o.current,
            attacked: o.attacked,
            attacks: o.attacks,
            to_place: o.to_place,
            placing_earnings: o.placing_earnings,
            no_diplomats: o.no_diplomats,
            purge_at_end: o.purge_at_end,
            ledger: o.ledger,
            outcome: o.outcome,
        }
    }
}
