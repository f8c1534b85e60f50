//! The store's unit tests: sled on disk in a temporary folder.

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

fn reply(html_bytes: usize) -> Outbound {
    // An HTML part of a picture's size: varied text, as an SVG is.
    let mut html = String::with_capacity(html_bytes);
    let mut n = 0u64;
    while html.len() < html_bytes {
        n += 1;
        html.push_str(&format!(
            "<text x=\"{}\" y=\"{}\">Prussia {}</text>\n",
            n * 7 % 600,
            n * 13 % 400,
            n % 9
        ));
    }
    Outbound {
        message_id: "<r1@judge.example>".into(),
        to: "ann@example.org".into(),
        subject: "[castle-1] Turn 3".into(),
        body: "Waiting for: Ann\n".into(),
        in_reply_to: None,
        references: Vec::new(),
        headers: Vec::new(),
        html: Some(html),
    }
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

/// "No stored value over 64 KiB": a reply whose HTML part is as large as the
/// judge allows (150 KB) is stored under 64 KiB and reads back whole; a usual one is
/// stored as it is.
#[test]
fn a_large_reply_is_stored_under_64_kib_and_reads_back_whole() {
    let dir = tempfile::tempdir().unwrap();
    let store = SledStore::open(&dir.path().join("db")).unwrap();
    let big = reply(castellan_judge::HTML_LIMIT);
    let mut small = reply(0);
    small.html = None;
    let mut long_text = reply(0);
    long_text.html = None;
    long_text.body = "Turn 3: Ann attacks Prussia from Saxony.\n".repeat(400);
    store
        .commit(&Changes {
            outbox: vec![big.clone(), small.clone(), long_text.clone()],
            ..Default::default()
        })
        .unwrap();
    let raw: Vec<Vec<u8>> = store
        .outbox
        .iter()
        .values()
        .map(|v| v.unwrap().to_vec())
        .collect();
    assert_eq!(raw.len(), 3);
    assert!(raw[0].len() < 64 * 1024, "{} bytes", raw[0].len());
    assert_eq!(raw[0][0], LZ4_FRAMED, "a reply with an HTML part");
    assert_eq!(raw[1][0], b'{', "a usual reply stays plain JSON");
    assert_eq!(raw[2][0], LZ4, "a long text reply");
    let back: Vec<Outbound> = store
        .outbox()
        .unwrap()
        .into_iter()
        .map(|(_, i)| i.mail)
        .collect();
    assert_eq!(back, vec![big.clone(), small, long_text]);
    assert!(store.largest_value().unwrap().0 < 64 * 1024);
    // A reply stored by the build before (its HTML part inside the deflated JSON)
    // still reads back.
    let item = OutboxItem {
        mail: big,
        attempts: 2,
        not_before: 7,
        last_error: Some("busy".into()),
        failed: false,
    };
    let older = deflated(DEFLATED, &[&serde_json::to_vec(&item).unwrap()]).unwrap();
    assert_eq!(decode_outbox(&older).unwrap(), item);
    let mut bare = item.clone();
    bare.mail.html = None;
    let json = serde_json::to_vec(&bare).unwrap();
    let len = (json.len() as u32).to_be_bytes();
    let html = item.mail.html.as_deref().unwrap_or_default().as_bytes();
    let framed = deflated(FRAMED, &[&len, &json, html]).unwrap();
    assert_eq!(decode_outbox(&framed).unwrap(), item);
    assert_eq!(decode_outbox(&encode_outbox(&item).unwrap()).unwrap(), item);
    // A damaged frame is an error, not a panic.
    let cut = deflated(FRAMED, &[&[0, 0, 9, 9], b"{}"]).unwrap();
    assert!(decode_outbox(&cut).is_err());
}

/// Group commit: the mails of a group are committed in one transaction, in
/// their order. Each gets its own outbox keys, in order and after the previous mail's;
/// every processed mark is written; the journal entry recorded is the group's last
/// (whatever the order of the entries given), and a mail with no entry leaves it be.
#[test]
fn a_group_of_mails_commits_in_one_transaction_in_order() {
    let dir = tempfile::tempdir().unwrap();
    let store = SledStore::open(&dir.path().join("db")).unwrap();
    let mail = |n: usize| Changes {
        processed: vec![format!("mail-{n}")],
        outbox: (0..n).map(|_| reply(100)).collect(),
        ..Default::default()
    };
    let (a, b, c) = (mail(1), mail(2), mail(3));
    let keys = store
        .commit_group_unflushed(&[(&a, Some(9)), (&b, None), (&c, Some(7))])
        .unwrap();
    assert_eq!(keys.iter().map(Vec::len).collect::<Vec<_>>(), vec![1, 2, 3]);
    let flat: Vec<u64> = keys.concat();
    assert!(flat.windows(2).all(|w| w[0] < w[1]), "{flat:?}");
    let stored: Vec<u64> = store
        .outbox()
        .unwrap()
        .into_iter()
        .map(|(k, _)| k)
        .collect();
    assert_eq!(stored, flat);
    for n in 1..=3 {
        assert!(store.is_processed(&format!("mail-{n}")).unwrap());
    }
    assert_eq!(store.journal_seq().unwrap(), 9);
    store.commit_group_unflushed(&[(&mail(0), None)]).unwrap();
    assert_eq!(store.journal_seq().unwrap(), 9, "no entry: left as it was");
}

/// A compaction and an open store exclude each other, whichever comes first: no store
/// opens while a compaction holds its lock (busy: `ingest` then leaves its mail in the
/// inbox), and no compaction begins while a store is open, in any process.
#[test]
fn a_compaction_and_an_open_database_exclude_each_other() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("db");
    SledStore::open(&db).unwrap().flush().unwrap();
    let compacting = SledStore::lock_for_compaction(&db).unwrap();
    match SledStore::open(&db) {
        Err(e) => assert!(SledStore::is_busy_error(&e), "{}", e.0),
        Ok(_) => panic!("a store opened during a compaction"),
    }
    drop(compacting);
    let open = SledStore::open(&db).unwrap();
    let e = SledStore::lock_for_compaction(&db).unwrap_err();
    assert!(SledStore::is_busy_error(&e), "{}", e.0);
    drop(open);
    assert!(SledStore::lock_for_compaction(&db).is_ok());
}

/// "Faults degrade, never stop" (a relay outage): a reply the transport refused
/// is held back by the retry index until its time, a parked one until it is given a fresh
/// start, and a drain's listing leaves them out without decoding them (their values are
/// garbage here); the counts decode nothing; a send and `castellan outbox --retry` clear
/// the entry; a database written before the index gets it when opened.
#[test]
fn replies_held_back_or_parked_are_left_out_of_a_drain_without_being_decoded() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("db");
    let store = SledStore::open(&path).unwrap();
    let now = 1_000;
    store
        .commit(&Changes {
            outbox: (0..3)
                .map(|n| Outbound {
                    message_id: format!("<r{n}@judge.example>"),
                    ..reply(2_000)
                })
                .collect(),
            ..Default::default()
        })
        .unwrap();
    let items = store.outbox().unwrap();
    let [(held, first), (parked, second), (fresh, _)] = &items[..] else {
        panic!("three replies: {items:?}");
    };
    let keys = |at: i64| -> Vec<u64> {
        store
            .outbox_due(at, |_| false)
            .unwrap()
            .into_iter()
            .map(|(k, _)| k)
            .collect()
    };
    assert_eq!(keys(now), [*held, *parked, *fresh]);
    let mut later = first.clone();
    (later.attempts, later.not_before) = (1, now + 100);
    store.update_outbox(*held, &later).unwrap();
    let mut failed = second.clone();
    (failed.attempts, failed.failed) = (5, true);
    store.update_outbox(*parked, &failed).unwrap();
    assert_eq!(keys(now), [*fresh]);
    assert_eq!(keys(now + 100), [*held, *fresh]);
    let counts = OutboxCounts {
        waiting: 2,
        parked: 1,
    };
    assert_eq!(store.outbox_counts().unwrap(), counts);
    // Their values unreadable: neither the listing at `now` nor the counts read them.
    for k in [held, parked] {
        store
            .outbox
            .insert(k.to_be_bytes(), b"garbage".to_vec())
            .unwrap();
    }
    assert_eq!(keys(now), [*fresh]);
    assert_eq!(store.outbox_counts().unwrap(), counts);
    store.update_outbox(*held, &later).unwrap();
    store.update_outbox(*parked, &failed).unwrap();
    // A fresh start for the parked one; the held one sent.
    assert_eq!(store.retry_parked().unwrap(), 1);
    assert_eq!(keys(now), [*parked, *fresh]);
    store.mark_sent(*held, &first.mail.message_id, now).unwrap();
    assert!(store.outbox_retry.is_empty());
    assert_eq!(
        store.outbox_counts().unwrap(),
        OutboxCounts {
            waiting: 2,
            parked: 0
        }
    );
    // Written before the index: the reply parked, its entry and the mark gone; opened.
    store.update_outbox(*parked, &failed).unwrap();
    store.outbox_retry.clear().unwrap();
    store.meta.remove(RETRY_KEY).unwrap();
    store.flush().unwrap();
    drop(store);
    let reopened = SledStore::reopened(&path);
    assert_eq!(
        reopened.outbox_counts().unwrap(),
        OutboxCounts {
            waiting: 1,
            parked: 1
        }
    );
    assert_eq!(
        reopened
            .outbox_due(now, |_| false)
            .unwrap()
            .into_iter()
            .map(|(k, _)| k)
            .collect::<Vec<_>>(),
        [*fresh]
    );
}

/// The commit's serial part: a mail's replies encoded where it was judged
/// (`encode_replies`, on another thread) are stored as the same bytes the commit would
/// have written, and read back as the same replies; encodings that do not match the
/// mail's replies (another count) are not taken, and the commit encodes them itself.
#[test]
fn replies_encoded_where_the_mail_was_judged_are_stored_as_the_commit_would() {
    let stored_values = |store: &SledStore| -> Vec<Vec<u8>> {
        store
            .outbox
            .iter()
            .values()
            .map(|v| v.unwrap().to_vec())
            .collect()
    };
    // A plain reply, one past the compression threshold, and one with a picture.
    let mut long = reply(0);
    long.html = None;
    long.body = "Turn 12: Prussia attacks Saxony.\n".repeat(400);
    let changes = Changes {
        processed: vec!["mail-1".into()],
        outbox: vec![reply(0), long, reply(30_000)],
        ..Default::default()
    };
    let plain_dir = tempfile::tempdir().unwrap();
    let plain = SledStore::open(&plain_dir.path().join("db")).unwrap();
    plain.commit_group_unflushed(&[(&changes, None)]).unwrap();

    let ahead_dir = tempfile::tempdir().unwrap();
    let ahead = SledStore::open(&ahead_dir.path().join("db")).unwrap();
    let encoded = std::thread::scope(|s| {
        s.spawn(|| encode_replies(&changes).unwrap())
            .join()
            .unwrap()
    });
    ahead
        .commit_group_encoded(&[(&changes, None, Some(&encoded))])
        .unwrap();
    assert_eq!(stored_values(&ahead), stored_values(&plain));
    let back: Vec<Outbound> = ahead
        .outbox()
        .unwrap()
        .into_iter()
        .map(|(_, item)| item.mail)
        .collect();
    assert_eq!(back, changes.outbox);

    // Encoded for other replies: ignored, the commit encodes its own.
    let other = encode_replies(&Changes {
        outbox: vec![reply(100)],
        ..Default::default()
    })
    .unwrap();
    let mismatch_dir = tempfile::tempdir().unwrap();
    let mismatch = SledStore::open(&mismatch_dir.path().join("db")).unwrap();
    mismatch
        .commit_group_encoded(&[(&changes, None, Some(&other))])
        .unwrap();
    assert_eq!(stored_values(&mismatch), stored_values(&plain));
}

/// Sender records and marks once shared one key space. A database written before
/// keeps its marks meaning what they meant: `stop/…`, `asked/…` and `failed-tries/…` in
/// `senders` are moved at open to keys no address can spell; sender records stay.
#[test]
fn old_marks_are_moved_to_keys_no_address_can_spell() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("db");
    let store = SledStore::open(&path).unwrap();
    let rec = |address: &str, count: u32| SenderRecord {
        address: address.into(),
        window_start: 7,
        count,
        ..Default::default()
    };
    for r in [
        rec("stop/fan@target.example", 1),
        rec("asked/newbie@example.net", 1),
        rec("failed-tries/castle-1/seat-0", 4),
        rec("anna@example.org", 3),
    ] {
        store
            .senders
            .insert(r.address.as_bytes(), serde_json::to_vec(&r).unwrap())
            .unwrap();
    }
    store.meta.remove(MARKS_KEY).unwrap();
    store.flush().unwrap();
    drop(store);
    let reopened = SledStore::reopened(&path);
    let mark = |kind: &str, name: &str| {
        reopened
            .sender(&castellan_judge::mark_key(kind, name))
            .unwrap()
    };
    let stop = mark("stop", "fan@target.example").expect("the STOP kept");
    assert_eq!((stop.count, stop.window_start), (1, 7));
    assert_eq!(
        stop.address,
        castellan_judge::mark_key("stop", "fan@target.example")
    );
    assert_eq!(mark("asked", "newbie@example.net").unwrap().count, 1);
    assert_eq!(mark("failed-tries", "castle-1/seat-0").unwrap().count, 4);
    for old in [
        "stop/fan@target.example",
        "asked/newbie@example.net",
        "failed-tries/castle-1/seat-0",
    ] {
        assert!(reopened.sender(old).unwrap().is_none(), "{old}");
    }
    assert_eq!(
        reopened.sender("anna@example.org").unwrap().unwrap().count,
        3
    );
}
