//! The prompts: who must answer what now, worded in the reader's language; the choices,
//! default and standing order are order lines in that language (French keywords and names
//! for a French reader; each parses back to the same order as the English line).

use crate::cards::Card;
use crate::game::{CastleRisk, Interrupt, OccupyWhat, PendingAttack, Phase, SetOrder, T};
use crate::map::map;
use crate::orders::{order_text_in, Order};
use crate::words::{self, armees, kw, tn};
use castellan_engine::{Lang, PromptKinds, PromptRole, Seat};

/// A prompt of Castle Risk: one of its kinds.
pub type Prompt = castellan_engine::Prompt<Ask>;

/// What Castle Risk asks of a seat.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Ask {
    /// Choose your castle's territory.
    Castle,
    /// Claim a territory at setup.
    Claim,
    /// Rank the territories for the draft.
    Rank,
    /// Place armies (at setup, or at the start of a turn).
    Place,
    /// Hide armies at setup.
    Hide,
    /// Play a turn.
    Turn,
    /// Answer an attack.
    Defend,
    /// Answer a Spy.
    CounterSpy,
    /// Re-occupy vacated territories after taking a castle.
    Reoccupy,
    /// Annex a vacated territory.
    Annex,
}

impl PromptKinds for Ask {
    const ALL: &'static [Ask] = &[
        Ask::Castle,
        Ask::Claim,
        Ask::Rank,
        Ask::Place,
        Ask::Hide,
        Ask::Turn,
        Ask::Defend,
        Ask::CounterSpy,
        Ask::Reoccupy,
        Ask::Annex,
    ];

    fn name(self) -> &'static str {
        match self {
            Ask::Castle => "castle",
            Ask::Claim => "claim",
            Ask::Rank => "rank",
            Ask::Place => "place",
            Ask::Hide => "hide",
            Ask::Turn => "turn",
            Ask::Defend => "defend",
            Ask::CounterSpy => "counter-spy",
            Ask::Reoccupy => "reoccupy",
            Ask::Annex => "annex",
        }
    }

    fn role(self) -> PromptRole {
        match self {
            Ask::Castle | Ask::Claim | Ask::Rank | Ask::Place | Ask::Hide => PromptRole::Step,
            Ask::Turn => PromptRole::Turn,
            Ask::Defend | Ask::CounterSpy | Ask::Reoccupy | Ask::Annex => PromptRole::Question,
        }
    }
}

impl CastleRisk {
    /// The prompts the game waits on now.
    pub fn prompts(&self, lang: Lang) -> Vec<Prompt> {
        if self.outcome.is_some() {
            return vec![];
        }
        match &self.phase {
            Phase::Castles { order, next } => vec![self.castle_prompt(order[*next], lang)],
            Phase::Claim { order, next } => {
                let s = order[*next % order.len()];
                let choices = self
                    .free_territories()
                    .iter()
                    .take(8)
                    .map(|t| Order::Claim(*t))
                    .collect();
                let q = lang.pick(
                    "Claim one free territory with one army.",
                    "Prenez un territoire libre avec une armée.",
                );
                vec![self.prompt(s, Ask::Claim, q.into(), choices, None, lang)]
            }
            Phase::Draft { ranks } => (0..self.n())
                .filter(|s| ranks[*s].is_none())
                .map(|s| self.rank_prompt(s, lang))
                .collect(),
            Phase::Place { order, next } => {
                let s = order[*next];
                let due = self.players[s].setup_armies.min(5);
                let q = match lang {
                    Lang::En => format!(
                        "Place {} on your territories.",
                        castellan_engine::lang::en::count(due, "army", "armies")
                    ),
                    Lang::Fr => format!("Placez {} sur vos territoires.", armees(due)),
                };
                vec![self.place_prompt(s, due, q, lang)]
            }
            Phase::Blind { sent } => (0..self.n())
                .filter(|s| sent[*s].is_none() && self.players[*s].setup_armies > 0)
                .map(|s| {
                    let due = self.players[s].setup_armies;
                    let q = match lang {
                        Lang::En => format!("Send your whole placement of {}; all placements are revealed together.", castellan_engine::lang::en::count(due, "army", "armies")),
                        Lang::Fr => format!("Envoyez tout votre placement de {} ; tous les placements sont dévoilés ensemble.", armees(due)),
                    };
                    self.place_prompt(s, due, q, lang)
                })
                .collect(),
            Phase::Hide => (0..self.n())
                .filter(|s| !self.players[*s].hidden.iter().any(|h| h.chosen_by == *s))
                .map(|s| self.hide_prompt(s, lang))
                .collect(),
            Phase::Play => vec![self.play_prompt(lang)],
            Phase::Over => vec![],
        }
    }

    /// A prompt whose choices and default are orders, written in `lang`.
    fn prompt(
        &self,
        seat: Seat,
        kind: Ask,
        question: String,
        choices: Vec<Order>,
        standing: Option<SetOrder>,
        lang: Lang,
    ) -> Prompt {
        let choices = choices
            .iter()
            .map(|o| order_text_in(self, o, lang))
            .collect();
        self.prompt_lines(seat, kind, question, choices, standing, lang)
    }

    fn prompt_lines(
        &self,
        seat: Seat,
        kind: Ask,
        question: String,
        choices: Vec<String>,
        standing: Option<SetOrder>,
        lang: Lang,
    ) -> Prompt {
        let default = if kind == Ask::Turn && self.to_place == 0 {
            Order::End
        } else {
            self.default_for(seat, kind)
        };
        Prompt {
            seat,
            kind,
            question,
            choices,
            default: order_text_in(self, &default, lang),
            standing: standing.map(|s| s.text_in(lang)),
        }
    }

    fn castle_prompt(&self, s: Seat, lang: Lang) -> Prompt {
        let e = self.players[s].empire;
        let choices = map().board.groups[e]
            .members
            .iter()
            .filter(|t| self.board[**t].owner.is_none())
            .map(|t| Order::Castle(*t))
            .collect();
        let q = match lang {
            Lang::En => format!(
                "You drew the {} token: put your castle on one of its territories.",
                map().empire_name(e)
            ),
            Lang::Fr => format!(
                "Vous avez tiré le jeton de {} : placez votre château sur un de ses territoires.",
                words::group_le(e)
            ),
        };
        self.prompt(s, Ask::Castle, q, choices, None, lang)
    }

    fn rank_prompt(&self, s: Seat, lang: Lang) -> Prompt {
        let ex: Vec<T> = self.free_territories().into_iter().take(4).collect();
        let q = lang.pick(
            "Send your ranked list of territories, best first; the draft runs round-robin once everyone has sent one.",
            "Envoyez votre classement des territoires, le meilleur d'abord ; la répartition se fait à tour de rôle quand tout le monde a envoyé le sien.",
        );
        let choices = vec![Order::Rank(ex), Order::Rank(vec![])];
        self.prompt(s, Ask::Rank, q.into(), choices, None, lang)
    }

    fn place_prompt(&self, s: Seat, due: u32, q: String, lang: Lang) -> Prompt {
        let choices = self.place_choices(s, due);
        self.prompt(s, Ask::Place, q, choices, None, lang)
    }

    fn hide_prompt(&self, s: Seat, lang: Lang) -> Prompt {
        let choices = self
            .territories_of(s)
            .iter()
            .filter(|t| self.castle_owner_at(**t).is_none())
            .take(6)
            .map(|t| Order::Hide(*t))
            .collect();
        let q = lang.pick(
            "Choose in secret the territory of your hidden armies (any territory without a castle).",
            "Choisissez en secret le territoire de vos armées cachées (tout territoire sans château).",
        );
        self.prompt(s, Ask::Hide, q.into(), choices, None, lang)
    }

    fn play_prompt(&self, lang: Lang) -> Prompt {
        if let Some(i) = &self.interrupt {
            return self.interrupt_prompt(i, lang);
        }
        let s = self.current;
        if self.to_place > 0 {
            let n = self.to_place;
            let q = match (lang, self.placing_earnings) {
                (Lang::En, earned) => format!(
                    "Place your {n} {} {} on your territories.",
                    if earned { "earned" } else { "reinforcement" },
                    if n == 1 { "army" } else { "armies" }
                ),
                (Lang::Fr, true) if n == 1 => {
                    "Placez votre armée reçue sur vos territoires.".into()
                }
                (Lang::Fr, true) => format!("Placez vos {n} armées reçues sur vos territoires."),
                (Lang::Fr, false) if n == 1 => {
                    "Placez votre armée de renfort sur vos territoires.".into()
                }
                (Lang::Fr, false) => {
                    format!("Placez vos {n} armées de renfort sur vos territoires.")
                }
            };
            let choices = self.place_choices(s, n);
            return self.prompt(s, Ask::Place, q, choices, None, lang);
        }
        let q = lang.pick(
            "Your turn: play cards, attack, then END to collect your earnings.",
            "À vous de jouer : jouez des cartes, attaquez, puis FIN pour recevoir vos nouvelles troupes.",
        );
        let choices = self.turn_choices(s, lang);
        self.prompt_lines(s, Ask::Turn, q.into(), choices, None, lang)
    }

    fn interrupt_prompt(&self, i: &Interrupt, lang: Lang) -> Prompt {
        let s = self.interrupt_seat(i);
        let (kind, q, choices, standing) = match i {
            Interrupt::Defend(p) => (
                Ask::Defend,
                self.defend_question(p, lang),
                self.defend_choices(s, p),
                SetOrder::Defend(2),
            ),
            Interrupt::CounterSpy { spy, .. } => {
                let mut c = vec![Order::CounterSpy(false)];
                if self.hand_has(s, Card::Spy) {
                    c.insert(0, Order::CounterSpy(true));
                }
                let q = match lang {
                    Lang::En => format!(
                        "{} plays a Spy on you: counter it with a Spy of your own?",
                        self.name(*spy)
                    ),
                    Lang::Fr => format!(
                        "{} joue un Espion contre vous : le contrer avec un de vos Espions ?",
                        self.name(*spy)
                    ),
                };
                (Ask::CounterSpy, q, c, SetOrder::CounterSpy(true))
            }
            Interrupt::Reoccupy {
                vacated,
                castle,
                victor,
            } => {
                // Only what is possible: with no army to spare (every territory at one
                // army), PASS is the only answer.
                let spare = self.default_source(*victor, Some(*castle)).is_some();
                let mut c = vec![Order::Occupy(OccupyWhat::Pass)];
                if spare {
                    c.insert(0, Order::Occupy(OccupyWhat::All));
                    c.extend(
                        vacated
                            .iter()
                            .filter(|t| self.board[**t].owner.is_none())
                            .take(6)
                            .map(|t| Order::Occupy(OccupyWhat::One { t: *t, from: None })),
                    );
                }
                let q = lang.pick(
                    "You captured a castle: re-occupy vacated territories with one army each (OCCUPY ... FROM ...), OCCUPY ALL, or PASS to leave the rest to the others.",
                    "Vous avez pris un château : réoccupez les territoires libérés avec une armée chacun (OCCUPER ... DEPUIS ...), OCCUPER TOUT, ou PASSER pour laisser le reste aux autres.",
                );
                (Ask::Reoccupy, q.into(), c, SetOrder::Reoccupy(Some(true)))
            }
            Interrupt::Annex { vacated, .. } => {
                let c = vacated
                    .iter()
                    .take(8)
                    .map(|t| Order::Annex { t: *t, from: None })
                    .collect();
                let q = lang.pick(
                    "Annex one vacated territory with one army taken from any of yours.",
                    "Annexez un territoire libéré avec une armée prise sur n'importe lequel de vos territoires.",
                );
                (Ask::Annex, q.into(), c, SetOrder::Annex(vec![]))
            }
        };
        self.prompt(s, kind, q, choices, Some(standing), lang)
    }

    fn defend_question(&self, p: &PendingAttack, lang: Lang) -> String {
        let att = self.name(p.attacker);
        match lang {
            Lang::En => format!(
                "{} attacks {} ({} armies) from {}{}: how do you defend this attack?",
                att,
                Self::tname(p.to),
                self.board[p.to].armies,
                Self::tname(p.from),
                match p.ship {
                    Some(k) => format!(" by sea with {k} armies"),
                    None => format!(" ({} armies)", self.board[p.from].armies),
                }
            ),
            Lang::Fr => format!(
                "{} attaque {} ({}) depuis {}{} : comment défendez-vous cette attaque ?",
                att,
                words::le(p.to),
                armees(self.board[p.to].armies),
                words::le(p.from),
                match p.ship {
                    Some(k) => format!(" par la mer avec {}", armees(k)),
                    None => format!(" ({})", armees(self.board[p.from].armies)),
                }
            ),
        }
    }

    fn defend_choices(&self, s: Seat, p: &PendingAttack) -> Vec<Order> {
        let d = |dice, marshal, reveal| Order::Defend {
            dice,
            marshal,
            reveal,
        };
        let mut c = vec![d(2, false, false), d(1, false, false)];
        if self.hand_has(s, Card::Marshal) {
            c.push(d(2, true, false));
        }
        if self.players[s]
            .hidden
            .iter()
            .any(|h| !h.used && h.territory == p.to)
            // Worth 0 before any Reinforcements card: refused, so not offered.
            && self.check_reveal_worth().is_ok()
        {
            c.push(d(2, false, true));
        }
        c
    }

    fn place_choices(&self, s: Seat, due: u32) -> Vec<Order> {
        let mut v: Vec<Order> = Vec::new();
        if let Some(c) = self.players[s].castle {
            v.push(Order::Place(vec![(c, due)]));
        }
        for t in self.territories_of(s).into_iter().take(4) {
            let o = Order::Place(vec![(t, due)]);
            if !v.contains(&o) {
                v.push(o);
            }
        }
        v
    }

    /// Sample lines for the turn: Reinforcements, attacks to the end, END.
    fn turn_choices(&self, s: Seat, lang: Lang) -> Vec<String> {
        let mut v = Vec::new();
        if !self.attacked {
            let r = self.players[s]
                .hand
                .iter()
                .filter(|c| **c == Card::Reinforcements)
                .count();
            if r > 0 {
                v.push(format!("{} {r}", kw(lang, "REINFORCE")));
            }
        }
        for t in self.territories_of(s) {
            if self.board[t].armies < 2 {
                continue;
            }
            for n in map().board.neighbors(t) {
                if let Some(o) = self.board[n].owner {
                    if o != s && !self.truce_between(s, o) && v.len() < 8 {
                        v.push(format!(
                            "{} {} {} {} {}",
                            kw(lang, "ATTACK"),
                            tn(n, lang),
                            kw(lang, "FROM"),
                            tn(t, lang),
                            kw(lang, "UNTIL CONQUERED")
                        ));
                    }
                }
            }
        }
        v.push(kw(lang, "END").into());
        v
    }

    /// The documented default for a prompt of `kind` for `seat`.
    pub fn default_for(&self, s: Seat, kind: Ask) -> Order {
        match kind {
            Ask::Castle => {
                let members = &map().board.groups[self.players[s].empire].members;
                let t = members
                    .iter()
                    .copied()
                    .find(|t| self.board[*t].owner.is_none())
                    .unwrap_or(members[0]);
                Order::Castle(t)
            }
            Ask::Claim => {
                let free = self.free_territories();
                let e = self.players[s].empire;
                let t = free
                    .iter()
                    .copied()
                    .find(|t| map().group_of(*t) == e)
                    .or_else(|| free.first().copied())
                    .unwrap_or(0);
                Order::Claim(t)
            }
            Ask::Rank => Order::Rank(vec![]),
            Ask::Hide => {
                let free = |t: &T| self.castle_owner_at(*t).is_none();
                let t = self
                    .territories_of(s)
                    .into_iter()
                    .find(free)
                    .or_else(|| self.board.ids().find(free))
                    .unwrap_or(0);
                Order::Hide(t)
            }
            Ask::Place => {
                let due = match self.phase {
                    Phase::Place { .. } => self.players[s].setup_armies.min(5),
                    Phase::Blind { .. } => self.players[s].setup_armies,
                    _ => self.to_place,
                };
                Order::Place(vec![(self.first_own(s), due.max(1))])
            }
            Ask::Defend | Ask::CounterSpy | Ask::Annex => self.default_answer(s, kind),
            Ask::Reoccupy => Order::Occupy(OccupyWhat::All),
            Ask::Turn => {
                if self.to_place > 0 {
                    Order::Place(vec![(self.first_own(s), self.to_place)])
                } else {
                    Order::End
                }
            }
        }
    }

    /// The castle if held, else the first territory held.
    fn first_own(&self, s: Seat) -> T {
        self.players[s]
            .castle
            .filter(|c| self.board[*c].owner == Some(s))
            .or_else(|| self.territories_of(s).first().copied())
            .unwrap_or(0)
    }

    /// The default answer out of turn: the standing order, else the documented default.
    fn default_answer(&self, s: Seat, kind: Ask) -> Order {
        match (kind, &self.interrupt) {
            (Ask::Defend, Some(Interrupt::Defend(p))) => {
                let d = self.standing_defence(s, p.to);
                Order::Defend {
                    dice: d.dice,
                    marshal: d.marshal
                        && (self.hand_has(s, Card::Marshal)
                            || self.in_play.contains(&(s, Card::Marshal))),
                    reveal: d.reveal,
                }
            }
            (Ask::Defend, _) => Order::Defend {
                dice: 2,
                marshal: false,
                reveal: false,
            },
            (Ask::CounterSpy, _) => Order::CounterSpy(
                self.players[s]
                    .standing
                    .counterspy
                    .unwrap_or(crate::game::DEFAULT_COUNTERSPY)
                    && self.hand_has(s, Card::Spy),
            ),
            (_, Some(Interrupt::Annex { vacated, .. })) => {
                let (t, from) = self.default_annex(s, vacated);
                Order::Annex {
                    t,
                    from: Some(from),
                }
            }
            _ => Order::Occupy(OccupyWhat::Pass),
        }
    }
}
