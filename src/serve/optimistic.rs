//! A batch's mails judged side by side, committed in order (optimistic concurrency).
//!
//! The judge is a pure function of (mail, time and entropy, what it reads of the store),
//! and it reads the store only through [`Store`]. So the mails of a batch can be judged at
//! once, each on the store as the batch found it, while the service commits them one by
//! one in their order. A mail's result stands if no mail before it in the batch wrote
//! anything it read: it is then what judging it after them would have given. Otherwise
//! it is judged again, on the store as it is by then. Mails for different games (most of
//! a busy batch) seldom touch one another; two orders for one game, or a game's creation
//! and a mail that looks it up, are judged again in order.
//!
//! Each judging records what it read ([`Reads`]: every game, sender, record, campaign and
//! processed mark it asked for, present or not, and whether it listed the games or the
//! campaigns); each commit adds what it wrote ([`Writes`]). The commit itself, the
//! journal, the flush and the acknowledgement stay on the service's thread, in order.
//!
//! The service commits the mails in groups, each one sled transaction (src/serve/batch.rs
//! `GROUP`). A mail judged on the service's thread (one judge, or no worker took it)
//! reads the store without the group it would join: it stands if the group's writes
//! (a [`Writes`] of their own) touch nothing it read, else the group is committed and
//! the mail judged again.

use std::cell::RefCell;
use std::collections::HashSet;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::mpsc;

use castellan_judge::{
    CampaignRecord, Changes, Env, GameRecord, Inbound, Judge, PlayerRecord, SenderRecord, Store,
    StoreError, StoredGame,
};

/// One thing of the store the judge can read.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Key {
    /// A game: its header, state or history.
    Game(String),
    /// The list of games.
    GameIds,
    /// The games due at some time (the tick's index).
    Due,
    /// Which game each plus-address token names (any game's seats or game master).
    Tokens,
    /// Which games each address plays in, runs or watches.
    Addresses,
    Processed(String),
    Sender(String),
    Record(String),
    Campaign(String),
    /// The list of campaigns.
    CampaignIds,
}

/// What a judging read.
pub type Reads = HashSet<Key>;

/// What the commits of a batch so far wrote.
#[derive(Default, Debug)]
pub struct Writes(HashSet<Key>);

impl Writes {
    /// Add what `changes` writes. `is_new_game(id)`: whether the game is not stored yet
    /// (creating one changes the list of games); asked before the commit.
    pub fn add(&mut self, changes: &Changes, is_new_game: impl Fn(&str) -> bool) {
        let written = changes.games.iter().map(|g| &g.record);
        for g in written.chain(&changes.headers) {
            if is_new_game(&g.id) {
                self.0.insert(Key::GameIds);
            }
            self.0.insert(Key::Game(g.id.clone()));
            self.0.insert(Key::Due);
            self.0.insert(Key::Tokens);
            self.0.insert(Key::Addresses);
        }
        for p in &changes.processed {
            self.0.insert(Key::Processed(p.clone()));
        }
        for s in &changes.senders {
            self.0.insert(Key::Sender(s.address.clone()));
        }
        for r in &changes.records {
            self.0.insert(Key::Record(r.address.clone()));
        }
        for c in &changes.campaigns {
            self.0.insert(Key::Campaign(c.id.clone()));
            self.0.insert(Key::CampaignIds);
        }
    }

    /// Whether `key` was written.
    pub fn has(&self, key: &Key) -> bool {
        self.0.contains(key)
    }

    /// Whether any of `reads` was written.
    pub fn touch(&self, reads: &Reads) -> bool {
        reads.iter().any(|k| self.0.contains(k))
    }
}

/// A store that notes every read it passes on.
pub struct Recording<'a> {
    inner: &'a dyn Store,
    reads: RefCell<Reads>,
}

impl<'a> Recording<'a> {
    pub fn new(inner: &'a dyn Store) -> Recording<'a> {
        Recording {
            inner,
            reads: RefCell::default(),
        }
    }

    pub fn into_reads(self) -> Reads {
        self.reads.into_inner()
    }

    fn note(&self, key: Key) {
        self.reads.borrow_mut().insert(key);
    }
}

impl Store for Recording<'_> {
    fn game(&self, id: &str) -> Result<Option<StoredGame>, StoreError> {
        self.note(Key::Game(id.to_string()));
        self.inner.game(id)
    }
    fn game_whole(&self, id: &str) -> Result<Option<StoredGame>, StoreError> {
        self.note(Key::Game(id.to_string()));
        self.inner.game_whole(id)
    }
    fn game_header(&self, id: &str) -> Result<Option<GameRecord>, StoreError> {
        self.note(Key::Game(id.to_string()));
        self.inner.game_header(id)
    }
    fn game_ids(&self) -> Result<Vec<String>, StoreError> {
        self.note(Key::GameIds);
        self.inner.game_ids()
    }
    fn due_games(&self, now: i64) -> Result<Vec<String>, StoreError> {
        self.note(Key::Due);
        self.inner.due_games(now)
    }
    fn highest_game_number(&self) -> Result<u64, StoreError> {
        self.note(Key::GameIds);
        self.inner.highest_game_number()
    }
    fn games_of_address(&self, address: &str) -> Result<Vec<String>, StoreError> {
        self.note(Key::Addresses);
        self.inner.games_of_address(address)
    }
    fn game_of_token(&self, token: &str) -> Result<Option<String>, StoreError> {
        self.note(Key::Tokens);
        self.inner.game_of_token(token)
    }
    fn is_processed(&self, message_id: &str) -> Result<bool, StoreError> {
        self.note(Key::Processed(message_id.to_string()));
        self.inner.is_processed(message_id)
    }
    fn sender(&self, address: &str) -> Result<Option<SenderRecord>, StoreError> {
        self.note(Key::Sender(address.to_string()));
        self.inner.sender(address)
    }
    fn record(&self, address: &str) -> Result<Option<PlayerRecord>, StoreError> {
        self.note(Key::Record(address.to_string()));
        self.inner.record(address)
    }
    fn campaign(&self, id: &str) -> Result<Option<CampaignRecord>, StoreError> {
        self.note(Key::Campaign(id.to_string()));
        self.inner.campaign(id)
    }
    fn campaign_ids(&self) -> Result<Vec<String>, StoreError> {
        self.note(Key::CampaignIds);
        self.inner.campaign_ids()
    }
    /// The judge never commits; a judging that tried would not be one to keep.
    fn commit(&self, _changes: &Changes) -> Result<(), StoreError> {
        Err(StoreError::new(
            "a mail judged ahead cannot commit: it is judged again in order",
        ))
    }
}

/// A mail judged ahead: its changes (or error), what it read, and its replies encoded as
/// the outbox stores them ([`crate::store::encode_replies`]), so that the thread that
/// commits in order does not compress them.
pub type Judged = (
    Result<Changes, StoreError>,
    Reads,
    Option<crate::store::EncodedReplies>,
);

/// Mails judged ahead by worker threads, taken in order by the committing thread.
pub struct Ahead {
    arrived: Vec<Option<Judged>>,
    from_workers: mpsc::Receiver<(usize, Judged)>,
    stop: std::sync::Arc<AtomicBool>,
}

impl Ahead {
    /// Judge `mails` (each with its time and entropy) on `workers` threads of `scope`,
    /// each on the store as it is when it is judged; each mail's replies are encoded there
    /// too ([`crate::store::encode_replies`]).
    pub fn start<'scope, 'env: 'scope, S: Store + Sync>(
        scope: &'scope std::thread::Scope<'scope, 'env>,
        judge: &'env Judge,
        store: &'env S,
        mails: &'env [(&'env Inbound, Env)],
        workers: usize,
    ) -> Ahead {
        let (to_main, from_workers) = mpsc::channel();
        let next = std::sync::Arc::new(AtomicUsize::new(0));
        let stop = std::sync::Arc::new(AtomicBool::new(false));
        for _ in 0..workers.min(mails.len()) {
            let (to_main, next, stop) = (to_main.clone(), next.clone(), stop.clone());
            scope.spawn(move || loop {
                let i = next.fetch_add(1, Ordering::Relaxed);
                if i >= mails.len() || stop.load(Ordering::Relaxed) {
                    return;
                }
                let (mail, env) = &mails[i];
                let recording = Recording::new(store);
                let result = judge.handle(&recording, mail, env);
                // An encoding that fails is done again, and its error told, at the commit.
                let encoded = result
                    .as_ref()
                    .ok()
                    .and_then(|changes| crate::store::encode_replies(changes).ok());
                if to_main
                    .send((i, (result, recording.into_reads(), encoded)))
                    .is_err()
                {
                    return;
                }
            });
        }
        Ahead {
            arrived: (0..mails.len()).map(|_| None).collect(),
            from_workers,
            stop,
        }
    }

    /// Wait until every mail is judged (or the workers stopped): then each was judged on
    /// the store as the batch found it, the schedule the read check matters most for.
    pub fn wait_all(&mut self) {
        while self.arrived.iter().any(Option::is_none) {
            let Ok((j, judged)) = self.from_workers.recv() else {
                return;
            };
            if let Some(slot) = self.arrived.get_mut(j) {
                *slot = Some(judged);
            }
        }
    }

    /// Mail `i` judged ahead, once it is; None if no worker judged it (they stopped).
    pub fn take(&mut self, i: usize) -> Option<Judged> {
        while self.arrived.get(i)?.is_none() {
            let (j, judged) = self.from_workers.recv().ok()?;
            if let Some(slot) = self.arrived.get_mut(j) {
                *slot = Some(judged);
            }
        }
        self.arrived.get_mut(i)?.take()
    }
}

impl Drop for Ahead {
    /// The batch stopped short (an error): the workers judge no further mail.
    fn drop(&mut self) {
        self.stop.store(true, Ordering::Relaxed);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use castellan_judge::MemoryStore;

    fn game(id: &str) -> GameRecord {
        crate::fixtures::game_record(id, "t", &[])
    }

    /// A read of a game conflicts with a write of that game only; listing the games
    /// conflicts with creating one, not with changing one.
    #[test]
    fn a_read_is_touched_only_by_a_write_of_what_it_read() {
        let mut w = Writes::default();
        let changes = Changes {
            games: vec![game("castle-1").into()],
            processed: vec!["<m1@x>".into()],
            ..Default::default()
        };
        w.add(&changes, |_| false);
        let reads = |keys: &[Key]| keys.iter().cloned().collect::<Reads>();
        assert!(w.touch(&reads(&[Key::Game("castle-1".into())])));
        assert!(w.touch(&reads(&[Key::Processed("<m1@x>".into())])));
        assert!(!w.touch(&reads(&[Key::Game("castle-2".into())])));
        assert!(!w.touch(&reads(&[Key::GameIds])));
        assert!(!w.touch(&reads(&[Key::Sender("ann@example.org".into())])));
        // Any game written may have changed which game a token names, and which games
        // an address is in.
        assert!(w.touch(&reads(&[Key::Tokens])));
        assert!(w.touch(&reads(&[Key::Addresses])));
        w.add(
            &Changes {
                games: vec![game("castle-3").into()],
                ..Default::default()
            },
            |id| id == "castle-3",
        );
        assert!(w.touch(&reads(&[Key::GameIds])));
    }

    /// Every read through the recording store is noted, whatever it found.
    #[test]
    fn the_recording_store_notes_reads_of_what_is_missing_too() {
        let mem = MemoryStore::default();
        let r = Recording::new(&mem);
        assert!(r.game("castle-9").unwrap().is_none());
        assert!(r.sender("ann@example.org").unwrap().is_none());
        assert!(!r.is_processed("<m@x>").unwrap());
        r.game_ids().unwrap();
        assert!(r.game_of_token("k3j9x").unwrap().is_none());
        assert!(r.games_of_address("ann@example.org").unwrap().is_empty());
        assert!(r.commit(&Changes::default()).is_err());
        let reads = r.into_reads();
        for k in [
            Key::Game("castle-9".into()),
            Key::Sender("ann@example.org".into()),
            Key::Processed("<m@x>".into()),
            Key::GameIds,
            Key::Tokens,
            Key::Addresses,
        ] {
            assert!(reads.contains(&k), "{k:?}");
        }
    }
}
