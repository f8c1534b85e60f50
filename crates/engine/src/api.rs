//! The game API every Castellan game implements ([`Rules`]), the table that wraps a game
//! with its dice and history ([`Table`]), and the object-safe face the judge uses
//! ([`Session`]) so one store, one clock and one set of templates serve every game.

use crate::dice::{BotRng, DiceBox, Roll, Secret};
use crate::lang::Lang;
use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};
use std::fmt::Debug;

/// A player's place at the table, 0-based. Reports name seats by the player's name.
pub type Seat = usize;

/// Version of the [`Table`] envelope stored by the judge.
pub const TABLE_VERSION: u32 = 1;

/// What kind of decision a prompt asks for. Closed: a game lists the kinds it prompts in
/// [`Rules::PROMPT_KINDS`], deadlines may be set per kind (`deadline-defend=12`), and
/// defaults match on it exhaustively. Stored and written kebab-case ("counter-spy").
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum PromptKind {
    /// Castle Risk: choose your castle's territory.
    Castle,
    /// Claim a territory at setup.
    Claim,
    /// Castle Risk: rank the empires for the draft.
    Rank,
    /// Place armies.
    Place,
    /// Castle Risk: hide armies at setup.
    Hide,
    /// Play a turn.
    Turn,
    /// Answer an attack.
    Defend,
    /// Castrum: defend a neutral card.
    DefendNeutral,
    /// Castle Risk: answer a spy.
    CounterSpy,
    /// Castle Risk: re-occupy vacated territories after taking a castle.
    Reoccupy,
    /// Castle Risk: annex a vacated territory.
    Annex,
    /// Castrum: the draft.
    Draft,
    /// Castrum: choose the headquarters.
    Headquarters,
    /// Castrum: the works.
    Works,
    /// Castello: a move.
    Move,
}

impl PromptKind {
    /// Every kind, in declaration order.
    pub const ALL: [PromptKind; 15] = [
        PromptKind::Castle,
        PromptKind::Claim,
        PromptKind::Rank,
        PromptKind::Place,
        PromptKind::Hide,
        PromptKind::Turn,
        PromptKind::Defend,
        PromptKind::DefendNeutral,
        PromptKind::CounterSpy,
        PromptKind::Reoccupy,
        PromptKind::Annex,
        PromptKind::Draft,
        PromptKind::Headquarters,
        PromptKind::Works,
        PromptKind::Move,
    ];

    /// A question put to a player inside someone else's turn (or their own, after an
    /// attack): defend, a Castrum neutral card, counter a Spy, re-occupy, annex. The judge
    /// mails it to the one who must answer, not to the table (issue 12).
    pub fn is_question(self) -> bool {
        matches!(
            self,
            PromptKind::Defend
                | PromptKind::DefendNeutral
                | PromptKind::CounterSpy
                | PromptKind::Reoccupy
                | PromptKind::Annex
        )
    }

    /// The kind as written in options and stored ("counter-spy").
    pub fn as_str(self) -> &'static str {
        match self {
            PromptKind::Castle => "castle",
            PromptKind::Claim => "claim",
            PromptKind::Rank => "rank",
            PromptKind::Place => "place",
            PromptKind::Hide => "hide",
            PromptKind::Turn => "turn",
            PromptKind::Defend => "defend",
            PromptKind::DefendNeutral => "defend-neutral",
            PromptKind::CounterSpy => "counter-spy",
            PromptKind::Reoccupy => "reoccupy",
            PromptKind::Annex => "annex",
            PromptKind::Draft => "draft",
            PromptKind::Headquarters => "headquarters",
            PromptKind::Works => "works",
            PromptKind::Move => "move",
        }
    }

    /// Read a kind as written ("counter-spy", "COUNTER_SPY").
    pub fn parse(s: &str) -> Option<PromptKind> {
        let s = s.trim().to_lowercase().replace('_', "-");
        PromptKind::ALL.into_iter().find(|k| k.as_str() == s)
    }
}

/// `kind == "counter-spy"`: compares with the written form.
impl PartialEq<&str> for PromptKind {
    fn eq(&self, other: &&str) -> bool {
        self.as_str() == *other
    }
}

impl std::fmt::Display for PromptKind {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

/// A decision the game waits for: who, what, the legal answers, and what happens if the
/// deadline passes ("every decision has three answers": an order now, a standing order,
/// a default).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Prompt {
    pub seat: Seat,
    pub kind: PromptKind,
    /// The question, in one or two sentences, in the language asked for.
    pub question: String,
    /// Order lines the seat may send now, exactly as they would be written.
    /// When the legal answers are many, a representative sample.
    pub choices: Vec<String>,
    /// What the judge plays if the deadline passes.
    pub default: String,
    /// A line that sets a standing order answering this kind of prompt, if the game has one.
    pub standing: Option<String>,
}

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

    /// The game's name in commands and stored data ("castle-risk").
    const GAME: &'static str;
    /// Version of this game's stored state; bump when the serialized shape changes.
    const STATE_VERSION: u32;

    /// Every kind of prompt this game may raise (deadlines per kind are checked against it).
    const PROMPT_KINDS: &'static [PromptKind];

    /// Fields of the stored state kept only for the picture (Castello's last path): a game
    /// saved before they existed must still verify against its replay (which has them).
    const PICTURE_ONLY: &'static [&'static str] = &[];

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
    fn pending(&self, lang: Lang) -> Vec<Prompt>;

    /// Parse one order line written by `seat`.
    fn parse(&self, seat: Seat, line: &str) -> Result<Self::Order, OrderError>;

    /// Apply one order. On `Err` nothing changed.
    fn apply(
        &mut self,
        seat: Seat,
        order: &Self::Order,
        dice: &mut DiceBox,
    ) -> Result<Vec<Self::Event>, OrderError>;

    /// The order played for `prompt` when its deadline passes.
    fn default_order(&self, prompt: &Prompt) -> Self::Order;

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
    /// `viewer` (issue 12: "dice compact, one line per battle"); `None` tells each event
    /// on its own. The dice themselves stay in the report's dice lines and the audit.
    fn narrate_run(&self, _run: &[&Self::Event], _viewer: Viewer, _lang: Lang) -> Option<String> {
        None
    }

    /// The board (text map) and everything every player may know, in `lang`.
    fn public_view(&self, lang: Lang) -> String;

    /// What only `seat` may know: hand, secrets, standing orders, prompts, in `lang`.
    fn private_view(&self, seat: Seat, lang: Lang) -> String;

    fn outcome(&self) -> Option<Outcome>;

    /// Each seat's score, for a game that keeps one (Risk: territories held); campaigns
    /// scored by "each game's own score" use it (issue 15). `None`: no score.
    fn scores(&self) -> Option<Vec<i64>> {
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

/// A game with its players, options, dice and full history: what the judge stores.
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(bound = "")]
pub struct Table<R: Rules> {
    pub version: u32,
    pub state_version: u32,
    pub game: String,
    pub players: Vec<String>,
    pub options: R::Options,
    pub state: R,
    pub dice: DiceBox,
    /// The history in hand: entries `base..`, in order (entry `base + i` is `history[i]`).
    /// A game fresh from [`Table::new`] or replayed holds it whole (`base` 0); the judge's
    /// store keeps the entries apart and loads only the tail a mail needs (issue 11), so
    /// `base` may be more. [`Table::replay`] and [`Table::replay_to`] need it whole.
    pub history: Vec<Entry<R>>,
    /// The number of history entries before `history[0]` (not loaded).
    #[serde(default, skip_serializing_if = "is_zero")]
    pub base: usize,
}

fn is_zero(n: &usize) -> bool {
    *n == 0
}

/// Narrated result of some orders: public lines, private lines per seat, and the dice.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Narration {
    pub public: Vec<String>,
    pub private: Vec<(Seat, String)>,
    pub rolls: Vec<Roll>,
    /// Lines after the last order that are not orders (a signature, "thanks!"): ignored,
    /// and named so in the reply. Only [`Table::submit`] fills it.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub ignored: Vec<(usize, String)>,
}

impl Narration {
    pub fn extend(&mut self, other: Narration) {
        self.public.extend(other.public);
        self.private.extend(other.private);
        self.rolls.extend(other.rolls);
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
    /// Legal. Always empty: CHECK shows legality, never what a line would do (kept as a
    /// list so stored answers and callers keep their shape).
    Ok(Vec<String>),
    Err {
        message: String,
        hint: Option<String>,
    },
    /// Legal so far, but it needs chance (a die or a hidden draw): nothing after it is checked.
    NeedsDice,
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

impl<R: Rules> Table<R> {
    /// Create a game. `master` is the game's secret (the judge draws it from the OS).
    pub fn new(
        game_id: &str,
        master: Secret,
        players: Vec<String>,
        options: R::Options,
    ) -> Result<Table<R>, OrderError> {
        if !R::seat_range().contains(&players.len()) {
            return Err(OrderError::new(format!(
                "{} is played by {} to {} players, not {}",
                R::GAME,
                R::seat_range().start(),
                R::seat_range().end(),
                players.len()
            )));
        }
        let mut dice = DiceBox::new(game_id, master);
        let (state, events) = R::setup(&players, &options, &mut dice)?;
        let rolls = dice.take_rolls();
        dice.enter_turn(state.turn());
        Ok(Table {
            version: TABLE_VERSION,
            state_version: R::STATE_VERSION,
            game: R::GAME.to_string(),
            players,
            options,
            state,
            dice,
            history: vec![Entry {
                turn: 1,
                seat: None,
                source: None,
                order: None,
                events,
                rolls,
            }],
            base: 0,
        })
    }

    /// The number of history entries, loaded or not (the index the next one gets).
    pub fn history_len(&self) -> usize {
        self.base + self.history.len()
    }

    /// Apply one typed order; on error nothing changes.
    pub fn apply(
        &mut self,
        seat: Seat,
        order: R::Order,
        source: Source,
    ) -> Result<&Entry<R>, OrderError> {
        if seat >= self.players.len() {
            return Err(OrderError::new(format!("there is no seat {seat}")));
        }
        let mut state = self.state.clone();
        let mut dice = self.dice.clone();
        dice.enter_turn(state.turn());
        let turn = dice.turn();
        let events = state.apply(seat, &order, &mut dice)?;
        let rolls = dice.take_rolls();
        dice.enter_turn(state.turn());
        self.state = state;
        self.dice = dice;
        self.history.push(Entry {
            turn,
            seat: Some(seat),
            source: Some(source),
            order: Some(order),
            events,
            rolls,
        });
        Ok(self.history.last().expect("just pushed"))
    }

    fn narrate_entry(&self, entry: &Entry<R>, lang: Lang) -> Narration {
        let mut n = Narration {
            rolls: entry.rolls.clone(),
            ..Default::default()
        };
        // Runs of like events (one attack's battles) are told in one line when the game
        // says how.
        let mut runs: Vec<Vec<&R::Event>> = Vec::new();
        for e in &entry.events {
            match runs.last_mut() {
                Some(run) if self.state.continues_run(run, e) => run.push(e),
                _ => runs.push(vec![e]),
            }
        }
        let tell = |run: &[&R::Event], viewer: Viewer| -> Vec<Option<String>> {
            if run.len() >= 2 {
                if let Some(line) = self.state.narrate_run(run, viewer, lang) {
                    return vec![Some(line)];
                }
            }
            run.iter()
                .map(|e| self.state.narrate(e, viewer, lang))
                .collect()
        };
        for run in &runs {
            let public = tell(run, Viewer::Public);
            n.public.extend(public.iter().flatten().cloned());
            for seat in 0..self.players.len() {
                let mine = tell(run, Viewer::Seat(seat));
                if mine.len() == public.len() {
                    for (m, p) in mine.into_iter().zip(&public) {
                        if let Some(m) = m {
                            if Some(&m) != p.as_ref() {
                                n.private.push((seat, m));
                            }
                        }
                    }
                } else {
                    for m in mine.into_iter().flatten() {
                        if !public.contains(&Some(m.clone())) {
                            n.private.push((seat, m));
                        }
                    }
                }
            }
        }
        n
    }

    /// Narration of history entries `from..` in `lang` (the judge reports what an order
    /// caused). `from` counts every entry, loaded or not; entries before the loaded ones are not
    /// told (the judge loads from the earliest entry a reader has not been told).
    pub fn narrate_since(&self, from: usize, lang: Lang) -> Narration {
        let mut n = Narration::default();
        for e in self.history.iter().skip(from.saturating_sub(self.base)) {
            n.extend(self.narrate_entry(e, lang));
        }
        n
    }

    /// At the first refused line of a submission (`self` is the working copy, `original`
    /// the table before it): what stands. If a die was rolled or a hidden card drawn since
    /// `start`, the copy as it is ("a die once rolled stands"); otherwise the original, and
    /// no line counts as applied. The copy goes on checking with dice that refuse to roll.
    fn refusal_point(
        &mut self,
        start: usize,
        secret_start: u128,
        original: &Table<R>,
        applied: &mut Vec<usize>,
    ) -> Table<R> {
        let chance = self.history[start - self.base..]
            .iter()
            .any(|e| !e.rolls.is_empty())
            || self.dice.secret_position() != secret_start;
        let keep = if chance {
            self.clone()
        } else {
            applied.clear();
            original.clone()
        };
        self.dice = self.dice.dry_copy();
        keep
    }

    /// Apply the order lines of `text` for `seat`, in order. All or nothing until chance
    /// speaks: if a line is refused and no line before it rolled a die or drew a hidden
    /// card, nothing is applied; if one did, the lines before the refused one stand ("a die
    /// once rolled stands", docs/rules/dice.md), so a refused mail can never show a die that
    /// does not count. Either way the lines after the first refused one are only checked,
    /// on a copy that refuses to roll: every refused line is reported, and a line that
    /// would need chance stops the checking. Errors and narration are worded in `lang`.
    pub fn submit(&mut self, seat: Seat, text: &str, lang: Lang) -> Result<Narration, Refused> {
        let mut scratch = self.clone();
        let start = scratch.history_len();
        let secret_start = scratch.dice.secret_position();
        let mut errors = Vec::new();
        let mut applied: Vec<usize> = Vec::new();
        // After the first refused line: (what stands, the copy checking the rest).
        let mut stood: Option<Table<R>> = None;
        let mut unchecked = Vec::new();
        // Lines after the last order that are not orders at all (a signature, "thanks!"):
        // held back; ignored if nothing but such lines follows, refused if an order does.
        let mut tail: Vec<(usize, String, OrderError)> = Vec::new();
        for (line_no, line) in order_lines(text) {
            if !unchecked.is_empty() {
                unchecked.push((line_no, line));
                continue;
            }
            let parsed = scratch.state.parse(seat, &line);
            match &parsed {
                Err(e) if e.not_an_order && stood.is_none() && !applied.is_empty() => {
                    tail.push((line_no, line, e.clone()));
                    continue;
                }
                Err(e) if e.not_an_order && !tail.is_empty() => {
                    tail.push((line_no, line, e.clone()));
                    continue;
                }
                _ => {}
            }
            // An order after lines that were not orders: those lines are refused after all.
            for (tail_no, tail_line, e) in tail.drain(..) {
                errors.push(LineError {
                    line_no: tail_no,
                    line: tail_line,
                    message: e.message_in(lang).to_string(),
                    hint: e.hint_in(lang).map(str::to_string),
                });
                if stood.is_none() {
                    stood = Some(scratch.refusal_point(start, secret_start, self, &mut applied));
                }
            }
            let res = parsed.and_then(|o| scratch.apply(seat, o, Source::Player).map(|_| ()));
            if stood.is_some() && scratch.dice.dry_roll_wanted() {
                // Checking this line would need chance: stop here, say so.
                unchecked.push((line_no, line));
                continue;
            }
            match res {
                Ok(()) if stood.is_none() => applied.push(line_no),
                Ok(()) => {}
                Err(e) => {
                    errors.push(LineError {
                        line_no,
                        line: line.clone(),
                        message: e.message_in(lang).to_string(),
                        hint: e.hint_in(lang).map(str::to_string),
                    });
                    if stood.is_none() {
                        stood =
                            Some(scratch.refusal_point(start, secret_start, self, &mut applied));
                    }
                }
            }
        }
        let Some(kept) = stood else {
            let mut n = scratch.narrate_since(start, lang);
            n.ignored = tail.into_iter().map(|(no, line, _)| (no, line)).collect();
            *self = scratch;
            return Ok(n);
        };
        let narration = kept.narrate_since(start, lang);
        *self = kept;
        let unchecked = unchecked
            .into_iter()
            .map(|(line_no, line)| LineError {
                line_no,
                line,
                message: lang
                    .pick(
                        "not checked: a line before it needs dice or a hidden draw, which a refused mail never shows",
                        "non vérifiée : une ligne avant elle demande des dés ou un tirage caché, qu'un courrier refusé ne montre jamais",
                    )
                    .to_string(),
                hint: None,
            })
            .collect();
        Err(Refused {
            errors,
            unchecked,
            stood: applied,
            narration: Box::new(narration),
        })
    }

    /// Check order lines without applying them: each line is parsed and tried on a copy,
    /// up to the first line that needs chance (a die or a hidden draw). A verdict says
    /// whether a line is legal, never what it would do: an outcome or a hidden fact
    /// (a Spy's reveal, a hand) is only learnt by playing the order. Worded in `lang`.
    pub fn check(&self, seat: Seat, text: &str, lang: Lang) -> Vec<LineCheck> {
        let mut scratch = self.clone();
        scratch.dice = self.dice.dry_copy();
        let mut out = Vec::new();
        let mut stopped = false;
        for (line_no, line) in order_lines(text) {
            let verdict = if stopped {
                LineVerdict::NeedsDice
            } else {
                match scratch.state.parse(seat, &line) {
                    Err(e) => LineVerdict::Err {
                        message: e.message_in(lang).to_string(),
                        hint: e.hint_in(lang).map(str::to_string),
                    },
                    Ok(order) => match scratch.apply(seat, order, Source::Player).map(|_| ()) {
                        _ if scratch.dice.dry_roll_wanted() => {
                            stopped = true;
                            LineVerdict::NeedsDice
                        }
                        Err(e) => LineVerdict::Err {
                            message: e.message_in(lang).to_string(),
                            hint: e.hint_in(lang).map(str::to_string),
                        },
                        Ok(_) => LineVerdict::Ok(Vec::new()),
                    },
                }
            };
            out.push(LineCheck {
                line_no,
                line,
                verdict,
            });
        }
        out
    }

    /// Play the documented default for every prompt `seat` has.
    pub fn play_default(&mut self, seat: Seat) -> Result<Narration, OrderError> {
        let start = self.history_len();
        // A default may raise a further prompt for the same seat; bounded.
        for _ in 0..64 {
            let Some(p) = self
                .state
                .pending(Lang::En)
                .into_iter()
                .find(|p| p.seat == seat)
            else {
                break;
            };
            let order = self.state.default_order(&p);
            self.apply(seat, order, Source::Default)?;
        }
        Ok(self.narrate_since(start, Lang::En))
    }

    fn bot_rng(&self, seat: Seat) -> BotRng {
        BotRng::new(&format!(
            "{}/{}/{}/{}",
            self.dice.game_id,
            self.history_len(),
            seat,
            self.dice.secret_commitment().hex()
        ))
    }

    /// The order a bot would play for `seat` now.
    pub fn bot_order(&self, seat: Seat) -> R::Order {
        self.state.bot_order(seat, &mut self.bot_rng(seat))
    }

    /// The order lines a bot would send in one mail: its orders while `seat` is the only
    /// seat the game waits for (worked out on a copy, whose dice are the real ones, so the
    /// lines stay legal when the judge applies them), at most `max_lines`.
    pub fn bot_turn(&self, seat: Seat, max_lines: usize) -> Vec<String> {
        let mut scratch = self.clone();
        let mut lines = Vec::new();
        while lines.len() < max_lines.max(1) {
            let waiting: Vec<Seat> = scratch
                .state
                .pending(Lang::En)
                .iter()
                .map(|p| p.seat)
                .collect();
            if !waiting.contains(&seat) || (!lines.is_empty() && waiting.iter().any(|s| *s != seat))
            {
                break;
            }
            let order = scratch.bot_order(seat);
            let text = scratch.state.order_text(&order);
            if scratch.apply(seat, order, Source::Bot).is_err() {
                break;
            }
            lines.push(text);
        }
        lines
    }

    /// Let a bot answer one prompt of `seat`.
    pub fn play_bot(&mut self, seat: Seat) -> Result<Narration, OrderError> {
        let start = self.history_len();
        let order = self.bot_order(seat);
        let text = self.state.order_text(&order);
        self.apply(seat, order, Source::Bot).map_err(|e| {
            OrderError::new(format!(
                "bot order \"{text}\" for seat {seat} refused: {}",
                e.message
            ))
        })?;
        Ok(self.narrate_since(start, Lang::En))
    }

    /// Rebuild the game from its seed and history and compare: the `verify` command.
    pub fn replay(&self) -> Result<Table<R>, String> {
        self.whole()?;
        let mut t = Table::<R>::new(
            &self.dice.game_id,
            self.dice_master(),
            self.players.clone(),
            self.options.clone(),
        )
        .map_err(|e| e.message)?;
        for (i, e) in self.history.iter().enumerate().skip(1) {
            let (Some(seat), Some(order), Some(src)) = (e.seat, e.order.clone(), e.source) else {
                return Err(format!("history entry {i} has no order"));
            };
            let got = t
                .apply(seat, order, src)
                .map_err(|er| format!("history entry {i}: {}", er.message))?;
            if got.rolls != e.rolls {
                return Err(format!("history entry {i}: dice differ on replay"));
            }
        }
        let mut a = serde_json::to_value(&t.state).map_err(|e| e.to_string())?;
        let mut b = serde_json::to_value(&self.state).map_err(|e| e.to_string())?;
        // Wording is not state: a game saved before a phrase was translated (no `*_fr`
        // field) must still verify against its replay (which has it).
        strip_wording(&mut a);
        strip_wording(&mut b);
        for v in [&mut a, &mut b] {
            if let Some(m) = v.as_object_mut() {
                m.retain(|k, _| !R::PICTURE_ONLY.contains(&k.as_str()));
            }
        }
        if a != b {
            return Err("final state differs on replay".into());
        }
        Ok(t)
    }

    /// The game as it stood at the end of dice turn `turn`: setup and every history entry
    /// of a turn up to `turn`, replayed from the seed.
    pub fn replay_to(&self, turn: u32) -> Result<Table<R>, String> {
        self.whole()?;
        let mut t = Table::<R>::new(
            &self.dice.game_id,
            self.dice_master(),
            self.players.clone(),
            self.options.clone(),
        )
        .map_err(|e| e.message)?;
        for (i, e) in self.history.iter().enumerate().skip(1) {
            if e.turn > turn {
                break;
            }
            let (Some(seat), Some(order), Some(src)) = (e.seat, e.order.clone(), e.source) else {
                return Err(format!("history entry {i} has no order"));
            };
            t.apply(seat, order, src)
                .map_err(|er| format!("history entry {i}: {}", er.message))?;
        }
        Ok(t)
    }

    /// Err unless the whole history is in hand (replays start from the setup).
    fn whole(&self) -> Result<(), String> {
        if self.base == 0 {
            Ok(())
        } else {
            Err(format!(
                "only history entries {}.. are loaded; a replay needs them all",
                self.base
            ))
        }
    }

    fn dice_master(&self) -> Secret {
        self.dice.master_secret()
    }
}

/// Remove the translations (`*_fr` fields) from a stored state: what the rules decide
/// never depends on them.
fn strip_wording(v: &mut serde_json::Value) {
    match v {
        serde_json::Value::Object(m) => {
            m.retain(|k, _| !k.ends_with("_fr"));
            m.values_mut().for_each(strip_wording);
        }
        serde_json::Value::Array(a) => a.iter_mut().for_each(strip_wording),
        _ => {}
    }
}

/// The object-safe face of a [`Table`], used by the judge for any game.
pub trait Session: Send {
    fn game(&self) -> &str;
    fn game_id(&self) -> &str;
    fn players(&self) -> &[String];
    fn turn(&self) -> u32;
    /// Who must answer what now, worded in `lang`.
    fn pending(&self, lang: Lang) -> Vec<Prompt>;
    /// Seats the game waits for, without repeats, in seat order.
    fn awaiting(&self) -> Vec<Seat> {
        let mut s: Vec<Seat> = self.pending(Lang::En).iter().map(|p| p.seat).collect();
        s.sort_unstable();
        s.dedup();
        s
    }
    fn submit(&mut self, seat: Seat, text: &str, lang: Lang) -> Result<Narration, Refused>;
    fn check(&self, seat: Seat, text: &str, lang: Lang) -> Vec<LineCheck>;
    fn play_default(&mut self, seat: Seat) -> Result<Narration, String>;
    fn play_bot(&mut self, seat: Seat) -> Result<Narration, String>;
    /// The order line a bot would send for `seat` now.
    fn bot_text(&self, seat: Seat) -> String;
    /// The lines a bot would send in one mail for `seat` (see [`Table::bot_turn`]).
    fn bot_turn(&self, seat: Seat, max_lines: usize) -> Vec<String>;
    fn public_view(&self, lang: Lang) -> String;
    fn private_view(&self, seat: Seat, lang: Lang) -> String;
    /// The board as an SVG picture (see [`Rules::picture`]).
    fn picture(&self, viewer: Viewer, lang: Lang) -> Option<String>;
    /// See [`Rules::picture_shows_secrets`].
    fn picture_shows_secrets(&self, seat: Seat) -> bool;
    /// The board around one territory (see [`Rules::neighbours`]).
    fn neighbours(&self, name: &str, lang: Lang) -> Option<Result<String, OrderError>>;
    /// The game as it stood at the end of dice turn `turn` (replayed from its seed and
    /// history; the whole game if `turn` is past its end): `castellan render --turn N`.
    fn at_turn(&self, turn: u32) -> Result<Box<dyn Session>, String>;
    fn outcome(&self) -> Option<Outcome>;

    /// Each seat's score, for a game that keeps one (Risk: territories held); campaigns
    /// scored by "each game's own score" use it (issue 15). `None`: no score.
    fn scores(&self) -> Option<Vec<i64>> {
        None
    }
    fn order_help(&self, lang: Lang) -> String;
    /// The kinds of prompt this game raises.
    fn prompt_kinds(&self) -> &'static [PromptKind];
    fn dice(&mut self) -> &mut DiceBox;
    fn history_len(&self) -> usize;
    /// The first history entry in hand (0: the whole history; see [`Table::base`]).
    fn history_base(&self) -> usize;
    /// Narration of history entries from `from` on (HISTORY, reports), in `lang`.
    fn narrate_since(&self, from: usize, lang: Lang) -> Narration;
    /// Dice turn of each history entry in hand (from [`Session::history_base`]).
    fn entry_turns(&self) -> Vec<u32>;
    /// Replay from seed and history; Err says where it diverged.
    fn verify(&self) -> Result<(), String>;
    fn to_json(&self) -> Result<serde_json::Value, String>;
}

impl<R: Rules> Session for Table<R> {
    fn game(&self) -> &str {
        R::GAME
    }
    fn game_id(&self) -> &str {
        &self.dice.game_id
    }
    fn players(&self) -> &[String] {
        &self.players
    }
    fn turn(&self) -> u32 {
        self.state.turn()
    }
    fn pending(&self, lang: Lang) -> Vec<Prompt> {
        self.state.pending(lang)
    }
    fn submit(&mut self, seat: Seat, text: &str, lang: Lang) -> Result<Narration, Refused> {
        Table::submit(self, seat, text, lang)
    }
    fn check(&self, seat: Seat, text: &str, lang: Lang) -> Vec<LineCheck> {
        Table::check(self, seat, text, lang)
    }
    fn play_default(&mut self, seat: Seat) -> Result<Narration, String> {
        Table::play_default(self, seat).map_err(|e| e.message)
    }
    fn play_bot(&mut self, seat: Seat) -> Result<Narration, String> {
        Table::play_bot(self, seat).map_err(|e| e.message)
    }
    fn bot_text(&self, seat: Seat) -> String {
        self.state.order_text(&self.bot_order(seat))
    }
    fn bot_turn(&self, seat: Seat, max_lines: usize) -> Vec<String> {
        Table::bot_turn(self, seat, max_lines)
    }
    fn public_view(&self, lang: Lang) -> String {
        self.state.public_view(lang)
    }
    fn private_view(&self, seat: Seat, lang: Lang) -> String {
        self.state.private_view(seat, lang)
    }
    fn picture(&self, viewer: Viewer, lang: Lang) -> Option<String> {
        let svg = self.state.picture(viewer, lang)?;
        Some(crate::svg::stamp(&svg, viewer))
    }
    fn picture_shows_secrets(&self, seat: Seat) -> bool {
        self.state.picture_shows_secrets(seat)
    }
    fn neighbours(&self, name: &str, lang: Lang) -> Option<Result<String, OrderError>> {
        self.state.neighbours(name, lang)
    }
    fn at_turn(&self, turn: u32) -> Result<Box<dyn Session>, String> {
        Ok(Box::new(self.replay_to(turn)?))
    }
    fn outcome(&self) -> Option<Outcome> {
        self.state.outcome()
    }
    fn scores(&self) -> Option<Vec<i64>> {
        self.state.scores()
    }
    fn order_help(&self, lang: Lang) -> String {
        R::order_help(lang)
    }
    fn prompt_kinds(&self) -> &'static [PromptKind] {
        R::PROMPT_KINDS
    }
    fn dice(&mut self) -> &mut DiceBox {
        &mut self.dice
    }
    fn history_len(&self) -> usize {
        Table::history_len(self)
    }
    fn history_base(&self) -> usize {
        self.base
    }
    fn narrate_since(&self, from: usize, lang: Lang) -> Narration {
        Table::narrate_since(self, from, lang)
    }
    fn entry_turns(&self) -> Vec<u32> {
        self.history.iter().map(|e| e.turn).collect()
    }
    fn verify(&self) -> Result<(), String> {
        self.replay().map(|_| ())
    }
    fn to_json(&self) -> Result<serde_json::Value, String> {
        serde_json::to_value(self).map_err(|e| e.to_string())
    }
}

/// Load a stored table of game `R` (the judge's registry calls this per game name).
pub fn load_table<R: Rules>(json: serde_json::Value) -> Result<Box<dyn Session>, String> {
    let t: Table<R> = serde_json::from_value(json).map_err(|e| e.to_string())?;
    if t.version != TABLE_VERSION || t.state_version != R::STATE_VERSION {
        return Err(format!(
            "stored {} game has version {}/{}, this build reads {}/{}",
            R::GAME,
            t.version,
            t.state_version,
            TABLE_VERSION,
            R::STATE_VERSION
        ));
    }
    Ok(Box::new(t))
}

/// Result of one bot-played game.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct PlayedGame {
    pub outcome: Option<Outcome>,
    /// The game's own turn counter at the end.
    pub turns: u32,
    pub orders: usize,
    /// True if the order cap stopped the game (reported, never silent).
    pub capped: bool,
}

/// Let bots play a whole game; `max_orders` caps runaway games (reported as `capped`).
/// Err means a bot order was refused or the game stalled: a bug to report.
pub fn play_out<R: Rules>(table: &mut Table<R>, max_orders: usize) -> Result<PlayedGame, String> {
    let mut orders = 0;
    while table.state.outcome().is_none() {
        if orders >= max_orders {
            return Ok(PlayedGame {
                outcome: None,
                turns: table.state.turn(),
                orders,
                capped: true,
            });
        }
        let pending = table.state.pending(Lang::En);
        let Some(p) = pending.first() else {
            return Err(format!(
                "game stalled at order {orders}: no prompt and no outcome"
            ));
        };
        let seat = p.seat;
        let order = table.bot_order(seat);
        let text = table.state.order_text(&order);
        if let Err(e) = table.apply(seat, order, Source::Bot) {
            return Err(format!(
                "bot order \"{text}\" (seat {seat}, prompt {}) refused: {} ",
                p.kind, e.message
            ));
        }
        orders += 1;
    }
    Ok(PlayedGame {
        outcome: table.state.outcome(),
        turns: table.state.turn(),
        orders,
        capped: false,
    })
}

/// `key=value` game options as written on the command line or in a CREATE mail.
pub type OptionPairs = [(String, String)];
/// Creates a game: id, master secret, player names, options.
pub type CreateFn = fn(&str, Secret, Vec<String>, &OptionPairs) -> Result<Box<dyn Session>, String>;
/// Bots play one whole game: (game id, master, seats, options, order cap, replay?) ->
/// (result, replayed identically from its seed; false when not asked).
pub type SimulateFn =
    fn(&str, Secret, usize, &OptionPairs, usize, bool) -> Result<(PlayedGame, bool), String>;

/// What the judge and the command line need to know about one game, without knowing its
/// types: build one with [`game_info`] for each game and hand the list to the judge.
#[derive(Clone, Copy)]
pub struct GameInfo {
    pub name: &'static str,
    pub min_seats: usize,
    pub max_seats: usize,
    /// Create a game: id, master secret, player names, `key=value` options.
    pub create: CreateFn,
    /// Load a stored game (the JSON of [`Session::to_json`]).
    pub load: fn(serde_json::Value) -> Result<Box<dyn Session>, String>,
    /// The order language's help text, in a language.
    pub help: fn(Lang) -> String,
    /// Every kind of prompt the game raises (deadlines per kind are checked against it).
    pub prompt_kinds: &'static [PromptKind],
    /// Bots play one whole game: (game id, master, seats, options, order cap) ->
    /// (result, replayed identically from its seed).
    pub simulate: SimulateFn,
    /// The options this game accepts with their defaults, as JSON.
    pub options: fn() -> serde_json::Value,
}

fn create_table<R: Rules>(
    id: &str,
    master: Secret,
    players: Vec<String>,
    options: &[(String, String)],
) -> Result<Box<dyn Session>, String> {
    let o: R::Options = options_from_pairs(options)?;
    Table::<R>::new(id, master, players, o)
        .map(|t| Box::new(t) as Box<dyn Session>)
        .map_err(|e| e.message)
}

fn simulate_table<R: Rules>(
    id: &str,
    master: Secret,
    seats: usize,
    options: &[(String, String)],
    cap: usize,
    replay: bool,
) -> Result<(PlayedGame, bool), String> {
    let o: R::Options = options_from_pairs(options)?;
    let players = (1..=seats).map(|i| format!("Bot {i}")).collect();
    let mut t = Table::<R>::new(id, master, players, o).map_err(|e| e.message)?;
    let played = play_out(&mut t, cap)?;
    let replayed = replay && t.replay().is_ok();
    Ok((played, replayed))
}

/// The [`GameInfo`] of game `R`.
pub fn game_info<R: Rules>() -> GameInfo {
    GameInfo {
        name: R::GAME,
        min_seats: *R::seat_range().start(),
        max_seats: *R::seat_range().end(),
        create: create_table::<R>,
        load: load_table::<R>,
        help: R::order_help,
        prompt_kinds: R::PROMPT_KINDS,
        simulate: simulate_table::<R>,
        options: || serde_json::to_value(R::Options::default()).unwrap_or_default(),
    }
}
