//! Deadlines: defaults on a miss, bot stand-ins, reminders, vacation.
//! Each test names the requirement it guards.

mod common;
use common::*;

/// "On a miss, the documented defaults"; the subject
/// carries the deadline; reminders go to those who have not moved.
#[test]
fn deadline_miss_plays_the_default() {
    let mut w = World::new(judge());
    started(&mut w);
    let g = w.game("race-1");
    let deadline = g.deadline.expect("a deadline runs");
    assert_eq!(deadline, T0 + 60 + 48 * 3600);
    // Nothing before the reminder time.
    assert!(w.tick_at(deadline - 13 * 3600).is_empty());
    // Reminder 12 hours before, to Anna only, once.
    let r = w.tick_at(deadline - 12 * 3600);
    assert_eq!(r.len(), 1, "{r:#?}");
    assert_eq!(r[0].to, ANNA);
    assert!(
        r[0].body.contains("the judge plays: ADD 1"),
        "{}",
        r[0].body
    );
    assert!(w.tick_at(deadline - 11 * 3600).is_empty(), "reminded once");
    // The miss: the default ADD 1 is played and reported.
    let out = w.tick_at(deadline);
    let g = w.game("race-1");
    assert_eq!(g.seats[0].misses, 1);
    assert!(!g.seats[0].bot, "one miss is not enough for a bot");
    let public = out.iter().find(|m| m.to == GM).expect("report to the GM");
    assert!(
        public.body.contains("seat 0 adds 1, die"),
        "{}",
        public.body
    );
    assert!(
        untagged(&public.subject).starts_with("[race-1] Turn 2: Bob to move"),
        "{}",
        public.subject
    );
    assert_eq!(
        g.deadline,
        Some(deadline + 48 * 3600),
        "Bob's deadline runs from the miss"
    );
}

/// Absence: "by default a seat that misses a deadline is in civil disorder, as
/// Diplomacy judges do: its defaults are passive, every seat is told in the next report,
/// and it ends the moment the player writes"; "an active bot stand-in only when the game
/// master chooses it". Fails if the seat is handed to a bot, if the table is not told, or
/// if the player's mail does not end it.
#[test]
fn repeated_misses_put_the_seat_in_civil_disorder_until_the_player_writes() {
    let mut w = World::new(judge()); // max_misses = 2
    let created = started(&mut w);
    let (_, bob_token) = creds(&created, BOB);
    let (_, anna_token) = creds(&created, ANNA);
    // Anna misses; Bob plays; Anna misses again.
    let d1 = w.game("race-1").deadline.unwrap();
    w.tick_at(d1);
    let out = w.send(BOB, &format!("[race-1 #{bob_token}] go"), "ADD 1");
    assert!(reply_to(&out, BOB).body.contains("applied"));
    let d2 = w.game("race-1").deadline.unwrap();
    let out = w.tick_at(d2);
    let g = w.game("race-1");
    assert!(g.seats[0].disorder, "civil disorder after 2 misses");
    assert!(
        !g.seats[0].bot,
        "no bot stands in unless the game master chooses it"
    );
    let notice = to(&out, GM)
        .into_iter()
        .find(|m| untagged(&m.subject) == "[race-1] Anna is in civil disorder")
        .expect("the GM is told");
    assert!(
        notice.body.contains("missed 2 deadlines"),
        "{}",
        notice.body
    );
    // Every seat is told in its next mail.
    let bobs: Vec<_> = to(&out, BOB);
    assert!(
        bobs.iter().any(|m| m
            .body
            .contains("Anna missed deadlines in a row and is now in civil disorder")),
        "{bobs:#?}"
    );
    // From now on the default answers for Anna at once: Bob's orders come back to Bob.
    let out = w.send(BOB, &format!("[race-1 #{bob_token}] go"), "ADD 1");
    assert!(reply_to(&out, BOB).body.contains("applied"));
    if w.game("race-1").status == Status::Running {
        let g = w.game("race-1");
        assert!(
            g.missed.is_empty() || g.deadline_awaiting == vec![1],
            "Bob is awaited again (the default moved for Anna)"
        );
        // Anna writes: the disorder ends, and her seat is hers again.
        let out = w.send(
            ANNA,
            &format!("Re: [race-1 #{anna_token}] back"),
            "I'm back!",
        );
        assert!(!out.is_empty());
        assert!(
            !w.game("race-1").seats[0].disorder,
            "writing ends civil disorder"
        );
    }
}

/// "VACATION shifts deadlines within limits".
#[test]
fn vacation_shifts_the_deadline_within_limits() {
    let mut w = World::new(judge()); // 14 days a game
    let created = started(&mut w);
    let (pw, _) = creds(&created, ANNA);
    let out = w.send(ANNA, "away", &format!("GAME race-1 {pw}\nVACATION 5"));
    assert!(reply_to(&out, ANNA).body.contains("On vacation until"));
    let g = w.game("race-1");
    let until = g.seats[0].vacation_until.unwrap();
    assert_eq!(g.deadline, Some(until));
    assert!(until >= T0 + 5 * 86_400);
    // The normal deadline passes: no default.
    assert!(w.tick_at(T0 + 49 * 3600).is_empty());
    assert_eq!(w.game("race-1").seats[0].misses, 0);
    // Beyond the limit: refused, nothing changes.
    let before = w.game("race-1");
    let out = w.send(ANNA, "away", &format!("GAME race-1 {pw}\nVACATION 10"));
    assert!(
        reply_to(&out, ANNA).body.contains("9 vacation days left"),
        "{}",
        out[0].body
    );
    assert_eq!(w.game("race-1").seats, before.seats);
    // After the vacation the miss counts.
    w.tick_at(until);
    assert_eq!(w.game("race-1").seats[0].misses, 1);
}
