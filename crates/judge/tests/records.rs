//! A player's record: "Per address: games played,
//! finished, won, deadlines met and missed, resignations, and a reliability figure in the
//! manner of njudge's. Visible with `RECORD address`. A GM can require a minimum for JOIN.
//! Nothing private in it." Played on the toy race (ten wins) through `Judge::handle` and
//! `Judge::tick`, the records committed to the store like everything else.

mod common;
use common::*;

fn record(w: &World, addr: &str) -> PlayerRecord {
    w.store.record(addr).unwrap().unwrap_or_default()
}

/// Play race-1 to its end: Anna and Bob add 3 in turn (Anna's token and Bob's).
fn play_to_the_end(w: &mut World, created: &[Outbound]) {
    let (_, anna) = creds(created, ANNA);
    let (_, bob) = creds(created, BOB);
    for _ in 0..20 {
        if w.game("race-1").status == Status::Finished {
            return;
        }
        w.send(ANNA, &format!("[race-1 #{anna}]"), "ADD 3");
        w.send(BOB, &format!("[race-1 #{bob}]"), "ADD 3");
    }
    panic!("race-1 did not end");
}

#[test]
fn a_record_counts_games_deadlines_and_resignations_and_says_reliability() {
    let mut w = World::new(judge());
    let created = started(&mut w);
    assert_eq!(record(&w, ANNA).played, 1, "a started game is played");
    // Anna misses her first deadline (the default plays for her).
    let d = w.game("race-1").deadline.unwrap();
    w.tick_at(d);
    let r = record(&w, ANNA);
    assert_eq!((r.missed, r.met), (1, 0));
    assert_eq!(r.reliability(), 0);
    play_to_the_end(&mut w, &created);
    let (a, b) = (record(&w, ANNA), record(&w, BOB));
    assert_eq!((a.played, a.finished), (1, 1));
    assert_eq!((b.played, b.finished), (1, 1));
    assert_eq!(a.won + b.won, 1, "one winner: {a:?} {b:?}");
    assert!(b.met >= 2 && b.missed == 0, "{b:?}");
    assert_eq!(b.reliability(), 100);
    assert_eq!(a.reliability(), a.met * 100 / (a.met + 1));
    assert!(a.met_turns.is_empty(), "bookkeeping dropped at the end");
    // RECORD answers its own address, in its language, with counts only; another
    // address is told nothing of it (exposure.rs).
    let out = w.send(ANNA, "record", "RECORD");
    let m = reply_to(&out, ANNA);
    assert!(m.body.contains("RECORD anna@example.org"), "{}", m.body);
    assert!(
        m.body.contains("Games played: 1, finished: 1"),
        "{}",
        m.body
    );
    assert!(
        m.body
            .contains(&format!("Reliability: {}%", a.reliability())),
        "{}",
        m.body
    );
    assert!(!m.body.contains("race-1"), "no game named: {}", m.body);
    assert!(!mentions_a_card(&m.body));
    let out = w.send(BOB, "bilan", "BILAN");
    let m = reply_to(&out, BOB);
    assert!(m.body.contains("Fiabilité : 100 %"), "{}", m.body);
    let out = w.send("zed@example.org", "record", "RECORD anna@example.org");
    let m = reply_to(&out, "zed@example.org");
    assert!(
        m.body.contains("told to its own address only"),
        "{}",
        m.body
    );
    assert!(!m.body.contains("Games played"), "{}", m.body);
    // A bad address is refused, quoted, with how to write it.
    let out = w.send("zed@example.org", "record", "RECORD nobody");
    let m = reply_to(&out, "zed@example.org");
    assert!(
        m.body.contains("\"nobody\" is not a mail address"),
        "{}",
        m.body
    );
}

#[test]
fn resigning_counts_and_the_game_is_not_finished_by_the_resigner() {
    let mut w = World::new(judge());
    let created = started(&mut w);
    let (_, bob) = creds(&created, BOB);
    w.send(BOB, &format!("[race-1 #{bob}]"), "RESIGN");
    assert_eq!(record(&w, BOB).resigned, 1);
    // Anna plays on against Bob's bot to the end.
    let (_, anna) = creds(&created, ANNA);
    for _ in 0..20 {
        if w.game("race-1").status == Status::Finished {
            break;
        }
        w.send(ANNA, &format!("[race-1 #{anna}]"), "ADD 3");
    }
    assert_eq!(w.game("race-1").status, Status::Finished);
    let b = record(&w, BOB);
    assert_eq!((b.played, b.finished, b.resigned), (1, 0, 1));
    assert_eq!(record(&w, ANNA).finished, 1);
}

#[test]
fn join_needs_the_reliability_the_game_master_asked() {
    let mut w = World::new(judge());
    // Anna misses a deadline in race-1: 0 turns met, 1 missed.
    started(&mut w);
    let d = w.game("race-1").deadline.unwrap();
    w.tick_at(d);
    assert_eq!(record(&w, ANNA).reliability(), 0);
    let out = w.send(
        GM,
        "new",
        "CREATE race seats=2 password=open min-reliability=80",
    );
    assert!(out.iter().any(|m| m.body.contains("race-2")), "{out:#?}");
    assert_eq!(w.game("race-2").min_reliability, Some(80));
    let before = w.game("race-2");
    let out = w.send(ANNA, "join", "JOIN race-2 open");
    let m = reply_to(&out, ANNA);
    assert!(
        m.body
            .contains("race-2 asks players with a reliability of at least 80%; yours is 0%"),
        "{}",
        m.body
    );
    assert_eq!(w.game("race-2"), before, "nothing changed");
    // A newcomer (0/0) is perfect, as in njudge.
    let out = w.send("carl@example.org", "join", "JOIN race-2 open");
    assert!(reply_to(&out, "carl@example.org")
        .body
        .contains("You have a seat in race-2"));
    // A bad figure at CREATE is refused with how to write it.
    let out = w.send(GM, "new", "CREATE race seats=2 min-reliability=120");
    let m = reply_to(&out, GM);
    assert!(
        m.body
            .contains("min-reliability=120: write a percentage from 0 to 100"),
        "{}",
        m.body
    );
}
