//! Where the judge's state lives: the [`Store`] it reads and commits to, and the
//! in-memory [`MemoryStore`] (tests' store and the reference behaviour; the daemon's is
//! sled, in the shell).

use crate::model::*;
use crate::stored::StoredGame;
use castellan_engine::{Snapshot, StoredEntry};
use serde::{Deserialize, Serialize};
use std::collections::{BTreeMap, BTreeSet};
use std::sync::Mutex;

/// Everything one handling writes, applied atomically by [`crate::Store::commit`].
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Changes {
    /// Message-IDs now processed.
    pub processed: Vec<String>,
    /// Games to insert or replace: each record with its table's stored form, whose
    /// entries not stored yet are appended.
    pub games: Vec<StoredGame>,
    /// Game headers to replace, their state and history left as stored: a game in
    /// quarantine is marked without touching what cannot be loaded.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub headers: Vec<GameRecord>,
    pub outbox: Vec<Outbound>,
    pub log: Vec<LogLine>,
    pub senders: Vec<SenderRecord>,
    /// Players' records to insert or replace (crate::record).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub records: Vec<PlayerRecord>,
    /// Campaigns to insert or replace (crate::campaign).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub campaigns: Vec<crate::campaign::CampaignRecord>,
    /// What the judge answered, as `family/kind[/reason]` ("orders/refused",
    /// "auth/refused/wrong_credentials"): for the operator's metrics; not stored.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub answers: Vec<String>,
    /// Argon2id computations the handling made (at most
    /// [`crate::MAX_SLOW_HASHES_PER_MAIL`] a mail): for the checks; not stored.
    #[serde(skip)]
    pub slow_hashes: u32,
}

impl Changes {
    pub fn is_empty(&self) -> bool {
        self.processed.is_empty()
            && self.games.is_empty()
            && self.headers.is_empty()
            && self.outbox.is_empty()
            && self.log.is_empty()
            && self.senders.is_empty()
            && self.records.is_empty()
            && self.campaigns.is_empty()
    }
}

/// Where the judge's state lives. `commit` applies a whole [`Changes`] atomically and
/// durably (the sled version flushes before returning).
pub trait Store {
    /// A game as a mail needs it: its record, its state, and its history from the first
    /// entry a reader has not been told ([`crate::stored::needed_from`]) on; the table's
    /// `base` says where the loaded history starts.
    fn game(&self, id: &str) -> Result<Option<StoredGame>, StoreError>;
    /// A game with its whole history (HISTORY, VERIFY, replays, export).
    fn game_whole(&self, id: &str) -> Result<Option<StoredGame>, StoreError> {
        self.game(id)
    }
    /// A game's record alone (seats, status, deadlines), for what lists or looks up games
    /// (LIST, tokens, metrics).
    fn game_header(&self, id: &str) -> Result<Option<GameRecord>, StoreError> {
        Ok(self.game(id)?.map(|g| g.record))
    }
    fn game_ids(&self) -> Result<Vec<String>, StoreError>;
    /// The games whose game master, one of whose seats or one of whose observers is
    /// `address` (trimmed, in lower case: [`GameRecord::addresses`]), finished ones too,
    /// sorted by id. A store with an index of addresses reads only those; this default
    /// reads every game's header.
    fn games_of_address(&self, address: &str) -> Result<Vec<String>, StoreError> {
        let mut out = Vec::new();
        for id in self.game_ids()? {
            if let Some(r) = self.game_header(&id)? {
                if r.addresses().iter().any(|a| a == address) {
                    out.push(id);
                }
            }
        }
        out.sort();
        Ok(out)
    }
    /// The highest number any stored game's id ends with (`castle-12`: 12), 0 for none:
    /// CREATE numbers the next game after it. A store that keeps it reads one key; this
    /// default reads every game's id.
    fn highest_game_number(&self) -> Result<u64, StoreError> {
        Ok(self
            .game_ids()?
            .iter()
            .filter_map(|id| game_number(id))
            .max()
            .unwrap_or(0))
    }
    /// The game whose game master or one of whose seats holds `token` (a plus-address
    /// token: `judge+TOKEN@...`). A store with an index of tokens reads only that; this
    /// default reads every game's header.
    fn game_of_token(&self, token: &str) -> Result<Option<String>, StoreError> {
        for id in self.game_ids()? {
            if let Some(r) = self.game_header(&id)? {
                if r.holds_token(token) {
                    return Ok(Some(id));
                }
            }
        }
        Ok(None)
    }
    /// The games the tick has something to do for at `now` ([`crate::stored::next_due`]
    /// at or before it), in no particular order. A store with an index of due times reads
    /// only those; this default reads every game.
    fn due_games(&self, now: i64) -> Result<Vec<String>, StoreError> {
        let mut out = Vec::new();
        for id in self.game_ids()? {
            if let Some(rec) = self.game_header(&id)? {
                if crate::stored::next_due(&rec).is_some_and(|t| t <= now) {
                    out.push(id);
                }
            }
        }
        Ok(out)
    }
    fn is_processed(&self, message_id: &str) -> Result<bool, StoreError>;
    fn sender(&self, address: &str) -> Result<Option<SenderRecord>, StoreError>;
    /// A player's record, by bare lowercase address.
    fn record(&self, address: &str) -> Result<Option<PlayerRecord>, StoreError>;
    /// A campaign, by id.
    fn campaign(&self, id: &str) -> Result<Option<crate::campaign::CampaignRecord>, StoreError>;
    fn campaign_ids(&self) -> Result<Vec<String>, StoreError>;
    fn commit(&self, changes: &Changes) -> Result<(), StoreError>;
}

#[derive(Default, Debug)]
struct Mem {
    /// Header and snapshot of each game, stored apart from its history as the sled store
    /// does (crate::stored), so the judge's tests load games the way the daemon does.
    games: BTreeMap<String, (GameRecord, Option<Snapshot>)>,
    history: BTreeMap<String, Vec<StoredEntry>>,
    processed: BTreeSet<String>,
    outbox: Vec<Outbound>,
    log: Vec<LogLine>,
    senders: BTreeMap<String, SenderRecord>,
    records: BTreeMap<String, PlayerRecord>,
    campaigns: BTreeMap<String, crate::campaign::CampaignRecord>,
}

/// An in-memory [`Store`] for tests and as the reference behaviour.
#[derive(Default, Debug)]
pub struct MemoryStore {
    inner: Mutex<Mem>,
}

impl MemoryStore {
    pub fn new() -> MemoryStore {
        MemoryStore::default()
    }
    fn lock(&self) -> Result<std::sync::MutexGuard<'_, Mem>, StoreError> {
        self.inner
            .lock()
            .map_err(|_| StoreError::new("memory store poisoned"))
    }
    /// Every mail committed so far, in order.
    pub fn outbox(&self) -> Vec<Outbound> {
        self.lock().map(|m| m.outbox.clone()).unwrap_or_default()
    }
    /// Take the committed mails out (as a sender would).
    pub fn drain_outbox(&self) -> Vec<Outbound> {
        self.lock()
            .map(|mut m| std::mem::take(&mut m.outbox))
            .unwrap_or_default()
    }
    pub fn log(&self) -> Vec<LogLine> {
        self.lock().map(|m| m.log.clone()).unwrap_or_default()
    }

    fn load(&self, id: &str, whole: bool) -> Result<Option<StoredGame>, StoreError> {
        let m = self.lock()?;
        let Some((header, snapshot)) = m.games.get(id) else {
            return Ok(None);
        };
        let Some(snapshot) = snapshot else {
            return Ok(Some(StoredGame {
                record: header.clone(),
                table: None,
            }));
        };
        let all = m.history.get(id).map(Vec::as_slice).unwrap_or(&[]);
        let len = snapshot
            .history_len()
            .map_err(|e| StoreError::quarantine(id, &e))?
            .min(all.len());
        let from = if whole {
            0
        } else {
            crate::stored::needed_from(header).min(len)
        };
        Ok(Some(StoredGame {
            record: header.clone(),
            table: Some(castellan_engine::StoredTable {
                snapshot: snapshot.clone(),
                base: from,
                entries: all[from..len].to_vec(),
            }),
        }))
    }
}

impl Store for MemoryStore {
    fn game(&self, id: &str) -> Result<Option<StoredGame>, StoreError> {
        self.load(id, false)
    }
    fn game_whole(&self, id: &str) -> Result<Option<StoredGame>, StoreError> {
        self.load(id, true)
    }
    fn game_header(&self, id: &str) -> Result<Option<GameRecord>, StoreError> {
        Ok(self.lock()?.games.get(id).map(|(h, _)| h.clone()))
    }
    fn game_ids(&self) -> Result<Vec<String>, StoreError> {
        Ok(self.lock()?.games.keys().cloned().collect())
    }
    fn is_processed(&self, message_id: &str) -> Result<bool, StoreError> {
        Ok(self.lock()?.processed.contains(message_id))
    }
    fn sender(&self, address: &str) -> Result<Option<SenderRecord>, StoreError> {
        Ok(self.lock()?.senders.get(address).cloned())
    }
    fn record(&self, address: &str) -> Result<Option<PlayerRecord>, StoreError> {
        Ok(self.lock()?.records.get(address).cloned())
    }
    fn campaign(&self, id: &str) -> Result<Option<crate::campaign::CampaignRecord>, StoreError> {
        Ok(self.lock()?.campaigns.get(id).cloned())
    }
    fn campaign_ids(&self) -> Result<Vec<String>, StoreError> {
        Ok(self.lock()?.campaigns.keys().cloned().collect())
    }
    fn commit(&self, c: &Changes) -> Result<(), StoreError> {
        let mut m = self.lock()?;
        m.processed.extend(c.processed.iter().cloned());
        // Every record is checked before anything is written: a refused one changes
        // nothing (all or nothing, as the sled store's transaction).
        for g in &c.games {
            g.to_append(m.history.get(&g.record.id).map_or(0, Vec::len))?;
        }
        for g in &c.games {
            let id = g.record.id.clone();
            let stored = m.history.entry(id.clone()).or_default();
            let new = g.to_append(stored.len())?;
            if let Some(t) = &g.table {
                stored.extend(t.entries[new.start - t.base..].iter().cloned());
            }
            let snapshot = g.table.as_ref().map(|t| t.snapshot.clone());
            m.games.insert(id, (g.record.clone(), snapshot));
        }
        for h in &c.headers {
            let snapshot = m.games.get(&h.id).and_then(|(_, s)| s.clone());
            m.games.insert(h.id.clone(), (h.clone(), snapshot));
        }
        m.outbox.extend(c.outbox.iter().cloned());
        m.log.extend(c.log.iter().cloned());
        for s in &c.senders {
            m.senders.insert(s.address.clone(), s.clone());
        }
        for r in &c.records {
            m.records.insert(r.address.clone(), r.clone());
        }
        for k in &c.campaigns {
            m.campaigns.insert(k.id.clone(), k.clone());
        }
        Ok(())
    }
}
