//! Applying a parsed command: route it to its family's file.

use crate::cmd::*;
use crate::judge::*;
use crate::mails::*;
use crate::model::*;
use crate::run::*;
use serde_json::json;

impl Run<'_> {
    pub(crate) fn command(
        &mut self,
        ctx: &mut Ctx,
        cmd: Cmd,
        no: usize,
        line: &str,
        from: &str,
    ) -> Result<(), StoreError> {
        match cmd {
            Cmd::Help => {
                let games: Vec<_> = self
                    .j
                    .games
                    .iter()
                    .map(|g| json!({"name": g.name, "min": g.min_seats, "max": g.max_seats}))
                    .collect();
                let text = self.j.templates.render(
                    "help.txt",
                    &json!({"judge": self.j.config.address, "games": games}),
                );
                self.section("HELP", text);
            }
            Cmd::List => {
                let mut out = Vec::new();
                for id in self.store.game_ids()? {
                    let rec = match self.games.get(&id) {
                        Some(g) => Some(g.rec.clone()),
                        None => self.store.game(&id)?,
                    };
                    if let Some(r) = rec {
                        out.push(self.list_line(&r));
                    }
                }
                for (id, g) in &self.games {
                    if !out.iter().any(|l| l.starts_with(&format!("{id} "))) {
                        out.push(self.list_line(&g.rec));
                    }
                }
                if out.is_empty() {
                    out.push("No games yet. CREATE one!".into());
                }
                self.section("LIST", out.join("\n"));
            }
            Cmd::Create(game, args) => {
                if !self.j.config.creators.is_empty()
                    && !self.j.config.creators.iter().any(|c| lower(c) == from)
                {
                    self.section(
                        "CREATE refused",
                        format!(
                            "{} Only the judge's game masters may create games here.",
                            quote(no, line)
                        ),
                    );
                } else {
                    match self.create(from, &game, &args) {
                        Ok(id) => {
                            self.touched.push((id.clone(), None));
                            self.section(
                                format!("CREATE {id}"),
                                format!(
                                    "Game {id} is created; you are its game master. Your \
                                     password and token come in a separate mail, as do each \
                                     player's."
                                ),
                            );
                        }
                        Err(e) => {
                            self.section("CREATE refused", format!("{}\n  {e}", quote(no, line)))
                        }
                    }
                }
            }
            Cmd::Join {
                game,
                password,
                name,
            } => self.join(from, &game, &password, name)?,
            Cmd::Game(id, pw) => self.enter_game(ctx, &id, pw)?,
            Cmd::Password(pw) => ctx.password = Some(pw),
            Cmd::Status(id) => {
                if let Some(id) = id {
                    self.enter_game(ctx, &id, ctx.password.clone())?;
                }
                self.status(ctx, from)?;
            }
            Cmd::Orders(arg) => {
                let name = match arg.or_else(|| ctx.game.clone()) {
                    Some(a) => match self.info(&a) {
                        Some(i) => Some(i.name.to_string()),
                        None => self.take(&a)?.map(|g| {
                            let n = g.rec.game.clone();
                            self.put(g);
                            n
                        }),
                    },
                    None => None,
                };
                match name.and_then(|n| self.j.info(&n).copied()) {
                    Some(info) => self.section(
                        format!("ORDERS for {}", info.name),
                        (info.help)(castellan_engine::Lang::En),
                    ),
                    None => {
                        let names: Vec<&str> = self.j.games.iter().map(|g| g.name).collect();
                        self.section(
                            "ORDERS: which game?",
                            format!("Write ORDERS followed by one of: {}", names.join(", ")),
                        )
                    }
                }
            }
            Cmd::Check(Some(order)) => {
                if ctx.game.is_none() || ctx.bad {
                    self.section(
                        "CHECK: which game?",
                        "Write GAME game-id yourpassword first.",
                    );
                } else {
                    let mode = ctx.check_mode;
                    ctx.check_mode = true;
                    ctx.orders.push((no, order));
                    self.flush(ctx, from)?;
                    ctx.check_mode = mode;
                }
            }
            Cmd::Check(None) => ctx.check_mode = true,
            Cmd::History(id, range) => {
                if let Some(id) = id {
                    self.enter_game(ctx, &id, ctx.password.clone())?;
                }
                self.history(ctx, from, range.as_deref())?;
            }
            Cmd::Press(Some(text)) => self.press(ctx, from, &text)?,
            Cmd::Press(None) => ctx.press = Some((no, Vec::new())),
            Cmd::EndPress => {}
            Cmd::Observe(id, off) => {
                let id = id.or_else(|| ctx.game.clone());
                self.observe(from, id, off)?;
            }
            Cmd::Verify(id) => {
                if let Some(id) = id {
                    self.enter_game(ctx, &id, ctx.password.clone())?;
                }
                self.verify(ctx)?;
            }
            Cmd::Resign | Cmd::Vacation(_) => self.seat_command(ctx, from, cmd)?,
            Cmd::Start
            | Cmd::Pause
            | Cmd::Resume
            | Cmd::Extend(_)
            | Cmd::Replace(..)
            | Cmd::Kick(_)
            | Cmd::End => {
                let Some((g, who)) = self.authed(ctx, from, &first_word(line))? else {
                    return Ok(());
                };
                if !who.gm {
                    self.section(
                        format!("{} refused", first_word(line)),
                        format!("Only the game master of {} may do that.", g.rec.id),
                    );
                    self.put(g);
                    return Ok(());
                }
                let id = g.rec.id.clone();
                self.put(g);
                match self.gm_op(&id, cmd) {
                    Ok(t) => self.section(format!("{} {id}", first_word(line)), t),
                    Err(JudgeError::Refused(e)) => self.section(
                        format!("{} refused", first_word(line)),
                        format!("{}\n  {e}", quote(no, line)),
                    ),
                    Err(JudgeError::Store(e)) => return Err(e),
                }
            }
        }
        Ok(())
    }
}
pub(crate) fn first_word(line: &str) -> String {
    line.split_whitespace().next().unwrap_or("").to_uppercase()
}
