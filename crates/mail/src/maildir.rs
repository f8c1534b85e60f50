//! A Maildir folder (new/, cur/, tmp/), by hand with std::fs.

use std::fs;
use std::io::{self, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{SystemTime, UNIX_EPOCH};

static COUNTER: AtomicU64 = AtomicU64::new(0);

/// Flushes to the device asked for so far by this process's own code (see
/// [`note_device_flush`]).
static DEVICE_FLUSHES: AtomicU64 = AtomicU64::new(0);

/// Counts one call that flushes to the device (`fsync`, `fdatasync`, `syncfs`,
/// `sync_file_range`), made just before the call: Castellan's own calls do this (this
/// crate's Maildir and file transport, the store's flush and journal); a library's own
/// (sled's) cannot, and are not counted. For `castellan bench`'s figures.
pub fn note_device_flush() {
    DEVICE_FLUSHES.fetch_add(1, Ordering::Relaxed);
}

/// How many device flushes [`note_device_flush`] counted in this process so far.
pub fn device_flushes() -> u64 {
    DEVICE_FLUSHES.load(Ordering::Relaxed)
}

/// A Maildir: mail is written into tmp/ and renamed into new/ (so a reader never sees half
/// a message), read from new/, and moved to cur/ with the Seen flag once acknowledged.
#[derive(Debug, Clone)]
pub struct Maildir {
    root: PathBuf,
}

impl Maildir {
    /// Opens the Maildir at `path`, creating it and its new/, cur/ and tmp/ if needed.
    pub fn open(path: impl AsRef<Path>) -> io::Result<Maildir> {
        let root = path.as_ref().to_path_buf();
        for sub in ["new", "cur", "tmp"] {
            fs::create_dir_all(root.join(sub))?;
        }
        Ok(Maildir { root })
    }

    pub fn path(&self) -> &Path {
        &self.root
    }

    /// Delivers one message: written and synced in tmp/, then renamed into new/. Names sort
    /// in delivery order (time, then a process-wide counter). Returns the path in new/.
    pub fn deliver(&self, raw: &[u8]) -> io::Result<PathBuf> {
        let now = SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .unwrap_or_default();
        let n = COUNTER.fetch_add(1, Ordering::Relaxed);
        let name = format!(
            "{:010}.M{:06}P{}Q{:06}.castellan",
            now.as_secs(),
            now.subsec_micros(),
            std::process::id(),
            n
        );
        let tmp = self.root.join("tmp").join(&name);
        {
            let mut f = fs::File::create(&tmp)?;
            f.write_all(raw)?;
            note_device_flush();
            f.sync_all()?;
        }
        let dest = self.root.join("new").join(&name);
        if let Err(e) = fs::rename(&tmp, &dest) {
            let _ = fs::remove_file(&tmp);
            return Err(e);
        }
        // The rename is durable only once the directory is: a crash must not lose a
        // message the MTA was told is delivered.
        sync_dir(&self.root.join("new"))?;
        Ok(dest)
    }

    /// The messages waiting in new/, sorted by file name (dotfiles and folders ignored).
    pub fn list_new(&self) -> io::Result<Vec<PathBuf>> {
        let mut out = Vec::new();
        for entry in fs::read_dir(self.root.join("new"))? {
            let entry = entry?;
            let name = entry.file_name();
            if name.to_string_lossy().starts_with('.') {
                continue;
            }
            if entry.file_type()?.is_file() {
                out.push(entry.path());
            }
        }
        out.sort_by(|a, b| a.file_name().cmp(&b.file_name()));
        Ok(out)
    }

    /// The Maildir's folder.
    pub fn root(&self) -> &Path {
        &self.root
    }

    /// The raw bytes of one message.
    pub fn read(&self, path: &Path) -> io::Result<Vec<u8>> {
        fs::read(path)
    }

    /// Marks a message processed: moves it from new/ to cur/ with the Seen flag
    /// (`NAME:2,S`; existing flags kept, in ASCII order). Acknowledging a message that is
    /// already in cur/ is a no-op, so a retry after a crash is harmless. Returns the new path.
    pub fn acknowledge(&self, path: &Path) -> io::Result<PathBuf> {
        Ok(self.acknowledge_all(&[path])?.remove(0))
    }

    /// [`Maildir::acknowledge`] for a batch: every message moved, then cur/ and new/
    /// fsynced once for all of them. Returns the new paths.
    pub fn acknowledge_all(&self, paths: &[&Path]) -> io::Result<Vec<PathBuf>> {
        let mut out = Vec::with_capacity(paths.len());
        let mut moved = false;
        for p in paths {
            let (dest, m) = self.move_to_cur(p)?;
            moved |= m;
            out.push(dest);
        }
        if moved {
            self.sync_folders()?;
        }
        Ok(out)
    }

    /// [`Maildir::acknowledge_all`] without the two fsyncs: for a reader whose own store
    /// says which messages it has handled (the judge's processed marks, durable before
    /// the acknowledgement). A crash may then undo a move; the message is found in new/
    /// again, and that store says it was handled already.
    pub fn acknowledge_all_unsynced(&self, paths: &[&Path]) -> io::Result<Vec<PathBuf>> {
        paths
            .iter()
            .map(|p| self.move_to_cur(p).map(|(dest, _)| dest))
            .collect()
    }

    /// Remove from cur/ the handled messages named `names` (their names as delivered,
    /// without the `:2,` flags), whatever their flags; new/ and tmp/ are never touched.
    /// One listing of cur/, however many names. Returns how many were removed.
    pub fn remove_handled(&self, names: &[String]) -> io::Result<usize> {
        let names: std::collections::HashSet<&str> = names.iter().map(String::as_str).collect();
        let mut removed = 0;
        for e in fs::read_dir(self.root.join("cur"))? {
            let e = e?;
            let name = e.file_name();
            let name = name.to_string_lossy();
            if names.contains(delivered_name(&name)) {
                match fs::remove_file(e.path()) {
                    Ok(()) => removed += 1,
                    Err(e) if e.kind() == io::ErrorKind::NotFound => {}
                    Err(e) => return Err(e),
                }
            }
        }
        Ok(removed)
    }

    fn sync_folders(&self) -> io::Result<()> {
        sync_dir(&self.root.join("cur"))?;
        sync_dir(&self.root.join("new"))
    }

    /// Move a message from new/ to cur/ with the Seen flag, not synced; whether it moved
    /// (false: it was in cur/ already).
    fn move_to_cur(&self, path: &Path) -> io::Result<(PathBuf, bool)> {
        let name = path
            .file_name()
            .ok_or_else(|| io::Error::new(io::ErrorKind::InvalidInput, "not a message path"))?
            .to_string_lossy()
            .into_owned();
        let (base, flags) = match name.split_once(":2,") {
            Some((b, f)) => (b.to_string(), f.to_string()),
            None => (name.clone(), String::new()),
        };
        let mut flags: Vec<char> = flags.chars().collect();
        if !flags.contains(&'S') {
            flags.push('S');
        }
        flags.sort_unstable();
        flags.dedup();
        let flags: String = flags.into_iter().collect();
        let dest = self.root.join("cur").join(format!("{base}:2,{flags}"));
        let source = self.root.join("new").join(&name);
        match fs::rename(&source, &dest) {
            Ok(()) => Ok((dest, true)),
            Err(e) if e.kind() == io::ErrorKind::NotFound && dest.exists() => Ok((dest, false)),
            Err(e) => Err(e),
        }
    }
}

/// A message's name as delivered: its file name without the `:2,` flags cur/ adds.
pub fn delivered_name(file_name: &str) -> &str {
    file_name
        .split_once(":2,")
        .map_or(file_name, |(base, _)| base)
}

/// fsync a directory, so the names created or renamed in it survive a crash.
pub fn sync_dir(dir: &Path) -> io::Result<()> {
    let f = fs::File::open(dir)?;
    note_device_flush();
    f.sync_all()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `inbound.prune_handled`: the named handled messages go from cur/, whatever their
    /// flags; a message not named, and one still waiting in new/ under a named name, stay.
    #[test]
    fn handled_mail_named_is_removed_from_cur_and_nothing_else() {
        let dir = tempfile::tempdir().unwrap();
        let md = Maildir::open(dir.path()).unwrap();
        let put = |sub: &str, name: &str| fs::write(dir.path().join(sub).join(name), b"x").unwrap();
        put("cur", "1.a.host:2,S");
        put("cur", "2.b.host:2,RS");
        put("cur", "3.c.host");
        put("cur", "4.d.host:2,S");
        put("new", "5.e.host");
        let names: Vec<String> = [
            "1.a.host",
            "2.b.host",
            "3.c.host",
            "5.e.host",
            "9.gone.host",
        ]
        .map(String::from)
        .to_vec();
        assert_eq!(md.remove_handled(&names).unwrap(), 3);
        let left = |sub: &str| -> Vec<String> {
            let mut v: Vec<String> = fs::read_dir(dir.path().join(sub))
                .unwrap()
                .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
                .collect();
            v.sort();
            v
        };
        assert_eq!(left("cur"), ["4.d.host:2,S"]);
        assert_eq!(left("new"), ["5.e.host"]);
        assert_eq!(md.remove_handled(&names).unwrap(), 0);
    }

    #[test]
    fn deliver_list_read_acknowledge() {
        let dir = tempfile::tempdir().unwrap();
        let md = Maildir::open(dir.path().join("inbox")).unwrap();
        let a = md.deliver(b"first").unwrap();
        let b = md.deliver(b"second").unwrap();
        fs::write(md.path().join("new/.hidden"), b"x").unwrap();
        assert_eq!(md.list_new().unwrap(), vec![a.clone(), b.clone()]);
        assert_eq!(md.read(&a).unwrap(), b"first");
        assert!(fs::read_dir(md.path().join("tmp"))
            .unwrap()
            .next()
            .is_none());
        let cur = md.acknowledge(&a).unwrap();
        assert!(cur.to_string_lossy().ends_with(":2,S"));
        assert_eq!(cur.parent().unwrap(), md.path().join("cur"));
        assert_eq!(md.read(&cur).unwrap(), b"first");
        assert_eq!(md.list_new().unwrap(), vec![b]);
        // twice is fine
        assert_eq!(md.acknowledge(&a).unwrap(), cur);
    }

    #[test]
    fn existing_flags_are_kept_sorted() {
        let dir = tempfile::tempdir().unwrap();
        let md = Maildir::open(dir.path()).unwrap();
        fs::write(md.path().join("new/m1:2,T"), b"x").unwrap();
        let cur = md.acknowledge(&md.path().join("new/m1:2,T")).unwrap();
        assert!(cur.ends_with("m1:2,ST"));
    }
}
