//! Journal entries past what the database committed, rolled forward.
//!
//! A mail is acknowledged once its journal entry is on the device, before its commit
//! (src/serve/batch.rs), so an entry above the database's number that is not marked
//! aborted (a crash, a kill, a commit that failed: a full disk) may stand for a mail no
//! longer in new/. Such an entry is **pending**: it is replayed exactly as `recover`
//! replays it (src/ops/recover.rs: its mail from new/ or cur/, its time and entropy, so the
//! same state and the same replies with the same Message-IDs), when the database is opened
//! ([`Service::open`]) and before anything else commits ([`Service::roll_forward`], first
//! thing in every path that journals). It is marked aborted only when replaying it applies
//! nothing: its mail applied before (a duplicate) or gone, a deadline pass that changes
//! nothing, or its game in quarantine; that mail is then put back into new/ first, to wait
//! there as any mail of a game in quarantine does.

use super::service::{Handled, Service};
use crate::store::journal::Entry;
use castellan_judge::{Env, StoreError};
use std::path::Path;

/// What replaying one pending entry did.
enum Rolled {
    Applied,
    /// Nothing applied (why): the entry is marked aborted.
    Nothing(String),
    /// Its game is in quarantine (why): its mail is put back into new/, then the entry
    /// is marked aborted.
    Held(String),
}

impl Service {
    /// The pending journal entries (`Service::keep_pending`, and those the journal found
    /// at open) replayed in order, then the database flushed. On a failure (a full disk)
    /// the entry that failed and those after it stay pending, for the next call; the
    /// error is returned, so that nothing journaled after them commits first.
    pub fn roll_forward(&self) -> Result<usize, StoreError> {
        let mut pending = self.pending_lock();
        if pending.is_empty() {
            return Ok(0);
        }
        let inbox = self.config.inbox_path();
        let mut applied = 0;
        while let Some(entry) = pending.first().cloned() {
            let seq = entry.seq();
            match self.roll_one(&inbox, entry)? {
                Rolled::Applied => applied += 1,
                Rolled::Nothing(why) | Rolled::Held(why) => {
                    tracing::warn!("journal entry {seq:?} not rolled forward: {why}");
                    self.journal.abort(seq);
                }
            }
            pending.remove(0);
        }
        if applied > 0 {
            tracing::info!("{applied} journal entr(ies) rolled forward");
        }
        self.flush()?;
        Ok(applied)
    }

    /// Entries to roll forward at the next [`Service::roll_forward`], after those waiting.
    pub(super) fn keep_pending(&self, entries: impl IntoIterator<Item = Entry>) {
        self.pending_lock().extend(entries);
    }

    /// Whether entries wait to be rolled forward.
    pub fn has_pending(&self) -> bool {
        !self.pending_lock().is_empty()
    }

    fn pending_lock(&self) -> std::sync::MutexGuard<'_, Vec<Entry>> {
        self.pending.lock().unwrap_or_else(|e| e.into_inner())
    }

    fn roll_one(&self, inbox: &Path, entry: Entry) -> Result<Rolled, StoreError> {
        let env_of = |at: i64, entropy: &str| {
            crate::ops::recover::entropy_of(entropy)
                .map(|entropy| Env { now: at, entropy })
                .map_err(StoreError::new)
        };
        match entry {
            Entry::Mail {
                seq,
                file,
                at,
                entropy,
            } => {
                let Some(path) = crate::ops::recover::find_mail(inbox, &file) else {
                    return Ok(Rolled::Nothing(format!(
                        "its mail {file} is in neither new/ nor cur/"
                    )));
                };
                let raw = std::fs::read(&path)
                    .map_err(|e| StoreError::new(format!("{}: {e}", path.display())))?;
                let rolled = self.roll_mail(&raw, env_of(at, &entropy)?, seq)?;
                if let Rolled::Held(_) = rolled {
                    // Its mail waits in new/ (a game in quarantine): put back before the
                    // entry is marked aborted, so that it is never lost in between.
                    put_back(inbox, &path, &file)?;
                }
                Ok(rolled)
            }
            Entry::Raw {
                seq,
                raw,
                at,
                entropy,
            } => {
                let raw = hex::decode(raw).map_err(|e| StoreError::new(e.to_string()))?;
                // IMAP flags a message seen only after its flush: it is fetched again.
                self.roll_mail(&raw, env_of(at, &entropy)?, seq)
            }
            Entry::Tick { seq, at, entropy } => {
                let env = env_of(at, &entropy)?;
                let changes = self.judge.tick(&self.store, &env)?;
                if super::service::tick_is_empty(&changes) {
                    return Ok(Rolled::Nothing("the deadline pass changes nothing".into()));
                }
                self.store.commit_unflushed_seq(&changes, Some(seq))?;
                Ok(Rolled::Applied)
            }
            Entry::Changes { seq, changes } => {
                self.store.commit_unflushed_seq(&changes, Some(seq))?;
                Ok(Rolled::Applied)
            }
            _ => Ok(Rolled::Nothing("not a change".into())),
        }
    }

    /// A journaled mail judged again at its time and entropy and committed with its entry.
    fn roll_mail(&self, raw: &[u8], env: Env, seq: u64) -> Result<Rolled, StoreError> {
        let inbound = match self.screen(raw)? {
            Ok(inbound) => inbound,
            Err(Handled::Duplicate) => return Ok(Rolled::Nothing("applied before".into())),
            Err(other) => return Ok(Rolled::Nothing(format!("{other:?}"))),
        };
        match self.judge.handle(&self.store, &inbound, &env) {
            Ok(changes) => {
                self.commit_judged(&changes, env, Some(seq), None)?;
                Ok(Rolled::Applied)
            }
            Err(e) if e.is_quarantine() => Ok(Rolled::Held(format!(
                "its game is in quarantine ({}): the mail waits in new/",
                e.0
            ))),
            Err(e) => Err(e),
        }
    }
}

/// The mail at `path` (cur/ or new/) put back into new/ under its delivered name `file`,
/// the move on the device.
fn put_back(inbox: &Path, path: &Path, file: &str) -> Result<(), StoreError> {
    let new = inbox.join("new");
    if path.parent() == Some(new.as_path()) {
        return Ok(());
    }
    let io = |e: std::io::Error| StoreError::new(format!("{}: {e}", path.display()));
    std::fs::rename(path, new.join(file)).map_err(io)?;
    castellan_mail::sync_dir(&new).map_err(io)?;
    castellan_mail::sync_dir(&inbox.join("cur")).map_err(io)
}
