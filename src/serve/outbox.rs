//! The outbox drained: every due reply sent (or the one written ahead adopted), a
//! transient failure retried with backoff, and the sent marks left for the next flush.

use super::maillog;
use super::service::{to_outgoing, Service};
use crate::error::ShellError;
use crate::store::fault::fault_point;
use castellan_mail::Transport;

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
        let (mut sent, mut failed, mut marked) = (0, 0, false);
        let now = (self.clock)();
        let from = self.config.judge.address.clone();
        // One mailer for the whole drain: SMTP reuses its connection across the batch.
        let mut mailer = transport.mailer();
        // Replies the transport took; they count as sent once the batch is out (the file
        // transport makes the whole batch durable at once: `Mailer::finish`).
        let mut accepted: Vec<(u64, String)> = Vec::new();
        // Their recipients, in the same order (for the log line of each).
        let mut recipients: Vec<String> = Vec::new();
        let addresses = self.config.log.addresses;
        // Replies written ahead while their batch was handled: adopted, not rendered again.
        let mut prestaged = std::mem::take(&mut *self.prestaged_lock());
        // Held back or parked by the retry index: not even decoded.
        for (key, item) in self.store.outbox_due(now, |k| prestaged.contains_key(&k))? {
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
            let mail = to_outgoing(&item.mail, &from);
            match mailer.send(&mail, now).await {
                Ok(()) => {
                    fault_point("after-send");
                    accepted.push((key, item.mail.message_id.clone()));
                    recipients.push(item.mail.to.clone());
                }
                Err(e) => {
                    self.retry_or_park(key, &mut item, &e, now)?;
                    failed += 1;
                }
            }
        }
        // Written ahead for a reply this drain does not send (sent before, or held back).
        crate::serve::prestage::discard(prestaged);
        match mailer.finish().await {
            Ok(()) => {
                self.store.mark_sent_all(&accepted, now)?;
                self.journal
                    .sent_all(accepted.iter().map(|(_, message_id)| message_id.as_str()));
                sent += accepted.len();
                for ((_, message_id), to) in accepted.iter().zip(&recipients) {
                    maillog::reply_sent(message_id, to, addresses);
                }
            }
            // Nothing of the batch went out: every reply stays for the next pass.
            Err(e) => {
                tracing::warn!("{} replies will be sent again: {e}", accepted.len());
                failed += accepted.len();
            }
        }
        if sent > 0 || marked {
            self.marks_waiting
                .store(true, std::sync::atomic::Ordering::Release);
        }
        Ok((sent, failed))
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
        let o = &self.config.outbound;
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
        maillog::reply_failed(
            id,
            to,
            self.config.log.addresses,
            item.attempts,
            retry_in,
            e,
        );
        self.store.update_outbox(key, item)?;
        Ok(())
    }
}
