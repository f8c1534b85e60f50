//! Replies rendered while their batch is still being handled (the file transport).
//!
//! A batch of mail is handled on one thread: parse, judge, commit. The replies of each
//! mail are known as soon as it is committed, but may go only once the batch is flushed
//! (issue 11: no reply before the flush). Rendering them (MIME, quoted-printable) and
//! writing their files was a quarter of the service's time, done after the batch, while a
//! core sat idle during it. A [`Prestager`] takes each committed reply to a thread of its
//! own, which renders it and writes it to a hidden temporary file of the outbox folder:
//! not synced and never read there. The drain that follows the flush adopts those files
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
use std::sync::mpsc;
use std::thread::JoinHandle;

use castellan_mail::{OutgoingMail, Staged};

/// Replies written ahead, by outbox key: their file and their Message-ID.
pub type Prestaged = HashMap<u64, (Staged, String)>;

/// The thread rendering and writing one batch's replies ahead of its flush.
pub struct Prestager {
    to_worker: Option<mpsc::Sender<(u64, OutgoingMail, i64)>>,
    worker: Option<JoinHandle<Prestaged>>,
}

impl Prestager {
    /// A thread writing into the file transport's folder `dir`. None if no thread can be
    /// started (the drain renders the replies then).
    pub fn start(dir: PathBuf) -> Option<Prestager> {
        let (to_worker, jobs) = mpsc::channel::<(u64, OutgoingMail, i64)>();
        let worker = std::thread::Builder::new()
            .name("prestage".into())
            .spawn(move || {
                let mut done = Prestaged::new();
                for (key, mail, date) in jobs {
                    match castellan_mail::prestage(&dir, &mail, date, &format!("p{key}")) {
                        Ok(staged) => {
                            done.insert(key, (staged, mail.message_id));
                        }
                        // The drain renders it, and says what is wrong with it.
                        Err(e) => tracing::debug!("reply {key} not written ahead: {e}"),
                    }
                }
                done
            })
            .ok()?;
        Some(Prestager {
            to_worker: Some(to_worker),
            worker: Some(worker),
        })
    }

    /// Render and write the reply at outbox key `key`, dated `date` (seconds since 1970).
    pub fn stage(&self, key: u64, mail: OutgoingMail, date: i64) {
        if let Some(tx) = &self.to_worker {
            // A worker gone leaves the reply to the drain.
            let _ = tx.send((key, mail, date));
        }
    }

    /// Every reply written, once the thread has written them all: for a batch that is
    /// flushed.
    pub fn done(mut self) -> Prestaged {
        self.finish()
    }

    fn finish(&mut self) -> Prestaged {
        drop(self.to_worker.take());
        self.worker
            .take()
            .and_then(|w| w.join().ok())
            .unwrap_or_default()
    }
}

impl Drop for Prestager {
    /// A batch that was not flushed: its files go (its replies may not be sent).
    fn drop(&mut self) {
        discard(self.finish());
    }
}

/// Remove the files of replies written ahead that no drain took.
pub fn discard(prestaged: Prestaged) {
    for ((tmp, _), _) in prestaged.into_values() {
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
        let p = Prestager::start(dir.path().to_path_buf()).unwrap();
        p.stage(7, mail("ann@example.org", "a"), 0);
        p.stage(9, mail("not an address", "b"), 0);
        p.stage(11, mail("bob@example.org", "c"), 0);
        let done = p.done();
        let mut keys: Vec<u64> = done.keys().copied().collect();
        keys.sort();
        assert_eq!(keys, [7, 11]);
        for ((tmp, name), id) in done.values() {
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
        let p = Prestager::start(dir.path().to_path_buf()).unwrap();
        for k in 0..20 {
            p.stage(k, mail("ann@example.org", &format!("m{k}")), 0);
        }
        drop(p);
        assert!(hidden_files(dir.path()).is_empty());
    }
}
