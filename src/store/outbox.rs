//! The outbox as the service reads it: replies waiting, and marked sent once the
//! transport took them.

use super::codec::decode_outbox;
use super::{err, OutboxItem, SledStore};
use castellan_judge::StoreError;
use sled::transaction::{ConflictableTransactionError, TransactionError};
use sled::Transactional;

impl SledStore {
    /// Replies waiting, oldest first, with their keys.
    pub fn outbox(&self) -> Result<Vec<(u64, OutboxItem)>, StoreError> {
        Ok(self
            .outbox_listed(|_| Ok(false), |_| false)?
            .into_iter()
            .filter_map(|(key, item)| Some((key, item?)))
            .collect())
    }

    /// The outbox in key order, without the replies `left_out(key)` says (not decoded),
    /// each reply decoded unless `skip(key)` (None): a reply written ahead
    /// (src/serve/prestage.rs) needs only its key, not its page inflated and parsed again.
    pub(super) fn outbox_listed(
        &self,
        left_out: impl Fn(&[u8]) -> Result<bool, StoreError>,
        skip: impl Fn(u64) -> bool,
    ) -> Result<Vec<(u64, Option<OutboxItem>)>, StoreError> {
        let mut out = Vec::new();
        for kv in self.outbox.iter() {
            let (k, v) = kv.map_err(err)?;
            if left_out(&k)? {
                continue;
            }
            let key = u64::from_be_bytes(k.as_ref().try_into().map_err(err)?);
            let item = if skip(key) {
                None
            } else {
                Some(decode_outbox(&v)?)
            };
            out.push((key, item));
        }
        Ok(out)
    }

    /// One reply of the outbox, if it is there.
    pub fn outbox_item(&self, key: u64) -> Result<Option<OutboxItem>, StoreError> {
        self.outbox
            .get(key.to_be_bytes())
            .map_err(err)?
            .map(|v| decode_outbox(&v))
            .transpose()
    }

    /// A reply went out: drop it from the outbox, remember its Message-ID. Not flushed
    /// here: the caller flushes once per batch (losing this mark in a crash only resends
    /// the reply, with the same Message-ID, which receivers and the `sent` tree recognise).
    pub fn mark_sent(&self, key: u64, message_id: &str, now: i64) -> Result<(), StoreError> {
        self.mark_sent_all(&[(key, message_id.to_string())], now)
    }

    /// [`SledStore::mark_sent`] for a batch, in one transaction.
    pub fn mark_sent_all(&self, sent: &[(u64, String)], now: i64) -> Result<(), StoreError> {
        (&self.outbox, &self.sent, &self.outbox_retry)
            .transaction(|(o, s, r)| {
                for (key, message_id) in sent {
                    o.remove(&key.to_be_bytes())?;
                    r.remove(&key.to_be_bytes())?;
                    s.insert(message_id.as_bytes(), &now.to_be_bytes())?;
                }
                Ok::<(), ConflictableTransactionError<()>>(())
            })
            .map_err(|e: TransactionError<()>| err(format!("{e:?}")))?;
        Ok(())
    }

    /// One past the highest key in the outbox now (0 when it is empty): every reply
    /// committed so far has a key below it, every later one a key at or above it (keys
    /// only grow: `generate_id`).
    pub fn outbox_end(&self) -> Result<u64, StoreError> {
        Ok(match self.outbox.last().map_err(err)? {
            Some((k, _)) => u64::from_be_bytes(k.as_ref().try_into().map_err(err)?) + 1,
            None => 0,
        })
    }

    pub fn was_sent(&self, message_id: &str) -> Result<bool, StoreError> {
        self.sent.contains_key(message_id.as_bytes()).map_err(err)
    }
}
