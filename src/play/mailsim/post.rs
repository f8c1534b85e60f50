//! Where the simulation's mail goes: straight to the pure judge on a [`MemoryStore`]
//! ([`Pure`], fast: most seeds), or through the whole shell (sled, the Maildir, the file
//! outbox's .eml files parsed back: a slice of the seeds, for fidelity).

use castellan_judge::{Env, Inbound, Judge, MemoryStore, Outbound, Store};

/// A message handed in: as the judge read it, and the mails it sent for it.
pub struct Delivered {
    pub read: Inbound,
    pub out: Vec<Outbound>,
    /// Argon2id computations the judge made for it (None: not known, through the shell).
    pub slow_hashes: Option<u32>,
}

pub trait Post {
    /// Hand in one raw message at `env.now` (with `env`'s entropy).
    fn deliver(&mut self, raw: &[u8], env: &Env) -> Result<Delivered, String>;
    /// The clock's tick at `env.now`: reminders and deadlines.
    fn tick(&mut self, env: &Env) -> Result<Vec<Outbound>, String>;
    /// The games as stored.
    fn store(&self) -> &dyn Store;
}

/// The mail layer's parser and the pure judge, committed to a [`MemoryStore`].
pub struct Pure {
    judge: Judge,
    store: MemoryStore,
}

impl Pure {
    pub fn new(judge: Judge) -> Pure {
        Pure {
            judge,
            store: MemoryStore::new(),
        }
    }
}

impl Post for Pure {
    fn deliver(&mut self, raw: &[u8], env: &Env) -> Result<Delivered, String> {
        let max = self.judge.config().max_body_bytes;
        let read = castellan_mail::parse(raw, max)
            .map_err(|e| format!("the mail layer refused the mail: {e}"))?;
        let c = self
            .judge
            .handle(&self.store, &read, env)
            .map_err(|e| format!("handle failed: {e}"))?;
        self.store
            .commit(&c)
            .map_err(|e| format!("commit failed: {e}"))?;
        // The mails are in hand: the store's outbox would keep every one of them.
        self.store.drain_outbox();
        Ok(Delivered {
            read,
            out: c.outbox,
            slow_hashes: Some(c.slow_hashes),
        })
    }

    fn tick(&mut self, env: &Env) -> Result<Vec<Outbound>, String> {
        let c = self
            .judge
            .tick(&self.store, env)
            .map_err(|e| format!("the tick failed: {e}"))?;
        self.store
            .commit(&c)
            .map_err(|e| format!("the tick's commit failed: {e}"))?;
        self.store.drain_outbox();
        Ok(c.outbox)
    }

    fn store(&self) -> &dyn Store {
        &self.store
    }
}
