//! Security, as attacks: each test is one attack (its name says which), written so that it
//! failed on the main branch before the fix.

mod common;
use common::*;

fn reply_bytes(out: &[Outbound], to: &str) -> usize {
    reply_to(out, to).body.len() + reply_to(out, to).subject.len()
}

/// "An 8 KB mail of 500 STATUS lines brings a 1.35 MB reply."
#[test]
fn five_hundred_status_lines_bring_a_bounded_reply() {
    let mut w = World::new(judge());
    started(&mut w);
    let body = "STATUS race-1\n".repeat(500);
    let request = body.len() + "status".len() + GM.len();
    let out = w.send(GM, "status", &body);
    let got = reply_bytes(&out, GM);
    assert!(got <= 64 * 1024, "reply of {got} bytes");
    assert!(got <= 10 * request, "reply of {got} bytes to {request}");
    let b = &reply_to(&out, GM).body;
    assert!(b.contains("at most 20 commands: line 21"), "{b}");
    // Nothing but the reply: no report, no mail to anyone else.
    assert_eq!(out.len(), 1);
}

/// The reply's own bound: twenty commands whose answers are long are cut at the budget,
/// and the reply names what it left out.
#[test]
fn a_reply_over_its_budget_names_what_it_left_out() {
    let mut w = World::new(judge_with(JudgeConfig {
        max_reply_bytes: 4096,
        ..config()
    }));
    started(&mut w);
    let out = w.send(GM, "help", &"HELP\n".repeat(20));
    let b = &reply_to(&out, GM).body;
    assert!(b.len() <= 4096 + 512, "{}", b.len());
    assert!(b.contains("Reply cut"), "{b}");
    assert!(b.contains("answers were left out"), "{b}");
}

/// "PRESS ignores `max_lines`."
#[test]
fn press_longer_than_max_lines_is_refused() {
    let mut w = World::new(judge_with(JudgeConfig {
        max_lines: 10,
        ..config()
    }));
    let created = started(&mut w);
    let (pw, _) = creds(&created, ANNA);
    let press: String = (0..50).map(|i| format!("spam line {i}\n")).collect();
    let out = w.send(
        ANNA,
        "press",
        &format!("GAME race-1 {pw}\nPRESS\n{press}ENDPRESS\n"),
    );
    assert!(to(&out, BOB).is_empty(), "{out:#?}");
    let b = &reply_to(&out, ANNA).body;
    assert!(b.contains("longer than 10 lines"), "{b}");
}

/// "Raw NUL and ESC bytes are passed on in PRESS (as 7bit)."
#[test]
fn nul_and_esc_bytes_in_press_are_not_passed_on() {
    let mut w = World::new(judge());
    let created = started(&mut w);
    let (pw, _) = creds(&created, ANNA);
    let out = w.send(
        ANNA,
        "press",
        &format!("GAME race-1 {pw}\nPRESS hello\u{0}\u{1b}[2J\u{202E}dlrow\u{85}!\n"),
    );
    let press = to(&out, BOB);
    assert_eq!(press.len(), 1, "{out:#?}");
    let b = &press[0].body;
    assert!(b.contains("hello[2Jdlrow!"), "{b}");
    assert!(
        !b.chars()
            .any(|c| (c.is_control() && c != '\n') || c == '\u{202E}'),
        "{b:?}"
    );
}

/// "player names of 3,000 characters ... are accepted."
#[test]
fn a_player_name_of_3000_characters_is_refused() {
    let mut w = World::new(judge());
    let long = "N".repeat(3000);
    let out = w.send(
        GM,
        "new",
        &format!("CREATE race player={long}:anna@example.org player=Bob:bob@example.org"),
    );
    let b = &reply_to(&out, GM).body;
    assert!(b.contains("a name has 1 to 32 characters"), "{b}");
    assert!(b.len() < 2000, "the name is not quoted whole: {}", b.len());
    assert!(w.store.game("race-1").unwrap().is_none());
    // JOIN ... AS a long name: refused too.
    let out = w.send(
        GM,
        "new",
        "CREATE race seats=2 password=open player=Bob:bob@example.org",
    );
    assert!(reply_to(&out, GM).body.contains("created"));
    let out = w.send(ANNA, "join", &format!("JOIN race-1 open AS {long}"));
    let b = &reply_to(&out, ANNA).body;
    assert!(b.contains("is not usable"), "{b}");
    assert_eq!(w.game("race-1").open_seats(), 1);
}

/// "names with a right-to-left override are all accepted": the override is stripped.
#[test]
fn a_right_to_left_override_is_stripped_from_a_name() {
    let mut w = World::new(judge());
    w.send(
        GM,
        "new",
        "CREATE race player=Ann\u{202E}a:anna@example.org player=B\u{1b}ob:bob@example.org",
    );
    let g = w.game("race-1");
    let names: Vec<&str> = g.seats.iter().map(|s| s.name.as_str()).collect();
    assert_eq!(names, ["Anna", "Bob"]);
}

/// "A 1 MB body is refused whole, when the HELP in its first line should be answered."
#[test]
fn a_1_mb_body_is_read_up_to_its_bound_and_answered() {
    let mut w = World::new(judge());
    let body = format!("HELP\n{}", "x".repeat(99) + "\n").repeat(1)
        + &("y".repeat(99) + "\n").repeat(10_000);
    assert!(body.len() > 1_000_000);
    let out = w.send(ANNA, "help", &body);
    let b = &reply_to(&out, ANNA).body;
    assert!(b.contains("Mail too long"), "{b}");
    // 65,536 bytes hold the HELP line and 655 whole lines of 100 bytes.
    assert!(b.contains("only its first 656 lines were read"), "{b}");
    assert!(
        b.contains("== HELP =="),
        "the HELP of the first line is answered: {b}"
    );
    assert!(out.iter().all(|m| m.body.len() <= 64 * 1024));
}

// ------------------------------------------------------------ impersonation and lockout

fn mail_from(w: &mut World, from: &str, subject: &str, body: &str) -> Inbound {
    w.inbound(from, subject, body)
}

/// "Mails with a forged From use up the real player's rate limit, so the real player is
/// locked out." Target: a genuine player's mail is accepted after 1,000 forged ones.
#[test]
fn forged_mails_do_not_use_up_the_real_players_rate_limit() {
    let mut w = World::new(judge());
    let created = started(&mut w);
    let (_, token) = creds(&created, ANNA);
    let mut notices = 0;
    for i in 0..1000 {
        let body = format!("GAME race-1 guess{i}\nADD 1");
        let m = mail_from(&mut w, ANNA, "orders", &body);
        let out = w.deliver(&m);
        notices += to(&out, GM).len();
    }
    let before = w.game("race-1");
    assert_eq!(before.table, started_table(&mut World::new(judge())));
    let out = w.send(ANNA, &format!("[race-1 #{token}] orders"), "ADD 2");
    let b = &reply_to(&out, ANNA).body;
    assert!(b.contains("1 order line applied"), "{b}");
    // The game master heard once an hour that the seat's password was being guessed: the
    // 1,000 mails, a minute apart, span 17 hours.
    assert_eq!(notices, 17);
}

/// The table of a fresh race-1, to compare with.
fn started_table(w: &mut World) -> Option<castellan_engine::StoredTable> {
    started(w);
    w.game("race-1").table
}

/// "One mail can try about 250 passwords."
#[test]
fn one_mail_tries_one_password() {
    let mut w = World::new(judge());
    let created = started(&mut w);
    let (pw, _) = creds(&created, ANNA);
    let mut body = String::new();
    for i in 0..5 {
        body.push_str(&format!("GAME race-1 guess{i}\nADD 1\n"));
    }
    body.push_str(&format!("GAME race-1 {pw}\nADD 1\n"));
    let before = w.game("race-1");
    let out = w.send(ANNA, "orders", &body);
    let b = &reply_to(&out, ANNA).body;
    assert!(b.contains("one password or token"), "{b}");
    assert!(!b.contains("applied"), "{b}");
    assert_eq!(w.game("race-1").table, before.table);
}

/// At most 10 failed password tries per seat per hour; then the password is not checked
/// (even the right one), the token still works, and the game master is told once.
#[test]
fn a_seats_password_locks_after_ten_failed_tries_in_an_hour() {
    let mut w = World::new(judge());
    let created = started(&mut w);
    let (pw, token) = creds(&created, ANNA);
    let mut told = Vec::new();
    for i in 0..12 {
        let out = w.send(ANNA, "orders", &format!("GAME race-1 guess{i}\nADD 1"));
        told.extend(to(&out, GM).into_iter().cloned());
    }
    assert_eq!(told.len(), 1, "{told:#?}");
    assert!(
        told[0].body.contains("10 wrong passwords"),
        "{}",
        told[0].body
    );
    let out = w.send(ANNA, "orders", &format!("GAME race-1 {pw}\nADD 1"));
    let b = &reply_to(&out, ANNA).body;
    assert!(
        b.contains("passwords are not checked until the hour is over"),
        "{b}"
    );
    let out = w.send(ANNA, &format!("[race-1 #{token}] orders"), "ADD 1");
    assert!(reply_to(&out, ANNA).body.contains("applied"));
    // An hour later the password works again.
    w.now += 3600;
    let out = w.send(BOB, "orders", "HELP");
    assert!(!out.is_empty());
    let (bob_pw, _) = creds(&created, BOB);
    let out = w.send(BOB, "orders", &format!("GAME race-1 {bob_pw}\nADD 1"));
    assert!(reply_to(&out, BOB).body.contains("applied"));
    let out = w.send(ANNA, "orders", &format!("GAME race-1 {pw}\nADD 1"));
    assert!(
        reply_to(&out, ANNA).body.contains("applied"),
        "{}",
        reply_to(&out, ANNA).body
    );
}

/// "Passwords are kept as one round of salted SHA-256": the judge's own passwords are
/// kept by keyed hash (Argon2id is for the secrets people choose), and an old
/// hash is replaced by one at the next good login.
#[test]
fn generated_passwords_are_kept_by_keyed_hash_and_old_hashes_upgraded() {
    let mut w = World::new(judge());
    let created = started(&mut w);
    let (pw, _) = creds(&created, ANNA);
    let mut g = w.game("race-1");
    assert!(g.seats[0].password_hash.starts_with("hmac-sha256$"));
    assert!(g.gm_password_hash.starts_with("hmac-sha256$"));
    // A game stored before: its hashes are SHA-256 of "salt:password".
    let old = hex::encode(castellan_engine::dice::sha256(
        format!("{}:{pw}", g.salt).as_bytes(),
    ));
    g.seats[0].password_hash = old.clone();
    w.store
        .commit(&Changes {
            games: vec![g.stored()],
            ..Default::default()
        })
        .unwrap();
    let out = w.send(ANNA, "orders", &format!("GAME race-1 {pw}\nADD 1"));
    assert!(reply_to(&out, ANNA).body.contains("applied"));
    let h = w.game("race-1").seats[0].password_hash.clone();
    assert!(h.starts_with("hmac-sha256$"), "{h}");
    // And it still opens.
    let out = w.send(ANNA, "status", &format!("GAME race-1 {pw}\nSTATUS race-1"));
    assert!(!reply_to(&out, ANNA).body.contains("Wrong password"));
}

/// "`creators` trusts the From header."
#[test]
fn creators_is_not_fooled_by_a_forged_from() {
    let mut w = World::new(judge_with(JudgeConfig {
        creators: vec![GM.into()],
        creator_password: "s3cret-creator".into(),
        ..config()
    }));
    let out = w.send(
        GM,
        "new",
        "CREATE race player=Anna:anna@example.org player=Bob:bob@example.org",
    );
    let b = &reply_to(&out, GM).body;
    assert!(b.contains("creator password"), "{b}");
    assert!(w.store.game("race-1").unwrap().is_none());
    let out = w.send(
        GM,
        "new",
        "PASSWORD wrong\nCREATE race player=Anna:anna@example.org player=Bob:bob@example.org\nPASSWORD s3cret-creator\nCREATE race player=Anna:anna@example.org player=Bob:bob@example.org",
    );
    assert!(
        w.store.game("race-1").unwrap().is_none(),
        "one try per mail: {out:#?}"
    );
    let out = w.send(
        GM,
        "new",
        "PASSWORD s3cret-creator\nCREATE race player=Anna:anna@example.org player=Bob:bob@example.org",
    );
    assert!(reply_to(&out, GM).body.contains("is created"));
}

/// Authentication-Results from a trusted server: a From it calls forged is not answered
/// (the judge mails nobody) and changes nothing; a header from another server is ignored.
#[test]
fn a_sender_the_receiving_server_calls_forged_is_not_answered() {
    let mut w = World::new(judge_with(JudgeConfig {
        trusted_authserv_ids: vec!["mx.judge.example".into()],
        ..config()
    }));
    let created = started(&mut w);
    let (pw, _) = creds(&created, ANNA);
    let before = w.game("race-1");
    let mut m = w.inbound(ANNA, "orders", &format!("GAME race-1 {pw}\nADD 1"));
    m.authentication_results = vec![AuthenticationResults::parse(
        "mx.judge.example; spf=fail smtp.mailfrom=anna@example.org; dkim=none; dmarc=fail header.from=example.org",
    )
    .unwrap()];
    let c = w.j.handle(&w.store, &m, &env(w.now + 60)).unwrap();
    assert!(c.outbox.is_empty(), "{:#?}", c.outbox);
    assert!(c.games.is_empty());
    assert!(
        c.log
            .iter()
            .any(|l| l.text.contains("forged sender (dmarc=fail)")),
        "{:#?}",
        c.log
    );
    w.store.commit(&c).unwrap();
    assert_eq!(w.game("race-1"), before);
    // The same verdict from a server the config does not name: read as usual, recorded not.
    let mut m = w.inbound(ANNA, "orders", &format!("GAME race-1 {pw}\nADD 1"));
    m.authentication_results =
        vec![AuthenticationResults::parse("evil.example; dmarc=fail").unwrap()];
    let out = w.deliver(&m);
    assert!(reply_to(&out, ANNA).body.contains("applied"));
    // A pass is recorded in the log.
    let mut m = w.inbound(BOB, "status", "STATUS race-1");
    m.authentication_results =
        vec![
            AuthenticationResults::parse("mx.judge.example; spf=pass; dkim=pass; dmarc=pass")
                .unwrap(),
        ];
    let c = w.j.handle(&w.store, &m, &env(w.now + 60)).unwrap();
    assert!(c.log.iter().any(|l| l
        .text
        .contains("mx.judge.example says spf=pass dkim=pass dmarc=pass")));
}

// ------------------------------------------------------------ mail only to those who asked

fn opt_in() -> JudgeConfig {
    JudgeConfig {
        confirm_addresses: true,
        ..config()
    }
}

/// "CREATE and OBSERVE, sent by anyone, make the judge mail any address they name."
/// Target: 0 mails to an address that never wrote to the judge, beyond one confirmation.
#[test]
fn create_by_anyone_mails_a_named_stranger_once_to_ask() {
    let victim = "victim@example.net";
    let mut w = World::new(judge_with(opt_in()));
    let mut all = w.send(
        "stranger@example.com",
        "new",
        &format!("CREATE race player=V:{victim} player=Bob:bob@example.org"),
    );
    // Bob plays on; deadlines pass; the game goes on around the victim's seat.
    let (bob_pw, _) = creds(&all, BOB);
    all.extend(w.send(
        BOB,
        "orders",
        &format!("GAME race-1 {bob_pw}\nSTATUS race-1"),
    ));
    for h in [60, 120, 180] {
        all.extend(w.tick_at(T0 + h * 3600));
    }
    let to_victim = to(&all, victim);
    assert_eq!(to_victim.len(), 1, "{to_victim:#?}");
    assert!(to_victim[0].body.contains("Your password:"));
    assert!(
        to_victim[0]
            .body
            .contains("it sends you nothing more about it until you confirm"),
        "{}",
        to_victim[0].body
    );
    // Writing is no consent to the game: HELP brings its answer, not the game.
    let out = w.send(victim, "hello", "HELP");
    assert_eq!(to(&out, victim).len(), 1);
    let next = w.tick_at(T0 + 300 * 3600);
    assert!(to(&next, victim).is_empty(), "{next:#?}");
    // Once the address confirms (its reply carries the seat's token), its mail comes: the
    // game's next report reaches it.
    let (_, token) = creds(&all, victim);
    let out = w.send(
        victim,
        &format!("Re: [race-1 #{token}] Welcome"),
        "count me in",
    );
    assert!(!to(&out, victim).is_empty());
    let next = w.tick_at(T0 + 400 * 3600);
    assert!(!to(&next, victim).is_empty(), "{next:#?}");
}

/// STOP ends all mail to an address, apart from the games it plays in, where the answer
/// says how to resign (STOP is not RESIGN).
#[test]
fn stop_ends_all_mail_to_an_address() {
    let mut w = World::new(judge_with(opt_in()));
    let created = started(&mut w);
    // Both confirm their seats (a reply to the confirmation carries the token).
    for who in [ANNA, BOB] {
        let (_, token) = creds(&created, who);
        w.send(
            who,
            &format!("Re: [race-1 #{token}] Welcome"),
            "count me in",
        );
    }
    assert_eq!(w.game("race-1").status, Status::Running);
    let (pw, _) = creds(&created, ANNA);
    let olga = "olga@example.org";
    let out = w.send(olga, "watch", "OBSERVE race-1");
    assert!(reply_to(&out, olga).body.contains("You now receive"));
    let out = w.send(olga, "stop", "STOP");
    let b = &reply_to(&out, olga).body;
    assert!(b.contains("sends no more mail to this address"), "{b}");
    assert!(b.contains("You no longer observe race-1"), "{b}");
    assert!(w.game("race-1").observers.is_empty());
    // Anna plays: a report goes out, none to Olga.
    let out = w.send(ANNA, "orders", &format!("GAME race-1 {pw}\nADD 1"));
    assert!(to(&out, olga).is_empty(), "{out:#?}");
    assert!(!to(&out, BOB).is_empty());
    // A player who sends STOP keeps the game's mail, and is told how to leave.
    let out = w.send(ANNA, "stop", "UNSUBSCRIBE");
    let b = &reply_to(&out, ANNA).body;
    assert!(
        b.contains("apart from the games you play in or run: race-1"),
        "{b}"
    );
    assert!(b.contains("send RESIGN"), "{b}");
    let (bob_pw, _) = creds(&created, BOB);
    let out = w.send(BOB, "orders", &format!("GAME race-1 {bob_pw}\nADD 1"));
    assert!(
        !to(&out, ANNA).is_empty(),
        "Anna still gets her game's mail"
    );
    assert!(
        w.game("race-1").seats[0].address.is_some(),
        "STOP is not RESIGN"
    );
}

/// Every mail carries `List-Unsubscribe` (RFC 2369), a mailto that says STOP.
#[test]
fn every_mail_carries_list_unsubscribe() {
    let mut w = World::new(judge());
    let out = started(&mut w);
    assert!(out.len() > 3);
    for m in &out {
        assert!(
            m.headers
                .iter()
                .any(|(k, v)| k == "List-Unsubscribe"
                    && v == "<mailto:judge@example.org?subject=STOP>"),
            "{m:#?}"
        );
    }
}
