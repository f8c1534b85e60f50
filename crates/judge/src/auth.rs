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
                self.section(
                    format!("No game {id}"),
                    format!(
                        "There is no game \"{id}\" on this judge, so the lines that follow \
                         it were not read and nothing changed. Send LIST for the games."
                    ),
                );
            }
        }
        Ok(())
    }

    /// Who the writer is in this game, or why they are refused.
    pub(crate) fn auth(&self, g: &Loaded, ctx: &Ctx, from: &str) -> Result<Who, String> {
        let rec = &g.rec;
        let seat = rec.seat_of(from);
        let is_gm = lower(&rec.gm) == from;
        if seat.is_none() && !is_gm {
            return Err(format!(
                "{from} is not a player or the game master of {}. Nothing changed.",
                rec.id
            ));
        }
        let mut valid = false;
        if let Some(pw) = &ctx.password {
            let h = hash_pw(&rec.salt, pw);
            valid |= seat.is_some_and(|s| rec.seats[s].password_hash == h);
            valid |= is_gm && rec.gm_password_hash == h;
        }
        for t in &ctx.tokens {
            valid |= seat.is_some_and(|s| &rec.seats[s].token == t);
            valid |= is_gm && &rec.gm_token == t;
        }
        if !valid {
            return Err(if ctx.password.is_none() && ctx.tokens.is_empty() {
                format!(
                    "Your mail has no password or token for {id}, so nothing changed. Write \
                     \"GAME {id} yourpassword\" before your orders, or reply to a mail of the \
                     judge whose subject carries your token.",
                    id = rec.id
                )
            } else {
                format!(
                    "Wrong password or token for {}, so nothing changed.",
                    rec.id
                )
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
            self.section(
                format!("{what}: which game?"),
                format!("{what} needs a game: write GAME game-id yourpassword first."),
            );
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
                self.put(g);
                self.section(format!("{what} refused"), e);
                Ok(None)
            }
        }
    }
}

/// GAME game-id [password]: the game the following lines are for.
pub(crate) fn parse_game(a: &Args) -> Result<Command, CmdError> {
    match a.words.as_slice() {
        [g] => Ok(Command::Game(g.to_lowercase(), None)),
        [g, p] => Ok(Command::Game(g.to_lowercase(), Some(p.to_string()))),
        _ => Err(refuse(
            "GAME needs the game id, then optionally your password",
            "write: GAME castle-7 yourpassword",
        )),
    }
}

/// PASSWORD word
pub(crate) fn parse_password(a: &Args) -> Result<Command, CmdError> {
    match a.words.as_slice() {
        [p] => Ok(Command::Password(p.to_string())),
        _ => Err(refuse(
            "PASSWORD needs one word",
            "write: PASSWORD yourpassword",
        )),
    }
}
