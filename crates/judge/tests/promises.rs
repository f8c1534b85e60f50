//! The promises a player relies on, each shown on the toy game (the player
//! simulator, `castellan simulate --by-mail`, checks them over thousands of games).

mod common;
use common::*;

/// When a player confirmed ('Hi, count me in!') he got an error and not his pending
/// question. A seat's mail of prose only is not refused as orders: it is
/// answered with what the game asks of them and the deadline.
#[test]
fn a_confirmation_alone_gets_the_pending_question_not_an_error() {
    let mut w = World::new(judge());
    let created = started(&mut w);
    let (_, anna_token) = creds(&created, ANNA);
    let out = w.send(
        ANNA,
        &format!("Re: [race-1 #{anna_token}] Welcome"),
        "Hi, count me in!\n\nAnna",
    );
    let r = reply_to(&out, ANNA);
    assert!(!r.body.contains("refused"), "{}", r.body);
    assert!(!r.body.contains("Nothing to do"), "{}", r.body);
    assert!(r.body.contains("race-1: Anna, you are in"), "{}", r.body);
    // Anna is awaited: her reply asks her, with the deadline.
    let deadline = w.game("race-1").deadline.unwrap();
    assert!(r.body.contains("You are asked"), "{}", r.body);
    assert!(
        r.body.contains(&format_short(deadline)) || r.body.contains(&format_long(deadline)),
        "{}",
        r.body
    );
    assert_eq!(w.game("race-1").seats[0].misses, 0);
    // Bob is not awaited: told so, nothing private of Anna's.
    let (_, bob_token) = creds(&created, BOB);
    let out = w.send(
        BOB,
        &format!("Re: [race-1 #{bob_token}] Welcome"),
        "Hello! I'm in.",
    );
    let r = reply_to(&out, BOB);
    assert!(
        r.body.contains("The game waits for Anna, not for you"),
        "{}",
        r.body
    );
    assert!(!mentions_a_card(&r.body), "{}", r.body);
    // The same words without a token say nothing private and change nothing.
    let before = w.game("race-1");
    let out = w.send(ANNA, "Re: [race-1] Welcome", "Hi, count me in!");
    assert!(out.iter().all(|m| !mentions_a_card(&m.body)));
    assert_eq!(w.game("race-1").seats, before.seats);
}

/// "The game master's PROCESS before the deadline is recorded as a
/// missed deadline in the player's public RECORD". PROCESS plays the default but counts
/// no miss, and the report says the game master ended the phase.
#[test]
fn process_is_never_a_players_miss() {
    let mut w = World::new(judge());
    let created = started(&mut w);
    let (_, gm_token) = creds(&created, GM);
    let out = w.send(GM, &format!("Re: [race-1 #{gm_token}] go"), "PROCESS");
    let g = w.game("race-1");
    assert_eq!(g.seats[0].misses, 0, "PROCESS is not Anna's miss");
    assert!(!g.seats[0].disorder && !g.seats[0].bot);
    let bob = to(&out, BOB);
    assert!(
        bob.iter().any(|m| m
            .body
            .contains("The game master ended the phase early (PROCESS, not a miss): for Anna")),
        "{bob:#?}"
    );
    // Twice more: still no miss, no disorder.
    for _ in 0..2 {
        w.send(GM, &format!("Re: [race-1 #{gm_token}] go"), "PROCESS");
    }
    let g = w.game("race-1");
    assert!(
        g.seats.iter().all(|s| s.misses == 0 && !s.disorder),
        "{:?}",
        g.seats
    );
}

/// "The game does not start until every named player has confirmed";
/// a confirmation ("Bonjour, / je suis partant !") to a game still waiting for others is
/// answered with where the game stands, never "orders refused".
#[test]
fn a_named_player_confirms_and_the_game_starts_when_all_have() {
    let mut w = World::new(judge_with(JudgeConfig {
        confirm_addresses: true,
        ..config()
    }));
    let created = w.send(
        GM,
        "new game",
        "CREATE race player=Anna:anna@example.org player=Bob:bob@example.org",
    );
    let gm = reply_to(&created, GM);
    assert!(
        gm.body.contains("It starts once Anna, Bob confirm"),
        "{}",
        gm.body
    );
    let welcome = created
        .iter()
        .find(|m| m.to == ANNA)
        .expect("Anna's welcome");
    assert!(
        welcome.body.contains("The game is waiting for you"),
        "{}",
        welcome.body
    );
    assert_eq!(w.game("race-1").status, Status::Forming);
    let (_, anna_token) = creds(&created, ANNA);
    let out = w.send(
        ANNA,
        &format!("Re: [race-1 #{anna_token}] Welcome"),
        "Hello,\nCount me in!\n\nAnna",
    );
    let r = reply_to(&out, ANNA);
    assert!(!r.body.contains("refused"), "{}", r.body);
    assert!(
        r.body.contains("The game has not started yet"),
        "{}",
        r.body
    );
    assert_eq!(
        w.game("race-1").status,
        Status::Forming,
        "Bob has not confirmed"
    );
    let (_, bob_token) = creds(&created, BOB);
    let out = w.send(
        BOB,
        &format!("Re: [race-1 #{bob_token}] Welcome"),
        "I'm in.",
    );
    assert_eq!(
        w.game("race-1").status,
        Status::Running,
        "everyone confirmed"
    );
    // Anna moves first: her report asks her, Bob's reply tells him whom the game waits for.
    assert!(
        to(&out, ANNA)
            .iter()
            .any(|m| m.body.contains("You are asked")),
        "{out:#?}"
    );
    assert!(
        reply_to(&out, BOB).body.contains("race-1: Bob, you are in"),
        "{out:#?}"
    );
}

/// docs/rules/absence.md: "A first mail that says STOP confirms nothing": the named player
/// who answers the welcome with STOP does not take the seat, and the game still waits.
#[test]
fn a_first_mail_saying_stop_confirms_no_seat() {
    let mut w = World::new(judge_with(JudgeConfig {
        confirm_addresses: true,
        ..config()
    }));
    let created = w.send(
        GM,
        "new game",
        "CREATE race player=Anna:anna@example.org player=Bob:bob@example.org",
    );
    let (_, anna_token) = creds(&created, ANNA);
    w.send(
        ANNA,
        &format!("Re: [race-1 #{anna_token}] Welcome"),
        "UNSUBSCRIBE",
    );
    let g = w.game("race-1");
    assert!(g.seats[0].unconfirmed, "STOP is no confirmation");
    let (_, bob_token) = creds(&created, BOB);
    w.send(
        BOB,
        &format!("Re: [race-1 #{bob_token}] Welcome"),
        "Count me in.",
    );
    assert_eq!(
        w.game("race-1").status,
        Status::Forming,
        "Anna has not confirmed"
    );
}

/// The welcome says: "reply to this mail (any text will do, "count me in" for instance)".
/// Its own example, written as people write it (no capital, no "!"), in English and in
/// French ("j'en suis"), is a yes: never "orders refused", whether the game still waits
/// for others or has started. (Found playing the judge by mail: "count me in"
/// alone was answered "Orders for castle-1 refused".)
#[test]
fn the_welcomes_own_example_count_me_in_is_a_yes_not_refused_orders() {
    for (text, lang) in [("count me in", "en"), ("j'en suis", "fr")] {
        let mut w = World::new(judge_with(JudgeConfig {
            confirm_addresses: true,
            ..config()
        }));
        let created = w.send(
            GM,
            "new game",
            "CREATE race player=Anna:anna@example.org player=Bob:bob@example.org",
        );
        let (_, anna_token) = creds(&created, ANNA);
        let out = w.send(
            ANNA,
            &format!("Re: [race-1 #{anna_token}] Welcome"),
            &format!("{text}\n"),
        );
        not_refused(reply_to(&out, ANNA), lang);
        // The game starts without Bob; his late "count me in" is a yes too.
        let (gm_pw, _) = creds(&created, GM);
        w.send(GM, "start", &format!("GAME race-1 {gm_pw}\nSTART"));
        assert_eq!(w.game("race-1").status, Status::Running);
        let (_, bob_token) = creds(&created, BOB);
        let out = w.send(
            BOB,
            &format!("Re: [race-1 #{bob_token}] Welcome"),
            &format!("{text}\n"),
        );
        not_refused(reply_to(&out, BOB), lang);
    }
}

/// A reply in either language that refuses nothing.
fn not_refused(r: &Outbound, lang: &str) {
    assert!(
        !r.body.contains("refused") && !r.body.contains("refusé"),
        "{lang}: {}",
        r.body
    );
}
