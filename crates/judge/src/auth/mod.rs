//! Who wrote: which seat or the game master, checked by password or token (check.rs);
//! here the verdicts, the limits on tries and the keys of their counters.

use crate::model::*;

mod check;
#[cfg(test)]
mod tests;

/// Who wrote, for one game.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct Who {
    pub(crate) seat: Option<usize>,
    pub(crate) gm: bool,
}

/// Failed password tries in an hour on one seat, a game master, a game's join password,
/// a campaign or the creators' password; past them that password is not checked until the
/// hour ends (a seat's token still works), and whoever it guards is told once.
pub const MAX_FAILED_TRIES: u32 = 10;

/// Wrong tokens from one address in an hour (a forged address tried 2,300–3,400
/// tokens a second); past them no token from that address is checked until the hour
/// ends (its passwords still are), and the address and the game master are told once.
pub const MAX_FAILED_TOKEN_TRIES: u32 = 20;

/// Tokens read from one mail (the subject's and a plus-address's): more are ignored, so
/// one mail cannot try many.
pub(crate) const TOKENS_PER_MAIL: usize = 2;

/// Argon2id computations one mail may cost (a chosen password checked or hashed, or a
/// hash of an earlier format checked); a secret past them is not checked and the answer
/// says so. Keyed hashes and tokens are not counted: they cost microseconds.
pub const MAX_SLOW_HASHES_PER_MAIL: u32 = 1;

// The counters of failed tries, kept with the senders' counters (same window rule). Every
// key of them is made here.

/// A seat's (`None`: the game master's) password.
fn failures_key(game: &str, seat: Option<usize>) -> String {
    match seat {
        Some(s) => mark_key("failed-tries", &format!("{game}/seat-{s}")),
        None => mark_key("failed-tries", &format!("{game}/gm")),
    }
}

/// A game's join password.
pub(crate) fn join_failures_key(game: &str) -> String {
    mark_key("failed-tries", &format!("{game}/join"))
}

/// A campaign's password.
pub(crate) fn campaign_failures_key(campaign: &str) -> String {
    mark_key("failed-tries", &format!("{campaign}/campaign"))
}

/// The creators' password (`creator_password`).
pub(crate) fn creator_failures_key() -> String {
    mark_key("failed-tries", "creators")
}

/// Wrong tokens from an address.
fn token_failures_key(address: &str) -> String {
    mark_key("failed-tokens", address)
}

/// Why a writer may not act in a game (the answer names the case).
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, thiserror::Error)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub(crate) enum AuthError {
    #[error("{address} is not a player or the game master of {game}")]
    NotInGame { address: String, game: String },
    #[error("no password or token for {game}")]
    NoCredentials { game: String },
    #[error("wrong password or token for {game}")]
    WrongCredentials { game: String },
    /// A second credential in one mail after a wrong one: not checked.
    #[error("one password try per mail for {game}")]
    OneTryPerMail { game: String },
    /// Too many failed tries on the seat this hour: the password is not checked.
    #[error("password locked for {game}")]
    Locked { game: String },
    /// Too many wrong tokens from the address this hour: its tokens are not checked.
    #[error("tokens locked for {game}")]
    TokensLocked { game: String },
}

/// What the judge answers about the game in context (templates/LANG/answers/auth.txt).
#[derive(Clone, Debug, serde::Serialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub(crate) enum AuthAnswer {
    /// `command` needs a game and none was named.
    WhichGame {
        command: String,
    },
    Refused {
        command: String,
        error: AuthError,
    },
    /// GAME named a game this judge does not have: its lines are skipped.
    NoGame {
        game: String,
    },
}
