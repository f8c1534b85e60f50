//! Whole bot games: they finish with a winner and replay identically from their seed.
mod common;
use castellan_castle_risk::{ClaimMode, Options, PlacementMode};
use common::*;
use std::time::Instant;

fn run(players: usize, games: usize, opts: Options, replay: bool) -> (usize, f64, u32, f64) {
    let t0 = Instant::now();
    let mut finished = 0;
    let mut turns = 0u64;
    let mut max = 0;
    for g in 0..games {
        let id = format!(
            "sim-{players}-{g}-{:?}-{:?}-{}",
            opts.claim, opts.placement, opts.ask
        );
        let (t, r) = bot_game(&id, players, opts.clone());
        assert!(!r.capped, "{id} capped after {} orders", r.orders);
        let o = r.outcome.clone().expect("outcome");
        assert_eq!(o.winners.len(), 1, "{id}: {o:?}");
        finished += 1;
        turns += r.turns as u64;
        max = max.max(r.turns);
        if replay {
            t.replay().unwrap_or_else(|e| panic!("{id}: replay: {e}"));
        }
    }
    let secs = t0.elapsed().as_secs_f64();
    (
        finished,
        turns as f64 / games as f64,
        max,
        games as f64 / secs,
    )
}

/// Every set-up option and the ask mode play whole games to a winner and replay.
#[test]
fn a_few_bot_games_of_every_kind_finish_and_replay() {
    for (players, claim, placement, ask) in [
        (2, ClaimMode::Table, PlacementMode::Rounds, false),
        (3, ClaimMode::Draft, PlacementMode::Blind, true),
        (4, ClaimMode::Random, PlacementMode::Rounds, true),
        (5, ClaimMode::Random, PlacementMode::Blind, false),
        (6, ClaimMode::Draft, PlacementMode::Rounds, false),
    ] {
        let opts = Options {
            claim,
            placement,
            ask,
            turn_limit: 0,
            ..Options::default()
        };
        let (f, mean, max, _) = run(players, 2, opts, true);
        assert_eq!(f, 2);
        eprintln!("{players} players: turns mean {mean:.1} max {max}");
    }
}

/// Regression: these bot games (seeds of the 1000-game runs) used to run for ever: every bot
/// kept its last armies in its castle as a reserve and nothing else could attack or earn.
/// Now a starved bot attacks from its castle too, and they end with a castle capture.
#[test]
fn bot_games_that_used_to_stall_finish() {
    for (players, g) in [(3, 208), (4, 0), (6, 143)] {
        let id = format!("k-{players}-{g}");
        let mut t = table(
            &id,
            players,
            Options {
                claim: ClaimMode::Random,
                ..Options::default()
            },
        );
        let r = castellan_engine::play_out(&mut t, 20_000).unwrap_or_else(|e| panic!("{id}: {e}"));
        assert!(!r.capped, "{id} stalls again");
        let o = r.outcome.expect("outcome");
        assert_eq!(o.winners.len(), 1, "{id}: {o:?}");
        assert!(o.reason.contains("every castle token"), "{id}: {o:?}");
    }
}

/// Stalemate (rules notes): a bot game that reaches a dead position (nobody can ever attack
/// or gain an army again) ends there, decided by territories, and replays identically.
#[test]
fn a_bot_game_reaching_a_dead_position_ends_in_stalemate() {
    let id = "h-2-15657";
    let mut t = table(
        id,
        2,
        Options {
            claim: ClaimMode::Draft,
            ..Options::default()
        },
    );
    let r = castellan_engine::play_out(&mut t, 20_000).unwrap();
    assert!(!r.capped);
    let o = r.outcome.expect("outcome");
    assert!(o.reason.starts_with("stalemate"), "{o:?}");
    assert_eq!(t.state.still_live(), None);
    let terr = |s| t.state.territories_of(s).len();
    assert!(terr(1) > terr(0));
    assert_eq!(o.winners, vec![1], "{o:?}");
    t.replay().expect("replays");
}

fn thousand(players: usize) {
    let t0 = Instant::now();
    let (mut finished, mut won, mut replayed, mut turns, mut max) = (0, 0, 0, 0u64, 0);
    let mut capped = Vec::new();
    let mut stalemates = Vec::new();
    for g in 0..1000 {
        let id = format!("k-{players}-{g}");
        let mut t = table(
            &id,
            players,
            Options {
                claim: ClaimMode::Random,
                ..Options::default()
            },
        );
        let r = castellan_engine::play_out(&mut t, 100_000).unwrap_or_else(|e| panic!("{id}: {e}"));
        if r.capped {
            capped.push(g);
            continue;
        }
        let o = r.outcome.clone().expect("an uncapped game has an outcome");
        finished += 1;
        if o.winners.len() == 1 {
            won += 1;
        }
        if o.reason.starts_with("stalemate") {
            stalemates.push(g);
        }
        turns += r.turns as u64;
        max = max.max(r.turns);
        if t.replay().is_ok() {
            replayed += 1;
        }
    }
    let secs = t0.elapsed().as_secs_f64();
    println!(
        "{players} players: 1000 games, {finished} finished ({won} with one winner, stalemates {stalemates:?}), {replayed} replayed identically, capped {capped:?}, turns mean {:.1} max {max}, {:.1} games/s (with replay)",
        turns as f64 / finished.max(1) as f64,
        1000.0 / secs
    );
    assert_eq!(finished, 1000);
    assert_eq!(replayed, 1000);
}

#[test]
#[ignore]
fn thousand_games_2_players() {
    thousand(2)
}
#[test]
#[ignore]
fn thousand_games_3_players() {
    thousand(3)
}
#[test]
#[ignore]
fn thousand_games_4_players() {
    thousand(4)
}
#[test]
#[ignore]
fn thousand_games_5_players() {
    thousand(5)
}
#[test]
#[ignore]
fn thousand_games_6_players() {
    thousand(6)
}

/// Quick statistics for tuning (release): 50 games per player count, stalls counted.
#[test]
#[ignore]
fn tuning_stats() {
    for p in 2..=6 {
        let mut capped = Vec::new();
        let mut turns = Vec::new();
        for g in 0..50 {
            let id = format!("tune-{p}-{g}");
            let mut t = table(
                &id,
                p,
                Options {
                    claim: ClaimMode::Random,
                    ..Options::default()
                },
            );
            let r = castellan_engine::play_out(&mut t, 60_000).unwrap();
            if r.capped {
                capped.push(g)
            } else {
                turns.push(r.turns)
            }
        }
        let mean = turns.iter().sum::<u32>() as f64 / turns.len().max(1) as f64;
        println!(
            "{p} players: capped {:?}, turns mean {mean:.1} max {:?}",
            capped,
            turns.iter().max()
        );
    }
}

/// An attack is told in one line with every roll's dice and the loser named: "Bot2
/// attacks Ukraine from Smolensk: 6 5 3 against 5 2, 6 6 2 against 2 — Bot2 loses 2, Bot1
/// loses 5, and Bot2 takes it, moving in 18."; the losses the lines tell add up to the losses
/// the battles had, and every conquest is told.
#[test]
fn an_attacks_rolls_are_told_in_one_line_and_its_losses_add_up() {
    let (t, _) = bot_game(
        "narration-cr",
        4,
        options(ClaimMode::Draft, PlacementMode::Blind),
    );
    let lines = t.narrate_since(0, castellan_engine::Lang::En).public;
    // Several rolls on one line, each with its dice.
    assert!(lines
        .iter()
        .any(|l| l.contains(" — ") && l.matches(" against ").count() > 1));
    for w in lines.windows(2) {
        let roll = |l: &str| l.starts_with("  ") && l.contains(" against ");
        assert!(
            !(roll(&w[0]) && roll(&w[1])),
            "two rolls of one run told apart: {w:?}"
        );
    }
    let told: (u32, u32) = lines
        .iter()
        .filter_map(|l| attack_losses(l))
        .fold((0, 0), |s, (a, d)| (s.0 + a, s.1 + d));
    let had = t
        .history
        .iter()
        .flat_map(|e| &e.events)
        .filter_map(|e| match e {
            castellan_castle_risk::Event::Battle {
                attacker_losses,
                defender_losses,
                ..
            } => Some((*attacker_losses, *defender_losses)),
            _ => None,
        })
        .fold((0, 0), |s, (a, d)| (s.0 + a, s.1 + d));
    assert_eq!(told, had);
    // Every conquest is told, on its attack's line or its own.
    let conquests = t
        .history
        .iter()
        .flat_map(|e| &e.events)
        .filter(|e| matches!(e, castellan_castle_risk::Event::Conquered { .. }))
        .count();
    let conquered = |l: &&String| l.contains(" conquers ") || l.contains(" takes it, moving in ");
    assert_eq!(lines.iter().filter(conquered).count(), conquests);
    assert!(lines.iter().any(|l| l.contains(" takes it, moving in ")));
}

/// What an attack's line says each side lost: "(attacker, defender)". A line of the
/// whole attack names the losers after " — " ("Bot2 loses 2, Bot1 loses 5"; the attacker is
/// the line's first word); a roll told alone says "attacker loses 1, defender loses 0".
fn attack_losses(l: &str) -> Option<(u32, u32)> {
    if let Some(rest) = l.split("attacker loses ").nth(1) {
        let (a, rest) = rest.split_once(", defender loses ")?;
        let d: String = rest.chars().take_while(char::is_ascii_digit).collect();
        return Some((a.parse().ok()?, d.parse().ok()?));
    }
    let who = l.split(' ').next()?;
    let (_, rest) = l.split_once(" — ")?;
    let rest = rest.split(['.', ';']).next()?;
    let mut lost = (0, 0);
    for part in rest.split(", ") {
        let Some((name, n)) = part.rsplit_once(" loses ") else {
            break;
        };
        let n: u32 = n.parse().ok()?;
        if name == who {
            lost.0 += n;
        } else {
            lost.1 += n;
        }
    }
    Some(lost)
}
