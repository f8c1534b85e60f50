//! Setting up: the first player, claims in turn, drafts from ranked lists, deals, the
//! placement of the starting armies (in rounds or blind) and the secret headquarters.

use super::validate::refusals::refuse_options;
use crate::map::{self, board};
use crate::*;
use castellan_engine::board::TerritoryId;
use castellan_engine::claim::{deal_at_random, draft_round_robin};
use castellan_engine::dice::commit_text;

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

pub fn setup(
    players: &[String],
    o: &Options,
    dice: &mut DiceBox,
) -> Result<(Risk, Vec<Event>), OrderError> {
    refuse_options(players.len(), o)?;
    let mut s = Risk::new(players, o);
    let mut ev = Vec::new();
    // "Lance les dés. Le joueur qui obtient le plus grand total" commence: one public draw.
    s.first = dice.public_below(s.n());
    s.to_move = s.first;
    ev.push(Event::FirstPlayer { seat: s.first });
    if s.two_player() {
        s.deal_piles(dice, &mut ev);
        return Ok((s, ev));
    }
    match o.claim {
        Claim::Table => s.phase = Phase::Claim,
        Claim::Draft => s.phase = Phase::Draft,
        Claim::Random => {
            let all: Vec<TerritoryId> = (0..s.board.len()).collect();
            let picks = deal_at_random(&s.order_from(s.first), &all, dice);
            let picks: Vec<(Owner, TerritoryId)> = picks
                .into_iter()
                .map(|(p, t)| (Owner::Seat(p), t))
                .collect();
            s.allot(&picks);
            ev.push(Event::Allotted {
                picks,
                how: Allotment::Random,
            });
            s.begin_placement(&mut ev);
        }
    }
    Ok((s, ev))
}

impl Risk {
    /// A game before anything is drawn: nobody holds anything, everyone has the starting
    /// armies to place.
    pub(crate) fn new(players: &[String], o: &Options) -> Risk {
        let n = players.len();
        Risk {
            version: STATE_VERSION,
            opts: o.clone(),
            phase: Phase::Place,
            players: players
                .iter()
                .enumerate()
                .map(|(seat, name)| Player {
                    name: name.clone(),
                    hand: vec![],
                    to_place: starting_armies(n),
                    neutral_to_place: 0,
                    stand_defend: Policy::Dice(2),
                    stand_neutral: Policy::Dice(2),
                    rank: None,
                    blind: None,
                    hq: None,
                    hq_salt: None,
                    hq_commit: None,
                    hq_card_holder: seat,
                    eliminated: false,
                })
                .collect(),
            board: vec![
                Territory {
                    owner: Owner::Nobody,
                    armies: 0
                };
                board().len()
            ],
            to_move: 0,
            first: 0,
            dice_turn: 1,
            round: 0,
            limit_round: o.turn_limit,
            deck: (0..map::deck_size()).collect(),
            discard: vec![],
            sets_traded: 0,
            hq_revealed: false,
            turn_state: TurnState {
                stage: Stage::Reinforce,
                reinforcements: 0,
                bonus_given: false,
                conquered: false,
                commander_used: false,
            },
            battle: None,
            won: None,
        }
    }

    /// The 2-player game: the 42 territory cards dealt into three piles of 14 (seat 0,
    /// seat 1, neutral), with public dice: the result is public at once.
    pub(crate) fn deal_piles(&mut self, dice: &mut DiceBox, ev: &mut Vec<Event>) {
        let nt = self.board.len();
        let all: Vec<TerritoryId> = (0..nt).collect();
        let picks = deal_at_random(&[0, 1, 2], &all, dice);
        let picks: Vec<(Owner, TerritoryId)> = picks
            .into_iter()
            .map(|(p, t)| {
                let owner = if p == 2 {
                    Owner::Neutral
                } else {
                    Owner::Seat(p)
                };
                (owner, t)
            })
            .collect();
        self.allot(&picks);
        let own = self.count_owned(0) as u32;
        let neutral = nt as u32 - 2 * own;
        let left = NEUTRAL_START.saturating_sub(neutral);
        for (seat, p) in self.players.iter_mut().enumerate() {
            p.to_place = NEUTRAL_START - own;
            p.neutral_to_place = if seat == 0 { left / 2 } else { left - left / 2 };
        }
        ev.push(Event::Allotted {
            picks,
            how: Allotment::Piles,
        });
        self.begin_placement(ev);
    }

    pub(crate) fn allot(&mut self, picks: &[(Owner, TerritoryId)]) {
        for &(o, t) in picks {
            self.board[t].owner = o;
            self.board[t].armies = 1;
            if let Owner::Seat(p) = o {
                self.players[p].to_place = self.players[p].to_place.saturating_sub(1);
            }
        }
    }
    pub(crate) fn begin_placement(&mut self, ev: &mut Vec<Event>) {
        self.phase = self.blind_or_rounds();
        self.to_move = self.first;
        self.advance_dice_turn();
        if self.phase == Phase::Place && !self.has_to_place(self.to_move) {
            self.next_placer(ev);
        }
    }

    pub(crate) fn has_to_place(&self, seat: Seat) -> bool {
        self.players[seat].to_place > 0 || self.players[seat].neutral_to_place > 0
    }

    /// What this seat must place on its next placement turn: (own, neutral).
    pub fn placement_due(&self, seat: Seat) -> (u32, u32) {
        if self.phase == Phase::BlindPlace {
            return (
                self.players[seat].to_place,
                self.players[seat].neutral_to_place,
            );
        }
        let per = if self.two_player() {
            2
        } else {
            self.opts.place_per_turn
        };
        let own = self.players[seat].to_place.min(per);
        let neutral = self.players[seat].neutral_to_place.min(1);
        (own, neutral)
    }

    pub(crate) fn next_placer(&mut self, ev: &mut Vec<Event>) {
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

    pub(crate) fn end_deployment(&mut self, ev: &mut Vec<Event>) {
        if self.opts.headquarters != Headquarters::None {
            self.phase = Phase::Headquarters;
            self.advance_dice_turn();
        } else {
            self.start_play(ev);
        }
    }

    pub(crate) fn start_play(&mut self, ev: &mut Vec<Event>) {
        self.phase = Phase::Play;
        self.round = 1;
        self.start_turn(self.first, ev);
    }

    pub(super) fn claim(&mut self, seat: Seat, t: TerritoryId, ev: &mut Vec<Event>) {
        self.board[t] = Territory {
            owner: Owner::Seat(seat),
            armies: 1,
        };
        let p = &mut self.players[seat];
        p.to_place = p.to_place.saturating_sub(1);
        ev.push(Event::Claimed { seat, t });
        if self.board.iter().all(|x| x.owner != Owner::Nobody) {
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

    pub(super) fn rank(&mut self, seat: Seat, list: &[TerritoryId], ev: &mut Vec<Event>) {
        self.players[seat].rank = Some(list.to_vec());
        ev.push(Event::Ranked {
            seat,
            list: list.to_vec(),
        });
        if self.players.iter().any(|p| p.rank.is_none()) {
            return;
        }
        let ranks: Vec<Vec<TerritoryId>> = self
            .players
            .iter()
            .map(|p| p.rank.clone().unwrap_or_default())
            .collect();
        let all: Vec<TerritoryId> = (0..self.board.len()).collect();
        let picks = draft_round_robin(&self.order_from(self.first), &ranks, &all);
        let picks: Vec<(Owner, TerritoryId)> = picks
            .into_iter()
            .map(|(p, t)| (Owner::Seat(p), t))
            .collect();
        self.allot(&picks);
        ev.push(Event::Allotted {
            picks,
            how: Allotment::Draft,
        });
        self.begin_placement(ev);
    }

    /// Starting armies placed in turn.
    pub(super) fn place_in_turn(
        &mut self,
        seat: Seat,
        own: &Placements,
        neutral: &Placements,
        ev: &mut Vec<Event>,
    ) {
        self.put(seat, own, neutral);
        ev.push(Event::Placed {
            seat,
            own: own.clone(),
            neutral: neutral.clone(),
        });
        self.next_placer(ev);
    }

    /// Starting armies placed blind: kept until every seat has sent its own.
    pub(super) fn place_blind(
        &mut self,
        seat: Seat,
        own: &Placements,
        neutral: &Placements,
        ev: &mut Vec<Event>,
    ) {
        self.players[seat].blind = Some((own.clone(), neutral.clone()));
        ev.push(Event::BlindSent {
            seat,
            own: own.clone(),
            neutral: neutral.clone(),
        });
        if self.players.iter().any(|p| p.blind.is_none()) {
            return;
        }
        let mut all = Vec::new();
        for s in 0..self.n() {
            if let Some((o, nn)) = self.players[s].blind.take() {
                self.put(s, &o, &nn);
                all.push((s, o, nn));
            }
        }
        ev.push(Event::BlindRevealed { all });
        self.end_deployment(ev);
    }

    pub(crate) fn put(&mut self, seat: Seat, own: &Placements, neutral: &Placements) {
        for &(t, k) in own {
            self.board[t].armies += k;
            self.players[seat].to_place = self.players[seat].to_place.saturating_sub(k);
        }
        for &(t, k) in neutral {
            self.board[t].armies += k;
            self.players[seat].neutral_to_place =
                self.players[seat].neutral_to_place.saturating_sub(k);
        }
    }

    pub(super) fn choose_hq(
        &mut self,
        seat: Seat,
        t: TerritoryId,
        dice: &mut DiceBox,
        ev: &mut Vec<Event>,
    ) {
        let salt = dice.secret_salt();
        let key = &board().territories[t].key;
        let commitment = commit_text(&salt, key);
        let p = &mut self.players[seat];
        p.hq = Some(t);
        p.hq_salt = Some(salt);
        p.hq_commit = Some(commitment.clone());
        ev.push(Event::HqCommitted {
            seat,
            t,
            commitment,
        });
        if self.players.iter().any(|p| p.hq.is_none()) {
            return;
        }
        self.hq_revealed = true;
        let all = (0..self.n())
            .filter_map(|s| Some((s, self.players[s].hq?, self.players[s].hq_salt?)))
            .collect();
        ev.push(Event::HqRevealed { all });
        // headquarters cards leave the deck
        let hqs: Vec<usize> = self.players.iter().filter_map(|p| p.hq).collect();
        self.deck.retain(|c| !hqs.contains(c));
        self.start_play(ev);
    }
}
