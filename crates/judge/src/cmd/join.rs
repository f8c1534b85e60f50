//! JOIN game-id password [AS Name] (REJOINDRE ... COMME Nom): take an open seat.
//!
//! The answers are [`JoinAnswer`], worded by templates/LANG/answers/join.txt.

use crate::cmd::*;
use crate::mails::Event;
use crate::model::*;
use crate::password::{is_slow, verify, Cost, Kind, Verdict};
use crate::run::*;

/// What JOIN answers: the seat taken, or why not.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, thiserror::Error)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub(crate) enum JoinAnswer {
    #[error("{name} joined {game}")]
    Joined {
        game: String,
        name: String,
        starts: bool,
    },
    #[error("no game {game}")]
    NoGame { game: String },
    #[error("{game} has already started")]
    Started { game: String },
    #[error("{game} has no open seat")]
    NoOpenSeat { game: String },
    #[error("wrong join password for {game}")]
    WrongPassword { game: String },
    /// A credential of this mail was wrong already, or its Argon2id check was spent: the
    /// join password was not checked (one try per mail).
    #[error("one password try per mail: the join password for {game} was not checked")]
    OneTryPerMail { game: String },
    /// Too many wrong join passwords this hour: not checked until the hour ends.
    #[error("join password locked for {game}")]
    Locked { game: String },
    #[error("already seated in {game}")]
    AlreadySeated { game: String },
    #[error("the name {name} is taken in {game}")]
    NameTaken { game: String, name: String },
    /// Empty once cleaned, or longer than `max` characters.
    #[error("the name {name} is not usable")]
    BadName { name: String, max: usize },
    /// The game master asked `min-reliability=min`; the joiner's record is below it.
    #[error("reliability {reliability}% is below the {min}% {game} asks")]
    Unreliable {
        game: String,
        reliability: u32,
        min: u32,
    },
    /// Every seat is taken but the game refused to start (its options).
    #[error("{game} cannot start: {why}")]
    CannotStart { game: String, why: String },
}

impl Run<'_> {
    pub(crate) fn join(
        &mut self,
        from: &str,
        id: &str,
        password: &str,
        name: Option<String>,
    ) -> Result<(), StoreError> {
        let lang = self.writer_lang(from);
        let Some(done) = self.with_game(id, |run, g| -> Result<(), StoreError> {
            let name = name
                .or_else(|| from.split('@').next().map(capitalise))
                .unwrap_or_else(|| "Player".into());
            let name = match crate::limits::clean_name(&name) {
                Ok(name) => name,
                Err(name) => {
                    let max = crate::limits::MAX_NAME_CHARS;
                    run.answer(lang, "join", &JoinAnswer::BadName { name, max });
                    return Ok(());
                }
            };
            let refused = match may_join(&g.rec, from, &name) {
                Err(refusal) => Some(refusal),
                Ok(()) => run.join_password(&g.rec, password)?.err(),
            };
            if let Some(refusal) = refused {
                run.answer(lang, "join", &refusal);
                return Ok(());
            }
            if let Some(min) = g.rec.min_reliability {
                let reliability = run.record_of(from)?.reliability();
                if reliability < min {
                    let game = g.rec.id.clone();
                    let answer = JoinAnswer::Unreliable {
                        game,
                        reliability,
                        min,
                    };
                    run.answer(lang, "join", &answer);
                    return Ok(());
                }
            }
            run.seat_joiner(g, from, &name);
            let id = g.rec.id.clone();
            let starts = g.rec.ready_to_start();
            let answer = JoinAnswer::Joined {
                game: id.clone(),
                name: name.clone(),
                starts,
            };
            run.answer(lang, "join", &answer);
            if starts {
                if let Err(e) = run.start(g) {
                    let answer = JoinAnswer::CannotStart {
                        game: id.clone(),
                        why: e,
                    };
                    run.answer(lang, "join", &answer);
                }
            }
            let gm = g.rec.gm.clone();
            if gm != from {
                let event = Event::Joined {
                    name,
                    address: from.to_string(),
                    open_left: g.rec.open_seats(),
                };
                run.notify(&g.rec, &[gm], event);
            }
            run.touched.push((id, None));
            Ok(())
        })?
        else {
            let answer = JoinAnswer::NoGame {
                game: id.to_string(),
            };
            self.answer(lang, "join", &answer);
            return Ok(());
        };
        done
    }

    /// The join password's one try: not checked after a wrong credential in
    /// the mail, past the mail's Argon2id computation, or while locked (ten wrong ones in
    /// the hour, whoever tried them: the game master is told).
    fn join_password(
        &mut self,
        rec: &GameRecord,
        password: &str,
    ) -> Result<Result<(), JoinAnswer>, StoreError> {
        let game = rec.id.clone();
        let key = crate::auth::join_failures_key(&game);
        if self.failed_try {
            return Ok(Err(JoinAnswer::OneTryPerMail { game }));
        }
        if self.locked(&key)? {
            return Ok(Err(JoinAnswer::Locked { game }));
        }
        let stored = &rec.join_password_hash;
        if !self.slow_allowed(stored) {
            return Ok(Err(JoinAnswer::OneTryPerMail { game }));
        }
        let kind = if is_slow(stored) {
            Kind::Chosen(Cost::of(&self.j.config))
        } else {
            Kind::Drawn
        };
        if verify(stored, &rec.salt, password, kind) != Verdict::No {
            return Ok(Ok(()));
        }
        if self.count_failure(&key, crate::auth::MAX_FAILED_TRIES)? {
            let gm = rec.gm.clone();
            let tries = crate::auth::MAX_FAILED_TRIES;
            self.notice(rec, &[gm], Event::JoinLocked { tries });
        }
        Ok(Err(JoinAnswer::WrongPassword { game }))
    }

    /// Give the first open seat to `from`, with a fresh password and token (mailed). A
    /// player who joins in French (REJOINDRE) reads the game in French, whatever the game's
    /// language (as if they had written SET LANGUAGE fr).
    fn seat_joiner(&mut self, g: &mut Loaded, from: &str, name: &str) {
        let pw = self.random_word("password", 8);
        let token = self.random_word("token", 6);
        let hash = crate::password::keyed(&g.rec.salt, &pw);
        let french = self.french_words && self.game_lang(&g.rec) != castellan_engine::Lang::Fr;
        let Some(seat) = g.rec.seats.iter_mut().find(|s| s.address.is_none()) else {
            return;
        };
        seat.name = name.to_string();
        seat.address = Some(from.to_string());
        seat.password_hash = hash;
        seat.token = token.clone();
        seat.bot = false;
        if french {
            seat.language = Some(castellan_engine::Lang::Fr);
        }
        g.dirty = true;
        let rec = g.rec.clone();
        self.welcome(&rec, name, from, &pw, &token);
        self.glog(&rec.id, "join", format!("{name} <{from}>"));
    }
}

/// May `from` take a seat of this game as `name` (the join password apart)?
fn may_join(rec: &GameRecord, from: &str, name: &str) -> Result<(), JoinAnswer> {
    let game = rec.id.clone();
    if rec.status != Status::Forming {
        return Err(JoinAnswer::Started { game });
    }
    if rec.open_seats() == 0 || rec.join_password_hash.is_empty() {
        return Err(JoinAnswer::NoOpenSeat { game });
    }
    if rec.seat_of(from).is_some() {
        return Err(JoinAnswer::AlreadySeated { game });
    }
    if rec
        .seats
        .iter()
        .any(|s| s.address.is_some() && crate::ident::names_alike(&s.name, name))
    {
        return Err(JoinAnswer::NameTaken {
            game,
            name: name.to_string(),
        });
    }
    Ok(())
}

/// JOIN game-id password [AS Name]
pub(crate) fn parse(a: &Args) -> Result<Command, CmdError> {
    match a.words.as_slice() {
        [g, p] => Ok(Command::Join {
            game: g.to_lowercase(),
            password: p.to_string(),
            name: None,
        }),
        [g, p, as_, n] if as_.eq_ignore_ascii_case("as") || as_.eq_ignore_ascii_case("comme") => {
            Ok(Command::Join {
                game: g.to_lowercase(),
                password: p.to_string(),
                name: Some(n.to_string()),
            })
        }
        _ => Err(CmdError::JoinArgs),
    }
}
