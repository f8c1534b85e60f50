//! The outbox's retry index (`outbox_retry`: big-endian outbox key → the reply's
//! `not_before`, big-endian, and a byte saying it is parked): for each reply the transport
//! refused at least once, when it may go again. A drain during a relay outage reads it
//! and decodes only the replies due, not every reply waiting (30 KB each, compressed);
//! a `/metrics` scrape counts the parked ones from it. A reply never tried has no entry:
//! it is due. Kept in the same transactions as the outbox.

use super::{decode_outbox, encode_outbox, err, OutboxItem, SledStore};
use castellan_judge::StoreError;
use sled::transaction::{ConflictableTransactionError, TransactionError};
use sled::Transactional;

/// The index's value for `item`; `None` for a reply that may go at once and is not
/// parked (no entry).
fn value_of(item: &OutboxItem) -> Option<[u8; 9]> {
    if !item.failed && item.not_before <= 0 {
        return None;
    }
    let mut v = [0u8; 9];
    v[..8].copy_from_slice(&item.not_before.to_be_bytes());
    v[8] = u8::from(item.failed);
    Some(v)
}

/// (not_before, parked) read back; a value of another length reads as due (decoded, then
/// judged on the reply itself).
fn read(v: &[u8]) -> Option<(i64, bool)> {
    let v: &[u8; 9] = v.try_into().ok()?;
    let not_before = i64::from_be_bytes(v[..8].try_into().ok()?);
    Some((not_before, v[8] != 0))
}

/// How many replies wait in the outbox, and how many of them are parked.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct OutboxCounts {
    pub waiting: usize,
    pub parked: usize,
}

impl SledStore {
    /// Store `item` again (a failed try: its attempts, when it may go again, parked or
    /// not), with its retry entry, in one transaction, flushed.
    pub fn update_outbox(&self, key: u64, item: &OutboxItem) -> Result<(), StoreError> {
        self.rewrite_outbox(key, item)?;
        self.flush()
    }

    /// `item` stored again under `key` with its retry entry (or none), in one transaction.
    fn rewrite_outbox(&self, key: u64, item: &OutboxItem) -> Result<(), StoreError> {
        let encoded = encode_outbox(item)?;
        let retry = value_of(item);
        (&self.outbox, &self.outbox_retry)
            .transaction(|(o, r)| {
                o.insert(&key.to_be_bytes(), encoded.as_slice())?;
                match retry {
                    Some(v) => r.insert(&key.to_be_bytes(), &v)?,
                    None => r.remove(&key.to_be_bytes())?,
                };
                Ok::<(), ConflictableTransactionError<()>>(())
            })
            .map_err(|e: TransactionError<()>| err(format!("{e:?}")))
    }

    /// The replies that may go at `now`, in key order, each decoded unless `skip(key)`
    /// (then `None`: a reply written ahead needs only its key). Replies held back or
    /// parked by their retry entry are left out without being decoded.
    pub fn outbox_due(
        &self,
        now: i64,
        skip: impl Fn(u64) -> bool,
    ) -> Result<Vec<(u64, Option<OutboxItem>)>, StoreError> {
        let held = |k: &[u8]| {
            Ok(self
                .outbox_retry
                .get(k)
                .map_err(err)?
                .and_then(|r| read(&r))
                .is_some_and(|(not_before, parked)| parked || not_before > now))
        };
        self.outbox_listed(held, skip)
    }

    /// The outbox counted without decoding a reply.
    pub fn outbox_counts(&self) -> Result<OutboxCounts, StoreError> {
        let mut parked = 0;
        for v in self.outbox_retry.iter().values() {
            if read(&v.map_err(err)?).is_some_and(|(_, parked)| parked) {
                parked += 1;
            }
        }
        let total = self.outbox.len();
        Ok(OutboxCounts {
            waiting: total.saturating_sub(parked),
            parked,
        })
    }

    /// Give every parked reply a fresh start (`castellan outbox --retry`, once the relay
    /// or the address is fixed). Returns how many.
    pub fn retry_parked(&self) -> Result<usize, StoreError> {
        let mut n = 0;
        for (key, mut item) in self.outbox()? {
            if item.failed {
                item.failed = false;
                item.attempts = 0;
                item.not_before = 0;
                self.rewrite_outbox(key, &item)?;
                n += 1;
            }
        }
        self.flush()?;
        Ok(n)
    }

    /// Build the retry index from the replies themselves (each decoded once): a database
    /// written before it was kept, or a restored backup that did not bring it. Returns
    /// how many replies have an entry.
    pub(super) fn index_retries(&self) -> Result<usize, StoreError> {
        self.outbox_retry.clear().map_err(err)?;
        let mut n = 0;
        for kv in self.outbox.iter() {
            let (k, v) = kv.map_err(err)?;
            // A reply that cannot be read is left to the drain, which says so.
            let Ok(item) = decode_outbox(&v) else {
                continue;
            };
            if let Some(r) = value_of(&item) {
                self.outbox_retry.insert(k, &r).map_err(err)?;
                n += 1;
            }
        }
        Ok(n)
    }
}
