//! sled behind the judge's [`Store`] trait: a message's changes are applied whole, in one
//! transaction over every tree it touches (with the other mails of its group:
//! store/commit.rs), flushed to disk before the message is acknowledged.
//!
//! Trees: `games` (id → the game's header: its GameRecord without the table, with the
//! schema version), `states` (id → its snapshot: the table without its history),
//! `history` (id, 0, big-endian entry number → one history entry; appended, never
//! rewritten), `due` (due time, id → empty: the tick's index,
//! `castellan_judge::stored::next_due`), `game_index` (`due/<id>` → its key in `due`;
//! `hlen/<id>` → how many history entries are stored; `token/<token>` → the id of the game
//! a plus-address token names, and `tokens/<id>` → the tokens it indexed, so a mail to
//! `judge+TOKEN@` reads one key, not every game; `addr/<address>\0<id>` → empty for each
//! address a game mails as its own, and `addrs/<id>` → the addresses it indexed, so STOP
//! scans its sender's games, not every game; `game_number` → the highest number a game's
//! id ends with, so CREATE reads one key; `count/…` and `deadline/<time><id>`, the games'
//! gauges for `/metrics`, store/gauges.rs; a database without them is given them at open),
//! all written in the same transaction as the game (a database of schema
//! 1, each game whole in `games`, is converted at open). `processed` (Message-ID → unix
//! time), `outbox` (big-endian sequence → [`OutboxItem`] JSON, compressed (LZ4) past
//! 8 KiB), `sent` (Message-ID → unix time), `log` (game id, 0, big-endian sequence →
//! LogLine JSON), `senders` (address → SenderRecord; the judge's own marks and budgets
//! beside them, under keys that start with a NUL, which no address holds:
//! `castellan_judge::mark_key`, `MARKS_KEY`), `meta` (`journal_seq` → the
//! big-endian sequence number of the last journal entry committed, written in the same
//! transaction as that entry's changes: src/store/journal/ and src/ops/recover.rs). `records` (address →
//! PlayerRecord), `campaigns` (id → CampaignRecord).

use castellan_engine::{Snapshot, StoredEntry, StoredTable};
use castellan_judge::stored::GameValue;
use castellan_judge::{
    stored, CampaignRecord, Changes, GameRecord, Outbound, PlayerRecord, SenderRecord, Store,
    StoreError, StoredGame,
};
use serde::{Deserialize, Serialize};
use sled::transaction::TransactionError;
use sled::Transactional;
use std::path::Path;

mod cache;
mod codec;
mod commit;
mod disk;
pub mod fault;
mod gauges;
pub mod journal;
mod open;
mod outbox;
mod retry;

use codec::{decode_outbox, encode_outbox};
#[cfg(test)]
use codec::{deflated, DEFLATED, FRAMED, LZ4, LZ4_FRAMED};
use commit::GameWrite;
pub use commit::{encode_replies, EncodedReplies};
use disk::Synced;
pub use disk::{
    compaction_lock_path, create_private, dir_size, is_serving, patience, serving_marker,
    write_private,
};
pub use gauges::{status_label, GameGauges};
pub use retry::OutboxCounts;

/// A reply waiting to be sent, with its retry state.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
pub struct OutboxItem {
    pub mail: Outbound,
    pub attempts: u32,
    /// Unix time before which it is not retried.
    pub not_before: i64,
    pub last_error: Option<String>,
    /// Parked after too many permanent failures (kept, never dropped).
    pub failed: bool,
}

#[derive(Clone)]
pub struct SledStore {
    /// The database folder: after sled's own flush, its files are synced to the device.
    path: std::path::PathBuf,
    db: sled::Db,
    games: sled::Tree,
    processed: sled::Tree,
    outbox: sled::Tree,
    /// When each reply refused once may go again (store/retry.rs).
    outbox_retry: sled::Tree,
    sent: sled::Tree,
    log: sled::Tree,
    senders: sled::Tree,
    meta: sled::Tree,
    records: sled::Tree,
    campaigns: sled::Tree,
    states: sled::Tree,
    history: sled::Tree,
    due: sled::Tree,
    game_index: sled::Tree,
    /// sled's log file, for the fdatasync sled's own flush does not do.
    log_file: std::sync::Arc<std::fs::File>,
    synced: std::sync::Arc<std::sync::Mutex<Synced>>,
    /// A shared lock on the database's compaction lock file ([`compaction_lock_path`]),
    /// held while this store is open: `castellan compact` takes it exclusively.
    _open: Option<std::sync::Arc<std::fs::File>>,
    /// The games kept decoded, shared by the clones (store/cache.rs).
    cache: std::sync::Arc<cache::GameCache>,
}

/// sled's page cache (its default is 1 GiB). A mail reads a game's header and snapshot, a
/// few KB; a backup (rolling ones included, `serve --once` too) reads every record once,
/// and with the default cache a database of 1 GB stayed in memory: 832 MiB of RSS for a
/// `serve --once` over 100,000 games that made its rolling backup.
const CACHE_BYTES: u64 = 64 * 1024 * 1024;

/// The key in the `meta` tree of the last journal entry committed.
const JOURNAL_SEQ: &[u8] = b"journal_seq";
/// The key in the `meta` tree of the stored layout's version (absent: 1).
pub const SCHEMA_KEY: &[u8] = b"schema";
/// The `meta` key saying every game's tokens are in the token index.
pub const TOKENS_KEY: &[u8] = b"tokens_indexed";
/// The `meta` key saying every game's addresses are in the address index.
pub const ADDRESSES_KEY: &[u8] = b"addresses_indexed";
/// The `meta` key saying the highest game number is kept (`game_index`: `game_number`).
pub const NUMBER_KEY: &[u8] = b"game_number_kept";
/// The `meta` key saying the games' gauges are kept (`game_index`: `count/…`,
/// `deadline/…`; store/gauges.rs).
pub const GAUGES_KEY: &[u8] = b"gauges_kept";
/// The `meta` key saying the outbox's retry index is kept (`outbox_retry`;
/// store/retry.rs).
pub const RETRY_KEY: &[u8] = b"outbox_retry_kept";
/// The `meta` key saying the judge's own marks in `senders` are under keys no address can
/// spell (`castellan_judge::mark_key`): `stop/…`, `asked/…` and
/// `failed-tries/…`, as a judge before it wrote them, are moved there at open.
pub const MARKS_KEY: &[u8] = b"marks_keyed";
/// The marks of the indexes `SledStore::index_games` builds: a restore removes them before
/// loading a backup, so that the indexes the backup lacks are built after it.
pub const INDEX_MARKS: [&[u8]; 6] = [
    TOKENS_KEY,
    ADDRESSES_KEY,
    NUMBER_KEY,
    GAUGES_KEY,
    RETRY_KEY,
    MARKS_KEY,
];

/// The kinds of marks an older judge kept in `senders` under `KIND/NAME`.
const OLD_MARKS: [&str; 3] = ["stop", "asked", "failed-tries"];

/// Whether `key` of the `meta` tree is one of the marks a new database holds
/// ([`SledStore::open`]: its layout's and its indexes'): a restore takes a database
/// holding only these as empty.
pub fn is_mark(key: &[u8]) -> bool {
    key == SCHEMA_KEY || INDEX_MARKS.contains(&key)
}

/// The key of history entry `n` of game `id`.
fn entry_key(id: &str, n: usize) -> Vec<u8> {
    let mut k = Vec::with_capacity(id.len() + 9);
    k.extend_from_slice(id.as_bytes());
    k.push(0);
    k.extend_from_slice(&(n as u64).to_be_bytes());
    k
}

/// The key of game `id` in the `due` index at unix time `at` (ordered by time, negative
/// times included).
fn due_key(at: i64, id: &str) -> Vec<u8> {
    let mut k = ((at as u64) ^ (1 << 63)).to_be_bytes().to_vec();
    k.extend_from_slice(id.as_bytes());
    k
}

fn index_key(kind: &str, id: &str) -> Vec<u8> {
    format!("{kind}/{id}").into_bytes()
}

fn err(e: impl std::fmt::Display) -> StoreError {
    StoreError::new(e.to_string())
}

impl SledStore {
    /// Convert every game stored whole (schema 1: its history inside its record) to the
    /// layout of [`stored::SCHEMA`], one transaction a game, then mark the database. Runs
    /// at open (skipped once the database is marked, unless `force`: a restored backup
    /// may hold old records) and is safe to interrupt: a game is converted whole or not.
    /// Returns how many games were converted.
    pub fn upgrade(&self, force: bool) -> Result<usize, StoreError> {
        let marked = self
            .meta
            .get(SCHEMA_KEY)
            .map_err(err)?
            .is_some_and(|v| v.as_ref() == (stored::SCHEMA as u64).to_be_bytes());
        if marked && !force {
            return Ok(0);
        }
        let mut n = 0;
        for kv in self.games.iter() {
            let (k, v) = kv.map_err(err)?;
            let id = String::from_utf8_lossy(&k).into_owned();
            // Unreadable: left as it is; the judge puts that game in quarantine.
            let Ok(GameValue::Whole(game)) = stored::read_game_value(&v) else {
                continue;
            };
            let w = GameWrite::of(&game)?;
            let writing = self.cache.writing();
            (
                &self.games,
                &self.states,
                &self.history,
                &self.due,
                &self.game_index,
            )
                .transaction(|(g, s, h, d, i)| {
                    // Entries of a whole record replace whatever an older try left.
                    i.remove(index_key("hlen", &id))?;
                    w.write(g, s, h, d, i)
                })
                .map_err(|e: TransactionError<String>| {
                    err(format!("converting game {id}: {e:?}"))
                })?;
            writing.done(|games| games.forget(&id));
            n += 1;
        }
        self.meta
            .insert(SCHEMA_KEY, &(stored::SCHEMA as u64).to_be_bytes())
            .map_err(err)?;
        // Only what is not marked: a restore removes the marks of the indexes its backup
        // did not bring (src/backup.rs `restore`).
        self.index_games()?;
        if n > 0 {
            self.flush()?;
            tracing::info!(
                games = n,
                "converted the stored games to schema {}",
                stored::SCHEMA
            );
        }
        Ok(n)
    }

    /// The database folder.
    /// The largest value stored in any tree, in bytes, and its tree (sled writes
    /// values over its blob threshold to files of their own).
    pub fn largest_value(&self) -> Result<(u64, String), StoreError> {
        let mut best = (0u64, String::new());
        for name in self.db.tree_names() {
            let tree = self.db.open_tree(&name).map_err(err)?;
            for kv in tree.iter() {
                let (_, v) = kv.map_err(err)?;
                if v.len() as u64 > best.0 {
                    best = (v.len() as u64, String::from_utf8_lossy(&name).into_owned());
                }
            }
        }
        Ok(best)
    }

    /// The bytes of every key and value held (what a compacted database must store):
    /// `castellan doctor` sets it beside the folder's size.
    pub fn live_bytes(&self) -> Result<u64, StoreError> {
        let mut n = 0u64;
        for name in self.db.tree_names() {
            let tree = self.db.open_tree(&name).map_err(err)?;
            for kv in tree.iter() {
                let (k, v) = kv.map_err(err)?;
                n += (k.len() + v.len()) as u64;
            }
        }
        Ok(n)
    }

    pub fn path(&self) -> &Path {
        &self.path
    }

    /// sled itself, for what works on whole trees (backup and restore: src/ops/backup.rs).
    /// The games kept decoded are forgotten: what is written through it is read from sled
    /// next (a restore forgets them again once it wrote: [`SledStore::forget_games`]).
    pub fn db(&self) -> &sled::Db {
        self.cache.clear();
        &self.db
    }

    /// Forget the games kept decoded, after writing their trees through [`SledStore::db`].
    pub fn forget_games(&self) {
        self.cache.clear();
    }

    /// The sequence number of the last journal entry committed (0: none).
    pub fn journal_seq(&self) -> Result<u64, StoreError> {
        Ok(match self.meta.get(JOURNAL_SEQ).map_err(err)? {
            Some(v) => u64::from_be_bytes(v.as_ref().try_into().map_err(err)?),
            None => 0,
        })
    }

    /// Whether a game of this id is stored (false if that cannot be read).
    pub fn has_game(&self, id: &str) -> bool {
        self.games.contains_key(id.as_bytes()).unwrap_or(false)
    }

    /// Whether a mail with this Message-ID (from anyone, with any content) was handled:
    /// the processed keys start with the Message-ID (`castellan_judge::processed_key`).
    pub fn handled_message_id(&self, message_id: &str) -> Result<bool, StoreError> {
        let prefix = format!("{} ", message_id.trim());
        Ok(self
            .processed
            .scan_prefix(prefix.as_bytes())
            .next()
            .transpose()
            .map_err(err)?
            .is_some())
    }

    /// Log lines of one game, in order.
    pub fn game_log(&self, id: &str) -> Result<Vec<serde_json::Value>, StoreError> {
        let mut prefix = id.as_bytes().to_vec();
        prefix.push(0);
        self.log
            .scan_prefix(&prefix)
            .map(|kv| {
                let (_, v) = kv.map_err(err)?;
                serde_json::from_slice(&v).map_err(err)
            })
            .collect()
    }
}

impl SledStore {
    /// A game's value in the `games` tree (unreadable: the game waits in quarantine).
    fn game_value(&self, id: &str) -> Result<Option<GameValue>, StoreError> {
        let Some(v) = self.games.get(id.as_bytes()).map_err(err)? else {
            return Ok(None);
        };
        stored::read_game_value(&v)
            .map(Some)
            .map_err(|e| StoreError::quarantine(id, &format!("its record is unreadable: {e}")))
    }

    /// A game with its history from entry `from` on (`None`: from the first entry a reader
    /// was not told, `stored::needed_from`): kept decoded from a first load or the last
    /// commit of it (store/cache.rs), else read from sled and kept.
    fn load(&self, id: &str, from: Option<usize>) -> Result<Option<StoredGame>, StoreError> {
        if let Some(g) = self.cache.get(id).and_then(|c| c.window(from)) {
            return Ok(Some(g));
        }
        let ticket = self.cache.ticket();
        let Some((game, header_bytes)) = self.load_from_sled(id, from)? else {
            return Ok(None);
        };
        if let Some(header_bytes) = header_bytes {
            if let Some(c) = cache::Cached::new(game.clone(), header_bytes) {
                self.cache.fill(ticket, id, c);
            }
        }
        Ok(Some(game))
    }

    /// [`SledStore::load`] from sled, with the stored header's length (None: an older
    /// judge's whole record, not kept in memory).
    fn load_from_sled(
        &self,
        id: &str,
        from: Option<usize>,
    ) -> Result<Option<(StoredGame, Option<usize>)>, StoreError> {
        let Some(v) = self.games.get(id.as_bytes()).map_err(err)? else {
            return Ok(None);
        };
        let header = match stored::read_game_value(&v)
            .map_err(|e| StoreError::quarantine(id, &format!("its record is unreadable: {e}")))?
        {
            GameValue::Whole(g) => return Ok(Some((g, None))),
            GameValue::Header(h) => h,
        };
        let header_bytes = Some(v.len());
        let Some(snapshot) = self.states.get(id.as_bytes()).map_err(err)? else {
            let game = StoredGame {
                record: header,
                table: None,
            };
            return Ok(Some((game, header_bytes)));
        };
        let snapshot = Snapshot::from_bytes(snapshot.to_vec());
        let len = snapshot
            .history_len()
            .map_err(|e| StoreError::quarantine(id, &e))?;
        let from = from
            .unwrap_or_else(|| stored::needed_from(&header))
            .min(len);
        let entries = self
            .history
            .range(entry_key(id, from)..entry_key(id, len))
            .map(|kv| kv.map(|(_, v)| StoredEntry::from_bytes(v.to_vec())))
            .collect::<Result<Vec<_>, _>>()
            .map_err(err)?;
        if entries.len() != len - from {
            return Err(StoreError::quarantine(
                id,
                &format!(
                    "its history has {} entries from {from}, its state counts {len}",
                    entries.len()
                ),
            ));
        }
        let game = StoredGame {
            record: header,
            table: Some(StoredTable {
                snapshot,
                base: from,
                entries,
            }),
        };
        Ok(Some((game, header_bytes)))
    }
}

impl Store for SledStore {
    fn game(&self, id: &str) -> Result<Option<StoredGame>, StoreError> {
        self.load(id, None)
    }

    fn game_whole(&self, id: &str) -> Result<Option<StoredGame>, StoreError> {
        self.load(id, Some(0))
    }

    fn game_header(&self, id: &str) -> Result<Option<GameRecord>, StoreError> {
        if let Some(c) = self.cache.get(id) {
            return Ok(Some(c.record().clone()));
        }
        Ok(self.game_value(id)?.map(|v| match v {
            GameValue::Whole(g) => g.record,
            GameValue::Header(h) => h,
        }))
    }

    fn due_games(&self, now: i64) -> Result<Vec<String>, StoreError> {
        let mut ids = Vec::new();
        let end = due_key(now.saturating_add(1), "");
        for kv in self.due.range(..end) {
            let (k, _) = kv.map_err(err)?;
            ids.push(String::from_utf8_lossy(&k[8..]).into_owned());
        }
        ids.sort();
        ids.dedup();
        Ok(ids)
    }

    /// One scan of the address index (built by `SledStore::index_games`): the keys under
    /// the address, no game read.
    fn games_of_address(&self, address: &str) -> Result<Vec<String>, StoreError> {
        let prefix = commit::address_prefix(address);
        self.game_index
            .scan_prefix(&prefix)
            .keys()
            .map(|k| {
                k.map(|k| String::from_utf8_lossy(&k[prefix.len()..]).into_owned())
                    .map_err(err)
            })
            .collect()
    }

    /// One read (kept by each game's commit, built by `SledStore::index_games`).
    fn highest_game_number(&self) -> Result<u64, StoreError> {
        let v = self.game_index.get(commit::GAME_NUMBER).map_err(err)?;
        Ok(commit::highest_game_number(v.as_deref()))
    }

    /// One read of the token index (built by `SledStore::index_games`).
    fn game_of_token(&self, token: &str) -> Result<Option<String>, StoreError> {
        Ok(self
            .game_index
            .get(commit::token_key(token))
            .map_err(err)?
            .map(|id| String::from_utf8_lossy(&id).into_owned()))
    }

    fn game_ids(&self) -> Result<Vec<String>, StoreError> {
        self.games
            .iter()
            .keys()
            .map(|k| {
                k.map(|k| String::from_utf8_lossy(&k).into_owned())
                    .map_err(err)
            })
            .collect()
    }

    fn is_processed(&self, message_id: &str) -> Result<bool, StoreError> {
        self.processed
            .contains_key(message_id.as_bytes())
            .map_err(err)
    }

    fn sender(&self, address: &str) -> Result<Option<SenderRecord>, StoreError> {
        match self.senders.get(address.as_bytes()).map_err(err)? {
            None => Ok(None),
            Some(v) => serde_json::from_slice(&v).map(Some).map_err(err),
        }
    }

    fn record(&self, address: &str) -> Result<Option<PlayerRecord>, StoreError> {
        match self.records.get(address.as_bytes()).map_err(err)? {
            None => Ok(None),
            Some(v) => serde_json::from_slice(&v).map(Some).map_err(err),
        }
    }

    fn campaign(&self, id: &str) -> Result<Option<CampaignRecord>, StoreError> {
        match self.campaigns.get(id.as_bytes()).map_err(err)? {
            None => Ok(None),
            Some(v) => serde_json::from_slice(&v)
                .map(Some)
                .map_err(|e| err(format!("campaign {id} is unreadable: {e}"))),
        }
    }

    fn campaign_ids(&self) -> Result<Vec<String>, StoreError> {
        self.campaigns
            .iter()
            .keys()
            .map(|k| {
                k.map(|k| String::from_utf8_lossy(&k).into_owned())
                    .map_err(err)
            })
            .collect()
    }

    /// One transaction, flushed to the device.
    fn commit(&self, changes: &Changes) -> Result<(), StoreError> {
        self.commit_unflushed(changes)?;
        self.flush()
    }
}

#[cfg(test)]
impl SledStore {
    /// The database at `path` opened again once a store on it was dropped in this
    /// process: sled lets go of its lock when its background flusher has stopped, which
    /// may take a moment (tests only).
    pub(crate) fn reopened(path: &Path) -> SledStore {
        for _ in 0..100 {
            match SledStore::open(path) {
                Err(e) if SledStore::is_busy_error(&e) => {
                    std::thread::sleep(std::time::Duration::from_millis(20))
                }
                r => return r.unwrap(),
            }
        }
        panic!("the database at {} stayed locked", path.display());
    }
}

#[cfg(test)]
mod tests;
