//! The promises a player relies on, each a named check made after every handled mail and
//! every tick (docs/promises.md says each in a player's words).

use super::people::{Act, Person, Timing};
use super::{seat_lang, session_of};
use castellan_engine::{PromptKind, Session};
use castellan_judge::{
    format_long_zoned, format_short_zoned, GameRecord, Judge, Outbound, Status, StoredGame,
};

/// Every promise: its name (as violations carry it) and what a player is promised.
pub const PROMISES: [(&str, &str); 16] = [
    ("create", "A game master's CREATE naming the players makes the game."),
    ("judge_answers", "Every mail is handled; the judge never fails on one."),
    ("asked", "When the game waits for you, you get a mail that asks you what to answer."),
    ("deadline_in_force", "The deadline the game waits on is never in the past (except while the game is paused)."),
    ("told_deadline", "The mail that asks you gives the deadline in force; a new deadline is mailed to you."),
    ("token_in_subject", "Every mail about your game carries your token in its subject, so a reply works."),
    ("answered", "Every mail you send about your game is answered."),
    ("orders_applied", "Orders sent as a reply to any mail the judge sent you, however your mail client quotes, are applied."),
    ("no_false_refusal", "A reply never says nothing was applied when something was."),
    ("greeting_not_an_error", "\"Hi, count me in!\", \"count me in\", \"ok\" are not errors."),
    ("typo_refused", "A line that is no order is refused, quoted back, and changes nothing."),
    ("private", "No mail to you carries another player's secrets or token."),
    ("process_not_a_miss", "The game master's PROCESS is never counted as your missed deadline."),
    ("absence_told", "When a player misses a deadline, every other player is told in the next mail."),
    ("end_told", "When the game ends, every player is told."),
    ("elimination_told", "When a player is put out, they and every other player are told in the next report they get."),
];

/// Further promises checked once a game: an absent player never wins, and the game replays.
pub const END_PROMISES: [(&str, &str); 2] = [
    (
        "absent_never_wins",
        "A player who never played does not win by their absence.",
    ),
    (
        "replays",
        "The game replays from its seed and log and every dice commitment verifies.",
    ),
];

/// Who sent a mail.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Sender {
    Seat(usize),
    GameMaster,
    Observer,
    /// A hostile sender (src/play/mailsim/hostile.rs), whatever address its mail claims.
    Hostile(super::hostile::Kind),
    /// A bystander's HELP or STOP.
    Bystander,
}

/// What just happened.
pub enum Event {
    Tick,
    Mail {
        sender: Sender,
        act: Act,
        message_id: String,
        /// The text the judge read (after the mail layer).
        body: String,
    },
}

impl Event {
    pub fn describe(&self, people: &[Person], gm: &str) -> String {
        match self {
            Event::Tick => "tick".into(),
            Event::Mail {
                sender, act, body, ..
            } => {
                let who = match sender {
                    Sender::Seat(i) => format!(
                        "{} ({:?}, {:?}{})",
                        people[*i].address,
                        people[*i].timing,
                        people[*i].style,
                        if people[*i].french { ", French" } else { "" }
                    ),
                    Sender::GameMaster => gm.to_string(),
                    Sender::Observer => "the observer".into(),
                    Sender::Hostile(kind) => format!("a hostile {kind:?}"),
                    Sender::Bystander => "a bystander".into(),
                };
                let first: String = body.lines().take(3).collect::<Vec<_>>().join(" / ");
                format!("mail from {who}: {act:?} (the judge read: {first:?})")
            }
        }
    }
}

/// The game before or after an event.
pub struct Snapshot {
    pub rec: Option<GameRecord>,
    pub session: Option<Box<dyn Session>>,
    pub now: i64,
}

type AskKey = (u32, Vec<PromptKind>);

impl Snapshot {
    pub fn new(rec: Option<GameRecord>, session: Option<Box<dyn Session>>, now: i64) -> Snapshot {
        Snapshot { rec, session, now }
    }

    fn status(&self) -> Option<Status> {
        self.rec.as_ref().map(|r| r.status)
    }

    fn history(&self) -> usize {
        self.session.as_ref().map_or(0, |s| s.history_len())
    }

    /// The game's history length (0 while it forms).
    pub fn history_len(&self) -> usize {
        self.history()
    }

    fn awaiting(&self) -> Vec<usize> {
        match (&self.session, self.status()) {
            (Some(s), Some(Status::Running)) => s.awaiting(),
            _ => Vec::new(),
        }
    }

    /// Awaited, or awaited when the game resumes: a pause does not make a seat's question
    /// new (they were asked before it).
    fn awaiting_or_paused(&self) -> Vec<usize> {
        match (&self.session, self.status()) {
            (Some(s), Some(Status::Running | Status::Paused)) => s.awaiting(),
            _ => Vec::new(),
        }
    }

    /// What a seat is awaited for: the dice turn and its prompts' kinds.
    fn key(&self, seat: usize) -> Option<AskKey> {
        let s = self.session.as_ref()?;
        let kinds: Vec<PromptKind> = s
            .pending(castellan_engine::Lang::En)
            .iter()
            .filter(|p| p.seat == seat)
            .map(|p| p.kind)
            .collect();
        (!kinds.is_empty()).then(|| (s.turn(), kinds))
    }

    fn misses(&self) -> Vec<(u32, bool)> {
        self.rec
            .as_ref()
            .map(|r| r.seats.iter().map(|s| (s.misses, s.bot)).collect())
            .unwrap_or_default()
    }
}

/// What the checks remember between events, per seat.
#[derive(Default)]
pub struct Watch {
    seats: Vec<SeatWatch>,
    /// (reader, seat put out) not told yet: the reader's next mail must say it.
    out_untold: Vec<(usize, usize)>,
}

#[derive(Default, Clone)]
struct SeatWatch {
    key: Option<AskKey>,
    asked: bool,
    /// The deadline last mailed to the seat.
    told: Option<i64>,
    /// Already reported for this key / deadline (one violation, not one an event).
    reported_ask: bool,
    reported_deadline: Option<i64>,
}

const REFUSALS: [&str; 6] = [
    "Nothing was applied",
    "Rien n'a été appliqué",
    "None of these orders was applied",
    "Aucun de ces ordres n'a été appliqué",
    "Nothing to do",
    "Rien à faire",
];

/// Every promise after one event; the broken ones with what was seen.
pub fn check(
    watch: &mut Watch,
    judge: &Judge,
    before: &Snapshot,
    after: &Snapshot,
    mails: &[Outbound],
    event: &Event,
    people: &[Person],
) -> Vec<(&'static str, String)> {
    let mut out = Vec::new();
    let Some(rec) = after.rec.as_ref() else {
        return out;
    };
    if watch.seats.len() < rec.seats.len() {
        watch.seats.resize(rec.seats.len(), SeatWatch::default());
    }
    let reachable = |s: usize| {
        rec.seats.get(s).is_some_and(|x| x.played_by_mail())
            && people.get(s).is_some_and(|p| p.written)
    };
    let to_seat = |s: usize| -> Vec<&Outbound> {
        let addr = rec.seats[s].address.as_deref().unwrap_or("");
        mails.iter().filter(|m| m.to == addr).collect()
    };
    let grace = i64::from(rec.deadlines.grace_hours) * 3600;
    let awaiting = after.awaiting();

    // deadline_in_force
    if !awaiting.is_empty() {
        match rec.deadline {
            None => out.push((
                "deadline_in_force",
                format!("seats {awaiting:?} are awaited and the game has no deadline"),
            )),
            Some(d) if d + grace <= after.now => out.push((
                "deadline_in_force",
                format!(
                    "seats {awaiting:?} are awaited on a deadline {} h in the past",
                    (after.now - d) / 3600
                ),
            )),
            _ => {}
        }
    }

    // asked, told_deadline
    let session = after.session.as_deref();
    for s in 0..rec.seats.len() {
        let w = &mut watch.seats[s];
        let key = if after.awaiting_or_paused().contains(&s) {
            after.key(s)
        } else {
            None
        };
        if key != w.key {
            w.key = key.clone();
            w.asked = false;
            w.reported_ask = false;
        }
        let Some(key) = key else { continue };
        if !awaiting.contains(&s) {
            continue;
        }
        let lang = seat_lang(rec, s, judge);
        let mine = to_seat(s);
        if let Some(session) = session {
            let questions: Vec<String> = session
                .pending(lang)
                .into_iter()
                .filter(|p| p.seat == s)
                .map(|p| p.question)
                .collect();
            if mine
                .iter()
                .any(|m| questions.iter().any(|q| m.body.contains(q.as_str())))
            {
                w.asked = true;
            }
        }
        if let Some(d) = rec.deadline {
            let zone = rec.seats[s].address.as_deref().and_then(|a| rec.zone_of(a));
            let long = format_long_zoned(d, lang, zone);
            let short = format_short_zoned(d, lang, zone);
            if mine
                .iter()
                .any(|m| m.body.contains(&long) || m.body.contains(&short))
            {
                w.told = Some(d);
            }
        }
        if !reachable(s) {
            continue;
        }
        if !w.asked && !w.reported_ask {
            w.reported_ask = true;
            out.push((
                "asked",
                format!(
                    "{} is awaited for {:?} (turn {}) and no mail asked them",
                    rec.seats[s].name, key.1, key.0
                ),
            ));
        }
        if let Some(d) = rec.deadline {
            if w.told != Some(d) && w.reported_deadline != Some(d) {
                w.reported_deadline = Some(d);
                out.push((
                    "told_deadline",
                    format!(
                        "{} is awaited and was never mailed the deadline in force ({})",
                        rec.seats[s].name,
                        format_long_zoned(d, lang, None)
                    ),
                ));
            }
        }
    }

    // token_in_subject, private
    for (s, seat) in rec.seats.iter().enumerate() {
        for m in to_seat(s) {
            if super::hostile::tag(&m.subject).as_deref() == Some(rec.id.as_str())
                && !m.subject.contains(&format!("#{}", seat.token))
            {
                out.push((
                    "token_in_subject",
                    format!(
                        "a mail to {} has no token in its subject: {:?}",
                        seat.name, m.subject
                    ),
                ));
            }
            for (o, other) in rec.seats.iter().enumerate() {
                if o == s || other.token.is_empty() {
                    continue;
                }
                let leaks_token = m.subject.contains(&format!("#{}", other.token))
                    || m.headers.iter().any(|(_, v)| v == &other.token)
                    || m.body.contains(&format!("#{}", other.token));
                if leaks_token {
                    out.push((
                        "private",
                        format!("a mail to {} carries {}'s token", seat.name, other.name),
                    ));
                }
            }
            if let Some(leak) = session.and_then(|x| private_leak(x, rec, s, &m.body, judge)) {
                out.push(("private", leak));
            }
        }
    }

    if let Event::Mail {
        sender,
        act,
        message_id,
        ..
    } = event
    {
        let from = match sender {
            Sender::Seat(i) => rec.seats.get(*i).and_then(|x| x.address.clone()),
            Sender::GameMaster => Some(rec.gm.clone()),
            Sender::Observer | Sender::Hostile(_) | Sender::Bystander => None,
        };
        let reply = from.as_ref().and_then(|f| {
            mails
                .iter()
                .find(|m| &m.to == f && m.in_reply_to.as_deref() == Some(message_id.as_str()))
        });
        if from.is_some() && reply.is_none() {
            out.push(("answered", format!("{act:?} got no reply")));
        }
        let grew = after.history() > before.history();
        let refusal = reply.and_then(|r| REFUSALS.iter().find(|p| r.body.contains(**p)));
        let pressed = *act == Act::Press
            && mails
                .iter()
                .any(|m| Some(&m.to) != from.as_ref() && m.body.contains("Good luck, everyone!"));
        if let Some(p) = refusal {
            if grew || pressed {
                out.push((
                    "no_false_refusal",
                    format!(
                        "the reply says {p:?} though {}",
                        if grew {
                            "the game moved"
                        } else {
                            "the press went out"
                        }
                    ),
                ));
            }
        }
        if let Sender::Seat(i) = sender {
            match act {
                Act::Orders => {
                    let moved =
                        grew || before.key(*i) != after.key(*i) || !after.awaiting().contains(i);
                    if !moved || refusal.is_some() {
                        out.push((
                            "orders_applied",
                            format!(
                                "the orders were not applied; the reply began: {:?}",
                                reply.map(|r| r
                                    .body
                                    .lines()
                                    .take(6)
                                    .collect::<Vec<_>>()
                                    .join(" / "))
                            ),
                        ));
                    }
                }
                Act::Typo if grew || !reply.is_some_and(|r| r.body.contains("ATACKK")) => {
                    out.push((
                        "typo_refused",
                        format!(
                            "history grew: {grew}; the reply quoted the line: {}",
                            reply.is_some_and(|r| r.body.contains("ATACKK"))
                        ),
                    ));
                }
                Act::Confirm => {
                    if let Some(r) = reply.filter(|r| {
                        r.body.contains("Not understood")
                            || r.body.contains("Non compris")
                            || r.body.contains(" refused ==")
                            || r.body.contains(" refusés ==")
                            || REFUSALS.iter().any(|p| r.body.contains(p))
                    }) {
                        out.push((
                            "greeting_not_an_error",
                            format!(
                                "the reply: {:?}",
                                r.body.lines().take(4).collect::<Vec<_>>().join(" / ")
                            ),
                        ));
                    }
                }
                _ => {}
            }
        }
        if *act == Act::Process {
            let b = before.misses();
            for (s, (m, bot)) in after.misses().into_iter().enumerate() {
                if b.get(s).is_some_and(|(bm, bb)| m > *bm || (bot && !bb)) {
                    out.push((
                        "process_not_a_miss",
                        format!(
                            "{} counted a missed deadline after PROCESS",
                            rec.seats[s].name
                        ),
                    ));
                }
            }
        }
    }

    // absence_told
    if matches!(event, Event::Tick) && after.status() != Some(Status::Finished) {
        let b = before.misses();
        for (s, (m, _)) in after.misses().into_iter().enumerate() {
            if b.get(s).is_none_or(|(bm, _)| m <= *bm) {
                continue;
            }
            let name = &rec.seats[s].name;
            for o in (0..rec.seats.len()).filter(|o| *o != s && reachable(*o)) {
                if !to_seat(o).iter().any(|m| m.body.contains(name.as_str())) {
                    out.push((
                        "absence_told",
                        format!(
                            "{} missed a deadline and {} was not told",
                            name, rec.seats[o].name
                        ),
                    ));
                }
            }
        }
    }

    // elimination_told
    let was_out = |s: usize| before.rec.as_ref().is_some_and(|r| r.is_out(s));
    for o in rec.out.iter().filter(|o| !was_out(o.seat)) {
        for r in (0..rec.seats.len()).filter(|r| reachable(*r) || *r == o.seat) {
            if !watch.out_untold.contains(&(r, o.seat)) {
                watch.out_untold.push((r, o.seat));
            }
        }
    }
    // A newcomer (REPLACE) takes the seat after the news: their reports show the table as
    // it is (the seats out marked), there is nothing to tell them as news.
    let address = |snap: &Snapshot, s: usize| {
        snap.rec
            .as_ref()
            .and_then(|r| r.seats.get(s))
            .and_then(|x| x.address.clone())
    };
    watch
        .out_untold
        .retain(|(r, _)| address(before, *r) == address(after, *r));
    let untold = std::mem::take(&mut watch.out_untold);
    for (r, x) in untold {
        // Reports (their subject names the turn) and whatever says it; a notice (PAUSE,
        // a newcomer) between the elimination and the next report does not count.
        let says_out = |b: &str| b.contains("out of the game") || b.contains("hors jeu");
        let mine: Vec<&Outbound> = to_seat(r)
            .into_iter()
            .filter(|m| {
                m.subject.contains("Turn ") || m.subject.contains("Tour ") || says_out(&m.body)
            })
            .collect();
        if mine.is_empty() || !reachable(r) {
            watch.out_untold.push((r, x));
            continue;
        }
        let name = rec.seats[x].name.as_str();
        let says = |b: &str| {
            let out = b.contains("out of the game") || b.contains("hors jeu");
            out && (r == x || b.contains(name))
        };
        if !mine.iter().any(|m| says(&m.body)) {
            out.push((
                "elimination_told",
                format!(
                    "{} was put out and {}'s next mail does not say it: {:?}",
                    name,
                    rec.seats[r].name,
                    mine.iter().map(|m| m.subject.as_str()).collect::<Vec<_>>()
                ),
            ));
        }
    }

    // end_told, absent_never_wins
    if after.status() == Some(Status::Finished) && before.status() != Some(Status::Finished) {
        for s in (0..rec.seats.len()).filter(|s| reachable(*s)) {
            if to_seat(s).is_empty() {
                out.push((
                    "end_told",
                    format!("{} was not told the game ended", rec.seats[s].name),
                ));
            }
        }
        if let Some(o) = session.and_then(|x| x.outcome()) {
            // Someone present to the end who does not share the win lost to the absence.
            let present = |s: usize| {
                rec.seats[s].played_by_mail()
                    && !rec.seats[s].disorder
                    && people.get(s).is_some_and(|p| p.timing != Timing::Absent)
            };
            let someone_played =
                (0..rec.seats.len()).any(|s| present(s) && !o.winners.contains(&s));
            // A seat the game master handed to a bot (KICK) plays to win by their choice.
            for w in o.winners.into_iter().filter(|w| !rec.seats[*w].bot) {
                if someone_played && people.get(w).is_some_and(|p| p.timing == Timing::Absent) {
                    out.push((
                        "absent_never_wins",
                        format!("{} never wrote and won ({})", rec.seats[w].name, o.reason),
                    ));
                }
            }
        }
    }
    out
}

/// A line of another seat's private view (in the reader's language) that is in `body`
/// and is neither public nor in the reader's own private view.
fn private_leak(
    session: &dyn Session,
    rec: &GameRecord,
    reader: usize,
    body: &str,
    judge: &Judge,
) -> Option<String> {
    let lang = seat_lang(rec, reader, judge);
    let public = session.public_view(lang);
    let own = session.private_view(reader, lang);
    for o in (0..rec.seats.len()).filter(|o| *o != reader) {
        let theirs = session.private_view(o, lang);
        for line in theirs.lines().map(str::trim).filter(|l| l.len() >= 24) {
            if !public.contains(line) && !own.contains(line) && body.contains(line) {
                return Some(format!(
                    "a mail to {} carries {}'s private line {line:?}",
                    rec.seats[reader].name, rec.seats[o].name
                ));
            }
        }
    }
    None
}

/// The game replays from its seed and whole history, and its dice verify.
pub fn replays(g: &StoredGame) -> Option<String> {
    let session = session_of(g)?;
    session
        .verify()
        .err()
        .map(|e| format!("{}: {e}", g.record.id))
}

/// Each promise's check can fail: a real game of the simulation, then the mails or the
/// state doctored the way a broken judge would leave them, and the check must name it.
#[cfg(test)]
mod tests;
