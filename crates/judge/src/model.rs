//! What the judge keeps: game records, seats, senders, players' records, the log; the
//! store's errors. (Mails in and out: envelope.rs.)

pub use crate::envelope::{
    Attachment, AuthenticationResults, Dsn, DsnRecipient, Inbound, Outbound,
};
use castellan_engine::Lang;
use serde::{Deserialize, Serialize};
use std::collections::{BTreeMap, BTreeSet};

/// An address as the judge compares it: trimmed, in lower case.
pub(crate) fn lower(s: &str) -> String {
    s.trim().to_lowercase()
}

/// The key of a record the judge keeps beside the senders' records that is not a
/// sender's (one key space per kind of record): a NUL, its kind, `/`, its name
/// (`\0stop/ADDRESS`, `\0asked/ADDRESS`, `\0failed-tries/GAME/seat-N`,
/// `\0budget/new-games`). A sender's record is keyed by its address, and no address
/// holds a NUL: the judge reads no mail whose From holds a control character
/// ([`spells_an_address`]), so no From can spell one of these keys.
pub fn mark_key(kind: &str, name: &str) -> String {
    format!("\0{kind}/{name}")
}

/// Whether `address` (trimmed, in lower case) can be a sender's key: not empty, and no
/// control character (NUL, the first byte of every [`mark_key`], among them).
pub fn spells_an_address(address: &str) -> bool {
    !address.is_empty() && !address.chars().any(char::is_control)
}

/// Does this word look like a game id ("race-1", "castle-7")?
pub fn looks_like_id(w: &str) -> bool {
    w.contains('-')
        && w.chars().any(|c| c.is_ascii_alphabetic())
        && w.chars().last().is_some_and(|c| c.is_ascii_digit())
}

/// The number a game's id ends with (`castle-12`: 12): games are numbered across every
/// game of the judge, whatever their name.
pub fn game_number(id: &str) -> Option<u64> {
    id.rsplit('-').next().and_then(|n| n.parse::<u64>().ok())
}

/// The injected world: the time and fresh randomness (game secrets, passwords, tokens).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Env {
    /// Unix seconds.
    pub now: i64,
    pub entropy: [u8; 32],
}

/// The store failed, or a game in it cannot be loaded ([`StoreError::quarantine`]). Its
/// text is for people; what a program acts on is its kind.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("store: {0}")]
pub struct StoreError(pub String, StoreErrorKind);

/// What a [`StoreError`] means to its handler.
#[derive(Clone, Debug, PartialEq, Eq)]
enum StoreErrorKind {
    Failed,
    /// This game cannot be loaded: it alone waits in quarantine.
    Quarantine(String),
    /// Another process holds the database.
    Busy,
}

impl StoreError {
    /// The store failed: `message` says how.
    pub fn new(message: impl Into<String>) -> StoreError {
        StoreError(message.into(), StoreErrorKind::Failed)
    }

    /// A game whose stored record cannot be loaded: that game alone waits in
    /// quarantine; its mail is kept for later and every other game goes on.
    pub fn quarantine(game: &str, why: &str) -> StoreError {
        StoreError(
            format!("quarantine: game {game} cannot be loaded: {why}"),
            StoreErrorKind::Quarantine(game.to_string()),
        )
    }

    /// The database is held by another process (`message` says which and how to wait).
    pub fn busy(message: impl Into<String>) -> StoreError {
        StoreError(message.into(), StoreErrorKind::Busy)
    }

    /// Whether this error is a game in quarantine rather than the store failing.
    pub fn is_quarantine(&self) -> bool {
        self.quarantined_game().is_some()
    }

    /// The game in quarantine this error is about.
    pub fn quarantined_game(&self) -> Option<&str> {
        match &self.1 {
            StoreErrorKind::Quarantine(game) => Some(game),
            _ => None,
        }
    }

    /// Whether another process holds the database.
    pub fn is_busy(&self) -> bool {
        self.1 == StoreErrorKind::Busy
    }
}

/// One line of a game's event log (the judge's own journal, beside the game's history).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct LogLine {
    /// Game id; empty for mail that touched no game.
    pub game: String,
    /// Unix seconds.
    pub at: i64,
    /// "mail", "orders", "default", "bot", "start", "end", "admin", ...
    pub kind: String,
    pub text: String,
}

/// Per-sender bookkeeping for the rate limit.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct SenderRecord {
    pub address: String,
    /// Start of the current one-hour window.
    pub window_start: i64,
    /// Mails counted in the window (without a good password or token: unauthenticated).
    pub count: u32,
    /// The "slow down" reply was sent in this window (never more than one).
    pub warned: bool,
    /// Mails counted in the window that carried a good password or token (counted apart:
    /// forged mail in someone's name never uses up their own mail's allowance).
    #[serde(default)]
    pub auth_count: u32,
    /// The "slow down" reply for authenticated mail was sent in this window.
    #[serde(default)]
    pub auth_warned: bool,
}

/// A seat that missed a deadline, and what the judge played for it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Missed {
    pub name: String,
    /// Its bot played (a stand-in), rather than the rules' default.
    pub bot: bool,
    /// The order lines played (in English, as the game writes them).
    pub lines: Vec<String>,
    /// The same lines in French, when the game words them (the rules' default); a bot's
    /// lines are told as it wrote them.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub lines_fr: Vec<String>,
    /// The game master's PROCESS played it before the deadline: not the player's miss.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub processed: bool,
    /// This miss put the seat in civil disorder (docs/rules/absence.md).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub disorder: bool,
}

impl Missed {
    /// This miss as a reader of `lang` is told it: the lines played in their language.
    pub fn in_lang(&self, lang: castellan_engine::Lang) -> Missed {
        let mut m = self.clone();
        if lang == castellan_engine::Lang::Fr && !m.lines_fr.is_empty() {
            m.lines = std::mem::take(&mut m.lines_fr);
        }
        m.lines_fr.clear();
        m
    }
}

/// A seat out of the game (eliminated), as the judge saw it go.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct OutSeat {
    pub seat: usize,
    /// The dice turn it went out on (the turn its reports were headed with).
    pub turn: u32,
    /// Who put it out, when the game says.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub by: Option<usize>,
    /// The history length when the judge saw it out: a reader told up to an earlier entry
    /// has not been told (their next report says it).
    pub at: usize,
    /// Its own player was told, in a report to the seat.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub told: bool,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Status {
    /// Waiting for players to JOIN (or the game master to START).
    Forming,
    Running,
    Paused,
    Finished,
}

/// Deadline settings of one game, in hours.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct DeadlineSettings {
    /// Hours to answer a prompt whose kind has no setting of its own.
    pub hours: u32,
    /// Hours per prompt kind ("turn", "defend", ...).
    #[serde(default)]
    pub per_kind: BTreeMap<String, u32>,
    /// Reminder this many hours before the deadline (0: none).
    pub reminder_hours: u32,
    /// Orders still accepted this many hours after the deadline before the default.
    pub grace_hours: u32,
}

impl DeadlineSettings {
    pub fn hours_for(&self, kind: &str) -> u32 {
        self.per_kind.get(kind).copied().unwrap_or(self.hours)
    }
}

/// One seat of a game.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct SeatRecord {
    pub name: String,
    /// `None`: an open seat waiting for a JOIN.
    pub address: Option<String>,
    /// The seat's password, hashed (crate::password: a keyed hash of a drawn password,
    /// Argon2id of a chosen one, or the old salted SHA-256 until the next good login).
    pub password_hash: String,
    /// Per-player token accepted in the subject ("[castle-7 #k3j9x]") or a plus-address.
    pub token: String,
    /// Deadlines missed in a row.
    pub misses: u32,
    /// On vacation until this unix time.
    pub vacation_until: Option<i64>,
    /// Vacation days used so far (limited by the configuration).
    #[serde(default)]
    pub vacation_days: u32,
    /// A bot plays this seat (after a KICK or a RESIGN) until REPLACE.
    pub bot: bool,
    /// Named by CREATE and not confirmed: the address never wrote to the judge, so the
    /// game waits for its first mail before it starts (docs/rules/absence.md; the game
    /// master's START starts it without them).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub unconfirmed: bool,
    /// Civil disorder (docs/rules/absence.md): the seat missed `max_misses` deadlines in a
    /// row; the rules' passive default is played for it at once, until its player writes.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub disorder: bool,
    pub resigned: bool,
    /// The language this player reads (`SET LANGUAGE fr`); `None`: the game's.
    #[serde(default)]
    pub language: Option<Lang>,
    /// Text only, or text with an HTML part and the board's picture (`SET FORMAT`).
    #[serde(default)]
    pub format: MailFormat,
    /// The map in this seat's reports: what changed, or the whole board (`SET MAP`).
    #[serde(default, skip_serializing_if = "MapDetail::is_changes")]
    pub map: MapDetail,
}

impl SeatRecord {
    /// A person plays this seat by mail: it has an address and no bot stands in for it.
    pub fn played_by_mail(&self) -> bool {
        !self.bot && self.address.is_some()
    }

    /// The judge plays this seat without waiting: a bot, or the defaults of civil disorder.
    pub fn played_by_judge(&self) -> bool {
        self.bot || self.disorder
    }
}

/// How often a reader gets the game's reports (`SET REPORTS TURN | ROUND | NONE`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Reports {
    /// Every turn's report (the default).
    #[default]
    Turn,
    /// One a round, with everything since the last; a mail whenever you are asked
    /// something.
    Round,
    /// Only the mails that ask you something (and the start and the end), each with
    /// everything since your last.
    None,
}

/// How much of the map a player's reports show (`SET MAP CHANGES | FULL`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum MapDetail {
    /// The lines of the map that changed since the last report (the whole board on a
    /// short map, at the start and at the end; `MAP` any time).
    #[default]
    Changes,
    /// The whole map in every report.
    Full,
}

impl MapDetail {
    pub fn is_changes(&self) -> bool {
        *self == MapDetail::Changes
    }
}

/// How a player's reports are sent (`SET FORMAT TEXT | HTML`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum MailFormat {
    /// The text alone.
    Text,
    /// The text and, beside it, an HTML part with the same content and the board's picture.
    #[default]
    Html,
}

/// A game as the judge stores it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct GameRecord {
    /// "castle-7".
    pub id: String,
    /// The game's name ("castle-risk").
    pub game: String,
    pub status: Status,
    /// The game master's address.
    pub gm: String,
    /// The game master's password, hashed (as [`SeatRecord::password_hash`]).
    pub gm_password_hash: String,
    pub gm_token: String,
    /// The join password (open seats), hashed (as [`SeatRecord::password_hash`]).
    pub join_password_hash: String,
    /// Per-game salt of every password hash here (hex).
    pub salt: String,
    pub seats: Vec<SeatRecord>,
    pub observers: Vec<String>,
    /// Game options as `key=value` pairs (handed to the game).
    pub options: Vec<(String, String)>,
    pub deadlines: DeadlineSettings,
    /// Current deadline (unix seconds), while running and waiting for someone.
    pub deadline: Option<i64>,
    /// Seconds left on the deadline when the game was paused.
    pub paused_left: Option<i64>,
    /// History length when the current deadline was set.
    pub deadline_history: usize,
    /// The seats the game waited for when the deadline was last set or checked: the
    /// deadline is set again only when a seat not among them is awaited (a new turn or
    /// phase), never when a seat submits mid-turn or mid-phase.
    #[serde(default)]
    pub deadline_awaiting: Vec<usize>,
    /// The seats awaited without a break since the last report (a seat that submits
    /// leaves it; a seat asked a question mid-turn joins it). The table gets a report only
    /// when a seat not among them is awaited: a new turn or phase (one report a turn, not
    /// one a mail).
    #[serde(default)]
    pub reported_awaiting: Vec<usize>,
    /// Seats asked a question mid-turn (defend, counter-Spy, ...) and not answered yet:
    /// each was mailed the question alone (settle.rs, `telling`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub questioned: Vec<usize>,
    /// The game waits on questions alone: when they are answered, the turn's player is
    /// told their turn goes on.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub question_wait: bool,
    /// The public map (in the game's language) as the last report showed it: the next
    /// report shows what changed since.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub reported_view: String,
    /// Readers (by address: seats, observers, the game master) who chose fewer reports
    /// (`SET REPORTS`); absent means every turn's.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub reports: BTreeMap<String, Reports>,
    /// For a reader whose reports were held back by their `SET REPORTS`: the history
    /// entry their next mail tells from.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub told: BTreeMap<String, usize>,
    /// Readers' time zones (by address; `SET TIMEZONE Europe/Paris`): their deadlines are
    /// shown in it, with UTC beside.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub zones: BTreeMap<String, String>,
    /// The code END GAME answered with, which `END GAME <code>` must repeat to end the game.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub end_code: Option<String>,
    /// Why the game could not be loaded, once its game master has been told (the
    /// game waits in quarantine; cleared when it loads again).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub quarantine: Option<String>,
    /// Seats that missed a deadline since the last report, and what was played for them:
    /// the next report tells the table ("A missed deadline is told").
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub missed: Vec<Missed>,
    /// The seats out of the game, in the order they went out (`Session::eliminated`):
    /// their players get no private part and nothing asked any more; the final report
    /// places the last out highest among them.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub out: Vec<OutSeat>,
    /// Seats reminded for the current deadline.
    pub reminded: BTreeSet<usize>,
    /// Mails sent by ticks and admin commands for this game (stable Message-IDs).
    pub out_counter: u64,
    /// History entries already reported to the players.
    pub reported: usize,
    /// Dice turns whose seeds were revealed (1..=revealed).
    pub revealed: u32,
    pub created: i64,
    /// Why it ended, once Finished.
    pub ended: Option<String>,
    /// The final report (with the secret key) was sent.
    #[serde(default)]
    pub final_sent: bool,
    /// The game's language (`language=fr` at CREATE): observers', the game master's and
    /// the default of every seat; `None`: the server's.
    #[serde(default)]
    pub language: Option<Lang>,
    /// `min-reliability=N` at CREATE: JOIN refused to a player whose reliability (percent,
    /// crate::record) is below N.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub min_reliability: Option<u32>,
}

impl GameRecord {
    /// Whether seat `seat` is out of the game (eliminated).
    pub fn is_out(&self, seat: usize) -> bool {
        self.out.iter().any(|o| o.seat == seat)
    }

    /// The plus-address tokens that name this game: its game master's and each seat's
    /// (none empty).
    pub fn tokens(&self) -> impl Iterator<Item = &str> {
        std::iter::once(self.gm_token.as_str())
            .chain(self.seats.iter().map(|s| s.token.as_str()))
            .filter(|t| !t.is_empty())
    }
    /// The addresses this game mails as its own: its game master's, each seat's and each
    /// observer's, trimmed and in lower case, sorted, each once. What STOP looks a sender
    /// up by ([`crate::Store::games_of_address`]).
    pub fn addresses(&self) -> Vec<String> {
        let mut all: Vec<String> = std::iter::once(self.gm.as_str())
            .chain(self.seats.iter().filter_map(|s| s.address.as_deref()))
            .chain(self.observers.iter().map(String::as_str))
            .map(lower)
            .filter(|a| !a.is_empty())
            .collect();
        all.sort();
        all.dedup();
        all
    }
    /// Whether `token` names this game ([`GameRecord::tokens`]).
    pub fn holds_token(&self, token: &str) -> bool {
        self.tokens().any(|t| t == token)
    }
    /// The token a mail of this game to `address` carries in its subject tag, so that a
    /// reply to it is authenticated: the seat's own token (a game master who sits too
    /// gets the seat's, which also proves the game master), else the game master's for the
    /// game master's address, else none (an observer, a stranger). Never another seat's.
    pub fn token_of(&self, address: &str) -> Option<&str> {
        let token = match self.seat_of(address) {
            Some(s) => self.seats[s].token.as_str(),
            None if self.gm.eq_ignore_ascii_case(address.trim()) => self.gm_token.as_str(),
            None => "",
        };
        (!token.is_empty()).then_some(token)
    }
    pub fn seat_of(&self, address: &str) -> Option<usize> {
        self.seats.iter().position(|s| {
            s.address
                .as_deref()
                .is_some_and(|a| a.eq_ignore_ascii_case(address))
        })
    }
    /// The time zone `address` chose in this game, if any.
    pub fn zone_of(&self, address: &str) -> Option<&str> {
        self.zones
            .get(&address.to_ascii_lowercase())
            .map(String::as_str)
    }
    /// Every seat taken and every named player confirmed: the game may start.
    pub fn ready_to_start(&self) -> bool {
        self.open_seats() == 0 && !self.seats.iter().any(|s| s.unconfirmed)
    }

    /// The names of the seats whose players have not confirmed yet.
    pub fn unconfirmed(&self) -> Vec<String> {
        self.seats
            .iter()
            .filter(|s| s.unconfirmed)
            .map(|s| s.name.clone())
            .collect()
    }

    pub fn open_seats(&self) -> usize {
        self.seats.iter().filter(|s| s.address.is_none()).count()
    }
}

/// A player's record across every game of this judge, by address. Public facts
/// only: counts, never a game's orders, hand or password. Reliability: see
/// [`PlayerRecord::reliability`].
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct PlayerRecord {
    /// Bare lowercase address.
    pub address: String,
    /// Games started with this address in a seat.
    pub played: u32,
    /// Games played to their end in the seat (not resigned, no bot standing in).
    pub finished: u32,
    pub won: u32,
    /// Turns in which the player's orders answered what the game awaited, before its
    /// deadline (one a turn a game).
    pub met: u32,
    /// Deadlines passed with the player's answer missing (a default or a bot played).
    pub missed: u32,
    pub resigned: u32,
    /// Game id → the last turn counted in `met` (bookkeeping; dropped when the game ends).
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub met_turns: BTreeMap<String, u32>,
}

#[cfg(test)]
mod tests {
    use super::*;

    /// "A default order shown in the reader's language": a missed deadline's default is
    /// told in French to a French reader ("FIN", not "END"); a bot's lines as it wrote them.
    #[test]
    fn a_missed_deadline_tells_the_default_in_the_readers_language() {
        let m = Missed {
            name: "Anna".into(),
            bot: false,
            lines: vec!["PLACE 4 Vienna".into(), "END".into()],
            lines_fr: vec!["PLACER 4 Vienne".into(), "FIN".into()],
            processed: false,
            disorder: false,
        };
        let fr = m.in_lang(castellan_engine::Lang::Fr);
        assert_eq!(fr.lines, ["PLACER 4 Vienne", "FIN"]);
        assert!(fr.lines_fr.is_empty());
        assert_eq!(m.in_lang(castellan_engine::Lang::En).lines, m.lines);
        let bot = Missed {
            bot: true,
            lines_fr: Vec::new(),
            ..m
        };
        assert_eq!(bot.in_lang(castellan_engine::Lang::Fr).lines, bot.lines);
    }

    /// A game record that cannot be loaded puts that game alone in quarantine: what a
    /// handler acts on is the error's kind, never its wording. A failure whose text reads
    /// like a quarantine is none, and a game id is given back whole whatever it holds.
    #[test]
    fn a_quarantine_is_known_by_its_kind_not_its_text() {
        let q = StoreError::quarantine("odd cannot be loaded-1", "its state is unreadable");
        assert_eq!(q.quarantined_game(), Some("odd cannot be loaded-1"));
        assert!(q.is_quarantine() && !q.is_busy());
        let lookalike = StoreError::new(q.0.clone());
        assert_eq!(lookalike.quarantined_game(), None);
        assert!(!lookalike.is_quarantine());
        let busy = StoreError::busy("the database at db is in use by another castellan process");
        assert!(busy.is_busy() && !busy.is_quarantine());
        assert!(!StoreError::new(busy.0.clone()).is_busy());
        assert_eq!(q.to_string(), format!("store: {}", q.0));
    }
}
