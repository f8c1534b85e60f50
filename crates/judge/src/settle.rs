//! After a handling: bots play, ends are recorded, deadlines reset, reports sent.

use crate::model::*;
use crate::run::*;

impl Run<'_> {
    /// After a handling: bots play their seats, finished games are closed, deadlines
    /// are reset, and every game that moved is reported.
    pub(crate) fn settle_all(&mut self) -> Result<(), StoreError> {
        let ids: Vec<String> = self.games.keys().cloned().collect();
        for id in ids {
            let Some(mut g) = self.games.remove(&id) else {
                continue;
            };
            if g.dirty {
                self.settle(&mut g);
            }
            self.games.insert(id, g);
        }
        Ok(())
    }

    pub(crate) fn settle(&mut self, g: &mut Loaded) {
        let id = g.rec.id.clone();
        let now = self.now();
        let Some(session) = g.session.as_mut() else {
            return;
        };
        if g.rec.status == Status::Running {
            // Bot stand-ins answer at once.
            for _ in 0..100_000 {
                if session.outcome().is_some() {
                    break;
                }
                let Some(seat) = session
                    .awaiting()
                    .into_iter()
                    .find(|s| g.rec.seats.get(*s).is_some_and(|x| x.bot))
                else {
                    break;
                };
                if session.play_bot(seat).is_err() && session.play_default(seat).is_err() {
                    self.log.push(LogLine {
                        game: id.clone(),
                        at: now,
                        kind: "error".into(),
                        text: format!("bot and default both refused for seat {seat}"),
                    });
                    break;
                }
            }
            if let Some(o) = session.outcome() {
                g.rec.status = Status::Finished;
                g.rec.deadline = None;
                let winners: Vec<String> =
                    o.winners.iter().map(|w| seat_name(&g.rec, *w)).collect();
                g.rec.ended = Some(if winners.is_empty() {
                    format!("a draw ({})", o.reason)
                } else {
                    format!("{} won ({})", winners.join(" and "), o.reason)
                });
            } else {
                let hl = session.history_len();
                let awaiting = session.awaiting();
                // A new turn or phase: a seat is awaited that was not. A seat that sends
                // part of its turn, or one of several in a simultaneous phase, does not
                // move the deadline.
                let new_phase = awaiting
                    .iter()
                    .any(|s| !g.rec.deadline_awaiting.contains(s));
                g.rec.deadline_awaiting = awaiting;
                if g.rec.deadline.is_none() || new_phase {
                    let pending = session.pending(castellan_engine::Lang::En);
                    let hours = pending
                        .iter()
                        .map(|p| g.rec.deadlines.hours_for(p.kind.as_str()))
                        .max()
                        .unwrap_or(g.rec.deadlines.hours);
                    let mut d = now + i64::from(hours) * 3600;
                    for s in session.awaiting() {
                        if let Some(v) = g.rec.seats.get(s).and_then(|x| x.vacation_until) {
                            d = d.max(v);
                        }
                    }
                    g.rec.deadline = Some(d);
                    g.rec.deadline_history = hl;
                    g.rec.reminded.clear();
                }
            }
        }
        let moved = session.history_len() > g.rec.reported || g.force_private;
        let finished_now = g.rec.status == Status::Finished && !g.rec.final_sent;
        // One report a turn: while the same seats are awaited (a player sends their turn
        // in several mails) and nobody learnt anything privately, the report waits and
        // gathers everything until the turn passes. The sender has their reply.
        let awaiting = session.awaiting();
        let mid_turn = g.rec.status == Status::Running
            && !g.force_private
            && awaiting == g.rec.reported_awaiting
            && session
                .narrate_since(g.rec.reported, castellan_engine::Lang::En)
                .private
                .is_empty();
        if finished_now || (moved && !mid_turn) {
            self.report(g);
            g.rec.reported_awaiting = awaiting;
        }
        if let Some(s) = g.session.as_ref() {
            match s.to_json() {
                Ok(v) => g.rec.table = Some(v),
                Err(e) => self.log.push(LogLine {
                    game: id,
                    at: now,
                    kind: "error".into(),
                    text: format!("cannot store the game: {e}"),
                }),
            }
        }
    }
}
