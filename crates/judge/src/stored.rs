//! How a game is stored (issue 11): its header, its current state (a snapshot) and its
//! history apart, so that a mail reads and writes a bounded amount whatever the game's
//! length. Pure: the stores ([`crate::MemoryStore`], the daemon's sled store) keep the
//! parts; this module says what the parts are.
//!
//! * The **header** is the [`GameRecord`] without its table: seats, status, deadlines,
//!   what was reported. It carries [`SCHEMA`].
//! * The **snapshot** is the game's table ([`castellan_engine::Table`]) without its
//!   history, and the number of history entries (`history_len`).
//! * The **history** is one value per entry, numbered from 0, appended and never
//!   rewritten.
//!
//! A mail loads the header, the snapshot and the entries from [`needed_from`] on: the
//! earliest entry some reader has not been told yet (a turn's report, or a digest for a
//! reader on `SET REPORTS ROUND|NONE`). HISTORY, VERIFY, replay and export load the whole
//! history ([`crate::Store::game_whole`]).

use crate::model::{GameRecord, SeatRecord, Status, StoreError};
use serde_json::Value;

/// The version of the stored layout: 1 was the whole record with its history in one
/// value (no `schema` field); 2 is header, snapshot and history apart.
pub const SCHEMA: u32 = 2;

/// A game record taken apart for storing.
#[derive(Clone, Debug, PartialEq)]
pub struct GameParts {
    /// The record without its table (`table: None`).
    pub header: GameRecord,
    /// The table without its history, with `history_len`; `None` while the game forms.
    pub snapshot: Option<Value>,
    /// The index of `entries[0]` (the entries before it were not loaded, and are stored).
    pub base: usize,
    /// The history entries in hand, from `base`.
    pub entries: Vec<Value>,
}

impl GameParts {
    /// The number of history entries of the game (stored or in hand).
    pub fn history_len(&self) -> usize {
        self.base + self.entries.len()
    }
}

fn bad(id: &str, why: impl std::fmt::Display) -> StoreError {
    StoreError::new(format!("game {id} cannot be stored: {why}"))
}

/// What [`split`] gives, borrowed from the record: the header (the record's fields
/// without its table, copied), and the snapshot and entries as references into the table,
/// not copied. What a store writes serializes from it ([`PartsRef::snapshot_json`]).
pub struct PartsRef<'a> {
    pub header: GameRecord,
    snapshot: Option<(&'a serde_json::Map<String, Value>, usize)>,
    pub base: usize,
    pub entries: &'a [Value],
}

impl PartsRef<'_> {
    /// Whether the game has a state (it has left forming).
    pub fn has_snapshot(&self) -> bool {
        self.snapshot.is_some()
    }

    /// The number of history entries of the game (stored or in hand).
    pub fn history_len(&self) -> usize {
        self.base + self.entries.len()
    }

    /// The snapshot's JSON: the same bytes as [`split`]'s snapshot serialized.
    pub fn snapshot_json(&self) -> Option<serde_json::Result<Vec<u8>>> {
        self.snapshot
            .map(|(table, history_len)| serde_json::to_vec(&SnapshotOf { table, history_len }))
    }
}

/// A table serialized as its snapshot: without `history` and `base`, with `history_len`,
/// the keys in order (as the map [`split`] makes would be).
struct SnapshotOf<'a> {
    table: &'a serde_json::Map<String, Value>,
    history_len: usize,
}

impl serde::Serialize for SnapshotOf<'_> {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeMap;
        const LEN: &str = "history_len";
        let kept = self
            .table
            .iter()
            .filter(|(k, _)| !matches!(k.as_str(), "history" | "base" | LEN));
        let mut m = s.serialize_map(None)?;
        let mut len_written = false;
        for (k, v) in kept {
            if !len_written && k.as_str() > LEN {
                m.serialize_entry(LEN, &self.history_len)?;
                len_written = true;
            }
            m.serialize_entry(k, v)?;
        }
        if !len_written {
            m.serialize_entry(LEN, &self.history_len)?;
        }
        m.end()
    }
}

/// [`split`] without copying the table: for writing the parts.
pub fn split_ref(rec: &GameRecord) -> Result<PartsRef<'_>, StoreError> {
    let header = rec.without_table();
    let Some(table) = &rec.table else {
        return Ok(PartsRef {
            header,
            snapshot: None,
            base: 0,
            entries: &[],
        });
    };
    let Value::Object(map) = table else {
        return Err(bad(&rec.id, "its table is not an object"));
    };
    let entries: &[Value] = match map.get("history") {
        Some(Value::Array(a)) => a,
        Some(_) => return Err(bad(&rec.id, "its history is not a list")),
        None => &[],
    };
    let base = match map.get("base") {
        Some(v) => v
            .as_u64()
            .ok_or_else(|| bad(&rec.id, "its history base is not a number"))?
            as usize,
        None => 0,
    };
    Ok(PartsRef {
        header,
        snapshot: Some((map, base + entries.len())),
        base,
        entries,
    })
}

/// Take a record apart: header, snapshot, and the history entries it holds.
pub fn split(rec: &GameRecord) -> Result<GameParts, StoreError> {
    let parts = split_ref(rec)?;
    let snapshot = parts.snapshot.map(|(table, history_len)| {
        let mut map: serde_json::Map<String, Value> = table
            .iter()
            .filter(|(k, _)| !matches!(k.as_str(), "history" | "base"))
            .map(|(k, v)| (k.clone(), v.clone()))
            .collect();
        map.insert("history_len".into(), Value::from(history_len));
        Value::Object(map)
    });
    Ok(GameParts {
        header: parts.header,
        snapshot,
        base: parts.base,
        entries: parts.entries.to_vec(),
    })
}

/// The numbers of the history entries a commit writes for game `id`, whose record holds
/// entries `base..len` (and a state, `has_state`), when `stored` entries are stored: those
/// from the stored end on. Entries already stored are never rewritten nor removed: a
/// record that holds fewer (a damaged table, being mended) leaves them as they are, and
/// its snapshot's count says how many belong to the game. Err when the record's history
/// in hand starts after the stored end (a gap). Both stores write by this.
pub fn to_append(
    id: &str,
    has_state: bool,
    base: usize,
    len: usize,
    stored: usize,
) -> Result<std::ops::Range<usize>, StoreError> {
    if has_state && base > stored {
        return Err(bad(
            id,
            format!("its history in hand starts at entry {base}, but only {stored} are stored"),
        ));
    }
    Ok(stored.max(base).min(len)..len)
}

impl GameParts {
    /// [`to_append`] for these parts.
    pub fn to_append(&self, stored: usize) -> Result<std::ops::Range<usize>, StoreError> {
        to_append(
            &self.header.id,
            self.snapshot.is_some(),
            self.base,
            self.history_len(),
            stored,
        )
    }
}

/// The number of history entries a stored snapshot counts.
pub fn snapshot_history_len(snapshot: &Value) -> usize {
    snapshot
        .get("history_len")
        .and_then(Value::as_u64)
        .unwrap_or(0) as usize
}

/// Put a record together from its header, its snapshot and the history entries from
/// `base` on (every entry from `base` to the snapshot's `history_len`).
pub fn join(
    header: GameRecord,
    snapshot: Option<Value>,
    base: usize,
    entries: Vec<Value>,
) -> Result<GameRecord, StoreError> {
    let mut rec = header;
    let Some(snapshot) = snapshot else {
        rec.table = None;
        return Ok(rec);
    };
    let len = snapshot_history_len(&snapshot);
    if base + entries.len() != len {
        return Err(StoreError::new(format!(
            "game {}: its history has {} entries from {base}, its state counts {len}",
            rec.id,
            entries.len()
        )));
    }
    let Value::Object(mut map) = snapshot else {
        return Err(StoreError::new(format!(
            "game {}: its state is not an object",
            rec.id
        )));
    };
    map.remove("history_len");
    map.insert("history".into(), Value::Array(entries));
    if base > 0 {
        map.insert("base".into(), Value::from(base));
    }
    rec.table = Some(Value::Object(map));
    Ok(rec)
}

/// The first history entry a mail to this game may have to tell: the last report's end,
/// or an earlier one for a reader whose reports were held back (`SET REPORTS`).
pub fn needed_from(header: &GameRecord) -> usize {
    header
        .told
        .values()
        .copied()
        .chain(std::iter::once(header.reported))
        .min()
        .unwrap_or(0)
}

/// When the tick has something to do for this game: the reminder (if one is set, nobody
/// was reminded yet for this deadline, and an awaited seat can be reminded), else the
/// deadline with its grace. `None`: nothing until a mail changes the game (not running,
/// or no deadline).
pub fn next_due(rec: &GameRecord) -> Option<i64> {
    if rec.status != Status::Running {
        return None;
    }
    let deadline = rec.deadline?;
    let d = &rec.deadlines;
    if d.reminder_hours > 0 && rec.reminded.is_empty() && someone_to_remind(rec) {
        Some(deadline - i64::from(d.reminder_hours) * 3600)
    } else {
        Some(deadline + i64::from(d.grace_hours) * 3600)
    }
}

/// Whether the reminder would reach anyone: the tick reminds an awaited seat with an
/// address and no bot playing it (src/deadlines.rs `remind`). A game awaiting only bot
/// stand-ins or empty seats is due at its deadline, not at every tick from its reminder
/// time on. A record that names no awaited seat (written before it kept them) is taken
/// as having someone to remind.
fn someone_to_remind(rec: &GameRecord) -> bool {
    rec.deadline_awaiting.is_empty()
        || rec
            .deadline_awaiting
            .iter()
            .any(|&s| rec.seats.get(s).is_some_and(SeatRecord::played_by_mail))
}

/// Whether a stored game value is the old layout (schema 1): the whole record, its table
/// with its history inside.
pub fn is_schema_1(value: &Value) -> bool {
    value.get("schema").is_none()
}

/// The header as stored: the record without its table, marked with [`SCHEMA`].
pub fn header_value(header: &GameRecord) -> Result<Value, StoreError> {
    let mut v = serde_json::to_value(header).map_err(|e| bad(&header.id, e))?;
    if let Value::Object(m) = &mut v {
        m.remove("table");
        m.insert("schema".into(), Value::from(SCHEMA));
    }
    Ok(v)
}

/// A stored header read back (the `schema` mark is dropped; the table is not in it).
pub fn header_from(value: Value) -> serde_json::Result<GameRecord> {
    let mut value = value;
    if let Value::Object(m) = &mut value {
        m.remove("schema");
        m.entry("table").or_insert(Value::Null);
    }
    serde_json::from_value(value)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn record(table: Option<Value>) -> GameRecord {
        let mut rec: GameRecord = serde_json::from_value(json!({
            "id": "castle-1", "game": "castle-risk", "status": "Running", "gm": "gm@x",
            "gm_password_hash": "", "gm_token": "t", "join_password_hash": "", "salt": "",
            "seats": [], "observers": [], "options": [],
            "deadlines": {"hours": 24, "reminder_hours": 6, "grace_hours": 2},
            "deadline": 100000, "paused_left": null, "deadline_history": 0,
            "reminded": [], "out_counter": 0, "reported": 3, "revealed": 0, "created": 0,
            "ended": null, "table": null
        }))
        .unwrap();
        rec.table = table;
        rec
    }

    #[test]
    fn a_record_split_and_joined_is_the_same_record() {
        let table = json!({"state": {"x": 1}, "dice": {}, "history": [{"n": 0}, {"n": 1}, {"n": 2}, {"n": 3}]});
        let rec = record(Some(table));
        let parts = split(&rec).unwrap();
        assert_eq!(parts.header.table, None);
        assert_eq!(parts.entries.len(), 4);
        assert_eq!(snapshot_history_len(parts.snapshot.as_ref().unwrap()), 4);
        assert!(parts.snapshot.as_ref().unwrap().get("history").is_none());
        let back = join(parts.header, parts.snapshot, 0, parts.entries).unwrap();
        assert_eq!(back, rec);
    }

    /// The parts borrowed serialize as the parts taken apart do, byte for byte: the
    /// snapshot's keys in order around `history_len`, whatever keys the table has.
    #[test]
    fn the_borrowed_parts_serialize_as_the_parts_taken_apart() {
        for table in [
            json!({"state": {"x": 1}, "dice": {}, "history": [{"n": 0}, {"n": 1}]}),
            json!({"a": 1, "base": 3, "history": [{"n": 3}], "z": [1, 2]}),
            json!({"zz": 1}),
            json!({"a": 1}),
            json!({"history_len": 99, "history": [], "i": 0}),
        ] {
            let rec = record(Some(table.clone()));
            let (whole, borrowed) = (split(&rec).unwrap(), split_ref(&rec).unwrap());
            assert_eq!(borrowed.header, whole.header, "{table}");
            assert_eq!(
                borrowed.snapshot_json().unwrap().unwrap(),
                serde_json::to_vec(whole.snapshot.as_ref().unwrap()).unwrap(),
                "{table}"
            );
            assert_eq!(borrowed.base, whole.base);
            assert_eq!(borrowed.entries, &whole.entries[..]);
            assert_eq!(borrowed.history_len(), whole.history_len());
        }
        let forming = record(None);
        let borrowed = split_ref(&forming).unwrap();
        assert!(!borrowed.has_snapshot() && borrowed.snapshot_json().is_none());
        assert_eq!(borrowed.header, split(&forming).unwrap().header);
    }

    #[test]
    fn a_tail_joins_with_its_base_and_splits_back_to_it() {
        let rec = record(Some(
            json!({"state": 1, "history": [{"n": 0}, {"n": 1}, {"n": 2}]}),
        ));
        let parts = split(&rec).unwrap();
        let tail = parts.entries[2..].to_vec();
        let joined = join(parts.header.clone(), parts.snapshot.clone(), 2, tail).unwrap();
        assert_eq!(joined.table.as_ref().unwrap()["base"], json!(2));
        let again = split(&joined).unwrap();
        assert_eq!(again.base, 2);
        assert_eq!(again.history_len(), 3);
        assert_eq!(again.snapshot, parts.snapshot);
        // A tail that does not reach the snapshot's count is refused, never joined short.
        assert!(join(parts.header, parts.snapshot, 1, vec![json!({"n": 1})]).is_err());
    }

    #[test]
    fn the_header_is_stored_with_its_schema_and_without_its_table() {
        let rec = record(Some(json!({"history": []})));
        let v = header_value(&split(&rec).unwrap().header).unwrap();
        assert_eq!(v["schema"], json!(SCHEMA));
        assert!(v.get("table").is_none());
        assert!(!is_schema_1(&v));
        let old = serde_json::to_value(&rec).unwrap();
        assert!(is_schema_1(&old));
        let mut back = header_from(v).unwrap();
        back.table = rec.table.clone();
        assert_eq!(back, rec);
    }

    /// Issue 11: "A mail reads the header and the snapshot only" (and the entries its
    /// reports must still tell).
    #[test]
    fn a_mail_loads_from_the_earliest_entry_a_reader_was_not_told() {
        let mut rec = record(None);
        rec.reported = 40;
        assert_eq!(needed_from(&rec), 40);
        rec.told.insert("slow@x".into(), 12);
        assert_eq!(needed_from(&rec), 12);
    }

    /// Issue 11: "The tick touches only what is due: an index of deadlines and reminders
    /// ordered by time".
    #[test]
    fn the_tick_is_due_at_the_reminder_then_at_the_deadline_with_its_grace() {
        let mut rec = record(None);
        assert_eq!(next_due(&rec), Some(100000 - 6 * 3600));
        rec.reminded.insert(0);
        assert_eq!(next_due(&rec), Some(100000 + 2 * 3600));
        rec.deadlines.reminder_hours = 0;
        rec.reminded.clear();
        assert_eq!(next_due(&rec), Some(100000 + 2 * 3600));
        rec.status = Status::Paused;
        assert_eq!(next_due(&rec), None);
        rec.status = Status::Running;
        rec.deadline = None;
        assert_eq!(next_due(&rec), None);
    }

    /// Issue 11 ("The tick touches only what is due"): a reminder that would reach
    /// nobody (the awaited seat is a bot stand-in, or empty) does not make the game due
    /// at every tick until its deadline (src/deadlines.rs `remind` skips such seats).
    #[test]
    fn a_reminder_that_would_reach_nobody_leaves_the_game_due_at_its_deadline() {
        let mut rec = record(None);
        rec.seats = serde_json::from_value(json!([
            {"name": "Anna", "address": "anna@x", "password_hash": "", "token": "a",
             "misses": 0, "vacation_until": null, "bot": false, "resigned": false},
            {"name": "Bob", "address": "bob@x", "password_hash": "", "token": "b",
             "misses": 0, "vacation_until": null, "bot": false, "resigned": false}
        ]))
        .unwrap();
        rec.deadline_awaiting = vec![1];
        assert_eq!(next_due(&rec), Some(100000 - 6 * 3600), "Bob is reminded");
        rec.seats[1].bot = true;
        assert_eq!(next_due(&rec), Some(100000 + 2 * 3600), "a bot plays Bob");
        rec.seats[1].bot = false;
        rec.seats[1].address = None;
        assert_eq!(
            next_due(&rec),
            Some(100000 + 2 * 3600),
            "Bob's seat is empty"
        );
        rec.deadline_awaiting = vec![0, 1];
        assert_eq!(next_due(&rec), Some(100000 - 6 * 3600), "Anna is reminded");
    }

    /// Issue 11: "A game's history is appended, never rewritten."
    #[test]
    fn a_commit_writes_only_the_entries_past_the_stored_end() {
        // Entries 3..8 in hand, 5 stored: 5, 6 and 7 are written.
        assert_eq!(to_append("g", true, 3, 8, 5).unwrap(), 5..8);
        // Nothing new: nothing written, nothing rewritten.
        assert_eq!(to_append("g", true, 3, 5, 5).unwrap(), 5..5);
        // A record holding fewer than are stored (a damaged table being mended) removes
        // nothing and writes nothing.
        assert!(to_append("g", true, 0, 2, 5).unwrap().is_empty());
        // A tail that starts past the stored end would leave a gap: refused.
        assert!(to_append("g", true, 6, 9, 5).is_err());
        // A game still forming has no history to write.
        assert!(to_append("g", false, 0, 0, 0).unwrap().is_empty());
    }
}
