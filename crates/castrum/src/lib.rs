//! Castrum: a castle-building card game for 2 to 4 players (rules: seed 002, French).
//!
//! Each player holds 5 hidden cards and owns a building site (chantier). A turn plays 1 or 2
//! cards (or the Roue de Carrier and 3 building cards) or discards 1 to 3, then refills the
//! hand to 5. Materials on a site become walls (1 Structores + 2 Lapides + 3 Rustici) and a
//! tower (1 Structores + 5 Lapides + 6 Rustici); 4 walls and a tower make a castle. Attack
//! cards hit another player's site and are answered out of turn by defence cards; after
//! every full round a die picks an event.
//!
//! * [`cards`]: card types, names, the deck file.
//! * [`game`]: checking and applying orders (all the rules); `prompts.rs`: what the game asks.
//! * `events.rs`: what happens ([`Event`]), typed; `stored.rs`: older saves read into it.
//! * [`orders`]: the order language (English and French keywords) and the help; [`words`]:
//!   the game's own words (card lists and counts).
//! * [`narrate`], [`view`]: what happened and the reports, in English or French.
//! * [`picture`]: the castles as an SVG picture (the HTML part of a report).
//! * [`bot`]: a heuristic player.
//! * [`measure`]: bot games without a table, for the deck measurements.

pub mod bot;
pub mod cards;
mod events;
pub mod game;
pub mod measure;
pub mod narrate;
pub mod orders;
pub mod picture;
mod prompts;
mod stored;
pub mod view;
pub mod words;

pub use cards::{Card, Deck, Material};
pub use events::{End, Event, Finish, Standing};
pub use prompts::Ask;
use prompts::Prompt;

use castellan_engine::words::refusal;
use castellan_engine::{BotRng, DiceBox, Lang, OrderError, Outcome, Rules, Seat, Viewer};
use serde::{Deserialize, Serialize};

/// Rounds after which a classic game that nobody has won is scored like a timed game
/// (a safety net: bots and players can stall; see docs/rules/castrum.md).
pub const CLASSIC_ROUND_LIMIT: u32 = 80;
/// Cards in a full hand.
pub const HAND: usize = 5;
/// Walls and towers in a complete castle (also the wooden pieces each player has).
pub const CASTLE_WALLS: u8 = 4;
pub const CASTLE_TOWERS: u8 = 1;

/// Family rules or the expert variant of Incendie and Sorcière.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Mode {
    #[default]
    Family,
    Expert,
}

/// Classic (first complete castle) or timed (a set number of rounds, then points).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Victory {
    #[default]
    Classic,
    Timed,
}

/// Game options (`mode=expert victory=timed rounds=15`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, rename_all = "snake_case")]
pub struct Options {
    pub mode: Mode,
    pub victory: Victory,
    /// Length of a timed game in full rounds.
    pub rounds: u32,
    /// The rules' revision the game was created under, so a stored game replays as it was
    /// played. 2 (new games): an attack on another player's site and an EXCHANGE count as a
    /// hidden draw, whatever the victim holds, and an EXCHANGE is never refused for what the
    /// pile holds (CHECK and refusals tell nothing of a hand). 1: the plague
    /// halves the Rustici and Structores gathered together. 0 (games stored
    /// before, which lack the key): each kind halved apart.
    #[serde(default = "legacy_revision")]
    pub revision: u32,
    /// Every player's standing answer to attacks at the start (`defend=always|ask|never`).
    /// New games: ALWAYS (defend at once when the right card is in hand, as the deadline's
    /// default would), so an attack does not stop the game for a mail round trip; a player who
    /// wants to choose each time writes SET DEFEND ASK (docs/rules/castrum.md). Games stored
    /// before the key existed started with ASK.
    #[serde(default = "legacy_defend")]
    pub defend: DefendPolicy,
}

fn legacy_defend() -> DefendPolicy {
    DefendPolicy::Ask
}

/// Games stored before `revision` existed were played under revision 0.
fn legacy_revision() -> u32 {
    0
}

/// The revision of the rules new games get.
pub const RULES_REVISION: u32 = 2;

impl Default for Options {
    fn default() -> Options {
        Options {
            mode: Mode::Family,
            victory: Victory::Classic,
            rounds: 20,
            revision: RULES_REVISION,
            defend: DefendPolicy::Always,
        }
    }
}

/// A building piece.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Piece {
    Wall,
    Tower,
}

impl Piece {
    /// (Structores, Lapides, Rustici) needed.
    pub fn cost(self) -> (u32, u32, u32) {
        match self {
            Piece::Wall => (1, 2, 3),
            Piece::Tower => (1, 5, 6),
        }
    }
    pub fn name(self) -> &'static str {
        self.name_in(Lang::En)
    }
    fn names(self) -> &'static cards::PieceNames {
        let key = match self {
            Piece::Wall => "wall",
            Piece::Tower => "tower",
        };
        &cards::names_data().pieces[key]
    }
    /// "wall" / "muraille" (data/names.yaml).
    pub fn name_in(self, lang: Lang) -> &'static str {
        let n = self.names();
        lang.pick(&n.en, &n.fr)
    }
    /// "3 walls", "1 tower", "3 murailles", "0 tour".
    pub fn count_in(self, n: u8, lang: Lang) -> String {
        let p = self.names();
        match lang {
            Lang::En if n == 1 => format!("1 {}", p.en),
            Lang::En => format!("{n} {}", p.plural_en),
            Lang::Fr => castellan_engine::lang::fr::count(n, &p.fr, &p.plural_fr),
        }
    }
}

/// The round event, from the die rolled after every full round.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Happening {
    Famine,
    BadWeather,
    Plague,
    ForTheWorks,
    MonasticReform,
    FeastOfFools,
}

impl Happening {
    pub fn from_die(face: u8) -> Happening {
        match face {
            1 => Happening::Famine,
            2 => Happening::BadWeather,
            3 => Happening::Plague,
            4 => Happening::ForTheWorks,
            5 => Happening::MonasticReform,
            _ => Happening::FeastOfFools,
        }
    }
    /// The key of this event in data/names.yaml.
    pub fn key(self) -> &'static str {
        match self {
            Happening::Famine => "famine",
            Happening::BadWeather => "bad_weather",
            Happening::Plague => "plague",
            Happening::ForTheWorks => "for_the_works",
            Happening::MonasticReform => "monastic_reform",
            Happening::FeastOfFools => "feast_of_fools",
        }
    }
    fn names(self) -> &'static cards::EventNames {
        &cards::names_data().events[self.key()]
    }
    pub fn name(self) -> &'static str {
        self.name_in(Lang::En)
    }
    /// "Plague" / "Peste".
    pub fn name_in(self, lang: Lang) -> &'static str {
        let n = self.names();
        lang.pick(&n.en, &n.fr)
    }
    /// What it does, in one line.
    pub fn effect(self) -> &'static str {
        self.effect_in(Lang::En)
    }
    /// What it does, in one line of `lang`.
    pub fn effect_in(self, lang: Lang) -> &'static str {
        let n = self.names();
        lang.pick(&n.effect_en, &n.effect_fr)
    }
    pub const ALL: [Happening; 6] = [
        Happening::Famine,
        Happening::BadWeather,
        Happening::Plague,
        Happening::ForTheWorks,
        Happening::MonasticReform,
        Happening::FeastOfFools,
    ];
}

/// A player's building site: material cards face up, the castle built so far, and the
/// Mage that blocks it (with its caster), if any.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Site {
    pub cards: Vec<Card>,
    pub walls: u8,
    pub towers: u8,
    pub mage: Option<Seat>,
}

impl Site {
    pub fn units(&self, m: Material) -> u32 {
        self.cards
            .iter()
            .filter_map(|c| c.material())
            .filter(|(mm, _)| *mm == m)
            .map(|(_, u)| u)
            .sum()
    }
    pub fn count(&self, c: Card) -> usize {
        self.cards.iter().filter(|x| **x == c).count()
    }
    pub fn points(&self) -> u32 {
        self.walls as u32 + 4 * self.towers as u32
    }
    pub fn complete(&self) -> bool {
        self.walls >= CASTLE_WALLS && self.towers >= CASTLE_TOWERS
    }
}

/// A standing answer to attacks on one's site.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub enum DefendPolicy {
    /// Ask me each time (the game waits for my answer).
    #[default]
    #[serde(alias = "ask")]
    Ask,
    /// Defend whenever I hold the right card.
    #[serde(alias = "always")]
    Always,
    /// Never defend.
    #[serde(alias = "never")]
    Never,
}

/// An attack card played on a site, waiting for its victim's answer.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Attack {
    pub attacker: Seat,
    pub victim: Seat,
    pub card: Card,
    /// The site card a Sorcière aims at.
    pub aim: Option<Card>,
}

/// What the game waits for.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Phase {
    /// The current player plays.
    Turn,
    /// The victim of an attack answers (DEFEND or ACCEPT).
    Defence(Attack),
    /// "For the works": these seats must each give up one site card.
    Works(Vec<Seat>),
    Over,
}

/// What the current player has done this turn.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct TurnState {
    /// Cards played (the Roue de Carrier counts as one).
    pub played: u8,
    /// The Roue de Carrier opened this turn.
    pub wheel: bool,
    /// An attack card was played this turn.
    pub attacked: bool,
}

/// One order.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Order {
    /// Play a card from the hand: materials and the Roue onto one's own site (`target`
    /// None), attacks onto another player's site; `aim` is the site card a Sorcière hits.
    Play {
        card: Card,
        target: Option<Seat>,
        aim: Option<Card>,
    },
    /// Discard 1 to 3 cards (the whole turn).
    Discard(Vec<Card>),
    Build(Piece),
    /// Exchange an x2 card of one's site for two simple cards from the pile.
    Exchange(Card),
    /// End the turn (refill to 5).
    End,
    /// Answer an attack with the matching defence card.
    Defend,
    /// Let an attack hit.
    Accept,
    /// "For the works": give up this site card.
    Give(Card),
    SetDefend(DefendPolicy),
    /// Standing answer to "for the works": the first of these cards on my site (empty:
    /// ask me).
    SetWorks(Vec<Card>),
}

/// The whole game state. Fields are public so tests can set up positions; the judge
/// never shows it (views come from [`Rules::public_view`] / [`Rules::private_view`]).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Castrum {
    pub players: Vec<String>,
    pub options: Options,
    pub hands: Vec<Vec<Card>>,
    pub sites: Vec<Site>,
    /// The pile: drawn at random from the secret stream at the moment of drawing.
    pub pile: Vec<Card>,
    /// Cards put under the pile, not yet shuffled in (drawn once `pile` is empty).
    pub under: Vec<Card>,
    /// Who started (a round ends when the turn comes back to this seat).
    pub first: Seat,
    pub current: Seat,
    pub round: u32,
    /// The dice turn (one per player turn).
    pub dice_turn: u32,
    pub turn_state: TurnState,
    pub phase: Phase,
    /// The event in force this round (from the die rolled at the end of the last round).
    pub in_force: Option<Happening>,
    pub defend: Vec<DefendPolicy>,
    pub works: Vec<Vec<Card>>,
    pub outcome: Option<Finish>,
}

impl Rules for Castrum {
    type Options = Options;
    type Order = Order;
    type Event = Event;
    type Ask = Ask;
    const GAME: &'static str = "castrum";
    const STATE_VERSION: u32 = 1;

    fn seat_range() -> std::ops::RangeInclusive<usize> {
        2..=4
    }

    fn setup(
        players: &[String],
        options: &Options,
        dice: &mut DiceBox,
    ) -> Result<(Self, Vec<Event>), OrderError> {
        let deck = Deck::standard().map_err(|e| {
            refusal(
                e.clone(),
                format!("le paquet de cartes est illisible ({e})"),
            )
        })?;
        Castrum::with_deck(players, options, &deck, dice)
    }

    fn turn(&self) -> u32 {
        self.dice_turn
    }

    fn pending(&self, lang: Lang) -> Vec<Prompt> {
        self.prompts(lang)
    }

    fn parse(&self, seat: Seat, line: &str) -> Result<Order, OrderError> {
        orders::parse(self, seat, line)
    }

    fn reads_as_french(line: &str) -> bool {
        orders::reads_as_french(line)
    }

    fn apply(
        &mut self,
        seat: Seat,
        order: &Order,
        dice: &mut DiceBox,
    ) -> Result<Vec<Event>, OrderError> {
        self.check(seat, order)?;
        Ok(self.exec(seat, order, dice))
    }

    fn default_order(&self, prompt: &Prompt) -> Order {
        self.default_for(prompt.seat)
    }

    fn bot_order(&self, seat: Seat, rng: &mut BotRng) -> Order {
        bot::choose(self, seat, rng)
    }

    fn order_text(&self, order: &Order) -> String {
        orders::order_text(self, order)
    }

    fn narrate(&self, event: &Event, viewer: Viewer, lang: Lang) -> Option<String> {
        narrate::narrate(self, event, viewer, lang)
    }

    fn public_view(&self, lang: Lang) -> String {
        view::public_view(self, lang)
    }

    fn private_view(&self, seat: Seat, lang: Lang) -> String {
        view::private_view(self, seat, lang)
    }

    /// The points of each seat's site (a wall 1, a tower 4): the final placings after
    /// the winner (docs/rules/castrum.md, "Placings").
    fn measure(&self) -> Option<Vec<Vec<i64>>> {
        Some(
            self.sites
                .iter()
                .map(|s| vec![i64::from(s.points())])
                .collect(),
        )
    }

    // No `eliminated`: nobody is ever put out of a Castrum game (every seat plays to the
    // last round), so the default (none) holds.
    fn outcome(&self) -> Option<Outcome> {
        self.outcome.as_ref().map(|f| {
            let reason = |lang| narrate::end_reason(self, &f.winners, f.end, lang);
            Outcome::new(f.winners.clone(), reason(Lang::En)).fr(reason(Lang::Fr))
        })
    }

    fn order_help(lang: Lang) -> String {
        orders::help(lang)
    }

    fn picture(&self, viewer: Viewer, lang: Lang) -> Option<String> {
        Some(picture::picture(self, viewer, lang))
    }
}
