//! The games kept decoded in memory while the store is open: a game's header, snapshot
//! and the history entries a mail needs, as [`SledStore::load`] gives them, so that a
//! game's second mail reads nothing from sled and decodes no header.
//!
//! Filled by a load, replaced by what each commit wrote (the [`StoredGame`] the judge
//! handed in, with the entries below the stored end taken from what was kept, never
//! from the hand: the kept game is what a load from sled would give, byte for byte).
//! Only this store writes its games' trees: every write of them goes through
//! [`Writing`] (the commit, the conversion of older layouts), and whoever takes sled
//! itself ([`SledStore::db`]) finds the cache emptied. A commit that fails leaves the
//! cache as it was.
//!
//! Loads run on several threads (the judges of a batch, src/serve/optimistic.rs) while
//! one thread commits: a load keeps what it read only if no write of the games began
//! or ended while it read (an epoch, moved at both ends of every write), so a load that
//! saw part of a transaction, or the state before it, is never kept. Commits are
//! serialized, so the cache follows them in the order sled applied them.
//!
//! Bounded: at most [`MAX_GAMES`] games and [`MAX_BYTES`] of their stored bytes; past
//! either, games are dropped in no particular order until the new one fits.

use super::SledStore;
use castellan_engine::StoredTable;
use castellan_judge::{stored, GameRecord, StoredGame};
use std::collections::HashMap;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};

/// The most games kept.
pub(super) const MAX_GAMES: usize = 4096;
/// The most bytes kept, counted as stored (header, snapshot, entries).
pub(super) const MAX_BYTES: usize = 64 * 1024 * 1024;

/// A game as a load from sled gives it: the table's entries from `needed_from` (or
/// further back) to its end.
#[derive(Debug)]
pub(super) struct Cached {
    game: StoredGame,
    /// The table's history length (0: no table).
    len: usize,
    /// Its bytes as stored, for [`MAX_BYTES`].
    bytes: usize,
}

impl Cached {
    /// `game`, whose header is `header_bytes` long when stored, its history cut to what a
    /// mail needs (`stored::needed_from`). None if its snapshot is unreadable.
    pub(super) fn new(mut game: StoredGame, header_bytes: usize) -> Option<Cached> {
        let mut len = 0;
        let mut bytes = header_bytes;
        if let Some(t) = &mut game.table {
            len = t.history_len().ok()?;
            let from = stored::needed_from(&game.record).min(len);
            if t.base < from {
                t.entries.drain(..(from - t.base).min(t.entries.len()));
                t.base = from;
            }
            if t.entries.len() != len.saturating_sub(t.base) {
                return None;
            }
            bytes += t.snapshot.as_bytes().len();
            bytes += t.entries.iter().map(|e| e.as_bytes().len()).sum::<usize>();
        }
        Some(Cached { game, len, bytes })
    }

    /// The game with its history from `from` on (None: from `stored::needed_from`), as
    /// a load from sled gives it; None if the entries kept do not reach that far back.
    pub(super) fn window(&self, from: Option<usize>) -> Option<StoredGame> {
        let Some(t) = &self.game.table else {
            return Some(self.game.clone());
        };
        let from = from
            .unwrap_or_else(|| stored::needed_from(&self.game.record))
            .min(self.len);
        let skip = from.checked_sub(t.base)?;
        Some(StoredGame {
            record: self.game.record.clone(),
            table: Some(StoredTable {
                snapshot: t.snapshot.clone(),
                base: from,
                entries: t.entries[skip..].to_vec(),
            }),
        })
    }

    pub(super) fn record(&self) -> &GameRecord {
        &self.game.record
    }

    /// Stored entry `n`, if kept.
    fn entry(&self, n: usize) -> Option<&castellan_engine::StoredEntry> {
        let t = self.game.table.as_ref()?;
        t.entries.get(n.checked_sub(t.base)?)
    }
}

/// What a commit wrote of one game, for [`Games::written`].
pub(super) enum Written<'a> {
    /// The whole game, when `stored` history entries were stored before it (those from
    /// there on were written from its table).
    Game {
        game: &'a StoredGame,
        stored: usize,
        header_bytes: usize,
    },
    /// Its header alone: its state and history left as stored.
    Header {
        record: &'a GameRecord,
        header_bytes: usize,
    },
}

#[derive(Default)]
pub(super) struct Games {
    map: HashMap<String, Arc<Cached>>,
    bytes: usize,
}

impl Games {
    fn insert(&mut self, id: &str, c: Cached) {
        self.remove(id);
        if c.bytes > MAX_BYTES {
            return;
        }
        while self.map.len() >= MAX_GAMES || self.bytes + c.bytes > MAX_BYTES {
            let Some(k) = self.map.keys().next().cloned() else {
                break;
            };
            self.remove(&k);
        }
        self.bytes += c.bytes;
        self.map.insert(id.to_string(), Arc::new(c));
    }

    /// Drop game `id` (written in a way the cache does not follow).
    pub(super) fn forget(&mut self, id: &str) {
        self.remove(id);
    }

    fn remove(&mut self, id: &str) {
        if let Some(old) = self.map.remove(id) {
            self.bytes -= old.bytes;
        }
    }

    /// Keep game `id` as the commit just made left it in sled, or drop it when what sled
    /// holds cannot be told without reading it (an entry below the stored end that was
    /// not kept).
    pub(super) fn written(&mut self, id: &str, w: Written<'_>) {
        let prev = self.map.get(id).cloned();
        let next = match w {
            Written::Game {
                game,
                stored,
                header_bytes,
            } => game_written(prev.as_deref(), game, stored, header_bytes),
            Written::Header {
                record,
                header_bytes,
            } => prev.as_deref().and_then(|p| {
                let mut g = StoredGame {
                    record: record.clone(),
                    table: p.game.table.clone(),
                };
                // Only the entries it needs: a load from sled would start there.
                if let Some(t) = &mut g.table {
                    let from = stored::needed_from(record).min(p.len);
                    if from < t.base {
                        return None;
                    }
                }
                Cached::new(g, header_bytes)
            }),
        };
        match next {
            Some(c) => self.insert(id, c),
            None => self.remove(id),
        }
    }
}

/// The game `game` left in sled, `stored` entries having been stored before (`prev`:
/// what was kept of it then).
fn game_written(
    prev: Option<&Cached>,
    game: &StoredGame,
    stored: usize,
    header_bytes: usize,
) -> Option<Cached> {
    let Some(t) = &game.table else {
        return Cached::new(game.clone(), header_bytes);
    };
    let len = t.history_len().ok()?;
    // The commit wrote entries `to_append(stored)` from the hand; those below are sled's
    // own, and only what was kept of them is known without reading.
    let written_from = stored::to_append(&game.record.id, true, t.base, len, stored)
        .ok()?
        .start;
    let from = stored::needed_from(&game.record).min(len);
    let entries = (from..len)
        .map(|n| {
            if n >= written_from {
                t.entries.get(n - t.base).cloned()
            } else {
                prev?.entry(n).cloned()
            }
        })
        .collect::<Option<Vec<_>>>()?;
    Cached::new(
        StoredGame {
            record: game.record.clone(),
            table: Some(StoredTable {
                snapshot: t.snapshot.clone(),
                base: from,
                entries,
            }),
        },
        header_bytes,
    )
}

#[derive(Default)]
struct State {
    games: Games,
    /// Moved at the start and at the end of every write of the games' trees.
    epoch: u64,
    /// Writes under way.
    writing: u32,
}

/// The games kept decoded, shared by the clones of a [`SledStore`].
#[derive(Default)]
pub(super) struct GameCache {
    state: Mutex<State>,
    /// Held by a write of the games' trees from its start until the cache took it in.
    writes: Mutex<()>,
    /// How many loads read sled (each miss).
    loads: AtomicU64,
}

/// The epoch a load started in, if no write was under way.
pub(super) struct Ticket(Option<u64>);

impl GameCache {
    fn state(&self) -> MutexGuard<'_, State> {
        self.state.lock().unwrap_or_else(|e| e.into_inner())
    }

    pub(super) fn get(&self, id: &str) -> Option<Arc<Cached>> {
        self.state().games.map.get(id).cloned()
    }

    /// Taken before reading sled, for [`GameCache::fill`].
    pub(super) fn ticket(&self) -> Ticket {
        self.loads.fetch_add(1, Ordering::Relaxed);
        let s = self.state();
        Ticket((s.writing == 0).then_some(s.epoch))
    }

    /// Keep what a load read, unless a write began or ended since its ticket.
    pub(super) fn fill(&self, ticket: Ticket, id: &str, c: Cached) {
        let mut s = self.state();
        if s.writing == 0 && ticket.0 == Some(s.epoch) {
            s.games.insert(id, c);
        }
    }

    pub(super) fn loads(&self) -> u64 {
        self.loads.load(Ordering::Relaxed)
    }

    /// A write of the games' trees begins: until the [`Writing`] is dropped, no load is
    /// kept, and no other write begins.
    pub(super) fn writing(&self) -> Writing<'_> {
        let serial = self.writes.lock().unwrap_or_else(|e| e.into_inner());
        let mut s = self.state();
        s.writing += 1;
        s.epoch += 1;
        drop(s);
        Writing {
            cache: self,
            _serial: serial,
        }
    }

    /// Forget every game (what was written went around the cache).
    pub(super) fn clear(&self) {
        let mut s = self.state();
        s.games = Games::default();
        s.epoch += 1;
    }

    #[cfg(test)]
    pub(super) fn len(&self) -> usize {
        self.state().games.map.len()
    }
}

/// A write of the games' trees under way ([`GameCache::writing`]).
pub(super) struct Writing<'a> {
    cache: &'a GameCache,
    _serial: MutexGuard<'a, ()>,
}

impl Writing<'_> {
    /// The write succeeded: the cache takes it in.
    pub(super) fn done(self, update: impl FnOnce(&mut Games)) {
        update(&mut self.cache.state().games);
    }
}

impl Drop for Writing<'_> {
    fn drop(&mut self) {
        let mut s = self.cache.state();
        s.writing -= 1;
        s.epoch += 1;
    }
}

impl SledStore {
    /// How many game loads read sled (the others were served from memory).
    pub fn game_loads_from_sled(&self) -> u64 {
        self.cache.loads()
    }
}
