//! A bot that plays legal, sensible Castle Risk: it guards its castle, completes empires,
//! attacks at good odds, uses its cards (Reinforcements, Diplomat, Spy, General, Admiral)
//! and answers every prompt. Every order it returns is accepted by `apply` for a seat that
//! has a prompt.

use crate::cards::Card;
use crate::game::{CastleRisk, Interrupt, OccupyWhat, Phase, T};
use crate::map::{map, shares_sea, Sea};
use crate::Order;
use castellan_engine::assault::{AttackPlan, MoveIn, Until};
use castellan_engine::{BotRng, Seat};

/// Attacks a bot makes in one turn at most (then it ends the turn).
pub const MAX_ATTACKS_PER_TURN: u32 = 40;

fn enemies_next_to(g: &CastleRisk, s: Seat, t: T) -> u32 {
    map()
        .board
        .neighbors(t)
        .filter(|&n| g.board[n].owner.is_some_and(|o| o != s))
        .map(|n| g.board[n].armies)
        .sum()
}

fn is_frontier(g: &CastleRisk, s: Seat, t: T) -> bool {
    map()
        .board
        .neighbors(t)
        .any(|n| g.board[n].owner.is_some_and(|o| o != s))
}

/// Armies the castle should keep, given the enemies next to it.
fn castle_reserve(g: &CastleRisk, s: Seat) -> u32 {
    match g.players[s].castle {
        Some(c) if is_frontier(g, s, c) => (enemies_next_to(g, s, c) / 2 + 3).min(30),
        Some(c) => {
            // Enemies two steps away still threaten it a little.
            let near: u32 = map()
                .board
                .neighbors(c)
                .map(|n| enemies_next_to(g, s, n))
                .max()
                .unwrap_or(0);
            (near / 3 + 1).min(10)
        }
        None => 1,
    }
}

/// Multi-source Dijkstra from the enemy castles over enemy territories: for each
/// territory, the cost (armies to beat, plus one per step) of fighting through to a castle,
/// and the next territory on the way.
fn castle_paths(g: &CastleRisk, s: Seat) -> (Vec<u32>, Vec<Option<T>>) {
    let m = map();
    let nt = g.board.len();
    let mut dist = vec![u32::MAX; nt];
    let mut next: Vec<Option<T>> = vec![None; nt];
    let mut done = vec![false; nt];
    for o in 0..g.n() {
        if o != s && g.players[o].alive {
            if let Some(c) = g.players[o].castle {
                dist[c] = g.board[c].armies * 2 + 1;
            }
        }
    }
    loop {
        let mut best: Option<T> = None;
        for t in 0..nt {
            if !done[t] && dist[t] != u32::MAX && best.is_none_or(|b| dist[t] < dist[b]) {
                best = Some(t);
            }
        }
        let Some(t) = best else { break };
        done[t] = true;
        for n in m.board.neighbors(t) {
            let enemy = g.board[n].owner.is_some_and(|o| o != s);
            if !enemy || done[n] {
                continue;
            }
            let d = dist[t] + g.board[n].armies + 1;
            if d < dist[n] {
                dist[n] = d;
                next[n] = Some(t);
            }
        }
    }
    (dist, next)
}

/// The spearhead: the own territory best placed to fight its way to an enemy castle, with
/// the first territory to attack on the way.
fn spearhead(g: &CastleRisk, s: Seat) -> Option<(T, T, u32)> {
    let m = map();
    let (dist, _) = castle_paths(g, s);
    let reserve = castle_reserve(g, s);
    let mut best: Option<(i64, T, T, u32)> = None;
    for f in g.territories_of(s) {
        let keep = if g.players[s].castle == Some(f) {
            reserve
        } else {
            1
        };
        let usable = g.board[f].armies.saturating_sub(keep);
        for n in m.board.neighbors(f) {
            if g.board[n].owner.is_none_or(|o| o == s) || dist[n] == u32::MAX {
                continue;
            }
            let score = usable as i64 * 3 - dist[n] as i64;
            if best.is_none_or(|b| score > b.0) {
                best = Some((score, f, n, keep));
            }
        }
    }
    best.map(|b| (b.1, b.2, b.3))
}

/// The territory a bot reinforces: the castle if it is weak, else the spearhead.
fn placement_target(g: &CastleRisk, s: Seat, rng: &mut BotRng) -> T {
    let own = g.territories_of(s);
    if let Some(c) = g.players[s].castle {
        if g.board[c].owner == Some(s) && g.board[c].armies < castle_reserve(g, s) + 2 {
            return c;
        }
    }
    if let Some((f, _, _)) = spearhead(g, s) {
        return f;
    }
    let frontier: Vec<T> = own
        .iter()
        .copied()
        .filter(|t| is_frontier(g, s, *t))
        .collect();
    let pool = if frontier.is_empty() { &own } else { &frontier };
    let best = pool
        .iter()
        .copied()
        .max_by_key(|&t| (g.board[t].armies, rng.below(4)));
    best.or_else(|| own.first().copied()).unwrap_or(0)
}

fn territory_score(g: &CastleRisk, s: Seat, t: T) -> i64 {
    let m = map();
    let grp = m.group_of(t);
    let mut score = 0;
    if grp == g.players[s].empire {
        score += 20;
    }
    let members = &m.board.groups[grp].members;
    let mine = members
        .iter()
        .filter(|x| g.board[**x].owner == Some(s))
        .count() as i64;
    let theirs = members
        .iter()
        .filter(|x| g.board[**x].owner.is_some_and(|o| o != s))
        .count() as i64;
    score += mine * 4 - theirs * 2;
    score += m
        .board
        .neighbors(t)
        .filter(|n| g.board[*n].owner == Some(s))
        .count() as i64
        * 2;
    score - members.len() as i64
}

pub fn choose(g: &CastleRisk, s: Seat, rng: &mut BotRng) -> Order {
    let m = map();
    match &g.phase {
        Phase::Castles { .. } => {
            let e = g.players[s].empire;
            let best = m.board.groups[e]
                .members
                .iter()
                .copied()
                .filter(|t| g.board[*t].owner.is_none())
                .max_by_key(|&t| {
                    let inside =
                        m.board.neighbors(t).filter(|n| m.group_of(*n) == e).count() as i64;
                    let outside = m.board.neighbors(t).count() as i64 - inside;
                    let coast = i64::from(m.sea[t] != Sea::None);
                    (coast * 2 - outside * 2 + inside, rng.below(3))
                });
            best.map(Order::Castle)
                .unwrap_or_else(|| g.default_for(s, crate::Ask::Castle))
        }
        Phase::Claim { .. } => {
            let free = g.free_territories();
            free.iter()
                .copied()
                .max_by_key(|&t| (territory_score(g, s, t), rng.below(5)))
                .map(Order::Claim)
                .unwrap_or_else(|| g.default_for(s, crate::Ask::Claim))
        }
        Phase::Draft { .. } => {
            let mut keyed: Vec<(i64, usize, T)> = g
                .free_territories()
                .into_iter()
                .map(|t| (-territory_score(g, s, t), rng.below(5), t))
                .collect();
            keyed.sort_unstable();
            Order::Rank(keyed.into_iter().map(|k| k.2).collect())
        }
        Phase::Place { .. } | Phase::Blind { .. } => {
            let due = match g.phase {
                Phase::Place { .. } => g.players[s].setup_armies.min(5),
                _ => g.players[s].setup_armies,
            };
            place_order(g, s, due, rng)
        }
        Phase::Hide => {
            let own: Vec<T> = g
                .territories_of(s)
                .into_iter()
                .filter(|t| g.castle_owner_at(*t).is_none())
                .collect();
            match rng.pick(&own) {
                Some(t) => Order::Hide(*t),
                None => g.default_for(s, crate::Ask::Hide),
            }
        }
        Phase::Play => play(g, s, rng),
        Phase::Over => Order::End,
    }
}

fn place_order(g: &CastleRisk, s: Seat, due: u32, rng: &mut BotRng) -> Order {
    if due == 0 {
        return g.default_for(s, crate::Ask::Place);
    }
    let a = placement_target(g, s, rng);
    let castle = g.players[s].castle.filter(|c| g.board[*c].owner == Some(s));
    match castle {
        Some(c) if c != a && due >= 4 => {
            let half = due / 2;
            Order::Place(vec![(c, half), (a, due - half)])
        }
        _ => Order::Place(vec![(a, due)]),
    }
}

fn play(g: &CastleRisk, s: Seat, rng: &mut BotRng) -> Order {
    if let Some(i) = &g.interrupt {
        return match i {
            Interrupt::Defend(p) => {
                let has_m = g.hand_has(s, Card::Marshal);
                let reveal = g.players[s]
                    .hidden
                    .iter()
                    .any(|h| !h.used && h.territory == p.to)
                    && g.hidden_value() >= 3;
                Order::Defend {
                    dice: 2,
                    marshal: has_m
                        && (g.board[p.to].armies >= 3 || g.players[s].castle == Some(p.to)),
                    reveal,
                }
            }
            Interrupt::CounterSpy { .. } => Order::CounterSpy(g.hand_has(s, Card::Spy)),
            Interrupt::Reoccupy { .. } => Order::Occupy(OccupyWhat::All),
            Interrupt::Annex { .. } => g.default_for(s, crate::Ask::Annex),
        };
    }
    if g.to_place > 0 {
        return place_order(g, s, g.to_place, rng);
    }
    let alive = g.alive_count();
    if !g.attacked {
        let r = g.players[s]
            .hand
            .iter()
            .filter(|c| **c == Card::Reinforcements)
            .count() as u32;
        if r > 0 {
            return Order::Reinforce(r);
        }
        if g.hand_has(s, Card::Diplomat) && !g.no_diplomats && alive >= 3 {
            // A truce with the strongest neighbour of the castle.
            if let Some(c) = g.players[s].castle {
                let mut best: Option<(u32, Seat)> = None;
                for n in map().board.neighbors(c) {
                    if let Some(o) = g.board[n].owner {
                        if o != s && !g.truces.iter().any(|t| t.by == s && t.with == o) {
                            let a = g.board[n].armies;
                            if best.is_none_or(|b| a > b.0) {
                                best = Some((a, o));
                            }
                        }
                    }
                }
                if let Some((a, o)) = best {
                    if a >= 4 {
                        return Order::Truce(o);
                    }
                }
            }
        }
        if g.hand_has(s, Card::Spy) {
            let targets: Vec<Seat> = (0..g.n())
                .filter(|&o| o != s && g.players[o].alive && g.players[o].hand.len() >= 2)
                .collect();
            if let Some(&t) = rng.pick(&targets) {
                return Order::Spy {
                    target: t,
                    prefer: vec![Card::Admiral, Card::Marshal, Card::General],
                };
            }
        }
    }
    if let Some(h) = g.players[s]
        .hidden
        .iter()
        .find(|h| !h.used && g.board[h.territory].owner == Some(s))
    {
        if g.hidden_value() >= 6 || (g.hidden_value() >= 3 && is_frontier(g, s, h.territory)) {
            return Order::Reveal(Some(h.territory));
        }
    }
    if g.attacks < MAX_ATTACKS_PER_TURN {
        if let Some(o) = best_attack(g, s, rng) {
            return o;
        }
    }
    Order::End
}

/// Nobody can gain an army any more except by revealing hidden armies: every Reinforcements
/// card is on the track and no player earns. Holding armies back then only stalls the game
/// (there is no free move), so the bot lets every army fight, the castle's too.
pub fn starved(g: &CastleRisk) -> bool {
    !g.reinforcements_left() && (0..g.n()).all(|o| !g.players[o].alive || g.earnings(o).0 == 0)
}

/// The attack to make now, if any: at the bot's usual odds, or, when the game is
/// [`starved`] and nothing else is worth it, any attack at all, from the castle too.
fn best_attack(g: &CastleRisk, s: Seat, rng: &mut BotRng) -> Option<Order> {
    search_attack(g, s, rng, false).or_else(|| {
        if starved(g) {
            search_attack(g, s, rng, true)
        } else {
            None
        }
    })
}

/// What an attack search knows of the seat that attacks.
struct Search {
    s: Seat,
    /// Armies kept in the castle.
    reserve: u32,
    /// Late in the game a bot accepts worse odds, so games cannot stall.
    patience: u32,
    general: bool,
    starved: bool,
}

impl Search {
    /// The armies `from` keeps back.
    fn keep(&self, g: &CastleRisk, from: T) -> u32 {
        if g.players[self.s].castle == Some(from) {
            self.reserve
        } else {
            1
        }
    }
}

/// The best attack by land, then a spearhead's, then by sea if better, with its score.
fn search_attack(g: &CastleRisk, s: Seat, rng: &mut BotRng, starved: bool) -> Option<Order> {
    let k = Search {
        s,
        reserve: if starved { 1 } else { castle_reserve(g, s) },
        patience: g.turns_played / (g.n() as u32 * 15).max(1),
        general: g.hand_has(s, Card::General),
        starved,
    };
    let mut best = land_attack(g, &k, rng);
    if best.is_none() {
        best = spearhead_attack(g, &k);
    }
    if g.hand_has(s, Card::Admiral) {
        sea_attack(g, &k, &mut best);
    }
    best.map(|b| b.1)
}

/// What taking `to` from `o` is worth: a castle, the last territory of a group, an empire
/// `o` holds whole, a group mostly ours.
fn target_value(g: &CastleRisk, s: Seat, o: Seat, to: T) -> i64 {
    let m = map();
    let grp = m.group_of(to);
    let members = &m.board.groups[grp].members;
    let mine = members
        .iter()
        .filter(|t| g.board[**t].owner == Some(s))
        .count();
    let missing = members.len() - mine;
    let held_by_o = members.iter().all(|t| g.board[*t].owner == Some(o));
    let mut value = 0i64;
    if g.players[o].castle == Some(to) {
        value += 40;
    }
    if missing == 1 {
        value += 30;
    }
    if held_by_o && m.is_empire_group(grp) {
        value += 20;
    }
    if mine * 2 >= members.len() {
        value += 10;
    }
    value
}

/// The armies an attack on `d` defenders worth `value` needs (the castle's own odds).
fn land_need(k: &Search, d: u32, castle: bool, value: i64) -> u32 {
    let need = if castle {
        d * 2 + 2
    } else if value >= 20 {
        d + 1
    } else if value > 0 {
        d * 2 + 1
    } else {
        d * 3 + 3
    };
    let floor = if value > 0 || k.patience >= 3 {
        1
    } else {
        d + 1
    };
    if k.starved {
        1
    } else {
        need.saturating_sub(k.patience).max(floor)
    }
}

/// An attack by land with its plan: to the last `keep` when the castle's reserve stays
/// behind, else until conquered, moving in what another front can spare.
fn land_order(g: &CastleRisk, k: &Search, from: T, to: T, keep: u32) -> Order {
    let a = g.board[from].armies;
    let other_front = map()
        .board
        .neighbors(from)
        .any(|n| n != to && g.board[n].owner.is_some_and(|x| x != k.s));
    let move_in = if keep > 1 {
        MoveIn::Leave(keep)
    } else if other_front {
        MoveIn::Leave((a / 3).max(1))
    } else {
        MoveIn::All
    };
    let until = if keep > 1 {
        Until::Left(keep)
    } else {
        Until::Conquered
    };
    Order::Attack {
        to,
        from,
        plan: AttackPlan {
            until,
            dice: None,
            move_in,
        },
        general: k.general,
        again: None,
    }
}

/// The best attack by land at the bot's odds, with its score.
fn land_attack(g: &CastleRisk, k: &Search, rng: &mut BotRng) -> Option<(i64, Order)> {
    let mut best: Option<(i64, Order)> = None;
    for from in g.territories_of(k.s) {
        let keep = k.keep(g, from);
        let a = g.board[from].armies;
        if a < keep + 1 || a < 2 {
            continue;
        }
        let usable = a - keep;
        for to in map().board.neighbors(from) {
            let Some(o) = g.board[to].owner else { continue };
            if o == k.s || g.truce_between(k.s, o) {
                continue;
            }
            let d = g.board[to].armies;
            let value = target_value(g, k.s, o, to);
            if usable < land_need(k, d, g.players[o].castle == Some(to), value) {
                continue;
            }
            let mut score = usable as i64 - d as i64 * 2 + value;
            score += rng.below(3) as i64;
            if best.as_ref().is_none_or(|b| score > b.0) {
                best = Some((score, land_order(g, k, from, to, keep)));
            }
        }
    }
    best
}

/// The spearhead's attack, when no other is worth it.
fn spearhead_attack(g: &CastleRisk, k: &Search) -> Option<(i64, Order)> {
    let (from, to, keep) = spearhead(g, k.s)?;
    let o = g.board[to].owner.unwrap_or(k.s);
    let d = g.board[to].armies;
    let usable = g.board[from].armies.saturating_sub(keep);
    let castle = g.players[o].castle == Some(to);
    let need = if castle { d * 3 / 2 + 2 } else { d + 2 };
    let need = need.saturating_sub(k.patience).max(d.min(2)).max(1);
    if usable < need || g.truce_between(k.s, o) || g.board[from].armies < 2 {
        return None;
    }
    let until = if keep > 1 {
        Until::Left(keep)
    } else {
        Until::Conquered
    };
    let plan = AttackPlan {
        until,
        dice: None,
        move_in: MoveIn::Leave(keep),
    };
    Some((
        0,
        Order::Attack {
            to,
            from,
            plan,
            general: k.general,
            again: None,
        },
    ))
}

/// An Admiral's attack by sea, if it scores better than `best`.
fn sea_attack(g: &CastleRisk, k: &Search, best: &mut Option<(i64, Order)>) {
    let m = map();
    for from in g.territories_of(k.s) {
        if m.sea[from] == Sea::None {
            continue;
        }
        let keep = k.keep(g, from);
        let a = g.board[from].armies;
        if a <= keep + if k.starved { 0 } else { 2 } {
            continue;
        }
        let ship = a - keep;
        for to in 0..g.board.len() {
            let Some(o) = g.board[to].owner else { continue };
            if o == k.s || g.truce_between(k.s, o) || !shares_sea(m.sea[from], m.sea[to]) {
                continue;
            }
            let d = g.board[to].armies;
            let castle = g.players[o].castle == Some(to);
            let need = if castle { d * 2 + 3 } else { d * 2 + 2 };
            let need = if k.starved {
                1
            } else {
                need.saturating_sub(k.patience).max(d + 1)
            };
            if ship < need {
                continue;
            }
            let mut score = ship as i64 - d as i64 * 2 - 3;
            if castle {
                score += 45;
            }
            if best.as_ref().is_none_or(|b| score > b.0) {
                *best = Some((
                    score,
                    Order::Sail {
                        armies: ship,
                        from,
                        to,
                        dice: None,
                        general: k.general,
                        again: None,
                    },
                ));
            }
        }
    }
}
