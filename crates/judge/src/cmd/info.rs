//! HELP LIST ORDERS STATUS HISTORY VERIFY: commands that only read.

use crate::audit::audit;
use crate::auth::*;
use crate::clock::format_long;
use crate::cmd::*;
use crate::model::*;
use crate::run::*;
use serde_json::json;

impl Run<'_> {
    pub(crate) fn list_line(&self, r: &GameRecord) -> String {
        let filled = r.seats.len() - r.open_seats();
        format!(
            "{} {} {:?}, {}/{} seats{}{}",
            r.id,
            r.game,
            r.status,
            filled,
            r.seats.len(),
            if r.status == Status::Forming && r.open_seats() > 0 {
                format!(" ({} open: JOIN {} password)", r.open_seats(), r.id)
            } else {
                String::new()
            },
            r.deadline
                .map(|d| format!(", deadline {}", format_long(d)))
                .unwrap_or_default()
        )
    }

    pub(crate) fn show(&self, g: &Loaded) -> String {
        let r = &g.rec;
        let mut out = self.list_line(r);
        out.push_str(&format!("\ngame master: {}\n", r.gm));
        for (i, s) in r.seats.iter().enumerate() {
            out.push_str(&format!(
                "seat {}: {} <{}>{}{}{}{}\n",
                i + 1,
                s.name,
                s.address.as_deref().unwrap_or("open"),
                if s.bot { " [bot]" } else { "" },
                if s.resigned { " [resigned]" } else { "" },
                if s.misses > 0 {
                    format!(" [{} missed]", s.misses)
                } else {
                    String::new()
                },
                s.vacation_until
                    .filter(|v| *v > self.now())
                    .map(|v| format!(" [vacation until {}]", format_long(v)))
                    .unwrap_or_default()
            ));
        }
        if !r.observers.is_empty() {
            out.push_str(&format!("observers: {}\n", r.observers.join(", ")));
        }
        if let Some(s) = &g.session {
            out.push_str(&format!(
                "turn {}\n{}\n",
                s.turn(),
                s.public_view(castellan_engine::Lang::En)
            ));
        }
        out
    }

    pub(crate) fn status(&mut self, ctx: &Ctx, from: &str) -> Result<(), StoreError> {
        let Some(id) = ctx.game.clone() else {
            self.section("STATUS: which game?", "Write: STATUS game-id");
            return Ok(());
        };
        if ctx.bad {
            return Ok(());
        }
        let Some(mut g) = self.take(&id)? else {
            return Ok(());
        };
        let lang = self.addr_lang(&g.rec, from);
        let mut text = self.show_public(&mut g, lang);
        let who = self.auth(&g, ctx, from).ok();
        if let (Some(Who { seat: Some(s), .. }), Some(session)) = (who, g.session.as_ref()) {
            // The reply goes to this seat's own address only.
            text.push_str(&format!(
                "\n\nYour private view ({}):\n{}",
                g.rec.seats[s].name,
                session.private_view(s, lang)
            ));
            for p in session.pending(lang).iter().filter(|p| p.seat == s) {
                text.push_str(&format!(
                    "\nYou are asked: {} For example: {}. Default: {}",
                    p.question,
                    p.choices.join(" | "),
                    p.default
                ));
            }
        } else if g.rec.seat_of(from).is_some() {
            text.push_str(
                "\n\n(Add your password or token to see your private view: GAME id password, then STATUS.)",
            );
        }
        self.section(format!("STATUS {id}"), text);
        self.put(g);
        Ok(())
    }

    pub(crate) fn show_public(&self, g: &mut Loaded, lang: castellan_engine::Lang) -> String {
        let mut out = self.list_line(&g.rec);
        if let Some(s) = &g.session {
            let waiting: Vec<String> = s.awaiting().iter().map(|x| seat_name(&g.rec, *x)).collect();
            out.push_str(&format!(
                "\nTurn {}. Waiting for: {}\n{}",
                s.turn(),
                if waiting.is_empty() {
                    "nobody".into()
                } else {
                    waiting.join(", ")
                },
                s.public_view(lang)
            ));
        }
        out
    }

    pub(crate) fn history(
        &mut self,
        ctx: &Ctx,
        from: &str,
        range: Option<&str>,
    ) -> Result<(), StoreError> {
        let Some(id) = ctx.game.clone() else {
            self.section(
                "HISTORY: which game?",
                "Write: HISTORY game-id [turn or from-to]",
            );
            return Ok(());
        };
        if ctx.bad {
            return Ok(());
        }
        let Some(g) = self.take(&id)? else {
            return Ok(());
        };
        let Some(s) = g.session.as_ref() else {
            self.section(format!("HISTORY {id}"), "The game has not started.");
            self.put(g);
            return Ok(());
        };
        let turns = s.entry_turns();
        let last = turns.last().copied().unwrap_or(1);
        let Some((a, b)) = turn_range(range, last) else {
            self.section(
                "HISTORY refused",
                format!(
                    "\"{}\" is not a turn or a range; write: HISTORY {id} 3 or HISTORY {id} 3-5",
                    range.unwrap_or("")
                ),
            );
            self.put(g);
            return Ok(());
        };
        let from_i = turns.iter().position(|t| *t >= a).unwrap_or(turns.len());
        let to_i = turns.iter().position(|t| *t > b).unwrap_or(turns.len());
        let lang = self.addr_lang(&g.rec, from);
        let all = s.narrate_since(from_i, lang);
        let tail = s.narrate_since(to_i, lang);
        let keep = |v: usize, t: usize| v.saturating_sub(t);
        let public: Vec<String> = all.public[..keep(all.public.len(), tail.public.len())].to_vec();
        let rolls = &all.rolls[..keep(all.rolls.len(), tail.rolls.len())];
        let mut out = format!("Turns {a} to {b}:\n");
        for l in public.iter().take(2000) {
            out.push_str(&format!("  {l}\n"));
        }
        if !rolls.is_empty() {
            out.push_str("Dice (turn.index: value): ");
            out.push_str(
                &rolls
                    .iter()
                    .map(|r| format!("{}.{}: {}", r.turn, r.index, r.value))
                    .collect::<Vec<_>>()
                    .join(", "),
            );
            out.push('\n');
        }
        if let Ok(Who {
            seat: Some(seat), ..
        }) = self.auth(&g, ctx, from)
        {
            let mine_all = all.private_for(seat);
            let mine_tail = tail.private_for(seat).len();
            let mine = &mine_all[..keep(mine_all.len(), mine_tail)];
            if !mine.is_empty() {
                out.push_str("Told to you alone:\n");
                for l in mine {
                    out.push_str(&format!("  {l}\n"));
                }
            }
        }
        self.section(format!("HISTORY {id}"), out);
        self.put(g);
        Ok(())
    }

    pub(crate) fn verify(&mut self, ctx: &Ctx) -> Result<(), StoreError> {
        let Some(id) = ctx.game.clone() else {
            self.section("VERIFY: which game?", "Write: VERIFY game-id");
            return Ok(());
        };
        if ctx.bad {
            return Ok(());
        }
        let Some(mut g) = self.take(&id)? else {
            return Ok(());
        };
        let Some(s) = g.session.as_mut() else {
            self.section(format!("VERIFY {id}"), "The game has not started.");
            self.put(g);
            return Ok(());
        };
        let (_, out) = audit(&g.rec, s.as_mut());
        self.section(format!("VERIFY {id}"), out);
        self.put(g);
        Ok(())
    }
}

/// HISTORY's range: none (every turn up to `last`), a turn, or `from-to`.
fn turn_range(range: Option<&str>, last: u32) -> Option<(u32, u32)> {
    let parsed: Option<(u32, u32)> = match range {
        None => Some((1, last)),
        Some(r) => match r.split_once('-') {
            Some((a, b)) => a.trim().parse().ok().zip(b.trim().parse().ok()),
            None => r.trim().parse().ok().map(|t| (t, t)),
        },
    };
    parsed.filter(|(a, b)| a <= b)
}

/// HISTORY [game-id] [turn | from-to]
pub(crate) fn parse_history(a: &Args) -> Result<Command, CmdError> {
    let (id, range) = match a.words.as_slice() {
        [] => (None, None),
        [x] if looks_like_id(x) => (Some(x.to_lowercase()), None),
        [x] => (None, Some(x.to_string())),
        [x, y] if looks_like_id(x) => (Some(x.to_lowercase()), Some(y.to_string())),
        _ => {
            return Err(refuse(
                "HISTORY takes a game id and a turn or a range",
                "write: HISTORY castle-7 3-5",
            ))
        }
    };
    Ok(Command::History(id, range))
}

impl Run<'_> {
    /// HELP: the judge's help text.
    pub(crate) fn help(&mut self, from: &str) {
        let games: Vec<_> = self
            .j
            .games
            .iter()
            .map(|g| json!({"name": g.name, "min": g.min_seats, "max": g.max_seats}))
            .collect();
        let lang = self.writer_lang(from);
        let text = self.render_in(
            lang,
            "help.txt",
            &json!({"judge": self.j.config.address, "games": games}),
        );
        self.section("HELP", text);
    }

    /// LIST: every game, one line each.
    pub(crate) fn list(&mut self) -> Result<(), StoreError> {
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
        Ok(())
    }

    /// ORDERS [game or game-id]: the game's order syntax.
    pub(crate) fn orders_help(
        &mut self,
        ctx: &Ctx,
        from: &str,
        arg: Option<String>,
    ) -> Result<(), StoreError> {
        let lang = self.writer_lang(from);
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
            Some(info) => self.section(format!("ORDERS for {}", info.name), (info.help)(lang)),
            None => {
                let names: Vec<&str> = self.j.games.iter().map(|g| g.name).collect();
                self.section(
                    "ORDERS: which game?",
                    format!("Write ORDERS followed by one of: {}", names.join(", ")),
                )
            }
        }
        Ok(())
    }
}
