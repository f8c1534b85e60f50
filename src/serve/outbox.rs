//! The outbox drained: every due reply sent (or the one written ahead adopted), a
//! transient failure retried with backoff, and the sent marks left for the next flush.
//! A relay that does not answer (or cannot be reached) ends the drain: the reply that
//! found it so is charged an attempt, the others wait for the next drain uncharged.
//!
//! A drain needs only a [`Drainer`], the parts of the service it reads and marks, so
//! `serve` runs it on a task of its own (src/serve/drain.rs) while the service judges.

use super::maillog;
use super::service::{to_outgoing, Service};
use crate::config::Outbound;
use crate::error::ShellError;
use crate::serve::env::Clock;
use crate::serve::prestage::Prestaged;
use crate::store::fault::fault_point;
use crate::store::journal::Journal;
use crate::store::SledStore;
use castellan_mail::Transport;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};

/// What a drain reads and marks, shared with the service it was taken from
/// ([`Service::drainer`]): the store, the journal, the marks waiting for a flush, the
/// replies written ahead; and the settings of the outbound side as they were then.
#[derive(Clone)]
pub struct Drainer {
    store: SledStore,
    journal: Arc<Journal>,
    marks_waiting: Arc<AtomicBool>,
    prestaged: Arc<Mutex<Prestaged>>,
    clock: Clock,
    from: String,
    outbound: Outbound,
    addresses: crate::config::AddressLog,
    /// `serve`'s drain, beside the judging: only the replies below this outbox key, those
    /// whose commit a flush made durable (no reply leaves before its mail is durable).
    /// None: every reply (a caller that flushed what it committed before draining).
    flushed_below: Option<Arc<AtomicU64>>,
}

/// What a drain did.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Drained {
    /// Replies the transport took (marked sent; the mark flushed later).
    pub sent: usize,
    /// Replies due that did not go: refused (retried later or parked), or left for the
    /// next drain because the relay was down.
    pub failed: usize,
    /// The relay did not answer within its timeout, or could not be reached: the drain
    /// ended there.
    pub relay_down: bool,
}

impl Service {
    /// Send every due reply. A transient failure is retried later with exponential
    /// backoff; after `max_attempts` the reply is parked (kept, marked failed). The replies
    /// marked sent are flushed before it returns.
    pub async fn drain_outbox(&self, transport: &Transport) -> Result<(usize, usize), ShellError> {
        let r = self.drain_outbox_deferred(transport).await?;
        self.flush_marks()?;
        Ok(r)
    }

    /// [`Service::drain_outbox`], leaving the sent marks for the next flush (group commit:
    /// `serve` flushes them with the next batch of mail, or when a pass finds none). A
    /// mark is in sled and the journal's page cache at once, so a killed process keeps
    /// it; only a power cut before the next flush can lose it, and then the reply goes
    /// again with the same Message-ID (src/store/journal/ and src/ops/recover.rs).
    pub async fn drain_outbox_deferred(
        &self,
        transport: &Transport,
    ) -> Result<(usize, usize), ShellError> {
        let d = self
            .drainer()
            .drain(transport, &AtomicBool::new(false))
            .await?;
        Ok((d.sent, d.failed))
    }

    /// The drain's share of this service, for a drain in line: every reply is sent, as
    /// the caller flushed what it committed.
    pub fn drainer(&self) -> Drainer {
        Drainer {
            store: self.store.clone(),
            journal: self.journal.clone(),
            marks_waiting: self.marks_waiting.clone(),
            prestaged: self.prestaged.clone(),
            clock: self.clock.clone(),
            from: self.config.judge.address.clone(),
            outbound: self.config.outbound.clone(),
            addresses: self.config.log.addresses,
            flushed_below: None,
        }
    }

    /// [`Service::drainer`] for a drain that runs beside the judging (`serve`): only the
    /// replies whose commit is flushed are sent.
    pub fn drainer_beside(&self) -> Drainer {
        Drainer {
            flushed_below: Some(self.flushed_below.clone()),
            ..self.drainer()
        }
    }
}

impl Drainer {
    /// The outbound settings this drainer was taken with.
    pub fn outbound(&self) -> &Outbound {
        &self.outbound
    }

    /// Send every due reply, until `halt` is set (checked before each reply: a safe point,
    /// where what went is marked and the rest waits) or the relay is found down.
    pub async fn drain(
        &self,
        transport: &Transport,
        halt: &AtomicBool,
    ) -> Result<Drained, ShellError> {
        let mut d = Drained::default();
        let mut marked = false;
        let now = (self.clock)();
        let below = self
            .flushed_below
            .as_ref()
            .map_or(u64::MAX, |b| b.load(Ordering::Acquire));
        // One mailer for the whole drain: SMTP reuses its connection across the batch.
        let mut mailer = transport.mailer();
        // Replies the transport took; they count as sent once the batch is out (the file
        // transport makes the whole batch durable at once: `Mailer::finish`).
        let mut accepted: Vec<(u64, String)> = Vec::new();
        // Their recipients, in the same order (for the log line of each).
        let mut recipients: Vec<String> = Vec::new();
        // Replies written ahead while their batch was handled: adopted, not rendered again.
        let mut prestaged =
            std::mem::take(&mut *self.prestaged.lock().unwrap_or_else(|e| e.into_inner()));
        // Held back or parked by the retry index: not even decoded.
        let due = self.store.outbox_due(now, |k| prestaged.contains_key(&k))?;
        let due: Vec<_> = due.into_iter().filter(|(key, _)| *key < below).collect();
        let total = due.len();
        for (n, (key, item)) in due.into_iter().enumerate() {
            if halt.load(Ordering::Acquire) {
                break;
            }
            let mut item = match item {
                Some(item) => item,
                // Written ahead: as committed, never tried, not held back.
                None => {
                    let Some((staged, message_id, to)) = prestaged.remove(&key) else {
                        continue;
                    };
                    if self.store.was_sent(&message_id)? {
                        let _ = std::fs::remove_file(&staged.0);
                        self.store.mark_sent(key, &message_id, now)?;
                        self.journal.sent(&message_id);
                        marked = true;
                        continue;
                    }
                    if mailer.adopt(staged) {
                        fault_point("after-send");
                        accepted.push((key, message_id));
                        recipients.push(to);
                        continue;
                    }
                    // Not this transport's file: sent as any other reply.
                    match self.store.outbox_item(key)? {
                        Some(item) => item,
                        None => continue,
                    }
                }
            };
            if item.failed || item.not_before > now {
                continue;
            }
            if self.store.was_sent(&item.mail.message_id)? {
                self.store.mark_sent(key, &item.mail.message_id, now)?;
                self.journal.sent(&item.mail.message_id);
                marked = true;
                continue;
            }
            let mail = to_outgoing(&item.mail, &self.from);
            match mailer.send(&mail, now).await {
                Ok(()) => {
                    fault_point("after-send");
                    accepted.push((key, item.mail.message_id.clone()));
                    recipients.push(item.mail.to.clone());
                }
                Err(e) => {
                    self.retry_or_park(key, &mut item, &e, now)?;
                    d.failed += 1;
                    if mailer.relay_down() {
                        // The rest waits for the next drain, uncharged: one timeout a
                        // drain, not one a reply.
                        let left = total - n - 1;
                        tracing::warn!(
                            "the relay is down: {left} more repl(ies) wait for the next try"
                        );
                        d.failed += left;
                        d.relay_down = true;
                        break;
                    }
                }
            }
        }
        // Written ahead for a reply this drain does not send (sent before, or held back).
        crate::serve::prestage::discard(prestaged);
        self.finish(mailer, &accepted, &recipients, now, &mut d)
            .await?;
        if d.sent > 0 || marked {
            self.marks_waiting.store(true, Ordering::Release);
        }
        Ok(d)
    }

    /// The drain's batch made out (`Mailer::finish`), then the replies the transport took
    /// marked sent (in sled and the journal, not flushed) and logged, `recipients` in the
    /// order of `accepted`. If the batch did not go out, every one of them waits.
    async fn finish(
        &self,
        mut mailer: castellan_mail::Mailer<'_>,
        accepted: &[(u64, String)],
        recipients: &[String],
        now: i64,
        d: &mut Drained,
    ) -> Result<(), ShellError> {
        match mailer.finish().await {
            Ok(()) => {
                self.store.mark_sent_all(accepted, now)?;
                self.journal
                    .sent_all(accepted.iter().map(|(_, message_id)| message_id.as_str()));
                d.sent += accepted.len();
                for ((_, message_id), to) in accepted.iter().zip(recipients) {
                    maillog::reply_sent(message_id, to, self.addresses);
                }
            }
            // Nothing of the batch went out: every reply stays for the next pass.
            Err(e) => {
                tracing::warn!("{} replies will be sent again: {e}", accepted.len());
                d.failed += accepted.len();
            }
        }
        Ok(())
    }

    /// A reply the transport did not take: tried again later with exponential backoff,
    /// or parked (kept, marked failed) after `max_attempts` or a permanent failure; logged.
    fn retry_or_park(
        &self,
        key: u64,
        item: &mut crate::store::OutboxItem,
        e: &castellan_mail::SendError,
        now: i64,
    ) -> Result<(), ShellError> {
        item.attempts += 1;
        item.last_error = Some(e.to_string());
        let o = &self.outbound;
        let retry_in = if !e.is_transient() || item.attempts >= o.max_attempts {
            item.failed = true;
            None
        } else {
            let delay = o
                .retry_base_seconds
                .saturating_mul(1u64 << item.attempts.min(20))
                .min(o.retry_max_seconds);
            item.not_before = now + delay as i64;
            Some(delay)
        };
        let (id, to) = (&item.mail.message_id, &item.mail.to);
        maillog::reply_failed(id, to, self.addresses, item.attempts, retry_in, e);
        self.store.update_outbox(key, item)?;
        Ok(())
    }
}
