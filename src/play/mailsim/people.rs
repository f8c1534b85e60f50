//! The simulated people: when each answers (their timing), how their mail client writes
//! (their style), and the raw RFC 5322 message a mail client would send.

use castellan_judge::Outbound;
use rand::Rng;
use rand_chacha::ChaCha8Rng;
use serde::Serialize;

/// When a player answers the judge.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Timing {
    /// Answers every prompt within a few hours.
    Prompt,
    /// Answers near the deadline, and misses about one deadline in four.
    Late,
    /// Never writes at all (named at CREATE, never confirms).
    Absent,
    /// Plays, vanishes for a stretch of prompts (misses them all), then comes back.
    Vanishing,
}

/// How the player's mail client writes a reply.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Style {
    /// Only the new lines.
    Plain,
    /// The new lines, then "Thanks," and the player's name.
    SignOff,
    /// The new lines on top, the whole mail answered quoted below its attribution.
    TopPost,
    /// The attribution and the quoted mail first, the new lines below.
    BottomPost,
    /// No text part: an HTML mail with the answered mail in a blockquote.
    HtmlOnly,
}

/// What a game master does while the game waits.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum GmHabit {
    /// Lets the deadlines do their work.
    Passive,
    /// Sends PROCESS once a phase has waited a day.
    Processes,
    /// Gives the table more time (EXTEND 24) now and then.
    Extends,
    /// Pauses the game for a few hours now and then.
    Pauses,
    /// Gives a seat in civil disorder to a newcomer (REPLACE).
    Replaces,
    /// Hands a seat in civil disorder to a bot (KICK).
    Kicks,
}

/// One thing a person will send, and when.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Plan {
    pub at: i64,
    pub act: Act,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Act {
    /// A reply to the welcome that only says yes ("Hi, count me in!", "count me in", "I'm
    /// in.", "ok": by the person's address).
    Confirm,
    /// The seat's orders (what the game's bot would play), as a reply to the last mail.
    Orders,
    /// A line that is no order at all (a typo), alone: refused, nothing applied.
    Typo,
    /// Public press, signed off.
    Press,
    /// The game master's START, when named players have not confirmed after three days.
    Start,
    /// The game master's PROCESS.
    Process,
    /// The game master's EXTEND 24.
    Extend,
    /// The game master's PAUSE (a RESUME is planned after it).
    Pause,
    Resume,
    /// The game master's REPLACE of a seat in civil disorder by a newcomer.
    Replace,
    /// The game master's KICK of a seat in civil disorder: a bot plays it.
    Kick,
}

pub struct Person {
    pub name: String,
    pub address: String,
    pub timing: Timing,
    pub style: Style,
    /// Writes LANGUE fr in their first mail and signs off in French.
    pub french: bool,
    /// Sometimes sends a garbled line before the right orders.
    pub typos: bool,
    /// Sends press once in the game (signed off like any mail).
    pub chatty: bool,
    /// Has written to the judge at least once (the judge's opt-in: until then it mails
    /// the address only its welcome).
    pub written: bool,
    /// The last mail received about the game: what a mail client replies to.
    pub last: Option<Outbound>,
    pub plan: Option<Plan>,
    /// Prompts planned for so far (a vanishing player misses those in `vanish`).
    pub prompts: u32,
    pub vanish: (u32, u32),
    /// Deadline the last plan was made for (one plan a prompt).
    pub planned_for: Option<(Option<i64>, usize)>,
}

pub const HOUR: i64 = 3600;

impl Person {
    pub fn new(name: &str, address: &str, rng: &mut ChaCha8Rng) -> Person {
        let timing = match rng.random_range(0..10) {
            0..4 => Timing::Prompt,
            4..7 => Timing::Late,
            7 => Timing::Absent,
            _ => Timing::Vanishing,
        };
        let style = match rng.random_range(0..5) {
            0 => Style::Plain,
            1 => Style::SignOff,
            2 => Style::TopPost,
            3 => Style::BottomPost,
            _ => Style::HtmlOnly,
        };
        let a = rng.random_range(1..6);
        Person {
            name: name.into(),
            address: address.into(),
            timing,
            style,
            french: rng.random_bool(0.25),
            typos: rng.random_bool(0.2),
            chatty: rng.random_bool(0.2),
            written: false,
            last: None,
            plan: None,
            prompts: 0,
            vanish: (a, a + rng.random_range(2..5)),
            planned_for: None,
        }
    }

    /// When this person answers a prompt whose deadline (with its grace) is `due`; `None`
    /// when they let it pass.
    pub fn answer_time(&mut self, now: i64, due: i64, rng: &mut ChaCha8Rng) -> Option<i64> {
        self.prompts += 1;
        let soon = now + rng.random_range(600..4 * HOUR);
        match self.timing {
            Timing::Absent => None,
            Timing::Prompt => Some(soon),
            Timing::Vanishing if (self.vanish.0..self.vanish.1).contains(&self.prompts) => None,
            Timing::Vanishing => Some(soon),
            Timing::Late if rng.random_bool(0.25) => None,
            Timing::Late => Some((due - rng.random_range(HOUR..8 * HOUR)).max(now + 600)),
        }
    }

    /// The raw message this person's mail client sends with `new_text` as what they
    /// wrote, replying to the last mail they received (or starting a thread).
    pub fn compose(&self, message_id: &str, new_text: &str) -> Vec<u8> {
        let (subject, irt, quoted) = match &self.last {
            Some(m) => {
                let s = if m.subject.to_ascii_lowercase().starts_with("re:") {
                    m.subject.clone()
                } else {
                    format!("Re: {}", m.subject)
                };
                (s, Some(m.message_id.clone()), m.body.as_str())
            }
            None => ("Hello".to_string(), None, ""),
        };
        let attribution = if self.french {
            "Le lun. 12 janv. 2026 à 10:02, Castellan <judge@example.org> a écrit :"
        } else {
            "On Mon, 12 Jan 2026 at 10:02, Castellan <judge@example.org> wrote:"
        };
        let sign = if self.french { "Merci," } else { "Thanks," };
        let quote: String = quoted.lines().map(|l| format!("> {l}\n")).collect();
        let mut headers = format!(
            "From: {} <{}>\r\nTo: judge@example.org\r\nSubject: {subject}\r\nMessage-ID: {message_id}\r\nDate: Mon, 12 Jan 2026 10:00:00 +0000\r\nMIME-Version: 1.0\r\n",
            self.name, self.address
        );
        if let Some(irt) = irt {
            headers.push_str(&format!("In-Reply-To: {irt}\r\nReferences: {irt}\r\n"));
        }
        let body = match self.style {
            Style::Plain => new_text.to_string(),
            Style::SignOff => format!("{new_text}\n\n{sign}\n{}\n", self.name),
            Style::TopPost if quoted.is_empty() => new_text.to_string(),
            Style::TopPost => format!("{new_text}\n\n{attribution}\n{quote}"),
            Style::BottomPost if quoted.is_empty() => new_text.to_string(),
            Style::BottomPost => format!("{attribution}\n{quote}\n{new_text}\n\n{}\n", self.name),
            Style::HtmlOnly => {
                let mine: String = new_text
                    .lines()
                    .map(|l| format!("<div>{}</div>", html_escape(l)))
                    .collect();
                let old: String = quoted
                    .lines()
                    .map(|l| format!("{}<br>", html_escape(l)))
                    .collect();
                let html = format!(
                    "<html><body>{mine}<br><div class=\"gmail_quote\"><div class=\"gmail_attr\">{}</div><blockquote class=\"gmail_quote\">{old}</blockquote></div></body></html>",
                    html_escape(attribution)
                );
                return format!(
                    "{headers}Content-Type: text/html; charset=utf-8\r\nContent-Transfer-Encoding: 8bit\r\n\r\n{html}\r\n"
                )
                .into_bytes();
            }
        };
        format!(
            "{headers}Content-Type: text/plain; charset=utf-8\r\nContent-Transfer-Encoding: 8bit\r\n\r\n{}\r\n",
            body.replace('\n', "\r\n")
        )
        .into_bytes()
    }
}

fn html_escape(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
}
