//! A game's stored form, owned by the engine: the judge's store keeps a table as a
//! [`Snapshot`] (the table without its history, with the history's length) and
//! [`StoredEntry`]s (one per history entry, numbered from 0, appended and never
//! rewritten). Both are JSON text written by the game's own types; only the engine reads
//! them ([`Session::stored`] gives them, [`GameInfo::load`] takes them back), so the judge
//! and the store handle a game without knowing its types and without a JSON tree between
//! them.

use super::*;
use serde::de::{IgnoredAny, MapAccess, Visitor};

/// The table without its history: envelope, options, state, dice and `history_len`.
#[derive(Clone, PartialEq, Eq)]
pub struct Snapshot(Vec<u8>);

/// One history entry of a table, as stored.
#[derive(Clone, PartialEq, Eq)]
pub struct StoredEntry(Vec<u8>);

impl Snapshot {
    /// The bytes a store read back (checked when the engine loads them).
    pub fn from_bytes(bytes: Vec<u8>) -> Snapshot {
        Snapshot(bytes)
    }
    pub fn as_bytes(&self) -> &[u8] {
        &self.0
    }

    /// How many history entries belong to the game: the count the snapshot was written
    /// with. The engine writes it first, so only the snapshot's first bytes are read; a
    /// snapshot written with its keys in another order (by an older judge) is read through.
    pub fn history_len(&self) -> Result<usize, String> {
        const FIRST: &[u8] = b"{\"history_len\":";
        if let Some(rest) = self.0.strip_prefix(FIRST) {
            let digits = rest.iter().take_while(|b| b.is_ascii_digit()).count();
            let after = rest.get(digits).copied();
            if digits > 0 && matches!(after, Some(b',') | Some(b'}')) {
                if let Some(n) = std::str::from_utf8(&rest[..digits])
                    .ok()
                    .and_then(|d| d.parse().ok())
                {
                    return Ok(n);
                }
            }
        }
        let mut de = serde_json::Deserializer::from_slice(&self.0);
        let n = serde::Deserializer::deserialize_map(&mut de, HistoryLen)
            .and_then(|n| de.end().map(|()| n))
            .map_err(|e| format!("the stored state is unreadable: {e}"))?;
        n.ok_or_else(|| "the stored state has no history length".to_string())
    }
}

impl StoredEntry {
    pub fn from_bytes(bytes: Vec<u8>) -> StoredEntry {
        StoredEntry(bytes)
    }
    pub fn as_bytes(&self) -> &[u8] {
        &self.0
    }
}

impl std::fmt::Debug for Snapshot {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Snapshot({})", String::from_utf8_lossy(&self.0))
    }
}

impl std::fmt::Debug for StoredEntry {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "StoredEntry({})", String::from_utf8_lossy(&self.0))
    }
}

/// Reads `history_len` from a snapshot's map (the other values skipped).
struct HistoryLen;

impl<'de> Visitor<'de> for HistoryLen {
    type Value = Option<usize>;
    fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        f.write_str("a stored table")
    }
    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Option<usize>, A::Error> {
        let mut found = None;
        while let Some(key) = map.next_key::<std::borrow::Cow<'de, str>>()? {
            if key == "history_len" && found.is_none() {
                found = Some(map.next_value()?);
            } else {
                map.next_value::<IgnoredAny>()?;
            }
        }
        Ok(found)
    }
}

/// A table as stored: its snapshot and the history entries in hand, from `base`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StoredTable {
    pub snapshot: Snapshot,
    /// The number of `entries[0]` (the entries before it are stored apart, not in hand).
    pub base: usize,
    pub entries: Vec<StoredEntry>,
}

impl StoredTable {
    /// The number of history entries of the game: the snapshot's count.
    pub fn history_len(&self) -> Result<usize, String> {
        self.snapshot.history_len()
    }

    /// The whole table as one JSON value, its history inside (with its `base` when it
    /// does not start at 0): the inverse of [`StoredTable::from_table_json`].
    pub fn to_table_json(&self) -> Result<serde_json::Value, String> {
        use serde_json::Value;
        let mut map: serde_json::Map<String, Value> =
            serde_json::from_slice(self.snapshot.as_bytes()).map_err(|e| e.to_string())?;
        map.remove("history_len");
        let history = self
            .entries
            .iter()
            .map(|e| serde_json::from_slice(e.as_bytes()))
            .collect::<Result<Vec<Value>, _>>()
            .map_err(|e| e.to_string())?;
        map.insert("history".into(), Value::Array(history));
        if self.base > 0 {
            map.insert("base".into(), Value::from(self.base));
        }
        Ok(Value::Object(map))
    }

    /// A whole table's JSON (its history inside, from its `base`: what
    /// [`Session::to_json`] gives, or an older judge stored in one value) taken apart as
    /// the store keeps it. Its parts are not read as a game here: the engine reads them
    /// when the table loads.
    pub fn from_table_json(table: &serde_json::Value) -> Result<StoredTable, String> {
        use serde_json::Value;
        let Value::Object(whole) = table else {
            return Err("a table is not an object".into());
        };
        let history: &[Value] = match whole.get("history") {
            Some(Value::Array(a)) => a,
            None => &[],
            Some(_) => return Err("a history is not a list".into()),
        };
        let base = match whole.get("base") {
            Some(v) => v.as_u64().ok_or("a history base is not a number")? as usize,
            None => 0,
        };
        let mut map: serde_json::Map<String, Value> = whole
            .iter()
            .filter(|(k, _)| !matches!(k.as_str(), "history" | "base" | "history_len"))
            .map(|(k, v)| (k.clone(), v.clone()))
            .collect();
        map.insert("history_len".into(), Value::from(base + history.len()));
        let entries = history
            .iter()
            .map(|e| serde_json::to_vec(e).map(StoredEntry))
            .collect::<Result<_, _>>()
            .map_err(|e| e.to_string())?;
        Ok(StoredTable {
            snapshot: Snapshot(serde_json::to_vec(&map).map_err(|e| e.to_string())?),
            base,
            entries,
        })
    }
}

/// The snapshot as written: `history_len` first, then the table's fields but its history.
#[derive(Serialize)]
#[serde(bound = "")]
struct SnapshotOut<'a, R: Rules> {
    history_len: usize,
    version: u32,
    state_version: u32,
    game: &'a str,
    players: &'a [String],
    options: &'a R::Options,
    state: &'a R,
    dice: &'a DiceBox,
}

/// The snapshot as read: the table's fields but its history, in any order (an older
/// judge wrote them sorted by name; `history_len` is read by [`Snapshot::history_len`]).
#[derive(Deserialize)]
#[serde(bound = "")]
struct SnapshotIn<R: Rules> {
    version: u32,
    state_version: u32,
    game: String,
    players: Vec<String>,
    options: R::Options,
    state: R,
    dice: DiceBox,
}

impl<R: Rules> Table<R> {
    /// The stored form: the snapshot, and the history entries from `from` on (those
    /// before are stored already; `from` below the entries in hand gives all in hand).
    pub fn stored(&self, from: usize) -> Result<StoredTable, String> {
        let history_len = self.history_len();
        let snapshot = serde_json::to_vec(&SnapshotOut::<R> {
            history_len,
            version: self.version,
            state_version: self.state_version,
            game: &self.game,
            players: &self.players,
            options: &self.options,
            state: &self.state,
            dice: &self.dice,
        })
        .map_err(|e| e.to_string())?;
        let base = from.clamp(self.base, history_len);
        let entries = self.history[base - self.base..]
            .iter()
            .map(|e| serde_json::to_vec(e).map(StoredEntry))
            .collect::<Result<Vec<_>, _>>()
            .map_err(|e| e.to_string())?;
        Ok(StoredTable {
            snapshot: Snapshot(snapshot),
            base,
            entries,
        })
    }

    /// The table back from its stored form. Err if a part is unreadable, if the entries
    /// do not reach the snapshot's count, or if the versions are not this build's. A part
    /// an older build wrote in a shape this build's types do not read is converted by the
    /// game ([`Rules::upgrade_json`]), through the whole table's JSON.
    pub fn from_stored(stored: &StoredTable) -> Result<Table<R>, String> {
        let len = stored.history_len()?;
        if stored.base + stored.entries.len() != len {
            return Err(format!(
                "its history has {} entries from {}, its state counts {len}",
                stored.entries.len(),
                stored.base,
            ));
        }
        Table::from_stored_typed(stored).or_else(|typed| {
            Table::from_stored_upgraded(stored)
                .map_err(|upgraded| format!("{typed} (as an older build's table: {upgraded})"))
        })
    }

    /// The stored form read by this build's types, part by part.
    fn from_stored_typed(stored: &StoredTable) -> Result<Table<R>, String> {
        let s: SnapshotIn<R> = serde_json::from_slice(stored.snapshot.as_bytes())
            .map_err(|e| format!("the stored state is unreadable: {e}"))?;
        let history = stored
            .entries
            .iter()
            .enumerate()
            .map(|(i, e)| {
                serde_json::from_slice(e.as_bytes())
                    .map_err(|er| format!("history entry {} is unreadable: {er}", stored.base + i))
            })
            .collect::<Result<Vec<Entry<R>>, String>>()?;
        let mut t = Table {
            version: s.version,
            state_version: s.state_version,
            game: s.game,
            players: s.players,
            options: s.options,
            state: s.state,
            dice: s.dice,
            history,
            base: stored.base,
        };
        t.check_versions()?;
        Ok(t)
    }

    /// The stored form put together as one JSON table, converted by the game, then read.
    fn from_stored_upgraded(stored: &StoredTable) -> Result<Table<R>, String> {
        let mut t: Table<R> = serde_json::from_value(R::upgrade_json(stored.to_table_json()?))
            .map_err(|e| e.to_string())?;
        t.check_versions()?;
        Ok(t)
    }
}

#[cfg(all(test, feature = "toy"))]
mod tests {
    use super::*;
    use crate::toy::Race;

    fn played() -> Table<Race> {
        let mut t = Table::<Race>::new(
            "toy-1",
            Secret([7; 32]),
            vec!["Ann".into(), "Bob".into()],
            (),
        )
        .unwrap();
        play_out(&mut t, 40).unwrap();
        t
    }

    /// A table stored whole and read back is the same table: same JSON as the whole
    /// table's, and it replays.
    #[test]
    fn a_table_stored_and_loaded_is_the_same_table() {
        let t = played();
        let s = t.stored(0).unwrap();
        assert_eq!(s.history_len().unwrap(), t.history_len());
        assert_eq!(s.entries.len(), t.history_len());
        let back = Table::<Race>::from_stored(&s).unwrap();
        assert_eq!(
            serde_json::to_value(&back).unwrap(),
            serde_json::to_value(&t).unwrap()
        );
        back.replay().unwrap();
    }

    /// Only the entries from `from` are written; a tail loads with its base, and a tail
    /// that does not reach the snapshot's count is refused, never loaded short.
    #[test]
    fn a_tail_loads_with_its_base_and_a_short_one_is_refused() {
        let t = played();
        let len = t.history_len();
        assert!(len > 3, "the toy game has a history");
        let tail = t.stored(len - 2).unwrap();
        assert_eq!((tail.base, tail.entries.len()), (len - 2, 2));
        let back = Table::<Race>::from_stored(&tail).unwrap();
        assert_eq!((back.base, back.history_len()), (len - 2, len));
        let mut short = tail.clone();
        short.entries.pop();
        assert!(Table::<Race>::from_stored(&short).is_err());
        // Past the end: nothing to write, the snapshot still counts them all.
        let none = t.stored(len + 5).unwrap();
        assert_eq!((none.base, none.entries.len()), (len, 0));
    }

    /// A snapshot an older judge wrote (its keys sorted by name) gives its count too.
    #[test]
    fn the_count_is_read_whatever_the_order_of_the_keys() {
        let sorted = Snapshot::from_bytes(
            br#"{"dice":{"a":[1,{"history_len":5}]},"game":"toy","history_len":3,"z":1}"#.to_vec(),
        );
        assert_eq!(sorted.history_len(), Ok(3));
        let first = Snapshot::from_bytes(br#"{"history_len":9,"game":"toy"}"#.to_vec());
        assert_eq!(first.history_len(), Ok(9));
        assert!(Snapshot::from_bytes(b"{\"game\":1}".to_vec())
            .history_len()
            .is_err());
        assert!(Snapshot::from_bytes(b"[1".to_vec()).history_len().is_err());
    }
}
