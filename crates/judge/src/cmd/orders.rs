//! Orders and CHECK (VÉRIFIER): the game lines of a mail, submitted or checked as one text.
//!
//! The answers are [`OrdersAnswer`], worded by templates/LANG/answers/orders.txt.

use crate::intake::reading::Quoted;
use crate::model::*;
use crate::run::*;
use castellan_engine::LineVerdict;

/// One line's verdict under CHECK.
#[derive(Clone, Debug, serde::Serialize)]
#[serde(tag = "verdict", rename_all = "snake_case")]
pub(crate) enum Checked {
    /// Legal; what it would do, if the game says.
    Ok {
        quoted: Quoted,
        results: Vec<String>,
    },
    Refused {
        quoted: Quoted,
        message: String,
        hint: Option<String>,
    },
    /// Legal so far; dice decide the rest.
    NeedsDice { quoted: Quoted },
    /// After a line that rolls dice: nothing wrong that dice cannot change.
    PastChance { quoted: Quoted },
    /// After a line that rolls dice, in a game that checks nothing there.
    Unchecked { quoted: Quoted },
}

/// A refused order line.
#[derive(Clone, Debug, serde::Serialize)]
pub(crate) struct RefusedLine {
    pub quoted: Quoted,
    pub message: String,
    pub hint: Option<String>,
}

/// A seat put out of the game by the orders answered (the table's report says it too).
#[derive(Clone, Debug, serde::Serialize)]
pub(crate) struct OutLine {
    pub name: String,
    pub turn: u32,
    pub by: Option<String>,
    /// `by` after French "de" ("d'Anna").
    pub by_de: Option<String>,
}

/// What orders and CHECK answer.
#[derive(Clone, Debug, serde::Serialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub(crate) enum OrdersAnswer {
    /// CHECK with no game in context.
    CheckWhichGame,
    /// The game master sent order lines: orders need a seat.
    GmHasNoSeat {
        check: bool,
        game: String,
        lines: Vec<Quoted>,
    },
    /// The game takes no orders now (`status`: forming, paused, finished).
    NotTaking {
        check: bool,
        game: String,
        status: &'static str,
    },
    Checked {
        game: String,
        lines: Vec<Checked>,
    },
    Applied {
        game: String,
        count: usize,
        /// The bot that stood in stops: the player is back.
        back: bool,
        happened: Vec<String>,
        /// Seats these orders put out of the game.
        out: Vec<OutLine>,
        /// Lines after the last order that are not orders (a signature, "thanks!"):
        /// ignored, and named.
        ignored: Vec<Quoted>,
    },
    /// Refused. `stood`: the line numbers applied anyway because a die was rolled (or a
    /// hidden card drawn) before the first refused line, and `happened` what they did;
    /// `unchecked`: lines after a die that were not checked.
    Refused {
        game: String,
        lines: Vec<RefusedLine>,
        unchecked: Vec<RefusedLine>,
        stood: Vec<usize>,
        happened: Vec<String>,
    },
}

impl Run<'_> {
    /// Send the order lines gathered so far (for the game in context) to the game, or
    /// check them (CHECK), and answer.
    pub(crate) fn flush(&mut self, ctx: &mut Ctx, from: &str) -> Result<(), StoreError> {
        self.set_aside_unread(ctx, from, false)?;
        if ctx.orders.is_empty() {
            return Ok(());
        }
        let orders = std::mem::take(&mut ctx.orders);
        let check = ctx.check_mode;
        let what = if check { "CHECK" } else { "Orders" };
        let Some(done) = self.authed(ctx, from, what, |run, g, who| -> Result<(), StoreError> {
            let game = g.rec.id.clone();
            let lang = run.addr_lang(&g.rec, from);
            let Some(seat) = who.seat else {
                let lines = orders.iter().map(|(n, l)| Quoted::new(*n, l)).collect();
                let answer = OrdersAnswer::GmHasNoSeat { check, game, lines };
                run.answer(lang, "orders", &answer);
                return Ok(());
            };
            let status = match g.rec.status {
                Status::Running => None,
                Status::Forming => Some("forming"),
                Status::Paused => Some("paused"),
                Status::Finished => Some("finished"),
            };
            if let Some(status) = status {
                let answer = OrdersAnswer::NotTaking {
                    check,
                    game,
                    status,
                };
                run.answer(lang, "orders", &answer);
                return Ok(());
            }
            let text = mail_text(&orders);
            let answer = if check {
                run.check_text(g, seat, &text)
            } else {
                run.submit_text(g, seat, &text, &orders)
            };
            if let Some(answer) = answer {
                run.answer(lang, "orders", &answer);
            }
            Ok(())
        })?
        else {
            return Ok(());
        };
        done
    }

    /// CHECK: each line's verdict, nothing applied.
    fn check_text(&mut self, g: &mut Loaded, seat: usize, text: &str) -> Option<OrdersAnswer> {
        let lang = self.seat_lang(&g.rec, seat);
        let session = g.session.as_mut()?;
        let lines = session
            .check(seat, text, lang)
            .into_iter()
            .map(|c| {
                let quoted = Quoted::new(c.line_no, &c.line);
                match c.verdict {
                    // Legality only: CHECK never tells what a line would do.
                    LineVerdict::Ok => Checked::Ok {
                        quoted,
                        results: Vec::new(),
                    },
                    LineVerdict::Err { message, hint } => Checked::Refused {
                        quoted,
                        message,
                        hint,
                    },
                    LineVerdict::NeedsDice => Checked::NeedsDice { quoted },
                    LineVerdict::PastChance => Checked::PastChance { quoted },
                    LineVerdict::Unchecked => Checked::Unchecked { quoted },
                }
            })
            .collect();
        Some(OrdersAnswer::Checked {
            game: g.rec.id.clone(),
            lines,
        })
    }

    /// Orders: all applied, or none and every refused line quoted.
    fn submit_text(
        &mut self,
        g: &mut Loaded,
        seat: usize,
        text: &str,
        orders: &[(usize, String)],
    ) -> Option<OrdersAnswer> {
        let game = g.rec.id.clone();
        let lang = self.seat_lang(&g.rec, seat);
        let session = g.session.as_mut()?;
        let awaited = session.awaiting().contains(&seat);
        let turn = session.turn();
        let history_before = session.history_len();
        let asked = |s: &dyn castellan_engine::Session| -> Vec<castellan_engine::PromptKind> {
            s.pending(castellan_engine::Lang::En)
                .into_iter()
                .filter(|p| p.seat == seat)
                .map(|p| p.kind)
                .collect()
        };
        let asked_before = asked(session.as_ref());
        let applied = match session.submit(seat, text, lang) {
            Ok(n) => n,
            Err(refused) => return Some(self.refused(g, seat, orders, refused)),
        };
        // Still awaited, for something else (END, then PLACE): the reply asks it.
        let asked_now = asked(session.as_ref());
        if !asked_now.is_empty() && asked_now != asked_before {
            g.ask_writer = true;
        }
        if awaited {
            if let Some(addr) = g.rec.seats[seat].address.clone() {
                if let Err(e) = self.turn_met(&game, &addr, turn) {
                    self.glog(&game, "error", format!("record not updated: {e}"));
                }
            }
        }
        let s = &mut g.rec.seats[seat];
        s.misses = 0;
        let back = (s.bot || s.disorder) && !s.resigned;
        if back {
            s.bot = false;
            s.disorder = false;
        }
        g.dirty = true;
        let lines: Vec<&str> = orders.iter().map(|(_, l)| l.as_str()).collect();
        self.glog(
            &game,
            "orders",
            format!("seat {seat}: {}", lines.join(" / ")),
        );
        let ignored: Vec<Quoted> = applied
            .ignored
            .iter()
            .map(|(no, l)| Quoted::new(*no, l))
            .collect();
        Some(OrdersAnswer::Applied {
            game,
            count: orders.len() - ignored.len(),
            back,
            happened: applied.public,
            out: out_since(g, history_before),
            ignored,
        })
    }

    /// Orders refused: the lines and why; what stood before the refused line (a die once
    /// rolled stands) is kept like any orders.
    fn refused(
        &mut self,
        g: &mut Loaded,
        seat: usize,
        orders: &[(usize, String)],
        refused: castellan_engine::Refused,
    ) -> OrdersAnswer {
        let game = g.rec.id.clone();
        if !refused.stood.is_empty() {
            g.rec.seats[seat].misses = 0;
            g.dirty = true;
            let lines: Vec<&str> = orders
                .iter()
                .filter(|(n, _)| refused.stood.contains(n))
                .map(|(_, l)| l.as_str())
                .collect();
            self.glog(
                &game,
                "orders",
                format!(
                    "seat {seat} (stood before a refused line): {}",
                    lines.join(" / ")
                ),
            );
        }
        let refused_lines = |v: Vec<castellan_engine::LineError>| -> Vec<RefusedLine> {
            v.into_iter()
                .map(|e| RefusedLine {
                    quoted: Quoted::new(e.line_no, &e.line),
                    message: e.message,
                    hint: e.hint,
                })
                .collect()
        };
        OrdersAnswer::Refused {
            game,
            lines: refused_lines(refused.errors),
            unchecked: refused_lines(refused.unchecked),
            stood: refused.stood,
            happened: refused.narration.public,
        }
    }

    /// CHECK order: check one line now, whatever the mode.
    pub(crate) fn check_line(
        &mut self,
        ctx: &mut Ctx,
        from: &str,
        no: usize,
        order: String,
    ) -> Result<(), StoreError> {
        if ctx.game.is_none() || ctx.bad {
            let lang = self.writer_lang(from);
            self.answer(lang, "orders", &OrdersAnswer::CheckWhichGame);
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

/// The order lines as one text whose line numbers are the mail's.
fn mail_text(orders: &[(usize, String)]) -> String {
    let last = orders.last().map(|(n, _)| *n).unwrap_or(0);
    let mut text = vec![String::new(); last];
    for (n, l) in orders {
        if *n >= 1 {
            text[*n - 1] = l.clone();
        }
    }
    text.join("\n")
}

/// The seats put out of the game since history entry `from`, as the reply names them.
fn out_since(g: &Loaded, from: usize) -> Vec<OutLine> {
    let Some(s) = g.session.as_ref() else {
        return Vec::new();
    };
    s.eliminations_since(from)
        .into_iter()
        .map(|e| OutLine {
            name: seat_name(&g.rec, e.seat),
            turn: e.turn,
            by: e.by.map(|b| seat_name(&g.rec, b)),
            by_de: e
                .by
                .map(|b| castellan_engine::lang::fr::de(&seat_name(&g.rec, b))),
        })
        .collect()
}
