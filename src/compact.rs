//! `castellan compact`: the database rewritten with only its live records (issue 11, "disk
//! use within 3× of the live data").
//!
//! sled 0.34 never shrinks its log file: the space of values written and then replaced or
//! deleted (every reply waits in the outbox until it is sent) is reused, but the file
//! keeps its largest size. Compacting streams every live record to a backup file (the
//! format of `castellan backup`, fsynced), restores it into a new folder beside the
//! database, checks it, then swaps the folders: the old one is kept as
//! `db.before-compact-<time>` until the new one is in place, then removed.
//!
//! Run it with `serve` stopped (sled's lock refuses it otherwise). Whenever it is
//! interrupted, the database in place is either the old one or the new one, whole; in the
//! instant between the two renames there is none, and the next open refuses the empty
//! folder as gone back in time (the journal says so): `castellan recover` rebuilds it, and
//! the old folder is still there.

use crate::backup;
use crate::config::Config;
use crate::error::ShellError;
use crate::store::SledStore;
use std::path::{Path, PathBuf};

/// What `compact` did: the folder's size before and after, and the records kept.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Compacted {
    pub records: u64,
    pub bytes_before: u64,
    pub bytes_after: u64,
}

/// The bytes of every file under `p`.
pub fn dir_size(p: &Path) -> u64 {
    let mut n = 0;
    if let Ok(rd) = std::fs::read_dir(p) {
        for e in rd.flatten() {
            match e.metadata() {
                Ok(m) if m.is_dir() => n += dir_size(&e.path()),
                Ok(m) => n += m.len(),
                Err(_) => {}
            }
        }
    }
    n
}

fn beside(db: &Path, suffix: &str) -> PathBuf {
    let mut name = db
        .file_name()
        .map(|n| n.to_os_string())
        .unwrap_or_else(|| "db".into());
    name.push(suffix);
    db.with_file_name(name)
}

fn io(p: &Path) -> impl Fn(std::io::Error) -> ShellError + '_ {
    move |e| ShellError::io(p, e)
}

/// Rewrite the database of `config` with its live records only; `now` names the folder
/// kept aside while the new one is put in place.
pub fn compact(config: &Config, now: i64) -> Result<Compacted, ShellError> {
    let db = config.database_path();
    let parent = match db.parent() {
        Some(p) if !p.as_os_str().is_empty() => p.to_path_buf(),
        _ => PathBuf::from("."),
    };
    let dump = beside(&db, ".compact.jsonl");
    let fresh = beside(&db, ".compacting");
    let aside = beside(&db, &format!(".before-compact-{now}"));
    let _ = std::fs::remove_dir_all(&fresh);
    let bytes_before = dir_size(&db);
    let written = {
        let store = SledStore::open(&db)?;
        let n = backup::write_file(&store, &dump, None)?;
        store.flush()?;
        n
    };
    let restored = (|| {
        let store = SledStore::open(&fresh)?;
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
    std::fs::rename(&db, &aside).map_err(io(&db))?;
    if let Err(e) = std::fs::rename(&fresh, &db) {
        // Put the old database back: nothing changed.
        let _ = std::fs::rename(&aside, &db);
        return Err(ShellError::io(&fresh, e));
    }
    castellan_mail::sync_dir(&parent).map_err(io(&parent))?;
    std::fs::remove_dir_all(&aside).map_err(io(&aside))?;
    std::fs::remove_file(&dump).map_err(io(&dump))?;
    castellan_mail::sync_dir(&parent).map_err(io(&parent))?;
    Ok(Compacted {
        records: checked.records,
        bytes_before,
        bytes_after: dir_size(&db),
    })
}
