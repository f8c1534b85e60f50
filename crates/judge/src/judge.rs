//! The judge proper: mails and ticks in, [`Changes`] out.

use crate::clock::{format_long, format_short};
use crate::commands::{self, Cmd};
use crate::config::JudgeConfig;
use crate::model::*;
use crate::templates::Templates;
use castellan_engine::dice::{sha256, DiceBox, Secret, CHAIN_LEN};
use castellan_engine::{GameInfo, LineVerdict, Narration, Prompt, Session};
use serde_json::json;
use std::collections::BTreeMap;

/// The judge: configuration, the games it runs, and the wording of its mails.
pub struct Judge {
    config: JudgeConfig,
    games: Vec<GameInfo>,
    templates: Templates,
}

/// Why an admin command failed.
#[derive(Debug, thiserror::Error)]
pub enum JudgeError {
    #[error(transparent)]
    Store(#[from] StoreError),
    #[error("{0}")]
    Refused(String),
}

/// The game master's local commands (`castellan game ...`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum AdminCommand {
    /// Create a game: players as (name, address) in seat order; options as key=value
    /// (the judge's keys `deadline`, `deadline-KIND`, `reminder`, `grace`, `seats`,
    /// `password`, and the game's own options).
    New {
        game: String,
        players: Vec<(String, String)>,
        gm: String,
        options: Vec<(String, String)>,
    },
    List,
    Show {
        game: String,
    },
    Pause {
        game: String,
    },
    Resume {
        game: String,
    },
    Extend {
        game: String,
        hours: u32,
    },
    /// Give a seat (1-based number or name) to another address.
    Replace {
        game: String,
        seat: String,
        address: String,
    },
    End {
        game: String,
    },
    /// The dice audit ([`audit`]); changes nothing. Refused if the audit fails.
    Verify {
        game: String,
    },
}

/// A section of a reply: a title and its text.
#[derive(Clone, Debug, serde::Serialize)]
struct Section {
    title: String,
    text: String,
}

/// A mail before its Message-ID is made.
struct Draft {
    to: String,
    subject: String,
    body: String,
    in_reply_to: Option<String>,
    references: Vec<String>,
    headers: Vec<(String, String)>,
}

/// One game while a handling runs.
struct Loaded {
    rec: GameRecord,
    session: Option<Box<dyn Session>>,
    dirty: bool,
    /// Force a private mail to every seat in the next report (start).
    force_private: bool,
}

/// Who wrote, for one game.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
struct Who {
    seat: Option<usize>,
    gm: bool,
}

const PW_ALPHABET: &[u8] = b"abcdefghjkmnpqrstuvwxyz23456789";

fn lower(s: &str) -> String {
    s.trim().to_lowercase()
}

fn hash_pw(salt: &str, pw: &str) -> String {
    hex::encode(sha256(format!("{salt}:{pw}").as_bytes()))
}

fn strip_re(subject: &str) -> &str {
    let mut s = subject.trim();
    loop {
        let l = s.to_lowercase();
        let cut = ["re:", "fwd:", "fw:", "aw:", "tr:", "wg:"]
            .iter()
            .find(|p| l.starts_with(**p))
            .map(|p| p.len());
        match cut {
            Some(n) => s = s[n..].trim_start(),
            None => return s,
        }
    }
}

/// "[race-1 #k3j9x] rest" -> (Some("race-1"), Some("k3j9x"), "rest").
fn subject_tag(subject: &str) -> (Option<String>, Option<String>, String) {
    let s = strip_re(subject);
    if let Some(open) = s.find('[') {
        if let Some(close_rel) = s[open..].find(']') {
            let inner = &s[open + 1..open + close_rel];
            let mut id = None;
            let mut token = None;
            for w in inner.split_whitespace() {
                if let Some(t) = w.strip_prefix('#') {
                    token = Some(t.to_lowercase());
                } else if commands::looks_like_id(w) {
                    id = Some(w.to_lowercase());
                }
            }
            if id.is_some() {
                let rest = format!("{}{}", &s[..open], &s[open + close_rel + 1..]);
                return (id, token, strip_re(rest.trim()).to_string());
            }
        }
    }
    (None, None, s.to_string())
}

fn prompt_json(p: &Prompt) -> serde_json::Value {
    json!({"kind": p.kind, "question": p.question, "choices": p.choices,
           "default": p.default, "standing": p.standing})
}

impl Judge {
    pub fn new(config: JudgeConfig, games: Vec<GameInfo>, templates: Templates) -> Judge {
        Judge {
            config,
            games,
            templates,
        }
    }

    pub fn config(&self) -> &JudgeConfig {
        &self.config
    }

    fn info(&self, name: &str) -> Option<&GameInfo> {
        let n = lower(name);
        self.games.iter().find(|g| g.name == n)
    }

    fn msgid(&self, key: &str, index: usize) -> String {
        let h = sha256(format!("{key}\n{index}").as_bytes());
        format!("<{}@{}>", hex::encode(&h[..16]), self.config.domain)
    }

    fn thread_root(&self, game_id: &str) -> String {
        format!("<{game_id}.castellan@{}>", self.config.domain)
    }

    /// Handle one inbound mail. The same Message-ID twice: nothing changes, nothing sent.
    pub fn handle(
        &self,
        store: &dyn Store,
        mail: &Inbound,
        env: &Env,
    ) -> Result<Changes, StoreError> {
        let mid = if mail.message_id.trim().is_empty() {
            // No Message-ID: a stable stand-in from the content (a resend is the same mail).
            format!(
                "<{}@no-message-id>",
                hex::encode(
                    &sha256(format!("{}\n{}\n{}", mail.from, mail.subject, mail.body).as_bytes())
                        [..16]
                )
            )
        } else {
            mail.message_id.trim().to_string()
        };
        if store.is_processed(&mid)? {
            return Ok(Changes::default());
        }
        let from = lower(&mail.from);
        let mut changes = Changes {
            processed: vec![mid.clone()],
            ..Default::default()
        };
        let log = |kind: &str, text: String| LogLine {
            game: String::new(),
            at: env.now,
            kind: kind.into(),
            text,
        };
        // Loop prevention: never answer automatic mail or ourselves.
        if let Some(why) = &mail.automatic {
            changes.log.push(log(
                "ignored",
                format!("automatic mail {mid} from {from}: {why}"),
            ));
            return Ok(changes);
        }
        if from.is_empty() || from == lower(&self.config.address) {
            changes.log.push(log(
                "ignored",
                format!("mail {mid} from \"{from}\" (no sender or the judge itself)"),
            ));
            return Ok(changes);
        }
        // Rate limit per sender.
        let mut sender = store.sender(&from)?.unwrap_or(SenderRecord {
            address: from.clone(),
            ..Default::default()
        });
        if env.now - sender.window_start >= 3600 || env.now < sender.window_start {
            sender.window_start = env.now;
            sender.count = 0;
            sender.warned = false;
        }
        sender.count += 1;
        let limited = sender.count > self.config.rate_limit_per_hour;
        let warn = limited && !sender.warned;
        if warn {
            sender.warned = true;
        }
        changes.senders.push(sender);
        let mut run = Run::new(self, store, env, mid.clone());
        run.thread = Some((
            mid.clone(),
            mail.references
                .iter()
                .cloned()
                .chain(std::iter::once(mid.clone()))
                .collect(),
        ));
        let reply_subject = if strip_re(&mail.subject).is_empty() {
            "Re: your mail".to_string()
        } else if mail.subject.to_lowercase().starts_with("re:") {
            mail.subject.trim().to_string()
        } else {
            format!("Re: {}", mail.subject.trim())
        };
        if limited {
            changes.log.push(log(
                "ignored",
                format!("mail {mid} from {from}: over the rate limit"),
            ));
            if warn {
                run.sections.push(Section {
                    title: "Too many mails".into(),
                    text: format!(
                        "You sent more than {} mails in an hour. Nothing in this mail was read, \
                         and further mails this hour get no answer. Wait a while, then send \
                         your orders again.",
                        self.config.rate_limit_per_hour
                    ),
                });
                run.reply(&from, &reply_subject);
            }
            run.finish_into(&mut changes);
            return Ok(changes);
        }
        changes
            .log
            .push(log("mail", format!("mail {mid} from {from}")));
        if mail.truncated || mail.body.len() > self.config.max_body_bytes {
            run.sections.push(Section {
                title: "Mail too long".into(),
                text: format!(
                    "Your mail is longer than {} bytes, so none of it was read and nothing \
                     changed. Send shorter mails (orders only, without quoted text).",
                    self.config.max_body_bytes
                ),
            });
            run.reply(&from, &reply_subject);
            run.finish_into(&mut changes);
            return Ok(changes);
        }
        run.process_mail(mail, &from)?;
        if !mail.attachments.is_empty() {
            run.sections.push(Section {
                title: "Attachments".into(),
                text: format!(
                    "Attachments are not read; these were ignored: {}",
                    mail.attachments.join(", ")
                ),
            });
        }
        if mail.html_only {
            run.sections.push(Section {
                title: "Note".into(),
                text: "Your mail had no plain-text part; its HTML was read as text.".into(),
            });
        }
        run.settle_all()?;
        let subject = run.reply_subject(&from, &reply_subject);
        run.reply(&from, &subject);
        run.finish_into(&mut changes);
        Ok(changes)
    }

    /// Deadlines: reminders, defaults on a miss, bot stand-ins after too many misses.
    pub fn tick(&self, store: &dyn Store, env: &Env) -> Result<Changes, StoreError> {
        let mut changes = Changes::default();
        for id in store.game_ids()? {
            let Some(rec) = store.game(&id)? else {
                continue;
            };
            if rec.status != Status::Running || rec.deadline.is_none() {
                continue;
            }
            let key = format!("tick/{id}/{}", rec.out_counter);
            let mut run = Run::new(self, store, env, key);
            run.tick_game(&id)?;
            run.settle_all()?;
            if run.mails.is_empty() && !run.games.values().any(|g| g.dirty) {
                continue;
            }
            if let Some(g) = run.games.get_mut(&id) {
                g.rec.out_counter += 1;
                g.dirty = true;
            }
            run.finish_into(&mut changes);
        }
        Ok(changes)
    }

    /// The game master's local commands. Returns the changes and a text for the terminal.
    pub fn admin(
        &self,
        store: &dyn Store,
        cmd: AdminCommand,
        env: &Env,
    ) -> Result<(Changes, String), JudgeError> {
        let key = format!("admin/{}/{}", env.now, hex::encode(&env.entropy[..8]));
        let mut run = Run::new(self, store, env, key);
        let text = match cmd {
            AdminCommand::List => {
                let mut out = String::new();
                for id in store.game_ids()? {
                    if let Some(r) = store.game(&id)? {
                        out.push_str(&run.list_line(&r));
                        out.push('\n');
                    }
                }
                if out.is_empty() {
                    out = "no games\n".into();
                }
                return Ok((Changes::default(), out));
            }
            AdminCommand::Verify { game } => {
                let mut g = run
                    .take(&game)?
                    .ok_or_else(|| JudgeError::Refused(format!("there is no game {game}")))?;
                let Some(s) = g.session.as_mut() else {
                    return Err(JudgeError::Refused(format!("{game} has not started")));
                };
                let (ok, text) = audit(&g.rec, s.as_mut());
                return if ok {
                    Ok((Changes::default(), text))
                } else {
                    Err(JudgeError::Refused(text))
                };
            }
            AdminCommand::Show { game } => {
                let g = run
                    .take(&game)?
                    .ok_or_else(|| JudgeError::Refused(format!("there is no game {game}")))?;
                let text = run.show(&g);
                return Ok((Changes::default(), text));
            }
            AdminCommand::New {
                game,
                players,
                gm,
                options,
            } => {
                let mut args: Vec<String> = players
                    .iter()
                    .map(|(n, a)| format!("player={n}:{a}"))
                    .collect();
                args.extend(options.iter().map(|(k, v)| format!("{k}={v}")));
                let id = run
                    .create(&lower(&gm), &game, &args)
                    .map_err(JudgeError::Refused)?;
                format!("created {id}")
            }
            AdminCommand::Pause { game } => run.gm_op(&game, Cmd::Pause)?,
            AdminCommand::Resume { game } => run.gm_op(&game, Cmd::Resume)?,
            AdminCommand::Extend { game, hours } => {
                run.gm_op(&game, Cmd::Extend(hours.to_string()))?
            }
            AdminCommand::Replace {
                game,
                seat,
                address,
            } => run.gm_op(&game, Cmd::Replace(seat, address))?,
            AdminCommand::End { game } => run.gm_op(&game, Cmd::End)?,
        };
        run.settle_all()?;
        let mut changes = Changes::default();
        for g in run.games.values_mut() {
            if g.dirty {
                g.rec.out_counter += 1;
            }
        }
        changes.log.push(LogLine {
            game: String::new(),
            at: env.now,
            kind: "admin".into(),
            text: text.clone(),
        });
        run.finish_into(&mut changes);
        Ok((changes, text))
    }
}

/// One handling (mail, tick or admin command) in progress.
struct Run<'a> {
    j: &'a Judge,
    store: &'a dyn Store,
    env: &'a Env,
    key: String,
    games: BTreeMap<String, Loaded>,
    mails: Vec<Draft>,
    log: Vec<LogLine>,
    sections: Vec<Section>,
    /// (in_reply_to, references) of replies.
    thread: Option<(String, Vec<String>)>,
    /// Games this mail concerned, with the writer's seat (reply subject).
    touched: Vec<(String, Option<usize>)>,
    derive_count: u32,
}

/// State of the line loop.
#[derive(Default)]
struct Ctx {
    game: Option<String>,
    /// The game named is unknown or refused: its lines are skipped.
    bad: bool,
    password: Option<String>,
    tokens: Vec<String>,
    orders: Vec<(usize, String)>,
    check_mode: bool,
    press: Option<(usize, Vec<String>)>,
}

impl<'a> Run<'a> {
    fn new(j: &'a Judge, store: &'a dyn Store, env: &'a Env, key: String) -> Run<'a> {
        Run {
            j,
            store,
            env,
            key,
            games: BTreeMap::new(),
            mails: Vec::new(),
            log: Vec::new(),
            sections: Vec::new(),
            thread: None,
            touched: Vec::new(),
            derive_count: 0,
        }
    }

    fn now(&self) -> i64 {
        self.env.now
    }

    fn derive(&mut self, label: &str) -> [u8; 32] {
        self.derive_count += 1;
        let mut b = self.env.entropy.to_vec();
        b.extend_from_slice(format!("|{label}|{}", self.derive_count).as_bytes());
        sha256(&b)
    }

    fn random_word(&mut self, label: &str, len: usize) -> String {
        let b = self.derive(label);
        b.iter()
            .take(len)
            .map(|x| PW_ALPHABET[*x as usize % PW_ALPHABET.len()] as char)
            .collect()
    }

    fn glog(&mut self, game: &str, kind: &str, text: String) {
        self.log.push(LogLine {
            game: game.into(),
            at: self.env.now,
            kind: kind.into(),
            text,
        });
    }

    fn section(&mut self, title: impl Into<String>, text: impl Into<String>) {
        self.sections.push(Section {
            title: title.into(),
            text: text.into(),
        });
    }

    /// Take a game out of the working set (loading it if needed).
    fn take(&mut self, id: &str) -> Result<Option<Loaded>, StoreError> {
        let id = lower(id);
        if let Some(g) = self.games.remove(&id) {
            return Ok(Some(g));
        }
        let Some(rec) = self.store.game(&id)? else {
            return Ok(None);
        };
        let mut session = None;
        if let Some(t) = &rec.table {
            if let Some(info) = self.j.info(&rec.game) {
                match (info.load)(t.clone()) {
                    Ok(s) => session = Some(s),
                    Err(e) => {
                        return Err(StoreError(format!("game {id} cannot be loaded: {e}")));
                    }
                }
            } else {
                return Err(StoreError(format!(
                    "game {id} is a {} game, which this judge does not run",
                    rec.game
                )));
            }
        }
        Ok(Some(Loaded {
            rec,
            session,
            dirty: false,
            force_private: false,
        }))
    }

    fn put(&mut self, g: Loaded) {
        self.games.insert(g.rec.id.clone(), g);
    }

    /// Every address that gets public mail of a game: seats, observers, game master.
    fn recipients(rec: &GameRecord) -> Vec<String> {
        let mut out: Vec<String> = Vec::new();
        let mut add = |a: &str| {
            let a = lower(a);
            if !a.is_empty() && !out.contains(&a) {
                out.push(a);
            }
        };
        for s in &rec.seats {
            if let Some(a) = &s.address {
                add(a);
            }
        }
        for o in &rec.observers {
            add(o);
        }
        add(&rec.gm);
        out
    }

    fn mail(&mut self, to: &str, subject: String, body: String, game: Option<&str>) {
        let (in_reply_to, references) = match game {
            Some(id) => {
                let root = self.j.thread_root(id);
                (Some(root.clone()), vec![root])
            }
            None => (None, vec![]),
        };
        self.mails.push(Draft {
            to: to.into(),
            subject,
            body,
            in_reply_to,
            references,
            headers: Vec::new(),
        });
    }

    /// Mark the last mail as carrying a seat's (or the game master's) token, for programs.
    fn token_headers(&mut self, game: &str, token: &str) {
        if let Some(d) = self.mails.last_mut() {
            d.headers = vec![
                ("X-Castellan-Game".into(), game.into()),
                ("X-Castellan-Token".into(), token.into()),
            ];
        }
    }

    /// The answer to the mail being handled.
    fn reply(&mut self, to: &str, subject: &str) {
        let body = self.j.templates.render(
            "reply.txt",
            &json!({"greeting": "The judge answers your mail.", "sections": self.sections,
                    "judge": self.j.config.address}),
        );
        let (irt, refs) = self.thread.clone().unwrap_or_default();
        // The answer goes out before the reports it caused.
        self.mails.insert(
            0,
            Draft {
                to: to.into(),
                subject: subject.into(),
                body,
                in_reply_to: if irt.is_empty() { None } else { Some(irt) },
                references: refs,
                headers: Vec::new(),
            },
        );
    }

    fn reply_subject(&self, from: &str, original: &str) -> String {
        let (tag, _, _) = subject_tag(original);
        if tag.is_some() {
            return original.to_string();
        }
        if let [(id, Some(seat))] = self.touched.as_slice() {
            if let Some(g) = self.games.get(id) {
                if let Some(s) = g.rec.seats.get(*seat) {
                    if s.address.as_deref().map(lower).as_deref() == Some(from) {
                        return format!("[{id} #{}] {original}", s.token);
                    }
                }
            }
        }
        if let [(id, _)] = self.touched.as_slice() {
            return format!("[{id}] {original}");
        }
        original.to_string()
    }

    fn finish_into(mut self, changes: &mut Changes) {
        for (i, d) in std::mem::take(&mut self.mails).into_iter().enumerate() {
            changes.outbox.push(Outbound {
                message_id: self.j.msgid(&self.key, i),
                to: d.to,
                subject: d.subject,
                body: d.body,
                in_reply_to: d.in_reply_to,
                references: d.references,
                headers: d.headers,
            });
        }
        for g in std::mem::take(&mut self.games).into_values() {
            if g.dirty {
                changes.games.push(g.rec);
            }
        }
        changes.log.append(&mut self.log);
    }

    // ---------------------------------------------------------------- mail lines

    fn process_mail(&mut self, mail: &Inbound, from: &str) -> Result<(), StoreError> {
        let mut ctx = Ctx::default();
        let (tag, token, rest) = subject_tag(&mail.subject);
        if let Some(t) = token {
            ctx.tokens.push(t);
        }
        // Plus-addresses: judge+TOKEN@domain.
        let local = lower(self.j.config.address.split('@').next().unwrap_or(""));
        for to in &mail.to {
            let to = lower(to);
            let l = to.split('@').next().unwrap_or("");
            if let Some(t) = l.strip_prefix(&format!("{local}+")) {
                if !t.is_empty() {
                    ctx.tokens.push(t.to_string());
                }
            }
        }
        if let Some(id) = tag {
            self.enter_game(&mut ctx, &id, None)?;
        } else if !ctx.tokens.is_empty() {
            // A plus-address token names its game.
            if let Some(id) = self.game_of_token(&ctx.tokens)? {
                self.enter_game(&mut ctx, &id, None)?;
            }
        }
        let mut lines: Vec<(usize, String)> = Vec::new();
        let first = rest.split_whitespace().next().unwrap_or("").to_uppercase();
        // The subject holds a command only when the body is empty (a one-liner).
        if ctx.game.is_none()
            && mail.body.trim().is_empty()
            && commands::KEYWORDS.contains(&first.trim_end_matches(':'))
        {
            lines.push((0, rest.clone()));
        }
        for (i, l) in mail.body.lines().enumerate() {
            lines.push((i + 1, l.to_string()));
        }
        let max = self.j.config.max_lines;
        let mut chatter = Vec::new();
        let mut counted = 0;
        for (no, raw) in lines {
            let line = raw.trim();
            if let Some((_, buf)) = &mut ctx.press {
                if line.eq_ignore_ascii_case("endpress") || line.eq_ignore_ascii_case("end press") {
                    self.end_press(&mut ctx, from)?;
                } else {
                    buf.push(raw.trim_end().to_string());
                }
                continue;
            }
            if line.is_empty() || line.starts_with('#') {
                continue;
            }
            if line == "--" || line.eq_ignore_ascii_case("signoff") {
                break;
            }
            counted += 1;
            if counted > max {
                self.section(
                    "Too many lines",
                    format!("Only the first {max} lines were read; the rest was ignored."),
                );
                break;
            }
            match commands::parse(line) {
                Some(Ok(cmd)) if !self.is_game_order(&ctx, &cmd, line, from)? => {
                    self.flush(&mut ctx, from)?;
                    self.command(&mut ctx, cmd, no, line, from)?;
                }
                Some(Err(e)) => {
                    self.flush(&mut ctx, from)?;
                    self.section(
                        "Refused",
                        format!("{}\n  {}\n  {}", quote(no, line), e.message, e.hint),
                    );
                }
                _ => {
                    if ctx.game.is_some() {
                        if !ctx.bad {
                            ctx.orders.push((no, line.to_string()));
                        }
                    } else {
                        chatter.push(quote(no, line));
                    }
                }
            }
        }
        self.flush(&mut ctx, from)?;
        if ctx.press.is_some() {
            self.end_press(&mut ctx, from)?;
        }
        if !chatter.is_empty() {
            let n = chatter.len();
            chatter.truncate(5);
            self.section(
                "Not understood",
                format!(
                    "{}{}\nThese lines are not commands, and no game was named before them. \
                     Put GAME game-id yourpassword before orders, or send HELP.",
                    chatter.join("\n"),
                    if n > 5 {
                        format!("\n({} more)", n - 5)
                    } else {
                        String::new()
                    }
                ),
            );
        }
        if self.sections.is_empty() {
            self.section(
                "Nothing to do",
                "Your mail had no command and no orders. Send HELP for the commands.",
            );
        }
        Ok(())
    }

    /// RESIGN and END are also game orders in some games: when the writer has a seat in
    /// the game in context and the game accepts the line, it is an order.
    fn is_game_order(
        &mut self,
        ctx: &Ctx,
        cmd: &Cmd,
        line: &str,
        from: &str,
    ) -> Result<bool, StoreError> {
        if !matches!(cmd, Cmd::Resign | Cmd::End) {
            return Ok(false);
        }
        let (Some(id), false) = (&ctx.game, ctx.bad) else {
            return Ok(false);
        };
        let Some(g) = self.take(id)? else {
            return Ok(false);
        };
        let ok = match (&g.session, g.rec.seat_of(from)) {
            (Some(s), Some(seat)) => s
                .check(seat, line, castellan_engine::Lang::En)
                .first()
                .is_some_and(|c| !matches!(c.verdict, LineVerdict::Err { .. })),
            _ => false,
        };
        self.put(g);
        Ok(ok)
    }

    fn game_of_token(&mut self, tokens: &[String]) -> Result<Option<String>, StoreError> {
        for id in self.store.game_ids()? {
            if let Some(r) = self.store.game(&id)? {
                if r.seats.iter().any(|s| tokens.contains(&s.token)) || tokens.contains(&r.gm_token)
                {
                    return Ok(Some(id));
                }
            }
        }
        Ok(None)
    }

    fn enter_game(
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
    fn auth(&self, g: &Loaded, ctx: &Ctx, from: &str) -> Result<Who, String> {
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
    fn authed(
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

    fn flush(&mut self, ctx: &mut Ctx, from: &str) -> Result<(), StoreError> {
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
        let Some(session) = g.session.as_mut() else {
            self.put(g);
            return Ok(());
        };
        if check {
            let mut out = Vec::new();
            for c in session.check(seat, &text, castellan_engine::Lang::En) {
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
            self.put(g);
            return Ok(());
        }
        match session.submit(seat, &text, castellan_engine::Lang::En) {
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
                self.glog(
                    &id,
                    "orders",
                    format!(
                        "seat {seat}: {}",
                        orders
                            .iter()
                            .map(|(_, l)| l.as_str())
                            .collect::<Vec<_>>()
                            .join(" / ")
                    ),
                );
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
        self.put(g);
        Ok(())
    }

    fn end_press(&mut self, ctx: &mut Ctx, from: &str) -> Result<(), StoreError> {
        let Some((_, lines)) = ctx.press.take() else {
            return Ok(());
        };
        let text = lines.join("\n").trim().to_string();
        self.press(ctx, from, &text)
    }

    fn press(&mut self, ctx: &Ctx, from: &str, text: &str) -> Result<(), StoreError> {
        if text.is_empty() {
            self.section(
                "PRESS refused",
                "The press message is empty. Write: PRESS your message",
            );
            return Ok(());
        }
        let Some((g, who)) = self.authed(ctx, from, "PRESS")? else {
            return Ok(());
        };
        let id = g.rec.id.clone();
        let name = match who.seat {
            Some(s) => g.rec.seats[s].name.clone(),
            None => "the game master".into(),
        };
        for to in Self::recipients(&g.rec) {
            let body = self.j.templates.render(
                "press.txt",
                &json!({"game_id": id, "from": name, "text": text}),
            );
            self.mail(&to, format!("[{id}] Press from {name}"), body, Some(&id));
        }
        self.glog(&id, "press", format!("{name}: {text}"));
        self.section(
            format!("PRESS in {id}"),
            "Your message went to every player and observer.",
        );
        self.put(g);
        Ok(())
    }

    fn command(
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

    fn info(&self, name: &str) -> Option<&'a GameInfo> {
        self.j.info(name)
    }

    fn list_line(&self, r: &GameRecord) -> String {
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

    fn show(&self, g: &Loaded) -> String {
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

    // ---------------------------------------------------------------- lifecycle

    fn next_id(&self, game: &str) -> Result<String, String> {
        let prefix = game.split('-').next().unwrap_or(game).to_string();
        let mut max = 0u64;
        let ids = self.store.game_ids().map_err(|e| e.0)?;
        for id in ids.iter().chain(self.games.keys()) {
            if let Some(n) = id.rsplit('-').next().and_then(|n| n.parse::<u64>().ok()) {
                max = max.max(n);
            }
        }
        Ok(format!("{prefix}-{}", max + 1))
    }

    /// CREATE: returns the new game's id.
    fn create(&mut self, gm: &str, game: &str, args: &[String]) -> Result<String, String> {
        let Some(info) = self.info(game).copied() else {
            let names: Vec<&str> = self.j.games.iter().map(|g| g.name).collect();
            return Err(format!(
                "there is no game \"{game}\" here; the games are: {}",
                names.join(", ")
            ));
        };
        let cfg = &self.j.config;
        let mut deadlines = DeadlineSettings {
            hours: cfg.deadline_hours,
            per_kind: BTreeMap::new(),
            reminder_hours: cfg.reminder_hours,
            grace_hours: cfg.grace_hours,
        };
        let mut players: Vec<(String, String)> = Vec::new();
        let mut seats: Option<usize> = None;
        let mut join_pw: Option<String> = None;
        let mut options = Vec::new();
        let known_options = (info.options)();
        let hours = |v: &str, k: &str| -> Result<u32, String> {
            v.parse::<u32>()
                .ok()
                .filter(|h| *h >= 1 && *h <= cfg.max_deadline_hours)
                .ok_or_else(|| {
                    format!(
                        "{k}={v}: write a number of hours from 1 to {}",
                        cfg.max_deadline_hours
                    )
                })
        };
        for a in args {
            let Some((k, v)) = a.split_once('=') else {
                return Err(format!(
                    "\"{a}\" is not key=value (write: player=Anna:anna@example.org seats=4 deadline=48)"
                ));
            };
            let key = lower(k);
            let v = v.trim();
            match key.as_str() {
                "player" | "players" => {
                    for p in v.split(',').filter(|p| !p.trim().is_empty()) {
                        let (name, addr) = match p.split_once(':') {
                            Some((n, a)) => (n.trim().to_string(), lower(a)),
                            None => {
                                let a = lower(p);
                                let n = a.split('@').next().unwrap_or("player").to_string();
                                (capitalise(&n), a)
                            }
                        };
                        if !addr.contains('@') || name.is_empty() {
                            return Err(format!(
                                "player={p}: write player=Name:address@example.org"
                            ));
                        }
                        players.push((name, addr));
                    }
                }
                "seats" => {
                    seats =
                        Some(v.parse().map_err(|_| {
                            format!("seats={v}: write a number of seats, like seats=4")
                        })?)
                }
                "password" => join_pw = Some(v.to_string()),
                "deadline" => deadlines.hours = hours(v, &key)?,
                "reminder" => {
                    deadlines.reminder_hours = v
                        .parse()
                        .map_err(|_| format!("reminder={v}: write a number of hours"))?
                }
                "grace" => {
                    deadlines.grace_hours = v
                        .parse()
                        .map_err(|_| format!("grace={v}: write a number of hours"))?
                }
                k if k.starts_with("deadline-") || k.starts_with("deadline.") => {
                    deadlines.per_kind.insert(k[9..].to_string(), hours(v, k)?);
                }
                _ => {
                    let norm = key.replace('-', "_");
                    if !known_options
                        .as_object()
                        .is_some_and(|m| m.contains_key(&norm))
                    {
                        let known: Vec<String> = known_options
                            .as_object()
                            .map(|m| m.keys().map(|k| k.replace('_', "-")).collect())
                            .unwrap_or_default();
                        return Err(format!(
                            "unknown option \"{k}\"; {}'s options are: {}; the judge's are: \
                             player, seats, password, deadline, deadline-KIND, reminder, grace",
                            info.name,
                            if known.is_empty() {
                                "none".into()
                            } else {
                                known.join(", ")
                            }
                        ));
                    }
                    options.push((k.to_string(), v.to_string()));
                }
            }
        }
        let n = seats.unwrap_or(players.len());
        if n < players.len() {
            return Err(format!("seats={n} but {} players are named", players.len()));
        }
        if n < info.min_seats || n > info.max_seats {
            return Err(format!(
                "{} is played by {} to {} players, not {n} (name the players with player=Name:address, or say seats=N for open seats)",
                info.name, info.min_seats, info.max_seats
            ));
        }
        for (i, (name, addr)) in players.iter().enumerate() {
            if players[..i]
                .iter()
                .any(|(n2, a2)| lower(n2) == lower(name) || a2 == addr)
            {
                return Err(format!("{name} <{addr}> is named twice"));
            }
        }
        let id = self.next_id(info.name)?;
        let salt = hex::encode(self.derive("salt"));
        let gm_pw = self.random_word("gm-password", 8);
        let gm_token = self.random_word("gm-token", 6);
        let open = n - players.len();
        let join_pw = if open > 0 {
            Some(join_pw.unwrap_or_else(|| self.random_word("join", 8)))
        } else {
            None
        };
        let mut rec = GameRecord {
            id: id.clone(),
            game: info.name.to_string(),
            status: Status::Forming,
            gm: lower(gm),
            gm_password_hash: hash_pw(&salt, &gm_pw),
            gm_token: gm_token.clone(),
            join_password_hash: join_pw
                .as_deref()
                .map(|p| hash_pw(&salt, p))
                .unwrap_or_default(),
            salt,
            seats: Vec::new(),
            observers: Vec::new(),
            options,
            deadlines,
            deadline: None,
            paused_left: None,
            deadline_history: 0,
            reminded: Default::default(),
            out_counter: 0,
            reported: 0,
            revealed: 0,
            created: self.now(),
            ended: None,
            final_sent: false,
            table: None,
        };
        let mut welcomes = Vec::new();
        for (name, addr) in &players {
            let pw = self.random_word("password", 8);
            let token = self.random_word("token", 6);
            rec.seats.push(SeatRecord {
                name: name.clone(),
                address: Some(addr.clone()),
                password_hash: hash_pw(&rec.salt, &pw),
                token: token.clone(),
                misses: 0,
                vacation_until: None,
                vacation_days: 0,
                bot: false,
                resigned: false,
            });
            welcomes.push((name.clone(), addr.clone(), pw, token));
        }
        for i in players.len()..n {
            rec.seats.push(SeatRecord {
                name: format!("Seat {}", i + 1),
                address: None,
                password_hash: String::new(),
                token: String::new(),
                misses: 0,
                vacation_until: None,
                vacation_days: 0,
                bot: false,
                resigned: false,
            });
        }
        let names: Vec<String> = rec.seats.iter().map(|s| s.name.clone()).collect();
        let gm_body = self.j.templates.render(
            "welcome.txt",
            &json!({"name": "Game master", "role": "the game master", "game_id": id,
                    "game": info.name, "players": names, "password": gm_pw, "token": gm_token,
                    "judge": self.j.config.address, "join_password": join_pw}),
        );
        self.mail(
            gm,
            format!("[{id} #{gm_token}] You are the game master of {id}"),
            gm_body,
            Some(&id),
        );
        self.token_headers(&id, &gm_token);
        for (name, addr, pw, token) in welcomes {
            self.welcome(&rec, &name, &addr, &pw, &token);
        }
        self.glog(
            &id,
            "create",
            format!("{} game by {gm}, {n} seats ({open} open)", info.name),
        );
        let mut g = Loaded {
            rec,
            session: None,
            dirty: true,
            force_private: false,
        };
        if open == 0 {
            self.start(&mut g)
                .map_err(|e| format!("cannot start: {e}"))?;
        }
        self.put(g);
        Ok(id)
    }

    fn welcome(&mut self, rec: &GameRecord, name: &str, addr: &str, pw: &str, token: &str) {
        let names: Vec<String> = rec.seats.iter().map(|s| s.name.clone()).collect();
        let body = self.j.templates.render(
            "welcome.txt",
            &json!({"name": name, "role": "a player", "game_id": rec.id, "game": rec.game,
                    "players": names, "password": pw, "token": token,
                    "judge": self.j.config.address}),
        );
        self.mail(
            addr,
            format!("[{} #{token}] Welcome to {}, {name}", rec.id, rec.id),
            body,
            Some(&rec.id),
        );
        self.token_headers(&rec.id, token);
    }

    fn start(&mut self, g: &mut Loaded) -> Result<(), String> {
        let info = self
            .info(&g.rec.game)
            .copied()
            .ok_or_else(|| format!("no game {}", g.rec.game))?;
        // Open seats are dropped at an early START.
        g.rec.seats.retain(|s| s.address.is_some());
        let names: Vec<String> = g.rec.seats.iter().map(|s| s.name.clone()).collect();
        let master = Secret(self.derive(&format!("master/{}", g.rec.id)));
        let session = (info.create)(&g.rec.id, master, names, &g.rec.options)?;
        g.session = Some(session);
        g.rec.status = Status::Running;
        g.rec.reported = 0;
        g.rec.revealed = 0;
        g.rec.deadline = None;
        g.dirty = true;
        g.force_private = true;
        let id = g.rec.id.clone();
        self.glog(&id, "start", format!("{} seats", g.rec.seats.len()));
        Ok(())
    }

    fn join(
        &mut self,
        from: &str,
        id: &str,
        password: &str,
        name: Option<String>,
    ) -> Result<(), StoreError> {
        let Some(mut g) = self.take(id)? else {
            self.section(
                "JOIN refused",
                format!("There is no game \"{id}\". Send LIST for the games."),
            );
            return Ok(());
        };
        let refuse = if g.rec.status != Status::Forming {
            Some(format!("{} has already started.", g.rec.id))
        } else if g.rec.open_seats() == 0 || g.rec.join_password_hash.is_empty() {
            Some(format!("{} has no open seat.", g.rec.id))
        } else if hash_pw(&g.rec.salt, password) != g.rec.join_password_hash {
            Some(format!(
                "Wrong join password for {}; ask its game master.",
                g.rec.id
            ))
        } else if g.rec.seat_of(from).is_some() {
            Some(format!("You already have a seat in {}.", g.rec.id))
        } else {
            None
        };
        if let Some(r) = refuse {
            self.section("JOIN refused", format!("{r} Nothing changed."));
            self.put(g);
            return Ok(());
        }
        let name = name
            .or_else(|| from.split('@').next().map(capitalise))
            .unwrap_or_else(|| "Player".into());
        if g.rec
            .seats
            .iter()
            .any(|s| s.address.is_some() && lower(&s.name) == lower(&name))
        {
            self.section(
                "JOIN refused",
                format!(
                    "The name {name} is taken in {}: write JOIN {} password AS OtherName",
                    g.rec.id, g.rec.id
                ),
            );
            self.put(g);
            return Ok(());
        }
        let pw = self.random_word("password", 8);
        let token = self.random_word("token", 6);
        let salt = g.rec.salt.clone();
        let Some(seat) = g.rec.seats.iter_mut().find(|s| s.address.is_none()) else {
            self.put(g);
            return Ok(());
        };
        seat.name = name.clone();
        seat.address = Some(from.to_string());
        seat.password_hash = hash_pw(&salt, &pw);
        seat.token = token.clone();
        seat.bot = false;
        g.dirty = true;
        let rec = g.rec.clone();
        self.welcome(&rec, &name, from, &pw, &token);
        let id = rec.id.clone();
        self.glog(&id, "join", format!("{name} <{from}>"));
        self.section(
            format!("JOIN {id}"),
            format!(
                "You have a seat in {id} as {name}. Your password and token come in a separate mail.{}",
                if g.rec.open_seats() == 0 { " Every seat is taken: the game starts." } else { "" }
            ),
        );
        if g.rec.open_seats() == 0 {
            if let Err(e) = self.start(&mut g) {
                self.section(format!("{id} cannot start"), e);
            }
        }
        let gm = g.rec.gm.clone();
        if gm != from {
            let body = self.j.templates.render(
                "notice.txt",
                &json!({"game_id": id, "title": format!("{name} joined"),
                        "text": format!("{name} <{from}> took a seat; {} still open.", g.rec.open_seats())}),
            );
            self.mail(&gm, format!("[{id}] {name} joined"), body, Some(&id));
        }
        self.touched.push((id, None));
        self.put(g);
        Ok(())
    }

    fn observe(&mut self, from: &str, id: Option<String>, off: bool) -> Result<(), StoreError> {
        let Some(id) = id else {
            self.section("OBSERVE: which game?", "Write: OBSERVE game-id");
            return Ok(());
        };
        let Some(mut g) = self.take(&id)? else {
            self.section(
                "OBSERVE refused",
                format!("There is no game \"{id}\". Send LIST for the games."),
            );
            return Ok(());
        };
        let id = g.rec.id.clone();
        if off {
            g.rec.observers.retain(|o| lower(o) != from);
            g.dirty = true;
            self.section(
                format!("OBSERVE {id} OFF"),
                "You no longer receive its reports.",
            );
        } else if g.rec.seat_of(from).is_some() || lower(&g.rec.gm) == from {
            self.section(
                format!("OBSERVE {id}"),
                "You already receive its reports (you play or run it).",
            );
        } else {
            if !g.rec.observers.iter().any(|o| lower(o) == from) {
                g.rec.observers.push(from.to_string());
                g.dirty = true;
            }
            let text = match &g.session {
                Some(s) => format!(
                    "You now receive every public report of {id}.\nTurn {}.\n{}",
                    s.turn(),
                    s.public_view(castellan_engine::Lang::En)
                ),
                None => format!("You will receive every public report of {id} once it starts."),
            };
            self.section(format!("OBSERVE {id}"), text);
        }
        self.put(g);
        Ok(())
    }

    fn status(&mut self, ctx: &Ctx, from: &str) -> Result<(), StoreError> {
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
        let mut text = self.show_public(&mut g);
        let who = self.auth(&g, ctx, from).ok();
        if let (Some(Who { seat: Some(s), .. }), Some(session)) = (who, g.session.as_ref()) {
            // The reply goes to this seat's own address only.
            text.push_str(&format!(
                "\n\nYour private view ({}):\n{}",
                g.rec.seats[s].name,
                session.private_view(s, castellan_engine::Lang::En)
            ));
            for p in session
                .pending(castellan_engine::Lang::En)
                .iter()
                .filter(|p| p.seat == s)
            {
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

    fn show_public(&self, g: &mut Loaded) -> String {
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
                s.public_view(castellan_engine::Lang::En)
            ));
        }
        out
    }

    fn history(&mut self, ctx: &Ctx, from: &str, range: Option<&str>) -> Result<(), StoreError> {
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
        let parsed: Option<(u32, u32)> = match range {
            None => Some((1, last)),
            Some(r) => match r.split_once('-') {
                Some((a, b)) => a.trim().parse().ok().zip(b.trim().parse().ok()),
                None => r.trim().parse().ok().map(|t| (t, t)),
            },
        };
        let Some((a, b)) = parsed.filter(|(a, b)| a <= b) else {
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
        let all = s.narrate_since(from_i, castellan_engine::Lang::En);
        let tail = s.narrate_since(to_i, castellan_engine::Lang::En);
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

    fn verify(&mut self, ctx: &Ctx) -> Result<(), StoreError> {
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

    fn seat_command(&mut self, ctx: &Ctx, from: &str, cmd: Cmd) -> Result<(), StoreError> {
        let what = if matches!(cmd, Cmd::Resign) {
            "RESIGN"
        } else {
            "VACATION"
        };
        let Some((mut g, who)) = self.authed(ctx, from, what)? else {
            return Ok(());
        };
        let id = g.rec.id.clone();
        let Some(seat) = who.seat else {
            self.section(
                format!("{what} refused"),
                format!("You have no seat in {id}."),
            );
            self.put(g);
            return Ok(());
        };
        if !matches!(
            g.rec.status,
            Status::Running | Status::Paused | Status::Forming
        ) {
            self.section(format!("{what} refused"), format!("{id} is over."));
            self.put(g);
            return Ok(());
        }
        match cmd {
            Cmd::Resign => {
                let name = g.rec.seats[seat].name.clone();
                if g.rec.status == Status::Forming {
                    let s = &mut g.rec.seats[seat];
                    s.address = None;
                    s.name = format!("Seat {}", seat + 1);
                    self.section(format!("RESIGN {id}"), "Your seat is open again.");
                } else {
                    let s = &mut g.rec.seats[seat];
                    s.resigned = true;
                    s.bot = true;
                    self.section(
                        format!("RESIGN {id}"),
                        "You resigned: a bot plays your seat to the end. You still receive the public reports.",
                    );
                    for to in Self::recipients(&g.rec) {
                        let body = self.j.templates.render(
                            "notice.txt",
                            &json!({"game_id": id, "title": format!("{name} resigned"),
                                    "text": format!("{name} resigned; a bot plays the seat from now on.")}),
                        );
                        self.mail(&to, format!("[{id}] {name} resigned"), body, Some(&id));
                    }
                }
                g.dirty = true;
                self.glog(&id, "resign", name);
            }
            Cmd::Vacation(arg) => {
                if arg.eq_ignore_ascii_case("off") {
                    g.rec.seats[seat].vacation_until = None;
                    g.dirty = true;
                    self.section(
                        format!("VACATION {id}"),
                        "Vacation over: normal deadlines again.",
                    );
                } else {
                    let limit = self.j.config.vacation_limit_days;
                    let used = g.rec.seats[seat].vacation_days;
                    match arg.parse::<u32>() {
                        Ok(d) if d >= 1 && used + d <= limit => {
                            let until = self.now() + i64::from(d) * 86_400;
                            let s = &mut g.rec.seats[seat];
                            s.vacation_until = Some(until);
                            s.vacation_days += d;
                            let awaited = g
                                .session
                                .as_ref()
                                .is_some_and(|x| x.awaiting().contains(&seat));
                            if awaited {
                                if let Some(dl) = g.rec.deadline {
                                    if dl < until {
                                        g.rec.deadline = Some(until);
                                        g.rec.reminded.clear();
                                    }
                                }
                            }
                            g.dirty = true;
                            self.section(
                                format!("VACATION {id}"),
                                format!(
                                    "On vacation until {}: no deadline waiting for you ends before then. {} of your {limit} vacation days are left.",
                                    format_long(until),
                                    limit - used - d
                                ),
                            );
                            self.glog(&id, "vacation", format!("seat {seat}: {d} days"));
                        }
                        _ => self.section(
                            "VACATION refused",
                            format!(
                                "VACATION {arg}: you have {} vacation day(s) left in {id} (out of {limit}); write: VACATION 3, or VACATION OFF",
                                limit.saturating_sub(used)
                            ),
                        ),
                    }
                }
            }
            _ => {}
        }
        self.put(g);
        Ok(())
    }

    /// A game master's command on game `id` (by mail after auth, or from the CLI).
    fn gm_op(&mut self, id: &str, cmd: Cmd) -> Result<String, JudgeError> {
        let Some(mut g) = self.take(id)? else {
            return Err(JudgeError::Refused(format!("there is no game {id}")));
        };
        let r = self.gm_op_on(&mut g, cmd);
        self.put(g);
        r.map_err(JudgeError::Refused)
    }

    fn gm_op_on(&mut self, g: &mut Loaded, cmd: Cmd) -> Result<String, String> {
        let id = g.rec.id.clone();
        let now = self.now();
        let status = g.rec.status;
        let (title, text) = match cmd {
            Cmd::Start => {
                if status != Status::Forming {
                    return Err(format!("{id} has already started"));
                }
                self.start(g)?;
                return Ok(format!("{id} started with {} players.", g.rec.seats.len()));
            }
            Cmd::Pause => {
                if status != Status::Running {
                    return Err(format!("{id} is not running"));
                }
                g.rec.status = Status::Paused;
                g.rec.paused_left = g.rec.deadline.map(|d| (d - now).max(0));
                g.rec.deadline = None;
                ("paused".to_string(), "The game master paused the game: no deadline runs and no orders are taken until RESUME.".to_string())
            }
            Cmd::Resume => {
                if status != Status::Paused {
                    return Err(format!("{id} is not paused"));
                }
                g.rec.status = Status::Running;
                g.rec.deadline = g.rec.paused_left.take().map(|l| now + l);
                (
                    "resumed".to_string(),
                    format!(
                        "The game goes on.{}",
                        g.rec
                            .deadline
                            .map(|d| format!(" Deadline: {}.", format_long(d)))
                            .unwrap_or_default()
                    ),
                )
            }
            Cmd::Extend(h) => {
                let hours: i64 = h
                    .parse::<u32>()
                    .ok()
                    .filter(|h| *h >= 1 && *h <= self.j.config.max_deadline_hours)
                    .ok_or_else(|| {
                        format!(
                            "EXTEND {h}: write a number of hours from 1 to {}",
                            self.j.config.max_deadline_hours
                        )
                    })?
                    .into();
                match (status, g.rec.deadline, g.rec.paused_left) {
                    (Status::Running, Some(d), _) => {
                        g.rec.deadline = Some(d + hours * 3600);
                        g.rec.reminded.clear();
                    }
                    (Status::Paused, _, Some(l)) => g.rec.paused_left = Some(l + hours * 3600),
                    _ => return Err(format!("{id} has no deadline running")),
                }
                (
                    "deadline extended".to_string(),
                    format!(
                        "The game master moved the deadline {hours} hour(s) later{}.",
                        g.rec
                            .deadline
                            .map(|d| format!(", to {}", format_long(d)))
                            .unwrap_or_default()
                    ),
                )
            }
            Cmd::Replace(seat, addr) => {
                let addr = lower(&addr);
                if !addr.contains('@') {
                    return Err(format!(
                        "\"{addr}\" is not an address; write: REPLACE 2 new@example.org"
                    ));
                }
                if status == Status::Finished {
                    return Err(format!("{id} is over"));
                }
                let s = find_seat(&g.rec, &seat)?;
                if g.rec.seat_of(&addr).is_some_and(|x| x != s) {
                    return Err(format!("{addr} already has a seat in {id}"));
                }
                let pw = self.random_word("password", 8);
                let token = self.random_word("token", 6);
                let salt = g.rec.salt.clone();
                let seat_rec = &mut g.rec.seats[s];
                let name = seat_rec.name.clone();
                seat_rec.address = Some(addr.clone());
                seat_rec.password_hash = hash_pw(&salt, &pw);
                seat_rec.token = token.clone();
                seat_rec.misses = 0;
                seat_rec.bot = false;
                seat_rec.resigned = false;
                seat_rec.vacation_until = None;
                seat_rec.vacation_days = 0;
                let rec = g.rec.clone();
                self.welcome(&rec, &name, &addr, &pw, &token);
                g.force_private = true;
                (
                    format!("{name} replaced"),
                    format!("The seat {name} is now played by {addr}."),
                )
            }
            Cmd::Kick(seat) => {
                if status == Status::Finished {
                    return Err(format!("{id} is over"));
                }
                let s = find_seat(&g.rec, &seat)?;
                let seat_rec = &mut g.rec.seats[s];
                let name = seat_rec.name.clone();
                seat_rec.address = None;
                seat_rec.bot = true;
                (
                    format!("{name} removed"),
                    format!("The game master removed the player of {name}; a bot plays the seat until REPLACE."),
                )
            }
            Cmd::End => {
                if status == Status::Finished {
                    return Err(format!("{id} is already over"));
                }
                g.rec.status = Status::Finished;
                g.rec.ended = Some("ended by the game master".into());
                g.rec.deadline = None;
                g.dirty = true;
                self.glog(&id, "end", "ended by the game master".into());
                if g.session.is_none() {
                    return Ok(format!("{id} is ended before it started."));
                }
                // The final report (with the secret key) is made by settle.
                return Ok(format!("{id} is ended; the final report goes to everyone."));
            }
            _ => return Err("not a game master command".into()),
        };
        g.dirty = true;
        self.glog(&id, "gm", title.clone());
        for to in Self::recipients(&g.rec) {
            let body = self.j.templates.render(
                "notice.txt",
                &json!({"game_id": id, "title": title, "text": text}),
            );
            self.mail(&to, format!("[{id}] {title}"), body, Some(&id));
        }
        Ok(text)
    }

    // ---------------------------------------------------------------- deadlines

    fn tick_game(&mut self, id: &str) -> Result<(), StoreError> {
        let Some(mut g) = self.take(id)? else {
            return Ok(());
        };
        let now = self.now();
        let (Some(deadline), Some(session)) = (g.rec.deadline, g.session.as_ref()) else {
            self.put(g);
            return Ok(());
        };
        let awaiting = session.awaiting();
        let grace = i64::from(g.rec.deadlines.grace_hours) * 3600;
        if now >= deadline + grace {
            let max = self.j.config.max_misses.max(1);
            for seat in awaiting {
                let Some(session) = g.session.as_mut() else {
                    break;
                };
                if !session.awaiting().contains(&seat) {
                    continue;
                }
                let s = &mut g.rec.seats[seat];
                s.misses += 1;
                let name = s.name.clone();
                let newly_bot = !s.bot && s.misses >= max;
                if newly_bot {
                    s.bot = true;
                }
                let bot = s.bot;
                let addr = s.address.clone();
                let r = if bot {
                    session
                        .play_bot(seat)
                        .or_else(|_| session.play_default(seat))
                } else {
                    session.play_default(seat)
                };
                if let Err(e) = r {
                    self.glog(id, "error", format!("default for seat {seat} failed: {e}"));
                }
                g.dirty = true;
                self.glog(
                    id,
                    if bot { "bot" } else { "default" },
                    format!("seat {seat} ({name}) missed the deadline"),
                );
                if newly_bot {
                    let text = format!(
                        "{name} missed {max} deadline(s) in a row, so a bot now plays the seat. \
                         The player takes it back by sending orders; the game master may \
                         REPLACE the seat with another player."
                    );
                    let gm = g.rec.gm.clone();
                    let mut to = vec![gm];
                    if let Some(a) = addr {
                        if !to.contains(&a) {
                            to.push(a);
                        }
                    }
                    for a in to {
                        let body = self.j.templates.render(
                            "notice.txt",
                            &json!({"game_id": id, "title": format!("a bot stands in for {name}"), "text": text}),
                        );
                        self.mail(
                            &a,
                            format!("[{id}] A bot stands in for {name}"),
                            body,
                            Some(id),
                        );
                    }
                }
            }
        } else if g.rec.deadlines.reminder_hours > 0
            && now >= deadline - i64::from(g.rec.deadlines.reminder_hours) * 3600
        {
            for seat in awaiting {
                let s = &g.rec.seats[seat];
                if g.rec.reminded.contains(&seat) || s.bot {
                    continue;
                }
                let Some(addr) = s.address.clone() else {
                    continue;
                };
                let prompts: Vec<_> = session
                    .pending(castellan_engine::Lang::En)
                    .iter()
                    .filter(|p| p.seat == seat)
                    .map(prompt_json)
                    .collect();
                let body = self.j.templates.render(
                    "reminder.txt",
                    &json!({"game_id": id, "name": s.name, "deadline": format_long(deadline), "prompts": prompts}),
                );
                self.mail(
                    &addr,
                    format!(
                        "[{id} #{}] Reminder: your orders are due {}",
                        s.token,
                        format_short(deadline)
                    ),
                    body,
                    Some(id),
                );
                g.rec.reminded.insert(seat);
                g.dirty = true;
            }
        }
        self.put(g);
        Ok(())
    }

    /// After a handling: bots play their seats, finished games are closed, deadlines
    /// are reset, and every game that moved is reported.
    fn settle_all(&mut self) -> Result<(), StoreError> {
        let ids: Vec<String> = self.games.keys().cloned().collect();
        for id in ids {
            let Some(mut g) = self.games.remove(&id) else {
                continue;
            };
            if g.dirty {
                self.settle(&mut g);
            }
            self.games.insert(id, g);
        }
        Ok(())
    }

    fn settle(&mut self, g: &mut Loaded) {
        let id = g.rec.id.clone();
        let now = self.now();
        let Some(session) = g.session.as_mut() else {
            return;
        };
        if g.rec.status == Status::Running {
            // Bot stand-ins answer at once.
            for _ in 0..100_000 {
                if session.outcome().is_some() {
                    break;
                }
                let Some(seat) = session
                    .awaiting()
                    .into_iter()
                    .find(|s| g.rec.seats.get(*s).is_some_and(|x| x.bot))
                else {
                    break;
                };
                if session.play_bot(seat).is_err() && session.play_default(seat).is_err() {
                    self.log.push(LogLine {
                        game: id.clone(),
                        at: now,
                        kind: "error".into(),
                        text: format!("bot and default both refused for seat {seat}"),
                    });
                    break;
                }
            }
            if let Some(o) = session.outcome() {
                g.rec.status = Status::Finished;
                g.rec.deadline = None;
                let winners: Vec<String> =
                    o.winners.iter().map(|w| seat_name(&g.rec, *w)).collect();
                g.rec.ended = Some(if winners.is_empty() {
                    format!("a draw ({})", o.reason)
                } else {
                    format!("{} won ({})", winners.join(" and "), o.reason)
                });
            } else {
                let hl = session.history_len();
                if g.rec.deadline.is_none() || g.rec.deadline_history != hl {
                    let pending = session.pending(castellan_engine::Lang::En);
                    let hours = pending
                        .iter()
                        .map(|p| g.rec.deadlines.hours_for(p.kind.as_str()))
                        .max()
                        .unwrap_or(g.rec.deadlines.hours);
                    let mut d = now + i64::from(hours) * 3600;
                    for s in session.awaiting() {
                        if let Some(v) = g.rec.seats.get(s).and_then(|x| x.vacation_until) {
                            d = d.max(v);
                        }
                    }
                    g.rec.deadline = Some(d);
                    g.rec.deadline_history = hl;
                    g.rec.reminded.clear();
                }
            }
        }
        let moved = session.history_len() > g.rec.reported || g.force_private;
        let finished_now = g.rec.status == Status::Finished && !g.rec.final_sent;
        if moved || finished_now {
            self.report(g);
        }
        if let Some(s) = g.session.as_ref() {
            match s.to_json() {
                Ok(v) => g.rec.table = Some(v),
                Err(e) => self.log.push(LogLine {
                    game: id,
                    at: now,
                    kind: "error".into(),
                    text: format!("cannot store the game: {e}"),
                }),
            }
        }
    }

    /// Public report to everyone, private mails to each player.
    fn report(&mut self, g: &mut Loaded) {
        let id = g.rec.id.clone();
        let Some(session) = g.session.as_mut() else {
            return;
        };
        let finished = g.rec.status == Status::Finished;
        let n: Narration = session.narrate_since(g.rec.reported, castellan_engine::Lang::En);
        let turn = session.turn();
        // Turns before the current one are over: reveal their seeds.
        let upto = if finished {
            turn
        } else {
            turn.saturating_sub(1)
        };
        let mut revealed = Vec::new();
        for t in (g.rec.revealed + 1)..=upto {
            revealed.push(json!({"turn": t, "seed": session.dice().turn_seed(t).hex()}));
        }
        if revealed.is_empty() && g.rec.revealed > 0 {
            let t = g.rec.revealed;
            revealed.push(json!({"turn": t, "seed": session.dice().turn_seed(t).hex()}));
        }
        let revealed_last = upto.max(g.rec.revealed);
        g.rec.revealed = revealed_last;
        let commitment = session.dice().commitment_for(turn).hex();
        let secret_commitment = session.dice().secret_commitment().hex();
        let secret_key = if finished {
            Some(session.dice().secret_key().hex())
        } else {
            None
        };
        let awaiting = session.awaiting();
        let waiting_names: Vec<String> = awaiting.iter().map(|s| seat_name(&g.rec, *s)).collect();
        let deadline = g.rec.deadline;
        let players: Vec<String> = g
            .rec
            .seats
            .iter()
            .map(|s| {
                let mut p = s.name.clone();
                if s.resigned {
                    p.push_str(" (resigned)");
                } else if s.bot {
                    p.push_str(" (bot)");
                }
                p
            })
            .collect();
        let outcome = g.rec.ended.clone().unwrap_or_default();
        let rolls: Vec<_> = n
            .rolls
            .iter()
            .map(|r| json!({"turn": r.turn, "index": r.index, "sides": r.sides, "value": r.value}))
            .collect();
        let ctx = json!({
            "game_id": id, "game": g.rec.game, "turn": turn, "happened": n.public,
            "rolls": rolls, "map": session.public_view(castellan_engine::Lang::En), "awaiting": waiting_names,
            "deadline": deadline.map(format_long), "finished": finished, "outcome": outcome,
            "secret_key": secret_key, "secret_commitment": secret_commitment,
            "commitment": commitment, "revealed": revealed,
            "revealed_last": if revealed_last > 0 { Some(revealed_last) } else { None },
            "next_turn": turn, "players": players,
        });
        let public = self.j.templates.render("report.txt", &ctx);
        let subject = if finished {
            format!("[{id}] Game over: {outcome}")
        } else {
            format!(
                "[{id}] Turn {turn}: {} to move{}",
                if waiting_names.is_empty() {
                    "nobody".to_string()
                } else {
                    waiting_names.join(", ")
                },
                deadline
                    .map(|d| format!(", deadline {}", format_short(d)))
                    .unwrap_or_default()
            )
        };
        for to in Self::recipients(&g.rec) {
            self.mails.push(Draft {
                to,
                subject: subject.clone(),
                body: public.clone(),
                in_reply_to: Some(self.j.thread_root(&id)),
                references: vec![self.j.thread_root(&id)],
                headers: Vec::new(),
            });
        }
        // Private mails: only to the seat's own address, one mail each.
        let pending = session.pending(castellan_engine::Lang::En);
        for (seat, s) in g.rec.seats.iter().enumerate() {
            let Some(addr) = &s.address else { continue };
            if s.resigned {
                continue;
            }
            let mine = n.private_for(seat);
            let prompts: Vec<_> = pending
                .iter()
                .filter(|p| p.seat == seat)
                .map(prompt_json)
                .collect();
            if mine.is_empty() && prompts.is_empty() && !g.force_private && !finished {
                continue;
            }
            let body = self.j.templates.render(
                "private.txt",
                &json!({"game_id": id, "name": s.name, "turn": turn, "happened": mine,
                        "view": session.private_view(seat, castellan_engine::Lang::En), "prompts": prompts,
                        "deadline": deadline.map(format_long)}),
            );
            let subject = if prompts.is_empty() {
                format!("[{id} #{}] Turn {turn}: your view", s.token)
            } else {
                format!(
                    "[{id} #{}] Turn {turn}: your move{}",
                    s.token,
                    deadline
                        .map(|d| format!(", deadline {}", format_short(d)))
                        .unwrap_or_default()
                )
            };
            self.mails.push(Draft {
                to: addr.clone(),
                subject,
                body,
                in_reply_to: Some(self.j.thread_root(&id)),
                references: vec![self.j.thread_root(&id)],
                headers: Vec::new(),
            });
        }
        g.rec.reported = session.history_len();
        g.rec.final_sent = finished;
        g.force_private = false;
        g.dirty = true;
    }
}

fn seat_name(rec: &GameRecord, seat: usize) -> String {
    rec.seats
        .get(seat)
        .map(|s| s.name.clone())
        .unwrap_or_else(|| format!("seat {}", seat + 1))
}

fn find_seat(rec: &GameRecord, seat: &str) -> Result<usize, String> {
    if let Ok(n) = seat.parse::<usize>() {
        if n >= 1 && n <= rec.seats.len() {
            return Ok(n - 1);
        }
    }
    rec.seats
        .iter()
        .position(|s| lower(&s.name) == lower(seat))
        .ok_or_else(|| {
            format!(
                "no seat \"{seat}\"; the seats are {} (by number or name)",
                rec.seats
                    .iter()
                    .enumerate()
                    .map(|(i, s)| format!("{} {}", i + 1, s.name))
                    .collect::<Vec<_>>()
                    .join(", ")
            )
        })
}

fn capitalise(s: &str) -> String {
    let mut c = s.chars();
    match c.next() {
        Some(f) => f.to_uppercase().chain(c).collect(),
        None => String::new(),
    }
}

fn first_word(line: &str) -> String {
    line.split_whitespace().next().unwrap_or("").to_uppercase()
}

fn quote(no: usize, line: &str) -> String {
    if no == 0 {
        format!("subject: \"{line}\"")
    } else {
        format!("line {no}: \"{line}\"")
    }
}

/// The dice audit of one started game (VERIFY by mail, `castellan verify`): every revealed
/// seed chains to the commitment, every die of those turns replays from its seed, and the
/// whole game replays from its secret and its orders. Returns (all good, the report).
pub fn audit(rec: &GameRecord, s: &mut dyn Session) -> (bool, String) {
    let revealed = rec.revealed;
    let rolls = s.narrate_since(0, castellan_engine::Lang::En).rolls;
    let game_id = s.game_id().to_string();
    let mut out = Vec::new();
    let mut ok = true;
    let c0 = s.dice().commitment_for(1);
    out.push(format!("Commitment S0: {}", c0.hex()));
    let mut dice_checked = 0;
    for t in 1..=revealed {
        let seed = s.dice().turn_seed(t);
        let prev = if (t - 1) % CHAIN_LEN == 0 {
            s.dice().commitment_for(t)
        } else {
            s.dice().turn_seed(t - 1)
        };
        if !DiceBox::seed_follows(&seed, &prev) {
            ok = false;
            out.push(format!("turn {t}: seed does NOT chain to the previous one"));
        }
        let of_turn: Vec<_> = rolls.iter().filter(|r| r.turn == t).collect();
        let sides: Vec<u8> = of_turn.iter().map(|r| r.sides).collect();
        let faces = DiceBox::replay(&game_id, &seed, t, &sides);
        let want: Vec<u8> = of_turn.iter().map(|r| r.value).collect();
        if faces != want {
            ok = false;
            out.push(format!("turn {t}: dice do NOT replay from the seed"));
        }
        dice_checked += want.len();
    }
    let replay = s.verify();
    out.push(format!(
        "Revealed turns 1 to {revealed}: every seed chains to the commitment{}; {dice_checked} dice replay from their seeds{}.",
        if ok { "" } else { " (see above)" },
        if ok { "" } else { " (see above)" }
    ));
    match replay {
        Ok(()) => out.push("The whole game replays from its secret and its orders: ok.".into()),
        Err(e) => {
            ok = false;
            out.push(format!("Replay FAILED: {e}"))
        }
    }
    if rec.status == Status::Finished {
        out.push(format!(
            "Secret card-stream key: {}",
            s.dice().secret_key().hex()
        ));
    }
    out.push("Check it yourself: docs/dice.md and scripts/verify_dice.py.".into());
    (ok, out.join("\n"))
}
