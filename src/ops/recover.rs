//! The journal kept beside sled, and `castellan recover`.
//!
//! **The journal** (`DATA_DIR/journal.jsonl`, append-only JSON lines) names every change
//! made to the database, in order, with what the judge needs to make it again: the judge
//! is a pure function of the message, the time, fresh entropy and the store, so a handled
//! mail is journaled as (its Maildir file name, or for IMAP the message itself; the time
//! it was first handled; the entropy drawn), a tick that changed something as (time,
//! entropy), and a game master's command or an import as its `Changes`. Each entry has a
//! sequence number; the transaction that applies it records that number in sled's `meta`
//! tree (`SledStore::journal_seq`).
//!
//! Order of effects, for each entry: the entry is appended and fsynced (write-ahead), then
//! the judge runs and the transaction commits (sled may make it durable at any time from
//! here), then sled is flushed and a `done` line written, then the mail is acknowledged.
//! An entry whose transaction never committed (a crash, a full disk, an unloadable record)
//! is marked `aborted`, at once or when the database is next opened (its number is above
//! the database's), and is never replayed. An inbox batch writes its entries first and
//! fsyncs them while its mails are judged: the fsync ends before any of them is committed.
//!
//! **Replies** already sent are journaled as `sent` lines (Message-ID); `recover` drops
//! those from the rebuilt outbox, so they are not sent again. The lines are written at
//! once and fsynced with the next flush (`serve` flushes the next batch, or when a pass
//! finds no mail): one sent before a power cut, whose `sent` line did not reach the disk,
//! may go again, with the same Message-ID (receivers and threading see the same mail).
//!
//! **`castellan recover`** rebuilds the database from the newest complete backup (its
//! header says the last journal entry it holds) and every journal entry after it, replayed
//! through the judge with its recorded time and entropy; the damaged folder is kept aside
//! (`db.damaged-<time>`), never deleted.
//!
//! **Segments.** Each rolling backup closes the journal's segment (renamed
//! `journal-<its last entry>.jsonl`) and begins a new one with a `start` line (the last
//! number given and the last `done`), then removes the closed segments whose entries the
//! oldest kept backup holds (`Service::rolling_backup`): the journal grows with what the
//! backups kept do not hold, not with the service's age. `recover` reads the closed
//! segments in order, then the journal.
//!
//! **Back in time.** sled 0.34 may open a zeroed or truncated database as an empty or an
//! older one. At open, a database whose sequence number is below the journal's last `done`
//! is refused, with the path and `castellan recover`.

use crate::config::Config;
use crate::error::ShellError;
use crate::serve::service::{Clock, Entropy, Handled, Service};
use crate::store::SledStore;
use castellan_judge::{Changes, Env, Judge, StoreError};
use serde::{Deserialize, Serialize};
use std::collections::{BTreeSet, HashSet};
use std::io::{BufRead, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};
use std::sync::Mutex;

/// One line of the journal.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
#[serde(tag = "kind", rename_all = "lowercase")]
pub enum Entry {
    /// A mail of the Maildir, by its file name (without the `:2,` flags), handled at `at`.
    Mail {
        seq: u64,
        file: String,
        at: i64,
        entropy: String,
    },
    /// A mail from IMAP, kept here whole (hex), since no Maildir holds it.
    Raw {
        seq: u64,
        raw: String,
        at: i64,
        entropy: String,
    },
    /// Deadlines: a tick that changed something.
    Tick { seq: u64, at: i64, entropy: String },
    /// What a game master's command or an import stored.
    Changes { seq: u64, changes: Box<Changes> },
    /// Entries `from..=to` never committed: never replayed.
    Aborted { from: u64, to: u64 },
    /// The database held every entry up to `seq`, flushed to the device.
    Done { seq: u64 },
    /// A reply the transport accepted.
    Sent { message_id: String },
    /// The first line of a segment begun by [`Journal::rotate`]: the entries up to
    /// `after` are in the closed segments, and the database held every entry up to `done`
    /// (so numbering and the back-in-time check go on from them).
    Start { after: u64, done: u64 },
}

impl Entry {
    pub fn seq(&self) -> Option<u64> {
        match self {
            Entry::Mail { seq, .. }
            | Entry::Raw { seq, .. }
            | Entry::Tick { seq, .. }
            | Entry::Changes { seq, .. } => Some(*seq),
            _ => None,
        }
    }
}

fn err(e: impl std::fmt::Display) -> StoreError {
    StoreError::new(e.to_string())
}

struct Inner {
    file: std::fs::File,
    /// Length of the file up to its last whole line.
    len: u64,
    /// The highest `done` written (a new segment starts from it).
    last_done: u64,
    next_seq: u64,
    /// An entry that failed after it was journaled, whose `aborted` line could not be
    /// written yet: written before the next entry.
    pending_abort: Vec<(u64, u64)>,
    /// Lines written since the last fsync.
    dirty: bool,
}

/// Journal entries written by [`Journal::write_all`], not yet known to be on the device.
#[must_use = "the entries count only once synced and handed to Journal::synced"]
pub struct Unsynced {
    /// The journal's file, opened again, so that its fsync needs no lock.
    file: std::fs::File,
    first: u64,
    last: u64,
    /// The journal's length after them.
    len: u64,
}

impl Unsynced {
    /// The journal to the device (fdatasync), up to these entries at least.
    pub fn sync(&self) -> std::io::Result<()> {
        crate::serve::service::fault_delay("slow-journal-sync");
        self.file.sync_data()
    }
}

/// The journal of one database (see the module's documentation). `Journal::closed()`
/// writes nothing: `recover` replays through it.
pub struct Journal {
    path: PathBuf,
    inner: Option<Mutex<Inner>>,
}

/// What a scan of the journal found.
#[derive(Debug, Default, Clone, Copy)]
struct Marks {
    last_seq: u64,
    last_done: u64,
    aborted_to: u64,
    first_seq: Option<u64>,
    /// A segment's `start` line was read.
    start: bool,
}

fn scan(reader: &mut dyn BufRead, marks: &mut Marks) -> std::io::Result<()> {
    let mut line = String::new();
    loop {
        line.clear();
        if reader.read_line(&mut line)? == 0 {
            return Ok(());
        }
        let Ok(e) = serde_json::from_str::<Entry>(line.trim_end()) else {
            continue;
        };
        if let Some(s) = e.seq() {
            marks.last_seq = marks.last_seq.max(s);
            marks.first_seq = Some(marks.first_seq.map_or(s, |f| f.min(s)));
        }
        match e {
            Entry::Done { seq } => marks.last_done = marks.last_done.max(seq),
            Entry::Aborted { to, .. } => marks.aborted_to = marks.aborted_to.max(to),
            Entry::Start { after, done } => {
                marks.last_seq = marks.last_seq.max(after);
                marks.last_done = marks.last_done.max(done);
                marks.start = true;
            }
            _ => {}
        }
    }
}

/// How much of the journal's end is read at open (the whole file when that holds no
/// numbered entry).
const TAIL: u64 = 256 * 1024;

impl Journal {
    pub fn closed() -> Journal {
        Journal {
            path: PathBuf::new(),
            inner: None,
        }
    }

    /// Open (or create) the journal of a database whose last committed entry is `db_seq`.
    /// A line cut by a crash is dropped (it was never fsynced, so never committed); the
    /// entries above `db_seq` are marked aborted; a database behind the journal's last
    /// `done` went back in time and is refused.
    pub fn open(path: &Path, db_seq: u64, db_path: &Path) -> Result<Journal, StoreError> {
        let io = |e: std::io::Error| err(format!("journal {}: {e}", path.display()));
        let mut file = std::fs::OpenOptions::new()
            .create(true)
            .read(true)
            .append(true)
            .open(path)
            .map_err(io)?;
        let mut len = file.metadata().map_err(io)?.len();
        // Drop a torn last line.
        if len > 0 {
            let start = len.saturating_sub(TAIL);
            file.seek(SeekFrom::Start(start)).map_err(io)?;
            let mut tail = Vec::new();
            std::io::Read::read_to_end(&mut file, &mut tail).map_err(io)?;
            if tail.last() != Some(&b'\n') {
                let keep = match tail.iter().rposition(|b| *b == b'\n') {
                    Some(i) => start + i as u64 + 1,
                    None if start == 0 => 0,
                    None => {
                        return Err(err(format!(
                            "journal {}: its last line is longer than {TAIL} bytes and cut",
                            path.display()
                        )))
                    }
                };
                file.set_len(keep).map_err(io)?;
                file.sync_all().map_err(io)?;
                tracing::warn!(journal = %path.display(), "dropped a journal line cut by a crash");
                len = keep;
            }
        }
        let mut marks = Marks::default();
        let start = len.saturating_sub(TAIL);
        file.seek(SeekFrom::Start(start)).map_err(io)?;
        let mut reader = std::io::BufReader::new(&mut file);
        if start > 0 {
            let mut skip = Vec::new();
            reader.read_until(b'\n', &mut skip).map_err(io)?;
        }
        scan(&mut reader, &mut marks).map_err(io)?;
        let mut whole = start == 0;
        if start > 0 && (marks.first_seq.is_none() || marks.last_done == 0) {
            marks = Marks::default();
            file.seek(SeekFrom::Start(0)).map_err(io)?;
            scan(&mut std::io::BufReader::new(&mut file), &mut marks).map_err(io)?;
            whole = true;
        }
        // A segment closed and no `start` line after it (a crash in between): the marks
        // go on from that segment, so no number is given twice.
        if whole && !marks.start {
            if let Some((_, last)) = segments(path).pop() {
                let f = std::fs::File::open(&last).map_err(io)?;
                let mut before = Marks::default();
                scan(&mut std::io::BufReader::new(f), &mut before).map_err(io)?;
                marks.last_seq = marks.last_seq.max(before.last_seq);
                marks.last_done = marks.last_done.max(before.last_done);
                marks.aborted_to = marks.aborted_to.max(before.aborted_to);
            }
        }
        if db_seq < marks.last_done {
            return Err(err(format!(
                "the database at {} went back in time: it holds the journal's entries up to \
                 {db_seq}, but entries up to {} were committed (a damaged or replaced database \
                 file); nothing was changed. Run `castellan recover` to rebuild it",
                db_path.display(),
                marks.last_done
            )));
        }
        if db_seq > marks.last_seq && marks.last_seq > 0 {
            tracing::warn!(
                journal = %path.display(),
                "the journal ends at entry {} but the database holds entries up to {db_seq}: \
                 journal lines were lost; make a backup soon",
                marks.last_seq
            );
        }
        let mut inner = Inner {
            file,
            len,
            last_done: marks.last_done,
            next_seq: marks.last_seq.max(db_seq) + 1,
            pending_abort: Vec::new(),
            dirty: false,
        };
        let from = (db_seq + 1).max(marks.aborted_to + 1);
        if marks.last_seq >= from {
            inner.pending_abort.push((from, marks.last_seq));
            Journal::write_pending(&mut inner).map_err(io)?;
            Journal::sync(&mut inner).map_err(io)?;
        }
        Ok(Journal {
            path: path.to_path_buf(),
            inner: Some(Mutex::new(inner)),
        })
    }

    fn append_line(inner: &mut Inner, entry: &Entry) -> std::io::Result<()> {
        Journal::append_lines(inner, std::slice::from_ref(entry))
    }

    /// `entries`, one line each, appended in one write.
    fn append_lines(inner: &mut Inner, entries: &[Entry]) -> std::io::Result<()> {
        let lines = lines_of(entries)?;
        if lines.is_empty() {
            return Ok(());
        }
        if let Err(e) = inner.file.write_all(&lines) {
            // Nothing half-written: cut back to the last whole line.
            let _ = inner.file.set_len(inner.len);
            return Err(e);
        }
        inner.len += lines.len() as u64;
        inner.dirty = true;
        Ok(())
    }

    fn write_pending(inner: &mut Inner) -> std::io::Result<()> {
        while let Some(&(from, to)) = inner.pending_abort.first() {
            Journal::append_line(inner, &Entry::Aborted { from, to })?;
            inner.pending_abort.remove(0);
        }
        Ok(())
    }

    fn sync(inner: &mut Inner) -> std::io::Result<()> {
        if inner.dirty {
            // On failure the lines stay unsynced: the entry is aborted by the caller.
            inner.file.sync_data()?;
            inner.dirty = false;
        }
        Ok(())
    }

    fn lock(&self) -> Option<std::sync::MutexGuard<'_, Inner>> {
        self.inner
            .as_ref()
            .map(|m| m.lock().unwrap_or_else(|p| p.into_inner()))
    }

    /// Write an entry numbered with the next sequence number and fsync it: the write-ahead
    /// step. Returns the number, which the transaction records. (A closed journal: `None`.)
    pub fn begin(&self, make: impl FnOnce(u64) -> Entry) -> Result<Option<u64>, StoreError> {
        Ok(self
            .begin_all(|first| vec![make(first)])?
            .into_iter()
            .next()
            .flatten())
    }

    /// [`Journal::begin`] for a batch: `make` numbers its entries from the `first` number
    /// it is given, in order; they are made durable with one fsync (group commit of the
    /// write-ahead step). Returns their numbers. On a failure none of them counts: every
    /// number is aborted and the error returned.
    pub fn begin_all(
        &self,
        make: impl FnOnce(u64) -> Vec<Entry>,
    ) -> Result<Vec<Option<u64>>, StoreError> {
        let (seqs, unsynced) = self.write_all(make)?;
        if let Some(u) = unsynced {
            let synced = u.sync();
            self.synced(u, synced)?;
        }
        Ok(seqs)
    }

    /// [`Journal::begin_all`] without the fsync: the entries are written, and the returned
    /// [`Unsynced`] makes them durable ([`Unsynced::sync`], on any thread, while their
    /// mails are judged), to be handed back to [`Journal::synced`] before anything they
    /// lead to is committed. Returns their numbers.
    pub fn write_all(
        &self,
        make: impl FnOnce(u64) -> Vec<Entry>,
    ) -> Result<(Vec<Option<u64>>, Option<Unsynced>), StoreError> {
        let Some(mut inner) = self.lock() else {
            return Ok((vec![None; make(0).len()], None));
        };
        let io = |e: std::io::Error| err(format!("journal {}: {e}", self.path.display()));
        Journal::write_pending(&mut inner).map_err(io)?;
        let first = inner.next_seq;
        let entries = make(first);
        if entries.is_empty() {
            return Ok((Vec::new(), None));
        }
        let last = first + entries.len() as u64 - 1;
        let written = crate::serve::service::injected_disk_full("disk-full-journal")
            .and_then(|_| Journal::append_lines(&mut inner, &entries))
            .and_then(|_| inner.file.try_clone());
        inner.next_seq = last + 1;
        match written {
            Ok(file) => Ok((
                (first..=last).map(Some).collect(),
                Some(Unsynced {
                    file,
                    first,
                    last,
                    len: inner.len,
                }),
            )),
            Err(e) => {
                // Not known to be on disk: never committed, so aborted.
                inner.pending_abort.push((first, last));
                Err(io(e))
            }
        }
    }

    /// The end of [`Journal::write_all`]: `result` is what [`Unsynced::sync`] said. On a
    /// failure none of the entries counts: they are aborted and the error returned.
    pub fn synced(
        &self,
        unsynced: Unsynced,
        result: std::io::Result<()>,
    ) -> Result<(), StoreError> {
        let Some(mut inner) = self.lock() else {
            return Ok(());
        };
        match result {
            Ok(()) => {
                // Nothing written since: nothing left for the next fsync.
                if inner.len == unsynced.len {
                    inner.dirty = false;
                }
                Ok(())
            }
            Err(e) => {
                inner.pending_abort.push((unsynced.first, unsynced.last));
                Err(err(format!("journal {}: {e}", self.path.display())))
            }
        }
    }

    /// The entry `seq` did not commit: it is never replayed.
    pub fn abort(&self, seq: Option<u64>) {
        let (Some(seq), Some(mut inner)) = (seq, self.lock()) else {
            return;
        };
        inner.pending_abort.push((seq, seq));
        let r = Journal::write_pending(&mut inner).and_then(|_| Journal::sync(&mut inner));
        if let Err(e) = r {
            tracing::warn!(
                "journal {}: {e} (the abort is written later)",
                self.path.display()
            );
        }
    }

    /// Note (no fsync: the next one carries it) that the database is flushed up to `seq`.
    pub fn done(&self, seq: u64) {
        if let Some(mut inner) = self.lock() {
            inner.last_done = inner.last_done.max(seq);
        }
        self.note(Entry::Done { seq });
    }

    /// Close the current segment and begin a new one (after a rolling backup, between two
    /// passes): the file is synced and renamed `journal-<its last entry>.jsonl`, and the new
    /// one starts with a [`Entry::Start`] line. Nothing is done when no entry was written
    /// since the last rotation. Returns the closed segment.
    pub fn rotate(&self) -> Result<Option<PathBuf>, StoreError> {
        let Some(mut inner) = self.lock() else {
            return Ok(None);
        };
        let io = |e: std::io::Error| err(format!("journal {}: {e}", self.path.display()));
        let after = inner.next_seq - 1;
        let closed = segment_path(&self.path, after);
        if after == 0 || closed.exists() {
            return Ok(None);
        }
        Journal::write_pending(&mut inner).map_err(io)?;
        inner.dirty = true;
        Journal::sync(&mut inner).map_err(io)?;
        std::fs::rename(&self.path, &closed).map_err(io)?;
        // The new segment is whole and on the device before the journal writes to it;
        // if it cannot be (a full disk), the closed one is put back and goes on: no entry
        // is ever appended to a segment already named as closed (pruning trusts the name).
        let start = lines_of(&[Entry::Start {
            after,
            done: inner.last_done,
        }])
        .map_err(io)?;
        let begun = (|| {
            let mut file = std::fs::OpenOptions::new()
                .create_new(true)
                .read(true)
                .append(true)
                .open(&self.path)?;
            file.write_all(&start)?;
            file.sync_data()?;
            Ok::<_, std::io::Error>(file)
        })();
        match begun {
            Ok(file) => {
                inner.file = file;
                inner.len = start.len() as u64;
                inner.dirty = false;
            }
            Err(e) => {
                let _ = std::fs::remove_file(&self.path);
                std::fs::rename(&closed, &self.path).map_err(io)?;
                return Err(io(e));
            }
        }
        if let Some(dir) = self.path.parent().filter(|p| !p.as_os_str().is_empty()) {
            castellan_mail::sync_dir(dir).map_err(io)?;
        }
        Ok(Some(closed))
    }

    /// Remove the closed segments whose entries are all at or below `held`: the journal
    /// entry the oldest backup kept holds, so `recover` never needs them, nor the Maildir
    /// messages they name. Returns how many, and those messages.
    pub fn prune(&self, held: u64) -> Pruned {
        let mut pruned = Pruned::default();
        for (last, path) in segments(&self.path) {
            if last > held {
                break;
            }
            // The Maildir messages it names: `recover` needs them no longer either.
            let mut mails = Vec::new();
            let read = read_file(&path, &mut |e| {
                if let Entry::Mail { file, .. } = e {
                    mails.push(file);
                }
                Ok(())
            });
            if let Err(e) = read {
                tracing::warn!(file = %path.display(), "a journal segment to remove reads badly: {e}");
            }
            match std::fs::remove_file(&path) {
                Ok(()) => {
                    pruned.segments += 1;
                    pruned.mails.extend(mails);
                }
                Err(e) => {
                    tracing::warn!(file = %path.display(), "cannot remove a journal segment: {e}")
                }
            }
        }
        pruned
    }

    /// Note that a reply left (fsynced with the next [`Journal::flush`] or entry).
    pub fn sent(&self, message_id: &str) {
        self.note(Entry::Sent {
            message_id: message_id.to_string(),
        });
    }

    /// [`Journal::sent`] for each of `message_ids`, in one write.
    pub fn sent_all<'m>(&self, message_ids: impl IntoIterator<Item = &'m str>) {
        self.note_all(
            &message_ids
                .into_iter()
                .map(|message_id| Entry::Sent {
                    message_id: message_id.to_string(),
                })
                .collect::<Vec<_>>(),
        );
    }

    fn note(&self, e: Entry) {
        self.note_all(std::slice::from_ref(&e));
    }

    /// Lines written at once, not synced (the next fsync carries them).
    fn note_all(&self, entries: &[Entry]) {
        if let Some(mut inner) = self.lock() {
            if let Err(x) = Journal::append_lines(&mut inner, entries) {
                tracing::warn!("journal {}: {x}", self.path.display());
            }
        }
    }

    pub fn flush(&self) -> Result<(), StoreError> {
        if let Some(mut inner) = self.lock() {
            Journal::sync(&mut inner)
                .map_err(|e| err(format!("journal {}: {e}", self.path.display())))?;
        }
        Ok(())
    }
}

/// `entries` as journal lines, one JSON line each.
fn lines_of(entries: &[Entry]) -> std::io::Result<Vec<u8>> {
    let mut lines = Vec::new();
    for e in entries {
        serde_json::to_writer(&mut lines, e).map_err(std::io::Error::other)?;
        lines.push(b'\n');
    }
    Ok(lines)
}

/// The closed segment of the journal at `journal` whose last entry is `last`.
fn segment_path(journal: &Path, last: u64) -> PathBuf {
    journal.with_file_name(format!("journal-{last:020}.jsonl"))
}

/// The closed segments of the journal at `journal` ([`Journal::rotate`]), by their last
/// entry, oldest first.
pub fn segments(journal: &Path) -> Vec<(u64, PathBuf)> {
    let dir = match journal.parent() {
        Some(p) if !p.as_os_str().is_empty() => p.to_path_buf(),
        _ => PathBuf::from("."),
    };
    let mut out: Vec<(u64, PathBuf)> =
        crate::ops::backup::numbered_files(&dir, "journal-", ".jsonl");
    out.sort();
    out
}

/// Read every entry of a journal, its closed segments first, calling `each` on it.
fn read_all(
    path: &Path,
    each: &mut dyn FnMut(Entry) -> Result<(), ShellError>,
) -> Result<(), ShellError> {
    for (_, segment) in segments(path) {
        read_file(&segment, each)?;
    }
    read_file(path, each)
}

/// Read every entry of one journal file.
fn read_file(
    path: &Path,
    each: &mut dyn FnMut(Entry) -> Result<(), ShellError>,
) -> Result<(), ShellError> {
    let f = match std::fs::File::open(path) {
        Ok(f) => f,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(()),
        Err(e) => return Err(ShellError::io(path, e)),
    };
    let mut reader = std::io::BufReader::new(f);
    let mut line = String::new();
    let mut number = 0;
    loop {
        line.clear();
        if reader
            .read_line(&mut line)
            .map_err(|e| ShellError::io(path, e))?
            == 0
        {
            return Ok(());
        }
        number += 1;
        if !line.ends_with('\n') || line.trim().is_empty() {
            continue; // a line cut by a crash: never committed
        }
        let e: Entry = serde_json::from_str(line.trim_end()).map_err(|e| ShellError::BadInput {
            what: format!("journal {} line {number}", path.display()),
            why: e.to_string(),
        })?;
        each(e)?;
    }
}

/// What [`Journal::prune`] removed: how many segments, and the Maildir messages (their
/// file names as delivered, without the `:2,` flags) those segments named.
#[derive(Debug, Default, PartialEq, Eq)]
pub struct Pruned {
    pub segments: usize,
    pub mails: Vec<String>,
}

/// The mail a journal entry names, from the Maildir (cur/ or new/).
fn find_mail(inbox: &Path, file: &str) -> Option<PathBuf> {
    let new = inbox.join("new").join(file);
    if new.is_file() {
        return Some(new);
    }
    let cur = inbox.join("cur");
    let plain = cur.join(file);
    if plain.is_file() {
        return Some(plain);
    }
    let prefix = format!("{file}:2,");
    std::fs::read_dir(&cur)
        .ok()?
        .flatten()
        .find(|e| e.file_name().to_string_lossy().starts_with(&prefix))
        .map(|e| e.path())
}

fn entropy_of(hex_text: &str) -> Result<[u8; 32], String> {
    let v = hex::decode(hex_text).map_err(|e| e.to_string())?;
    v.try_into()
        .map_err(|_| "entropy is not 32 bytes".to_string())
}

/// What `castellan recover` did.
#[derive(Debug, Default, Clone, Serialize)]
pub struct Recovered {
    pub backup: Option<PathBuf>,
    pub from_seq: u64,
    pub to_seq: u64,
    pub mails: usize,
    pub ticks: usize,
    pub changes: usize,
    pub aborted_skipped: usize,
    pub sent_dropped: usize,
    pub set_aside: Option<PathBuf>,
}

impl Recovered {
    pub fn text(&self) -> String {
        format!(
            "recovered from {} (journal entries up to {}) and {} journal entries after it: \
             {} mail(s), {} deadline pass(es), {} game-master change(s); {} entr(ies) that \
             never committed skipped; {} reply(ies) already sent not queued again{}\n",
            self.backup
                .as_ref()
                .map(|p| p.display().to_string())
                .unwrap_or_else(|| "no backup (an empty database)".into()),
            self.from_seq,
            self.to_seq.saturating_sub(self.from_seq),
            self.mails,
            self.ticks,
            self.changes,
            self.aborted_skipped,
            self.sent_dropped,
            self.set_aside
                .as_ref()
                .map(|p| format!("; the old database is kept at {}", p.display()))
                .unwrap_or_default()
        )
    }
}

/// `castellan recover`: rebuild the database from the newest complete backup and the
/// journal. The old database folder is kept aside; nothing is changed if anything fails.
pub fn recover(config: &Config, clock: Clock) -> Result<Recovered, ShellError> {
    let db = config.database_path();
    // Held from start to end, exclusively: no store of the database opens meanwhile (an
    // MTA's `ingest` waits, or leaves its mail in the inbox for the next pass), so none
    // handles a mail into the folder about to be set aside, or opens the path while the
    // rebuilt one is moved in.
    let patience = crate::serve::daemon::patience(config, std::time::Duration::from_secs(30));
    let _lock = SledStore::lock_for_compaction_within(&db, patience).map_err(|e| {
        ShellError::Usage(format!(
            "the database at {} is in use by a running castellan (stop `serve` first): {e}",
            db.display()
        ))
    })?;
    let journal = config.journal_path();
    // First pass: what never committed, which replies left, where the entries start.
    let mut aborted: Vec<(u64, u64)> = Vec::new();
    let mut sent: HashSet<String> = HashSet::new();
    let mut seqs: BTreeSet<u64> = BTreeSet::new();
    read_all(&journal, &mut |e| {
        match e {
            Entry::Aborted { from, to } => aborted.push((from, to)),
            Entry::Sent { message_id } => {
                sent.insert(message_id);
            }
            e => {
                if let Some(s) = e.seq() {
                    seqs.insert(s);
                }
            }
        }
        Ok(())
    })?;
    let is_aborted = |s: u64| aborted.iter().any(|(f, t)| (*f..=*t).contains(&s));

    let building = db.with_extension("recovering");
    if building.exists() {
        std::fs::remove_dir_all(&building).map_err(|e| ShellError::io(&building, e))?;
    }
    let store = SledStore::open(&building)?;
    let mut report = Recovered::default();
    for (_, file) in crate::ops::backup::list(&config.backup_dir()) {
        let checked = std::fs::File::open(&file)
            .map_err(|e| e.to_string())
            .and_then(|f| {
                crate::ops::backup::check(&mut std::io::BufReader::new(f)).map_err(|e| e.0)
            });
        match checked {
            Ok(_) => {
                crate::ops::backup::restore_file(&store, &file, false)?;
                report.backup = Some(file);
                break;
            }
            Err(why) => tracing::warn!(file = %file.display(), "backup skipped: {why}"),
        }
    }
    let base = store.journal_seq()?;
    report.from_seq = base;
    // Every entry after the backup must be in the journal.
    let needed: Vec<u64> = seqs.range(base + 1..).copied().collect();
    if let Some(first) = needed.first() {
        if *first != base + 1 {
            return Err(ShellError::BadInput {
                what: format!("journal {}", journal.display()),
                why: format!(
                    "the newest good backup holds entries up to {base}, but the journal \
                     starts again at {first}: what was handled in between is not recorded \
                     anywhere (the journal's older segments are removed once every kept \
                     backup holds them, so a backup among those kept must be readable: \
                     put a good one back in {}); nothing was changed",
                    config.backup_dir().display()
                ),
            });
        }
    }
    let templates = crate::serve::service::load_templates_lenient(&config.templates_dir)?;
    let svc = Service {
        config: config.clone(),
        store,
        judge: Judge::new(config.judge.clone(), crate::games::all(), templates),
        clock: clock.clone(),
        entropy: Entropy::Os,
        answers: Default::default(),
        journal: Journal::closed(),
        marks_waiting: Default::default(),
        prestaged: Default::default(),
        judges: 1,
        judge_batch_first: false,
        group: 1,
        batch_times: Default::default(),
    };
    let inbox = config.inbox_path();
    let mut last = base;
    read_all(&journal, &mut |e| {
        let Some(seq) = e.seq() else { return Ok(()) };
        if seq <= base {
            return Ok(());
        }
        if is_aborted(seq) {
            report.aborted_skipped += 1;
            return Ok(());
        }
        let bad = |why: String| ShellError::BadInput {
            what: format!("journal entry {seq}"),
            why,
        };
        match e {
            Entry::Mail {
                file, at, entropy, ..
            } => {
                let path = find_mail(&inbox, &file).ok_or_else(|| {
                    bad(format!(
                        "its mail {file} is in neither {}/cur nor {}/new; nothing was changed",
                        inbox.display(),
                        inbox.display()
                    ))
                })?;
                let raw = std::fs::read(&path).map_err(|e| ShellError::io(&path, e))?;
                let env = Env {
                    now: at,
                    entropy: entropy_of(&entropy).map_err(bad)?,
                };
                replay_mail(&svc, &raw, env, seq).map_err(|e| bad(e.to_string()))?;
                report.mails += 1;
            }
            Entry::Raw {
                raw, at, entropy, ..
            } => {
                let raw = hex::decode(raw).map_err(|e| bad(e.to_string()))?;
                let env = Env {
                    now: at,
                    entropy: entropy_of(&entropy).map_err(bad)?,
                };
                replay_mail(&svc, &raw, env, seq).map_err(|e| bad(e.to_string()))?;
                report.mails += 1;
            }
            Entry::Tick { at, entropy, .. } => {
                let env = Env {
                    now: at,
                    entropy: entropy_of(&entropy).map_err(bad)?,
                };
                svc.apply_tick(env, Some(seq))?;
                report.ticks += 1;
            }
            Entry::Changes { changes, .. } => {
                svc.store.commit_unflushed_seq(&changes, Some(seq))?;
                report.changes += 1;
            }
            _ => {}
        }
        last = seq;
        Ok(())
    })?;
    report.to_seq = last;
    let now = clock();
    for (key, item) in svc.store.outbox()? {
        if sent.contains(&item.mail.message_id) {
            svc.store.mark_sent(key, &item.mail.message_id, now)?;
            report.sent_dropped += 1;
        }
    }
    svc.store.flush()?;
    drop(svc);
    if db.exists() {
        // A name of its own (a recover interrupted in the same second left one).
        let mut aside = db.with_extension(format!("damaged-{now}"));
        let mut n = 1;
        while aside.exists() {
            aside = db.with_extension(format!("damaged-{now}-{n}"));
            n += 1;
        }
        std::fs::rename(&db, &aside).map_err(|e| ShellError::io(&db, e))?;
        report.set_aside = Some(aside);
    }
    std::fs::rename(&building, &db).map_err(|e| ShellError::io(&building, e))?;
    if let Some(parent) = db.parent().filter(|p| !p.as_os_str().is_empty()) {
        castellan_mail::sync_dir(parent).map_err(|e| ShellError::io(parent, e))?;
    }
    let j = Journal::open(&journal, last, &db)?;
    j.done(last);
    j.flush()?;
    Ok(report)
}

fn replay_mail(svc: &Service, raw: &[u8], env: Env, seq: u64) -> Result<(), StoreError> {
    match svc.apply_mail(raw, env, Some(seq))? {
        Handled::Committed { .. } => Ok(()),
        other => Err(err(format!(
            "replaying it gives {other:?}, not what was recorded: the Maildir file was changed"
        ))),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tick(j: &Journal) -> u64 {
        j.begin(|seq| Entry::Tick {
            seq,
            at: 0,
            entropy: String::new(),
        })
        .unwrap()
        .unwrap()
    }

    fn seqs(path: &Path) -> Vec<u64> {
        let mut out = Vec::new();
        read_all(path, &mut |e| {
            out.extend(e.seq());
            Ok(())
        })
        .unwrap();
        out
    }

    /// Issue 11 (constant cost over months): the journal is cut into segments at each
    /// rolling backup. Numbering goes on across a segment (an aborted number is never given
    /// again, even when the new segment was not begun: a crash between the two steps), the
    /// back-in-time check still sees the `done` of the closed segment, `recover` reads the
    /// segments in order, and pruning removes only the segments a kept backup holds.
    #[test]
    fn a_journal_cut_into_segments_goes_on_numbering_and_reads_whole() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("journal.jsonl");
        let db = dir.path().join("db");
        let j = Journal::open(&path, 0, &db).unwrap();
        assert_eq!(j.rotate().unwrap(), None, "nothing to close yet");
        for n in 1..=3 {
            assert_eq!(tick(&j), n);
        }
        j.done(3);
        let aborted = tick(&j);
        j.abort(Some(aborted));
        let closed = j.rotate().unwrap().unwrap();
        assert_eq!(closed, segment_path(&path, 4));
        assert_eq!(j.rotate().unwrap(), None, "no entry since the last cut");
        drop(j);
        let j = Journal::open(&path, 3, &db).unwrap();
        assert_eq!(tick(&j), 5, "the aborted number 4 is not given again");
        j.done(5);
        assert!(j.rotate().unwrap().is_some());
        drop(j);
        assert_eq!(seqs(&path), [1, 2, 3, 4, 5]);
        assert_eq!(
            segments(&path).iter().map(|(n, _)| *n).collect::<Vec<_>>(),
            [4, 5]
        );
        // The database went back behind a `done` of a closed segment: refused.
        let e = Journal::open(&path, 2, &db).err().unwrap();
        assert!(e.0.contains("went back in time"), "{e}");
        // A crash after a segment was closed and before the new one began: its last
        // number (aborted, 6) is still not given again.
        let j = Journal::open(&path, 5, &db).unwrap();
        let aborted = tick(&j);
        assert_eq!(aborted, 6);
        j.abort(Some(aborted));
        assert!(j.rotate().unwrap().is_some());
        drop(j);
        std::fs::remove_file(&path).unwrap();
        let j = Journal::open(&path, 5, &db).unwrap();
        assert_eq!(tick(&j), 7);
        drop(j);
        assert_eq!(seqs(&path), [1, 2, 3, 4, 5, 6, 7]);
        // Only the segments every kept backup holds go.
        let j = Journal::open(&path, 7, &db).unwrap();
        assert_eq!(j.prune(4).segments, 1);
        assert_eq!(seqs(&path), [5, 6, 7]);
        assert_eq!(j.prune(3).segments, 0);
    }
}
