//! Castellan: a play-by-email judge for Castle Risk, Risk, Castrum and Castello.
//!
//! This crate is the imperative shell; the rules and the judge are pure crates beside it.
//!
//! * `crates/engine` (`castellan_engine`): the shared game API ([`castellan_engine::Rules`],
//!   [`castellan_engine::Table`]), auditable dice, board and battle helpers. No I/O.
//! * `crates/castle-risk`, `crates/risk`, `crates/castrum`, `crates/castello`: one pure
//!   rules crate per game, listed in [`games`].
//! * `crates/judge` (`castellan_judge`): mail commands, authentication, deadlines, reports,
//!   as "a message + the time → changes + replies". Pure.
//! * `crates/mail` (`castellan_mail`): parsing, quote stripping, rendering, Maildir, IMAP,
//!   SMTP / sendmail / file transports.
//!
//! Here, in four folders and a few files:
//! * [`serve`]: the judge at work: parse → judge → commit → acknowledge, the inbox in
//!   batches committed in groups, the outbox with retries, `serve` (the tokio loop),
//!   `ingest`, metrics.
//! * [`store`]: what the judge keeps on disk: sled behind the judge's `Store`, the
//!   journal beside it, fault injection for the crash tests.
//! * [`ops`]: the operator's commands: backups, `recover`, `compact`, `doctor`, export
//!   and import, `render`, the game master's commands run from the shell.
//! * [`play`]: games played without people: bot players, the demos, the simulators, the
//!   benchmark.
//! * [`cli`]: raw flags (clap); `main` resolves them against [`config`] and hands each
//!   command to its module.
//! * [`error`]: why a command failed ([`error::ShellError`]), and its exit code.
//! * [`config`]: config/castellan.yaml, every key optional, defaults need no mail server.
//! * [`logging`]: tracing on stderr, as text or JSON lines (`--log-format json`).
//! * [`progress`]: progress bars on a terminal, plain lines otherwise, for long runs.
//! * [`pipe`]: output piped into `head` or a closed pager ends quietly.
//! * [`games`]: the games this judge runs.
//!
//! Between the folders: `play` and `ops` use `serve` and `store` (`ops::render` also
//! `play::players::load_session`), `serve` uses `store` (and, for what `serve` does by
//! itself between passes, the rolling backups and the compaction of `ops`); `store` uses
//! none of them. No import circle joins more than two files.

pub mod cli;
pub mod config;
pub mod error;
pub mod games;
pub mod logging;
pub mod manual;
pub mod ops;
pub mod pipe;
pub mod play;
pub mod progress;
pub mod serve;
pub mod store;

/// Records the unit tests of this crate build (one game record, by its JSON).
#[cfg(test)]
pub(crate) mod fixtures {
    use castellan_judge::GameRecord;

    /// A running game `id` with no table, its game master's token `gm_token` and one seat
    /// a token of `seat_tokens` (`p0@example.org`, `p1@example.org`, ...).
    pub fn game_record(id: &str, gm_token: &str, seat_tokens: &[&str]) -> GameRecord {
        let seats: Vec<serde_json::Value> = seat_tokens
            .iter()
            .enumerate()
            .map(|(i, t)| {
                serde_json::json!({
                    "name": format!("P{i}"), "address": format!("p{i}@example.org"),
                    "password_hash": "", "token": t, "misses": 0, "vacation_until": null,
                    "bot": false, "resigned": false
                })
            })
            .collect();
        serde_json::from_value(serde_json::json!({
            "id": id, "game": "castle-risk", "status": "Running", "gm": "gm@example.org",
            "gm_password_hash": "", "gm_token": gm_token, "join_password_hash": "", "salt": "",
            "seats": seats, "observers": [], "options": [],
            "deadlines": {"hours": 24, "reminder_hours": 6, "grace_hours": 2},
            "deadline": null, "paused_left": null, "deadline_history": 0,
            "reminded": [], "out_counter": 0, "reported": 0, "revealed": 0, "created": 0,
            "ended": null, "table": null
        }))
        .unwrap()
    }
}
