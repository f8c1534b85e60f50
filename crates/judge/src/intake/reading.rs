//! Reading a mail's parts, pure: its subject (`Re:` prefixes, the `[game #token]` tag, the
//! reply's subject), its tokens and Message-ID, and whether a line is a greeting, prose or
//! a yes.

use super::*;

pub(crate) fn strip_re(subject: &str) -> &str {
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
pub(crate) fn subject_tag(subject: &str) -> (Option<String>, Option<String>, String) {
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

/// The tokens of a mail's headers: its subject tag's, then its plus-addresses'
/// (`judge+TOKEN@...`), at most [`crate::auth::TOKENS_PER_MAIL`] different ones.
pub(crate) fn header_tokens(mail: &Inbound, subject: Option<String>, judge: &str) -> Vec<String> {
    let local = lower(judge.split('@').next().unwrap_or(""));
    let plus = mail.to.iter().filter_map(|to| {
        let to = lower(to);
        let l = to.split('@').next().unwrap_or("");
        l.strip_prefix(&format!("{local}+"))
            .filter(|t| !t.is_empty())
            .map(str::to_string)
    });
    let mut out: Vec<String> = Vec::new();
    for t in subject.into_iter().chain(plus) {
        if out.len() >= crate::auth::TOKENS_PER_MAIL {
            break;
        }
        if !out.contains(&t) {
            out.push(t);
        }
    }
    out
}

/// A line that greets rather than orders ("Hi all,", "Bonjour !", "Dear GM"): its first
/// word is a greeting, or it ends with a comma. Read only when the line is no command
/// and no order of the game.
pub(crate) fn looks_like_greeting(line: &str) -> bool {
    const GREETINGS: [&str; 17] = [
        "hi",
        "hello",
        "hey",
        "hiya",
        "howdy",
        "dear",
        "greetings",
        "hallo",
        "yo",
        "bonjour",
        "bonsoir",
        "salut",
        "coucou",
        "cher",
        "chère",
        "chers",
        "chères",
    ];
    let line = line.trim();
    let first = line
        .split(|c: char| c.is_whitespace() || c == ',' || c == '!')
        .next()
        .unwrap_or("")
        .to_lowercase();
    line.ends_with(',') || GREETINGS.contains(&first.as_str())
}

/// A line a person writes to people, not orders: a greeting, a sign-off ("Thanks",
/// "Cheers"), a sentence (it ends with punctuation), or a name alone (one capitalised
/// word). Order words are never capitalised words alone nor end a line with "!" or ".".
pub(crate) fn looks_like_prose(line: &str) -> bool {
    const SIGN_OFFS: [&str; 10] = [
        "thanks",
        "thank",
        "cheers",
        "regards",
        "best",
        "merci",
        "cordialement",
        "amitiés",
        "bises",
        "ok",
    ];
    let line = line.trim();
    let first = line
        .split(|c: char| c.is_whitespace() || c == ',' || c == '!' || c == '.')
        .next()
        .unwrap_or("")
        .to_lowercase();
    let a_name = !line.contains(char::is_whitespace)
        && line.chars().next().is_some_and(char::is_uppercase)
        && line.chars().skip(1).all(|c| c.is_lowercase() || c == '-')
        && line.chars().count() <= 24;
    looks_like_greeting(line)
        || SIGN_OFFS.contains(&first.as_str())
        || line.ends_with(['!', '?', '.', ';', ':', ')'])
        || a_name
        || is_a_yes(line)
}

/// A line that says yes to a welcome: the welcome's own example ("count me in", "j'en
/// suis") and its usual variants. Never an order word of any game (a line the game reads
/// as an order is an order before it is a yes).
fn is_a_yes(line: &str) -> bool {
    const YES: [&str; 22] = [
        "count me in",
        "i'm in",
        "im in",
        "i am in",
        "in",
        "yes",
        "ok",
        "okay",
        "sure",
        "confirmed",
        "confirm",
        "ready",
        "let's play",
        "j'en suis",
        "jen suis",
        "oui",
        "je confirme",
        "confirmé",
        "d'accord",
        "partant",
        "partante",
        "ça marche",
    ];
    let l = line
        .trim()
        .trim_end_matches(['!', '.', ' '])
        .replace('’', "'")
        .to_lowercase();
    YES.contains(&l.as_str())
}

/// The mail's Message-ID, or a stable stand-in from its content (a resend is the same mail).
pub(crate) fn message_id(mail: &Inbound) -> String {
    if !mail.message_id.trim().is_empty() {
        return mail.message_id.trim().to_string();
    }
    let h = sha256(format!("{}\n{}\n{}", mail.from, mail.subject, mail.body).as_bytes());
    format!("<{}@no-message-id>", hex::encode(&h[..16]))
}

/// What marks a mail as handled: its Message-ID together with its sender and a digest of
/// its subject and body. The same mail delivered twice has the same key (handled once);
/// a stranger who sends a mail with the Message-ID a player's mail will carry does not
/// make the judge drop the player's mail as a duplicate. Replies' Message-IDs derive from
/// it too, so the player's and the stranger's replies never share one.
pub fn processed_key(mail: &Inbound) -> String {
    let digest = sha256(format!("{}\n{}", mail.subject, mail.body).as_bytes());
    format!(
        "{} {} {}",
        message_id(mail),
        mail.from.trim().to_lowercase(),
        hex::encode(&digest[..8])
    )
}

/// "Re: " + the mail's subject (once), or "Re: your mail" for an empty one.
pub(crate) fn reply_subject(subject: &str) -> String {
    if strip_re(subject).is_empty() {
        "Re: your mail".to_string()
    } else if subject.to_lowercase().starts_with("re:") {
        subject.trim().to_string()
    } else {
        format!("Re: {}", subject.trim())
    }
}

/// A line of the mail as an answer quotes it (`no` 0: the subject).
#[derive(Clone, Debug, serde::Serialize)]
pub(crate) struct Quoted {
    pub no: usize,
    pub line: String,
}

impl Quoted {
    /// The line as quoted back: without control characters, at most 200 characters.
    pub(crate) fn new(no: usize, line: &str) -> Quoted {
        Quoted {
            no,
            line: crate::limits::clip(&crate::limits::clean_text(line), 200),
        }
    }
}

/// What the judge answers about the mail itself (templates/LANG/answers/intake.txt).
#[derive(Clone, Debug, serde::Serialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub(crate) enum IntakeAnswer {
    /// A seat's mail with nothing to do (a hello, a confirmation): whether the game waits
    /// for them now (then their question follows, with the deadline) or for whom.
    Hello {
        game: String,
        name: String,
        asked: bool,
        waiting_for: Vec<String>,
        forming: bool,
    },
    TooManyMails {
        limit: u32,
    },
    /// The body was over `limit` bytes: its first `lines` lines were read.
    TooLong {
        limit: usize,
        lines: usize,
    },
    TooManyLines {
        max: usize,
    },
    /// More than `max` commands: the mail was read up to `line` (not included).
    TooManyCommands {
        max: usize,
        line: usize,
    },
    /// A PRESS longer than `max` lines: not sent.
    PressTooLong {
        max: usize,
    },
    /// The reply reached its size bound: `count` answers were left out (`titles`, the
    /// first ten).
    ReplyCut {
        limit: usize,
        count: usize,
        titles: Vec<String>,
    },
    /// A command line that does not parse: what is wrong and how to write it.
    Refused {
        quoted: Quoted,
        error: commands::CmdError,
    },
    NotUnderstood {
        lines: Vec<Quoted>,
        more: usize,
    },
    /// Lines neither commands nor orders, set aside unread: a greeting, a sign-off
    /// (`more`: how many past the first five).
    Unread {
        lines: Vec<Quoted>,
        more: usize,
    },
    NothingToDo,
    Attachments {
        names: Vec<String>,
    },
    HtmlOnly,
}
