//! The Castle Risk state machine: the state and the dispatch of orders; its events in
//! `events.rs` (typed data, worded by narrate/), the standing orders in `standing.rs`; the
//! rules by concept in the submodules: `setup.rs` (castles, claims, placement, hidden
//! armies), `turn.rs` (who may act, placing in turn, standing orders), `cards.rs`
//! (Reinforcements, Diplomat, Spy, revealing hidden armies), `attack.rs` (attacks by land and
//! sea checked and declared, the defender asked), `battle.rs` (an attack fought: defence,
//! battles, conquest), `elimination.rs` (castle capture, re-occupation, annexation) and
//! `end.rs` (end of the turn, stalemate, end of the game); `stored.rs` converts what older
//! builds stored.

use crate::cards::{full_deck, hand_text, Card};
use crate::map::{map, shares_sea, Sea, EMPIRES};
use crate::orders::Order;
use crate::words::{self, armees, kw, tn};
use castellan_engine::assault::AttackPlan;
use castellan_engine::battle::{exchange, max_attack_dice, max_defence_dice};
use castellan_engine::board::TerritoryId;
use castellan_engine::claim::{deal_at_random, draft_round_robin};
use castellan_engine::dice::{commit_text, DiceBox};
use castellan_engine::lang::fr;
use castellan_engine::words::{cap, refusal, Hints};
use castellan_engine::{Lang, OrderError, Outcome, Seat};
use serde::{Deserialize, Serialize};

mod attack;
mod battle;
mod cards;
mod elimination;
mod end;
mod events;
mod setup;
mod standing;
mod stored;
mod turn;

pub use events::{Awaited, Earning, EndReason, Event, PlaceWhy};
pub use standing::*;
pub use stored::{upgrade_events, upgrade_state};

pub type T = TerritoryId;

/// Version of the serialized state and its events. 1: parallel per-seat and per-territory
/// lists; 2: a [`Player`] per seat and a [`Territory`] per territory (version 1 converts on
/// load); 3: events carry typed data, never a sentence (the English of versions 1 and 2
/// converts on load: `stored::upgrade_events`).
pub const STATE_VERSION: u32 = 3;

/// Armies each player starts with, by player count (rule 1).
pub fn starting_armies(players: usize) -> u32 {
    match players {
        2 => 40,
        3 => 35,
        4 => 30,
        5 => 25,
        _ => 20,
    }
}

/// The number printed on the track under the `n`-th Reinforcements card (1-based): 3..=14.
pub fn track_number(n: u32) -> u32 {
    if n == 0 {
        0
    } else {
        n + 2
    }
}

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ClaimMode {
    /// One territory per order, in turn (the table rule).
    #[default]
    Table,
    /// Every player sends a ranked list once; the engine drafts round-robin.
    Draft,
    /// The engine deals the territories at random (public dice).
    Random,
}

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum PlacementMode {
    /// Five armies at a time, in turn (the table rule).
    #[default]
    Rounds,
    /// Everyone sends the whole placement at once; revealed together.
    Blind,
}

/// Game options (`--option claim=draft`, `placement=blind`, `turn_limit=200`, `ask=true`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct Options {
    pub claim: ClaimMode,
    pub placement: PlacementMode,
    /// 0 = no limit; otherwise the game stops after this many player turns and the
    /// leader by territories is reported ("turn limit reached").
    pub turn_limit: u32,
    /// false (default): out-of-turn decisions (defence, counter-Spy, annexation) are
    /// answered at once by the player's standing order or the documented default.
    /// true: a player without a standing order for that decision is asked in a prompt and
    /// the game waits.
    pub ask: bool,
    /// The rules' revision the game was created under, so a stored game replays as it was
    /// played. 2 (new games): as 1, and `MOVE n` below the dice an attack rolls and a REVEAL
    /// with nothing to reveal are refused. 1: a dice count beyond the
    /// rule is refused and a second General is the player's choice; a short
    /// MOVE was raised to the dice in silence. 0 (games stored before, which lack the key):
    /// a beaten General was replaced from the hand unasked and dice were cut in silence.
    #[serde(default = "legacy_revision")]
    pub revision: u32,
}

/// Games stored before `revision` existed were played under revision 0.
fn legacy_revision() -> u32 {
    0
}

/// The revision of the rules new games get.
pub const RULES_REVISION: u32 = 2;

impl Default for Options {
    fn default() -> Self {
        Options {
            claim: ClaimMode::Table,
            placement: PlacementMode::Rounds,
            turn_limit: 0,
            ask: false,
            revision: RULES_REVISION,
        }
    }
}

/// One hidden-army slot (one's own, or taken from an eliminated player).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Hidden {
    pub territory: T,
    /// Salt of the commitment (hex), published when revealed.
    pub salt: String,
    pub commitment: String,
    /// Seat that chose it.
    pub chosen_by: Seat,
    pub used: bool,
}

/// A truce made by a Diplomat: `by` may not attack `with` this turn, `with` may not attack
/// `by` on its next turn.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Truce {
    pub by: Seat,
    pub with: Seat,
    /// Player turns played when it was made.
    pub made: u32,
}

/// An attack waiting for the defender's answer (ask mode).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct PendingAttack {
    pub attacker: Seat,
    pub from: T,
    pub to: T,
    pub plan: AttackPlan,
    pub general: bool,
    /// Another General from the hand when the engaged one is beaten (in this attack).
    #[serde(default)]
    pub again: bool,
    /// Armies on the Admiral's ship (a sea attack).
    pub ship: Option<u32>,
}

/// The defender's answer for a whole attack.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Defence {
    pub dice: u32,
    pub marshal: bool,
    pub reveal: bool,
}

/// Something the game waits for before the player in turn may go on.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Interrupt {
    Defend(PendingAttack),
    CounterSpy {
        spy: Seat,
        target: Seat,
        prefer: Vec<Card>,
    },
    /// The victor re-occupies vacated territories.
    Reoccupy {
        victor: Seat,
        vacated: Vec<T>,
        castle: T,
    },
    /// The others annex the rest, one at a time in turn order.
    Annex {
        victor: Seat,
        vacated: Vec<T>,
        next: Seat,
    },
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Phase {
    /// Each player in turn puts the castle on a territory of the drawn empire.
    Castles {
        order: Vec<Seat>,
        next: usize,
    },
    /// Table claim: one territory per order, in turn.
    Claim {
        order: Vec<Seat>,
        next: usize,
    },
    /// Everyone sends a ranked list once.
    Draft {
        ranks: Vec<Option<Vec<T>>>,
    },
    /// Five armies at a time, in turn.
    Place {
        order: Vec<Seat>,
        next: usize,
    },
    /// Everyone sends the whole placement.
    Blind {
        sent: Vec<Option<Vec<(T, u32)>>>,
    },
    /// Everyone picks the hidden-army territory.
    Hide,
    /// The game proper.
    Play,
    Over,
}

/// Army totals by cause, for audits: board armies == placed - lost - removed.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Ledger {
    pub placed: u64,
    pub lost: u64,
    pub removed: u64,
}

/// One territory: who holds it and with how many armies.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Territory {
    pub owner: Option<Seat>,
    pub armies: u32,
}

/// The territories of the board, indexed by territory id.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(transparent)]
pub struct Board(pub Vec<Territory>);

impl Board {
    /// `n` empty territories.
    pub fn empty(n: usize) -> Board {
        Board(vec![Territory::default(); n])
    }
    pub fn len(&self) -> usize {
        self.0.len()
    }
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }
    pub fn iter(&self) -> std::slice::Iter<'_, Territory> {
        self.0.iter()
    }
    /// Every territory id.
    pub fn ids(&self) -> std::ops::Range<T> {
        0..self.0.len()
    }
    /// The armies on each territory, in id order.
    pub fn armies(&self) -> Vec<u32> {
        self.0.iter().map(|t| t.armies).collect()
    }
}

impl std::ops::Index<T> for Board {
    type Output = Territory;
    fn index(&self, t: T) -> &Territory {
        &self.0[t]
    }
}

impl std::ops::IndexMut<T> for Board {
    fn index_mut(&mut self, t: T) -> &mut Territory {
        &mut self.0[t]
    }
}

/// One seat: the player's name and everything that belongs to that player.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Player {
    pub name: String,
    /// The castle's territory while the player is in the game.
    pub castle: Option<T>,
    /// The empire token the player drew.
    pub empire: usize,
    /// Castle tokens held (own first).
    pub tokens: Vec<usize>,
    pub alive: bool,
    pub hand: Vec<Card>,
    /// Hidden-army slots: one's own, and those taken from eliminated players.
    pub hidden: Vec<Hidden>,
    pub standing: Standing,
    /// Armies still to place in setup.
    pub setup_armies: u32,
}

impl Player {
    /// A player in the game with the token of `empire` and `armies` to place.
    pub fn new(name: &str, empire: usize, armies: u32) -> Player {
        Player {
            name: name.to_string(),
            castle: None,
            empire,
            tokens: vec![empire],
            alive: true,
            hand: Vec::new(),
            hidden: Vec::new(),
            standing: Standing::default(),
            setup_armies: armies,
        }
    }
}

/// Castle Risk, the whole game state. Stored as JSON; a state of an older version is
/// converted as it is read (stored.rs).
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(remote = "Self")]
pub struct CastleRisk {
    pub version: u32,
    pub options: Options,
    pub players: Vec<Player>,
    pub board: Board,
    pub pile: Vec<Card>,
    pub discard: Vec<Card>,
    /// Reinforcements cards on the track (0..=12).
    pub track: u32,
    /// Cards engaged on the table (General, Marshal, Diplomat this turn; Admiral at sea).
    pub in_play: Vec<(Seat, Card)>,
    pub truces: Vec<Truce>,
    pub phase: Phase,
    pub interrupt: Option<Interrupt>,
    /// Dice turn (Rules::turn).
    pub turn: u32,
    /// Player turns begun.
    pub turns_played: u32,
    pub current: Seat,
    /// The current player has made an attack this turn.
    pub attacked: bool,
    /// Attacks made this turn.
    pub attacks: u32,
    /// Armies the current player must place now (Reinforcements or earnings).
    pub to_place: u32,
    /// The armies to place are the end-of-turn earnings: the turn ends once placed.
    pub placing_earnings: bool,
    /// Fewer than three players: Diplomats are discarded and replaced when drawn.
    pub no_diplomats: bool,
    /// The game fell to two players this turn: purge Diplomats at its end.
    pub purge_at_end: bool,
    pub ledger: Ledger,
    pub outcome: Option<Outcome>,
}

/// An order error with its hint, each in English and French.
fn err(
    msg: impl Into<String>,
    msg_fr: impl Into<String>,
    hint: impl Into<String>,
    hint_fr: impl Into<String>,
) -> OrderError {
    refusal(msg, msg_fr).hints(hint, hint_fr)
}

impl CastleRisk {
    pub fn n(&self) -> usize {
        self.players.len()
    }

    pub fn name(&self, seat: Seat) -> &str {
        self.players
            .get(seat)
            .map(|p| p.name.as_str())
            .unwrap_or("?")
    }

    pub fn tname(t: T) -> &'static str {
        map().board.name(t)
    }

    pub fn alive_count(&self) -> usize {
        self.players.iter().filter(|p| p.alive).count()
    }

    pub fn territories_of(&self, seat: Seat) -> Vec<T> {
        self.board
            .ids()
            .filter(|&t| self.board[t].owner == Some(seat))
            .collect()
    }

    pub fn castle_owner_at(&self, t: T) -> Option<Seat> {
        self.players.iter().position(|p| p.castle == Some(t))
    }

    /// Seats from `start` round the table.
    pub fn order_from(&self, start: Seat) -> Vec<Seat> {
        (0..self.n()).map(|i| (start + i) % self.n()).collect()
    }

    pub fn next_alive_after(&self, seat: Seat) -> Seat {
        for i in 1..=self.n() {
            let s = (seat + i) % self.n();
            if self.players[s].alive {
                return s;
            }
        }
        seat
    }

    pub fn truce_between(&self, a: Seat, b: Seat) -> bool {
        self.truces
            .iter()
            .any(|t| (t.by == a && t.with == b) || (t.by == b && t.with == a))
    }

    /// Value of hidden armies revealed now.
    pub fn hidden_value(&self) -> u32 {
        track_number(self.track)
    }

    pub fn hand_has(&self, seat: Seat, c: Card) -> bool {
        self.players[seat].hand.contains(&c)
    }

    pub(crate) fn take_from_hand(&mut self, seat: Seat, c: Card) -> bool {
        if let Some(i) = self.players[seat].hand.iter().position(|x| *x == c) {
            self.players[seat].hand.remove(i);
            true
        } else {
            false
        }
    }

    pub(crate) fn engaged(&self, seat: Seat, c: Card) -> bool {
        self.in_play.contains(&(seat, c))
    }

    pub(crate) fn disengage(&mut self, seat: Seat, c: Card) -> bool {
        if let Some(i) = self.in_play.iter().position(|x| *x == (seat, c)) {
            self.in_play.remove(i);
            true
        } else {
            false
        }
    }

    /// Total cards anywhere (always 48).
    pub fn cards_accounted(&self) -> usize {
        self.players.iter().map(|p| p.hand.len()).sum::<usize>()
            + self.pile.len()
            + self.discard.len()
            + self.track as usize
            + self.in_play.len()
    }

    pub fn total_armies(&self) -> u64 {
        self.board.iter().map(|t| t.armies as u64).sum()
    }
}

/// Card the Spy discards when the spying player's list names none of the target's cards.
pub const SPY_PRIORITY: [Card; 6] = [
    Card::Admiral,
    Card::General,
    Card::Marshal,
    Card::Reinforcements,
    Card::Spy,
    Card::Diplomat,
];

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum OccupyWhat {
    One { t: T, from: Option<T> },
    All,
    Pass,
}

/// A hand as text (for views).
pub fn hand_line(cards: &[Card]) -> String {
    hand_text(cards)
}

/// The dispatch: each order to the rule that applies it.
impl CastleRisk {
    /// Apply an order; on Err nothing has changed.
    pub fn apply_order(
        &mut self,
        seat: Seat,
        order: &Order,
        dice: &mut DiceBox,
    ) -> Result<Vec<Event>, OrderError> {
        if seat >= self.n() {
            return Err(refusal(
                format!("there is no seat {seat}"),
                format!("il n'y a pas de place {seat}"),
            ));
        }
        if self.outcome.is_some() {
            return Err(refusal("the game is over", "la partie est terminée"));
        }
        if !self.players[seat].alive {
            return Err(refusal(
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
                again,
            } => self.attack(seat, *from, *to, *plan, (*general, *again), dice),
            Order::Sail {
                armies,
                from,
                to,
                dice: d,
                general,
                again,
            } => {
                let plan = castellan_engine::assault::AttackPlan {
                    dice: *d,
                    ..Default::default()
                };
                self.sail(seat, *armies, *from, *to, plan, (*general, *again), dice)
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
                Defence {
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
