//! RESIGN and VACATION: a player's commands about their own seat.

use crate::clock::format_long_in;
use crate::cmd::*;
use crate::mails::Event;
use crate::model::*;
use crate::run::*;
use castellan_engine::Lang;

/// What RESIGN, VACATION, SET LANGUAGE and SET FORMAT answer
/// (templates/LANG/answers/seat.txt).
#[derive(Clone, Debug, serde::Serialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub(crate) enum SeatAnswer {
    /// `command`: "resign" or "vacation".
    NoSeat {
        command: String,
        game: String,
    },
    Over {
        command: String,
        game: String,
    },
    Reopened {
        game: String,
    },
    Resigned {
        game: String,
    },
    VacationOff {
        game: String,
    },
    VacationTooLong {
        game: String,
        asked: u32,
        left: u32,
        limit: u32,
    },
    OnVacation {
        game: String,
        until: String,
        left: u32,
        limit: u32,
    },
    /// `whole_game`: the game master set the game's language.
    Language {
        game: String,
        language: &'static str,
        whole_game: bool,
    },
    /// `format`: "text" or "html".
    Format {
        game: String,
        format: MailFormat,
    },
    /// `map`: "changes" or "full".
    Map {
        game: String,
        map: MapDetail,
    },
    /// `reports`: "turn", "round" or "none".
    Reports {
        game: String,
        reports: Reports,
    },
    /// SET TIMEZONE: the zone, and the deadline shown in it.
    TimeZone {
        game: String,
        zone: String,
        deadline: Option<String>,
    },
}

/// TURN, ROUND or NONE (TOUR, MANCHE, AUCUN in French), any case.
pub(crate) fn parse_reports(word: &str) -> Option<Command> {
    match word.to_uppercase().as_str() {
        "TURN" | "TOUR" => Some(Command::Reports(Reports::Turn)),
        "ROUND" | "MANCHE" => Some(Command::Reports(Reports::Round)),
        "NONE" | "AUCUN" => Some(Command::Reports(Reports::None)),
        _ => None,
    }
}

/// CHANGES or FULL (CHANGEMENTS, ENTIÈRE in French), any case.
pub(crate) fn parse_map(word: &str) -> Option<Command> {
    match word.to_uppercase().as_str() {
        "CHANGES" | "CHANGEMENTS" => Some(Command::MapDetail(MapDetail::Changes)),
        "FULL" | "ENTIÈRE" | "ENTIERE" => Some(Command::MapDetail(MapDetail::Full)),
        _ => None,
    }
}

/// TEXT or HTML (TEXTE in French), any case.
pub(crate) fn parse_format(word: &str) -> Option<Command> {
    match word.to_uppercase().as_str() {
        "TEXT" | "TEXTE" => Some(Command::Format(MailFormat::Text)),
        "HTML" => Some(Command::Format(MailFormat::Html)),
        _ => None,
    }
}

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
        self.authed(ctx, from, what, |run, g, who| {
            let id = g.rec.id.clone();
            let command = what.to_lowercase();
            let lang = run.addr_lang(&g.rec, from);
            let Some(seat) = who.seat else {
                run.answer(lang, "seat", &SeatAnswer::NoSeat { command, game: id });
                return;
            };
            if !matches!(
                g.rec.status,
                Status::Running | Status::Paused | Status::Forming
            ) {
                run.answer(lang, "seat", &SeatAnswer::Over { command, game: id });
                return;
            }
            match cmd {
                Command::Resign => run.resign(g, seat),
                Command::Vacation(v) => run.vacation(g, seat, v),
                _ => {}
            }
        })?;
        Ok(())
    }

    /// SET LANGUAGE: a player's mails in this language from now on; the game master's
    /// sets the game's: every mail of the game (welcomes, reports, notices, the game
    /// master's own) but those of seats that chose their own. A game master who also holds
    /// a seat sets both.
    pub(crate) fn set_language(
        &mut self,
        ctx: &Ctx,
        from: &str,
        lang: Lang,
    ) -> Result<(), StoreError> {
        self.authed(ctx, from, "SET LANGUAGE", |run, g, who| {
            let id = g.rec.id.clone();
            let whole_game = who.gm || who.seat.is_none();
            if let Some(s) = who.seat {
                g.rec.seats[s].language = Some(lang);
            }
            if whole_game {
                g.rec.language = Some(lang);
            }
            g.dirty = true;
            let answer = SeatAnswer::Language {
                game: id.clone(),
                language: lang.code(),
                whole_game,
            };
            run.answer(lang, "seat", &answer);
            run.glog(&id, "language", format!("{from}: {}", lang.code()));
        })?;
        Ok(())
    }

    /// SET FORMAT: this seat's reports as text only, or with an HTML part and the board's
    /// picture. Only a seat has a format (observers and the game master get the picture).
    pub(crate) fn set_format(
        &mut self,
        ctx: &Ctx,
        from: &str,
        format: MailFormat,
    ) -> Result<(), StoreError> {
        self.authed(ctx, from, "SET FORMAT", |run, g, who| {
            let id = g.rec.id.clone();
            let lang = run.addr_lang(&g.rec, from);
            let Some(seat) = who.seat else {
                let command = "set format".to_string();
                run.answer(lang, "seat", &SeatAnswer::NoSeat { command, game: id });
                return;
            };
            g.rec.seats[seat].format = format;
            g.dirty = true;
            let answer = SeatAnswer::Format {
                game: id.clone(),
                format,
            };
            run.answer(lang, "seat", &answer);
            run.glog(&id, "format", format!("{from}: {format:?}"));
        })?;
        Ok(())
    }

    /// SET REPORTS: how often this reader (a seat, the game master, or an observer) gets
    /// the game's reports. An observer needs no password: observing takes none, and the
    /// most a forger could do is what OBSERVE OFF already allows.
    pub(crate) fn set_reports(
        &mut self,
        ctx: &Ctx,
        from: &str,
        reports: Reports,
    ) -> Result<(), StoreError> {
        self.reader_setting(ctx, from, "SET REPORTS", |run, g| {
            let game = g.rec.id.clone();
            run.note_reports(g, from, reports);
            let lang = run.addr_lang(&g.rec, from);
            run.answer(lang, "seat", &SeatAnswer::Reports { game, reports });
        })
    }

    /// SET TIMEZONE: this reader's deadlines in their zone, UTC beside. Who
    /// may set it: as SET REPORTS.
    pub(crate) fn set_zone(
        &mut self,
        ctx: &Ctx,
        from: &str,
        zone: String,
    ) -> Result<(), StoreError> {
        self.reader_setting(ctx, from, "SET TIMEZONE", |run, g| {
            let a = lower(from);
            if zone == "UTC" {
                g.rec.zones.remove(&a);
            } else {
                g.rec.zones.insert(a, zone.clone());
            }
            g.dirty = true;
            let lang = run.addr_lang(&g.rec, from);
            let deadline = g
                .rec
                .deadline
                .map(|d| crate::clock::format_long_zoned(d, lang, g.rec.zone_of(from)));
            let game = g.rec.id.clone();
            run.glog(&game, "timezone", format!("{from}: {zone}"));
            run.answer(
                lang,
                "seat",
                &SeatAnswer::TimeZone {
                    game,
                    zone,
                    deadline,
                },
            );
        })
    }

    /// A reader's own setting on the game of the mail's context: an observer's needs no
    /// password, as observing takes none (and the writer neither plays nor runs the game);
    /// anyone else's is authenticated.
    fn reader_setting(
        &mut self,
        ctx: &Ctx,
        from: &str,
        what: &str,
        work: impl FnOnce(&mut Self, &mut Loaded),
    ) -> Result<(), StoreError> {
        let Some(id) = ctx.game.clone() else {
            return self
                .authed(ctx, from, what, |run, g, _| work(run, g))
                .map(drop);
        };
        let observer = self.game(&id)?.is_some_and(|g| {
            g.rec.observers.iter().any(|o| lower(o) == from)
                && g.rec.seat_of(from).is_none()
                && lower(&g.rec.gm) != from
        });
        if observer {
            self.with_game(&id, work)?;
        } else {
            self.authed(ctx, from, what, |run, g, _| work(run, g))?;
        }
        Ok(())
    }

    fn note_reports(&mut self, g: &mut Loaded, from: &str, reports: Reports) {
        let a = lower(from);
        if reports == Reports::Turn {
            g.rec.reports.remove(&a);
        } else {
            g.rec.reports.insert(a, reports);
        }
        g.dirty = true;
        let id = g.rec.id.clone();
        self.glog(&id, "reports", format!("{from}: {reports:?}"));
    }

    /// SET MAP: this seat's reports show what changed on the map, or the whole map.
    pub(crate) fn set_map(
        &mut self,
        ctx: &Ctx,
        from: &str,
        map: MapDetail,
    ) -> Result<(), StoreError> {
        self.authed(ctx, from, "SET MAP", |run, g, who| {
            let id = g.rec.id.clone();
            let lang = run.addr_lang(&g.rec, from);
            let Some(seat) = who.seat else {
                let command = "set map".to_string();
                run.answer(lang, "seat", &SeatAnswer::NoSeat { command, game: id });
                return;
            };
            g.rec.seats[seat].map = map;
            g.dirty = true;
            run.answer(
                lang,
                "seat",
                &SeatAnswer::Map {
                    game: id.clone(),
                    map,
                },
            );
            run.glog(&id, "map", format!("{from}: {map:?}"));
        })?;
        Ok(())
    }

    fn resign(&mut self, g: &mut Loaded, seat: usize) {
        let id = g.rec.id.clone();
        let name = g.rec.seats[seat].name.clone();
        if g.rec.status == Status::Forming {
            let s = &mut g.rec.seats[seat];
            s.address = None;
            s.name = crate::cmd::create::open_seat_name(seat, g.rec.language);
            let lang = self.seat_lang(&g.rec, seat);
            self.answer(lang, "seat", &SeatAnswer::Reopened { game: id.clone() });
        } else {
            let s = &mut g.rec.seats[seat];
            s.resigned = true;
            s.bot = true;
            let lang = self.seat_lang(&g.rec, seat);
            self.answer(lang, "seat", &SeatAnswer::Resigned { game: id.clone() });
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
                let lang = self.seat_lang(&g.rec, seat);
                self.answer(lang, "seat", &SeatAnswer::VacationOff { game: id });
                return;
            }
            Vacation::Days(d) => d,
        };
        let limit = self.j.config.vacation_limit_days;
        let used = g.rec.seats[seat].vacation_days;
        let lang = self.seat_lang(&g.rec, seat);
        if used + d > limit {
            let answer = SeatAnswer::VacationTooLong {
                game: id,
                asked: d,
                left: limit.saturating_sub(used),
                limit,
            };
            self.answer(lang, "seat", &answer);
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
        let answer = SeatAnswer::OnVacation {
            game: id.clone(),
            until: format_long_in(until, lang),
            left: limit - used - d,
            limit,
        };
        self.answer(lang, "seat", &answer);
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
            _ => Err(CmdError::VacationDays {
                given: d.to_string(),
            }),
        },
        _ => Err(CmdError::VacationArgs),
    }
}
