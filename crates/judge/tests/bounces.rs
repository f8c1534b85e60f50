//! Bounces, as Mailman reads them: delivery status notifications about the judge's own
//! mail count against the address that did not get it; at `bounces_before_stop` hard
//! bounces it gets no more mail and the game master is told once; its next mail lifts it.

mod common;
use common::*;

/// A Postfix-like DSN: the mail `original` to `to` failed with `status`.
fn dsn(w: &mut World, original: &str, to: &str, status: &str) -> Inbound {
    let mut m = w.inbound(
        "mailer-daemon@mx.example.net",
        "Undelivered Mail Returned to Sender",
        "I'm sorry to have to inform you that your message could not be delivered.",
    );
    m.automatic = Some("bounce: multipart/report (delivery status notification)".into());
    m.bounce = Some(Dsn {
        original_message_id: Some(original.into()),
        recipients: vec![DsnRecipient {
            address: to.into(),
            action: "failed".into(),
            status: status.into(),
        }],
    });
    m
}

/// Anna's press: every other player and the game master are sent one.
fn press(w: &mut World, pw: &str) -> Vec<Outbound> {
    w.send(
        ANNA,
        "press",
        &format!("GAME race-1 {pw}\nPRESS Fine weather."),
    )
}

#[test]
fn three_hard_bounces_stop_the_mail_until_the_address_writes() {
    let mut w = World::new(judge());
    let created = started(&mut w);
    let (anna_pw, _) = creds(&created, ANNA);
    let (bob_pw, _) = creds(&created, BOB);
    let ours = to(&created, BOB)[0].message_id.clone();
    assert!(ours.ends_with("@example.org>"), "{ours}");

    // A soft bounce and a DSN about a mail that is not the judge's count nothing; two
    // hard bounces are not enough. None is answered.
    for (original, status) in [
        (ours.as_str(), "4.2.2"),
        ("<forged@elsewhere.example>", "5.1.1"),
        (ours.as_str(), "5.1.1"),
        (ours.as_str(), "5.1.1"),
    ] {
        let m = dsn(&mut w, original, BOB, status);
        assert!(w.deliver(&m).is_empty());
    }
    assert_eq!(
        to(&press(&mut w, &anna_pw), BOB).len(),
        1,
        "Bob still gets mail"
    );

    // The third: the game master is told, once, and Bob gets nothing more.
    let m = dsn(&mut w, &ours, BOB, "5.1.1");
    let out = w.deliver(&m);
    assert_eq!(out.len(), 1, "{out:#?}");
    assert_eq!(out[0].to, GM);
    assert!(
        out[0].body.contains("came back undelivered 3 times"),
        "{}",
        out[0].body
    );
    assert!(out[0].body.contains(BOB));
    let out = press(&mut w, &anna_pw);
    assert!(to(&out, BOB).is_empty(), "{out:#?}");
    assert_eq!(to(&out, GM).len(), 1);
    let m = dsn(&mut w, &ours, BOB, "5.1.1");
    assert!(w.deliver(&m).is_empty(), "the game master is told once");

    // Bob writes: he is answered, and mail flows to him again.
    let out = w.send(BOB, "hello", &format!("GAME race-1 {bob_pw}\nHELP"));
    assert_eq!(to(&out, BOB).len(), 1);
    assert_eq!(to(&press(&mut w, &anna_pw), BOB).len(), 1);
}

#[test]
fn bounces_are_not_counted_when_the_key_is_zero() {
    let mut w = World::new(judge_with(JudgeConfig {
        bounces_before_stop: 0,
        ..config()
    }));
    let created = started(&mut w);
    let (anna_pw, _) = creds(&created, ANNA);
    let ours = to(&created, BOB)[0].message_id.clone();
    for _ in 0..5 {
        let m = dsn(&mut w, &ours, BOB, "5.1.1");
        assert!(w.deliver(&m).is_empty());
    }
    assert_eq!(to(&press(&mut w, &anna_pw), BOB).len(), 1);
}
