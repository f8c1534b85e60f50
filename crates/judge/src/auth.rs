//! Who wrote: which seat or the game master, checked by password or token.

use crate::cmd::*;
use crate::model::*;
use crate::run::*;

/// Who wrote, for one game.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct Who {
    pub(crate) seat: Option<usize>,
    pub(crate) gm: bool,
}

/// Failed password tries on one seat (or on the game master) in an hour; past them the
/// password is not checked until the hour ends (the token still works), and the game
/// master is told once.
pub const MAX_FAILED_TRIES: u32 = 10;

/// Tokens read from one mail (the subject's and a plus-address's): more are ignored, so
/// one mail cannot try many.
const TOKENS_PER_MAIL: usize = 2;

/// The counter of failed tries on a seat (`None`: the game master), kept with the
/// senders' counters (same window rule), under a key no address can spell ([`mark_key`]).
fn failures_key(game: &str, seat: Option<usize>) -> String {
    match seat {
        Some(s) => mark_key("failed-tries", &format!("{game}/seat-{s}")),
        None => mark_key("failed-tries", &format!("{game}/gm")),
    }
}

impl Run<'_> {
    pub(crate) fn enter_game(
        &mut self,
        ctx: &mut Ctx,
        id: &str,
        password: Option<String>,
    ) -> Result<(), StoreError> {
        ctx.game = Some(lower(id));
        ctx.password = password;
        ctx.check_mode = false;
        ctx.bad = false;
        match self.take(id)? {
            Some(g) => {
                let id = g.rec.id.clone();
                if !self.touched.iter().any(|(t, _)| *t == id) {
                    self.touched.push((id, None));
                }
                self.put(g);
            }
            None => {
                ctx.bad = true;
                let lang = self.writer_lang_guess();
                let answer = AuthAnswer::NoGame {
                    game: id.to_string(),
                };
                self.answer(lang, "auth", &answer);
            }
        }
        Ok(())
    }

    /// Who the writer is in this game, or why they are refused. One try per mail and game:
    /// the first credential given is checked; another one later in the same mail, after a
    /// failure, is refused unchecked. A password is checked only while its seat has had
    /// fewer than [`MAX_FAILED_TRIES`] failed tries this hour; a token always is.
    pub(crate) fn auth(
        &mut self,
        g: &mut Loaded,
        ctx: &Ctx,
        from: &str,
    ) -> Result<Result<Who, AuthError>, StoreError> {
        let rec = &g.rec;
        let seat = rec.seat_of(from);
        let is_gm = lower(&rec.gm) == from;
        let game = rec.id.clone();
        if seat.is_none() && !is_gm {
            return Ok(Err(AuthError::NotInGame {
                address: from.to_string(),
                game,
            }));
        }
        if ctx.password.is_none() && ctx.tokens.is_empty() {
            return Ok(Err(AuthError::NoCredentials { game }));
        }
        let given = format!("{:?}/{:?}", ctx.password, ctx.tokens);
        if let Some((before, verdict)) = self.tries.get(&game) {
            if *before == given || verdict.is_ok() {
                return Ok(verdict.clone());
            }
            return Ok(Err(AuthError::OneTryPerMail { game }));
        }
        let verdict = self.check_credentials(g, ctx, seat, is_gm)?;
        if let Ok(who) = &verdict {
            self.authenticated = true;
            // Civil disorder ends the moment the player writes (docs/rules/absence.md).
            if let Some(s) = who.seat.and_then(|s| g.rec.seats.get_mut(s)) {
                if s.disorder {
                    s.disorder = false;
                    s.misses = 0;
                    g.keep = true;
                }
            }
        }
        self.tries.insert(game, (given, verdict.clone()));
        Ok(verdict)
    }

    fn check_credentials(
        &mut self,
        g: &mut Loaded,
        ctx: &Ctx,
        seat: Option<usize>,
        is_gm: bool,
    ) -> Result<Result<Who, AuthError>, StoreError> {
        let game = g.rec.id.clone();
        let who = Who { seat, gm: is_gm };
        let mut tokens: Vec<&String> = Vec::new();
        for t in &ctx.tokens {
            if !tokens.contains(&t) && tokens.len() < TOKENS_PER_MAIL {
                tokens.push(t);
            }
        }
        for t in tokens {
            let seat_token = seat.is_some_and(|s| same(&g.rec.seats[s].token, t));
            if seat_token || (is_gm && same(&g.rec.gm_token, t)) {
                return Ok(Ok(who));
            }
        }
        let Some(pw) = &ctx.password else {
            self.count_failure(g, seat, is_gm)?;
            return Ok(Err(AuthError::WrongCredentials { game }));
        };
        // The seat's password, then the game master's (a game master may sit too).
        let mut targets: Vec<Option<usize>> = Vec::new();
        if let Some(s) = seat {
            targets.push(Some(s));
        }
        if is_gm {
            targets.push(None);
        }
        let cost = crate::password::Cost::of(&self.j.config);
        let mut locked = false;
        for target in targets {
            if self.failures(&game, target)?.count >= MAX_FAILED_TRIES {
                locked = true;
                continue;
            }
            let stored = match target {
                Some(s) => g.rec.seats[s].password_hash.clone(),
                None => g.rec.gm_password_hash.clone(),
            };
            match crate::password::verify(&stored, &g.rec.salt, pw, cost) {
                crate::password::Verdict::No => {}
                crate::password::Verdict::Yes => return Ok(Ok(who)),
                crate::password::Verdict::Upgrade => {
                    let label = format!("{game}/{target:?}");
                    let hash = self.new_hash(&label, pw);
                    match target {
                        Some(s) => g.rec.seats[s].password_hash = hash,
                        None => g.rec.gm_password_hash = hash,
                    }
                    g.keep = true;
                    return Ok(Ok(who));
                }
            }
        }
        if locked {
            return Ok(Err(AuthError::Locked { game }));
        }
        self.count_failure(g, seat, is_gm)?;
        Ok(Err(AuthError::WrongCredentials { game }))
    }

    /// The failed-tries counter of a seat (`None`: the game master), this hour.
    fn failures(&mut self, game: &str, seat: Option<usize>) -> Result<SenderRecord, StoreError> {
        let key = failures_key(game, seat);
        let now = self.now();
        if let Some(r) = self.counters.get(&key) {
            return Ok(r.clone());
        }
        let mut r = self.store.sender(&key)?.unwrap_or(SenderRecord {
            address: key.clone(),
            ..Default::default()
        });
        if now - r.window_start >= 3600 || now < r.window_start {
            r.window_start = now;
            r.count = 0;
            r.warned = false;
        }
        self.counters.insert(key, r.clone());
        Ok(r)
    }

    /// One more failed try on the writer's seat (and on the game master when the writer
    /// is the game master); at the limit, the game master is told, once an hour.
    fn count_failure(
        &mut self,
        g: &Loaded,
        seat: Option<usize>,
        is_gm: bool,
    ) -> Result<(), StoreError> {
        let game = g.rec.id.clone();
        let mut targets = Vec::new();
        if let Some(s) = seat {
            targets.push(Some(s));
        }
        if is_gm {
            targets.push(None);
        }
        for target in targets {
            let mut r = self.failures(&game, target)?;
            r.count = r.count.saturating_add(1);
            let tell = r.count >= MAX_FAILED_TRIES && !r.warned;
            if tell {
                r.warned = true;
            }
            self.counters.insert(failures_key(&game, target), r);
            if tell {
                let before = self.mails.len();
                let name = match target {
                    Some(s) => g.rec.seats[s].name.clone(),
                    None => String::new(),
                };
                self.glog(
                    &game,
                    "locked",
                    format!(
                        "{MAX_FAILED_TRIES} failed tries on {}",
                        failures_key(&game, target).trim_start_matches('\0')
                    ),
                );
                let gm = g.rec.gm.clone();
                self.notify(
                    &g.rec,
                    &[gm],
                    crate::mails::Event::PasswordLocked {
                        name,
                        tries: MAX_FAILED_TRIES,
                    },
                );
                // Sent even when the mail itself is dropped (over its rate limit).
                let notice: Vec<_> = self.mails.drain(before..).collect();
                self.notices.extend(notice);
            }
        }
        Ok(())
    }

    /// The game in context, authenticated; or a section saying why not.
    pub(crate) fn authed(
        &mut self,
        ctx: &Ctx,
        from: &str,
        what: &str,
    ) -> Result<Option<(Loaded, Who)>, StoreError> {
        let Some(id) = ctx.game.clone() else {
            let lang = self.writer_lang(from);
            let answer = AuthAnswer::WhichGame {
                command: what.to_string(),
            };
            self.answer(lang, "auth", &answer);
            return Ok(None);
        };
        if ctx.bad {
            return Ok(None);
        }
        let Some(mut g) = self.take(&id)? else {
            return Ok(None);
        };
        match self.auth(&mut g, ctx, from)? {
            Ok(w) => {
                if let Some(t) = self.touched.iter_mut().find(|(t, _)| *t == id) {
                    t.1 = w.seat;
                }
                Ok(Some((g, w)))
            }
            Err(e) => {
                let lang = self.addr_lang(&g.rec, from);
                self.put(g);
                let answer = AuthAnswer::Refused {
                    command: what.to_string(),
                    error: e,
                };
                self.answer(lang, "auth", &answer);
                Ok(None)
            }
        }
    }
}

/// Why a writer may not act in a game (the answer names the case).
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, thiserror::Error)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub(crate) enum AuthError {
    #[error("{address} is not a player or the game master of {game}")]
    NotInGame { address: String, game: String },
    #[error("no password or token for {game}")]
    NoCredentials { game: String },
    #[error("wrong password or token for {game}")]
    WrongCredentials { game: String },
    /// A second credential in one mail after a wrong one: not checked.
    #[error("one password try per mail for {game}")]
    OneTryPerMail { game: String },
    /// Too many failed tries on the seat this hour: the password is not checked.
    #[error("password locked for {game}")]
    Locked { game: String },
}

/// What the judge answers about the game in context (templates/LANG/answers/auth.txt).
#[derive(Clone, Debug, serde::Serialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub(crate) enum AuthAnswer {
    /// `command` needs a game and none was named.
    WhichGame {
        command: String,
    },
    Refused {
        command: String,
        error: AuthError,
    },
    /// GAME named a game this judge does not have: its lines are skipped.
    NoGame {
        game: String,
    },
}

/// GAME game-id [password]: the game the following lines are for.
pub(crate) fn parse_game(a: &Args) -> Result<Command, CmdError> {
    match a.words.as_slice() {
        [g] => Ok(Command::Game(g.to_lowercase(), None)),
        [g, p] => Ok(Command::Game(g.to_lowercase(), Some(p.to_string()))),
        _ => Err(CmdError::GameArgs),
    }
}

/// PASSWORD word
pub(crate) fn parse_password(a: &Args) -> Result<Command, CmdError> {
    match a.words.as_slice() {
        [p] => Ok(Command::Password(p.to_string())),
        _ => Err(CmdError::PasswordArgs),
    }
}

/// Compare a secret (a password hash, a token) with what was given in time that does not
/// depend on where they first differ. Empty never matches (an open seat has no secret).
pub(crate) fn same(secret: &str, given: &str) -> bool {
    let (a, b) = (secret.as_bytes(), given.as_bytes());
    if a.is_empty() || a.len() != b.len() {
        return false;
    }
    a.iter().zip(b).fold(0u8, |acc, (x, y)| acc | (x ^ y)) == 0
}

#[cfg(test)]
mod same_tests {
    use super::same;

    /// Issue 13: "compare tokens in constant time"; and an empty secret (an open seat)
    /// never matches.
    #[test]
    fn secrets_match_only_when_equal_and_not_empty() {
        assert!(same("k3j9x", "k3j9x"));
        assert!(!same("k3j9x", "k3j9y"));
        assert!(!same("k3j9x", "k3j9"));
        assert!(!same("", ""));
    }
}
