//! The games' gauges kept as the games are written, so that reading them (a `/metrics`
//! scrape, src/serve/metrics.rs) reads a few keys, not every game's header: how many games are
//! in each status (`count/status/<status>`), how many wait on a deadline
//! (`count/deadlines`), and the deadlines in time order (`deadline/<time><id>` → empty, the
//! nearest one first). All in `game_index`, changed in the same transaction as the game by
//! the difference between its header before and after ([`Counted`]).

use super::{due_key, err, SledStore};
use castellan_judge::{GameRecord, Status, StoreError};
use sled::transaction::{ConflictableTransactionError, TransactionalTree};
use std::collections::BTreeMap;

/// What a game adds to the gauges: read back from a stored header (any schema: both keep
/// these two fields at the top), so a write knows what the game counted before it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Deserialize)]
pub(super) struct Counted {
    status: Status,
    #[serde(default)]
    deadline: Option<i64>,
}

impl Counted {
    pub(super) fn of(g: &GameRecord) -> Counted {
        Counted {
            status: g.status,
            deadline: g.deadline,
        }
    }

    /// What a stored header counted; `None` when it cannot be read (such a game is in
    /// quarantine and counted nowhere, here or when the gauges are rebuilt).
    pub(super) fn read(header: &[u8]) -> Option<Counted> {
        serde_json::from_slice(header).ok()
    }
}

/// The gauges as read: games by status, games waiting on a deadline, the nearest deadline.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct GameGauges {
    /// Games by status (`forming`, `running`, `paused`, `finished`), only those with any.
    pub by_status: BTreeMap<String, u64>,
    /// Games with a deadline set.
    pub deadlines: u64,
    /// The nearest deadline (unix time), if any game has one.
    pub next_deadline: Option<i64>,
}

/// The label of a status in the gauges.
pub fn status_label(s: Status) -> &'static str {
    match s {
        Status::Forming => "forming",
        Status::Running => "running",
        Status::Paused => "paused",
        Status::Finished => "finished",
    }
}

const STATUS_PREFIX: &[u8] = b"count/status/";
const DEADLINES: &[u8] = b"count/deadlines";
const DEADLINE_PREFIX: &[u8] = b"deadline/";
/// Everything the gauges keep starts with one of these (a rebuild clears them).
const PREFIXES: [&[u8]; 2] = [b"count/", DEADLINE_PREFIX];

fn status_key(s: Status) -> Vec<u8> {
    [STATUS_PREFIX, status_label(s).as_bytes()].concat()
}

/// The deadline index's key of game `id` due at `at`: the prefix, then the time and id
/// as the due index orders them (negative times first).
fn deadline_key(at: i64, id: &str) -> Vec<u8> {
    [DEADLINE_PREFIX, &due_key(at, id)].concat()
}

fn count(v: Option<&[u8]>) -> u64 {
    v.and_then(|v| v.try_into().ok())
        .map(u64::from_be_bytes)
        .unwrap_or(0)
}

/// Add `by` (may be negative) to the counter at `key`; a counter at 0 is removed.
fn add(
    index: &TransactionalTree,
    key: &[u8],
    by: i64,
) -> Result<(), ConflictableTransactionError<String>> {
    let n = count(index.get(key)?.as_deref()).saturating_add_signed(by);
    if n == 0 {
        index.remove(key)?;
    } else {
        index.insert(key, &n.to_be_bytes())?;
    }
    Ok(())
}

/// Move game `id` in the gauges from what it counted (`before`) to what it counts now
/// (`after`); nothing is written when both are the same.
pub(super) fn write(
    index: &TransactionalTree,
    id: &str,
    before: Option<Counted>,
    after: Option<Counted>,
) -> Result<(), ConflictableTransactionError<String>> {
    if before == after {
        return Ok(());
    }
    let status = |c: Option<Counted>| c.map(|c| c.status);
    if status(before) != status(after) {
        if let Some(s) = status(before) {
            add(index, &status_key(s), -1)?;
        }
        if let Some(s) = status(after) {
            add(index, &status_key(s), 1)?;
        }
    }
    let deadline = |c: Option<Counted>| c.and_then(|c| c.deadline);
    let (old, new) = (deadline(before), deadline(after));
    if old != new {
        if let Some(d) = old {
            index.remove(deadline_key(d, id))?;
        }
        if let Some(d) = new {
            index.insert(deadline_key(d, id), &[])?;
        }
        add(
            index,
            DEADLINES,
            i64::from(new.is_some()) - i64::from(old.is_some()),
        )?;
    }
    Ok(())
}

impl SledStore {
    /// The gauges, read from their keys: a few keys whatever the number of games.
    pub fn game_gauges(&self) -> Result<GameGauges, StoreError> {
        let mut g = GameGauges::default();
        for kv in self.game_index.scan_prefix(STATUS_PREFIX) {
            let (k, v) = kv.map_err(err)?;
            let label = String::from_utf8_lossy(&k[STATUS_PREFIX.len()..]).into_owned();
            g.by_status.insert(label, count(Some(&v)));
        }
        g.deadlines = count(self.game_index.get(DEADLINES).map_err(err)?.as_deref());
        if let Some(kv) = self.game_index.scan_prefix(DEADLINE_PREFIX).next() {
            let (k, _) = kv.map_err(err)?;
            let at = k
                .get(DEADLINE_PREFIX.len()..DEADLINE_PREFIX.len() + 8)
                .and_then(|b| b.try_into().ok())
                .map(|b| (u64::from_be_bytes(b) ^ (1 << 63)) as i64);
            g.next_deadline = at;
        }
        Ok(g)
    }

    /// Count every game into the gauges from scratch, reading each header once: a database
    /// written before the gauges were kept, or a restored backup that did not bring them
    /// (`SledStore::index_games`). What an interrupted count left is cleared first.
    pub(super) fn count_games(&self) -> Result<usize, StoreError> {
        for prefix in PREFIXES {
            for k in self.game_index.scan_prefix(prefix).keys() {
                self.game_index.remove(k.map_err(err)?).map_err(err)?;
            }
        }
        let (mut by_status, mut deadlines, mut n) = (BTreeMap::new(), 0u64, 0);
        let mut batch = sled::Batch::default();
        for kv in self.games.iter() {
            let (k, v) = kv.map_err(err)?;
            let Some(c) = Counted::read(&v) else {
                continue;
            };
            *by_status.entry(status_key(c.status)).or_insert(0u64) += 1;
            if let Some(d) = c.deadline {
                deadlines += 1;
                batch.insert(deadline_key(d, &String::from_utf8_lossy(&k)), &[]);
            }
            n += 1;
            if n % 4096 == 0 {
                self.game_index
                    .apply_batch(std::mem::take(&mut batch))
                    .map_err(err)?;
            }
        }
        for (k, v) in by_status {
            batch.insert(k, &v.to_be_bytes());
        }
        if deadlines > 0 {
            batch.insert(DEADLINES, &deadlines.to_be_bytes());
        }
        self.game_index.apply_batch(batch).map_err(err)?;
        Ok(n)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_stored_header_of_either_schema_gives_its_status_and_deadline() {
        let c = Counted::read(br#"{"id":"g-1","status":"Running","deadline":-5,"schema":2}"#);
        assert_eq!(
            c,
            Some(Counted {
                status: Status::Running,
                deadline: Some(-5)
            })
        );
        let c = Counted::read(br#"{"id":"g-1","status":"Forming","table":{"x":1}}"#);
        assert_eq!(
            c,
            Some(Counted {
                status: Status::Forming,
                deadline: None
            })
        );
        assert_eq!(Counted::read(b"not json"), None);
    }

    #[test]
    fn deadline_keys_sort_by_time_negative_times_first() {
        let mut keys = [
            deadline_key(10, "a"),
            deadline_key(-3, "b"),
            deadline_key(0, "c"),
        ];
        keys.sort();
        assert_eq!(
            keys,
            [
                deadline_key(-3, "b"),
                deadline_key(0, "c"),
                deadline_key(10, "a")
            ]
        );
    }
}
