//! tokio wiring only: poll the inbox, tick the deadline clock, drain the outbox.

use crate::service::Service;
use castellan_mail::{ImapInbox, Transport};
use std::time::Duration;

/// Fetch unseen IMAP messages, handle each durably, and only then flag it \Seen.
pub async fn poll_imap(svc: &Service) -> Result<usize, String> {
    let c = &svc.config.inbound.imap;
    let mut inbox = ImapInbox::connect(&c.host, c.port, c.tls, &c.user, &c.password, &c.mailbox)
        .await
        .map_err(|e| format!("IMAP {}:{}: {e}", c.host, c.port))?;
    let mut n = 0;
    for (uid, raw) in inbox.fetch_unseen().await.map_err(|e| e.to_string())? {
        svc.handle_raw(&raw).map_err(|e| e.0)?;
        inbox.mark_seen(uid).await.map_err(|e| e.to_string())?;
        n += 1;
    }
    let _ = inbox.logout().await;
    Ok(n)
}

/// Run until interrupted (Ctrl-C / SIGTERM): each loop takes the inbox, runs deadlines
/// every `tick_seconds`, and drains the outbox.
pub async fn serve(svc: Service, transport: Transport) -> Result<(), String> {
    let poll = match svc.config.inbound.kind {
        crate::config::InboundKind::Imap => {
            Duration::from_secs(svc.config.inbound.imap.poll_seconds.max(1))
        }
        _ => Duration::from_secs(2),
    };
    let tick_every = Duration::from_secs(svc.config.tick_seconds.max(1));
    let mut last_tick = tokio::time::Instant::now() - tick_every;
    tracing::info!("castellan serving; inbox {:?}", svc.config.inbound.kind);
    loop {
        let taken = match svc.config.inbound.kind {
            crate::config::InboundKind::Maildir => svc.process_maildir(),
            crate::config::InboundKind::Imap => poll_imap(&svc).await,
            crate::config::InboundKind::None => Ok(0),
        };
        match taken {
            Ok(n) if n > 0 => tracing::info!("took {n} message(s)"),
            Ok(_) => {}
            Err(e) => tracing::error!("inbox: {e}"),
        }
        if last_tick.elapsed() >= tick_every {
            last_tick = tokio::time::Instant::now();
            if let Err(e) = svc.tick() {
                tracing::error!("deadlines: {}", e.0);
            }
        }
        if let Err(e) = svc.drain_outbox(&transport).await {
            tracing::error!("outbox: {e}");
        }
        tokio::select! {
            _ = tokio::time::sleep(poll) => {}
            _ = tokio::signal::ctrl_c() => {
                tracing::info!("stopping");
                return svc.store.flush().map_err(|e| e.0);
            }
        }
    }
}
