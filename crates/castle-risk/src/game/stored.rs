//! The stored state: JSON of [`CastleRisk`], of this version or an older one. Version 1
//! kept nine parallel per-seat lists and two per-territory lists; it is converted to
//! [`Player`]s and [`Territory`]s as it is read. Version 2 has the state of version 3; its
//! events (and those of version 1) carried four English sentences, converted to typed data
//! by [`upgrade_events`] as a stored table is read.

use super::*;
use serde::{Deserializer, Serializer};

impl Serialize for CastleRisk {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        CastleRisk::serialize(self, s)
    }
}

/// This version's state, read as it is (no JSON tree on the way). A version-1 state does
/// not read here: [`upgrade_state`] converts it first (the engine asks the game to, through
/// `Rules::upgrade_json`, when a stored state does not read as it is).
impl<'de> Deserialize<'de> for CastleRisk {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<CastleRisk, D::Error> {
        let mut g = CastleRisk::deserialize(d)?;
        // Version 2 differs from 3 only in its events (see `upgrade_events`).
        g.version = g.version.max(STATE_VERSION);
        Ok(g)
    }
}

/// A stored state of version 1 (its `version` says so) brought to this version's shape;
/// any other left as it is.
pub fn upgrade_state(state: &mut serde_json::Value) {
    if state.get("version").and_then(|v| v.as_u64()) != Some(1) {
        return;
    }
    let converted = serde_json::from_value::<V1>(state.clone())
        .map(CastleRisk::from)
        .and_then(|g| serde_json::to_value(&g));
    if let Ok(v) = converted {
        *state = v;
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

/// The events of a stored table (the JSON of `Session::to_json`) brought to typed data: an
/// older build stored four events with an English sentence in them (`Waiting { what }`,
/// `StandingSet { text }`, `TurnEnds { detail }`, `GameOver { reason }`). Done whatever the
/// table's version says, as the judge's store appends history entries and never rewrites
/// them: a game begun under version 2 keeps its old entries after its snapshot is version 3.
pub fn upgrade_events(json: &mut serde_json::Value) {
    let names: Vec<String> = json
        .get("players")
        .and_then(|p| serde_json::from_value(p.clone()).ok())
        .unwrap_or_default();
    let Some(history) = json.get_mut("history").and_then(|h| h.as_array_mut()) else {
        return;
    };
    for entry in history {
        let Some(events) = entry.get_mut("events").and_then(|e| e.as_array_mut()) else {
            continue;
        };
        for e in events.iter_mut().filter_map(|e| e.as_object_mut()) {
            for (kind, body) in e.iter_mut() {
                if let Some(body) = body.as_object_mut() {
                    upgrade_event(kind, body, &names);
                }
            }
        }
    }
}

type Fields = serde_json::Map<String, serde_json::Value>;

/// One event's fields, converted in place when they are of the old shape.
fn upgrade_event(kind: &str, body: &mut Fields, names: &[String]) {
    let text = |body: &Fields, k: &str| body.get(k).and_then(|v| v.as_str()).map(str::to_string);
    let new = match kind {
        "Waiting" => text(body, "what")
            .and_then(|w| old_waiting(&w))
            .map(|w| ("what", serde_json::to_value(w))),
        "StandingSet" => text(body, "text").and_then(|t| {
            let order = crate::orders::parse_standing(&t).ok()?;
            body.remove("text");
            Some(("order", serde_json::to_value(order)))
        }),
        "TurnEnds" => text(body, "detail")
            .and_then(|d| old_earnings(&d))
            .map(|d| ("detail", serde_json::to_value(d))),
        "GameOver" => text(body, "reason").and_then(|r| {
            let winners: Vec<Seat> = body
                .get("winners")
                .and_then(|w| serde_json::from_value(w.clone()).ok())
                .unwrap_or_default();
            old_reason(&r, &winners, names).map(|r| ("reason", serde_json::to_value(r)))
        }),
        _ => None,
    };
    if let Some((k, Ok(v))) = new {
        body.insert(k.to_string(), v);
    }
}

/// "to defend Poland (DEFEND 2, DEFEND 1 MARSHAL ...)", "to counter the Spy (...)".
fn old_waiting(what: &str) -> Option<Awaited> {
    if what.starts_with("to counter the Spy") {
        return Some(Awaited::CounterSpy);
    }
    let name = what.strip_prefix("to defend ")?.split(" (").next()?;
    map().board.resolve(name).ok().map(Awaited::Defence)
}

/// "French Empire 4, all independents 6, 1 captured castle token(s) 8" ("" for none).
fn old_earnings(detail: &str) -> Option<Vec<Earning>> {
    if detail.is_empty() {
        return Some(Vec::new());
    }
    detail
        .split(", ")
        .map(|part| {
            let (what, _) = part.rsplit_once(' ')?;
            if what == "all independents" {
                return Some(Earning::Independents);
            }
            if let Some(k) = what.strip_suffix(" captured castle token(s)") {
                return k.parse().ok().map(Earning::Tokens);
            }
            (0..EMPIRES.len())
                .find(|g| map().empire_name(*g) == what)
                .map(Earning::Empire)
        })
        .collect()
}

/// The reason an older build wrote in English, as the [`EndReason`] it words.
fn old_reason(reason: &str, winners: &[Seat], names: &[String]) -> Option<EndReason> {
    if reason.ends_with(" holds every castle token") {
        return winners.first().map(|&w| EndReason::Tokens(w));
    }
    if let Some(r) = reason.strip_prefix("turn limit reached (") {
        let turns = r.split(' ').next()?.parse().ok()?;
        let leader = winners.first().copied();
        return Some(EndReason::TurnLimit { turns, leader });
    }
    let r = reason.strip_prefix("stalemate after ")?;
    let turns = r.split(' ').next()?.parse().ok()?;
    // "...; decided by territories, then armies: Bruno wins (Bruno 23 territories, 23
    // armies; Alice 21 territories, 27 armies)"
    let (_, rest) = r.split_once("decided by territories, then armies: ")?;
    let name = |s: &Seat| names.get(*s).map(String::as_str).unwrap_or("?");
    let verdict = match winners {
        [w] => format!("{} wins", name(w)),
        _ => format!(
            "shared by {}",
            winners.iter().map(name).collect::<Vec<_>>().join(", ")
        ),
    };
    let table = rest
        .strip_prefix(&format!("{verdict} ("))?
        .strip_suffix(')')?;
    let standings = table
        .split("; ")
        .map(|row| {
            let (left, armies) = row.strip_suffix(" armies")?.rsplit_once(", ")?;
            let (who, terr) = left.strip_suffix(" territories")?.rsplit_once(' ')?;
            let seat = names.iter().position(|n| n == who)?;
            Some((seat, terr.parse().ok()?, armies.parse().ok()?))
        })
        .collect::<Option<Vec<_>>>()?;
    Some(EndReason::Stalemate { turns, standings })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The sentences older builds stored, read back as the typed data they word.
    #[test]
    fn old_english_events_read_as_typed_data() {
        let poland = map().board.resolve("Poland").unwrap();
        assert_eq!(
            old_waiting("to defend Poland (DEFEND 2, DEFEND 1 MARSHAL ...)"),
            Some(Awaited::Defence(poland))
        );
        assert_eq!(
            old_waiting("to counter the Spy (COUNTERSPY or NO COUNTERSPY)"),
            Some(Awaited::CounterSpy)
        );
        let british = (0..EMPIRES.len())
            .find(|g| map().empire_name(*g) == "British Empire")
            .unwrap();
        assert_eq!(
            old_earnings("British Empire 4, all independents 6, 2 captured castle token(s) 16"),
            Some(vec![
                Earning::Empire(british),
                Earning::Independents,
                Earning::Tokens(2)
            ])
        );
        let names = ["Ann, Jr".to_string(), "Bo Li".to_string()];
        assert_eq!(
            old_reason(
                "stalemate after 3 turns: nobody; decided by territories, then armies: \
                 shared by Ann, Jr, Bo Li (Ann, Jr 2 territories, 5 armies; Bo Li 2 territories, 5 armies)",
                &[0, 1],
                &names
            ),
            Some(EndReason::Stalemate {
                turns: 3,
                standings: vec![(0, 2, 5), (1, 2, 5)]
            })
        );
    }
}
