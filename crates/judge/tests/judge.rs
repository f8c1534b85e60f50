//! The judge by "mail", on the toy game (castellan_engine::toy::Race: seats add 1 to 3,
//! a die adds one on an even face, ten wins; seat 0 holds a secret card).
//! Each test names the line of issue 3 it guards.

use castellan_engine::game_info;
use castellan_engine::toy::Race;
use castellan_judge::*;

const T0: i64 = 1_736_877_600; // Tue 14 Jan 2025 18:00 UTC

fn config() -> JudgeConfig {
    JudgeConfig {
        address: "judge@example.org".into(),
        domain: "example.org".into(),
        ..JudgeConfig::default()
    }
}

/// The toy's GameInfo (its options are `()`).
pub fn race_info() -> castellan_engine::GameInfo {
    game_info::<Race>()
}

fn judge_with(config: JudgeConfig) -> Judge {
    Judge::new(config, vec![race_info()], Templates::builtin())
}

fn judge() -> Judge {
    judge_with(config())
}

fn env(now: i64) -> Env {
    let mut e = [0u8; 32];
    e[..8].copy_from_slice(&now.to_le_bytes());
    Env { now, entropy: e }
}

struct World {
    j: Judge,
    store: MemoryStore,
    now: i64,
    n: u64,
}

impl World {
    fn new(j: Judge) -> World {
        World {
            j,
            store: MemoryStore::new(),
            now: T0,
            n: 0,
        }
    }

    fn inbound(&mut self, from: &str, subject: &str, body: &str) -> Inbound {
        self.n += 1;
        Inbound {
            message_id: format!("<m{}@players.example>", self.n),
            from: from.into(),
            to: vec!["judge@example.org".into()],
            subject: subject.into(),
            body: body.into(),
            ..Default::default()
        }
    }

    /// Handle and commit one mail; the mails it caused.
    fn send(&mut self, from: &str, subject: &str, body: &str) -> Vec<Outbound> {
        let m = self.inbound(from, subject, body);
        self.deliver(&m)
    }

    fn deliver(&mut self, m: &Inbound) -> Vec<Outbound> {
        self.now += 60;
        let c = self.j.handle(&self.store, m, &env(self.now)).unwrap();
        self.store.commit(&c).unwrap();
        c.outbox
    }

    fn tick_at(&mut self, now: i64) -> Vec<Outbound> {
        self.now = now;
        let c = self.j.tick(&self.store, &env(now)).unwrap();
        self.store.commit(&c).unwrap();
        c.outbox
    }

    fn game(&self, id: &str) -> GameRecord {
        self.store.game(id).unwrap().expect("game exists")
    }
}

fn to<'a>(mails: &'a [Outbound], addr: &str) -> Vec<&'a Outbound> {
    mails.iter().filter(|m| m.to == addr).collect()
}

fn reply_to<'a>(mails: &'a [Outbound], addr: &str) -> &'a Outbound {
    mails
        .iter()
        .find(|m| {
            m.to == addr
                && m.in_reply_to
                    .as_deref()
                    .is_some_and(|r| r.starts_with("<m"))
        })
        .unwrap_or_else(|| panic!("no reply to {addr} in {mails:#?}"))
}

/// Password and token from a welcome mail.
fn creds(mails: &[Outbound], addr: &str) -> (String, String) {
    let w = mails
        .iter()
        .find(|m| m.to == addr && m.body.contains("Your password:"))
        .unwrap_or_else(|| panic!("no welcome for {addr}"));
    let get = |k: &str| {
        w.body
            .lines()
            .find_map(|l| l.strip_prefix(k))
            .map(|s| s.trim().to_string())
            .unwrap()
    };
    (get("Your password:"), get("Your token:"))
}

const ANNA: &str = "anna@example.org";
const BOB: &str = "bob@example.org";
const GM: &str = "gm@example.org";

/// A running race-1 with Anna (seat 0) and Bob; returns the creation mails.
fn started(w: &mut World) -> Vec<Outbound> {
    w.send(
        GM,
        "new game",
        "CREATE race player=Anna:anna@example.org player=Bob:bob@example.org",
    )
}

fn secret_card(mails: &[Outbound]) -> String {
    let m = mails
        .iter()
        .find(|m| m.to == ANNA && m.body.contains("you hold card"))
        .expect("Anna is told her card");
    let i = m.body.find("you hold card ").unwrap() + "you hold card ".len();
    m.body[i..]
        .chars()
        .take_while(|c| c.is_ascii_digit())
        .collect()
}

/// Any "card <digits>" in a text (the toy's only private fact).
fn mentions_a_card(s: &str) -> bool {
    s.match_indices("card ")
        .any(|(i, _)| s[i + 5..].starts_with(|c: char| c.is_ascii_digit()))
}

/// Issue 3 (Done when): "a game master starts a ... game by email, players play it to the
/// end by email" — a whole toy game through handle on MemoryStore, orders sent by
/// replying to the private mail (token in the subject).
#[test]
fn whole_game_by_mail() {
    let mut w = World::new(judge());
    let created = started(&mut w);
    assert!(reply_to(&created, GM).body.contains("race-1 is created"));
    let g = w.game("race-1");
    assert_eq!(g.status, Status::Running);
    // Start report: public to all three, private to each player.
    for a in [ANNA, BOB, GM] {
        assert!(
            to(&created, a)
                .iter()
                .any(|m| m.subject == "[race-1] Turn 1: Anna to move, deadline Thu 18:01 UTC"),
            "{a}: {:#?}",
            to(&created, a)
        );
    }
    let mut last_private: std::collections::HashMap<&str, Outbound> = Default::default();
    for a in [ANNA, BOB] {
        let p = created
            .iter()
            .find(|m| m.to == a && m.subject.contains("your"))
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
        assert!(r.body.contains("1 order line(s) applied"), "{}", r.body);
        assert_eq!(r.subject, subject, "replies keep the thread's subject");
        for a in [ANNA, BOB] {
            if let Some(p) = out.iter().find(|m| m.to == a && m.subject.contains(" #")) {
                last_private.insert(a, p.clone());
            }
        }
        // Every public report shows each die with its turn and index.
        let public = out
            .iter()
            .find(|m| m.to == GM && m.subject.starts_with("[race-1] "))
            .unwrap();
        assert!(
            public.body.contains("Dice (turn.index: value):"),
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
        .filter(|m| m.subject.starts_with("[race-1] Game over"))
        .collect();
    assert_eq!(fin.len(), 3, "final report to Anna, Bob and the GM");
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

/// Issue 3 (Store): "The same Message-ID twice is applied once and answered once."
#[test]
fn same_message_twice_applied_once() {
    let mut w = World::new(judge());
    let created = started(&mut w);
    let (pw, _) = creds(&created, ANNA);
    let m = w.inbound(ANNA, "orders", &format!("GAME race-1 {pw}\nADD 2"));
    let first = w.deliver(&m);
    assert!(!first.is_empty());
    let after = w.game("race-1");
    let second = w.j.handle(&w.store, &m, &env(w.now + 5)).unwrap();
    assert!(second.is_empty(), "{second:?}");
    assert_eq!(w.game("race-1"), after);
}

/// Issue 3 (Outbound): "each reply has a stable Message-ID": handling the same mail on
/// the same state gives the same IDs; replies thread to the mail they answer.
#[test]
fn message_ids_are_stable_and_replies_thread() {
    let run = || {
        let mut w = World::new(judge());
        started(&mut w)
    };
    let a = run();
    let b = run();
    let ids = |v: &[Outbound]| v.iter().map(|m| m.message_id.clone()).collect::<Vec<_>>();
    assert_eq!(ids(&a), ids(&b));
    let mut unique = ids(&a);
    unique.sort();
    unique.dedup();
    assert_eq!(unique.len(), a.len(), "IDs are unique");
    assert!(a.iter().all(|m| m.message_id.ends_with("@example.org>")));
    let r = reply_to(&a, GM);
    assert_eq!(r.in_reply_to.as_deref(), Some("<m1@players.example>"));
    assert_eq!(r.references, vec!["<m1@players.example>".to_string()]);
}

/// Issue 3 (Commands): "wrong password ... changes nothing and gets a reply saying why".
#[test]
fn wrong_password_changes_nothing() {
    let mut w = World::new(judge());
    started(&mut w);
    let before = w.game("race-1");
    let out = w.send(ANNA, "orders", "GAME race-1 notmypassword\nADD 2");
    assert_eq!(out.len(), 1, "only the reply: {out:#?}");
    assert!(out[0].body.contains("Wrong password or token for race-1"));
    assert!(!mentions_a_card(&out[0].body));
    assert_eq!(w.game("race-1"), before);
    // No credentials at all: told how to authenticate.
    let out = w.send(ANNA, "orders", "GAME race-1\nADD 2");
    assert!(
        out[0].body.contains("no password or token"),
        "{}",
        out[0].body
    );
    assert_eq!(w.game("race-1"), before);
}

/// Issue 3 (Commands): "unknown game ... changes nothing and gets a reply saying why".
#[test]
fn unknown_game_changes_nothing() {
    let mut w = World::new(judge());
    let out = w.send(ANNA, "orders", "GAME race-9 pw\nADD 2");
    assert_eq!(out.len(), 1);
    assert!(
        out[0].body.contains("There is no game \"race-9\""),
        "{}",
        out[0].body
    );
    assert!(w.store.game_ids().unwrap().is_empty());
}

/// Issue 3 (Commands): "An unknown sender ... changes nothing and gets a reply saying
/// why, revealing nothing private."
#[test]
fn unknown_sender_changes_nothing() {
    let mut w = World::new(judge());
    let created = started(&mut w);
    let (pw, token) = creds(&created, ANNA);
    let before = w.game("race-1");
    // Eve even knows Anna's password and token: not her address.
    let out = w.send(
        "eve@example.org",
        &format!("[race-1 #{token}] orders"),
        &format!("PASSWORD {pw}\nADD 3\nSTATUS"),
    );
    assert_eq!(out.len(), 1);
    assert!(
        out[0].body.contains("eve@example.org is not a player"),
        "{}",
        out[0].body
    );
    assert!(!mentions_a_card(&out[0].body), "{}", out[0].body);
    assert_eq!(w.game("race-1"), before);
}

/// Issue 3 (Mail hygiene): "Never answer Auto-Submitted ...": marked processed, nothing
/// changes, nothing sent.
#[test]
fn automatic_mail_is_never_answered() {
    let mut w = World::new(judge());
    let created = started(&mut w);
    let (pw, _) = creds(&created, ANNA);
    let before = w.game("race-1");
    let mut m = w.inbound(ANNA, "Out of office", &format!("GAME race-1 {pw}\nADD 2"));
    m.automatic = Some("Auto-Submitted: auto-replied".into());
    let c = w.j.handle(&w.store, &m, &env(T0 + 10)).unwrap();
    assert!(c.outbox.is_empty());
    assert!(c.games.is_empty());
    assert_eq!(c.processed, vec![m.message_id.clone()]);
    w.store.commit(&c).unwrap();
    assert_eq!(w.game("race-1"), before);
    // Mail from the judge's own address is not answered either (no loops).
    let out = w.send("Judge@Example.org", "x", "HELP");
    assert!(out.is_empty());
}

/// Issue 3 (Commands): "CHECK (validate orders against the current state without
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

/// Issue 3 (Reports): "Errors quote the line, say what is wrong and how to write it";
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
        &format!("Hello judge\nGAME race-1 {pw}\nADD 1\nADD 7\n"),
    );
    let b = &reply_to(&out, ANNA).body;
    assert!(b.contains("line 4: \"ADD 7\""), "{b}");
    assert!(b.contains("Nothing was applied"), "{b}");
    assert!(
        b.contains("line 1: \"Hello judge\""),
        "chatter is quoted: {b}"
    );
    assert_eq!(w.game("race-1"), before);
}

/// Issue 3 (Deadlines): "on a miss, the documented defaults"; (Reports) the subject
/// carries the deadline; reminders go to those who have not moved.
#[test]
fn deadline_miss_plays_the_default() {
    let mut w = World::new(judge());
    started(&mut w);
    let g = w.game("race-1");
    let deadline = g.deadline.expect("a deadline runs");
    assert_eq!(deadline, T0 + 60 + 48 * 3600);
    // Nothing before the reminder time.
    assert!(w.tick_at(deadline - 13 * 3600).is_empty());
    // Reminder 12 hours before, to Anna only, once.
    let r = w.tick_at(deadline - 12 * 3600);
    assert_eq!(r.len(), 1, "{r:#?}");
    assert_eq!(r[0].to, ANNA);
    assert!(
        r[0].body.contains("the judge plays: ADD 1"),
        "{}",
        r[0].body
    );
    assert!(w.tick_at(deadline - 11 * 3600).is_empty(), "reminded once");
    // The miss: the default ADD 1 is played and reported.
    let out = w.tick_at(deadline);
    let g = w.game("race-1");
    assert_eq!(g.seats[0].misses, 1);
    assert!(!g.seats[0].bot, "one miss is not enough for a bot");
    let public = out.iter().find(|m| m.to == GM).expect("report to the GM");
    assert!(
        public.body.contains("seat 0 adds 1, die"),
        "{}",
        public.body
    );
    assert!(
        public.subject.starts_with("[race-1] Turn 2: Bob to move"),
        "{}",
        public.subject
    );
    assert_eq!(
        g.deadline,
        Some(deadline + 48 * 3600),
        "Bob's deadline runs from the miss"
    );
}

/// Issue 3 (Deadlines): "after N misses a notice to the game master and a bot stand-in
/// until replaced".
#[test]
fn repeated_misses_bring_a_bot_and_tell_the_gm() {
    let mut w = World::new(judge()); // max_misses = 2
    let created = started(&mut w);
    let (_, bob_token) = creds(&created, BOB);
    // Anna misses; Bob plays; Anna misses again.
    let d1 = w.game("race-1").deadline.unwrap();
    w.tick_at(d1);
    let out = w.send(BOB, &format!("[race-1 #{bob_token}] go"), "ADD 1");
    assert!(reply_to(&out, BOB).body.contains("applied"));
    let d2 = w.game("race-1").deadline.unwrap();
    let out = w.tick_at(d2);
    let g = w.game("race-1");
    assert!(g.seats[0].bot, "a bot stands in after 2 misses");
    let notice = to(&out, GM)
        .into_iter()
        .find(|m| m.subject == "[race-1] A bot stands in for Anna")
        .expect("the GM is told");
    assert!(notice.body.contains("missed 2 deadline"));
    // From now on the bot answers for Anna at once: Bob's orders come back to Bob.
    let out = w.send(BOB, &format!("[race-1 #{bob_token}] go"), "ADD 1");
    assert!(reply_to(&out, BOB).body.contains("applied"));
    let g = w.game("race-1");
    if g.status == Status::Running {
        let s = w.game("race-1");
        assert_eq!(
            (s.deadline_history - 1) % 2,
            1,
            "Bob is awaited again (the bot moved)"
        );
    }
}

/// Issue 3 (Deadlines): "VACATION shifts deadlines within limits".
#[test]
fn vacation_shifts_the_deadline_within_limits() {
    let mut w = World::new(judge()); // 14 days a game
    let created = started(&mut w);
    let (pw, _) = creds(&created, ANNA);
    let out = w.send(ANNA, "away", &format!("GAME race-1 {pw}\nVACATION 5"));
    assert!(reply_to(&out, ANNA).body.contains("On vacation until"));
    let g = w.game("race-1");
    let until = g.seats[0].vacation_until.unwrap();
    assert_eq!(g.deadline, Some(until));
    assert!(until >= T0 + 5 * 86_400);
    // The normal deadline passes: no default.
    assert!(w.tick_at(T0 + 49 * 3600).is_empty());
    assert_eq!(w.game("race-1").seats[0].misses, 0);
    // Beyond the limit: refused, nothing changes.
    let before = w.game("race-1");
    let out = w.send(ANNA, "away", &format!("GAME race-1 {pw}\nVACATION 10"));
    assert!(
        reply_to(&out, ANNA).body.contains("9 vacation day(s) left"),
        "{}",
        out[0].body
    );
    assert_eq!(w.game("race-1").seats, before.seats);
    // After the vacation the miss counts.
    w.tick_at(until);
    assert_eq!(w.game("race-1").seats[0].misses, 1);
}

/// Issue 3 (Commands): "PRESS (a public message to all players)": every player,
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
        .filter(|m| m.subject == "[race-1] Press from Bob")
        .collect();
    let mut addrs: Vec<&str> = press.iter().map(|m| m.to.as_str()).collect();
    addrs.sort();
    assert_eq!(addrs, vec![ANNA, BOB, GM, "olga@example.org"]);
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
            assert!(
                !mentions_a_card(&m.body) && !m.body.contains(&format!("card {card}")),
                "seat 0's card in a mail to {}: {}",
                m.to,
                m.body
            );
        }
    }
    // Seat 0 did see it, in mails of her own.
    assert!(w
        .store
        .outbox()
        .iter()
        .any(|m| m.to == ANNA && m.body.contains(&format!("card {card}"))));
}

/// Issue 3 (Reports): "A player's private text never goes in a mail addressed to anyone
/// else" — over whole games played by mail, by deadline defaults and by bot stand-ins.
#[test]
fn private_facts_never_reach_another_player() {
    for round in 0..6 {
        privacy_round(round);
    }
}

/// Issue 3 (Real parts in the tests): "across many simulated games, no mail to one player
/// containing another player's private facts". Run with
/// `cargo test -p castellan-judge --release -- --ignored`.
#[test]
#[ignore]
fn private_facts_across_many_games() {
    for round in 0..2000 {
        privacy_round(round);
    }
}

/// Issue 3 (Commands): RESIGN hands the seat to a bot, which plays it out; orders before
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
        .any(|m| m.to == BOB && m.subject == "[race-1] Anna resigned"));
    let g = w.game("race-1");
    assert!(g.seats[0].resigned && g.seats[0].bot);
    // The bot moved for Anna at once: Bob is awaited.
    assert_eq!((g.deadline_history - 1) % 2, 1);
}

/// Issue 3 (Commands): "JOIN game password" fills open seats; the game starts when full.
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
        .any(|m| m.to == GM && m.subject == "[race-1] Bob joined"));
}

/// Issue 3 (Commands): authentication by "a per-player token the judge mails them
/// (accepted in the subject or a plus-address)".
#[test]
fn token_in_subject_or_plus_address() {
    let mut w = World::new(judge());
    let created = started(&mut w);
    let (_, token) = creds(&created, ANNA);
    let mut m = w.inbound(ANNA, "my move", "ADD 1");
    m.to = vec![format!("judge+{token}@example.org")];
    let out = w.deliver(&m);
    assert!(
        reply_to(&out, ANNA).body.contains("applied"),
        "{}",
        out[0].body
    );
    let (_, btoken) = creds(&created, BOB);
    let out = w.send(BOB, &format!("Re: [race-1 #{btoken}] Turn 2"), "add 1");
    assert!(reply_to(&out, BOB).body.contains("applied"));
    // Someone else's token from one's own address does not authenticate.
    let before = w.game("race-1");
    let out = w.send(BOB, &format!("[race-1 #{token}] x"), "ADD 1");
    assert!(reply_to(&out, BOB).body.contains("Wrong password or token"));
    assert_eq!(w.game("race-1"), before);
}

/// Issue 3 (Commands): the game master's PAUSE, RESUME, EXTEND, REPLACE, KICK, END;
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
        .any(|m| m.to == ANNA && m.subject == "[race-1] paused"));
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
    // END: final report with the key.
    let out = w.send(GM, "x", &format!("GAME race-1 {gpw}\nEND"));
    assert_eq!(w.game("race-1").status, Status::Finished);
    let fin = out
        .iter()
        .find(|m| m.to == "carl@example.org" && m.subject.contains("Game over"))
        .unwrap();
    assert!(fin.body.contains("ended by the game master"));
    assert!(fin.body.contains("Secret card-stream key"));
}

/// Issue 3 (Commands): HISTORY game [turn or range] and VERIFY (dice audit of revealed
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
    assert!(b.contains("Turns 2 to 2:\n  seat 1 adds 3"), "{b}");
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
}

/// Issue 3 (Commands): "One email may hold several commands and games."
#[test]
fn several_games_in_one_mail() {
    let mut w = World::new(judge());
    let c1 = started(&mut w);
    let c2 = started(&mut w);
    let (p1, _) = creds(&c1, ANNA);
    let w2: Vec<_> = c2
        .iter()
        .filter(|m| m.subject.starts_with("[race-2"))
        .cloned()
        .collect();
    let (p2, _) = creds(&w2, ANNA);
    let out = w.send(
        ANNA,
        "two games",
        &format!("game race-1 {p1}\nadd 1\ngame race-2 {p2}\nadd 3"),
    );
    let r = &reply_to(&out, ANNA).body;
    assert!(
        r.contains("Orders for race-1") && r.contains("Orders for race-2"),
        "{r}"
    );
    assert_eq!(w.game("race-1").deadline_history, 2);
    assert_eq!(w.game("race-2").deadline_history, 2);
}

/// Issue 3 (Mail hygiene): "per-sender rate limit; no reply storms": one warning, then
/// silence, and nothing over the limit is applied.
#[test]
fn rate_limit_warns_once() {
    let mut cfg = config();
    cfg.rate_limit_per_hour = 3;
    let mut w = World::new(judge_with(cfg));
    for _ in 0..3 {
        assert_eq!(w.send(ANNA, "HELP", "").len(), 1);
    }
    let out = w.send(ANNA, "LIST", "");
    assert_eq!(out.len(), 1);
    assert!(out[0].body.contains("Too many mails"));
    assert!(w.send(ANNA, "LIST", "").is_empty());
    // An hour later the window opens again.
    w.now += 3600;
    assert_eq!(w.send(ANNA, "LIST", "").len(), 1);
}

/// Issue 3 (Intake): "size cap, attachments ignored with a note in the reply".
#[test]
fn oversized_mail_and_attachments() {
    let mut w = World::new(judge());
    let mut m = w.inbound(ANNA, "x", "HELP");
    m.truncated = true;
    let out = w.deliver(&m);
    assert!(out[0].body.contains("Mail too long"));
    let mut m = w.inbound(ANNA, "x", "LIST");
    m.attachments = vec!["map.png".into()];
    let out = w.deliver(&m);
    assert!(out[0].body.contains("these were ignored: map.png"));
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

/// Issue 10: `deadline-KIND` at CREATE takes only the kinds of prompt the game asks;
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

/// Any "carte <digits>" in a text (the toy's private fact, in French).
fn mentions_a_carte(s: &str) -> bool {
    s.match_indices("carte ")
        .any(|(i, _)| s[i + 6..].starts_with(|c: char| c.is_ascii_digit()))
}

/// Issue 10 (French): a French seat and an English seat in one game each read their own
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
            } else if m.subject.contains(" #") {
                // Private mails: each in its seat's language.
                let fr = m.body.contains("ce courriel est pour vous seul");
                let en = m.body.contains("this mail is for you alone");
                assert!((french && fr) || (!french && en), "{}: {}", m.to, m.body);
            } else if m.subject.starts_with("[race-1] ") {
                // Public reports: French to Anna, English to Bob and the game master.
                let fr = m.body.contains("tour") && m.body.contains("Contrôle des dés");
                let en = m.body.contains("turn") && m.body.contains("Dice audit");
                assert!((french && fr) || (!french && en), "{}: {}", m.to, m.body);
            }
        }
    }
    assert_eq!(w.game("race-1").status, Status::Finished);
    let outbox = w.store.outbox();
    let fin = outbox
        .iter()
        .find(|m| m.to == ANNA && m.subject.starts_with("[race-1] Partie finie"))
        .expect("Anna's final report is French");
    assert!(fin.body.contains("gagne"), "{}", fin.body);
    assert!(outbox
        .iter()
        .any(|m| m.to == BOB && m.subject.starts_with("[race-1] Game over")));
    for m in &outbox {
        if m.to != ANNA {
            assert!(
                !mentions_a_card(&m.body) && !mentions_a_carte(&m.body),
                "seat 0's card in a mail to {}: {}",
                m.to,
                m.body
            );
        }
    }
    assert!(outbox
        .iter()
        .any(|m| m.to == ANNA && m.body.contains(&format!("carte {card}"))));
}

/// Issue 10 (French): `langue=fr` at CREATE makes the game French: welcomes, reports and
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
        .find(|m| m.to == GM && m.subject.starts_with("[race-1] Tour 1"))
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
