//! The judge mails only those who asked, in volume too (server-wide budgets included),
//! and no From can spell one of its own marks. Each test is one attack, written so that it
//! failed on the main branch before the fix.

mod common;
use common::*;

fn opt_in() -> JudgeConfig {
    JudgeConfig {
        confirm_addresses: true,
        ..config()
    }
}

const STRANGER: &str = "stranger@spam.example";
const VICTIM: &str = "victim@example.net";

/// Every mail the judge sent to an address other than `but`.
fn to_others<'a>(mails: &'a [Outbound], but: &[&str]) -> Vec<&'a Outbound> {
    mails
        .iter()
        .filter(|m| !but.contains(&m.to.as_str()))
        .collect()
}

// ------------------------------------------------------------------ one key space a kind

/// "Mail from `<stop/fan@target.example>` stops an observer's reports."
#[test]
fn a_from_spelled_like_a_stop_mark_stops_nobody() {
    let mut w = World::new(judge());
    let created = started(&mut w);
    let (pw, _) = creds(&created, ANNA);
    let fan = "fan@target.example";
    let out = w.send(fan, "watch", "OBSERVE race-1");
    assert!(reply_to(&out, fan).body.contains("You now receive"));
    w.send("stop/fan@target.example", "hi", "HELP");
    let out = w.send(ANNA, "orders", &format!("GAME race-1 {pw}\nADD 1"));
    assert!(!to(&out, fan).is_empty(), "the observer still gets reports");
}

/// "From `<asked/newbie@…>` suppresses a new player's only welcome."
#[test]
fn a_from_spelled_like_an_asked_mark_suppresses_no_welcome() {
    let mut w = World::new(judge_with(opt_in()));
    let newbie = "newbie@example.net";
    w.send("asked/newbie@example.net", "hi", "HELP");
    let out = w.send(
        GM,
        "new",
        &format!("CREATE race player=Newbie:{newbie} player=Bob:{BOB}"),
    );
    assert_eq!(to(&out, newbie).len(), 1, "{out:#?}");
}

/// "Eleven mails from `<failed-tries/castle-1/seat-0>` lock seat 0's password."
#[test]
fn mails_from_a_failed_tries_key_lock_no_seat() {
    let mut w = World::new(judge());
    let created = started(&mut w);
    let (pw, _) = creds(&created, ANNA);
    for _ in 0..11 {
        w.send("failed-tries/race-1/seat-0", "hi", "HELP");
    }
    let out = w.send(ANNA, "orders", &format!("GAME race-1 {pw}\nADD 1"));
    let b = &reply_to(&out, ANNA).body;
    assert!(!b.contains("locked"), "{b}");
    assert!(!to(&out, BOB).is_empty(), "Anna's orders were applied: {b}");
}

/// A From holding a NUL (or any control character) is no address: it is not read, so
/// no sender record can start like the judge's own marks.
#[test]
fn a_from_with_a_control_character_is_not_read() {
    let mut w = World::new(judge());
    let out = w.send("\u{0}stop/anna@example.org", "hi", "HELP");
    assert!(out.is_empty(), "{out:#?}");
}

// ------------------------------------------------------------ only those who asked, in volume

/// "An address that wrote once got 24 mails from three strangers' games." Writing HELP
/// is no consent to a stranger's game: it gets one confirmation, and nothing of the games
/// (reports, press, reminders) until it confirms one.
#[test]
fn an_address_that_wrote_once_gets_no_strangers_game_mail() {
    let mut w = World::new(judge_with(opt_in()));
    w.send(VICTIM, "help", "HELP");
    let mut all = Vec::new();
    for (i, s) in ["s1@spam.example", "s2@spam.example", "s3@spam.example"]
        .iter()
        .enumerate()
    {
        let out = w.send(
            s,
            "new",
            &format!("CREATE race player=V:{VICTIM} player=Bob:{BOB}"),
        );
        let gm_token = out
            .iter()
            .find(|m| m.to == *s && m.body.contains("Your token:"))
            .map(|_| ())
            .is_some();
        assert!(gm_token);
        all.extend(out);
        let id = format!("race-{}", i + 1);
        // The stranger starts the game without waiting, and spams it.
        let gm_pw = {
            let m = all
                .iter()
                .find(|m| {
                    m.to == *s && m.subject.contains(&id) && m.body.contains("Your password:")
                })
                .unwrap();
            m.body
                .lines()
                .find_map(|l| l.strip_prefix("Your password:"))
                .unwrap()
                .trim()
                .to_string()
        };
        all.extend(w.send(
            s,
            "go",
            &format!("GAME {id} {gm_pw}\nSTART\nPRESS buy cheap pills\nPRESS more pills\n"),
        ));
    }
    for h in [60, 120, 180, 240] {
        all.extend(w.tick_at(T0 + h * 3600));
    }
    let got = to(&all, VICTIM);
    assert!(got.len() <= 1, "{} mails: {got:#?}", got.len());
    for m in got {
        assert!(!m.body.contains("pills"), "{}", m.body);
    }
}

/// "victim@ sent HELP then STOP; a stranger's CREATE naming victim@ sent it the welcome,
/// every report and three spam press mails." STOP holds against every later enrolment
/// until the address itself writes again.
#[test]
fn stop_holds_against_a_later_enrolment() {
    let mut w = World::new(judge_with(opt_in()));
    w.send(VICTIM, "help", "HELP");
    w.send(VICTIM, "stop", "STOP");
    let mut all = w.send(
        STRANGER,
        "new",
        &format!("CREATE race player=V:{VICTIM} player=Bob:{BOB}"),
    );
    let gm_pw = all
        .iter()
        .find(|m| m.to == STRANGER && m.body.contains("Your password:"))
        .and_then(|m| {
            m.body
                .lines()
                .find_map(|l| l.strip_prefix("Your password:"))
        })
        .unwrap()
        .trim()
        .to_string();
    all.extend(w.send(
        STRANGER,
        "go",
        &format!("GAME race-1 {gm_pw}\nSTART\nPRESS pills\nPRESS pills\nPRESS pills\n"),
    ));
    for h in [60, 120, 180] {
        all.extend(w.tick_at(T0 + h * 3600));
    }
    assert!(to(&all, VICTIM).is_empty(), "{:#?}", to(&all, VICTIM));
}

/// A confirmation carries no stranger's text beyond the game's id: not the names the
/// stranger chose ("P0_cheap-pills.example"), not the stranger's address.
#[test]
fn a_confirmation_carries_no_strangers_text() {
    let mut w = World::new(judge_with(opt_in()));
    let out = w.send(
        STRANGER,
        "new",
        &format!(
            "CREATE race player=P0_cheap-pills.example:{VICTIM} player=Visit_pills.example:{BOB}"
        ),
    );
    for addr in [VICTIM, BOB] {
        let got = to(&out, addr);
        assert_eq!(got.len(), 1, "{out:#?}");
        let m = got[0];
        for bad in ["pills", "spam.example", "stranger"] {
            assert!(!m.body.contains(bad), "{bad} in {}", m.body);
            assert!(!m.subject.contains(bad), "{bad} in {}", m.subject);
        }
        assert!(m.body.contains("race-1"), "{}", m.body);
        assert!(m.body.contains("Your token:"), "{}", m.body);
    }
}

/// The welcome's answer confirms the seat (as before): a reply carrying the seat's
/// token, and only that, takes it; a forged mail from the address without it does not.
#[test]
fn a_seat_is_confirmed_by_its_token_not_by_any_mail_from_its_address() {
    let mut w = World::new(judge_with(opt_in()));
    let out = w.send(
        STRANGER,
        "new",
        &format!("CREATE race player=V:{VICTIM} player=Bob:{BOB}"),
    );
    // A forged mail in the victim's name, naming the game, confirms nothing.
    w.send(VICTIM, "[race-1] count me in", "GAME race-1\nSTATUS race-1");
    assert!(w.game("race-1").seats[0].unconfirmed);
    let (_, token) = creds(&out, VICTIM);
    w.send(
        VICTIM,
        &format!("Re: [race-1 #{token}] Welcome"),
        "count me in",
    );
    assert!(!w.game("race-1").seats[0].unconfirmed);
}

fn names(prefix: &str, n: usize) -> Vec<String> {
    (0..n)
        .map(|i| format!("{prefix}{i}@target.example"))
        .collect()
}

/// Mails to addresses that never asked, from one stranger mail of 20 CREATE lines.
fn never_asked_from_20_creates(cfg: JudgeConfig) -> (usize, usize) {
    let mut w = World::new(judge_with(cfg));
    let body: String = (0..20)
        .map(|g| {
            let players: Vec<String> = names(&format!("g{g}p"), 3)
                .iter()
                .enumerate()
                .map(|(i, a)| format!("player=P{i}_cheap-pills.example:{a}"))
                .collect();
            format!("CREATE race {}\n", players.join(" "))
        })
        .collect();
    let mut all = w.send(STRANGER, "new", &body);
    for h in [60, 120, 180] {
        all.extend(w.tick_at(T0 + h * 3600));
    }
    let others = to_others(&all, &[STRANGER]);
    let addresses: std::collections::BTreeSet<&str> =
        others.iter().map(|m| m.to.as_str()).collect();
    (others.len(), addresses.len())
}

/// "20 CREATE lines: 161 mails to 120 never-asked addresses." At most 8 confirmations
/// a mail, one an address.
#[test]
fn twenty_creates_from_a_stranger_mail_at_most_eight_never_asked_addresses() {
    let (mails, addresses) = never_asked_from_20_creates(opt_in());
    println!("20-CREATE stranger mail: {mails} mails to {addresses} never-asked addresses");
    assert!(mails <= 8, "{mails} mails to {addresses} addresses");
}

/// "One 65 KB tournament line: 6,552 mails to 4,913 addresses and 606–819 stored games."
#[test]
fn a_65_kb_tournament_line_mails_at_most_eight_and_stores_few_games() {
    let mut w = World::new(judge_with(opt_in()));
    // 3^7 players: seven rounds of tables of 3 (the toy seats 2 or 3).
    let players: Vec<String> = (0..2187)
        .map(|i| format!("P{i}:play{i}@target.example"))
        .collect();
    let line = format!(
        "CAMPAIGN NEW Cup tournament=race players={}",
        players.join(",")
    );
    assert!(line.len() >= 60_000, "{}", line.len());
    let mut all = w.send(STRANGER, "cup", &line);
    for h in [60, 120] {
        all.extend(w.tick_at(T0 + h * 3600));
    }
    let others = to_others(&all, &[STRANGER]);
    let addresses: std::collections::BTreeSet<&str> =
        others.iter().map(|m| m.to.as_str()).collect();
    let games = w.store.game_ids().unwrap().len();
    println!(
        "65 KB tournament line: {} mails to {} never-asked addresses, {games} games stored",
        others.len(),
        addresses.len()
    );
    assert!(others.len() <= 8, "{} mails", others.len());
    assert!(
        games <= JudgeConfig::default().new_games_per_hour as usize,
        "{games} games"
    );
}

/// The server-wide budget of new games by mail an hour: past it CREATE is refused (and
/// says when to try again); an hour later it is accepted.
#[test]
fn new_games_by_mail_are_budgeted_per_hour() {
    let mut w = World::new(judge_with(JudgeConfig {
        new_games_per_hour: 3,
        ..config()
    }));
    for i in 0..3 {
        let out = w.send(
            &format!("gm{i}@example.org"),
            "new",
            "CREATE race player=Anna:anna@example.org player=Bob:bob@example.org",
        );
        assert!(
            reply_to(&out, &format!("gm{i}@example.org"))
                .body
                .contains("created"),
            "{out:#?}"
        );
    }
    let out = w.send(
        "gm9@example.org",
        "new",
        "CREATE race player=Anna:anna@example.org player=Bob:bob@example.org",
    );
    let b = &reply_to(&out, "gm9@example.org").body;
    assert!(b.contains("new games by mail this hour"), "{b}");
    assert_eq!(w.store.game_ids().unwrap().len(), 3);
    w.now += 3600;
    let out = w.send(
        "gm9@example.org",
        "new",
        "CREATE race player=Anna:anna@example.org player=Bob:bob@example.org",
    );
    assert!(reply_to(&out, "gm9@example.org").body.contains("created"));
}

/// The server-wide budget of mails to never-asked addresses an hour: many strangers,
/// each under the cap of a mail, still mail no more than the budget in an hour.
#[test]
fn mails_to_never_asked_addresses_are_budgeted_per_hour() {
    let mut w = World::new(judge_with(JudgeConfig {
        confirmations_per_hour: 10,
        ..opt_in()
    }));
    let mut all = Vec::new();
    for s in 0..5 {
        let players: Vec<String> = names(&format!("s{s}p"), 3)
            .iter()
            .enumerate()
            .map(|(i, a)| format!("player=P{i}:{a}"))
            .collect();
        all.extend(w.send(
            &format!("s{s}@spam.example"),
            "new",
            &format!("CREATE race {}", players.join(" ")),
        ));
    }
    let strangers: Vec<String> = (0..5).map(|s| format!("s{s}@spam.example")).collect();
    let but: Vec<&str> = strangers.iter().map(String::as_str).collect();
    let n = to_others(&all, &but).len();
    assert_eq!(n, 10, "{n} mails to never-asked addresses");
}
