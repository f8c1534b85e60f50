//! Outgoing mail: drafts, the reply to the mail being handled, its subject.

use crate::intake::*;
use crate::run::*;
use castellan_engine::Prompt;
use serde_json::json;

/// A section of a reply: a title and its text.
#[derive(Clone, Debug, serde::Serialize)]
pub(crate) struct Section {
    pub(crate) title: String,
    pub(crate) text: String,
}

/// A mail before its Message-ID is made.
pub(crate) struct Draft {
    pub(crate) to: String,
    pub(crate) subject: String,
    pub(crate) body: String,
    pub(crate) in_reply_to: Option<String>,
    pub(crate) references: Vec<String>,
    pub(crate) headers: Vec<(String, String)>,
}

pub(crate) fn prompt_json(p: &Prompt) -> serde_json::Value {
    json!({"kind": p.kind, "question": p.question, "choices": p.choices,
           "default": p.default, "standing": p.standing})
}

pub(crate) fn quote(no: usize, line: &str) -> String {
    if no == 0 {
        format!("subject: \"{line}\"")
    } else {
        format!("line {no}: \"{line}\"")
    }
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
        let body = self.render(
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
