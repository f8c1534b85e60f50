//! Every mail of a whole demo game of each of the four games tells the truth in its
//! subject: the turn its body is about, "your move" to the seat asked and to no other, and
//! whom the game waits for.

mod demo_mails;

/// The number after `word` ("turn 3") each time it follows it in `text`.
fn turns_after(text: &str, word: &str) -> Vec<u32> {
    text.match_indices(word)
        .filter_map(|(i, _)| {
            let rest = &text[i + word.len()..];
            let digits: String = rest.chars().take_while(|c| c.is_ascii_digit()).collect();
            digits.parse().ok()
        })
        .collect()
}

/// The turns a mail's game parts are about: a report's "castle-1 (castle-risk), turn 2"
/// and a private mail's "(castle-1, turn 2)".
fn body_turns(body: &str) -> Vec<u32> {
    let mut t = turns_after(body, "), turn ");
    t.extend(turns_after(body, ", turn "));
    t.sort();
    t.dedup();
    t
}

fn check_game(game: &str, players: usize) {
    let mails = demo_mails::demo_mails(game, players);
    let mut checked = 0;
    for m in &mails {
        let (subject, body) = (m.subject.clone(), m.body.clone());
        let what = format!("{game}: {subject}\n{body}");
        // The subject after its tag "[game #token] " (and a "Re: " before it).
        let rest = subject
            .split_once("] ")
            .map(|(_, r)| r.to_string())
            .unwrap_or_default();
        let asked = body.contains("You are asked:");
        if let Some(after) = rest.strip_prefix("Turn ") {
            let n: u32 = after
                .chars()
                .take_while(|c| c.is_ascii_digit())
                .collect::<String>()
                .parse()
                .unwrap();
            let turns = body_turns(&body);
            assert!(
                !turns.is_empty(),
                "a turn in the subject, none in the body: {what}"
            );
            assert!(
                turns.iter().all(|t| *t == n),
                "the subject's turn is not the body's: {what}"
            );
            let your_move = rest.contains(": your move");
            assert_eq!(
                your_move, asked,
                "\"your move\" and what the body asks differ: {what}"
            );
            if let Some((_, who)) = rest.split_once(": ") {
                if let Some(names) = who
                    .split(" to move")
                    .next()
                    .filter(|_| who.contains(" to move"))
                {
                    for name in names.split(", ") {
                        assert!(
                            body.lines()
                                .any(|l| l.contains("Waiting for:") && l.contains(name))
                                || !body.contains("Waiting for:"),
                            "the subject waits for {name}, the body does not: {what}"
                        );
                    }
                }
            }
            checked += 1;
        } else if rest.starts_with("Game over") {
            assert!(body.contains("The game is over"), "{what}");
            assert!(!asked, "{what}");
            checked += 1;
        } else {
            // Any other mail (a welcome, an answer) carries no turn's report.
            assert!(
                !body.contains("Waiting for:"),
                "a report under a subject without its turn: {what}"
            );
            assert!(
                !asked,
                "a question under a subject without its turn: {what}"
            );
        }
    }
    assert!(checked > 10, "{game}: only {checked} mails checked");
}

#[test]
fn every_subject_tells_the_turn_and_whose_move_it_is_castle_risk() {
    check_game("castle-risk", 3);
}

#[test]
fn every_subject_tells_the_turn_and_whose_move_it_is_risk() {
    check_game("risk", 3);
}

#[test]
fn every_subject_tells_the_turn_and_whose_move_it_is_castrum() {
    check_game("castrum", 3);
}

#[test]
fn every_subject_tells_the_turn_and_whose_move_it_is_castello() {
    check_game("castello", 2);
}
