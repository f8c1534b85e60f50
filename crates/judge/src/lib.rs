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
//! The mail commands are documented in docs/commands.md (in French: docs/commandes.md).
//!
//! # Layout
//!
//! * `judge.rs`: [`Judge`], its errors, and the entry points `handle`, `tick`, `admin`.
//! * `intake/`: reading a mail (`reading.rs`: the subject, tokens and ids, pure): Message-ID, loop prevention, rate limit, size; the
//!   subject's `[game #token]` tag and plus-addresses; the lines one by one.
//! * `auth.rs`: who wrote: which seat or the game master, by password or token; GAME,
//!   PASSWORD.
//! * `cmd/mod.rs`: the `Command` enum: parse a line by keyword (English or
//!   French) and hand it to its family; nothing else. One file per family:
//!   `cmd/create/` CREATE (raw `CreateArgs` then checked `GameSetup`),
//!   `cmd/join.rs` JOIN, `cmd/observe.rs` OBSERVE, `cmd/orders.rs` orders and CHECK,
//!   `cmd/seat.rs` RESIGN VACATION SET LANGUAGE SET FORMAT, `cmd/press.rs` PRESS,
//!   `cmd/info.rs` HELP LIST ORDERS STATUS HISTORY VERIFY,
//!   `cmd/gm.rs` START PAUSE RESUME EXTEND REPLACE KICK END.
//! * `deadlines.rs`: the tick: reminders, defaults and bot stand-ins.
//! * `settle.rs`: after a handling: bots play, ends are recorded, deadlines reset.
//! * `reports/`: what each report says, as typed data (public once per language,
//!   private per seat).
//! * `html.rs`: the HTML part of a report: its text and the board's picture (SVG), for
//!   readers who did not choose `SET FORMAT TEXT`.
//! * `mails.rs`: outgoing mail: typed contexts (reply, notice events, prompts) rendered
//!   through the templates in the reader's language, subjects included.
//! * `templates.rs`: the templates (templates/en, templates/fr, embedded), overrides,
//!   fallback.
//! * `run.rs`: the working set of one handling (games loaded, mails drafted, log) and
//!   each reader's language.
//! * `limits.rs`: bounded work per mail: commands per mail, reply bytes, names, the
//!   cleaning of relayed text.
//! * `ident.rs`: who wrote and what stands for a person: addresses in one
//!   canonical form or refused, names that cannot pass for another's, DKIM alignment.
//! * `optin.rs`: the judge mails only those who asked: double opt-in, STOP,
//!   `List-Unsubscribe`.
//! * `bounces.rs`: delivery status notifications about the judge's mail counted; an
//!   address that bounced `bounces_before_stop` times gets no more mail until it writes.
//! * `campaign/`: campaigns (`mod.rs` the data, `progress.rs` as games end) (games and players under one game master, scored by wins,
//!   placings or the games' own scores, standings mailed as games end) and the Risk
//!   tournament (tables of 3 to 6 seated by the judge, round after round, to the final).
//! * `record.rs`: a player's record across games: counts kept as games start,
//!   end, miss deadlines and take orders; the reliability figure.
//! * `stored.rs`: how a game is stored: its record and the engine's `StoredTable`
//!   ([`StoredGame`]), the history entries a mail needs, when the tick is next due.
//!   `store.rs`: [`Changes`], [`Store`], [`MemoryStore`].
//! * `audit.rs`: the dice audit. `clock.rs`: dates in English and French. `model.rs`:
//!   the records. `envelope.rs`: mails in and out. `config.rs`: [`JudgeConfig`].

mod audit;
mod auth;
mod bounces;
mod campaign;
mod clock;
mod cmd;
mod config;
mod counters;
mod deadlines;
mod envelope;
mod front;
mod html;
mod ident;
mod intake;
mod judge;
mod limits;
mod mails;
mod model;
mod optin;
mod password;
mod record;
mod reply;
mod reports;
mod run;
mod settle;
mod store;
pub mod stored;
mod templates;
#[cfg(test)]
mod testing;

pub use audit::audit;
pub use auth::MAX_SLOW_HASHES_PER_MAIL;
pub use campaign::{
    fewest_entrants, nearest_entrants, plan_round, points, qualifier, qualifiers, seat_tables,
    tournament_rounds, CampaignEvent, CampaignRecord, GameResult, Place, RoundPlan, Scoring,
    Standing, Tournament,
};
pub use clock::{
    format_long, format_long_in, format_long_zoned, format_short, format_short_in,
    format_short_zoned,
};
pub use config::JudgeConfig;
pub use html::{page as html_page, HTML_LIMIT};
pub use ident::{canonical_address, decode_encoded_words, names_alike, AddressError};
pub use intake::processed_key;
pub use judge::{AdminCommand, Judge, JudgeError};
pub use limits::{clean_name, clean_text, reply_budget, MAX_NAME_CHARS};
pub use model::{
    game_number, mark_key, spells_an_address, Attachment, AuthenticationResults, DeadlineSettings,
    Dsn, DsnRecipient, Env, GameRecord, Inbound, LogLine, MailFormat, OutSeat, Outbound,
    PlayerRecord, SeatRecord, SenderRecord, Status, StoreError,
};
pub use store::{Changes, MemoryStore, Store};
pub use stored::StoredGame;
pub use templates::{Rendered, Templates, KINDS};
