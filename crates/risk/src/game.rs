//! The state machine: setup, turns, battles, fortify, elimination and victory.
//! `validate` (game/validate.rs) checks an order completely; `execute` then cannot fail.

use crate::cards::{self, Card, CardRef};
use crate::map::{self, board};
use crate::say::{self, refuse, refuse2, refuse_bare};
use crate::*;
use castellan_engine::battle::{exchange, max_attack_dice, max_defence_dice};
use castellan_engine::board::TerritoryId;
use castellan_engine::claim::{deal_at_random, draft_round_robin};
use castellan_engine::dice::commit_text;
use castellan_engine::Lang;

mod validate;

/// Rule (003 §Préparation 1): 35/30/25/20 armies for 3/4/5/6 players; 40 each with 2.
pub fn starting_armies(players: usize) -> u32 {
    match players {
        2 => 40,
        3 => 35,
        4 => 30,
        5 => 25,
        _ => 20,
    }
}

pub const NEUTRAL_START: u32 = 40;

/// "it is P1's turn to claim" / "c'est à P1 de réclamer".
fn not_your_turn(who: &str, en: &str, fr: &str) -> OrderError {
    refuse_bare(|l| match l {
        Lang::En => format!("it is {who}'s turn{en}"),
        Lang::Fr => format!("c'est à {who} {fr}"),
    })
}

pub fn setup(
    players: &[String],
    o: &Options,
    dice: &mut DiceBox,
) -> Result<(Risk, Vec<Event>), OrderError> {
    let n = players.len();
    if !(2..=6).contains(&n) {
        return Err(refuse_bare(|l| match l {
            Lang::En => format!("Risk is played by 2 to 6 players, not {n}"),
            Lang::Fr => format!("le Risk se joue de 2 à 6 joueurs, pas à {n}"),
        }));
    }
    if o.place_per_turn == 0 {
        return Err(refuse2(
            (
                "place_per_turn must be at least 1",
                "place_per_turn doit valoir au moins 1",
            ),
            (
                "use --option place-per-turn=1",
                "utilisez --option place-per-turn=1",
            ),
        ));
    }
    if (1..5).contains(&o.max_armies_per_territory) {
        return Err(refuse2(
            (
                "at most 1 to 4 armies a territory cannot hold the starting armies",
                "avec au plus 1 à 4 armées par territoire, les armées de départ ne tiennent pas",
            ),
            (
                "use max-armies-per-territory=12 (the optional rule) or 0 (no limit)",
                "utilisez max-armies-per-territory=12 (la règle facultative) ou 0 (pas de limite)",
            ),
        ));
    }
    let nt = board().len();
    let mut s = Risk {
        players: players.to_vec(),
        opts: o.clone(),
        phase: Phase::Place,
        owner: vec![Owner::Nobody; nt],
        armies: vec![0; nt],
        to_move: 0,
        first: 0,
        dice_turn: 1,
        round: 0,
        limit_round: o.turn_limit,
        hands: vec![vec![]; n],
        deck: (0..map::deck_size()).collect(),
        discard: vec![],
        sets_traded: 0,
        to_place: vec![starting_armies(n); n],
        neutral_to_place: vec![0; n],
        stand_defend: vec![Policy::Dice(2); n],
        stand_neutral: vec![Policy::Dice(2); n],
        ranks: vec![None; n],
        blind: vec![None; n],
        hq: vec![None; n],
        hq_salt: vec![None; n],
        hq_commit: vec![None; n],
        hq_revealed: false,
        hq_card_holder: (0..n).collect(),
        eliminated: vec![false; n],
        turn_state: TurnState {
            stage: Stage::Reinforce,
            reinforcements: 0,
            bonus_given: false,
            conquered: false,
            commander_used: false,
        },
        battle: None,
        outcome: None,
    };
    let mut ev = Vec::new();
    // "Lance les dés. Le joueur qui obtient le plus grand total" commence: one public draw.
    s.first = dice.public_below(n);
    s.to_move = s.first;
    ev.push(Event::FirstPlayer { seat: s.first });
    let all: Vec<TerritoryId> = (0..nt).collect();
    if n == 2 {
        // 2-player game: the 42 territory cards dealt into three piles of 14 (seat 0,
        // seat 1, neutral), with public dice: the result is public at once.
        let picks = deal_at_random(&[0, 1, 2], &all, dice);
        let picks: Vec<(Owner, TerritoryId)> = picks
            .into_iter()
            .map(|(p, t)| {
                (
                    if p == 2 {
                        Owner::Neutral
                    } else {
                        Owner::Seat(p)
                    },
                    t,
                )
            })
            .collect();
        s.allot(&picks);
        let own = s.count_owned(0) as u32;
        s.to_place = vec![NEUTRAL_START - own; 2];
        let neutral = nt as u32 - 2 * own;
        let left = NEUTRAL_START.saturating_sub(neutral);
        s.neutral_to_place = vec![left / 2, left - left / 2];
        ev.push(Event::Allotted {
            picks,
            how: "dealt from the cards into three piles".into(),
        });
        s.begin_placement(&mut ev);
        return Ok((s, ev));
    }
    match o.claim {
        Claim::Table => {
            s.phase = Phase::Claim;
        }
        Claim::Draft => {
            s.phase = Phase::Draft;
        }
        Claim::Random => {
            let picks = deal_at_random(&s.order_from(s.first), &all, dice);
            let picks: Vec<(Owner, TerritoryId)> = picks
                .into_iter()
                .map(|(p, t)| (Owner::Seat(p), t))
                .collect();
            s.allot(&picks);
            ev.push(Event::Allotted {
                picks,
                how: "dealt at random".into(),
            });
            s.begin_placement(&mut ev);
        }
    }
    Ok((s, ev))
}

impl Risk {
    pub fn n(&self) -> usize {
        self.players.len()
    }
    pub fn two_player(&self) -> bool {
        self.players.len() == 2
    }
    pub fn cap(&self) -> u32 {
        self.opts.max_armies_per_territory
    }
    /// Armies that may still be put on `t` (u32::MAX without a limit).
    pub fn room(&self, t: TerritoryId) -> u32 {
        match self.cap() {
            0 => u32::MAX,
            c => c.saturating_sub(self.armies[t]),
        }
    }
    pub fn owns(&self, seat: Seat, t: TerritoryId) -> bool {
        self.owner.get(t) == Some(&Owner::Seat(seat))
    }
    pub fn owned(&self, seat: Seat) -> Vec<TerritoryId> {
        (0..self.owner.len())
            .filter(|&t| self.owns(seat, t))
            .collect()
    }
    pub fn count_owned(&self, seat: Seat) -> usize {
        self.owner
            .iter()
            .filter(|o| **o == Owner::Seat(seat))
            .count()
    }
    /// Seats in play order starting at `seat`.
    pub fn order_from(&self, seat: Seat) -> Vec<Seat> {
        (0..self.n()).map(|i| (seat + i) % self.n()).collect()
    }
    pub fn next_alive(&self, seat: Seat) -> Seat {
        for i in 1..=self.n() {
            let s = (seat + i) % self.n();
            if !self.eliminated[s] {
                return s;
            }
        }
        seat
    }
    fn allot(&mut self, picks: &[(Owner, TerritoryId)]) {
        for &(o, t) in picks {
            self.owner[t] = o;
            self.armies[t] = 1;
            if let Owner::Seat(p) = o {
                self.to_place[p] = self.to_place[p].saturating_sub(1);
            }
        }
    }
    /// Continents held whole by `seat`.
    pub fn continents_of(&self, seat: Seat) -> Vec<usize> {
        board()
            .groups
            .iter()
            .enumerate()
            .filter(|(_, g)| g.members.iter().all(|&t| self.owns(seat, t)))
            .map(|(i, _)| i)
            .collect()
    }
    /// Rule (003 §Ramasser): max(3, territories ÷ 3) + continent bonuses.
    pub fn base_reinforcements(&self, seat: Seat) -> (u32, u32, Vec<usize>) {
        let terr = self.count_owned(seat) as u32;
        let conts = self.continents_of(seat);
        let base = (terr / 3).max(3);
        let bonus: u32 = conts.iter().map(|&g| board().groups[g].bonus).sum();
        (terr, base + bonus, conts)
    }
    /// The seat answering for the defender of `t` when `attacker` attacks it.
    pub fn responder(&self, attacker: Seat, t: TerritoryId) -> Seat {
        match self.owner[t] {
            Owner::Seat(d) => d,
            _ => (attacker + 1) % self.n(),
        }
    }
    fn policy_of(&self, attacker: Seat, t: TerritoryId) -> Policy {
        match self.owner[t] {
            Owner::Seat(d) => self.stand_defend[d],
            _ => self.stand_neutral[self.responder(attacker, t)],
        }
    }
    /// Most armies a seat may still place in total (the 12-army rule).
    fn capacity(&self, seat: Seat) -> u32 {
        if self.cap() == 0 {
            return u32::MAX;
        }
        self.owned(seat).iter().map(|&t| self.room(t)).sum()
    }
    /// The required number of headquarters (own excluded).
    pub fn hq_needed(&self) -> usize {
        let others = self.n() - 1;
        match (self.opts.headquarters, self.n()) {
            (Headquarters::Quick, 4) => 2,
            (Headquarters::Quick, 5..) => 3,
            _ => others,
        }
    }
    pub fn blind_or_rounds(&self) -> Phase {
        if self.opts.placement == Placement::Blind {
            Phase::BlindPlace
        } else {
            Phase::Place
        }
    }
    fn advance_dice_turn(&mut self) {
        self.dice_turn += 1;
    }

    fn begin_placement(&mut self, ev: &mut Vec<Event>) {
        self.phase = self.blind_or_rounds();
        self.to_move = self.first;
        self.advance_dice_turn();
        if self.phase == Phase::Place && !self.has_to_place(self.to_move) {
            self.next_placer(ev);
        }
    }

    fn has_to_place(&self, seat: Seat) -> bool {
        self.to_place[seat] > 0 || self.neutral_to_place[seat] > 0
    }

    /// What this seat must place on its next placement turn: (own, neutral).
    pub fn placement_due(&self, seat: Seat) -> (u32, u32) {
        if self.phase == Phase::BlindPlace {
            return (self.to_place[seat], self.neutral_to_place[seat]);
        }
        let per = if self.two_player() {
            2
        } else {
            self.opts.place_per_turn
        };
        let own = self.to_place[seat].min(per);
        let neutral = self.neutral_to_place[seat].min(1);
        (own, neutral)
    }

    fn next_placer(&mut self, ev: &mut Vec<Event>) {
        for i in 1..=self.n() {
            let s = (self.to_move + i) % self.n();
            if self.has_to_place(s) {
                self.to_move = s;
                self.advance_dice_turn();
                return;
            }
        }
        self.end_deployment(ev);
    }

    fn end_deployment(&mut self, ev: &mut Vec<Event>) {
        if self.opts.headquarters != Headquarters::None {
            self.phase = Phase::Headquarters;
            self.advance_dice_turn();
        } else {
            self.start_play(ev);
        }
    }

    fn start_play(&mut self, ev: &mut Vec<Event>) {
        self.phase = Phase::Play;
        self.round = 1;
        self.start_turn(self.first, ev);
    }

    fn start_turn(&mut self, seat: Seat, ev: &mut Vec<Event>) {
        self.to_move = seat;
        self.advance_dice_turn();
        let (terr, total, conts) = self.base_reinforcements(seat);
        let base = (terr / 3).max(3);
        self.turn_state = TurnState {
            stage: Stage::Reinforce,
            reinforcements: total,
            bonus_given: false,
            conquered: false,
            commander_used: false,
        };
        ev.push(Event::TurnBegins {
            seat,
            round: self.round,
            territories: terr,
            base,
            continents: conts,
            total,
        });
        self.cap_loss(seat, ev);
        self.maybe_leave_reinforce(seat, ev);
    }

    /// The 12-army rule: armies that cannot be placed are lost.
    fn cap_loss(&mut self, seat: Seat, ev: &mut Vec<Event>) {
        let cap = self.capacity(seat);
        if self.turn_state.reinforcements > cap {
            let lost = self.turn_state.reinforcements - cap;
            self.turn_state.reinforcements = cap;
            ev.push(Event::ArmiesLost { seat, armies: lost });
        }
    }

    fn maybe_leave_reinforce(&mut self, seat: Seat, ev: &mut Vec<Event>) {
        if self.turn_state.stage == Stage::Reinforce {
            if self.hands[seat].len() >= 5 {
                ev.push(Event::MustTrade {
                    seat,
                    cards: self.hands[seat].len(),
                });
            } else if self.turn_state.reinforcements == 0 {
                self.turn_state.stage = Stage::Attack;
            }
        }
    }

    /// The cards an order names, from `seat`'s hand.
    pub fn cards_for(&self, seat: Seat, refs: &[CardRef]) -> Result<Vec<Card>, OrderError> {
        let hand = &self.hands[seat];
        let mut out: Vec<Card> = Vec::new();
        for r in refs {
            let c = match r {
                CardRef::Territory(t) => {
                    if !hand.contains(t) || out.contains(t) {
                        return Err(refuse(
                            |l| match l {
                                Lang::En => format!("you do not hold the {} card", map::name(*t)),
                                Lang::Fr => {
                                    format!("vous n'avez pas la carte {}", map::name_in(*t, l))
                                }
                            },
                            |l| self.trade_hint(seat, l),
                        ));
                    }
                    *t
                }
                CardRef::Wild => match hand
                    .iter()
                    .find(|c| cards::is_wild(**c) && !out.contains(c))
                {
                    Some(c) => *c,
                    None => {
                        return Err(refuse(
                            |l| {
                                l.pick(
                                    "you hold no (more) wild card",
                                    "vous n'avez pas (ou plus) de carte passe-partout",
                                )
                                .into()
                            },
                            |l| self.trade_hint(seat, l),
                        ))
                    }
                },
            };
            out.push(c);
        }
        Ok(out)
    }

    pub fn trade_hint(&self, seat: Seat, l: Lang) -> String {
        let held = |t: usize| self.owns(seat, t);
        match cards::sets_in(&self.hands[seat], &held).first() {
            Some(set) => say::write(l, &crate::orders::trade_text_in(set, l)),
            None => l
                .pick(
                    "you hold no set: three alike, one of each, or two and a wild card",
                    "vous n'avez aucune combinaison : trois pareilles, une de chaque, ou deux et un passe-partout",
                )
                .into(),
        }
    }

    fn place_hint(&self, seat: Seat, n: u32, l: Lang) -> String {
        let t = self
            .owned(seat)
            .into_iter()
            .find(|&t| self.room(t) >= n.max(1));
        match t {
            Some(t) => say::write(l, &format!("PLACE {} {}", n.max(1), map::name_in(t, l))),
            None => say::write(
                l,
                l.pick(
                    "PLACE 1 <one of your territories>",
                    "PLACE 1 <un de vos territoires>",
                ),
            ),
        }
    }

    fn check_placements(
        &self,
        seat: Seat,
        own: &Placements,
        neutral: &Placements,
    ) -> Result<(), OrderError> {
        let mut extra = vec![0u32; self.armies.len()];
        for &(t, k) in own {
            if !self.owns(seat, t) {
                return Err(refuse(|l| not_yours(t, l), |l| self.place_hint(seat, k, l)));
            }
            extra[t] += k;
        }
        for &(t, k) in neutral {
            if self.owner[t] != Owner::Neutral {
                return Err(refuse(
                    |l| match l {
                        Lang::En => format!("{} is not a neutral territory", map::name(t)),
                        Lang::Fr => format!(
                            "{} n'est pas un territoire neutre",
                            say::cap(&say::le(t, l))
                        ),
                    },
                    |l| {
                        say::write(
                            l,
                            l.pick(
                                "PLACE 2 Alaska NEUTRAL 1 <a neutral territory>",
                                "PLACE 2 Alaska NEUTRE 1 <un territoire neutre>",
                            ),
                        )
                    },
                ));
            }
            extra[t] += k;
        }
        for (t, &k) in extra.iter().enumerate() {
            if k > 0 && k > self.room(t) {
                return Err(refuse(
                    |l| self.over_cap(t, l),
                    |l| {
                        l.pick(
                            "put the armies on another territory",
                            "mettez ces armées sur un autre territoire",
                        )
                        .into()
                    },
                ));
            }
        }
        Ok(())
    }

    /// "Alaska would hold more than 12 armies".
    fn over_cap(&self, t: TerritoryId, l: Lang) -> String {
        match l {
            Lang::En => format!(
                "{} would hold more than {} armies",
                map::name(t),
                self.cap()
            ),
            Lang::Fr => format!(
                "{} aurait plus de {}",
                say::cap(&say::le(t, l)),
                say::armies(self.cap(), l)
            ),
        }
    }

    /// Carry out a validated order.
    pub fn execute(&mut self, seat: Seat, order: &Order, dice: &mut DiceBox, ev: &mut Vec<Event>) {
        match order {
            Order::SetDefend(p) => {
                self.stand_defend[seat] = *p;
                ev.push(Event::StandingSet {
                    seat,
                    neutral: false,
                    policy: *p,
                });
            }
            Order::SetNeutral(p) => {
                self.stand_neutral[seat] = *p;
                ev.push(Event::StandingSet {
                    seat,
                    neutral: true,
                    policy: *p,
                });
            }
            Order::Defend(d) => {
                if let Some(b) = self.battle.take() {
                    self.run_battle(b, Some(*d), dice, ev);
                }
            }
            Order::Claim(t) => {
                self.owner[*t] = Owner::Seat(seat);
                self.armies[*t] = 1;
                self.to_place[seat] = self.to_place[seat].saturating_sub(1);
                ev.push(Event::Claimed { seat, t: *t });
                if self.owner.iter().all(|o| *o != Owner::Nobody) {
                    // placement continues in turn after the last claimer
                    self.phase = self.blind_or_rounds();
                    self.advance_dice_turn();
                    if self.phase == Phase::Place {
                        self.next_placer(ev);
                    }
                } else {
                    self.to_move = (seat + 1) % self.n();
                    self.advance_dice_turn();
                }
            }
            Order::Rank(list) => {
                self.ranks[seat] = Some(list.clone());
                ev.push(Event::Ranked {
                    seat,
                    list: list.clone(),
                });
                if self.ranks.iter().all(|r| r.is_some()) {
                    let ranks: Vec<Vec<TerritoryId>> = self
                        .ranks
                        .iter()
                        .map(|r| r.clone().unwrap_or_default())
                        .collect();
                    let all: Vec<TerritoryId> = (0..self.owner.len()).collect();
                    let picks = draft_round_robin(&self.order_from(self.first), &ranks, &all);
                    let picks: Vec<(Owner, TerritoryId)> = picks
                        .into_iter()
                        .map(|(p, t)| (Owner::Seat(p), t))
                        .collect();
                    self.allot(&picks);
                    ev.push(Event::Allotted {
                        picks,
                        how: "drafted from the ranked lists".into(),
                    });
                    self.begin_placement(ev);
                }
            }
            Order::Place { own, neutral } if self.phase == Phase::Place => {
                self.put(seat, own, neutral);
                ev.push(Event::Placed {
                    seat,
                    own: own.clone(),
                    neutral: neutral.clone(),
                });
                self.next_placer(ev);
            }
            Order::Place { own, neutral } if self.phase == Phase::BlindPlace => {
                self.blind[seat] = Some((own.clone(), neutral.clone()));
                ev.push(Event::BlindSent {
                    seat,
                    own: own.clone(),
                    neutral: neutral.clone(),
                });
                if self.blind.iter().all(|b| b.is_some()) {
                    let mut all = Vec::new();
                    for s in 0..self.n() {
                        if let Some((o, nn)) = self.blind[s].take() {
                            self.put(s, &o, &nn);
                            all.push((s, o, nn));
                        }
                    }
                    ev.push(Event::BlindRevealed { all });
                    self.end_deployment(ev);
                }
            }
            Order::Place { own, .. } => {
                // reinforcements in play
                for &(t, k) in own {
                    self.armies[t] += k;
                    self.turn_state.reinforcements -= k;
                }
                ev.push(Event::Placed {
                    seat,
                    own: own.clone(),
                    neutral: vec![],
                });
                self.maybe_leave_reinforce(seat, ev);
            }
            Order::Hq(t) => {
                let salt = dice.secret_salt();
                let key = &board().territories[*t].key;
                let commitment = commit_text(&salt, key);
                self.hq[seat] = Some(*t);
                self.hq_salt[seat] = Some(salt);
                self.hq_commit[seat] = Some(commitment.clone());
                ev.push(Event::HqCommitted {
                    seat,
                    t: *t,
                    commitment,
                });
                if self.hq.iter().all(|h| h.is_some()) {
                    self.hq_revealed = true;
                    let all = (0..self.n())
                        .filter_map(|s| Some((s, self.hq[s]?, self.hq_salt[s]?)))
                        .collect();
                    ev.push(Event::HqRevealed { all });
                    // headquarters cards leave the deck
                    let hqs: Vec<usize> = self.hq.iter().flatten().copied().collect();
                    self.deck.retain(|c| !hqs.contains(c));
                    self.start_play(ev);
                }
            }
            Order::Trade(refs) => {
                let Ok(cs) = self.cards_for(seat, refs) else {
                    return;
                };
                self.hands[seat].retain(|c| !cs.contains(c));
                self.discard.extend(cs.iter().copied());
                self.sets_traded += 1;
                let value = cards::set_value(self.sets_traded, self.opts.rising_sets);
                self.turn_state.reinforcements += value;
                let mut bonus_on = None;
                if !self.turn_state.bonus_given {
                    if let Some(&t) = cs
                        .iter()
                        .find(|&&c| !cards::is_wild(c) && self.owns(seat, c))
                    {
                        self.turn_state.bonus_given = true;
                        let add = 2.min(self.room(t));
                        self.armies[t] += add;
                        bonus_on = Some(t);
                        if add < 2 {
                            ev.push(Event::ArmiesLost {
                                seat,
                                armies: 2 - add,
                            });
                        }
                    }
                }
                ev.push(Event::Traded {
                    seat,
                    cards: cs,
                    value,
                    bonus_on,
                });
                self.cap_loss(seat, ev);
                self.maybe_leave_reinforce(seat, ev);
            }
            Order::Attack {
                to,
                from,
                plan,
                reroll,
                commander,
            } => {
                let b = Battle {
                    from: *from,
                    to: *to,
                    plan: *plan,
                    reroll: *reroll,
                    commander: *commander,
                    rolls: 0,
                    responder: self.responder(seat, *to),
                };
                self.run_battle(b, None, dice, ev);
            }
            Order::Fortify { from, to, armies } => {
                self.armies[*from] -= armies;
                self.armies[*to] += armies;
                ev.push(Event::Fortified {
                    seat,
                    from: *from,
                    to: *to,
                    armies: *armies,
                });
                if self.opts.free_fortify {
                    self.turn_state.stage = Stage::Fortify;
                } else {
                    self.end_turn(seat, dice, ev);
                }
            }
            Order::End => self.end_turn(seat, dice, ev),
        }
    }

    fn put(&mut self, seat: Seat, own: &Placements, neutral: &Placements) {
        for &(t, k) in own {
            self.armies[t] += k;
            self.to_place[seat] = self.to_place[seat].saturating_sub(k);
        }
        for &(t, k) in neutral {
            self.armies[t] += k;
            self.neutral_to_place[seat] = self.neutral_to_place[seat].saturating_sub(k);
        }
    }

    /// Roll exchanges until the plan stops, the territory falls, or the defender must be
    /// asked (then the battle waits in `self.battle`).
    fn run_battle(
        &mut self,
        mut b: Battle,
        mut answer: Option<u32>,
        dice: &mut DiceBox,
        ev: &mut Vec<Event>,
    ) {
        let seat = self.to_move;
        loop {
            let (att, def) = (self.armies[b.from], self.armies[b.to]);
            if !b.plan.go_on(att, def, b.rolls) {
                break;
            }
            let dmax = max_defence_dice(def, 2);
            let dn = match answer.take() {
                Some(n) => n.clamp(1, dmax),
                None if dmax == 1 => 1,
                None => match self.policy_of(seat, b.to) {
                    Policy::Dice(n) => n.clamp(1, dmax),
                    Policy::Ask => {
                        ev.push(Event::AwaitDefence {
                            responder: b.responder,
                            from: b.from,
                            to: b.to,
                        });
                        self.battle = Some(b);
                        return;
                    }
                },
            };
            let an = b.plan.dice_now(max_attack_dice(att, 3), att).max(1);
            let mut a: Vec<u8> = (0..an).map(|_| dice.roll(6).value).collect();
            let d: Vec<u8> = (0..dn).map(|_| dice.roll(6).value).collect();
            a.sort_unstable_by(|x, y| y.cmp(x));
            let mut reroll = None;
            if b.reroll {
                if let Some(card) = self.hands[seat]
                    .iter()
                    .copied()
                    .find(|&c| c == b.from || c == b.to)
                {
                    let e = exchange(&a, &d, 0, 0);
                    if e.attacker_losses > 0 {
                        // re-roll the lowest of the attacker's dice that are compared
                        let i = (a.len().min(d.len())).saturating_sub(1);
                        let old = a[i];
                        let new = dice.roll(6).value;
                        a[i] = new;
                        a.sort_unstable_by(|x, y| y.cmp(x));
                        reroll = Some((card, old, new));
                    }
                }
            }
            let mut commander = None;
            if b.commander && !self.turn_state.commander_used {
                let base = exchange(&a, &d, 0, 0);
                let mut best: Option<(usize, u32, u32)> = None;
                for i in 0..a.len() {
                    let mut t = a.clone();
                    t[i] = 6;
                    let e = exchange(&t, &d, 0, 0);
                    let better = (e.attacker_losses, std::cmp::Reverse(e.defender_losses))
                        < (
                            base.attacker_losses,
                            std::cmp::Reverse(base.defender_losses),
                        );
                    let beats_best = match best {
                        None => true,
                        Some((_, al, dl)) => {
                            (e.attacker_losses, std::cmp::Reverse(e.defender_losses))
                                < (al, std::cmp::Reverse(dl))
                        }
                    };
                    if better && beats_best {
                        best = Some((i, e.attacker_losses, e.defender_losses));
                    }
                }
                if let Some((i, _, _)) = best {
                    commander = Some(a[i]);
                    a[i] = 6;
                    a.sort_unstable_by(|x, y| y.cmp(x));
                    self.turn_state.commander_used = true;
                }
            }
            let e = exchange(&a, &d, 0, 0);
            self.armies[b.from] -= e.attacker_losses.min(self.armies[b.from] - 1);
            self.armies[b.to] -= e.defender_losses.min(self.armies[b.to]);
            b.rolls += 1;
            ev.push(Event::Battle {
                seat,
                from: b.from,
                to: b.to,
                attack: e.attacker,
                defence: e.defender,
                attacker_losses: e.attacker_losses,
                defender_losses: e.defender_losses,
                reroll,
                commander,
            });
            if self.armies[b.to] == 0 {
                self.conquer(seat, &b, an, dice, ev);
                break;
            }
        }
        self.battle = None;
    }

    fn conquer(
        &mut self,
        seat: Seat,
        b: &Battle,
        last_dice: u32,
        _dice: &mut DiceBox,
        ev: &mut Vec<Event>,
    ) {
        let loser = self.owner[b.to];
        let att = self.armies[b.from];
        let mut moved = b.plan.armies_to_move(att, last_dice);
        if self.cap() > 0 {
            moved = moved.min(self.cap());
        }
        moved = moved.clamp(1, att.saturating_sub(1).max(1));
        self.armies[b.from] -= moved.min(att - 1);
        self.armies[b.to] = moved;
        self.owner[b.to] = Owner::Seat(seat);
        self.turn_state.conquered = true;
        ev.push(Event::Conquered {
            seat,
            from: b.from,
            to: b.to,
            moved,
        });
        if self.hq_revealed {
            if let Some(of) = (0..self.n()).find(|&s| self.hq[s] == Some(b.to)) {
                if of != seat && self.hq_card_holder[of] != seat {
                    self.hq_card_holder[of] = seat;
                    ev.push(Event::HqTaken { seat, of, t: b.to });
                }
            }
        }
        if let Owner::Seat(v) = loser {
            if self.count_owned(v) == 0 {
                self.eliminated[v] = true;
                let taken = std::mem::take(&mut self.hands[v]);
                self.hands[seat].extend(taken.iter().copied());
                for h in self.hq_card_holder.iter_mut() {
                    if *h == v {
                        *h = seat;
                    }
                }
                ev.push(Event::Eliminated {
                    victim: v,
                    by: seat,
                    cards: taken,
                });
                // Rule: six or more cards after taking them: trade at once down to 4 or fewer.
                if self.hands[seat].len() >= 6 && self.check_win(seat, ev).is_none() {
                    self.turn_state.stage = Stage::Reinforce;
                    self.turn_state.reinforcements = 0;
                    ev.push(Event::MustTrade {
                        seat,
                        cards: self.hands[seat].len(),
                    });
                    return;
                }
            }
        }
        self.check_win(seat, ev);
    }

    /// Victory after a conquest. Returns the winner if the game ended.
    fn check_win(&mut self, seat: Seat, ev: &mut Vec<Event>) -> Option<Seat> {
        if self.outcome.is_some() {
            return self
                .outcome
                .as_ref()
                .and_then(|o| o.winners.first().copied());
        }
        let alive: Vec<Seat> = (0..self.n()).filter(|&s| !self.eliminated[s]).collect();
        let reason = if alive == vec![seat] {
            Some(if self.two_player() {
                "eliminated the opponent".to_string()
            } else {
                "holds all 42 territories".to_string()
            })
        } else if self.opts.headquarters != Headquarters::None && self.hq_revealed {
            let own_hq = self.hq[seat].map(|t| self.owns(seat, t)).unwrap_or(false);
            let taken = (0..self.n())
                .filter(|&s| s != seat)
                .filter(|&s| self.hq[s].map(|t| self.owns(seat, t)).unwrap_or(false))
                .count();
            if own_hq && taken >= self.hq_needed() {
                Some(format!("holds {taken} enemy headquarters and its own"))
            } else {
                None
            }
        } else {
            None
        };
        let reason = reason?;
        self.finish(vec![seat], reason, ev);
        Some(seat)
    }

    fn finish(&mut self, winners: Vec<Seat>, reason: String, ev: &mut Vec<Event>) {
        self.phase = Phase::Over;
        self.battle = None;
        self.outcome =
            Some(Outcome::new(winners.clone(), reason.clone()).fr(crate::view::reason_fr(&reason)));
        ev.push(Event::Won { winners, reason });
    }

    fn draw_card(&mut self, dice: &mut DiceBox) -> Option<Card> {
        if self.deck.is_empty() {
            self.deck = std::mem::take(&mut self.discard);
            self.deck.sort_unstable();
        }
        if self.deck.is_empty() {
            return None;
        }
        let i = dice.secret_below(self.deck.len());
        Some(self.deck.remove(i))
    }

    fn end_turn(&mut self, seat: Seat, dice: &mut DiceBox, ev: &mut Vec<Event>) {
        if self.turn_state.conquered {
            if let Some(c) = self.draw_card(dice) {
                self.hands[seat].push(c);
                ev.push(Event::Drew { seat, card: c });
            }
        }
        ev.push(Event::TurnEnds { seat });
        let next = self.next_alive(seat);
        let pos = |s: Seat| (s + self.n() - self.first) % self.n();
        if pos(next) <= pos(seat) {
            // a round is over
            if self.opts.turn_limit > 0 && self.round >= self.limit_round {
                let counts: Vec<usize> = (0..self.n()).map(|s| self.count_owned(s)).collect();
                let best = counts.iter().copied().max().unwrap_or(0);
                let top: Vec<Seat> = (0..self.n()).filter(|&s| counts[s] == best).collect();
                if top.len() == 1 {
                    self.finish(
                        top,
                        format!(
                            "most territories ({best}) when the turn limit of {} rounds was reached",
                            self.round
                        ),
                        ev,
                    );
                    return;
                }
                self.limit_round += 1;
                ev.push(Event::Extended {
                    round: self.limit_round,
                    tied: top,
                });
            }
            self.round += 1;
        }
        self.start_turn(next, ev);
    }

    /// Every card, wherever it is (for conservation checks).
    pub fn all_cards(&self) -> Vec<Card> {
        let mut v: Vec<Card> = self.deck.clone();
        v.extend(self.discard.iter().copied());
        for h in &self.hands {
            v.extend(h.iter().copied());
        }
        if self.hq_revealed {
            v.extend(self.hq.iter().flatten().copied());
        }
        v.sort_unstable();
        v
    }
}

fn game_over() -> OrderError {
    refuse_bare(|l| l.pick("the game is over", "la partie est terminée").into())
}

/// "Alaska is not yours" / "l'Alaska ne vous appartient pas".
fn not_yours(t: TerritoryId, l: Lang) -> String {
    match l {
        Lang::En => format!("{} is not yours", map::name(t)),
        Lang::Fr => format!("{} ne vous appartient pas", say::cap(&say::le(t, l))),
    }
}

/// "Alaska does not border Peru" / "l'Alaska n'est pas adjacent au Pérou" (French:
/// "n'est pas voisin du Pérou", which needs no agreement with the article).
fn not_bordering(a: TerritoryId, b: TerritoryId, l: Lang) -> String {
    match l {
        Lang::En => format!("{} does not border {}", map::name(a), map::name(b)),
        Lang::Fr => format!(
            "{} ne touche pas {}",
            say::cap(&say::le(a, l)),
            say::le(b, l)
        ),
    }
}

/// "place exactly 2 of your armies and 1 neutral now (you wrote 3 and 0 neutral)".
fn placement_count_msg(l: Lang, due: (u32, u32), got: (u32, u32)) -> String {
    let ((due, due_n), (got, got_n)) = (due, got);
    let with_n = got_n > 0 || due_n > 0;
    match l {
        Lang::En => format!(
            "place exactly {due} of your armies{} now (you wrote {got}{})",
            if due_n > 0 {
                format!(" and {due_n} neutral")
            } else {
                String::new()
            },
            if with_n {
                format!(" and {got_n} neutral")
            } else {
                String::new()
            }
        ),
        Lang::Fr => format!(
            "placez maintenant exactement {due} de vos armées{} (vous en avez écrit {got}{})",
            if due_n > 0 {
                format!(" et {due_n} neutre{}", if due_n > 1 { "s" } else { "" })
            } else {
                String::new()
            },
            if with_n {
                format!(" et {got_n} neutre{}", if got_n > 1 { "s" } else { "" })
            } else {
                String::new()
            }
        ),
    }
}

/// Every territory id an order names exists (typed orders may come from stored JSON).
fn ids_in_range(o: &Order) -> bool {
    let n = board().len();
    let ok = |t: &TerritoryId| *t < n;
    match o {
        Order::Claim(t) | Order::Hq(t) => ok(t),
        Order::Rank(l) => l.iter().all(ok),
        Order::Place { own, neutral } => own.iter().chain(neutral.iter()).all(|p| ok(&p.0)),
        Order::Trade(refs) => refs.iter().all(|r| match r {
            CardRef::Territory(t) => ok(t),
            CardRef::Wild => true,
        }),
        Order::Attack { to, from, .. } | Order::Fortify { from, to, .. } => ok(to) && ok(from),
        Order::Defend(_) | Order::End | Order::SetDefend(_) | Order::SetNeutral(_) => true,
    }
}
