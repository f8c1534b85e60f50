//! CREATE game key=value ...: a new game, its secrets and its welcome mails.

use crate::cmd::*;
use crate::config::JudgeConfig;
use crate::intake::reading::Quoted;
use crate::model::*;
use crate::run::*;
use castellan_engine::{GameInfo, Lang, PromptKind};
use std::collections::BTreeMap;

mod args;
pub(crate) use args::{CreateArgs, GameSetup};

impl Run<'_> {
    // ---------------------------------------------------------------- lifecycle

    pub(crate) fn next_id(&self, game: &str) -> Result<String, StoreError> {
        let prefix = game.split('-').next().unwrap_or(game).to_string();
        let mut max = self.store.highest_game_number()?;
        for id in self.games.keys() {
            max = max.max(game_number(id).unwrap_or(0));
        }
        Ok(format!("{prefix}-{}", max + 1))
    }

    /// CREATE: returns the new game's id. Reads the arguments ([`CreateArgs`]), checks
    /// them against the game ([`GameSetup`]), then draws the secrets and mails the welcomes.
    pub(crate) fn create(
        &mut self,
        gm: &str,
        game: &str,
        args: &[String],
    ) -> Result<String, CreateFailure> {
        let Some(info) = self.info(game).copied() else {
            return Err(vec![CreateError::UnknownGame {
                given: game.to_string(),
                known: self.j.games.iter().map(|g| g.name.to_string()).collect(),
            }]
            .into());
        };
        let raw = CreateArgs::read(args, &self.j.config)?;
        let setup = GameSetup::resolve(raw, &info).map_err(|e| vec![e])?;
        // A join password the game master chose costs an Argon2id hash: one a mail.
        if setup.join_password.is_some()
            && setup.seats > setup.players.len()
            && !self.slow_allowed_now()
        {
            return Err(vec![CreateError::OneChosenPasswordPerMail].into());
        }
        // A game by mail spends the server's budget of new games this hour (optin.rs);
        // the operator's games and a tournament's own rounds do not.
        if !self.consent && !self.seating {
            let limit = self.j.config.new_games_per_hour;
            if !self.spend_budget(crate::optin::NEW_GAMES, 1, limit)? {
                return Err(vec![CreateError::Budget { limit }].into());
            }
        }
        let id = self.next_id(info.name)?;
        let (mut rec, welcomes, gm_pw, join_pw) = self.new_record(&id, gm, &info, setup);
        // A named address other than the writer's must confirm its seat before the game
        // starts or mails it anything but one confirmation, whether
        // it wrote to the judge before or not; the operator's naming is consent.
        if self.j.config.confirm_addresses && !self.consent {
            for s in rec.seats.iter_mut() {
                if let Some(a) = s.address.as_deref().map(lower) {
                    s.unconfirmed = a != lower(gm);
                }
            }
        }
        self.mail_gm_welcome(&rec, gm, &gm_pw, join_pw);
        for (name, addr, pw, token) in welcomes {
            self.welcome(&rec, &name, &addr, &pw, &token);
        }
        let open = rec.open_seats();
        self.glog(
            &id,
            "create",
            format!(
                "{} game by {gm}, {} seats ({open} open)",
                info.name,
                rec.seats.len()
            ),
        );
        let mut g = Loaded {
            rec,
            session: None,
            stored_len: 0,
            dirty: true,
            keep: false,
            force_private: false,
            forced: false,
            ask_writer: false,
        };
        if g.rec.ready_to_start() {
            self.start(&mut g)
                .map_err(|why| vec![CreateError::CannotStart { why }])?;
        }
        self.hold_new(g);
        Ok(id)
    }

    /// The game's record with fresh secrets; the players' welcomes to send
    /// (name, address, password, token), the game master's password, the join password.
    fn new_record(
        &mut self,
        id: &str,
        gm: &str,
        info: &GameInfo,
        setup: GameSetup,
    ) -> (GameRecord, Vec<NewSeat>, String, Option<String>) {
        let salt = hex::encode(self.derive("salt"));
        let gm_pw = self.random_word("gm-password", 8);
        let gm_token = self.random_word("gm-token", 6);
        let open = setup.seats - setup.players.len();
        let join_pw = (open > 0).then(|| {
            setup
                .join_password
                .clone()
                .unwrap_or_else(|| self.random_word("join", 8))
        });
        let mut rec = GameRecord {
            id: id.to_string(),
            game: info.name.to_string(),
            status: Status::Forming,
            gm: lower(gm),
            gm_password_hash: crate::password::keyed(&salt, &gm_pw),
            gm_token,
            // A join password the game master chose is kept by Argon2id; one the judge
            // drew, by keyed hash.
            join_password_hash: match (&join_pw, &setup.join_password) {
                (Some(p), Some(_)) => self.new_hash("join", p),
                (Some(p), None) => crate::password::keyed(&salt, p),
                (None, _) => String::new(),
            },
            salt: salt.clone(),
            seats: Vec::new(),
            observers: Vec::new(),
            options: setup.options,
            deadlines: setup.deadlines,
            deadline: None,
            paused_left: None,
            deadline_history: 0,
            deadline_awaiting: Vec::new(),
            reported_awaiting: Vec::new(),
            questioned: Vec::new(),
            question_wait: false,
            reported_view: String::new(),
            reports: Default::default(),
            told: Default::default(),
            zones: Default::default(),
            end_code: None,
            quarantine: None,
            missed: Vec::new(),
            out: Vec::new(),
            reminded: Default::default(),
            out_counter: 0,
            reported: 0,
            revealed: 0,
            created: self.now(),
            ended: None,
            final_sent: false,
            language: setup.language,
            min_reliability: setup.min_reliability,
        };
        let mut welcomes = Vec::new();
        for (name, addr) in &setup.players {
            let pw = self.random_word("password", 8);
            let token = self.random_word("token", 6);
            rec.seats.push(SeatRecord {
                name: name.clone(),
                address: Some(addr.clone()),
                password_hash: crate::password::keyed(&salt, &pw),
                token: token.clone(),
                ..open_seat(0, None)
            });
            welcomes.push((name.clone(), addr.clone(), pw, token));
        }
        for i in setup.players.len()..setup.seats {
            rec.seats.push(open_seat(i, setup.language));
        }
        (rec, welcomes, gm_pw, join_pw)
    }

    fn mail_gm_welcome(
        &mut self,
        rec: &GameRecord,
        gm: &str,
        gm_pw: &str,
        join_pw: Option<String>,
    ) {
        let id = rec.id.clone();
        let gm_token = rec.gm_token.clone();
        let names: Vec<String> = rec.seats.iter().map(|s| s.name.clone()).collect();
        let ctx = Welcome {
            name: String::new(),
            gm: true,
            game_id: id.clone(),
            game: rec.game.clone(),
            players: names,
            password: gm_pw.to_string(),
            token: gm_token.clone(),
            judge: self.j.config.address.clone(),
            join_password: join_pw,
            waiting: false,
        };
        let lang = self.game_lang(rec);
        self.send(gm, lang, "welcome", &ctx, &id, Some(&gm_token));
        self.token_headers(&id, &gm_token);
    }

    /// A player's welcome; to a seat not confirmed, the confirmation (optin.rs): the
    /// same mail without a word the game master chose (no seat's name, no player list),
    /// only the game's id, its kind and the seat's secrets.
    pub(crate) fn welcome(
        &mut self,
        rec: &GameRecord,
        name: &str,
        addr: &str,
        pw: &str,
        token: &str,
    ) {
        let waiting = rec.seat_of(addr).is_some_and(|s| rec.seats[s].unconfirmed);
        let names: Vec<String> = if waiting {
            Vec::new()
        } else {
            rec.seats.iter().map(|s| s.name.clone()).collect()
        };
        let ctx = Welcome {
            name: if waiting {
                String::new()
            } else {
                name.to_string()
            },
            gm: false,
            game_id: rec.id.clone(),
            game: rec.game.clone(),
            players: names,
            password: pw.to_string(),
            token: token.to_string(),
            judge: self.j.config.address.clone(),
            join_password: None,
            waiting,
        };
        let lang = self.addr_lang(rec, addr);
        self.send(addr, lang, "welcome", &ctx, &rec.id, Some(token));
        self.token_headers(&rec.id, token);
        if let Some(d) = self.mails.last_mut() {
            d.confirm = waiting;
        }
    }
}
pub(crate) fn capitalise(s: &str) -> String {
    let mut c = s.chars();
    match c.next() {
        Some(f) => f.to_uppercase().chain(c).collect(),
        None => String::new(),
    }
}

/// CREATE game key=value ...
pub(crate) fn parse(a: &Args) -> Result<Command, CmdError> {
    match a.words.split_first() {
        Some((g, more)) => Ok(Command::Create(
            g.to_lowercase(),
            more.iter().map(|s| s.to_string()).collect(),
        )),
        None => Err(CmdError::CreateArgs),
    }
}

impl Run<'_> {
    /// CREATE by mail: only the judge's creators (if the list is set) may, and they prove
    /// it with the creator password (`PASSWORD secret` before CREATE): the From alone is
    /// not enough. One try per mail.
    pub(crate) fn create_by_mail(
        &mut self,
        from: &str,
        password: Option<&str>,
        game: &str,
        args: &[String],
        no: usize,
        line: &str,
    ) -> Result<(), StoreError> {
        let lang = self.writer_lang(from);
        if !self.j.config.creators.is_empty() {
            let listed = self.j.config.creators.iter().any(|c| lower(c) == from);
            let (good, locked) = self.creator_password(listed, password)?;
            if !good {
                let answer = CreateAnswer::NotCreator {
                    quoted: Quoted::new(no, line),
                    listed,
                    locked,
                };
                self.answer(lang, "create", &answer);
                return Ok(());
            }
            self.authenticated = true;
        }
        let answer = match self.create(from, game, args) {
            Ok(game) => {
                self.touched.push((game.clone(), None));
                let waiting_for = self
                    .games
                    .get(&game)
                    .map(|g| g.rec.unconfirmed())
                    .unwrap_or_default();
                CreateAnswer::Created { game, waiting_for }
            }
            Err(CreateFailure::Refused(errors)) => CreateAnswer::Refused {
                quoted: Quoted::new(no, line),
                errors,
            },
            Err(CreateFailure::Store(e)) => return Err(e),
        };
        self.answer(lang, "create", &answer);
        Ok(())
    }
}

impl Run<'_> {
    /// The creators' password, one try per mail (it was compared past the rate
    /// limit, any number of times): checked once for a listed address, not after a wrong
    /// credential in the mail nor while locked (ten wrong ones in the hour); compared as
    /// SHA-256 digests, so its length is not told either. (good, locked)
    fn creator_password(
        &mut self,
        listed: bool,
        password: Option<&str>,
    ) -> Result<(bool, bool), StoreError> {
        use crate::auth::{creator_failures_key, AuthError, Who};
        if let Some((_, verdict)) = self.tries.get("creator") {
            return Ok((verdict.is_ok(), false));
        }
        let (true, Some(p)) = (listed, password) else {
            return Ok((false, false));
        };
        if self.failed_try {
            return Ok((false, false));
        }
        if self.locked(&creator_failures_key())? {
            return Ok((false, true));
        }
        let secret = &self.j.config.creator_password;
        let digest = |s: &str| hex::encode(castellan_engine::dice::sha256(s.as_bytes()));
        let good = !secret.is_empty() && crate::password::same(&digest(secret), &digest(p));
        let verdict = if good {
            Ok(Who::default())
        } else {
            self.count_failure(&creator_failures_key(), crate::auth::MAX_FAILED_TRIES)?;
            Err(AuthError::WrongCredentials {
                game: String::new(),
            })
        };
        self.tries
            .insert("creator".into(), (p.to_string(), verdict));
        Ok((good, false))
    }
}

/// What CREATE answers (templates/LANG/answers/create.txt).
#[derive(Clone, Debug, serde::Serialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub(crate) enum CreateAnswer {
    Created {
        game: String,
        /// Named players who must confirm (write once) before the game starts.
        waiting_for: Vec<String>,
    },
    /// Not a creator; `listed`: the address is, but the creator password was missing
    /// or wrong.
    NotCreator {
        quoted: Quoted,
        listed: bool,
        /// Ten wrong creator passwords this hour: it is not checked until the hour ends.
        locked: bool,
    },
    Refused {
        quoted: Quoted,
        errors: Vec<CreateError>,
    },
}

/// CREATE failed: storage, or the arguments (every bad one).
#[derive(Debug, thiserror::Error)]
pub(crate) enum CreateFailure {
    #[error(transparent)]
    Store(#[from] StoreError),
    #[error("{}", .0.iter().map(|e| e.to_string()).collect::<Vec<_>>().join("\n  "))]
    Refused(Vec<CreateError>),
}

impl From<Vec<CreateError>> for CreateFailure {
    fn from(e: Vec<CreateError>) -> CreateFailure {
        CreateFailure::Refused(e)
    }
}

/// Why a CREATE argument, or the whole setup, is refused.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, thiserror::Error)]
#[serde(tag = "error", rename_all = "snake_case")]
pub(crate) enum CreateError {
    #[error("there is no game \"{given}\" here; the games are: {}", known.join(", "))]
    UnknownGame { given: String, known: Vec<String> },
    #[error(
        "\"{arg}\" is not key=value (write: player=Anna:anna@example.org seats=4 deadline=48)"
    )]
    NotKeyValue { arg: String },
    #[error("player={arg}: write player=Name:address@example.org")]
    BadPlayer { arg: String },
    #[error("the name \"{name}\" is not usable: a name has 1 to {max} characters, without control characters (write: player=Anna:anna@example.org)")]
    BadName { name: String, max: usize },
    #[error("seats={value}: write a number of seats, like seats=4")]
    BadSeats { value: String },
    #[error("{key}={value}: write a number of hours from 1 to {max}")]
    BadDeadline {
        key: String,
        value: String,
        max: u32,
    },
    #[error("{key}={value}: write a number of hours")]
    BadHours { key: String, value: String },
    #[error("{key}={value}: write {key}=en or {key}=fr")]
    BadLanguage { key: String, value: String },
    #[error("min-reliability={value}: write a percentage from 0 to 100")]
    BadReliability { value: String },
    #[error("deadline-{kind}: {game} has no prompt of kind \"{kind}\"; its kinds are: {}", kinds.join(", "))]
    UnknownKind {
        kind: String,
        game: String,
        kinds: Vec<String>,
    },
    #[error("unknown option \"{key}\"; {game}'s options are: {}; the judge's are: player, seats, password, deadline, deadline-KIND, reminder, grace, language, min-reliability", if known.is_empty() { "none".to_string() } else { known.join(", ") })]
    UnknownOption {
        key: String,
        game: String,
        known: Vec<String>,
    },
    #[error("seats={seats} but {named} players are named")]
    FewerSeatsThanPlayers { seats: usize, named: usize },
    #[error("{game} is played by {min} to {max} players, not {asked} (name the players with player=Name:address, or say seats=N for open seats)")]
    SeatsOutOfRange {
        game: String,
        min: usize,
        max: usize,
        asked: usize,
    },
    #[error("{name} <{address}> is named twice")]
    NamedTwice { name: String, address: String },
    #[error("cannot start: {why}")]
    CannotStart { why: String },
    /// The server's budget of new games by mail this hour is spent (optin.rs).
    #[error("the judge has made its {limit} new games by mail this hour (its limit, for everyone): try again in an hour")]
    Budget { limit: u32 },
    #[error("password=: one game with a join password of your choosing per mail; send this CREATE in a mail of its own, or leave out password= and the judge draws one")]
    OneChosenPasswordPerMail,
}

/// The name of open seat `i` in a game of language `lang`.
pub(crate) fn open_seat_name(i: usize, lang: Option<Lang>) -> String {
    match lang {
        Some(Lang::Fr) => format!("Place {}", i + 1),
        _ => format!("Seat {}", i + 1),
    }
}

/// A player's welcome to send: name, address, password, token.
type NewSeat = (String, String, String, String);

/// An open seat (seat index `i`), before anyone takes it: "Seat 2", in a French game
/// "Place 2".
pub(crate) fn open_seat(i: usize, lang: Option<Lang>) -> SeatRecord {
    SeatRecord {
        name: open_seat_name(i, lang),
        address: None,
        password_hash: String::new(),
        token: String::new(),
        misses: 0,
        vacation_until: None,
        vacation_days: 0,
        bot: false,
        unconfirmed: false,
        disorder: false,
        resigned: false,
        language: None,
        format: MailFormat::default(),
        map: MapDetail::default(),
    }
}

/// A welcome mail's context (`templates/LANG/welcome.txt`): the game master's or a player's.
#[derive(serde::Serialize)]
pub(crate) struct Welcome {
    pub name: String,
    pub gm: bool,
    pub game_id: String,
    pub game: String,
    pub players: Vec<String>,
    pub password: String,
    pub token: String,
    pub judge: String,
    pub join_password: Option<String>,
    /// The game waits for this player's first mail to start.
    #[serde(default)]
    pub waiting: bool,
}
