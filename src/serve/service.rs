//! The imperative shell around the judge: raw mail in, one durable transaction per
//! message, acknowledgement once its journal entry is durable, and the outbox drained with
//! retries.
//!
//! Order of effects for one inbound message of the Maildir (the crash-safety argument):
//! 1. parse (mail crate) → 2. journal entry (file name, time, entropy) on the device →
//! 3. `Judge::handle` (pure) → 4. acknowledge (Maildir new/ → cur/, not fsynced) →
//! 5. commit: the mail marked processed, game records, log and every reply in the outbox,
//!    in one sled transaction that records the entry's number → 6. flush: sled's flush,
//!    then fdatasync of its files and fsync of its folder, or one `syncfs`
//!    (`SledStore::flush`) → 7. replies sent (only those a flush made durable).
//!
//! The Maildir is taken in batches (group commit): one journal fsync for the batch (2),
//! steps 3-5 for each message in order, in groups, one flush (6) for the whole batch.
//!
//! A crash before 2 leaves the messages unacknowledged: handled again from scratch. A
//! crash between 2 and 5 leaves journal entries past the database: they are pending, and
//! rolled forward at the next open (src/serve/rollforward.rs: the same time and entropy,
//! so the same state and replies), the mail read from cur/ or new/ (a transaction sled
//! kept is recognised by its `processed_key` (Message-ID, sender, content digest) and not
//! applied twice). Replies are sent from the outbox after the flush and removed only once
//! the transport accepted them, so a crash can resend a reply (with the same Message-ID)
//! but never lose one. IMAP (`handle_raw`) still acknowledges (`\Seen`) after the flush.

use crate::config::{Config, OutboundKind};
use crate::error::ShellError;
use crate::serve::env::{Clock, Entropy};
use crate::serve::maillog::MailLine;
use crate::serve::templates::load_templates_lenient;
use crate::store::fault::fault_point;
use crate::store::SledStore;
use castellan_judge::{Changes, Env, Judge, Outbound, Store, StoreError};
use castellan_mail::{OutgoingMail, SmtpSecurity, Transport};
use std::path::Path;

pub use super::batch::{BatchTimes, BATCH, GROUP};
use std::sync::Arc;

pub struct Service {
    pub config: Config,
    pub store: SledStore,
    pub judge: Judge,
    pub clock: Clock,
    pub entropy: Entropy,
    /// Answers given since start, by `family/kind[/reason]` (the metrics' refusals).
    pub answers: Arc<std::sync::Mutex<std::collections::BTreeMap<String, u64>>>,
    /// Every change journaled outside sled, for `castellan recover` (src/store/journal/ and src/ops/recover.rs).
    /// Shared with the drain (`Drainer`, src/serve/outbox.rs), which marks replies sent.
    pub journal: Arc<crate::store::journal::Journal>,
    /// Replies marked sent (in sled and the journal) since the last flush: the next flush
    /// carries them ([`Service::drain_outbox_deferred`]).
    pub(crate) marks_waiting: Arc<std::sync::atomic::AtomicBool>,
    /// Replies of flushed batches rendered and written ahead (src/serve/prestage.rs), by outbox
    /// key, for the next drain to adopt.
    pub(crate) prestaged: Arc<std::sync::Mutex<crate::serve::prestage::Prestaged>>,
    /// Every reply with an outbox key below this is durable (the flush that followed its
    /// commit is done): what `serve`'s drain, running beside the judging, may send.
    pub(crate) flushed_below: Arc<std::sync::atomic::AtomicU64>,
    /// How many threads judge a batch's mails side by side (src/serve/optimistic.rs); 1 judges
    /// them one after the other on the service's thread. The cores, by default.
    pub judges: usize,
    /// Judge a whole batch before committing any of it (tests of the read check: every
    /// mail then reads the store as the batch found it). Off: each is committed as soon
    /// as it is judged.
    pub judge_batch_first: bool,
    /// At most this many mails of a batch committed in one transaction ([`GROUP`]; 1
    /// commits each mail alone, as soon as it is judged).
    pub group: usize,
    /// Where the inbox batches' time went, summed since start (`castellan bench`).
    pub batch_times: std::sync::Mutex<BatchTimes>,
    /// The service's own threads (the journal's fsync, replies written ahead), started at
    /// the first batch and kept: no thread is started per batch.
    pub(crate) workers: std::sync::OnceLock<crate::serve::workers::Workers>,
    /// Journal entries past what the database committed, to roll forward before anything
    /// else commits (src/serve/rollforward.rs).
    pub(crate) pending: std::sync::Mutex<Vec<crate::store::journal::Entry>>,
}

/// How many threads judge a batch's mails side by side (src/serve/optimistic.rs): the cores.
pub fn judges() -> usize {
    std::thread::available_parallelism().map_or(2, |n| n.get().clamp(1, 8))
}

/// What happened to one inbound message.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Handled {
    /// Applied and committed; this many replies queued.
    Committed { replies: usize },
    /// Seen before (same Message-ID, sender and content): acknowledged, not applied again.
    Duplicate,
    /// Not a mail at all (unparseable): acknowledged, nothing to answer.
    Unreadable(String),
}

pub fn to_outgoing(o: &Outbound, from: &str) -> OutgoingMail {
    OutgoingMail {
        headers: o.headers.clone(),
        html: o.html.clone(),
        attachments: o.attachments.clone(),
        message_id: o.message_id.clone(),
        from: from.to_string(),
        to: o.to.clone(),
        subject: o.subject.clone(),
        body: o.body.clone(),
        in_reply_to: o.in_reply_to.clone(),
        references: o.references.clone(),
    }
}

impl Service {
    pub fn open(config: Config, clock: Clock) -> Result<Service, ShellError> {
        let store = SledStore::open(&config.database_path())?;
        let journal = crate::store::journal::Journal::open(
            &config.journal_path(),
            store.journal_seq()?,
            &config.database_path(),
        )?;
        let templates = load_templates_lenient(&config.templates_dir)?;
        let judge = Judge::new(config.judge.clone(), crate::games::all(), templates);
        let pending = journal.take_pending();
        let svc = Service {
            config,
            store,
            judge,
            clock,
            entropy: Entropy::Os,
            answers: Arc::default(),
            journal: Arc::new(journal),
            marks_waiting: Default::default(),
            prestaged: Default::default(),
            flushed_below: Default::default(),
            judges: judges(),
            judge_batch_first: false,
            group: GROUP,
            batch_times: Default::default(),
            workers: Default::default(),
            pending: std::sync::Mutex::new(pending),
        };
        // What the journal holds past the database (its mails maybe acknowledged already)
        // is applied now; if it cannot be (a full disk), it stays pending, and every path
        // that commits rolls it forward first.
        if let Err(e) = svc.roll_forward() {
            tracing::error!(
                "journal entries past the database not rolled forward yet: {}",
                e.0
            );
        }
        Ok(svc)
    }

    /// [`Service::open`], trying again while another process holds the database (an
    /// `ingest` or a command holds it for a moment), for `patience` at most; then the
    /// busy error is returned, as any other failure at once.
    pub fn open_waiting(
        config: Config,
        clock: Clock,
        patience: std::time::Duration,
    ) -> Result<Service, ShellError> {
        let give_up = std::time::Instant::now() + patience;
        let mut pause = std::time::Duration::from_millis(10);
        loop {
            match Service::open(config.clone(), clock.clone()) {
                Err(ShellError::Store(e))
                    if SledStore::is_busy_error(&e) && std::time::Instant::now() < give_up =>
                {
                    std::thread::sleep(pause);
                    pause = (pause * 2).min(std::time::Duration::from_millis(200));
                }
                other => return other,
            }
        }
    }

    /// [`Service::open`] that waits (logged, pauses growing to a minute) while the disk is
    /// full, and while another process holds the database if `busy_too`, instead of
    /// failing: `serve` at start, and when it opens the database again after compacting
    /// it (an `ingest` may hold it for a moment). Any other failure is returned.
    pub fn open_when_free(
        config: Config,
        clock: Clock,
        busy_too: bool,
    ) -> Result<Service, ShellError> {
        let mut pause = std::time::Duration::from_millis(if busy_too { 100 } else { 1000 });
        loop {
            match Service::open(config.clone(), clock.clone()) {
                Err(ShellError::Store(e))
                    if SledStore::is_disk_full(&e) || busy_too && SledStore::is_busy_error(&e) =>
                {
                    tracing::error!("{e}; trying again in {pause:?}");
                    std::thread::sleep(pause);
                    pause = (pause * 2).min(std::time::Duration::from_secs(60));
                }
                other => return other,
            }
        }
    }

    pub fn env(&self) -> Env {
        Env {
            now: (self.clock)(),
            entropy: self.entropy.draw(),
        }
    }

    /// Handle one raw message (from IMAP: journaled whole) durably. Returns once the
    /// result is on disk.
    pub fn handle_raw(&self, raw: &[u8]) -> Result<Handled, StoreError> {
        let (handled, line) = self.handle_unflushed_line(raw)?;
        self.flush_batch()?;
        fault_point("after-commit");
        line.log(self.config.log.addresses);
        Ok(handled)
    }

    /// Flush the database to the device, then note it in the journal.
    pub fn flush(&self) -> Result<(), StoreError> {
        self.flush_with(true, None)
    }

    /// The flush of an inbox batch: the database to the device, then a `done` line in the
    /// journal, which the next fsync of the journal carries (the next batch's write-ahead
    /// step, or [`Service::flush`]) rather than one of its own: the line only guards the
    /// back-in-time check, and the entries it follows are on the device already.
    fn flush_batch(&self) -> Result<(), StoreError> {
        self.flush_with(false, None)
    }

    /// The database to the device, a `done` line, and the journal synced if `sync_journal`.
    /// With `files_in`, one `syncfs` of each filesystem of the database and of that folder
    /// (replies written ahead there) instead of the fsyncs of the database's files. The
    /// sent marks waiting are carried by it; if it fails they wait still.
    pub(super) fn flush_with(
        &self,
        sync_journal: bool,
        files_in: Option<&Path>,
    ) -> Result<(), StoreError> {
        use std::sync::atomic::Ordering;
        let marks = self.marks_waiting.swap(false, Ordering::AcqRel);
        // Read before the flush: every reply below it is committed, so durable after it.
        let end = self.store.outbox_end();
        let flushed = match files_in {
            Some(dir) => self.store.flush_filesystems(&[dir]),
            None => self.store.flush(),
        };
        let r = flushed
            .and_then(|_| self.store.journal_seq())
            .and_then(|seq| {
                self.journal.done(seq);
                if sync_journal {
                    self.journal.flush()
                } else {
                    Ok(())
                }
            });
        if r.is_err() && marks {
            self.marks_waiting.store(true, Ordering::Release);
        }
        if let (Ok(()), Ok(end)) = (&r, end) {
            self.flushed_below.fetch_max(end, Ordering::AcqRel);
        }
        r
    }

    /// Make the sent marks left by [`Service::drain_outbox_deferred`] durable, if any
    /// wait (`serve` when a pass finds no mail, and at the end).
    pub fn flush_marks(&self) -> Result<(), StoreError> {
        if self
            .marks_waiting
            .load(std::sync::atomic::Ordering::Acquire)
        {
            self.flush()?;
        }
        Ok(())
    }

    /// Handle one raw message and commit it, not yet durable: the caller flushes
    /// ([`Service::flush`]) before acknowledging it. A mail seen before or not a mail is
    /// not journaled; else the message itself is journaled whole (IMAP: no Maildir keeps
    /// it) with its time and entropy and fsynced, then the judge runs and the transaction
    /// records the entry's number. An entry that does not commit is marked aborted.
    pub fn handle_unflushed(&self, raw: &[u8]) -> Result<Handled, StoreError> {
        self.handle_unflushed_line(raw).map(|(handled, _)| handled)
    }

    /// [`Service::handle_unflushed`], with the mail's log line (src/serve/maillog.rs).
    fn handle_unflushed_line(&self, raw: &[u8]) -> Result<(Handled, MailLine), StoreError> {
        self.roll_forward()?;
        let inbound = match self.screen(raw)? {
            Ok(inbound) => inbound,
            Err(Handled::Duplicate) => {
                let mail = castellan_mail::parse(raw, self.config.max_message_bytes).ok();
                let line = MailLine::other("", mail.as_ref(), "duplicate");
                return Ok((Handled::Duplicate, line));
            }
            Err(handled) => return Ok((handled, MailLine::other("", None, "unreadable"))),
        };
        let env = self.env();
        let seq = self
            .journal
            .begin(|seq| crate::store::journal::Entry::Raw {
                seq,
                raw: hex::encode(raw),
                at: env.now,
                entropy: hex::encode(env.entropy),
            })?;
        fault_point("after-journal");
        self.judge
            .handle(&self.store, &inbound, &env)
            .and_then(|changes| {
                let line = MailLine::judged("", &inbound, &changes);
                Ok((self.commit_judged(&changes, env, seq, None)?, line))
            })
            .inspect_err(|_| {
                self.journal.abort(seq);
            })
    }

    /// The judge on one raw message at a given time and entropy, committed (not flushed)
    /// with the journal entry `seq`: `recover`'s replay.
    pub fn apply_mail(
        &self,
        raw: &[u8],
        env: Env,
        seq: Option<u64>,
    ) -> Result<Handled, StoreError> {
        match self.screen(raw)? {
            Ok(inbound) => self.apply_inbound(&inbound, env, seq, None),
            Err(handled) => Ok(handled),
        }
    }

    /// `raw` parsed, if the judge is to see it; else what it is: not a mail, or a mail
    /// already applied.
    pub(super) fn screen(
        &self,
        raw: &[u8],
    ) -> Result<Result<castellan_judge::Inbound, Handled>, StoreError> {
        let inbound = match castellan_mail::parse(raw, self.config.max_message_bytes) {
            Ok(p) => p,
            Err(e) => return Ok(Err(Handled::Unreadable(e.to_string()))),
        };
        Ok(if self.is_new(&inbound)? {
            Ok(inbound)
        } else {
            Err(Handled::Duplicate)
        })
    }

    /// Whether this mail was never applied.
    pub(super) fn is_new(&self, inbound: &castellan_judge::Inbound) -> Result<bool, StoreError> {
        Ok(!self
            .store
            .is_processed(&castellan_judge::processed_key(inbound))?)
    }

    /// The judge on one parsed mail, committed (not flushed); its replies handed to
    /// `prestager`, if any, to be written ahead of the flush.
    fn apply_inbound(
        &self,
        inbound: &castellan_judge::Inbound,
        env: Env,
        seq: Option<u64>,
        prestager: Option<&crate::serve::prestage::Prestager>,
    ) -> Result<Handled, StoreError> {
        let changes = self.judge.handle(&self.store, inbound, &env)?;
        self.commit_judged(&changes, env, seq, prestager)
    }

    /// A mail's changes committed (not flushed), with its journal entry `seq`; its replies
    /// handed to `prestager`, if any.
    pub(super) fn commit_judged(
        &self,
        changes: &Changes,
        env: Env,
        seq: Option<u64>,
        prestager: Option<&crate::serve::prestage::Prestager>,
    ) -> Result<Handled, StoreError> {
        let keys = self.store.commit_unflushed_seq(changes, seq)?;
        if let Some(p) = prestager {
            p.bind(&self.write_ahead(changes, env, Some(p)), &keys);
        }
        self.count_answers(changes);
        Ok(Handled::Committed {
            replies: changes.outbox.len(),
        })
    }

    /// The replies of `changes` handed to `prestager`, if any, to be written ahead of the
    /// flush (before their mail is committed, maybe: each [`Prestager::bind`]s to its
    /// outbox key once it is). Their tickets, in order.
    ///
    /// [`Prestager::bind`]: crate::serve::prestage::Prestager::bind
    pub(super) fn write_ahead(
        &self,
        changes: &Changes,
        env: Env,
        prestager: Option<&crate::serve::prestage::Prestager>,
    ) -> Vec<crate::serve::prestage::Ticket> {
        let Some(p) = prestager else {
            return Vec::new();
        };
        let from = &self.config.judge.address;
        changes
            .outbox
            .iter()
            .map(|reply| p.stage(to_outgoing(reply, from), env.now))
            .collect()
    }

    /// The answers of a committed mail, counted for the metrics.
    pub(super) fn count_answers(&self, changes: &Changes) {
        if let Ok(mut counts) = self.answers.lock() {
            for a in &changes.answers {
                *counts.entry(a.clone()).or_insert(0) += 1;
            }
        }
    }

    /// Apply a judge result (tick, admin) durably: journaled whole, committed, flushed.
    pub fn commit(&self, changes: &Changes) -> Result<(), StoreError> {
        self.roll_forward()?;
        let seq = self.journal_changes(changes)?;
        self.store
            .commit_unflushed_seq(changes, seq)
            .and_then(|_| self.flush())
            .inspect_err(|_| self.journal.abort(seq))
    }

    /// A quarantine's mark and notice journaled whole, so that `recover` replays them (the
    /// game master is told once, a recovery included), then committed with the batch.
    pub(super) fn commit_journaled(&self, changes: &Changes) -> Result<(), StoreError> {
        let seq = self.journal_changes(changes)?;
        self.store
            .commit_unflushed_seq(changes, seq)
            .map(drop)
            .inspect_err(|_| self.journal.abort(seq))
    }

    /// `changes` written ahead in the journal (fsynced); the entry's number.
    fn journal_changes(&self, changes: &Changes) -> Result<Option<u64>, StoreError> {
        self.journal
            .begin(|seq| crate::store::journal::Entry::Changes {
                seq,
                changes: Box::new(changes.clone()),
            })
    }

    /// Deadlines: reminders, defaults, stand-ins. A tick that changes something is
    /// journaled (its time and entropy) before it is committed.
    pub fn tick(&self) -> Result<usize, StoreError> {
        self.roll_forward()?;
        let env = self.env();
        let changes = self.judge.tick(&self.store, &env)?;
        let n = changes.outbox.len();
        if !tick_is_empty(&changes) {
            let seq = self
                .journal
                .begin(|seq| crate::store::journal::Entry::Tick {
                    seq,
                    at: env.now,
                    entropy: hex::encode(env.entropy),
                })?;
            self.store
                .commit_unflushed_seq(&changes, seq)
                .and_then(|_| self.flush())
                .inspect_err(|_| self.journal.abort(seq))?;
        }
        Ok(n)
    }

    /// `recover`'s replay of a journaled tick.
    pub fn apply_tick(&self, env: Env, seq: Option<u64>) -> Result<(), StoreError> {
        let changes = self.judge.tick(&self.store, &env)?;
        if tick_is_empty(&changes) {
            return Err(StoreError::new(format!(
                "the deadline pass of entry {seq:?} changes nothing when replayed"
            )));
        }
        self.store.commit_unflushed_seq(&changes, seq).map(drop)
    }

    pub fn transport(&self) -> Transport {
        let o = &self.config.outbound;
        match o.kind {
            OutboundKind::File => Transport::File {
                dir: self.config.outbox_path(),
            },
            OutboundKind::Sendmail => Transport::Sendmail {
                command: o.sendmail.clone(),
            },
            OutboundKind::Smtp => {
                let security = match o.smtp.security.to_lowercase().as_str() {
                    "none" | "plain" => SmtpSecurity::None,
                    "tls" | "smtps" => SmtpSecurity::Tls,
                    _ => SmtpSecurity::StartTls,
                };
                // The CA file is read at each connection; a bad one is said now as well,
                // not only in the error of every reply it parks.
                if let (Some(ca), false) = (&o.smtp.ca_file, security == SmtpSecurity::None) {
                    if let Err(e) = castellan_mail::check_ca_file(ca) {
                        tracing::error!(
                            "outbound.smtp.ca_file: {e}; replies over SMTP fail (and are \
                             parked) until it is fixed"
                        );
                    }
                }
                Transport::Smtp {
                    host: o.smtp.host.clone(),
                    port: o.smtp.port,
                    security,
                    user: o.smtp.user.clone(),
                    password: o.smtp.password.clone(),
                    ca_file: o.smtp.ca_file.clone(),
                    timeout: std::time::Duration::from_secs(o.smtp.timeout_seconds.max(1)),
                }
            }
        }
    }
}

impl Drop for Service {
    /// Sent marks still waiting are flushed (best effort: a lost mark only sends a reply
    /// again, with the same Message-ID).
    fn drop(&mut self) {
        if let Err(e) = self.flush_marks() {
            tracing::warn!("sent marks not flushed: {}", e.0);
        }
    }
}

pub(super) fn tick_is_empty(c: &Changes) -> bool {
    c.games.is_empty() && c.outbox.is_empty() && c.log.is_empty()
}
