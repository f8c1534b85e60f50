//! How a game is stored: its header, its current state (a snapshot) and its
//! history apart, so that a mail reads and writes a bounded amount whatever the game's
//! length. Pure: the stores ([`crate::MemoryStore`], the daemon's sled store) keep the
//! parts; this module says what the parts are.
//!
//! * The **header** is the [`GameRecord`]: seats, status, deadlines, what was reported.
//!   It is stored with [`SCHEMA`] as its first key.
//! * The **snapshot** and the **history** are the table's stored form, which the engine
//!   writes and reads ([`castellan_engine::StoredTable`]): the table without its history
//!   with the number of history entries, and one value per entry, numbered from 0,
//!   appended and never rewritten.
//!
//! A mail loads the header, the snapshot and the entries from [`needed_from`] on: the
//! earliest entry some reader has not been told yet (a turn's report, or a digest for a
//! reader on `SET REPORTS ROUND|NONE`). HISTORY, VERIFY, replay and export load the whole
//! history ([`crate::Store::game_whole`]).

use crate::model::{GameRecord, SeatRecord, Status, StoreError};
use castellan_engine::StoredTable;
use serde_json::Value;

/// The version of the stored layout: 1 was the whole record with its history in one
/// value (no `schema` field); 2 is header, snapshot and history apart.
pub const SCHEMA: u32 = 2;

/// A game as a store gives it and takes it: its record, and its table's stored form
/// (`None` while it forms). The record alone is the header ([`crate::Store::game_header`],
/// [`crate::Changes::headers`]): it cannot be committed as a game.
#[derive(Clone, Debug, PartialEq)]
pub struct StoredGame {
    pub record: GameRecord,
    pub table: Option<StoredTable>,
}

/// A game is read as its record (`game.seats`, `game.status`).
impl std::ops::Deref for StoredGame {
    type Target = GameRecord;
    fn deref(&self) -> &GameRecord {
        &self.record
    }
}

impl std::ops::DerefMut for StoredGame {
    fn deref_mut(&mut self) -> &mut GameRecord {
        &mut self.record
    }
}

/// A record alone is a game without a table: one that forms.
impl From<GameRecord> for StoredGame {
    fn from(record: GameRecord) -> StoredGame {
        StoredGame {
            record,
            table: None,
        }
    }
}

impl StoredGame {
    /// The numbers of the history entries to write when `stored` are stored
    /// ([`to_append`]).
    pub fn to_append(&self, stored: usize) -> Result<std::ops::Range<usize>, StoreError> {
        match &self.table {
            None => Ok(0..0),
            Some(t) => {
                let len = t.history_len().map_err(|e| bad(&self.record.id, e))?;
                to_append(&self.record.id, true, t.base, len, stored)
            }
        }
    }
}

/// A game written whole (the journal's changes, an export): its record's fields and its
/// table as one value, the history inside, as an older judge stored it
/// ([`whole_record`] reads it back).
impl serde::Serialize for StoredGame {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        use serde::ser::Error;
        let mut v = serde_json::to_value(&self.record).map_err(S::Error::custom)?;
        let table = match &self.table {
            None => Value::Null,
            Some(t) => t.to_table_json().map_err(S::Error::custom)?,
        };
        if let Value::Object(m) = &mut v {
            m.insert("table".into(), table);
        }
        v.serialize(s)
    }
}

impl<'de> serde::Deserialize<'de> for StoredGame {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<StoredGame, D::Error> {
        use serde::de::Error;
        whole_record(Value::deserialize(d)?).map_err(D::Error::custom)
    }
}

fn bad(id: &str, why: impl std::fmt::Display) -> StoreError {
    StoreError::new(format!("game {id} cannot be stored: {why}"))
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

/// The header as stored: the record, [`SCHEMA`] first.
pub fn header_bytes(header: &GameRecord) -> Result<Vec<u8>, StoreError> {
    #[derive(serde::Serialize)]
    struct Header<'a> {
        schema: u32,
        #[serde(flatten)]
        record: &'a GameRecord,
    }
    serde_json::to_vec(&Header {
        schema: SCHEMA,
        record: header,
    })
    .map_err(|e| bad(&header.id, e))
}

/// A stored game value read back: a header, or an older judge's whole record (schema 1:
/// no `schema` field, its table inside), whose table is taken apart as the engine stores
/// it. A header this build wrote starts with its schema and is read directly.
pub fn read_game_value(bytes: &[u8]) -> serde_json::Result<GameValue> {
    if bytes.starts_with(b"{\"schema\":") {
        return serde_json::from_slice(bytes).map(GameValue::Header);
    }
    let value: Value = serde_json::from_slice(bytes)?;
    if !is_schema_1(&value) {
        return serde_json::from_value(value).map(GameValue::Header);
    }
    whole_record(value).map(GameValue::Whole)
}

/// What a stored game value holds.
#[derive(Debug)]
pub enum GameValue {
    /// The header; state and history are stored apart.
    Header(GameRecord),
    /// Schema 1, not converted (written by an older judge): the whole game.
    Whole(StoredGame),
}

/// An older judge's whole record (schema 1) as a [`StoredGame`]: its table's history
/// taken out as the entries, the rest with its count as the snapshot.
pub fn whole_record(mut value: Value) -> serde_json::Result<StoredGame> {
    let table = value.as_object_mut().and_then(|m| m.remove("table"));
    let record: GameRecord = serde_json::from_value(value)?;
    let table = match table {
        None | Some(Value::Null) => None,
        Some(t) => Some(StoredTable::from_table_json(&t).map_err(serde::de::Error::custom)?),
    };
    Ok(StoredGame { record, table })
}

#[cfg(test)]
mod tests {
    use super::*;
    use castellan_engine::{Snapshot, StoredEntry};
    use serde_json::json;

    fn record() -> GameRecord {
        serde_json::from_value(json!({
            "id": "castle-1", "game": "castle-risk", "status": "Running", "gm": "gm@x",
            "gm_password_hash": "", "gm_token": "t", "join_password_hash": "", "salt": "",
            "seats": [], "observers": [], "options": [],
            "deadlines": {"hours": 24, "reminder_hours": 6, "grace_hours": 2},
            "deadline": 100000, "paused_left": null, "deadline_history": 0,
            "reminded": [], "out_counter": 0, "reported": 3, "revealed": 0, "created": 0,
            "ended": null
        }))
        .unwrap()
    }

    /// An older judge's whole record reads as the same record with its table taken apart:
    /// the history as the entries, the rest with its count as the snapshot.
    #[test]
    fn a_whole_record_reads_as_its_header_and_its_table_apart() {
        let mut whole = serde_json::to_value(record()).unwrap();
        whole["table"] = json!({"state": {"x": 1}, "dice": {}, "base": 1,
            "history": [{"n": 1}, {"n": 2}, {"n": 3}]});
        assert!(is_schema_1(&whole));
        let GameValue::Whole(g) = read_game_value(&serde_json::to_vec(&whole).unwrap()).unwrap()
        else {
            panic!("a whole record")
        };
        assert_eq!(g.record, record());
        let t = g.table.unwrap();
        assert_eq!((t.base, t.history_len().unwrap()), (1, 4));
        let entries: Vec<Value> = t
            .entries
            .iter()
            .map(|e| serde_json::from_slice(e.as_bytes()).unwrap())
            .collect();
        assert_eq!(
            entries,
            vec![json!({"n": 1}), json!({"n": 2}), json!({"n": 3})]
        );
        let snapshot: Value = serde_json::from_slice(t.snapshot.as_bytes()).unwrap();
        assert_eq!(
            snapshot,
            json!({"state": {"x": 1}, "dice": {}, "history_len": 4})
        );
        // A forming game's whole record has no table.
        let mut forming = serde_json::to_value(record()).unwrap();
        forming["table"] = Value::Null;
        let GameValue::Whole(g) = read_game_value(&serde_json::to_vec(&forming).unwrap()).unwrap()
        else {
            panic!("a whole record")
        };
        assert!(g.table.is_none());
    }

    /// A game written whole (the journal's changes, exports) reads back the same, its
    /// loaded tail and its base with it.
    #[test]
    fn a_game_written_whole_reads_back_the_same() {
        let table = StoredTable {
            snapshot: Snapshot::from_bytes(br#"{"history_len":5,"state":{"x":1}}"#.to_vec()),
            base: 3,
            entries: vec![
                StoredEntry::from_bytes(br#"{"n":3}"#.to_vec()),
                StoredEntry::from_bytes(br#"{"n":4}"#.to_vec()),
            ],
        };
        let g = StoredGame {
            record: record(),
            table: Some(table),
        };
        let text = serde_json::to_string(&g).unwrap();
        let back: StoredGame = serde_json::from_str(&text).unwrap();
        assert_eq!(back.record, g.record);
        let t = back.table.unwrap();
        assert_eq!((t.base, t.history_len().unwrap()), (3, 5));
        assert_eq!(t.entries, g.table.as_ref().unwrap().entries);
        let forming = StoredGame {
            record: record(),
            table: None,
        };
        let back: StoredGame =
            serde_json::from_str(&serde_json::to_string(&forming).unwrap()).unwrap();
        assert_eq!(back, forming);
    }

    #[test]
    fn the_header_is_stored_with_its_schema_first_and_read_back() {
        let bytes = header_bytes(&record()).unwrap();
        assert!(
            bytes.starts_with(br#"{"schema":2,"#),
            "{}",
            String::from_utf8_lossy(&bytes)
        );
        let v: Value = serde_json::from_slice(&bytes).unwrap();
        assert!(!is_schema_1(&v) && v.get("table").is_none());
        let GameValue::Header(back) = read_game_value(&bytes).unwrap() else {
            panic!("a header")
        };
        assert_eq!(back, record());
        // A header an older build wrote (its keys sorted, the schema among them) too.
        let GameValue::Header(old) = read_game_value(&serde_json::to_vec(&v).unwrap()).unwrap()
        else {
            panic!("a header")
        };
        assert_eq!(old, record());
    }

    /// "A mail reads the header and the snapshot only" (and the entries its
    /// reports must still tell).
    #[test]
    fn a_mail_loads_from_the_earliest_entry_a_reader_was_not_told() {
        let mut rec = record();
        rec.reported = 40;
        assert_eq!(needed_from(&rec), 40);
        rec.told.insert("slow@x".into(), 12);
        assert_eq!(needed_from(&rec), 12);
    }

    /// "The tick touches only what is due: an index of deadlines and reminders
    /// ordered by time".
    #[test]
    fn the_tick_is_due_at_the_reminder_then_at_the_deadline_with_its_grace() {
        let mut rec = record();
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

    /// The tick touches only what is due: a reminder that would reach
    /// nobody (the awaited seat is a bot stand-in, or empty) does not make the game due
    /// at every tick until its deadline (src/deadlines.rs `remind` skips such seats).
    #[test]
    fn a_reminder_that_would_reach_nobody_leaves_the_game_due_at_its_deadline() {
        let mut rec = record();
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

    /// "A game's history is appended, never rewritten."
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
