//! A player's record across games: games played, finished and won, deadlines
//! met and missed, resignations, and a reliability figure in the manner of njudge's
//! "ontime ratio" (turns submitted on time / turns due; a new player, 0/0, counts as
//! perfect). Public counts only: no game's orders, hands or passwords.
//!
//! How the counts are kept: each game a handling loads is remembered as it was
//! ([`Basis`]); when the handling ends ([`Run::finish_into`]), what changed (started,
//! finished, a resignation, misses) is added to the records of the addresses concerned.
//! Deadlines met are counted where orders are accepted (`cmd/orders.rs`), once a turn a
//! game. The records go to the store with the rest of the handling, in one transaction.

use crate::model::*;
use crate::run::*;
use basis::Basis;

pub(crate) mod basis;

impl Run<'_> {
    /// The record of `address` in this handling's working set (loaded once).
    pub(crate) fn record_mut(&mut self, address: &str) -> Result<&mut PlayerRecord, StoreError> {
        let a = lower(address);
        if !self.records.contains_key(&a) {
            let r = self.store.record(&a)?.unwrap_or_else(|| PlayerRecord {
                address: a.clone(),
                ..PlayerRecord::default()
            });
            self.records.insert(a.clone(), r);
        }
        Ok(self.records.get_mut(&a).expect("just inserted"))
    }

    /// The record of `address` as stored (or as this handling has it so far).
    pub(crate) fn record_of(&self, address: &str) -> Result<PlayerRecord, StoreError> {
        let a = lower(address);
        if let Some(r) = self.records.get(&a) {
            return Ok(r.clone());
        }
        Ok(self.store.record(&a)?.unwrap_or(PlayerRecord {
            address: a,
            ..PlayerRecord::default()
        }))
    }

    /// Orders of `seat` accepted while the game awaited them, in `turn`: a turn met (once
    /// a turn a game).
    pub(crate) fn turn_met(
        &mut self,
        game: &str,
        address: &str,
        turn: u32,
    ) -> Result<(), StoreError> {
        let r = self.record_mut(address)?;
        if r.met_turns.get(game) != Some(&turn) {
            r.met_turns.insert(game.to_string(), turn);
            r.met += 1;
        }
        Ok(())
    }

    /// Add to the records what changed in each game this handling wrote.
    pub(crate) fn record_changes(&mut self) -> Result<(), StoreError> {
        let ids: Vec<String> = self
            .games
            .iter()
            .filter(|(_, g)| g.dirty)
            .map(|(id, _)| id.clone())
            .collect();
        for id in ids {
            let before = self.basis.get(&id).cloned().unwrap_or_else(Basis::new_game);
            let g = &self.games[&id];
            let bots: Vec<bool> = g.rec.seats.iter().map(|s| s.bot).collect();
            let winners: Vec<usize> = g
                .session
                .as_ref()
                .and_then(|s| s.outcome())
                .map(|o| o.winners.clone())
                .unwrap_or_default();
            for (addr, tally) in before.tally(&Basis::of(&g.rec), &bots, &winners) {
                tally.apply(self.record_mut(&addr)?, &id);
            }
        }
        Ok(())
    }
}
