//! `serve`'s drain: the outbox sent on a task of its own, so a relay that is slow or
//! silent never holds the judging (the inbox, the deadlines, the admin commands).
//!
//! The task drains when the loop wakes it (a pass that queued replies, an admin command)
//! and on a timer (the poll interval). A drain sends only the replies whose commit a flush
//! made durable ([`Service::drainer_beside`]), and ends at the first timeout or
//! connection failure of the relay (src/serve/outbox.rs); the next drain then waits
//! `outbound.retry_base_seconds`, doubled after each such drain up to
//! `retry_max_seconds`, wakes or not.
//!
//! The loop and the task share a gate, held by the task for the whole of a drain: the
//! loop takes it, when free, for a rolling backup and the compaction that may follow (the
//! task then holds no handle on the database: [`DrainTask::clear`] drops the one it is
//! given), and never waits for it. On SIGHUP the loop hands it the new settings and
//! transport; on SIGTERM it asks it to stop at the next reply and waits for that.
//!
//! [`Service::drainer_beside`]: crate::serve::service::Service::drainer_beside

use super::metrics::Metrics;
use super::outbox::Drainer;
use castellan_mail::Transport;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Duration;
use tokio::sync::{watch, Mutex, MutexGuard, Notify};

/// What the task drains with: the service's share, the transport, the pause between two
/// drains while all is well.
#[derive(Clone)]
struct Work {
    drainer: Drainer,
    transport: Transport,
    every: Duration,
}

/// What the loop and the task share.
#[derive(Default)]
struct Shared {
    wake: Notify,
    /// Set at SIGTERM: the drain stops before its next reply, and the task ends.
    stopping: AtomicBool,
    /// Held by the task for a whole drain; by the loop for a backup and a compaction.
    gate: Mutex<()>,
}

/// The drain task, as the loop holds it.
pub struct DrainTask {
    shared: Arc<Shared>,
    work: watch::Sender<Option<Work>>,
    handle: tokio::task::JoinHandle<()>,
}

/// The drain is idle and will not start while this is held.
pub struct Idle<'a>(#[allow(dead_code)] MutexGuard<'a, ()>);

impl DrainTask {
    /// Start the task; its first drain comes at once.
    pub fn spawn(
        drainer: Drainer,
        transport: Transport,
        every: Duration,
        metrics: Arc<Metrics>,
    ) -> DrainTask {
        let shared = Arc::new(Shared::default());
        let (work, rx) = watch::channel(Some(Work {
            drainer,
            transport,
            every,
        }));
        let handle = tokio::spawn(run(shared.clone(), rx, metrics));
        DrainTask {
            shared,
            work,
            handle,
        }
    }

    /// A drain now (or right after the one running), unless the relay was found down.
    pub fn wake(&self) {
        self.shared.wake.notify_one();
    }

    /// The drains from now on use these (SIGHUP; the database opened again).
    pub fn hand(&self, drainer: Drainer, transport: Transport, every: Duration) {
        self.work.send_replace(Some(Work {
            drainer,
            transport,
            every,
        }));
    }

    /// The task's handle on the database dropped (to compact it); [`DrainTask::hand`]
    /// gives it a new one. Call it with the drain [`Idle`].
    pub fn clear(&self, _idle: &Idle<'_>) {
        self.work.send_replace(None);
    }

    /// The drain held idle, if no drain is running; None at once otherwise.
    pub fn idle(&self) -> Option<Idle<'_>> {
        self.shared.gate.try_lock().ok().map(Idle)
    }

    /// Stop: a drain running stops before its next reply (what went is marked), and the
    /// task ends; waits for that (at most one reply's SMTP timeout).
    pub async fn stop(self) {
        self.shared.stopping.store(true, Ordering::Release);
        self.shared.wake.notify_one();
        if let Err(e) = self.handle.await {
            tracing::error!("the outbox's task: {e}");
        }
    }
}

/// The task: wait for a wake or the timer, drain, until stopped.
async fn run(shared: Arc<Shared>, work: watch::Receiver<Option<Work>>, metrics: Arc<Metrics>) {
    // Drains in a row that found the relay down (or failed): the pause grows.
    let mut down: u32 = 0;
    let mut next = tokio::time::Instant::now();
    loop {
        // Until the timer; a wake counts only while the relay is not known to be down.
        loop {
            tokio::select! {
                _ = tokio::time::sleep_until(next) => break,
                _ = shared.wake.notified() => {
                    if down == 0 || shared.stopping.load(Ordering::Acquire) {
                        break;
                    }
                }
            }
        }
        let gate = shared.gate.lock().await;
        if shared.stopping.load(Ordering::Acquire) {
            return;
        }
        let Some(w) = work.borrow().clone() else {
            next = tokio::time::Instant::now() + Duration::from_secs(1);
            continue;
        };
        match w.drainer.drain(&w.transport, &shared.stopping).await {
            Ok(d) => {
                Metrics::add(&metrics.mails_out, d.sent as u64);
                Metrics::add(&metrics.send_failures, d.failed as u64);
                down = if d.relay_down {
                    down.saturating_add(1)
                } else {
                    0
                };
            }
            Err(e) => {
                Metrics::add(&metrics.outbox_errors, 1);
                tracing::error!("outbox: {e}");
                down = down.saturating_add(1);
            }
        }
        let pause = match down {
            0 => w.every,
            n => {
                let o = w.drainer.outbound();
                let p = Duration::from_secs(
                    o.retry_base_seconds
                        .saturating_mul(1u64 << (n - 1).min(20))
                        .min(o.retry_max_seconds)
                        .max(1),
                );
                tracing::info!("the outbox waits {p:?} before its next try");
                p
            }
        };
        // The database let go of before the gate.
        drop(w);
        drop(gate);
        next = tokio::time::Instant::now() + pause;
    }
}
