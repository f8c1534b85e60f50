//! Checking a mail's credentials for a game: tokens, passwords, the one wrong try per
//! mail, the failure counters and their lock notices.

use super::*;
use crate::cmd::*;
use crate::password::same;
use crate::run::*;

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
        match self.game(id)?.map(|g| g.rec.id.clone()) {
            Some(id) => {
                if !self.touched.iter().any(|(t, _)| *t == id) {
                    self.touched.push((id, None));
                }
            }
            None => {
                ctx.bad = true;
                let lang = self.writer_lang_guess();
                let answer = AuthAnswer::NoGame {
                    game: id.to_string(),
                };
                self.answer(lang, "auth", &answer);
            }
        }
        Ok(())
    }

    /// Who the writer is in this game, or why they are refused. One try per mail and game:
    /// the first credential given is checked; another one later in the same mail, after a
    /// failure, is refused unchecked. A password is checked only while its seat has had
    /// fewer than [`MAX_FAILED_TRIES`] failed tries this hour; a token always is.
    pub(crate) fn auth(
        &mut self,
        g: &mut Loaded,
        ctx: &Ctx,
        from: &str,
    ) -> Result<Result<Who, AuthError>, StoreError> {
        let rec = &g.rec;
        let seat = rec.seat_of(from);
        let is_gm = lower(&rec.gm) == from;
        let game = rec.id.clone();
        if seat.is_none() && !is_gm {
            return Ok(Err(AuthError::NotInGame {
                address: from.to_string(),
                game,
            }));
        }
        if ctx.password.is_none() && ctx.tokens.is_empty() {
            return Ok(Err(AuthError::NoCredentials { game }));
        }
        let given = format!("{:?}/{:?}", ctx.password, ctx.tokens);
        if let Some((before, verdict)) = self.tries.get(&game) {
            if *before == given || verdict.is_ok() {
                return Ok(verdict.clone());
            }
            return Ok(Err(AuthError::OneTryPerMail { game }));
        }
        // One wrong try per mail in all: after a wrong password or token, for
        // any game, JOIN, CAMPAIGN or the creators, nothing more in the mail is checked.
        if self.failed_try {
            return Ok(Err(AuthError::OneTryPerMail { game }));
        }
        let verdict = self.check_credentials(g, ctx, from, seat, is_gm)?;
        if matches!(verdict, Err(AuthError::WrongCredentials { .. })) {
            self.failed_try = true;
        }
        if let Ok(who) = &verdict {
            self.authenticated = true;
            // Civil disorder ends the moment the player writes (docs/rules/absence.md).
            if let Some(s) = who.seat.and_then(|s| g.rec.seats.get_mut(s)) {
                if s.disorder {
                    s.disorder = false;
                    s.misses = 0;
                    g.keep = true;
                }
            }
        }
        self.tries.insert(game, (given, verdict.clone()));
        Ok(verdict)
    }

    fn check_credentials(
        &mut self,
        g: &mut Loaded,
        ctx: &Ctx,
        from: &str,
        seat: Option<usize>,
        is_gm: bool,
    ) -> Result<Result<Who, AuthError>, StoreError> {
        let game = g.rec.id.clone();
        let who = Who { seat, gm: is_gm };
        let mut tokens: Vec<&String> = Vec::new();
        for t in &ctx.tokens {
            if !tokens.contains(&t) && tokens.len() < TOKENS_PER_MAIL {
                tokens.push(t);
            }
        }
        // The token and the password together prove the seat whatever is locked (a
        // forger who locks the seat's password and its address's tokens cannot mute it;
        // about 30 + 40 bits cannot be guessed, however fast the mails come). The lock
        // notices say so. Neither is counted as a failure here: alone, each is judged below.
        if let Some(pw) = &ctx.password {
            if self.token_and_password(g, &tokens, pw, seat, is_gm) {
                return Ok(Ok(who));
            }
        }
        // Tokens first (a constant-time compare each), while the address has tokens left
        // to try this hour.
        let token_key = token_failures_key(from);
        let tokens_locked =
            !tokens.is_empty() && self.failures(&token_key)?.count >= MAX_FAILED_TOKEN_TRIES;
        if !tokens_locked {
            for t in &tokens {
                let seat_token = seat.is_some_and(|s| same(&g.rec.seats[s].token, t));
                if seat_token || (is_gm && same(&g.rec.gm_token, t)) {
                    return Ok(Ok(who));
                }
            }
        }
        // Then the password: the seat's, then the game master's (a game master may sit
        // too), each while it has tries left this hour.
        let mut targets: Vec<Option<usize>> = Vec::new();
        if let Some(s) = seat {
            targets.push(Some(s));
        }
        if is_gm {
            targets.push(None);
        }
        let (mut locked, mut tried) = (false, Vec::new());
        if let Some(pw) = &ctx.password {
            match self.passwords(g, pw, targets)? {
                Passwords::Right => return Ok(Ok(who)),
                Passwords::NoTryLeft => return Ok(Err(AuthError::OneTryPerMail { game })),
                Passwords::Wrong {
                    tried: t,
                    locked: l,
                } => (tried, locked) = (t, l),
            }
        }
        // Wrong: each thing tried counts against itself only.
        for target in tried {
            self.count_password_failure(g, target)?;
        }
        if !tokens_locked && !tokens.is_empty() {
            let rec = g.rec.clone();
            for _ in &tokens {
                self.count_token_failure(&rec, from)?;
            }
        }
        Ok(Err(if ctx.password.is_some() && locked {
            AuthError::Locked { game }
        } else if tokens_locked && ctx.password.is_none() {
            AuthError::TokensLocked { game }
        } else {
            AuthError::WrongCredentials { game }
        }))
    }

    /// Do one of `tokens` and the password `pw` together prove the seat (or the game
    /// master)? Checked whatever is locked, and never counted as a failure.
    fn token_and_password(
        &mut self,
        g: &Loaded,
        tokens: &[&String],
        pw: &str,
        seat: Option<usize>,
        is_gm: bool,
    ) -> bool {
        let both = [seat, is_gm.then_some(usize::MAX)];
        for target in both.into_iter().flatten() {
            let (token, stored) = match target {
                usize::MAX => (&g.rec.gm_token, g.rec.gm_password_hash.clone()),
                s => (&g.rec.seats[s].token, g.rec.seats[s].password_hash.clone()),
            };
            if !tokens.iter().any(|t| same(token, t)) || !self.slow_allowed(&stored) {
                continue;
            }
            let kind = crate::password::Kind::Drawn;
            if crate::password::verify(&stored, &g.rec.salt, pw, kind)
                != crate::password::Verdict::No
            {
                return true;
            }
        }
        false
    }

    /// The password `pw` tried on each of `targets` (a seat, `None`: the game master's)
    /// that has tries left this hour. A password the judge drew, kept by an earlier
    /// format, is kept by keyed hash from now on.
    fn passwords(
        &mut self,
        g: &mut Loaded,
        pw: &str,
        targets: Vec<Option<usize>>,
    ) -> Result<Passwords, StoreError> {
        let (mut locked, mut tried) = (false, Vec::new());
        for target in targets {
            let key = failures_key(&g.rec.id, target);
            if self.failures(&key)?.count >= MAX_FAILED_TRIES {
                locked = true;
                continue;
            }
            let stored = match target {
                Some(s) => g.rec.seats[s].password_hash.clone(),
                None => g.rec.gm_password_hash.clone(),
            };
            if !self.slow_allowed(&stored) {
                return Ok(Passwords::NoTryLeft);
            }
            tried.push(target);
            let kind = crate::password::Kind::Drawn;
            match crate::password::verify(&stored, &g.rec.salt, pw, kind) {
                crate::password::Verdict::No => {}
                crate::password::Verdict::Yes => return Ok(Passwords::Right),
                crate::password::Verdict::Upgrade => {
                    let hash = crate::password::keyed(&g.rec.salt, pw);
                    match target {
                        Some(s) => g.rec.seats[s].password_hash = hash,
                        None => g.rec.gm_password_hash = hash,
                    }
                    g.keep = true;
                    return Ok(Passwords::Right);
                }
            }
        }
        Ok(Passwords::Wrong { tried, locked })
    }

    /// May the mail check `stored` now? A keyed hash always; an Argon2id hash while the
    /// mail has Argon2id computations left ([`MAX_SLOW_HASHES_PER_MAIL`]), counting it.
    pub(crate) fn slow_allowed(&mut self, stored: &str) -> bool {
        if !crate::password::is_slow(stored) {
            return true;
        }
        self.slow_allowed_now()
    }

    /// One Argon2id computation more, if the mail has one left.
    pub(crate) fn slow_allowed_now(&mut self) -> bool {
        if self.slow_hashes >= MAX_SLOW_HASHES_PER_MAIL {
            return false;
        }
        self.slow_hashes += 1;
        true
    }

    /// The failed-tries counter under `key`, this hour.
    pub(crate) fn failures(&mut self, key: &str) -> Result<SenderRecord, StoreError> {
        let now = self.now();
        self.counters.failures(self.store, key, now)
    }

    /// Is the password under `key` locked (no tries left this hour)?
    pub(crate) fn locked(&mut self, key: &str) -> Result<bool, StoreError> {
        Ok(self.failures(key)?.count >= MAX_FAILED_TRIES)
    }

    /// One more failed try under `key`; true when it reaches `limit` now (tell, once an
    /// hour). Also closes the mail to further tries.
    pub(crate) fn count_failure(&mut self, key: &str, limit: u32) -> Result<bool, StoreError> {
        self.failed_try = true;
        let now = self.now();
        let tell = self.counters.count_failure(self.store, key, limit, now)?;
        if tell {
            let what = key.trim_start_matches('\0');
            self.glog("", "locked", format!("{limit} failed tries on {what}"));
        }
        Ok(tell)
    }

    /// Mail `event` about `rec` to `to` as a notice that goes out even when the mail
    /// itself is not read or is dropped.
    pub(crate) fn notice(&mut self, rec: &GameRecord, to: &[String], event: crate::mails::Event) {
        let before = self.mails.len();
        self.notify(rec, to, event);
        let notice: Vec<_> = self.mails.drain(before..).collect();
        self.notices.extend(notice);
    }

    /// One more failed try on a seat's password (`None`: the game master's); at the limit
    /// the seat's player and the game master are told, once an hour.
    fn count_password_failure(
        &mut self,
        g: &Loaded,
        target: Option<usize>,
    ) -> Result<(), StoreError> {
        let key = failures_key(&g.rec.id, target);
        if !self.count_failure(&key, MAX_FAILED_TRIES)? {
            return Ok(());
        }
        let gm = lower(&g.rec.gm);
        let mut to = vec![gm.clone()];
        let name = match target {
            Some(s) => {
                if let Some(a) = g.rec.seats[s].address.as_deref().map(lower) {
                    if a != gm {
                        to.insert(0, a);
                    }
                }
                g.rec.seats[s].name.clone()
            }
            None => String::new(),
        };
        let event = crate::mails::Event::PasswordLocked {
            name,
            tries: MAX_FAILED_TRIES,
        };
        self.notice(&g.rec, &to, event);
        Ok(())
    }

    /// One more wrong token from `from`; at the limit the address and the game master of
    /// the game it was for are told, once an hour.
    fn count_token_failure(&mut self, rec: &GameRecord, from: &str) -> Result<(), StoreError> {
        let key = token_failures_key(from);
        if !self.count_failure(&key, MAX_FAILED_TOKEN_TRIES)? {
            return Ok(());
        }
        let gm = lower(&rec.gm);
        let mut to = vec![from.to_string()];
        if gm != from {
            to.push(gm);
        }
        let name = rec
            .seat_of(from)
            .map(|s| rec.seats[s].name.clone())
            .unwrap_or_default();
        let event = crate::mails::Event::TokenLocked {
            name,
            tries: MAX_FAILED_TOKEN_TRIES,
        };
        self.notice(rec, &to, event);
        Ok(())
    }

    /// Before a mail over its address's unauthenticated allowance is judged:
    /// does it carry a right token or password of a seat (or the game master) registered
    /// to its From? The credential is the one its first command would be judged with (the
    /// headers' tokens, the GAME and PASSWORD lines before it), checked in the game's
    /// header: tokens and keyed hashes cost microseconds, an Argon2id hash of an earlier
    /// format counts against the mail's one. The try counts like any other (one wrong try
    /// per mail, the failure counters and their notices), and its verdict stands for the
    /// judging that follows. Nothing is answered here.
    pub(crate) fn prove_seat(&mut self, mail: &Inbound, from: &str) -> Result<bool, StoreError> {
        let (tag, token, _) = crate::intake::reading::subject_tag(&mail.subject);
        let mut ctx = Ctx {
            tokens: crate::intake::reading::header_tokens(mail, token, &self.j.config.address),
            ..Default::default()
        };
        let mut game = tag;
        for line in mail.body.lines().take(self.j.config.max_lines) {
            let line = line.trim();
            if line.is_empty() || line.starts_with('#') {
                continue;
            }
            match crate::cmd::parse(line, &self.j.config) {
                Some(Ok(Command::Game(id, pw))) => {
                    game = Some(id);
                    ctx.password = pw;
                }
                Some(Ok(Command::Password(pw))) => ctx.password = Some(pw),
                _ => break,
            }
        }
        let id = match game {
            Some(id) => id,
            None if !ctx.tokens.is_empty() => match self.game_of_token(&ctx.tokens, from)? {
                Some(id) => id,
                None => return Ok(false),
            },
            None => return Ok(false),
        };
        let Some(header) = self.store.game_header(&lower(&id))? else {
            return Ok(false);
        };
        if header.seat_of(from).is_none() && lower(&header.gm) != from {
            return Ok(false);
        }
        let mut seen = Loaded {
            rec: header,
            session: None,
            stored_len: 0,
            dirty: false,
            keep: false,
            force_private: false,
            forced: false,
            ask_writer: false,
        };
        if self.auth(&mut seen, &ctx, from)?.is_err() {
            return Ok(false);
        }
        // Proven: the game itself is loaded, with what the check changed in its seats (a
        // hash rekeyed, civil disorder ended), for the judging that follows.
        self.with_game(&seen.rec.id.clone(), |_, g| {
            if seen.keep {
                for (s, was) in g.rec.seats.iter_mut().zip(&seen.rec.seats) {
                    s.password_hash = was.password_hash.clone();
                    s.disorder = was.disorder;
                    s.misses = was.misses;
                }
                g.rec.gm_password_hash = seen.rec.gm_password_hash.clone();
                g.keep = true;
            }
        })?;
        Ok(true)
    }

    /// The game in context, authenticated: `work` on it with who wrote, and the game
    /// handed back. `None`: no game in context, or the writer refused (a section says why).
    pub(crate) fn authed<R>(
        &mut self,
        ctx: &Ctx,
        from: &str,
        what: &str,
        work: impl FnOnce(&mut Self, &mut Loaded, Who) -> R,
    ) -> Result<Option<R>, StoreError> {
        let Some(id) = ctx.game.clone() else {
            let lang = self.writer_lang(from);
            let answer = AuthAnswer::WhichGame {
                command: what.to_string(),
            };
            self.answer(lang, "auth", &answer);
            return Ok(None);
        };
        if ctx.bad {
            return Ok(None);
        }
        let done = self.with_game(&id, |run, g| -> Result<Option<R>, StoreError> {
            match run.auth(g, ctx, from)? {
                Ok(w) => {
                    if let Some(t) = run.touched.iter_mut().find(|(t, _)| *t == id) {
                        t.1 = w.seat;
                    }
                    Ok(Some(work(run, g, w)))
                }
                Err(e) => {
                    let lang = run.addr_lang(&g.rec, from);
                    let answer = AuthAnswer::Refused {
                        command: what.to_string(),
                        error: e,
                    };
                    run.answer(lang, "auth", &answer);
                    Ok(None)
                }
            }
        })?;
        Ok(done.transpose()?.flatten())
    }
}

/// What a password did against the seats it may open.
enum Passwords {
    Right,
    /// The mail has no Argon2id computation left to check it.
    NoTryLeft,
    /// Wrong for each of `tried`; `locked`: some target had no tries left.
    Wrong {
        tried: Vec<Option<usize>>,
        locked: bool,
    },
}
