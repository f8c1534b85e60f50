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
        let mid = message_id(mail);
        let key = processed_key(mail);
        if store.is_processed(&key)? {
            return Ok(Changes::default());
        }
        let mut changes = Changes {
            processed: vec![key.clone()],
            ..Default::default()
        };
        let log = |kind: &str, text: String| LogLine {
            game: String::new(),
            at: env.now,
            kind: kind.into(),
            text,
        };
        // Who wrote: the From address in its one canonical form, or nobody: an
        // address that holds what an address cannot, or that would pass for another, is
        // not judged and not answered.
        let from = match crate::ident::canonical_address(&mail.from) {
            Ok(from) => from,
            Err(why) => {
                let given = crate::limits::clip(&mail.from.escape_debug().to_string(), 80);
                changes.log.push(log(
                    "ignored",
                    format!("mail {mid} from {given}: sender address refused: {why}"),
                ));
                return Ok(changes);
            }
        };
        // Loop prevention: never answer automatic mail or ourselves.
        if let Some(why) = self.never_answer(mail, &mid, &from) {
            changes.log.push(log("ignored", why));
            return Ok(changes);
        }
        // A From that is no address (a control character; a NUL starts every key of the
        // judge's own marks: model::mark_key) is not read, and no sender record is kept.
        if !spells_an_address(&from) {
            changes.log.push(log(
                "ignored",
                format!("mail {mid}: its From is no address"),
            ));
            return Ok(changes);
        }
        // Rate limits per sender, apart for mail that proves who wrote it (a good password
        // or token) and mail that does not: forged mail in a player's name uses up only the
        // second, so it never locks the player out.
        let mut sender = self.sender_window(store, &from, env.now)?;
        let limit = self.config.rate_limit_per_hour;
        if sender.count >= limit && sender.auth_count >= limit {
            sender.count = sender.count.saturating_add(1);
            changes.senders.push(sender);
            changes.log.push(log(
                "ignored",
                format!("mail {mid} from {from}: over the rate limit"),
            ));
            return Ok(changes);
        }
        let reply_subject = reply_subject(&mail.subject);
        let thread = Some((
            mid.clone(),
            mail.references
                .iter()
                .cloned()
                .chain(std::iter::once(mid.clone()))
                .collect(),
        ));
        let mut run = Run::new(self, store, env, key.clone());
        run.thread = thread.clone();
        // A mail over its allowance: what it did is dropped, but for the failed tries it
        // counted (and the notices of a lock they brought); its writer is warned once an
        // hour, in a subject that carries the writer's own token.
        let over_the_limit = |run: Run<'_>, warn: bool, changes: &mut Changes| {
            let kept = run.keep_counters();
            let mut run = Run::new(self, store, env, key.clone());
            run.thread = thread.clone();
            run.restore_counters(kept);
            if warn {
                let lang = run.writer_lang(&from);
                run.answer(lang, "intake", &IntakeAnswer::TooManyMails { limit });
                let subject = run.unread_subject(&from, &reply_subject);
                run.reply(&from, &subject);
            }
            run.only_those_who_asked(Some(&from))?;
            run.finish_into(changes);
            Ok::<(), StoreError>(())
        };
        if let Some(r) = self.trusted_results(mail) {
            let said = format!(
                "spf={} dkim={} dmarc={}",
                r.spf.as_deref().unwrap_or("-"),
                r.dkim.as_deref().unwrap_or("-"),
                r.dmarc.as_deref().unwrap_or("-")
            );
            changes.log.push(log(
                "authentication",
                format!("mail {mid} from {from}: {} says {said}", r.authserv_id),
            ));
            if let Some(why) = r.forged(&from) {
                // The receiving server says the From is forged: nothing is read, and
                // nothing is sent to the address it names.
                sender.count = sender.count.saturating_add(1);
                changes.senders.push(sender);
                changes.log.push(log(
                    "ignored",
                    format!("mail {mid} from {from}: forged sender ({why})"),
                ));
                return Ok(changes);
            }
        }
        // A mail past either allowance is not judged until it is known which one
        // it draws on. It proves its seat (a right token or password of a seat or game
        // master registered to its From, checked cheaply in the game's header) or not; a
        // mail whose allowance is spent is only counted (its failed try counted too, and
        // the notices of a password or token it locked sent).
        if sender.count >= limit || sender.auth_count >= limit {
            let proven = run.prove_seat(mail, &from)?;
            let spent = if proven {
                sender.auth_count >= limit
            } else {
                sender.count >= limit
            };
            if spent {
                let (count, warned) = if proven {
                    (&mut sender.auth_count, &mut sender.auth_warned)
                } else {
                    (&mut sender.count, &mut sender.warned)
                };
                *count = count.saturating_add(1);
                let warn = !*warned;
                *warned = true;
                changes.senders.push(sender);
                changes.log.push(log(
                    "ignored",
                    format!("mail {mid} from {from}: over the rate limit, not read"),
                ));
                over_the_limit(run, warn, &mut changes)?;
                return Ok(changes);
            }
        }
        changes
            .log
            .push(log("mail", format!("mail {mid} from {from}")));
        let request = mail.subject.len() + mail.body.len() + mail.from.len();
        run.bounds.budget = crate::limits::reply_budget(self.config.max_reply_bytes, request);
        // An oversized body: its readable start is read, and the reply says so.
        let readable = readable_start(mail, self.config.max_body_bytes);
        if let Some(body) = &readable {
            let limit = self.config.max_body_bytes;
            let lines = body.lines().count();
            let lang = run.writer_lang(&from);
            run.answer(lang, "intake", &IntakeAnswer::TooLong { limit, lines });
        }
        // A mail that carries the token of a seat its From was named to confirms that
        // seat (optin.rs): a game whose named players have all
        // confirmed starts, before the mail is read. A mail saying STOP confirms nothing.
        let stop = is_stop(mail, &self.config);
        if !stop {
            run.confirm_seats(&from, mail)?;
        }
        match readable {
            Some(body) => {
                let cut = Inbound {
                    body,
                    ..mail.clone()
                };
                run.process_mail(&cut, &from)?;
            }
            None => run.process_mail(mail, &from)?,
        }
        let (count, warned) = if run.authenticated {
            (&mut sender.auth_count, &mut sender.auth_warned)
        } else {
            (&mut sender.count, &mut sender.warned)
        };
        *count = count.saturating_add(1);
        if *count > limit {
            // Judged on the allowance it was not proven to draw on, and over the other
            // (it proved itself only in the judging: a JOIN or creators password): what
            // it did is dropped, apart from the failed tries it counted.
            let warn = !*warned;
            *warned = true;
            changes.senders.push(sender);
            changes.log.push(log(
                "ignored",
                format!("mail {mid} from {from}: over the rate limit"),
            ));
            over_the_limit(run, warn, &mut changes)?;
            return Ok(changes);
        }
        changes.senders.push(sender);
        if !stop {
            run.confirm_by_password(&from)?;
        }
        run.mail_notes(mail, &from);
        run.settle_all()?;
        run.note_left_out(&from);
        let subject = run.reply_subject(&from, &reply_subject);
        run.reply(&from, &subject);
        run.lift_stop(&from)?;
        run.only_those_who_asked(Some(&from))?;
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
                let audited = run.with_game(&game, |run, g| {
                    Ok::<_, StoreError>(match run.whole_session(g)? {
                        Some(mut s) => Some(audit(&g.rec, s.as_mut())),
                        None => None,
                    })
                })?;
                let Some(audited) = audited else {
                    return Err(JudgeError::Refused(format!("there is no game {game}")));
                };
                let Some((ok, text)) = audited? else {
                    return Err(JudgeError::Refused(format!("{game} has not started")));
                };
                return if ok {
                    Ok((Changes::default(), text))
                } else {
                    Err(JudgeError::Refused(text))
                };
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
        Ok((changes, text))
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
