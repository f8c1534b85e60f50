//! The hostile population: strangers, forgers, guessers, senders spelled like
//! the judge's own marks, flooders, and the bystanders they aim at, mailing the judge
//! beside the players of a simulated game; and the promises that must hold against them,
//! checked after every mail and tick like the players' own (docs/promises.md).
//!
//! Who does what:
//! * a **stranger** (an address no one knows) mails CREATE lines naming bystanders, the
//!   game's own players and addresses that said STOP (once more with join passwords of
//!   its choosing), a Risk tournament of a dozen strangers, HISTORY of the game and RECORD
//!   of a player;
//! * a **forger** writes from a seated player's address without the seat's token
//!   (RESIGN, the seat's own orders, a wrong password);
//! * a **guesser** writes from a seated player's address a burst of mails, each with two
//!   made-up tokens in its subject;
//! * a **key speller** writes from addresses spelled like the judge's marks
//!   (`stop/<observer>`, `asked/<the next newcomer>`, `failed-tries/<game>/seat-0`);
//! * a **flooder** sends a hundred mails in an hour from its own address;
//! * two **bystanders**, there whenever a stranger is: one wrote HELP once, one wrote HELP
//!   and then STOP. Neither ever joins a game.
//!
//! Everything comes from its own generator (the game's seed and index), so the players'
//! behaviour in a game is the same with or without its hostile population.

use super::people::HOUR;
use castellan_judge::{GameRecord, Outbound};
use rand::Rng;
use rand_chacha::ChaCha8Rng;
use serde::Serialize;
use std::collections::{BTreeMap, BTreeSet};

/// The promises made against hostile mail: name and what a player (or a bystander) is
/// promised.
pub const HOSTILE_PROMISES: [(&str, &str); 8] = [
    (
        "work_bounded",
        "Each mail costs the judge at most one slow (Argon2id) password hash, and a hostile mail's answer stays within the reply budget the mail buys.",
    ),
    (
        "no_seat_without_credential",
        "A mail without your seat's token or password changes nothing in your game, whoever it claims to be from.",
    ),
    (
        "only_confirmed_games",
        "You get mail about a game only once you have written about it: before that, one mail at most (the question).",
    ),
    (
        "stop_holds",
        "After your STOP nothing more comes to you, whoever names you, until you write again (the games you play in apart).",
    ),
    (
        "stranger_bounded",
        "One mail from a stranger makes the judge write to at most 8 other addresses.",
    ),
    (
        "flood_bounded",
        "However many mails come in one address's name, it gets at most its hourly allowance of answers (and one warning) for each kind: with and without a credential.",
    ),
    (
        "addresses_private",
        "No answer to a stranger carries the address of anyone it did not name itself.",
    ),
    (
        "marks_unspellable",
        "A sender spelled like the judge's own marks (stop/..., asked/...) changes nothing for the address it spells: an observer keeps getting the reports, a newcomer gets their welcome.",
    ),
];

/// The kinds of hostile sender.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Kind {
    Stranger,
    Forger,
    Guesser,
    KeySpeller,
    Flooder,
}

/// One hostile sender of a game's world.
pub struct Hostile {
    pub kind: Kind,
    /// Its own address (a forger's and a guesser's mail claim a player's instead).
    pub address: String,
    /// When it writes next.
    pub next: i64,
    /// Mails it still sends.
    pub left: u32,
    /// Mails sent so far.
    pub sent: u32,
}

/// The two bystanders of a game with a stranger.
pub struct Bystanders {
    /// Wrote HELP once, never plays.
    pub helped: String,
    /// Wrote HELP, then STOP.
    pub stopped: String,
}

/// The hostile senders of game `index`: in about half the games, one to three kinds.
pub fn cast(index: usize, start: i64, rng: &mut ChaCha8Rng) -> (Vec<Hostile>, Option<Bystanders>) {
    let mut out = Vec::new();
    if rng.random_bool(0.5) {
        return (out, None);
    }
    let kinds = [
        Kind::Stranger,
        Kind::Forger,
        Kind::Guesser,
        Kind::KeySpeller,
        Kind::Flooder,
    ];
    let n = rng.random_range(1..=3);
    let mut chosen: Vec<Kind> = Vec::new();
    while chosen.len() < n {
        let k = kinds[rng.random_range(0..kinds.len())];
        if !chosen.contains(&k) {
            chosen.push(k);
        }
    }
    chosen.sort();
    for kind in chosen {
        let (address, left) = match kind {
            Kind::Stranger => (format!("stranger.{index}@evil.example"), 5),
            Kind::Forger => (format!("forger.{index}@evil.example"), 6),
            Kind::Guesser => (format!("guesser.{index}@evil.example"), 80),
            Kind::KeySpeller => (format!("speller.{index}@evil.example"), 3),
            Kind::Flooder => (format!("flood.{index}@evil.example"), 100),
        };
        let next = start + rng.random_range(2 * HOUR..48 * HOUR);
        out.push(Hostile {
            kind,
            address,
            next,
            left,
            sent: 0,
        });
    }
    let bystanders = out
        .iter()
        .any(|h| h.kind == Kind::Stranger)
        .then(|| Bystanders {
            helped: format!("helped.{index}@bystanders.example"),
            stopped: format!("stopped.{index}@bystanders.example"),
        });
    (out, bystanders)
}

/// When a hostile sender writes again after a mail: guessers and flooders in bursts (a
/// mail a minute), the others a day or so apart.
pub fn next_after(kind: Kind, now: i64, rng: &mut ChaCha8Rng) -> i64 {
    match kind {
        Kind::Guesser | Kind::Flooder => now + 30,
        _ => now + rng.random_range(12 * HOUR..60 * HOUR),
    }
}

/// A token the judge might have made (six letters of its alphabet).
pub fn made_up_token(rng: &mut ChaCha8Rng) -> String {
    const ALPHABET: &[u8] = b"abcdefghjkmnpqrstuvwxyz23456789";
    (0..6)
        .map(|_| ALPHABET[rng.random_range(0..ALPHABET.len())] as char)
        .collect()
}

/// A raw mail from `from` (any spelling), with `subject` and `body`.
pub fn raw(from: &str, subject: &str, message_id: &str, body: &str) -> Vec<u8> {
    format!(
        "From: <{from}>\r\nTo: judge@example.org\r\nSubject: {subject}\r\nMessage-ID: {message_id}\r\nDate: Mon, 12 Jan 2026 10:00:00 +0000\r\nMIME-Version: 1.0\r\nContent-Type: text/plain; charset=utf-8\r\n\r\n{}\r\n",
        body.replace('\n', "\r\n")
    )
    .into_bytes()
}

/// A stranger's CREATE mail: `lines` lines of three players each, named after spam, the
/// first naming `extra` (bystanders, players) too; with `join_password`, each line opens
/// a fourth seat behind a join password the stranger chose. Returns the text and the addresses it
/// names.
pub fn creates(
    kind: &str,
    lines: usize,
    index: usize,
    n: u32,
    extra: &[String],
    join_password: bool,
) -> (String, Vec<String>) {
    let mut named: Vec<String> = extra.to_vec();
    let mut text = String::new();
    for l in 0..lines {
        let mut line = format!("CREATE {kind}");
        if join_password {
            // An open seat with a join password of the writer's choosing: a slow hash.
            line.push_str(" seats=4 password=letmein");
        }
        let mut seats: Vec<String> = (0..3)
            .map(|p| format!("v{p}.{l}.{n}.{index}@victims.example"))
            .collect();
        if l == 0 {
            seats.extend(extra.iter().cloned());
        }
        for (p, a) in seats.iter().enumerate() {
            line.push_str(&format!(" player=P{p}_cheap-pills.example:{a}"));
        }
        named.extend(seats);
        text.push_str(&line);
        text.push('\n');
    }
    named.sort();
    named.dedup();
    (text, named)
}

/// A stranger's Risk tournament of `n` strangers and `extra`.
pub fn tournament(index: usize, round: u32, n: usize, extra: &[String]) -> (String, Vec<String>) {
    let mut named: Vec<String> = (0..n)
        .map(|p| format!("t{p}.{round}.{index}@victims.example"))
        .collect();
    named.extend(extra.iter().cloned());
    let players: Vec<String> = named
        .iter()
        .enumerate()
        .map(|(p, a)| format!("T{p}:{a}"))
        .collect();
    (
        format!(
            "CAMPAIGN NEW Cup tournament=risk players={}",
            players.join(",")
        ),
        named,
    )
}

/// The game's facts a mail without a credential must leave as they are.
pub fn fingerprint(rec: Option<&GameRecord>, history: usize) -> String {
    let Some(r) = rec else {
        return String::new();
    };
    let seats: Vec<String> = r
        .seats
        .iter()
        .map(|s| {
            format!(
                "{}|{:?}|{}|{}|{}|{}|{}|{}|{}|{:?}",
                s.name,
                s.address,
                s.resigned,
                s.bot,
                s.disorder,
                s.misses,
                s.unconfirmed,
                s.token,
                s.password_hash,
                s.language
            )
        })
        .collect();
    format!(
        "{:?} {:?} {:?} {} {} {:?} history {history} seats {}",
        r.status,
        r.deadline,
        r.observers,
        r.gm,
        r.gm_password_hash,
        r.language,
        seats.join(" ; ")
    )
}

/// Who wrote the mail of an event, as the hostile checks see it.
pub struct Writing {
    pub address: String,
    pub message_id: String,
    /// The game (or campaign) the mail is about, as its writer means it: the writer has
    /// confirmed it by writing.
    pub about: Option<String>,
    pub stop: bool,
    /// A hostile sender's kind (its mail must change nothing in the game).
    pub hostile: Option<Kind>,
    /// The addresses the mail names itself (a stranger's CREATE).
    pub named: Vec<String>,
}

/// What the hostile checks remember between events.
#[derive(Default)]
pub struct Ledger {
    /// Addresses that wrote to the judge, with the games they wrote about.
    confirmed: BTreeMap<String, BTreeSet<String>>,
    /// Addresses whose last mail was STOP.
    stopped: BTreeSet<String>,
    /// Mails about a game (or campaign) to an address that has not written about it.
    unconfirmed: BTreeMap<(String, String), u32>,
    /// Mails to addresses that never wrote.
    never_wrote: BTreeMap<String, u32>,
    /// Message-IDs of the mails each address sent, kind (credential or not) aside.
    sent: BTreeMap<String, BTreeSet<String>>,
    /// When each address got an answer to one of its mails.
    answers: BTreeMap<String, Vec<i64>>,
    /// Hostile senders' own addresses: they asked for whatever they get (the flood
    /// bound aside).
    own: BTreeSet<String>,
    /// Reported already (one violation a promise and address, not one a mail).
    reported: BTreeSet<(&'static str, String)>,
}

/// The game (or campaign) tag of a subject: `[castle-1 #tok] ...` gives `castle-1`.
pub fn tag(subject: &str) -> Option<String> {
    let open = subject.find('[')?;
    let rest = &subject[open + 1..];
    let end = rest.find([' ', ']'])?;
    let id = &rest[..end];
    (!id.is_empty()).then(|| id.to_lowercase())
}

impl Ledger {
    /// A mail comes from `w` (before its answers are checked).
    pub fn wrote(&mut self, w: &Writing) {
        let games = self.confirmed.entry(w.address.clone()).or_default();
        if let Some(g) = &w.about {
            games.insert(g.clone());
        }
        if matches!(w.hostile, Some(Kind::Stranger | Kind::Flooder)) {
            self.own.insert(w.address.clone());
        }
        if w.stop {
            self.stopped.insert(w.address.clone());
        } else {
            self.stopped.remove(&w.address);
        }
        self.sent
            .entry(w.address.clone())
            .or_default()
            .insert(w.message_id.clone());
    }

    fn report(&mut self, promise: &'static str, key: &str) -> bool {
        self.reported.insert((promise, key.to_string()))
    }

    /// The hostile promises after one event (`writing`: None for a tick); `people`: the
    /// addresses of the game's players, game master and observer, and the bystanders.
    #[allow(clippy::too_many_arguments)]
    pub fn check(
        &mut self,
        writing: Option<&Writing>,
        before: &str,
        after: &str,
        mails: &[Outbound],
        now: i64,
        people: &[String],
        rate_limit: u32,
    ) -> Vec<(&'static str, String)> {
        let mut out = Vec::new();
        if let Some(w) = writing {
            no_seat_without_credential(w, before, after, &mut out);
            if w.hostile == Some(Kind::Stranger) {
                stranger_bounded(w, mails, &mut out);
                addresses_private(w, mails, people, &mut out);
            }
        }
        for m in mails {
            let to = m.to.to_lowercase();
            self.flood_bounded(m, &to, now, rate_limit, &mut out);
            self.stop_holds_and_only_confirmed_games(m, &to, writing, &mut out);
        }
        out
    }

    /// flood_bounded: the answers to `to`'s own mails within the hour stay within its two
    /// hourly allowances (with and without a credential) and their warnings.
    fn flood_bounded(
        &mut self,
        m: &Outbound,
        to: &str,
        now: i64,
        rate_limit: u32,
        out: &mut Vec<(&'static str, String)>,
    ) {
        let answer = m
            .in_reply_to
            .as_ref()
            .is_some_and(|id| self.sent.get(to).is_some_and(|s| s.contains(id)));
        if !answer {
            return;
        }
        let times = self.answers.entry(to.to_string()).or_default();
        times.push(now);
        times.retain(|t| *t > now - HOUR);
        // Two allowances an hour: mails with a credential and mails without.
        let bound = 2 * (rate_limit as usize + 1);
        let got = times.len();
        if got > bound && self.report("flood_bounded", to) {
            out.push((
                "flood_bounded",
                format!("{to} got {got} answers within an hour (at most {bound})"),
            ));
        }
    }

    /// stop_holds, only_confirmed_games: a mail to `to` that it did not ask for (not to a
    /// hostile sender's own address, not the answer to the mail of this event) goes
    /// neither to an address whose last word was STOP, unless about a game it wrote about,
    /// nor more than once about a game it never wrote about, or to an address that never
    /// wrote.
    fn stop_holds_and_only_confirmed_games(
        &mut self,
        m: &Outbound,
        to: &str,
        writing: Option<&Writing>,
        out: &mut Vec<(&'static str, String)>,
    ) {
        if self.own.contains(to) {
            return;
        }
        // The answer to the mail of this event always goes to its writer.
        if writing
            .is_some_and(|w| w.address == to && m.in_reply_to.as_deref() == Some(&w.message_id))
        {
            return;
        }
        let game = tag(&m.subject);
        let confirmed = self.confirmed.get(to);
        let knows = |g: &str| confirmed.is_some_and(|c| c.contains(g));
        if self.stopped.contains(to) && !game.as_deref().is_some_and(knows) {
            if self.report("stop_holds", &format!("{to} {:?}", game)) {
                out.push((
                    "stop_holds",
                    format!("{to} sent STOP and got {:?}", m.subject),
                ));
            }
            return;
        }
        match (&game, confirmed) {
            (Some(g), _) if !knows(g) => {
                let n = self
                    .unconfirmed
                    .entry((to.to_string(), g.clone()))
                    .or_default();
                *n += 1;
                if *n > 1 && self.report("only_confirmed_games", &format!("{to} {g}")) {
                    out.push((
                        "only_confirmed_games",
                        format!(
                            "{to} never wrote about {g} and got a mail about it again: {:?}",
                            m.subject
                        ),
                    ));
                }
            }
            (None, None) => {
                let n = self.never_wrote.entry(to.to_string()).or_default();
                *n += 1;
                if *n > 1 && self.report("only_confirmed_games", to) {
                    out.push((
                        "only_confirmed_games",
                        format!("{to} never wrote and got a second mail: {:?}", m.subject),
                    ));
                }
            }
            _ => {}
        }
    }
}

/// no_seat_without_credential: a hostile sender's mail leaves the game as it was (its
/// fingerprint, `before` and `after`).
fn no_seat_without_credential(
    w: &Writing,
    before: &str,
    after: &str,
    out: &mut Vec<(&'static str, String)>,
) {
    if w.hostile.is_some() && before != after {
        out.push((
            "no_seat_without_credential",
            format!(
                "a {:?}'s mail from {} changed the game: {before} -> {after}",
                w.hostile.unwrap_or(Kind::Forger),
                w.address
            ),
        ));
    }
}

/// stranger_bounded: a stranger's one mail makes the judge write to at most 8 other
/// addresses.
fn stranger_bounded(w: &Writing, mails: &[Outbound], out: &mut Vec<(&'static str, String)>) {
    let others: BTreeSet<&str> = mails
        .iter()
        .map(|m| m.to.as_str())
        .filter(|to| *to != w.address)
        .collect();
    if others.len() > 8 {
        out.push((
            "stranger_bounded",
            format!(
                "one stranger mail made the judge write to {} other addresses",
                others.len()
            ),
        ));
    }
}

/// addresses_private: the answers to a stranger carry none of `people`'s addresses it did
/// not name itself.
fn addresses_private(
    w: &Writing,
    mails: &[Outbound],
    people: &[String],
    out: &mut Vec<(&'static str, String)>,
) {
    for m in mails.iter().filter(|m| m.to == w.address) {
        for p in people {
            if !w.named.contains(p) && m.body.to_lowercase().contains(p.as_str()) {
                out.push((
                    "addresses_private",
                    format!(
                        "the answer to the stranger carries {p}: {:?}",
                        first_lines(&m.body, p)
                    ),
                ));
            }
        }
    }
}

/// The lines of `body` around the first mention of `needle`.
fn first_lines(body: &str, needle: &str) -> String {
    body.lines()
        .find(|l| l.to_lowercase().contains(needle))
        .unwrap_or("")
        .chars()
        .take(160)
        .collect()
}

#[cfg(test)]
mod tests;
