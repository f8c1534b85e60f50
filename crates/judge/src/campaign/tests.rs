use super::*;

fn players(n: usize) -> Vec<String> {
    (0..n).map(|i| format!("p{i}@example.org")).collect()
}

/// Seed 003, "ORGANISATION D'UN TOURNOI RISK": "Chaque table doit accueillir un minimum
/// de trois joueurs et un maximum de six joueurs" (every table of every round, the final
/// included) and "Un gagnant sera nommé à l'issue d'un *minimum* de deux parties, soit
/// une partie préliminaire et une partie finale". For every entrant count from the
/// fewest (6: two tables of 3, the best two of each to a final of 4) to 200: every round
/// seats tables of 3 to 6 that add up to its players, there is at least one
/// preliminary round and always a final of 3 to 6, and one goes on from each table
/// ("Le gagnant incontestable ou le joueur le plus puissant de chaque table passe")
/// except where that could not make a final (6 to 8 entrants). Before,
/// 7 to 12 or 37 entrants ended in a final of 2, and 6 in one table with no final.
#[test]
fn every_round_seats_three_to_six_and_ends_in_a_final() {
    assert_eq!(fewest_entrants(3, 6), Some((6, 2)));
    for n in 0..6 {
        assert_eq!(tournament_rounds(n, 3, 6), None, "{n} is refused");
    }
    for n in 6..=200 {
        let rounds = tournament_rounds(n, 3, 6).unwrap_or_else(|| panic!("{n} refused"));
        assert!(
            rounds.len() >= 2,
            "{n}: a preliminary and a final: {rounds:?}"
        );
        assert_eq!(rounds[0].iter().sum::<usize>(), n);
        for r in &rounds {
            assert!(r.iter().all(|s| (3..=6).contains(s)), "{n}: {rounds:?}");
            let (lo, hi) = (r.iter().min().unwrap(), r.iter().max().unwrap());
            assert!(hi - lo <= 1, "{n}: as even as possible: {rounds:?}");
        }
        assert_eq!(rounds.last().unwrap().len(), 1, "{n}: a final: {rounds:?}");
        let two_a_table = (6..=8).contains(&n);
        for w in rounds.windows(2) {
            let per = if two_a_table { 2 } else { 1 };
            assert_eq!(
                w[1].iter().sum::<usize>(),
                w[0].len() * per,
                "{n}: {rounds:?}"
            );
        }
    }
    // The brief's cases and the text's own 24.
    assert_eq!(tournament_rounds(6, 3, 6), Some(vec![vec![3, 3], vec![4]]));
    assert_eq!(tournament_rounds(7, 3, 6), Some(vec![vec![4, 3], vec![4]]));
    assert_eq!(
        tournament_rounds(12, 3, 6),
        Some(vec![vec![4, 4, 4], vec![3]])
    );
    assert_eq!(tournament_rounds(24, 3, 6), Some(vec![vec![6; 4], vec![4]]));
    let seated = seat_tables(&players(37), 9);
    assert_eq!(seated.iter().map(Vec::len).sum::<usize>(), 37);
    assert_eq!(
        seated.concat(),
        players(37),
        "everyone once, in the order given"
    );
    assert_eq!(
        tournament_rounds(37, 3, 6),
        Some(vec![
            vec![5, 4, 4, 4, 4, 4, 4, 4, 4],
            vec![3, 3, 3],
            vec![3]
        ])
    );
}

/// A smaller `table-max` (or a game of fewer seats, like the toy race's 3) keeps every
/// table within `min..=max` too, and refuses the counts that cannot reach a final.
#[test]
fn smaller_tables_keep_within_their_sizes_or_refuse() {
    for max in 3..=6 {
        for n in 0..=200 {
            let Some(rounds) = tournament_rounds(n, 3, max) else {
                let (below, above) = nearest_entrants(n, 3, max);
                assert!(below.is_none_or(|b| tournament_rounds(b, 3, max).is_some()));
                let fewest = fewest_entrants(3, max).unwrap().0;
                assert!(
                    n < fewest || above.is_some(),
                    "{n} at 3 to {max}: a count above"
                );
                continue;
            };
            assert!(rounds.len() >= 2);
            for r in &rounds {
                assert!(
                    r.iter().all(|s| (3..=max).contains(s)),
                    "{n}/{max}: {rounds:?}"
                );
            }
            assert_eq!(rounds.last().unwrap().len(), 1);
        }
    }
    assert_eq!(fewest_entrants(3, 3), Some((9, 3)));
    assert_eq!(tournament_rounds(6, 3, 3), None);
    assert_eq!(
        tournament_rounds(9, 3, 3),
        Some(vec![vec![3, 3, 3], vec![3]])
    );
    assert_eq!(fewest_entrants(3, 4), Some((6, 2)));
}

fn place(a: &str, won: bool, score: Option<i64>) -> Place {
    Place {
        address: a.into(),
        name: a.into(),
        won,
        resigned: false,
        score,
    }
}

/// "S'il y a un gagnant incontestable ... il passe"; otherwise "Le joueur le plus
/// puissant (celui qui occupe le plus de territoires) passe".
#[test]
fn the_table_winner_or_the_strongest_goes_on() {
    let r = |places| GameResult {
        game: "risk-1".into(),
        round: 1,
        places,
        ended: String::new(),
        ended_fr: String::new(),
    };
    let won = r(vec![
        place("a", false, Some(20)),
        place("b", true, Some(10)),
    ]);
    assert_eq!(qualifier(&won).as_deref(), Some("b"));
    let ended = r(vec![
        place("a", false, Some(12)),
        place("b", false, Some(30)),
    ]);
    assert_eq!(qualifier(&ended).as_deref(), Some("b"));
    // Two a table: the winner, then the most territories.
    let three = r(vec![
        place("a", false, Some(12)),
        place("b", true, Some(30)),
        place("c", false, Some(0)),
    ]);
    assert_eq!(qualifiers(&three, 2), vec!["b", "a"]);
    assert_eq!(qualifiers(&three, 1), vec!["b"]);
}

#[test]
fn standings_add_points_by_the_campaigns_scoring() {
    let mut c = CampaignRecord {
        id: "campaign-1".into(),
        name: "Winter".into(),
        gm: "gm@example.org".into(),
        gm_password_hash: String::new(),
        salt: String::new(),
        scoring: Scoring::Wins,
        game: String::new(),
        players: vec!["a".into(), "b".into(), "c".into()],
        names: BTreeMap::new(),
        games: vec![],
        by_mail: false,
        results: vec![
            GameResult {
                game: "g-1".into(),
                round: 0,
                places: vec![
                    place("a", true, Some(5)),
                    place("b", false, Some(9)),
                    place("c", false, Some(1)),
                ],
                ended: String::new(),
                ended_fr: String::new(),
            },
            GameResult {
                game: "g-2".into(),
                round: 0,
                places: vec![place("b", true, Some(2)), place("c", false, Some(1))],
                ended: String::new(),
                ended_fr: String::new(),
            },
        ],
        history: vec![],
        tournament: None,
        created: 0,
    };
    let s = c.standings();
    // a and b both won one; a in fewer games ranks first.
    assert_eq!((s[0].address.as_str(), s[0].points), ("a", 1));
    assert_eq!((s[1].address.as_str(), s[1].points, s[1].rank), ("b", 1, 2));
    assert_eq!((s[2].address.as_str(), s[2].points, s[2].rank), ("c", 0, 3));
    c.scoring = Scoring::Placings;
    let s = c.standings();
    // b: 1 + 2 = 3; a: 3; c: 1 + 1 = 2.
    assert_eq!(s[0].points, 3);
    assert_eq!(s[2].address, "c");
    c.scoring = Scoring::Score;
    let s = c.standings();
    assert_eq!((s[0].address.as_str(), s[0].points), ("b", 11));
}
