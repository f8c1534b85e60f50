//! Castle Risk (Parker Brothers 1986/1990) as a pure Castellan engine: castles, hidden
//! armies, six kinds of cards answered in and out of turn, Admiral sea attacks, earnings at
//! the end of the turn and elimination by castle capture. Rules: docs/rules/castle-risk.md;
//! order language: docs/orders/castle-risk.md.
//!
//! * [`map`](mod@map): the board (data/board.yaml) with French and English names and seas.
//! * [`cards`]: the deck of 48.
//! * [`game`]: the state ([`CastleRisk`]: a [`game::Player`] per seat, a [`game::Territory`]
//!   per territory), the dispatch of orders, and the rules by concept in its submodules.
//! * [`orders`]: parsing and writing orders.
//! * [`prompts`]: what the game waits for, in the reader's language.
//! * [`view`]: narration, the text map and the private view.
//! * [`picture`]: the board as an SVG picture (the HTML part of a report).
//! * [`shape`]: the board's shape in words: neighbours, holders, Admiral seas.
//! * [`words`]: names and order words in English and French.
//! * [`bot`]: a bot that plays legal, sensible moves.

// Seat-indexed loops read better than zipped iterators here; `sail` mirrors its order.
#![allow(clippy::needless_range_loop, clippy::too_many_arguments)]

pub mod bot;
pub mod cards;
pub mod game;
pub mod map;
pub mod narrate;
pub mod orders;
pub mod picture;
pub mod prompts;
pub mod shape;
pub mod view;
pub mod words;

pub use cards::Card;
pub use game::{CastleRisk, ClaimMode, Event, Options, Phase, PlacementMode};
pub use orders::Order;
pub use prompts::Ask;

use castellan_engine::{BotRng, DiceBox, Lang, OrderError, Outcome, Prompt, Rules, Seat, Viewer};

impl Rules for CastleRisk {
    type Options = Options;
    type Order = Order;
    type Event = Event;
    type Ask = Ask;
    const GAME: &'static str = "castle-risk";
    const STATE_VERSION: u32 = game::STATE_VERSION;
    const OLDEST_STATE_VERSION: u32 = 1;
    /// The map is an empire (a continent) a paragraph: a report shows those that changed.
    const MAP_IN_PARAGRAPHS: bool = true;

    /// Events versions 1 and 2 stored as sentences become typed data.
    fn upgrade_json(table: serde_json::Value) -> serde_json::Value {
        upgrade_json(table)
    }

    fn seat_range() -> std::ops::RangeInclusive<usize> {
        2..=6
    }

    fn setup(
        players: &[String],
        options: &Options,
        dice: &mut DiceBox,
    ) -> Result<(Self, Vec<Event>), OrderError> {
        CastleRisk::new_game(players, options, dice)
    }

    fn turn(&self) -> u32 {
        self.turn.max(1)
    }

    fn pending(&self, lang: Lang) -> Vec<Prompt<Ask>> {
        self.prompts(lang)
    }

    fn parse(&self, seat: Seat, line: &str) -> Result<Order, OrderError> {
        orders::parse(self, seat, line)
    }

    fn reads_as_french(line: &str) -> bool {
        orders::reads_as_french(line)
    }

    /// Its words and names, and an attack's target (game/battle.rs).
    fn check_past_chance(&self, seat: Seat, line: &str) -> Option<Result<(), OrderError>> {
        Some(orders::parse(self, seat, line).and_then(|o| self.attack_past_chance(seat, &o)))
    }

    fn apply(
        &mut self,
        seat: Seat,
        order: &Order,
        dice: &mut DiceBox,
    ) -> Result<Vec<Event>, OrderError> {
        self.apply_order(seat, order, dice)
    }

    fn default_order(&self, prompt: &Prompt<Ask>) -> Order {
        self.default_for(prompt.seat, prompt.kind)
    }

    fn bot_order(&self, seat: Seat, rng: &mut BotRng) -> Order {
        bot::choose(self, seat, rng)
    }

    fn order_text(&self, order: &Order) -> String {
        orders::order_text(self, order)
    }

    fn narrate(&self, event: &Event, viewer: Viewer, lang: Lang) -> Option<String> {
        view::narrate(self, event, viewer, lang)
    }

    fn continues_run(&self, run: &[&Event], next: &Event) -> bool {
        narrate::same_battle_run(run, next)
    }

    fn narrate_run(&self, run: &[&Event], _viewer: Viewer, lang: Lang) -> Option<String> {
        narrate::battle_run(self, run, lang)
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

    fn outcome(&self) -> Option<Outcome> {
        self.outcome.clone()
    }

    /// Rule 6: a player whose castle is captured is out of the game.
    fn eliminated(&self) -> Vec<Seat> {
        (0..self.players.len())
            .filter(|&s| !self.players[s].alive)
            .collect()
    }

    fn eliminates(event: &Event) -> Option<(Seat, Option<Seat>)> {
        match event {
            Event::Eliminated { seat, by, .. } => Some((*seat, Some(*by))),
            _ => None,
        }
    }

    /// Territories held, then armies on the board (hidden armies not counted): the
    /// measure of a stalemate (docs/rules/castle-risk.md, "Placings").
    fn measure(&self) -> Option<Vec<Vec<i64>>> {
        Some(
            (0..self.players.len())
                .map(|s| {
                    let terr = self.territories_of(s);
                    let armies: i64 = terr.iter().map(|t| i64::from(self.board[*t].armies)).sum();
                    vec![terr.len() as i64, armies]
                })
                .collect(),
        )
    }

    fn order_help(lang: Lang) -> String {
        view::help(lang)
    }

    fn picture(&self, viewer: Viewer, lang: Lang) -> Option<String> {
        Some(picture::picture(self, viewer, lang))
    }

    /// A seat's picture marks its unused hidden armies, and nothing else of its own.
    fn picture_shows_secrets(&self, seat: Seat) -> bool {
        self.players
            .get(seat)
            .is_some_and(|p| p.hidden.iter().any(|h| !h.used))
    }

    fn neighbours(&self, name: &str, lang: Lang) -> Option<Result<String, OrderError>> {
        Some(orders::territory(name).map(|t| shape::neighbours_text(self, t, lang)))
    }

    fn borders(&self, seat: Seat, lang: Lang) -> Option<String> {
        shape::borders_text(self, seat, lang)
    }
}

/// A stored table (the JSON of `Session::to_json`) brought to this build's shapes: a
/// version-1 state and the worded events of versions 1 and 2 (see `game::STATE_VERSION`).
pub fn upgrade_json(mut json: serde_json::Value) -> serde_json::Value {
    if let Some(state) = json.get_mut("state") {
        game::upgrade_state(state);
    }
    game::upgrade_events(&mut json);
    let v = json.get("state_version").and_then(|v| v.as_u64());
    if v.is_some_and(|v| v >= 1 && v < u64::from(game::STATE_VERSION)) {
        json["state_version"] = game::STATE_VERSION.into();
    }
    json
}

/// A stored table, of this build's state version or an older one.
pub fn upgrade_table(
    json: serde_json::Value,
) -> Result<castellan_engine::Table<CastleRisk>, String> {
    serde_json::from_value(upgrade_json(json)).map_err(|e| e.to_string())
}

/// The game for the judge's registry: the engine's `game_info` (older stored states load
/// too: `OLDEST_STATE_VERSION`).
pub fn game_info() -> castellan_engine::GameInfo {
    castellan_engine::game_info::<CastleRisk>()
}
