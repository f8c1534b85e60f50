//! Campaigns and the tournament: "A game master creates a campaign ... that
//! groups games and players. Its scoring rule is set per campaign ... Standings are mailed
//! after each game ends. `CAMPAIGN` and `STANDINGS` commands, a campaign's HISTORY"; and
//! the tournament of the Risk text ("ORGANISATION D'UN TOURNOI", seeds/003): tables of 3 to
//! 6, preliminary rounds whose table winner goes on, then a final; "the judge seats the
//! tables, starts each round's games, waits for them, and seats the next round". Played
//! here on the toy race (3 seats a table at most), through `Judge::handle` and `tick`.

mod common;
use common::*;

fn campaign(w: &World, id: &str) -> CampaignRecord {
    w.store.campaign(id).unwrap().expect("campaign exists")
}

fn password_of(mails: &[Outbound], to: &str) -> String {
    let m = reply_to(mails, to);
    let i = m.body.find("Its password: ").expect("password") + "Its password: ".len();
    m.body[i..].split_whitespace().next().unwrap().to_string()
}

#[test]
fn a_campaign_groups_games_scores_them_and_mails_the_standings() {
    let mut w = World::new(judge());
    let out = w.send(
        GM,
        "campaign",
        "CAMPAIGN NEW Winter league scoring=placings",
    );
    let pw = password_of(&out, GM);
    let created = started(&mut w);
    // A wrong password changes nothing; the right one adds the game.
    let out = w.send(GM, "add", "CAMPAIGN campaign-1 nope ADD race-1");
    assert!(reply_to(&out, GM)
        .body
        .contains("Wrong password for campaign-1"));
    assert!(campaign(&w, "campaign-1").games.is_empty());
    let out = w.send(GM, "add", &format!("CAMPAIGN campaign-1 {pw} ADD race-1"));
    assert!(reply_to(&out, GM)
        .body
        .contains("race-1 now counts in campaign-1"));
    // Another game master's game cannot join.
    w.send(
        "other@example.org",
        "new",
        "CREATE race player=Carl:carl@example.org player=Dora:dora@example.org",
    );
    let out = w.send(GM, "add", &format!("CAMPAIGN campaign-1 {pw} ADD race-2"));
    assert!(reply_to(&out, GM)
        .body
        .contains("race-2 has another game master"));
    // race-1 is played to its end: the standings go to both players and the GM.
    let (_, anna) = creds(&created, ANNA);
    let (_, bob) = creds(&created, BOB);
    let mut mails = Vec::new();
    for _ in 0..20 {
        if w.game("race-1").status == Status::Finished {
            break;
        }
        mails.extend(w.send(ANNA, &format!("[race-1 #{anna}]"), "ADD 3"));
        mails.extend(w.send(BOB, &format!("[race-1 #{bob}]"), "ADD 3"));
    }
    assert_eq!(w.game("race-1").status, Status::Finished);
    let standings: Vec<&Outbound> = mails
        .iter()
        .filter(|m| m.subject.contains("Winter league: the standings"))
        .collect();
    let to: Vec<&str> = standings.iter().map(|m| m.to.as_str()).collect();
    assert_eq!(to, vec![ANNA, BOB, GM], "{to:?}");
    let c = campaign(&w, "campaign-1");
    assert_eq!(c.results.len(), 1);
    let s = c.standings();
    // Placings: the winner scores the table's size (2), the other 1.
    assert_eq!((s[0].points, s[1].points), (2, 1));
    assert!(standings[0].body.contains("1. "), "{}", standings[0].body);
    assert!(standings[0].body.contains(": 2 points, 1 won of 1"));
    // STANDINGS and HISTORY answer anyone; PALMARÈS in French.
    let out = w.send("zed@example.org", "s", "STANDINGS campaign-1");
    assert!(reply_to(&out, "zed@example.org")
        .body
        .contains("2 points, 1 won of 1"));
    let out = w.send("zed@example.org", "s", "PALMARÈS campaign-1");
    assert!(reply_to(&out, "zed@example.org")
        .body
        .contains("2 points, 1 gagnée sur 1"));
    let out = w.send("zed@example.org", "h", "HISTORY campaign-1");
    let h = &reply_to(&out, "zed@example.org").body;
    assert!(h.contains("race-1 joins the campaign"), "{h}");
    assert!(h.contains("race-1 ended:"), "{h}");
    // Bad lines are refused with how to write them.
    let out = w.send(GM, "bad", "CAMPAIGN NEW Spring scoring=goals");
    assert!(reply_to(&out, GM)
        .body
        .contains("scoring=goals: write scoring=wins, scoring=placings or scoring=score"));
    let out = w.send(GM, "bad", "CAMPAIGN campaign-1");
    assert!(reply_to(&out, GM).body.contains("CAMPAIGN takes NEW"));
    let out = w.send("zed@example.org", "s", "STANDINGS campaign-9");
    assert!(reply_to(&out, "zed@example.org")
        .body
        .contains("There is no campaign \"campaign-9\""));
}

/// Tick until every game is over (bots stand in after two missed deadlines).
fn tick_until_won(w: &mut World, id: &str) -> Vec<Outbound> {
    let mut mails = Vec::new();
    for _ in 0..400 {
        let c = campaign(w, id);
        if c.tournament
            .as_ref()
            .and_then(|t| t.winner.clone())
            .is_some()
        {
            return mails;
        }
        let now = w.now + 49 * 3600;
        mails.extend(w.tick_at(now));
    }
    panic!("the tournament did not end: {:#?}", campaign(w, id));
}

#[test]
fn a_small_tournament_seats_its_rounds_and_ends_with_a_winner() {
    let mut w = World::new(judge());
    let players: Vec<String> = (1..=9).map(|i| format!("P{i}:p{i}@example.org")).collect();
    let out = w.send(
        GM,
        "cup",
        &format!(
            "CAMPAIGN NEW Spring cup tournament=race players={}",
            players.join(",")
        ),
    );
    let body = &reply_to(&out, GM).body;
    assert!(
        body.contains("The tournament's first round is seated"),
        "{body}"
    );
    let c = campaign(&w, "campaign-1");
    let t = c.tournament.clone().unwrap();
    // Tables of 3 (the toy seats 2 or 3; the text 3 to 6): 9 players at 3 tables.
    assert_eq!((t.round, t.is_final, t.tables.len()), (1, false, 3));
    for g in &t.tables {
        let g = w.game(g);
        assert_eq!(g.seats.len(), 3);
        assert_eq!(g.status, Status::Running);
        assert!(g.deadline.is_some(), "each table starts with a deadline");
    }
    // Every player is welcomed to their table.
    for i in 1..=9 {
        let a = format!("p{i}@example.org");
        assert!(out
            .iter()
            .any(|m| m.to == a && m.body.contains("Your password:")));
    }
    let mails = tick_until_won(&mut w, "campaign-1");
    let c = campaign(&w, "campaign-1");
    let t = c.tournament.clone().unwrap();
    assert_eq!(t.round, 2, "{:#?}", c.history);
    assert!(t.is_final);
    assert_eq!(t.tables.len(), 1);
    let final_game = w.game(&t.tables[0]);
    assert_eq!(final_game.seats.len(), 3, "the three table winners");
    // The finalists are the winners of the first round's tables.
    let firsts: Vec<String> = c
        .results
        .iter()
        .filter(|r| r.round == 1)
        .filter_map(qualifier)
        .collect();
    let finalists: Vec<String> = final_game
        .seats
        .iter()
        .filter_map(|s| s.address.clone())
        .collect();
    let mut a = firsts.clone();
    a.sort();
    let mut b = finalists.clone();
    b.sort();
    assert_eq!(a, b);
    let winner = t.winner.unwrap();
    assert!(finalists.contains(&winner));
    // Standings went out after each table, the last one naming the winner.
    let last = mails
        .iter()
        .rev()
        .find(|m| m.subject.contains("Spring cup"))
        .expect("standings mailed");
    assert!(
        last.subject.contains("wins the tournament"),
        "{}",
        last.subject
    );
    let out = w.send("zed@example.org", "h", "HISTORY campaign-1");
    let h = &reply_to(&out, "zed@example.org").body;
    assert!(h.contains("round 2 (the final) seated"), "{h}");
    assert!(h.contains("wins the tournament"), "{h}");
    // Every player's record counts the games they played.
    let p = w.store.record(&winner).unwrap().unwrap();
    assert_eq!(p.played, 2);
}

#[test]
fn a_tournament_refuses_what_cannot_be_seated() {
    let mut w = World::new(judge());
    let out = w.send(
        GM,
        "cup",
        "CAMPAIGN NEW Tiny tournament=race players=a@example.org,b@example.org,c@example.org,d@example.org",
    );
    let body = &reply_to(&out, GM).body;
    // The toy race seats 3 at most: the fewest is three tables of 3, then a final of 3.
    assert!(
        body.contains("4 players: a tournament needs at least 9 (three tables of 3, then a final)"),
        "{body}"
    );
    assert!(w.store.campaign_ids().unwrap().is_empty());
    let out = w.send(
        GM,
        "cup",
        "CAMPAIGN NEW X tournament=chess players=a@example.org",
    );
    assert!(reply_to(&out, GM)
        .body
        .contains("there is no game \"chess\""));
}

/// Seed 003, "ORGANISATION D'UN TOURNOI RISK": "Chaque table doit accueillir un minimum de
/// trois joueurs et un maximum de six joueurs", the final too, and "Un gagnant sera nommé à
/// l'issue d'un *minimum* de deux parties, soit une partie préliminaire et une partie
/// finale". At tables of 3 only (the toy race), 6 entrants would make two tables and a final
/// of 2, and 10 cannot be seated at tables of 3 at all: both are refused, the line quoted,
/// with the counts that work (the judge once seated finals of 2).
#[test]
fn a_tournament_refuses_counts_that_cannot_end_in_a_final_of_three() {
    let mut w = World::new(judge());
    let players = |n: usize| {
        (1..=n)
            .map(|i| format!("p{i}@example.org"))
            .collect::<Vec<_>>()
            .join(",")
    };
    let out = w.send(
        GM,
        "cup",
        &format!("CAMPAIGN NEW Six tournament=race players={}", players(6)),
    );
    let body = &reply_to(&out, GM).body;
    assert!(body.contains("CAMPAIGN refused"), "{body}");
    assert!(
        body.contains("6 players: a tournament needs at least 9 (three tables of 3, then a final)"),
        "{body}"
    );
    assert!(body.contains("Nothing changed."), "{body}");
    let out = w.send(
        GM,
        "cup",
        &format!("CAMPAIGN NEW Ten tournament=race players={}", players(10)),
    );
    let body = &reply_to(&out, GM).body;
    assert!(
        body.contains("\"CAMPAIGN NEW Ten tournament=race"),
        "{body}"
    );
    assert!(
        body.contains("10 players cannot be brought down to a final at tables of 3 to 3 players"),
        "{body}"
    );
    assert!(body.contains("write 9 or 27 players"), "{body}");
    assert!(w.store.campaign_ids().unwrap().is_empty());
    assert!(
        w.store.game_ids().unwrap().is_empty(),
        "no table was seated"
    );
}

/// The toy race as a game that keeps a round limit (Risk's `turn_limit`), so that a
/// tournament's tables get one; the race itself plays on without it.
fn limited_race() -> castellan_engine::GameInfo {
    fn create(
        id: &str,
        master: castellan_engine::dice::Secret,
        players: Vec<String>,
        options: &[(String, String)],
    ) -> Result<Box<dyn castellan_engine::Session>, String> {
        let kept: Vec<(String, String)> = options
            .iter()
            .filter(|(k, _)| k.replace('-', "_") != "turn_limit")
            .cloned()
            .collect();
        (race_info().create)(id, master, players, &kept)
    }
    castellan_engine::GameInfo {
        name: "limited",
        create,
        options: || serde_json::json!({ "turn_limit": 0 }),
        ..race_info()
    }
}

/// Seed 003, "ORGANISATION D'UN TOURNOI RISK": "La première partie préliminaire, d'une durée
/// limite de 2 heures" and "Si elle n'est pas soumise à la limite de 2 heures, une limite de
/// 3 h 30 est recommandée" for the final. A tournament whose CAMPAIGN NEW gives no
/// `turn-limit=` plays its preliminary games to 4 rounds and its final to 7 (one round for
/// the text's "30 minutes", docs/rules/risk.md "Time limit"), and its reply says so; a
/// limit given, 0 included, wins. Before, the tables were seated with no limit.
#[test]
fn a_tournament_limits_its_games_by_default() {
    let mut w = World::new(Judge::new(
        config(),
        vec![race_info(), limited_race()],
        Templates::builtin(),
    ));
    let players: Vec<String> = (1..=9).map(|i| format!("p{i}@example.org")).collect();
    let out = w.send(
        GM,
        "cup",
        &format!(
            "CAMPAIGN NEW Cup tournament=limited players={}",
            players.join(",")
        ),
    );
    let body = &reply_to(&out, GM).body;
    assert!(
        body.contains("Round limits: 4 rounds for each preliminary game, 7 for the final"),
        "{body}"
    );
    let t = campaign(&w, "campaign-1").tournament.unwrap();
    assert_eq!((t.turn_limit, t.final_turn_limit), (4, 7));
    for g in &t.tables {
        let opts = w.game(g).rec.options;
        assert!(
            opts.iter()
                .any(|(k, v)| k.replace('-', "_") == "turn_limit" && v == "4"),
            "{opts:?}"
        );
    }
    let out = w.send(
        GM,
        "cup",
        &format!(
            "CAMPAIGN NEW Open tournament=limited players={} turn-limit=0 final-turn-limit=9",
            players.join(",")
        ),
    );
    let body = &reply_to(&out, GM).body;
    assert!(
        body.contains("Round limits: none for the preliminary games, 9 for the final"),
        "{body}"
    );
    // A game with no round limit (the race) gets none, and is not told of one.
    let out = w.send(
        GM,
        "cup",
        &format!(
            "CAMPAIGN NEW Race tournament=race players={}",
            players.join(",")
        ),
    );
    let body = &reply_to(&out, GM).body;
    assert!(!body.contains("Round limits"), "{body}");
}
