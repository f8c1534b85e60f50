//! The inbox taken in batches (group commit): each batch read and journaled ahead, its
//! mails judged side by side (src/serve/optimistic.rs) and committed in order in groups of
//! [`GROUP`], their replies written ahead (src/serve/prestage.rs), the batch flushed once.
//! Each message is acknowledged once its journal entry is on the device, right before its
//! group's commit: the journal holds what makes the mail again, and an entry the database
//! did not commit is rolled forward (src/serve/rollforward.rs), never dropped.

use super::maillog::MailLine;
use super::service::{Handled, Service};
use crate::error::ShellError;
use crate::serve::optimistic::{Ahead, Key, Recording, Writes};
use crate::serve::workers::{JournalSync, Workers};
use crate::store::fault::fault_point;
use castellan_judge::{Changes, Env, StoreError};
use castellan_mail::{Maildir, Transport};
use std::path::PathBuf;

/// Time spent in the steps of the inbox batches (`process_listed`), summed.
#[derive(Debug, Clone, Copy, Default, PartialEq, serde::Serialize)]
pub struct BatchTimes {
    pub batches: u64,
    /// Reading and parsing the batch's messages.
    pub read: std::time::Duration,
    /// The batch's journal entries written ahead (their fdatasync runs while the batch is
    /// judged: `journal_wait`).
    pub journal: std::time::Duration,
    /// Of judging and committing, waiting for the journal's fdatasync before the first
    /// commit.
    pub journal_wait: std::time::Duration,
    /// Judging the mails and committing them in groups.
    pub judge_and_commit: std::time::Duration,
    /// Of that, the group commits (sled transactions) on the service's thread.
    pub commit: std::time::Duration,
    /// Waiting for the replies written ahead.
    pub writers: std::time::Duration,
    /// The batch's flush to the device.
    pub flush: std::time::Duration,
    /// Moving the batch's messages to cur/.
    pub acknowledge: std::time::Duration,
}

impl std::ops::Sub for BatchTimes {
    type Output = BatchTimes;
    fn sub(self, o: BatchTimes) -> BatchTimes {
        BatchTimes {
            batches: self.batches - o.batches,
            read: self.read.saturating_sub(o.read),
            journal: self.journal.saturating_sub(o.journal),
            journal_wait: self.journal_wait.saturating_sub(o.journal_wait),
            judge_and_commit: self.judge_and_commit.saturating_sub(o.judge_and_commit),
            commit: self.commit.saturating_sub(o.commit),
            writers: self.writers.saturating_sub(o.writers),
            flush: self.flush.saturating_sub(o.flush),
            acknowledge: self.acknowledge.saturating_sub(o.acknowledge),
        }
    }
}

impl std::ops::AddAssign for BatchTimes {
    fn add_assign(&mut self, o: BatchTimes) {
        self.batches += o.batches;
        self.read += o.read;
        self.journal += o.journal;
        self.journal_wait += o.journal_wait;
        self.judge_and_commit += o.judge_and_commit;
        self.commit += o.commit;
        self.writers += o.writers;
        self.flush += o.flush;
        self.acknowledge += o.acknowledge;
    }
}

/// Most messages handled between two flushes of the database (group commit).
pub const BATCH: usize = 64;

/// Most bytes of mail a batch holds in memory at once (a batch stops short of it: the rest
/// is taken at the next listing).
const BATCH_BYTES: usize = 8 * 1024 * 1024;

/// At most this many mails of a batch committed in one transaction, by default
/// ([`Service::group`]). One mail writes about 20 KB. A larger group holds back the
/// writing of its replies ahead (src/serve/prestage.rs) until it is committed: measured, 16 did
/// better than 8 or 64 at 64 tables.
pub const GROUP: usize = 16;

/// The time a batch spent committing, and its journal entries' fsync running meanwhile.
#[derive(Default)]
struct Committing {
    /// The fsync of the batch's journal entries, on one of the service's threads: its
    /// answer awaited before the batch's first commit.
    journal: Option<JournalSync>,
    /// Time in the group commits.
    spent: std::time::Duration,
    /// Time waiting for the journal's fsync.
    journal_wait: std::time::Duration,
}

/// A mail of a batch read and parsed: its Maildir path, its file name (the journal's, and
/// the log's queue id) and the mail.
type Read<'p> = (&'p PathBuf, String, castellan_judge::Inbound);

/// The messages of a batch that are taken (acknowledged before their group's commit, or at
/// the batch's end for those with nothing to commit), and the log line of each mail,
/// logged once the batch is flushed.
#[derive(Default)]
struct Taken<'p> {
    taken: Vec<&'p PathBuf>,
    /// How many of `taken` are acknowledged.
    acked: usize,
    lines: Vec<MailLine>,
}

impl<'p> Taken<'p> {
    fn take(&mut self, path: &'p PathBuf, line: MailLine) {
        self.taken.push(path);
        self.lines.push(line);
    }
}

/// A batch's mails on their way to the store: the time spent, what the batch wrote, what of
/// it waits in the open group (not committed yet), and the mails taken.
struct Committer<'a, 'p> {
    spent: Committing,
    inbox: &'p Maildir,
    prestager: Option<&'p crate::serve::prestage::Prestager<'p>>,
    written: Writes,
    pending: Writes,
    /// Mails judged, waiting to be committed together in one transaction.
    group: Vec<Pending<'a>>,
    out: &'p mut Taken<'a>,
}

/// A mail of a batch judged, waiting for its group's commit.
struct Pending<'a> {
    /// Its log line, logged once its batch is flushed.
    line: MailLine,
    changes: Changes,
    /// Its replies encoded where it was judged ahead (None: the commit encodes them).
    encoded: Option<crate::store::EncodedReplies>,
    /// Its replies handed to the writers ahead (src/serve/prestage.rs), in order.
    tickets: Vec<crate::serve::prestage::Ticket>,
    seq: Option<u64>,
    path: &'a PathBuf,
    /// Its file name and its time and entropy: its journal entry, kept pending if its
    /// commit fails.
    file: &'a str,
    env: Env,
}

impl Pending<'_> {
    /// Its journal entry, if it has one.
    fn entry(&self) -> Option<crate::store::journal::Entry> {
        self.seq.map(|seq| crate::store::journal::Entry::Mail {
            seq,
            file: self.file.to_string(),
            at: self.env.now,
            entropy: hex::encode(self.env.entropy),
        })
    }
}

impl Service {
    /// Handle every message waiting in the Maildir inbox, in batches of [`BATCH`]: the
    /// batch's journal entries made durable, then each message of a batch acknowledged
    /// (moved to cur/) and committed in order, in groups; the batch is made durable with
    /// one flush. Returns how many were taken. Mail delivered meanwhile (another `ingest`)
    /// is taken too: the inbox is listed again until it is empty. Journal entries still
    /// pending (a commit that failed) are rolled forward first.
    pub fn process_maildir(&self) -> Result<usize, ShellError> {
        self.roll_forward()?;
        let dir = self.config.inbox_path();
        let inbox = Maildir::open(&dir).map_err(|e| ShellError::io(&dir, e))?;
        let mut n = 0;
        // Mail kept for a game in quarantine: left in new/ for a later pass.
        let mut held: std::collections::HashSet<PathBuf> = Default::default();
        loop {
            let waiting: Vec<PathBuf> = inbox
                .list_new()
                .map_err(|e| ShellError::io(&dir, e))?
                .into_iter()
                .filter(|p| !held.contains(p))
                .collect();
            if waiting.is_empty() {
                return Ok(n);
            }
            n += self.process_listed(&inbox, &waiting, &mut held)?;
        }
    }

    fn process_listed(
        &self,
        inbox: &Maildir,
        waiting: &[PathBuf],
        held: &mut std::collections::HashSet<PathBuf>,
    ) -> Result<usize, ShellError> {
        let mut n = 0;
        for batch in waiting.chunks(BATCH) {
            let mut out = Taken::default();
            // The batch's replies rendered and written (hidden) meanwhile, on another core.
            let prestager = self.prestager();
            let mut times = BatchTimes {
                batches: 1,
                ..Default::default()
            };
            let mut step = std::time::Instant::now();
            let mut lap = |d: &mut std::time::Duration| {
                let now = std::time::Instant::now();
                *d += now - step;
                step = now;
            };
            let read = self.read_batch(inbox, batch, &mut out)?;
            lap(&mut times.read);
            // The write-ahead step for the whole batch: one fsync, run while the batch is
            // judged and waited for before anything is committed.
            let envs: Vec<Env> = read.iter().map(|_| self.env()).collect();
            let (seqs, unsynced) = self.journal.write_all(|first| {
                (first..)
                    .zip(read.iter().zip(&envs))
                    .map(
                        |(seq, ((_, file, _), env))| crate::store::journal::Entry::Mail {
                            seq,
                            file: file.clone(),
                            at: env.now,
                            entropy: hex::encode(env.entropy),
                        },
                    )
                    .collect()
            })?;
            lap(&mut times.journal);
            let waits = self.judge_and_commit(
                &read,
                &envs,
                (seqs, unsynced),
                (inbox, prestager.as_ref()),
                held,
                &mut out,
            )?;
            (times.commit, times.journal_wait) = waits;
            lap(&mut times.judge_and_commit);
            // Every reply written ahead, so that the batch's flush makes them durable too:
            // one `syncfs` rather than the database's fsyncs, then the outbox's own.
            let ahead = prestager.map(|p| p.done()).unwrap_or_default();
            lap(&mut times.writers);
            let outbox = (!ahead.is_empty()).then(|| self.config.outbox_path());
            if let Err(e) = self.flush_with(false, outbox.as_deref()) {
                crate::serve::prestage::discard(ahead);
                return Err(e.into());
            }
            fault_point("after-commit");
            lap(&mut times.flush);
            // The rest of the batch's messages (nothing to commit: duplicates, not mail)
            // moved to cur/, not fsynced, as the others were before their commit: the
            // journal's entry finds a mail in new/ or cur/ (src/serve/rollforward.rs,
            // src/ops/recover.rs), so a move a power cut undoes costs only a second look at
            // the message, which is then a duplicate.
            let paths: Vec<&std::path::Path> =
                out.taken[out.acked..].iter().map(|p| p.as_path()).collect();
            if let Err(e) = inbox.acknowledge_all_unsynced(&paths) {
                crate::serve::prestage::discard(ahead);
                return Err(ShellError::io(inbox.root(), e));
            }
            n += out.taken.len();
            self.prestaged_lock().extend(ahead);
            // Handled for good: one line a mail.
            for line in &out.lines {
                line.log(self.config.log.addresses);
            }
            lap(&mut times.acknowledge);
            *self.batch_times.lock().unwrap_or_else(|e| e.into_inner()) += times;
        }
        Ok(n)
    }

    /// Read the batch (up to BATCH_BYTES held at once; the rest waits for the next
    /// listing) and decide which mails the judge will see: a mail seen before or no mail
    /// at all is not journaled, and goes into `taken` at once.
    fn read_batch<'p>(
        &self,
        inbox: &Maildir,
        batch: &'p [PathBuf],
        out: &mut Taken<'p>,
    ) -> Result<Vec<Read<'p>>, ShellError> {
        let mut read = Vec::with_capacity(batch.len());
        let mut held_bytes = 0;
        for path in batch {
            if held_bytes >= BATCH_BYTES {
                break;
            }
            let raw = match inbox.read(path) {
                Ok(r) => r,
                Err(e) if e.kind() == std::io::ErrorKind::NotFound => continue,
                Err(e) => {
                    tracing::warn!("cannot read {}: {e}", path.display());
                    continue;
                }
            };
            let file = path
                .file_name()
                .map(|f| castellan_mail::delivered_name(&f.to_string_lossy()).to_string())
                .unwrap_or_default();
            match self.screen(&raw)? {
                Ok(inbound) => {
                    held_bytes += raw.len();
                    read.push((path, file, inbound));
                }
                Err(Handled::Unreadable(why)) => {
                    tracing::warn!("{}: not a mail ({why}); set aside", path.display());
                    out.take(path, MailLine::other(&file, None, "unreadable"));
                }
                Err(_) => {
                    // Applied before (a copy delivered again): parsed again for its line.
                    let mail = castellan_mail::parse(&raw, self.config.max_message_bytes).ok();
                    out.take(path, MailLine::other(&file, mail.as_ref(), "duplicate"));
                }
            }
        }
        Ok(read)
    }

    /// The batch's mails `read` (with their times and entropy `envs`, and their journal
    /// entries `seqs` written but not yet synced), judged side by side and committed in
    /// order (src/serve/optimistic.rs); each one taken goes into `out.taken`, one kept for a
    /// game in quarantine into `held`. The journal's fsync runs on a thread of its own
    /// meanwhile, and ends before anything is committed (or acknowledged in `inbox`).
    /// Returns the time spent in the group commits and waiting for that fsync.
    fn judge_and_commit<'a>(
        &self,
        read: &'a [Read<'a>],
        envs: &[Env],
        (seqs, unsynced): (Vec<Option<u64>>, Option<crate::store::journal::Unsynced>),
        (inbox, prestager): (&Maildir, Option<&crate::serve::prestage::Prestager>),
        held: &mut std::collections::HashSet<PathBuf>,
        out: &mut Taken<'a>,
    ) -> Result<(std::time::Duration, std::time::Duration), ShellError> {
        // Judged side by side, committed in order (src/serve/optimistic.rs).
        let mails: Vec<(&castellan_judge::Inbound, Env)> = read
            .iter()
            .zip(envs)
            .map(|((_, _, inbound), env)| (inbound, *env))
            .collect();
        std::thread::scope(|scope| {
            let mut ahead = (mails.len() > 1 && self.judges > 1)
                .then(|| Ahead::start(scope, &self.judge, &self.store, &mails, self.judges));
            if let (Some(a), true) = (ahead.as_mut(), self.judge_batch_first) {
                a.wait_all();
            }
            let mut c = Committer {
                // Time in the group commits, and the journal's fsync under way.
                spent: Committing {
                    journal: unsynced.map(|u| JournalSync::start(u, self.workers())),
                    ..Default::default()
                },
                inbox,
                prestager,
                written: Writes::default(),
                pending: Writes::default(),
                group: Vec::new(),
                out,
            };
            let mails = read.iter().zip(envs).zip(seqs.iter().copied()).enumerate();
            for (i, ((mail, env), seq)) in mails {
                let judged =
                    self.judge_one(&mut c, ahead.as_mut().and_then(|a| a.take(i)), mail, env);
                // The mails after a failure, or after a game put in quarantine (whose
                // notice was committed under a later entry), were neither acknowledged nor
                // committed: their entries aborted, they wait in new/ for the next listing.
                let rest = || seqs[i + 1..].iter().for_each(|s| self.journal.abort(*s));
                match self.settle(&mut c, judged, mail, env, seq, held) {
                    Ok(false) => {}
                    Ok(true) => {
                        rest();
                        break;
                    }
                    Err(e) => {
                        rest();
                        return Err(e);
                    }
                }
            }
            self.commit_group(&mut c)?;
            Ok((c.spent.spent, c.spent.journal_wait))
        })
    }

    /// One mail of the batch judged, or None if it was applied before (a second copy of a
    /// mail of this same batch too: its first copy's processed mark is in the store or in
    /// the group). `ahead`: what the judging ahead made of it, kept unless it read what a
    /// mail before it in the batch wrote since (or failed); else it is judged again here, on
    /// the store as it is now, after the open group is committed if it read what that
    /// group writes.
    fn judge_one(
        &self,
        c: &mut Committer<'_, '_>,
        ahead: Option<crate::serve::optimistic::Judged>,
        (path, _, inbound): &Read<'_>,
        env: &Env,
    ) -> Result<Option<(Changes, Option<crate::store::EncodedReplies>)>, StoreError> {
        let key = castellan_judge::processed_key(inbound);
        if !self.is_new(inbound)? || c.written.has(&Key::Processed(key)) {
            return Ok(None);
        }
        let judged = match ahead {
            Some((Ok(changes), reads, encoded)) if !c.written.touch(&reads) => {
                Some((changes, encoded))
            }
            Some(_) => {
                tracing::debug!("{}: judged again, in order", path.display());
                None
            }
            // Judged here: it stands unless it read what the open group writes.
            None => {
                let recording = Recording::new(&self.store);
                let changes = self.judge.handle(&recording, inbound, env)?;
                (!c.pending.touch(&recording.into_reads())).then_some((changes, None))
            }
        };
        let (changes, encoded) = match judged {
            Some(judged) => judged,
            None => {
                self.commit_group(c)?;
                (self.judge.handle(&self.store, inbound, env)?, None)
            }
        };
        let is_new_game = |id: &str| !self.store.has_game(id);
        c.written.add(&changes, is_new_game);
        c.pending.add(&changes, is_new_game);
        Ok(Some((changes, encoded)))
    }

    /// What [`Service::judge_one`] made of a mail, taken: judged, it joins the open group
    /// (committed once full) with its replies written ahead meanwhile; applied before, it is
    /// taken at once; about a game in quarantine, it stays in new/ for a later pass (the
    /// game marked and its game master told, once), and the batch ends there (true: the
    /// rest waits for the next listing). Any other failure aborts the journal entries of
    /// the mails not acknowledged and ends the batch.
    fn settle<'a>(
        &self,
        c: &mut Committer<'a, '_>,
        judged: Result<Option<(Changes, Option<crate::store::EncodedReplies>)>, StoreError>,
        mail: &'a Read<'a>,
        env: &Env,
        seq: Option<u64>,
        held: &mut std::collections::HashSet<PathBuf>,
    ) -> Result<bool, ShellError> {
        let (path, file, inbound) = mail;
        match judged {
            Ok(Some((changes, encoded))) => {
                c.group.push(Pending {
                    tickets: self.write_ahead(&changes, *env, c.prestager),
                    line: MailLine::judged(file, inbound, &changes),
                    changes,
                    encoded,
                    seq,
                    path,
                    file,
                    env: *env,
                });
                if c.group.len() >= self.group {
                    self.commit_group(c)?;
                }
            }
            Ok(None) => {
                self.journal.abort(seq);
                c.out
                    .take(path, MailLine::other(file, Some(inbound), "duplicate"));
            }
            Err(e) if e.is_quarantine() => {
                self.journal.abort(seq);
                tracing::warn!("{}: kept for later: {}", path.display(), e.0);
                held.insert((*path).clone());
                c.out
                    .lines
                    .push(MailLine::other(file, Some(inbound), "held"));
                self.commit_group(c)?;
                let told = self.judge.quarantined(&self.store, &self.env(), &e)?;
                if !told.is_empty() {
                    c.written.add(&told, |id| !self.store.has_game(id));
                    self.commit_journaled(&told)?;
                    // Committed under an entry after the batch's: nothing of the batch
                    // commits after it, so the database's number stays that of its last
                    // commit.
                    return Ok(true);
                }
            }
            Err(e) => {
                self.journal.abort(seq);
                for j in c.group.drain(..) {
                    self.journal.abort(j.seq);
                }
                return Err(e.into());
            }
        }
        Ok(false)
    }

    /// The mails of the open group acknowledged, then committed in one transaction, in
    /// order; their replies handed to the prestager and their files and log lines to
    /// `out`. The batch's journal entries are on the device first. If the acknowledgement
    /// or the commit fails, none is committed and their journal entries stay pending: they
    /// are rolled forward before anything else commits (src/serve/rollforward.rs).
    fn commit_group(&self, c: &mut Committer<'_, '_>) -> Result<(), StoreError> {
        c.pending = Writes::default();
        if let Some(journal) = c.spent.journal.take() {
            let start = std::time::Instant::now();
            let (unsynced, synced) = journal.wait()?;
            c.spent.journal_wait += start.elapsed();
            // On a failure every entry of the batch is aborted, the group's with them.
            self.journal
                .synced(unsynced, synced)
                .inspect_err(|_| c.group.clear())?;
            fault_point("after-journal");
        }
        if c.group.is_empty() {
            return Ok(());
        }
        let start = std::time::Instant::now();
        // Acknowledged now: their entries are on the device, and from here on an entry
        // the database lacks is rolled forward, not aborted. The mails taken before
        // with nothing to commit (duplicates) go with them.
        let paths: Vec<&std::path::Path> = c.out.taken[c.out.acked..]
            .iter()
            .chain(c.group.iter().map(|j| &j.path))
            .map(|p| p.as_path())
            .collect();
        let acked = c.inbox.acknowledge_all_unsynced(&paths);
        fault_point("after-acknowledge");
        let committed = match acked {
            Ok(_) => {
                c.out.acked = c.out.taken.len();
                let items: Vec<_> = c
                    .group
                    .iter()
                    .map(|j| (&j.changes, j.seq, j.encoded.as_ref()))
                    .collect();
                self.store.commit_group_encoded(&items)
            }
            Err(e) => Err(StoreError::new(format!(
                "{}: {e}",
                c.inbox.root().display()
            ))),
        };
        c.spent.spent += start.elapsed();
        let keys = match committed {
            Ok(keys) => keys,
            Err(e) => {
                self.keep_pending(c.group.drain(..).filter_map(|j| j.entry()));
                return Err(e);
            }
        };
        for (j, keys) in c.group.drain(..).zip(keys) {
            if let Some(p) = c.prestager {
                p.bind(&j.tickets, &keys);
            }
            self.count_answers(&j.changes);
            c.out.take(j.path, j.line);
        }
        c.out.acked = c.out.taken.len();
        Ok(())
    }

    /// Threads (one a core) to write a batch's replies ahead of its flush: for the file
    /// transport.
    fn prestager(&self) -> Option<crate::serve::prestage::Prestager<'_>> {
        match self.transport() {
            Transport::File { dir } => Some(crate::serve::prestage::Prestager::start(
                dir,
                self.workers(),
            )),
            _ => None,
        }
    }

    /// The service's threads, started at the first batch: one a core.
    pub(super) fn workers(&self) -> &Workers {
        self.workers
            .get_or_init(|| Workers::start(self.judges.max(2)))
    }

    pub(super) fn prestaged_lock(
        &self,
    ) -> std::sync::MutexGuard<'_, crate::serve::prestage::Prestaged> {
        self.prestaged.lock().unwrap_or_else(|e| e.into_inner())
    }
}
