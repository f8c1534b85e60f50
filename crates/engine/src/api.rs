//! The game API every Castellan game implements ([`Rules`]), the table that wraps a game
//! with its dice and history ([`Table`]), and the object-safe face the judge uses
//! ([`Session`]) so one store, one clock and one set of templates serve every game.

use crate::dice::{BotRng, DiceBox, Roll, Secret};
use crate::lang::Lang;
use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};
use std::fmt::Debug;

mod prompt;
mod session;
mod stored;
mod table;
pub use prompt::{Prompt, PromptKind, PromptKinds, PromptRole};
pub use session::*;
pub use stored::{Snapshot, StoredEntry, StoredTable};
pub use table::Table;

/// A player's place at the table, 0-based. Reports name seats by the player's name.
pub type Seat = usize;

/// Version of the [`Table`] envelope stored by the judge.
pub const TABLE_VERSION: u32 = 1;

/// Why an order was refused, with how to write it right: in English, and in French when
/// the game gives it (`OrderError::new(en).fr(fr).hint(en).hint_fr(fr)`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, thiserror::Error)]
#[error("{message}")]
pub struct OrderError {
    pub message: String,
    /// How to write it right ("write: ATTACK Livonia FROM Poland WITH 3").
    pub hint: Option<String>,
    /// The same in French, when the game words it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub french: Option<Box<Translation>>,
    /// The line does not start with an order word of this game at all (a signature,
    /// "thanks!"): at the end of an order text such lines are ignored, not refused
    /// (see [`Table::submit`]).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub not_an_order: bool,
}

/// An [`OrderError`]'s message and hint in another language.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Translation {
    pub message: Option<String>,
    pub hint: Option<String>,
}

impl OrderError {
    pub fn new(message: impl Into<String>) -> OrderError {
        OrderError {
            message: message.into(),
            hint: None,
            french: None,
            not_an_order: false,
        }
    }
    /// Mark the error as "this line is not an order at all" (its first word is no order
    /// word of the game).
    pub fn not_an_order(mut self) -> OrderError {
        self.not_an_order = true;
        self
    }
    pub fn hint(mut self, hint: impl Into<String>) -> OrderError {
        self.hint = Some(hint.into());
        self
    }
    /// The message in French.
    pub fn fr(mut self, message: impl Into<String>) -> OrderError {
        self.french.get_or_insert_with(Default::default).message = Some(message.into());
        self
    }
    /// The hint in French.
    pub fn hint_fr(mut self, hint: impl Into<String>) -> OrderError {
        self.french.get_or_insert_with(Default::default).hint = Some(hint.into());
        self
    }
    /// The message in `lang` (English where the game gave no French).
    pub fn message_in(&self, lang: Lang) -> &str {
        match (lang, &self.french) {
            (Lang::Fr, Some(t)) => t.message.as_deref().unwrap_or(&self.message),
            _ => &self.message,
        }
    }
    /// The hint in `lang` (English where the game gave no French).
    pub fn hint_in(&self, lang: Lang) -> Option<&str> {
        match (lang, &self.french) {
            (Lang::Fr, Some(t)) => t.hint.as_deref().or(self.hint.as_deref()),
            _ => self.hint.as_deref(),
        }
    }
}

/// Who may read a narration line.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Viewer {
    /// Every player and observer.
    Public,
    /// Only this seat.
    Seat(Seat),
}

/// How a game ended.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Outcome {
    /// Winning seats (several only for a shared result; empty for a draw).
    pub winners: Vec<Seat>,
    pub reason: String,
    /// The reason in French, when the game words it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reason_fr: Option<String>,
}

impl Outcome {
    /// An outcome with its reason in English only.
    pub fn new(winners: Vec<Seat>, reason: impl Into<String>) -> Outcome {
        Outcome {
            winners,
            reason: reason.into(),
            reason_fr: None,
        }
    }
    /// The reason in French.
    pub fn fr(mut self, reason: impl Into<String>) -> Outcome {
        self.reason_fr = Some(reason.into());
        self
    }
    /// The reason in `lang`.
    pub fn reason_in(&self, lang: Lang) -> &str {
        match lang {
            Lang::Fr => self.reason_fr.as_deref().unwrap_or(&self.reason),
            Lang::En => &self.reason,
        }
    }
}

/// One game's rules. Pure: no I/O, no clock; every random draw comes from the [`DiceBox`].
///
/// Contract:
/// * `apply` either succeeds or returns `Err` having changed nothing (the [`Table`] also
///   applies on a copy, so a half-applied order can never be stored).
/// * `pending` is empty exactly when `outcome` is `Some`.
/// * `bot_order` returns an order that `apply` accepts for that seat when it has a prompt.
/// * `narrate(e, Viewer::Public)` never reveals a hidden fact (hands, hidden armies,
///   secret choices); private facts go only to `Viewer::Seat(owner)`.
pub trait Rules: Clone + Debug + Serialize + DeserializeOwned + Send + 'static {
    type Options: Clone + Debug + Default + Serialize + DeserializeOwned + Send;
    type Order: Clone + Debug + PartialEq + Serialize + DeserializeOwned + Send;
    type Event: Clone + Debug + Serialize + DeserializeOwned + Send;
    /// The kinds of prompt this game raises: an enum of its own (deadlines per kind are
    /// checked against its [`PromptKinds::ALL`]).
    type Ask: PromptKinds;

    /// The game's name in commands and stored data ("castle-risk").
    const GAME: &'static str;
    /// Version of this game's stored state; bump when the serialized shape changes.
    const STATE_VERSION: u32;
    /// The oldest stored state version this build still reads: a game whose state
    /// converts an older shape as it is deserialized says so here, and a table of that
    /// version loads (and is stored again at [`Rules::STATE_VERSION`]).
    const OLDEST_STATE_VERSION: u32 = Self::STATE_VERSION;

    /// A whole stored table (its history inside, as [`Session::to_json`] gives it) that
    /// an older build wrote, brought to this build's shapes: events or orders stored in a
    /// form this build's types no longer read are rewritten here, with the whole game at
    /// hand (the players' names, the state). The engine calls it only when a stored part
    /// does not read as it is (history entries are never rewritten in the store, so an
    /// old game keeps its old entries). By default, nothing to convert.
    fn upgrade_json(table: serde_json::Value) -> serde_json::Value {
        table
    }

    /// Fields of the stored state kept only for the picture (Castello's last path): a game
    /// saved before they existed must still verify against its replay (which has them).
    const PICTURE_ONLY: &'static [&'static str] = &[];

    /// Whether the game ever rolls a public die (the reports' dice audit is told only
    /// then).
    const ROLLS_DICE: bool = true;
    /// Whether the game ever draws from the secret stream (hidden cards): the reports
    /// name the secret stream's commitment, and the last its key, only then.
    const DRAWS_HIDDEN: bool = true;
    /// Whether the text map (the public view) is a list of paragraphs each readable
    /// alone (an empire, a continent, a player's row): a report then shows only those
    /// that changed since the last one (`SET MAP FULL`: the whole map). `false`: the whole
    /// map in every report (a board drawn in lines, read only whole).
    const MAP_IN_PARAGRAPHS: bool = false;

    /// Seat counts this game supports.
    fn seat_range() -> std::ops::RangeInclusive<usize>;

    /// Set a game up for these players (names in seat order).
    fn setup(
        players: &[String],
        options: &Self::Options,
        dice: &mut DiceBox,
    ) -> Result<(Self, Vec<Self::Event>), OrderError>;

    /// The dice turn: starts at 1 and grows by one at each turn boundary. Each dice turn
    /// has its own committed seed.
    fn turn(&self) -> u32;

    /// Who must answer what now; questions and choices worded in `lang`.
    fn pending(&self, lang: Lang) -> Vec<Prompt<Self::Ask>>;

    /// Parse one order line written by `seat`.
    fn parse(&self, seat: Seat, line: &str) -> Result<Self::Order, OrderError>;

    /// Does `line` read as an order of this game written in French (its first word one of
    /// the game's own French order words, legal or not)? The judge answers a mail holding
    /// such a line in French ([`GameInfo::reads_as_french`]). Each game answers from its
    /// own order parser's words; the default is the words the games share
    /// ([`crate::lang::fr::is_order_line`]).
    fn reads_as_french(line: &str) -> bool {
        crate::lang::fr::is_order_line(line)
    }

    /// CHECK of a line that follows, in the same mail, a line rolling dice or drawing a
    /// hidden card, asked of the state before them: `Some` when the game checks what those
    /// cannot change (its words and names, an attack on a territory the seat already holds:
    /// no roll in a seat's own turn takes a territory from it), and an error then holds
    /// whatever they show; `None` (the default): the game checks nothing there, and CHECK
    /// says the line was not checked. Never an outcome or a hidden fact.
    fn check_past_chance(&self, seat: Seat, line: &str) -> Option<Result<(), OrderError>> {
        let _ = (seat, line);
        None
    }

    /// Apply one order. On `Err` nothing changed.
    fn apply(
        &mut self,
        seat: Seat,
        order: &Self::Order,
        dice: &mut DiceBox,
    ) -> Result<Vec<Self::Event>, OrderError>;

    /// The order played for `prompt` when its deadline passes.
    fn default_order(&self, prompt: &Prompt<Self::Ask>) -> Self::Order;

    /// What a bot plays for `seat` now (it has a prompt).
    fn bot_order(&self, seat: Seat, rng: &mut BotRng) -> Self::Order;

    /// The order as a player would write it (parse(order_text(o)) == o).
    fn order_text(&self, order: &Self::Order) -> String;

    /// The event told to `viewer` in `lang`, or `None` if `viewer` must not see it.
    fn narrate(&self, event: &Self::Event, viewer: Viewer, lang: Lang) -> Option<String>;

    /// Whether `next` continues the run of like events `run` holds (the battles of one
    /// attack), which [`Rules::narrate_run`] tells in one line. Default: never.
    fn continues_run(&self, _run: &[&Self::Event], _next: &Self::Event) -> bool {
        false
    }

    /// A run of two or more like events (see [`Rules::continues_run`]) told in one line to
    /// `viewer` ("dice compact, one line per battle"); `None` tells each event
    /// on its own. The dice themselves stay in the report's dice lines and the audit.
    fn narrate_run(&self, _run: &[&Self::Event], _viewer: Viewer, _lang: Lang) -> Option<String> {
        None
    }

    /// A run of events (one event, or a run of [`Rules::continues_run`]) told to `seat`
    /// when it happened to them and someone else did it (the defender of an attack, the
    /// target of a Spy): "Alice attacked Rhine from Burgundy: you lost 2 (3 → 1)". Public
    /// facts only. The judge puts it in the seat's "What happened to you" and leaves the
    /// run's public lines out of that seat's mail. Default: nothing addressed.
    fn narrate_to(&self, _run: &[&Self::Event], _seat: Seat, _lang: Lang) -> Option<String> {
        None
    }

    /// Whether the narration of an entry's `events` tells every one of its `rolls`, each
    /// on its attack's line (or, for a long attack, its count and last roll:
    /// `words::rolls_line`): then the report lists them nowhere else (HISTORY and VERIFY
    /// give every die with its turn and index). Default: no.
    fn rolls_told(&self, _events: &[Self::Event], _rolls: &[Roll]) -> bool {
        false
    }

    /// The board (text map) and everything every player may know, in `lang`.
    fn public_view(&self, lang: Lang) -> String;

    /// What only `seat` may know: hand, secrets, standing orders, prompts, in `lang`.
    fn private_view(&self, seat: Seat, lang: Lang) -> String;

    fn outcome(&self) -> Option<Outcome>;

    /// Each seat's score, for a game that keeps one (Risk: territories held); campaigns
    /// scored by "each game's own score" use it. `None`: no score.
    fn scores(&self) -> Option<Vec<i64>> {
        None
    }

    /// The seats out of the game (eliminated), in seat order: a pure function of the
    /// state. Default: none (a game where nobody is ever put out: Castrum, Castello).
    fn eliminated(&self) -> Vec<Seat> {
        Vec::new()
    }

    /// The seat this event puts out of the game and, when the game says, who put it out:
    /// the judge finds with it when and by whom a seat of [`Rules::eliminated`] went out.
    /// Default: no event eliminates.
    fn eliminates(_event: &Self::Event) -> Option<(Seat, Option<Seat>)> {
        None
    }

    /// Each seat's standing for the final placings, compared in order, highest first
    /// (Castle Risk and Risk: territories held, then armies on the board); `None`: the
    /// game's [`Rules::scores`] if it keeps them, else no measure.
    fn measure(&self) -> Option<Vec<Vec<i64>>> {
        None
    }

    /// Short help on the order language (the ORDERS command), in `lang`.
    fn order_help(lang: Lang) -> String;

    /// The board as an SVG picture for `viewer` in `lang`: made from what `viewer` may
    /// know only (`Viewer::Public`: the public view's facts; `Viewer::Seat(s)`: those plus
    /// seat `s`'s own). `None`: this game draws no picture (the report stays text only).
    fn picture(&self, _viewer: Viewer, _lang: Lang) -> Option<String> {
        None
    }

    /// Whether seat `seat`'s picture may show more than the public one (its hand, its
    /// hidden armies). `false` promises the two are the same, so the judge draws the
    /// public one alone; `true` (the default) has the judge draw both and compare.
    fn picture_shows_secrets(&self, _seat: Seat) -> bool {
        true
    }

    /// The shape of the board around the territory named `name` (forgiving names, in
    /// either language): its neighbours and who holds them, and where an Admiral may sail,
    /// in `lang`, from public facts only (`MAP Prussia`, `NEIGHBOURS Prussia` by mail).
    /// `None`: this game has no map of territories.
    fn neighbours(&self, _name: &str, _lang: Lang) -> Option<Result<String, OrderError>> {
        None
    }

    /// Every territory seat `seat` holds with all its neighbours and who holds them, in
    /// `lang`, from public facts only (a bare `NEIGHBOURS` by mail: the private view
    /// tells the board around the seat in short). `None`: no map of territories, or the
    /// seat holds none.
    fn borders(&self, _seat: Seat, _lang: Lang) -> Option<String> {
        None
    }
}

/// Who produced an order.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Source {
    Player,
    /// The deadline passed; the documented default was played.
    Default,
    /// A bot stand-in (missed turns, simulate, demo).
    Bot,
}

/// One step of the history: an order and what it caused. Setup is entry 0 with no order.
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(bound = "")]
pub struct Entry<R: Rules> {
    pub turn: u32,
    pub seat: Option<Seat>,
    pub source: Option<Source>,
    pub order: Option<R::Order>,
    pub events: Vec<R::Event>,
    pub rolls: Vec<Roll>,
}

/// Narrated result of some orders: public lines, private lines per seat, and the dice.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Narration {
    pub public: Vec<String>,
    pub private: Vec<(Seat, String)>,
    pub rolls: Vec<Roll>,
    /// The rolls no narrated line shows (`Rules::rolls_told`): a report lists them apart.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub untold: Vec<Roll>,
    /// Public lines retold to the seat they happened to (`Rules::narrate_to`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub addressed: Vec<Addressed>,
    /// Lines after the last order that are not orders (a signature, "thanks!"): ignored,
    /// and named so in the reply. Only [`Table::submit`] fills it.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub ignored: Vec<(usize, String)>,
}

/// What happened to a seat, told to them: it stands for the public lines
/// `first..first + count` in that seat's mail.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Addressed {
    pub seat: Seat,
    pub first: usize,
    pub count: usize,
    pub line: String,
}

impl Narration {
    pub fn extend(&mut self, other: Narration) {
        let shift = self.public.len();
        self.addressed
            .extend(other.addressed.into_iter().map(|a| Addressed {
                first: a.first + shift,
                ..a
            }));
        self.public.extend(other.public);
        self.private.extend(other.private);
        self.rolls.extend(other.rolls);
        self.untold.extend(other.untold);
    }
    /// The lines addressed to `seat`, and the public lines they stand for in its mail.
    pub fn addressed_to(&self, seat: Seat) -> (Vec<&str>, Vec<usize>) {
        let mine = self.addressed.iter().filter(|a| a.seat == seat);
        let lines = mine.clone().map(|a| a.line.as_str()).collect();
        let covered = mine.flat_map(|a| a.first..a.first + a.count).collect();
        (lines, covered)
    }
    pub fn private_for(&self, seat: Seat) -> Vec<&str> {
        self.private
            .iter()
            .filter(|(s, _)| *s == seat)
            .map(|(_, l)| l.as_str())
            .collect()
    }
}

/// An order line that was refused.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct LineError {
    /// 1-based line number in the text sent.
    pub line_no: usize,
    pub line: String,
    pub message: String,
    pub hint: Option<String>,
}

impl std::fmt::Display for LineError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "line {}: \"{}\": {}",
            self.line_no, self.line, self.message
        )?;
        if let Some(h) = &self.hint {
            write!(f, " ({h})")?;
        }
        Ok(())
    }
}

/// A refused order text (see [`Table::submit`]): every refused line, the lines left
/// unchecked because checking them would need chance, and the lines that stood because a
/// die was rolled (or a hidden card drawn) before the first refused line, with what they
/// did. Derefs to the refused lines.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Refused {
    pub errors: Vec<LineError>,
    /// Lines after a refused one that were not checked (they come after a die).
    pub unchecked: Vec<LineError>,
    /// Line numbers applied anyway ("a die once rolled stands"); empty: nothing changed.
    pub stood: Vec<usize>,
    /// What the lines that stood did (empty when nothing stood).
    pub narration: Box<Narration>,
}

impl std::ops::Deref for Refused {
    type Target = Vec<LineError>;
    fn deref(&self) -> &Vec<LineError> {
        &self.errors
    }
}

impl IntoIterator for Refused {
    type Item = LineError;
    type IntoIter = std::vec::IntoIter<LineError>;
    fn into_iter(self) -> Self::IntoIter {
        self.errors.into_iter()
    }
}

/// The verdict on one line of a CHECK.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum LineVerdict {
    /// Legal. Nothing more: CHECK shows legality, never what a line would do (the type
    /// holds no room for an outcome).
    Ok,
    Err {
        message: String,
        hint: Option<String>,
    },
    /// Legal so far, but it needs chance (a die or a hidden draw): what follows is checked
    /// only for what chance cannot change.
    NeedsDice,
    /// After a line that needs chance: nothing wrong that chance cannot change
    /// (`Rules::check_past_chance`); the rest depends on the dice.
    PastChance,
    /// After a line that needs chance, in a game that checks nothing there: not checked.
    Unchecked,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct LineCheck {
    pub line_no: usize,
    pub line: String,
    pub verdict: LineVerdict,
}

/// Lines of an order text worth reading: trimmed, not empty, not a `#` comment.
pub fn order_lines(text: &str) -> Vec<(usize, String)> {
    text.lines()
        .enumerate()
        .map(|(i, l)| (i + 1, l.trim().to_string()))
        .filter(|(_, l)| !l.is_empty() && !l.starts_with('#'))
        .collect()
}

/// Build a game's options from `key=value` pairs (CLI `--option`, CREATE mails).
/// Values that look like booleans or numbers become those; everything else a string.
pub fn options_from_pairs<O: DeserializeOwned + Default + Serialize>(
    pairs: &[(String, String)],
) -> Result<O, String> {
    let mut map = match serde_json::to_value(O::default()) {
        Ok(serde_json::Value::Object(m)) => m,
        // A game without options (`()`): nothing to set, and any key is unknown.
        _ if pairs.is_empty() => return Ok(O::default()),
        _ => serde_json::Map::new(),
    };
    for (k, v) in pairs {
        let key = k.trim().replace('-', "_").to_lowercase();
        if !map.contains_key(&key) {
            let known: Vec<String> = map.keys().map(|k| k.replace('_', "-")).collect();
            return Err(if known.is_empty() {
                format!("unknown option \"{k}\"; this game has no options: leave it out")
            } else {
                format!(
                    "unknown option \"{k}\"; the options are: {}",
                    known.join(", ")
                )
            });
        }
        let val = match v.trim() {
            "true" | "yes" | "on" => serde_json::Value::Bool(true),
            "false" | "no" | "off" => serde_json::Value::Bool(false),
            s => match s.parse::<i64>() {
                Ok(n) => serde_json::Value::from(n),
                Err(_) => serde_json::Value::String(s.replace('-', "_")),
            },
        };
        map.insert(key, val);
    }
    serde_json::from_value(serde_json::Value::Object(map)).map_err(|e| format!("bad option: {e}"))
}
