//! The judge's hourly counters and marks, kept beside the senders' counters under keys no
//! address can spell (`mark_key`): failed tries and wrong tokens (auth/), the server's
//! hourly budgets and the STOP marks (optin.rs), the hard bounces of an address
//! (bounces.rs). A handling reads each from the store at
//! most once, works on it here, and hands back those it holds to be written with the rest
//! of the handling.

use crate::model::{SenderRecord, StoreError};
use crate::store::Store;
use std::collections::BTreeMap;

/// An hour, in seconds: the window every counter here counts in.
const HOUR: i64 = 3600;

/// The counters a handling read or changed, by key.
#[derive(Clone, Debug, Default)]
pub(crate) struct Counters {
    held: BTreeMap<String, SenderRecord>,
}

impl Counters {
    /// Hold `r` as this handling's own (what an earlier handling of the batch wrote).
    pub(crate) fn hold(&mut self, r: SenderRecord) {
        self.held.insert(r.address.clone(), r);
    }

    /// The counters to store.
    pub(crate) fn into_records(self) -> impl Iterator<Item = SenderRecord> {
        self.held.into_values()
    }

    /// The counter under `key` in the hour that holds `now`: one read from the store, or
    /// a new one; a counter whose hour has passed (or that is dated after `now`) starts
    /// again from zero.
    fn hourly(&self, store: &dyn Store, key: &str, now: i64) -> Result<SenderRecord, StoreError> {
        let mut r = match self.held.get(key) {
            Some(r) => r.clone(),
            None => store.sender(key)?.unwrap_or(SenderRecord {
                address: key.to_string(),
                window_start: now,
                ..Default::default()
            }),
        };
        if now - r.window_start >= HOUR || now < r.window_start {
            r.window_start = now;
            r.count = 0;
            r.warned = false;
        }
        Ok(r)
    }

    /// The failed-tries counter under `key`, this hour (held from now on).
    pub(crate) fn failures(
        &mut self,
        store: &dyn Store,
        key: &str,
        now: i64,
    ) -> Result<SenderRecord, StoreError> {
        let r = self.hourly(store, key, now)?;
        self.held.insert(key.to_string(), r.clone());
        Ok(r)
    }

    /// One more failed try under `key`: true when the count reaches `limit` now, once an
    /// hour (whoever is concerned is told once).
    pub(crate) fn count_failure(
        &mut self,
        store: &dyn Store,
        key: &str,
        limit: u32,
        now: i64,
    ) -> Result<bool, StoreError> {
        let mut r = self.hourly(store, key, now)?;
        r.count = r.count.saturating_add(1);
        let tell = r.count >= limit && !r.warned;
        r.warned |= tell;
        self.held.insert(key.to_string(), r);
        Ok(tell)
    }

    /// Spend `n` of the budget under `key` this hour (`limit` an hour): false, and
    /// nothing spent, when fewer than `n` are left.
    pub(crate) fn spend(
        &mut self,
        store: &dyn Store,
        key: &str,
        n: u32,
        limit: u32,
        now: i64,
    ) -> Result<bool, StoreError> {
        let mut r = self.hourly(store, key, now)?;
        if r.count.saturating_add(n) > limit {
            return Ok(false);
        }
        r.count += n;
        self.held.insert(key.to_string(), r);
        Ok(true)
    }

    /// Is the mark under `key` set? A mark has no hour: it stays until it is cleared.
    pub(crate) fn mark(&self, store: &dyn Store, key: &str) -> Result<bool, StoreError> {
        if let Some(r) = self.held.get(key) {
            return Ok(r.count > 0);
        }
        Ok(store.sender(key)?.is_some_and(|r| r.count > 0))
    }

    /// The tally under `key`: a mark that counts (the hard bounces of an address), with
    /// no hour; 0 when none is kept.
    pub(crate) fn tally(&self, store: &dyn Store, key: &str) -> Result<u32, StoreError> {
        if let Some(r) = self.held.get(key) {
            return Ok(r.count);
        }
        Ok(store.sender(key)?.map_or(0, |r| r.count))
    }

    /// The tally `key` and when it last grew (seconds since 1970), if it ever did.
    pub(crate) fn tally_at(
        &self,
        store: &dyn Store,
        key: &str,
    ) -> Result<Option<(u32, i64)>, StoreError> {
        if let Some(r) = self.held.get(key) {
            return Ok(Some((r.count, r.window_start)));
        }
        Ok(store.sender(key)?.map(|r| (r.count, r.window_start)))
    }

    /// One more under the tally `key`: its new count.
    pub(crate) fn add_to_tally(
        &mut self,
        store: &dyn Store,
        key: &str,
        now: i64,
    ) -> Result<u32, StoreError> {
        let count = self.tally(store, key)?.saturating_add(1);
        let r = SenderRecord {
            address: key.to_string(),
            window_start: now,
            count,
            ..Default::default()
        };
        self.held.insert(key.to_string(), r);
        Ok(count)
    }

    /// Set or clear the mark under `key` (a tally cleared counts from 0 again).
    pub(crate) fn set_mark(&mut self, key: String, on: bool, now: i64) {
        let r = SenderRecord {
            address: key.clone(),
            window_start: now,
            count: u32::from(on),
            ..Default::default()
        };
        self.held.insert(key, r);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::mark_key;
    use crate::store::{Changes, MemoryStore};

    fn stored(r: SenderRecord) -> MemoryStore {
        let store = MemoryStore::new();
        let changes = Changes {
            senders: vec![r],
            ..Default::default()
        };
        store.commit(&changes).unwrap();
        store
    }

    #[test]
    fn a_failure_count_tells_once_when_it_reaches_its_limit() {
        let store = MemoryStore::new();
        let key = mark_key("failed-tries", "castle-1/seat-0");
        let mut c = Counters::default();
        let tells: Vec<bool> = (0..5)
            .map(|_| c.count_failure(&store, &key, 3, 1_000).unwrap())
            .collect();
        assert_eq!(tells, [false, false, true, false, false]);
        assert_eq!(c.failures(&store, &key, 1_000).unwrap().count, 5);
    }

    #[test]
    fn a_stored_count_goes_on_within_its_hour_and_starts_again_after_it() {
        let key = mark_key("failed-tries", "castle-1/gm");
        let store = stored(SenderRecord {
            address: key.clone(),
            window_start: 10_000,
            count: 9,
            warned: false,
            ..Default::default()
        });
        let mut c = Counters::default();
        assert!(c
            .count_failure(&store, &key, 10, 10_000 + HOUR - 1)
            .unwrap());
        let mut later = Counters::default();
        assert!(!later
            .count_failure(&store, &key, 10, 10_000 + HOUR)
            .unwrap());
        assert_eq!(
            later.failures(&store, &key, 10_000 + HOUR).unwrap().count,
            1
        );
        // A counter dated after now (a clock set back) starts again too.
        let mut back = Counters::default();
        assert_eq!(back.failures(&store, &key, 9_000).unwrap().count, 0);
    }

    #[test]
    fn a_warned_counter_is_not_told_again_in_its_hour() {
        let key = mark_key("failed-tokens", "bob@example.org");
        let store = stored(SenderRecord {
            address: key.clone(),
            window_start: 50_000,
            count: 20,
            warned: true,
            ..Default::default()
        });
        let mut c = Counters::default();
        assert!(!c.count_failure(&store, &key, 20, 50_100).unwrap());
        assert!(c
            .count_failure(&store, &key, 20, 50_000 + HOUR)
            .is_ok_and(|t| !t));
    }

    #[test]
    fn a_budget_refuses_what_it_cannot_pay_and_spends_nothing_then() {
        let store = MemoryStore::new();
        let key = mark_key("budget", "new-games");
        let mut c = Counters::default();
        assert!(c.spend(&store, &key, 3, 4, 0).unwrap());
        assert!(!c.spend(&store, &key, 2, 4, 10).unwrap());
        assert!(c.spend(&store, &key, 1, 4, 20).unwrap());
        assert!(!c.spend(&store, &key, 1, 4, 30).unwrap());
        // The next hour has the whole budget again.
        assert!(c.spend(&store, &key, 4, 4, HOUR).unwrap());
        let kept: Vec<_> = c.into_records().collect();
        assert_eq!(kept.len(), 1);
        assert_eq!((kept[0].count, kept[0].window_start), (4, HOUR));
    }

    #[test]
    fn a_mark_is_read_from_the_store_until_this_handling_sets_it() {
        let key = mark_key("stop", "carol@example.org");
        let store = stored(SenderRecord {
            address: key.clone(),
            window_start: 0,
            count: 1,
            ..Default::default()
        });
        let mut c = Counters::default();
        assert!(c.mark(&store, &key).unwrap());
        assert!(!c
            .mark(&store, &mark_key("stop", "dan@example.org"))
            .unwrap());
        c.set_mark(key.clone(), false, 5 * HOUR);
        assert!(!c.mark(&store, &key).unwrap());
        // Marks have no hour: one set long ago still holds.
        c.set_mark(key.clone(), true, 0);
        assert!(c.mark(&store, &key).unwrap());
    }
}
