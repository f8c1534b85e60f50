//! A mail's changes written: serialized into the trees' values ([`GameWrite`] for a game's
//! header, snapshot, history entries and due index), then committed in one transaction,
//! alone or with the other mails of its group (src/service/batch.rs `commit_group`).

use super::cache::{Games, Written};
use super::gauges::{self, Counted};
use super::{
    due_key, encode_outbox, entry_key, err, index_key, OutboxItem, SledStore, JOURNAL_SEQ,
};
use castellan_judge::{stored, Changes, GameRecord, StoreError, StoredGame};
use sled::transaction::{ConflictableTransactionError, TransactionError};
use sled::Transactional;

/// One game ready to be written: its header and snapshot serialized, the history entries
/// in hand serialized with their numbers, its due key.
pub(super) struct GameWrite {
    id: String,
    header: Vec<u8>,
    snapshot: Option<Vec<u8>>,
    base: usize,
    len: usize,
    entries: Vec<Vec<u8>>,
    due: Option<Vec<u8>>,
    /// What finds the game in `game_index`: its tokens, addresses and number.
    lookups: Lookups,
    /// What it adds to the games' gauges (store/gauges.rs).
    counted: Counted,
    /// Write the header (and the due index) alone: `Changes::headers`.
    header_only: bool,
}

impl GameWrite {
    pub(super) fn of(g: &StoredGame) -> Result<GameWrite, StoreError> {
        let rec = &g.record;
        let (snapshot, base, len, entries) = match &g.table {
            None => (None, 0, 0, Vec::new()),
            Some(t) => {
                let len = t
                    .history_len()
                    .map_err(|e| StoreError::new(format!("game {}: {e}", rec.id)))?;
                let entries = t.entries.iter().map(|e| e.as_bytes().to_vec()).collect();
                (Some(t.snapshot.as_bytes().to_vec()), t.base, len, entries)
            }
        };
        Ok(GameWrite {
            header_only: false,
            snapshot,
            base,
            len,
            entries,
            ..GameWrite::header_of(rec)?
        })
    }

    /// The header of `g` alone; its stored state and history are left as they are.
    pub(super) fn header_of(g: &GameRecord) -> Result<GameWrite, StoreError> {
        Ok(GameWrite {
            id: g.id.clone(),
            header: stored::header_bytes(g)?,
            snapshot: None,
            base: 0,
            len: 0,
            entries: Vec::new(),
            due: stored::next_due(g).map(|t| due_key(t, &g.id)),
            lookups: Lookups::of(g),
            counted: Counted::of(g),
            header_only: true,
        })
    }

    /// Write it in a transaction over (games, states, history, due, game_index). History
    /// entries already stored are not written again (`stored::to_append`). The gauges move
    /// by what the header stored before counted. Returns how many history entries were
    /// stored before (None: the header alone was written).
    pub(super) fn write(
        &self,
        games: &sled::transaction::TransactionalTree,
        states: &sled::transaction::TransactionalTree,
        history: &sled::transaction::TransactionalTree,
        due: &sled::transaction::TransactionalTree,
        index: &sled::transaction::TransactionalTree,
    ) -> Result<Option<usize>, ConflictableTransactionError<String>> {
        let stored = if self.header_only {
            None
        } else {
            Some(self.write_state(states, history, index)?)
        };
        let before = games.get(self.id.as_bytes())?;
        gauges::write(
            index,
            &self.id,
            before.as_deref().and_then(Counted::read),
            Some(self.counted),
        )?;
        games.insert(self.id.as_bytes(), self.header.as_slice())?;
        let due_of = index_key("due", &self.id);
        if let Some(old) = index.get(&due_of)? {
            due.remove(old)?;
        }
        match &self.due {
            Some(k) => {
                due.insert(k.as_slice(), &[])?;
                index.insert(due_of, k.as_slice())?;
            }
            None => {
                index.remove(due_of)?;
            }
        }
        self.lookups.write_tokens(index)?;
        self.lookups.write_addresses(index)?;
        raise_game_number(index, &self.id)?;
        Ok(stored)
    }

    /// The snapshot, and the history entries not stored yet. Returns how many were
    /// stored before.
    fn write_state(
        &self,
        states: &sled::transaction::TransactionalTree,
        history: &sled::transaction::TransactionalTree,
        index: &sled::transaction::TransactionalTree,
    ) -> Result<usize, ConflictableTransactionError<String>> {
        let hlen_key = index_key("hlen", &self.id);
        let stored = match index.get(&hlen_key)? {
            Some(v) => u64::from_be_bytes(v.as_ref().try_into().map_err(|_| {
                ConflictableTransactionError::Abort(format!("game {}: bad history length", self.id))
            })?) as usize,
            None => 0,
        };
        let new = stored::to_append(
            &self.id,
            self.snapshot.is_some(),
            self.base,
            self.len,
            stored,
        )
        .map_err(|e| ConflictableTransactionError::Abort(e.0))?;
        for n in new {
            history.insert(
                entry_key(&self.id, n),
                self.entries[n - self.base].as_slice(),
            )?;
        }
        index.insert(hlen_key, &(self.len.max(stored) as u64).to_be_bytes())?;
        match &self.snapshot {
            Some(v) => states.insert(self.id.as_bytes(), v.as_slice())?,
            None => states.remove(self.id.as_bytes())?,
        };
        Ok(stored)
    }

    /// What the cache takes in once this write is committed: `game` (the whole game, or
    /// None for a header alone), `stored` as [`GameWrite::write`] returned it.
    fn written<'g>(
        &self,
        game: Option<&'g StoredGame>,
        header: &'g GameRecord,
        stored: Option<usize>,
    ) -> Written<'g> {
        match (game, stored) {
            (Some(game), Some(stored)) => Written::Game {
                game,
                stored,
                header_bytes: self.header.len(),
            },
            _ => Written::Header {
                record: header,
                header_bytes: self.header.len(),
            },
        }
    }
}

/// What finds a game in `game_index` besides its id: the plus-address tokens that name it
/// and the addresses it mails (each an index kept in step by [`reindex`]).
pub(super) struct Lookups {
    id: String,
    /// `GameRecord::tokens`, one a line.
    tokens: String,
    /// `GameRecord::addresses`, one a line.
    addresses: String,
}

impl Lookups {
    pub(super) fn of(g: &GameRecord) -> Lookups {
        Lookups {
            id: g.id.clone(),
            tokens: g.tokens().collect::<Vec<_>>().join("\n"),
            addresses: g.addresses().join("\n"),
        }
    }

    /// The address index (`addr/ADDRESS\0ID`, empty: a set per address, read by prefix),
    /// rewritten only when the game's addresses changed (`addrs/ID` holds those it
    /// indexed).
    pub(super) fn write_addresses(
        &self,
        index: &sled::transaction::TransactionalTree,
    ) -> Result<(), ConflictableTransactionError<String>> {
        reindex(
            index,
            addresses_key(&self.id),
            &self.addresses,
            |a| {
                index.remove(address_key(a, &self.id))?;
                Ok(())
            },
            |a| {
                index.insert(address_key(a, &self.id), &[])?;
                Ok(())
            },
        )
    }

    /// The token index (`token/TOKEN` → the game's id), rewritten only when the game's
    /// tokens changed (`tokens/ID` holds those it indexed). A token the game no longer
    /// holds is dropped, unless another game took it since.
    pub(super) fn write_tokens(
        &self,
        index: &sled::transaction::TransactionalTree,
    ) -> Result<(), ConflictableTransactionError<String>> {
        reindex(
            index,
            tokens_key(&self.id),
            &self.tokens,
            |t| {
                let key = token_key(t);
                if index.get(&key)?.as_deref() == Some(self.id.as_bytes()) {
                    index.remove(key)?;
                }
                Ok(())
            },
            |t| {
                index.insert(token_key(t), self.id.as_bytes())?;
                Ok(())
            },
        )
    }
}

/// Raise `game_number` to the number game `id` ends with, if that is higher: never lowered,
/// so no id names two games.
pub(super) fn raise_game_number(
    index: &sled::transaction::TransactionalTree,
    id: &str,
) -> Result<(), ConflictableTransactionError<String>> {
    if let Some(n) = castellan_judge::game_number(id) {
        if n > highest_game_number(index.get(GAME_NUMBER)?.as_deref()) {
            index.insert(GAME_NUMBER, &n.to_be_bytes())?;
        }
    }
    Ok(())
}

/// The token index's key of `token`: the id of the game it names.
pub(super) fn token_key(token: &str) -> Vec<u8> {
    index_key("token", token)
}

/// The token index's key of game `id`: the tokens it indexed, one a line.
pub(super) fn tokens_key(id: &str) -> Vec<u8> {
    index_key("tokens", id)
}

/// Keep one game's entries of an index in step with `line`, its values now (one a line):
/// `indexed` holds the line last indexed, and nothing is written while it is the same.
/// `drop` is called for each value indexed before and not held now, `add` for each value
/// held now.
fn reindex(
    index: &sled::transaction::TransactionalTree,
    indexed: Vec<u8>,
    line: &str,
    drop: impl Fn(&str) -> Result<(), ConflictableTransactionError<String>>,
    add: impl Fn(&str) -> Result<(), ConflictableTransactionError<String>>,
) -> Result<(), ConflictableTransactionError<String>> {
    let before = index.get(&indexed)?;
    if before.as_deref() == Some(line.as_bytes()) {
        return Ok(());
    }
    let values = || line.split('\n').filter(|v| !v.is_empty());
    if let Some(old) = before {
        for v in String::from_utf8_lossy(&old).split('\n') {
            if !v.is_empty() && !values().any(|n| n == v) {
                drop(v)?;
            }
        }
    }
    for v in values() {
        add(v)?;
    }
    index.insert(indexed, line.as_bytes())?;
    Ok(())
}

/// The key in `game_index` of the highest number a stored game's id ends with
/// (`Store::highest_game_number`); never lowered, so no id names two games.
pub(super) const GAME_NUMBER: &[u8] = b"game_number";

/// The value of [`GAME_NUMBER`] read back (absent: 0).
pub(super) fn highest_game_number(v: Option<&[u8]>) -> u64 {
    v.and_then(|v| v.try_into().ok())
        .map(u64::from_be_bytes)
        .unwrap_or(0)
}

/// The address index's key saying game `id` mails `address` (a prefix scan of
/// [`address_prefix`] lists an address's games).
pub(super) fn address_key(address: &str, id: &str) -> Vec<u8> {
    let mut k = address_prefix(address);
    k.extend_from_slice(id.as_bytes());
    k
}

/// The start of every address index key of `address`.
pub(super) fn address_prefix(address: &str) -> Vec<u8> {
    let mut k = index_key("addr", address);
    k.push(0);
    k
}

/// The address index's key of game `id`: the addresses it indexed, one a line.
pub(super) fn addresses_key(id: &str) -> Vec<u8> {
    index_key("addrs", id)
}

impl SledStore {
    /// One transaction, visible at once to what reads the store next but durable only at
    /// the next [`SledStore::flush`]: a batch of messages is committed this way and made
    /// durable with one flush (group commit) before any of them is acknowledged.
    pub fn commit_unflushed(&self, changes: &Changes) -> Result<(), StoreError> {
        self.commit_unflushed_seq(changes, None).map(drop)
    }

    /// [`SledStore::commit_unflushed`], recording in the same transaction that the journal
    /// entry `seq` is committed (src/recover.rs). Returns the outbox keys of
    /// `changes.outbox`, in its order.
    pub fn commit_unflushed_seq(
        &self,
        changes: &Changes,
        seq: Option<u64>,
    ) -> Result<Vec<u64>, StoreError> {
        let mut keys = self.commit_group_unflushed(&[(changes, seq)])?;
        Ok(keys.pop().unwrap_or_default())
    }

    /// Several mails' changes, in their order, in one transaction (the batch's group
    /// commit, src/service/batch.rs): all of them or none. sled writes a transaction's
    /// manifest and rolls its write buffer at each commit, each time with a
    /// `sync_file_range` of its own; one transaction for a group of mails pays that once.
    /// The journal entry recorded is the group's last. Returns each one's outbox keys.
    pub fn commit_group_unflushed(
        &self,
        group: &[(&Changes, Option<u64>)],
    ) -> Result<Vec<Vec<u64>>, StoreError> {
        let group: Vec<(&Changes, Option<u64>, Option<&EncodedReplies>)> =
            group.iter().map(|&(c, seq)| (c, seq, None)).collect();
        self.commit_group_encoded(&group)
    }

    /// [`SledStore::commit_group_unflushed`], where a mail's replies may come encoded
    /// already ([`encode_replies`], on the thread that judged it): the same bytes are
    /// stored, and this thread, the one that commits in order, does not compress them.
    pub fn commit_group_encoded(
        &self,
        group: &[(&Changes, Option<u64>, Option<&EncodedReplies>)],
    ) -> Result<Vec<Vec<u64>>, StoreError> {
        // Everything is serialized and every key chosen before the transaction, so the
        // closure (which sled may run more than once) has no side effects.
        let prepared: Vec<Prepared> = group
            .iter()
            .map(|(changes, _, encoded)| self.prepare(changes, *encoded))
            .collect::<Result<_, _>>()?;
        let seq = group.iter().filter_map(|(_, seq, _)| *seq).max();
        // The games kept decoded follow only a transaction that committed.
        let writing = self.cache.writing();
        let trees: &[&sled::Tree] = &[
            &self.games,
            &self.processed,
            &self.outbox,
            &self.log,
            &self.senders,
            &self.meta,
            &self.records,
            &self.campaigns,
            &self.states,
            &self.history,
            &self.due,
            &self.game_index,
        ];
        let stored = trees
            .transaction(|t| {
                let [g, p, o, l, s, m, r, c, st, h, d, i] = &t[..] else {
                    return Err(ConflictableTransactionError::Abort(
                        "the store's trees are not all open".to_string(),
                    ));
                };
                if let Some(seq) = seq {
                    m.insert(JOURNAL_SEQ, &seq.to_be_bytes())?;
                }
                let mut stored = Vec::new();
                for w in &prepared {
                    for id in w.processed {
                        p.insert(id.as_bytes(), &w.now.to_be_bytes())?;
                    }
                    for game in &w.games {
                        stored.push(game.write(g, st, h, d, i)?);
                    }
                    for (k, v) in &w.outbox {
                        o.insert(&k.to_be_bytes(), v.as_ref())?;
                    }
                    for (k, v) in &w.log {
                        l.insert(k.as_slice(), v.as_slice())?;
                    }
                    for (k, v) in &w.senders {
                        s.insert(k.as_slice(), v.as_slice())?;
                    }
                    for (k, v) in &w.records {
                        r.insert(k.as_slice(), v.as_slice())?;
                    }
                    for (k, v) in &w.campaigns {
                        c.insert(k.as_slice(), v.as_slice())?;
                    }
                }
                Ok(stored)
            })
            .map_err(|e: TransactionError<String>| err(format!("transaction failed: {e:?}")))?;
        writing.done(|games| {
            let mut stored = stored.into_iter();
            for w in &prepared {
                w.keep(games, &mut stored);
            }
        });
        Ok(prepared
            .into_iter()
            .map(|w| w.outbox.into_iter().map(|(k, _)| k).collect())
            .collect())
    }

    /// One mail's changes serialized and keyed, ready for a transaction.
    fn prepare<'c>(
        &self,
        changes: &'c Changes,
        encoded: Option<&'c EncodedReplies>,
    ) -> Result<Prepared<'c>, StoreError> {
        let games: Vec<GameWrite> = changes
            .games
            .iter()
            .map(GameWrite::of)
            .chain(changes.headers.iter().map(GameWrite::header_of))
            .collect::<Result<_, StoreError>>()?;
        // Encoded ahead only if it encodes these very replies (else here).
        let ahead = encoded.filter(|e| e.0.len() == changes.outbox.len());
        let outbox: Vec<(u64, std::borrow::Cow<'c, [u8]>)> = changes
            .outbox
            .iter()
            .enumerate()
            .map(|(n, m)| {
                let id = self.db.generate_id().map_err(err)?;
                let value = match ahead {
                    Some(e) => std::borrow::Cow::Borrowed(e.0[n].as_slice()),
                    None => std::borrow::Cow::Owned(encode_reply(m)?),
                };
                Ok((id, value))
            })
            .collect::<Result<_, StoreError>>()?;
        let log: Vec<Pair> = changes
            .log
            .iter()
            .map(|l| {
                let mut k = l.game.as_bytes().to_vec();
                k.push(0);
                k.extend_from_slice(&self.db.generate_id().map_err(err)?.to_be_bytes());
                Ok((k, serde_json::to_vec(l).map_err(err)?))
            })
            .collect::<Result<_, StoreError>>()?;
        fn keyed<T: serde::Serialize>(
            items: &[T],
            key: impl Fn(&T) -> &str,
        ) -> Result<Vec<Pair>, StoreError> {
            items
                .iter()
                .map(|x| {
                    Ok((
                        key(x).as_bytes().to_vec(),
                        serde_json::to_vec(x).map_err(err)?,
                    ))
                })
                .collect()
        }
        Ok(Prepared {
            changes,
            now: changes_time(changes),
            processed: &changes.processed,
            games,
            outbox,
            log,
            senders: keyed(&changes.senders, |s| &s.address)?,
            records: keyed(&changes.records, |r| &r.address)?,
            campaigns: keyed(&changes.campaigns, |c| &c.id)?,
        })
    }
}

/// A mail's replies as the outbox stores them, in the order of its `Changes::outbox`:
/// made by [`encode_replies`] where the mail was judged.
pub struct EncodedReplies(Vec<Vec<u8>>);

/// The outbox values of `changes`' replies, as a commit would write them (a pure function
/// of the replies: no key, no store), for [`SledStore::commit_group_encoded`].
pub fn encode_replies(changes: &Changes) -> Result<EncodedReplies, StoreError> {
    changes
        .outbox
        .iter()
        .map(encode_reply)
        .collect::<Result<_, _>>()
        .map(EncodedReplies)
}

/// One reply as the outbox stores it when it is committed: never tried yet.
fn encode_reply(mail: &castellan_judge::Outbound) -> Result<Vec<u8>, StoreError> {
    encode_outbox(&OutboxItem {
        mail: mail.clone(),
        attempts: 0,
        not_before: 0,
        last_error: None,
        failed: false,
    })
}

/// A key and its value, serialized.
type Pair = (Vec<u8>, Vec<u8>);

/// What one mail's commit writes, serialized, its keys chosen.
struct Prepared<'c> {
    changes: &'c Changes,
    now: i64,
    processed: &'c [String],
    games: Vec<GameWrite>,
    outbox: Vec<(u64, std::borrow::Cow<'c, [u8]>)>,
    log: Vec<Pair>,
    senders: Vec<Pair>,
    records: Vec<Pair>,
    campaigns: Vec<Pair>,
}

impl Prepared<'_> {
    /// The cache takes in this mail's games once committed, in the order they were
    /// written (`stored`: what each write returned in the transaction).
    fn keep(&self, games: &mut Games, stored: &mut impl Iterator<Item = Option<usize>>) {
        let whole = self.changes.games.iter().map(Some);
        let whole = whole.chain(std::iter::repeat(None));
        let records = self.changes.games.iter().map(|g| &g.record);
        let records = records.chain(&self.changes.headers);
        for ((write, game), record) in self.games.iter().zip(whole).zip(records) {
            let written = write.written(game, record, stored.next().flatten());
            games.written(&record.id, written);
        }
    }
}

fn changes_time(changes: &Changes) -> i64 {
    changes.log.iter().map(|l| l.at).max().unwrap_or(0)
}
