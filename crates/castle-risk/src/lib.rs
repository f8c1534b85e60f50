//! Castle Risk (Parker Brothers 1986/1990) as a pure Castellan engine: castles, hidden
//! armies, six kinds of cards answered in and out of turn, Admiral sea attacks, earnings at
//! the end of the turn and elimination by castle capture. Rules: docs/rules/castle-risk.md;
//! order language: docs/orders/castle-risk.md.
//!
//! * [`map`](mod@map): the board (data/board.yaml) with French and English names and seas.
//! * [`cards`]: the deck of 48.
//! * [`game`]: the state machine ([`CastleRisk`]) and its rules.
//! * [`orders`]: parsing and writing orders.
//! * [`prompts`]: what the game waits for, in the reader's language.
//! * [`view`]: narration, the text map and the private view.
//! * [`text`]: names and order words in English and French.
//! * [`bot`]: a bot that plays legal, sensible moves.

// Seat-indexed loops read better than zipped iterators here; `sail` mirrors its order.
#![allow(clippy::needless_range_loop, clippy::too_many_arguments)]

pub mod bot;
pub mod cards;
pub mod game;
pub mod map;
pub mod narrate;
pub mod orders;
pub mod prompts;
pub mod text;
pub mod view;

pub use cards::Card;
pub use game::{CastleRisk, ClaimMode, Event, Options, Phase, PlacementMode};
pub use orders::Order;

use castellan_engine::{
    BotRng, DiceBox, Lang, OrderError, Outcome, Prompt, PromptKind, Rules, Seat, Viewer,
};
use game::{Interrupt, OccupyWhat};
use map::map;

impl CastleRisk {
    /// The documented default for a prompt of `kind` for `seat`.
    pub fn default_for(&self, s: Seat, kind: PromptKind) -> Order {
        let m = map();
        let first_own = || {
            self.players[s]
                .castle
                .filter(|c| self.board[*c].owner == Some(s))
                .or_else(|| self.territories_of(s).first().copied())
                .unwrap_or(0)
        };
        match kind {
            PromptKind::Castle => {
                let e = self.players[s].empire;
                let t = m.board.groups[e]
                    .members
                    .iter()
                    .copied()
                    .find(|t| self.board[*t].owner.is_none())
                    .unwrap_or(m.board.groups[e].members[0]);
                Order::Castle(t)
            }
            PromptKind::Claim => {
                let free = self.free_territories();
                let e = self.players[s].empire;
                let t = free
                    .iter()
                    .copied()
                    .find(|t| m.group_of(*t) == e)
                    .or_else(|| free.first().copied())
                    .unwrap_or(0);
                Order::Claim(t)
            }
            PromptKind::Rank => Order::Rank(vec![]),
            PromptKind::Hide => {
                let t = self
                    .territories_of(s)
                    .into_iter()
                    .find(|t| self.castle_owner_at(*t).is_none())
                    .or_else(|| (0..self.board.len()).find(|t| self.castle_owner_at(*t).is_none()))
                    .unwrap_or(0);
                Order::Hide(t)
            }
            PromptKind::Place => {
                let due = match self.phase {
                    Phase::Place { .. } => self.players[s].setup_armies.min(5),
                    Phase::Blind { .. } => self.players[s].setup_armies,
                    _ => self.to_place,
                };
                Order::Place(vec![(first_own(), due.max(1))])
            }
            PromptKind::Defend => {
                let Some(Interrupt::Defend(p)) = &self.interrupt else {
                    return Order::Defend {
                        dice: 2,
                        marshal: false,
                        reveal: false,
                    };
                };
                let d = self.standing_defence(s, p.to);
                Order::Defend {
                    dice: d.dice,
                    marshal: d.marshal
                        && (self.hand_has(s, Card::Marshal)
                            || self.in_play.contains(&(s, Card::Marshal))),
                    reveal: d.reveal,
                }
            }
            PromptKind::CounterSpy => Order::CounterSpy(
                self.players[s]
                    .standing
                    .counterspy
                    .unwrap_or(game::DEFAULT_COUNTERSPY)
                    && self.hand_has(s, Card::Spy),
            ),
            PromptKind::Reoccupy => Order::Occupy(OccupyWhat::All),
            PromptKind::Annex => {
                let Some(Interrupt::Annex { vacated, .. }) = &self.interrupt else {
                    return Order::Occupy(OccupyWhat::Pass);
                };
                let (t, from) = self.default_annex(s, vacated);
                Order::Annex {
                    t,
                    from: Some(from),
                }
            }
            // The turn; the other games' kinds are never raised here (PROMPT_KINDS).
            PromptKind::Turn
            | PromptKind::Draft
            | PromptKind::Headquarters
            | PromptKind::Works
            | PromptKind::DefendNeutral
            | PromptKind::Move => {
                if self.to_place > 0 {
                    Order::Place(vec![(first_own(), self.to_place)])
                } else {
                    Order::End
                }
            }
        }
    }

    /// Apply an order; on Err nothing has changed.
    pub fn apply_order(
        &mut self,
        seat: Seat,
        order: &Order,
        dice: &mut DiceBox,
    ) -> Result<Vec<Event>, OrderError> {
        if seat >= self.n() {
            return Err(text::oe(
                format!("there is no seat {seat}"),
                format!("il n'y a pas de place {seat}"),
            ));
        }
        if self.outcome.is_some() {
            return Err(text::oe("the game is over", "la partie est terminée"));
        }
        if !self.players[seat].alive {
            return Err(text::oe(
                "you are out of the game",
                "vous êtes éliminé de la partie",
            ));
        }
        let backup = self.clone();
        let r = match order {
            Order::Castle(t) => self.castle_place(seat, *t, dice),
            Order::Claim(t) => self.claim(seat, *t, dice),
            Order::Rank(l) => self.rank(seat, l),
            Order::Place(p) => self.place_setup(seat, p, dice),
            Order::Hide(t) => self.hide(seat, *t, dice),
            Order::Reinforce(n) => self.reinforce(seat, *n),
            Order::Truce(w) => self.truce(seat, *w),
            Order::Spy { target, prefer } => self.spy(seat, *target, prefer),
            Order::Reveal(t) => self.reveal(seat, *t),
            Order::Attack {
                to,
                from,
                plan,
                general,
            } => self.attack(seat, *from, *to, *plan, *general, dice),
            Order::Sail {
                armies,
                from,
                to,
                dice: d,
                general,
            } => {
                let plan = castellan_engine::assault::AttackPlan {
                    dice: *d,
                    ..Default::default()
                };
                self.sail(seat, *armies, *from, *to, plan, *general, dice)
            }
            Order::End => self.end(seat, dice),
            Order::Occupy(w) => self.occupy(seat, w.clone()),
            Order::Annex { t, from } => self.annex(seat, *t, *from),
            Order::Defend {
                dice: n,
                marshal,
                reveal,
            } => self.defend(
                seat,
                game::Defence {
                    dice: *n,
                    marshal: *marshal,
                    reveal: *reveal,
                },
                dice,
            ),
            Order::CounterSpy(b) => self.counterspy(seat, *b),
            Order::Set(s) => self.set_standing(seat, s),
        };
        if r.is_err() {
            *self = backup;
        }
        r
    }
}

impl Rules for CastleRisk {
    type Options = Options;
    type Order = Order;
    type Event = Event;
    const GAME: &'static str = "castle-risk";
    const STATE_VERSION: u32 = game::STATE_VERSION;
    const PROMPT_KINDS: &'static [PromptKind] = &[
        PromptKind::Castle,
        PromptKind::Claim,
        PromptKind::Rank,
        PromptKind::Place,
        PromptKind::Hide,
        PromptKind::Turn,
        PromptKind::Defend,
        PromptKind::CounterSpy,
        PromptKind::Reoccupy,
        PromptKind::Annex,
    ];

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

    fn pending(&self, lang: Lang) -> Vec<Prompt> {
        self.prompts(lang)
    }

    fn parse(&self, seat: Seat, line: &str) -> Result<Order, OrderError> {
        orders::parse(self, seat, line)
    }

    fn apply(
        &mut self,
        seat: Seat,
        order: &Order,
        dice: &mut DiceBox,
    ) -> Result<Vec<Event>, OrderError> {
        self.apply_order(seat, order, dice)
    }

    fn default_order(&self, prompt: &Prompt) -> Order {
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

    fn public_view(&self, lang: Lang) -> String {
        view::public_view(self, lang)
    }

    fn private_view(&self, seat: Seat, lang: Lang) -> String {
        view::private_view(self, seat, lang)
    }

    fn outcome(&self) -> Option<Outcome> {
        self.outcome.clone()
    }

    fn order_help(lang: Lang) -> String {
        view::help(lang)
    }
}

/// A stored table (the JSON of `Session::to_json`) brought to this build's state version:
/// an older state converts itself as it is read (see `game::STATE_VERSION`).
pub fn upgrade_json(mut json: serde_json::Value) -> serde_json::Value {
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

/// Load a stored game, converting an older state version (the engine's `load_table`
/// reads only this build's version).
pub fn load_stored(json: serde_json::Value) -> Result<Box<dyn castellan_engine::Session>, String> {
    castellan_engine::load_table::<CastleRisk>(upgrade_json(json))
}

/// The game for the judge's registry: the engine's `game_info`, loading older stored
/// states too.
pub fn game_info() -> castellan_engine::GameInfo {
    castellan_engine::GameInfo {
        load: load_stored,
        ..castellan_engine::game_info::<CastleRisk>()
    }
}
