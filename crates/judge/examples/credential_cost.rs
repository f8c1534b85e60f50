//! What credential checks cost one mail, at the judge's default Argon2id cost (19 MiB,
//! 2 passes): run it under `/usr/bin/time -v` for peak RSS and CPU.
//!
//! ```text
//! cargo build --release -p castellan-judge --example credential_cost
//! /usr/bin/time -v target/release/examples/credential_cost create20
//! /usr/bin/time -v target/release/examples/credential_cost create20chosen
//! /usr/bin/time -v target/release/examples/credential_cost join20
//! /usr/bin/time -v target/release/examples/credential_cost flood 2000
//! ```
//!
//! `create20`: one mail of 20 CREATE lines (the toy game: 2 players named, 3 seats, so a
//! game master, two seats and a join password each; `create20chosen`: each with a join
//! password of the game master's choosing, `password=`). `join20`: one mail of 20 wrong JOIN
//! passwords for a forming game. `flood N`: N mails from a player's address, each guessing
//! two tokens, then the player's own mail; prints how many guessed tokens were checked.

use castellan_engine::game_info;
use castellan_engine::toy::Race;
use castellan_judge::*;

fn judge() -> Judge {
    let config = JudgeConfig {
        address: "judge@example.org".into(),
        domain: "example.org".into(),
        confirm_addresses: false,
        ..JudgeConfig::default()
    };
    Judge::new(config, vec![game_info::<Race>()], Templates::builtin())
}

struct World {
    j: Judge,
    store: MemoryStore,
    now: i64,
    n: u64,
}

impl World {
    fn send(&mut self, from: &str, to: &str, subject: &str, body: &str) -> Changes {
        self.n += 1;
        self.now += 1;
        let m = Inbound {
            message_id: format!("<m{}@players.example>", self.n),
            from: from.into(),
            to: vec![to.into()],
            subject: subject.into(),
            body: body.into(),
            ..Default::default()
        };
        let mut e = [0u8; 32];
        e[..8].copy_from_slice(&self.n.to_le_bytes());
        let env = Env {
            now: self.now,
            entropy: e,
        };
        let c = self.j.handle(&self.store, &m, &env).expect("handled");
        self.store.commit(&c).expect("committed");
        c
    }
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let mut w = World {
        j: judge(),
        store: MemoryStore::new(),
        now: 1_736_877_600,
        n: 0,
    };
    let judge_addr = "judge@example.org";
    let t = std::time::Instant::now();
    match args.get(1).map(String::as_str) {
        Some(mode @ ("create20" | "create20chosen")) => {
            let chosen = mode == "create20chosen";
            let body: String = (0..20)
                .map(|i| {
                    let pw = if chosen { format!(" password=castle{i}") } else { String::new() };
                    format!("CREATE race seats=3{pw} player=A{i}:a{i}@example.org player=B{i}:b{i}@example.org\n")
                })
                .collect();
            let c = w.send("gm@example.org", judge_addr, "new games", &body);
            println!("games created: {}", c.games.len());
        }
        Some("join20") => {
            w.send(
                "gm@example.org",
                judge_addr,
                "new game",
                "CREATE race seats=3 password=castle player=Anna:anna@example.org",
            );
            let body: String = (0..20).map(|i| format!("JOIN race-1 guess{i}\n")).collect();
            let c = w.send("eve@example.org", judge_addr, "join", &body);
            println!("seats taken: {}", c.games.len());
        }
        Some("flood") => {
            let n: usize = args.get(2).and_then(|s| s.parse().ok()).unwrap_or(2000);
            let c = w.send(
                "gm@example.org",
                judge_addr,
                "new game",
                "CREATE race player=Anna:anna@example.org player=Bob:bob@example.org",
            );
            let token = c
                .games
                .first()
                .and_then(|g| g.record.seats.first())
                .map(|s| s.token.clone())
                .unwrap_or_default();
            let mut judged = 0;
            for i in 0..n {
                let guess = format!("{:06}", i);
                let c = w.send(
                    "anna@example.org",
                    &format!("judge+g{guess}@example.org"),
                    &format!("[race-1 #{guess}] orders"),
                    "ADD 1",
                );
                if c.log.iter().any(|l| l.kind == "mail") {
                    judged += 1;
                }
            }
            let c = w.send(
                "anna@example.org",
                judge_addr,
                &format!("[race-1 #{token}] orders"),
                "ADD 1",
            );
            let ok = c.outbox.iter().any(|m| m.body.contains("applied"));
            println!("{n} guess mails, {judged} judged; the player's own mail applied: {ok}");
        }
        _ => {
            eprintln!("usage: credential_cost create20 | create20chosen | join20 | flood N");
            std::process::exit(2);
        }
    }
    eprintln!("elapsed {:?}", t.elapsed());
}
