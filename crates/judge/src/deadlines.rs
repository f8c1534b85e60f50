//! The tick: reminders before a deadline, defaults and bot stand-ins after it.

use crate::clock::{format_long_zoned, format_short_zoned};
use crate::mails::*;
use crate::model::*;
use crate::run::*;

/// Why a phase ends before every seat answered.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum PhaseEnd {
    /// Its deadline (and grace) passed.
    Deadline,
    /// The game master's PROCESS.
    Process,
}

/// A reminder's context (`templates/LANG/reminder.txt`).
#[derive(serde::Serialize)]
struct Reminder {
    game_id: String,
    name: String,
    deadline: String,
    deadline_short: String,
    prompts: Vec<PromptCtx>,
}

impl Run<'_> {
    /// One game's deadline: past it (and its grace), every awaited seat gets its default
    /// (or its bot); shortly before it, every awaited player is reminded once.
    pub(crate) fn tick_game(&mut self, id: &str) -> Result<(), StoreError> {
        let Some(done) = self.with_game(id, |run, g| -> Result<(), StoreError> {
            let now = run.now();
            // Due by the store's index but not by the record (an entry written before
            // `stored::next_due` skipped a reminder that reaches nobody): nothing to do but
            // store it again, so that the index says when the game is really due.
            if crate::stored::next_due(&g.rec).is_some_and(|t| t > now) {
                g.keep = true;
                return Ok(());
            }
            let (Some(deadline), Some(session)) = (g.rec.deadline, g.session.as_ref()) else {
                return Ok(());
            };
            let awaiting = session.awaiting();
            let grace = i64::from(g.rec.deadlines.grace_hours) * 3600;
            if now >= deadline + grace {
                for seat in awaiting {
                    run.missed(g, seat, PhaseEnd::Deadline);
                }
            } else if g.rec.deadlines.reminder_hours > 0
                && now >= deadline - i64::from(g.rec.deadlines.reminder_hours) * 3600
            {
                for seat in awaiting {
                    run.remind(g, seat, deadline);
                }
            }
            Ok(())
        })?
        else {
            return Ok(());
        };
        done
    }

    /// The phase ends for a seat the game still awaits, for `why`: the rules' default is
    /// played for it (its bot's orders if a bot plays it), and the next report tells the
    /// table. A deadline's miss counts against the player; `max_misses` in a row put the
    /// seat in civil disorder (docs/rules/absence.md). PROCESS is never the player's miss.
    pub(crate) fn missed(&mut self, g: &mut Loaded, seat: usize, why: PhaseEnd) {
        let id = g.rec.id.clone();
        let max = self.j.config.max_misses.max(1);
        let Some(session) = g.session.as_mut() else {
            return;
        };
        if !session.awaiting().contains(&seat) {
            return;
        }
        g.forced = true;
        let s = &mut g.rec.seats[seat];
        let processed = why == PhaseEnd::Process;
        if !processed {
            s.misses += 1;
        }
        let name = s.name.clone();
        let newly_disorder = !processed && !s.bot && !s.disorder && s.misses >= max;
        if newly_disorder {
            s.disorder = true;
        }
        let bot = s.bot;
        let addr = s.address.clone();
        let lines = if bot {
            session.bot_turn(seat, 50)
        } else {
            session
                .pending(castellan_engine::Lang::En)
                .into_iter()
                .filter(|p| p.seat == seat)
                .map(|p| p.default)
                .collect()
        };
        g.rec.missed.push(Missed {
            name: name.clone(),
            bot,
            lines,
            processed,
            disorder: newly_disorder,
        });
        let r = if bot {
            session
                .play_bot(seat)
                .or_else(|_| session.play_default(seat))
        } else {
            session.play_default(seat)
        };
        if let Err(e) = r {
            self.glog(&id, "error", format!("default for seat {seat} failed: {e}"));
        }
        g.dirty = true;
        let (kind, what) = match (processed, bot) {
            (true, _) => ("processed", "played by PROCESS"),
            (false, true) => ("bot", "missed the deadline"),
            (false, false) => ("default", "missed the deadline"),
        };
        self.glog(&id, kind, format!("seat {seat} ({name}) {what}"));
        if newly_disorder {
            let mut to = vec![g.rec.gm.clone()];
            if let Some(a) = addr {
                if !to.contains(&a) {
                    to.push(a);
                }
            }
            let rec = g.rec.clone();
            self.notify(&rec, &to, Event::CivilDisorder { name, misses: max });
        }
    }

    /// Remind an awaited player (once per deadline) in their language.
    fn remind(&mut self, g: &mut Loaded, seat: usize, deadline: i64) {
        let s = &g.rec.seats[seat];
        if g.rec.reminded.contains(&seat) || s.bot {
            return;
        }
        let (Some(addr), Some(session)) = (s.address.clone(), g.session.as_ref()) else {
            return;
        };
        let lang = self.seat_lang(&g.rec, seat);
        let ctx = Reminder {
            game_id: g.rec.id.clone(),
            name: s.name.clone(),
            deadline: format_long_zoned(deadline, lang, g.rec.zone_of(&addr)),
            deadline_short: format_short_zoned(deadline, lang, g.rec.zone_of(&addr)),
            prompts: prompts_of(session.as_ref(), seat, lang),
        };
        let token = s.token.clone();
        let id = g.rec.id.clone();
        self.send(&addr, lang, "reminder", &ctx, &id, Some(&token));
        g.rec.reminded.insert(seat);
        g.dirty = true;
    }
}
