//! Classic Risk (Hasbro Canada 1992 rules, seed 003) and its official variants, on the
//! shared Castellan engine.
//!
//! * [`map`]: the 42-territory board from `data/board.yaml`, card symbols, French names.
//! * [`cards`]: sets and their values.
//! * `game`: the state machine (setup, turns, battles, fortify, elimination, victory).
//! * `orders`: the order language (see docs/orders/risk.md).
//! * `view`: narration, the text world map, the private view.
//! * [`picture`]: the world map as an SVG picture (the HTML part of a report).
//! * [`shape`]: the board's shape in words: each territory's neighbours and holders.
//! * `bot`: a sensible bot.
//!
//! Rules decisions where the text is unclear are in docs/rules/risk.md.

pub mod cards;
pub mod map;

mod bot;
mod game;
mod orders;
pub mod picture;
mod say;
pub mod shape;

/// An order line in a reader's language (French order words and names for [`Lang::Fr`]);
/// it parses back to the same order. The canonical line is [`Rules::order_text`].
pub use orders::text_in as order_text_in;
mod view;

use cards::{Card, CardRef};
use castellan_engine::assault::AttackPlan;
use castellan_engine::board::TerritoryId;
use castellan_engine::{
    BotRng, DiceBox, Lang, OrderError, Outcome, Prompt, PromptKind, Rules, Seat, Secret, Viewer,
};
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

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum Event {
    FirstPlayer {
        seat: Seat,
    },
    Claimed {
        seat: Seat,
        t: TerritoryId,
    },
    Ranked {
        seat: Seat,
        list: Vec<TerritoryId>,
    },
    Allotted {
        /// (owner, territory) in the order given.
        picks: Vec<(Owner, TerritoryId)>,
        how: String,
    },
    Placed {
        seat: Seat,
        own: Placements,
        neutral: Placements,
    },
    BlindSent {
        seat: Seat,
        own: Placements,
        neutral: Placements,
    },
    BlindRevealed {
        all: Vec<(Seat, Placements, Placements)>,
    },
    HqCommitted {
        seat: Seat,
        t: TerritoryId,
        commitment: String,
    },
    HqRevealed {
        all: Vec<(Seat, TerritoryId, Secret)>,
    },
    TurnBegins {
        seat: Seat,
        round: u32,
        territories: u32,
        base: u32,
        continents: Vec<usize>,
        total: u32,
    },
    Traded {
        seat: Seat,
        cards: Vec<Card>,
        value: u32,
        bonus_on: Option<TerritoryId>,
    },
    ArmiesLost {
        seat: Seat,
        armies: u32,
    },
    AwaitDefence {
        responder: Seat,
        from: TerritoryId,
        to: TerritoryId,
    },
    Battle {
        seat: Seat,
        from: TerritoryId,
        to: TerritoryId,
        attack: Vec<u8>,
        defence: Vec<u8>,
        attacker_losses: u32,
        defender_losses: u32,
        /// (card shown, die before, die after)
        reroll: Option<(Card, u8, u8)>,
        /// die turned to 6
        commander: Option<u8>,
    },
    Conquered {
        seat: Seat,
        from: TerritoryId,
        to: TerritoryId,
        moved: u32,
    },
    HqTaken {
        seat: Seat,
        of: Seat,
        t: TerritoryId,
    },
    Eliminated {
        victim: Seat,
        by: Seat,
        cards: Vec<Card>,
    },
    MustTrade {
        seat: Seat,
        cards: usize,
    },
    Drew {
        seat: Seat,
        card: Card,
    },
    Fortified {
        seat: Seat,
        from: TerritoryId,
        to: TerritoryId,
        armies: u32,
    },
    TurnEnds {
        seat: Seat,
    },
    StandingSet {
        seat: Seat,
        neutral: bool,
        policy: Policy,
    },
    Extended {
        round: u32,
        tied: Vec<Seat>,
    },
    Won {
        winners: Vec<Seat>,
        reason: String,
    },
}

/// The game state.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Risk {
    pub players: Vec<String>,
    pub opts: Options,
    pub phase: Phase,
    pub owner: Vec<Owner>,
    pub armies: Vec<u32>,
    /// Seat to move (claim, placement, play).
    pub to_move: Seat,
    /// First to claim: first to play.
    pub first: Seat,
    pub dice_turn: u32,
    /// Game rounds started (1 = everyone's first turn).
    pub round: u32,
    /// Round at whose end a turn limit is checked (grows by one on a tie).
    pub limit_round: u32,
    pub hands: Vec<Vec<Card>>,
    pub deck: Vec<Card>,
    pub discard: Vec<Card>,
    pub sets_traded: u32,
    pub to_place: Vec<u32>,
    pub neutral_to_place: Vec<u32>,
    pub stand_defend: Vec<Policy>,
    pub stand_neutral: Vec<Policy>,
    pub ranks: Vec<Option<Vec<TerritoryId>>>,
    pub blind: Vec<Option<(Placements, Placements)>>,
    /// Secret headquarters (hidden until `hq_revealed`).
    pub hq: Vec<Option<TerritoryId>>,
    pub hq_salt: Vec<Option<Secret>>,
    pub hq_commit: Vec<Option<String>>,
    pub hq_revealed: bool,
    /// Who holds each seat's headquarters card (it passes to a captor; never in sets).
    pub hq_card_holder: Vec<Seat>,
    pub eliminated: Vec<bool>,
    pub turn_state: TurnState,
    pub battle: Option<Battle>,
    pub outcome: Option<Outcome>,
}

impl Rules for Risk {
    const PROMPT_KINDS: &'static [PromptKind] = &[
        PromptKind::Claim,
        PromptKind::Draft,
        PromptKind::Place,
        PromptKind::Headquarters,
        PromptKind::Turn,
        PromptKind::Defend,
        PromptKind::DefendNeutral,
    ];
    type Options = Options;
    type Order = Order;
    type Event = Event;
    const GAME: &'static str = "risk";
    const STATE_VERSION: u32 = 1;

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
        view::narrate(self, event, viewer, lang)
    }

    fn continues_run(&self, run: &[&Event], next: &Event) -> bool {
        view::same_attack(run, next)
    }

    fn narrate_run(&self, run: &[&Event], _viewer: Viewer, lang: Lang) -> Option<String> {
        view::narrate_attack(self, run, lang)
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
        (0..self.n()).filter(|&s| self.eliminated[s]).collect()
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
                    let armies: i64 = (0..self.owner.len())
                        .filter(|&t| self.owner[t] == Owner::Seat(s))
                        .map(|t| i64::from(self.armies[t]))
                        .sum();
                    vec![self.count_owned(s) as i64, armies]
                })
                .collect(),
        )
    }

    fn outcome(&self) -> Option<Outcome> {
        // games stored before the French wording get it here
        self.outcome.clone().map(|o| match o.reason_fr {
            Some(_) => o,
            None => {
                let fr = view::reason_fr(&o.reason);
                o.fr(fr)
            }
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
        !self.hq_revealed && self.hq.get(seat).copied().flatten().is_some()
    }

    fn neighbours(&self, name: &str, lang: Lang) -> Option<Result<String, OrderError>> {
        Some(orders::territory_named(name).map(|t| shape::neighbours_text(self, t, lang)))
    }
}
