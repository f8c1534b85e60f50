//! sled behind the judge's [`Store`] trait: one inbound message = one transaction over
//! every tree it touches, flushed to disk before the message is acknowledged.
//!
//! Trees: `games` (id → GameRecord JSON), `processed` (Message-ID → unix time),
//! `outbox` (big-endian sequence → [`OutboxItem`] JSON), `sent` (Message-ID → unix time),
//! `log` (game id, 0, big-endian sequence → LogLine JSON), `senders` (address → SenderRecord),
//! `meta` (`journal_seq` → the big-endian sequence number of the last journal entry
//! committed, written in the same transaction as that entry's changes: src/recover.rs).
//! `records` (address → PlayerRecord, issue 15), `campaigns` (id → CampaignRecord, issue 15).

use castellan_judge::{
    CampaignRecord, Changes, GameRecord, Outbound, PlayerRecord, SenderRecord, Store, StoreError,
};
use serde::{Deserialize, Serialize};
use sled::transaction::{ConflictableTransactionError, TransactionError};
use sled::Transactional;
use std::path::Path;

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
    sent: sled::Tree,
    log: sled::Tree,
    senders: sled::Tree,
    meta: sled::Tree,
    records: sled::Tree,
    campaigns: sled::Tree,
}

/// The key in the `meta` tree of the last journal entry committed.
const JOURNAL_SEQ: &[u8] = b"journal_seq";

fn err(e: impl std::fmt::Display) -> StoreError {
    StoreError(e.to_string())
}

/// Remove the files of a snapshot that was being written when the process died
/// (`snap.<lsn>.generating`); a finished snapshot (`snap.<lsn>`) is kept.
/// Only while holding sled's lock on the database: another process that has it open
/// (a concurrent `ingest`) may be writing a snapshot right now.
fn remove_interrupted_snapshots(path: &Path) -> Result<(), StoreError> {
    use fs2::FileExt;
    let Ok(rd) = std::fs::read_dir(path) else {
        return Ok(());
    };
    let Ok(lock) = std::fs::OpenOptions::new()
        .read(true)
        .write(true)
        .open(path.join("db"))
    else {
        return Ok(());
    };
    if lock.try_lock_exclusive().is_err() {
        return Ok(()); // in use: sled's own open says so
    }
    for e in rd.flatten() {
        let name = e.file_name().to_string_lossy().into_owned();
        if name.starts_with("snap.") && name.ends_with(".generating") {
            std::fs::remove_file(e.path())
                .map_err(|x| err(format!("{}: {x}", e.path().display())))?;
            tracing::warn!(file = %e.path().display(), "removed an interrupted sled snapshot");
        }
    }
    Ok(())
}

/// fdatasync sled's log file and blob files, then fsync their folders.
fn sync_files(path: &Path) -> std::io::Result<()> {
    let db = path.join("db");
    if db.exists() {
        std::fs::File::open(&db)?.sync_data()?;
    }
    let blobs = path.join("blobs");
    if let Ok(rd) = std::fs::read_dir(&blobs) {
        for e in rd.flatten() {
            if e.file_type().is_ok_and(|t| t.is_file()) {
                match std::fs::File::open(e.path()) {
                    Ok(f) => f.sync_data()?,
                    // sled removed the blob since the listing (a large value replaced or
                    // deleted: an HTML report sent): nothing of it is left to sync.
                    Err(e) if e.kind() == std::io::ErrorKind::NotFound => {}
                    Err(e) => return Err(e),
                }
            }
        }
        castellan_mail::sync_dir(&blobs)?;
    }
    castellan_mail::sync_dir(path)
}

impl SledStore {
    /// Open (or create) the database. Stale `snap.*.generating` files, left by a snapshot
    /// that a crash interrupted (they make sled 0.34 refuse to open: upstream issues 1527
    /// and 1533), are removed first, and only those. A database sled cannot read (a
    /// truncated or corrupt file, on which sled may panic) is a clear error, never a panic.
    pub fn open(path: &Path) -> Result<SledStore, StoreError> {
        remove_interrupted_snapshots(path)?;
        let config = sled::Config::new()
            .path(path)
            .mode(sled::Mode::HighThroughput);
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
                err(format!(
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
        Ok(SledStore {
            path: path.to_path_buf(),
            games: db.open_tree("games").map_err(err)?,
            processed: db.open_tree("processed").map_err(err)?,
            outbox: db.open_tree("outbox").map_err(err)?,
            sent: db.open_tree("sent").map_err(err)?,
            log: db.open_tree("log").map_err(err)?,
            senders: db.open_tree("senders").map_err(err)?,
            meta: db.open_tree("meta").map_err(err)?,
            records: db.open_tree("records").map_err(err)?,
            campaigns: db.open_tree("campaigns").map_err(err)?,
            db,
        })
    }

    /// Whether a failed open says another process holds the database.
    pub fn is_busy_error(e: &StoreError) -> bool {
        e.0.contains("is in use by another castellan process")
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
        crate::service::injected_disk_full("disk-full-flush")
            .and_then(|_| sync_files(&self.path))
            .map_err(|e| {
                err(format!(
                    "cannot sync the database at {}: {e}",
                    self.path.display()
                ))
            })
    }

    /// Replies waiting, oldest first, with their keys.
    pub fn outbox(&self) -> Result<Vec<(u64, OutboxItem)>, StoreError> {
        let mut out = Vec::new();
        for kv in self.outbox.iter() {
            let (k, v) = kv.map_err(err)?;
            let key = u64::from_be_bytes(k.as_ref().try_into().map_err(err)?);
            out.push((key, serde_json::from_slice(&v).map_err(err)?));
        }
        Ok(out)
    }

    /// A reply went out: drop it from the outbox, remember its Message-ID. Not flushed
    /// here: the caller flushes once per batch (losing this mark in a crash only resends
    /// the reply, with the same Message-ID, which receivers and the `sent` tree recognise).
    pub fn mark_sent(&self, key: u64, message_id: &str, now: i64) -> Result<(), StoreError> {
        (&self.outbox, &self.sent)
            .transaction(|(o, s)| {
                o.remove(&key.to_be_bytes())?;
                s.insert(message_id.as_bytes(), &now.to_be_bytes())?;
                Ok::<(), ConflictableTransactionError<()>>(())
            })
            .map_err(|e: TransactionError<()>| err(format!("{e:?}")))?;
        Ok(())
    }

    pub fn update_outbox(&self, key: u64, item: &OutboxItem) -> Result<(), StoreError> {
        self.outbox
            .insert(key.to_be_bytes(), serde_json::to_vec(item).map_err(err)?)
            .map_err(err)?;
        self.flush()
    }

    /// Give every parked reply a fresh start (`castellan outbox --retry`, once the relay
    /// or the address is fixed). Returns how many.
    pub fn retry_parked(&self) -> Result<usize, StoreError> {
        let mut n = 0;
        for (key, mut item) in self.outbox()? {
            if item.failed {
                item.failed = false;
                item.attempts = 0;
                item.not_before = 0;
                self.outbox
                    .insert(key.to_be_bytes(), serde_json::to_vec(&item).map_err(err)?)
                    .map_err(err)?;
                n += 1;
            }
        }
        self.flush()?;
        Ok(n)
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

impl Store for SledStore {
    fn game(&self, id: &str) -> Result<Option<GameRecord>, StoreError> {
        match self.games.get(id.as_bytes()).map_err(err)? {
            None => Ok(None),
            Some(v) => serde_json::from_slice(&v)
                .map(Some)
                .map_err(|e| err(format!("game {id} is unreadable: {e}"))),
        }
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

impl SledStore {
    /// One transaction, visible at once to what reads the store next but durable only at
    /// the next [`SledStore::flush`]: a batch of messages is committed this way and made
    /// durable with one flush (group commit) before any of them is acknowledged.
    pub fn commit_unflushed(&self, changes: &Changes) -> Result<(), StoreError> {
        self.commit_unflushed_seq(changes, None)
    }

    /// [`SledStore::commit_unflushed`], recording in the same transaction that the journal
    /// entry `seq` is committed (src/recover.rs).
    pub fn commit_unflushed_seq(
        &self,
        changes: &Changes,
        seq: Option<u64>,
    ) -> Result<(), StoreError> {
        // Everything is serialized and every key chosen before the transaction, so the
        // closure (which sled may run more than once) has no side effects.
        let now = changes_time(changes);
        let games: Vec<(Vec<u8>, Vec<u8>)> = changes
            .games
            .iter()
            .map(|g| {
                Ok((
                    g.id.as_bytes().to_vec(),
                    serde_json::to_vec(g).map_err(err)?,
                ))
            })
            .collect::<Result<_, StoreError>>()?;
        let outbox: Vec<(Vec<u8>, Vec<u8>)> = changes
            .outbox
            .iter()
            .map(|m| {
                let id = self.db.generate_id().map_err(err)?;
                let item = OutboxItem {
                    mail: m.clone(),
                    attempts: 0,
                    not_before: 0,
                    last_error: None,
                    failed: false,
                };
                Ok((
                    id.to_be_bytes().to_vec(),
                    serde_json::to_vec(&item).map_err(err)?,
                ))
            })
            .collect::<Result<_, StoreError>>()?;
        let log: Vec<(Vec<u8>, Vec<u8>)> = changes
            .log
            .iter()
            .map(|l| {
                let mut k = l.game.as_bytes().to_vec();
                k.push(0);
                k.extend_from_slice(&self.db.generate_id().map_err(err)?.to_be_bytes());
                Ok((k, serde_json::to_vec(l).map_err(err)?))
            })
            .collect::<Result<_, StoreError>>()?;
        let senders: Vec<(Vec<u8>, Vec<u8>)> = changes
            .senders
            .iter()
            .map(|s| {
                Ok((
                    s.address.as_bytes().to_vec(),
                    serde_json::to_vec(s).map_err(err)?,
                ))
            })
            .collect::<Result<_, StoreError>>()?;
        let records: Vec<(Vec<u8>, Vec<u8>)> = changes
            .records
            .iter()
            .map(|r| {
                Ok((
                    r.address.as_bytes().to_vec(),
                    serde_json::to_vec(r).map_err(err)?,
                ))
            })
            .collect::<Result<_, StoreError>>()?;
        let campaigns: Vec<(Vec<u8>, Vec<u8>)> = changes
            .campaigns
            .iter()
            .map(|c| {
                Ok((
                    c.id.as_bytes().to_vec(),
                    serde_json::to_vec(c).map_err(err)?,
                ))
            })
            .collect::<Result<_, StoreError>>()?;
        (
            &self.games,
            &self.processed,
            &self.outbox,
            &self.log,
            &self.senders,
            &self.meta,
            &self.records,
            &self.campaigns,
        )
            .transaction(|(g, p, o, l, s, m, r, c)| {
                if let Some(seq) = seq {
                    m.insert(JOURNAL_SEQ, &seq.to_be_bytes())?;
                }
                for id in &changes.processed {
                    p.insert(id.as_bytes(), &now.to_be_bytes())?;
                }
                for (k, v) in &games {
                    g.insert(k.as_slice(), v.as_slice())?;
                }
                for (k, v) in &outbox {
                    o.insert(k.as_slice(), v.as_slice())?;
                }
                for (k, v) in &log {
                    l.insert(k.as_slice(), v.as_slice())?;
                }
                for (k, v) in &senders {
                    s.insert(k.as_slice(), v.as_slice())?;
                }
                for (k, v) in &records {
                    r.insert(k.as_slice(), v.as_slice())?;
                }
                for (k, v) in &campaigns {
                    c.insert(k.as_slice(), v.as_slice())?;
                }
                Ok::<(), ConflictableTransactionError<()>>(())
            })
            .map_err(|e: TransactionError<()>| err(format!("transaction failed: {e:?}")))?;
        Ok(())
    }
}

fn changes_time(changes: &Changes) -> i64 {
    changes.log.iter().map(|l| l.at).max().unwrap_or(0)
}
