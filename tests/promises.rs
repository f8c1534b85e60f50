//! "A player is always asked, told and answered". The player simulator
//! (src/mailsim, `castellan simulate --by-mail`) over a fixed budget of seeds, its long
//! form behind `--ignored`, and the promises on the real games through the pure
//! judge (the toy game's cases are in crates/judge/tests/promises.rs).

use castellan::play::mailsim::{self, Settings};
use castellan_engine::{PromptKind, Session};
use castellan_judge::{
    format_long_zoned, Env, Inbound, Judge, JudgeConfig, MemoryStore, Outbound, Store, Templates,
};

/// The quick suite's budget: every game kind three times, each to its end or its cap.
#[test]
fn the_simulated_players_keep_every_promise() {
    let r = mailsim::run(&Settings {
        seed: 29,
        games: 12,
        max_events: 400,
        only: None,
        threads: 2,
        shell_every: 0,
    });
    assert_eq!(r.games, 12);
    assert!(r.mails_in > 500, "the people wrote: {}", r.text());
    for kind in castellan::games::all().iter().map(|g| g.name) {
        assert!(
            r.games_by_kind.keys().any(|k| k.starts_with(kind)),
            "{kind} played: {}",
            r.text()
        );
    }
    for b in [
        "absent",
        "late",
        "bottompost",
        "htmlonly",
        "toppost",
        "signoff",
        "french",
    ] {
        assert!(r.behaviours.contains_key(b), "{b} took part: {}", r.text());
    }
    assert!(r.broken.is_empty(), "{}", r.text());
}

/// The long form: `CASTELLAN_SIM_GAMES` games (default 2,000) of seed 1. Run it once
/// before closing an issue that touches a promise (release: `cargo test --release --test
/// promises -- --ignored`; or `castellan simulate --by-mail --games 10000`).
#[test]
#[ignore]
fn the_simulated_players_keep_every_promise_long() {
    let games = std::env::var("CASTELLAN_SIM_GAMES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(2_000);
    let r = mailsim::run(&Settings {
        seed: 1,
        games,
        max_events: 1500,
        only: None,
        shell_every: 10,
        threads: std::thread::available_parallelism().map_or(2, |n| n.get()),
    });
    println!("{}", r.text());
    assert!(r.broken.is_empty(), "{}", r.text());
}

const T0: i64 = 1_767_225_600;
const GM: &str = "gm@players.example";

/// The real games on the pure judge, everyone named counting as confirmed.
struct Table {
    judge: Judge,
    store: MemoryStore,
    now: i64,
    n: u64,
}

impl Table {
    fn new() -> Table {
        let config = JudgeConfig {
            address: mailsim::JUDGE.into(),
            domain: "example.org".into(),
            password_memory_kib: 8,
            password_iterations: 1,
            confirm_addresses: false,
            ..JudgeConfig::default()
        };
        Table {
            judge: Judge::new(config, castellan::games::all(), Templates::builtin()),
            store: MemoryStore::new(),
            now: T0,
            n: 0,
        }
    }

    fn env(&self) -> Env {
        let mut entropy = [7u8; 32];
        entropy[..8].copy_from_slice(&self.now.to_le_bytes());
        Env {
            now: self.now,
            entropy,
        }
    }

    fn send(&mut self, from: &str, subject: &str, body: &str) -> Vec<Outbound> {
        self.n += 1;
        self.now += 60;
        let m = Inbound {
            message_id: format!("<t{}@players.example>", self.n),
            from: from.into(),
            to: vec![mailsim::JUDGE.into()],
            subject: subject.into(),
            body: body.into(),
            ..Default::default()
        };
        let c = self.judge.handle(&self.store, &m, &self.env()).unwrap();
        self.store.commit(&c).unwrap();
        self.store.drain_outbox();
        c.outbox
    }

    fn tick_at(&mut self, now: i64) -> Vec<Outbound> {
        self.now = now;
        let c = self.judge.tick(&self.store, &self.env()).unwrap();
        self.store.commit(&c).unwrap();
        self.store.drain_outbox();
        c.outbox
    }

    fn game(&self, id: &str) -> castellan_judge::StoredGame {
        self.store.game(id).unwrap().unwrap()
    }

    fn session(&self, id: &str) -> Box<dyn Session> {
        castellan::play::players::load_session(&self.game(id))
            .unwrap()
            .unwrap()
    }

    fn create(&mut self, game: &str, players: &[&str]) -> (String, Vec<Outbound>) {
        let named: Vec<String> = players
            .iter()
            .map(|p| format!("player={p}:{}@players.example", p.to_lowercase()))
            .collect();
        let out = self.send(
            GM,
            "new game",
            &format!("CREATE {game} {} deadline=48", named.join(" ")),
        );
        let id = self.store.game_ids().unwrap()[0].clone();
        (id, out)
    }

    /// The subject a seat's mail client replies under.
    fn subject(&self, id: &str, seat: usize) -> String {
        format!("Re: [{id} #{}] orders", self.game(id).seats[seat].token)
    }
}

fn asks(mails: &[Outbound], to: &str, session: &dyn Session, seat: usize) -> bool {
    let questions: Vec<String> = session
        .pending(castellan_engine::Lang::En)
        .into_iter()
        .filter(|p| p.seat == seat)
        .map(|p| p.question)
        .collect();
    mails
        .iter()
        .any(|m| m.to == to && questions.iter().any(|q| m.body.contains(q.as_str())))
}

/// "A simultaneous phase ended by its deadline … sends no mail. Risk, 3
/// players, nobody sends RANK: at +49 h no mail goes out, the next phase keeps the expired
/// deadline …, and at +50 h the placement counts as a second miss". Now: the phase that
/// follows asks every seat, with a new deadline, and an hour later nothing is missed again.
#[test]
fn a_simultaneous_phase_ended_by_its_deadline_asks_everyone_with_a_new_deadline() {
    let mut t = Table::new();
    let (id, _) = t.create("risk", &["Alice", "Bob", "Carol"]);
    let g = t.game(&id);
    let kinds = |t: &Table| -> Vec<PromptKind> {
        t.session(&id)
            .pending(castellan_engine::Lang::En)
            .iter()
            .map(|p| p.kind)
            .collect()
    };
    assert_eq!(
        kinds(&t),
        vec![PromptKind::from(castellan_risk::Ask::Draft); 3],
        "the draft is simultaneous"
    );
    let due = g.deadline.unwrap() + i64::from(g.deadlines.grace_hours) * 3600;
    let out = t.tick_at(due);
    let g = t.game(&id);
    let session = t.session(&id);
    let deadline = g.deadline.expect("a deadline runs");
    assert!(deadline > t.now, "the new phase's deadline is ahead");
    let awaited = session.awaiting();
    // Every seat places: the last seat defaulted has not had its placement played for it
    // unasked (a default runs on through its own turn, never into the next phase).
    assert_eq!(awaited, vec![0, 1, 2], "the placement awaits everyone");
    for s in awaited {
        let addr = g.seats[s].address.clone().unwrap();
        assert!(
            asks(&out, &addr, session.as_ref(), s),
            "seat {s} asked: {out:#?}"
        );
        assert!(
            out.iter().any(|m| m.to == addr
                && m.body.contains(&format_long_zoned(
                    deadline,
                    castellan_engine::Lang::En,
                    None
                ))),
            "seat {s} told the new deadline"
        );
    }
    let misses: Vec<u32> = g.seats.iter().map(|s| s.misses).collect();
    t.tick_at(due + 3600);
    let again: Vec<u32> = t.game(&id).seats.iter().map(|s| s.misses).collect();
    assert_eq!(misses, again, "no second miss an hour later");
}

/// "After PROCESS in the same phase only the game master gets
/// 'the report tells the table'; no report reaches the table."
#[test]
fn process_in_a_simultaneous_phase_reports_to_the_table() {
    let mut t = Table::new();
    let (id, created) = t.create("risk", &["Alice", "Bob", "Carol"]);
    let gm_token = created
        .iter()
        .filter(|m| m.to == GM)
        .find_map(|m| {
            m.body
                .lines()
                .find_map(|l| l.strip_prefix("Your token:"))
                .map(|t| t.trim().to_string())
        })
        .expect("the game master's token");
    let out = t.send(GM, &format!("Re: [{id} #{gm_token}] go"), "PROCESS");
    let g = t.game(&id);
    let session = t.session(&id);
    assert!(!session.awaiting().is_empty());
    for s in session.awaiting() {
        let addr = g.seats[s].address.clone().unwrap();
        assert!(
            asks(&out, &addr, session.as_ref(), s),
            "seat {s} asked after PROCESS"
        );
    }
    assert!(g.seats.iter().all(|s| s.misses == 0), "PROCESS is no miss");
}

/// "Castle Risk: after END the player must PLACE the earned armies, but
/// the reply neither asks nor gives a deadline". Seats play as the bots would, by mail;
/// the first END that leaves its writer awaited for something else is answered with the
/// question and the deadline.
#[test]
fn an_end_that_leaves_armies_to_place_asks_for_them_with_the_deadline() {
    let mut t = Table::new();
    let (id, _) = t.create("castle-risk", &["Alice", "Bob", "Carol"]);
    for _ in 0..600 {
        let session = t.session(&id);
        let Some(&seat) = session.awaiting().first() else {
            break;
        };
        let before: Vec<PromptKind> = session
            .pending(castellan_engine::Lang::En)
            .iter()
            .filter(|p| p.seat == seat)
            .map(|p| p.kind)
            .collect();
        let orders = session.bot_text(seat);
        let subject = t.subject(&id, seat);
        let addr = t.game(&id).seats[seat].address.clone().unwrap();
        let out = t.send(&addr, &subject, &orders);
        let after = t.session(&id);
        let now: Vec<PromptKind> = after
            .pending(castellan_engine::Lang::En)
            .iter()
            .filter(|p| p.seat == seat)
            .map(|p| p.kind)
            .collect();
        let ended = orders.lines().last().is_some_and(|l| l.trim() == "END");
        if ended
            && before == [castellan_castle_risk::Ask::Turn]
            && now == [castellan_castle_risk::Ask::Place]
        {
            let deadline = t.game(&id).deadline.unwrap();
            assert!(
                asks(&out, &addr, after.as_ref(), seat),
                "the reply asks PLACE: {out:#?}"
            );
            let reply = out.iter().find(|m| m.to == addr).unwrap();
            assert!(
                reply.body.contains(&format_long_zoned(
                    deadline,
                    castellan_engine::Lang::En,
                    None
                )) || reply
                    .body
                    .contains(&castellan_judge::format_short(deadline)),
                "with the deadline: {}",
                reply.body
            );
            return;
        }
    }
    panic!("no END left armies to place in 600 mails");
}
