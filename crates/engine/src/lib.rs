//! Castellan's pure game core, shared by every game crate.
//!
//! * [`api`]: the [`Rules`] trait a game implements, the [`Table`]
//!   that wraps it with dice and history, and the object-safe [`Session`] the
//!   judge drives; prompts, order errors, narration, bot play-outs.
//! * [`dice`]: auditable randomness (hash-chain commitments, per-turn ChaCha streams,
//!   rejection sampling, a separate secret stream for cards).
//! * [`board`]: a map as a graph of territories, groups and edges.
//! * [`battle`]: Risk-family dice comparison.
//! * [`names`]: forgiving name matching with "did you mean".
//! * [`lang`]: the languages players read ([`Lang`]) and a little French grammar.
//! * [`words`]: words every game says alike (bilingual refusals, lists, the board's shape).
//!
//! Nothing here does I/O, reads a clock or touches a database: the crate does not depend
//! on any crate that could.

pub mod api;
pub mod assault;
pub mod battle;
pub mod board;
pub mod claim;
pub mod dice;
pub mod lang;
pub mod names;
pub mod svg;
pub mod words;

pub use api::{
    load_table, load_table_json, options_from_pairs, order_lines, play_out, Addressed, Elimination,
    Entry, LineCheck, LineError, LineVerdict, Narration, OrderError, Outcome, PlayedGame, Prompt,
    PromptKind, PromptKinds, PromptRole, Refused, Rules, Seat, Session, Snapshot, Source,
    StoredEntry, StoredTable, Table, Translation, Viewer,
};
pub use dice::{BotRng, DiceBox, Roll, Secret};
pub use lang::Lang;
#[cfg(feature = "testing")]
pub mod testing;
#[cfg(feature = "toy")]
pub mod toy;
pub use api::{game_info, GameInfo};
