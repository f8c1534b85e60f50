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

/// An attack's rolls and its conquest are told in one line, each roll with its dice and
/// the losers named ("P1 attacks Alaska from Kamchatka: 6 5 3 against 4 2, 5 1 against 6 —
/// P1 loses 1, P2 loses 3, and P1 takes it, moving in 3."), never one line a roll; the losses
/// the lines tell add up to the losses the battles had, and every conquest is told.
#[test]
fn an_attack_is_told_in_one_line_and_its_losses_add_up() {
    let id = "narration-1";
    let names = (0..4).map(|i| format!("P{i}")).collect();
    let mut t =
        Table::<Risk>::new(id, Secret::derive(id.as_bytes()), names, opts(&[])).expect("setup");
    play_out(&mut t, 20_000).unwrap();
    let lines = t.narrate_since(0, castellan_engine::Lang::En).public;
    assert!(lines
        .iter()
        .any(|l| l.contains(" — ") && l.matches(" against ").count() > 1));
    for w in lines.windows(2) {
        let attack = |l: &str| l.split(": ").next().map(str::to_string);
        if w[0].contains(" against ") && w[1].contains(" against ") {
            assert_ne!(attack(&w[0]), attack(&w[1]), "one attack told twice: {w:?}");
        }
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
            castellan_risk::Event::Battle {
                attacker_losses,
                defender_losses,
                ..
            } => Some((*attacker_losses, *defender_losses)),
            _ => None,
        })
        .fold((0, 0), |s, (a, d)| (s.0 + a, s.1 + d));
    assert_eq!(told, had);
    let conquests = t
        .history
        .iter()
        .flat_map(|e| &e.events)
        .filter(|e| matches!(e, castellan_risk::Event::Conquered { .. }))
        .count();
    let told_conquests = lines
        .iter()
        .filter(|l| l.contains("conquers") || l.contains(" takes it, moving in "))
        .count();
    assert_eq!(told_conquests, conquests);
}

/// What an attack's line says each side lost: "(attacker, defender)". A line of the
/// whole attack names the losers after " — " ("P1 loses 2, P2 loses 5"; the attacker is the
/// line's first word); a roll told alone says "attacker loses 1, defender loses 0".
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
        let Some((name, n)) = part
            .rsplit_once(" loses ")
            .or_else(|| part.rsplit_once(" lose "))
        else {
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
