//! Castle Risk rule by rule. Each test quotes the rule it checks (the French
//! rules, seeds/000) and would fail if the rule were implemented wrong. Refused orders are
//! rule cases, data in tests/cases/ (run by tests/cases.rs).
mod common;

use castellan_castle_risk::cards::full_deck;
use castellan_castle_risk::game::*;
use castellan_castle_risk::map::map;
use castellan_castle_risk::{
    Card, CastleRisk, ClaimMode, Event, Options, Order, Phase, PlacementMode,
};
use castellan_engine::dice::commit_text;
use castellan_engine::{Rules, Secret};
use common::*;

fn order(g: &CastleRisk, seat: usize, line: &str) -> Order {
    g.parse(seat, line)
        .unwrap_or_else(|e| panic!("{line}: {e:?}"))
}

fn run(
    g: &mut CastleRisk,
    seat: usize,
    line: &str,
    d: &mut castellan_engine::DiceBox,
) -> Vec<Event> {
    let o = order(g, seat, line);
    g.apply_order(seat, &o, d)
        .unwrap_or_else(|e| panic!("{line}: {e:?}"))
}

fn refused(
    g: &mut CastleRisk,
    seat: usize,
    line: &str,
    d: &mut castellan_engine::DiceBox,
) -> castellan_engine::OrderError {
    let before = serde_json::to_string(g).unwrap();
    let e = match g.parse(seat, line) {
        Err(e) => e,
        Ok(o) => g.apply_order(seat, &o, d).expect_err(line),
    };
    assert_eq!(
        serde_json::to_string(g).unwrap(),
        before,
        "a refused order changed nothing"
    );
    e
}

/// Rule 1: "pour 2 joueurs, 40 pions ... pour 6 joueurs, 20 pions".
#[test]
fn rule1_starting_armies_by_player_count() {
    for (n, a) in [(2, 40), (3, 35), (4, 30), (5, 25), (6, 20)] {
        let tb = table(&format!("start-{n}"), n, Options::default());
        assert!(
            tb.state.players.iter().all(|p| p.setup_armies == a),
            "{n} players"
        );
        // every army placed in setup: castle + claims + placements = the starting count
        let mut t2 = table(
            &format!("start-play-{n}"),
            n,
            options(ClaimMode::Random, PlacementMode::Blind),
        );
        while t2.state.phase != Phase::Hide {
            let p = t2.state.pending(castellan_engine::Lang::En)[0].clone();
            let o = t2.state.default_order(&p);
            t2.apply(p.seat, o, castellan_engine::Source::Player)
                .unwrap();
        }
        let placed_setup: u64 = t2.state.board.iter().map(|t| t.armies as u64).sum();
        assert_eq!(placed_setup, (a * n as u32) as u64);
    }
}

/// Rule 1: the castle goes "sur n'importe quel territoire dans l'Empire correspondant" to the
/// drawn token, "Vous ne pouvez pas mettre un jeton de château sur [un indépendant]".
#[test]
fn rule1_castle_goes_in_the_drawn_empire_never_on_an_independent() {
    let mut tb = table("castles", 3, Options::default());
    let Phase::Castles { order: o, next } = tb.state.phase.clone() else {
        panic!()
    };
    let seat = o[next];
    let e = tb.state.players[seat].empire;
    let mut d = tb.dice.clone();
    let inside = map().board.groups[e].members[0];
    let outside = (0..44).find(|x| map().group_of(*x) != e).unwrap();
    let e1 = refused(
        &mut tb.state,
        seat,
        &format!("CASTLE {}", CastleRisk::tname(outside)),
        &mut d,
    );
    assert!(e1.message.contains("is not in the"), "{}", e1.message);
    assert!(e1.hint.unwrap().starts_with("write: CASTLE"));
    let e2 = refused(&mut tb.state, seat, "CASTLE Naples", &mut d);
    assert!(e2.message.contains("Naples"));
    run(
        &mut tb.state,
        seat,
        &format!("CASTLE {}", CastleRisk::tname(inside)),
        &mut d,
    );
    assert_eq!(tb.state.players[seat].castle, Some(inside));
    assert_eq!(tb.state.board[inside].armies, 1);
    // Castle tokens are distinct empires.
    let mut es: Vec<usize> = tb.state.players.iter().map(|p| p.empire).collect();
    es.sort();
    es.dedup();
    assert_eq!(es.len(), 3);
}

/// Rule 1 (table claim): "tout le monde, tour à tour, place un pion d'armée simple sur
/// n'importe quel territoire inoccupé".
#[test]
fn rule1_table_claim_one_free_territory_in_turn() {
    let mut tb = table("claim", 2, Options::default());
    for _ in 0..2 {
        let p = &tb.state.pending(castellan_engine::Lang::En)[0];
        let o = tb.state.default_order(p);
        tb.apply(p.seat, o, castellan_engine::Source::Player)
            .unwrap();
    }
    let Phase::Claim { order: o, next } = tb.state.phase.clone() else {
        panic!("{:?}", tb.state.phase)
    };
    let seat = o[next];
    let other = o[(next + 1) % 2];
    let mut d = tb.dice.clone();
    let e = refused(&mut tb.state, other, "CLAIM Naples", &mut d);
    assert!(e.message.contains("turn"));
    let taken = tb.state.players[seat].castle.unwrap();
    refused(
        &mut tb.state,
        seat,
        &format!("CLAIM {}", CastleRisk::tname(taken)),
        &mut d,
    );
    run(&mut tb.state, seat, "CLAIM Naples", &mut d);
    assert_eq!(tb.state.board[t("Naples")].owner, Some(seat));
    assert_eq!(tb.state.pending(castellan_engine::Lang::En)[0].seat, other);
}

/// Rule 1 (by email): "a draft from ranked lists that each player sends once (the engine
/// drafts round-robin)"; lists stay private until the draft.
#[test]
fn rule1_draft_from_ranked_lists() {
    let mut tb = table("draft", 2, options(ClaimMode::Draft, PlacementMode::Rounds));
    for _ in 0..2 {
        let p = &tb.state.pending(castellan_engine::Lang::En)[0];
        let o = tb.state.default_order(p);
        tb.apply(p.seat, o, castellan_engine::Source::Player)
            .unwrap();
    }
    assert!(matches!(tb.state.phase, Phase::Draft { .. }));
    assert_eq!(
        tb.state.pending(castellan_engine::Lang::En).len(),
        2,
        "both send lists at once"
    );
    let first = tb.state.current; // the set-up order starts with the first castle placer
    let second = 1 - first;
    let n1 = tb
        .submit(
            second,
            "RANK Naples, Rome, Venise",
            castellan_engine::Lang::En,
        )
        .unwrap();
    assert!(
        n1.public.iter().all(|l| !l.contains("Naples")),
        "list is private: {:?}",
        n1.public
    );
    assert!(
        tb.submit(second, "RANK Madrid", castellan_engine::Lang::En)
            .is_err(),
        "a list is sent once"
    );
    tb.submit(first, "RANK Naples, Madrid", castellan_engine::Lang::En)
        .unwrap();
    let s = &tb.state;
    assert_eq!(
        s.board[t("Naples")].owner,
        Some(first),
        "the first placer picks first"
    );
    assert_eq!(s.board[t("Rome")].owner, Some(second));
    assert_eq!(s.board[t("Madrid")].owner, Some(first));
    assert_eq!(s.board[t("Venice")].owner, Some(second));
    assert!(s.board.iter().all(|t| t.owner.is_some()));
    assert!(matches!(s.phase, Phase::Place { .. }));
}

/// Rule 1: "chaque joueur place à son tour cinq armées en même temps" (rounds of 5) and the
/// blind option "each player sends the whole placement at once, revealed together".
#[test]
fn rule1_placement_in_rounds_of_five_and_blind() {
    let mut tb = table(
        "rounds",
        2,
        options(ClaimMode::Random, PlacementMode::Rounds),
    );
    for _ in 0..2 {
        let p = &tb.state.pending(castellan_engine::Lang::En)[0];
        let o = tb.state.default_order(p);
        tb.apply(p.seat, o, castellan_engine::Source::Player)
            .unwrap();
    }
    let p = tb.state.pending(castellan_engine::Lang::En)[0].clone();
    let mine = tb.state.territories_of(p.seat)[0];
    let name = CastleRisk::tname(mine);
    let e = tb
        .submit(
            p.seat,
            &format!("PLACE 4 {name}"),
            castellan_engine::Lang::En,
        )
        .unwrap_err();
    assert!(e[0].message.contains("exactly 5"), "{}", e[0].message);
    tb.submit(
        p.seat,
        &format!("PLACE 3 {name}, 2 {name}"),
        castellan_engine::Lang::En,
    )
    .unwrap();
    assert_eq!(
        tb.state.pending(castellan_engine::Lang::En)[0].seat,
        1 - p.seat,
        "then the next player"
    );

    let mut tb = table("blind", 2, options(ClaimMode::Random, PlacementMode::Blind));
    for _ in 0..2 {
        let p = &tb.state.pending(castellan_engine::Lang::En)[0];
        let o = tb.state.default_order(p);
        tb.apply(p.seat, o, castellan_engine::Source::Player)
            .unwrap();
    }
    assert_eq!(tb.state.pending(castellan_engine::Lang::En).len(), 2);
    let due = tb.state.players[0].setup_armies;
    let t0 = CastleRisk::tname(tb.state.territories_of(0)[0]);
    let before = tb.state.board.armies();
    let n = tb
        .submit(0, &format!("PLACE {due} {t0}"), castellan_engine::Lang::En)
        .unwrap();
    assert_eq!(
        tb.state.board.armies(),
        before,
        "nothing is on the board until all are in"
    );
    assert!(n
        .public
        .iter()
        .all(|l| !l.contains(t0) || !l.contains("places")));
    let due1 = tb.state.players[1].setup_armies;
    let t1 = CastleRisk::tname(tb.state.territories_of(1)[0]);
    tb.submit(1, &format!("PLACE {due1} {t1}"), castellan_engine::Lang::En)
        .unwrap();
    assert_eq!(
        tb.state.board[map().board.resolve(t0).unwrap()].armies,
        before[map().board.resolve(t0).unwrap()] + due
    );
    assert_eq!(tb.state.phase, Phase::Hide);
}

/// Rule 1: hidden armies "any territory without a castle, even another player's, committed
/// by a salted hash"; then "Deal 3 cards each".
#[test]
fn rule1_hidden_army_commitment_and_three_cards_each() {
    let mut tb = table("hide", 2, options(ClaimMode::Random, PlacementMode::Blind));
    while tb.state.phase != Phase::Hide {
        let p = tb.state.pending(castellan_engine::Lang::En)[0].clone();
        let o = tb.state.default_order(&p);
        tb.apply(p.seat, o, castellan_engine::Source::Player)
            .unwrap();
    }
    let c = tb.state.players[1].castle.unwrap();
    let e = tb
        .submit(
            0,
            &format!("HIDE {}", CastleRisk::tname(c)),
            castellan_engine::Lang::En,
        )
        .unwrap_err();
    assert!(e[0].message.contains("castle"));
    let theirs = tb
        .state
        .territories_of(1)
        .into_iter()
        .find(|x| Some(*x) != tb.state.players[1].castle)
        .unwrap();
    let n = tb
        .submit(
            0,
            &format!("HIDE {}", CastleRisk::tname(theirs)),
            castellan_engine::Lang::En,
        )
        .unwrap();
    assert!(
        n.public
            .iter()
            .all(|l| !l.contains(CastleRisk::tname(theirs))),
        "{:?}",
        n.public
    );
    let h = &tb.state.players[0].hidden[0];
    let salt = Secret::from_hex(&h.salt).unwrap();
    assert_eq!(
        h.commitment,
        commit_text(&salt, &map().board.territories[theirs].key)
    );
    assert!(
        n.public.iter().any(|l| l.contains(&h.commitment)),
        "the commitment is public"
    );
    tb.submit(1, "HIDE Naples", castellan_engine::Lang::En)
        .unwrap();
    assert_eq!(tb.state.phase, Phase::Play);
    let cur = tb.state.current;
    for s in 0..2 {
        let expect = if s == cur { 4 } else { 3 };
        assert_eq!(
            tb.state.players[s].hand.len(),
            expect,
            "3 dealt, and the first player draws 1"
        );
    }
}

/// Rule 2: "fill the hand to 3, draw 1 more".
#[test]
fn rule2_draw_to_three_then_one_more() {
    let mut g = position(3, &["Paris", "London", "Moscow"], &[]);
    give(&mut g, 1, &[Card::Spy]);
    let mut d = any_dice();
    run(&mut g, 0, "END", &mut d);
    assert_eq!(g.current, 1);
    assert_eq!(g.players[1].hand.len(), 4, "1 held + 2 to reach 3 + 1 more");
    assert_eq!(g.cards_accounted(), 48);
}

/// Rule 2: earnings at the END of the turn: "4 per whole empire, 6 for all 11 independents,
/// 8 per captured castle token, placed by the player".
#[test]
fn rule2_earnings_at_the_end_of_the_turn() {
    let mut g = position(3, &["Paris", "London", "Moscow"], &[]);
    for x in map().board.groups[0].members.clone() {
        g.board[x].owner = Some(0); // the whole French Empire
    }
    for &x in &map().independents {
        g.board[x].owner = Some(0);
    }
    g.players[0].tokens.push(3); // one captured token
    let (e, _) = g.earnings(0);
    assert_eq!(e, 4 + 6 + 8);
    let mut d = any_dice();
    run(&mut g, 0, "END", &mut d);
    assert_eq!(
        g.current, 0,
        "the turn ends only once the earnings are placed"
    );
    assert_eq!(g.to_place, 18);
    let e = refused(&mut g, 0, "ATTACK London FROM Paris", &mut d);
    assert!(e.message.contains("place your 18"), "{}", e.message);
    refused(&mut g, 0, "PLACE 18 London", &mut d); // not own
    run(&mut g, 0, "PLACE 10 Paris, 8 Naples", &mut d);
    assert_eq!(g.board[t("Paris")].armies, 11);
    assert_eq!(g.current, 1);
}

/// Rule 3: "Deck of 48: 8 Marshal, 7 Diplomat, 8 General, 6 Admiral, 7 Spy, 12 Reinforcements".
#[test]
fn rule3_the_deck() {
    let d = full_deck();
    assert_eq!(d.len(), 48);
    for (c, n) in [
        (Card::Marshal, 8),
        (Card::Diplomat, 7),
        (Card::General, 8),
        (Card::Admiral, 6),
        (Card::Spy, 7),
        (Card::Reinforcements, 12),
    ] {
        assert_eq!(d.iter().filter(|x| **x == c).count(), n, "{c:?}");
    }
}

/// Rules 3 and 4 (Reinforcements): "before the first attack of the turn; one or more;
/// armies = the sum of the track numbers they take"; they "go on the 3..14 track and never
/// come back"; hidden armies are worth the last track number.
#[test]
fn rule4_reinforcements_track() {
    let mut g = position(2, &["Paris", "London"], &[("Gascony", 0, 5)]);
    give(
        &mut g,
        0,
        &[
            Card::Reinforcements,
            Card::Reinforcements,
            Card::Reinforcements,
        ],
    );
    let mut d = any_dice();
    assert_eq!(g.hidden_value(), 0, "0 before any");
    run(&mut g, 0, "REINFORCE 2", &mut d);
    assert_eq!(g.to_place, 3 + 4);
    assert_eq!(g.track, 2);
    assert_eq!(g.hidden_value(), 4);
    run(&mut g, 0, "PLACE 7 Gascony", &mut d);
    run(&mut g, 0, "REINFORCE", &mut d);
    assert_eq!(g.to_place, 5);
    run(&mut g, 0, "PLACE 5 Gascony", &mut d);
    // never come back: the pile is rebuilt from the discard only
    assert_eq!(g.cards_accounted(), 48);
    assert!(!g.discard.contains(&Card::Reinforcements));
}

/// Rule 3: "all other cards are reshuffled into a new pile when the pile runs out".
#[test]
fn rule3_discard_is_reshuffled_when_the_pile_runs_out() {
    // Paris keeps 3 armies next to London: without them this would be a dead position, which
    // ends the game at this END (see the stalemate tests).
    let mut g = position(3, &["Paris", "London", "Moscow"], &[("Paris", 0, 3)]);
    g.discard = std::mem::take(&mut g.pile);
    g.discard.retain(|c| *c != Card::Reinforcements);
    g.track = 12;
    let mut d = any_dice();
    run(&mut g, 0, "END", &mut d);
    assert_eq!(g.players[1].hand.len(), 4);
    assert!(g.discard.is_empty());
    assert!(g.players[1].hand.iter().all(|c| *c != Card::Reinforcements));
    assert_eq!(g.cards_accounted(), 48);
}

/// Rule 4 (Spy): "look at a player's hand and discard one card, shown to all; the target may
/// cancel it with a Spy of their own (both discarded, nothing seen)".
#[test]
fn rule4_spy_and_counter_spy() {
    let mut g = position(3, &["Paris", "London", "Moscow"], &[]);
    give(&mut g, 0, &[Card::Spy, Card::Spy]);
    give(&mut g, 1, &[Card::General, Card::Admiral]);
    let mut d = any_dice();
    let ev = run(&mut g, 0, "SPY Bruno DISCARD General", &mut d);
    assert_eq!(g.players[1].hand, vec![Card::Admiral]);
    assert!(ev
        .iter()
        .any(|e| matches!(e, Event::SpySaw { hand, .. } if hand.len() == 2)));
    let public: Vec<String> = ev
        .iter()
        .filter_map(|e| {
            g.narrate(
                e,
                castellan_engine::Viewer::Public,
                castellan_engine::Lang::En,
            )
        })
        .collect();
    assert!(
        public.iter().any(|l| l.contains("discard a General")),
        "{public:?}"
    );
    assert!(
        public.iter().all(|l| !l.contains("Admiral")),
        "the rest of the hand stays hidden: {public:?}"
    );
    // counter-Spy (default: always when holding one)
    give(&mut g, 2, &[Card::Spy, Card::Marshal]);
    let ev = run(&mut g, 0, "ESPION Chloe", &mut d);
    assert!(ev.iter().any(|e| matches!(e, Event::SpyCountered { .. })));
    assert!(
        !ev.iter().any(|e| matches!(e, Event::SpySaw { .. })),
        "nothing seen"
    );
    assert_eq!(g.players[2].hand, vec![Card::Marshal]);
    assert_eq!(g.discard.iter().filter(|c| **c == Card::Spy).count(), 3);
    assert_eq!(g.cards_accounted(), 48);
}

/// Rule 4 (counter-Spy, three answers): standing order SET COUNTERSPY NEVER; in ask mode a
/// prompt, and the spying player's next line fails until it is answered.
#[test]
fn rule4_counter_spy_standing_order_and_prompt() {
    let mut g = position(2, &["Paris", "London"], &[("Gascony", 0, 5)]);
    give(&mut g, 0, &[Card::Spy, Card::Spy]);
    give(&mut g, 1, &[Card::Spy, Card::General]);
    let mut d = any_dice();
    run(&mut g, 1, "SET COUNTERSPY NEVER", &mut d);
    run(&mut g, 0, "SPY Bruno DISCARD Spy", &mut d);
    assert_eq!(
        g.players[1].hand,
        vec![Card::General],
        "not countered: the Spy was taken"
    );
    g.options.ask = true;
    g.players[1].standing = Standing::default();
    give(&mut g, 1, &[Card::Spy]);
    run(&mut g, 0, "SPY Bruno", &mut d);
    let p = g.pending(castellan_engine::Lang::En);
    assert_eq!(
        (p[0].seat, p[0].kind),
        (1, castellan_castle_risk::Ask::CounterSpy)
    );
    assert!(p[0].choices.contains(&"COUNTERSPY".to_string()));
    assert_eq!(p[0].standing.as_deref(), Some("SET COUNTERSPY ALWAYS"));
    assert_eq!(g.cards_accounted(), 48);
    run(&mut g, 1, "COUNTERSPY", &mut d);
    assert!(g.interrupt.is_none());
    assert_eq!(g.players[1].hand, vec![Card::General]);
    assert_eq!(g.cards_accounted(), 48);
}

/// Rule 5: "highest against highest ... ties to the defender"; "attacker 1–3 dice with
/// more armies than dice; defender 1–2 dice"; "On conquest move in at least as many armies as
/// dice last rolled, leaving ≥ 1 behind".
#[test]
fn rule5_battle_ties_to_the_defender_and_move_in() {
    // attacker 3 dice, defender 2: faces 6,6,6 then 6,6: ties, attacker loses 2
    let mut d = dice_with(5, |f| f[..3] == [6, 6, 6] && f[3..] == [6, 6]);
    let mut g = position(
        2,
        &["Paris", "London"],
        &[("Gascony", 0, 8), ("Brittany", 1, 3)],
    );
    let ev = run(&mut g, 0, "ATTACK Brittany FROM Gascony FOR 1 ROLL", &mut d);
    assert!(ev.iter().any(|e| matches!(
        e,
        Event::Battle {
            attacker_losses: 2,
            defender_losses: 0,
            ..
        }
    )));
    assert_eq!(
        (g.board[t("Gascony")].armies, g.board[t("Brittany")].armies),
        (6, 3)
    );
    // conquest: move in at least the dice rolled
    let mut d = dice_with(5, |f| {
        f[..3].iter().all(|x| *x >= 5) && f[3..].iter().all(|x| *x <= 2)
    });
    let mut g = position(
        2,
        &["Paris", "London"],
        &[("Gascony", 0, 8), ("Brittany", 1, 2)],
    );
    run(&mut g, 0, "ATTACK Brittany FROM Gascony", &mut d);
    assert_eq!(g.board[t("Brittany")].owner, Some(0));
    assert_eq!(
        g.board[t("Brittany")].armies,
        3,
        "3 dice rolled: at least 3 move in"
    );
    assert_eq!(g.board[t("Gascony")].armies, 5);
}

/// Rule 5: "A territory holding a castle: the attacker rolls at most 2 dice."
#[test]
fn rule5_castle_limits_the_attacker_to_two_dice() {
    let mut d = any_dice();
    let mut g = position(
        2,
        &["Paris", "London"],
        &[("Brittany", 1, 10), ("Paris", 0, 10), ("Gascony", 0, 1)],
    );
    g.current = 1;
    let ev = run(&mut g, 1, "ATTACK Paris FROM Brittany FOR 1 ROLL", &mut d);
    let dice: Vec<usize> = ev
        .iter()
        .filter_map(|e| match e {
            Event::Battle { attacker, .. } => Some(attacker.len()),
            _ => None,
        })
        .collect();
    assert_eq!(dice, vec![2]);
    let ev = run(&mut g, 1, "ATTACK Gascony FROM Brittany FOR 1 ROLL", &mut d);
    let dice: Vec<usize> = ev
        .iter()
        .filter_map(|e| match e {
            Event::Battle { attacker, .. } => Some(attacker.len()),
            _ => None,
        })
        .collect();
    assert_eq!(dice, vec![3], "not a castle: 3 dice");
}

/// Rule 4 (General): "+1 on the attacker's highest die ... discarded as soon as the
/// defender's highest die ≥ attacker's highest + 1 (French text: a tie kills it)".
#[test]
fn rule4_general_plus_one_and_a_tie_kills_it() {
    // attacker 1 die (2 armies) = 4, defender 1 die = 4: with the General 5 beats 4.
    let mut d = dice_with(2, |f| f == [4, 4]);
    let mut g = position(
        2,
        &["Paris", "London"],
        &[("Gascony", 0, 2), ("Brittany", 1, 1)],
    );
    give(&mut g, 0, &[Card::General]);
    let ev = run(&mut g, 0, "ATTACK Brittany FROM Gascony GENERAL", &mut d);
    assert!(ev.iter().any(|e| matches!(
        e,
        Event::Battle {
            defender_losses: 1,
            general: true,
            ..
        }
    )));
    assert_eq!(g.board[t("Brittany")].owner, Some(0));
    assert!(
        g.in_play.contains(&(0, Card::General)),
        "stays for every attack that turn"
    );
    // defender 5 ties 4+1: the General is discarded (and the attacker loses)
    let mut d = dice_with(2, |f| f == [4, 5]);
    let mut g = position(
        2,
        &["Paris", "London"],
        &[("Gascony", 0, 2), ("Marseille", 1, 1)],
    );
    give(&mut g, 0, &[Card::General]);
    let ev = run(&mut g, 0, "ATTACK Marseille FROM Gascony GENERAL", &mut d);
    assert!(ev.iter().any(|e| matches!(e, Event::GeneralLost { .. })));
    assert!(g.discard.contains(&Card::General));
    assert_eq!(g.cards_accounted(), 48);
}

/// Rule 4 (General): "back to hand at the end of the turn if it survived".
#[test]
fn rule4_general_returns_to_hand_at_the_end_of_the_turn() {
    let mut d = dice_with(2, |f| f == [6, 1]);
    let mut g = position(
        2,
        &["Paris", "London"],
        &[("Gascony", 0, 2), ("Brittany", 1, 1)],
    );
    give(&mut g, 0, &[Card::General]);
    run(&mut g, 0, "ATTACK Brittany FROM Gascony GENERAL", &mut d);
    assert!(!g.hand_has(0, Card::General));
    run(&mut g, 0, "END", &mut d);
    assert!(g.hand_has(0, Card::General));
}

/// Rule 4 (Marshal): "played by the defender before the dice; +1 on the defender's highest
/// die; ... discarded when the attacker's highest die > the defender's highest + 1".
#[test]
fn rule4_marshal_defends_and_is_discarded_when_beaten() {
    // attacker 5, defender 4+1 = 5: tie, the defender wins thanks to the Marshal.
    let mut d = dice_with(2, |f| f == [5, 4]);
    let mut g = position(
        2,
        &["Paris", "London"],
        &[("Gascony", 0, 2), ("Brittany", 1, 1)],
    );
    give(&mut g, 1, &[Card::Marshal]);
    run(&mut g, 1, "SET MARSHAL ALWAYS", &mut d);
    let ev = run(&mut g, 0, "ATTACK Brittany FROM Gascony", &mut d);
    assert!(ev.iter().any(|e| matches!(
        e,
        Event::Battle {
            attacker_losses: 1,
            marshal: true,
            ..
        }
    )));
    assert!(
        g.in_play.contains(&(1, Card::Marshal)),
        "stays engaged for the attacker's turn"
    );
    // attacker 6 > 4+1: discarded
    let mut d = dice_with(2, |f| f == [6, 4]);
    let mut g = position(
        2,
        &["Paris", "London"],
        &[("Gascony", 0, 2), ("Brittany", 1, 1)],
    );
    give(&mut g, 1, &[Card::Marshal]);
    run(&mut g, 1, "SET MARSHAL ALWAYS", &mut d);
    let ev = run(&mut g, 0, "ATTACK Brittany FROM Gascony", &mut d);
    assert!(ev
        .iter()
        .any(|e| matches!(e, Event::MarshalLost { seat: 1 })));
    assert!(g.discard.contains(&Card::Marshal));
    // SET MARSHAL NEVER keeps it in hand
    let mut d = dice_with(2, |f| f == [5, 4]);
    let mut g = position(
        2,
        &["Paris", "London"],
        &[("Gascony", 0, 2), ("Brittany", 1, 1)],
    );
    give(&mut g, 1, &[Card::Marshal]);
    run(&mut g, 1, "SET MARSHAL NEVER", &mut d);
    run(&mut g, 0, "ATTACK Brittany FROM Gascony", &mut d);
    assert!(g.hand_has(1, Card::Marshal));
    assert_eq!(g.board[t("Brittany")].owner, Some(0));
}

/// Rule 4 (Admiral): "Armies board from a coastal territory, sail to an enemy coastal
/// territory on the same sea ... must fight until one side is gone. Won: all survivors land
/// and the card returns to hand ... Lost: the card is discarded."
#[test]
fn rule4_admiral_sea_attack() {
    let mut d = dice_with(30, |f| f[..3].iter().all(|x| *x >= 5) && f[3] <= 2);
    let mut g = position(
        2,
        &["Paris", "London"],
        &[
            ("Brittany", 0, 8),
            ("Naples", 1, 1),
            ("Moscow", 0, 9),
            ("Ukraine", 0, 9),
            ("Turkey", 1, 1),
        ],
    );
    give(&mut g, 0, &[Card::Admiral]);
    run(&mut g, 0, "SAIL 5 FROM Brittany TO Naples", &mut d);
    assert_eq!(g.board[t("Naples")].owner, Some(0));
    assert_eq!(g.board[t("Naples")].armies, 5, "all survivors land");
    assert_eq!(g.board[t("Brittany")].armies, 3);
    assert!(
        g.hand_has(0, Card::Admiral),
        "back to hand, reusable while winning"
    );
    // Turkey is on both seas: from Ukraine (Black Sea) it can be reached
    let mut d = dice_with(12, |f| f[0] >= 5 && f[1] >= 5 && f[2] >= 5 && f[3] <= 2);
    run(&mut g, 0, "SAIL 4 FROM Ukraine TO Turkey", &mut d);
    assert_eq!(g.board[t("Turkey")].owner, Some(0));
    // a lost sea attack discards the card and the whole ship is lost
    let mut d = dice_with(2, |f| f == [1, 6]);
    let mut g = position(
        2,
        &["Paris", "London"],
        &[("Brittany", 0, 2), ("Naples", 1, 5)],
    );
    give(&mut g, 0, &[Card::Admiral]);
    run(&mut g, 0, "SAIL 1 FROM Brittany TO Naples", &mut d);
    assert_eq!(g.board[t("Brittany")].armies, 1);
    assert!(!g.hand_has(0, Card::Admiral));
    assert!(g.discard.contains(&Card::Admiral));
    assert_eq!(g.cards_accounted(), 48);
}

/// Rule 4 (Diplomat): "before the first attack; a truce with a chosen player for this turn
/// and that player's next turn".
#[test]
fn rule4_diplomat_truce() {
    let mut g = position(
        3,
        &["Paris", "London", "Moscow"],
        &[
            ("Gascony", 0, 5),
            ("Brittany", 1, 2),
            ("Yorkshire", 1, 6),
            ("Scotland", 0, 1),
        ],
    );
    give(&mut g, 0, &[Card::Diplomat]);
    let mut d = any_dice();
    run(&mut g, 0, "TRUCE Bruno", &mut d);
    run(&mut g, 0, "END", &mut d);
    assert!(
        g.discard.contains(&Card::Diplomat),
        "discarded at the end of the turn"
    );
    assert_eq!(g.current, 1);
    run(&mut g, 1, "END", &mut d);
    assert!(g.truces.is_empty(), "over after Bruno's next turn");
}

/// Rule 4 (Diplomat): "Not used with 2 players ... any Diplomat drawn later is discarded
/// and replaced."
#[test]
fn rule4_no_diplomats_with_two_players() {
    let mut g = position(2, &["Paris", "London"], &[]);
    g.pile = vec![Card::Diplomat; 7];
    g.pile.extend([Card::Spy; 7]);
    g.discard = full_deck();
    g.discard
        .retain(|c| *c != Card::Diplomat && *c != Card::Spy);
    give(&mut g, 0, &[]);
    g.players[0].hand.push(g.pile.remove(0)); // a Diplomat dealt before: cannot be played
    let mut d = any_dice();
    run(&mut g, 0, "END", &mut d);
    assert!(
        g.players[1].hand.iter().all(|c| *c != Card::Diplomat),
        "{:?}",
        g.players[1].hand
    );
    assert_eq!(g.players[1].hand.len(), 4);
    assert_eq!(g.cards_accounted(), 48);
}

/// Rule 6: "Capturing a castle eliminates its owner: their armies leave the board; the
/// victor takes their castle token(s), their cards and their unused hidden armies; the
/// victor re-occupies ... the other players annex the rest in turn order".
#[test]
fn rule6_castle_capture_eliminates() {
    let mut d = dice_with(3, |f| f[0].max(f[1]) > f[2]);
    let mut g = position(
        3,
        &["Paris", "London", "Moscow"],
        &[
            ("Brittany", 0, 10),
            ("Paris", 0, 3),
            ("London", 1, 1),
            ("Wales", 1, 4),
            ("Ireland", 1, 2),
            ("Moscow", 2, 6),
        ],
    );
    // Bruno holds exactly London, Wales, Ireland, Yorkshire, Scotland (British Empire)
    for x in 0..44 {
        if g.board[x].owner == Some(1) && map().group_of(x) != 1 {
            g.board[x].owner = Some(2);
        }
    }
    for n in ["Yorkshire", "Scotland"] {
        g.board[t(n)].owner = Some(1);
    }
    g.board[t("Brittany")].owner = Some(0);
    give(&mut g, 1, &[Card::Marshal, Card::Spy]);
    g.players[1].hidden.push(Hidden {
        territory: t("Naples"),
        salt: "00".into(),
        commitment: "c".into(),
        chosen_by: 1,
        used: false,
    });
    run(&mut g, 1, "SET MARSHAL NEVER", &mut d);
    let ev = run(
        &mut g,
        0,
        "ATTACK London FROM Paris UNTIL CONQUERED MOVE 2",
        &mut d,
    );
    assert!(ev
        .iter()
        .any(|e| matches!(e, Event::Eliminated { seat: 1, by: 0, .. })));
    assert!(!g.players[1].alive);
    assert_eq!(g.players[0].tokens, vec![0, 1]);
    assert!(g.hand_has(0, Card::Marshal) && g.hand_has(0, Card::Spy));
    assert_eq!(
        g.players[0].hidden.len(),
        1,
        "the unused hidden armies change hands"
    );
    assert_eq!(
        g.board[t("Wales")].armies,
        0,
        "their armies leave the board"
    );
    // the victor is asked to re-occupy (no standing order)
    let p = g.pending(castellan_engine::Lang::En);
    assert_eq!(
        (p[0].seat, p[0].kind),
        (0, castellan_castle_risk::Ask::Reoccupy)
    );
    let e = refused(&mut g, 0, "ATTACK Naples FROM Brittany", &mut d);
    assert!(e.message.contains("waits"));
    run(&mut g, 0, "OCCUPY Wales FROM Brittany", &mut d);
    assert_eq!(
        (
            g.board[t("Wales")].owner,
            g.board[t("Wales")].armies,
            g.board[t("Brittany")].armies
        ),
        (Some(0), 1, 9)
    );
    run(&mut g, 0, "PASS", &mut d);
    // Chloé annexes the other three (she is the only other player), with armies from anywhere
    for n in ["Ireland", "Yorkshire", "Scotland"] {
        assert_eq!(g.board[t(n)].owner, Some(2), "{n}");
        assert_eq!(g.board[t(n)].armies, 1);
    }
    assert!(g.interrupt.is_none());
    assert!(g.board.iter().all(|t| t.owner.is_some()));
    assert!((0..44).all(|x| g.board[x].armies >= 1));
    assert_eq!(g.cards_accounted(), 48);
}

/// Rule 6: "The player holding every castle token wins."
#[test]
fn rule6_the_last_castle_wins() {
    let mut d = dice_with(3, |f| f[0].max(f[1]) > f[2]);
    let mut g = position(
        2,
        &["Paris", "London"],
        &[("Paris", 0, 5), ("London", 1, 1)],
    );
    run(&mut g, 0, "ATTACK London FROM Paris", &mut d);
    let o = g.outcome().expect("over");
    assert_eq!(o.winners, vec![0]);
    assert!(g.pending(castellan_engine::Lang::En).is_empty());
}

/// Rule 7: "once per game, in a territory the player holds at that moment; their number is
/// the track number of the last Reinforcements card played (0 before any)".
#[test]
fn rule7_hidden_armies() {
    let mut g = position(2, &["Paris", "London"], &[("Naples", 1, 1), ("Rome", 0, 3)]);
    g.players[0].hidden.push(Hidden {
        territory: t("Naples"),
        salt: "ab".into(),
        commitment: "cd".into(),
        chosen_by: 0,
        used: false,
    });
    g.track = 5;
    let mut d = any_dice();
    g.board[t("Naples")].owner = Some(0);
    let ev = run(&mut g, 0, "REVEAL Naples", &mut d);
    assert_eq!(g.board[t("Naples")].armies, 1 + 7);
    let public: Vec<String> = ev
        .iter()
        .filter_map(|e| {
            g.narrate(
                e,
                castellan_engine::Viewer::Public,
                castellan_engine::Lang::En,
            )
        })
        .collect();
    assert!(
        public[0].contains("salt ab"),
        "the commitment is opened in public: {public:?}"
    );
    assert!(g.players[0].hidden[0].used);
}

/// Seed 000, "Armées Cachées": "Utilisées une seule fois" and "Placez sur ce territoire un
/// nombre d'armées égal au nombre inscrit en face de la dernière carte de renfort jouée".
/// Before any Reinforcements card is played they are worth 0: REVEAL, and the answer
/// `DEFEND 2 REVEAL`, would use them up for nothing, so both are refused with why and what
/// to write, and nothing changes (REVEAL was accepted and wasted them
/// without a word). Once a card is played, the same REVEAL brings 3.
#[test]
fn rule7_a_reveal_worth_nothing_is_refused() {
    let mut g = position(
        2,
        &["Paris", "London"],
        &[("Naples", 0, 1), ("Brittany", 1, 4), ("Gascony", 0, 9)],
    );
    g.players[0].hidden.push(Hidden {
        territory: t("Naples"),
        salt: "ab".into(),
        commitment: "cd".into(),
        chosen_by: 0,
        used: false,
    });
    g.players[1].hidden.push(Hidden {
        territory: t("Brittany"),
        salt: "ef".into(),
        commitment: "01".into(),
        chosen_by: 1,
        used: false,
    });
    assert_eq!(g.track, 0, "no Reinforcements card played");
    let mut d = any_dice();
    // REVEAL, REVEAL Naples and DEFEND 2 REVEAL are refused: rule cases
    // (tests/cases/*reveal*worth-nothing.yaml). In ask mode, DEFEND 2 keeps them.
    g.options.ask = true;
    run(&mut g, 0, "ATTACK Brittany FROM Gascony FOR 1 ROLL", &mut d);
    run(&mut g, 1, "DEFEND 2", &mut d);
    assert!(!g.players[1].hidden[0].used);
    // One card on the track: worth 3.
    g.track = 1;
    g.options.ask = false;
    let armies = g.board[t("Naples")].armies;
    assert!(g.interrupt.is_none());
    assert_eq!(g.current, 0, "still seat 0's turn");
    run(&mut g, 0, "REVEAL Naples", &mut d);
    assert_eq!(g.board[t("Naples")].armies, armies + 3);
}

/// Rule 7: "a standing order can reveal them when it is attacked".
#[test]
fn rule7_hidden_armies_revealed_in_defence() {
    let mut d = dice_with(5, |f| f.iter().all(|x| *x == 1 || *x >= 1));
    let mut g = position(
        2,
        &["Paris", "London"],
        &[("Gascony", 0, 6), ("Brittany", 1, 1)],
    );
    g.players[1].hidden.push(Hidden {
        territory: t("Brittany"),
        salt: "ab".into(),
        commitment: "cd".into(),
        chosen_by: 1,
        used: false,
    });
    g.track = 2; // worth 4
    run(&mut g, 1, "SET REVEAL ON ATTACK", &mut d);
    let ev = run(&mut g, 0, "ATTACK Brittany FROM Gascony FOR 1 ROLL", &mut d);
    assert!(
        matches!(ev[1], Event::HiddenRevealed { armies: 4, .. }),
        "{:?}",
        ev[1]
    );
    assert!(g.board[t("Brittany")].armies >= 3);
}

/// Three answers for the defender: the prompt in ask mode (and the attacker's next line
/// fails), SET DEFEND, and the default (2 dice).
#[test]
fn defence_prompt_standing_order_and_default() {
    let mut g = position(
        2,
        &["Paris", "London"],
        &[("Gascony", 0, 9), ("Brittany", 1, 4)],
    );
    g.options.ask = true;
    let mut d = any_dice();
    run(&mut g, 0, "ATTACK Brittany FROM Gascony FOR 1 ROLL", &mut d);
    let p = &g.pending(castellan_engine::Lang::En)[0];
    assert_eq!((p.seat, p.kind), (1, castellan_castle_risk::Ask::Defend));
    assert_eq!(p.default, "DEFEND 2");
    assert_eq!(p.standing.as_deref(), Some("SET DEFEND 2"));
    let ev = run(&mut g, 1, "DEFEND 1", &mut d);
    let dd: Vec<usize> = ev
        .iter()
        .filter_map(|e| match e {
            Event::Battle { defender, .. } => Some(defender.len()),
            _ => None,
        })
        .collect();
    assert_eq!(dd, vec![1]);
    // with standing orders for everything, no prompt
    run(&mut g, 1, "SET DEFEND 1", &mut d);
    run(&mut g, 1, "SET MARSHAL NEVER", &mut d);
    run(&mut g, 1, "SET REVEAL NEVER", &mut d);
    let ev = run(&mut g, 0, "ATTACK Brittany FROM Gascony FOR 1 ROLL", &mut d);
    assert!(g.interrupt.is_none());
    let dd: Vec<usize> = ev
        .iter()
        .filter_map(|e| match e {
            Event::Battle { defender, .. } => Some(defender.len()),
            _ => None,
        })
        .collect();
    assert_eq!(dd, vec![1]);
    // default (no ask): 2 dice
    let mut g = position(
        2,
        &["Paris", "London"],
        &[("Gascony", 0, 9), ("Brittany", 1, 4)],
    );
    let ev = run(&mut g, 0, "ATTACK Brittany FROM Gascony FOR 1 ROLL", &mut d);
    let dd: Vec<usize> = ev
        .iter()
        .filter_map(|e| match e {
            Event::Battle { defender, .. } => Some(defender.len()),
            _ => None,
        })
        .collect();
    assert_eq!(dd, vec![2]);
}

/// Names are forgiving (French names, accents, prefixes) and errors say how to write it.
#[test]
fn orders_are_forgiving_and_round_trip() {
    let mut g = position(3, &["Paris", "London", "Moscow"], &[]);
    g.track = 0;
    for (line, canon) in [
        (
            "attaque livonie depuis pologne jusqu'à conquête",
            "ATTACK Livonia FROM Poland",
        ),
        (
            "ATTACK saint-pétersbourg FROM Fin until 3 left move all general",
            "ATTACK Saint Petersburg FROM Finland UNTIL 3 LEFT MOVE ALL GENERAL",
        ),
        (
            "amiral 5 depuis Bretagne vers Naples avec 2 dés",
            "SAIL 5 FROM Brittany TO Naples WITH 2 DICE",
        ),
        (
            "espion bruno defausser amiral, général",
            "SPY Bruno DISCARD Admiral, General",
        ),
        ("treve chloe", "TRUCE Chloé"),
        ("placer 3 Bavière, 2 saxe", "PLACE 3 Bavaria, 2 Saxony"),
        ("set marshal when 3+", "SET MARSHAL WHEN 3+"),
        ("SET REVEAL ON ATTACK", "SET REVEAL ON ATTACK"),
        ("set annex livonie, pologne", "SET ANNEX Livonia, Poland"),
        ("no counterspy", "NO COUNTERSPY"),
        ("defend 2 marshal", "DEFEND 2 MARSHAL"),
        ("fin", "END"),
    ] {
        let o = order(&g, 0, line);
        assert_eq!(g.order_text(&o), canon);
        assert_eq!(order(&g, 0, canon), o);
    }
    assert_eq!(
        order(&g, 0, "ATTACK Livnia FROM Poland"),
        order(&g, 0, "ATTACK Livonia FROM Poland"),
        "one typo is forgiven"
    );
}

// ---------------------------------------------------------------------- stalemate

/// A dead position (rules notes, "Stalemate"): every territory holds one army, every
/// Reinforcements card is on the track, nobody earns, no hidden armies; seat 0 to play.
fn dead(n: usize) -> CastleRisk {
    let castles = ["Paris", "London", "Moscow", "Berlin", "Vienna", "Turkey"];
    let mut g = position(n, &castles[..n], &[]);
    g.pile.retain(|c| *c != Card::Reinforcements);
    g.track = 12;
    assert_eq!(g.cards_accounted(), 48);
    assert_eq!(g.still_live(), None, "the test position is dead");
    g
}

/// Move 1-army territories (not castles, not in `keep`) from the seat with more territories
/// to the other until both hold as many (two players).
fn balance(g: &mut CastleRisk, keep: &[usize]) {
    loop {
        let (a, b) = (g.territories_of(0).len(), g.territories_of(1).len());
        if a == b {
            return;
        }
        let (from, to) = if a > b { (0, 1) } else { (1, 0) };
        let x = g
            .territories_of(from)
            .into_iter()
            .find(|x| {
                g.board[*x].armies == 1 && g.castle_owner_at(*x).is_none() && !keep.contains(x)
            })
            .expect("a territory to move");
        g.board[x].owner = Some(to);
    }
}

fn end_turn(g: &mut CastleRisk) -> Vec<Event> {
    let mut d = any_dice();
    let s = g.current;
    run(g, s, "END", &mut d)
}

/// Stalemate (the texts are silent; rules notes): when no player can ever attack or gain an
/// army again, the game ends at the end of that turn with a "stalemate" outcome. Hidden armies
/// on a territory their owner does not hold cannot be revealed and do not keep it alive.
#[test]
fn stalemate_a_dead_position_ends_the_game_at_the_end_of_the_turn() {
    let mut g = dead(3);
    let theirs = g
        .territories_of(0)
        .into_iter()
        .find(|x| g.castle_owner_at(*x).is_none())
        .unwrap();
    g.players[1].hidden.push(Hidden {
        territory: theirs,
        salt: "ab".into(),
        commitment: "cd".into(),
        chosen_by: 1,
        used: false,
    });
    assert_eq!(g.still_live(), None);
    // Nothing ends in the middle of a turn: seat 0 is still asked for its turn.
    assert!(g.outcome().is_none());
    assert_eq!(
        g.pending(castellan_engine::Lang::En)[0].kind,
        castellan_castle_risk::Ask::Turn
    );
    let ev = end_turn(&mut g);
    let o = g.outcome().expect("a dead position ends the game");
    assert!(o.reason.starts_with("stalemate"), "{}", o.reason);
    assert!(
        o.reason.contains("territories, then armies"),
        "{}",
        o.reason
    );
    assert!(ev.iter().any(|e| matches!(e, Event::GameOver { .. })));
    assert_eq!(g.phase, Phase::Over);
    assert!(g.pending(castellan_engine::Lang::En).is_empty());
    // The most territories wins (all armies are 1 here).
    let most = (0..3).map(|s| g.territories_of(s).len()).max().unwrap();
    let expect: Vec<usize> = (0..3)
        .filter(|&s| g.territories_of(s).len() == most)
        .collect();
    assert_eq!(o.winners, expect);
    let mut d = any_dice();
    let e = refused(&mut g, 1, "END", &mut d);
    assert!(e.message.contains("over"), "{}", e.message);
}

/// Stalemate tie-break (rules notes): the most territories, then the most armies on the
/// board; players still equal share the result.
#[test]
fn stalemate_tie_break_territories_then_armies_then_shared() {
    // Equal territories, equal armies: shared.
    let mut g = dead(2);
    balance(&mut g, &[]);
    assert_eq!(g.territories_of(0).len(), 22);
    assert_eq!(g.still_live(), None);
    end_turn(&mut g);
    let o = g.outcome().expect("over");
    assert_eq!(o.winners, vec![0, 1]);
    assert!(o.reason.contains("shared by Alice, Bruno"), "{}", o.reason);

    // Bruno keeps 6 armies in Switzerland, behind his own lines (landlocked, every neighbour
    // his): still dead. Equal territories: the armies decide.
    let mut g = dead(2);
    let sw = t("Switzerland");
    let mut block = vec![sw];
    block.extend(map().board.neighbors(sw));
    for &x in &block {
        g.board[x].owner = Some(1);
    }
    g.board[sw].armies = 6;
    balance(&mut g, &block);
    assert_eq!(g.territories_of(0).len(), g.territories_of(1).len());
    assert_eq!(g.still_live(), None, "an interior stack cannot attack");
    let mut g2 = g.clone();
    end_turn(&mut g);
    let o = g.outcome().expect("over");
    assert_eq!(o.winners, vec![1], "{}", o.reason);
    assert!(o.reason.contains("Bruno wins"), "{}", o.reason);

    // One territory more for Alice outweighs Bruno's armies: territories come first.
    let x = g2
        .territories_of(1)
        .into_iter()
        .find(|x| {
            g2.board[*x].armies == 1 && g2.castle_owner_at(*x).is_none() && !block.contains(x)
        })
        .unwrap();
    g2.board[x].owner = Some(0);
    assert_eq!(g2.still_live(), None);
    assert!(g2.territories_of(0).len() > g2.territories_of(1).len());
    let armies = |g: &CastleRisk, s| {
        g.territories_of(s)
            .iter()
            .map(|x| g.board[*x].armies)
            .sum::<u32>()
    };
    assert!(armies(&g2, 1) > armies(&g2, 0));
    end_turn(&mut g2);
    assert_eq!(g2.outcome().expect("over").winners, vec![0]);
}

/// Stalemate only for a dead position: while any one player (even one not in turn) can still
/// attack, sail, play a Reinforcements card, reveal hidden armies or earn, the game goes on.
#[test]
fn stalemate_not_while_any_player_can_still_act() {
    let hidden_on = |g: &mut CastleRisk, s: usize| {
        let x = g
            .territories_of(s)
            .into_iter()
            .find(|x| g.castle_owner_at(*x).is_none())
            .unwrap();
        g.players[s].hidden.push(Hidden {
            territory: x,
            salt: "ab".into(),
            commitment: "cd".into(),
            chosen_by: s,
            used: false,
        });
    };
    type Change = Box<dyn Fn(&mut CastleRisk)>;
    let cases: Vec<(&str, &str, Change)> = vec![
        (
            "a 2-army territory of seat 2 borders an enemy",
            "can attack",
            Box::new(|g: &mut CastleRisk| {
                let x = g.territories_of(2)[0];
                g.board[x].armies = 2;
            }),
        ),
        (
            "the only attack is barred by truces for now",
            "can attack",
            Box::new(|g: &mut CastleRisk| {
                let x = g.territories_of(2)[0];
                g.board[x].armies = 2;
                for with in [0, 1] {
                    g.truces.push(Truce {
                        by: 2,
                        with,
                        made: g.turns_played,
                    });
                }
                assert!(g.truce_between(2, 0) && g.truce_between(2, 1));
            }),
        ),
        (
            "a coastal stack behind its own lines, no Admiral in hand",
            "sail",
            Box::new(|g: &mut CastleRisk| {
                let ir = t("Ireland");
                for x in std::iter::once(ir).chain(map().board.neighbors(ir)) {
                    if g.castle_owner_at(x).is_none() {
                        g.board[x].owner = Some(2);
                    }
                }
                assert!(map()
                    .board
                    .neighbors(ir)
                    .all(|x| g.board[x].owner == Some(2)));
                g.board[ir].armies = 3;
                assert!(g.players.iter().all(|p| !p.hand.contains(&Card::Admiral)));
            }),
        ),
        (
            "a Reinforcements card is back in the pile",
            "Reinforcements",
            Box::new(|g: &mut CastleRisk| {
                g.track = 11;
                g.pile.push(Card::Reinforcements);
            }),
        ),
        (
            "seat 1 can reveal hidden armies",
            "hidden armies",
            Box::new(move |g: &mut CastleRisk| hidden_on(g, 1)),
        ),
        (
            "seat 1 holds a whole empire",
            "earns",
            Box::new(|g: &mut CastleRisk| {
                for x in map().board.groups[4].members.clone() {
                    if g.castle_owner_at(x).is_none() {
                        g.board[x].owner = Some(1);
                    }
                }
                assert!(g.earnings(1).0 > 0);
            }),
        ),
    ];
    for (what, says, change) in cases {
        let mut g = dead(3);
        change(&mut g);
        let live = g.still_live().unwrap_or_else(|| panic!("{what}: not dead"));
        assert!(live.contains(says), "{what}: {live}");
        assert!(!g.stalemate(), "{what}");
        end_turn(&mut g);
        assert!(g.outcome().is_none(), "{what}: the game goes on");
        assert_eq!(g.current, 1, "{what}: next player's turn");
    }
}

/// Rule 5: when the armies fall during one attack line below what its dice need
/// ("au moins une armée de plus que le nombre de dés"), the dice drop and the report says so.
#[test]
fn rule5_fewer_dice_during_an_attack_are_noted_in_the_report() {
    let mut d = any_dice();
    let mut g = position(
        2,
        &["Paris", "London"],
        &[("Gascony", 0, 5), ("Brittany", 1, 40)],
    );
    let ev = run(
        &mut g,
        0,
        "ATTACK Brittany FROM Gascony WITH 3 DICE",
        &mut d,
    );
    let fewer: Vec<(u32, u32, u32)> = ev
        .iter()
        .filter_map(|e| match e {
            Event::DiceFewer {
                asked,
                rolled,
                armies,
                ..
            } => Some((*asked, *rolled, *armies)),
            _ => None,
        })
        .collect();
    assert_eq!(fewer.first(), Some(&(3, 2, 3)), "{ev:?}");
    // each battle after the note rolls what the note says
    let rolled: Vec<usize> = ev
        .iter()
        .filter_map(|e| match e {
            Event::Battle { attacker, .. } => Some(attacker.len()),
            _ => None,
        })
        .collect();
    assert_eq!(rolled[0], 3);
    assert!(rolled.iter().any(|&n| n < 3));
    let said = |lang| {
        ev.iter()
            .filter_map(|e| g.narrate(e, castellan_engine::Viewer::Public, lang))
            .collect::<Vec<_>>()
            .join("\n")
    };
    let (en, fr) = (
        said(castellan_engine::Lang::En),
        said(castellan_engine::Lang::Fr),
    );
    assert!(
        en.contains("2 dice now, not the 3 asked: Gascony has 3"),
        "{en}"
    );
    assert!(
        fr.contains("2 dés désormais, et non les 3 demandés"),
        "{fr}"
    );
}

/// Rule 4 (General): "La carte Général est éliminée ... Vous pouvez alors : - jouer
/// une autre carte Générale si vous souhaitez, - continuer l'Attaque sans Général, ou -
/// terminer votre attaque." A second General is a choice: by default (ONCE) the attack goes
/// on without one; `GENERAL AGAIN` in the line, or `SET GENERAL AGAIN`, plays the next.
#[test]
fn rule4_a_second_general_is_the_players_choice() {
    let engaged = |ev: &[Event]| {
        ev.iter()
            .filter(|e| matches!(e, Event::GeneralEngaged { .. }))
            .count()
    };
    // Battle 1: attacker 4 (+1 = 5) against the defender's 5: the General is beaten.
    let fresh = || {
        let mut g = position(
            2,
            &["Paris", "London"],
            &[("Gascony", 0, 6), ("Brittany", 1, 20)],
        );
        give(&mut g, 0, &[Card::General, Card::General]);
        g.players[1].standing.defend = Some(1);
        g
    };
    let line = "ATTACK Brittany FROM Gascony WITH 1 DICE FOR 2 ROLLS GENERAL";
    // Default: ONCE.
    let mut g = fresh();
    let mut d = dice_with(2, |f| f == [4, 5]);
    let ev = run(&mut g, 0, line, &mut d);
    assert!(ev.iter().any(|e| matches!(e, Event::GeneralLost { .. })));
    assert_eq!(engaged(&ev), 1, "no second General unasked: {ev:?}");
    assert!(g.hand_has(0, Card::General), "the second stays in the hand");
    // The order word: GENERAL AGAIN (French: GÉNÉRAL ENCORE).
    let mut g = fresh();
    let mut d = dice_with(2, |f| f == [4, 5]);
    let ev = run(&mut g, 0, &format!("{line} AGAIN"), &mut d);
    assert_eq!(engaged(&ev), 2, "{ev:?}");
    let fr = order(
        &g,
        0,
        "ATTAQUE Bretagne DEPUIS Gascogne AVEC 1 DÉS POUR 2 LANCERS GÉNÉRAL ENCORE",
    );
    assert!(matches!(
        fr,
        Order::Attack {
            again: Some(true),
            ..
        }
    ));
    // The standing order: SET GENERAL AGAIN (CONSIGNE GÉNÉRAL ENCORE); the line's ONCE wins.
    let mut g = fresh();
    run(&mut g, 0, "CONSIGNE GÉNÉRAL ENCORE", &mut any_dice());
    assert_eq!(g.players[0].standing.general_again, Some(true));
    let mut d = dice_with(2, |f| f == [4, 5]);
    let ev = run(&mut g, 0, line, &mut d);
    assert_eq!(engaged(&ev), 2, "{ev:?}");
    let mut g = fresh();
    run(&mut g, 0, "SET GENERAL AGAIN", &mut any_dice());
    let mut d = dice_with(2, |f| f == [4, 5]);
    let ev = run(&mut g, 0, &format!("{line} ONCE"), &mut d);
    assert_eq!(engaged(&ev), 1, "{ev:?}");
    // The words write back to themselves in both languages.
    for lang in [castellan_engine::Lang::En, castellan_engine::Lang::Fr] {
        for w in ["AGAIN", "ONCE"] {
            let o = order(&g, 0, &format!("{line} {w}"));
            let text = castellan_castle_risk::orders::order_text_in(&g, &o, lang);
            assert_eq!(order(&g, 0, &text), o, "{text}");
        }
    }
}

/// Rule 5: "Vous ne pouvez attaquer que depuis un de vos territoires vers un territoire
/// ennemi adjacent" (seed 000). CHECK of a mail whose first line rolls dice still refuses,
/// after it, an attack on a territory the player already holds (no roll in their own turn
/// takes it from them) and an unknown name, and calls a line it cannot fault "past chance",
/// never "legal". Such a line was once answered "legal so far".
#[test]
fn check_after_a_dice_line_refuses_an_attack_on_ones_own_territory() {
    use castellan_engine::LineVerdict;
    let mut tb = table("past-chance", 2, Options::default());
    tb.state = position(
        2,
        &["Paris", "London"],
        &[
            ("Gascony", 0, 1),
            ("Brittany", 1, 3),
            ("Ireland", 0, 5),
            ("Wales", 1, 1),
        ],
    );
    let before = serde_json::to_string(&tb).unwrap();
    let v = tb.check(
        0,
        "ATTACK Wales FROM Ireland\nATTACK Gascony FROM Ireland\nATTACK Brittany FROM Gascony\nATTACK Atlantis FROM Ireland",
        castellan_engine::Lang::En,
    );
    assert_eq!(v[0].verdict, LineVerdict::NeedsDice, "{v:?}");
    match &v[1].verdict {
        LineVerdict::Err { message, hint } => {
            assert!(message.contains("Gascony is yours"), "{message}");
            assert!(hint.is_some());
        }
        other => panic!("attacking one's own territory after a dice line: {other:?}"),
    }
    assert_eq!(v[2].verdict, LineVerdict::PastChance);
    assert!(
        matches!(v[3].verdict, LineVerdict::Err { .. }),
        "{:?}",
        v[3]
    );
    assert_eq!(
        serde_json::to_string(&tb).unwrap(),
        before,
        "CHECK changes nothing"
    );
}
