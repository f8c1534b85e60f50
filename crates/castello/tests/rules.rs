//! Castello, rule by rule. Each test quotes the seed text
//! (shared/seeds/004_fccdcef77053ae88.txt) or the decision in docs/rules/castello.md it
//! checks, sets up a position and asserts the exact outcome. Refused orders are rule cases,
//! data in tests/cases/ (run by tests/cases.rs).

mod common;

use castellan_castello::{
    sq, Castello, Cell, Event, First, Kind, Options, Order, Side, BLACK, RED,
};
use castellan_engine::dice::Secret;
use castellan_engine::{DiceBox, OrderError, Rules, Table, Viewer};

fn pos(pieces: &[(&str, char)], to_move: Side) -> Castello {
    common::pos_with(pieces, to_move, &Options::default())
}

fn dice() -> DiceBox {
    DiceBox::new("test", Secret::derive(b"test"))
}

fn play(g: &mut Castello, seat: Side, line: &str) -> Result<Vec<Event>, OrderError> {
    let o = g.parse(seat.seat(), line)?;
    g.apply(seat.seat(), &o, &mut dice())
}

fn legal(g: &Castello, from: &str) -> Vec<String> {
    let mut v: Vec<String> = g.moves_of(sq(from)).iter().map(|m| m.text()).collect();
    v.sort();
    v
}

fn state_json(g: &Castello) -> serde_json::Value {
    serde_json::to_value(g).unwrap()
}

/// Seed: "Chaque joueur déplace à tour de rôle l'un de ses pions, horizontalement,
/// verticalement ou en diagonale ... tout pion ne sera déplacé que d'une seule case."
#[test]
fn a_moved_pawn_steps_one_square_in_eight_directions() {
    let g = pos(&[("E8", 'r'), ("U1", 'b')], RED);
    assert_eq!(
        legal(&g, "E8"),
        ["E8-D7", "E8-D8", "E8-D9", "E8-E7", "E8-E9", "E8-F7", "E8-F8", "E8-F9"]
    );
    let mut g2 = g.clone();
    play(&mut g2, RED, "E8-F9").unwrap();
    assert_eq!(
        g2.cell(sq("F9")),
        Cell::Pawn {
            seat: RED,
            moved: true
        }
    );
    assert_eq!(g2.cell(sq("E8")), Cell::Empty);
    assert_eq!(g2.to_move(), BLACK, "players move in turn (à tour de rôle)");
}

/// Seed: "Lors de son premier mouvement, un pion peut être déplacé de deux cases,
/// ensuite, tout pion ne sera déplacé que d'une seule case."
#[test]
fn a_pawns_first_move_may_go_two_squares() {
    let mut g = pos(&[("E8", 'R'), ("U1", 'b')], RED);
    // 8 steps and 7 moves of two (the eighth, E8-G10, would end on a castle).
    assert_eq!(g.moves_of(sq("E8")).len(), 15);
    let doubles = g
        .moves_of(sq("E8"))
        .iter()
        .filter(|m| m.kind == Kind::Double)
        .count();
    assert_eq!(doubles, 7);
    assert!(!legal(&g, "E8").contains(&"E8-G10".to_string()));
    assert!(legal(&g, "E8").contains(&"E8-C6".to_string()));
    play(&mut g, RED, "E8-E10").unwrap();
    assert_eq!(
        g.cell(sq("E10")),
        Cell::Pawn {
            seat: RED,
            moved: true
        }
    );
}

/// Seed: "un pion peut aussi sauter un autre pion (de sa couleur ou non) à condition que
/// la case située immédiatement derrière le pion sauté soit libre."
#[test]
fn a_pawn_jumps_a_pawn_of_either_colour_onto_a_free_square() {
    let mut g = pos(&[("E4", 'r'), ("E5", 'r'), ("F5", 'b'), ("U15", 'b')], RED);
    // over its own colour: nothing captured
    let ev = play(&mut g.clone(), RED, "E4-E6").unwrap();
    assert!(matches!(&ev[0], Event::Moved { captured, .. } if captured.is_empty()));
    // over the enemy: captured
    let ev = play(&mut g, RED, "E4-G6").unwrap();
    assert!(matches!(&ev[0], Event::Moved { captured, .. } if *captured == vec![sq("F5")]));
    assert_eq!(g.cell(sq("F5")), Cell::Empty);
    assert_eq!(g.pawns_taken(RED), 1);
    // landing square must be free
    let mut h = pos(&[("E4", 'r'), ("E5", 'b'), ("E6", 'b'), ("U15", 'b')], RED);
    let before = state_json(&h);
    let e = play(&mut h, RED, "E4-E6").unwrap_err();
    assert!(e.message.contains("not free"), "{}", e.message);
    assert_eq!(state_json(&h), before, "a refused order changes nothing");
}

/// Seed, Figure 3: "Le pion noir E4 peut prendre les trois rouges par un déplacement
/// E4-E2-C2-A2-C4." (Here the pawn jumped on B2 is black, so three of four are red.)
#[test]
fn the_seed_example_takes_three_red_pawns() {
    let mut g = pos(
        &[
            ("E4", 'b'),
            ("E3", 'r'),
            ("D2", 'r'),
            ("B2", 'b'),
            ("B3", 'r'),
            ("A15", 'r'),
        ],
        BLACK,
    );
    let ev = play(&mut g, BLACK, "E4-E2-C2-A2-C4").unwrap();
    match &ev[0] {
        Event::Moved { path, captured, .. } => {
            assert_eq!(path.len(), 5);
            assert_eq!(*captured, vec![sq("E3"), sq("D2"), sq("B3")]);
        }
        e => panic!("{e:?}"),
    }
    for s in ["E3", "D2", "B3", "E4"] {
        assert_eq!(g.cell(sq(s)), Cell::Empty, "{s}");
    }
    assert_eq!(
        g.cell(sq("B2")),
        Cell::Pawn {
            seat: BLACK,
            moved: true
        }
    );
    assert_eq!(
        g.cell(sq("C4")),
        Cell::Pawn {
            seat: BLACK,
            moved: true
        }
    );
    assert_eq!(g.pawns_taken(BLACK), 3);
}

/// Seed: "Plusieurs sauts sont permis" (permitted, not compulsory): a chain may stop after
/// any jump, and a capture is never compulsory (docs/rules/castello.md).
#[test]
fn jumps_and_captures_are_optional() {
    let g = pos(
        &[("E4", 'b'), ("E3", 'r'), ("D2", 'r'), ("A15", 'r')],
        BLACK,
    );
    let mut a = g.clone();
    let ev = play(&mut a, BLACK, "E4-E2").unwrap();
    assert!(matches!(&ev[0], Event::Moved { captured, .. } if captured.len() == 1));
    assert_eq!(
        a.cell(sq("D2")),
        Cell::Pawn {
            seat: RED,
            moved: true
        }
    );
    let mut b = g.clone();
    play(&mut b, BLACK, "E4-F4").unwrap();
    assert_eq!(b.pawns_taken(BLACK), 0);
    assert!(legal(&g, "E4").contains(&"E4-E2-C2".to_string()));
}

/// Seed: "Lors d'un coup, un pion peut prendre un maximum de cinq pions adverses, et son
/// mouvement s'achève derrière le cinquième pion capturé."
#[test]
fn at_most_five_captures_then_the_move_ends() {
    let mut pieces = vec![("A5", 'b')];
    for s in ["B5", "D5", "F5", "H5", "J5", "L5"] {
        pieces.push((s, 'r'));
    }
    let g = pos(&pieces, BLACK);
    assert!(g.legal_moves(BLACK).iter().all(|m| m.captures.len() <= 5));
    assert!(g
        .legal_moves(BLACK)
        .iter()
        .all(|m| m.text() != "A5-C5-E5-G5-I5-K5-M5"));
    let mut h = g.clone();
    play(&mut h, BLACK, "A5-C5-E5-G5-I5-K5").unwrap();
    assert_eq!(h.pawns_taken(BLACK), 5);
    assert_eq!(
        h.cell(sq("K5")),
        Cell::Pawn {
            seat: BLACK,
            moved: true
        }
    );
    assert_eq!(
        h.cell(sq("L5")),
        Cell::Pawn {
            seat: RED,
            moved: true
        }
    );
}

/// Seed: "Un château est conquis quand il est entouré de trois pions. Ce château est alors
/// retiré du tablier, et la case qu'il occupait devient accessible aux pions." Decision:
/// three of its four orthogonal neighbours hold the capturer's own pawns.
#[test]
fn a_castle_falls_to_three_orthogonal_pawns_and_its_square_opens() {
    // P10 is in Black's home: Red may take it.
    let mut g = pos(&[("P11", 'r'), ("O10", 'r'), ("Q9", 'r'), ("U1", 'b')], RED);
    let ev = play(&mut g, RED, "Q9-Q10").unwrap();
    assert!(ev.iter().any(|e| *e
        == Event::CastleTaken {
            seat: RED,
            sq: sq("P10"),
            total: 1
        }));
    assert_eq!(g.cell(sq("P10")), Cell::Empty);
    assert_eq!(g.castles_taken(RED), vec![sq("P10")]);
    play(&mut g, BLACK, "U1-U2").unwrap();
    play(&mut g, RED, "P11-P10").unwrap();
    assert_eq!(
        g.cell(sq("P10")),
        Cell::Pawn {
            seat: RED,
            moved: true
        }
    );
}

/// Decision: diagonal neighbours and pawns of the other colour do not count.
#[test]
fn diagonal_or_mixed_pawns_do_not_take_a_castle() {
    let mut g = pos(
        &[
            ("O11", 'r'),
            ("Q11", 'r'),
            ("O9", 'r'),
            ("Q8", 'r'),
            ("U1", 'b'),
        ],
        RED,
    );
    play(&mut g, RED, "Q8-Q9").unwrap();
    assert_eq!(g.cell(sq("P10")), Cell::Castle);
    let mut h = pos(&[("P11", 'r'), ("O10", 'b'), ("Q9", 'r'), ("U1", 'b')], RED);
    play(&mut h, RED, "Q9-Q10").unwrap();
    assert_eq!(h.cell(sq("P10")), Cell::Castle);
    assert!(h.castles_taken(RED).is_empty());
}

/// Seed: "Les joueurs ne peuvent pas capturer les trois châteaux de leur « domicile »."
/// With the published four home castles a side, none of the four can be taken by its owner.
#[test]
fn nobody_takes_a_castle_of_their_own_home() {
    for (castle, around) in [
        ("G10", ["G11", "F10", "H10", "G9"]),
        ("F6", ["F7", "E6", "G6", "F5"]),
        ("G2", ["G3", "F2", "H2", "G1"]),
        ("F14", ["F15", "E14", "G14", "F13"]),
    ] {
        let mut pieces: Vec<(&str, char)> = around[..3].iter().map(|s| (*s, 'r')).collect();
        pieces.push(("U1", 'b'));
        pieces.push(("A1", 'r'));
        let mut g = pos(&pieces, RED);
        play(&mut g, RED, "A1-A2").unwrap();
        assert_eq!(g.cell(sq(castle)), Cell::Castle, "{castle}");
        assert!(g.castles_taken(RED).is_empty());
        // Black may take it.
        let pieces: Vec<(&str, char)> = around[..3]
            .iter()
            .map(|s| (*s, 'b'))
            .chain([("A15", 'r'), ("U1", 'b')])
            .collect();
        let mut h = pos(&pieces, BLACK);
        play(&mut h, BLACK, "U1-U2").unwrap();
        assert_eq!(h.castles_taken(BLACK), vec![sq(castle)], "{castle}");
    }
}

/// Seed: "Le château du milieu de la section centrale ne peut pas être conquis avant la
/// prise d'au moins un château du camp adverse." The other central castles are free
/// (option strict_centre follows Sackson: none of them before).
#[test]
fn the_centre_castle_needs_an_enemy_home_castle_first() {
    let around = [("K9", 'r'), ("J8", 'r'), ("L7", 'r'), ("U1", 'b')];
    let mut g = pos(&around, RED);
    play(&mut g, RED, "L7-L8").unwrap();
    assert_eq!(g.cell(sq("K8")), Cell::Castle);
    let mut h = pos(&around, RED).with_castle_taken(sq("P2"), RED).unwrap();
    play(&mut h, RED, "L7-L8").unwrap();
    assert_eq!(h.cell(sq("K8")), Cell::Empty);
    assert_eq!(h.castle_count(RED), 2);
    // A central castle that is not the middle one: free by default, not with strict_centre.
    let k3 = [("K4", 'r'), ("J3", 'r'), ("L2", 'r'), ("U1", 'b')];
    let mut a = pos(&k3, RED);
    play(&mut a, RED, "L2-L3").unwrap();
    assert_eq!(a.castles_taken(RED), vec![sq("K3")]);
    let strict = Options {
        strict_centre: true,
        ..Options::default()
    };
    let mut b = common::pos_with(&k3, RED, &strict);
    play(&mut b, RED, "L2-L3").unwrap();
    assert_eq!(b.cell(sq("K3")), Cell::Castle);
}

/// Decision: taking an enemy-home castle and closing the centre castle in one move takes
/// both (castles are checked again after each one falls).
#[test]
fn one_move_can_take_an_enemy_home_castle_and_then_the_centre() {
    // Impossible geometrically with one pawn on both rings (P2 and K8 are far apart), so
    // the centre ring is already closed when the enemy-home castle falls.
    let mut g = pos(
        &[
            ("K9", 'r'),
            ("J8", 'r'),
            ("L8", 'r'),
            ("P3", 'r'),
            ("O2", 'r'),
            ("Q1", 'r'),
            ("U15", 'b'),
        ],
        RED,
    );
    assert_eq!(g.cell(sq("K8")), Cell::Castle);
    let ev = play(&mut g, RED, "Q1-Q2").unwrap();
    let taken: Vec<_> = ev
        .iter()
        .filter_map(|e| match e {
            Event::CastleTaken { sq, .. } => Some(sq.to_string()),
            _ => None,
        })
        .collect();
    assert_eq!(taken, ["P2", "K8"]);
}

/// Seed "But du jeu": "Capturer 4 châteaux (parmi ceux de la section centrale et du camp
/// adverse)".
#[test]
fn four_castles_win() {
    let mut g = pos(&[("P11", 'r'), ("O10", 'r'), ("Q9", 'r'), ("U1", 'b')], RED)
        .with_castle_taken(sq("P2"), RED)
        .unwrap()
        .with_castle_taken(sq("K3"), RED)
        .unwrap()
        .with_castle_taken(sq("K13"), RED)
        .unwrap();
    assert!(g.outcome().is_none());
    play(&mut g, RED, "Q9-Q10").unwrap();
    let o = g.outcome().expect("over");
    assert_eq!(o.winners, vec![0]);
    assert!(o.reason.contains("4 castles"));
    assert!(g.pending(castellan_engine::Lang::En).is_empty());
    assert!(play(&mut g, BLACK, "U1-U2").is_err());
}

/// Seed "But du jeu": "... ou 28 pions opposés."
#[test]
fn twenty_eight_pawns_win() {
    let g = pos(
        &[("E4", 'b'), ("E3", 'r'), ("A15", 'r'), ("U1", 'b')],
        BLACK,
    );
    let mut a = g.clone().with_pawns_taken(BLACK, 26);
    play(&mut a, BLACK, "E4-E2").unwrap();
    assert!(a.outcome().is_none(), "27 is not enough");
    let mut b = g.with_pawns_taken(BLACK, 27);
    play(&mut b, BLACK, "E4-E2").unwrap();
    assert_eq!(b.outcome().unwrap().winners, vec![1]);
}

/// Decision (docs/rules/castello.md §End): `move_limit` moves in a row without any capture
/// draw the game; a capture starts the count again.
#[test]
fn moves_without_capture_draw_at_the_limit() {
    let g = pos(&[("E4", 'r'), ("E5", 'b'), ("A15", 'r'), ("U1", 'b')], RED).with_quiet_moves(99);
    let mut a = g.clone();
    play(&mut a, RED, "A15-A14").unwrap();
    let o = a.outcome().expect("drawn");
    assert!(o.winners.is_empty());
    assert!(o.reason.contains("100 moves"), "{}", o.reason);
    let mut b = g;
    play(&mut b, RED, "E4-E6").unwrap();
    assert!(b.outcome().is_none());
    assert_eq!(b.quiet(), 0);
}

/// Decision: the same position with the same side to move for the third time is a draw.
#[test]
fn threefold_repetition_draws() {
    let mut g = pos(&[("A1", 'r'), ("U15", 'b')], RED);
    let cycle = |g: &mut Castello| {
        play(g, RED, "A1-A2").unwrap();
        play(g, BLACK, "U15-U14").unwrap();
        play(g, RED, "A2-A1").unwrap();
        assert!(g.outcome().is_none());
        play(g, BLACK, "U14-U15").unwrap();
    };
    cycle(&mut g);
    assert!(g.outcome().is_none(), "the start position has come twice");
    cycle(&mut g);
    let o = g.outcome().expect("repetition");
    assert!(o.reason.contains("same position"), "{}", o.reason);
    assert!(o.winners.is_empty());
    let off = Options {
        repetition: 0,
        ..Options::default()
    };
    let mut h = common::pos_with(&[("A1", 'r'), ("U15", 'b')], RED, &off);
    for _ in 0..5 {
        cycle(&mut h);
    }
    assert!(h.outcome().is_none(), "repetition=0 turns the rule off");
}

/// Decision: a player who cannot move any pawn loses.
#[test]
fn a_player_who_cannot_move_loses() {
    let mut g = pos(
        &[
            ("A1", 'b'),
            ("A2", 'r'),
            ("B1", 'r'),
            ("B2", 'r'),
            ("A3", 'r'),
            ("C1", 'r'),
            ("C3", 'r'),
            ("K12", 'r'),
        ],
        RED,
    );
    play(&mut g, RED, "K12-K11").unwrap();
    let o = g.outcome().expect("blocked");
    assert_eq!(o.winners, vec![0]);
}

/// Decision: Red moves first by default; `first=black` or `first=random` (one public draw).
#[test]
fn who_moves_first() {
    let mk = |first| {
        Table::<Castello>::new(
            "first",
            Secret::derive(b"first"),
            vec!["A".into(), "B".into()],
            Options {
                first,
                ..Options::default()
            },
        )
        .unwrap()
    };
    assert_eq!(
        mk(First::Red).state.pending(castellan_engine::Lang::En)[0].seat,
        0
    );
    assert_eq!(
        mk(First::Black).state.pending(castellan_engine::Lang::En)[0].seat,
        1
    );
    let r = mk(First::Random);
    assert_eq!(
        r.history[0].rolls.len(),
        1,
        "the draw is a public, logged roll"
    );
    let face = r.history[0].rolls[0].value as usize;
    assert_eq!(
        r.state.pending(castellan_engine::Lang::En)[0].seat,
        face - 1
    );
    assert!(Table::<Castello>::new(
        "x",
        Secret::derive(b"x"),
        vec!["A".into()],
        Options::default()
    )
    .is_err());
}

/// The seed's notation "E4-E2-C2-A2-C4", also lowercase, spaces and "x"; parse(order_text)
/// is the identity.
#[test]
fn orders_are_written_like_the_seed() {
    let g = pos(&[("E4", 'b'), ("U1", 'b'), ("A1", 'r')], BLACK);
    let want = Order::Move(vec![sq("E4"), sq("E2"), sq("C2"), sq("A2"), sq("C4")]);
    for line in [
        "E4-E2-C2-A2-C4",
        "e4-e2-c2-a2-c4",
        "E4 E2 C2 A2 C4",
        "e4xe2xc2xa2xc4",
        "move E4 - E2 - C2 - A2 - C4",
    ] {
        assert_eq!(g.parse(1, line).unwrap(), want, "{line}");
    }
    assert_eq!(g.order_text(&want), "E4-E2-C2-A2-C4");
    for o in [want, Order::Resign, Order::OfferDraw, Order::AcceptDraw] {
        assert_eq!(g.parse(1, &g.order_text(&o)).unwrap(), o);
    }
}

/// Resign, and a draw offer that stands until the other side moves.
#[test]
fn resign_and_draw_offers() {
    let g = pos(&[("E4", 'r'), ("U1", 'b')], RED);
    let mut a = g.clone();
    play(&mut a, BLACK, "RESIGN").unwrap();
    assert_eq!(a.outcome().unwrap().winners, vec![0]);

    let mut b = g.clone();
    play(&mut b, RED, "OFFER DRAW").unwrap();
    play(&mut b, RED, "E4-E5").unwrap();
    let p = &b.pending(castellan_engine::Lang::En)[0];
    assert_eq!(p.seat, 1);
    assert!(p.choices.contains(&"ACCEPT DRAW".to_string()));
    play(&mut b, BLACK, "accept draw").unwrap();
    assert!(b.outcome().unwrap().winners.is_empty());

    let mut c = g;
    play(&mut c, RED, "OFFER DRAW").unwrap();
    play(&mut c, RED, "E4-E5").unwrap();
    let ev = play(&mut c, BLACK, "U1-U2").unwrap();
    assert!(ev.contains(&Event::DrawDeclined { seat: BLACK }));
    assert!(c.outcome().is_none());
}

/// Every decision has an explicit order (prompt choices), and a documented default.
#[test]
fn the_prompt_lists_legal_lines_and_a_default() {
    let t = Table::<Castello>::new(
        "prompt",
        Secret::derive(b"prompt"),
        vec!["A".into(), "B".into()],
        Options::default(),
    )
    .unwrap();
    let p = &t.state.pending(castellan_engine::Lang::En)[0];
    assert_eq!(p.kind, castellan_castello::Ask::Move);
    assert!(!p.choices.is_empty() && p.choices.len() <= 41);
    for c in &p.choices {
        let mut s = t.state.clone();
        let o = s.parse(p.seat, c).unwrap();
        s.apply(p.seat, &o, &mut dice()).unwrap();
    }
    let d = t.state.default_order(p);
    assert_eq!(t.state.order_text(&d), p.default);
    let mut t2 = t.clone();
    t2.play_default(0).unwrap();
    assert_eq!(t2.state.pending(castellan_engine::Lang::En)[0].seat, 1);
}

/// The public view is the board with coordinates; the private view speaks only to its seat
/// (nothing in Castello is hidden, and every narration is the same for every viewer).
#[test]
fn views_show_coordinates_and_private_views_stay_private() {
    let mut t = Table::<Castello>::new(
        "views",
        Secret::derive(b"views"),
        vec!["Alice".into(), "Bob".into()],
        Options::default(),
    )
    .unwrap();
    let v = t.state.public_view(castellan_engine::Lang::En);
    assert!(
        v.contains("A B C D E F G | H I J K L M N | O P Q R S T U"),
        "{v}"
    );
    assert!(v.contains(" 15  R R . . . . . | "), "{v}");
    assert!(
        v.contains("  8  R R . . . . . | . . . # . . . | . . . . . B B 8"),
        "{v}"
    );
    for _ in 0..30 {
        let n = t.narrate_since(
            t.history.len().saturating_sub(1),
            castellan_engine::Lang::En,
        );
        assert!(n.private.is_empty(), "nothing is private in Castello");
        t.play_bot(t.state.to_move().seat()).unwrap();
        let mover = t.state.to_move().seat();
        let waiting = 1 - mover;
        let mine = t.state.private_view(mover, castellan_engine::Lang::En);
        let theirs = t.state.private_view(waiting, castellan_engine::Lang::En);
        assert!(mine.contains("It is your move"));
        assert!(!theirs.contains("It is your move"));
        assert!(!theirs.contains("legal moves"), "{theirs}");
        assert!(t
            .state
            .private_view(7, castellan_engine::Lang::En)
            .is_empty());
    }
    let e = &t.history.last().unwrap().events[0];
    assert_eq!(
        t.state
            .narrate(e, Viewer::Public, castellan_engine::Lang::En),
        t.state
            .narrate(e, Viewer::Seat(0), castellan_engine::Lang::En)
    );
}

/// A whole exchange through the table's all-or-nothing submit: two lines where the second
/// is illegal apply nothing.
#[test]
fn submit_is_all_or_nothing() {
    let mut t = Table::<Castello>::new(
        "submit",
        Secret::derive(b"submit"),
        vec!["A".into(), "B".into()],
        Options::default(),
    )
    .unwrap();
    let before = t.history.len();
    let err = t
        .submit(0, "B8-D8\nOFFER DRAW\nB9-B10", castellan_engine::Lang::En)
        .unwrap_err();
    assert_eq!(err.len(), 1);
    assert_eq!(err[0].line_no, 3);
    assert_eq!(t.history.len(), before);
    t.submit(0, "OFFER DRAW\nB8-D8", castellan_engine::Lang::En)
        .unwrap();
    assert_eq!(
        t.state.cell(sq("D8")),
        Cell::Pawn {
            seat: RED,
            moved: true
        }
    );
    assert_eq!(t.state.draw_offer(), Some(RED));
}

mod no_panic {
    use super::*;
    use proptest::prelude::*;

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(200))]
        /// House rule: no panic on any input; a refused order changes nothing.
        #[test]
        fn any_line_is_parsed_or_refused_without_panic(line in "[ -~éÉ–]{0,40}") {
            let t = Table::<Castello>::new("p", Secret::derive(b"p"), vec!["A".into(), "B".into()], Options::default()).unwrap();
            let mut g = t.state.clone();
            let before = state_json(&g);
            for seat in 0..3usize {
                if let Ok(o) = g.parse(seat, &line) {
                    let mut h = g.clone();
                    if h.apply(seat, &o, &mut dice()).is_err() {
                        prop_assert_eq!(state_json(&h), before.clone());
                    }
                }
            }
            let _ = &mut g;
        }

        #[test]
        fn any_path_is_checked_without_panic(path in proptest::collection::vec((0u8..21, 0u8..15), 0..8)) {
            let t = Table::<Castello>::new("q", Secret::derive(b"q"), vec!["A".into(), "B".into()], Options::default()).unwrap();
            let g = t.state.clone();
            let p: Vec<castellan_castello::Sq> = path.iter().map(|(c, r)| castellan_castello::Sq { col: *c, row: *r }).collect();
            let mut h = g.clone();
            let r = h.apply(0, &Order::Move(p), &mut dice());
            if r.is_err() {
                prop_assert_eq!(state_json(&h), state_json(&g));
            }
        }
    }
}

/// Options as written in a CREATE mail or on the command line.
#[test]
fn options_from_key_value_pairs() {
    let pairs = [
        ("first".to_string(), "black".to_string()),
        ("move-limit".to_string(), "60".to_string()),
        ("strict_centre".to_string(), "yes".to_string()),
    ];
    let o: Options = castellan_engine::options_from_pairs(&pairs).unwrap();
    assert_eq!(o.first, First::Black);
    assert_eq!(o.move_limit, 60);
    assert!(o.strict_centre);
    assert_eq!(o.repetition, 3);
    let bad = [("move_limit".to_string(), "3".to_string())];
    let o: Options = castellan_engine::options_from_pairs(&bad).unwrap();
    let e = Table::<Castello>::new("o", Secret::derive(b"o"), vec!["A".into(), "B".into()], o)
        .unwrap_err();
    assert!(e.hint.unwrap().contains("move_limit"));
}

// ------------------------------------------------------------------------------------------
// Coverage audit (Castello): rules that had no test of their own.

/// "Board 21 × 15 with the notation and the published starting position" (home, central
/// and enemy sections of 7 columns each);
/// seed: "71 pièces dont 30 pions rouges, 30 pions noirs et 11 châteaux", "Tous les pions
/// sont installés sur le tablier", "Les châteaux sont des pièces fixes". The diagram below
/// is copied from the research file (row 15 on top), independently of the crate's parser.
#[test]
fn a_new_game_starts_from_the_published_position() {
    const PUBLISHED: [&str; 15] = [
        "RR.....|.......|.....BB",
        "RR...#.|.......|#....BB",
        "RR.....|...#...|.....BB",
        "RR.....|.......|.....BB",
        "RR.....|.......|.....BB",
        "RR....#|.......|.#...BB",
        "RR.....|.......|.....BB",
        "RR.....|...#...|.....BB",
        "RR.....|.......|.....BB",
        "RR...#.|.......|#....BB",
        "RR.....|.......|.....BB",
        "RR.....|.......|.....BB",
        "RR.....|...#...|.....BB",
        "RR....#|.......|.#...BB",
        "RR.....|.......|.....BB",
    ];
    let t = Table::<Castello>::new(
        "start",
        Secret::derive(b"start"),
        vec!["Alice".into(), "Bob".into()],
        Options::default(),
    )
    .unwrap();
    let g = &t.state;
    for (i, line) in PUBLISHED.iter().enumerate() {
        let row = 15 - i;
        let marks: Vec<char> = line.chars().filter(|c| *c != '|').collect();
        assert_eq!(marks.len(), 21);
        for (col, m) in marks.iter().enumerate() {
            let s = castellan_castello::Sq {
                col: col as u8,
                row: (row - 1) as u8,
            };
            let want = match m {
                'R' => Cell::Pawn {
                    seat: RED,
                    moved: false,
                },
                'B' => Cell::Pawn {
                    seat: BLACK,
                    moved: false,
                },
                '#' => Cell::Castle,
                _ => Cell::Empty,
            };
            assert_eq!(g.cell(s), want, "{s}");
        }
    }
    assert_eq!((g.pawn_count(RED), g.pawn_count(BLACK)), (30, 30));
    // The castles and their sections: 4 in each home (A–G red, O–U black), 3 central (H–N).
    let mut homes: Vec<(String, Option<Side>, bool)> = g
        .castles()
        .iter()
        .map(|c| (c.sq.to_string(), c.home, c.centre))
        .collect();
    homes.sort();
    let mut want: Vec<(String, Option<Side>, bool)> = Vec::new();
    for s in ["G2", "F6", "G10", "F14"] {
        want.push((s.into(), Some(RED), false));
    }
    for s in ["K3", "K8", "K13"] {
        want.push((s.into(), None, s == "K8"));
    }
    for s in ["P2", "O6", "P10", "O14"] {
        want.push((s.into(), Some(BLACK), false));
    }
    want.sort();
    assert_eq!(homes, want);
    assert!(g.castles().iter().all(|c| c.taken_by.is_none()));
    // the section boundaries are drawn after G and after N
    assert!(g
        .board_text()
        .contains("  6  R R . . . # . | . . . . . . . | # . . . . B B 6"));
}

/// Seed: "un pion peut prendre un maximum de cinq pions adverses": only *enemy* pawns count
/// (docs/rules/castello.md: "Jumps over one's own pawns do not count towards the five"),
/// and after the fifth capture the move ends even if a jump over one's own pawn is open.
#[test]
fn own_pawns_jumped_do_not_count_towards_the_five() {
    // Black on A5 jumps its own B5, then five red pawns: six jumps, five captures.
    let mut pieces = vec![("A5", 'b'), ("B5", 'b'), ("U15", 'b')];
    for s in ["D5", "F5", "H5", "J5", "L5"] {
        pieces.push((s, 'r'));
    }
    let g = pos(&pieces, BLACK);
    let mut a = g.clone();
    let ev = play(&mut a, BLACK, "A5-C5-E5-G5-I5-K5-M5").unwrap();
    assert!(matches!(&ev[0], Event::Moved { captured, path, .. }
        if captured.len() == 5 && path.len() == 7));
    assert_eq!(a.pawns_taken(BLACK), 5);
    assert_eq!(
        a.cell(sq("B5")),
        Cell::Pawn {
            seat: BLACK,
            moved: true
        },
        "own pawn stays"
    );
    // Five reds first, then an own pawn to jump: the move ends behind the fifth.
    let mut pieces = vec![("A5", 'b'), ("L5", 'b'), ("U15", 'b')];
    for s in ["B5", "D5", "F5", "H5", "J5"] {
        pieces.push((s, 'r'));
    }
    let h = pos(&pieces, BLACK);
    let e = play(&mut h.clone(), BLACK, "A5-C5-E5-G5-I5-K5-M5").unwrap_err();
    assert!(e.message.contains("fifth"), "{}", e.message);
    let mut b = h.clone();
    play(&mut b, BLACK, "A5-C5-E5-G5-I5-K5").unwrap();
    assert_eq!(b.pawns_taken(BLACK), 5);
}

/// Seed: "Lors de son premier mouvement, un pion peut être déplacé de deux cases, ensuite,
/// tout pion ne sera déplacé que d'une seule case": a jump is the pawn's first move too
/// (docs/rules/castello.md §Moves), and a pawn never steps onto a castle.
#[test]
fn a_jump_uses_up_the_first_move_and_no_pawn_steps_onto_a_castle() {
    let mut g = pos(&[("E8", 'R'), ("E9", 'r'), ("F5", 'R'), ("U1", 'b')], RED);
    play(&mut g, RED, "E8-E10").unwrap();
    assert_eq!(
        g.cell(sq("E10")),
        Cell::Pawn {
            seat: RED,
            moved: true
        }
    );
    // F6 is a castle of Red's home: no step onto it, and not two squares over it.
    assert!(!legal(&g, "F5").iter().any(|m| m == "F5-F6" || m == "F5-F7"));
}
