//! Orders and CHECK: the game lines of a mail, submitted or checked as one text.

use crate::mails::*;
use crate::model::*;
use crate::run::*;
use castellan_engine::LineVerdict;

impl Run<'_> {
    pub(crate) fn flush(&mut self, ctx: &mut Ctx, from: &str) -> Result<(), StoreError> {
        if ctx.orders.is_empty() {
            return Ok(());
        }
        let orders = std::mem::take(&mut ctx.orders);
        let check = ctx.check_mode;
        let what = if check { "CHECK" } else { "Orders" };
        let Some((mut g, who)) = self.authed(ctx, from, what)? else {
            return Ok(());
        };
        let id = g.rec.id.clone();
        // Text whose line numbers are the mail's.
        let last = orders.last().map(|(n, _)| *n).unwrap_or(0);
        let mut text = vec![String::new(); last];
        for (n, l) in &orders {
            if *n >= 1 {
                text[*n - 1] = l.clone();
            }
        }
        let text = text.join("\n");
        let Some(seat) = who.seat else {
            self.section(
                format!("{what} for {id} refused"),
                format!(
                    "You are the game master of {id}, not a player: orders need a seat.\n{}",
                    orders
                        .iter()
                        .map(|(n, l)| quote(*n, l))
                        .collect::<Vec<_>>()
                        .join("\n")
                ),
            );
            self.put(g);
            return Ok(());
        };
        let status_problem = match g.rec.status {
            Status::Running => None,
            Status::Forming => Some("has not started yet"),
            Status::Paused => Some("is paused by its game master"),
            Status::Finished => Some("is over"),
        };
        if let Some(p) = status_problem {
            self.section(
                format!("{what} for {id} refused"),
                format!("{id} {p}, so no orders are taken and nothing changed."),
            );
            self.put(g);
            return Ok(());
        }
        if check {
            self.check_text(&mut g, seat, &text);
        } else {
            self.submit_text(&mut g, seat, &text, &orders);
        }
        self.put(g);
        Ok(())
    }

    /// CHECK: each line's verdict, nothing applied.
    fn check_text(&mut self, g: &mut Loaded, seat: usize, text: &str) {
        let id = g.rec.id.clone();
        let lang = self.seat_lang(&g.rec, seat);
        let Some(session) = g.session.as_mut() else {
            return;
        };
        let mut out = Vec::new();
        for c in session.check(seat, text, lang) {
            out.push(quote(c.line_no, &c.line));
            match c.verdict {
                LineVerdict::Ok(lines) if lines.is_empty() => out.push("  ok".into()),
                LineVerdict::Ok(lines) => {
                    for l in lines {
                        out.push(format!("  ok: {l}"));
                    }
                }
                LineVerdict::Err { message, hint } => {
                    out.push(format!("  refused: {message}"));
                    if let Some(h) = hint {
                        out.push(format!("  {h}"));
                    }
                }
                LineVerdict::NeedsDice => {
                    out.push("  legal so far; dice decide what happens from here".into())
                }
            }
        }
        out.push("CHECK applies nothing: send the orders without CHECK to play them.".into());
        self.section(format!("CHECK for {id}"), out.join("\n"));
    }

    /// Orders: all applied, or none and every refused line quoted.
    fn submit_text(&mut self, g: &mut Loaded, seat: usize, text: &str, orders: &[(usize, String)]) {
        let id = g.rec.id.clone();
        let lang = self.seat_lang(&g.rec, seat);
        let Some(session) = g.session.as_mut() else {
            return;
        };
        match session.submit(seat, text, lang) {
            Ok(n) => {
                let s = &mut g.rec.seats[seat];
                s.misses = 0;
                let back = s.bot && !s.resigned;
                if back {
                    s.bot = false;
                }
                g.dirty = true;
                let mut text = format!("{} order line(s) applied.", orders.len());
                if back {
                    text.push_str(" Welcome back: the bot no longer plays your seat.");
                }
                if !n.public.is_empty() {
                    text.push('\n');
                    text.push_str(&n.public.join("\n"));
                }
                text.push_str("\nThe report follows in separate mails.");
                self.section(format!("Orders for {id}"), text);
                let lines: Vec<&str> = orders.iter().map(|(_, l)| l.as_str()).collect();
                self.glog(&id, "orders", format!("seat {seat}: {}", lines.join(" / ")));
            }
            Err(errs) => {
                let mut out = Vec::new();
                for e in errs {
                    out.push(quote(e.line_no, &e.line));
                    out.push(format!("  {}", e.message));
                    if let Some(h) = e.hint {
                        out.push(format!("  {h}"));
                    }
                }
                out.push(
                    "Nothing was applied (orders are all or nothing): fix these lines and \
                     send all your orders again."
                        .into(),
                );
                self.section(format!("Orders for {id} refused"), out.join("\n"));
            }
        }
    }
}

impl Run<'_> {
    /// CHECK order: check one line now, whatever the mode.
    pub(crate) fn check_line(
        &mut self,
        ctx: &mut Ctx,
        from: &str,
        no: usize,
        order: String,
    ) -> Result<(), StoreError> {
        if ctx.game.is_none() || ctx.bad {
            self.section(
                "CHECK: which game?",
                "Write GAME game-id yourpassword first.",
            );
            return Ok(());
        }
        let mode = ctx.check_mode;
        ctx.check_mode = true;
        ctx.orders.push((no, order));
        self.flush(ctx, from)?;
        ctx.check_mode = mode;
        Ok(())
    }
}
