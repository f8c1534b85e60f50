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
//! all written in the same transaction as the game (issue 11; a database of schema
//! 1, each game whole in `games`, is converted at open). `processed` (Message-ID → unix
//! time), `outbox` (big-endian sequence → [`OutboxItem`] JSON, compressed (LZ4) past
//! 8 KiB), `sent` (Message-ID → unix time), `log` (game id, 0, big-endian sequence →
//! LogLine JSON), `senders` (address → SenderRecord; the judge's own marks and budgets
//! beside them, under keys that start with a NUL, which no address holds:
//! `castellan_judge::mark_key`, `MARKS_KEY`), `meta` (`journal_seq` → the
//! big-endian sequence number of the last journal entry committed, written in the same
//! transaction as that entry's changes: src/recover.rs). `records` (address →
//! PlayerRecord, issue 15), `campaigns` (id → CampaignRecord, issue 15).

use castellan_judge::{
    stored, CampaignRecord, Changes, GameRecord, Outbound, PlayerRecord, SenderRecord, Store,
    StoreError,
};
use serde::{Deserialize, Serialize};
use sled::transaction::{ConflictableTransactionError, TransactionError};
use sled::Transactional;
use std::path::Path;

mod codec;
mod commit;
mod disk;
pub mod fault;
mod gauges;
pub mod journal;
mod retry;

use codec::{decode_outbox, encode_outbox};
#[cfg(test)]
use codec::{deflated, DEFLATED, FRAMED, LZ4, LZ4_FRAMED};
use commit::GameWrite;
pub use commit::{encode_replies, EncodedReplies};
pub use disk::{
    compaction_lock_path, create_private, is_serving, patience, serving_marker, write_private,
};
use disk::{open_lock_file, remove_interrupted_snapshots, sync_files, Synced};
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
/// spell (`castellan_judge::mark_key`, issue 30): `stop/…`, `asked/…` and
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

/// The kinds of marks a judge before issue 30 kept in `senders` under `KIND/NAME`.
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
    /// Open (or create) the database. Stale `snap.*.generating` files, left by a snapshot
    /// that a crash interrupted (they make sled 0.34 refuse to open: upstream issues 1527
    /// and 1533), are removed first, and only those. A database sled cannot read (a
    /// truncated or corrupt file, on which sled may panic) is a clear error, never a panic.
    pub fn open(path: &Path) -> Result<SledStore, StoreError> {
        // Taken before the folder is touched, and held while the store is open: while
        // `castellan compact` or `castellan recover` holds it exclusively, the folder
        // may be set aside or swapped, and opening it then could create or change the
        // one about to be replaced.
        if let Some(parent) = path.parent().filter(|p| !p.as_os_str().is_empty()) {
            std::fs::create_dir_all(parent)
                .map_err(|e| err(format!("{}: {e}", parent.display())))?;
        }
        let lock = open_lock_file(path)?;
        if lock.try_lock_shared().is_err() {
            return Err(StoreError::busy(format!(
                "the database at {} is in use by another castellan process: `castellan \
                 compact` or `castellan recover` is rewriting it",
                path.display()
            )));
        }
        let store = SledStore::open_unguarded(path)?;
        Ok(SledStore {
            _open: Some(std::sync::Arc::new(lock)),
            ..store
        })
    }

    /// The exclusive lock of a compaction of the database at `db`, held until the file
    /// returned is dropped; busy if a store of it is open (in any process).
    pub fn lock_for_compaction(db: &Path) -> Result<std::fs::File, StoreError> {
        let lock = open_lock_file(db)?;
        lock.try_lock().map_err(|_| {
            StoreError::busy(format!(
                "the database at {} is in use by another castellan process",
                db.display()
            ))
        })?;
        Ok(lock)
    }

    /// [`SledStore::lock_for_compaction`], waiting up to `patience` while a store of it is
    /// open (an MTA's `ingest` holds it for a moment).
    pub fn lock_for_compaction_within(
        db: &Path,
        patience: std::time::Duration,
    ) -> Result<std::fs::File, StoreError> {
        let give_up = std::time::Instant::now() + patience;
        let mut pause = std::time::Duration::from_millis(10);
        loop {
            match SledStore::lock_for_compaction(db) {
                Err(e) if e.is_busy() && std::time::Instant::now() < give_up => {
                    std::thread::sleep(pause);
                    pause = (pause * 2).min(std::time::Duration::from_millis(200));
                }
                other => return other,
            }
        }
    }

    /// [`SledStore::open`] without the compaction lock: for the compaction itself, which
    /// holds it exclusively ([`SledStore::lock_for_compaction`]).
    pub fn open_unguarded(path: &Path) -> Result<SledStore, StoreError> {
        remove_interrupted_snapshots(path)?;
        let config = sled::Config::new()
            .path(path)
            .mode(sled::Mode::HighThroughput)
            .cache_capacity(CACHE_BYTES);
        // sled may panic on a damaged file: catch it (quietly: the error below says it).
        let hook = std::panic::take_hook();
        std::panic::set_hook(Box::new(|_| {}));
        let opened = std::panic::catch_unwind(std::panic::AssertUnwindSafe(move || config.open()));
        std::panic::set_hook(hook);
        let opened = opened.map_err(|p| {
            let why = p
                .downcast_ref::<String>()
                .cloned()
                .or_else(|| p.downcast_ref::<&str>().map(|s| s.to_string()))
                .unwrap_or_else(|| "sled panicked".into());
            err(format!(
                "the database at {} is damaged and cannot be read ({why}); run \
                 `castellan recover` (it rebuilds it from the newest backup and the journal)",
                path.display()
            ))
        })?;
        let db = opened.map_err(|e| {
            if e.to_string().contains("os error 28") {
                err(format!(
                    "cannot open the database at {}: the disk is full ({e}); free some space",
                    path.display()
                ))
            } else if e.to_string().contains("could not acquire lock") || SledStore::is_busy(path) {
                StoreError::busy(format!(
                    "the database at {} is in use by another castellan process: {e}",
                    path.display()
                ))
            } else {
                err(format!(
                    "cannot open the database at {}: {e}; if it is damaged, run \
                     `castellan recover` (it rebuilds it from the newest backup and the journal)",
                    path.display()
                ))
            }
        })?;
        let store = SledStore {
            path: path.to_path_buf(),
            games: db.open_tree("games").map_err(err)?,
            processed: db.open_tree("processed").map_err(err)?,
            outbox: db.open_tree("outbox").map_err(err)?,
            outbox_retry: db.open_tree("outbox_retry").map_err(err)?,
            sent: db.open_tree("sent").map_err(err)?,
            log: db.open_tree("log").map_err(err)?,
            senders: db.open_tree("senders").map_err(err)?,
            meta: db.open_tree("meta").map_err(err)?,
            records: db.open_tree("records").map_err(err)?,
            campaigns: db.open_tree("campaigns").map_err(err)?,
            states: db.open_tree("states").map_err(err)?,
            history: db.open_tree("history").map_err(err)?,
            due: db.open_tree("due").map_err(err)?,
            game_index: db.open_tree("game_index").map_err(err)?,
            log_file: std::sync::Arc::new(
                std::fs::File::open(path.join("db"))
                    .map_err(|e| err(format!("{}: {e}", path.join("db").display())))?,
            ),
            synced: Default::default(),
            _open: None,
            db,
        };
        store.upgrade(false)?;
        store.index_games()?;
        // A new database's marks (schema, indexes kept) reach its files now, not when
        // sled's flusher gets to them in the middle of the first batch: nothing of a batch
        // is written before its journal entries are synced (tests/durability.rs).
        if !store.db.was_recovered() {
            store.db.flush().map_err(err)?;
        }
        Ok(store)
    }

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
            let value: serde_json::Value = match serde_json::from_slice(&v) {
                Ok(v) => v,
                // Unreadable: left as it is; the judge puts that game in quarantine.
                Err(_) => continue,
            };
            if !stored::is_schema_1(&value) {
                continue;
            }
            let Ok(rec) = serde_json::from_value::<GameRecord>(value) else {
                continue;
            };
            let w = GameWrite::of(&rec)?;
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

    /// Index every game's plus-address tokens (`game_index`: `token/TOKEN` → id, and
    /// `tokens/ID`) and addresses (`addr/ADDRESS\0ID`, and `addrs/ID`), and keep the
    /// highest game number (`game_number`), count the games into their gauges
    /// (store/gauges.rs) and index the outbox's retries (store/retry.rs), each once, when
    /// its mark is not in `meta`: a
    /// database written before an index existed is indexed at its first open, a restored
    /// backup for what it did not bring. Safe to interrupt: it starts over until it is
    /// marked. Returns how many games it indexed.
    fn index_games(&self) -> Result<usize, StoreError> {
        let missing = |mark: &[u8]| -> Result<bool, StoreError> {
            Ok(self.meta.get(mark).map_err(err)?.is_none())
        };
        let (tokens, addresses) = (missing(TOKENS_KEY)?, missing(ADDRESSES_KEY)?);
        let (number, gauges) = (missing(NUMBER_KEY)?, missing(GAUGES_KEY)?);
        if missing(MARKS_KEY)? {
            let n = self.key_old_marks()?;
            self.meta.insert(MARKS_KEY, &[1]).map_err(err)?;
            if n > 0 {
                self.flush()?;
                tracing::info!(marks = n, "moved the judge's marks to their own keys");
            }
        }
        if missing(RETRY_KEY)? {
            let n = self.index_retries()?;
            self.meta.insert(RETRY_KEY, &[1]).map_err(err)?;
            if n > 0 {
                self.flush()?;
                tracing::info!(replies = n, "indexed the outbox's retries");
            }
        }
        if gauges {
            let counted = self.count_games()?;
            self.meta.insert(GAUGES_KEY, &[1]).map_err(err)?;
            if counted > 0 {
                self.flush()?;
                tracing::info!(games = counted, "counted the games into their gauges");
            }
        }
        if !tokens && !addresses && !number {
            return Ok(0);
        }
        let mut n = 0;
        for kv in self.games.iter() {
            let (k, _) = kv.map_err(err)?;
            let id = String::from_utf8_lossy(&k).into_owned();
            // Written as a commit writes them (store/commit.rs `Lookups`). A header that
            // cannot be read is left out: the judge puts that game in quarantine.
            let lookups = (tokens || addresses)
                .then(|| self.game_header(&id).ok().flatten())
                .flatten()
                .map(|h| commit::Lookups::of(&h));
            self.game_index
                .transaction(|index| {
                    if number {
                        commit::raise_game_number(index, &id)?;
                    }
                    if let Some(l) = &lookups {
                        if tokens {
                            l.write_tokens(index)?;
                        }
                        if addresses {
                            l.write_addresses(index)?;
                        }
                    }
                    Ok(())
                })
                .map_err(|e: TransactionError<String>| err(format!("indexing game {id}: {e:?}")))?;
            n += usize::from(lookups.is_some());
        }
        for (wanted, mark) in [
            (tokens, TOKENS_KEY),
            (addresses, ADDRESSES_KEY),
            (number, NUMBER_KEY),
        ] {
            if wanted {
                self.meta.insert(mark, &[1]).map_err(err)?;
            }
        }
        if n > 0 {
            self.flush()?;
            tracing::info!(games = n, tokens, addresses, "indexed the games");
        }
        Ok(n)
    }

    /// Move the marks a judge before issue 30 kept in `senders` (`stop/ADDRESS`,
    /// `asked/ADDRESS`, `failed-tries/GAME/SEAT`) to their keys no address can spell
    /// (`castellan_judge::mark_key`), each in one transaction: they keep meaning what they
    /// meant (an old judge read them as marks, whoever they came from). Safe to interrupt.
    /// Returns how many were moved.
    fn key_old_marks(&self) -> Result<usize, StoreError> {
        let mut n = 0;
        for kind in OLD_MARKS {
            let prefix = format!("{kind}/");
            let old: Vec<(sled::IVec, sled::IVec)> = self
                .senders
                .scan_prefix(prefix.as_bytes())
                .collect::<Result<_, _>>()
                .map_err(err)?;
            for (k, v) in old {
                let name = String::from_utf8_lossy(&k[prefix.len()..]).into_owned();
                let key = castellan_judge::mark_key(kind, &name);
                // Unreadable: dropped (a counter of an hour, a mark read as unset).
                let value = serde_json::from_slice::<SenderRecord>(&v)
                    .ok()
                    .map(|mut r| {
                        r.address = key.clone();
                        serde_json::to_vec(&r)
                    })
                    .transpose()
                    .map_err(err)?;
                self.senders
                    .transaction(|t| {
                        if let Some(v) = &value {
                            t.insert(key.as_bytes(), v.as_slice())?;
                        }
                        t.remove(&k)?;
                        Ok::<(), ConflictableTransactionError<()>>(())
                    })
                    .map_err(|e: TransactionError<()>| err(format!("{e:?}")))?;
                n += 1;
            }
        }
        Ok(n)
    }

    /// Whether a failed open says another process holds the database.
    pub fn is_busy_error(e: &StoreError) -> bool {
        e.is_busy()
    }

    /// Whether a store error says the disk is full (ENOSPC): wait for space and retry.
    pub fn is_disk_full(e: &StoreError) -> bool {
        e.0.contains("os error 28") || e.0.contains("No space left on device")
    }

    /// Whether another process holds the database (sled's lock on its `db` file), as a
    /// running `serve` does: then a failed open is "busy", not "damaged".
    pub fn is_busy(path: &Path) -> bool {
        use fs2::FileExt;
        let Ok(f) = std::fs::OpenOptions::new()
            .read(true)
            .write(true)
            .open(path.join("db"))
        else {
            return false;
        };
        match f.try_lock_exclusive() {
            Ok(()) => {
                let _ = f.unlock();
                false
            }
            Err(_) => true,
        }
    }

    /// The database folder.
    /// The largest value stored in any tree, in bytes, and its tree (issue 11: sled writes
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

    /// sled itself, for what works on whole trees (backup and restore: src/backup.rs).
    pub fn db(&self) -> &sled::Db {
        &self.db
    }

    /// The sequence number of the last journal entry committed (0: none).
    pub fn journal_seq(&self) -> Result<u64, StoreError> {
        Ok(match self.meta.get(JOURNAL_SEQ).map_err(err)? {
            Some(v) => u64::from_be_bytes(v.as_ref().try_into().map_err(err)?),
            None => 0,
        })
    }

    /// Make everything written so far durable on the device. sled 0.34's flush ends in
    /// `sync_file_range`, which does not flush the device's cache, and writes blob files
    /// without syncing them: so after it, the log file, every blob file and the folders
    /// that hold them are fsynced here.
    pub fn flush(&self) -> Result<(), StoreError> {
        self.db.flush().map_err(err)?;
        crate::store::fault::injected_disk_full("disk-full-flush")
            .and_then(|_| {
                let mut synced = self.synced.lock().unwrap_or_else(|p| p.into_inner());
                sync_files(&self.path, &self.log_file, &mut synced)
            })
            .map_err(|e| {
                err(format!(
                    "cannot sync the database at {}: {e}",
                    self.path.display()
                ))
            })
    }

    /// [`SledStore::flush`] with one `syncfs` of each filesystem holding the database or a
    /// folder of `also` in place of the fsyncs of sled's files and folders: a batch whose
    /// replies were written ahead (hidden, src/prestage.rs) makes them durable in the same
    /// call. Everything else on those filesystems is synced too.
    pub fn flush_filesystems(&self, also: &[&Path]) -> Result<(), StoreError> {
        use std::os::unix::fs::MetadataExt;
        self.db.flush().map_err(err)?;
        let cannot = |p: &Path, e: std::io::Error| {
            err(format!(
                "cannot sync the filesystem of {}: {e}",
                p.display()
            ))
        };
        crate::store::fault::injected_disk_full("disk-full-flush")
            .map_err(|e| cannot(&self.path, e))?;
        let mut done: Vec<u64> = Vec::new();
        for p in std::iter::once(self.path.as_path()).chain(also.iter().copied()) {
            let dev = std::fs::metadata(p).map_err(|e| cannot(p, e))?.dev();
            if !done.contains(&dev) {
                castellan_mail::sync_filesystem(p).map_err(|e| cannot(p, e))?;
                done.push(dev);
            }
        }
        Ok(())
    }

    /// Replies waiting, oldest first, with their keys.
    pub fn outbox(&self) -> Result<Vec<(u64, OutboxItem)>, StoreError> {
        Ok(self
            .outbox_listed(|_| Ok(false), |_| false)?
            .into_iter()
            .filter_map(|(key, item)| Some((key, item?)))
            .collect())
    }

    /// The outbox in key order, without the replies `left_out(key)` says (not decoded),
    /// each reply decoded unless `skip(key)` (None): a reply written ahead
    /// (src/prestage.rs) needs only its key, not its page inflated and parsed again.
    fn outbox_listed(
        &self,
        left_out: impl Fn(&[u8]) -> Result<bool, StoreError>,
        skip: impl Fn(u64) -> bool,
    ) -> Result<Vec<(u64, Option<OutboxItem>)>, StoreError> {
        let mut out = Vec::new();
        for kv in self.outbox.iter() {
            let (k, v) = kv.map_err(err)?;
            if left_out(&k)? {
                continue;
            }
            let key = u64::from_be_bytes(k.as_ref().try_into().map_err(err)?);
            let item = if skip(key) {
                None
            } else {
                Some(decode_outbox(&v)?)
            };
            out.push((key, item));
        }
        Ok(out)
    }

    /// Whether a game of this id is stored (false if that cannot be read).
    pub fn has_game(&self, id: &str) -> bool {
        self.games.contains_key(id.as_bytes()).unwrap_or(false)
    }

    /// One reply of the outbox, if it is there.
    pub fn outbox_item(&self, key: u64) -> Result<Option<OutboxItem>, StoreError> {
        self.outbox
            .get(key.to_be_bytes())
            .map_err(err)?
            .map(|v| decode_outbox(&v))
            .transpose()
    }

    /// A reply went out: drop it from the outbox, remember its Message-ID. Not flushed
    /// here: the caller flushes once per batch (losing this mark in a crash only resends
    /// the reply, with the same Message-ID, which receivers and the `sent` tree recognise).
    pub fn mark_sent(&self, key: u64, message_id: &str, now: i64) -> Result<(), StoreError> {
        self.mark_sent_all(&[(key, message_id.to_string())], now)
    }

    /// [`SledStore::mark_sent`] for a batch, in one transaction.
    pub fn mark_sent_all(&self, sent: &[(u64, String)], now: i64) -> Result<(), StoreError> {
        (&self.outbox, &self.sent, &self.outbox_retry)
            .transaction(|(o, s, r)| {
                for (key, message_id) in sent {
                    o.remove(&key.to_be_bytes())?;
                    r.remove(&key.to_be_bytes())?;
                    s.insert(message_id.as_bytes(), &now.to_be_bytes())?;
                }
                Ok::<(), ConflictableTransactionError<()>>(())
            })
            .map_err(|e: TransactionError<()>| err(format!("{e:?}")))?;
        Ok(())
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

    pub fn was_sent(&self, message_id: &str) -> Result<bool, StoreError> {
        self.sent.contains_key(message_id.as_bytes()).map_err(err)
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

/// A game's value in the `games` tree, read.
enum GameValue {
    /// Schema 1, not converted (written by an older judge after the conversion): the
    /// whole record, as it was written.
    Whole(GameRecord),
    /// The header; state and history are apart.
    Header(GameRecord),
}

impl SledStore {
    /// A game's value in the `games` tree (unreadable: the game waits in quarantine).
    fn game_value(&self, id: &str) -> Result<Option<GameValue>, StoreError> {
        let Some(v) = self.games.get(id.as_bytes()).map_err(err)? else {
            return Ok(None);
        };
        let unreadable = |e: &dyn std::fmt::Display| {
            StoreError::quarantine(id, &format!("its record is unreadable: {e}"))
        };
        let value: serde_json::Value = serde_json::from_slice(&v).map_err(|e| unreadable(&e))?;
        if stored::is_schema_1(&value) {
            return serde_json::from_value(value)
                .map(|r| Some(GameValue::Whole(r)))
                .map_err(|e| unreadable(&e));
        }
        stored::header_from(value)
            .map(|h| Some(GameValue::Header(h)))
            .map_err(|e| unreadable(&e))
    }

    /// A game with its history from entry `from` on (`None`: from the first entry a reader
    /// was not told, `stored::needed_from`).
    fn load(&self, id: &str, from: Option<usize>) -> Result<Option<GameRecord>, StoreError> {
        let header = match self.game_value(id)? {
            None => return Ok(None),
            Some(GameValue::Whole(rec)) => return Ok(Some(rec)),
            Some(GameValue::Header(h)) => h,
        };
        let snapshot: Option<serde_json::Value> =
            match self.states.get(id.as_bytes()).map_err(err)? {
                Some(v) => Some(serde_json::from_slice(&v).map_err(|e| {
                    StoreError::quarantine(id, &format!("its state is unreadable: {e}"))
                })?),
                None => None,
            };
        let len = snapshot.as_ref().map_or(0, stored::snapshot_history_len);
        let from = from
            .unwrap_or_else(|| stored::needed_from(&header))
            .min(len);
        let mut entries = Vec::with_capacity(len - from);
        if snapshot.is_some() {
            for kv in self.history.range(entry_key(id, from)..entry_key(id, len)) {
                let (_, v) = kv.map_err(err)?;
                entries.push(serde_json::from_slice(&v).map_err(|e| {
                    StoreError::quarantine(id, &format!("a history entry is unreadable: {e}"))
                })?);
            }
        }
        stored::join(header, snapshot, from, entries)
            .map(Some)
            .map_err(|e| StoreError::quarantine(id, &e.0))
    }
}

impl Store for SledStore {
    fn game(&self, id: &str) -> Result<Option<GameRecord>, StoreError> {
        self.load(id, None)
    }

    fn game_whole(&self, id: &str) -> Result<Option<GameRecord>, StoreError> {
        self.load(id, Some(0))
    }

    fn game_header(&self, id: &str) -> Result<Option<GameRecord>, StoreError> {
        Ok(self.game_value(id)?.map(|v| match v {
            GameValue::Whole(mut rec) => {
                rec.table = None;
                rec
            }
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
