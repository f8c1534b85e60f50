//! A heuristic bot: builds whenever it can, puts the materials it still lacks on its
//! site, attacks the leader when that pays, defends whenever it can, discards what it
//! cannot use. Every order it returns passes [`Castrum::check`].

use crate::*;

/// Units of (Structores, Lapides, Rustici) still missing for the whole castle.
pub fn deficit(g: &Castrum, seat: Seat) -> [i64; 3] {
    let site = &g.sites[seat];
    let walls = (CASTLE_WALLS.saturating_sub(site.walls)) as i64;
    let towers = (CASTLE_TOWERS.saturating_sub(site.towers)) as i64;
    [
        walls + towers - site.units(Material::Structores) as i64,
        2 * walls + 5 * towers - site.units(Material::Lapides) as i64,
        3 * walls + 6 * towers - site.units(Material::Rustici) as i64,
    ]
}

fn mat_index(m: Material) -> usize {
    match m {
        Material::Structores => 0,
        Material::Lapides => 1,
        Material::Rustici => 2,
    }
}

/// How far a seat is along: points first, then material on its site.
pub fn progress(g: &Castrum, seat: Seat) -> i64 {
    let site = &g.sites[seat];
    site.points() as i64 * 12
        + site.units(Material::Structores) as i64 * 2
        + site.units(Material::Lapides) as i64
        + site.units(Material::Rustici) as i64
}

fn material_value(g: &Castrum, seat: Seat, c: Card) -> f64 {
    match c.material() {
        Some((m, u)) => {
            let d = deficit(g, seat)[mat_index(m)];
            if d <= 0 {
                0.4
            } else if m == Material::Structores {
                3.5
            } else if u == 2 && d >= 2 {
                3.4
            } else {
                3.0
            }
        }
        None => 0.0,
    }
}

/// How much `seat` wants to keep a hand card.
fn keep_value(g: &Castrum, seat: Seat, c: Card, copies_before: usize) -> f64 {
    if c.is_material() {
        return material_value(g, seat, c);
    }
    if c.is_defence() {
        return if copies_before == 0 { 2.5 } else { 0.6 };
    }
    if c == Card::Roue {
        return 1.5;
    }
    // An attack card: worth keeping if it could hit someone now.
    let any_target = (0..g.seats()).filter(|t| *t != seat).any(|t| {
        let s = &g.sites[t];
        match c {
            Card::Incendie => s.cards.len() >= 3,
            Card::Sorciere => !s.cards.is_empty(),
            Card::PiecesOr => s.cards.contains(&Card::Structores),
            _ => s.mage.is_none(),
        }
    });
    if any_target {
        2.0
    } else {
        0.7
    }
}

fn play_value(g: &Castrum, seat: Seat, o: &Order) -> f64 {
    let Order::Play { card, target, aim } = o else {
        return 0.0;
    };
    if card.is_material() {
        return material_value(g, seat, *card);
    }
    if *card == Card::Roue {
        let useful = g.hands[seat]
            .iter()
            .filter(|c| {
                material_value(g, seat, **c) > 1.0
                    && !(g.in_force == Some(Happening::Famine)
                        && c.material().map(|(m, _)| m) != Some(Material::Lapides))
            })
            .count();
        return if useful >= 2 {
            4.0 + useful as f64
        } else {
            0.0
        };
    }
    let Some(t) = *target else { return 0.0 };
    let leader = (0..g.seats())
        .filter(|s| *s != seat)
        .max_by_key(|s| progress(g, *s))
        .unwrap_or(t);
    let lead_bonus = if t == leader { 1.0 } else { 0.0 };
    let site = &g.sites[t];
    let family = g.options.mode == Mode::Family;
    let v = match card {
        Card::PiecesOr => 3.0 + if deficit(g, seat)[0] > 0 { 1.0 } else { 0.0 },
        Card::Sorciere => {
            let a = aim.unwrap_or(Card::Rustici);
            let base = match a {
                Card::Structores => 3.0,
                Card::LapidesX2 | Card::RusticiX2 => 2.5,
                _ => 1.4,
            };
            if family {
                base * 0.6
            } else {
                base
            }
        }
        Card::Incendie => {
            let n = site.cards.len() as f64;
            if family {
                n * 0.45
            } else {
                (site.cards.len() / 3) as f64 * 1.5
            }
        }
        Card::Mage => {
            // Blocking hurts most when the victim is about to build.
            let d = deficit(g, t);
            if d[0] <= 3 && d[1] <= 9 && d[2] <= 12 {
                2.5
            } else {
                1.2
            }
        }
        _ => 0.0,
    };
    v + lead_bonus
}

fn discard_choice(g: &Castrum, seat: Seat) -> Vec<Card> {
    let hand = &g.hands[seat];
    let mut scored: Vec<(f64, Card)> = Vec::new();
    for (i, c) in hand.iter().enumerate() {
        let before = hand[..i].iter().filter(|x| *x == c).count();
        scored.push((keep_value(g, seat, *c, before), *c));
    }
    scored.sort_by(|a, b| a.0.partial_cmp(&b.0).unwrap_or(std::cmp::Ordering::Equal));
    let low: Vec<Card> = scored
        .iter()
        .filter(|(v, _)| *v < 1.0)
        .take(3)
        .map(|(_, c)| *c)
        .collect();
    if low.is_empty() {
        scored.first().map(|(_, c)| vec![*c]).unwrap_or_default()
    } else {
        low
    }
}

fn turn_choice(g: &Castrum, seat: Seat, rng: &mut BotRng, legal: &[Order]) -> Order {
    for p in [Piece::Tower, Piece::Wall] {
        if legal.contains(&Order::Build(p)) {
            return Order::Build(p);
        }
    }
    let ts = &g.turn_state;
    if ts.played == 0 && g.blocked(seat) {
        let d = discard_choice(g, seat);
        let useless = d
            .iter()
            .all(|c| keep_value(g, seat, *c, 1) < 1.0 || c.is_defence());
        if useless && !d.is_empty() {
            return Order::Discard(d);
        }
        return Order::End;
    }
    let mut best: Option<(f64, &Order)> = None;
    for o in legal.iter().filter(|o| matches!(o, Order::Play { .. })) {
        let v = play_value(g, seat, o) + rng.below(100) as f64 / 200.0;
        if best.map(|(bv, _)| v > bv).unwrap_or(true) {
            best = Some((v, o));
        }
    }
    if let Some((v, o)) = best {
        if v >= 1.0 || (ts.wheel && v > 0.0) {
            return o.clone();
        }
    }
    if ts.played == 0 && !g.hands[seat].is_empty() {
        return Order::Discard(discard_choice(g, seat));
    }
    Order::End
}

/// The bot's order for `seat` (which has a prompt).
pub fn choose(g: &Castrum, seat: Seat, rng: &mut BotRng) -> Order {
    let legal = g.legal_orders(seat);
    let pick = match &g.phase {
        Phase::Defence(_) => {
            if legal.contains(&Order::Defend) {
                Order::Defend
            } else {
                Order::Accept
            }
        }
        Phase::Works(_) => {
            // Give the card it needs least.
            let mut best: Option<(f64, Card)> = None;
            for c in &g.sites[seat].cards {
                let v = material_value(g, seat, *c)
                    + match c.material() {
                        Some((_, 2)) => 0.5,
                        _ => 0.0,
                    };
                if best.map(|(bv, _)| v < bv).unwrap_or(true) {
                    best = Some((v, *c));
                }
            }
            best.map(|(_, c)| Order::Give(c))
                .unwrap_or_else(|| g.default_for(seat))
        }
        _ => turn_choice(g, seat, rng, &legal),
    };
    if g.check(seat, &pick).is_ok() {
        pick
    } else if let Some(o) = legal.first() {
        o.clone()
    } else {
        g.default_for(seat)
    }
}
