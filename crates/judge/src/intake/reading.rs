//! Reading a mail's parts, pure: its subject (`Re:` prefixes, the `[game #token]` tag, the
//! reply's subject), its tokens and Message-ID, and whether a line is a greeting, prose or
//! a yes.

use crate::model::{looks_like_id, lower, Inbound};
use castellan_engine::dice::sha256;

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
                } else if looks_like_id(w) {
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

#[cfg(test)]
mod tests {
    use super::*;

    fn mail(to: &[&str]) -> Inbound {
        Inbound {
            from: "alice@example.org".into(),
            to: to.iter().map(|t| t.to_string()).collect(),
            subject: "Orders".into(),
            body: "ATTACK".into(),
            ..Default::default()
        }
    }

    #[test]
    fn every_reply_and_forward_prefix_is_stripped_in_any_case() {
        assert_eq!(
            strip_re("Re: RE: Fwd: TR: [castle-1] Turn 3"),
            "[castle-1] Turn 3"
        );
        assert_eq!(strip_re("  aw:wg: hello"), "hello");
        assert_eq!(strip_re("Reply to all"), "Reply to all");
    }

    #[test]
    fn the_tag_gives_the_game_and_token_lowercased_and_the_rest_of_the_subject() {
        let (id, token, rest) = subject_tag("Re: [Castle-7 #K3J9X] Turn 2: your move");
        assert_eq!(id.as_deref(), Some("castle-7"));
        assert_eq!(token.as_deref(), Some("k3j9x"));
        assert_eq!(rest, "Turn 2: your move");
        // A bracket that names no game is no tag: the subject stays whole.
        assert_eq!(
            subject_tag("[list] news"),
            (None, None, "[list] news".to_string())
        );
        assert_eq!(subject_tag("[castle-7] hi").1, None);
    }

    #[test]
    fn tokens_come_from_the_tag_then_plus_addresses_at_most_two_different() {
        let judge = "Judge@example.org";
        let m = mail(&[
            "judge+aaa@example.org",
            "JUDGE+bbb@example.org",
            "judge+ccc@x",
        ]);
        assert_eq!(header_tokens(&m, Some("tag".into()), judge), ["tag", "aaa"]);
        assert_eq!(header_tokens(&m, None, judge), ["aaa", "bbb"]);
        let same = mail(&[
            "judge+tag@example.org",
            "judge+@example.org",
            "other+x@example.org",
        ]);
        assert_eq!(header_tokens(&same, Some("tag".into()), judge), ["tag"]);
    }

    #[test]
    fn greetings_sign_offs_sentences_names_and_yeses_are_prose_orders_are_not() {
        for line in [
            "Hi all,",
            "Bonjour !",
            "Dear GM",
            "Thanks",
            "See you soon.",
            "Alice",
            "count me in!",
            "J’en suis",
            "Cordialement",
        ] {
            assert!(looks_like_prose(line), "{line}");
        }
        for line in [
            "ATTACK Rhine FROM Burgundy",
            "PLACE 3 Vienna",
            "END",
            "a5-a3",
            "Alice Smith",
        ] {
            assert!(!looks_like_prose(line), "{line}");
        }
        assert!(looks_like_greeting("Salut Bob") && !looks_like_greeting("Thanks"));
    }

    #[test]
    fn a_mail_without_message_id_is_named_by_its_content() {
        let a = mail(&[]);
        let mut b = mail(&[]);
        assert_eq!(message_id(&a), message_id(&b));
        b.body = "END".into();
        assert_ne!(message_id(&a), message_id(&b));
        b.message_id = " <x@y> ".into();
        assert_eq!(message_id(&b), "<x@y>");
    }

    #[test]
    fn the_same_message_id_from_another_sender_or_body_is_another_mail() {
        let mut a = mail(&[]);
        a.message_id = "<m@x>".into();
        let mut stranger = a.clone();
        stranger.from = "mallory@example.org".into();
        let mut edited = a.clone();
        edited.body = "RESIGN".into();
        assert_ne!(processed_key(&a), processed_key(&stranger));
        assert_ne!(processed_key(&a), processed_key(&edited));
        assert_eq!(processed_key(&a), processed_key(&a.clone()));
    }

    #[test]
    fn a_reply_subject_says_re_once() {
        assert_eq!(reply_subject("Orders"), "Re: Orders");
        assert_eq!(reply_subject("RE: Orders "), "RE: Orders");
        assert_eq!(reply_subject(" Re: "), "Re: your mail");
    }
}
