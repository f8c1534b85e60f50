//! Whole bot games through the engine's Table: they finish, conserve the 90 cards, replay
//! identically from their seed, keep hands hidden, and keep the API contract.

use castellan_castrum::*;
use castellan_engine::{play_out, Rules, Secret, Source, Table, Viewer};

fn table(seats: usize, options: Options, id: &str) -> Table<Castrum> {
    let players = (1..=seats).map(|i| format!("Player{i}")).collect();
    Table::<Castrum>::new(id, Secret::derive(id.as_bytes()), players, options).unwrap()
}

fn options_for(i: usize) -> Options {
    Options {
        mode: if i.is_multiple_of(2) {
            Mode::Family
        } else {
            Mode::Expert
        },
        victory: if i % 3 == 2 {
            Victory::Timed
        } else {
            Victory::Classic
        },
        rounds: 12,
        ..Options::default()
    }
}

/// Drive a game order by order, checking invariants after each.
fn checked_game(seats: usize, options: Options, id: &str) -> Table<Castrum> {
    let mut t = table(seats, options, id);
    let names: Vec<&str> = Card::ALL.iter().map(|c| c.name()).collect();
    for step in 0..20_000 {
        let g = &t.state;
        assert_eq!(g.card_count(), 90, "{id}: cards conserved at step {step}");
        let pending = g.pending(castellan_engine::Lang::En);
        assert_eq!(
            pending.is_empty(),
            g.outcome().is_some(),
            "{id}: pending iff no outcome"
        );
        let Some(p) = pending.first() else { break };
        // Every offered choice parses back to itself and is legal.
        for o in g.legal_orders(p.seat) {
            let text = g.order_text(&o);
            assert_eq!(
                g.parse(p.seat, &text).unwrap(),
                o,
                "{id}: round trip of {text}"
            );
        }
        assert!(
            g.check(p.seat, &g.default_for(p.seat)).is_ok(),
            "{id}: default legal"
        );
        // Hidden information: the public view does not depend on what hands hold, and a
        // seat's private view does not depend on other seats' hands.
        if step % 7 == 0 {
            let mut other = g.clone();
            for h in other.hands.iter_mut() {
                for c in h.iter_mut() {
                    *c = if *c == Card::Mage {
                        Card::Gardes
                    } else {
                        Card::Mage
                    };
                }
            }
            assert_eq!(
                g.public_view(castellan_engine::Lang::En),
                other.public_view(castellan_engine::Lang::En),
                "{id}: public view leaks a hand"
            );
            for s in 0..seats {
                let mut o2 = g.clone();
                for (i, h) in o2.hands.iter_mut().enumerate() {
                    if i != s {
                        for c in h.iter_mut() {
                            *c = if *c == Card::Reliques {
                                Card::Moines
                            } else {
                                Card::Reliques
                            };
                        }
                    }
                }
                assert_eq!(
                    g.private_view(s, castellan_engine::Lang::En),
                    o2.private_view(s, castellan_engine::Lang::En),
                    "{id}: seat {s} sees another hand"
                );
            }
        }
        let before = t.history.len();
        let seat = p.seat;
        t.play_bot(seat)
            .unwrap_or_else(|e| panic!("{id}: {}", e.message));
        // Public narration of draws, discards and passed hands names no card.
        for entry in &t.history[before..] {
            for e in &entry.events {
                let hidden = matches!(
                    e,
                    Event::Drew { .. } | Event::Discarded { .. } | Event::Received { .. }
                );
                if !hidden {
                    continue;
                }
                let owner = match e {
                    Event::Drew { seat, .. }
                    | Event::Discarded { seat, .. }
                    | Event::Received { seat, .. } => *seat,
                    _ => unreachable!(),
                };
                let mut viewers = vec![Viewer::Public];
                viewers.extend((0..seats).filter(|s| *s != owner).map(Viewer::Seat));
                for v in viewers {
                    if let Some(line) = t.state.narrate(e, v, castellan_engine::Lang::En) {
                        for n in &names {
                            assert!(!line.contains(n), "{id}: {v:?} reads \"{line}\"");
                        }
                    }
                }
            }
        }
    }
    assert!(t.state.outcome().is_some(), "{id}: finished");
    t
}

/// Bot games of 2, 3 and 4 players, family/expert, classic/timed: they finish, conserve the
/// 90 cards, keep hands hidden, and replay identically from their seed.
#[test]
fn bot_games_finish_conserve_cards_hide_hands_and_replay() {
    for i in 0..6 {
        let seats = 2 + i % 3;
        let t = checked_game(seats, options_for(i), &format!("castrum-check-{i}"));
        t.replay().expect("replays identically");
    }
}

/// The Table contract: the game's own `play_out` finishes; a refused order changes nothing.
#[test]
fn play_out_finishes_and_bad_orders_change_nothing() {
    let mut t = table(3, Options::default(), "castrum-po");
    let snapshot = serde_json::to_value(&t.state).unwrap();
    let current = t.state.current;
    let errs = t
        .submit(
            current,
            "PLAY Lapides\nBUILD CASTLE",
            castellan_engine::Lang::En,
        )
        .unwrap_err();
    assert_eq!(errs.len(), errs.iter().filter(|e| e.line_no >= 1).count());
    assert_eq!(serde_json::to_value(&t.state).unwrap(), snapshot);
    assert!(t
        .apply((current + 1) % 3, Order::End, Source::Player)
        .is_err());
    let r = play_out(&mut t, 50_000).unwrap();
    assert!(!r.capped && r.outcome.is_some());
    t.replay().unwrap();
}

/// Every prompt's default is played by the judge when a deadline passes: a game of
/// defaults only still finishes (timed, so it ends).
#[test]
fn a_game_of_defaults_finishes() {
    let o = Options {
        victory: Victory::Timed,
        rounds: 6,
        ..Options::default()
    };
    let mut t = table(3, o, "castrum-defaults");
    for _ in 0..5_000 {
        let Some(p) = t.state.pending(castellan_engine::Lang::En).first().cloned() else {
            break;
        };
        t.play_default(p.seat).unwrap();
        assert_eq!(t.state.card_count(), 90);
    }
    assert!(t.state.outcome().is_some());
}

fn many(seats: usize, games: usize) {
    let mut rounds = 0u64;
    let mut capped = 0;
    for i in 0..games {
        let id = format!("castrum-many-{seats}-{i}");
        let mut t = table(seats, options_for(i), &id);
        let r = play_out(&mut t, 100_000).unwrap_or_else(|e| panic!("{id}: {e}"));
        if r.capped {
            capped += 1;
        }
        assert!(r.outcome.is_some(), "{id} did not finish");
        assert_eq!(t.state.card_count(), 90);
        t.replay().unwrap_or_else(|e| panic!("{id}: {e}"));
        rounds += t.state.round as u64;
    }
    println!(
        "{seats} players: {games} games finished and replayed, {capped} capped, mean {:.1} rounds",
        rounds as f64 / games as f64
    );
    assert_eq!(capped, 0);
}

#[test]
#[ignore]
fn thousands_of_two_player_games() {
    many(2, 1000);
}

#[test]
#[ignore]
fn thousands_of_three_player_games() {
    many(3, 1000);
}

#[test]
#[ignore]
fn thousands_of_four_player_games() {
    many(4, 1000);
}

/// Options as written on the command line or in a CREATE mail.
#[test]
fn options_parse_from_key_value_pairs() {
    let pairs = [
        ("mode".to_string(), "expert".to_string()),
        ("victory".to_string(), "timed".to_string()),
        ("rounds".to_string(), "10".to_string()),
    ];
    let o: Options = castellan_engine::options_from_pairs(&pairs).unwrap();
    assert_eq!(
        o,
        Options {
            mode: Mode::Expert,
            victory: Victory::Timed,
            rounds: 10,
            revision: castellan_castrum::RULES_REVISION,
            defend: castellan_castrum::DefendPolicy::Always,
        }
    );
    // Stored options without `revision` are a game stored before it: rules revision 0,
    // everything else the defaults.
    let d: Options = serde_json::from_str("{}").unwrap();
    assert_eq!(
        d,
        Options {
            revision: 0,
            defend: castellan_castrum::DefendPolicy::Ask,
            ..Options::default()
        }
    );
    let asked: Options =
        castellan_engine::options_from_pairs(&[("defend".into(), "ask".into())]).unwrap();
    assert_eq!(asked.defend, castellan_castrum::DefendPolicy::Ask);
    assert!(
        castellan_engine::options_from_pairs::<Options>(&[("colour".into(), "red".into())])
            .is_err()
    );
    let info = castellan_engine::game_info::<Castrum>();
    assert_eq!(
        (info.name, info.min_seats, info.max_seats),
        ("castrum", 2, 4)
    );
}

/// A game finished and saved before its outcome was worded in French (no `reason_fr` in
/// the stored state or events) still passes the dice audit's replay: translations are
/// wording, not state (crates/engine/src/api.rs, `Table::replay`). The save is one of
/// tests/fixtures (the shape stored before the end of a game was typed) with its French
/// taken out.
#[test]
fn a_game_saved_before_the_french_wording_still_replays() {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/fixtures/three-revision-0.json"
    );
    let mut json: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
    fn strip(v: &mut serde_json::Value) -> usize {
        match v {
            serde_json::Value::Object(m) => {
                let before = m.len();
                m.retain(|k, _| !k.ends_with("_fr"));
                before - m.len() + m.values_mut().map(strip).sum::<usize>()
            }
            serde_json::Value::Array(a) => a.iter_mut().map(strip).sum(),
            _ => 0,
        }
    }
    assert!(strip(&mut json) > 0, "the old save holds French wording");
    let old: Table<Castrum> = serde_json::from_value(json).unwrap();
    assert!(old.state.outcome().is_some());
    old.replay().expect("an old save replays");
}
