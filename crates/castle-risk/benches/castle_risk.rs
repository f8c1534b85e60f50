//! Castle Risk benchmark (no criterion): battles per second and whole bot games per second.
//! Run: cargo bench -p castellan-castle-risk

use castellan_castle_risk::{CastleRisk, ClaimMode, Options};
use castellan_engine::battle::exchange;
use castellan_engine::{play_out, DiceBox, Secret, Table};
use std::time::Instant;

fn main() {
    // Battles: roll 3 attacking and 2 defending dice from the auditable dice box and compare.
    let mut dice = DiceBox::new("bench", Secret::derive(b"bench"));
    let n = 200_000;
    let t0 = Instant::now();
    let mut losses = 0u64;
    for _ in 0..n {
        let a: Vec<u8> = dice.roll_d6(3).iter().map(|r| r.value).collect();
        let d: Vec<u8> = dice.roll_d6(2).iter().map(|r| r.value).collect();
        let x = exchange(&a, &d, 0, 0);
        losses += (x.attacker_losses + x.defender_losses) as u64;
        if dice.take_rolls().len() > 1_000_000 {
            unreachable!();
        }
    }
    let secs = t0.elapsed().as_secs_f64();
    println!(
        "battles: {n} in {secs:.3}s = {:.0} battles/s (losses {losses})",
        n as f64 / secs
    );
    for players in [2usize, 4, 6] {
        let games = 40;
        let t0 = Instant::now();
        let mut finished = 0;
        let mut turns = 0u64;
        for g in 0..games {
            let opts = Options {
                claim: ClaimMode::Random,
                ..Options::default()
            };
            let names = (1..=players).map(|i| format!("Bot {i}")).collect();
            let mut t = Table::<CastleRisk>::new(
                &format!("bench-{players}-{g}"),
                Secret::derive(format!("bench-{players}-{g}").as_bytes()),
                names,
                opts,
            )
            .expect("table");
            let r = play_out(&mut t, 200_000).expect("bot game");
            if r.outcome.is_some() {
                finished += 1;
            }
            turns += r.turns as u64;
        }
        let secs = t0.elapsed().as_secs_f64();
        println!(
            "games, {players} players: {finished}/{games} finished, {:.1} turns mean, {:.1} games/s",
            turns as f64 / games as f64,
            games as f64 / secs
        );
    }
}
