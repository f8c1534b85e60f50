//! Diagnostic (ignored): replay one bot game by id and print where it stands (GID, NP env).
mod common;
use castellan_castle_risk::{ClaimMode, Options};
use castellan_engine::{play_out, Rules};
use common::*;

#[test]
#[ignore]
fn debug_stuck() {
    let id = std::env::var("GID").unwrap_or("sim-2-33-Random-Rounds-false".into());
    let n: usize = std::env::var("NP")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(2);
    let mut t = table(
        &id,
        n,
        Options {
            claim: ClaimMode::Random,
            ..Options::default()
        },
    );
    let r = play_out(&mut t, 20_000).unwrap();
    println!("{r:?}");
    println!("{}", t.state.public_view());
    for e in t.history.iter().rev().take(12) {
        println!(
            "{:?} {:?}",
            e.seat,
            e.order.as_ref().map(|o| t.state.order_text(o))
        );
    }
    for s in 0..n {
        println!("{}", t.state.private_view(s));
    }
}
