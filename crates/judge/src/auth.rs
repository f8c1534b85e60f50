//! Who wrote: which seat or the game master, checked by password or token.

use crate::cmd::*;
use crate::model::*;
use crate::run::*;
use castellan_engine::dice::sha256;

/// Who wrote, for one game.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct Who {
    pub(crate) seat: Option<usize>,
    pub(crate) gm: bool,
}

pub(crate) fn hash_pw(salt: &str, pw: &str) -> String {
    hex::encode(sha256(format!("{salt}:{pw}").as_bytes()))
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

    /// Who the writer is in this game, or why they are refused.
    pub(crate) fn auth(&self, g: &Loaded, ctx: &Ctx, from: &str) -> Result<Who, AuthError> {
        let rec = &g.rec;
        let seat = rec.seat_of(from);
        let is_gm = lower(&rec.gm) == from;
        if seat.is_none() && !is_gm {
            return Err(AuthError::NotInGame {
                address: from.to_string(),
                game: rec.id.clone(),
            });
        }
        let mut valid = false;
        if let Some(pw) = &ctx.password {
            let h = hash_pw(&rec.salt, pw);
            valid |= seat.is_some_and(|s| same(&rec.seats[s].password_hash, &h));
            valid |= is_gm && same(&rec.gm_password_hash, &h);
        }
        for t in &ctx.tokens {
            valid |= seat.is_some_and(|s| same(&rec.seats[s].token, t));
            valid |= is_gm && same(&rec.gm_token, t);
        }
        if !valid {
            let game = rec.id.clone();
            return Err(if ctx.password.is_none() && ctx.tokens.is_empty() {
                AuthError::NoCredentials { game }
            } else {
                AuthError::WrongCredentials { game }
            });
        }
        Ok(Who { seat, gm: is_gm })
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
        let Some(g) = self.take(&id)? else {
            return Ok(None);
        };
        match self.auth(&g, ctx, from) {
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
