//! One pass of the judge: every inbox (the Maildir, and IMAP when configured), the
//! deadlines, the outbox. `serve` runs one after another; `serve --once` one.

use super::service::{Handled, Service};
use crate::error::ShellError;
use castellan_mail::{ImapInbox, ImapTls, Transport};

/// Fetch unseen IMAP messages, handle each durably, and only then flag it \Seen.
pub async fn poll_imap(svc: &Service) -> Result<usize, ShellError> {
    let c = &svc.config.inbound.imap;
    let tls = match c.tls {
        true => ImapTls::Tls {
            ca_file: c.ca_file.clone(),
        },
        false => ImapTls::None,
    };
    let imap = |e: castellan_mail::ImapError| ShellError::Imap {
        server: format!("{}:{}", c.host, c.port),
        why: e.to_string(),
    };
    let mut inbox = ImapInbox::connect_within(
        std::time::Duration::from_secs(c.timeout_seconds.max(1)),
        &c.host,
        c.port,
        &tls,
        &c.user,
        &c.password,
        &c.mailbox,
    )
    .await
    .map_err(imap)?;
    let mut n = 0;
    for (uid, raw) in inbox.fetch_unseen().await.map_err(imap)? {
        if let Handled::Unreadable(why) = svc.handle_raw(&raw)? {
            tracing::warn!("IMAP message UID {uid}: not a mail ({why}); flagged seen, set aside");
        }
        inbox.mark_seen(uid).await.map_err(imap)?;
        n += 1;
    }
    let _ = inbox.logout().await;
    Ok(n)
}

impl Service {
    /// One full pass: inbox, deadlines, outbox (`serve --once`).
    /// Every inbox this judge reads, each tried even if another failed: the Maildir always
    /// (the inbox of the default set-up and the spool `castellan ingest` writes to when the
    /// database is busy), and IMAP when configured. One result per inbox.
    pub async fn take_inboxes(&self) -> Vec<Result<usize, ShellError>> {
        let mut taken = vec![self.process_maildir()];
        if self.config.inbound.kind == crate::config::InboundKind::Imap {
            taken.push(poll_imap(self).await);
        }
        taken
    }

    /// One pass: the inboxes, deadlines, the outbox. The replies' sent marks are left for
    /// the next flush ([`Service::drain_outbox_deferred`]; [`Service::flush_marks`]).
    pub async fn run_once(&self, transport: &Transport) -> Result<PassReport, ShellError> {
        let mut taken = 0;
        let t0 = std::time::Instant::now();
        for t in self.take_inboxes().await {
            taken += t?;
        }
        let t1 = std::time::Instant::now();
        let ticked = self.tick()?;
        let t2 = std::time::Instant::now();
        let (sent, failed) = self.drain_outbox_deferred(transport).await?;
        Ok(PassReport {
            taken,
            ticked,
            sent,
            failed,
            inbox_time: t1 - t0,
            tick_time: t2 - t1,
            outbox_time: t2.elapsed(),
        })
    }
}

#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct PassReport {
    pub taken: usize,
    pub ticked: usize,
    pub sent: usize,
    pub failed: usize,
    /// Time taking the inboxes: parse, judge, commit, the batch's flush, acknowledgement.
    pub inbox_time: std::time::Duration,
    /// Time in the deadline tick.
    pub tick_time: std::time::Duration,
    /// Time draining the outbox (the transport, and marking what went).
    pub outbox_time: std::time::Duration,
}
