//! Bot games run straight on the state (no table, no history), with any deck: the
//! figures behind the deck design in docs/rules/castrum.md. Pure: the caller prints.

use crate::*;
use castellan_engine::Secret;

/// What one bot game did.
#[derive(Clone, Debug, Default)]
pub struct GameStats {
    pub rounds: u32,
    pub orders: usize,
    pub winners: Vec<Seat>,
    /// The game reached the classic round limit and was scored on points.
    pub limit: bool,
    pub first: Seat,
    /// uses[seat][card index in Card::ALL]: cards played (defences: played to stop an attack).
    pub uses: Vec<[u32; 13]>,
    /// Attacks that hit (not defended) and attacks stopped, per attack card.
    pub hits: [u32; 13],
    pub stopped: [u32; 13],
    pub events: [u32; 6],
}

fn idx(c: Card) -> usize {
    Card::ALL.iter().position(|x| *x == c).unwrap_or(0)
}

/// Play one bot game. Err: a bot order was refused or the game stalled (a bug).
pub fn play_game(
    seats: usize,
    options: &Options,
    deck: &Deck,
    seed: &str,
    max_orders: usize,
) -> Result<GameStats, String> {
    let players: Vec<String> = (1..=seats).map(|i| format!("Bot {i}")).collect();
    let mut dice = DiceBox::new(seed, Secret::derive(seed.as_bytes()));
    let (mut g, _) =
        Castrum::with_deck(&players, options, deck, &mut dice).map_err(|e| e.message)?;
    dice.take_rolls();
    let mut st = GameStats {
        uses: vec![[0; 13]; seats],
        first: g.first,
        ..Default::default()
    };
    let mut orders = 0;
    while g.outcome.is_none() {
        if orders >= max_orders {
            return Err(format!("{seed}: no end after {max_orders} orders"));
        }
        let Some(p) = g.prompts(castellan_engine::Lang::En).into_iter().next() else {
            return Err(format!("{seed}: stalled"));
        };
        let mut rng = BotRng::new(&format!("{seed}/{orders}/{}", p.seat));
        let o = g.bot_order(p.seat, &mut rng);
        dice.enter_turn(g.turn());
        let ev = g
            .apply(p.seat, &o, &mut dice)
            .map_err(|e| format!("{seed}: bot order {o:?} refused: {}", e.message))?;
        dice.take_rolls();
        if let Order::Play { card, .. } = &o {
            st.uses[p.seat][idx(*card)] += 1;
        }
        for e in &ev {
            match e {
                Event::Defended {
                    victim,
                    defence,
                    attack,
                } => {
                    st.uses[*victim][idx(*defence)] += 1;
                    st.stopped[idx(*attack)] += 1;
                }
                Event::FireDie { .. } => {}
                Event::FireLots { .. } => st.hits[idx(Card::Incendie)] += 1,
                Event::Witch { .. } => st.hits[idx(Card::Sorciere)] += 1,
                Event::Stolen { .. } => st.hits[idx(Card::PiecesOr)] += 1,
                Event::Blocked { .. } => st.hits[idx(Card::Mage)] += 1,
                Event::EventDie { die, .. } => st.events[(*die as usize - 1).min(5)] += 1,
                _ => {}
            }
        }
        if ev.iter().any(|e| matches!(e, Event::FireDie { .. })) {
            st.hits[idx(Card::Incendie)] += 1;
        }
        orders += 1;
    }
    st.rounds = g.round;
    st.orders = orders;
    st.winners = g.outcome.map(|o| o.winners).unwrap_or_default();
    st.limit = g.sites.iter().all(|s| !s.complete());
    Ok(st)
}

/// Totals over many games.
#[derive(Clone, Debug, Default)]
pub struct Summary {
    pub games: usize,
    pub seats: usize,
    pub mean_rounds: f64,
    pub median_rounds: u32,
    pub limit_share: f64,
    pub first_player_wins: f64,
    /// Per card type: mean uses per game.
    pub uses_per_game: [f64; 13],
    /// Per card type: share of games where the winner used it strictly more than every
    /// other player (a sole winner only).
    pub winner_led: [f64; 13],
    /// Per card type: share of uses made by a winner, times the seat count (1.0 = no edge).
    pub winner_edge: [f64; 13],
}

pub fn summarize(stats: &[GameStats], seats: usize) -> Summary {
    let n = stats.len().max(1) as f64;
    let mut rounds: Vec<u32> = stats.iter().map(|s| s.rounds).collect();
    rounds.sort_unstable();
    let mut s = Summary {
        games: stats.len(),
        seats,
        mean_rounds: rounds.iter().map(|r| *r as f64).sum::<f64>() / n,
        median_rounds: rounds.get(rounds.len() / 2).copied().unwrap_or(0),
        limit_share: stats.iter().filter(|s| s.limit).count() as f64 / n,
        first_player_wins: stats
            .iter()
            .filter(|s| s.winners.len() == 1 && s.winners[0] == s.first)
            .count() as f64
            / n,
        ..Default::default()
    };
    for c in 0..13 {
        let mut total = 0u64;
        let mut by_winner = 0u64;
        let mut led = 0u64;
        for g in stats {
            let t: u32 = g.uses.iter().map(|u| u[c]).sum();
            total += t as u64;
            if g.winners.len() == 1 {
                let w = g.winners[0];
                by_winner += g.uses[w][c] as u64;
                let wu = g.uses[w][c];
                if wu > 0 && g.uses.iter().enumerate().all(|(i, u)| i == w || u[c] < wu) {
                    led += 1;
                }
            }
        }
        s.uses_per_game[c] = total as f64 / n;
        s.winner_led[c] = led as f64 / n;
        s.winner_edge[c] = if total > 0 {
            by_winner as f64 / total as f64 * seats as f64
        } else {
            0.0
        };
    }
    s
}

/// Play `games` games of `seats` players with `deck`.
pub fn run(
    seats: usize,
    options: &Options,
    deck: &Deck,
    games: usize,
    label: &str,
) -> Result<Vec<GameStats>, String> {
    (0..games)
        .map(|i| {
            play_game(
                seats,
                options,
                deck,
                &format!("{label}-{seats}p-{i}"),
                200_000,
            )
        })
        .collect()
}
