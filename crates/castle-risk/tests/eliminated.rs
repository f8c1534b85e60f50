//! An eliminated player is told he is out: the engine tells who
//! is out of the game, a pure function of the state (`Rules::eliminated`), and the history
//! tells when and by whom (`Session::eliminations_since`). The rule: seeds/000 ("Annexion d'un Château": "vous avez capturé le château de ce joueur et l'avez éliminé du jeu").
use castellan_castle_risk::CastleRisk as Game;
use castellan_engine::{Lang, Rules, Seat, Secret, Session, Source, Table};

/// Bots play whole games of four; after every order the seats the state calls out are
/// exactly those an event put out (each once, by a player still in), none of them is
/// asked anything again, and none is placed above a player still in by the game's measure.
#[test]
fn the_seats_out_are_those_the_history_put_out_and_none_is_asked_again() {
    let mut games_with_a_seat_out_midway = 0;
    for g in 0..4 {
        let id = format!("eliminated-{g}");
        let names: Vec<String> = ["Anna", "Bob", "Carol", "Dan"].map(String::from).to_vec();
        let mut t = Table::<Game>::new(
            &id,
            Secret::derive(id.as_bytes()),
            names,
            Default::default(),
        )
        .expect("setup");
        let mut out: Vec<Seat> = Vec::new();
        let mut orders = 0;
        while t.state.outcome().is_none() {
            orders += 1;
            assert!(orders < 400_000, "{id}: no end");
            let seat = t.state.pending(Lang::En)[0].seat;
            let before = t.history_len();
            let order = t.bot_order(seat);
            t.apply(seat, order, Source::Bot)
                .expect("a bot order is legal");
            for e in Session::eliminations_since(&t, before) {
                assert_eq!(e.entry, before, "{id}: the entry that put the seat out");
                assert!(!out.contains(&e.seat), "{id}: seat {} out twice", e.seat);
                let by = e.by.expect("the game says who put the seat out");
                assert!(by != e.seat && !out.contains(&by), "{id}: put out by {by}");
                out.push(e.seat);
                if t.state.outcome().is_none() {
                    games_with_a_seat_out_midway += 1;
                }
            }
            let mut sorted = out.clone();
            sorted.sort_unstable();
            assert_eq!(
                Session::eliminated(&t),
                sorted,
                "{id}: after order {orders}"
            );
            for p in t.state.pending(Lang::En) {
                assert!(
                    !out.contains(&p.seat),
                    "{id}: seat {} out but asked",
                    p.seat
                );
            }
        }
        // The whole history, read again, tells the same seats in the same order.
        let all: Vec<Seat> = Session::eliminations_since(&t, 0)
            .iter()
            .map(|e| e.seat)
            .collect();
        assert_eq!(all, out, "{id}");
        // The measure: one entry a seat; a seat out holds nothing.
        let m = Session::measure(&t).expect("a measure");
        assert_eq!(m.len(), 4);
        for s in &out {
            assert!(
                m[*s].iter().all(|x| *x == 0),
                "{id}: seat {s} out: {:?}",
                m[*s]
            );
        }
    }
    assert!(
        games_with_a_seat_out_midway > 0,
        "no game put a seat out before its end: the test checks nothing"
    );
}
