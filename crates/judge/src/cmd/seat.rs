//! RESIGN and VACATION: a player's commands about their own seat.

use crate::clock::format_long;
use crate::cmd::*;
use crate::mails::Event;
use crate::model::*;
use crate::run::*;
use castellan_engine::Lang;

impl Run<'_> {
    pub(crate) fn seat_command(
        &mut self,
        ctx: &Ctx,
        from: &str,
        cmd: Command,
    ) -> Result<(), StoreError> {
        let what = if matches!(cmd, Command::Resign) {
            "RESIGN"
        } else {
            "VACATION"
        };
        let Some((mut g, who)) = self.authed(ctx, from, what)? else {
            return Ok(());
        };
        let id = g.rec.id.clone();
        let Some(seat) = who.seat else {
            self.section(
                format!("{what} refused"),
                format!("You have no seat in {id}."),
            );
            self.put(g);
            return Ok(());
        };
        if !matches!(
            g.rec.status,
            Status::Running | Status::Paused | Status::Forming
        ) {
            self.section(format!("{what} refused"), format!("{id} is over."));
            self.put(g);
            return Ok(());
        }
        match cmd {
            Command::Resign => self.resign(&mut g, seat),
            Command::Vacation(v) => self.vacation(&mut g, seat, v),
            _ => {}
        }
        self.put(g);
        Ok(())
    }

    /// SET LANGUAGE: a player's mails in this language from now on; the game master's
    /// sets the game's (observers, the game master, seats that chose none).
    pub(crate) fn set_language(
        &mut self,
        ctx: &Ctx,
        from: &str,
        lang: Lang,
    ) -> Result<(), StoreError> {
        let Some((mut g, who)) = self.authed(ctx, from, "SET LANGUAGE")? else {
            return Ok(());
        };
        let id = g.rec.id.clone();
        match who.seat {
            Some(s) => g.rec.seats[s].language = Some(lang),
            None => g.rec.language = Some(lang),
        }
        g.dirty = true;
        let text = match (lang, who.seat) {
            (Lang::En, Some(_)) => "Your mails of this game are in English from now on.",
            (Lang::Fr, Some(_)) => "Vos courriels de cette partie sont en français désormais.",
            (Lang::En, None) => "The game's mails are in English from now on (players who chose a language keep theirs).",
            (Lang::Fr, None) => "Les courriels de la partie sont en français désormais (les joueurs qui ont choisi une langue la gardent).",
        };
        self.section(format!("SET LANGUAGE {id}"), text);
        self.glog(&id, "language", format!("{from}: {}", lang.code()));
        self.put(g);
        Ok(())
    }

    /// RESIGN: before the start the seat opens again; after it, a bot plays it to the end.
    fn resign(&mut self, g: &mut Loaded, seat: usize) {
        let id = g.rec.id.clone();
        let name = g.rec.seats[seat].name.clone();
        if g.rec.status == Status::Forming {
            let s = &mut g.rec.seats[seat];
            s.address = None;
            s.name = format!("Seat {}", seat + 1);
            self.section(format!("RESIGN {id}"), "Your seat is open again.");
        } else {
            let s = &mut g.rec.seats[seat];
            s.resigned = true;
            s.bot = true;
            self.section(
                format!("RESIGN {id}"),
                "You resigned: a bot plays your seat to the end. You still receive the public reports.",
            );
            let to = Self::recipients(&g.rec);
            let rec = g.rec.clone();
            self.notify(&rec, &to, Event::Resigned { name: name.clone() });
        }
        g.dirty = true;
        self.glog(&id, "resign", name);
    }

    /// VACATION days | OFF: no deadline waiting for the seat ends before the vacation does.
    fn vacation(&mut self, g: &mut Loaded, seat: usize, v: Vacation) {
        let id = g.rec.id.clone();
        let d = match v {
            Vacation::Off => {
                g.rec.seats[seat].vacation_until = None;
                g.dirty = true;
                self.section(
                    format!("VACATION {id}"),
                    "Vacation over: normal deadlines again.",
                );
                return;
            }
            Vacation::Days(d) => d,
        };
        let limit = self.j.config.vacation_limit_days;
        let used = g.rec.seats[seat].vacation_days;
        if used + d > limit {
            self.section(
                "VACATION refused",
                format!(
                    "VACATION {d}: you have {} vacation day(s) left in {id} (out of {limit}); write: VACATION 3, or VACATION OFF",
                    limit.saturating_sub(used)
                ),
            );
            return;
        }
        let until = self.now() + i64::from(d) * 86_400;
        let s = &mut g.rec.seats[seat];
        s.vacation_until = Some(until);
        s.vacation_days += d;
        let awaited = g
            .session
            .as_ref()
            .is_some_and(|x| x.awaiting().contains(&seat));
        if let (true, Some(dl)) = (awaited, g.rec.deadline) {
            if dl < until {
                g.rec.deadline = Some(until);
                g.rec.reminded.clear();
            }
        }
        g.dirty = true;
        self.section(
            format!("VACATION {id}"),
            format!(
                "On vacation until {}: no deadline waiting for you ends before then. {} of your {limit} vacation days are left.",
                format_long(until),
                limit - used - d
            ),
        );
        self.glog(&id, "vacation", format!("seat {seat}: {d} days"));
    }
}

/// VACATION's argument.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Vacation {
    Days(u32),
    Off,
}

/// VACATION days | OFF
pub(crate) fn parse_vacation(a: &Args) -> Result<Command, CmdError> {
    match a.words.as_slice() {
        [off] if off.eq_ignore_ascii_case("off") || off.eq_ignore_ascii_case("non") => {
            Ok(Command::Vacation(Vacation::Off))
        }
        [d] => match d.parse::<u32>() {
            Ok(d) if d >= 1 => Ok(Command::Vacation(Vacation::Days(d))),
            _ => Err(refuse(
                format!("VACATION {d}: write a number of days from 1, or OFF"),
                "write: VACATION 5",
            )),
        },
        _ => Err(refuse(
            "VACATION takes a number of days, or OFF",
            "write: VACATION 5",
        )),
    }
}
