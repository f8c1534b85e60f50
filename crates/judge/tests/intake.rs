//! Reading a mail: duplicates, threading, authentication, loop hygiene, rate limit,
//! size; several games in one mail. Each test names the requirement it guards.

mod common;
use common::*;

/// "The same Message-ID twice is applied once and answered once."
#[test]
fn same_message_twice_applied_once() {
    let mut w = World::new(judge());
    let created = started(&mut w);
    let (pw, _) = creds(&created, ANNA);
    let m = w.inbound(ANNA, "orders", &format!("GAME race-1 {pw}\nADD 2"));
    let first = w.deliver(&m);
    assert!(!first.is_empty());
    let after = w.game("race-1");
    let second = w.j.handle(&w.store, &m, &env(w.now + 5)).unwrap();
    assert!(second.is_empty(), "{second:?}");
    assert_eq!(w.game("race-1"), after);
}

/// "Each reply has a stable Message-ID": handling the same mail on
/// the same state gives the same IDs; replies thread to the mail they answer.
#[test]
fn message_ids_are_stable_and_replies_thread() {
    let run = || {
        let mut w = World::new(judge());
        started(&mut w)
    };
    let a = run();
    let b = run();
    let ids = |v: &[Outbound]| v.iter().map(|m| m.message_id.clone()).collect::<Vec<_>>();
    assert_eq!(ids(&a), ids(&b));
    let mut unique = ids(&a);
    unique.sort();
    unique.dedup();
    assert_eq!(unique.len(), a.len(), "IDs are unique");
    assert!(a.iter().all(|m| m.message_id.ends_with("@example.org>")));
    let r = reply_to(&a, GM);
    assert_eq!(r.in_reply_to.as_deref(), Some("<m1@players.example>"));
    assert_eq!(r.references, vec!["<m1@players.example>".to_string()]);
}

/// "Wrong password ... changes nothing and gets a reply saying why".
#[test]
fn wrong_password_changes_nothing() {
    let mut w = World::new(judge());
    started(&mut w);
    let before = w.game("race-1");
    let out = w.send(ANNA, "orders", "GAME race-1 notmypassword\nADD 2");
    assert_eq!(out.len(), 1, "only the reply: {out:#?}");
    assert!(out[0].body.contains("Wrong password or token for race-1"));
    assert!(!mentions_a_card(&out[0].body));
    assert_eq!(w.game("race-1"), before);
    // No credentials at all: told how to authenticate.
    let out = w.send(ANNA, "orders", "GAME race-1\nADD 2");
    assert!(
        out[0].body.contains("no password or token"),
        "{}",
        out[0].body
    );
    assert_eq!(w.game("race-1"), before);
}

/// "Unknown game ... changes nothing and gets a reply saying why".
#[test]
fn unknown_game_changes_nothing() {
    let mut w = World::new(judge());
    let out = w.send(ANNA, "orders", "GAME race-9 pw\nADD 2");
    assert_eq!(out.len(), 1);
    assert!(
        out[0].body.contains("There is no game \"race-9\""),
        "{}",
        out[0].body
    );
    assert!(w.store.game_ids().unwrap().is_empty());
}

/// "An unknown sender ... changes nothing and gets a reply saying
/// why, revealing nothing private."
#[test]
fn unknown_sender_changes_nothing() {
    let mut w = World::new(judge());
    let created = started(&mut w);
    let (pw, token) = creds(&created, ANNA);
    let before = w.game("race-1");
    // Eve even knows Anna's password and token: not her address.
    let out = w.send(
        "eve@example.org",
        &format!("[race-1 #{token}] orders"),
        &format!("PASSWORD {pw}\nADD 3\nSTATUS"),
    );
    assert_eq!(out.len(), 1);
    assert!(
        out[0].body.contains("eve@example.org is not a player"),
        "{}",
        out[0].body
    );
    assert!(!mentions_a_card(&out[0].body), "{}", out[0].body);
    assert_eq!(w.game("race-1"), before);
}

/// "Never answer Auto-Submitted ...": marked processed, nothing
/// changes, nothing sent.
#[test]
fn automatic_mail_is_never_answered() {
    let mut w = World::new(judge());
    let created = started(&mut w);
    let (pw, _) = creds(&created, ANNA);
    let before = w.game("race-1");
    let mut m = w.inbound(ANNA, "Out of office", &format!("GAME race-1 {pw}\nADD 2"));
    m.automatic = Some("Auto-Submitted: auto-replied".into());
    let c = w.j.handle(&w.store, &m, &env(T0 + 10)).unwrap();
    assert!(c.outbox.is_empty());
    assert!(c.games.is_empty());
    assert_eq!(c.processed, vec![processed_key(&m)]);
    w.store.commit(&c).unwrap();
    assert_eq!(w.game("race-1"), before);
    // Mail from the judge's own address is not answered either (no loops).
    let out = w.send("Judge@Example.org", "x", "HELP");
    assert!(out.is_empty());
}

/// Authentication by "a per-player token the judge mails them
/// (accepted in the subject or a plus-address)".
#[test]
fn token_in_subject_or_plus_address() {
    let mut w = World::new(judge());
    let created = started(&mut w);
    let (_, token) = creds(&created, ANNA);
    let mut m = w.inbound(ANNA, "my move", "ADD 1");
    m.to = vec![format!("judge+{token}@example.org")];
    let out = w.deliver(&m);
    assert!(
        reply_to(&out, ANNA).body.contains("applied"),
        "{}",
        out[0].body
    );
    let (_, btoken) = creds(&created, BOB);
    let out = w.send(BOB, &format!("Re: [race-1 #{btoken}] Turn 2"), "add 1");
    assert!(reply_to(&out, BOB).body.contains("applied"));
    // Someone else's token from one's own address does not authenticate.
    let before = w.game("race-1");
    let out = w.send(BOB, &format!("[race-1 #{token}] x"), "ADD 1");
    assert!(reply_to(&out, BOB).body.contains("Wrong password or token"));
    assert_eq!(w.game("race-1"), before);
}

/// "One email may hold several commands and games."
#[test]
fn several_games_in_one_mail() {
    let mut w = World::new(judge());
    let c1 = started(&mut w);
    let c2 = started(&mut w);
    let (p1, _) = creds(&c1, ANNA);
    let w2: Vec<_> = c2
        .iter()
        .filter(|m| m.subject.starts_with("[race-2"))
        .cloned()
        .collect();
    let (p2, _) = creds(&w2, ANNA);
    let out = w.send(
        ANNA,
        "two games",
        &format!("game race-1 {p1}\nadd 1\ngame race-2 {p2}\nadd 3"),
    );
    let r = &reply_to(&out, ANNA).body;
    assert!(
        r.contains("Orders for race-1") && r.contains("Orders for race-2"),
        "{r}"
    );
    assert_eq!(w.game("race-1").deadline_history, 2);
    assert_eq!(w.game("race-2").deadline_history, 2);
}

/// "Per-sender rate limit; no reply storms": one warning, then
/// silence, and nothing over the limit is applied.
#[test]
fn rate_limit_warns_once() {
    let mut cfg = config();
    cfg.rate_limit_per_hour = 3;
    let mut w = World::new(judge_with(cfg));
    for _ in 0..3 {
        assert_eq!(w.send(ANNA, "HELP", "").len(), 1);
    }
    let out = w.send(ANNA, "LIST", "");
    assert_eq!(out.len(), 1);
    assert!(out[0].body.contains("Too many mails"));
    assert!(w.send(ANNA, "LIST", "").is_empty());
    // An hour later the window opens again.
    w.now += 3600;
    assert_eq!(w.send(ANNA, "LIST", "").len(), 1);
}

/// "Size cap, attachments ignored with a note in the reply".
#[test]
fn oversized_mail_and_attachments() {
    let mut w = World::new(judge());
    let mut m = w.inbound(ANNA, "x", "HELP");
    m.truncated = true;
    let out = w.deliver(&m);
    assert!(out[0].body.contains("Mail too long"));
    let mut m = w.inbound(ANNA, "x", "LIST");
    m.attachments = vec!["map.png".into()];
    let out = w.deliver(&m);
    assert!(out[0].body.contains("these were ignored: map.png"));
}

/// An HTML-only mail is read, and its writer told so once: "The HTML-only note once per
/// player", not in every answer.
#[test]
fn the_html_only_note_is_said_once_to_an_address() {
    let mut w = World::new(judge());
    let note = "no plain-text part";
    let mut m = w.inbound(ANNA, "x", "HELP");
    m.html_only = true;
    let out = w.deliver(&m);
    assert!(out[0].body.contains(note), "{}", out[0].body);
    let mut m = w.inbound(ANNA, "y", "LIST");
    m.html_only = true;
    let out = w.deliver(&m);
    assert!(out[0].body.contains("== LIST =="), "{}", out[0].body);
    assert!(!out[0].body.contains(note), "{}", out[0].body);
    // Another writer is told, once too.
    let mut m = w.inbound(BOB, "z", "LIST");
    m.html_only = true;
    assert!(w.deliver(&m)[0].body.contains(note));
}

/// "Deduplicate on Message-ID only together with the sender and a
/// digest of the content, so a squatted ID cannot drop someone else's mail": a stranger
/// sends first a mail with the Message-ID Anna's orders will carry; her orders are still
/// applied and answered, with a reply of their own Message-ID. The same mail of Anna's
/// delivered twice is still applied once.
#[test]
fn a_squatted_message_id_does_not_drop_a_players_mail() {
    let mut w = World::new(judge());
    let created = started(&mut w);
    let (pw, _) = creds(&created, ANNA);
    let mut squat = w.inbound("eve@example.org", "hi", "HELP");
    squat.message_id = "<m-anna-orders@example.org>".into();
    let eve_out = w.deliver(&squat);
    let mut orders = w.inbound(ANNA, "orders", &format!("GAME race-1 {pw}\nADD 2"));
    orders.message_id = "<m-anna-orders@example.org>".into();
    let before = w.game("race-1");
    let out = w.deliver(&orders);
    assert_ne!(w.game("race-1"), before, "Anna's orders are applied");
    let reply = reply_to(&out, ANNA);
    assert!(
        eve_out.iter().all(|m| m.message_id != reply.message_id),
        "the two replies have Message-IDs of their own"
    );
    let after = w.game("race-1");
    assert!(
        w.deliver(&orders).is_empty(),
        "a redelivery is answered once"
    );
    assert_eq!(w.game("race-1"), after, "and applied once");
}
