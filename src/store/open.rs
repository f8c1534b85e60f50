//! Opening the database: the compaction lock, a damaged or busy database told apart, and
//! the indexes and keys an older database lacks, built once.

use super::disk::{open_lock_file, remove_interrupted_snapshots};
use super::{
    commit, err, SledStore, ADDRESSES_KEY, CACHE_BYTES, GAUGES_KEY, MARKS_KEY, NUMBER_KEY,
    OLD_MARKS, RETRY_KEY, TOKENS_KEY,
};
use castellan_judge::{SenderRecord, Store, StoreError};
use sled::transaction::{ConflictableTransactionError, TransactionError};
use std::path::Path;

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
            cache: Default::default(),
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

    /// Index every game's plus-address tokens (`game_index`: `token/TOKEN` → id, and
    /// `tokens/ID`) and addresses (`addr/ADDRESS\0ID`, and `addrs/ID`), and keep the
    /// highest game number (`game_number`), count the games into their gauges
    /// (store/gauges.rs) and index the outbox's retries (store/retry.rs), each once, when
    /// its mark is not in `meta`: a
    /// database written before an index existed is indexed at its first open, a restored
    /// backup for what it did not bring. Safe to interrupt: it starts over until it is
    /// marked. Returns how many games it indexed.
    pub(super) fn index_games(&self) -> Result<usize, StoreError> {
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

    /// Move the marks an older judge kept in `senders` (`stop/ADDRESS`,
    /// `asked/ADDRESS`, `failed-tries/GAME/SEAT`) to their keys no address can spell
    /// (`castellan_judge::mark_key`), each in one transaction: they keep meaning what they
    /// meant (an old judge read them as marks, whoever they came from). Safe to interrupt.
    /// Returns how many were moved.
    pub(super) fn key_old_marks(&self) -> Result<usize, StoreError> {
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
}
