//! Help a player can follow by mail: HELP ORDERS and HELP DICE are the texts themselves,
//! and VERIFY explains the check in the reader's language and carries the script
//! (scripts/verify_dice.py) whose commands, run as the mail writes them, agree with it.
//! No reply points at a file on the server.

mod common;
use castellan_judge::Outbound;
use common::*;

const SCRIPT: &str = include_str!("../../../scripts/verify_dice.py");

/// A race of two turns played: each turn's seed revealed, each with a die.
fn two_turns() -> World {
    let mut w = World::new(judge());
    let created = started(&mut w);
    let (apw, _) = creds(&created, ANNA);
    let (bpw, _) = creds(&created, BOB);
    w.send(ANNA, "x", &format!("GAME race-1 {apw}\nADD 2"));
    w.send(BOB, "x", &format!("GAME race-1 {bpw}\nADD 3"));
    w
}

fn no_server_file(body: &str) {
    for pointer in ["docs/", "scripts/", ".md"] {
        assert!(!body.contains(pointer), "{pointer} in {body}");
    }
}

/// The reply carries the script, whole, as `verify_dice.py` (text/x-python), once.
fn carries_the_script(m: &Outbound) {
    assert_eq!(m.attachments.len(), 1, "{m:?}");
    let a = &m.attachments[0];
    assert_eq!(a.filename, "verify_dice.py");
    assert_eq!(a.content_type, "text/x-python");
    assert_eq!(a.content, SCRIPT.as_bytes());
}

/// Runs the reply's `python3 verify_dice.py ...` lines with the attached script; each
/// prints what the line after it says (`prints` / `affiche`).
fn the_examples_check_out(m: &Outbound, says: &str) {
    // One folder a test (they run side by side).
    let dir = std::env::temp_dir().join(format!(
        "castellan-dice-help-{}-{}",
        std::process::id(),
        says.trim()
    ));
    std::fs::create_dir_all(&dir).unwrap();
    let script = dir.join("verify_dice.py");
    std::fs::write(&script, &m.attachments[0].content).unwrap();
    let lines: Vec<&str> = m.body.lines().collect();
    let mut ran = 0;
    for (i, l) in lines.iter().enumerate() {
        let Some(args) = l.strip_prefix("  python3 verify_dice.py ") else {
            continue;
        };
        let out = std::process::Command::new("python3")
            .arg(&script)
            .args(args.split_whitespace())
            .output()
            .expect("python3 is needed to run the attached script");
        let printed = String::from_utf8_lossy(&out.stdout).trim().to_string();
        let next = lines[i + 1];
        let want = next
            .strip_prefix(says)
            .and_then(|r| r.split(" :").next())
            .and_then(|r| r.split(':').next())
            .unwrap_or_else(|| panic!("no \"{says}\" after {l}: {next}"));
        assert_eq!(printed, want.trim(), "{l}\n{next}");
        ran += 1;
    }
    assert_eq!(ran, 2, "a chain and a roll example: {}", m.body);
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn verify_carries_the_script_and_its_example_checks_out() {
    let mut w = two_turns();
    let out = w.send("olga@example.org", "x", "VERIFY race-1");
    let m = reply_to(&out, "olga@example.org");
    carries_the_script(m);
    no_server_file(&m.body);
    assert!(
        m.body
            .contains("Check it yourself: verify_dice.py, attached"),
        "{}",
        m.body
    );
    assert!(
        m.body.contains("How the dice are made: send HELP DICE."),
        "{}",
        m.body
    );
    the_examples_check_out(m, "prints ");
}

#[test]
fn audit_in_french_carries_the_script_and_explains_it_in_french() {
    let mut w = two_turns();
    let out = w.send("olga@example.org", "x", "AUDIT race-1");
    let m = reply_to(&out, "olga@example.org");
    carries_the_script(m);
    no_server_file(&m.body);
    assert!(
        m.body
            .contains("Contrôlez-le vous-même : verify_dice.py, joint à ce courriel"),
        "{}",
        m.body
    );
    the_examples_check_out(m, "affiche ");
}

/// A VERIFY answered twice in one mail carries the script once; a mail without VERIFY
/// carries none.
#[test]
fn the_script_goes_once_and_only_with_verify() {
    let mut w = two_turns();
    let out = w.send("olga@example.org", "x", "VERIFY race-1\nVERIFY race-1");
    assert_eq!(reply_to(&out, "olga@example.org").attachments.len(), 1);
    let out = w.send("olga@example.org", "x", "HISTORY race-1\nHELP DICE");
    assert!(reply_to(&out, "olga@example.org").attachments.is_empty());
}

#[test]
fn help_dice_and_help_orders_are_the_texts_in_the_readers_language() {
    let mut w = two_turns();
    let out = w.send("olga@example.org", "x", "HELP DICE\nHELP ORDERS race");
    let b = &reply_to(&out, "olga@example.org").body;
    no_server_file(b);
    assert!(
        b.contains("== HELP DICE ==\nEvery game has a secret"),
        "{b}"
    );
    assert!(b.contains("ChaCha20") && b.contains("x mod s + 1"), "{b}");
    assert!(b.contains("== ORDERS for race ==\nADD n"), "{b}");
    let out = w.send("zoe@example.org", "x", "AIDE DÉS\nAIDE ORDRES race");
    let b = &reply_to(&out, "zoe@example.org").body;
    no_server_file(b);
    assert!(
        b.contains("== AIDE DÉS ==\nChaque partie a un secret"),
        "{b}"
    );
    assert!(b.contains("== ORDRES de race =="), "{b}");
    let out = w.send("zed@example.org", "x", "GET RULES race\nGET DICE");
    let b = &reply_to(&out, "zed@example.org").body;
    assert!(
        b.contains("== ORDERS for race ==") && b.contains("== HELP DICE =="),
        "{b}"
    );
}
