//! What sled 0.34 leaves undone on disk: its flush only calls `sync_file_range`, so the
//! log, new blob files and changed folders are synced here; a snapshot cut off by a crash
//! is removed before opening.

use super::err;
use castellan_judge::StoreError;
use std::path::Path;

/// Remove the files of a snapshot that was being written when the process died
/// (`snap.<lsn>.generating`); a finished snapshot (`snap.<lsn>`) is kept.
/// Only while holding sled's lock on the database: another process that has it open
/// (a concurrent `ingest`) may be writing a snapshot right now.
pub(super) fn remove_interrupted_snapshots(path: &Path) -> Result<(), StoreError> {
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

/// What [`SledStore::flush`] last made durable besides the log: each folder's entries
/// (name and inode: a rename over a name changes the inode) and the blob files synced.
/// A folder whose entries did not change since is not fsynced again, nor a blob file
/// already synced (sled writes a blob once): an fsync costs a device cache flush even when
/// nothing changed.
#[derive(Default)]
pub(super) struct Synced {
    folder: Vec<(std::ffi::OsString, u64)>,
    blobs: Vec<(std::ffi::OsString, u64)>,
}

/// A folder's entries, sorted: (name, inode).
fn entries(dir: &Path) -> std::io::Result<Vec<(std::ffi::OsString, u64)>> {
    use std::os::unix::fs::DirEntryExt;
    let mut v = Vec::new();
    for e in std::fs::read_dir(dir)? {
        let e = e?;
        v.push((e.file_name(), e.ino()));
    }
    v.sort();
    Ok(v)
}

/// fdatasync sled's log file and its new blob files, then fsync the folders whose
/// entries changed.
pub(super) fn sync_files(
    path: &Path,
    log: &std::fs::File,
    synced: &mut Synced,
) -> std::io::Result<()> {
    log.sync_data()?;
    let blobs = path.join("blobs");
    match entries(&blobs) {
        Ok(now) => {
            if now != synced.blobs {
                for (name, ino) in &now {
                    if synced.blobs.binary_search(&(name.clone(), *ino)).is_ok() {
                        continue;
                    }
                    match std::fs::File::open(blobs.join(name)) {
                        Ok(f) => f.sync_data()?,
                        // sled removed the blob since the listing (a large value replaced
                        // or deleted: an HTML report sent): nothing of it is left to sync.
                        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {}
                        Err(e) => return Err(e),
                    }
                }
                castellan_mail::sync_dir(&blobs)?;
                synced.blobs = now;
            }
        }
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {}
        Err(e) => return Err(e),
    }
    let now = entries(path)?;
    if now != synced.folder {
        castellan_mail::sync_dir(path)?;
        synced.folder = now;
    }
    Ok(())
}

/// The file beside the database that `castellan compact` locks exclusively for its whole
/// run, and that every open store locks shared (`flock`, across processes). A compaction
/// opens and closes the database more than once; without this, an MTA's `ingest` could
/// open it in between and handle a mail into the copy about to be replaced.
pub fn compaction_lock_path(db: &Path) -> std::path::PathBuf {
    let mut p = db.as_os_str().to_owned();
    p.push(".lock");
    std::path::PathBuf::from(p)
}

pub(super) fn open_lock_file(db: &Path) -> Result<std::fs::File, StoreError> {
    let path = compaction_lock_path(db);
    std::fs::OpenOptions::new()
        .create(true)
        .truncate(false)
        .write(true)
        .open(&path)
        .map_err(|e| err(format!("{}: {e}", path.display())))
}
