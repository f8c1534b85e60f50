//! Replies rendered while their batch is still being handled (the file transport).
//!
//! A batch of mail is handled on one thread: parse, judge, commit. The replies of each
//! mail are known as soon as it is committed, but may go only once the batch is flushed
//! (no reply before the flush). Rendering them (MIME, quoted-printable) and
//! writing their files was a quarter of the service's time, done after the batch, while a
//! core sat idle during it. A [`Prestager`] takes each reply, as soon as its mail is judged
//! for good (before its group's commit), to the service's threads (src/serve/workers.rs:
//! started once, one a core, not per batch), which render
//! it and write it to a hidden temporary file of the outbox folder: not synced and never
//! read there. Once the mail is committed the reply is bound to its outbox key; one never
//! bound (its group's commit failed) is removed with the batch. The drain that follows the flush adopts those files
//! ([`castellan_mail::Mailer::adopt`]) instead of rendering the replies again, and makes
//! them durable and visible as it does every batch (one `syncfs`, the renames, one fsync
//! of the folder).
//!
//! Nothing of this is a promise: a reply that could not be written ahead, or whose file is
//! gone, is rendered by the drain as before. A batch that fails before its flush removes
//! its files (`Drop`); a process killed meanwhile leaves hidden files that are never
//! renamed, and `serve` sweeps them at its next start (`Transport::sweep_stale`).

use std::collections::HashMap;
use std::path::PathBuf;
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::sync::{mpsc, Mutex};

use castellan_mail::{OutgoingMail, Staged};

use super::workers::Workers;

/// A reply written ahead: its file, its Message-ID and its recipient.
pub type Written = (Staged, String, String);

/// Replies written ahead, by outbox key.
pub type Prestaged = HashMap<u64, Written>;

/// A reply handed to the writers before its outbox key is known (before its mail's
/// commit): [`Prestager::bind`] gives it its key once it is committed.
pub type Ticket = u64;

/// Tickets, unique in this process (they name the hidden files too).
static TICKETS: AtomicU64 = AtomicU64::new(0);

/// One batch's replies rendered and written ahead of its flush, by the service's threads
/// ([`Workers`], started once, not per batch).
pub struct Prestager<'w> {
    workers: &'w Workers,
    dir: PathBuf,
    /// What each job wrote (None: left to the drain), by ticket.
    written: Mutex<mpsc::Receiver<(Ticket, Option<Written>)>>,
    to_self: Option<mpsc::Sender<(Ticket, Option<Written>)>>,
    /// Jobs handed to the threads, whose answers [`Prestager::done`] waits for.
    staged: AtomicUsize,
    /// The outbox key of each reply whose mail is committed.
    keys: Mutex<HashMap<Ticket, u64>>,
}

impl<'w> Prestager<'w> {
    /// A batch's writer into the file transport's folder `dir`, on `workers`.
    pub fn start(dir: PathBuf, workers: &'w Workers) -> Prestager<'w> {
        let (to_self, written) = mpsc::channel();
        Prestager {
            workers,
            dir,
            written: Mutex::new(written),
            to_self: Some(to_self),
            staged: AtomicUsize::new(0),
            keys: Mutex::default(),
        }
    }

    /// Render and write `mail`, dated `date` (seconds since 1970), as soon as a thread is
    /// free: its mail may still not be committed. Its ticket, for [`Prestager::bind`].
    pub fn stage(&self, mail: OutgoingMail, date: i64) -> Ticket {
        let ticket = TICKETS.fetch_add(1, Ordering::Relaxed);
        let Some(tx) = self.to_self.clone() else {
            return ticket;
        };
        let dir = self.dir.clone();
        let job = move || {
            let tag = format!("p{ticket}");
            let written = match castellan_mail::prestage(&dir, &mail, date, &tag) {
                Ok(staged) => Some((staged, mail.message_id, mail.to)),
                // The drain renders it, and says what is wrong with it.
                Err(e) => {
                    tracing::debug!("reply {ticket} not written ahead: {e}");
                    None
                }
            };
            let _ = tx.send((ticket, written));
        };
        // No thread to take it: the drain renders it.
        if self.workers.run(job) {
            self.staged.fetch_add(1, Ordering::AcqRel);
        }
        ticket
    }

    /// The replies of `tickets` are committed, at the outbox keys `keys` (in the same
    /// order). A reply never bound is not the batch's to send: its file goes when the
    /// batch is done.
    pub fn bind(&self, tickets: &[Ticket], keys: &[u64]) {
        self.keys
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .extend(tickets.iter().copied().zip(keys.iter().copied()));
    }

    /// Every reply written, by its outbox key, once the threads have written them all:
    /// for a batch that is flushed. The files of replies never bound are removed.
    pub fn done(mut self) -> Prestaged {
        self.finish()
    }

    fn finish(&mut self) -> Prestaged {
        drop(self.to_self.take());
        let keys = std::mem::take(&mut *self.keys.lock().unwrap_or_else(|e| e.into_inner()));
        let staged = self.staged.swap(0, Ordering::AcqRel);
        let written = self.written.lock().unwrap_or_else(|e| e.into_inner());
        let mut out = Prestaged::new();
        // A job that panicked never answers: its sender is gone with it, and once every
        // other job has answered the channel closes.
        for (ticket, file) in written.iter().take(staged) {
            let Some(file) = file else { continue };
            match keys.get(&ticket) {
                Some(&key) => {
                    out.insert(key, file);
                }
                None => {
                    let _ = std::fs::remove_file(&(file.0).0);
                }
            }
        }
        out
    }
}

impl Drop for Prestager<'_> {
    /// A batch that was not flushed: its files go (its replies may not be sent).
    fn drop(&mut self) {
        discard(self.finish());
    }
}

/// Remove the files of replies written ahead that no drain took.
pub fn discard(prestaged: Prestaged) {
    for ((tmp, _), ..) in prestaged.into_values() {
        let _ = std::fs::remove_file(tmp);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn mail(to: &str, id: &str) -> OutgoingMail {
        OutgoingMail {
            message_id: format!("<{id}@judge.example>"),
            from: "judge@example.org".into(),
            to: to.into(),
            subject: "[castle-1] Turn 3".into(),
            body: "Waiting for: Ann\n".into(),
            in_reply_to: None,
            references: Vec::new(),
            headers: Vec::new(),
            html: None,
            attachments: Vec::new(),
        }
    }

    fn hidden_files(dir: &std::path::Path) -> Vec<String> {
        let mut names: Vec<String> = std::fs::read_dir(dir)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        names.sort();
        names
    }

    /// A flushed batch's replies are written to hidden files, by key, not yet visible; a
    /// reply that cannot be rendered (a bad address) is left to the drain.
    #[test]
    fn a_flushed_batch_hands_over_its_hidden_files_by_key() {
        let dir = tempfile::tempdir().unwrap();
        let workers = Workers::start(2);
        let p = Prestager::start(dir.path().to_path_buf(), &workers);
        for (key, to, id) in [
            (7, "ann@example.org", "a"),
            (9, "not an address", "b"),
            (11, "bob@example.org", "c"),
        ] {
            let ticket = p.stage(mail(to, id), 0);
            p.bind(&[ticket], &[key]);
        }
        // Written ahead, but its mail was never committed: not the batch's to send.
        p.stage(mail("cy@example.org", "d"), 0);
        let done = p.done();
        let mut keys: Vec<u64> = done.keys().copied().collect();
        keys.sort();
        assert_eq!(keys, [7, 11]);
        for ((tmp, name), id, _) in done.values() {
            assert!(id.ends_with("@judge.example>"));
            assert!(tmp.exists());
            assert!(
                !name.exists(),
                "visible before the drain: {}",
                name.display()
            );
            let bytes = std::fs::read(tmp).unwrap();
            assert!(String::from_utf8_lossy(&bytes).contains("Waiting for: Ann"));
        }
        assert!(hidden_files(dir.path()).iter().all(|n| n.starts_with('.')));
        discard(done);
        assert!(hidden_files(dir.path()).is_empty());
    }

    /// A batch that is not flushed (dropped) leaves no file behind.
    #[test]
    fn a_batch_dropped_before_its_flush_leaves_nothing() {
        let dir = tempfile::tempdir().unwrap();
        let workers = Workers::start(2);
        let p = Prestager::start(dir.path().to_path_buf(), &workers);
        for k in 0..20 {
            let ticket = p.stage(mail("ann@example.org", &format!("m{k}")), 0);
            p.bind(&[ticket], &[k]);
        }
        drop(p);
        assert!(hidden_files(dir.path()).is_empty());
    }
}
