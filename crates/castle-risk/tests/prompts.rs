//! The reoccupy prompt once offered moves that are not possible: a prompt lists only
//! what can be played.
mod common;

use castellan_castle_risk::game::Interrupt;
use castellan_castle_risk::{Ask, ClaimMode, PlacementMode};
use castellan_engine::{Lang, Rules, Source};

/// Rule 7 (elimination): the castle's captor "peut réoccuper" the vacated territories, one
/// army each, taken from its own; with no army to spare (every territory it holds has one
/// army) the only possible answer is PASS, and the prompt offers nothing else.
#[test]
fn reoccupy_offers_only_pass_when_no_army_can_be_spared() {
    let mut t = common::table(
        "prompts-1",
        3,
        common::options(ClaimMode::Random, PlacementMode::Rounds),
    );
    for _ in 0..40 {
        let seat = t.state.pending(Lang::En)[0].seat;
        let o = t.bot_order(seat);
        t.apply(seat, o, Source::Bot).expect("bot order");
    }
    let g = &mut t.state;
    let victor = 0;
    let vacated: Vec<usize> = (0..g.board.len())
        .filter(|&x| g.board[x].owner == Some(1))
        .take(2)
        .collect();
    for &x in &vacated {
        g.board[x].owner = None;
        g.board[x].armies = 0;
    }
    let castle = (0..g.board.len())
        .find(|&x| g.board[x].owner == Some(victor))
        .unwrap();
    for x in 0..g.board.len() {
        if g.board[x].owner == Some(victor) {
            g.board[x].armies = 1;
        }
    }
    g.interrupt = Some(Interrupt::Reoccupy {
        victor,
        vacated: vacated.clone(),
        castle,
    });
    let p = g
        .pending(Lang::En)
        .into_iter()
        .find(|p| p.kind == Ask::Reoccupy)
        .expect("the reoccupy prompt");
    assert_eq!(p.choices, vec!["PASS".to_string()], "{p:?}");
    for line in p.choices.iter().chain(std::iter::once(&p.default)) {
        let mut copy = t.clone();
        copy.submit(victor, line, Lang::En)
            .unwrap_or_else(|e| panic!("{line}: {e:?}"));
    }
    // With an army to spare, each vacated territory is offered, and each applies.
    let g = &mut t.state;
    g.board[castle].armies = 4;
    let p = g
        .pending(Lang::En)
        .into_iter()
        .find(|p| p.kind == Ask::Reoccupy)
        .unwrap();
    assert!(p.choices.len() >= 2 + vacated.len(), "{p:?}");
    for line in &p.choices {
        let mut copy = t.clone();
        copy.submit(victor, line, Lang::En)
            .unwrap_or_else(|e| panic!("{line}: {e:?}"));
    }
}
