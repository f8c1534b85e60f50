//! tokio wiring only: poll the inbox, tick the deadline clock, and wake the outbox's own
//! task (src/serve/drain.rs), which sends apart from the judging; SIGHUP reloads the
//! configuration and templates (src/serve/reload.rs).

use crate::config::Config;
use crate::error::ShellError;
use crate::serve::drain::{DrainTask, Idle};
use crate::serve::env::system_clock;
use crate::serve::metrics::Metrics;
use crate::serve::reload::Reload;
use crate::serve::service::Service;
use castellan_mail::Transport;
use std::process::ExitCode;
use std::sync::Arc;
use std::time::Duration;

/// Ctrl-C (SIGINT) and SIGTERM, listened to for the whole run: a signal that comes while a
/// pass is running is kept and ends the loop right after that pass. SIGHUP, kept the same
/// way, reloads the configuration after that pass. (A `ctrl_c()` future
/// made afresh at each sleep misses a signal sent during a pass, and without a SIGTERM
/// listener `kill`, systemd or docker end the process wherever it is.)
struct Shutdown {
    #[cfg(unix)]
    int: tokio::signal::unix::Signal,
    #[cfg(unix)]
    term: tokio::signal::unix::Signal,
    #[cfg(unix)]
    hup: tokio::signal::unix::Signal,
}

/// What a signal asks of the daemon.
enum Signalled {
    Stop(&'static str),
    Reload,
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
            hup: listen(SignalKind::hangup(), "cannot listen for SIGHUP")?,
        })
    }

    #[cfg(not(unix))]
    fn listen() -> Result<Shutdown, ShellError> {
        Ok(Shutdown {})
    }

    /// Resolves when a signal came (now or since the last call): a stop, named, or a reload.
    #[cfg(unix)]
    async fn recv(&mut self) -> Signalled {
        tokio::select! {
            _ = self.int.recv() => Signalled::Stop("SIGINT"),
            _ = self.term.recv() => Signalled::Stop("SIGTERM"),
            _ = self.hup.recv() => Signalled::Reload,
        }
    }

    #[cfg(not(unix))]
    async fn recv(&mut self) -> Signalled {
        let _ = tokio::signal::ctrl_c().await;
        Signalled::Stop("Ctrl-C")
    }
}

/// Run until interrupted (Ctrl-C / SIGTERM): each loop takes the inbox and runs deadlines
/// every `tick_seconds`; the outbox is drained on a task of its own (src/serve/drain.rs),
/// woken when they queued replies. A stop signal ends the loop between two passes, the
/// drain stopped before its next reply, with the database flushed.
pub async fn serve(svc: Service, transport: Transport, reload: Reload) -> Result<(), ShellError> {
    let mut shutdown = Shutdown::listen()?;
    let metrics = Arc::new(Metrics {
        answers: svc.answers.clone(),
        ..Metrics::default()
    });
    // The database the metrics read: none while `serve` compacts it.
    let (store_tx, store_rx) = tokio::sync::watch::channel(Some(svc.store.clone()));
    if let Some(listen) = &svc.config.metrics.listen {
        let addr =
            crate::serve::metrics::check_listen(listen).map_err(|why| ShellError::Config {
                path: "metrics.listen".into(),
                why,
            })?;
        let listener = tokio::net::TcpListener::bind(addr)
            .await
            .map_err(|source| ShellError::Setup {
                what: "metrics.listen: cannot listen",
                source,
            })?;
        tracing::info!("metrics on http://{addr}/metrics");
        tokio::spawn(crate::serve::metrics::serve(
            listener,
            metrics.clone(),
            store_rx,
            svc.clock.clone(),
        ));
    }
    tracing::info!("castellan serving; inbox {:?}", svc.config.inbound.kind);
    let marker = crate::store::serving_marker(&svc.config.data_dir);
    if let Err(e) = std::fs::write(&marker, format!("{}\n", std::process::id())) {
        tracing::warn!("cannot write {}: {e}", marker.display());
    }
    // The admin commands run meanwhile come through the admin socket.
    let socket = crate::serve::admin_socket::path(&svc.config.data_dir);
    let mut admin = match crate::serve::admin_socket::listen(&svc.config.data_dir) {
        Ok(jobs) => {
            tracing::info!("admin commands on {}", socket.display());
            jobs
        }
        Err(e) => {
            tracing::warn!(
                "{}: {e}; admin commands wait for `serve` to stop",
                socket.display()
            );
            tokio::sync::mpsc::channel(1).1
        }
    };
    let signals = Signals {
        shutdown: &mut shutdown,
        reload: &reload,
        admin: &mut admin,
    };
    // What the drain beside the judging may send is what a flush made durable: the
    // database as it was opened, once flushed.
    if let Err(e) = svc.flush() {
        tracing::error!("the outbox waits for a flush: {}", e.0);
    }
    let drain = DrainTask::spawn(
        svc.drainer_beside(),
        transport.clone(),
        intervals(&svc.config).0,
        metrics.clone(),
    );
    let result = serve_loop(svc, transport, signals, &metrics, &store_tx, drain).await;
    let _ = std::fs::remove_file(&socket);
    let _ = std::fs::remove_file(&marker);
    result
}

/// The signals the loop answers, where to read the configuration again on SIGHUP, and
/// the admin commands that come through the admin socket.
struct Signals<'a> {
    shutdown: &'a mut Shutdown,
    reload: &'a Reload,
    admin: &'a mut AdminJobs,
}

/// The pause between two passes and between two deadline checks, as configured.
fn intervals(config: &Config) -> (Duration, Duration) {
    let poll = match config.inbound.kind {
        crate::config::InboundKind::Imap => {
            Duration::from_secs(config.inbound.imap.poll_seconds.max(1))
        }
        _ => Duration::from_secs(2),
    };
    (poll, Duration::from_secs(config.tick_seconds.max(1)))
}

/// SIGHUP: the configuration and templates read again (src/serve/reload.rs); the
/// transport made anew from them, and handed to the drain. A file that does not load
/// changes nothing.
fn reload(svc: &mut Service, transport: &mut Transport, from: &Reload, drain: &DrainTask) {
    match svc.reload(from) {
        Ok(kept) => {
            *transport = svc.transport();
            drain.hand(
                svc.drainer_beside(),
                transport.clone(),
                intervals(&svc.config).0,
            );
            tracing::info!(
                config = %from.source.path.display(),
                "SIGHUP: configuration and templates reloaded"
            );
            for key in kept {
                tracing::warn!("SIGHUP: {key} changed: it takes effect at the next restart");
            }
        }
        Err(e) => tracing::error!("SIGHUP: nothing reloaded: {e}"),
    }
}

async fn serve_loop(
    mut svc: Service,
    mut transport: Transport,
    signals: Signals<'_>,
    metrics: &Metrics,
    store_tx: &StoreHandle,
    drain: DrainTask,
) -> Result<(), ShellError> {
    let (mut poll, mut tick_every) = intervals(&svc.config);
    let mut last_tick = tokio::time::Instant::now() - tick_every;
    // Consecutive passes that failed (a full disk): the pause grows, up to a minute, and
    // the service goes on by itself once a pass succeeds.
    let mut failing: u32 = 0;
    loop {
        let (took, ok) = take_mail(&mut svc, metrics).await;
        let mut failed = !ok;
        let mut queued = took > 0;
        if last_tick.elapsed() >= tick_every {
            last_tick = tokio::time::Instant::now();
            match svc.tick() {
                Ok(n) => {
                    queued |= n > 0;
                    Metrics::add(&metrics.deadline_mails, n as u64)
                }
                Err(e) => {
                    failed = true;
                    Metrics::add(&metrics.deadline_errors, 1);
                    tracing::error!("deadlines: {}", e.0);
                }
            }
        }
        // The replies go on the drain's own task: a relay that hangs holds it, not this.
        if queued {
            drain.wake();
        }
        // A backup (and a compaction) while no drain runs; else at a later pass.
        if let (false, Some(idle)) = (failed, drain.idle()) {
            match svc.rolling_backup() {
                Ok(Some(_)) => svc = compact_if_due(svc, store_tx, &drain, idle).await?,
                Ok(None) => {}
                Err(e) => tracing::error!("rolling backup: {e}"),
            }
        }
        let pause = if failed {
            failing = failing.saturating_add(1);
            let p = (poll * 2u32.saturating_pow(failing.min(5))).min(Duration::from_secs(60));
            tracing::warn!("the pass failed ({failing} in a row): next try in {p:?}");
            p
        } else {
            if failing > 0 {
                tracing::info!("passes succeed again after {failing} failed");
            }
            failing = 0;
            poll
        };
        tokio::select! {
            _ = tokio::time::sleep(pause) => {}
            // An admin command, run between passes on this service; the drain, woken,
            // sends what it queued.
            Some(job) = signals.admin.recv() => {
                job.run(&svc);
                drain.wake();
            }
            signal = signals.shutdown.recv() => match signal {
                Signalled::Stop(name) => {
                    tracing::info!("{name}: stopping");
                    // The drain stops before its next reply; its marks flushed here.
                    drain.stop().await;
                    return Ok(svc.flush()?);
                }
                Signalled::Reload => {
                    reload(&mut svc, &mut transport, signals.reload, &drain);
                    (poll, tick_every) = intervals(&svc.config);
                }
            }
        }
    }
}

/// Take the mail in every inbox (a pass): how many mails, and false when an inbox failed.
async fn take_mail(svc: &mut Service, metrics: &Metrics) -> (usize, bool) {
    let pass = std::time::Instant::now();
    let mut took = 0;
    let mut ok = true;
    for t in svc.take_inboxes().await {
        match t {
            Ok(n) if n > 0 => {
                took += n;
                tracing::info!("took {n} message(s)")
            }
            Ok(_) => {}
            Err(e) => {
                ok = false;
                Metrics::add(&metrics.inbox_errors, 1);
                tracing::error!("inbox: {e}")
            }
        }
    }
    if took == 0 && ok {
        // No batch whose flush would carry the last pass's sent marks: flush them now.
        if let Err(e) = svc.flush_marks() {
            ok = false;
            tracing::error!("sent marks: {}", e.0);
        }
    }
    if took > 0 {
        Metrics::add(&metrics.mails_in, took as u64);
        Metrics::add(&metrics.inbox_passes, 1);
        Metrics::add(
            &metrics.inbox_pass_micros,
            pass.elapsed().as_micros() as u64,
        );
    }
    (took, ok)
}

/// The admin commands the admin socket takes, for the loop to run.
type AdminJobs = tokio::sync::mpsc::Receiver<crate::serve::admin_socket::Job>;

/// The database as the metrics see it: none while `serve` compacts it.
type StoreHandle = tokio::sync::watch::Sender<Option<crate::store::SledStore>>;

/// After a rolling backup, the database compacted in place if `compact.*` says so (disk
/// use within 3 times the live data; sled never shrinks its file). The service lets go of
/// the database (the metrics and the idle drain too), `castellan compact`'s steps run under
/// its lock, and the service opens it again with its counters, entropy and judges, and
/// hands it to the drain. Mail that comes meanwhile waits in the inbox (`ingest` finds the
/// database busy and leaves it to this daemon). A compaction that fails leaves the
/// database as it was, and serving goes on.
async fn compact_if_due(
    svc: Service,
    store_tx: &StoreHandle,
    drain: &DrainTask,
    idle: Idle<'_>,
) -> Result<Service, ShellError> {
    use crate::store::SledStore;
    let c = &svc.config.compact;
    let db = svc.config.database_path();
    let on_disk = crate::store::dir_size(&db);
    // The size alone first: reading every record costs as much as a backup.
    if c.over_ratio == 0 || on_disk <= c.over_mb.saturating_mul(1024 * 1024) {
        return Ok(svc);
    }
    let live = match svc.store.live_bytes() {
        Ok(live) => live,
        Err(e) => {
            tracing::warn!("disk use: cannot read every record: {}", e.0);
            return Ok(svc);
        }
    };
    if !c.is_due(on_disk, live) {
        return Ok(svc);
    }
    // What waits is on the device first; a full disk leaves it for a later backup.
    if let Err(e) = svc.flush() {
        tracing::warn!("not compacting the database now: {}", e.0);
        return Ok(svc);
    }
    tracing::info!(
        on_disk,
        live,
        "compacting the database (compact.over_ratio)"
    );
    let (config, clock, answers, judges) = (
        svc.config.clone(),
        svc.clock.clone(),
        svc.answers.clone(),
        svc.judges,
    );
    let mut svc = svc;
    let entropy = std::mem::replace(&mut svc.entropy, crate::serve::env::Entropy::Os);
    store_tx.send_replace(None);
    drain.clear(&idle);
    drop(svc);
    // A metrics request still holding the database lets go of it within moments.
    let mut tries = 0;
    let compacted = loop {
        match crate::ops::compact::compact(&config, clock()) {
            Err(ShellError::Store(e)) if SledStore::is_busy_error(&e) && tries < 40 => {
                tries += 1;
                tokio::time::sleep(Duration::from_millis(250)).await;
            }
            other => break other,
        }
    };
    match compacted {
        Ok(c) => tracing::info!(
            records = c.records,
            before = c.bytes_before,
            after = c.bytes_after,
            "database compacted"
        ),
        Err(e) => tracing::error!("compaction failed, the database is as it was: {e}"),
    }
    // An `ingest` may hold the database for a moment; a full disk waits for space.
    let mut svc = Service::open_when_free(config, clock, true)?;
    svc.answers = answers;
    svc.entropy = entropy;
    svc.judges = judges;
    store_tx.send_replace(Some(svc.store.clone()));
    // Opened again: durable as it is, once flushed (what the drain may send).
    if let Err(e) = svc.flush() {
        tracing::error!("the outbox waits for a flush: {}", e.0);
    }
    drain.hand(
        svc.drainer_beside(),
        svc.transport(),
        intervals(&svc.config).0,
    );
    drop(idle);
    Ok(svc)
}

/// `serve` and `serve --once`.
pub fn main(config: Config, once: bool, reload: Reload) -> Result<ExitCode, ShellError> {
    check_ca_files(&config)?;
    // An `ingest` (or a command) holding the database for a moment is waited for (by
    // `serve --once` for 30 s at most: a timer's job does not hang); another `serve` (its
    // marker is there) is not.
    let patience = crate::store::patience(&config.data_dir, std::time::Duration::from_secs(30));
    let svc = if once {
        Service::open_waiting(config, system_clock(), patience)?
    } else {
        Service::open_when_free(config, system_clock(), !patience.is_zero())?
    };
    let transport = svc.transport();
    // What a batch killed in the middle left in the file outbox (never a mail).
    match transport.sweep_stale(std::time::Duration::from_secs(3600)) {
        Ok(0) => {}
        Ok(n) => tracing::info!("removed {n} stale temporary file(s) from the outbox folder"),
        Err(e) => tracing::warn!("the outbox folder: {e}"),
    }
    let rt = crate::serve::runtime::runtime()?;
    if once {
        let r = rt.block_on(svc.run_once(&transport))?;
        println!(
            "took {} message(s), {} deadline mail(s), sent {}, {} not sent (kept for retry, or parked: `castellan outbox`)",
            r.taken, r.ticked, r.sent, r.failed
        );
        svc.flush()?;
        // A timer running `serve --once` gets the daemon's rolling backups too.
        if let Err(e) = svc.rolling_backup() {
            tracing::error!("rolling backup: {e}");
        }
        Ok(ExitCode::SUCCESS)
    } else {
        rt.block_on(serve(svc, transport, reload))?;
        Ok(ExitCode::SUCCESS)
    }
}

/// A configured CA file that cannot be used stops `serve` at once, naming the key, rather
/// than failing every poll and parking every reply.
fn check_ca_files(c: &Config) -> Result<(), ShellError> {
    for (key, f) in c.ca_files_in_use() {
        castellan_mail::check_ca_file(f).map_err(|e| ShellError::Config {
            path: key.into(),
            why: e.to_string(),
        })?;
    }
    Ok(())
}
