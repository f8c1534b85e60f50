//! The Castle Risk state machine: setup by email, the turn, the cards, attacks, castle
//! captures and eliminations, hidden armies.

use crate::cards::{full_deck, hand_text, Card};
use crate::map::{map, shares_sea, Sea, EMPIRES, EMPIRE_BONUS, INDEPENDENTS_BONUS, TOKEN_BONUS};
use crate::text::{self, armees, cap, kw, oe, tn, Hints};
use castellan_engine::assault::AttackPlan;
use castellan_engine::battle::{exchange, max_attack_dice, max_defence_dice};
use castellan_engine::board::TerritoryId;
use castellan_engine::claim::{deal_at_random, draft_round_robin};
use castellan_engine::dice::{commit_text, DiceBox};
use castellan_engine::lang::fr;
use castellan_engine::{Lang, OrderError, Outcome, Seat};
use serde::{Deserialize, Serialize};

pub type T = TerritoryId;

/// Version of the serialized state.
pub const STATE_VERSION: u32 = 1;

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
}

impl Default for Options {
    fn default() -> Self {
        Options {
            claim: ClaimMode::Table,
            placement: PlacementMode::Rounds,
            turn_limit: 0,
            ask: false,
        }
    }
}

/// When to engage a Marshal in defence.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum MarshalPolicy {
    Never,
    Always,
    /// When the attacked territory holds at least this many armies, or is the castle.
    When(u32),
}

/// When to reveal one's hidden armies as their territory is attacked.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum RevealPolicy {
    Never,
    /// Reveal when the territory is attacked and they are worth at least this many armies.
    OnAttack(u32),
}

/// A seat's standing orders. `None` = not set (the default applies, or a prompt in ask mode).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Standing {
    pub defend: Option<u32>,
    pub marshal: Option<MarshalPolicy>,
    pub counterspy: Option<bool>,
    pub reveal: Option<RevealPolicy>,
    /// Annexation preferences (territories in order); `Some(vec![])` = AUTO.
    pub annex: Option<Vec<T>>,
    /// Re-occupy after an elimination without being asked: `Some(true)` = ALL.
    pub reoccupy: Option<bool>,
}

/// Documented defaults.
pub const DEFAULT_DEFEND: u32 = 2;
pub const DEFAULT_MARSHAL: MarshalPolicy = MarshalPolicy::When(3);
pub const DEFAULT_COUNTERSPY: bool = true;
pub const DEFAULT_REVEAL: RevealPolicy = RevealPolicy::OnAttack(5);

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

/// How armies came onto the board (for the ledger and narration).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum PlaceWhy {
    Setup,
    Reinforcements,
    Earnings,
}

#[derive(Clone, Debug, Serialize, Deserialize)]
pub enum Event {
    TokensDrawn {
        first: Seat,
        tokens: Vec<(Seat, usize)>,
    },
    CastlePlaced {
        seat: Seat,
        t: T,
    },
    Claimed {
        seat: Seat,
        t: T,
    },
    RankSent {
        seat: Seat,
        list: Vec<T>,
    },
    Drafted {
        picks: Vec<(Seat, T)>,
    },
    Dealt {
        picks: Vec<(Seat, T)>,
    },
    Placed {
        seat: Seat,
        placements: Vec<(T, u32)>,
        why: PlaceWhy,
    },
    BlindSent {
        seat: Seat,
        placements: Vec<(T, u32)>,
    },
    HiddenCommitted {
        seat: Seat,
        t: T,
        commitment: String,
    },
    CardsDealt {
        seat: Seat,
        cards: Vec<Card>,
    },
    FirstPlayer {
        seat: Seat,
    },
    TurnBegins {
        seat: Seat,
        number: u32,
    },
    Drew {
        seat: Seat,
        cards: Vec<Card>,
    },
    DiplomatReplaced {
        seat: Seat,
    },
    DiplomatsPurged {
        seat: Seat,
        count: usize,
    },
    TwoPlayerRule,
    Reinforced {
        seat: Seat,
        cards: u32,
        armies: u32,
        track: u32,
    },
    TruceMade {
        by: Seat,
        with: Seat,
    },
    SpyPlayed {
        seat: Seat,
        target: Seat,
    },
    SpyCountered {
        seat: Seat,
        target: Seat,
    },
    SpySaw {
        seat: Seat,
        target: Seat,
        hand: Vec<Card>,
    },
    SpyDiscarded {
        seat: Seat,
        target: Seat,
        card: Option<Card>,
    },
    HiddenRevealed {
        seat: Seat,
        t: T,
        armies: u32,
        salt: String,
        commitment: String,
    },
    Waiting {
        seat: Seat,
        what: String,
    },
    AttackDeclared {
        seat: Seat,
        from: T,
        to: T,
        ship: Option<u32>,
    },
    GeneralEngaged {
        seat: Seat,
    },
    MarshalEngaged {
        seat: Seat,
    },
    Battle {
        from: T,
        to: T,
        attacker: Vec<u8>,
        defender: Vec<u8>,
        general: bool,
        marshal: bool,
        attacker_losses: u32,
        defender_losses: u32,
    },
    GeneralLost {
        seat: Seat,
    },
    MarshalLost {
        seat: Seat,
    },
    AttackStopped {
        from: T,
        to: T,
        left: u32,
        defenders: u32,
    },
    Conquered {
        seat: Seat,
        from: T,
        to: T,
        moved: u32,
        by_sea: bool,
    },
    AdmiralLost {
        seat: Seat,
        to: T,
    },
    AdmiralBack {
        seat: Seat,
    },
    CastleCaptured {
        victor: Seat,
        loser: Seat,
        t: T,
    },
    Eliminated {
        seat: Seat,
        by: Seat,
        armies_removed: u32,
        tokens: Vec<usize>,
        cards: Vec<Card>,
        hidden_taken: usize,
    },
    Reoccupied {
        seat: Seat,
        t: T,
        from: T,
    },
    Annexed {
        seat: Seat,
        t: T,
        from: Option<T>,
    },
    StandingSet {
        seat: Seat,
        text: String,
    },
    TurnEnds {
        seat: Seat,
        earnings: u32,
        detail: String,
    },
    CardReturned {
        seat: Seat,
        card: Card,
    },
    GameOver {
        winners: Vec<Seat>,
        reason: String,
    },
}

/// Army totals by cause, for audits: board armies == placed - lost - removed.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Ledger {
    pub placed: u64,
    pub lost: u64,
    pub removed: u64,
}

/// Castle Risk, the whole game state.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct CastleRisk {
    pub version: u32,
    pub options: Options,
    pub players: Vec<String>,
    pub owner: Vec<Option<Seat>>,
    pub armies: Vec<u32>,
    /// Each seat's castle territory while it is in the game.
    pub castle: Vec<Option<T>>,
    /// The empire token each seat drew.
    pub empire: Vec<usize>,
    /// Castle tokens held (own first).
    pub tokens: Vec<Vec<usize>>,
    pub alive: Vec<bool>,
    pub hands: Vec<Vec<Card>>,
    pub pile: Vec<Card>,
    pub discard: Vec<Card>,
    /// Reinforcements cards on the track (0..=12).
    pub track: u32,
    /// Cards engaged on the table (General, Marshal, Diplomat this turn; Admiral at sea).
    pub in_play: Vec<(Seat, Card)>,
    pub hidden: Vec<Vec<Hidden>>,
    pub standing: Vec<Standing>,
    pub truces: Vec<Truce>,
    /// Armies each seat still has to place in setup.
    pub to_place_setup: Vec<u32>,
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
    oe(msg, msg_fr).hints(hint, hint_fr)
}

impl CastleRisk {
    pub fn n(&self) -> usize {
        self.players.len()
    }

    pub fn name(&self, seat: Seat) -> &str {
        self.players.get(seat).map(|s| s.as_str()).unwrap_or("?")
    }

    pub fn tname(t: T) -> &'static str {
        map().board.name(t)
    }

    pub fn alive_count(&self) -> usize {
        self.alive.iter().filter(|a| **a).count()
    }

    pub fn territories_of(&self, seat: Seat) -> Vec<T> {
        (0..self.owner.len())
            .filter(|&t| self.owner[t] == Some(seat))
            .collect()
    }

    pub fn castle_owner_at(&self, t: T) -> Option<Seat> {
        self.castle.iter().position(|c| *c == Some(t))
    }

    /// Seats from `start` round the table.
    pub fn order_from(&self, start: Seat) -> Vec<Seat> {
        (0..self.n()).map(|i| (start + i) % self.n()).collect()
    }

    pub fn next_alive_after(&self, seat: Seat) -> Seat {
        for i in 1..=self.n() {
            let s = (seat + i) % self.n();
            if self.alive[s] {
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
        self.hands[seat].contains(&c)
    }

    fn take_from_hand(&mut self, seat: Seat, c: Card) -> bool {
        if let Some(i) = self.hands[seat].iter().position(|x| *x == c) {
            self.hands[seat].remove(i);
            true
        } else {
            false
        }
    }

    fn engaged(&self, seat: Seat, c: Card) -> bool {
        self.in_play.contains(&(seat, c))
    }

    fn disengage(&mut self, seat: Seat, c: Card) -> bool {
        if let Some(i) = self.in_play.iter().position(|x| *x == (seat, c)) {
            self.in_play.remove(i);
            true
        } else {
            false
        }
    }

    /// Total cards anywhere (always 48).
    pub fn cards_accounted(&self) -> usize {
        self.hands.iter().map(|h| h.len()).sum::<usize>()
            + self.pile.len()
            + self.discard.len()
            + self.track as usize
            + self.in_play.len()
    }

    pub fn total_armies(&self) -> u64 {
        self.armies.iter().map(|a| *a as u64).sum()
    }

    // ------------------------------------------------------------------ setup

    pub fn new_game(
        players: &[String],
        options: &Options,
        dice: &mut DiceBox,
    ) -> Result<(CastleRisk, Vec<Event>), OrderError> {
        let n = players.len();
        if !(2..=6).contains(&n) {
            return Err(oe(
                format!("Castle Risk is played by 2 to 6 players, not {n}"),
                format!("Castle Risk se joue de 2 à 6 joueurs, pas {n}"),
            ));
        }
        let m = map();
        let nt = m.board.len();
        // Rule 1: "Jetez un dé pour déterminer le joueur qui commencera à placer": a
        // public draw; then each draws a castle token (public draws without replacement).
        let first = dice.public_below(n);
        let mut pool: Vec<usize> = (0..EMPIRES.len()).collect();
        let mut empire = vec![0; n];
        let mut tokens_ev = Vec::new();
        for i in 0..n {
            let seat = (first + i) % n;
            let k = dice.public_below(pool.len());
            empire[seat] = pool.remove(k);
            tokens_ev.push((seat, empire[seat]));
        }
        let start = starting_armies(n);
        let mut deck = full_deck();
        deck.sort();
        let order: Vec<Seat> = (0..n).map(|i| (first + i) % n).collect();
        let g = CastleRisk {
            version: STATE_VERSION,
            options: options.clone(),
            players: players.to_vec(),
            owner: vec![None; nt],
            armies: vec![0; nt],
            castle: vec![None; n],
            empire: empire.clone(),
            tokens: empire.iter().map(|e| vec![*e]).collect(),
            alive: vec![true; n],
            hands: vec![Vec::new(); n],
            pile: deck,
            discard: Vec::new(),
            track: 0,
            in_play: Vec::new(),
            hidden: vec![Vec::new(); n],
            standing: vec![Standing::default(); n],
            truces: Vec::new(),
            to_place_setup: vec![start; n],
            phase: Phase::Castles { order, next: 0 },
            interrupt: None,
            turn: 1,
            turns_played: 0,
            current: first,
            attacked: false,
            attacks: 0,
            to_place: 0,
            placing_earnings: false,
            no_diplomats: n == 2,
            purge_at_end: false,
            ledger: Ledger::default(),
            outcome: None,
        };
        Ok((
            g,
            vec![Event::TokensDrawn {
                first,
                tokens: tokens_ev,
            }],
        ))
    }

    fn put(&mut self, seat: Seat, t: T, n: u32) {
        self.owner[t] = Some(seat);
        self.armies[t] += n;
        self.ledger.placed += n as u64;
    }

    pub fn free_territories(&self) -> Vec<T> {
        (0..self.owner.len())
            .filter(|&t| self.owner[t].is_none())
            .collect()
    }

    pub fn castle_place(
        &mut self,
        seat: Seat,
        t: T,
        dice: &mut DiceBox,
    ) -> Result<Vec<Event>, OrderError> {
        let Phase::Castles { order, next } = self.phase.clone() else {
            return Err(self.wrong_phase("CASTLE"));
        };
        let who = order[next];
        if who != seat {
            return Err(oe(
                format!("it is {}'s turn to place a castle", self.name(who)),
                format!("c'est à {} de placer son château", self.name(who)),
            ));
        }
        let g = map().group_of(t);
        if g != self.empire[seat] {
            let ex = map().board.groups[self.empire[seat]].members[0];
            let e = self.empire[seat];
            return Err(err(
                format!(
                    "{} is not in the {}: your castle token is the {}'s",
                    Self::tname(t),
                    map().empire_name(e),
                    map().empire_name(e)
                ),
                format!(
                    "{} n'est pas dans {} : votre jeton de château est celui de {}",
                    cap(&text::le(t)),
                    text::group_le(e),
                    text::group_le(e),
                ),
                format!("write: CASTLE {}", Self::tname(ex)),
                format!("écrivez : {} {}", kw(Lang::Fr, "CASTLE"), tn(ex, Lang::Fr)),
            ));
        }
        if self.owner[t].is_some() {
            return Err(oe(
                format!("{} already holds a castle", Self::tname(t)),
                format!("{} a déjà un château", cap(&text::le(t))),
            )
            .hints(
                "choose another territory of your empire",
                "choisissez un autre territoire de votre empire",
            ));
        }
        self.put(seat, t, 1);
        self.castle[seat] = Some(t);
        self.to_place_setup[seat] -= 1;
        let mut ev = vec![Event::CastlePlaced { seat, t }];
        if next + 1 < order.len() {
            self.phase = Phase::Castles {
                order,
                next: next + 1,
            };
        } else {
            ev.extend(self.start_claim(order, dice));
        }
        Ok(ev)
    }

    fn start_claim(&mut self, order: Vec<Seat>, dice: &mut DiceBox) -> Vec<Event> {
        match self.options.claim {
            ClaimMode::Table => {
                self.phase = Phase::Claim { order, next: 0 };
                vec![]
            }
            ClaimMode::Draft => {
                self.phase = Phase::Draft {
                    ranks: vec![None; self.n()],
                };
                vec![]
            }
            ClaimMode::Random => {
                let picks = deal_at_random(&order, &self.free_territories(), dice);
                for &(s, t) in &picks {
                    self.put(s, t, 1);
                    self.to_place_setup[s] = self.to_place_setup[s].saturating_sub(1);
                }
                let mut ev = vec![Event::Dealt { picks }];
                ev.extend(self.start_placement(order));
                ev
            }
        }
    }

    fn start_placement(&mut self, order: Vec<Seat>) -> Vec<Event> {
        match self.options.placement {
            PlacementMode::Rounds => {
                self.phase = Phase::Place { order, next: 0 };
                self.skip_placed();
            }
            PlacementMode::Blind => {
                self.phase = Phase::Blind {
                    sent: vec![None; self.n()],
                };
                if self.to_place_setup.iter().all(|x| *x == 0) {
                    self.phase = Phase::Hide;
                }
            }
        }
        vec![]
    }

    /// In placement rounds, move `next` to a seat with armies left (or on to hiding).
    fn skip_placed(&mut self) {
        if let Phase::Place { order, next } = &mut self.phase {
            for _ in 0..order.len() {
                if self.to_place_setup[order[*next % order.len()]] > 0 {
                    *next %= order.len();
                    return;
                }
                *next = (*next + 1) % order.len();
            }
            self.phase = Phase::Hide;
        }
    }

    pub fn claim(
        &mut self,
        seat: Seat,
        t: T,
        dice: &mut DiceBox,
    ) -> Result<Vec<Event>, OrderError> {
        let Phase::Claim { order, next } = self.phase.clone() else {
            return Err(self.wrong_phase("CLAIM"));
        };
        let who = order[next % order.len()];
        if who != seat {
            return Err(oe(
                format!("it is {}'s turn to claim a territory", self.name(who)),
                format!("c'est à {} de prendre un territoire", self.name(who)),
            ));
        }
        if let Some(o) = self.owner[t] {
            let free = self.free_territories();
            return Err(err(
                format!("{} is already held by {}", Self::tname(t), self.name(o)),
                format!("{} est déjà à {}", cap(&text::le(t)), self.name(o)),
                format!("write: CLAIM {}", Self::tname(free[0])),
                format!("écrivez : PRENDRE {}", tn(free[0], Lang::Fr)),
            ));
        }
        self.put(seat, t, 1);
        self.to_place_setup[seat] = self.to_place_setup[seat].saturating_sub(1);
        let mut ev = vec![Event::Claimed { seat, t }];
        if self.free_territories().is_empty() {
            ev.extend(self.start_placement(order));
        } else {
            self.phase = Phase::Claim {
                order,
                next: (next + 1) % self.n(),
            };
        }
        let _ = dice;
        Ok(ev)
    }

    pub fn rank(&mut self, seat: Seat, list: &[T]) -> Result<Vec<Event>, OrderError> {
        let Phase::Draft { mut ranks } = self.phase.clone() else {
            return Err(self.wrong_phase("RANK"));
        };
        if ranks[seat].is_some() {
            return Err(oe(
                "you have already sent your ranked list",
                "vous avez déjà envoyé votre classement",
            )
            .hints(
                "the draft runs once everyone has sent theirs",
                "la répartition se fait quand tout le monde a envoyé le sien",
            ));
        }
        ranks[seat] = Some(list.to_vec());
        let mut ev = vec![Event::RankSent {
            seat,
            list: list.to_vec(),
        }];
        if ranks.iter().all(|r| r.is_some()) {
            let lists: Vec<Vec<T>> = ranks.into_iter().map(|r| r.unwrap_or_default()).collect();
            let order = self.claim_order();
            let picks = draft_round_robin(&order, &lists, &self.free_territories());
            for &(s, t) in &picks {
                self.put(s, t, 1);
                self.to_place_setup[s] = self.to_place_setup[s].saturating_sub(1);
            }
            ev.push(Event::Drafted { picks });
            ev.extend(self.start_placement(order));
        } else {
            self.phase = Phase::Draft { ranks };
        }
        Ok(ev)
    }

    /// The set-up order: from the first castle placer.
    fn claim_order(&self) -> Vec<Seat> {
        self.order_from(self.current)
    }

    pub fn place_setup(
        &mut self,
        seat: Seat,
        placements: &[(T, u32)],
        dice: &mut DiceBox,
    ) -> Result<Vec<Event>, OrderError> {
        let total: u32 = placements.iter().map(|p| p.1).sum();
        for &(t, _) in placements {
            if self.owner[t] != Some(seat) {
                return Err(err(
                    format!("you do not hold {}", Self::tname(t)),
                    format!("vous n'occupez pas {}", text::le(t)),
                    "place armies only on your own territories",
                    "placez des armées seulement sur vos territoires",
                ));
            }
        }
        match self.phase.clone() {
            Phase::Place { order, next } => {
                let who = order[next];
                if who != seat {
                    return Err(oe(
                        format!("it is {}'s turn to place armies", self.name(who)),
                        format!("c'est à {} de placer ses armées", self.name(who)),
                    ));
                }
                let due = self.to_place_setup[seat].min(5);
                if total != due {
                    let at = self.castle[seat].unwrap_or(placements[0].0);
                    return Err(err(
                        format!("place exactly {due} armies now, not {total}"),
                        format!("placez exactement {} maintenant, pas {total}", armees(due)),
                        format!("write: PLACE {due} {}", Self::tname(at)),
                        format!("écrivez : PLACER {due} {}", tn(at, Lang::Fr)),
                    ));
                }
                for &(t, k) in placements {
                    self.put(seat, t, k);
                }
                self.to_place_setup[seat] -= due;
                self.phase = Phase::Place {
                    order,
                    next: (next + 1) % self.n(),
                };
                self.skip_placed();
                let mut ev = vec![Event::Placed {
                    seat,
                    placements: placements.to_vec(),
                    why: PlaceWhy::Setup,
                }];
                ev.extend(self.after_placement(dice));
                Ok(ev)
            }
            Phase::Blind { mut sent } => {
                if sent[seat].is_some() {
                    return Err(oe(
                        "you have already sent your placement",
                        "vous avez déjà envoyé votre placement",
                    ));
                }
                let due = self.to_place_setup[seat];
                if total != due {
                    let at = self.castle[seat].unwrap_or(placements[0].0);
                    return Err(err(
                        format!("place all your {due} armies at once, not {total}"),
                        format!("placez vos {} d'un coup, pas {total}", armees(due)),
                        format!("write: PLACE {due} {}", Self::tname(at)),
                        format!("écrivez : PLACER {due} {}", tn(at, Lang::Fr)),
                    ));
                }
                sent[seat] = Some(placements.to_vec());
                let mut ev = vec![Event::BlindSent {
                    seat,
                    placements: placements.to_vec(),
                }];
                let done = (0..self.n()).all(|s| sent[s].is_some() || self.to_place_setup[s] == 0);
                if done {
                    for s in 0..self.n() {
                        if let Some(p) = &sent[s] {
                            for &(t, k) in p {
                                self.put(s, t, k);
                            }
                            self.to_place_setup[s] = 0;
                            ev.push(Event::Placed {
                                seat: s,
                                placements: p.clone(),
                                why: PlaceWhy::Setup,
                            });
                        }
                    }
                    self.phase = Phase::Hide;
                    ev.extend(self.after_placement(dice));
                } else {
                    self.phase = Phase::Blind { sent };
                }
                Ok(ev)
            }
            Phase::Play => self.place_in_turn(seat, placements, dice),
            _ => Err(self.wrong_phase("PLACE")),
        }
    }

    fn after_placement(&mut self, _dice: &mut DiceBox) -> Vec<Event> {
        vec![]
    }

    pub fn hide(&mut self, seat: Seat, t: T, dice: &mut DiceBox) -> Result<Vec<Event>, OrderError> {
        if self.phase != Phase::Hide {
            return Err(self.wrong_phase("HIDE"));
        }
        if self.hidden[seat].iter().any(|h| h.chosen_by == seat) {
            return Err(oe(
                "you have already chosen your hidden-army territory",
                "vous avez déjà choisi le territoire de vos armées cachées",
            ));
        }
        if self.castle_owner_at(t).is_some() {
            return Err(err(
                format!(
                    "{} holds a castle: hidden armies go anywhere but on a castle",
                    Self::tname(t)
                ),
                format!(
                    "{} a un château : les armées cachées vont partout sauf sur un château",
                    cap(&text::le(t))
                ),
                "choose a territory without a castle",
                "choisissez un territoire sans château",
            ));
        }
        let salt = dice.secret_salt();
        let commitment = commit_text(&salt, &map().board.territories[t].key);
        self.hidden[seat].push(Hidden {
            territory: t,
            salt: salt.hex(),
            commitment: commitment.clone(),
            chosen_by: seat,
            used: false,
        });
        let mut ev = vec![Event::HiddenCommitted {
            seat,
            t,
            commitment,
        }];
        if (0..self.n()).all(|s| self.hidden[s].iter().any(|h| h.chosen_by == s)) {
            ev.extend(self.start_play(dice));
        }
        Ok(ev)
    }

    fn start_play(&mut self, dice: &mut DiceBox) -> Vec<Event> {
        let mut ev = Vec::new();
        // Rule 1: deal 3 cards each (secret), then a die for the first player (public).
        for s in 0..self.n() {
            let mut got = Vec::new();
            for _ in 0..3 {
                if let Some(c) = self.draw(s, dice, &mut ev) {
                    got.push(c);
                }
            }
            ev.push(Event::CardsDealt {
                seat: s,
                cards: got,
            });
        }
        let first = dice.public_below(self.n());
        ev.push(Event::FirstPlayer { seat: first });
        self.phase = Phase::Play;
        ev.extend(self.begin_turn(first, dice));
        ev
    }

    /// Draw one card into `seat`'s hand: the pile is reshuffled from the discard when empty
    /// (Reinforcements never come back: they sit on the track); with two players a drawn
    /// Diplomat is discarded and replaced.
    fn draw(&mut self, seat: Seat, dice: &mut DiceBox, ev: &mut Vec<Event>) -> Option<Card> {
        for _ in 0..128 {
            if self.pile.is_empty() {
                if self.discard.is_empty() {
                    return None;
                }
                if self.no_diplomats && self.discard.iter().all(|c| *c == Card::Diplomat) {
                    return None;
                }
                self.pile.append(&mut self.discard);
                self.pile.sort();
            }
            if self.no_diplomats
                && self.pile.iter().all(|c| *c == Card::Diplomat)
                && self.discard.iter().all(|c| *c == Card::Diplomat)
            {
                return None;
            }
            let i = dice.secret_below(self.pile.len());
            let c = self.pile.remove(i);
            if self.no_diplomats && c == Card::Diplomat {
                self.discard.push(c);
                ev.push(Event::DiplomatReplaced { seat });
                continue;
            }
            self.hands[seat].push(c);
            return Some(c);
        }
        None
    }

    fn begin_turn(&mut self, seat: Seat, dice: &mut DiceBox) -> Vec<Event> {
        self.current = seat;
        self.turns_played += 1;
        self.turn = self.turns_played.max(1);
        self.attacked = false;
        self.attacks = 0;
        self.to_place = 0;
        self.placing_earnings = false;
        let mut ev = vec![Event::TurnBegins {
            seat,
            number: self.turns_played,
        }];
        // Rule 2: fill the hand to 3, then draw one more.
        let mut got = Vec::new();
        while self.hands[seat].len() < 3 {
            match self.draw(seat, dice, &mut ev) {
                Some(c) => got.push(c),
                None => break,
            }
        }
        if let Some(c) = self.draw(seat, dice, &mut ev) {
            got.push(c);
        }
        ev.push(Event::Drew { seat, cards: got });
        ev
    }

    // ------------------------------------------------------------------ the turn

    fn wrong_phase(&self, what: &str) -> OrderError {
        let (now, now_fr) = match &self.phase {
            Phase::Castles { .. } => (
                "the castles are being placed (CASTLE Paris)",
                "les châteaux sont en cours de placement (CHÂTEAU Paris)",
            ),
            Phase::Claim { .. } => (
                "territories are being claimed (CLAIM Livonia)",
                "les territoires sont en cours de prise (PRENDRE Livonie)",
            ),
            Phase::Draft { .. } => (
                "the draft waits for ranked lists (RANK Livonia, Poland, ...)",
                "la répartition attend les classements (CLASSEMENT Livonie, Pologne, ...)",
            ),
            Phase::Place { .. } | Phase::Blind { .. } => (
                "armies are being placed (PLACE 3 Paris, 2 Brittany)",
                "les armées sont en cours de placement (PLACER 3 Paris, 2 Bretagne)",
            ),
            Phase::Hide => (
                "hidden-army territories are being chosen (HIDE Livonia)",
                "les territoires des armées cachées sont en cours de choix (CACHER Livonie)",
            ),
            Phase::Play => ("the game is under way", "la partie est en cours"),
            Phase::Over => ("the game is over", "la partie est terminée"),
        };
        oe(
            format!("{what} is not an order for now: {now}"),
            format!(
                "{} n'est pas un ordre pour maintenant : {now_fr}",
                kw(Lang::Fr, what)
            ),
        )
        .hints(
            "your private report lists the orders you may send now",
            "votre rapport privé donne les ordres que vous pouvez envoyer maintenant",
        )
    }

    /// Refuse if `seat` may not act in turn now.
    fn in_turn(&self, seat: Seat, what: &str) -> Result<(), OrderError> {
        if self.phase != Phase::Play {
            return Err(self.wrong_phase(what));
        }
        if let Some(i) = &self.interrupt {
            let who = self.interrupt_seat(i);
            return Err(oe(
                format!(
                    "the game waits for {} ({}); {what} must wait",
                    self.name(who),
                    self.interrupt_what(i)
                ),
                format!(
                    "la partie attend {} ({}) ; {} doit attendre",
                    self.name(who),
                    self.interrupt_what_in(i, Lang::Fr),
                    kw(Lang::Fr, what)
                ),
            )
            .hints(
                "send your next orders once it is answered",
                "envoyez vos ordres suivants une fois la réponse donnée",
            ));
        }
        if seat != self.current {
            return Err(oe(
                format!("it is {}'s turn, not yours", self.name(self.current)),
                format!(
                    "c'est le tour {}, pas le vôtre",
                    fr::de(self.name(self.current))
                ),
            )
            .hints(
                "standing orders (SET ...) may be sent at any time",
                "les consignes (CONSIGNE ...) s'envoient à tout moment",
            ));
        }
        if self.to_place > 0 {
            let t = self.castle[seat].unwrap_or(0);
            return Err(err(
                format!("place your {} armies first", self.to_place),
                format!("placez d'abord vos {}", armees(self.to_place)),
                format!("write: PLACE {} {}", self.to_place, Self::tname(t)),
                format!("écrivez : PLACER {} {}", self.to_place, tn(t, Lang::Fr)),
            ));
        }
        Ok(())
    }

    pub fn interrupt_seat(&self, i: &Interrupt) -> Seat {
        match i {
            Interrupt::Defend(p) => self.owner[p.to].unwrap_or(0),
            Interrupt::CounterSpy { target, .. } => *target,
            Interrupt::Reoccupy { victor, .. } => *victor,
            Interrupt::Annex { next, .. } => *next,
        }
    }

    pub fn interrupt_what(&self, i: &Interrupt) -> String {
        self.interrupt_what_in(i, Lang::En)
    }

    /// What the game waits for, in `lang`.
    pub fn interrupt_what_in(&self, i: &Interrupt, lang: Lang) -> String {
        match (i, lang) {
            (Interrupt::Defend(p), Lang::En) => format!("defence of {}", Self::tname(p.to)),
            (Interrupt::Defend(p), Lang::Fr) => format!("défense {}", text::de(p.to)),
            (Interrupt::CounterSpy { spy, .. }, Lang::En) => {
                format!("a Spy from {}", self.name(*spy))
            }
            (Interrupt::CounterSpy { spy, .. }, Lang::Fr) => {
                format!("un Espion {}", fr::de(self.name(*spy)))
            }
            (Interrupt::Reoccupy { .. }, _) => lang
                .pick(
                    "re-occupation after a castle capture",
                    "réoccupation après la prise d'un château",
                )
                .into(),
            (Interrupt::Annex { .. }, _) => lang
                .pick(
                    "annexation of vacated territories",
                    "annexion des territoires libérés",
                )
                .into(),
        }
    }

    fn place_in_turn(
        &mut self,
        seat: Seat,
        placements: &[(T, u32)],
        dice: &mut DiceBox,
    ) -> Result<Vec<Event>, OrderError> {
        if self.interrupt.is_some() || seat != self.current {
            self.in_turn(seat, "PLACE")?;
        }
        if self.to_place == 0 {
            return Err(oe(
                "you have no armies to place now",
                "vous n'avez pas d'armées à placer maintenant",
            )
            .hints(
                "armies come from Reinforcements cards (REINFORCE 1) and end-of-turn earnings",
                "les armées viennent des cartes Renfort (RENFORT 1) et des nouvelles troupes de fin de tour",
            ));
        }
        let total: u32 = placements.iter().map(|p| p.1).sum();
        if total > self.to_place {
            let at = placements[0].0;
            return Err(err(
                format!("you have {} armies to place, not {total}", self.to_place),
                format!("vous avez {} à placer, pas {total}", armees(self.to_place)),
                format!("write: PLACE {} {}", self.to_place, Self::tname(at)),
                format!("écrivez : PLACER {} {}", self.to_place, tn(at, Lang::Fr)),
            ));
        }
        for &(t, k) in placements {
            self.put(seat, t, k);
        }
        self.to_place -= total;
        let why = if self.placing_earnings {
            PlaceWhy::Earnings
        } else {
            PlaceWhy::Reinforcements
        };
        let mut ev = vec![Event::Placed {
            seat,
            placements: placements.to_vec(),
            why,
        }];
        if self.to_place == 0 && self.placing_earnings {
            ev.extend(self.finish_turn(dice));
        }
        Ok(ev)
    }

    pub fn reinforce(&mut self, seat: Seat, cards: u32) -> Result<Vec<Event>, OrderError> {
        self.in_turn(seat, "REINFORCE")?;
        if self.attacked {
            return Err(oe(
                "Reinforcements are played before the first attack of the turn",
                "les Renforts se jouent avant la première attaque du tour",
            )
            .hints(
                "play them at the start of your next turn",
                "jouez-les au début de votre prochain tour",
            ));
        }
        let held = self.hands[seat]
            .iter()
            .filter(|c| **c == Card::Reinforcements)
            .count() as u32;
        if cards == 0 || cards > held {
            return Err(err(
                format!("you hold {held} Reinforcements card(s), not {cards}"),
                format!(
                    "vous avez {}, pas {cards}",
                    text::count(
                        Lang::Fr,
                        held,
                        ("", ""),
                        ("carte Renfort", "cartes Renfort")
                    )
                ),
                if held > 0 {
                    format!("write: REINFORCE {held}")
                } else {
                    "you have no Reinforcements card to play".into()
                },
                if held > 0 {
                    format!("écrivez : RENFORT {held}")
                } else {
                    "vous n'avez aucune carte Renfort à jouer".into()
                },
            ));
        }
        let mut armies = 0;
        for _ in 0..cards {
            self.take_from_hand(seat, Card::Reinforcements);
            self.track += 1;
            armies += track_number(self.track);
        }
        self.to_place += armies;
        Ok(vec![Event::Reinforced {
            seat,
            cards,
            armies,
            track: self.track,
        }])
    }

    pub fn truce(&mut self, seat: Seat, with: Seat) -> Result<Vec<Event>, OrderError> {
        self.in_turn(seat, "TRUCE")?;
        if self.no_diplomats || self.alive_count() < 3 {
            return Err(oe(
                "Diplomats are not used with two players",
                "les Diplomates ne servent pas à deux joueurs",
            ));
        }
        if self.attacked {
            return Err(oe(
                "a Diplomat is played before the first attack of the turn",
                "un Diplomate se joue avant la première attaque du tour",
            ));
        }
        if with == seat || !self.alive.get(with).copied().unwrap_or(false) {
            return Err(oe(
                "a truce is made with another player still in the game",
                "une trêve se fait avec un autre joueur encore en jeu",
            ));
        }
        if !self.hand_has(seat, Card::Diplomat) {
            return Err(oe("you hold no Diplomat", "vous n'avez pas de Diplomate"));
        }
        if self.truces.iter().any(|t| t.by == seat && t.with == with) {
            return Err(oe(
                format!("you already have a truce with {}", self.name(with)),
                format!("vous avez déjà une trêve avec {}", self.name(with)),
            ));
        }
        self.take_from_hand(seat, Card::Diplomat);
        self.in_play.push((seat, Card::Diplomat));
        self.truces.push(Truce {
            by: seat,
            with,
            made: self.turns_played,
        });
        Ok(vec![Event::TruceMade { by: seat, with }])
    }

    pub fn spy(
        &mut self,
        seat: Seat,
        target: Seat,
        prefer: &[Card],
    ) -> Result<Vec<Event>, OrderError> {
        self.in_turn(seat, "SPY")?;
        if target == seat || !self.alive.get(target).copied().unwrap_or(false) {
            return Err(oe(
                "spy on another player still in the game",
                "espionnez un autre joueur encore en jeu",
            ));
        }
        if !self.hand_has(seat, Card::Spy) {
            return Err(oe("you hold no Spy", "vous n'avez pas d'Espion"));
        }
        self.take_from_hand(seat, Card::Spy);
        let mut ev = vec![Event::SpyPlayed { seat, target }];
        let answer = self.standing[target].counterspy;
        match answer {
            None if self.options.ask => {
                // The Spy card waits on the table until the target answers.
                self.in_play.push((seat, Card::Spy));
                self.interrupt = Some(Interrupt::CounterSpy {
                    spy: seat,
                    target,
                    prefer: prefer.to_vec(),
                });
                ev.push(Event::Waiting {
                    seat: target,
                    what: "to counter the Spy (COUNTERSPY or NO COUNTERSPY)".into(),
                });
            }
            _ => {
                let counter = answer.unwrap_or(DEFAULT_COUNTERSPY);
                self.discard.push(Card::Spy);
                ev.extend(self.resolve_spy(seat, target, prefer, counter));
            }
        }
        Ok(ev)
    }

    /// The Spy card is already discarded (or about to be, from in_play).
    fn resolve_spy(
        &mut self,
        seat: Seat,
        target: Seat,
        prefer: &[Card],
        counter: bool,
    ) -> Vec<Event> {
        if counter && self.take_from_hand(target, Card::Spy) {
            self.discard.push(Card::Spy);
            return vec![Event::SpyCountered { seat, target }];
        }
        let hand = self.hands[target].clone();
        let mut ev = vec![Event::SpySaw {
            seat,
            target,
            hand: hand.clone(),
        }];
        let pick = prefer
            .iter()
            .chain(SPY_PRIORITY.iter())
            .find(|c| hand.contains(c))
            .copied();
        if let Some(c) = pick {
            self.take_from_hand(target, c);
            self.discard_card(c);
        }
        ev.push(Event::SpyDiscarded {
            seat,
            target,
            card: pick,
        });
        ev
    }

    /// Put a card on the discard (a Reinforcements card, which never comes back into
    /// play, goes to the discard too but is never drawn again: see `draw`).
    fn discard_card(&mut self, c: Card) {
        self.discard.push(c);
    }

    pub fn counterspy(&mut self, seat: Seat, yes: bool) -> Result<Vec<Event>, OrderError> {
        let Some(Interrupt::CounterSpy {
            spy,
            target,
            prefer,
        }) = self.interrupt.clone()
        else {
            return Err(oe(
                "no Spy is waiting for your answer",
                "aucun Espion n'attend votre réponse",
            ));
        };
        if seat != target {
            return Err(oe(
                format!(
                    "the Spy waits for {}'s answer, not yours",
                    self.name(target)
                ),
                format!(
                    "l'Espion attend la réponse {}, pas la vôtre",
                    fr::de(self.name(target))
                ),
            ));
        }
        if yes && !self.hand_has(seat, Card::Spy) {
            return Err(err(
                "you hold no Spy to counter with",
                "vous n'avez pas d'Espion pour contrer",
                "write: NO COUNTERSPY",
                "écrivez : PAS DE CONTRE-ESPION",
            ));
        }
        self.interrupt = None;
        self.disengage(spy, Card::Spy);
        self.discard.push(Card::Spy);
        Ok(self.resolve_spy(spy, target, &prefer, yes))
    }

    /// Reveal hidden armies in `t` (or the only unused slot) during one's own turn.
    pub fn reveal(&mut self, seat: Seat, t: Option<T>) -> Result<Vec<Event>, OrderError> {
        self.in_turn(seat, "REVEAL")?;
        let slots: Vec<usize> = (0..self.hidden[seat].len())
            .filter(|&i| !self.hidden[seat][i].used)
            .filter(|&i| t.is_none_or(|t| self.hidden[seat][i].territory == t))
            .collect();
        let Some(&i) = slots.first() else {
            return Err(match t {
                Some(t) => oe(
                    format!("you have no unused hidden armies in {}", Self::tname(t)),
                    format!(
                        "vous n'avez pas d'armées cachées inutilisées {}",
                        text::en(t)
                    ),
                ),
                None => oe(
                    "your hidden armies are already used",
                    "vos armées cachées ont déjà servi",
                ),
            });
        };
        let ht = self.hidden[seat][i].territory;
        if self.owner[ht] != Some(seat) {
            return Err(oe(
                format!(
                    "you must hold {} to reveal your hidden armies there",
                    Self::tname(ht)
                ),
                format!(
                    "vous devez occuper {} pour y dévoiler vos armées cachées",
                    text::le(ht)
                ),
            )
            .hints(
                "conquer it first, then write: REVEAL",
                "conquérez-le d'abord, puis écrivez : DÉVOILER",
            ));
        }
        Ok(self.do_reveal(seat, i))
    }

    fn do_reveal(&mut self, seat: Seat, i: usize) -> Vec<Event> {
        let h = self.hidden[seat][i].clone();
        self.hidden[seat][i].used = true;
        let n = self.hidden_value();
        self.armies[h.territory] += n;
        self.ledger.placed += n as u64;
        vec![Event::HiddenRevealed {
            seat,
            t: h.territory,
            armies: n,
            salt: h.salt,
            commitment: h.commitment,
        }]
    }

    fn check_attack(&self, seat: Seat, from: T, to: T) -> Result<Seat, OrderError> {
        if self.owner[from] != Some(seat) {
            return Err(err(
                format!("you do not hold {}", Self::tname(from)),
                format!("vous n'occupez pas {}", text::le(from)),
                "attack from one of your own territories",
                "attaquez depuis un de vos territoires",
            ));
        }
        let Some(def) = self.owner[to] else {
            return Err(oe(
                format!("{} is empty", Self::tname(to)),
                format!("{} est vide", cap(&text::le(to))),
            ));
        };
        if def == seat {
            return Err(err(
                format!("{} is yours", Self::tname(to)),
                format!("{} est à vous", cap(&text::le(to))),
                "attack a territory held by another player",
                "attaquez un territoire occupé par un autre joueur",
            ));
        }
        if self.truce_between(seat, def) {
            return Err(oe(
                format!(
                    "you have a truce with {}: no attack between you this turn",
                    self.name(def)
                ),
                format!(
                    "vous avez une trêve avec {} : pas d'attaque entre vous ce tour-ci",
                    self.name(def)
                ),
            ));
        }
        Ok(def)
    }

    pub fn attack(
        &mut self,
        seat: Seat,
        from: T,
        to: T,
        plan: AttackPlan,
        general: bool,
        dice: &mut DiceBox,
    ) -> Result<Vec<Event>, OrderError> {
        self.in_turn(seat, "ATTACK")?;
        self.check_attack(seat, from, to)?;
        if !map().board.adjacent(from, to) {
            return Err(self.not_adjacent(seat, from, to));
        }
        if self.armies[from] < 2 {
            return Err(oe(
                format!(
                    "{} has only {} army: attack from a territory with at least 2",
                    Self::tname(from),
                    self.armies[from]
                ),
                format!(
                    "{} n'a que {} : attaquez depuis un territoire qui en a au moins 2",
                    cap(&text::le(from)),
                    armees(self.armies[from])
                ),
            ));
        }
        if general && !self.hand_has(seat, Card::General) && !self.engaged(seat, Card::General) {
            return Err(err(
                "you hold no General",
                "vous n'avez pas de Général",
                "leave GENERAL out of the attack line",
                "retirez GÉNÉRAL de la ligne d'attaque",
            ));
        }
        let p = PendingAttack {
            attacker: seat,
            from,
            to,
            plan,
            general,
            ship: None,
        };
        Ok(self.declare(p, dice))
    }

    fn not_adjacent(&self, seat: Seat, from: T, to: T) -> OrderError {
        let near: Vec<T> = map()
            .board
            .neighbors(from)
            .filter(|&n| self.owner[n] != Some(seat))
            .collect();
        let names = |lang: Lang| {
            near.iter()
                .map(|t| tn(*t, lang))
                .collect::<Vec<_>>()
                .join(", ")
        };
        let (f, t) = (Self::tname(from), Self::tname(to));
        let (ff, tf) = (tn(from, Lang::Fr), tn(to, Lang::Fr));
        err(
            format!("{f} does not border {t} (an Admiral can sail: SAIL n FROM {f} TO {t})"),
            format!(
                "{} ne touche pas {} (un Amiral peut traverser : AMIRAL n DEPUIS {ff} VERS {tf})",
                cap(&text::le(from)),
                text::le(to)
            ),
            if near.is_empty() {
                "attack a neighbouring enemy territory".to_string()
            } else {
                format!("from {f} you can attack {}", names(Lang::En))
            },
            if near.is_empty() {
                "attaquez un territoire ennemi voisin".to_string()
            } else {
                format!(
                    "depuis {} vous pouvez attaquer {}",
                    text::le(from),
                    names(Lang::Fr)
                )
            },
        )
    }

    pub fn sail(
        &mut self,
        seat: Seat,
        armies: u32,
        from: T,
        to: T,
        plan: AttackPlan,
        general: bool,
        dice: &mut DiceBox,
    ) -> Result<Vec<Event>, OrderError> {
        self.in_turn(seat, "SAIL")?;
        self.check_attack(seat, from, to)?;
        self.check_sail(seat, armies, from, to, general)?;
        self.take_from_hand(seat, Card::Admiral);
        self.in_play.push((seat, Card::Admiral));
        let p = PendingAttack {
            attacker: seat,
            from,
            to,
            plan,
            general,
            ship: Some(armies),
        };
        Ok(self.declare(p, dice))
    }

    fn check_sail(
        &self,
        seat: Seat,
        armies: u32,
        from: T,
        to: T,
        general: bool,
    ) -> Result<(), OrderError> {
        if !self.hand_has(seat, Card::Admiral) {
            return Err(oe("you hold no Admiral", "vous n'avez pas d'Amiral").hints(
                format!("attack by land: ATTACK {} FROM ...", Self::tname(to)),
                format!(
                    "attaquez par la terre : ATTAQUE {} DEPUIS ...",
                    tn(to, Lang::Fr)
                ),
            ));
        }
        let (sf, st) = (map().sea[from], map().sea[to]);
        if sf == Sea::None || st == Sea::None {
            let land = if sf == Sea::None { from } else { to };
            return Err(oe(
                format!(
                    "{} has no coast: an Admiral sails only between coastal territories",
                    Self::tname(land)
                ),
                format!(
                    "{} n'a pas de côte : un Amiral ne navigue qu'entre territoires côtiers",
                    cap(&text::le(land))
                ),
            ));
        }
        if !shares_sea(sf, st) {
            return Err(oe(
                format!(
                    "{} and {} are not on the same sea (the Black Sea only reaches the Black Sea)",
                    Self::tname(from),
                    Self::tname(to)
                ),
                format!(
                    "{} et {} ne sont pas sur la même mer (la mer Noire ne mène qu'à la mer Noire)",
                    cap(&text::le(from)),
                    text::le(to)
                ),
            ));
        }
        if armies == 0 || armies >= self.armies[from] {
            let can = self.armies[from].saturating_sub(1).max(1);
            return Err(err(
                format!(
                    "{} armies cannot board from {}: it holds {} and must keep one",
                    armies,
                    Self::tname(from),
                    self.armies[from]
                ),
                format!(
                    "{} ne peuvent pas embarquer {} : il y en a {} et une doit rester",
                    armees(armies),
                    text::de(from),
                    self.armies[from]
                ),
                format!(
                    "write: SAIL {can} FROM {} TO {}",
                    Self::tname(from),
                    Self::tname(to)
                ),
                format!(
                    "écrivez : AMIRAL {can} DEPUIS {} VERS {}",
                    tn(from, Lang::Fr),
                    tn(to, Lang::Fr)
                ),
            ));
        }
        if general && !self.hand_has(seat, Card::General) && !self.engaged(seat, Card::General) {
            return Err(err(
                "you hold no General",
                "vous n'avez pas de Général",
                "leave GENERAL out of the line",
                "retirez GÉNÉRAL de la ligne",
            ));
        }
        Ok(())
    }

    fn declare(&mut self, p: PendingAttack, dice: &mut DiceBox) -> Vec<Event> {
        self.attacked = true;
        self.attacks += 1;
        let def = self.owner[p.to].unwrap_or(0);
        let mut ev = vec![Event::AttackDeclared {
            seat: p.attacker,
            from: p.from,
            to: p.to,
            ship: p.ship,
        }];
        let s = &self.standing[def];
        let unset = s.defend.is_none() || s.marshal.is_none() || s.reveal.is_none();
        if self.options.ask && unset {
            ev.push(Event::Waiting {
                seat: def,
                what: format!(
                    "to defend {} (DEFEND 2, DEFEND 1 MARSHAL ...)",
                    Self::tname(p.to)
                ),
            });
            self.interrupt = Some(Interrupt::Defend(p));
            return ev;
        }
        let d = self.standing_defence(def, p.to);
        ev.extend(self.resolve_attack(p, d, dice));
        ev
    }

    /// The defence a seat's standing orders (or the defaults) give for territory `t`.
    pub fn standing_defence(&self, def: Seat, t: T) -> Defence {
        let s = &self.standing[def];
        let dice = s.defend.unwrap_or(DEFAULT_DEFEND);
        let is_castle = self.castle[def] == Some(t);
        let marshal = match s.marshal.unwrap_or(DEFAULT_MARSHAL) {
            MarshalPolicy::Never => false,
            MarshalPolicy::Always => true,
            MarshalPolicy::When(n) => is_castle || self.armies[t] >= n,
        };
        let reveal = match s.reveal.unwrap_or(DEFAULT_REVEAL) {
            RevealPolicy::Never => false,
            RevealPolicy::OnAttack(n) => self.hidden_value() >= n.max(1),
        };
        Defence {
            dice,
            marshal,
            reveal,
        }
    }

    pub fn defend(
        &mut self,
        seat: Seat,
        d: Defence,
        dice: &mut DiceBox,
    ) -> Result<Vec<Event>, OrderError> {
        let Some(Interrupt::Defend(p)) = self.interrupt.clone() else {
            return Err(oe(
                "no attack is waiting for your defence",
                "aucune attaque n'attend votre défense",
            )
            .hints(
                "to say in advance how you defend, write: SET DEFEND 2",
                "pour dire à l'avance comment vous défendre, écrivez : CONSIGNE DÉFENDRE 2",
            ));
        };
        let def = self.owner[p.to].unwrap_or(0);
        if seat != def {
            return Err(oe(
                format!(
                    "the attack on {} waits for {}'s defence, not yours",
                    Self::tname(p.to),
                    self.name(def)
                ),
                format!(
                    "l'attaque sur {} attend la défense {}, pas la vôtre",
                    text::le(p.to),
                    fr::de(self.name(def))
                ),
            ));
        }
        if !(1..=2).contains(&d.dice) {
            return Err(err(
                "a defender rolls 1 or 2 dice",
                "le défenseur lance 1 ou 2 dés",
                "write: DEFEND 2",
                "écrivez : DÉFENDRE 2",
            ));
        }
        if d.marshal && !self.hand_has(seat, Card::Marshal) && !self.engaged(seat, Card::Marshal) {
            return Err(err(
                "you hold no Marshal",
                "vous n'avez pas de Maréchal",
                "write: DEFEND 2",
                "écrivez : DÉFENDRE 2",
            ));
        }
        self.interrupt = None;
        Ok(self.resolve_attack(p, d, dice))
    }

    /// Roll the battles of one attack (rule 5), with the General, Marshal, Admiral and
    /// hidden armies, then the conquest and a castle capture (rule 6).
    fn resolve_attack(&mut self, p: PendingAttack, d: Defence, dice: &mut DiceBox) -> Vec<Event> {
        let att = p.attacker;
        let def = self.owner[p.to].unwrap_or(0);
        let mut ev = Vec::new();
        let is_castle = self.castle[def] == Some(p.to);
        let cap = if is_castle { 2 } else { 3 };
        // Hidden armies on defence: revealed before the first battle (rule 7).
        if d.reveal {
            if let Some(i) = (0..self.hidden[def].len())
                .find(|&i| !self.hidden[def][i].used && self.hidden[def][i].territory == p.to)
            {
                ev.extend(self.do_reveal(def, i));
            }
        }
        // The ship's armies board now (after any wait for the defender's answer).
        let mut ship = p.ship.map(|k| k.min(self.armies[p.from].saturating_sub(1)));
        if let Some(k) = ship {
            self.armies[p.from] -= k;
        }
        let mut rolls = 0;
        let mut last_dice = 0;
        loop {
            let pool = match ship {
                Some(s) => s,
                None => self.armies[p.from],
            };
            let defenders = self.armies[p.to];
            let go = match ship {
                // Rule 4 (Admiral): "vous devez continuer à vous battre jusqu'à la fin".
                Some(s) => s > 0 && defenders > 0,
                None => p.plan.go_on(pool, defenders, rolls),
            };
            if !go {
                break;
            }
            let allowed = match ship {
                Some(s) => s.min(cap),
                None => max_attack_dice(pool, cap),
            };
            let ad = p.plan.dice_now(allowed).max(1);
            let dd = d.dice.min(max_defence_dice(defenders, 2)).max(1);
            // Cards before the dice.
            if p.general
                && !self.engaged(att, Card::General)
                && self.take_from_hand(att, Card::General)
            {
                self.in_play.push((att, Card::General));
                ev.push(Event::GeneralEngaged { seat: att });
            }
            if d.marshal
                && !self.engaged(def, Card::Marshal)
                && self.take_from_hand(def, Card::Marshal)
            {
                self.in_play.push((def, Card::Marshal));
                ev.push(Event::MarshalEngaged { seat: def });
            }
            let gen = self.engaged(att, Card::General);
            let mar = self.engaged(def, Card::Marshal);
            let a: Vec<u8> = dice.roll_d6(ad as usize).iter().map(|r| r.value).collect();
            let b: Vec<u8> = dice.roll_d6(dd as usize).iter().map(|r| r.value).collect();
            let x = exchange(&a, &b, u8::from(gen), u8::from(mar));
            rolls += 1;
            last_dice = ad;
            match &mut ship {
                Some(s) => *s -= x.attacker_losses.min(*s),
                None => self.armies[p.from] -= x.attacker_losses,
            }
            self.armies[p.to] -= x.defender_losses;
            self.ledger.lost += (x.attacker_losses + x.defender_losses) as u64;
            let top_a = x.attacker[0] + u8::from(gen);
            let top_d = x.defender[0] + u8::from(mar);
            ev.push(Event::Battle {
                from: p.from,
                to: p.to,
                attacker: x.attacker.clone(),
                defender: x.defender.clone(),
                general: gen,
                marshal: mar,
                attacker_losses: x.attacker_losses,
                defender_losses: x.defender_losses,
            });
            // General: "éliminée dès que votre adversaire obtient un dé égal ou supérieur
            // à votre dé le plus élevé + 1". Marshal: discarded when the attacker's highest
            // beats the defender's highest + 1.
            if gen && top_d >= top_a {
                self.disengage(att, Card::General);
                self.discard_card(Card::General);
                ev.push(Event::GeneralLost { seat: att });
            }
            if mar && top_a > top_d {
                self.disengage(def, Card::Marshal);
                self.discard_card(Card::Marshal);
                ev.push(Event::MarshalLost { seat: def });
            }
        }
        if self.armies[p.to] == 0 {
            let moved = match ship {
                Some(s) => s,
                None => {
                    let m = p.plan.armies_to_move(self.armies[p.from], last_dice);
                    self.armies[p.from] -= m;
                    m
                }
            };
            self.armies[p.to] = moved;
            self.owner[p.to] = Some(att);
            ev.push(Event::Conquered {
                seat: att,
                from: p.from,
                to: p.to,
                moved,
                by_sea: ship.is_some(),
            });
            if ship.is_some() {
                self.disengage(att, Card::Admiral);
                self.hands[att].push(Card::Admiral);
                ev.push(Event::AdmiralBack { seat: att });
            }
            if is_castle {
                ev.extend(self.capture_castle(att, def, p.to));
            }
        } else {
            if let Some(s) = ship {
                // A sea attack ends only when one side is gone: here the ship is empty.
                debug_assert_eq!(s, 0);
                self.disengage(att, Card::Admiral);
                self.discard_card(Card::Admiral);
                ev.push(Event::AdmiralLost {
                    seat: att,
                    to: p.to,
                });
            }
            ev.push(Event::AttackStopped {
                from: p.from,
                to: p.to,
                left: self.armies[p.from],
                defenders: self.armies[p.to],
            });
        }
        ev
    }

    /// Rule 6: capturing a castle eliminates its owner.
    fn capture_castle(&mut self, victor: Seat, loser: Seat, t: T) -> Vec<Event> {
        let mut ev = vec![Event::CastleCaptured { victor, loser, t }];
        self.castle[loser] = None;
        self.alive[loser] = false;
        let mut removed = 0;
        let mut vacated = Vec::new();
        for x in 0..self.owner.len() {
            if self.owner[x] == Some(loser) {
                removed += self.armies[x];
                self.armies[x] = 0;
                self.owner[x] = None;
                vacated.push(x);
            }
        }
        self.ledger.removed += removed as u64;
        let tokens = std::mem::take(&mut self.tokens[loser]);
        self.tokens[victor].extend(tokens.iter().copied());
        // Engaged cards of the loser (a Marshal) go back to the hand first.
        let engaged: Vec<Card> = self
            .in_play
            .iter()
            .filter(|(s, _)| *s == loser)
            .map(|(_, c)| *c)
            .collect();
        self.in_play.retain(|(s, _)| *s != loser);
        self.hands[loser].extend(engaged);
        let cards = std::mem::take(&mut self.hands[loser]);
        self.hands[victor].extend(cards.iter().copied());
        let unused: Vec<Hidden> = self.hidden[loser]
            .iter()
            .filter(|h| !h.used)
            .cloned()
            .collect();
        self.hidden[loser].retain(|h| h.used);
        let hidden_taken = unused.len();
        self.hidden[victor].extend(unused);
        self.truces.retain(|tr| tr.by != loser && tr.with != loser);
        ev.push(Event::Eliminated {
            seat: loser,
            by: victor,
            armies_removed: removed,
            tokens,
            cards,
            hidden_taken,
        });
        if self.tokens[victor].len() == self.n() || self.alive_count() == 1 {
            let reason = format!("{} holds every castle token", self.name(victor));
            let fr = format!("{} détient tous les jetons de château", self.name(victor));
            ev.push(self.end_game(vec![victor], reason, fr));
            return ev;
        }
        if self.alive_count() == 2 && !self.no_diplomats {
            self.purge_at_end = true;
        }
        if !vacated.is_empty() {
            ev.extend(self.start_reoccupy(victor, vacated, t));
        }
        ev
    }

    // ------------------------------------------------------------------ stalemate

    /// Why the position is still live (rules notes, "Stalemate"): the first thing some
    /// player in the game can still do, or may yet be dealt the means to do. `None` means no
    /// player can ever attack or gain an army again, whatever cards are drawn: a dead
    /// position. Truces are ignored (they expire within a round).
    pub fn still_live(&self) -> Option<String> {
        let m = map();
        // (a) A Reinforcements card not yet on the track can still be played by someone.
        if self.reinforcements_left() {
            return Some("a Reinforcements card is still to be played".into());
        }
        for s in (0..self.n()).filter(|&s| self.alive[s]) {
            // (b) Earnings at the end of the turn.
            if self.earnings(s).0 > 0 {
                return Some(format!("{} earns armies", self.name(s)));
            }
            // (c) Hidden armies that can be revealed now (they are worth something).
            if self.hidden_value() > 0
                && self.hidden[s]
                    .iter()
                    .any(|h| !h.used && self.owner[h.territory] == Some(s))
            {
                return Some(format!("{} can reveal hidden armies", self.name(s)));
            }
            let enemy = |t: T| self.owner[t].is_some_and(|o| o != s);
            for from in
                (0..self.owner.len()).filter(|&t| self.owner[t] == Some(s) && self.armies[t] >= 2)
            {
                // (d) A land (or dotted-line) attack.
                if let Some(to) = m.board.neighbors(from).find(|&n| enemy(n)) {
                    return Some(format!(
                        "{} can attack {} from {}",
                        self.name(s),
                        Self::tname(to),
                        Self::tname(from)
                    ));
                }
                // (e) A sea attack, with an Admiral held now or drawn later.
                if m.sea[from] != Sea::None {
                    if let Some(to) = (0..self.owner.len())
                        .find(|&t| enemy(t) && shares_sea(m.sea[from], m.sea[t]))
                    {
                        return Some(format!(
                            "{} can sail from {} to {} with an Admiral",
                            self.name(s),
                            Self::tname(from),
                            Self::tname(to)
                        ));
                    }
                }
            }
        }
        None
    }

    /// Some Reinforcements card is not on the track yet (in a hand, the pile or the discard):
    /// someone can still play it.
    pub fn reinforcements_left(&self) -> bool {
        self.pile
            .iter()
            .chain(self.discard.iter())
            .chain(self.hands.iter().flatten())
            .chain(self.in_play.iter().map(|(_, c)| c))
            .any(|c| *c == Card::Reinforcements)
    }

    /// A dead position (see [`CastleRisk::still_live`]); only in play, between orders.
    pub fn stalemate(&self) -> bool {
        self.phase == Phase::Play
            && self.interrupt.is_none()
            && self.alive_count() >= 2
            && self.still_live().is_none()
    }

    /// The stalemate standings, best first: (seat, territories, armies on the board).
    /// Castle tokens are not compared: a captured token earns 8 armies a turn, so in a dead
    /// position every player still in the game holds exactly its own.
    pub fn stalemate_standings(&self) -> Vec<(Seat, usize, u64)> {
        let mut v: Vec<(Seat, usize, u64)> = (0..self.n())
            .filter(|&s| self.alive[s])
            .map(|s| {
                let terr = self.territories_of(s);
                let armies = terr.iter().map(|t| self.armies[*t] as u64).sum();
                (s, terr.len(), armies)
            })
            .collect();
        v.sort_by_key(|&(s, t, a)| (std::cmp::Reverse((t, a)), s));
        v
    }

    /// End a dead position: the most territories win, then the most armies on the board;
    /// players still equal share the result.
    fn end_in_stalemate(&mut self) -> Event {
        let table = self.stalemate_standings();
        let winners: Vec<Seat> = match table.first() {
            Some(&(_, t0, a0)) => table
                .iter()
                .filter(|&&(_, t, a)| (t, a) == (t0, a0))
                .map(|x| x.0)
                .collect(),
            None => vec![],
        };
        let reason = self.stalemate_reason(&table, &winners, Lang::En);
        let fr = self.stalemate_reason(&table, &winners, Lang::Fr);
        self.end_game(winners, reason, fr)
    }

    fn stalemate_reason(
        &self,
        table: &[(Seat, usize, u64)],
        winners: &[Seat],
        lang: Lang,
    ) -> String {
        let standings = table
            .iter()
            .map(|&(s, t, a)| match lang {
                Lang::En => format!("{} {t} territories, {a} armies", self.name(s)),
                Lang::Fr => format!(
                    "{} {}, {}",
                    self.name(s),
                    fr::count(t as i64, "territoire", "territoires"),
                    fr::count(a as i64, "armée", "armées")
                ),
            })
            .collect::<Vec<_>>()
            .join("; ");
        let names: Vec<String> = winners.iter().map(|s| self.name(*s).to_string()).collect();
        match lang {
            Lang::En => {
                let verdict = match winners {
                    [w] => format!("{} wins", self.name(*w)),
                    _ => format!("shared by {}", names.join(", ")),
                };
                format!(
                    "stalemate after {} turns: no player can ever attack or gain an army again \
                     (every Reinforcements card is on the track, nobody earns, no hidden armies can be \
                     revealed, no territory of 2+ armies borders an enemy by land or sea); decided by \
                     territories, then armies: {verdict} ({standings})",
                    self.turns_played
                )
            }
            Lang::Fr => {
                let verdict = match winners {
                    [w] => format!("{} gagne", self.name(*w)),
                    _ => format!("partagée entre {}", text::et(&names)),
                };
                format!(
                    "blocage après {} : plus aucun joueur ne pourra attaquer ni gagner d'armée \
                     (toutes les cartes Renfort sont jouées, personne ne reçoit de nouvelles troupes, \
                     aucune armée cachée ne peut être dévoilée, aucun territoire de 2 armées ou plus ne \
                     touche un ennemi par terre ou par mer) ; décidé aux territoires, puis aux armées : \
                     {verdict} ({})",
                    fr::count(self.turns_played, "tour", "tours"),
                    standings.replace("; ", " ; ")
                )
            }
        }
    }

    fn end_game(&mut self, winners: Vec<Seat>, reason: String, reason_fr: String) -> Event {
        self.phase = Phase::Over;
        self.interrupt = None;
        self.outcome = Some(Outcome::new(winners.clone(), reason.clone()).fr(reason_fr));
        Event::GameOver { winners, reason }
    }

    fn start_reoccupy(&mut self, victor: Seat, vacated: Vec<T>, castle: T) -> Vec<Event> {
        match self.standing[victor].reoccupy {
            Some(true) => {
                let mut ev = self.occupy_all(victor, &vacated, castle);
                let left: Vec<T> = vacated
                    .into_iter()
                    .filter(|t| self.owner[*t].is_none())
                    .collect();
                ev.extend(self.start_annex(victor, left));
                ev
            }
            Some(false) => self.start_annex(victor, vacated),
            None => {
                self.interrupt = Some(Interrupt::Reoccupy {
                    victor,
                    vacated,
                    castle,
                });
                vec![]
            }
        }
    }

    /// A source the victor may take one army from: the captured castle first ("en
    /// commençant par les armées avec lesquelles vous avez attaqué"), then the largest stack.
    pub fn default_source(&self, seat: Seat, first: Option<T>) -> Option<T> {
        if let Some(f) = first {
            if self.owner[f] == Some(seat) && self.armies[f] >= 2 {
                return Some(f);
            }
        }
        (0..self.owner.len())
            .filter(|&t| self.owner[t] == Some(seat) && self.armies[t] >= 2)
            .max_by_key(|&t| (self.armies[t], std::cmp::Reverse(t)))
    }

    fn occupy_all(&mut self, victor: Seat, vacated: &[T], castle: T) -> Vec<Event> {
        let mut ev = Vec::new();
        for &t in vacated {
            if self.owner[t].is_some() {
                continue;
            }
            let Some(src) = self.default_source(victor, Some(castle)) else {
                break;
            };
            self.armies[src] -= 1;
            self.armies[t] = 1;
            self.owner[t] = Some(victor);
            ev.push(Event::Reoccupied {
                seat: victor,
                t,
                from: src,
            });
        }
        ev
    }

    pub fn occupy(&mut self, seat: Seat, what: OccupyWhat) -> Result<Vec<Event>, OrderError> {
        let Some(Interrupt::Reoccupy {
            victor,
            vacated,
            castle,
        }) = self.interrupt.clone()
        else {
            return Err(oe(
                "there is nothing to re-occupy now",
                "il n'y a rien à réoccuper maintenant",
            ));
        };
        if seat != victor {
            return Err(oe(
                format!(
                    "{} re-occupies first; you will annex in turn",
                    self.name(victor)
                ),
                format!(
                    "{} réoccupe d'abord ; vous annexerez à votre tour",
                    self.name(victor)
                ),
            ));
        }
        let free: Vec<T> = vacated
            .iter()
            .copied()
            .filter(|t| self.owner[*t].is_none())
            .collect();
        let mut ev = Vec::new();
        match what {
            OccupyWhat::All => {
                ev.extend(self.occupy_all(seat, &free, castle));
            }
            OccupyWhat::Pass => {}
            OccupyWhat::One { t, from } => {
                if !free.contains(&t) {
                    let names = |lang: Lang| {
                        free.iter()
                            .map(|t| tn(*t, lang))
                            .collect::<Vec<_>>()
                            .join(", ")
                    };
                    return Err(err(
                        format!("{} is not a vacated territory", Self::tname(t)),
                        format!("{} n'est pas un territoire libéré", cap(&text::le(t))),
                        format!("vacated: {}", names(Lang::En)),
                        format!("libérés : {}", names(Lang::Fr)),
                    ));
                }
                let src = match from {
                    Some(f) => self.check_source(seat, f)?,
                    None => self.default_source(seat, Some(castle)).ok_or_else(|| {
                        err(
                            "you have no army to spare",
                            "vous n'avez pas d'armée disponible",
                            "write: PASS",
                            "écrivez : PASSER",
                        )
                    })?,
                };
                self.armies[src] -= 1;
                self.armies[t] = 1;
                self.owner[t] = Some(seat);
                ev.push(Event::Reoccupied { seat, t, from: src });
                let left: Vec<T> = free.into_iter().filter(|x| *x != t).collect();
                if !left.is_empty() && self.default_source(seat, Some(castle)).is_some() {
                    self.interrupt = Some(Interrupt::Reoccupy {
                        victor,
                        vacated: left,
                        castle,
                    });
                    return Ok(ev);
                }
            }
        }
        self.interrupt = None;
        let left: Vec<T> = vacated
            .into_iter()
            .filter(|t| self.owner[*t].is_none())
            .collect();
        ev.extend(self.start_annex(victor, left));
        Ok(ev)
    }

    /// A territory a seat may take one army from (re-occupation, annexation).
    fn check_source(&self, seat: Seat, f: T) -> Result<T, OrderError> {
        if self.owner[f] != Some(seat) || self.armies[f] < 2 {
            return Err(oe(
                format!(
                    "take the army from one of your territories with at least 2 armies, not {}",
                    Self::tname(f)
                ),
                format!(
                    "prenez l'armée sur un de vos territoires qui en a au moins 2, pas {}",
                    text::le(f)
                ),
            ));
        }
        Ok(f)
    }

    fn start_annex(&mut self, victor: Seat, vacated: Vec<T>) -> Vec<Event> {
        if vacated.is_empty() {
            self.interrupt = None;
            return vec![];
        }
        let next = self.next_alive_after(victor);
        self.continue_annex(victor, vacated, next)
    }

    /// Annexation in turn order from `next`; players who cannot spare an army are passed;
    /// if nobody can, the annexing player puts a new army there (see the rules notes).
    fn continue_annex(&mut self, victor: Seat, mut vacated: Vec<T>, mut next: Seat) -> Vec<Event> {
        let mut ev = Vec::new();
        let mut skipped = 0;
        while !vacated.is_empty() {
            if next == victor {
                next = self.next_alive_after(next);
                if self.alive_count() <= 1 {
                    break;
                }
                continue;
            }
            if self.default_source(next, None).is_none() {
                skipped += 1;
                if skipped >= self.n() {
                    // Nobody has an army to spare: a new army from the box.
                    let t = vacated.remove(0);
                    self.put(next, t, 1);
                    ev.push(Event::Annexed {
                        seat: next,
                        t,
                        from: None,
                    });
                    skipped = 0;
                }
                next = self.next_alive_after(next);
                continue;
            }
            skipped = 0;
            let s = &self.standing[next];
            if s.annex.is_none() && self.options.ask {
                self.interrupt = Some(Interrupt::Annex {
                    victor,
                    vacated,
                    next,
                });
                return ev;
            }
            let (t, src) = self.default_annex(next, &vacated);
            ev.extend(self.do_annex(next, t, src));
            vacated.retain(|x| *x != t);
            next = self.next_alive_after(next);
        }
        self.interrupt = None;
        ev
    }

    /// The annexation a seat's standing order (or the default) picks: the first listed
    /// vacated territory, else the one bordering most of the seat's territories; the army
    /// from the seat's largest stack.
    pub fn default_annex(&self, seat: Seat, vacated: &[T]) -> (T, T) {
        let pref = self.standing[seat].annex.clone().unwrap_or_default();
        let t = pref
            .iter()
            .find(|t| vacated.contains(t))
            .copied()
            .unwrap_or_else(|| {
                *vacated
                    .iter()
                    .max_by_key(|&&v| {
                        (
                            map()
                                .board
                                .neighbors(v)
                                .filter(|&n| self.owner[n] == Some(seat))
                                .count(),
                            std::cmp::Reverse(v),
                        )
                    })
                    .unwrap_or(&vacated[0])
            });
        let src = self.default_source(seat, None).unwrap_or(t);
        (t, src)
    }

    fn do_annex(&mut self, seat: Seat, t: T, src: T) -> Vec<Event> {
        self.armies[src] -= 1;
        self.armies[t] = 1;
        self.owner[t] = Some(seat);
        vec![Event::Annexed {
            seat,
            t,
            from: Some(src),
        }]
    }

    pub fn annex(&mut self, seat: Seat, t: T, from: Option<T>) -> Result<Vec<Event>, OrderError> {
        let Some(Interrupt::Annex {
            victor,
            vacated,
            next,
        }) = self.interrupt.clone()
        else {
            return Err(oe(
                "there is nothing to annex now",
                "il n'y a rien à annexer maintenant",
            ));
        };
        if seat != next {
            return Err(oe(
                format!("it is {}'s turn to annex", self.name(next)),
                format!("c'est à {} d'annexer", self.name(next)),
            ));
        }
        if !vacated.contains(&t) {
            let d = self.default_annex(seat, &vacated).0;
            return Err(err(
                format!("{} is not a vacated territory", Self::tname(t)),
                format!("{} n'est pas un territoire libéré", cap(&text::le(t))),
                format!("write: ANNEX {}", Self::tname(d)),
                format!("écrivez : ANNEXER {}", tn(d, Lang::Fr)),
            ));
        }
        let src = match from {
            Some(f) => self.check_source(seat, f)?,
            None => self.default_annex(seat, &vacated).1,
        };
        let mut ev = self.do_annex(seat, t, src);
        let left: Vec<T> = vacated.into_iter().filter(|x| *x != t).collect();
        self.interrupt = None;
        let after = self.next_alive_after(seat);
        ev.extend(self.continue_annex(victor, left, after));
        Ok(ev)
    }

    pub fn earnings(&self, seat: Seat) -> (u32, String) {
        let m = map();
        let mut total = 0;
        let mut parts = Vec::new();
        for g in 0..EMPIRES.len() {
            if m.board.groups[g]
                .members
                .iter()
                .all(|&t| self.owner[t] == Some(seat))
            {
                total += EMPIRE_BONUS;
                parts.push(format!("{} {EMPIRE_BONUS}", m.empire_name(g)));
            }
        }
        if m.independents.iter().all(|&t| self.owner[t] == Some(seat)) {
            total += INDEPENDENTS_BONUS;
            parts.push(format!("all independents {INDEPENDENTS_BONUS}"));
        }
        let captured = self.tokens[seat].len().saturating_sub(1) as u32;
        if captured > 0 {
            total += TOKEN_BONUS * captured;
            parts.push(format!(
                "{captured} captured castle token(s) {}",
                TOKEN_BONUS * captured
            ));
        }
        (total, parts.join(", "))
    }

    pub fn end(&mut self, seat: Seat, dice: &mut DiceBox) -> Result<Vec<Event>, OrderError> {
        self.in_turn(seat, "END")?;
        let (e, detail) = self.earnings(seat);
        let mut ev = vec![Event::TurnEnds {
            seat,
            earnings: e,
            detail,
        }];
        if e > 0 {
            self.to_place = e;
            self.placing_earnings = true;
            return Ok(ev);
        }
        ev.extend(self.finish_turn(dice));
        Ok(ev)
    }

    /// After earnings are placed: cards back, truces expire, next player.
    fn finish_turn(&mut self, dice: &mut DiceBox) -> Vec<Event> {
        let seat = self.current;
        let mut ev = Vec::new();
        // General (attacker) and Marshals (defenders) that survived return to the hand;
        // Diplomats played this turn are discarded.
        for (s, c) in std::mem::take(&mut self.in_play) {
            match c {
                Card::Diplomat => self.discard.push(c),
                _ => {
                    if self.alive[s] {
                        self.hands[s].push(c);
                        ev.push(Event::CardReturned { seat: s, card: c });
                    } else {
                        self.discard.push(c);
                    }
                }
            }
        }
        let tp = self.turns_played;
        self.truces.retain(|t| !(t.with == seat && t.made < tp));
        if self.purge_at_end {
            self.purge_at_end = false;
            self.no_diplomats = true;
            self.truces.clear();
            ev.push(Event::TwoPlayerRule);
            for s in 0..self.n() {
                if !self.alive[s] {
                    continue;
                }
                let k = self.hands[s]
                    .iter()
                    .filter(|c| **c == Card::Diplomat)
                    .count();
                if k > 0 {
                    self.hands[s].retain(|c| *c != Card::Diplomat);
                    self.discard.extend(std::iter::repeat_n(Card::Diplomat, k));
                    ev.push(Event::DiplomatsPurged { seat: s, count: k });
                    let mut got = Vec::new();
                    for _ in 0..k {
                        if let Some(c) = self.draw(s, dice, &mut ev) {
                            got.push(c);
                        }
                    }
                    ev.push(Event::Drew {
                        seat: s,
                        cards: got,
                    });
                }
            }
        }
        if self.stalemate() {
            ev.push(self.end_in_stalemate());
            return ev;
        }
        if self.options.turn_limit > 0 && self.turns_played >= self.options.turn_limit {
            let best = (0..self.n())
                .filter(|&s| self.alive[s])
                .map(|s| (self.territories_of(s).len(), s))
                .max_by_key(|&(k, s)| (k, std::cmp::Reverse(s)));
            let winners = best.map(|b| vec![b.1]).unwrap_or_default();
            let reason = format!(
                "turn limit reached ({} turns); leader by territories: {}",
                self.turns_played,
                winners.first().map(|s| self.name(*s)).unwrap_or("nobody")
            );
            let fr = format!(
                "limite de tours atteinte ({}) ; en tête aux territoires : {}",
                fr::count(self.turns_played, "tour", "tours"),
                winners.first().map(|s| self.name(*s)).unwrap_or("personne")
            );
            ev.push(self.end_game(winners, reason, fr));
            return ev;
        }
        let next = self.next_alive_after(seat);
        ev.extend(self.begin_turn(next, dice));
        ev
    }

    pub fn set_standing(&mut self, seat: Seat, s: &SetOrder) -> Result<Vec<Event>, OrderError> {
        if self.phase == Phase::Over {
            return Err(self.wrong_phase("SET"));
        }
        let st = &mut self.standing[seat];
        match s {
            SetOrder::Defend(n) => {
                if !(1..=2).contains(n) {
                    return Err(err(
                        "a defender rolls 1 or 2 dice",
                        "le défenseur lance 1 ou 2 dés",
                        "write: SET DEFEND 2",
                        "écrivez : CONSIGNE DÉFENDRE 2",
                    ));
                }
                st.defend = Some(*n)
            }
            SetOrder::Marshal(p) => st.marshal = Some(*p),
            SetOrder::CounterSpy(b) => st.counterspy = Some(*b),
            SetOrder::Reveal(p) => st.reveal = Some(*p),
            SetOrder::Annex(l) => st.annex = Some(l.clone()),
            SetOrder::Reoccupy(b) => st.reoccupy = *b,
            SetOrder::Ask => *st = Standing::default(),
        }
        Ok(vec![Event::StandingSet {
            seat,
            text: s.text(),
        }])
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

/// A standing order.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum SetOrder {
    Defend(u32),
    Marshal(MarshalPolicy),
    CounterSpy(bool),
    Reveal(RevealPolicy),
    /// Annexation preferences; empty = AUTO.
    Annex(Vec<T>),
    /// `Some(true)` ALL, `Some(false)` NONE, `None` ASK.
    Reoccupy(Option<bool>),
    /// Forget every standing order (back to prompts/defaults).
    Ask,
}

impl SetOrder {
    pub fn text(&self) -> String {
        self.text_in(Lang::En)
    }

    /// The standing order as a reader of `lang` writes it (parses back to itself).
    pub fn text_in(&self, lang: Lang) -> String {
        let k = |w: &'static str| kw(lang, w);
        let rest = match self {
            SetOrder::Defend(n) => format!("{} {n}", k("DEFEND")),
            SetOrder::Marshal(MarshalPolicy::Always) => format!("{} {}", k("MARSHAL"), k("ALWAYS")),
            SetOrder::Marshal(MarshalPolicy::Never) => format!("{} {}", k("MARSHAL"), k("NEVER")),
            SetOrder::Marshal(MarshalPolicy::When(n)) => {
                format!("{} {} {n}+", k("MARSHAL"), k("WHEN"))
            }
            SetOrder::CounterSpy(true) => format!("{} {}", k("COUNTERSPY"), k("ALWAYS")),
            SetOrder::CounterSpy(false) => format!("{} {}", k("COUNTERSPY"), k("NEVER")),
            SetOrder::Reveal(RevealPolicy::Never) => format!("{} {}", k("REVEAL"), k("NEVER")),
            SetOrder::Reveal(RevealPolicy::OnAttack(1)) => {
                format!("{} {} {}", k("REVEAL"), k("ON"), k("ATTACK"))
            }
            SetOrder::Reveal(RevealPolicy::OnAttack(n)) => {
                format!("{} {} {n}+", k("REVEAL"), k("WHEN"))
            }
            SetOrder::Annex(l) if l.is_empty() => format!("{} {}", k("ANNEX"), k("AUTO")),
            SetOrder::Annex(l) => format!(
                "{} {}",
                k("ANNEX"),
                l.iter()
                    .map(|t| tn(*t, lang))
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
            SetOrder::Reoccupy(Some(true)) => format!("{} {}", k("REOCCUPY"), k("ALL")),
            SetOrder::Reoccupy(Some(false)) => format!("{} {}", k("REOCCUPY"), k("NONE")),
            SetOrder::Reoccupy(None) => format!("{} {}", k("REOCCUPY"), k("ASK")),
            SetOrder::Ask => k("ASK").to_string(),
        };
        format!("{} {rest}", k("SET"))
    }
}

/// A hand as text (for views).
pub fn hand_line(cards: &[Card]) -> String {
    hand_text(cards)
}
