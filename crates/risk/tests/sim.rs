//! Bot games: every player count and variant finish, keep the invariants, and replay from
//! their seed. Small runs here; the thousands-of-games runs are `#[ignore]`d
//! (`cargo test -p castellan-risk --release -- --ignored`).

use castellan_engine::{options_from_pairs, play_out, Rules, Secret, Table};
use castellan_risk::{Options, Risk};

pub const VARIANTS: &[&[(&str, &str)]] = &[
    &[],
    &[("claim", "draft")],
    &[("claim", "random"), ("placement", "blind")],
    &[("rising_sets", "true")],
    &[("free_fortify", "true")],
    &[("max_armies_per_territory", "12")],
    &[("reroll", "true")],
    &[("commander", "true")],
    &[("headquarters", "all")],
    &[("headquarters", "quick"), ("claim", "random")],
    &[("turn_limit", "10")],
    &[("claim", "random"), ("place_per_turn", "5")],
];

pub fn opts(v: &[(&str, &str)]) -> Options {
    let pairs: Vec<(String, String)> = v
        .iter()
        .map(|(k, v)| (k.to_string(), v.to_string()))
        .collect();
    options_from_pairs(&pairs).expect("options parse")
}

pub struct Stats {
    pub games: usize,
    pub finished: usize,
    pub capped: usize,
    pub replayed: usize,
    pub orders: usize,
    pub max_round: u32,
}

/// Play `games` bot games; every game is checked and replayed.
pub fn run(players: usize, v: &[(&str, &str)], games: usize, cap: usize) -> Stats {
    let mut st = Stats {
        games,
        finished: 0,
        capped: 0,
        replayed: 0,
        orders: 0,
        max_round: 0,
    };
    for g in 0..games {
        let id = format!("sim-{players}-{v:?}-{g}");
        let names = (0..players).map(|i| format!("P{i}")).collect();
        let mut t =
            Table::<Risk>::new(&id, Secret::derive(id.as_bytes()), names, opts(v)).expect("setup");
        let r = play_out(&mut t, cap).unwrap_or_else(|e| panic!("{id}: {e}"));
        st.orders += r.orders;
        if r.capped {
            st.capped += 1;
        } else {
            st.finished += 1;
            assert!(t.state.pending(castellan_engine::Lang::En).is_empty());
        }
        st.max_round = st.max_round.max(t.state.round);
        let cards = t.state.all_cards();
        assert_eq!(cards, (0..44).collect::<Vec<_>>(), "{id}: cards conserved");
        if t.replay().is_ok() {
            st.replayed += 1;
        } else {
            panic!("{id}: replay differs: {:?}", t.replay().err());
        }
    }
    st
}

#[test]
fn a_few_games_of_every_count_and_variant_finish_and_replay() {
    for players in 2..=6 {
        for v in VARIANTS {
            let st = run(players, v, 1, 20_000);
            assert_eq!(st.capped, 0, "{players} players {v:?} capped");
        }
    }
}

#[test]
#[ignore]
fn thousands_of_games_finish_and_replay() {
    let per = std::env::var("RISK_SIM_GAMES")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(100usize);
    let mut total = 0;
    for players in 2..=6 {
        for v in VARIANTS {
            let st = run(players, v, per, 50_000);
            println!(
                "players {players} {v:?}: {} games, {} finished, {} capped, {} replayed, {:.0} orders/game, max round {}",
                st.games,
                st.finished,
                st.capped,
                st.replayed,
                st.orders as f64 / st.games as f64,
                st.max_round
            );
            assert_eq!(st.replayed, st.games);
            assert_eq!(st.capped, 0);
            total += st.games;
        }
    }
    println!("total games: {total}");
}
