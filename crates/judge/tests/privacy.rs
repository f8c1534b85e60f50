//! Hidden information stays hidden, in every language: no mail reaches a player with
//! another player's private facts. Each test names the requirement it guards.

mod common;
use common::*;

/// One game by mail, deadlines and bot stand-ins mixed in, with an observer; checks that
/// seat 0's secret card appears only in mails to seat 0.
fn privacy_round(round: u64) {
    let mut w = World::new(judge());
    w.now += (round as i64) * 1000;
    let created = started(&mut w);
    w.send("olga@example.org", "watch", "OBSERVE race-1");
    let card = secret_card(&created);
    let (apw, _) = creds(&created, ANNA);
    let (bpw, _) = creds(&created, BOB);
    let mut guard = 0;
    while w.game("race-1").status == Status::Running && guard < 40 {
        guard += 1;
        let g = w.game("race-1");
        match (guard + round as usize) % 3 {
            0 => {
                w.tick_at(g.deadline.unwrap());
            }
            _ => {
                let seat = (g.deadline_history - 1) % 2;
                let (who, pw) = [(ANNA, &apw), (BOB, &bpw)][seat];
                w.send(
                    who,
                    "orders",
                    &format!("GAME race-1 {pw}\nSTATUS\nADD 2\nHISTORY\nVERIFY"),
                );
            }
        }
    }
    assert_eq!(w.game("race-1").status, Status::Finished);
    for m in w.store.outbox() {
        if m.to != ANNA {
            // The text part, and the HTML part with its picture.
            for part in [Some(&m.body), m.html.as_ref()].into_iter().flatten() {
                assert!(
                    !mentions_a_card(part) && !part.contains(&format!("card {card}")),
                    "seat 0's card in a mail to {}: {}",
                    m.to,
                    part
                );
            }
        }
    }
    // Seat 0 did see it, in mails of her own: in the text and in her picture.
    let outbox = w.store.outbox();
    let mine = |m: &&Outbound| m.to == ANNA;
    assert!(outbox
        .iter()
        .filter(mine)
        .any(|m| m.body.contains(&format!("card {card}"))));
    assert!(outbox.iter().filter(mine).any(|m| m
        .html
        .as_ref()
        .is_some_and(|h| h.contains("<svg") && h.contains(&format!("card {card}")))));
    // The others got pictures too (or the scan above proved nothing about them).
    assert!(outbox
        .iter()
        .any(|m| m.to != ANNA && m.html.as_ref().is_some_and(|h| h.contains("<svg"))));
}

/// "A player's private text never goes in a mail addressed to anyone
/// else" — over whole games played by mail, by deadline defaults and by bot stand-ins.
#[test]
fn private_facts_never_reach_another_player() {
    for round in 0..6 {
        privacy_round(round);
    }
}

/// "Across many simulated games, no mail to one player
/// containing another player's private facts". Run with
/// `cargo test -p castellan-judge --release -- --ignored`.
#[test]
#[ignore]
fn private_facts_across_many_games() {
    for round in 0..2000 {
        privacy_round(round);
    }
}

/// Any "carte <digits>" in a text (the toy's private fact, in French).
fn mentions_a_carte(s: &str) -> bool {
    s.match_indices("carte ")
        .any(|(i, _)| s[i + 6..].starts_with(|c: char| c.is_ascii_digit()))
}

/// French: a French seat and an English seat in one game each read their own
/// language (private mails, public report, replies, dates), and privacy holds in both:
/// no mail to anyone but seat 0 carries seat 0's card, in English or in French.
#[test]
fn a_french_seat_and_an_english_seat_each_read_their_own_language() {
    let mut w = World::new(judge());
    let created = started(&mut w);
    let card = secret_card(&created);
    let (apw, _) = creds(&created, ANNA);
    let (bpw, _) = creds(&created, BOB);
    let out = w.send(ANNA, "langue", &format!("PARTIE race-1 {apw}\nLANGUE fr"));
    let r = reply_to(&out, ANNA);
    assert!(r.body.starts_with("L'arbitre répond"), "{}", r.body);
    assert!(r.body.contains("en français"), "{}", r.body);
    assert_eq!(
        w.game("race-1").seats[0].language,
        Some(castellan_engine::Lang::Fr)
    );
    let mut guard = 0;
    while w.game("race-1").status == Status::Running && guard < 40 {
        guard += 1;
        let g = w.game("race-1");
        let seat = (g.deadline_history - 1) % 2;
        let (who, pw) = [(ANNA, &apw), (BOB, &bpw)][seat];
        let out = w.send(who, "orders", &format!("GAME race-1 {pw}\nADD 3\nSTATUS"));
        for m in &out {
            let french = m.to == ANNA;
            let reply = m
                .in_reply_to
                .as_deref()
                .is_some_and(|r| r.starts_with("<m"));
            if reply {
                let fr = m.body.starts_with("L'arbitre répond");
                assert!(fr == french, "{}: {}", m.to, m.body);
            } else if m.subject.contains(" #") && m.to != GM {
                // Private mails: each in its seat's language.
                let fr = m.body.contains("ce courriel est pour vous seul");
                let en = m.body.contains("this mail is for you alone");
                assert!((french && fr) || (!french && en), "{}: {}", m.to, m.body);
            } else if untagged(&m.subject).starts_with("[race-1] ") {
                // Public reports: French to Anna, English to Bob and the game master.
                let fr = m.body.contains("tour") && m.body.contains("Contrôle des dés");
                let en = m.body.contains("turn") && m.body.contains("Dice audit");
                assert!((french && fr) || (!french && en), "{}: {}", m.to, m.body);
            }
        }
    }
    assert_eq!(w.game("race-1").status, Status::Finished);
    let outbox = w.store.outbox();
    // The final report: each player's own (or inside the reply to their last orders), in
    // their language.
    let fin = outbox
        .iter()
        .find(|m| m.to == ANNA && m.body.contains("La partie est finie"))
        .expect("Anna's final report is French");
    assert!(fin.body.contains("gagne"), "{}", fin.body);
    assert!(outbox
        .iter()
        .any(|m| m.to == BOB && m.body.contains("The game is over")));
    for m in &outbox {
        if m.to != ANNA {
            for part in [Some(&m.body), m.html.as_ref()].into_iter().flatten() {
                assert!(
                    !mentions_a_card(part) && !mentions_a_carte(part),
                    "seat 0's card in a mail to {}: {}",
                    m.to,
                    part
                );
            }
        }
    }
    assert!(outbox
        .iter()
        .any(|m| m.to == ANNA && m.body.contains(&format!("carte {card}"))));
}

/// "A game master's LANGUE fr is the game's": in a game created in English, the game
/// master's `LANGUE fr` turns every mail of the game French, the other seats' reports and
/// the game master's included; and a seat that writes French is answered in French.
#[test]
fn the_game_masters_language_is_the_games_for_every_mail() {
    let mut w = World::new(judge());
    let created = started(&mut w);
    let (gpw, _) = creds(&created, GM);
    let (apw, _) = creds(&created, ANNA);
    let (bpw, _) = creds(&created, BOB);
    let out = w.send(GM, "langue", &format!("PARTIE race-1 {gpw}\nLANGUE fr"));
    let r = reply_to(&out, GM);
    assert!(r.body.starts_with("L'arbitre répond"), "{}", r.body);
    assert!(r.body.contains("Les courriels de la partie"), "{}", r.body);
    assert_eq!(w.game("race-1").language, Some(castellan_engine::Lang::Fr));
    assert_eq!(w.game("race-1").seats[1].language, None);
    let mut seen = 0;
    for _ in 0..4 {
        let g = w.game("race-1");
        let seat = (g.deadline_history - 1) % 2;
        let (who, pw) = [(ANNA, &apw), (BOB, &bpw)][seat];
        let out = w.send(who, "orders", &format!("GAME race-1 {pw}\nADD 3"));
        for m in &out {
            seen += 1;
            assert!(
                !m.body.contains("The judge answers")
                    && !m.body.contains("Waiting for")
                    && !m.body.contains("this mail is for you alone"),
                "{}: {}",
                m.to,
                m.body
            );
        }
    }
    assert!(seen >= 8, "{seen} mails");
    // Anna chooses English for herself: her mails are English, the game stays French; a
    // mail of hers in French words is still answered in the language she chose.
    let out = w.send(
        ANNA,
        "language",
        &format!("GAME race-1 {apw}\nSET LANGUAGE en"),
    );
    assert!(reply_to(&out, ANNA).body.starts_with("The judge answers"));
    let out = w.send(ANNA, "statut", &format!("PARTIE race-1 {apw}\nÉTAT"));
    assert!(reply_to(&out, ANNA).body.starts_with("The judge answers"));
    // Bob chose nothing: a mail of his in French command words is answered in French, one
    // in English in the game's language, French.
    let out = w.send(BOB, "status", &format!("GAME race-1 {bpw}\nSTATUS"));
    assert!(reply_to(&out, BOB).body.starts_with("L'arbitre répond"));
}

/// "A reply to a mail written in French opens in French": in an English game, a seat
/// that chose no language and writes French command words is answered in French.
#[test]
fn a_mail_in_french_is_answered_in_french_in_an_english_game() {
    let mut w = World::new(judge());
    let created = started(&mut w);
    let (bpw, _) = creds(&created, BOB);
    let out = w.send(BOB, "statut", &format!("PARTIE race-1 {bpw}\nÉTAT"));
    let r = reply_to(&out, BOB);
    assert!(r.body.starts_with("L'arbitre répond"), "{}", r.body);
    let out = w.send(BOB, "status", &format!("GAME race-1 {bpw}\nSTATUS"));
    assert!(reply_to(&out, BOB).body.starts_with("The judge answers"));
    // The game's own hook says whether an order line reads as French (the toy has no
    // words of its own: the French order words the games share).
    let french = race_info().reads_as_french;
    assert!(french("attaque Berlin depuis Saxe"));
    assert!(french("FIN"));
    assert!(!french("PLACE 3 Berlin"));
    assert!(!french("END"));
}
