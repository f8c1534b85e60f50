//! The indexes kept in each game's own transaction (due times, plus-address tokens,
//! addresses, the games' gauges, the highest game number), each agreeing with a read of
//! every game and built when a database written before it is opened.

use super::*;
use castellan_judge::Status;

/// Commit `games`, alone in their changes.
fn commit_games(store: &SledStore, games: Vec<GameRecord>) {
    store
        .commit(&Changes {
            games: games.into_iter().map(Into::into).collect(),
            ..Default::default()
        })
        .unwrap()
}

/// Make `store` look written before one of its indexes: every `game_index` key
/// starting with `prefix` and the index's `mark` removed.
fn as_before_the_index(store: &SledStore, prefix: &[u8], mark: &[u8]) {
    let keys: Vec<sled::IVec> = store
        .game_index
        .scan_prefix(prefix)
        .keys()
        .map(|k| k.unwrap())
        .collect();
    assert!(!keys.is_empty());
    for k in keys {
        store.game_index.remove(k).unwrap();
    }
    store.meta.remove(mark).unwrap();
    store.flush().unwrap();
}

/// The tick touches only what is due: a game whose reminder would reach
/// nobody (its awaited seat is played by a bot) is indexed at its deadline, and an
/// entry an older build wrote at its reminder time is mended by the first tick that
/// finds it, instead of making the game due at every tick until its deadline.
#[test]
fn a_game_with_nobody_to_remind_is_due_at_its_deadline_only() {
    let dir = tempfile::tempdir().unwrap();
    let store = SledStore::open(&dir.path().join("db")).unwrap();
    let (deadline, reminder, grace) = (1_000_000, 1_000_000 - 6 * 3600, 1_000_000 + 2 * 3600);
    let mut rec = crate::fixtures::game_record("castle-1", "gm1", &["a1", "b1"]);
    rec.deadline = Some(deadline);
    rec.deadline_awaiting = vec![1];
    rec.seats[1].bot = true;
    commit_games(&store, vec![rec]);
    assert!(store.due_games(grace - 1).unwrap().is_empty());
    assert_eq!(store.due_games(grace).unwrap(), ["castle-1"]);
    // The entry an older build wrote: due at the reminder time.
    store.due.remove(due_key(grace, "castle-1")).unwrap();
    store
        .due
        .insert(due_key(reminder, "castle-1"), &[])
        .unwrap();
    store
        .game_index
        .insert(index_key("due", "castle-1"), due_key(reminder, "castle-1"))
        .unwrap();
    let now = reminder + 60;
    assert_eq!(store.due_games(now).unwrap(), ["castle-1"]);
    let config = crate::config::Config::default();
    let templates = crate::serve::templates::load_templates_lenient(&config.templates_dir).unwrap();
    let judge = castellan_judge::Judge::new(config.judge, crate::games::all(), templates);
    let env = castellan_judge::Env {
        now,
        entropy: [7; 32],
    };
    let changes = judge.tick(&store, &env).unwrap();
    assert!(changes.outbox.is_empty(), "nobody is reminded");
    store.commit(&changes).unwrap();
    assert!(store.due_games(now).unwrap().is_empty(), "no longer due");
    assert_eq!(store.due_games(grace).unwrap(), ["castle-1"]);
}

/// A mail's cost does not grow with the games stored: a mail to
/// `judge+TOKEN@` finds its game by one read of the token index, which follows every
/// change of the game's tokens in the game's own transaction, and agrees with reading
/// every game's header (the judge's default). A database written before the index
/// existed is indexed when it is opened.
#[test]
fn a_plus_address_token_names_its_game_through_the_index() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("db");
    let store = SledStore::open(&path).unwrap();
    let commit = |games: Vec<GameRecord>| commit_games(&store, games);
    commit(vec![
        crate::fixtures::game_record("castle-1", "gm1", &["a1", "b1"]),
        crate::fixtures::game_record("castle-2", "gm2", &["a2", ""]),
    ]);
    // What reading every header says (the Store trait's default), for comparison.
    let scan = |s: &SledStore, token: &str| -> Option<String> {
        s.game_ids().unwrap().into_iter().find(|id| {
            s.game_header(id)
                .unwrap()
                .is_some_and(|r| r.holds_token(token))
        })
    };
    let check = |s: &SledStore, expected: &[(&str, Option<&str>)]| {
        for (token, id) in expected {
            let found = s.game_of_token(token).unwrap();
            assert_eq!(found.as_deref(), *id, "token {token:?}");
            assert_eq!(found, scan(s, token), "token {token:?}");
        }
    };
    check(
        &store,
        &[
            ("a1", Some("castle-1")),
            ("b1", Some("castle-1")),
            ("gm1", Some("castle-1")),
            ("a2", Some("castle-2")),
            ("gm2", Some("castle-2")),
            ("", None),
            ("nobody", None),
        ],
    );
    // A seat's token replaced: the old one names no game any more.
    commit(vec![crate::fixtures::game_record(
        "castle-1",
        "gm1",
        &["a1", "c1"],
    )]);
    check(
        &store,
        &[
            ("b1", None),
            ("c1", Some("castle-1")),
            ("a1", Some("castle-1")),
        ],
    );
    // A database written before the index: its token keys and mark gone, then opened.
    as_before_the_index(&store, b"token", TOKENS_KEY);
    assert_eq!(store.game_of_token("c1").unwrap(), None);
    drop(store);
    let reopened = SledStore::reopened(&path);
    check(
        &reopened,
        &[
            ("c1", Some("castle-1")),
            ("gm2", Some("castle-2")),
            ("b1", None),
        ],
    );
}

/// A mail's cost does not grow with the games stored: STOP finds its
/// sender's games (as game master, seat or observer, finished games too) by one scan
/// of the address index, which follows every change of a game's addresses in the
/// game's own transaction and agrees with reading every game's header (the judge's
/// default). A database written before the index existed is indexed when opened.
#[test]
fn a_sender_finds_their_games_through_the_address_index() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("db");
    let store = SledStore::open(&path).unwrap();
    let commit = |games: Vec<GameRecord>| commit_games(&store, games);
    let mut one = crate::fixtures::game_record("castle-1", "gm1", &["a1", "b1"]);
    one.observers = vec![" Watcher@Example.org".into()];
    let mut two = crate::fixtures::game_record("castle-2", "gm2", &["a2"]);
    two.gm = "P1@example.org".into();
    two.status = castellan_judge::Status::Finished;
    commit(vec![one.clone(), two]);
    // What the Store trait's default (every game's header) says, for comparison.
    let check = |s: &SledStore, expected: &[(&str, &[&str])]| {
        for (address, ids) in expected {
            let found = s.games_of_address(address).unwrap();
            assert_eq!(found, *ids, "address {address:?}");
            let mut scan: Vec<String> = s
                .game_ids()
                .unwrap()
                .into_iter()
                .filter(|id| {
                    s.game_header(id)
                        .unwrap()
                        .is_some_and(|r| r.addresses().iter().any(|a| a == address))
                })
                .collect();
            scan.sort();
            assert_eq!(found, scan, "address {address:?}");
        }
    };
    check(
        &store,
        &[
            ("p0@example.org", &["castle-1", "castle-2"]),
            ("p1@example.org", &["castle-1", "castle-2"]),
            ("gm@example.org", &["castle-1"]),
            ("watcher@example.org", &["castle-1"]),
            ("p0@example", &[]),
            ("", &[]),
        ],
    );
    // The observer leaves and a seat changes hands: the index follows.
    one.observers.clear();
    one.seats[1].address = Some("new@example.org".into());
    commit(vec![one]);
    check(
        &store,
        &[
            ("watcher@example.org", &[]),
            ("p1@example.org", &["castle-2"]),
            ("new@example.org", &["castle-1"]),
        ],
    );
    // A database written before the index: its address keys and mark gone, then opened.
    as_before_the_index(&store, b"addr", ADDRESSES_KEY);
    assert!(store
        .games_of_address("new@example.org")
        .unwrap()
        .is_empty());
    drop(store);
    let reopened = SledStore::reopened(&path);
    check(
        &reopened,
        &[
            ("new@example.org", &["castle-1"]),
            ("p0@example.org", &["castle-1", "castle-2"]),
            ("watcher@example.org", &[]),
        ],
    );
}

/// The games' gauges as the old `/metrics` scrape made them: every game's header read.
fn gauges_from_every_header(store: &SledStore) -> GameGauges {
    let mut g = GameGauges::default();
    for id in store.game_ids().unwrap() {
        let h = store.game_header(&id).unwrap().unwrap();
        *g.by_status
            .entry(status_label(h.status).to_string())
            .or_insert(0) += 1;
        if let Some(d) = h.deadline {
            g.deadlines += 1;
            g.next_deadline = Some(g.next_deadline.map_or(d, |n: i64| n.min(d)));
        }
    }
    g
}

/// No pass reads every game (here a `/metrics` scrape): the games by status,
/// the games waiting on a deadline and the nearest deadline are kept as the games are
/// written, and agree with reading every header: through status changes, deadlines that
/// move, come and go, two writes of one game in one group, a header written alone, and
/// a database written before they were kept, counted when it is opened.
#[test]
fn the_games_gauges_are_kept_as_the_games_are_written() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("db");
    let store = SledStore::open(&path).unwrap();
    assert_eq!(store.game_gauges().unwrap(), GameGauges::default());
    let check = |s: &SledStore| {
        let kept = s.game_gauges().unwrap();
        assert_eq!(kept, gauges_from_every_header(s));
        kept
    };
    let record = |id: &str, status: Status, deadline: Option<i64>| {
        let mut g = crate::fixtures::game_record(id, &format!("gm-{id}"), &[]);
        g.status = status;
        g.deadline = deadline;
        g
    };
    let mut one = record("castle-1", Status::Running, Some(500));
    let two = record("castle-2", Status::Running, Some(-20));
    let mut three = record("castle-3", Status::Forming, None);
    commit_games(&store, vec![one.clone(), two.clone(), three.clone()]);
    let g = check(&store);
    assert_eq!(g.by_status["running"], 2);
    assert_eq!(g.by_status["forming"], 1);
    assert_eq!((g.deadlines, g.next_deadline), (2, Some(-20)));
    // The game with the nearest deadline ends; another's deadline moves; a game starts.
    let mut two = two;
    two.status = Status::Finished;
    two.deadline = None;
    one.deadline = Some(900);
    three.status = Status::Running;
    three.deadline = Some(700);
    commit_games(&store, vec![two.clone(), one.clone(), three.clone()]);
    let g = check(&store);
    assert_eq!(
        g.by_status.get("forming"),
        None,
        "a status with no game is left out"
    );
    assert_eq!((g.deadlines, g.next_deadline), (2, Some(700)));
    // Two mails of one game in one group: the second counts from the first.
    let mut paused = three.clone();
    paused.status = Status::Paused;
    paused.deadline = None;
    let mut resumed = paused.clone();
    resumed.status = Status::Running;
    resumed.deadline = Some(100);
    let (a, b) = (
        Changes {
            games: vec![paused.into()],
            ..Default::default()
        },
        Changes {
            games: vec![resumed.into()],
            ..Default::default()
        },
    );
    store
        .commit_group_unflushed(&[(&a, None), (&b, None)])
        .unwrap();
    let g = check(&store);
    assert_eq!(g.by_status.get("paused"), None);
    assert_eq!((g.deadlines, g.next_deadline), (2, Some(100)));
    // A header written alone (its state left as it is) moves the gauges too.
    one.status = Status::Paused;
    one.deadline = None;
    store
        .commit(&Changes {
            headers: vec![one],
            ..Default::default()
        })
        .unwrap();
    let g = check(&store);
    assert_eq!(g.by_status["paused"], 1);
    assert_eq!(g.deadlines, 1);
    // A database written before the gauges were kept: counted when it is opened.
    as_before_the_index(&store, b"count/", GAUGES_KEY);
    as_before_the_index(&store, b"deadline/", GAUGES_KEY);
    assert_eq!(store.game_gauges().unwrap(), GameGauges::default());
    drop(store);
    let reopened = SledStore::reopened(&path);
    let g = check(&reopened);
    assert_eq!(g.by_status.values().sum::<u64>(), 3);
}

/// A mail's cost does not grow with the games stored: CREATE numbers the
/// next game after the highest number stored, read from one key that each game's
/// commit keeps, instead of listing every game's id; it agrees with that listing (the
/// judge's default), and a database written before it is given it when opened.
#[test]
fn the_highest_game_number_is_kept_as_games_are_written() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("db");
    let store = SledStore::open(&path).unwrap();
    assert_eq!(store.highest_game_number().unwrap(), 0);
    for id in ["castle-9", "risk-12", "castello-3"] {
        commit_games(&store, vec![crate::fixtures::game_record(id, id, &[])]);
    }
    let listed = |s: &SledStore| {
        s.game_ids()
            .unwrap()
            .iter()
            .filter_map(|id| castellan_judge::game_number(id))
            .max()
            .unwrap()
    };
    assert_eq!(store.highest_game_number().unwrap(), 12);
    assert_eq!(listed(&store), 12);
    // A database written before: the key and its mark gone, then opened.
    store.game_index.remove(commit::GAME_NUMBER).unwrap();
    store.meta.remove(NUMBER_KEY).unwrap();
    store.flush().unwrap();
    assert_eq!(store.highest_game_number().unwrap(), 0);
    drop(store);
    let reopened = SledStore::reopened(&path);
    assert_eq!(reopened.highest_game_number().unwrap(), 12);
}
