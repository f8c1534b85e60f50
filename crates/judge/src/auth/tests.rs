//! The checking of credentials (check.rs), on a bench: a game's header in the memory
//! store, credentials as a mail gives them.

use super::*;
use crate::run::{Ctx, Run};
use crate::store::Store;
use crate::testing::{game, Bench, GM, SEATS};

fn credentials(password: Option<&str>, tokens: &[&str]) -> Ctx {
    Ctx {
        password: password.map(str::to_string),
        tokens: tokens.iter().map(|t| t.to_string()).collect(),
        ..Default::default()
    }
}

/// Judge `ctx` from `from` on game `id` in `run`.
fn judged(run: &mut Run<'_>, id: &str, ctx: &Ctx, from: &str) -> Result<Who, AuthError> {
    run.with_game(id, |run, g| run.auth(g, ctx, from))
        .unwrap()
        .expect("the game is stored")
        .unwrap()
}

fn bench() -> Bench {
    let bench = Bench::new();
    bench.holds(game("castle-1"));
    bench.holds(game("castle-2"));
    bench
}

#[test]
fn a_seats_token_or_password_proves_the_seat_and_the_game_masters_the_game_master() {
    let bench = bench();
    let (_, alice, alice_pw, alice_tok) = SEATS[0];
    let mut run = bench.run();
    let who = judged(
        &mut run,
        "castle-1",
        &credentials(None, &[alice_tok]),
        alice,
    );
    assert_eq!(
        who,
        Ok(Who {
            seat: Some(0),
            gm: false
        })
    );
    let mut run = bench.run();
    let who = judged(
        &mut run,
        "castle-1",
        &credentials(Some(alice_pw), &[]),
        alice,
    );
    assert_eq!(
        who,
        Ok(Who {
            seat: Some(0),
            gm: false
        })
    );
    assert!(run.authenticated);
    let mut run = bench.run();
    let who = judged(&mut run, "castle-1", &credentials(Some(GM.1), &[]), GM.0);
    assert_eq!(
        who,
        Ok(Who {
            seat: None,
            gm: true
        })
    );
    // Another seat's token is no proof of this one.
    let mut run = bench.run();
    let bob = SEATS[1].1;
    let who = judged(&mut run, "castle-1", &credentials(None, &[alice_tok]), bob);
    assert!(
        matches!(who, Err(AuthError::WrongCredentials { .. })),
        "{who:?}"
    );
}

#[test]
fn an_address_with_no_seat_is_refused_unchecked_and_counts_no_try() {
    let bench = bench();
    let mut run = bench.run();
    let ctx = credentials(Some("guess"), &["guess"]);
    let who = judged(&mut run, "castle-1", &ctx, "mallory@example.org");
    assert!(matches!(who, Err(AuthError::NotInGame { .. })), "{who:?}");
    assert!(!run.failed_try);
    let who = judged(&mut run, "castle-1", &credentials(None, &[]), SEATS[0].1);
    assert!(
        matches!(who, Err(AuthError::NoCredentials { .. })),
        "{who:?}"
    );
}

#[test]
fn one_wrong_try_closes_the_mail_to_every_other_credential() {
    let bench = bench();
    let (_, alice, alice_pw, alice_tok) = SEATS[0];
    let mut run = bench.run();
    let wrong = credentials(Some("not-hers"), &[]);
    let who = judged(&mut run, "castle-1", &wrong, alice);
    assert!(
        matches!(who, Err(AuthError::WrongCredentials { .. })),
        "{who:?}"
    );
    // The right password for the same game, then the right token for another game:
    // neither is checked in this mail.
    let right = credentials(Some(alice_pw), &[]);
    let who = judged(&mut run, "castle-1", &right, alice);
    assert!(
        matches!(who, Err(AuthError::OneTryPerMail { .. })),
        "{who:?}"
    );
    let who = judged(
        &mut run,
        "castle-2",
        &credentials(None, &[alice_tok]),
        alice,
    );
    assert!(
        matches!(who, Err(AuthError::OneTryPerMail { .. })),
        "{who:?}"
    );
    // The same wrong credential again is the same verdict, not a second try.
    let who = judged(&mut run, "castle-1", &wrong, alice);
    assert!(
        matches!(who, Err(AuthError::WrongCredentials { .. })),
        "{who:?}"
    );
    let failures = run.failures(&failures_key("castle-1", Some(0))).unwrap();
    assert_eq!(failures.count, 1);
}

#[test]
fn ten_wrong_passwords_lock_the_seat_and_tell_its_player_and_the_game_master_once() {
    let bench = bench();
    let (_, alice, alice_pw, alice_tok) = SEATS[0];
    let mut told = Vec::new();
    for n in 1..=MAX_FAILED_TRIES + 2 {
        let mut run = bench.run();
        let ctx = credentials(Some(&format!("guess-{n}")), &[]);
        let who = judged(&mut run, "castle-1", &ctx, alice);
        let expected_locked = n > MAX_FAILED_TRIES;
        assert_eq!(
            matches!(who, Err(AuthError::Locked { .. })),
            expected_locked,
            "try {n}: {who:?}"
        );
        let changes = bench.finish(run);
        told.extend(changes.outbox.into_iter().map(|m| (n, m.to)));
    }
    assert_eq!(
        told,
        [
            (MAX_FAILED_TRIES, alice.to_string()),
            (MAX_FAILED_TRIES, GM.0.to_string())
        ]
    );
    // Locked, the right password alone is not checked; with the seat's token it is.
    let mut run = bench.run();
    let who = judged(
        &mut run,
        "castle-1",
        &credentials(Some(alice_pw), &[]),
        alice,
    );
    assert!(matches!(who, Err(AuthError::Locked { .. })), "{who:?}");
    let mut run = bench.run();
    let both = credentials(Some(alice_pw), &[alice_tok]);
    assert_eq!(
        judged(&mut run, "castle-1", &both, alice).map(|w| w.seat),
        Ok(Some(0))
    );
    // Another seat's password is not locked by them.
    let (_, bob, bob_pw, _) = SEATS[1];
    let mut run = bench.run();
    let who = judged(&mut run, "castle-1", &credentials(Some(bob_pw), &[]), bob);
    assert_eq!(who.map(|w| w.seat), Ok(Some(1)));
}

#[test]
fn a_seat_in_civil_disorder_is_back_the_moment_its_player_proves_it() {
    let bench = Bench::new();
    let mut rec = game("castle-1");
    rec.seats[0].disorder = true;
    rec.seats[0].misses = 3;
    bench.holds(rec);
    let (_, alice, _, alice_tok) = SEATS[0];
    let mut run = bench.run();
    assert!(judged(
        &mut run,
        "castle-1",
        &credentials(None, &[alice_tok]),
        alice
    )
    .is_ok());
    bench.finish(run);
    let rec = bench.store.game_header("castle-1").unwrap().unwrap();
    assert!(!rec.seats[0].disorder);
    assert_eq!(rec.seats[0].misses, 0);
}
