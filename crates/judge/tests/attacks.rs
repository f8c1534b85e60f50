//! Issue 13, as attacks: each test is one attack of the "Why" (its name says
//! which), written so that it failed on the main branch before the fix.

mod common;
use common::*;

fn reply_bytes(out: &[Outbound], to: &str) -> usize {
    reply_to(out, to).body.len() + reply_to(out, to).subject.len()
}

/// "An 8 KB mail of 500 STATUS lines brings a 1.35 MB reply."
#[test]
fn amplification_500_status_lines_bring_a_bounded_reply() {
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
fn amplification_a_reply_over_its_budget_names_what_it_left_out() {
    let mut w = World::new(judge_with(JudgeConfig {
        max_reply_bytes: 4096,
        ..config()
    }));
    started(&mut w);
    let out = w.send(GM, "help", &"HELP\n".repeat(20));
    let b = &reply_to(&out, GM).body;
    assert!(b.len() <= 4096 + 512, "{}", b.len());
    assert!(b.contains("Reply cut"), "{b}");
    assert!(b.contains("answer(s) were left out"), "{b}");
}

/// "PRESS ignores `max_lines`."
#[test]
fn press_ignores_max_lines() {
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
fn nul_and_esc_bytes_in_press_are_passed_on() {
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
fn a_player_name_of_3000_characters_is_accepted() {
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
fn a_name_with_a_right_to_left_override_is_accepted() {
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
fn a_1_mb_body_is_refused_whole() {
    let mut w = World::new(judge());
    let body = format!("HELP\n{}", "x".repeat(99) + "\n").repeat(1)
        + &("y".repeat(99) + "\n").repeat(10_000);
    assert!(body.len() > 1_000_000);
    let out = w.send(ANNA, "help", &body);
    let b = &reply_to(&out, ANNA).body;
    assert!(b.contains("Mail too long"), "{b}");
    // 65,536 bytes hold the HELP line and 655 whole lines of 100 bytes.
    assert!(b.contains("only its first 656 line(s) were read"), "{b}");
    assert!(
        b.contains("== HELP =="),
        "the HELP of the first line is answered: {b}"
    );
    assert!(out.iter().all(|m| m.body.len() <= 64 * 1024));
}
