//! Setup: castle tokens and castles, claiming territories (table, draft, random), placing
//! the starting armies (rounds or blind), the hidden-army territories, the first deal.

use super::*;

impl CastleRisk {
    pub fn new_game(
        players: &[String],
        options: &Options,
        dice: &mut DiceBox,
    ) -> Result<(CastleRisk, Vec<Event>), OrderError> {
        let n = players.len();
        if !(2..=6).contains(&n) {
            return Err(refusal(
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
            players: (0..n)
                .map(|s| Player::new(&players[s], empire[s], start))
                .collect(),
            board: Board::empty(nt),
            pile: deck,
            discard: Vec::new(),
            track: 0,
            in_play: Vec::new(),
            truces: Vec::new(),
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

    pub(crate) fn put(&mut self, seat: Seat, t: T, n: u32) {
        self.board[t].owner = Some(seat);
        self.board[t].armies += n;
        self.ledger.placed += n as u64;
    }

    pub fn free_territories(&self) -> Vec<T> {
        self.board
            .ids()
            .filter(|&t| self.board[t].owner.is_none())
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
            return Err(refusal(
                format!("it is {}'s turn to place a castle", self.name(who)),
                format!("c'est à {} de placer son château", self.name(who)),
            ));
        }
        let g = map().group_of(t);
        if g != self.players[seat].empire {
            let ex = map().board.groups[self.players[seat].empire].members[0];
            let e = self.players[seat].empire;
            return Err(err(
                format!(
                    "{} is not in the {}: your castle token is the {}'s",
                    Self::tname(t),
                    map().empire_name(e),
                    map().empire_name(e)
                ),
                format!(
                    "{} n'est pas dans {} : votre jeton de château est celui de {}",
                    cap(&words::le(t)),
                    words::group_le(e),
                    words::group_le(e),
                ),
                format!("write: CASTLE {}", Self::tname(ex)),
                format!("écrivez : {} {}", kw(Lang::Fr, "CASTLE"), tn(ex, Lang::Fr)),
            ));
        }
        if self.board[t].owner.is_some() {
            return Err(refusal(
                format!("{} already holds a castle", Self::tname(t)),
                format!("{} a déjà un château", cap(&words::le(t))),
            )
            .hints(
                "choose another territory of your empire",
                "choisissez un autre territoire de votre empire",
            ));
        }
        self.put(seat, t, 1);
        self.players[seat].castle = Some(t);
        self.players[seat].setup_armies -= 1;
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

    pub(crate) fn start_claim(&mut self, order: Vec<Seat>, dice: &mut DiceBox) -> Vec<Event> {
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
                    self.players[s].setup_armies = self.players[s].setup_armies.saturating_sub(1);
                }
                let mut ev = vec![Event::Dealt { picks }];
                ev.extend(self.start_placement(order));
                ev
            }
        }
    }

    pub(crate) fn start_placement(&mut self, order: Vec<Seat>) -> Vec<Event> {
        match self.options.placement {
            PlacementMode::Rounds => {
                self.phase = Phase::Place { order, next: 0 };
                self.skip_placed();
            }
            PlacementMode::Blind => {
                self.phase = Phase::Blind {
                    sent: vec![None; self.n()],
                };
                if self.players.iter().all(|p| p.setup_armies == 0) {
                    self.phase = Phase::Hide;
                }
            }
        }
        vec![]
    }

    /// In placement rounds, move `next` to a seat with armies left (or on to hiding).
    pub(crate) fn skip_placed(&mut self) {
        if let Phase::Place { order, next } = &mut self.phase {
            for _ in 0..order.len() {
                if self.players[order[*next % order.len()]].setup_armies > 0 {
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
            return Err(refusal(
                format!("it is {}'s turn to claim a territory", self.name(who)),
                format!("c'est à {} de prendre un territoire", self.name(who)),
            ));
        }
        if let Some(o) = self.board[t].owner {
            let free = self.free_territories();
            return Err(err(
                format!("{} is already held by {}", Self::tname(t), self.name(o)),
                format!("{} est déjà à {}", cap(&words::le(t)), self.name(o)),
                format!("write: CLAIM {}", Self::tname(free[0])),
                format!("écrivez : PRENDRE {}", tn(free[0], Lang::Fr)),
            ));
        }
        self.put(seat, t, 1);
        self.players[seat].setup_armies = self.players[seat].setup_armies.saturating_sub(1);
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
            return Err(refusal(
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
                self.players[s].setup_armies = self.players[s].setup_armies.saturating_sub(1);
            }
            ev.push(Event::Drafted { picks });
            ev.extend(self.start_placement(order));
        } else {
            self.phase = Phase::Draft { ranks };
        }
        Ok(ev)
    }

    /// The set-up order: from the first castle placer.
    pub(crate) fn claim_order(&self) -> Vec<Seat> {
        self.order_from(self.current)
    }

    pub fn place_setup(
        &mut self,
        seat: Seat,
        placements: &[(T, u32)],
        dice: &mut DiceBox,
    ) -> Result<Vec<Event>, OrderError> {
        for &(t, _) in placements {
            if self.board[t].owner != Some(seat) {
                return Err(err(
                    format!("you do not hold {}", Self::tname(t)),
                    format!("vous n'occupez pas {}", words::le(t)),
                    "place armies only on your own territories",
                    "placez des armées seulement sur vos territoires",
                ));
            }
        }
        match self.phase.clone() {
            Phase::Place { order, next } => self.place_round(seat, placements, order, next, dice),
            Phase::Blind { sent } => self.place_blind(seat, placements, sent, dice),
            Phase::Play => self.place_in_turn(seat, placements, dice),
            _ => Err(self.wrong_phase("PLACE")),
        }
    }

    /// The setup armies placed in the wrong number.
    fn wrong_count(&self, seat: Seat, placements: &[(T, u32)], due: u32, all: bool) -> OrderError {
        let total: u32 = placements.iter().map(|p| p.1).sum();
        let at = self.players[seat].castle.unwrap_or(placements[0].0);
        err(
            if all {
                format!("place all your {due} armies at once, not {total}")
            } else {
                format!("place exactly {due} armies now, not {total}")
            },
            if all {
                format!("placez vos {} d'un coup, pas {total}", armees(due))
            } else {
                format!("placez exactement {} maintenant, pas {total}", armees(due))
            },
            format!("write: PLACE {due} {}", Self::tname(at)),
            format!("écrivez : PLACER {due} {}", tn(at, Lang::Fr)),
        )
    }

    /// Placement rounds: five armies (or what is left), in turn.
    fn place_round(
        &mut self,
        seat: Seat,
        placements: &[(T, u32)],
        order: Vec<Seat>,
        next: usize,
        dice: &mut DiceBox,
    ) -> Result<Vec<Event>, OrderError> {
        let who = order[next];
        if who != seat {
            return Err(refusal(
                format!("it is {}'s turn to place armies", self.name(who)),
                format!("c'est à {} de placer ses armées", self.name(who)),
            ));
        }
        let total: u32 = placements.iter().map(|p| p.1).sum();
        let due = self.players[seat].setup_armies.min(5);
        if total != due {
            return Err(self.wrong_count(seat, placements, due, false));
        }
        for &(t, k) in placements {
            self.put(seat, t, k);
        }
        self.players[seat].setup_armies -= due;
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

    /// Blind placement: everyone sends the whole placement; revealed together.
    fn place_blind(
        &mut self,
        seat: Seat,
        placements: &[(T, u32)],
        mut sent: Vec<Option<Vec<(T, u32)>>>,
        dice: &mut DiceBox,
    ) -> Result<Vec<Event>, OrderError> {
        if sent[seat].is_some() {
            return Err(refusal(
                "you have already sent your placement",
                "vous avez déjà envoyé votre placement",
            ));
        }
        let total: u32 = placements.iter().map(|p| p.1).sum();
        let due = self.players[seat].setup_armies;
        if total != due {
            return Err(self.wrong_count(seat, placements, due, true));
        }
        sent[seat] = Some(placements.to_vec());
        let mut ev = vec![Event::BlindSent {
            seat,
            placements: placements.to_vec(),
        }];
        let done = (0..self.n()).all(|s| sent[s].is_some() || self.players[s].setup_armies == 0);
        if !done {
            self.phase = Phase::Blind { sent };
            return Ok(ev);
        }
        for s in 0..self.n() {
            if let Some(p) = &sent[s] {
                for &(t, k) in p {
                    self.put(s, t, k);
                }
                self.players[s].setup_armies = 0;
                ev.push(Event::Placed {
                    seat: s,
                    placements: p.clone(),
                    why: PlaceWhy::Setup,
                });
            }
        }
        self.phase = Phase::Hide;
        ev.extend(self.after_placement(dice));
        Ok(ev)
    }

    pub(crate) fn after_placement(&mut self, _dice: &mut DiceBox) -> Vec<Event> {
        vec![]
    }

    pub fn hide(&mut self, seat: Seat, t: T, dice: &mut DiceBox) -> Result<Vec<Event>, OrderError> {
        if self.phase != Phase::Hide {
            return Err(self.wrong_phase("HIDE"));
        }
        if self.players[seat]
            .hidden
            .iter()
            .any(|h| h.chosen_by == seat)
        {
            return Err(refusal(
                "you have already chosen your hidden-army territory",
                "vous avez déjà choisi le territoire de vos armées cachées",
            ));
        }
        if self.castle_owner_at(t).is_some() {
            let (en, fr) = crate::orders::hint::hide_hint(self, seat);
            return Err(err(
                format!(
                    "{} holds a castle: hidden armies go anywhere but on a castle",
                    Self::tname(t)
                ),
                format!(
                    "{} a un château : les armées cachées vont partout sauf sur un château",
                    cap(&words::le(t))
                ),
                format!("choose a territory without a castle: {en}"),
                format!("choisissez un territoire sans château : {fr}"),
            ));
        }
        let salt = dice.secret_salt();
        let commitment = commit_text(&salt, &map().board.territories[t].key);
        self.players[seat].hidden.push(Hidden {
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
        if (0..self.n()).all(|s| self.players[s].hidden.iter().any(|h| h.chosen_by == s)) {
            ev.extend(self.start_play(dice));
        }
        Ok(ev)
    }

    pub(crate) fn start_play(&mut self, dice: &mut DiceBox) -> Vec<Event> {
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
}
