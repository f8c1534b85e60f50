//! Reading a mail: subject tag and tokens, plus-addresses, the lines one by one.

use crate::cmd::{self as commands, *};
use crate::judge::Judge;
use crate::model::*;
use crate::run::*;
use crate::store::Store;
use castellan_engine::LineVerdict;

pub(crate) mod reading;
pub use reading::processed_key;
pub(crate) use reading::*;

impl Run<'_> {
    // ---------------------------------------------------------------- mail lines

    pub(crate) fn process_mail(&mut self, mail: &Inbound, from: &str) -> Result<(), StoreError> {
        let mut ctx = Ctx::default();
        let rest = self.context_from_headers(&mut ctx, mail)?;
        let mut lines: Vec<(usize, String)> = Vec::new();
        let first = rest.split_whitespace().next().unwrap_or("").to_uppercase();
        // The subject holds a command only when the body is empty (a one-liner).
        if ctx.game.is_none() && mail.body.trim().is_empty() && commands::keyword(&first).is_some()
        {
            lines.push((0, rest.clone()));
        }
        for (i, l) in mail.body.lines().enumerate() {
            lines.push((i + 1, l.to_string()));
        }
        let mut reading = Reading::default();
        for (no, raw) in lines {
            if self.read_line(&mut ctx, &mut reading, no, &raw, from)? == Read::Stop {
                break;
            }
        }
        self.set_aside_unread(&mut ctx, from, true)?;
        self.flush(&mut ctx, from)?;
        if ctx.press.is_some() {
            self.end_press(&mut ctx, from)?;
        }
        self.answer_chatter(&mut ctx, reading, from);
        Ok(())
    }

    /// One line of the mail: a line of press, a command, or an order for the game in
    /// context (gathered until the next command); the limits on lines and commands.
    fn read_line(
        &mut self,
        ctx: &mut Ctx,
        reading: &mut Reading,
        no: usize,
        raw: &str,
        from: &str,
    ) -> Result<Read, StoreError> {
        let max = self.j.config.max_lines;
        let line = raw.trim();
        if ctx.press.is_some() && !line.is_empty() {
            // PRESS lines count like any other: a press over the limit is not sent.
            reading.counted += 1;
            if reading.counted > max {
                ctx.press = None;
                let lang = self.writer_lang(from);
                self.answer(lang, "intake", &IntakeAnswer::PressTooLong { max });
                return Ok(Read::Stop);
            }
        }
        if let Some((_, buf)) = &mut ctx.press {
            if ["endpress", "end press", "finpresse", "fin presse"]
                .iter()
                .any(|e| line.eq_ignore_ascii_case(e))
            {
                self.end_press(ctx, from)?;
            } else {
                buf.push(raw.trim_end().to_string());
            }
            return Ok(Read::On);
        }
        if line.is_empty() || line.starts_with('#') {
            return Ok(Read::On);
        }
        if line == "--" || line.eq_ignore_ascii_case("signoff") {
            return Ok(Read::Stop);
        }
        reading.counted += 1;
        if reading.counted > max {
            let lang = self.writer_lang(from);
            self.answer(lang, "intake", &IntakeAnswer::TooManyLines { max });
            return Ok(Read::Stop);
        }
        let parsed = commands::parse(line, &self.j.config);
        // French command words, the French order words the games share, or (on a line that
        // is no command) the game in context's own French order words.
        if commands::is_french(line)
            || castellan_engine::lang::fr::is_order_line(line)
            || (parsed.is_none() && self.reads_as_french_order(ctx, line)?)
        {
            self.french_words = true;
        }
        if parsed.is_some() {
            reading.commands += 1;
            let max = self.j.config.max_commands;
            if reading.commands > max {
                // The rest of the mail is not read: a skipped GAME line must not send
                // the orders after it to another game.
                let lang = self.writer_lang(from);
                let answer = IntakeAnswer::TooManyCommands { max, line: no };
                self.answer(lang, "intake", &answer);
                return Ok(Read::Stop);
            }
        }
        match parsed {
            Some(Ok(cmd)) if !self.is_game_order(ctx, &cmd, line, from)? => {
                self.flush(ctx, from)?;
                if !matches!(
                    cmd,
                    Command::Game(..) | Command::Password(_) | Command::Check(None)
                ) {
                    ctx.acted = true;
                    reading.last_command = no;
                }
                self.command(ctx, cmd, no, line, from)?;
            }
            Some(Err(e)) => {
                self.flush(ctx, from)?;
                ctx.acted = true;
                reading.last_command = no;
                let lang = self.writer_lang(from);
                let answer = IntakeAnswer::Refused {
                    quoted: Quoted::new(no, line),
                    error: e,
                };
                self.answer(lang, "intake", &answer);
            }
            _ if ctx.game.is_some() => {
                if !ctx.bad {
                    ctx.orders.push((no, line.to_string()));
                }
            }
            _ => reading.chatter.push(Quoted::new(no, line)),
        }
        Ok(Read::On)
    }

    /// Outside a game: a greeting anywhere, and whatever follows the last command, is
    /// not read; a line between two commands is not understood.
    fn answer_chatter(&mut self, ctx: &mut Ctx, reading: Reading, from: &str) {
        let (mut unread, chatter): (Vec<Quoted>, Vec<Quoted>) =
            reading.chatter.into_iter().partition(|q| {
                looks_like_greeting(&q.line) || (ctx.acted && q.no > reading.last_command)
            });
        unread.append(&mut ctx.unread);
        self.not_understood(chatter, from, !unread.is_empty());
        if !unread.is_empty() {
            unread.sort_by_key(|q| q.no);
            let more = unread.len().saturating_sub(5);
            unread.truncate(5);
            let lang = self.writer_lang(from);
            let answer = IntakeAnswer::Unread {
                lines: unread,
                more,
            };
            self.answer(lang, "intake", &answer);
        }
    }

    /// Lines of the game in context that are not orders at all (the game has no order
    /// word for them) and that the judge leaves unread rather than refuse: a greeting
    /// before the first order, and what follows the last order (a sign-off, a name); at
    /// the end of a mail that held a command (`last`), whatever follows it. A line that
    /// is not an order between two orders is left to the game, which refuses it. Not for
    /// CHECK, which gives every line's verdict.
    pub(crate) fn set_aside_unread(
        &mut self,
        ctx: &mut Ctx,
        from: &str,
        last: bool,
    ) -> Result<(), StoreError> {
        let (Some(id), false, false) = (ctx.game.clone(), ctx.bad, ctx.check_mode) else {
            return Ok(());
        };
        if ctx.orders.is_empty() {
            return Ok(());
        }
        let Some(g) = self.game(&id)? else {
            return Ok(());
        };
        // A game master with no seat is asked about the first seat: an order word is one.
        let seat = g.rec.seat_of(from).unwrap_or(0);
        let orders: Option<Vec<bool>> = g.session.as_ref().map(|s| {
            ctx.orders
                .iter()
                .map(|(_, l)| s.is_order_line(seat, l))
                .collect()
        });
        let after_command = last && ctx.acted;
        let mut hello = false;
        let keep = match orders {
            // No game yet (forming): no line is an order; after a command, none is read.
            None if after_command => 0..0,
            // A hello to a game that has not started: told so, not refused.
            None if last && !ctx.acted && ctx.orders.iter().all(|(_, l)| looks_like_prose(l)) => {
                hello = true;
                0..0
            }
            // A greeting before the first line is not read.
            None => {
                let start = ctx
                    .orders
                    .iter()
                    .take_while(|(_, l)| looks_like_greeting(l))
                    .count();
                start..ctx.orders.len()
            }
            // No line is an order and every one reads as prose ("Hi, count me in!", "I'm
            // back!", a name): a hello, not orders to refuse. The writer is answered with
            // what the game asks of them.
            Some(is_order)
                if last
                    && !ctx.acted
                    && is_order.iter().all(|o| !o)
                    && ctx.orders.iter().all(|(_, l)| looks_like_prose(l)) =>
            {
                hello = true;
                0..0
            }
            Some(is_order) => {
                let first = is_order.iter().position(|o| *o);
                let end = match is_order.iter().rposition(|o| *o) {
                    Some(i) => i + 1,
                    None if after_command => 0,
                    None => is_order.len(),
                };
                // A greeting before the first order.
                let start = ctx.orders[..first.unwrap_or(end).min(end)]
                    .iter()
                    .take_while(|(_, l)| looks_like_greeting(l))
                    .count();
                start..end
            }
        };
        let orders = std::mem::take(&mut ctx.orders);
        for (i, (no, line)) in orders.into_iter().enumerate() {
            if keep.contains(&i) {
                ctx.orders.push((no, line));
            } else {
                ctx.unread.push(Quoted::new(no, &line));
            }
        }
        if hello {
            self.answer_hello(ctx, from)?;
        }
        Ok(())
    }

    /// A seat's mail with no order and no command (a hello, a confirmation, "I'm back"):
    /// once its credentials are checked, the writer gets what the game asks of them now,
    /// with the deadline (a named player who confirms gets their question).
    fn answer_hello(&mut self, ctx: &Ctx, from: &str) -> Result<(), StoreError> {
        let Some(id) = ctx.game.clone() else {
            return Ok(());
        };
        let Some(done) = self.with_game(&id, |run, g| -> Result<(), StoreError> {
            // Without credentials the lines are only named as not read: nothing private goes
            // to an address that may be forged.
            if let Ok(Some(seat)) = run.auth(g, ctx, from)?.map(|w| w.seat) {
                let awaiting = match (&g.session, g.rec.status) {
                    (Some(s), Status::Running) => s.awaiting(),
                    _ => Vec::new(),
                };
                let asked = awaiting.contains(&seat);
                let lang = run.seat_lang(&g.rec, seat);
                let answer = IntakeAnswer::Hello {
                    game: g.rec.id.clone(),
                    name: g.rec.seats[seat].name.clone(),
                    asked,
                    waiting_for: awaiting.iter().map(|s| seat_name(&g.rec, *s)).collect(),
                    forming: g.rec.status == Status::Forming,
                };
                run.answer(lang, "intake", &answer);
                if asked {
                    run.question_mail(g, seat);
                }
            }
            Ok(())
        })?
        else {
            return Ok(());
        };
        done
    }

    /// The game and credentials the headers give: the subject's [game #token] tag and
    /// plus-addresses (judge+TOKEN@domain). Returns the subject without its tag.
    fn context_from_headers(
        &mut self,
        ctx: &mut Ctx,
        mail: &Inbound,
    ) -> Result<String, StoreError> {
        let (tag, token, rest) = subject_tag(&mail.subject);
        ctx.tokens = header_tokens(mail, token, &self.j.config.address);
        if let Some(id) = tag {
            self.enter_game(ctx, &id, None)?;
        } else if !ctx.tokens.is_empty() {
            // A plus-address token names its game, among the writer's own.
            if let Some(id) = self.game_of_token(&ctx.tokens, &lower(&mail.from))? {
                self.enter_game(ctx, &id, None)?;
            }
        }
        Ok(rest)
    }

    /// Lines outside any game that are not commands; or, for an empty mail, what to do.
    fn not_understood(&mut self, mut lines: Vec<Quoted>, from: &str, unread: bool) {
        let lang = self.writer_lang(from);
        if !lines.is_empty() {
            let more = lines.len().saturating_sub(5);
            lines.truncate(5);
            self.answer(lang, "intake", &IntakeAnswer::NotUnderstood { lines, more });
        }
        if self.sections.is_empty() && !unread {
            self.answer(lang, "intake", &IntakeAnswer::NothingToDo);
        }
    }

    /// Does `line` read as a French order of the game in context, by the game's own words
    /// ([`castellan_engine::Rules::reads_as_french`])? `false` with no game in context.
    fn reads_as_french_order(&mut self, ctx: &Ctx, line: &str) -> Result<bool, StoreError> {
        let Some(id) = &ctx.game else {
            return Ok(false);
        };
        let Some(g) = self.game(id)? else {
            return Ok(false);
        };
        let game = g.rec.game.clone();
        Ok(self
            .info(&game)
            .is_some_and(|info| (info.reads_as_french)(line)))
    }

    /// RESIGN and END are also game orders in some games: when the writer has a seat in
    /// the game in context and the game accepts the line, it is an order.
    pub(crate) fn is_game_order(
        &mut self,
        ctx: &Ctx,
        cmd: &Command,
        line: &str,
        from: &str,
    ) -> Result<bool, StoreError> {
        if !matches!(cmd, Command::Resign | Command::End(_)) {
            return Ok(false);
        }
        let (Some(id), false) = (&ctx.game, ctx.bad) else {
            return Ok(false);
        };
        let Some(g) = self.game(id)? else {
            return Ok(false);
        };
        let ok = match (&g.session, g.rec.seat_of(from)) {
            (Some(s), Some(seat)) => s
                .check(seat, line, castellan_engine::Lang::En)
                .first()
                .is_some_and(|c| !matches!(c.verdict, LineVerdict::Err { .. })),
            _ => false,
        };
        Ok(ok)
    }

    /// The game a plus-address token names, among the games `from` plays or runs (looked up
    /// in every game, it told a stranger whose token it was).
    pub(crate) fn game_of_token(
        &mut self,
        tokens: &[String],
        from: &str,
    ) -> Result<Option<String>, StoreError> {
        let mut mine: Option<Vec<String>> = None;
        for token in tokens {
            if let Some(id) = self.store.game_of_token(token)? {
                let mine = match &mut mine {
                    Some(m) => m,
                    None => mine.insert(self.store.games_of_address(from)?),
                };
                if mine.contains(&id) {
                    return Ok(Some(id));
                }
            }
        }
        Ok(None)
    }
}

impl Judge {
    /// Why this mail gets no answer at all (automatic mail, no sender, the judge itself).
    pub(crate) fn never_answer(&self, mail: &Inbound, mid: &str, from: &str) -> Option<String> {
        if let Some(why) = &mail.automatic {
            return Some(format!("automatic mail {mid} from {from}: {why}"));
        }
        if from.is_empty() || from == lower(&self.config.address) {
            return Some(format!(
                "mail {mid} from \"{from}\" (no sender or the judge itself)"
            ));
        }
        None
    }

    /// The sender's counters for this hour (a new window once the hour is over).
    pub(crate) fn sender_window(
        &self,
        store: &dyn Store,
        from: &str,
        now: i64,
    ) -> Result<SenderRecord, StoreError> {
        let mut sender = store.sender(from)?.unwrap_or(SenderRecord {
            address: from.to_string(),
            ..Default::default()
        });
        if now - sender.window_start >= 3600 || now < sender.window_start {
            sender = SenderRecord {
                address: from.to_string(),
                window_start: now,
                ..Default::default()
            };
        }
        Ok(sender)
    }
}

impl Run<'_> {
    /// What the reader should know about the mail's form: attachments, and HTML only (said
    /// once to an address, not in every answer: the mark `html-told`).
    pub(crate) fn mail_notes(&mut self, mail: &Inbound, from: &str) {
        let lang = self.writer_lang(from);
        if !mail.attachments.is_empty() {
            let names = mail.attachments.clone();
            self.answer(lang, "intake", &IntakeAnswer::Attachments { names });
        }
        let key = mark_key("html-told", from);
        if mail.html_only && !self.counters.mark(self.store, &key).unwrap_or(false) {
            self.answer(lang, "intake", &IntakeAnswer::HtmlOnly);
            let now = self.now();
            self.counters.set_mark(key, true, now);
        }
    }
}

impl Run<'_> {
    /// Say what the reply's size bound left out, as the reply's last section.
    pub(crate) fn note_left_out(&mut self, from: &str) {
        if self.bounds.left_out.is_empty() {
            return;
        }
        let mut titles = std::mem::take(&mut self.bounds.left_out);
        let count = titles.len();
        titles.truncate(10);
        let titles = titles
            .into_iter()
            .map(|t| crate::limits::clip(&t, 60))
            .collect();
        self.bounds.noting = true;
        let lang = self.writer_lang(from);
        let limit = self.bounds_limit;
        let answer = IntakeAnswer::ReplyCut {
            limit,
            count,
            titles,
        };
        // Whatever follows the note goes in too, as before it (the reply's last word).
        self.answer(lang, "intake", &answer);
    }
}

/// How far the reading of a mail's lines went.
#[derive(Default)]
struct Reading {
    /// Lines counted against `max_lines`.
    counted: usize,
    /// Commands read, against `max_commands`.
    commands: usize,
    /// The line of the last command read (chatter after it is a sign-off).
    last_command: usize,
    /// Lines outside any game that are no command.
    chatter: Vec<Quoted>,
}

/// After a line: read on, or stop reading the mail.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Read {
    On,
    Stop,
}

/// What the judge answers about the mail itself (templates/LANG/answers/intake.txt).
#[derive(Clone, Debug, serde::Serialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub(crate) enum IntakeAnswer {
    /// A seat's mail with nothing to do (a hello, a confirmation): whether the game waits
    /// for them now (then their question follows, with the deadline) or for whom.
    Hello {
        game: String,
        name: String,
        asked: bool,
        waiting_for: Vec<String>,
        forming: bool,
    },
    TooManyMails {
        limit: u32,
    },
    /// The body was over `limit` bytes: its first `lines` lines were read.
    TooLong {
        limit: usize,
        lines: usize,
    },
    TooManyLines {
        max: usize,
    },
    /// More than `max` commands: the mail was read up to `line` (not included).
    TooManyCommands {
        max: usize,
        line: usize,
    },
    /// A PRESS longer than `max` lines: not sent.
    PressTooLong {
        max: usize,
    },
    /// The reply reached its size bound: `count` answers were left out (`titles`, the
    /// first ten).
    ReplyCut {
        limit: usize,
        count: usize,
        titles: Vec<String>,
    },
    /// A command line that does not parse: what is wrong and how to write it.
    Refused {
        quoted: Quoted,
        error: commands::CmdError,
    },
    NotUnderstood {
        lines: Vec<Quoted>,
        more: usize,
    },
    /// Lines neither commands nor orders, set aside unread: a greeting, a sign-off
    /// (`more`: how many past the first five).
    Unread {
        lines: Vec<Quoted>,
        more: usize,
    },
    NothingToDo,
    Attachments {
        names: Vec<String>,
    },
    HtmlOnly,
}
