//! Property tests (armies ≥ 1 everywhere once claimed, cards conserved, replay identical)
//! and the hidden-information test over bot games.

mod common;
use castellan_engine::{Rules, Source, Viewer};
use castellan_risk::cards::card_name;
use castellan_risk::{Event, Owner, Phase};
use common::*;
use proptest::prelude::*;

const VARIANTS: &[&[(&str, &str)]] = &[
    &[],
    &[("claim", "draft"), ("placement", "blind")],
    &[("max_armies_per_territory", "12"), ("free_fortify", "true")],
    &[("headquarters", "all"), ("rising_sets", "true")],
    &[
        ("reroll", "true"),
        ("commander", "true"),
        ("claim", "random"),
    ],
];

fn bot_game_checked(players: usize, v: &[(&str, &str)], id: &str, max: usize) {
    let mut t = table(players, v, id);
    for step in 0..max {
        if t.state.outcome().is_some() {
            break;
        }
        if step % 7 == 0 {
            // every prompt's choices and default are exact, legal order lines
            for p in t.state.pending(castellan_engine::Lang::En) {
                for line in p.choices.iter().chain(std::iter::once(&p.default)) {
                    let mut c = t.clone();
                    assert!(
                        c.submit(p.seat, line, castellan_engine::Lang::En).is_ok(),
                        "{id}: choice {line:?} refused"
                    );
                }
            }
        }
        let seat = t.state.pending(castellan_engine::Lang::En)[0].seat;
        let o = t.bot_order(seat);
        t.apply(seat, o, Source::Bot).expect("bot order accepted");
        let s = &t.state;
        if s.board.iter().all(|x| x.owner != Owner::Nobody) {
            for x in 0..42 {
                assert!(s.board[x].armies >= 1, "{id}: territory {x} has no army");
            }
        }
        assert_eq!(
            s.all_cards(),
            (0..44).collect::<Vec<_>>(),
            "{id}: cards conserved"
        );
        assert_eq!(
            s.pending(castellan_engine::Lang::En).is_empty(),
            s.outcome().is_some()
        );
    }
    let r = t.replay().expect("replays");
    assert_eq!(
        serde_json::to_value(&r.state).unwrap(),
        serde_json::to_value(&t.state).unwrap()
    );
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 10, .. ProptestConfig::default() })]
    #[test]
    fn invariants_hold_in_bot_games(seed in 0u64..1_000_000, players in 2usize..=6, v in 0usize..VARIANTS.len()) {
        bot_game_checked(players, VARIANTS[v], &format!("prop{seed}"), 1500);
    }
}

const SYMBOLS: [&str; 4] = ["(infantry)", "(cavalry)", "(artillery)", "wild card"];

/// Hidden information: no public narration or public view shows a card in a hand (only
/// trades show cards, face up, as the rules do); no private view shows another seat's
/// hand; blind placements, rankings and headquarters stay secret until revealed.
#[test]
fn hands_and_secrets_stay_hidden() {
    for players in 2..=6 {
        for (k, v) in [
            vec![
                ("headquarters", "all"),
                ("placement", "blind"),
                ("claim", "draft"),
            ],
            vec![("claim", "random")],
        ]
        .iter()
        .enumerate()
        {
            let mut t = table(players, v, &format!("hidden{players}-{k}"));
            for _ in 0..4000 {
                if t.state.outcome().is_some() {
                    break;
                }
                let seat = t.state.pending(castellan_engine::Lang::En)[0].seat;
                let o = t.bot_order(seat);
                let start = t.history.len();
                t.apply(seat, o, Source::Bot).unwrap();
                let s = &t.state;
                for e in &t.history[start].events {
                    let public = s
                        .narrate(e, Viewer::Public, castellan_engine::Lang::En)
                        .unwrap_or_default();
                    let shows_cards = matches!(e, Event::Traded { .. });
                    if !shows_cards {
                        for w in SYMBOLS {
                            assert!(!public.contains(w), "public: {public}");
                        }
                    }
                    match e {
                        Event::Drew { card, .. } if *card < 42 => {
                            assert!(!public.contains(castellan_risk::map::name(*card)))
                        }
                        Event::BlindSent { seat, .. } | Event::Ranked { seat, .. } => {
                            assert!(
                                public.ends_with("has sent a placement.")
                                    || public.ends_with("has sent a ranking."),
                                "{public}"
                            );
                            let _ = seat;
                        }
                        Event::HqCommitted { t: hq, .. } => {
                            assert!(!public.contains(castellan_risk::map::name(*hq)), "{public}")
                        }
                        _ => {}
                    }
                }
                let pv = s.public_view(castellan_engine::Lang::En);
                for w in SYMBOLS {
                    assert!(!pv.contains(w), "public view shows a card");
                }
                for viewer in 0..players {
                    let mine = s.private_view(viewer, castellan_engine::Lang::En);
                    for other in (0..players).filter(|&p| p != viewer) {
                        for &c in &s.players[other].hand {
                            if c < 42 {
                                assert!(
                                    !mine.contains(&card_name(c)),
                                    "{viewer} sees {other}'s {}",
                                    card_name(c)
                                );
                            }
                        }
                        if !s.hq_revealed && s.phase == Phase::Headquarters {
                            if let Some(h) = s.players[other].hq {
                                assert!(!pv.contains("HQ of"), "{h}");
                                assert!(
                                    !mine.contains(&format!(
                                        "Your headquarters: {}",
                                        castellan_risk::map::name(h)
                                    )) || s.players[viewer].hq == Some(h)
                                );
                            }
                        }
                    }
                }
            }
        }
    }
}
