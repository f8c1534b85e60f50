//! Property tests over whole bot games: armies, cards, replay, termination.
mod common;

use castellan_castle_risk::{CastleRisk, ClaimMode, Event, Options, PlacementMode};
use castellan_engine::{Rules, Source};
use common::*;
use proptest::prelude::*;

/// Armies the events of one order put on (+) or took off (-) the board.
fn army_delta(events: &[Event]) -> i64 {
    events
        .iter()
        .map(|e| match e {
            Event::CastlePlaced { .. } | Event::Claimed { .. } => 1,
            Event::Dealt { picks } | Event::Drafted { picks } => picks.len() as i64,
            Event::Placed { placements, .. } => placements.iter().map(|p| p.1 as i64).sum(),
            Event::HiddenRevealed { armies, .. } => *armies as i64,
            Event::Annexed { from: None, .. } => 1,
            Event::Battle {
                attacker_losses,
                defender_losses,
                ..
            } => -((attacker_losses + defender_losses) as i64),
            Event::Eliminated { armies_removed, .. } => -(*armies_removed as i64),
            _ => 0,
        })
        .sum()
}

fn check_game(seed: u64, players: usize, claim: ClaimMode, placement: PlacementMode, ask: bool) {
    let id = format!("prop-{seed}-{players}");
    let mut t = table(
        &id,
        players,
        Options {
            claim,
            placement,
            ask,
            turn_limit: 0,

            ..Options::default()
        },
    );
    let mut orders = 0;
    while t.state.outcome().is_none() {
        assert!(orders < 200_000, "{id}: the game must end");
        let p = t.state.pending(castellan_engine::Lang::En);
        assert!(!p.is_empty(), "pending is empty only when the game is over");
        let seat = p[0].seat;
        let before = t.state.total_armies() as i64;
        let order = t.bot_order(seat);
        let text = t.state.order_text(&order);
        assert_eq!(
            t.state.parse(seat, &text).as_ref(),
            Ok(&order),
            "parse(order_text(o)) == o"
        );
        let e = t
            .apply(seat, order, Source::Bot)
            .unwrap_or_else(|e| panic!("{id}: {text}: {e:?}"));
        let delta = army_delta(&e.events);
        let s = &t.state;
        // armies change only by placement, battle losses and eliminations
        assert_eq!(s.total_armies() as i64, before + delta, "{id}: {text}");
        let l = &s.ledger;
        assert_eq!(s.total_armies(), l.placed - l.lost - l.removed);
        // all 48 cards accounted for
        assert_eq!(s.cards_accounted(), 48, "{id}: {text}");
        // every held territory has at least one army
        for x in 0..s.board.len() {
            assert_eq!(
                s.board[x].owner.is_some(),
                s.board[x].armies >= 1,
                "{id}: {text}: territory {x}"
            );
        }
        let vacating = matches!(
            s.interrupt,
            Some(castellan_castle_risk::game::Interrupt::Reoccupy { .. })
                | Some(castellan_castle_risk::game::Interrupt::Annex { .. })
        );
        if s.phase == castellan_castle_risk::Phase::Play && !vacating {
            assert!(
                s.board.iter().all(|t| t.owner.is_some()),
                "{id}: every territory held in play"
            );
        }
        orders += 1;
    }
    assert!(t.state.pending(castellan_engine::Lang::En).is_empty());
    assert_eq!(t.state.outcome().unwrap().winners.len(), 1);
    // the same seed and orders replay to the same game
    t.replay().unwrap_or_else(|e| panic!("{id}: {e}"));
    let _: &CastleRisk = &t.state;
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 6, .. ProptestConfig::default() })]
    #[test]
    fn whole_games_keep_the_invariants(
        seed in 0u64..1_000_000,
        players in 2usize..=6,
        claim in prop_oneof![Just(ClaimMode::Table), Just(ClaimMode::Draft), Just(ClaimMode::Random)],
        placement in prop_oneof![Just(PlacementMode::Rounds), Just(PlacementMode::Blind)],
        ask in any::<bool>(),
    ) {
        check_game(seed, players, claim, placement, ask);
    }
}

/// Orders of any text never panic; refused ones change nothing.
#[test]
fn garbage_orders_never_panic_and_change_nothing() {
    let mut t = table(
        "garbage",
        3,
        options(ClaimMode::Random, PlacementMode::Blind),
    );
    let lines = [
        "",
        "ATTACK",
        "ATTACK FROM",
        "ATTACK x FROM y",
        "SAIL",
        "SAIL 0 FROM Paris TO Naples",
        "SAIL 99999999999 FROM Paris TO Naples",
        "PLACE -3 Paris",
        "PLACE 0 Paris",
        "REINFORCE 0",
        "REINFORCE 99",
        "SPY",
        "SPY Alice",
        "TRUCE nobody",
        "SET",
        "SET DEFEND 7",
        "SET MARSHAL WHEN",
        "DEFEND 3",
        "OCCUPY",
        "ANNEX Paris FROM",
        "RANK ,,,",
        "HIDE",
        "CASTLE Naples",
        "😀 ∑",
        "END END",
    ];
    for seat in 0..3 {
        for l in lines {
            let before = serde_json::to_string(&t).unwrap();
            let _ = t.submit(seat, l, castellan_engine::Lang::En);
            let _ = t.check(seat, l, castellan_engine::Lang::En);
            if t.submit(seat, l, castellan_engine::Lang::En).is_err() {
                assert_eq!(serde_json::to_string(&t).unwrap(), before, "{l}");
            }
        }
    }
}
