//! The judge's three entry points: `handle` a mail, `tick` the deadlines, `admin` for
//! the CLI. Each runs one [`Run`] and hands back the [`Changes`] to commit.

use crate::audit::audit;
use crate::cmd::*;
use crate::config::JudgeConfig;
use crate::intake::*;
use crate::judge::{AdminCommand, Judge, JudgeError};
use crate::model::*;
use crate::run::*;
use crate::store::{Changes, Store};

impl Judge {
    /// Handle one inbound mail. The same Message-ID twice: nothing changes, nothing sent.
    pub fn handle(
        &self,
        store: &dyn Store,
        mail: &Inbound,
        env: &Env,
    ) -> Result<Changes, StoreError> {
        let mut at = match self.admit(store, mail, env)? {
            Admission::Read(at) => at,
            Admission::Ignored(changes) => return Ok(changes),
        };
        let limit = self.config.rate_limit_per_hour;
        let mut run = at.run(self, store, env);
        // A mail past either allowance is not judged until it is known which one
        // it draws on. It proves its seat (a right token or password of a seat or game
        // master registered to its From, checked cheaply in the game's header) or not; a
        // mail whose allowance is spent is only counted (its failed try counted too, and
        // the notices of a password or token it locked sent).
        if at.sender.count >= limit || at.sender.auth_count >= limit {
            let proven = run.prove_seat(mail, &at.from)?;
            if let Some(warn) = at.spend(proven, limit, false) {
                at.note_ignored("over the rate limit, not read");
                return self.over_the_limit(store, env, run, at, warn);
            }
        }
        at.note("mail", format!("mail {} from {}", at.mid, at.from));
        let stop = self.read_mail(&mut run, mail, &at.from)?;
        if let Some(warn) = at.spend(run.authenticated, limit, true) {
            // Judged on the allowance it was not proven to draw on, and over the other
            // (it proved itself only in the judging: a JOIN or creators password): what
            // it did is dropped, apart from the failed tries it counted.
            at.note_ignored("over the rate limit");
            return self.over_the_limit(store, env, run, at, warn);
        }
        let from = at.from.clone();
        if !stop {
            run.confirm_by_password(&from)?;
        }
        run.mail_notes(mail, &from);
        run.settle_all()?;
        run.note_left_out(&from);
        let subject = run.reply_subject(&from, &at.reply_subject);
        run.reply(&from, &subject);
        run.lift_stop(&from)?;
        run.only_those_who_asked(Some(&from))?;
        let mut changes = at.changes;
        changes.senders.push(at.sender);
        run.finish_into(&mut changes);
        Ok(changes)
    }

    /// The checks before a mail is read: handled already, who wrote (one canonical
    /// address, not ourselves, not automatic mail), the sender's allowance, and what the
    /// receiving server says of its From.
    fn admit(&self, store: &dyn Store, mail: &Inbound, env: &Env) -> Result<Admission, StoreError> {
        let mid = message_id(mail);
        let key = processed_key(mail);
        if store.is_processed(&key)? {
            return Ok(Admission::Ignored(Changes::default()));
        }
        let mut changes = Changes {
            processed: vec![key.clone()],
            ..Default::default()
        };
        let ignored = |mut changes: Changes, text: String| {
            changes.log.push(LogLine {
                game: String::new(),
                at: env.now,
                kind: "ignored".into(),
                text,
            });
            Ok(Admission::Ignored(changes))
        };
        // Who wrote: the From address in its one canonical form, or nobody: an
        // address that holds what an address cannot, or that would pass for another, is
        // not judged and not answered.
        let from = match crate::ident::canonical_address(&mail.from) {
            Ok(from) => from,
            Err(why) => {
                let given = crate::limits::clip(&mail.from.escape_debug().to_string(), 80);
                return ignored(
                    changes,
                    format!("mail {mid} from {given}: sender address refused: {why}"),
                );
            }
        };
        // Loop prevention: never answer automatic mail or ourselves (a DSN counts first).
        if let Some(why) = self.never_answer(mail, &mid, &from) {
            return ignored(self.read_bounce(store, env, mail, &mid, key, changes)?, why);
        }
        // A From that is no address (a control character; a NUL starts every key of the
        // judge's own marks: model::mark_key) is not read, and no sender record is kept.
        if !spells_an_address(&from) {
            return ignored(changes, format!("mail {mid}: its From is no address"));
        }
        // Rate limits per sender, apart for mail that proves who wrote it (a good password
        // or token) and mail that does not: forged mail in a player's name uses up only the
        // second, so it never locks the player out.
        let mut sender = self.sender_window(store, &from, env.now)?;
        let limit = self.config.rate_limit_per_hour;
        let over = sender.count >= limit && sender.auth_count >= limit;
        let forged = self.trusted_results(mail).map(|r| {
            let said = format!(
                "spf={} dkim={} dmarc={}",
                r.spf.as_deref().unwrap_or("-"),
                r.dkim.as_deref().unwrap_or("-"),
                r.dmarc.as_deref().unwrap_or("-")
            );
            (format!("{} says {said}", r.authserv_id), r.forged(&from))
        });
        if over {
            sender.count = sender.count.saturating_add(1);
            changes.senders.push(sender);
            return ignored(
                changes,
                format!("mail {mid} from {from}: over the rate limit"),
            );
        }
        if let Some((said, forged)) = forged {
            changes.log.push(LogLine {
                game: String::new(),
                at: env.now,
                kind: "authentication".into(),
                text: format!("mail {mid} from {from}: {said}"),
            });
            if let Some(why) = forged {
                // The receiving server says the From is forged: nothing is read, and
                // nothing is sent to the address it names.
                sender.count = sender.count.saturating_add(1);
                changes.senders.push(sender);
                let text = format!("mail {mid} from {from}: forged sender ({why})");
                return ignored(changes, text);
            }
        }
        let thread = (
            mid.clone(),
            mail.references
                .iter()
                .cloned()
                .chain(std::iter::once(mid.clone()))
                .collect(),
        );
        Ok(Admission::Read(Admitted {
            reply_subject: reply_subject(&mail.subject),
            mid,
            key,
            from,
            sender,
            thread,
            changes,
            now: env.now,
        }))
    }

    /// Read the mail: its readable start if it is too long (the reply says so), the
    /// seats its token confirms, then its lines. True when it says STOP.
    fn read_mail(&self, run: &mut Run<'_>, mail: &Inbound, from: &str) -> Result<bool, StoreError> {
        let request = mail.subject.len() + mail.body.len() + mail.from.len();
        run.bounds.budget = crate::limits::reply_budget(self.config.max_reply_bytes, request);
        // An oversized body: its readable start is read, and the reply says so.
        let readable = readable_start(mail, self.config.max_body_bytes);
        if let Some(body) = &readable {
            let limit = self.config.max_body_bytes;
            let lines = body.lines().count();
            let lang = run.writer_lang(from);
            run.answer(lang, "intake", &IntakeAnswer::TooLong { limit, lines });
        }
        // A mail that carries the token of a seat its From was named to confirms that
        // seat (optin.rs): a game whose named players have all
        // confirmed starts, before the mail is read. A mail saying STOP confirms nothing.
        let stop = is_stop(mail, &self.config);
        if !stop {
            run.confirm_seats(from, mail)?;
        }
        match readable {
            Some(body) => {
                let cut = Inbound {
                    body,
                    ..mail.clone()
                };
                run.process_mail(&cut, from)?;
            }
            None => run.process_mail(mail, from)?,
        }
        Ok(stop)
    }

    /// A mail over its allowance: what it did is dropped, but for the failed tries it
    /// counted (and the notices of a lock they brought); its writer is warned once an
    /// hour, in a subject that carries the writer's own token.
    fn over_the_limit(
        &self,
        store: &dyn Store,
        env: &Env,
        judged: Run<'_>,
        at: Admitted,
        warn: bool,
    ) -> Result<Changes, StoreError> {
        let kept = judged.keep_counters();
        let mut run = at.run(self, store, env);
        run.restore_counters(kept);
        if warn {
            let limit = self.config.rate_limit_per_hour;
            let lang = run.writer_lang(&at.from);
            run.answer(lang, "intake", &IntakeAnswer::TooManyMails { limit });
            let subject = run.unread_subject(&at.from, &at.reply_subject);
            run.reply(&at.from, &subject);
        }
        run.only_those_who_asked(Some(&at.from))?;
        let mut changes = at.changes;
        changes.senders.push(at.sender);
        run.finish_into(&mut changes);
        Ok(changes)
    }

    /// The topmost `Authentication-Results` header added by a server the config trusts
    /// ([`AuthenticationResults::forged`] reads it as DMARC means it).
    fn trusted_results<'m>(&self, mail: &'m Inbound) -> Option<&'m AuthenticationResults> {
        let trusted = &self.config.trusted_authserv_ids;
        mail.authentication_results.iter().find(|r| {
            trusted
                .iter()
                .any(|t| t.trim().eq_ignore_ascii_case(&r.authserv_id))
        })
    }

    /// Deadlines: reminders, defaults on a miss, bot stand-ins after too many misses.
    pub fn tick(&self, store: &dyn Store, env: &Env) -> Result<Changes, StoreError> {
        let mut changes = Changes::default();
        // Only the games whose reminder or deadline is due (the store keeps an index of
        // due times).
        for id in store.due_games(env.now)? {
            let rec = match store.game_header(&id) {
                Ok(Some(rec)) => rec,
                Ok(None) => continue,
                // Its stored parts cannot be read: it waits alone, every other game goes on.
                Err(e) if e.is_quarantine() => {
                    if let Ok(Some(header)) = store.game_header(&id) {
                        self.quarantine(store, env, header, &e, &mut changes)?;
                    }
                    continue;
                }
                Err(e) => return Err(e),
            };
            if rec.status != Status::Running || rec.deadline.is_none() {
                continue;
            }
            let key = format!("tick/{id}/{}", rec.out_counter);
            let mut run = Run::new(self, store, env, key);
            run.seed_from(&changes);
            match run.tick_game(&id) {
                Ok(()) => {}
                // A game that cannot be loaded waits alone; its game master is told once.
                Err(e) if e.is_quarantine() => {
                    self.quarantine(store, env, rec, &e, &mut changes)?;
                    continue;
                }
                Err(e) => return Err(e),
            }
            run.settle_all()?;
            if run.mails.is_empty() && !run.games.values().any(|g| g.dirty || g.keep) {
                continue;
            }
            if let Some(g) = run.games.get_mut(&id) {
                g.rec.out_counter += 1;
                g.dirty = true;
            }
            run.only_those_who_asked(None)?;
            run.finish_into(&mut changes);
        }
        Ok(changes)
    }

    /// A mail was kept because its game cannot be loaded (`e`, a quarantine error): the
    /// game is put in quarantine (logged, its game master told, once). Empty changes when
    /// it is there already or its header cannot be read either (then nobody is known to
    /// tell; the mail still waits, and every other game goes on).
    pub fn quarantined(
        &self,
        store: &dyn Store,
        env: &Env,
        e: &StoreError,
    ) -> Result<Changes, StoreError> {
        let mut changes = Changes::default();
        if let Some(Ok(Some(header))) = e.quarantined_game().map(|id| store.game_header(id)) {
            self.quarantine(store, env, header, e, &mut changes)?;
        }
        Ok(changes)
    }

    /// Put a game that cannot be loaded in quarantine: logged and its game master told,
    /// once (the record itself is readable: only its game is not). Only its header is
    /// written: what cannot be loaded is left as it is, for mending.
    fn quarantine(
        &self,
        store: &dyn Store,
        env: &Env,
        rec: GameRecord,
        e: &StoreError,
        changes: &mut Changes,
    ) -> Result<(), StoreError> {
        if rec.quarantine.is_some() {
            return Ok(());
        }
        changes.log.push(LogLine {
            game: rec.id.clone(),
            at: env.now,
            kind: "quarantine".into(),
            text: e.0.clone(),
        });
        let key = format!("quarantine/{}/{}", rec.id, rec.out_counter);
        let mut run = Run::new(self, store, env, key);
        let mut rec = rec;
        rec.quarantine = Some(e.0.clone());
        rec.out_counter += 1;
        let gm = rec.gm.clone();
        run.notify(
            &rec,
            &[gm],
            crate::mails::Event::Quarantined { why: e.0.clone() },
        );
        run.finish_into(changes);
        changes.headers.push(rec);
        Ok(())
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
        // The operator's commands count as consent for the addresses they name (optin.rs).
        run.consent = true;
        let text = match cmd {
            AdminCommand::List => return Ok((Changes::default(), run.admin_list()?)),
            AdminCommand::Verify { game } => {
                return Ok((Changes::default(), Self::audit_text(&mut run, &game)?));
            }
            AdminCommand::Show { game } => {
                let text = run
                    .with_game(&game, |run, g| run.show(g))?
                    .ok_or_else(|| JudgeError::Refused(format!("there is no game {game}")))?;
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
                let id = run.create(&lower(&gm), &game, &args).map_err(|e| match e {
                    CreateFailure::Store(e) => JudgeError::Store(e),
                    e => JudgeError::Refused(e.to_string()),
                })?;
                format!("created {id}")
            }
            AdminCommand::Pause { game } => run.gm_admin(&game, Command::Pause)?,
            AdminCommand::Resume { game } => run.gm_admin(&game, Command::Resume)?,
            AdminCommand::Extend { game, hours } => {
                let e = Extend::new(&hours.to_string(), &self.config)
                    .map_err(|e| JudgeError::Refused(e.to_string()))?;
                run.gm_admin(&game, Command::Extend(e))?
            }
            AdminCommand::Replace {
                game,
                seat,
                address,
            } => run.gm_admin(&game, Command::Replace(seat, address))?,
            AdminCommand::End { game } => run.gm_admin(&game, Command::End(None))?,
            AdminCommand::CampaignNew { gm, name, args } => {
                let line = format!("CAMPAIGN NEW {name} {}", args.join(" "));
                let a = run.campaign_new(&lower(&gm), &name, &args, &line)?;
                run.campaign_admin_text(&a)?
            }
            AdminCommand::CampaignAdd { campaign, game } => {
                let a = run.campaign_add(&lower(&campaign), None, &lower(&game))?;
                run.campaign_admin_text(&a)?
            }
            AdminCommand::CampaignStandings { campaign } => {
                let a = run.campaign_standings(&lower(&campaign))?;
                return Ok((Changes::default(), run.campaign_admin_text(&a)?));
            }
        };
        let changes = Self::admin_changes(run, &text, store, env)?;
        Ok((changes, text))
    }

    /// `castellan game verify`: the dice audit's report, refused when the audit fails.
    fn audit_text(run: &mut Run<'_>, game: &str) -> Result<String, JudgeError> {
        let audited = run.with_game(game, |run, g| {
            Ok::<_, StoreError>(match run.whole_session(g)? {
                Some(mut s) => Some(audit(&g.rec, s.as_mut())),
                None => None,
            })
        })?;
        let Some(audited) = audited else {
            return Err(JudgeError::Refused(format!("there is no game {game}")));
        };
        match audited? {
            None => Err(JudgeError::Refused(format!("{game} has not started"))),
            // The operator has the files; a player's VERIFY carries the script instead.
            Some((true, text)) => Ok(format!(
                "{text}\nCheck it yourself: docs/dice.md and scripts/verify_dice.py."
            )),
            Some((false, text)) => Err(JudgeError::Refused(text)),
        }
    }

    /// What an operator's command that changed something writes: the games settled, the
    /// log line, and the addresses it named counted as having asked (optin.rs).
    fn admin_changes(
        mut run: Run<'_>,
        text: &str,
        store: &dyn Store,
        env: &Env,
    ) -> Result<Changes, JudgeError> {
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
            text: text.to_string(),
        });
        run.finish_into(&mut changes);
        // The operator named these addresses: they count as having asked (optin.rs).
        for m in &changes.outbox {
            let to = lower(&m.to);
            if !spells_an_address(&to) {
                continue;
            }
            if store.sender(&to)?.is_none() && !changes.senders.iter().any(|s| s.address == to) {
                changes.senders.push(SenderRecord {
                    address: to,
                    window_start: env.now,
                    ..Default::default()
                });
            }
        }
        Ok(changes)
    }
}

impl Run<'_> {
    /// `castellan game list`: one line per game.
    fn admin_list(&self) -> Result<String, StoreError> {
        let mut out = String::new();
        for id in self.store.game_ids()? {
            if let Some(r) = self.store.game_header(&id)? {
                out.push_str(&self.list_line(&r));
                out.push('\n');
            }
        }
        if out.is_empty() {
            out = "no games\n".into();
        }
        Ok(out)
    }
}

/// The readable start of a body over `max` bytes (or cut by the mail layer): whole lines
/// up to `max` bytes, without the mail layer's truncation note. `None`: read it all.
fn readable_start(mail: &Inbound, max: usize) -> Option<String> {
    const NOTE: &str = "[castellan: message too long, only its beginning was read]";
    if !mail.truncated && mail.body.len() <= max {
        return None;
    }
    let body = mail.body.trim_end();
    let body = body.strip_suffix(NOTE).unwrap_or(body);
    let mut end = body.len().min(max);
    while end > 0 && !body.is_char_boundary(end) {
        end -= 1;
    }
    let head = &body[..end];
    // A line cut in the middle is not read.
    let head = if end < body.len() && !body[end..].starts_with('\n') {
        head.rfind('\n').map(|nl| &head[..nl]).unwrap_or("")
    } else {
        head
    };
    Some(head.trim_end().to_string())
}

/// Does the mail say STOP (its subject or a line of its own, read by the command parser:
/// STOP, UNSUBSCRIBE, DÉSABONNER)? Such a first mail confirms no seat.
fn is_stop(mail: &Inbound, config: &JudgeConfig) -> bool {
    let stop = |l: &str| {
        matches!(
            crate::cmd::parse(crate::intake::reading::strip_re(l.trim()).trim(), config),
            Some(Ok(crate::cmd::Command::Stop))
        )
    };
    stop(&mail.subject) || mail.body.lines().any(stop)
}

/// A mail past the checks before reading, or why it was not: what to store then.
enum Admission {
    Read(Admitted),
    Ignored(Changes),
}

/// A mail to be read: who wrote it, their allowance this hour, the reply's thread and
/// subject, and what its handling writes so far.
struct Admitted {
    mid: String,
    key: String,
    from: String,
    sender: SenderRecord,
    /// (in_reply_to, references) of the reply.
    thread: (String, Vec<String>),
    reply_subject: String,
    changes: Changes,
    now: i64,
}

impl Admitted {
    /// A handling of this mail.
    fn run<'a>(&self, judge: &'a Judge, store: &'a dyn Store, env: &'a Env) -> Run<'a> {
        let mut run = Run::new(judge, store, env, self.key.clone());
        run.thread = Some(self.thread.clone());
        run
    }

    fn note(&mut self, kind: &str, text: String) {
        self.changes.log.push(LogLine {
            game: String::new(),
            at: self.now,
            kind: kind.into(),
            text,
        });
    }

    fn note_ignored(&mut self, why: &str) {
        let text = format!("mail {} from {}: {why}", self.mid, self.from);
        self.note("ignored", text);
    }

    /// Count the mail against the allowance it draws on (`proven`: the authenticated
    /// one). `Some(warn)` when that allowance is spent (`past`: counting this mail, else
    /// before it), `warn` the first time in its hour.
    fn spend(&mut self, proven: bool, limit: u32, past: bool) -> Option<bool> {
        let s = &mut self.sender;
        let (count, warned) = if proven {
            (&mut s.auth_count, &mut s.auth_warned)
        } else {
            (&mut s.count, &mut s.warned)
        };
        if past {
            *count = count.saturating_add(1);
            if *count <= limit {
                return None;
            }
        } else {
            if *count < limit {
                return None;
            }
            *count = count.saturating_add(1);
        }
        let warn = !*warned;
        *warned = true;
        Some(warn)
    }
}
