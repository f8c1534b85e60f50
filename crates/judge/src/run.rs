//! The working set of one handling: the games loaded, the mails drafted, the log.

use crate::judge::*;
use crate::mails::*;
use crate::model::*;
use crate::store::{Changes, Store};
use crate::stored::StoredGame;
use castellan_engine::dice::sha256;
use castellan_engine::Lang;
use castellan_engine::{GameInfo, Session};
use std::collections::BTreeMap;

/// One game while a handling runs.
pub(crate) struct Loaded {
    pub(crate) rec: GameRecord,
    pub(crate) session: Option<Box<dyn Session>>,
    /// How many history entries the store holds (those from it on are written).
    pub(crate) stored_len: usize,
    pub(crate) dirty: bool,
    /// The record changed outside the game (a password rehashed): store it, no report.
    pub(crate) keep: bool,
    /// Force a private mail to every seat in the next report (start).
    pub(crate) force_private: bool,
    /// The phase was ended by its deadline or the game master's PROCESS (defaults played
    /// for the seats awaited): whoever is awaited after it is asked anew, with a new
    /// deadline, even the same seats (a simultaneous phase that follows another).
    pub(crate) forced: bool,
    /// The writer's orders left them awaited for something else (END, then PLACE the
    /// armies earned): their reply asks it, with the deadline.
    pub(crate) ask_writer: bool,
}

impl Loaded {
    /// The table's stored form as the store takes it: the snapshot, and the history
    /// entries the store does not hold yet (`None` while the game forms).
    fn stored_table(&self) -> Result<Option<castellan_engine::StoredTable>, String> {
        self.session
            .as_ref()
            .map(|s| s.stored(self.stored_len))
            .transpose()
    }
}

pub(crate) const PW_ALPHABET: &[u8] = b"abcdefghjkmnpqrstuvwxyz23456789";

pub(crate) use crate::model::lower;

/// One handling (mail, tick or admin command) in progress.
pub(crate) struct Run<'a> {
    pub(crate) j: &'a Judge,
    pub(crate) store: &'a dyn Store,
    pub(crate) env: &'a Env,
    pub(crate) key: String,
    pub(crate) games: BTreeMap<String, Loaded>,
    pub(crate) mails: Vec<Draft>,
    pub(crate) log: Vec<LogLine>,
    pub(crate) sections: Vec<Section>,
    /// (in_reply_to, references) of replies.
    pub(crate) thread: Option<(String, Vec<String>)>,
    /// HISTORY ... PICTURE: the board of a past turn, for the reply's HTML part.
    pub(crate) reply_picture: Option<String>,
    /// Files for the reply (VERIFY: the dice script).
    pub(crate) reply_attachments: Vec<Attachment>,
    /// Games this mail concerned, with the writer's seat (reply subject).
    pub(crate) touched: Vec<(String, Option<usize>)>,
    pub(crate) derive_count: u32,
    /// The mail used French command words (the reply's language if the writer has no seat).
    pub(crate) french_words: bool,
    /// Each answer given, as `family/kind[/reason]` (metrics).
    pub(crate) answered: Vec<String>,
    /// The reply's size bound and what it left out (limits.rs).
    pub(crate) bounds: crate::limits::Bounds,
    /// The bound as configured (`max_reply_bytes`), for the note.
    pub(crate) bounds_limit: usize,
    /// Players' records read or changed in this handling (crate::record).
    pub(crate) records: BTreeMap<String, PlayerRecord>,
    /// Each game as it was loaded, to see what changed for the records.
    pub(crate) basis: BTreeMap<String, crate::record::basis::Basis>,
    /// Campaigns read or changed in this handling (crate::campaign).
    pub(crate) campaigns: BTreeMap<String, crate::campaign::CampaignRecord>,
    /// Credentials checked in this mail, per game: what was given and the verdict (one
    /// try per mail).
    pub(crate) tries: BTreeMap<String, (String, Result<crate::auth::Who, crate::auth::AuthError>)>,
    /// Some credential of this mail was good (the mail counts as authenticated).
    pub(crate) authenticated: bool,
    /// A credential of this mail was wrong: no other is checked (one wrong try per mail).
    pub(crate) failed_try: bool,
    /// Argon2id computations this mail cost (auth::MAX_SLOW_HASHES_PER_MAIL).
    pub(crate) slow_hashes: u32,
    /// Counters of failed tries (keyed like senders), to store.
    pub(crate) counters: crate::counters::Counters,
    /// Notices of locked passwords to game masters: sent even when the mail is dropped.
    pub(crate) notices: Vec<Draft>,
    /// This mail said STOP (optin.rs).
    pub(crate) stopped_now: bool,
    /// The operator's command: the addresses it names count as having asked (optin.rs),
    /// so the players it names need not confirm.
    pub(crate) consent: bool,
    /// A tournament seats its tables (campaign.rs): its games are not new games by mail,
    /// and count as consented only in a tournament the operator runs (optin.rs).
    pub(crate) seating: bool,
    /// Confirmations sent in this handling (optin.rs: at most 8 a mail).
    pub(crate) confirmations: u32,
}

/// State of the line loop.
#[derive(Default)]
pub(crate) struct Ctx {
    pub(crate) game: Option<String>,
    /// The game named is unknown or refused: its lines are skipped.
    pub(crate) bad: bool,
    pub(crate) password: Option<String>,
    pub(crate) tokens: Vec<String>,
    pub(crate) orders: Vec<(usize, String)>,
    pub(crate) check_mode: bool,
    pub(crate) press: Option<(usize, Vec<String>)>,
    /// A command other than GAME, PASSWORD or a bare CHECK was read: the lines after the
    /// last one that are neither commands nor orders (a sign-off) are not read, not
    /// refused.
    pub(crate) acted: bool,
    /// Lines set aside unread (a greeting before the orders, a sign-off after them), named
    /// in the reply.
    pub(crate) unread: Vec<crate::intake::reading::Quoted>,
}

impl<'a> Run<'a> {
    pub(crate) fn new(j: &'a Judge, store: &'a dyn Store, env: &'a Env, key: String) -> Run<'a> {
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
            reply_picture: None,
            reply_attachments: Vec::new(),
            touched: Vec::new(),
            derive_count: 0,
            french_words: false,
            answered: Vec::new(),
            bounds: crate::limits::Bounds::unbounded(),
            bounds_limit: j.config.max_reply_bytes,
            records: BTreeMap::new(),
            basis: BTreeMap::new(),
            campaigns: BTreeMap::new(),
            tries: BTreeMap::new(),
            authenticated: false,
            failed_try: false,
            slow_hashes: 0,
            counters: Default::default(),
            notices: Vec::new(),
            stopped_now: false,
            consent: false,
            seating: false,
            confirmations: 0,
        }
    }

    pub(crate) fn now(&self) -> i64 {
        self.env.now
    }

    pub(crate) fn derive(&mut self, label: &str) -> [u8; 32] {
        self.derive_count += 1;
        let mut b = self.env.entropy.to_vec();
        b.extend_from_slice(format!("|{label}|{}", self.derive_count).as_bytes());
        sha256(&b)
    }

    /// An Argon2id hash of `pw`, a secret a person chose, with a fresh salt (from the
    /// handling's entropy; drawing it does not move the sequence that passwords and tokens
    /// come from). Secrets the judge draws are kept by `password::keyed` instead.
    pub(crate) fn new_hash(&self, label: &str, pw: &str) -> String {
        let mut b = self.env.entropy.to_vec();
        b.extend_from_slice(format!("|salt|{label}|{}|{pw}", self.derive_count).as_bytes());
        let salt = sha256(&b);
        crate::password::hash(crate::password::Cost::of(&self.j.config), &salt, pw)
    }

    pub(crate) fn random_word(&mut self, label: &str, len: usize) -> String {
        let b = self.derive(label);
        b.iter()
            .take(len)
            .map(|x| PW_ALPHABET[*x as usize % PW_ALPHABET.len()] as char)
            .collect()
    }

    pub(crate) fn glog(&mut self, game: &str, kind: &str, text: String) {
        self.log.push(LogLine {
            game: game.into(),
            at: self.env.now,
            kind: kind.into(),
            text,
        });
    }

    /// Add a section to the reply, unless the reply's size bound is reached (then it is
    /// left out and named in the reply's last section).
    pub(crate) fn section(&mut self, title: impl Into<String>, text: impl Into<String>) {
        let (title, text) = (title.into(), text.into());
        if !self.bounds.admit(&title, title.len() + text.len() + 8) {
            return;
        }
        self.sections.push(Section {
            title,
            text,
            events: false,
        });
    }

    /// Take a game out of the working set (loading it if needed); [`Run::with_game`] gives
    /// it back.
    fn take(&mut self, id: &str) -> Result<Option<Loaded>, StoreError> {
        let id = lower(id);
        if let Some(g) = self.games.remove(&id) {
            return Ok(Some(g));
        }
        let Some(StoredGame { record: rec, table }) = self.store.game(&id)? else {
            return Ok(None);
        };
        self.basis
            .entry(id.clone())
            .or_insert_with(|| crate::record::basis::Basis::of(&rec));
        let (mut session, mut stored_len) = (None, 0);
        if let Some(t) = table {
            let Some(info) = self.j.info(&rec.game) else {
                return Err(StoreError::quarantine(
                    &id,
                    &format!("it is a {} game, which this judge does not run", rec.game),
                ));
            };
            stored_len = t
                .history_len()
                .map_err(|e| StoreError::quarantine(&id, &e))?;
            session = Some((info.load)(t).map_err(|e| StoreError::quarantine(&id, &e))?);
        }
        // Out of quarantine: it loads again (a judge that reads it now).
        let back = rec.quarantine.is_some();
        let mut rec = rec;
        rec.quarantine = None;
        Ok(Some(Loaded {
            rec,
            session,
            stored_len,
            dirty: back,
            keep: false,
            force_private: false,
            forced: false,
            ask_writer: false,
        }))
    }

    /// The game of `g` with its whole history (HISTORY, VERIFY): the entries the store
    /// keeps before the ones in hand, then those in hand (with what this handling added).
    pub(crate) fn whole_session(&self, g: &Loaded) -> Result<Option<Box<dyn Session>>, StoreError> {
        let Some(s) = g.session.as_ref() else {
            return Ok(None);
        };
        let broken = |why: String| StoreError::quarantine(&g.rec.id, &why);
        let base = s.history_base();
        let mut table = s.stored(base).map_err(broken)?;
        if base > 0 {
            let stored = self
                .store
                .game_whole(&g.rec.id)?
                .and_then(|w| w.table)
                .ok_or_else(|| broken("its stored history is missing".into()))?;
            let mut all = stored.entries;
            if stored.base != 0 || all.len() < base {
                return Err(broken(format!(
                    "its stored history has fewer than {base} entries"
                )));
            }
            all.truncate(base);
            all.append(&mut table.entries);
            table.entries = all;
            table.base = 0;
        }
        let info = self
            .j
            .info(&g.rec.game)
            .ok_or_else(|| broken(format!("this judge does not run {}", g.rec.game)))?;
        (info.load)(table).map(Some).map_err(broken)
    }

    /// Give back a game taken with [`Run::take`].
    fn put(&mut self, g: Loaded) {
        self.games.insert(g.rec.id.clone(), g);
    }

    /// Work on game `id` (loaded if needed) and hand it back whatever `work` returns: no
    /// early return in `work` can lose it. `None`: there is no such game.
    pub(crate) fn with_game<R>(
        &mut self,
        id: &str,
        work: impl FnOnce(&mut Self, &mut Loaded) -> R,
    ) -> Result<Option<R>, StoreError> {
        let Some(mut g) = self.take(id)? else {
            return Ok(None);
        };
        let r = work(self, &mut g);
        self.put(g);
        Ok(Some(r))
    }

    /// Hold a game made in this handling.
    pub(crate) fn hold_new(&mut self, g: Loaded) {
        self.put(g);
    }

    /// A game in hand (loaded if needed), read without taking it out.
    pub(crate) fn game(&mut self, id: &str) -> Result<Option<&Loaded>, StoreError> {
        let id = lower(id);
        if !self.games.contains_key(&id) {
            let Some(g) = self.take(&id)? else {
                return Ok(None);
            };
            self.put(g);
        }
        Ok(self.games.get(&id))
    }

    /// Every address that gets public mail of a game: seats, observers, game master.
    pub(crate) fn recipients(rec: &GameRecord) -> Vec<String> {
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

    /// Start from what earlier handlings of the same batch wrote (a tick handles each game
    /// in a handling of its own, all committed together): their players' records and
    /// campaigns, so none overwrites another's.
    pub(crate) fn seed_from(&mut self, changes: &Changes) {
        for r in &changes.records {
            self.records.insert(r.address.clone(), r.clone());
        }
        for c in &changes.campaigns {
            self.campaigns.insert(c.id.clone(), c.clone());
        }
        // The judge's own marks and budgets (optin.rs): a later handling counts on.
        for s in &changes.senders {
            if s.address.starts_with('\0') {
                self.counters.hold(s.clone());
            }
        }
    }

    /// What a dropped handling keeps: its failed-try counters and lock notices.
    pub(crate) fn keep_counters(self) -> (crate::counters::Counters, Vec<Draft>) {
        (self.counters, self.notices)
    }

    pub(crate) fn restore_counters(&mut self, kept: (crate::counters::Counters, Vec<Draft>)) {
        self.counters = kept.0;
        self.notices = kept.1;
    }

    pub(crate) fn finish_into(mut self, changes: &mut Changes) {
        changes.slow_hashes += self.slow_hashes;
        let notices = std::mem::take(&mut self.notices);
        self.mails.extend(notices);
        if let Err(e) = self.campaigns_after_games() {
            self.glog("", "error", format!("campaigns not updated: {e}"));
        }
        if let Err(e) = self.record_changes() {
            self.glog("", "error", format!("players' records not updated: {e}"));
        }
        changes
            .records
            .extend(std::mem::take(&mut self.records).into_values());
        changes
            .campaigns
            .extend(std::mem::take(&mut self.campaigns).into_values());
        let unsubscribe = crate::mails::list_unsubscribe(&self.j.config.address);
        for (i, mut d) in std::mem::take(&mut self.mails).into_iter().enumerate() {
            d.headers.push(unsubscribe.clone());
            changes.outbox.push(Outbound {
                message_id: self.j.msgid(&self.key, i),
                to: d.to,
                subject: d.subject,
                body: d.body,
                in_reply_to: d.in_reply_to,
                references: d.references,
                headers: d.headers,
                html: d.html,
                attachments: d.attachments,
            });
        }
        for g in std::mem::take(&mut self.games).into_values() {
            if !(g.dirty || g.keep) {
                continue;
            }
            match g.stored_table() {
                Ok(table) => changes.games.push(StoredGame {
                    record: g.rec,
                    table,
                }),
                // Its state as it was stays stored; what the header says is kept.
                Err(e) => {
                    self.glog(&g.rec.id, "error", format!("cannot store the game: {e}"));
                    changes.headers.push(g.rec);
                }
            }
        }
        changes
            .senders
            .extend(std::mem::take(&mut self.counters).into_records());
        changes.log.append(&mut self.log);
        changes.answers.append(&mut self.answered);
    }

    pub(crate) fn info(&self, name: &str) -> Option<&'a GameInfo> {
        self.j.info(name)
    }
}
impl Run<'_> {
    /// The game's language: its own, else the server's.
    pub(crate) fn game_lang(&self, rec: &GameRecord) -> Lang {
        rec.language.unwrap_or(self.j.config.language)
    }

    /// A seat's language: its own, else the game's.
    pub(crate) fn seat_lang(&self, rec: &GameRecord, seat: usize) -> Lang {
        rec.seats
            .get(seat)
            .and_then(|s| s.language)
            .unwrap_or_else(|| self.game_lang(rec))
    }

    /// The language of an address in a game: its seat's, else (observers, game master)
    /// the game's.
    pub(crate) fn addr_lang(&self, rec: &GameRecord, addr: &str) -> Lang {
        match rec.seat_of(addr) {
            Some(s) => self.seat_lang(rec, s),
            None => self.game_lang(rec),
        }
    }

    /// The language of the reply to the writer: the one their seat chose (`SET LANGUAGE`)
    /// in the game the mail was about, else French if they wrote French command or order
    /// words, else that game's, else the server's.
    pub(crate) fn writer_lang(&self, from: &str) -> Lang {
        for (id, _) in &self.touched {
            if let Some(g) = self.games.get(id) {
                if let Some(lang) = g.rec.seat_of(from).and_then(|s| g.rec.seats[s].language) {
                    return lang;
                }
            }
        }
        if self.french_words {
            return Lang::Fr;
        }
        for (id, _) in &self.touched {
            if let Some(g) = self.games.get(id) {
                return self.game_lang(&g.rec);
            }
        }
        self.j.config.language
    }

    /// The writer's language before anything is known of them: French if the mail so far
    /// used French command words, else the server's.
    pub(crate) fn writer_lang_guess(&self) -> Lang {
        if self.french_words {
            Lang::Fr
        } else {
            self.j.config.language
        }
    }

    /// Render a template in `lang`; a failing override is logged (kind "template").
    pub(crate) fn render_in<S: serde::Serialize>(
        &mut self,
        lang: castellan_engine::Lang,
        name: &str,
        ctx: &S,
    ) -> String {
        let r = self.j.templates.render_in(lang, name, ctx);
        if let Some(p) = r.problem {
            self.glog("", "template", p);
        }
        r.text
    }
}

pub(crate) fn seat_name(rec: &GameRecord, seat: usize) -> String {
    rec.seats
        .get(seat)
        .map(|s| s.name.clone())
        .unwrap_or_else(|| format!("seat {}", seat + 1))
}
