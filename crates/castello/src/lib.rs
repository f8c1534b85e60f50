//! Castello (Carl Renström, BRIO/Alga): a two-player game on a 21 × 15 board. Each side
//! moves one pawn a turn (a step in 8 directions, two squares on its first move, or chained
//! jumps over pawns that capture the enemy ones jumped, at most five); castles fall when
//! three of their four orthogonal neighbours hold the capturer's pawns. Four castles or 28
//! enemy pawns win.
//!
//! Rules: the French rules text (the seed `docs/rules/castello.md` quotes); decisions in
//! `docs/rules/castello.md`; order language in `docs/orders/castello.md`. The starting
//! position is the published one, `data/board.yaml`.
//!
//! There is no hidden information and no die in this game: who moves first is an option
//! (`first: red|black|random`, random uses one public draw at setup).
//!
//! * [`game`]: the state ([`Castello`], the two [`Side`]s), setting up, playing, and older
//!   saves read on load.
//! * [`moves`]: move generation and why a written move is not legal; [`geom`]: squares;
//!   [`layout`]: the published start (data/board.yaml).
//! * [`orders`]: the order language and its help; [`prompts`]: what the game asks.
//! * [`narrate`], [`view`]: what happened and the views; [`words`]: the game's words in
//!   English and French, and how a game ends ([`End`]).
//! * [`picture`]: the board as SVG; [`bot`]: the house bot.

pub mod bot;
pub mod game;
pub mod geom;
pub mod layout;
pub mod moves;
pub mod narrate;
pub mod orders;
pub mod picture;
pub mod prompts;
pub mod view;
pub mod words;

pub use game::{
    Castello, Castle, Cell, Event, First, LastMove, Options, Side, BLACK, CASTLES_TO_WIN,
    PAWNS_TO_WIN, RED,
};
pub use geom::{sq, Sq};
pub use moves::{Kind, Move, MAX_CAPTURES};
pub use orders::Order;
pub use prompts::Ask;
use prompts::Prompt;
pub use words::{colour, End};

use castellan_engine::{BotRng, DiceBox, Lang, OrderError, Outcome, Rules, Seat, Viewer};

impl Rules for Castello {
    type Options = Options;
    type Order = Order;
    type Event = Event;
    type Ask = Ask;
    const GAME: &'static str = "castello";
    const STATE_VERSION: u32 = 1;
    const PICTURE_ONLY: &'static [&'static str] = &["last_path", "last_captured"];
    const ROLLS_DICE: bool = false;
    const DRAWS_HIDDEN: bool = false;

    fn seat_range() -> std::ops::RangeInclusive<usize> {
        2..=2
    }

    fn setup(
        players: &[String],
        options: &Options,
        dice: &mut DiceBox,
    ) -> Result<(Self, Vec<Event>), OrderError> {
        Castello::start(players, options, dice)
    }

    fn turn(&self) -> u32 {
        self.ply() + 1
    }

    fn pending(&self, lang: Lang) -> Vec<Prompt> {
        self.prompts(lang)
    }

    fn parse(&self, seat: Seat, line: &str) -> Result<Order, OrderError> {
        self.parse_order(seat, line)
    }

    fn reads_as_french(line: &str) -> bool {
        orders::reads_as_french(line)
    }

    fn apply(
        &mut self,
        seat: Seat,
        order: &Order,
        _dice: &mut DiceBox,
    ) -> Result<Vec<Event>, OrderError> {
        self.apply_order(seat, order)
    }

    fn default_order(&self, _prompt: &Prompt) -> Order {
        self.default_move()
    }

    fn bot_order(&self, seat: Seat, rng: &mut BotRng) -> Order {
        match Side::of_seat(seat) {
            Some(side) => bot::choose(self, side, rng),
            None => Order::Resign,
        }
    }

    fn order_text(&self, order: &Order) -> String {
        self.order_text_in(order, Lang::En)
    }

    fn narrate(&self, event: &Event, _viewer: Viewer, lang: Lang) -> Option<String> {
        // Nothing in Castello is hidden: every viewer reads the same line.
        Some(self.narrate_in(event, lang))
    }

    fn public_view(&self, lang: Lang) -> String {
        self.public_view_in(lang)
    }

    fn private_view(&self, seat: Seat, lang: Lang) -> String {
        self.private_view_in(seat, lang)
    }

    // No `eliminated`: a Castello game ends when one side is beaten, so nobody is put out
    // while it goes on; the default (none) holds.
    fn outcome(&self) -> Option<Outcome> {
        self.result()
            .map(|end| Outcome::new(end.winners(), end.text(Lang::En)).fr(end.text(Lang::Fr)))
    }

    fn order_help(lang: Lang) -> String {
        orders::order_help(lang)
    }

    fn picture(&self, viewer: Viewer, lang: Lang) -> Option<String> {
        Some(self.picture_in(viewer, lang))
    }

    /// Castello has no secrets: every seat sees the public board.
    fn picture_shows_secrets(&self, _seat: Seat) -> bool {
        false
    }
}
