//! Documented defaults (deterministic) and a sensible bot: it trades sets, reinforces its
//! borders, attacks at good odds, and fortifies toward the front.

use crate::cards::{self, CardRef};
use crate::map::board;
use crate::*;
use castellan_engine::assault::{MoveIn, Until};
use castellan_engine::battle::max_defence_dice;
use castellan_engine::board::TerritoryId;

fn is_enemy(s: &Risk, seat: Seat, t: TerritoryId) -> bool {
    !s.owns(seat, t)
}

/// Armies of other players (not neutrals: they never attack) next to `t`.
fn threat(s: &Risk, seat: Seat, t: TerritoryId) -> i64 {
    board()
        .neighbors(t)
        .filter(|&x| matches!(s.board[x].owner, Owner::Seat(p) if p != seat))
        .map(|x| s.board[x].armies as i64)
        .sum()
}

fn frontier(s: &Risk, seat: Seat) -> Vec<TerritoryId> {
    s.owned(seat)
        .into_iter()
        .filter(|&t| board().neighbors(t).any(|x| is_enemy(s, seat, x)))
        .collect()
}

/// Fill `n` armies onto `prefer` first (respecting the army limit), then any own territory.
fn spread(s: &Risk, seat: Seat, n: u32, prefer: &[TerritoryId], one_each: bool) -> Placements {
    let mut out: Placements = Vec::new();
    let mut left = n;
    let mut order: Vec<TerritoryId> = Vec::new();
    for &t in prefer.iter().chain(s.owned(seat).iter()) {
        if !order.contains(&t) {
            order.push(t);
        }
    }
    let mut room: Vec<u32> = order.iter().map(|&t| s.room(t)).collect();
    let mut guard = 0;
    while left > 0 && guard < 10_000 {
        guard += 1;
        let mut progressed = false;
        for (i, &t) in order.iter().enumerate() {
            if left == 0 {
                break;
            }
            let k = if one_each { 1 } else { left }.min(room[i]).min(left);
            if k == 0 {
                continue;
            }
            room[i] -= k;
            left -= k;
            progressed = true;
            match out.iter_mut().find(|p| p.0 == t) {
                Some(p) => p.1 += k,
                None => out.push((t, k)),
            }
            if !one_each {
                break;
            }
        }
        if !progressed {
            break;
        }
    }
    out
}

fn neutral_spread(s: &Risk, opponent: Seat, n: u32) -> Placements {
    if n == 0 {
        return vec![];
    }
    let mut ts: Vec<TerritoryId> = (0..s.board.len())
        .filter(|&t| s.board[t].owner == Owner::Neutral && s.room(t) > 0)
        .collect();
    // block the opponent: neutrals bordering the opponent's strongest armies first
    ts.sort_by_key(|&t| {
        let near: i64 = board()
            .neighbors(t)
            .filter(|&x| s.owns(opponent, x))
            .map(|x| s.board[x].armies as i64)
            .sum();
        (-near, t)
    });
    let mut out: Placements = Vec::new();
    let mut left = n;
    for &t in ts.iter().cycle().take(ts.len() * (n as usize + 1)) {
        if left == 0 {
            break;
        }
        let have = out.iter().find(|p| p.0 == t).map(|p| p.1).unwrap_or(0);
        if s.room(t) > have {
            left -= 1;
            match out.iter_mut().find(|p| p.0 == t) {
                Some(p) => p.1 += 1,
                None => out.push((t, 1)),
            }
        }
    }
    out
}

/// Own border territories, most threatened (relative to own armies) first.
fn borders_by_need(s: &Risk, seat: Seat) -> Vec<TerritoryId> {
    let mut f = frontier(s, seat);
    f.sort_by_key(|&t| (-(threat(s, seat, t) - s.board[t].armies as i64), t));
    f
}

fn best_set(s: &Risk, seat: Seat) -> Option<Order> {
    let held = |t: usize| s.owns(seat, t);
    cards::sets_in(&s.players[seat].hand, &held)
        .first()
        .map(|set| Order::Trade(set.iter().map(|c| cards::card_ref(*c)).collect()))
}

fn claim_score(s: &Risk, seat: Seat, t: TerritoryId) -> i64 {
    let b = board();
    let g = &b.groups[b.territories[t].group];
    let own_n = b.neighbors(t).filter(|&x| s.owns(seat, x)).count() as i64;
    let mine_in = g.members.iter().filter(|&&x| s.owns(seat, x)).count() as i64;
    let theirs_in = g
        .members
        .iter()
        .filter(|&&x| matches!(s.board[x].owner, Owner::Seat(p) if p != seat))
        .count() as i64;
    3 * own_n + 2 * mine_in - 2 * theirs_in - g.members.len() as i64 / 3
}

fn ranking(seat: Seat) -> Vec<TerritoryId> {
    let b = board();
    let mut groups: Vec<usize> = (0..b.groups.len()).collect();
    groups.sort_by_key(|&g| (b.groups[g].members.len(), g));
    let k = seat % groups.len().max(1);
    groups.rotate_left(k);
    groups
        .iter()
        .flat_map(|&g| b.groups[g].members.clone())
        .collect()
}

fn setup_place(s: &Risk, seat: Seat) -> Order {
    let (own, neu) = s.placement_due(seat);
    let blind = s.phase == Phase::BlindPlace;
    let prefer = borders_by_need(s, seat);
    Order::Place {
        own: spread(s, seat, own, &prefer, blind),
        neutral: neutral_spread(s, (seat + 1) % s.n(), neu),
    }
}

fn hq_choice(s: &Risk, seat: Seat) -> TerritoryId {
    let mut ts = s.owned(seat);
    ts.sort_by_key(|&t| {
        let enemies = board()
            .neighbors(t)
            .filter(|&x| is_enemy(s, seat, x))
            .count();
        (enemies, std::cmp::Reverse(s.board[t].armies), t)
    });
    ts.first().copied().unwrap_or(0)
}

/// The documented default for each prompt (docs/rules/risk.md §Defaults).
pub fn default_order(s: &Risk, p: &Prompt) -> Order {
    let seat = p.seat;
    match p.kind {
        Ask::Claim => {
            let free = (0..s.board.len()).filter(|&t| s.board[t].owner == Owner::Nobody);
            Order::Claim(
                free.max_by_key(|&t| (claim_score(s, seat, t), std::cmp::Reverse(t)))
                    .unwrap_or(0),
            )
        }
        Ask::Draft => Order::Rank(ranking(seat)),
        Ask::Place => setup_place(s, seat),
        Ask::Headquarters => Order::Hq(hq_choice(s, seat)),
        Ask::Defend | Ask::DefendNeutral => Order::Defend(
            s.battle
                .as_ref()
                .map(|b| max_defence_dice(s.board[b.to].armies, 2))
                .unwrap_or(1)
                .max(1),
        ),
        Ask::Turn => turn_default(s, seat),
    }
}

fn turn_default(s: &Risk, seat: Seat) -> Order {
    let ts = &s.turn_state;
    match ts.stage {
        Stage::Reinforce if s.players[seat].hand.len() >= 5 => {
            best_set(s, seat).unwrap_or(Order::Trade(vec![CardRef::Wild; 3]))
        }
        Stage::Reinforce => {
            let prefer = borders_by_need(s, seat);
            Order::Place {
                own: spread(s, seat, ts.reinforcements, &prefer, false),
                neutral: vec![],
            }
        }
        _ => Order::End,
    }
}

/// What the bot plays for `seat` now.
pub fn bot_order(s: &Risk, seat: Seat, rng: &mut BotRng) -> Order {
    let Some(p) = crate::view::pending(s, castellan_engine::Lang::En)
        .into_iter()
        .find(|p| p.seat == seat)
    else {
        return Order::End;
    };
    match p.kind {
        Ask::Claim => {
            let free: Vec<TerritoryId> = (0..s.board.len())
                .filter(|&t| s.board[t].owner == Owner::Nobody)
                .collect();
            let best = free
                .iter()
                .map(|&t| claim_score(s, seat, t))
                .max()
                .unwrap_or(0);
            let top: Vec<TerritoryId> = free
                .into_iter()
                .filter(|&t| claim_score(s, seat, t) == best)
                .collect();
            Order::Claim(rng.pick(&top).copied().unwrap_or(0))
        }
        Ask::Draft => {
            let mut r = ranking(seat + rng.below(6));
            // keep continents together but vary the start a little
            if r.len() > 2 && rng.chance(0.5) {
                r.swap(0, 1);
            }
            Order::Rank(r)
        }
        Ask::Turn => bot_turn(s, seat, rng),
        _ => default_order(s, &p),
    }
}

fn bot_turn(s: &Risk, seat: Seat, rng: &mut BotRng) -> Order {
    let ts = &s.turn_state;
    match ts.stage {
        Stage::Reinforce => {
            if let Some(t) = best_set(s, seat) {
                return t;
            }
            // put everything on the best attack base
            let f = frontier(s, seat);
            let mut best: Vec<(i64, TerritoryId)> = f
                .iter()
                .map(|&t| {
                    let weakest = board()
                        .neighbors(t)
                        .filter(|&x| is_enemy(s, seat, x))
                        .map(|x| s.board[x].armies as i64)
                        .min()
                        .unwrap_or(0);
                    let g = board().territories[t].group;
                    let cont_bonus = board()
                        .neighbors(t)
                        .filter(|&x| is_enemy(s, seat, x) && board().territories[x].group == g)
                        .count() as i64;
                    (s.board[t].armies as i64 - weakest + 2 * cont_bonus, t)
                })
                .collect();
            best.sort_by_key(|&(sc, t)| (-sc, t));
            let mut prefer: Vec<TerritoryId> = Vec::new();
            if let Some(&(_, t)) = best.get(
                rng.below(best.len().clamp(1, 2))
                    .min(best.len().saturating_sub(1)),
            ) {
                prefer.push(t);
            }
            prefer.extend(borders_by_need(s, seat));
            Order::Place {
                own: spread(s, seat, ts.reinforcements, &prefer, false),
                neutral: vec![],
            }
        }
        Stage::Attack => {
            if let Some(a) = pick_attack(s, seat) {
                return a;
            }
            fortify_or_end(s, seat)
        }
        Stage::Fortify => Order::End,
    }
}

fn pick_attack(s: &Risk, seat: Seat) -> Option<Order> {
    // Later rounds: less margin, so games end.
    let margin: i64 = if s.round > 100 {
        -2
    } else if s.round > 60 {
        0
    } else if s.round > 25 {
        1
    } else {
        2
    };
    let b = board();
    let mut best: Option<(i64, TerritoryId, TerritoryId)> = None;
    for from in s.owned(seat) {
        let a = s.board[from].armies as i64;
        if a < 3 {
            continue;
        }
        for to in b.neighbors(from) {
            if s.owns(seat, to) {
                continue;
            }
            let d = s.board[to].armies as i64;
            if a - 1 < d + margin {
                continue;
            }
            let g = b.territories[to].group;
            let missing = b.groups[g]
                .members
                .iter()
                .filter(|&&x| !s.owns(seat, x))
                .count() as i64;
            let weak_owner = match s.board[to].owner {
                Owner::Seat(p) => 4 - (s.count_owned(p) as i64).min(4),
                _ => 0,
            };
            let score = (a - d) * 2 + 6 / missing.max(1) + 2 * weak_owner;
            if best.map(|(sc, _, _)| score > sc).unwrap_or(true) {
                best = Some((score, from, to));
            }
        }
    }
    let (_, from, to) = best?;
    let others = b
        .neighbors(from)
        .filter(|&x| x != to && !s.owns(seat, x))
        .count();
    let plan = castellan_engine::assault::AttackPlan {
        until: if others > 0 {
            Until::Left(2)
        } else {
            Until::Conquered
        },
        dice: None,
        move_in: if others > 0 {
            MoveIn::Leave(((s.board[from].armies / 3).max(1)).min(s.board[from].armies))
        } else {
            MoveIn::All
        },
    };
    let reroll = s.opts.reroll;
    let commander = s.opts.commander && !s.turn_state.commander_used;
    Some(Order::Attack {
        to,
        from,
        plan,
        reroll,
        commander,
    })
}

fn fortify_or_end(s: &Risk, seat: Seat) -> Order {
    let b = board();
    let front = frontier(s, seat);
    if front.is_empty() {
        return Order::End;
    }
    // distance of every own territory to the front
    let n = s.board.len();
    let mut dist = vec![u32::MAX; n];
    let mut queue: std::collections::VecDeque<TerritoryId> = front.iter().copied().collect();
    for &t in &front {
        dist[t] = 0;
    }
    while let Some(t) = queue.pop_front() {
        for x in b.neighbors(t) {
            if s.owns(seat, x) && dist[x] == u32::MAX {
                dist[x] = dist[t] + 1;
                queue.push_back(x);
            }
        }
    }
    let interior = s
        .owned(seat)
        .into_iter()
        .filter(|&t| dist[t] > 0 && dist[t] != u32::MAX && s.board[t].armies > 1)
        .max_by_key(|&t| (s.board[t].armies, std::cmp::Reverse(t)));
    let Some(from) = interior else {
        return Order::End;
    };
    let to = if s.opts.free_fortify {
        borders_by_need(s, seat)
            .into_iter()
            .find(|&t| s.connected(seat, from, t) && s.room(t) > 0)
    } else {
        b.neighbors(from)
            .filter(|&x| s.owns(seat, x) && dist[x] < dist[from] && s.room(x) > 0)
            .min_by_key(|&x| (dist[x], x))
    };
    let Some(to) = to else {
        return Order::End;
    };
    let armies = (s.board[from].armies - 1).min(s.room(to));
    if armies == 0 {
        return Order::End;
    }
    Order::Fortify { from, to, armies }
}
