//! A judge on a memory store, mailed by players one mail a minute from a fixed start, with
//! the entropy drawn from the clock: what the end-to-end tests on the pure judge share.

use castellan_judge::{Env, Inbound, Judge, MemoryStore, Outbound, Store};

/// The clock's start: Tue 14 Jan 2025 18:00 UTC.
pub const START: i64 = 1_736_877_600;

pub struct ByMail {
    pub judge: Judge,
    pub store: MemoryStore,
    pub now: i64,
    n: u64,
}

impl ByMail {
    pub fn new(judge: Judge) -> ByMail {
        ByMail {
            judge,
            store: MemoryStore::new(),
            now: START,
            n: 0,
        }
    }

    /// Mail the judge, a minute after the last mail; the replies and reports it sends.
    pub fn send(&mut self, from: &str, subject: &str, body: &str) -> Vec<Outbound> {
        self.n += 1;
        self.now += 60;
        let m = Inbound {
            message_id: format!("<m{}@players.example>", self.n),
            from: from.into(),
            to: vec!["judge@example.org".into()],
            subject: subject.into(),
            body: body.into(),
            ..Default::default()
        };
        let mut entropy = [0u8; 32];
        entropy[..8].copy_from_slice(&self.now.to_le_bytes());
        let env = Env {
            now: self.now,
            entropy,
        };
        let c = self.judge.handle(&self.store, &m, &env).unwrap();
        self.store.commit(&c).unwrap();
        c.outbox
    }
}
