//! Answering the judge's mails: every mail a player may answer carries what
//! makes the answer work, and what a mail holds besides its commands and orders (a
//! greeting, a sign-off) is never taken for a refusal.
//! Each test names the promise it guards (tests/common holds the shared World).

mod common;
use common::*;

/// The token a mail's subject tag carries, if any: "[race-1 #k3j9x] ..." -> "k3j9x".
fn subject_token(subject: &str) -> Option<String> {
    let open = subject.find('[')?;
    let close = open + subject[open..].find(']')?;
    subject[open + 1..close]
        .split_whitespace()
        .find_map(|w| w.strip_prefix('#'))
        .map(str::to_string)
}

/// Reply to `mail` the way a mail client does: "Re: " + its subject, the body, no
/// password; the judge's answer to it.
fn answer_to(w: &mut World, who: &str, mail: &Outbound, body: &str) -> Outbound {
    let subject = format!("Re: {}", mail.subject);
    let out = w.send(who, &subject, body);
    every_token_is_its_readers_own(w, &out);
    reply_to(&out, who).clone()
}

/// Reply to `mail` with one order and check it was applied: the answer says so and the
/// game's history grew by it.
fn orders_applied_by_answering(w: &mut World, who: &str, mail: &Outbound, what: &str) {
    assert!(
        subject_token(&mail.subject).is_some(),
        "{what}: the mail to {who} carries no token: {}",
        mail.subject
    );
    let before = w.game("race-1").deadline_history;
    let r = answer_to(w, who, mail, "ADD 1\n");
    assert!(
        r.body.contains("1 order line applied"),
        "{what}: answering {:?} did not apply the orders:\n{}",
        mail.subject,
        r.body
    );
    assert!(!r.body.contains("refused"), "{what}: {}", r.body);
    assert!(
        w.game("race-1").deadline_history > before,
        "{what}: the turn passed"
    );
}

/// Every mail about a game carries in its subject its reader's own token, never another
/// reader's.
fn every_token_is_its_readers_own(w: &World, mails: &[Outbound]) {
    for m in mails {
        let Some(token) = subject_token(&m.subject) else {
            continue;
        };
        let Some(g) = w.store.game_header("race-1").unwrap() else {
            continue;
        };
        // The reader's seat's token, or the game master's for the game master.
        let seat = g.seat_of(&m.to).map(|s| g.seats[s].token.clone());
        let gm = (g.gm == m.to).then(|| g.gm_token.clone());
        if g.holds_token(&token) {
            assert!(
                seat.as_ref() == Some(&token) || gm.as_ref() == Some(&token),
                "a mail to {} carries another reader's token: {}",
                m.to,
                m.subject
            );
        }
    }
}

fn mail_to<'a>(mails: &'a [Outbound], addr: &str, says: &str) -> &'a Outbound {
    mails
        .iter()
        .find(|m| m.to == addr && (m.subject.contains(says) || m.body.contains(says)))
        .unwrap_or_else(|| panic!("no mail to {addr} saying {says:?} in {mails:#?}"))
}

/// "Every mail a player may answer carries what makes the answer work
/// (the token in the subject); answering any of them with orders applies them": the
/// welcome, the report, the press relayed, a notice, the reminder.
#[test]
fn answering_each_mail_a_seat_gets_applies_the_orders() {
    let mut w = World::new(judge());
    let created = started(&mut w);
    every_token_is_its_readers_own(&w, &created);
    // Anna moves first: she answers her welcome.
    let welcome = mail_to(&created, ANNA, "Welcome to race-1").clone();
    orders_applied_by_answering(&mut w, ANNA, &welcome, "welcome");
    // Bob answers the turn report of Anna's move... by a press from Anna.
    let out = w.send(
        ANNA,
        &format!("Re: {}", welcome.subject),
        "PRESS Your turn, Bob.",
    );
    every_token_is_its_readers_own(&w, &out);
    let press = mail_to(&out, BOB, "Press from Anna").clone();
    orders_applied_by_answering(&mut w, BOB, &press, "press");
    // The game master pauses and resumes: Anna answers the notice.
    let (gm_pw, _) = creds(&created, GM);
    w.send(GM, "pause", &format!("GAME race-1 {gm_pw}\nPAUSE"));
    let out = w.send(GM, "resume", &format!("GAME race-1 {gm_pw}\nRESUME"));
    every_token_is_its_readers_own(&w, &out);
    let notice = mail_to(&out, ANNA, "resumed").clone();
    orders_applied_by_answering(&mut w, ANNA, &notice, "notice");
    // Bob is reminded, and answers the reminder.
    let deadline = w.game("race-1").deadline.unwrap();
    let out = w.tick_at(deadline - 12 * 3600);
    every_token_is_its_readers_own(&w, &out);
    let reminder = mail_to(&out, BOB, "Reminder").clone();
    orders_applied_by_answering(&mut w, BOB, &reminder, "reminder");
}

/// "The reply to CREATE for a game master who also sits at the table":
/// answering it with orders applies them; and a game master who does not sit answers
/// any mail of the game with their commands (their token is in its subject).
#[test]
fn answering_the_create_reply_applies_the_orders() {
    let mut w = World::new(judge());
    let out = w.send(
        GM,
        "new game",
        "CREATE race player=Gina:gm@example.org player=Bob:bob@example.org",
    );
    every_token_is_its_readers_own(&w, &out);
    let created = reply_to(&out, GM).clone();
    assert!(
        created.body.contains("race-1 is created"),
        "{}",
        created.body
    );
    orders_applied_by_answering(&mut w, GM, &created, "CREATE reply");

    // A game master without a seat: a reply to the turn report pauses the game.
    let mut w = World::new(judge());
    let created = started(&mut w);
    let report = mail_to(&created, GM, "Turn 1").clone();
    let r = answer_to(&mut w, GM, &report, "PAUSE\n");
    assert_eq!(w.game("race-1").status, Status::Paused, "{}", r.body);
    let r = answer_to(&mut w, GM, &r, "RESUME\n");
    assert_eq!(w.game("race-1").status, Status::Running, "{}", r.body);
}

/// "The JOIN that fills a game ('Reply to this mail with your orders
/// (the subject carries your token)' under the subject `[castello-1] Re: new game`)":
/// answering a JOIN reply, the filling one or not, applies the orders.
#[test]
fn answering_the_join_replies_applies_the_orders() {
    let mut w = World::new(judge());
    w.send(GM, "new game", "CREATE race seats=2 password=letmein");
    let out = w.send(ANNA, "new game", "JOIN race-1 letmein AS Anna");
    every_token_is_its_readers_own(&w, &out);
    let anna_joined = reply_to(&out, ANNA).clone();
    let out = w.send(BOB, "new game", "JOIN race-1 letmein AS Bob");
    every_token_is_its_readers_own(&w, &out);
    let bob_joined = reply_to(&out, BOB).clone();
    assert_eq!(w.game("race-1").status, Status::Running);
    orders_applied_by_answering(&mut w, ANNA, &anna_joined, "JOIN reply");
    orders_applied_by_answering(&mut w, BOB, &bob_joined, "JOIN reply that filled the game");
}

/// "A press mail relayed to Bob never carries Anna's token": each
/// reader's press carries their own token, the game master's theirs, an observer's none.
#[test]
fn a_press_relayed_carries_each_readers_own_token() {
    let mut w = World::new(judge());
    let created = started(&mut w);
    let (anna_pw, _) = creds(&created, ANNA);
    w.send("olga@example.org", "watch", "OBSERVE race-1");
    let out = w.send(
        ANNA,
        "press",
        &format!("GAME race-1 {anna_pw}\nPRESS Hello all."),
    );
    let g = w.game("race-1");
    let anna_token = g.seats[0].token.clone();
    for (reader, own) in [
        (BOB, Some(g.seats[1].token.clone())),
        (GM, Some(g.gm_token.clone())),
        ("olga@example.org", None),
    ] {
        let press = mail_to(&out, reader, "Press from Anna");
        assert_eq!(subject_token(&press.subject), own, "{}", press.subject);
        for m in to(&out, reader) {
            assert!(
                !m.subject.contains(&anna_token) && !m.body.contains(&anna_token),
                "Anna's token reached {reader}: {m:#?}"
            );
        }
    }
}

/// The subject a seat's mail client gives an answer to the judge: its token in the tag.
fn tagged(w: &World, who: &str) -> String {
    let g = w.game("race-1");
    format!("Re: [race-1 #{}] Turn", g.token_of(who).unwrap())
}

/// Nothing in a reply calls a line refused or says nothing was applied.
fn no_refusal(body: &str) {
    for word in [
        "refused",
        "refusé",
        "Nothing was applied",
        "Rien n'a été",
        "None of these",
    ] {
        assert!(!body.contains(word), "{word:?} in:\n{body}");
    }
}

/// "A reply never says 'nothing was applied' when something was": a
/// sign-off after PRESS is not read, named as such, and the press goes out once.
#[test]
fn a_sign_off_after_press_is_not_read_not_refused() {
    let mut w = World::new(judge());
    started(&mut w);
    let before = w.game("race-1").deadline_history;
    let out = w.send(
        BOB,
        &tagged(&w, BOB),
        "PRESS Good luck!\n\nThanks,\nBlack\n",
    );
    let r = reply_to(&out, BOB);
    no_refusal(&r.body);
    assert!(r.body.contains("went to every other player"), "{}", r.body);
    assert!(r.body.contains("== Not read =="), "{}", r.body);
    assert!(r.body.contains("line 3: \"Thanks,\"") && r.body.contains("line 4: \"Black\""));
    let press: Vec<_> = to(&out, ANNA)
        .into_iter()
        .filter(|m| m.body.contains("Good luck!"))
        .collect();
    assert_eq!(press.len(), 1, "{press:#?}");
    assert!(
        !press[0].body.contains("Thanks,"),
        "the sign-off is not relayed"
    );
    assert_eq!(
        w.game("race-1").deadline_history,
        before,
        "no orders played"
    );
}

/// The same after ABANDON, LANGUE: the command is done once, the
/// sign-off is not read, and the reply refuses nothing.
#[test]
fn a_sign_off_after_a_seat_command_is_not_read_not_refused() {
    let mut w = World::new(judge());
    started(&mut w);
    let out = w.send(BOB, &tagged(&w, BOB), "LANGUE fr\nMerci,\nNoir\n");
    let r = reply_to(&out, BOB);
    no_refusal(&r.body);
    assert!(r.body.contains("== Non lu =="), "{}", r.body);
    let g = w.game("race-1");
    assert_eq!(g.seats[1].language, Some(castellan_engine::Lang::Fr));

    let out = w.send(BOB, &tagged(&w, BOB), "ABANDON\n\nMerci,\nNoir\n");
    let r = reply_to(&out, BOB);
    no_refusal(&r.body);
    assert!(r.body.contains("« Merci, »"), "{}", r.body);
    assert!(w.game("race-1").seats[1].resigned);
}

/// Orders + sign-off, a greeting line before orders: the orders are
/// applied once, the greeting and the sign-off named as not read.
#[test]
fn a_greeting_and_a_sign_off_around_orders_are_not_read() {
    let mut w = World::new(judge());
    started(&mut w);
    let before = w.game("race-1").deadline_history;
    let out = w.send(
        ANNA,
        &tagged(&w, ANNA),
        "Hi all,\n\nADD 2\n\nThanks,\nBlack\n",
    );
    let r = reply_to(&out, ANNA);
    no_refusal(&r.body);
    assert!(r.body.contains("1 order line applied"), "{}", r.body);
    assert!(r.body.contains("line 1: \"Hi all,\""), "{}", r.body);
    assert!(r.body.contains("line 6: \"Black\""), "{}", r.body);
    assert_eq!(w.game("race-1").deadline_history, before + 1, "played once");
    // "Hi, count me in!" before a command is not a refusal either.
    let out = w.send("carl@example.org", "hello", "Hi, count me in!\nLIST\n");
    let r = reply_to(&out, "carl@example.org");
    assert!(!r.body.contains("Not understood"), "{}", r.body);
    assert!(
        r.body.contains("line 1: \"Hi, count me in!\""),
        "{}",
        r.body
    );
}

/// "A truly unknown line between two commands is still refused with
/// the line quoted", in a game and outside one.
#[test]
fn an_unknown_line_between_two_commands_is_still_refused() {
    let mut w = World::new(judge());
    started(&mut w);
    let out = w.send(ANNA, &tagged(&w, ANNA), "PRESS hi\nFOO bar\nSTATUS\n");
    let r = reply_to(&out, ANNA);
    assert!(r.body.contains("Orders for race-1 refused"), "{}", r.body);
    assert!(r.body.contains("line 2: \"FOO bar\""), "{}", r.body);
    assert!(!r.body.contains("Not read"), "{}", r.body);
    let out = w.send("carl@example.org", "x", "HELP\nFOO bar\nLIST\n");
    let r = reply_to(&out, "carl@example.org");
    assert!(r.body.contains("== Not understood =="), "{}", r.body);
    assert!(r.body.contains("line 2: \"FOO bar\""), "{}", r.body);
}

/// Found by the hostile players of `simulate --by-mail`: a mail in Anna's name
/// carrying made-up tokens is refused, and its answer (which goes to Anna's own address)
/// carries Anna's own token, not the guesses: the "token in every subject" promise
/// holds for the answers to forged mail too, so Anna can answer it.
#[test]
fn the_answer_to_a_mail_with_a_guessed_token_carries_the_readers_own() {
    let mut w = World::new(judge());
    started(&mut w);
    let before = w.game("race-1").deadline_history;
    let out = w.send(ANNA, "Re: [race-1 #aaaaaa] [race-1 #bbbbbb]", "ADD 1\n");
    let r = reply_to(&out, ANNA).clone();
    let own = w.game("race-1").token_of(ANNA).unwrap().to_string();
    assert_eq!(
        subject_token(&r.subject).as_deref(),
        Some(own.as_str()),
        "{}",
        r.subject
    );
    assert_eq!(w.game("race-1").deadline_history, before, "nothing applied");
    let again = answer_to(&mut w, ANNA, &r, "ADD 1\n");
    assert!(
        again.body.contains("1 order line applied"),
        "{}",
        again.body
    );
}

/// Found by the hostile players of `simulate --by-mail`: a flood of mails in Anna's name
/// with made-up tokens brings her answers, a lock notice and the "too many mails" warning;
/// every one of them about the game carries her own token, never the guesses.
#[test]
fn every_answer_to_a_guessing_flood_carries_the_readers_own_token() {
    let mut w = World::new(judge());
    started(&mut w);
    let own = w.game("race-1").token_of(ANNA).unwrap().to_string();
    let limit = judge().config().rate_limit_per_hour as usize;
    let mut to_anna = Vec::new();
    for i in 0..=limit {
        let guess = format!("{:06}", i).replace(|c: char| c.is_ascii_digit(), "q");
        let out = w.send(ANNA, &format!("Re: [race-1 #{guess}{i}]"), "STATUS\n");
        to_anna.extend(to(&out, ANNA).into_iter().cloned());
    }
    assert!(
        to_anna.iter().any(|m| m.body.contains("Too many mails")),
        "the flood reached the allowance: {:#?}",
        to_anna.last()
    );
    for m in &to_anna {
        assert_eq!(
            subject_token(&m.subject).as_deref(),
            Some(own.as_str()),
            "a mail to Anna about race-1 without her token: {}",
            m.subject
        );
    }
}
