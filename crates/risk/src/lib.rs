//! Classic Risk (Hasbro Canada 1992 rules, seed 003) and its official variants, on the
//! shared Castellan engine.
//!
//! * [`map`]: the 42-territory board from `data/board.yaml`, card symbols, French names.
//! * [`cards`]: sets and their values.
//! * `event`: what happens, as typed facts (words only in `narrate` and `view`).
//! * `game`: the state machine (setup, turns, battles, fortify, elimination, victory), its
//!   checks, and older stored states converted on load.
//! * `orders`: the order language (see docs/orders/risk.md).
//! * `narrate`: what happened, told in English and French from the typed events.
//! * `view`: the prompts, the text world map, the private view.
//! * `words`: the game's own words (armies, French articles, name errors).
//! * [`picture`]: the world map as an SVG picture (the HTML part of a report).
//! * [`shape`]: the board's shape in words: each territory's neighbours and holders.
//! * `bot`: a sensible bot.
//!
//! Rules decisions where the text is unclear are in docs/rules/risk.md.

pub mod cards;
pub mod map;

mod bot;
mod event;
mod game;
mod narrate;
mod orders;
pub mod picture;
mod prompts;
pub mod shape;
mod words;

/// An order line in a reader's language (French order words and names for [`Lang::Fr`]);
/// it parses back to the same order. The canonical line is [`Rules::order_text`].
pub use orders::text_in as order_text_in;
mod view;

use cards::{Card, CardRef};
use castellan_engine::assault::AttackPlan;
use castellan_engine::board::TerritoryId;
use castellan_engine::{BotRng, DiceBox, Lang, OrderError, Outcome, Rules, Seat, Secret, Viewer};
pub use event::{Allotment, Event, WinReason};
pub use prompts::Ask;
use prompts::Prompt;
use serde::{Deserialize, Serialize};

/// How territories are claimed at the start (3–6 players; the 2-player game always deals).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(rename_all = "snake_case")]
pub enum Claim {
    /// As the text: in turn, one army on a free territory (`CLAIM Alaska`).
    #[default]
    Table,
    /// Each player sends a ranked list at once (`RANK ...`); the judge drafts round-robin.
    Draft,
    /// The territories are dealt round-robin with public dice.
    Random,
}

/// How the remaining starting armies are placed.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(rename_all = "snake_case")]
pub enum Placement {
    /// In turn, `place_per_turn` armies at a time (2 own + 1 neutral in the 2-player game).
    #[default]
    Rounds,
    /// Everyone sends all their placements at once; revealed together.
    Blind,
}

/// The short game with secret headquarters.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(rename_all = "snake_case")]
pub enum Headquarters {
    #[default]
    None,
    /// Win by holding every opponent's headquarters and one's own.
    All,
    /// Shorter still: 2 headquarters with 4 players, 3 with 5–6 (all opponents' below 4).
    Quick,
}

/// Game options (`--option key=value`); every variant of the rules text.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct Options {
    pub claim: Claim,
    pub placement: Placement,
    /// Armies each player places per placement turn (rounds placement, 3–6 players).
    pub place_per_turn: u32,
    /// Set values rise by one (4, 5, 6, ...).
    pub rising_sets: bool,
    /// Fortify any number of times along chains of one's own territories.
    pub free_fortify: bool,
    /// At most this many armies on a territory (the optional rule says 12); 0 = no limit.
    pub max_armies_per_territory: u32,
    /// Attacker may re-roll one die per battle with a card showing either territory.
    pub reroll: bool,
    /// Once a turn the attacker may turn one of his dice to 6.
    pub commander: bool,
    pub headquarters: Headquarters,
    /// End after this many rounds: most territories wins, a tie plays one more round. 0 = none.
    pub turn_limit: u32,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            claim: Claim::Table,
            placement: Placement::Rounds,
            place_per_turn: 1,
            rising_sets: false,
            free_fortify: false,
            max_armies_per_territory: 0,
            reroll: false,
            commander: false,
            headquarters: Headquarters::None,
            turn_limit: 0,
        }
    }
}

/// Who holds a territory.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Owner {
    Nobody,
    Seat(Seat),
    Neutral,
}

/// A standing answer to "how many dice do you defend with?".
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Policy {
    /// This many dice when allowed (fewer when the territory holds fewer armies).
    Dice(u32),
    /// Pause the attack and ask.
    Ask,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Phase {
    Claim,
    Draft,
    Place,
    BlindPlace,
    Headquarters,
    Play,
    Over,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Stage {
    /// Trade sets and place reinforcements.
    Reinforce,
    Attack,
    /// Free-fortify option: moving; only FORTIFY and END.
    Fortify,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct TurnState {
    pub stage: Stage,
    /// Armies still to place.
    pub reinforcements: u32,
    /// The +2 for a traded card's territory was given this turn.
    pub bonus_given: bool,
    pub conquered: bool,
    pub commander_used: bool,
}

/// An attack waiting for its defender's dice.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Battle {
    pub from: TerritoryId,
    pub to: TerritoryId,
    pub plan: AttackPlan,
    pub reroll: bool,
    pub commander: bool,
    pub rolls: u32,
    /// The seat that answers for the defender (the owner, or the opponent for a neutral).
    pub responder: Seat,
}

/// One placement: own armies and (2-player game) neutral armies.
pub type Placements = Vec<(TerritoryId, u32)>;

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum Order {
    Claim(TerritoryId),
    Rank(Vec<TerritoryId>),
    Place {
        own: Placements,
        neutral: Placements,
    },
    Hq(TerritoryId),
    Trade(Vec<CardRef>),
    Attack {
        to: TerritoryId,
        from: TerritoryId,
        plan: AttackPlan,
        reroll: bool,
        commander: bool,
    },
    Defend(u32),
    Fortify {
        from: TerritoryId,
        to: TerritoryId,
        armies: u32,
    },
    End,
    SetDefend(Policy),
    SetNeutral(Policy),
}

/// Version of the stored state. 1: parallel per-seat and per-territory lists, the outcome
/// with its reason in words; 2: a [`Player`] per seat, a [`Territory`] per territory, the
/// result typed ([`Won`]). Version 1 converts as it is read (game/stored.rs).
pub const STATE_VERSION: u32 = 2;

/// One seat: its player and everything the game keeps for it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Player {
    pub name: String,
    pub hand: Vec<Card>,
    /// Starting armies still to place.
    pub to_place: u32,
    /// Neutral armies still to place (the 2-player game).
    pub neutral_to_place: u32,
    /// The standing answer when one of its territories is attacked.
    pub stand_defend: Policy,
    /// The standing answer for a neutral territory it defends (the 2-player game).
    pub stand_neutral: Policy,
    /// Its ranked list, once sent (draft claim).
    pub rank: Option<Vec<TerritoryId>>,
    /// Its placements, once sent and until revealed (blind placement).
    pub blind: Option<(Placements, Placements)>,
    /// Its secret headquarters (hidden until `Risk::hq_revealed`), salt and commitment.
    pub hq: Option<TerritoryId>,
    pub hq_salt: Option<Secret>,
    pub hq_commit: Option<String>,
    /// Who holds this seat's headquarters card (it passes to a captor; never in sets).
    pub hq_card_holder: Seat,
    pub eliminated: bool,
}

/// One territory of the board.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Territory {
    pub owner: Owner,
    pub armies: u32,
}

/// How the game was won: its winners and why.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Won {
    pub winners: Vec<Seat>,
    pub reason: WinReason,
}

/// The game state. Stored as JSON; a state of an older version converts as it is read
/// (game/stored.rs).
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(remote = "Self")]
pub struct Risk {
    /// [`STATE_VERSION`].
    pub version: u32,
    pub opts: Options,
    pub phase: Phase,
    /// One per seat.
    pub players: Vec<Player>,
    /// One per territory.
    pub board: Vec<Territory>,
    /// Seat to move (claim, placement, play).
    pub to_move: Seat,
    /// First to claim: first to play.
    pub first: Seat,
    pub dice_turn: u32,
    /// Game rounds started (1 = everyone's first turn).
    pub round: u32,
    /// Round at whose end a turn limit is checked (grows by one on a tie).
    pub limit_round: u32,
    pub deck: Vec<Card>,
    pub discard: Vec<Card>,
    pub sets_traded: u32,
    pub hq_revealed: bool,
    pub turn_state: TurnState,
    pub battle: Option<Battle>,
    pub won: Option<Won>,
}

impl Rules for Risk {
    type Options = Options;
    type Order = Order;
    type Event = Event;
    type Ask = Ask;
    const GAME: &'static str = "risk";
    const STATE_VERSION: u32 = STATE_VERSION;
    /// The map is an empire (a continent) a paragraph: a report shows those that changed.
    const MAP_IN_PARAGRAPHS: bool = true;
    /// A version-1 state is converted (game/stored.rs).
    const OLDEST_STATE_VERSION: u32 = 1;

    fn upgrade_json(mut table: serde_json::Value) -> serde_json::Value {
        if let Some(state) = table.get_mut("state") {
            game::upgrade_state(state);
        }
        table
    }

    fn seat_range() -> std::ops::RangeInclusive<usize> {
        2..=6
    }

    fn setup(
        players: &[String],
        options: &Options,
        dice: &mut DiceBox,
    ) -> Result<(Self, Vec<Event>), OrderError> {
        game::setup(players, options, dice)
    }

    fn turn(&self) -> u32 {
        self.dice_turn
    }

    fn pending(&self, lang: Lang) -> Vec<Prompt> {
        view::pending(self, lang)
    }

    fn parse(&self, seat: Seat, line: &str) -> Result<Order, OrderError> {
        orders::parse(self, seat, line)
    }

    fn reads_as_french(line: &str) -> bool {
        orders::reads_as_french(line)
    }

    /// Its words and names, and an attack's target (game/validate.rs).
    fn check_past_chance(&self, seat: Seat, line: &str) -> Option<Result<(), OrderError>> {
        Some(orders::parse(self, seat, line).and_then(|o| self.validate_past_chance(seat, &o)))
    }

    fn apply(
        &mut self,
        seat: Seat,
        order: &Order,
        dice: &mut DiceBox,
    ) -> Result<Vec<Event>, OrderError> {
        self.validate(seat, order)?;
        let mut ev = Vec::new();
        self.execute(seat, order, dice, &mut ev);
        Ok(ev)
    }

    fn default_order(&self, prompt: &Prompt) -> Order {
        bot::default_order(self, prompt)
    }

    fn bot_order(&self, seat: Seat, rng: &mut BotRng) -> Order {
        bot::bot_order(self, seat, rng)
    }

    fn order_text(&self, order: &Order) -> String {
        orders::text(order)
    }

    fn narrate(&self, event: &Event, viewer: Viewer, lang: Lang) -> Option<String> {
        narrate::narrate(self, event, viewer, lang)
    }

    fn continues_run(&self, run: &[&Event], next: &Event) -> bool {
        narrate::same_attack(run, next)
    }

    fn narrate_run(&self, run: &[&Event], _viewer: Viewer, lang: Lang) -> Option<String> {
        narrate::narrate_attack(self, run, lang)
    }

    fn narrate_to(&self, run: &[&Event], seat: Seat, lang: Lang) -> Option<String> {
        narrate::narrate_to(self, run, seat, lang)
    }

    fn rolls_told(&self, events: &[Event], rolls: &[castellan_engine::Roll]) -> bool {
        narrate::rolls_told(events, rolls)
    }

    fn public_view(&self, lang: Lang) -> String {
        view::public_view(self, lang)
    }

    fn private_view(&self, seat: Seat, lang: Lang) -> String {
        view::private_view(self, seat, lang)
    }

    /// Territories held: the tournament's "le joueur le plus puissant (celui qui occupe le
    /// plus de territoires)" and a campaign's game score.
    fn scores(&self) -> Option<Vec<i64>> {
        Some((0..self.n()).map(|s| self.count_owned(s) as i64).collect())
    }

    /// A player who loses their last territory is out of the game.
    fn eliminated(&self) -> Vec<Seat> {
        (0..self.n())
            .filter(|&s| self.players[s].eliminated)
            .collect()
    }

    fn eliminates(event: &Event) -> Option<(Seat, Option<Seat>)> {
        match event {
            Event::Eliminated { victim, by, .. } => Some((*victim, Some(*by))),
            _ => None,
        }
    }

    /// Territories held, then armies on the board (docs/rules/risk.md, "Placings").
    fn measure(&self) -> Option<Vec<Vec<i64>>> {
        Some(
            (0..self.n())
                .map(|s| {
                    let armies: i64 = self
                        .board
                        .iter()
                        .filter(|t| t.owner == Owner::Seat(s))
                        .map(|t| i64::from(t.armies))
                        .sum();
                    vec![self.count_owned(s) as i64, armies]
                })
                .collect(),
        )
    }

    fn outcome(&self) -> Option<Outcome> {
        self.won.as_ref().map(|w| {
            Outcome::new(w.winners.clone(), narrate::reason(w.reason, Lang::En))
                .fr(narrate::reason(w.reason, Lang::Fr))
        })
    }

    fn order_help(lang: Lang) -> String {
        orders::help(lang)
    }

    fn picture(&self, viewer: Viewer, lang: Lang) -> Option<String> {
        Some(picture::picture(self, viewer, lang))
    }

    /// A seat's picture marks its headquarters while they are secret, and nothing else.
    fn picture_shows_secrets(&self, seat: Seat) -> bool {
        !self.hq_revealed && self.players.get(seat).is_some_and(|p| p.hq.is_some())
    }

    fn neighbours(&self, name: &str, lang: Lang) -> Option<Result<String, OrderError>> {
        Some(orders::territory_named(name).map(|t| shape::neighbours_text(self, t, lang)))
    }

    fn borders(&self, seat: Seat, lang: Lang) -> Option<String> {
        shape::borders_text(self, seat, lang)
    }
}
