//! Standards: "Bad input gets a clear answer and changes nothing ... No panic on any input,
//! ever." Property tests over every game and the judge: arbitrary text, and real orders
//! with words swapped, inserted or cut, sent at arbitrary points of real games.

use castellan_engine::{Secret, Session};
use castellan_judge::{Env, Inbound, Judge, JudgeConfig, MemoryStore, Store, Templates};
use proptest::prelude::*;

/// Game `g` (index into the registry) with `seats` players, after `steps` bot moves.
fn game_after(g: usize, seats: usize, steps: usize, seed: u64) -> Box<dyn Session> {
    let info = castellan::games::all()[g];
    let seats = seats.clamp(info.min_seats, info.max_seats);
    let players = (1..=seats).map(|i| format!("P{i}")).collect();
    let mut s = (info.create)(
        "np-1",
        Secret::derive(format!("no-panic/{seed}").as_bytes()),
        players,
        &[],
    )
    .unwrap();
    for _ in 0..steps {
        if s.outcome().is_some() {
            break;
        }
        let Some(&seat) = s.awaiting().first() else {
            break;
        };
        s.play_bot(seat).unwrap();
    }
    s
}

/// Words the games use, so that mutated lines get deep into the parsers.
const WORDS: &[&str] = &[
    "ATTACK",
    "FROM",
    "UNTIL",
    "CONQUERED",
    "MOVE",
    "FOR",
    "SAIL",
    "PLAY",
    "PLACE",
    "END",
    "CLAIM",
    "DEFEND",
    "GIVE",
    "ACCEPT",
    "DRAW",
    "RESIGN",
    "FORTIFY",
    "TRADE",
    "SET",
    "x2",
    "0",
    "1",
    "3",
    "99",
    "-1",
    "18446744073709551616",
    "Paris",
    "Alaska",
    "A1",
    "K8",
    "U15",
    "->",
    ",",
    ":",
    "é",
    "🏰",
    "",
    "\t",
    "ALL",
    "NEUTRAL",
    "HQ",
    "SPY",
    "Marshal",
];

fn mutate(line: &str, edits: &[(usize, usize, u8)]) -> String {
    let mut words: Vec<String> = line.split_whitespace().map(str::to_string).collect();
    for &(at, w, kind) in edits {
        let word = WORDS[w % WORDS.len()].to_string();
        let i = if words.is_empty() {
            0
        } else {
            at % (words.len() + 1)
        };
        match kind % 3 {
            0 if i < words.len() => words[i] = word,
            1 => words.insert(i.min(words.len()), word),
            _ if i < words.len() => {
                words.remove(i);
            }
            _ => words.push(word),
        }
    }
    words.join(" ")
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 150, failure_persistence: None, ..ProptestConfig::default() })]

    /// Every game: arbitrary or mutated orders from any seat never panic; a refused text
    /// leaves the game exactly as it was, and `check` never changes it.
    #[test]
    fn no_order_text_panics_and_a_refused_one_changes_nothing(
        g in 0usize..castellan::games::all().len(),
        seats in 2usize..7,
        steps in 0usize..80,
        seed in 0u64..1000,
        seat in 0usize..7,
        junk in proptest::collection::vec(any::<String>(), 0..3),
        edits in proptest::collection::vec((0usize..12, 0usize..64, 0u8..3), 0..5),
    ) {
        let mut s = game_after(g, seats, steps, seed);
        let seat = seat % s.players().len().max(1);
        let mut lines: Vec<String> = s.bot_turn(seat, 20).iter().map(|l| mutate(l, &edits)).collect();
        lines.extend(junk);
        let text = lines.join("\n");
        let before = s.to_json().unwrap();
        let _ = s.check(seat, &text, castellan_engine::Lang::En);
        prop_assert_eq!(&s.to_json().unwrap(), &before, "check changed the game");
        if let Err(refused) = s.submit(seat, &text, castellan_engine::Lang::En) {
            prop_assert!(!refused.is_empty());
            if refused.stood.is_empty() {
                prop_assert_eq!(&s.to_json().unwrap(), &before, "a refused text changed the game");
            } else {
                // A die once rolled stands (docs/rules/dice.md): the game is as if the
                // lines before the refused one had been sent alone.
                let prefix: Vec<&str> = text
                    .lines()
                    .enumerate()
                    .filter(|(i, _)| refused.stood.contains(&(i + 1)))
                    .map(|(_, l)| l)
                    .collect();
                let mut alone = (castellan::games::all()[g].load_json)(before.clone()).unwrap();
                prop_assert!(alone.submit(seat, &prefix.join("\n"), castellan_engine::Lang::En).is_ok());
                prop_assert_eq!(&s.to_json().unwrap(), &alone.to_json().unwrap(), "what stood is not the prefix alone");
            }
        }
        // Out of range seats are refused, never a panic.
        let _ = s.submit(99, &text, castellan_engine::Lang::En);
    }

    /// The judge: any body from a stranger, and any body from a player, is answered without
    /// a panic; a stranger's mail never changes a game.
    #[test]
    fn no_mail_body_panics_the_judge(
        body in proptest::collection::vec(
            prop_oneof![
                any::<String>(),
                "(GAME|JOIN|CREATE|SET|CHECK|HISTORY|PRESS|VACATION|EXTEND|KICK|REPLACE|END|PAUSE) [a-z0-9 =:@.-]{0,30}",
                Just("GAME castle-1 wrong".to_string()),
                Just("HISTORY castle-1 99999999999999999999".to_string()),
                Just("VACATION 4294967296".to_string()),
                Just("CREATE castle-risk player=a:b seats=0 deadline=-5".to_string()),
            ],
            0..8,
        ),
        stranger in any::<bool>(),
        subject in any::<String>(),
    ) {
        let judge = Judge::new(
            JudgeConfig { address: "judge@example.org".into(), domain: "example.org".into(), password_memory_kib: 8, password_iterations: 1, ..JudgeConfig::default() },
            castellan::games::all(),
            Templates::builtin(),
        );
        let store = MemoryStore::new();
        let env = Env { now: 1_800_000_000, entropy: [7; 32] };
        let (changes, _) = judge
            .admin(&store, castellan_judge::AdminCommand::New {
                game: "castle-risk".into(),
                players: vec![("A".into(), "a@example.org".into()), ("B".into(), "b@example.org".into())],
                gm: "gm@example.org".into(),
                options: vec![],
            }, &env)
            .unwrap();
        store.commit(&changes).unwrap();
        let before = store.game("castle-1").unwrap();
        let mail = Inbound {
            message_id: "<np@example.org>".into(),
            from: if stranger { "x@example.net".into() } else { "a@example.org".into() },
            to: vec!["judge@example.org".into()],
            subject,
            body: body.join("\n"),
            ..Inbound::default()
        };
        let changes = judge.handle(&store, &mail, &env).unwrap();
        if stranger {
            prop_assert!(changes.games.iter().all(|g| g.id != "castle-1"), "a stranger changed castle-1");
            store.commit(&changes).unwrap();
            prop_assert_eq!(store.game("castle-1").unwrap(), before);
        }
    }
}

// ------------------------------------------------------------ the intake, raw bytes in

/// The real mails of the mail layer's golden files (crates/mail/tests/golden/*.eml).
fn real_mails() -> Vec<Vec<u8>> {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("crates/mail/tests/golden");
    let mut v: Vec<Vec<u8>> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "eml"))
        .map(|p| std::fs::read(p).unwrap())
        .collect();
    v.sort();
    assert!(v.len() >= 20, "the golden mails are missing");
    v
}

/// Bytes in: arbitrary, or a real mail with bytes replaced, inserted or cut, sometimes
/// with a player's From.
fn raw_mail() -> impl Strategy<Value = Vec<u8>> {
    let mails = real_mails();
    prop_oneof![
        proptest::collection::vec(any::<u8>(), 0..2048),
        (
            0..mails.len(),
            proptest::collection::vec((any::<usize>(), any::<u8>(), 0u8..4), 0..12),
        )
            .prop_map(move |(i, edits)| {
                let mut m = mails[i].clone();
                for (at, b, kind) in edits {
                    let at = at % (m.len() + 1);
                    match kind {
                        0 if at < m.len() => m[at] = b,
                        1 => m.insert(at, b),
                        2 if at < m.len() => {
                            m.remove(at);
                        }
                        _ => {
                            // A player's From, so mutated mail reaches deep into the judge.
                            let from = b"From: a@example.org\r\n";
                            m.splice(0..0, from.iter().copied());
                        }
                    }
                }
                m
            }),
    ]
}

/// A judge with a running castle-1 (players a@ and b@, game master gm@).
fn judge_with_a_game() -> (Judge, MemoryStore, Env) {
    let judge = Judge::new(
        JudgeConfig {
            address: "judge@example.org".into(),
            domain: "example.org".into(),
            password_memory_kib: 8,
            password_iterations: 1,
            ..JudgeConfig::default()
        },
        castellan::games::all(),
        Templates::builtin(),
    );
    let store = MemoryStore::new();
    let env = Env {
        now: 1_800_000_000,
        entropy: [7; 32],
    };
    let (changes, _) = judge
        .admin(
            &store,
            castellan_judge::AdminCommand::New {
                game: "castle-risk".into(),
                players: vec![
                    ("A".into(), "a@example.org".into()),
                    ("B".into(), "b@example.org".into()),
                ],
                gm: "gm@example.org".into(),
                options: vec![],
            },
            &env,
        )
        .unwrap();
    store.commit(&changes).unwrap();
    (judge, store, env)
}

/// One raw mail through the mail layer and the judge: no panic; a mail whose sender is
/// neither a player nor the game master changes no game; every reply is within bounds.
fn intake_case(
    judge: &Judge,
    store: &MemoryStore,
    env: &Env,
    raw: &[u8],
) -> Result<(), TestCaseError> {
    let Ok(mail) = castellan_mail::parse(raw, JudgeConfig::default().max_body_bytes) else {
        return Ok(());
    };
    let before = store.game("castle-1").unwrap();
    let changes = judge.handle(store, &mail, env).unwrap();
    let known = ["a@example.org", "b@example.org", "gm@example.org"];
    if !known.contains(&mail.from.as_str()) {
        prop_assert!(changes.games.is_empty(), "a stranger changed a game");
        store.commit(&changes).unwrap();
        prop_assert_eq!(store.game("castle-1").unwrap(), before);
    }
    let request = mail.subject.len() + mail.body.len() + mail.from.len();
    let budget = castellan_judge::reply_budget(JudgeConfig::default().max_reply_bytes, request);
    for m in changes.outbox.iter().filter(|m| m.to == mail.from) {
        prop_assert!(
            m.body.len() <= budget + 2048,
            "reply of {} bytes",
            m.body.len()
        );
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 200, failure_persistence: None, ..ProptestConfig::default() })]

    /// "A property test of the intake over arbitrary bytes and mutated real
    /// mails (no panic, no state change for strangers)". The long form is
    /// `intake_survives_arbitrary_bytes_long` (`--ignored`).
    #[test]
    fn intake_survives_arbitrary_bytes_and_mutated_mails(raw in raw_mail()) {
        let (judge, store, env) = judge_with_a_game();
        intake_case(&judge, &store, &env, &raw)?;
    }
}

/// The same, 20,000 cases on one judge whose state grows: `cargo test -p castellan --test
/// no_panic -- --ignored` (a few minutes).
#[test]
#[ignore]
fn intake_survives_arbitrary_bytes_long() {
    let (judge, store, env) = judge_with_a_game();
    let mut runner = proptest::test_runner::TestRunner::new(ProptestConfig {
        cases: 20_000,
        failure_persistence: None,
        ..ProptestConfig::default()
    });
    runner
        .run(&raw_mail(), |raw| intake_case(&judge, &store, &env, &raw))
        .unwrap();
}
