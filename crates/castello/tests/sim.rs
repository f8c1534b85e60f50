//! Bot games: they finish, replay identically from their seed, and keep nothing hidden.

use castellan_castello::{Castello, Options};
use castellan_engine::dice::Secret;
use castellan_engine::{play_out, Rules, Table};
use std::collections::BTreeMap;

fn table(id: &str, options: Options) -> Table<Castello> {
    Table::new(
        id,
        Secret::derive(id.as_bytes()),
        vec!["Alice".into(), "Bob".into()],
        options,
    )
    .expect("setup")
}

/// Plays `n` games; returns (reason -> count, total orders).
fn run(n: usize, prefix: &str, check_replay: bool) -> (BTreeMap<String, usize>, usize) {
    let mut reasons = BTreeMap::new();
    let mut orders = 0;
    for i in 0..n {
        let id = format!("{prefix}-{i}");
        let mut t = table(&id, Options::default());
        let p = play_out(&mut t, 20_000).unwrap_or_else(|e| panic!("{id}: {e}"));
        assert!(!p.capped, "{id} hit the order cap");
        let o = p.outcome.expect("finished");
        assert!(t.state.pending(castellan_engine::Lang::En).is_empty());
        orders += p.orders;
        let key = o
            .reason
            .split(|c: char| c.is_ascii_digit())
            .next()
            .unwrap_or("")
            .replace("Red ", "")
            .replace("Black ", "");
        *reasons.entry(key).or_insert(0) += 1;
        if check_replay {
            let r = t.replay().unwrap_or_else(|e| panic!("{id}: replay: {e}"));
            assert_eq!(
                serde_json::to_value(&r.state).unwrap(),
                serde_json::to_value(&t.state).unwrap()
            );
        }
    }
    (reasons, orders)
}

#[test]
fn a_few_bot_games_finish_and_replay() {
    let (reasons, _) = run(2, "small", true);
    assert_eq!(reasons.values().sum::<usize>(), 2);
}

#[test]
#[ignore]
fn thousands_of_bot_games_finish_and_replay() {
    let n: usize = std::env::var("CASTELLO_GAMES")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(2000);
    let start = std::time::Instant::now();
    let (reasons, orders) = run(n, "many", true);
    let secs = start.elapsed().as_secs_f64();
    println!(
        "{n} games, {orders} orders ({:.0} per game) in {secs:.1}s: {:.1} games/s (with replay); outcomes {reasons:?}",
        orders as f64 / n as f64,
        n as f64 / secs
    );
}
