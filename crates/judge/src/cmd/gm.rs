//! START PAUSE RESUME EXTEND REPLACE KICK END: the game master's commands.

use crate::auth::*;
use crate::clock::format_long;
use crate::cmd::*;
use crate::config::JudgeConfig;
use crate::judge::*;
use crate::mails::quote;
use crate::mails::Event;
use crate::model::*;
use crate::run::*;
use castellan_engine::dice::Secret;

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
    pub(crate) fn gm_op(&mut self, id: &str, cmd: Command) -> Result<String, JudgeError> {
        let Some(mut g) = self.take(id)? else {
            return Err(JudgeError::Refused(format!("there is no game {id}")));
        };
        let r = self.gm_op_on(&mut g, cmd);
        self.put(g);
        r.map_err(JudgeError::Refused)
    }

    pub(crate) fn gm_op_on(&mut self, g: &mut Loaded, cmd: Command) -> Result<String, String> {
        let id = g.rec.id.clone();
        let status = g.rec.status;
        let (title, text, event) = match cmd {
            Command::Start => {
                if status != Status::Forming {
                    return Err(format!("{id} has already started"));
                }
                self.start(g)?;
                return Ok(format!("{id} started with {} players.", g.rec.seats.len()));
            }
            Command::Pause => self.gm_pause(g)?,
            Command::Resume => self.gm_resume(g)?,
            Command::Extend(Extend { hours }) => self.gm_extend(g, hours)?,
            Command::Replace(seat, addr) => self.gm_replace(g, seat, addr)?,
            Command::Kick(seat) => self.gm_kick(g, seat)?,
            Command::End => {
                if status == Status::Finished {
                    return Err(format!("{id} is already over"));
                }
                g.rec.status = Status::Finished;
                g.rec.ended = Some("ended by the game master".into());
                g.rec.deadline = None;
                g.dirty = true;
                self.glog(&id, "end", "ended by the game master".into());
                if g.session.is_none() {
                    return Ok(format!("{id} is ended before it started."));
                }
                // The final report (with the secret key) is made by settle.
                return Ok(format!("{id} is ended; the final report goes to everyone."));
            }
            _ => return Err("not a game master command".into()),
        };
        g.dirty = true;
        self.glog(&id, "gm", title.clone());
        let to = Self::recipients(&g.rec);
        let rec = g.rec.clone();
        self.notify(&rec, &to, event);
        Ok(text)
    }

    /// PAUSE: changes the record and says what to tell everyone.
    fn gm_pause(&mut self, g: &mut Loaded) -> Result<(String, String, Event), String> {
        let id = g.rec.id.clone();
        let now = self.now();
        let status = g.rec.status;
        if status != Status::Running {
            return Err(format!("{id} is not running"));
        }
        g.rec.status = Status::Paused;
        g.rec.paused_left = g.rec.deadline.map(|d| (d - now).max(0));
        g.rec.deadline = None;
        Ok(("paused".to_string(), "The game master paused the game: no deadline runs and no orders are taken until RESUME.".to_string(), Event::Paused))
    }

    /// RESUME: changes the record and says what to tell everyone.
    fn gm_resume(&mut self, g: &mut Loaded) -> Result<(String, String, Event), String> {
        let id = g.rec.id.clone();
        let now = self.now();
        let status = g.rec.status;
        if status != Status::Paused {
            return Err(format!("{id} is not paused"));
        }
        g.rec.status = Status::Running;
        g.rec.deadline = g.rec.paused_left.take().map(|l| now + l);
        Ok((
            "resumed".to_string(),
            format!(
                "The game goes on.{}",
                g.rec
                    .deadline
                    .map(|d| format!(" Deadline: {}.", format_long(d)))
                    .unwrap_or_default()
            ),
            Event::Resumed,
        ))
    }

    /// EXTEND: changes the record and says what to tell everyone.
    fn gm_extend(&mut self, g: &mut Loaded, hours: u32) -> Result<(String, String, Event), String> {
        let id = g.rec.id.clone();
        let status = g.rec.status;
        let hours = i64::from(hours);
        match (status, g.rec.deadline, g.rec.paused_left) {
            (Status::Running, Some(d), _) => {
                g.rec.deadline = Some(d + hours * 3600);
                g.rec.reminded.clear();
            }
            (Status::Paused, _, Some(l)) => g.rec.paused_left = Some(l + hours * 3600),
            _ => return Err(format!("{id} has no deadline running")),
        }
        Ok((
            "deadline extended".to_string(),
            format!(
                "The game master moved the deadline {hours} hour(s) later{}.",
                g.rec
                    .deadline
                    .map(|d| format!(", to {}", format_long(d)))
                    .unwrap_or_default()
            ),
            Event::Extended {
                hours: hours as u32,
            },
        ))
    }

    /// REPLACE: changes the record and says what to tell everyone.
    fn gm_replace(
        &mut self,
        g: &mut Loaded,
        seat: String,
        addr: String,
    ) -> Result<(String, String, Event), String> {
        let id = g.rec.id.clone();
        let status = g.rec.status;
        let addr = lower(&addr);
        if !addr.contains('@') {
            return Err(format!(
                "\"{addr}\" is not an address; write: REPLACE 2 new@example.org"
            ));
        }
        if status == Status::Finished {
            return Err(format!("{id} is over"));
        }
        let s = find_seat(&g.rec, &seat)?;
        if g.rec.seat_of(&addr).is_some_and(|x| x != s) {
            return Err(format!("{addr} already has a seat in {id}"));
        }
        let pw = self.random_word("password", 8);
        let token = self.random_word("token", 6);
        let salt = g.rec.salt.clone();
        let seat_rec = &mut g.rec.seats[s];
        let name = seat_rec.name.clone();
        seat_rec.address = Some(addr.clone());
        seat_rec.password_hash = hash_pw(&salt, &pw);
        seat_rec.token = token.clone();
        seat_rec.misses = 0;
        seat_rec.bot = false;
        seat_rec.resigned = false;
        seat_rec.vacation_until = None;
        seat_rec.vacation_days = 0;
        let rec = g.rec.clone();
        self.welcome(&rec, &name, &addr, &pw, &token);
        g.force_private = true;
        Ok((
            format!("{name} replaced"),
            format!("The seat {name} is now played by {addr}."),
            Event::Replaced {
                name: name.clone(),
                address: addr.clone(),
            },
        ))
    }

    /// KICK: changes the record and says what to tell everyone.
    fn gm_kick(&mut self, g: &mut Loaded, seat: String) -> Result<(String, String, Event), String> {
        let id = g.rec.id.clone();
        let status = g.rec.status;
        if status == Status::Finished {
            return Err(format!("{id} is over"));
        }
        let s = find_seat(&g.rec, &seat)?;
        let seat_rec = &mut g.rec.seats[s];
        let name = seat_rec.name.clone();
        seat_rec.address = None;
        seat_rec.bot = true;
        Ok((
            format!("{name} removed"),
            format!(
                "The game master removed the player of {name}; a bot plays the seat until REPLACE."
            ),
            Event::Kicked { name: name.clone() },
        ))
    }
}
pub(crate) fn find_seat(rec: &GameRecord, seat: &str) -> Result<usize, String> {
    if let Ok(n) = seat.parse::<usize>() {
        if n >= 1 && n <= rec.seats.len() {
            return Ok(n - 1);
        }
    }
    rec.seats
        .iter()
        .position(|s| lower(&s.name) == lower(seat))
        .ok_or_else(|| {
            format!(
                "no seat \"{seat}\"; the seats are {} (by number or name)",
                rec.seats
                    .iter()
                    .enumerate()
                    .map(|(i, s)| format!("{} {}", i + 1, s.name))
                    .collect::<Vec<_>>()
                    .join(", ")
            )
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
            .ok_or_else(|| {
                refuse(
                    format!("EXTEND {hours}: write a number of hours from 1 to {max}"),
                    "write: EXTEND 24",
                )
            })
    }
}

/// EXTEND hours
pub(crate) fn parse_extend(a: &Args, config: &JudgeConfig) -> Result<Command, CmdError> {
    match a.words.as_slice() {
        [h] => Extend::new(h, config).map(Command::Extend),
        _ => Err(refuse("EXTEND takes a number of hours", "write: EXTEND 24")),
    }
}

/// REPLACE seat address
pub(crate) fn parse_replace(a: &Args) -> Result<Command, CmdError> {
    match a.words.as_slice() {
        [s, addr] => Ok(Command::Replace(s.to_string(), addr.to_string())),
        _ => Err(refuse(
            "REPLACE takes the seat (number or name) and the new player's address",
            "write: REPLACE 2 newplayer@example.org",
        )),
    }
}

/// KICK seat
pub(crate) fn parse_kick(a: &Args) -> Result<Command, CmdError> {
    match a.words.as_slice() {
        [s] => Ok(Command::Kick(s.to_string())),
        _ => Err(refuse(
            "KICK takes the seat (number or name)",
            "write: KICK 2",
        )),
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
        let what = first_word(line);
        let Some((g, who)) = self.authed(ctx, from, &what)? else {
            return Ok(());
        };
        if !who.gm {
            self.section(
                format!("{what} refused"),
                format!("Only the game master of {} may do that.", g.rec.id),
            );
            self.put(g);
            return Ok(());
        }
        let id = g.rec.id.clone();
        self.put(g);
        match self.gm_op(&id, cmd) {
            Ok(t) => self.section(format!("{what} {id}"), t),
            Err(JudgeError::Refused(e)) => self.section(
                format!("{what} refused"),
                format!("{}\n  {e}", quote(no, line)),
            ),
            Err(JudgeError::Store(e)) => return Err(e),
        }
        Ok(())
    }
}
