//! For the unit tests of the handling's parts: a judge on the built-in templates with no
//! game rules, the in-memory store, a fixed clock and entropy, and games as headers (the
//! parts tested here read a game's record, not its table).

use crate::config::JudgeConfig;
use crate::judge::Judge;
use crate::model::*;
use crate::run::Run;
use crate::store::{Changes, MemoryStore, Store};
use crate::stored::StoredGame;
use crate::templates::Templates;

/// The bench's clock: a Tuesday in 2027, 03:00 UTC.
pub(crate) const NOW: i64 = 1_800_000_000;

pub(crate) struct Bench {
    pub(crate) judge: Judge,
    pub(crate) store: MemoryStore,
    pub(crate) env: Env,
}

impl Bench {
    pub(crate) fn new() -> Bench {
        Bench::with(JudgeConfig::default())
    }

    pub(crate) fn with(config: JudgeConfig) -> Bench {
        Bench {
            judge: Judge::new(config, Vec::new(), Templates::builtin()),
            store: MemoryStore::new(),
            env: Env {
                now: NOW,
                entropy: [7; 32],
            },
        }
    }

    /// One handling.
    pub(crate) fn run(&self) -> Run<'_> {
        Run::new(&self.judge, &self.store, &self.env, "bench".into())
    }

    /// Store `rec` as a game's header (a game with no table).
    pub(crate) fn holds(&self, rec: GameRecord) {
        let changes = Changes {
            games: vec![StoredGame {
                record: rec,
                table: None,
            }],
            ..Default::default()
        };
        self.store
            .commit(&changes)
            .expect("the memory store takes it");
    }

    /// End a handling as the judge does, and commit what it wrote.
    pub(crate) fn finish(&self, run: Run<'_>) -> Changes {
        let mut changes = Changes::default();
        run.finish_into(&mut changes);
        self.store
            .commit(&changes)
            .expect("the memory store takes it");
        changes
    }
}

/// A seat's credentials in [`game`]: (name, address, password, token).
pub(crate) const SEATS: [(&str, &str, &str, &str); 2] = [
    ("Alice", "alice@example.org", "alice-pw", "tok-alice"),
    ("Bob", "bob@example.org", "bob-pw", "tok-bob"),
];

/// The game master of [`game`]: (address, password, token).
pub(crate) const GM: (&str, &str, &str) = ("gm@example.org", "gm-pw", "tok-gm");

/// A running game `id` with the [`SEATS`] and the [`GM`], its passwords kept by keyed
/// hash (as the judge keeps those it draws), its deadline a day away.
pub(crate) fn game(id: &str) -> GameRecord {
    let salt = format!("salt-of-{id}");
    let seat = |(name, address, password, token): (&str, &str, &str, &str)| {
        serde_json::json!({
            "name": name, "address": address,
            "password_hash": crate::password::keyed(&salt, password),
            "token": token, "misses": 0, "vacation_until": null, "bot": false,
            "resigned": false
        })
    };
    serde_json::from_value(serde_json::json!({
        "id": id, "game": "castle-risk", "status": "Running", "gm": GM.0,
        "gm_password_hash": crate::password::keyed(&salt, GM.1), "gm_token": GM.2,
        "join_password_hash": "", "salt": salt,
        "seats": SEATS.map(seat), "observers": [], "options": [],
        "deadlines": {"hours": 24, "reminder_hours": 6, "grace_hours": 2},
        "deadline": NOW + 24 * 3600, "paused_left": null, "deadline_history": 0,
        "reminded": [], "out_counter": 0, "reported": 1, "revealed": 0, "created": NOW - 3600,
        "ended": null
    }))
    .expect("a game record")
}
