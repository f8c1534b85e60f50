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
//! Here:
//! * [`cli`]: raw flags (clap); `main` resolves them against [`config`].
//! * [`error`]: why a command failed ([`error::ShellError`]), and its exit code.
//! * [`config`]: config/castellan.yaml, every key optional, defaults need no mail server.
//! * [`store`]: sled behind the judge's `Store`: a batch's messages committed in groups, one
//!   transaction a group, flushed once a batch.
//! * [`service`]: parse → judge → commit → acknowledge; the inbox in batches, committed in
//!   groups (`service/batch.rs`); the outbox with retries (`service/outbox.rs`).
//! * [`prestage`]: a batch's replies rendered and written (hidden) while it is handled.
//! * [`optimistic`]: a batch's mails judged side by side, committed in order.
//! * [`daemon`]: the tokio loop (`serve`) and IMAP polling.
//! * [`players`]: bot players that play by mail through the real pipeline (demo, bench,
//!   end-to-end tests).
//! * [`demo`]: one whole game by email on the embedded defaults.
//! * [`simulate`], [`bench`](mod@bench): engine-only games and the end-to-end benchmark.
//! * [`budget`]: what a game's mail costs its players (the demo's mail budget, issue 12).
//! * [`transfer`]: export and import of one game.
//! * [`backup`](mod@backup): whole-database backups, streamed; the rolling backups of `serve`.
//! * [`recover`]: the journal of every handling kept beside sled, and `castellan recover`.
//! * [`compact`]: `castellan compact`, the database rewritten with its live records only.
//! * [`render`](mod@render): `castellan render`, a stored game's picture at any turn (SVG or HTML).
//! * [`logging`]: tracing on stderr, as text or JSON lines (`--log-format json`).
//! * [`metrics`]: optional Prometheus metrics of `serve` on a loopback port.
//! * [`progress`]: progress bars on a terminal, plain lines otherwise, for long runs.
//! * [`pipe`]: output piped into `head` or a closed pager ends quietly.
//! * [`doctor`]: `castellan doctor`, the operator's checks with a fix for each problem.

pub mod cli;
pub mod config;
pub mod error;
pub mod games;
pub mod logging;
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
