//! Figures behind the deck design (docs/rules/castrum.md):
//! `cargo run --release -p castellan-castrum --example deck_figures -- [games] [mode]`
//! Prints game length and, per card type, how much it is used, how often the winner led on
//! it, and what removing it does to game length.

use castellan_castrum::measure::{run, summarize, Summary};
use castellan_castrum::{Card, Deck, Mode, Options};

fn line(label: &str, s: &Summary) -> String {
    format!(
        "| {label} | {} | {:.1} | {} | {:.1}% | {:.1}% |",
        s.games,
        s.mean_rounds,
        s.median_rounds,
        100.0 * s.limit_share,
        100.0 * s.first_player_wins
    )
}

fn main() -> Result<(), String> {
    let args: Vec<String> = std::env::args().collect();
    let games: usize = args.get(1).and_then(|a| a.parse().ok()).unwrap_or(300);
    let mode = match args.get(2).map(|s| s.as_str()) {
        Some("expert") => Mode::Expert,
        _ => Mode::Family,
    };
    let options = Options {
        mode,
        ..Options::default()
    };
    let deck = Deck::standard()?;
    println!(
        "deck total {} ({mode:?} mode, {games} games per line)",
        deck.total()
    );
    println!("\n| players | games | mean rounds | median | round limit | first player wins |");
    println!("|---|---|---|---|---|---|");
    let mut base = Vec::new();
    for seats in 2..=4 {
        let st = run(seats, &options, &deck, games, "base")?;
        let s = summarize(&st, seats);
        println!("{}", line(&format!("{seats}"), &s));
        base.push(s);
    }
    println!("\nPer card type (3 players): uses per game, share of games the sole winner played it more than anyone, winner edge (uses by the winner x seats / all uses; 1.0 = no edge)");
    println!("| card | count | uses/game | winner led | winner edge |");
    println!("|---|---|---|---|---|");
    let s3 = &base[1];
    for (i, c) in Card::ALL.iter().enumerate() {
        println!(
            "| {} | {} | {:.2} | {:.1}% | {:.2} |",
            c.name(),
            deck.count(*c),
            s3.uses_per_game[i],
            100.0 * s3.winner_led[i],
            s3.winner_edge[i]
        );
    }
    println!("\nWith one card type removed from the deck (3 players):");
    println!("| deck | games | mean rounds | median | round limit | first player wins |");
    println!("|---|---|---|---|---|---|");
    println!("{}", line("standard", s3));
    for c in Card::ALL {
        let d = deck.with(c, 0);
        let st = run(3, &options, &d, games, &format!("no-{}", c.key()))?;
        println!("{}", line(&format!("no {}", c.name()), &summarize(&st, 3)));
    }
    Ok(())
}
