//! What happened to a seat by another's hand is told to that seat, once: in a whole demo
//! game of Castle Risk by mail, a defender's mail opens its news with "What happened to
//! you" ("You lost Ukraine to Bot2 (5 → 0): ..."), the table's lines it stands for are left
//! out of that mail's "What happened elsewhere", and no other reader is told it so.

mod demo_mails;

use std::collections::HashMap;

/// The lines of the section headed `heading` (indented by two spaces), in order.
fn section(body: &str, heading: &str) -> Vec<String> {
    let mut lines = body.lines().skip_while(|l| *l != heading).skip(1);
    let mut out = Vec::new();
    for l in lines.by_ref() {
        match l.strip_prefix("  ") {
            Some(x) => out.push(x.to_string()),
            None => break,
        }
    }
    out
}

/// Each mail of a demo game: (to, body).
fn demo_mails(game: &str, players: usize) -> Vec<(String, String)> {
    demo_mails::demo_mails(game, players)
        .into_iter()
        .map(|m| (m.to.join(","), m.body))
        .collect()
}

#[test]
fn a_defender_is_told_what_happened_to_them_once_and_no_one_else_is() {
    let mails = demo_mails("castle-risk", 3);
    let tables: Vec<Vec<String>> = mails
        .iter()
        .map(|(_, b)| section(b, "What happened:"))
        .filter(|s| !s.is_empty())
        .collect();
    let mut addressed_to: HashMap<String, String> = HashMap::new();
    assert!(mails.iter().any(|(to, _)| to.starts_with("gm@")));
    let mut defended = 0;
    for (to, body) in &mails {
        let mine = section(body, "What happened to you:");
        if mine.is_empty() {
            continue;
        }
        if mine.iter().any(|l| l.starts_with("You lost ")) {
            defended += 1;
        }
        for l in &mine {
            assert!(
                l.contains("you") || l.contains("You"),
                "addressed to the reader: {l}\n{body}"
            );
            addressed_to.insert(l.clone(), to.clone());
        }
        // The table's lines of that report, less those told to the reader as their own:
        // some report to a reader with nothing addressed reads exactly the two together.
        let elsewhere = section(body, "What happened elsewhere:");
        assert!(
            !body.contains("\nWhat happened:\n"),
            "with a section of one's own, the table's is \"elsewhere\": {body}"
        );
        let whole = tables.iter().any(|t| {
            t.len() == elsewhere.len() + mine.len() && {
                let mut rest = t.iter();
                elsewhere.iter().all(|l| rest.any(|x| x == l))
            }
        });
        assert!(
            whole,
            "each event once: the table's report is this mail's lines and its own: {body}"
        );
    }
    assert!(defended > 0, "a demo game has a defender told of a loss");
    // Told to its seat only: the game master's report (the table's) has none of it, and
    // no table's lines speak to the reader.
    for (to, body) in &mails {
        if to.starts_with("gm@") {
            for line in addressed_to.keys() {
                assert!(!body.contains(line.as_str()), "the table reads: {line}");
            }
        }
        for l in section(body, "What happened elsewhere:") {
            assert!(
                !l.contains("You lost ") && !l.contains(" you"),
                "{to}'s table lines: {l}"
            );
        }
    }
    for t in &tables {
        assert!(t.iter().all(|l| !l.contains("You lost ")), "{t:?}");
    }
}
