//! tokio wiring only: poll the inbox, tick the deadline clock, drain the outbox.

use crate::error::ShellError;
use crate::service::{Handled, Service};
use castellan_mail::{ImapInbox, ImapTls, Transport};
use std::time::Duration;

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
    let mut inbox = ImapInbox::connect(&c.host, c.port, &tls, &c.user, &c.password, &c.mailbox)
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

/// Ctrl-C (SIGINT) and SIGTERM, listened to for the whole run: a signal that comes while a
/// pass is running is kept and ends the loop right after that pass. (A `ctrl_c()` future
/// made afresh at each sleep misses a signal sent during a pass, and without a SIGTERM
/// listener `kill`, systemd or docker end the process wherever it is.)
struct Shutdown {
    #[cfg(unix)]
    int: tokio::signal::unix::Signal,
    #[cfg(unix)]
    term: tokio::signal::unix::Signal,
}

impl Shutdown {
    #[cfg(unix)]
    fn listen() -> Result<Shutdown, ShellError> {
        use tokio::signal::unix::{signal, SignalKind};
        let listen = |kind: SignalKind, what: &'static str| {
            signal(kind).map_err(|source| ShellError::Setup { what, source })
        };
        Ok(Shutdown {
            int: listen(SignalKind::interrupt(), "cannot listen for SIGINT")?,
            term: listen(SignalKind::terminate(), "cannot listen for SIGTERM")?,
        })
    }

    #[cfg(not(unix))]
    fn listen() -> Result<Shutdown, ShellError> {
        Ok(Shutdown {})
    }

    /// Resolves when a stop signal came (now or since the last call); names it.
    #[cfg(unix)]
    async fn recv(&mut self) -> &'static str {
        tokio::select! {
            _ = self.int.recv() => "SIGINT",
            _ = self.term.recv() => "SIGTERM",
        }
    }

    #[cfg(not(unix))]
    async fn recv(&mut self) -> &'static str {
        let _ = tokio::signal::ctrl_c().await;
        "Ctrl-C"
    }
}

/// Run until interrupted (Ctrl-C / SIGTERM): each loop takes the inbox, runs deadlines
/// every `tick_seconds`, and drains the outbox. A stop signal ends the loop between two
/// passes, with the database flushed.
pub async fn serve(svc: Service, transport: Transport) -> Result<(), ShellError> {
    let mut shutdown = Shutdown::listen()?;
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
        for t in svc.take_inboxes().await {
            match t {
                Ok(n) if n > 0 => tracing::info!("took {n} message(s)"),
                Ok(_) => {}
                Err(e) => tracing::error!("inbox: {e}"),
            }
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
            signal = shutdown.recv() => {
                tracing::info!("{signal}: stopping");
                return Ok(svc.store.flush()?);
            }
        }
    }
}
