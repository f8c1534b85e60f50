//! What sled 0.34 leaves undone on disk: its flush only calls `sync_file_range`, so the
//! log, new blob files and changed folders are synced here; a snapshot cut off by a crash
//! is removed before opening. Also: files only their owner reads (backups and exports
//! hold the games' secrets), and the marker of a running `serve`, which holds the
//! database for good.

use super::err;
use castellan_judge::StoreError;
use std::path::Path;
use std::time::Duration;

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
    castellan_mail::note_device_flush();
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
                        Ok(f) => {
                            castellan_mail::note_device_flush();
                            f.sync_data()?
                        }
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

impl super::SledStore {
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

    /// [`SledStore::flush`](super::SledStore::flush) with one `syncfs` of each filesystem holding the database or a
    /// folder of `also` in place of the fsyncs of sled's files and folders: a batch whose
    /// replies were written ahead (hidden, src/serve/prestage.rs) makes them durable in the same
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
}

/// A file created (or truncated) for writing, readable and writable by its owner only
/// (0600, whatever the umask, and even if it was there with another mode): a backup's or
/// an export's games' secrets are kept from other users.
pub fn create_private(path: &std::path::Path) -> std::io::Result<std::fs::File> {
    use std::os::unix::fs::{OpenOptionsExt, PermissionsExt};
    let f = std::fs::OpenOptions::new()
        .write(true)
        .create(true)
        .truncate(true)
        .mode(0o600)
        .open(path)?;
    f.set_permissions(std::fs::Permissions::from_mode(0o600))?;
    Ok(f)
}

/// `bytes` written to `path` through [`create_private`].
pub fn write_private(path: &std::path::Path, bytes: &[u8]) -> std::io::Result<()> {
    use std::io::Write;
    let mut f = create_private(path)?;
    f.write_all(bytes)?;
    castellan_mail::note_device_flush();
    f.sync_all()
}

/// The marker `serve` keeps in the data folder `data_dir` while it runs: `ingest` does not wait for
/// the database then (the daemon holds it for good and takes the mail on its next pass).
pub fn serving_marker(data_dir: &Path) -> std::path::PathBuf {
    data_dir.join("serve.pid")
}

/// Whether a `serve` runs on this data folder (its marker is there; one left by a killed
/// daemon only makes `ingest` leave the mail to the next pass).
pub fn is_serving(data_dir: &Path) -> bool {
    serving_marker(data_dir).exists()
}

/// How long a process that needs the database waits for it: `wait` while what holds it
/// is an `ingest` or a command (they hold it for a moment), nothing while a `serve` runs
/// (it holds it for good; its own compaction does not wait for itself).
pub fn patience(data_dir: &Path, wait: Duration) -> Duration {
    if is_serving(data_dir) {
        Duration::ZERO
    } else {
        wait
    }
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
