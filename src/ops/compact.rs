//! `castellan compact`: the database rewritten with only its live records ("disk
//! use within 3× of the live data").
//!
//! sled 0.34 never shrinks its log file: the space of values written and then replaced or
//! deleted (every reply waits in the outbox until it is sent) is reused, but the file
//! keeps its largest size. Compacting streams every live record to a backup file (the
//! format of `castellan backup`, fsynced), restores it into a new folder beside the
//! database, checks it, then swaps the folders: the old one is kept as
//! `db.before-compact-<time>` until the new one is in place, then removed.
//!
//! Run it with `serve` stopped (the database's locks refuse it otherwise). It holds the
//! compaction lock (`store::compaction_lock_path`) from start to end, so no other
//! castellan process (an MTA's `ingest`) opens the database while it is replaced. Whenever it is
//! interrupted, the database in place is either the old one or the new one, whole; in the
//! instant between the two renames there is none, and the next open refuses the empty
//! folder as gone back in time (the journal says so): `castellan recover` rebuilds it, and
//! the old folder is still there.

use crate::config::Config;
use crate::error::ShellError;
use crate::ops::backup;
use crate::store::{dir_size, SledStore};
use std::path::{Path, PathBuf};

/// What `compact` did: the folder's size before and after, and the records kept.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Compacted {
    pub records: u64,
    pub bytes_before: u64,
    pub bytes_after: u64,
}

/// The names beside the database that a compaction uses (as `recover` names its
/// `db.damaged-<time>`): the records' file, the new folder, the old one kept aside.
fn beside(db: &Path, now: i64) -> [PathBuf; 3] {
    [
        db.with_extension("compact.jsonl"),
        db.with_extension("compacting"),
        db.with_extension(format!("{ASIDE}{now}")),
    ]
}

const ASIDE: &str = "before-compact-";

/// What an interrupted compaction left beside the database (`castellan doctor` names it).
pub fn leftovers(db: &Path) -> Vec<PathBuf> {
    let [dump, fresh, _] = beside(db, 0);
    let aside = db.with_extension(ASIDE);
    let Some(rd) = db.parent().and_then(|p| std::fs::read_dir(p).ok()) else {
        return Vec::new();
    };
    rd.flatten()
        .map(|e| e.path())
        .filter(|p| {
            *p == dump
                || *p == fresh
                || p.as_os_str().len() > aside.as_os_str().len()
                    && p.as_os_str()
                        .as_encoded_bytes()
                        .starts_with(aside.as_os_str().as_encoded_bytes())
        })
        .collect()
}

/// Rewrite the database of `config` with its live records only; `now` names the folder
/// kept aside while the new one is put in place.
pub fn compact(config: &Config, now: i64) -> Result<Compacted, ShellError> {
    let db = config.database_path();
    let parent = match db.parent() {
        Some(p) if !p.as_os_str().is_empty() => p.to_path_buf(),
        _ => PathBuf::from("."),
    };
    let [dump, fresh, aside] = beside(&db, now);
    // No store of this database opens until the new one is in place (an MTA's `ingest`
    // waits, its mail kept in the inbox).
    let patience = crate::store::patience(&config.data_dir, std::time::Duration::from_secs(30));
    let _lock = SledStore::lock_for_compaction_within(&db, patience)?;
    let _ = std::fs::remove_dir_all(&fresh);
    let bytes_before = dir_size(&db);
    let written = {
        let store = SledStore::open_unguarded(&db)?;
        let n = backup::write_file(&store, &dump, None)?;
        store.flush()?;
        n
    };
    let restored = (|| {
        let store = SledStore::open_unguarded(&fresh)?;
        let checked = backup::restore_file(&store, &dump, false)?;
        store.flush()?;
        if checked.records != written as u64 {
            return Err(ShellError::BadInput {
                what: format!("the compacted database {}", fresh.display()),
                why: format!(
                    "{} records restored of {written} written; nothing was changed",
                    checked.records
                ),
            });
        }
        Ok(checked)
    })();
    let checked = match restored {
        Ok(c) => c,
        Err(e) => {
            let _ = std::fs::remove_dir_all(&fresh);
            let _ = std::fs::remove_file(&dump);
            return Err(e);
        }
    };
    std::fs::rename(&db, &aside).map_err(|e| ShellError::io(&db, e))?;
    if let Err(e) = std::fs::rename(&fresh, &db) {
        // Put the old database back: nothing changed.
        let _ = std::fs::rename(&aside, &db);
        return Err(ShellError::io(&fresh, e));
    }
    let synced = || castellan_mail::sync_dir(&parent).map_err(|e| ShellError::io(&parent, e));
    synced()?;
    std::fs::remove_dir_all(&aside).map_err(|e| ShellError::io(&aside, e))?;
    std::fs::remove_file(&dump).map_err(|e| ShellError::io(&dump, e))?;
    synced()?;
    Ok(Compacted {
        records: checked.records,
        bytes_before,
        bytes_after: dir_size(&db),
    })
}

/// `castellan compact`, reported.
pub fn main(config: &Config) -> Result<std::process::ExitCode, ShellError> {
    let c = compact(config, crate::serve::env::system_clock()())?;
    println!(
        "compacted {}: {} records, {} bytes -> {} bytes",
        config.database_path().display(),
        c.records,
        c.bytes_before,
        c.bytes_after
    );
    Ok(std::process::ExitCode::SUCCESS)
}
