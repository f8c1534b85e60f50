//! The tick: reminders before a deadline, defaults and bot stand-ins after it.

use crate::clock::{format_long, format_short};
use crate::mails::*;
use crate::model::*;
use crate::run::*;
use serde_json::json;

impl Run<'_> {
    // ---------------------------------------------------------------- deadlines

    pub(crate) fn tick_game(&mut self, id: &str) -> Result<(), StoreError> {
        let Some(mut g) = self.take(id)? else {
            return Ok(());
        };
        let now = self.now();
        let (Some(deadline), Some(session)) = (g.rec.deadline, g.session.as_ref()) else {
            self.put(g);
            return Ok(());
        };
        let awaiting = session.awaiting();
        let grace = i64::from(g.rec.deadlines.grace_hours) * 3600;
        if now >= deadline + grace {
            let max = self.j.config.max_misses.max(1);
            for seat in awaiting {
                let Some(session) = g.session.as_mut() else {
                    break;
                };
                if !session.awaiting().contains(&seat) {
                    continue;
                }
                let s = &mut g.rec.seats[seat];
                s.misses += 1;
                let name = s.name.clone();
                let newly_bot = !s.bot && s.misses >= max;
                if newly_bot {
                    s.bot = true;
                }
                let bot = s.bot;
                let addr = s.address.clone();
                let r = if bot {
                    session
                        .play_bot(seat)
                        .or_else(|_| session.play_default(seat))
                } else {
                    session.play_default(seat)
                };
                if let Err(e) = r {
                    self.glog(id, "error", format!("default for seat {seat} failed: {e}"));
                }
                g.dirty = true;
                self.glog(
                    id,
                    if bot { "bot" } else { "default" },
                    format!("seat {seat} ({name}) missed the deadline"),
                );
                if newly_bot {
                    let text = format!(
                        "{name} missed {max} deadline(s) in a row, so a bot now plays the seat. \
                         The player takes it back by sending orders; the game master may \
                         REPLACE the seat with another player."
                    );
                    let gm = g.rec.gm.clone();
                    let mut to = vec![gm];
                    if let Some(a) = addr {
                        if !to.contains(&a) {
                            to.push(a);
                        }
                    }
                    for a in to {
                        let body = self.render(
                            "notice.txt",
                            &json!({"game_id": id, "title": format!("a bot stands in for {name}"), "text": text}),
                        );
                        self.mail(
                            &a,
                            format!("[{id}] A bot stands in for {name}"),
                            body,
                            Some(id),
                        );
                    }
                }
            }
        } else if g.rec.deadlines.reminder_hours > 0
            && now >= deadline - i64::from(g.rec.deadlines.reminder_hours) * 3600
        {
            for seat in awaiting {
                let s = &g.rec.seats[seat];
                if g.rec.reminded.contains(&seat) || s.bot {
                    continue;
                }
                let Some(addr) = s.address.clone() else {
                    continue;
                };
                let prompts: Vec<_> = session
                    .pending(castellan_engine::Lang::En)
                    .iter()
                    .filter(|p| p.seat == seat)
                    .map(prompt_json)
                    .collect();
                let body = self.render(
                    "reminder.txt",
                    &json!({"game_id": id, "name": s.name, "deadline": format_long(deadline), "prompts": prompts}),
                );
                self.mail(
                    &addr,
                    format!(
                        "[{id} #{}] Reminder: your orders are due {}",
                        s.token,
                        format_short(deadline)
                    ),
                    body,
                    Some(id),
                );
                g.rec.reminded.insert(seat);
                g.dirty = true;
            }
        }
        self.put(g);
        Ok(())
    }
}
