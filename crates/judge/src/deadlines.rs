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

/// What a game's deadline asks of the tick at a given time.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Due {
    /// Due by the store's index but not by the record (an entry written before
    /// `stored::next_due` skipped a reminder that reaches nobody): nothing to do but store
    /// it again, so that the index says when the game is really due.
    NotYet,
    /// No deadline, or none near.
    Nothing,
    /// Within `reminder_hours` of the deadline (or past it, within its grace): the awaited
    /// players are reminded, each once.
    Reminder { deadline: i64 },
    /// The deadline and its grace have passed: the phase ends for every awaited seat.
    PhaseEnds,
}

impl Due {
    pub(crate) fn at(rec: &GameRecord, now: i64) -> Due {
        // Only a running game's deadline runs (the store's index lists no other).
        if rec.status != Status::Running {
            return Due::Nothing;
        }
        if crate::stored::next_due(rec).is_some_and(|t| t > now) {
            return Due::NotYet;
        }
        let Some(deadline) = rec.deadline else {
            return Due::Nothing;
        };
        let hours = |h: u32| i64::from(h) * 3600;
        let d = &rec.deadlines;
        if now >= deadline + hours(d.grace_hours) {
            Due::PhaseEnds
        } else if d.reminder_hours > 0 && now >= deadline - hours(d.reminder_hours) {
            Due::Reminder { deadline }
        } else {
            Due::Nothing
        }
    }
}

impl Run<'_> {
    /// One game's deadline: past it (and its grace), every awaited seat gets its default
    /// (or its bot); shortly before it, every awaited player is reminded once.
    pub(crate) fn tick_game(&mut self, id: &str) -> Result<(), StoreError> {
        self.with_game(id, |run, g| {
            let due = Due::at(&g.rec, run.now());
            let awaiting = match (&due, g.session.as_ref()) {
                (Due::NotYet, _) => {
                    g.keep = true;
                    return;
                }
                (Due::Nothing, _) | (_, None) => return,
                (_, Some(session)) => session.awaiting(),
            };
            for seat in awaiting {
                match due {
                    Due::PhaseEnds => run.missed(g, seat, PhaseEnd::Deadline),
                    Due::Reminder { deadline } => run.remind(g, seat, deadline),
                    Due::NotYet | Due::Nothing => {}
                }
            }
        })?;
        Ok(())
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
        let defaults = |lang| -> Vec<String> {
            session
                .pending(lang)
                .into_iter()
                .filter(|p| p.seat == seat)
                .map(|p| p.default)
                .collect()
        };
        let (lines, lines_fr) = if bot {
            (session.bot_turn(seat, 50), Vec::new())
        } else {
            (
                defaults(castellan_engine::Lang::En),
                defaults(castellan_engine::Lang::Fr),
            )
        };
        g.rec.missed.push(Missed {
            name: name.clone(),
            bot,
            lines,
            lines_fr,
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testing::{game, NOW};

    const H: i64 = 3600;

    /// castle-1: its deadline a day from `NOW`, reminders 6 h before it, 2 h of grace.
    fn due_at(now: i64, edit: impl FnOnce(&mut GameRecord)) -> Due {
        let mut rec = game("castle-1");
        edit(&mut rec);
        Due::at(&rec, now)
    }

    #[test]
    fn the_reminder_comes_within_its_hours_of_the_deadline_and_the_end_after_the_grace() {
        let deadline = NOW + 24 * H;
        assert_eq!(due_at(deadline - 6 * H - 1, |_| {}), Due::NotYet);
        assert_eq!(due_at(deadline - 6 * H, |_| {}), Due::Reminder { deadline });
        // Past the deadline, within its grace, reminders still go (once each: `remind`).
        assert_eq!(due_at(deadline + H, |_| {}), Due::Reminder { deadline });
        assert_eq!(due_at(deadline + 2 * H, |_| {}), Due::PhaseEnds);
    }

    #[test]
    fn no_reminder_when_none_is_asked_or_one_went_and_no_end_without_a_deadline() {
        let deadline = NOW + 24 * H;
        let quiet = |r: &mut GameRecord| r.deadlines.reminder_hours = 0;
        assert_eq!(due_at(deadline - H, quiet), Due::NotYet);
        let reminded = |r: &mut GameRecord| {
            r.reminded.insert(0);
        };
        assert_eq!(due_at(deadline - H, reminded), Due::NotYet);
        assert_eq!(due_at(deadline + 2 * H, reminded), Due::PhaseEnds);
        let none = |r: &mut GameRecord| r.deadline = None;
        assert_eq!(due_at(deadline + 9 * H, none), Due::Nothing);
    }

    #[test]
    fn a_paused_or_finished_game_is_never_due() {
        let late = NOW + 48 * H;
        assert_eq!(due_at(late, |r| r.status = Status::Paused), Due::Nothing);
        assert_eq!(due_at(late, |r| r.status = Status::Finished), Due::Nothing);
    }
}
