//! The reply to the mail being handled, its subject, and the mails a handling queues
//! (`send`, `answer`, `notify`): rendered from templates into [`Draft`]s.

use crate::clock::format_long_zoned;
use crate::intake::reading::subject_tag;
use crate::mails::*;
use crate::model::GameRecord;
use crate::run::*;
use castellan_engine::Lang;

impl Run<'_> {
    pub(crate) fn mail(&mut self, to: &str, subject: String, body: String, game: Option<&str>) {
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
            html: None,
            game: game.map(str::to_string),
            lang: None,
            for_reader: false,
            svg: None,
            confirm: false,
            attachments: Vec::new(),
        });
    }

    /// Mark the last mail as carrying a seat's (or the game master's) token, for programs.
    pub(crate) fn token_headers(&mut self, game: &str, token: &str) {
        if let Some(d) = self.mails.last_mut() {
            d.headers = vec![
                ("X-Castellan-Game".into(), game.into()),
                ("X-Castellan-Token".into(), token.into()),
            ];
        }
    }

    /// The answer to the mail being handled. The game mail this handling made for the
    /// writer (their turn's report, with what only they may read) goes inside it: the mail
    /// goes to the writer's address alone, as the one it replaces did.
    pub(crate) fn reply(&mut self, to: &str, subject: &str) {
        let lang = self.writer_lang(to);
        let mut taken = Vec::new();
        let mut i = 0;
        while i < self.mails.len() {
            if self.mails[i].for_reader && lower(&self.mails[i].to) == lower(to) {
                taken.push(self.mails.remove(i));
            } else {
                i += 1;
            }
        }
        let mut ctx = Reply {
            sections: self.sections.clone(),
            then: taken.iter().map(|d| d.body.clone()).collect(),
            judge: self.j.config.address.clone(),
        };
        once_each(&mut ctx.sections, &ctx.then);
        let mut body = self.render_in(lang, "reply.txt", &ctx);
        if !ctx.then.iter().all(|t| body.contains(t.trim())) {
            // An operator's reply.txt that does not show `then`: the reports go as mails
            // of their own rather than be lost.
            ctx.then.clear();
            ctx.sections = self.sections.clone();
            body = self.render_in(lang, "reply.txt", &ctx);
            self.mails.append(&mut taken);
        }
        // A reply that carries a report says what the report says (its turn, whose move
        // it is): the subject of the mail it answers would tell an older turn. The thread
        // holds by In-Reply-To and References.
        let subject = taken
            .first()
            .map_or(subject, |d| d.subject.as_str())
            .to_string();
        let subject = subject.as_str();
        let mut svg = None;
        let mut game = None;
        let mut headers = Vec::new();
        // The reports this reply carries go to the writer anyway: they are outside the
        // reply's budget (their text, and again in the HTML part).
        let carried: usize = taken.iter().map(|d| d.body.len()).sum();
        for d in taken {
            svg = svg.or(d.svg);
            game = game.or(d.game);
            headers.extend(d.headers);
        }
        let (irt, refs) = self.thread.clone().unwrap_or_default();
        // HISTORY ... PICTURE: the board of a past turn in the reply's HTML part; else the
        // picture of the report it carries.
        // HISTORY ... PICTURE was admitted by the reply's budget (limits.rs); this is the
        // last word on it: text and HTML together within the budget, or no picture.
        let budget = self.bounds.budget;
        let asked = self.reply_picture.take().map(|svg| {
            let html = crate::html::page(subject, &body, &svg, lang);
            let total = subject.len() + body.len() + html.len();
            (total <= budget.saturating_add(carried.saturating_mul(2))).then_some(html)
        });
        let html = match asked {
            Some(html) => html,
            None => svg.map(|svg| crate::html::page(subject, &body, &svg, lang)),
        }
        .filter(|h| h.len() <= crate::html::HTML_LIMIT);
        // The answer goes out before the reports it caused.
        self.mails.insert(
            0,
            Draft {
                to: to.into(),
                subject: subject.into(),
                body,
                in_reply_to: if irt.is_empty() { None } else { Some(irt) },
                references: refs,
                headers,
                html,
                game,
                lang: Some(lang),
                for_reader: false,
                svg: None,
                confirm: false,
                attachments: std::mem::take(&mut self.reply_attachments),
            },
        );
    }

    /// The reply's subject: the mail's own ("Re: ..."), led by the tag of the one game the
    /// mail was about, with the writer's token when they have one in it (their seat's, or
    /// the game master's): the reply goes to the writer's address alone, like every mail
    /// of the game to it, and answering it must work. A tag the mail already
    /// had is kept; one without a token is given the writer's.
    pub(crate) fn reply_subject(&self, from: &str, original: &str) -> String {
        let (tag, token, rest) = subject_tag(original);
        let game = match (&tag, self.touched.as_slice()) {
            (Some(id), _) => self.games.get(id),
            (None, [(id, _)]) => self.games.get(id),
            _ => None,
        };
        let mine = game.and_then(|g| g.rec.token_of(from).map(|t| (g.rec.id.as_str(), t)));
        match (tag, token, mine) {
            // Someone else's token (a guess, a forger's) is not the reader's: the answer
            // carries the reader's own, so a reply to it works.
            (Some(_), Some(given), Some((id, t))) if given != t => {
                format!("Re: [{id} #{t}] {rest}")
            }
            (Some(_), Some(_), _) | (Some(_), None, None) => original.to_string(),
            (Some(id), None, Some((_, t))) => with_token(original, &id, t),
            (None, _, Some((id, t))) => format!("[{id} #{t}] {original}"),
            (None, _, None) => match self.touched.as_slice() {
                [(id, _)] => format!("[{id}] {original}"),
                _ => original.to_string(),
            },
        }
    }
}

impl Run<'_> {
    /// The subject of an answer given without reading the mail (its sender over the rate
    /// limit): the reader's own token in the game's tag, never the tokens the mail
    /// carried (a guess, a forger's); the game's header is read for it.
    pub(crate) fn unread_subject(&self, from: &str, original: &str) -> String {
        let (tag, token, rest) = subject_tag(original);
        let Some(id) = tag else {
            return original.to_string();
        };
        let own = self
            .store
            .game_header(&id)
            .ok()
            .flatten()
            .and_then(|rec| rec.token_of(from).map(str::to_string));
        match (own, token) {
            (Some(t), _) => format!("Re: [{id} #{t}] {rest}"),
            (None, Some(_)) => format!("Re: [{id}] {rest}"),
            (None, None) => original.to_string(),
        }
    }
}

/// Each event once: a line of an answer (the events an order mail caused) that a report
/// the reply carries tells again is left to the report.
fn once_each(sections: &mut [crate::mails::Section], reports: &[String]) {
    if reports.is_empty() {
        return;
    }
    let told: std::collections::HashSet<&str> = reports
        .iter()
        .flat_map(|r| r.lines().map(str::trim))
        .filter(|l| !l.is_empty())
        .collect();
    for s in sections.iter_mut().filter(|s| s.events) {
        if s.text.lines().any(|l| told.contains(l.trim())) {
            s.text = s
                .text
                .lines()
                .filter(|l| l.trim().is_empty() || !told.contains(l.trim()))
                .collect::<Vec<_>>()
                .join("\n");
        }
    }
}

/// `subject` with the token `t` put into its tag `[id ...]` (the first one naming `id`).
fn with_token(subject: &str, id: &str, t: &str) -> String {
    let mut from = 0;
    while let Some(open) = subject[from..].find('[').map(|i| i + from) {
        let Some(close) = subject[open..].find(']').map(|i| i + open) else {
            break;
        };
        if subject[open + 1..close]
            .split_whitespace()
            .any(|w| w.eq_ignore_ascii_case(id))
        {
            return format!("{} #{t}{}", &subject[..close], &subject[close..]);
        }
        from = close;
    }
    subject.to_string()
}

impl Run<'_> {
    /// Render a mail of `kind` (its body from `<lang>/<kind>.txt`, its subject from
    /// `<lang>/subject.txt`) and queue it; `[game #token]` leads the subject.
    pub(crate) fn send<C: serde::Serialize>(
        &mut self,
        to: &str,
        lang: Lang,
        kind: &str,
        ctx: &C,
        game: &str,
        token: Option<&str>,
    ) {
        // Converted once for both templates (a template's Value is shared, not copied).
        let value = minijinja::context! { kind => kind, ..minijinja::Value::from_serialize(ctx) };
        let body = self.render_in(lang, &format!("{kind}.txt"), &value);
        let subject = self.render_in(lang, "subject.txt", &value);
        let tag = match token {
            Some(t) => format!("[{game} #{t}]"),
            None => format!("[{game}]"),
        };
        self.mail(to, format!("{tag} {}", subject.trim()), body, Some(game));
        if let Some(d) = self.mails.last_mut() {
            d.lang = Some(lang);
        }
    }

    /// A command's answer, worded by `LANG/answers/<family>.txt` from its typed `answer`
    /// (tagged by `kind`): the first line is the section's title, the rest its text.
    pub(crate) fn answer<A: serde::Serialize>(&mut self, lang: Lang, family: &str, answer: &A) {
        self.answered.push(answer_label(family, answer));
        let text = self.render_in(lang, &format!("answers/{family}.txt"), answer);
        let (title, body) = text.split_once('\n').unwrap_or((text.as_str(), ""));
        let before = self.sections.len();
        self.section(title.trim().to_string(), body.trim_end().to_string());
        if family == "orders" && self.sections.len() > before {
            if let Some(s) = self.sections.last_mut() {
                s.events = true;
            }
        }
    }

    /// Tell `to` (each in their language) what happened in the game; each mail carries
    /// its reader's own token ([`GameRecord::token_of`]), so a reply to it works.
    pub(crate) fn notify(&mut self, rec: &GameRecord, to: &[String], event: Event) {
        for a in to {
            let lang = self.addr_lang(rec, a);
            let ctx = Notice {
                game_id: rec.id.clone(),
                event: event.clone(),
                deadline: rec
                    .deadline
                    .map(|d| format_long_zoned(d, lang, rec.zone_of(a))),
            };
            self.send(a, lang, "notice", &ctx, &rec.id, rec.token_of(a));
        }
    }
}

/// `family/kind[/reason]` of an answer (`#[serde(tag = "kind")]`), the reason being the
/// variant of a nested `error` when there is one.
fn answer_label<A: serde::Serialize>(family: &str, answer: &A) -> String {
    let v = serde_json::to_value(answer).unwrap_or_default();
    let kind = v["kind"].as_str().unwrap_or("answer");
    let reason = match &v["error"] {
        serde_json::Value::String(s) => Some(s.clone()),
        serde_json::Value::Object(m) => m
            .get("kind")
            .and_then(|k| k.as_str().map(str::to_string))
            .or_else(|| (m.len() == 1).then(|| m.keys().next().cloned()).flatten()),
        _ => None,
    };
    match reason {
        Some(r) => format!("{family}/{kind}/{}", snake(&r)),
        None => format!("{family}/{kind}"),
    }
}

/// "WrongCredentials" -> "wrong_credentials" (already snake case stays as it is).
fn snake(s: &str) -> String {
    let mut out = String::new();
    for (i, c) in s.chars().enumerate() {
        if c.is_uppercase() {
            if i > 0 {
                out.push('_');
            }
            out.extend(c.to_lowercase());
        } else {
            out.push(c);
        }
    }
    out
}
