//! What the judge's behaviour tests share: the toy game (castellan_engine::toy::Race:
//! seats add 1 to 3, a die adds one on an even face, ten wins; seat 0 holds a secret card),
//! a `World` that handles mail and ticks on a MemoryStore, and finders for the mails out.
#![allow(dead_code)]
pub use castellan_engine::game_info;
pub use castellan_engine::toy::Race;
pub use castellan_judge::*;

pub const T0: i64 = 1_736_877_600; // Tue 14 Jan 2025 18:00 UTC

pub fn config() -> JudgeConfig {
    JudgeConfig {
        address: "judge@example.org".into(),
        domain: "example.org".into(),
        // Argon2id's smallest cost: tests stay fast (the default costs ~19 MiB per login).
        password_memory_kib: 8,
        password_iterations: 1,
        // Most tests name players who never wrote; attacks.rs tests the double opt-in.
        confirm_addresses: false,
        ..JudgeConfig::default()
    }
}

/// The toy's GameInfo (its options are `()`).
pub fn race_info() -> castellan_engine::GameInfo {
    game_info::<Race>()
}

pub fn judge_with(config: JudgeConfig) -> Judge {
    Judge::new(config, vec![race_info()], Templates::builtin())
}

pub fn judge() -> Judge {
    judge_with(config())
}

pub fn env(now: i64) -> Env {
    let mut e = [0u8; 32];
    e[..8].copy_from_slice(&now.to_le_bytes());
    Env { now, entropy: e }
}

pub struct World {
    pub j: Judge,
    pub store: MemoryStore,
    pub now: i64,
    pub n: u64,
}

impl World {
    pub fn new(j: Judge) -> World {
        World {
            j,
            store: MemoryStore::new(),
            now: T0,
            n: 0,
        }
    }

    pub fn inbound(&mut self, from: &str, subject: &str, body: &str) -> Inbound {
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
    pub fn send(&mut self, from: &str, subject: &str, body: &str) -> Vec<Outbound> {
        let m = self.inbound(from, subject, body);
        self.deliver(&m)
    }

    pub fn deliver(&mut self, m: &Inbound) -> Vec<Outbound> {
        self.now += 60;
        let c = self.j.handle(&self.store, m, &env(self.now)).unwrap();
        self.store.commit(&c).unwrap();
        c.outbox
    }

    pub fn tick_at(&mut self, now: i64) -> Vec<Outbound> {
        self.now = now;
        let c = self.j.tick(&self.store, &env(now)).unwrap();
        self.store.commit(&c).unwrap();
        c.outbox
    }

    /// A game as stored: its record (`w.game(id).seats`) and its whole table.
    pub fn game(&self, id: &str) -> Game {
        let g = self.store.game_whole(id).unwrap().expect("game exists");
        Game {
            rec: g.record,
            table: g.table,
        }
    }
}

/// A stored game in a test: its record (deref) and its table's stored form.
#[derive(Debug, PartialEq)]
pub struct Game {
    pub rec: GameRecord,
    pub table: Option<castellan_engine::StoredTable>,
}

impl std::ops::Deref for Game {
    type Target = GameRecord;
    fn deref(&self) -> &GameRecord {
        &self.rec
    }
}

impl std::ops::DerefMut for Game {
    fn deref_mut(&mut self) -> &mut GameRecord {
        &mut self.rec
    }
}

impl Game {
    /// The game to commit again, as the store takes it.
    pub fn stored(self) -> castellan_judge::StoredGame {
        castellan_judge::StoredGame {
            record: self.rec,
            table: self.table,
        }
    }
}

pub fn to<'a>(mails: &'a [Outbound], addr: &str) -> Vec<&'a Outbound> {
    mails.iter().filter(|m| m.to == addr).collect()
}

pub fn reply_to<'a>(mails: &'a [Outbound], addr: &str) -> &'a Outbound {
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
pub fn creds(mails: &[Outbound], addr: &str) -> (String, String) {
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

pub const ANNA: &str = "anna@example.org";
pub const BOB: &str = "bob@example.org";
pub const GM: &str = "gm@example.org";

/// A running race-1 with Anna (seat 0) and Bob; returns the creation mails.
pub fn started(w: &mut World) -> Vec<Outbound> {
    w.send(
        GM,
        "new game",
        "CREATE race player=Anna:anna@example.org player=Bob:bob@example.org",
    )
}

pub fn secret_card(mails: &[Outbound]) -> String {
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
pub fn mentions_a_card(s: &str) -> bool {
    s.match_indices("card ")
        .any(|(i, _)| s[i + 5..].starts_with(|c: char| c.is_ascii_digit()))
}

/// A subject without the token of its tag: "[race-1 #k3j9x] Turn 1" -> "[race-1] Turn 1"
/// (every mail about a game carries its reader's token: tests/replies.rs checks whose).
pub fn untagged(subject: &str) -> String {
    match (subject.find(" #"), subject.find(']')) {
        (Some(hash), Some(close)) if hash < close => {
            format!("{}{}", &subject[..hash], &subject[close..])
        }
        _ => subject.to_string(),
    }
}
