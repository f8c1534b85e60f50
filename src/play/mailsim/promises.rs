//! The promises a player relies on, each a named check made after every handled mail and
//! every tick (docs/promises.md says each in a player's words).

use super::people::{Act, Person};
use super::session_of;
use castellan_engine::{PromptKind, Session};
use castellan_judge::{GameRecord, Judge, Outbound, Status, StoredGame};

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

/// Every promise after one event; the broken ones with what was seen, in the order the
/// promises are checked: the deadline and the questions, the mails' subjects and secrets,
/// the mail of the event and its answer, then the news (absences, eliminations, the end).
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
    let scene = Scene {
        judge,
        rec,
        before,
        after,
        mails,
        people,
        awaiting: after.awaiting(),
    };
    asking::deadline_in_force(&scene, &mut out);
    asking::asked_and_told_deadline(&scene, &mut watch.seats, &mut out);
    privacy::token_in_subject_and_private(&scene, &mut out);
    if let Event::Mail {
        sender,
        act,
        message_id,
        ..
    } = event
    {
        answers::the_mail_and_its_answer(&scene, *sender, *act, message_id, &mut out);
    }
    if matches!(event, Event::Tick) {
        news::absence_told(&scene, &mut out);
    }
    news::elimination_told(&scene, &mut watch.out_untold, &mut out);
    news::end_told_and_absent_never_wins(&scene, &mut out);
    out
}

/// The promises broken so far: each promise's name and what was seen.
type Broken = Vec<(&'static str, String)>;

/// One event as the checks see it: the game before and after it (its record after), and
/// the mails it sent.
struct Scene<'a> {
    judge: &'a Judge,
    rec: &'a GameRecord,
    before: &'a Snapshot,
    after: &'a Snapshot,
    mails: &'a [Outbound],
    people: &'a [Person],
    /// The seats the game awaits after the event.
    awaiting: Vec<usize>,
}

impl<'a> Scene<'a> {
    /// A seat played by mail by a person who writes: someone the judge's mail reaches.
    fn reachable(&self, s: usize) -> bool {
        self.rec.seats.get(s).is_some_and(|x| x.played_by_mail())
            && self.people.get(s).is_some_and(|p| p.written)
    }

    /// The mails of the event to seat `s`'s address.
    fn to_seat(&self, s: usize) -> Vec<&'a Outbound> {
        let addr = self.rec.seats[s].address.as_deref().unwrap_or("");
        self.mails.iter().filter(|m| m.to == addr).collect()
    }

    /// The game after the event.
    fn session(&self) -> Option<&'a dyn Session> {
        self.after.session.as_deref()
    }
}

/// The game replays from its seed and whole history, and its dice verify.
pub fn replays(g: &StoredGame) -> Option<String> {
    let session = session_of(g)?;
    session
        .verify()
        .err()
        .map(|e| format!("{}: {e}", g.record.id))
}

mod answers;
mod asking;
mod news;
mod privacy;

/// Each promise's check can fail: a real game of the simulation, then the mails or the
/// state doctored the way a broken judge would leave them, and the check must name it.
#[cfg(test)]
mod tests;
