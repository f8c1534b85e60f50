//! Outgoing mail: drafts, the reply to the mail being handled, its subject.

use crate::clock::format_long_in;
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
}

/// A prompt as the templates show it.
#[derive(Clone, Debug, serde::Serialize)]
pub(crate) struct PromptCtx {
    pub kind: String,
    pub question: String,
    pub choices: Vec<String>,
    pub default: String,
    pub standing: Option<String>,
}

impl From<&Prompt> for PromptCtx {
    fn from(p: &Prompt) -> PromptCtx {
        PromptCtx {
            kind: p.kind.as_str().to_string(),
            question: p.question.clone(),
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

    /// The answer to the mail being handled.
    pub(crate) fn reply(&mut self, to: &str, subject: &str) {
        let lang = self.writer_lang(to);
        let ctx = Reply {
            sections: self.sections.clone(),
            judge: self.j.config.address.clone(),
        };
        let body = self.render_in(lang, "reply.txt", &ctx);
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
                html: None,
            },
        );
    }

    pub(crate) fn reply_subject(&self, from: &str, original: &str) -> String {
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
    BotStandsIn {
        name: String,
        misses: u32,
    },
    Paused,
    Resumed,
    Extended {
        hours: u32,
    },
    Replaced {
        name: String,
        address: String,
    },
    Kicked {
        name: String,
    },
    /// `tries` failed password tries on a seat (`name`; empty: the game master's) this
    /// hour: its password is locked until the hour ends (issue 13).
    PasswordLocked {
        name: String,
        tries: u32,
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
        let mut value = serde_json::to_value(ctx).unwrap_or_default();
        if let Some(m) = value.as_object_mut() {
            m.insert("kind".into(), kind.into());
        }
        let body = self.render_in(lang, &format!("{kind}.txt"), &value);
        let subject = self.render_in(lang, "subject.txt", &value);
        let tag = match token {
            Some(t) => format!("[{game} #{t}]"),
            None => format!("[{game}]"),
        };
        self.mail(to, format!("{tag} {}", subject.trim()), body, Some(game));
    }

    /// A command's answer, worded by `LANG/answers/<family>.txt` from its typed `answer`
    /// (tagged by `kind`): the first line is the section's title, the rest its text.
    pub(crate) fn answer<A: serde::Serialize>(&mut self, lang: Lang, family: &str, answer: &A) {
        self.answered.push(answer_label(family, answer));
        let text = self.render_in(lang, &format!("answers/{family}.txt"), answer);
        let (title, body) = text.split_once('\n').unwrap_or((text.as_str(), ""));
        self.section(title.trim().to_string(), body.trim_end().to_string());
    }

    /// Tell `to` (each in their language) what happened in the game.
    pub(crate) fn notify(&mut self, rec: &GameRecord, to: &[String], event: Event) {
        for a in to {
            let lang = self.addr_lang(rec, a);
            let ctx = Notice {
                game_id: rec.id.clone(),
                event: event.clone(),
                deadline: rec.deadline.map(|d| format_long_in(d, lang)),
            };
            self.send(a, lang, "notice", &ctx, &rec.id, None);
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
