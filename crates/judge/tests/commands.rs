//! The judge's commands by "mail" on the toy game: what each answers and changes.
//! Each test names the requirement it guards (tests/common holds the shared World).

mod common;
use common::*;

/// "A game master starts a ... game by email, players play it to the
/// end by email" — a whole toy game through handle on MemoryStore, orders sent by
/// replying to the private mail (token in the subject).
#[test]
fn whole_game_by_mail() {
    let mut w = World::new(judge());
    let created = started(&mut w);
    assert!(reply_to(&created, GM).body.contains("race-1 is created"));
    let g = w.game("race-1");
    assert_eq!(g.status, Status::Running);
    // "A player gets at most one mail ... When they are next to move, that
    // report is also their 'your move' mail": the start report is one mail to each reader;
    // a player's carries their token and their own part, the game master's is public.
    let token = |a: &str| {
        w.game("race-1").seats[w.game("race-1").seat_of(a).unwrap()]
            .token
            .clone()
    };
    for (a, subject) in [
        (
            GM,
            format!(
                "[race-1 #{}] Turn 1: Anna to move, deadline Thu 18:01 UTC",
                w.game("race-1").gm_token
            ),
        ),
        (
            ANNA,
            format!(
                "[race-1 #{}] Turn 1: your move, deadline Thu 18:01 UTC",
                token(ANNA)
            ),
        ),
        (
            BOB,
            format!(
                "[race-1 #{}] Turn 1: Anna to move, deadline Thu 18:01 UTC",
                token(BOB)
            ),
        ),
    ] {
        let game_mails: Vec<_> = to(&created, a)
            .into_iter()
            .filter(|m| m.subject.contains("Turn 1"))
            .collect();
        assert_eq!(game_mails.len(), 1, "{a}: {game_mails:#?}");
        assert_eq!(game_mails[0].subject, subject);
    }
    let mut last_private: std::collections::HashMap<&str, Outbound> = Default::default();
    for a in [ANNA, BOB] {
        let p = created
            .iter()
            .find(|m| m.to == a && m.subject.contains(" #") && m.subject.contains("Turn"))
            .unwrap()
            .clone();
        last_private.insert(a, p);
    }
    let mut mails = 0;
    while w.game("race-1").status == Status::Running {
        let g = w.game("race-1");
        let seat = (g.deadline_history - 1) % 2; // the toy alternates seats from seat 0; entry 0 is the setup
        let who = [ANNA, BOB][seat];
        let subject = format!("Re: {}", last_private[who].subject);
        let out = w.send(who, &subject, "ADD 3\n");
        let r = reply_to(&out, who);
        assert!(r.body.contains("1 order line applied"), "{}", r.body);
        if r.body
            .contains("\n========================================\n")
        {
            // A reply that carries a report has the report's subject: its turn and whose
            // move it is (the thread holds by In-Reply-To).
            let tag = subject
                .trim_start_matches("Re: ")
                .split("] ")
                .next()
                .unwrap();
            assert!(
                r.subject.starts_with(&format!("{tag}] Turn "))
                    || r.subject.starts_with(&format!("{tag}] Game over")),
                "a reply carrying a report has its subject: {}",
                r.subject
            );
            assert!(!r.subject.starts_with("Re: "), "{}", r.subject);
        } else {
            assert_eq!(r.subject, subject, "replies keep the thread's subject");
        }
        for a in [ANNA, BOB] {
            if let Some(p) = out.iter().find(|m| m.to == a && m.subject.contains(" #")) {
                last_private.insert(a, p.clone());
            }
        }
        // Every public report shows each die with its turn and index.
        let public = out
            .iter()
            .find(|m| m.to == GM && untagged(&m.subject).starts_with("[race-1] "))
            .unwrap();
        assert!(
            public.body.contains("Dice (turn.index: values, in order):"),
            "{}",
            public.body
        );
        mails += 1;
        assert!(mails < 20, "the toy ends within 10 orders");
    }
    let g = w.game("race-1");
    assert_eq!(g.status, Status::Finished);
    let all = w.store.outbox();
    let fin: Vec<_> = all
        .iter()
        .filter(|m| m.body.contains("The game is over"))
        .collect();
    // One final report to each of Anna, Bob and the GM (the last mover's inside the reply
    // to their last orders).
    assert_eq!(fin.len(), 3, "{fin:#?}");
    for a in [ANNA, BOB, GM] {
        assert_eq!(fin.iter().filter(|m| m.to == a).count(), 1, "{a}");
    }
    let fin: Vec<_> = fin
        .into_iter()
        .filter(|m| untagged(&m.subject).starts_with("[race-1] Game over"))
        .collect();
    // "When a game ends: final report, reveal the secret card-stream key".
    assert!(fin[0].body.contains("Secret card-stream key"));
    assert!(fin[0].body.contains("reached ten"));
    // Orders after the end are refused, and nothing changes.
    let out = w.send(
        ANNA,
        &format!("Re: {}", last_private[ANNA].subject),
        "ADD 1",
    );
    assert!(reply_to(&out, ANNA).body.contains("is over"));
    assert_eq!(w.game("race-1"), g);
    // A late observer does not set off a second final report.
    let out = w.send("olga@example.org", "x", "OBSERVE race-1");
    assert_eq!(out.len(), 1, "{out:#?}");
}

/// "CHECK (validate orders against the current state without
/// applying: the answer says what would happen up to the first die)".
#[test]
fn check_changes_nothing() {
    let mut w = World::new(judge());
    let created = started(&mut w);
    let (pw, _) = creds(&created, ANNA);
    let before = w.game("race-1");
    let out = w.send(
        ANNA,
        "check",
        &format!("GAME race-1 {pw}\nCHECK ADD 2\nCHECK\nADD 9"),
    );
    assert_eq!(out.len(), 1, "a reply only, no report: {out:#?}");
    let b = &out[0].body;
    assert!(b.contains("line 2: \"ADD 2\""), "{b}");
    assert!(b.contains("dice decide what happens from here"), "{b}");
    assert!(
        b.contains("line 4: \"ADD 9\"\n  refused: add 1, 2 or 3\n  write: ADD 2"),
        "{b}"
    );
    assert_eq!(w.game("race-1"), before);
}

/// A CHECK block once answered "legal so far" for an illegal line that follows a dice
/// line. A game that checks nothing past a die (the toy) has each later
/// line said not checked, with why, never called legal; CHECK still shows no die.
#[test]
fn a_check_block_says_which_lines_after_a_die_it_did_not_check() {
    let mut w = World::new(judge());
    let created = started(&mut w);
    let (pw, _) = creds(&created, ANNA);
    let before = w.game("race-1");
    let out = w.send(
        ANNA,
        "check",
        &format!("GAME race-1 {pw}\nCHECK\nADD 2\nADD 9"),
    );
    let b = &out[0].body;
    assert!(
        b.contains("line 3: \"ADD 2\"\n  legal so far; dice decide what happens from here"),
        "{b}"
    );
    assert!(
        b.contains("line 4: \"ADD 9\"\n  not checked: it comes after a line that rolls dice or draws a hidden card"),
        "{b}"
    );
    assert_eq!(b.matches("legal so far").count(), 1, "{b}");
    assert_eq!(w.game("race-1"), before);
}

/// "Errors quote the line, say what is wrong and how to write it";
/// (Commands) orders of one game are all or nothing.
#[test]
fn refused_orders_quote_the_line_and_apply_nothing() {
    let mut w = World::new(judge_with(config()));
    // Three seats so one mail can hold a legal line and a bad one for seat 0.
    let created = w.send(
        GM,
        "new",
        "CREATE race player=Anna:anna@example.org player=Bob:bob@example.org player=Cy:cy@example.org",
    );
    let (pw, _) = creds(&created, ANNA);
    let before = w.game("race-1");
    let out = w.send(
        ANNA,
        "orders",
        &format!("Hello judge\nGAME race-1 {pw}\nADD 7\nADD 1\n"),
    );
    let b = &reply_to(&out, ANNA).body;
    assert!(b.contains("line 3: \"ADD 7\""), "{b}");
    // The good line after it would roll a die: not checked, so its die is not shown.
    assert!(b.contains("line 4: \"ADD 1\"\n  not checked"), "{b}");
    assert!(b.contains("None of these orders was applied"), "{b}");
    assert!(
        b.contains("line 1: \"Hello judge\""),
        "chatter is quoted: {b}"
    );
    assert_eq!(w.game("race-1"), before);
}

/// Dice peeking: "A mail whose orders are refused as a whole still shows the
/// outcomes of the dice its first lines rolled. It consumes no dice". Now a die once rolled
/// stands: the line before the refused one is applied, its die recorded and reported.
#[test]
fn dice_peeking_a_refused_mail_keeps_the_dice_it_shows() {
    let mut w = World::new(judge_with(config()));
    let created = w.send(
        GM,
        "new",
        "CREATE race player=Anna:anna@example.org player=Bob:bob@example.org player=Cy:cy@example.org",
    );
    let (pw, _) = creds(&created, ANNA);
    let out = w.send(ANNA, "orders", &format!("GAME race-1 {pw}\nADD 1\nADD 7\n"));
    let b = &reply_to(&out, ANNA).body;
    assert!(b.contains("line 3: \"ADD 7\""), "{b}");
    assert!(b.contains("A die once rolled stands: line 2,"), "{b}");
    assert!(b.contains("seat 0 adds 1, die"), "{b}");
    // The die counted: it is in the game's history, and the game is Bob's to play.
    let game = format!("{:?}", w.game("race-1").table);
    assert!(game.contains("\"rolls\":[{"), "{game}");
    let (bob_pw, _) = creds(&created, BOB);
    let out = w.send(BOB, "orders", &format!("GAME race-1 {bob_pw}\nADD 1\n"));
    assert!(reply_to(&out, BOB).body.contains("applied"));
}

/// "PRESS (a public message to all players)": every player,
/// observer and the game master receive it, each in a mail of their own.
#[test]
fn press_reaches_everyone() {
    let mut w = World::new(judge());
    let created = started(&mut w);
    let (pw, _) = creds(&created, BOB);
    let out = w.send("olga@example.org", "watch", "OBSERVE race-1");
    assert!(reply_to(&out, "olga@example.org")
        .body
        .contains("You now receive"));
    let out = w.send(
        BOB,
        "press",
        &format!("GAME race-1 {pw}\nPRESS Anna, your castle is mine."),
    );
    let press: Vec<_> = out
        .iter()
        .filter(|m| untagged(&m.subject) == "[race-1] Press from Bob")
        .collect();
    let mut addrs: Vec<&str> = press.iter().map(|m| m.to.as_str()).collect();
    addrs.sort();
    // Everyone but Bob, whose reply says it went (one reply a mail).
    assert_eq!(addrs, vec![ANNA, GM, "olga@example.org"]);
    assert!(reply_to(&out, BOB)
        .body
        .contains("went to every other player"));
    assert!(press
        .iter()
        .all(|m| m.body.contains("Anna, your castle is mine.")));
    // Multi-line press, ended by ENDPRESS.
    let out = w.send(
        BOB,
        "press",
        &format!("GAME race-1 {pw}\nPRESS\nline one\nline two\nENDPRESS\nSTATUS"),
    );
    let p = out
        .iter()
        .find(|m| m.to == ANNA && m.subject.contains("Press"))
        .unwrap();
    assert!(p.body.contains("line one\nline two"), "{}", p.body);
    assert!(reply_to(&out, BOB).body.contains("STATUS race-1"));
}

/// RESIGN hands the seat to a bot, which plays it out; orders before
/// START are refused.
#[test]
fn resign_and_orders_before_start() {
    let mut w = World::new(judge());
    let out = w.send(
        GM,
        "new",
        "CREATE race seats=2 player=Anna:anna@example.org",
    );
    let (apw, _) = creds(&out, ANNA);
    let out = w.send(ANNA, "x", &format!("GAME race-1 {apw}\nADD 1"));
    assert!(reply_to(&out, ANNA).body.contains("has not started yet"));
    let out = w.send(BOB, "JOIN race-1 x", "");
    assert!(reply_to(&out, BOB).body.contains("Wrong join password"));
    let join = w
        .store
        .outbox()
        .into_iter()
        .find(|m| m.to == GM && m.body.contains("JOIN race-1 "))
        .unwrap();
    let jpw = join
        .body
        .lines()
        .find_map(|l| l.trim().strip_prefix("JOIN race-1 "))
        .unwrap()
        .split_whitespace()
        .next()
        .unwrap()
        .to_string();
    let out = w.send(BOB, &format!("JOIN race-1 {jpw} AS Bob"), "");
    assert!(reply_to(&out, BOB).body.contains("the game starts"));
    let out = w.send(ANNA, "x", &format!("GAME race-1 {apw}\nRESIGN"));
    assert!(reply_to(&out, ANNA).body.contains("a bot plays your seat"));
    assert!(out
        .iter()
        .any(|m| m.to == BOB && untagged(&m.subject) == "[race-1] Anna resigned"));
    let g = w.game("race-1");
    assert!(g.seats[0].resigned && g.seats[0].bot);
    // The bot moved for Anna at once: Bob is awaited.
    assert_eq!((g.deadline_history - 1) % 2, 1);
}

/// "JOIN game password" fills open seats; the game starts when full.
#[test]
fn join_fills_open_seats_and_starts() {
    let mut w = World::new(judge());
    let out = w.send(
        GM,
        "new",
        "create race seats=2 player=Anna:anna@example.org password=letmein deadline=24",
    );
    assert!(reply_to(&out, GM).body.contains("race-1 is created"));
    assert_eq!(w.game("race-1").status, Status::Forming);
    let gm_welcome = out
        .iter()
        .find(|m| m.to == GM && m.body.contains("Open seats"))
        .unwrap();
    assert!(gm_welcome.body.contains("JOIN race-1 letmein"));
    let out = w.send(BOB, "join", "JOIN race-1 wrong AS Bob");
    assert!(reply_to(&out, BOB).body.contains("Wrong join password"));
    assert_eq!(w.game("race-1").status, Status::Forming);
    // One-liner in the subject.
    let out = w.send(BOB, "JOIN race-1 letmein AS Bob", "");
    assert!(reply_to(&out, BOB)
        .body
        .contains("You have a seat in race-1 as Bob"));
    let g = w.game("race-1");
    assert_eq!(g.status, Status::Running);
    assert_eq!(
        g.deadline,
        Some(w.now + 24 * 3600),
        "deadline=24 from CREATE"
    );
    assert!(out
        .iter()
        .any(|m| m.to == BOB && m.body.contains("Your password:")));
    assert!(out
        .iter()
        .any(|m| m.to == GM && untagged(&m.subject) == "[race-1] Bob joined"));
}

/// The game master's PAUSE, RESUME, EXTEND, REPLACE, KICK, END;
/// a player may not use them.
#[test]
fn game_master_commands() {
    let mut w = World::new(judge());
    let created = started(&mut w);
    let (gpw, _) = creds(&created, GM);
    let (apw, _) = creds(&created, ANNA);
    let out = w.send(ANNA, "x", &format!("GAME race-1 {apw}\nPAUSE"));
    assert!(reply_to(&out, ANNA).body.contains("Only the game master"));
    let d = w.game("race-1").deadline.unwrap();
    let out = w.send(GM, "x", &format!("GAME race-1 {gpw}\nPAUSE"));
    assert!(out
        .iter()
        .any(|m| m.to == ANNA && untagged(&m.subject) == "[race-1] paused"));
    assert_eq!(w.game("race-1").status, Status::Paused);
    assert!(w.tick_at(d + 3600).is_empty(), "no deadline while paused");
    let out = w.send(ANNA, "x", &format!("GAME race-1 {apw}\nADD 1"));
    assert!(reply_to(&out, ANNA).body.contains("paused"));
    w.send(GM, "x", &format!("GAME race-1 {gpw}\nRESUME\nEXTEND 10"));
    let g = w.game("race-1");
    assert_eq!(g.status, Status::Running);
    assert!(g.deadline.unwrap() > w.now + 10 * 3600);
    // REPLACE Bob by Carl: Carl gets credentials, Bob's no longer work.
    let (bpw, _) = creds(&created, BOB);
    let out = w.send(
        GM,
        "x",
        &format!("GAME race-1 {gpw}\nREPLACE Bob carl@example.org"),
    );
    let (cpw, _) = creds(&out, "carl@example.org");
    assert_eq!(
        w.game("race-1").seats[1].address.as_deref(),
        Some("carl@example.org")
    );
    let out = w.send(BOB, "x", &format!("GAME race-1 {bpw}\nSTATUS"));
    assert!(!reply_to(&out, BOB).body.contains("Your private view"));
    // KICK Anna: a bot plays her seat at once; Carl is awaited.
    w.send(GM, "x", &format!("GAME race-1 {gpw}\nKICK 1"));
    let g = w.game("race-1");
    assert!(g.seats[0].bot && g.seats[0].address.is_none());
    let out = w.send(
        "carl@example.org",
        "x",
        &format!("GAME race-1 {cpw}\nSTATUS"),
    );
    assert!(reply_to(&out, "carl@example.org")
        .body
        .contains("Waiting for: Bob"));
    // A bare END is the game's order, never the game master's end ("an order
    // grammar in which END can only mean one thing"); END GAME ends the game.
    let out = w.send(GM, "x", &format!("GAME race-1 {gpw}\nEND"));
    assert_eq!(w.game("race-1").status, Status::Running);
    assert!(reply_to(&out, GM).body.contains("orders need a seat"));
    // END GAME ("GM password required, then a confirmation by reply"): the
    // first answers with a code and ends nothing; a wrong code ends nothing; END GAME
    // <code> ends the game, with the final report and the key.
    let out = w.send(GM, "x", &format!("GAME race-1 {gpw}\nEND GAME"));
    assert_eq!(w.game("race-1").status, Status::Running);
    let body = &reply_to(&out, GM).body;
    let code = body
        .lines()
        .find_map(|l| l.strip_prefix("  END GAME "))
        .unwrap_or_else(|| panic!("no code: {body}"))
        .to_string();
    let out = w.send(GM, "x", &format!("GAME race-1 {gpw}\nEND GAME nope42"));
    assert_eq!(w.game("race-1").status, Status::Running);
    assert!(reply_to(&out, GM)
        .body
        .contains("not the code END GAME gave"));
    w.send(ANNA, "x", &format!("GAME race-1 {apw}\nEND GAME {code}"));
    assert_eq!(
        w.game("race-1").status,
        Status::Running,
        "a player cannot end it"
    );
    let out = w.send(GM, "x", &format!("GAME race-1 {gpw}\nEND GAME {code}"));
    assert_eq!(w.game("race-1").status, Status::Finished);
    let fin = out
        .iter()
        .find(|m| m.to == "carl@example.org" && m.subject.contains("Game over"))
        .unwrap();
    assert!(fin.body.contains("ended by the game master"));
    assert!(fin.body.contains("Secret card-stream key"));
}

/// HISTORY game [turn or range] and VERIFY (dice audit of revealed
/// turns); HELP, LIST and ORDERS.
#[test]
fn history_verify_help_list_orders() {
    let mut w = World::new(judge());
    let created = started(&mut w);
    let (apw, _) = creds(&created, ANNA);
    let (bpw, _) = creds(&created, BOB);
    w.send(ANNA, "x", &format!("GAME race-1 {apw}\nADD 2"));
    w.send(BOB, "x", &format!("GAME race-1 {bpw}\nADD 3"));
    let out = w.send(
        "olga@example.org",
        "x",
        "HISTORY race-1 2\nVERIFY race-1\nHELP\nLIST\nORDERS race",
    );
    let b = &out[0].body;
    assert!(b.contains("Turn 2:\n  seat 1 adds 3"), "{b}");
    assert!(
        !b.contains("seat 0 adds 2"),
        "turn 1 is not in HISTORY 2: {b}"
    );
    assert!(
        b.contains("Revealed turns 1 to 2: every seed chains to the commitment; 2 dice replay"),
        "{b}"
    );
    assert!(b.contains("The whole game replays"), "{b}");
    assert!(b.contains("HELP                          this text"), "{b}");
    assert!(b.contains("race-1 race Running, 2/2 seats"), "{b}");
    assert!(b.contains("== ORDERS for race ==\nADD n"), "{b}");
    assert!(!mentions_a_card(b));
    // A stranger's LIST names nobody; a player's names the players and whom it waits for.
    assert!(!b.contains("players:") && !b.contains("Anna"), "{b}");
    let mine = &w.send(ANNA, "x", "LIST")[0].body;
    assert!(
        mine.contains("race-1 race Running, 2/2 seats") && mine.contains("\n  players: "),
        "{mine}"
    );
    let line = mine.lines().find(|l| l.starts_with("  players: ")).unwrap();
    assert_eq!(line, "  players: Anna, Bob; to move: Anna", "{mine}");
}

/// The CLI's `game new|list|show|pause|resume|extend|replace|end` (Judge::admin).
#[test]
fn admin_commands() {
    let w = World::new(judge());
    let e = env(T0);
    let (c, text) =
        w.j.admin(
            &w.store,
            AdminCommand::New {
                game: "race".into(),
                players: vec![("Anna".into(), ANNA.into()), ("Bob".into(), BOB.into())],
                gm: GM.into(),
                options: vec![("deadline".into(), "12".into())],
            },
            &e,
        )
        .unwrap();
    assert_eq!(text, "created race-1");
    w.store.commit(&c).unwrap();
    assert_eq!(w.game("race-1").deadline, Some(T0 + 12 * 3600));
    assert!(c
        .outbox
        .iter()
        .any(|m| m.to == ANNA && m.body.contains("Your password:")));
    let (_, list) = w.j.admin(&w.store, AdminCommand::List, &e).unwrap();
    assert!(list.starts_with("race-1 race Running, 2/2 seats"), "{list}");
    let (_, show) =
        w.j.admin(
            &w.store,
            AdminCommand::Show {
                game: "race-1".into(),
            },
            &e,
        )
        .unwrap();
    assert!(
        show.contains("seat 1: Anna <anna@example.org>") && show.contains("count 0"),
        "{show}"
    );
    let (c, _) =
        w.j.admin(
            &w.store,
            AdminCommand::Extend {
                game: "race-1".into(),
                hours: 5,
            },
            &e,
        )
        .unwrap();
    w.store.commit(&c).unwrap();
    assert_eq!(w.game("race-1").deadline, Some(T0 + 17 * 3600));
    let err =
        w.j.admin(
            &w.store,
            AdminCommand::Resume {
                game: "race-1".into(),
            },
            &e,
        )
        .unwrap_err();
    assert!(err.to_string().contains("not paused"));
    let (c, _) =
        w.j.admin(
            &w.store,
            AdminCommand::End {
                game: "race-1".into(),
            },
            &e,
        )
        .unwrap();
    w.store.commit(&c).unwrap();
    assert_eq!(w.game("race-1").status, Status::Finished);
    assert!(w
        .j
        .admin(
            &w.store,
            AdminCommand::Pause {
                game: "race-9".into()
            },
            &e
        )
        .is_err());
}

/// CREATE refuses what it cannot run, saying how to write it.
#[test]
fn create_refusals() {
    let mut w = World::new(judge());
    let out = w.send(
        GM,
        "x",
        "CREATE chess player=a@example.org player=b@example.org",
    );
    assert!(
        out[0].body.contains("there is no game \"chess\""),
        "{}",
        out[0].body
    );
    let out = w.send(GM, "x", "CREATE race player=Anna:anna@example.org");
    assert!(
        out[0].body.contains("played by 2 to 3 players, not 1"),
        "{}",
        out[0].body
    );
    let out = w.send(GM, "x", "CREATE race seats=2 colour=red");
    assert!(
        out[0].body.contains("unknown option \"colour\""),
        "{}",
        out[0].body
    );
    assert!(w.store.game_ids().unwrap().is_empty());
}

/// `deadline-KIND` at CREATE takes only the kinds of prompt the game asks;
/// a misspelt kind is refused, naming the kinds, and no game is made.
#[test]
fn create_refuses_a_deadline_for_a_kind_the_game_never_prompts() {
    let mut w = World::new(judge());
    let out = w.send(
        GM,
        "new",
        "CREATE race player=Anna:anna@example.org player=Bob:bob@example.org deadline-defnd=12",
    );
    let body = &reply_to(&out, GM).body;
    assert!(body.contains("CREATE refused"), "{body}");
    assert!(
        body.contains("deadline-defnd") && body.contains("turn"),
        "{body}"
    );
    assert!(w.store.game_ids().unwrap().is_empty());
    let out = w.send(
        GM,
        "new",
        "CREATE race player=Anna:anna@example.org player=Bob:bob@example.org deadline-turn=12",
    );
    assert!(reply_to(&out, GM).body.contains("CREATE race-1"));
    assert_eq!(w.game("race-1").deadlines.hours_for("turn"), 12);
}

/// French: `langue=fr` at CREATE makes the game French: welcomes, reports and
/// the game master's mails, French dates; French command words get a French reply from a
/// writer with no seat.
#[test]
fn a_french_game_and_french_command_words() {
    let mut w = World::new(judge());
    let out = w.send(
        GM,
        "nouvelle partie",
        "CRÉER race langue=fr player=Anna:anna@example.org player=Bob:bob@example.org",
    );
    let r = reply_to(&out, GM);
    assert!(r.body.starts_with("L'arbitre répond"), "{}", r.body);
    let welcome = out
        .iter()
        .find(|m| m.to == ANNA && m.body.contains("Votre mot de passe"))
        .expect("a French welcome");
    assert!(
        welcome.subject.contains("Bienvenue dans race-1"),
        "{}",
        welcome.subject
    );
    assert!(welcome
        .headers
        .iter()
        .any(|(k, _)| k == "X-Castellan-Token"));
    let report = out
        .iter()
        .find(|m| m.to == GM && untagged(&m.subject).starts_with("[race-1] Tour 1"))
        .expect("a French report to the game master");
    assert!(report.body.contains("Échéance : jeudi"), "{}", report.body);
    let out = w.send("zoe@example.org", "aide", "AIDE");
    let r = reply_to(&out, "zoe@example.org");
    assert!(
        r.body.contains("REJOINDRE") && r.body.starts_with("L'arbitre"),
        "{}",
        r.body
    );
    let out = w.send("zoe@example.org", "help", "HELP");
    assert!(reply_to(&out, "zoe@example.org")
        .body
        .starts_with("The judge answers"));
}

/// "HISTORY by mail can ask for pictures (`HISTORY castle-7 12 PICTURE`)": the
/// reply carries, in its HTML part, the board as it stood at the end of the range, as this
/// reader may see it (an observer or a stranger: the public picture).
#[test]
fn history_with_picture_sends_the_board_of_a_past_turn() {
    let mut w = World::new(judge());
    let created = started(&mut w);
    let (apw, _) = creds(&created, ANNA);
    let (bpw, _) = creds(&created, BOB);
    w.send(ANNA, "x", &format!("GAME race-1 {apw}\nADD 1"));
    w.send(BOB, "x", &format!("GAME race-1 {bpw}\nADD 2"));
    let out = w.send(ANNA, "x", "HISTORY race-1 1-2 PICTURE");
    let r = reply_to(&out, ANNA);
    assert!(r.body.contains("pictured in the HTML part"), "{}", r.body);
    let html = r.html.as_deref().expect("an HTML part");
    assert!(html.contains("<svg"), "{html}");
    // Without PICTURE, text only.
    let out = w.send(ANNA, "x", "HISTORY race-1 1-2");
    assert!(reply_to(&out, ANNA).html.is_none());
}

/// "`SET REPORTS TURN` is the default. `ROUND` sends one digest per round.
/// `NONE` sends only the mails that ask something of you. Observers and the game master
/// choose too." The game master chooses NONE (no report until the end), an observer ROUND
/// (every second report in a two-player game, each telling both moves); a mail that asks
/// something still comes.
#[test]
fn set_reports_holds_back_reports_but_never_what_asks_something() {
    let mut w = World::new(judge());
    let created = started(&mut w);
    let (gpw, _) = creds(&created, GM);
    let (apw, _) = creds(&created, ANNA);
    let (bpw, _) = creds(&created, BOB);
    let out = w.send(GM, "quiet", &format!("GAME race-1 {gpw}\nSET REPORTS NONE"));
    assert!(
        reply_to(&out, GM)
            .body
            .contains("only the mails that ask something"),
        "{}",
        reply_to(&out, GM).body
    );
    w.send("olga@example.org", "watch", "OBSERVE race-1");
    let out = w.send("olga@example.org", "[race-1] digest", "SET REPORTS ROUND");
    assert!(reply_to(&out, "olga@example.org")
        .body
        .contains("one report a round"));
    let bad = w.send(GM, "x", &format!("GAME race-1 {gpw}\nSET REPORTS WEEKLY"));
    assert!(reply_to(&bad, GM)
        .body
        .contains("SET REPORTS takes TURN, ROUND or NONE"));
    let mut olga_reports = Vec::new();
    let mut gm_mails = 0;
    let mut moves: usize = 0;
    while w.game("race-1").status == Status::Running {
        let g = w.game("race-1");
        let seat = (g.deadline_history - 1) % 2;
        let (who, pw) = [(ANNA, &apw), (BOB, &bpw)][seat];
        let out = w.send(who, "orders", &format!("GAME race-1 {pw}\nADD 1"));
        moves += 1;
        // The player to move next is always told: it is their move.
        let next = [BOB, ANNA][seat];
        if w.game("race-1").status == Status::Running {
            assert!(
                to(&out, next)
                    .iter()
                    .any(|m| m.body.contains("You are asked:")),
                "{next} was not told it is their move"
            );
        }
        gm_mails += to(&out, GM)
            .iter()
            .filter(|m| !m.body.contains("The game is over"))
            .count();
        olga_reports.extend(to(&out, "olga@example.org").into_iter().cloned());
        assert!(moves < 40);
    }
    assert_eq!(gm_mails, 0, "the game master chose NONE");
    let fin = w
        .store
        .outbox()
        .into_iter()
        .filter(|m| m.to == GM && m.body.contains("The game is over"))
        .count();
    assert_eq!(fin, 1, "the end still comes");
    // About one report a round, not one a move.
    let during: Vec<_> = olga_reports
        .iter()
        .filter(|m| !m.body.contains("The game is over"))
        .collect();
    assert!(moves >= 4, "{moves}");
    assert!(
        during.len() <= moves.div_ceil(2),
        "{} reports for {moves} moves",
        during.len()
    );
    assert!(!during.is_empty());
    // A digest tells every move since the last one.
    assert!(
        during
            .iter()
            .any(|m| m.body.matches(" adds 1").count() >= 2),
        "{:#?}",
        during
    );
}

/// "The deadline, in the reader's time zone (`SET TIMEZONE Europe/Paris`) and in
/// UTC". Anna sets Paris: her mails give the deadline in Paris time with UTC beside; Bob's
/// stay in UTC; a zone that does not exist is refused with how to write one.
#[test]
fn set_timezone_shows_a_readers_deadlines_in_their_zone_and_in_utc() {
    let mut w = World::new(judge());
    let created = started(&mut w);
    let (apw, _) = creds(&created, ANNA);
    let bad = w.send(
        ANNA,
        "tz",
        &format!("GAME race-1 {apw}\nSET TIMEZONE Mars/Olympus"),
    );
    let b = &reply_to(&bad, ANNA).body;
    assert!(b.contains("\"Mars/Olympus\" is not a time zone"), "{b}");
    assert!(b.contains("write: SET TIMEZONE Europe/Paris"), "{b}");
    let out = w.send(
        ANNA,
        "tz",
        &format!("GAME race-1 {apw}\nSET TIMEZONE europe/paris"),
    );
    let b = &reply_to(&out, ANNA).body;
    assert!(b.contains("shown in Europe/Paris"), "{b}");
    assert!(b.contains("CET (") && b.contains(" UTC)"), "{b}");
    // Anna moves; her report (inside the reply) and Bob's "your move" say the deadline.
    let out = w.send(ANNA, "orders", &format!("GAME race-1 {apw}\nADD 1"));
    let anna = reply_to(&out, ANNA);
    let line = anna
        .body
        .lines()
        .find(|l| l.starts_with("Deadline:"))
        .expect("a deadline line");
    assert!(line.contains(" CET (") && line.ends_with(" UTC)"), "{line}");
    let bob = to(&out, BOB);
    let line = bob[0]
        .body
        .lines()
        .find(|l| l.starts_with("Deadline:"))
        .unwrap();
    assert!(line.ends_with(" UTC") && !line.contains("CET"), "{line}");
}

/// With the HTML reports of d947e0f: "Reports and private views carry an HTML
/// part with the board's picture." A player's turn report is their one mail of the turn,
/// so it carries the picture whether or not their seat has secrets to draw (Bob's toy seat
/// has none: he gets the table's picture; Anna's shows her card).
#[test]
fn every_players_turn_report_carries_the_picture() {
    let mut w = World::new(judge());
    let created = started(&mut w);
    let (apw, _) = creds(&created, ANNA);
    let out = w.send(ANNA, "x", &format!("GAME race-1 {apw}\nADD 1"));
    for who in [ANNA, BOB] {
        let reports: Vec<_> = to(&out, who)
            .into_iter()
            .filter(|m| m.body.contains("count"))
            .collect();
        assert!(!reports.is_empty(), "no report to {who}: {out:#?}");
        for m in reports {
            let html = m
                .html
                .as_deref()
                .unwrap_or_else(|| panic!("{who}: {}", m.body));
            assert!(html.contains("<svg"), "{who}: {html}");
        }
    }
    let bob = to(&out, BOB)[0].html.as_deref().unwrap_or_default();
    assert!(bob.contains("data-viewer=\"public\""), "{bob}");
}
