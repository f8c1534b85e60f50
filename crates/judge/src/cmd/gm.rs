//! START PAUSE RESUME EXTEND REPLACE KICK END: the game master's commands.

use crate::clock::format_long_in;
use crate::cmd::*;
use crate::config::JudgeConfig;
use crate::intake::reading::Quoted;
use crate::judge::JudgeError;
use crate::mails::Event;
use crate::model::*;
use crate::run::*;
use castellan_engine::dice::Secret;
use castellan_engine::Lang;

impl Run<'_> {
    pub(crate) fn start(&mut self, g: &mut Loaded) -> Result<(), String> {
        let info = self
            .info(&g.rec.game)
            .copied()
            .ok_or_else(|| format!("no game {}", g.rec.game))?;
        // Open seats are dropped at an early START.
        g.rec.seats.retain(|s| s.address.is_some());
        let names: Vec<String> = g.rec.seats.iter().map(|s| s.name.clone()).collect();
        let master = Secret(self.derive(&format!("master/{}", g.rec.id)));
        let session = (info.create)(&g.rec.id, master, names, &g.rec.options)?;
        g.session = Some(session);
        g.rec.status = Status::Running;
        g.rec.reported = 0;
        g.rec.revealed = 0;
        g.rec.deadline = None;
        g.dirty = true;
        g.force_private = true;
        let id = g.rec.id.clone();
        self.glog(&id, "start", format!("{} seats", g.rec.seats.len()));
        Ok(())
    }

    /// A game master's command on game `id` (by mail after auth, or from the CLI).
    pub(crate) fn gm_op(&mut self, id: &str, cmd: Command) -> Result<GmDone, GmOpError> {
        match self.with_game(id, |run, g| run.gm_op_on(g, cmd))? {
            Some(done) => Ok(done?),
            None => Err(GmError::NoGame {
                game: id.to_string(),
            }
            .into()),
        }
    }

    /// A game master's command from the CLI: the terminal gets the English answer's text.
    pub(crate) fn gm_admin(&mut self, game: &str, cmd: Command) -> Result<String, JudgeError> {
        let command = format!("{cmd:?}").to_uppercase();
        let command = command.split(['(', ' ']).next().unwrap_or("").to_string();
        match self.gm_op(game, cmd) {
            Ok(done) => {
                let deadline = self
                    .games
                    .get(game)
                    .and_then(|g| g.rec.deadline)
                    .map(|d| format_long_in(d, Lang::En));
                let answer = GmAnswer::Done {
                    command,
                    game: game.to_string(),
                    done,
                    deadline,
                };
                let text = self.render_in(Lang::En, "answers/gm.txt", &answer);
                Ok(text
                    .split_once('\n')
                    .map(|(_, t)| t.trim().to_string())
                    .unwrap_or(text))
            }
            Err(GmOpError::Gm(e)) => Err(JudgeError::Refused(e.to_string())),
            Err(GmOpError::Store(e)) => Err(JudgeError::Store(e)),
        }
    }

    pub(crate) fn gm_op_on(&mut self, g: &mut Loaded, cmd: Command) -> Result<GmDone, GmError> {
        let game = g.rec.id.clone();
        let status = g.rec.status;
        let done = match cmd {
            Command::Start => {
                if status != Status::Forming {
                    return Err(GmError::AlreadyStarted { game });
                }
                self.start(g).map_err(|why| GmError::CannotStart { why })?;
                return Ok(GmDone::Started {
                    players: g.rec.seats.len(),
                });
            }
            Command::Pause => self.gm_pause(g)?,
            Command::Resume => self.gm_resume(g)?,
            Command::Extend(Extend { hours }) => self.gm_extend(g, hours)?,
            Command::Replace(seat, addr) => self.gm_replace(g, seat, addr)?,
            Command::Kick(seat) => self.gm_kick(g, seat)?,
            Command::End(_) => return self.gm_end(g),
            Command::Process => self.gm_process(g)?,
            Command::Deadline(Extend { hours }) => self.gm_deadline(g, hours)?,
            _ => return Err(GmError::NotGmCommand),
        };
        g.dirty = true;
        self.glog(&game, "gm", format!("{done:?}"));
        if let Some(event) = done.event() {
            let to = Self::recipients(&g.rec);
            let rec = g.rec.clone();
            self.notify(&rec, &to, event);
        }
        Ok(done)
    }

    fn gm_pause(&mut self, g: &mut Loaded) -> Result<GmDone, GmError> {
        if g.rec.status != Status::Running {
            return Err(GmError::NotRunning {
                game: g.rec.id.clone(),
            });
        }
        g.rec.status = Status::Paused;
        g.rec.paused_left = g.rec.deadline.map(|d| (d - self.now()).max(0));
        g.rec.deadline = None;
        Ok(GmDone::Paused)
    }

    fn gm_resume(&mut self, g: &mut Loaded) -> Result<GmDone, GmError> {
        if g.rec.status != Status::Paused {
            return Err(GmError::NotPaused {
                game: g.rec.id.clone(),
            });
        }
        g.rec.status = Status::Running;
        let now = self.now();
        g.rec.deadline = g.rec.paused_left.take().map(|l| now + l);
        Ok(GmDone::Resumed)
    }

    fn gm_extend(&mut self, g: &mut Loaded, hours: u32) -> Result<GmDone, GmError> {
        let secs = i64::from(hours) * 3600;
        match (g.rec.status, g.rec.deadline, g.rec.paused_left) {
            (Status::Running, Some(d), _) => {
                g.rec.deadline = Some(d + secs);
                g.rec.reminded.clear();
            }
            (Status::Paused, _, Some(l)) => g.rec.paused_left = Some(l + secs),
            _ => {
                return Err(GmError::NoDeadline {
                    game: g.rec.id.clone(),
                })
            }
        }
        Ok(GmDone::Extended { hours })
    }

    /// PROCESS: what is due now is played (the default, or the bot, for every seat the
    /// game waits for), as if the deadline had passed; the next report tells the table.
    fn gm_process(&mut self, g: &mut Loaded) -> Result<GmDone, GmError> {
        let game = g.rec.id.clone();
        let Some(session) = g
            .session
            .as_ref()
            .filter(|_| g.rec.status == Status::Running)
        else {
            return Err(GmError::NotRunning { game });
        };
        let awaiting = session.awaiting();
        let names = awaiting.iter().map(|s| seat_name(&g.rec, *s)).collect();
        for seat in awaiting {
            self.missed(g, seat, crate::deadlines::PhaseEnd::Process);
        }
        Ok(GmDone::Processed { seats: names })
    }

    /// DEADLINE n: the current deadline becomes n hours from now (sooner or later).
    fn gm_deadline(&mut self, g: &mut Loaded, hours: u32) -> Result<GmDone, GmError> {
        if g.rec.status != Status::Running || g.rec.deadline.is_none() {
            return Err(GmError::NoDeadline {
                game: g.rec.id.clone(),
            });
        }
        g.rec.deadline = Some(self.now() + i64::from(hours) * 3600);
        g.rec.reminded.clear();
        Ok(GmDone::DeadlineSet { hours })
    }

    fn gm_replace(
        &mut self,
        g: &mut Loaded,
        seat: String,
        addr: String,
    ) -> Result<GmDone, GmError> {
        let game = g.rec.id.clone();
        let addr = match crate::ident::canonical_address(&addr) {
            Ok(addr) => addr,
            Err(_) => {
                let address = crate::limits::clip(&crate::limits::clean_text(&addr), 80);
                return Err(GmError::NotAnAddress { address });
            }
        };
        if g.rec.status == Status::Finished {
            return Err(GmError::Over { game });
        }
        let s = find_seat(&g.rec, &seat)?;
        if g.rec.seat_of(&addr).is_some_and(|x| x != s) {
            return Err(GmError::AddressSeated {
                address: addr,
                game,
            });
        }
        let pw = self.random_word("password", 8);
        let token = self.random_word("token", 6);
        let hash = crate::password::keyed(&g.rec.salt, &pw);
        let seat_rec = &mut g.rec.seats[s];
        let name = seat_rec.name.clone();
        seat_rec.address = Some(addr.clone());
        seat_rec.password_hash = hash;
        seat_rec.token = token.clone();
        seat_rec.misses = 0;
        seat_rec.bot = false;
        seat_rec.resigned = false;
        seat_rec.vacation_until = None;
        seat_rec.vacation_days = 0;
        // An address other than the game master's confirms the seat it is given, unless
        // the operator gave it (crate::optin).
        seat_rec.unconfirmed =
            self.j.config.confirm_addresses && !self.consent && addr != lower(&g.rec.gm);
        let rec = g.rec.clone();
        self.welcome(&rec, &name, &addr, &pw, &token);
        g.force_private = true;
        Ok(GmDone::Replaced {
            name,
            address: addr,
        })
    }

    fn gm_kick(&mut self, g: &mut Loaded, seat: String) -> Result<GmDone, GmError> {
        if g.rec.status == Status::Finished {
            return Err(GmError::Over {
                game: g.rec.id.clone(),
            });
        }
        let s = find_seat(&g.rec, &seat)?;
        let seat_rec = &mut g.rec.seats[s];
        seat_rec.address = None;
        seat_rec.bot = true;
        Ok(GmDone::Kicked {
            name: seat_rec.name.clone(),
        })
    }

    /// END: the final report (with the secret key) is made by settle.
    fn gm_end(&mut self, g: &mut Loaded) -> Result<GmDone, GmError> {
        let game = g.rec.id.clone();
        if g.rec.status == Status::Finished {
            return Err(GmError::AlreadyOver { game });
        }
        g.rec.status = Status::Finished;
        g.rec.ended = Some("ended by the game master".into());
        g.rec.deadline = None;
        g.dirty = true;
        self.glog(&game, "end", "ended by the game master".into());
        Ok(GmDone::Ended {
            before_start: g.session.is_none(),
        })
    }
}

/// What a game master's command did (templates/LANG/answers/gm.txt, by `done`).
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
#[serde(tag = "done", rename_all = "snake_case")]
pub(crate) enum GmDone {
    Started { players: usize },
    Paused,
    Resumed,
    Extended { hours: u32 },
    Processed { seats: Vec<String> },
    DeadlineSet { hours: u32 },
    Replaced { name: String, address: String },
    Kicked { name: String },
    Ended { before_start: bool },
}

impl GmDone {
    /// What everyone in the game is told, if anything.
    fn event(&self) -> Option<Event> {
        Some(match self {
            GmDone::Paused => Event::Paused,
            GmDone::Resumed => Event::Resumed,
            GmDone::Extended { hours } => Event::Extended { hours: *hours },
            GmDone::DeadlineSet { hours } => Event::DeadlineSet { hours: *hours },
            GmDone::Processed { .. } => return None,
            // The other readers learn that a new player plays the seat, never their
            // address (the game master's own answer names it).
            GmDone::Replaced { name, .. } => Event::Replaced { name: name.clone() },
            GmDone::Kicked { name } => Event::Kicked { name: name.clone() },
            GmDone::Started { .. } | GmDone::Ended { .. } => return None,
        })
    }
}

/// Why a game master's command was refused.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, thiserror::Error)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub(crate) enum GmError {
    #[error("there is no game {game}")]
    NoGame { game: String },
    #[error("{game} has already started")]
    AlreadyStarted { game: String },
    #[error("cannot start: {why}")]
    CannotStart { why: String },
    #[error("{game} is not running")]
    NotRunning { game: String },
    #[error("{game} is not paused")]
    NotPaused { game: String },
    #[error("{game} has no deadline running")]
    NoDeadline { game: String },
    #[error("\"{address}\" is not an address; write: REPLACE 2 new@example.org")]
    NotAnAddress { address: String },
    #[error("{game} is over")]
    Over { game: String },
    #[error("{game} is already over")]
    AlreadyOver { game: String },
    #[error("{address} already has a seat in {game}")]
    AddressSeated { address: String, game: String },
    #[error("no seat \"{seat}\"; the seats are {} (by number or name)", seats.join(", "))]
    NoSeat { seat: String, seats: Vec<String> },
    #[error("not a game master command")]
    NotGmCommand,
    #[error("that is not the code END GAME gave for {game}")]
    WrongEndCode { game: String },
}

/// A game master's command failed: storage, or a refusal.
#[derive(Debug, thiserror::Error)]
pub(crate) enum GmOpError {
    #[error(transparent)]
    Store(#[from] StoreError),
    #[error(transparent)]
    Gm(#[from] GmError),
}

/// What the game master reads about their command (templates/LANG/answers/gm.txt).
#[derive(Clone, Debug, serde::Serialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub(crate) enum GmAnswer {
    Done {
        command: String,
        game: String,
        #[serde(flatten)]
        done: GmDone,
        deadline: Option<String>,
    },
    Refused {
        command: String,
        quoted: Quoted,
        error: GmError,
    },
    NotGm {
        command: String,
        game: String,
    },
    /// END GAME without its code: nothing ends yet; the code confirms.
    ConfirmEnd {
        game: String,
        code: String,
    },
}

pub(crate) fn find_seat(rec: &GameRecord, seat: &str) -> Result<usize, GmError> {
    if let Ok(n) = seat.parse::<usize>() {
        if n >= 1 && n <= rec.seats.len() {
            return Ok(n - 1);
        }
    }
    rec.seats
        .iter()
        .position(|s| lower(&s.name) == lower(seat))
        .ok_or_else(|| GmError::NoSeat {
            seat: seat.to_string(),
            seats: rec
                .seats
                .iter()
                .enumerate()
                .map(|(i, s)| format!("{} {}", i + 1, s.name))
                .collect(),
        })
}

/// EXTEND's argument: hours, from 1 to the judge's `max_deadline_hours`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Extend {
    pub hours: u32,
}

impl Extend {
    /// `hours` checked against the judge's longest deadline.
    pub fn new(hours: &str, config: &JudgeConfig) -> Result<Extend, CmdError> {
        let max = config.max_deadline_hours;
        hours
            .parse::<u32>()
            .ok()
            .filter(|h| *h >= 1 && *h <= max)
            .map(|hours| Extend { hours })
            .ok_or_else(|| CmdError::ExtendHours {
                given: hours.to_string(),
                max,
            })
    }
}

/// EXTEND hours
pub(crate) fn parse_extend(a: &Args, config: &JudgeConfig) -> Result<Command, CmdError> {
    match a.words.as_slice() {
        [h] => Extend::new(h, config).map(Command::Extend),
        _ => Err(CmdError::ExtendArgs),
    }
}

/// REPLACE seat address
pub(crate) fn parse_replace(a: &Args) -> Result<Command, CmdError> {
    match a.words.as_slice() {
        [s, addr] => Ok(Command::Replace(s.to_string(), addr.to_string())),
        _ => Err(CmdError::ReplaceArgs),
    }
}

/// KICK seat
pub(crate) fn parse_kick(a: &Args) -> Result<Command, CmdError> {
    match a.words.as_slice() {
        [s] => Ok(Command::Kick(s.to_string())),
        _ => Err(CmdError::KickArgs),
    }
}

impl Run<'_> {
    /// A game master's command by mail: the writer must be this game's game master.
    pub(crate) fn gm_by_mail(
        &mut self,
        ctx: &Ctx,
        from: &str,
        cmd: Command,
        no: usize,
        line: &str,
    ) -> Result<(), StoreError> {
        let command = match cmd {
            Command::End(_) => line
                .split_whitespace()
                .take(2)
                .collect::<Vec<_>>()
                .join(" ")
                .to_uppercase(),
            _ => first_word(line),
        };
        // END GAME by mail asks for a confirmation first: the judge answers with a code,
        // and only END GAME <code> from the game master ends the game.
        let go_on = self.authed(ctx, from, &command, |run, g, who| {
            let lang = run.addr_lang(&g.rec, from);
            let game = g.rec.id.clone();
            if !who.gm {
                let command = command.clone();
                run.answer(lang, "gm", &GmAnswer::NotGm { command, game });
                return None;
            }
            if let (Command::End(code), false) = (&cmd, g.rec.status == Status::Finished) {
                match code {
                    None => {
                        let code = run.random_word("end-game", 6);
                        g.rec.end_code = Some(code.clone());
                        g.keep = true;
                        run.answer(lang, "gm", &GmAnswer::ConfirmEnd { game, code });
                        return None;
                    }
                    Some(c) if g.rec.end_code.as_deref() == Some(c.to_lowercase().as_str()) => {
                        g.rec.end_code = None;
                    }
                    Some(_) => {
                        let error = GmError::WrongEndCode { game };
                        let answer = GmAnswer::Refused {
                            command: command.clone(),
                            quoted: Quoted::new(no, line),
                            error,
                        };
                        run.answer(lang, "gm", &answer);
                        return None;
                    }
                }
            }
            Some((lang, game))
        })?;
        let Some((lang, game)) = go_on.flatten() else {
            return Ok(());
        };
        let answer = match self.gm_op(&game, cmd) {
            Ok(done) => {
                let deadline = self
                    .games
                    .get(&game)
                    .and_then(|g| g.rec.deadline)
                    .map(|d| format_long_in(d, lang));
                GmAnswer::Done {
                    command,
                    game,
                    done,
                    deadline,
                }
            }
            Err(GmOpError::Gm(error)) => GmAnswer::Refused {
                command,
                quoted: Quoted::new(no, line),
                error,
            },
            Err(GmOpError::Store(e)) => return Err(e),
        };
        self.answer(lang, "gm", &answer);
        Ok(())
    }
}
