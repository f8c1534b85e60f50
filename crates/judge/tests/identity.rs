//! "Identity as DMARC means it" and "Names that cannot pass for another's", as attacks:
//! each test is one attack, written so that it failed on the main branch before the fix.
//! The mail layer's half (one From address, no Reply-To or Sender, addresses refused at
//! parse) is in crates/mail/tests/identity.rs.

mod common;
use common::*;

const MX: &str = "mx.judge.example";

fn trusting() -> Judge {
    judge_with(JudgeConfig {
        trusted_authserv_ids: vec![MX.into()],
        ..config()
    })
}

/// Anna's orders with her right password, carrying `results` (an `Authentication-Results`
/// value from the trusted server): whether they were applied, and the mail's changes.
fn anna_orders_with(results: &str) -> (bool, Changes) {
    let mut w = World::new(trusting());
    let created = started(&mut w);
    let (pw, _) = creds(&created, ANNA);
    let before = w.game("race-1");
    let mut m = w.inbound(ANNA, "orders", &format!("GAME race-1 {pw}\nADD 1"));
    m.authentication_results = vec![AuthenticationResults::parse(results).unwrap()];
    let c = w.j.handle(&w.store, &m, &env(w.now + 60)).unwrap();
    w.store.commit(&c).unwrap();
    let applied = w.game("race-1") != before;
    if !applied {
        assert!(c.outbox.is_empty(), "a dropped mail is not answered");
    }
    (applied, c)
}

fn logged(c: &Changes, what: &str) -> bool {
    c.log.iter().any(|l| l.text.contains(what))
}

/// "`spf=fail; dkim=none; dmarc=none` is accepted": SPF fails and DMARC does not pass, so
/// the mail is dropped (not read, not answered).
#[test]
fn spf_fail_with_dmarc_none_is_dropped() {
    let (applied, c) = anna_orders_with(&format!(
        "{MX}; spf=fail smtp.mailfrom=anna@example.org; dkim=none; dmarc=none"
    ));
    assert!(!applied);
    assert!(logged(&c, "forged sender (spf=fail"), "{:#?}", c.log);
}

/// "an unaligned `dkim=pass header.d=evil.example` counts": a DKIM signature of another
/// domain than the From's does not vouch for the From.
#[test]
fn an_unaligned_dkim_pass_does_not_count() {
    let (applied, c) = anna_orders_with(&format!(
        "{MX}; spf=fail smtp.mailfrom=anna@example.org; dkim=pass header.d=evil.example"
    ));
    assert!(!applied);
    assert!(logged(&c, "forged sender (spf=fail"), "{:#?}", c.log);
    assert!(logged(&c, "evil.example"), "{:#?}", c.log);
}

/// DKIM aligned with the From domain (the same domain, or a parent of it) is what DMARC
/// would call a pass: the mail is read though SPF fails (a forwarded mail).
#[test]
fn an_aligned_dkim_pass_counts_as_dmarc_would() {
    let (applied, _) = anna_orders_with(&format!(
        "{MX}; spf=fail smtp.mailfrom=list.example; dkim=fail header.d=evil.example; dkim=pass (2048-bit key) header.d=example.org header.s=s1"
    ));
    assert!(applied);
    let (applied, _) =
        anna_orders_with(&format!("{MX}; spf=fail; dkim=pass header.i=@Example.ORG"));
    assert!(applied);
}

/// "with two From headers DMARC judged the first and the judge uses the last": a DMARC
/// pass for another domain than the From's vouches for nothing, and the mail is dropped.
#[test]
fn a_dmarc_pass_for_another_from_domain_is_dropped() {
    let (applied, c) = anna_orders_with(&format!(
        "{MX}; spf=pass smtp.mailfrom=evil.example; dkim=pass header.d=evil.example; dmarc=pass header.from=evil.example"
    ));
    assert!(!applied);
    assert!(
        logged(&c, "forged sender (dmarc=pass for evil.example"),
        "{:#?}",
        c.log
    );
    // The same pass for the From's own domain is read.
    let (applied, _) = anna_orders_with(&format!(
        "{MX}; spf=pass; dkim=pass header.d=example.org; dmarc=pass header.from=example.org"
    ));
    assert!(applied);
}

/// A verdict in a comment is no verdict: `(dkim=pass header.d=example.org)` is not read.
#[test]
fn a_verdict_inside_a_comment_is_not_read() {
    let (applied, _) = anna_orders_with(&format!(
        "{MX}; spf=fail (dkim=pass header.d=example.org; dmarc=pass) smtp.mailfrom=example.org"
    ));
    assert!(!applied);
}

/// "`\u212Aate@` (Kelvin sign) folds into kate@ and lifts her STOP": an address whose
/// compatibility folding makes it another address is refused, not judged and not answered.
#[test]
fn a_kelvin_sign_address_does_not_pass_for_kate() {
    let mut w = World::new(judge_with(JudgeConfig {
        confirm_addresses: true,
        ..config()
    }));
    let kate = "kate@example.org";
    let out = w.send(kate, "stop", "STOP");
    assert!(reply_to(&out, kate).body.contains("sends no more mail"));
    let m = w.inbound("\u{212A}ate@example.org", "hi", "HELP");
    let c = w.j.handle(&w.store, &m, &env(w.now + 60)).unwrap();
    assert!(c.outbox.is_empty(), "{:#?}", c.outbox);
    assert!(c.senders.is_empty(), "{:#?}", c.senders);
    assert!(logged(&c, "refused"), "{:#?}", c.log);
    // Nor may a CREATE name such an address for a seat.
    let out = w.send(
        GM,
        "new",
        "CREATE race player=Kate:\u{212A}ate@example.org player=Bob:bob@example.org",
    );
    assert!(to(&out, kate).is_empty(), "{out:#?}");
    assert!(reply_to(&out, GM).body.contains("player="), "{out:#?}");
    assert!(w.store.game("race-1").unwrap().is_none());
}

/// What an address cannot hold: the mail is refused, whatever it says.
#[test]
fn addresses_with_what_an_address_cannot_hold_are_refused() {
    for bad in [
        "anna\u{202E}@example.org",
        "an\u{200B}na@example.org",
        "anna @example.org",
        "anna@exa mple.org",
        "an\u{7}na@example.org",
        "ａｎｎａ@example.org",
        "anna@example.org\u{FEFF}",
        "\"an na\"@example.org",
        "anna@@example.org",
        "failed-tries/race-1/seat-0",
    ] {
        let mut w = World::new(judge());
        let out = w.send(bad, "hi", "HELP");
        assert!(out.is_empty(), "{bad:?}: {out:#?}");
    }
    // A canonical address: domain and local part in lower case, as today.
    let mut w = World::new(judge());
    let out = w.send("Anna@EXAMPLE.org", "hi", "HELP");
    assert!(!to(&out, ANNA).is_empty(), "{out:#?}");
}

/// The seat names of race-1.
fn names(w: &World) -> Vec<String> {
    w.game("race-1")
        .seats
        .iter()
        .map(|s| s.name.clone())
        .collect()
}

/// "look-alike and invisible names (`Bob\u200b`, Cyrillic `Воb`, `B\u2060ob`, U+00AD,
/// U+FEFF) give four seats that read "Bob"": each is refused once a Bob sits.
#[test]
fn look_alike_and_invisible_names_cannot_take_a_second_bob() {
    let mut w = World::new(judge());
    let out = w.send(
        GM,
        "new",
        "CREATE race seats=2 password=open player=Bob:bob@example.org",
    );
    assert!(reply_to(&out, GM).body.contains("created"), "{out:#?}");
    for (i, name) in [
        "Bob\u{200B}",
        "\u{412}\u{43E}b",
        "B\u{2060}ob",
        "Bo\u{AD}b",
        "\u{FEFF}Bob",
        "B\u{34F}ob",
        "BOB",
        "B\u{FE00}ob",
        "Ｂｏｂ",
    ]
    .iter()
    .enumerate()
    {
        let who = format!("eve{i}@example.net");
        let out = w.send(&who, "join", &format!("JOIN race-1 open AS {name}"));
        let b = &reply_to(&out, &who).body;
        assert!(b.contains("is taken in race-1"), "{name:?}: {b}");
        assert_eq!(w.game("race-1").open_seats(), 1, "{name:?}");
    }
    assert_eq!(names(&w)[0], "Bob");
}

/// The same in one CREATE: two players whose names read alike are named twice.
#[test]
fn look_alike_names_in_one_create_are_named_twice() {
    for twin in ["Bob\u{200B}", "\u{412}\u{43E}b", "B\u{2060}ob", "\u{392}ob"] {
        let mut w = World::new(judge());
        let out = w.send(
            GM,
            "new",
            &format!("CREATE race player=Bob:bob@example.org player={twin}:eve@example.net"),
        );
        let b = &reply_to(&out, GM).body;
        assert!(b.contains("is named twice"), "{twin:?}: {b}");
        assert!(w.store.game("race-1").unwrap().is_none(), "{twin:?}");
    }
}

/// Invisible and format characters are removed from a name as it is stored.
#[test]
fn invisible_characters_are_removed_from_names() {
    let mut w = World::new(judge());
    w.send(
        GM,
        "new",
        "CREATE race player=An\u{200B}na:anna@example.org player=B\u{AD}o\u{FEFF}b\u{2060}:bob@example.org",
    );
    assert_eq!(names(&w), ["Anna", "Bob"]);
}

/// "an encoded-word name (`=?utf-8?b?4oCuQm9i?=`) puts a right-to-left override into other
/// players' subjects": the word is decoded before the name is cleaned and checked, so it
/// is "Bob" (taken when a Bob sits), and no subject carries an encoded word or an override.
#[test]
fn an_encoded_word_name_is_decoded_before_the_check() {
    let mut w = World::new(judge());
    let created = w.send(
        GM,
        "new",
        "CREATE race seats=3 password=open player=Anna:anna@example.org",
    );
    let eve = "eve@example.net";
    let joined = w.send(eve, "join", "JOIN race-1 open AS =?utf-8?b?4oCuQm9i?=");
    assert!(
        reply_to(&joined, eve).body.contains("as Bob."),
        "{joined:#?}"
    );
    assert_eq!(names(&w)[1], "Bob");
    // A second encoded Bob, in Q encoding with an invisible space, is Bob too: taken; so
    // is one encoded twice.
    let mal = "mal@example.net";
    for name in [
        "=?UTF-8?Q?B=E2=80=8Bob?=",
        "=?utf-8?q?=3D=3Futf-8=3Fb=3F4oCuQm9i=3F=3D?=",
    ] {
        let out = w.send(mal, "join", &format!("JOIN race-1 open AS {name}"));
        assert!(
            reply_to(&out, mal).body.contains("is taken"),
            "{name}: {out:#?}"
        );
    }
    // A charset the judge does not read: the name is not usable (never stored encoded).
    let out = w.send(mal, "join", "JOIN race-1 open AS =?koi8-r?b?4oCuQm9i?=");
    assert!(
        reply_to(&out, mal).body.contains("is not usable"),
        "{out:#?}"
    );
    assert_eq!(w.game("race-1").open_seats(), 1);
    w.send("carl@example.net", "join", "JOIN race-1 open AS Carl");
    assert_eq!(w.game("race-1").status, Status::Running);
    // Bob's press: Anna reads "Press from Bob", without an override or an encoded word.
    let (pw, _) = creds(&joined, eve);
    let out = w.send(eve, "press", &format!("GAME race-1 {pw}\nPRESS hello"));
    let press = to(&out, ANNA);
    assert_eq!(press.len(), 1, "{out:#?}");
    assert!(
        press[0].subject.contains("Press from Bob"),
        "{:?}",
        press[0].subject
    );
    for m in out.iter().chain(&created) {
        assert!(
            !m.subject.contains("=?") && !m.subject.contains('\u{202E}'),
            "{:?}",
            m.subject
        );
    }
}
