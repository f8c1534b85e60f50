//! The service's own threads, started once and kept: a batch hands them its work (the
//! journal's fsync, its replies rendered and written ahead) instead of starting threads of
//! its own each time.
//!
//! A job is a closure; it answers on a channel of its caller's (the pool returns nothing).
//! A job that panics is caught and logged: the thread goes on with the next one, and the
//! caller sees its answer missing (its channel closes).

use castellan_judge::StoreError;
use std::sync::{mpsc, Arc, Mutex};
use std::thread::JoinHandle;

type Job = Box<dyn FnOnce() + Send + 'static>;

/// Threads taking jobs in the order they are given.
pub struct Workers {
    to_threads: Mutex<Option<mpsc::Sender<Job>>>,
    threads: Mutex<Vec<JoinHandle<()>>>,
}

impl Workers {
    /// `n` threads (at least one; fewer if the system refuses to start them, none at all
    /// then: [`Workers::run`] says so and the caller does the work itself).
    pub fn start(n: usize) -> Workers {
        let (to_threads, jobs) = mpsc::channel::<Job>();
        let jobs = Arc::new(Mutex::new(jobs));
        let mut threads = Vec::new();
        for i in 0..n.max(1) {
            let jobs = jobs.clone();
            let spawned = std::thread::Builder::new()
                .name(format!("castellan-worker-{i}"))
                .spawn(move || loop {
                    let job = jobs.lock().unwrap_or_else(|e| e.into_inner()).recv();
                    let Ok(job) = job else { return };
                    if std::panic::catch_unwind(std::panic::AssertUnwindSafe(job)).is_err() {
                        tracing::error!("a worker's job panicked; its caller goes without it");
                    }
                });
            match spawned {
                Ok(t) => threads.push(t),
                Err(e) => {
                    tracing::warn!("a worker thread could not be started: {e}");
                    break;
                }
            }
        }
        let to_threads = (!threads.is_empty()).then_some(to_threads);
        Workers {
            to_threads: Mutex::new(to_threads),
            threads: Mutex::new(threads),
        }
    }

    /// Hand `job` to the threads. False if there are none (the job is dropped unrun).
    pub fn run(&self, job: impl FnOnce() + Send + 'static) -> bool {
        let to_threads = self.to_threads.lock().unwrap_or_else(|e| e.into_inner());
        match to_threads.as_ref() {
            Some(tx) => tx.send(Box::new(job)).is_ok(),
            None => false,
        }
    }

    /// How many threads take jobs.
    pub fn threads(&self) -> usize {
        self.threads.lock().unwrap_or_else(|e| e.into_inner()).len()
    }
}

impl Drop for Workers {
    /// The jobs given are done, then the threads end.
    fn drop(&mut self) {
        drop(
            self.to_threads
                .lock()
                .unwrap_or_else(|e| e.into_inner())
                .take(),
        );
        for t in self
            .threads
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .drain(..)
        {
            let _ = t.join();
        }
    }
}

/// The fsync of a batch's journal entries under way: its answer, or the entries to sync
/// here if no thread took it.
pub(super) enum JournalSync {
    Running(std::sync::mpsc::Receiver<(crate::store::journal::Unsynced, std::io::Result<()>)>),
    Here(crate::store::journal::Unsynced),
}

impl JournalSync {
    /// Handed to `workers` (or kept, to run at [`JournalSync::wait`], if no thread takes
    /// it).
    pub(super) fn start(
        unsynced: crate::store::journal::Unsynced,
        workers: &Workers,
    ) -> JournalSync {
        type Slot = std::sync::Arc<std::sync::Mutex<Option<crate::store::journal::Unsynced>>>;
        let take = |slot: &Slot| slot.lock().unwrap_or_else(|e| e.into_inner()).take();
        let (tx, rx) = std::sync::mpsc::channel();
        let slot: Slot = std::sync::Arc::new(std::sync::Mutex::new(Some(unsynced)));
        let taken = slot.clone();
        let given = workers.run(move || {
            if let Some(u) = take(&taken) {
                let synced = u.sync();
                let _ = tx.send((u, synced));
            }
        });
        // Not given, the job was dropped unrun: the entries are still in the slot.
        match (!given).then(|| take(&slot)).flatten() {
            Some(u) => JournalSync::Here(u),
            None => JournalSync::Running(rx),
        }
    }

    /// The entries and whether they are on the device.
    pub(super) fn wait(
        self,
    ) -> Result<(crate::store::journal::Unsynced, std::io::Result<()>), StoreError> {
        match self {
            JournalSync::Running(rx) => rx
                .recv()
                .map_err(|_| StoreError::new("the journal's fsync failed")),
            JournalSync::Here(u) => {
                let synced = u.sync();
                Ok((u, synced))
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every job given runs once, on the pool's own threads (no thread started per job).
    #[test]
    fn jobs_run_on_the_pool_s_threads() {
        let w = Workers::start(2);
        assert_eq!(w.threads(), 2);
        let (tx, rx) = mpsc::channel();
        for i in 0..50 {
            let tx = tx.clone();
            assert!(w.run(move || {
                let name = std::thread::current().name().map(str::to_string);
                tx.send((i, name)).unwrap();
            }));
        }
        drop(tx);
        let mut got: Vec<(i32, Option<String>)> = rx.iter().collect();
        got.sort();
        assert_eq!(got.len(), 50);
        assert!(got.iter().enumerate().all(|(i, (n, _))| *n == i as i32));
        let names: std::collections::BTreeSet<_> = got.into_iter().filter_map(|(_, n)| n).collect();
        assert!(!names.is_empty() && names.len() <= 2, "{names:?}");
        assert!(names.iter().all(|n| n.starts_with("castellan-worker-")));
    }

    /// A job that panics leaves the pool working: the next job runs.
    #[test]
    fn a_panicking_job_does_not_stop_the_pool() {
        let w = Workers::start(1);
        let (tx, rx) = mpsc::channel::<u8>();
        let lost = tx.clone();
        assert!(w.run(move || {
            let _keep = lost;
            panic!("a job gone wrong");
        }));
        assert!(w.run(move || tx.send(7).unwrap()));
        assert_eq!(rx.recv().unwrap(), 7);
    }
}
