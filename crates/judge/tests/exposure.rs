//! Exposure, as attacks: what one mail makes the judge send beyond its reply
//! budget, and addresses told to other players or strangers. Each test failed on the main
//! branch before the fix; docs/security.md names them.

mod common;
use common::*;

/// Every byte of a reply: subject, text part and HTML part.
fn whole(m: &Outbound) -> usize {
    m.subject.len() + m.body.len() + m.html.as_deref().map_or(0, str::len)
}

/// The mail's size as the judge counts it for the reply budget (judge.rs).
fn request(from: &str, subject: &str, body: &str) -> usize {
    from.len() + subject.len() + body.len()
}

/// "A 229-byte HISTORY … PICTURE draws 23 KB (102×)": the HTML part counts in the reply
/// budget (docs/security.md, "Amplification"): text and HTML together stay within
/// `reply_budget`, and a picture that does not fit is left out and said so.
#[test]
fn a_history_picture_stays_inside_the_reply_budget() {
    for max in [1_200usize, 1_600, 2_000, 2_400, 64 * 1024] {
        let mut w = World::new(judge_with(JudgeConfig {
            max_reply_bytes: max,
            ..config()
        }));
        let created = started(&mut w);
        let (apw, _) = creds(&created, ANNA);
        let (bpw, _) = creds(&created, BOB);
        w.send(ANNA, "x", &format!("GAME race-1 {apw}\nADD 1"));
        w.send(BOB, "x", &format!("GAME race-1 {bpw}\nADD 2"));
        let body = "HISTORY race-1 1-2 PICTURE";
        let out = w.send("zed@example.org", "h", body);
        let r = reply_to(&out, "zed@example.org");
        let budget = reply_budget(max, request("zed@example.org", "h", body));
        assert!(
            whole(r) <= budget,
            "max_reply_bytes {max}: a reply of {} bytes (HTML {}) to a budget of {budget}",
            whole(r),
            r.html.as_deref().map_or(0, str::len)
        );
        if max == 64 * 1024 {
            assert!(r.html.as_deref().is_some_and(|h| h.contains("<svg")));
        } else if r.html.is_none() && r.body.contains("== HISTORY") {
            assert!(
                r.body.contains("picture") && !r.body.contains("pictured in the HTML part"),
                "{}",
                r.body
            );
        }
    }
}

/// "The picture is attached even when the answer was 'left out'": a HISTORY … PICTURE
/// whose answer the reply's bound left out carries no picture.
#[test]
fn a_history_left_out_carries_no_picture() {
    let mut w = World::new(judge_with(JudgeConfig {
        max_reply_bytes: 3_000,
        ..config()
    }));
    started(&mut w);
    let body = format!("{}HISTORY race-1 PICTURE", "HELP\n".repeat(3));
    let out = w.send("zed@example.org", "h", &body);
    let r = reply_to(&out, "zed@example.org");
    assert!(r.body.contains("HISTORY"), "{}", r.body);
    assert!(r.html.is_none(), "a picture for an answer left out");
}

/// "REPLACE tells every player the new address": the other players and observers are
/// told that a new player plays the seat, never their address (docs/security.md,
/// "Addresses").
#[test]
fn replace_tells_the_other_players_no_address() {
    let mut w = World::new(judge());
    let created = started(&mut w);
    let (gpw, _) = creds(&created, GM);
    w.send("olga@example.org", "watch", "OBSERVE race-1");
    let out = w.send(
        GM,
        "x",
        &format!("GAME race-1 {gpw}\nREPLACE Bob carl@example.org"),
    );
    for m in out
        .iter()
        .filter(|m| m.to != "carl@example.org" && m.to != GM)
    {
        assert!(
            !m.body.contains("carl@") && !m.subject.contains("carl@"),
            "{} was told the new address: {}",
            m.to,
            m.body
        );
    }
    assert!(
        out.iter().any(|m| m.to == ANNA && m.body.contains("Bob")),
        "Anna is told of the change"
    );
}

/// A player who JOINs is named to the others, without their address.
#[test]
fn join_tells_the_other_players_no_address() {
    let mut w = World::new(judge());
    let out = w.send(
        GM,
        "new",
        "CREATE race seats=3 player=Anna:anna@example.org password=letmein",
    );
    assert!(reply_to(&out, GM).body.contains("race-1 is created"));
    let out = w.send(BOB, "JOIN race-1 letmein AS Bob", "");
    for m in out.iter().filter(|m| m.to != BOB && m.to != GM) {
        assert!(
            !m.body.contains(BOB),
            "{} was told Bob's address: {}",
            m.to,
            m.body
        );
    }
}

/// "HISTORY of a campaign tells strangers the organiser's address".
#[test]
fn campaign_history_tells_strangers_no_address() {
    let mut w = World::new(judge());
    let out = w.send(GM, "campaign", "CAMPAIGN NEW Winter league scoring=wins");
    assert!(reply_to(&out, GM).body.contains("campaign-1"));
    let out = w.send("zed@example.org", "h", "HISTORY campaign-1");
    let r = reply_to(&out, "zed@example.org");
    assert!(r.body.contains("Winter league"), "{}", r.body);
    assert!(!r.body.contains(GM), "the organiser's address: {}", r.body);
}

/// "RECORD tells strangers whether an address plays here": RECORD of another address
/// answers the same whether or not it plays (docs/security.md, "Addresses": a record is
/// told to its own address only).
#[test]
fn record_of_another_address_tells_nothing_of_it() {
    let mut w = World::new(judge());
    started(&mut w);
    let out = w.send("zed@example.org", "r", "RECORD anna@example.org");
    let plays = reply_to(&out, "zed@example.org").body.clone();
    let out = w.send("zed@example.org", "r", "RECORD nobody@example.org");
    let none = reply_to(&out, "zed@example.org").body.clone();
    assert_eq!(
        plays.replace("anna@example.org", "X"),
        none.replace("nobody@example.org", "X"),
        "RECORD differs with whether the address plays"
    );
    // One's own record is told.
    let out = w.send(ANNA, "r", "RECORD");
    assert!(reply_to(&out, ANNA).body.contains("Games played: 1"));
    let out = w.send(ANNA, "r", "RECORD anna@example.org");
    assert!(reply_to(&out, ANNA).body.contains("Games played: 1"));
}
