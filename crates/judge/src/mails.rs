//! Outgoing mail: drafts, the reply to the mail being handled, its subject.

use crate::clock::format_long_zoned;
use crate::intake::*;
use crate::model::GameRecord;
use crate::run::*;
use castellan_engine::Lang;
use castellan_engine::{Prompt, Session};

/// A section of a reply: a title and its text.
#[derive(Clone, Debug, serde::Serialize)]
pub(crate) struct Section {
    pub(crate) title: String,
    pub(crate) text: String,
}

/// The answer to a mail (`templates/LANG/reply.txt`): its sections in order.
#[derive(Clone, Debug, serde::Serialize)]
pub(crate) struct Reply {
    pub sections: Vec<Section>,
    /// The turn mails this reply carries (its writer's own report of the game their mail
    /// moved): one mail, not two.
    pub then: Vec<String>,
    pub judge: String,
}

/// A mail before its Message-ID is made.
pub(crate) struct Draft {
    pub(crate) to: String,
    pub(crate) subject: String,
    pub(crate) body: String,
    pub(crate) in_reply_to: Option<String>,
    pub(crate) references: Vec<String>,
    pub(crate) headers: Vec<(String, String)>,
    /// The HTML part (html.rs), if the mail has one.
    pub(crate) html: Option<String>,
    /// The game it is about, if any (STOP keeps a game's mail to its players).
    pub(crate) game: Option<String>,
    /// The language it is written in, when known (the confirmation paragraph follows it).
    pub(crate) lang: Option<Lang>,
    /// A game's mail to one reader (report or private), which the reply to that reader
    /// takes in when the same handling makes both.
    pub(crate) for_reader: bool,
    /// The picture of its HTML part, kept to redraw the page when a reply takes it in.
    pub(crate) svg: Option<String>,
    /// A confirmation: the one mail an address named by someone else gets before it has
    /// confirmed its seat (optin.rs); no other mail of the game goes to it until then.
    pub(crate) confirm: bool,
}

/// A prompt as the templates show it.
#[derive(Clone, Debug, serde::Serialize)]
pub(crate) struct PromptCtx {
    pub kind: String,
    pub question: String,
    pub choices: Vec<String>,
    /// The choices as the mail lays them out: one a line, or several a line when each is
    /// short (Castello's "A5-A3"), so a long list of moves stays a few lines. At most
    /// [`CHOICE_ROWS`] rows in all: past that, the first rows, how many choices were left
    /// out (`more_choices`), and the last row (`last_rows`: often END).
    pub choice_rows: Vec<String>,
    pub more_choices: usize,
    pub last_rows: Vec<String>,
    pub default: String,
    pub standing: Option<String>,
}

/// The most rows of choices a mail shows: they are examples; the order help has the rest.
pub(crate) const CHOICE_ROWS: usize = 6;

impl From<&Prompt> for PromptCtx {
    fn from(p: &Prompt) -> PromptCtx {
        // One short word each (at most 12 characters, no space: Castello's moves): 8 to a
        // line; any other choice, one a line, so each line can be copied.
        let word = |c: &String| c.chars().count() <= 12 && !c.contains(char::is_whitespace);
        let per_row = if p.choices.iter().all(word) { 8 } else { 1 };
        let rows: Vec<&[String]> = p.choices.chunks(per_row).collect();
        let (shown, more, last) = if rows.len() > CHOICE_ROWS {
            let keep = CHOICE_ROWS - 2;
            let left_out = &rows[keep..rows.len() - 1];
            (
                &rows[..keep],
                left_out.iter().map(|r| r.len()).sum(),
                &rows[rows.len() - 1..],
            )
        } else {
            (&rows[..], 0, &rows[..0])
        };
        let join = |rs: &[&[String]]| rs.iter().map(|r| r.join("  ")).collect();
        PromptCtx {
            kind: p.kind.as_str().to_string(),
            question: p.question.clone(),
            choice_rows: join(shown),
            more_choices: more,
            last_rows: join(last),
            choices: p.choices.clone(),
            default: p.default.clone(),
            standing: p.standing.clone(),
        }
    }
}

/// What a seat is asked now, in `lang`.
pub(crate) fn prompts_of(session: &dyn Session, seat: usize, lang: Lang) -> Vec<PromptCtx> {
    session
        .pending(lang)
        .iter()
        .filter(|p| p.seat == seat)
        .map(PromptCtx::from)
        .collect()
}

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
        let mut body = self.render_in(lang, "reply.txt", &ctx);
        if !ctx.then.iter().all(|t| body.contains(t.trim())) {
            // An operator's reply.txt that does not show `then`: the reports go as mails
            // of their own rather than be lost.
            ctx.then.clear();
            body = self.render_in(lang, "reply.txt", &ctx);
            self.mails.append(&mut taken);
        }
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

/// `subject` with the token `t` put into its tag `[id ...]` (the first one naming `id`).
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

/// What a notice tells a game's readers (`templates/LANG/notice.txt`, by `event`).
#[derive(Clone, Debug, serde::Serialize)]
#[serde(tag = "event", rename_all = "snake_case")]
pub(crate) enum Event {
    Joined {
        name: String,
        address: String,
        open_left: usize,
    },
    Resigned {
        name: String,
    },
    /// A seat missed `misses` deadlines in a row: civil disorder.
    CivilDisorder {
        name: String,
        misses: u32,
    },
    Paused,
    Resumed,
    Extended {
        hours: u32,
    },
    /// DEADLINE n: the deadline is now n hours away.
    DeadlineSet {
        hours: u32,
    },
    Replaced {
        name: String,
    },
    Kicked {
        name: String,
    },
    /// `tries` failed password tries on a seat (`name`; empty: the game master's) this
    /// hour: its password is locked until the hour ends.
    PasswordLocked {
        name: String,
        tries: u32,
    },
    /// `tries` wrong tokens came from the address of the seat `name` (empty: the game
    /// master) this hour: its tokens are not checked until the hour ends.
    TokenLocked {
        name: String,
        tries: u32,
    },
    /// `tries` wrong join passwords were tried this hour: JOIN is not checked until the
    /// hour ends.
    JoinLocked {
        tries: u32,
    },
    /// The game cannot be loaded: it waits, its mail kept, until it can.
    Quarantined {
        why: String,
    },
}

/// A notice's context: the event, and the game's deadline in the reader's language.
#[derive(Clone, Debug, serde::Serialize)]
pub(crate) struct Notice {
    pub game_id: String,
    #[serde(flatten)]
    pub event: Event,
    pub deadline: Option<String>,
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
        self.section(title.trim().to_string(), body.trim_end().to_string());
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

#[cfg(test)]
mod tests {
    use super::*;
    fn prompt(choices: &[&str]) -> Prompt {
        Prompt {
            seat: 0,
            kind: castellan_engine::toy::Ask::Turn.into(),
            question: "Your turn".into(),
            choices: choices.iter().map(|c| c.to_string()).collect(),
            default: "END".into(),
            standing: None,
        }
    }

    /// No report over 120 lines: a long list of example lines shows its first
    /// rows, how many were left out, and its last (END); short one-word moves go eight a
    /// line; a short list is shown whole.
    #[test]
    fn choices_are_examples_a_few_lines_long() {
        let attacks: Vec<String> = (0..8).map(|i| format!("ATTACK T{i} FROM S")).collect();
        let mut all: Vec<&str> = attacks.iter().map(String::as_str).collect();
        all.push("END");
        let p = PromptCtx::from(&prompt(&all));
        assert_eq!(p.choice_rows.len(), CHOICE_ROWS - 2);
        assert_eq!(p.choice_rows[3], "ATTACK T3 FROM S");
        assert_eq!(p.more_choices, 4);
        assert_eq!(p.last_rows, vec!["END"]);
        let moves: Vec<String> = (0..20).map(|i| format!("A{i}-B{i}")).collect();
        let m: Vec<&str> = moves.iter().map(String::as_str).collect();
        let p = PromptCtx::from(&prompt(&m));
        assert_eq!(p.choice_rows.len(), 3);
        assert_eq!(p.choice_rows[0].split("  ").count(), 8);
        assert_eq!((p.more_choices, p.last_rows.len()), (0, 0));
        let p = PromptCtx::from(&prompt(&["ADD 1", "ADD 2"]));
        assert_eq!(p.choice_rows, vec!["ADD 1", "ADD 2"]);
    }
}
