//! The journal kept beside sled: what `castellan recover` replays.
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
//! the mail is acknowledged (an inbox batch's, before its group's commit), then the
//! transaction commits (sled may make it durable at any time from here), then sled is
//! flushed and a `done` line written. An entry that applies nothing (a duplicate, a mail
//! not acknowledged when its batch failed, a game in quarantine) is marked `aborted` and
//! never replayed; an inbox batch writes its entries first and
//! fsyncs them while its mails are judged (the fsync ends before any of them is committed,
//! and before any of them is acknowledged). An entry above the database's number that is
//! not marked aborted is **pending**: its mail may be acknowledged already, so it is rolled
//! forward (replayed as `recover` replays it, its time and entropy) when the database is
//! next opened or at the next pass (src/serve/rollforward.rs), never dropped.
//!
//! **Replies** already sent are journaled as `sent` lines (Message-ID); `recover` drops
//! those from the rebuilt outbox, so they are not sent again. The lines are written at
//! once and fsynced with the next flush (`serve` flushes the next batch, or when a pass
//! finds no mail): one sent before a power cut, whose `sent` line did not reach the disk,
//! may go again, with the same Message-ID (receivers and threading see the same mail).
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

use castellan_judge::{Changes, StoreError};
use serde::{Deserialize, Serialize};
use std::io::{BufRead, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};
use std::sync::Mutex;

mod segments;
pub use segments::{numbered_files, read_all, segments, Pruned};
use segments::{read_file, scan, segment_path, Marks};

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
    /// The entries found pending at open (above the database's number, not aborted), in
    /// order, until [`Journal::take_pending`] takes them.
    pending: Vec<Entry>,
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
        crate::store::fault::fault_delay("slow-journal-sync");
        castellan_mail::note_device_flush();
        self.file.sync_data()
    }
}

/// The journal of one database (see the module's documentation). `Journal::closed()`
/// writes nothing: `recover` replays through it.
pub struct Journal {
    path: PathBuf,
    inner: Option<Mutex<Inner>>,
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
    /// entries above `db_seq` not marked aborted are pending ([`Journal::take_pending`]:
    /// the service rolls them forward); a database behind the journal's last `done` went
    /// back in time and is refused.
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
                castellan_mail::note_device_flush();
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
        scan(&mut reader, &mut marks, db_seq).map_err(io)?;
        let mut whole = start == 0;
        // The tail may begin after the first entry above the database's: read it whole.
        let cut_short = marks.first_seq.is_some_and(|f| f > db_seq + 1) && marks.last_seq > db_seq;
        if start > 0 && (marks.first_seq.is_none() || marks.last_done == 0 || cut_short) {
            marks = Marks::default();
            file.seek(SeekFrom::Start(0)).map_err(io)?;
            scan(&mut std::io::BufReader::new(&mut file), &mut marks, db_seq).map_err(io)?;
            whole = true;
        }
        if whole {
            read_closed(path, db_seq, &mut marks).map_err(io)?;
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
        let aborted = |s: u64| marks.aborted.iter().any(|(f, t)| (*f..=*t).contains(&s));
        let pending: Vec<Entry> = std::mem::take(&mut marks.after)
            .into_iter()
            .filter(|e| e.seq().is_some_and(|s| s > db_seq && !aborted(s)))
            .collect();
        let inner = Inner {
            file,
            len,
            last_done: marks.last_done,
            next_seq: marks.last_seq.max(db_seq) + 1,
            pending_abort: Vec::new(),
            dirty: false,
            pending,
        };
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
            castellan_mail::note_device_flush();
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
        let written = crate::store::fault::injected_disk_full("disk-full-journal")
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

    /// The entries found pending when the journal was opened (above the database's number,
    /// not marked aborted), in order: to be rolled forward before anything else commits.
    pub fn take_pending(&self) -> Vec<Entry> {
        self.lock()
            .map(|mut inner| std::mem::take(&mut inner.pending))
            .unwrap_or_default()
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
            castellan_mail::note_device_flush();
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

/// What the closed segments beside the journal at `path` add to `marks`, the current
/// file read whole: a segment closed and no `start` line after it (a crash in between)
/// gives its marks, so that no number is given twice; entries past the database in closed
/// segments (one closed while they were pending) are pending too, before the file's.
fn read_closed(path: &Path, db_seq: u64, marks: &mut Marks) -> std::io::Result<()> {
    let closed = segments(path);
    let mut earlier = Marks::default();
    for (i, (last, seg)) in closed.iter().enumerate() {
        let newest_alone = !marks.start && i + 1 == closed.len();
        if *last <= db_seq && !newest_alone {
            continue;
        }
        let f = std::fs::File::open(seg)?;
        let mut before = Marks::default();
        scan(&mut std::io::BufReader::new(f), &mut before, db_seq)?;
        earlier.after.append(&mut before.after);
        earlier.aborted.append(&mut before.aborted);
        if newest_alone {
            marks.last_seq = marks.last_seq.max(before.last_seq);
            marks.last_done = marks.last_done.max(before.last_done);
            marks.aborted_to = marks.aborted_to.max(before.aborted_to);
        }
    }
    earlier.after.append(&mut marks.after);
    marks.after = earlier.after;
    marks.aborted.append(&mut earlier.aborted);
    Ok(())
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
