//! The judge: "a message + the time → state changes + outgoing messages", for every game.
//!
//! Pure: no I/O, no clock, no database. The time and fresh randomness come in an [`Env`];
//! the games come as [`GameInfo`](castellan_engine::GameInfo)s; the state comes from a
//! [`Store`] that is only read, and everything to write comes back as one [`Changes`]
//! the caller commits atomically (the daemon's sled store, or [`MemoryStore`] in tests).
//!
//! * [`Judge::handle`]: one inbound mail (commands, orders, several games per mail).
//! * [`Judge::tick`]: deadlines (reminders, defaults on a miss, bot stand-ins).
//! * [`Judge::admin`]: the game master's local commands (`castellan game ...`).
//!
//! The mail commands are documented in docs/commands.md.

mod audit;
mod auth;
mod clock;
mod cmd;
mod config;
mod deadlines;
mod intake;
mod judge;
mod mails;
mod model;
mod reports;
mod run;
mod settle;
mod templates;

pub use audit::audit;
pub use clock::{format_long, format_long_in, format_short, format_short_in};
pub use config::JudgeConfig;
pub use judge::{AdminCommand, Judge, JudgeError};
pub use model::{
    Changes, DeadlineSettings, Env, GameRecord, Inbound, LogLine, MemoryStore, Outbound,
    SeatRecord, SenderRecord, Status, Store, StoreError,
};
pub use templates::{Rendered, Templates, KINDS};
