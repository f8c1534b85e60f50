//! Why a command of the shell failed. Each variant is a decision for the caller (see
//! [`ShellError::exit_code`]: retry later, fix the configuration, fix the command line,
//! or look at the error), and carries what explains it.

use castellan_judge::{JudgeError, StoreError};
use std::path::PathBuf;

/// `sysexits.h`: the message or the work can be retried later (an MTA defers it).
pub const EX_TEMPFAIL: u8 = 75;
/// `sysexits.h`: the configuration is wrong.
pub const EX_CONFIG: u8 = 78;
/// `sysexits.h`: not allowed (root on a data folder of another user's).
pub const EX_NOPERM: u8 = 77;
/// `sysexits.h`: the command line is wrong.
pub const EX_USAGE: u8 = 64;

#[derive(Debug, thiserror::Error)]
pub enum ShellError {
    /// The configuration file cannot be read or is not valid.
    #[error("configuration {path}: {why}")]
    Config { path: PathBuf, why: String },
    /// The command line asks for something that does not exist or cannot be.
    #[error("{0}")]
    Usage(String),
    /// A file or folder of ours cannot be read or written.
    #[error("{path}: {source}")]
    Io {
        path: PathBuf,
        #[source]
        source: std::io::Error,
    },
    /// The database failed (or is held by a running daemon): try again later.
    #[error(transparent)]
    Store(#[from] StoreError),
    /// The judge refused a game master's command.
    #[error(transparent)]
    Judge(#[from] JudgeError),
    /// The bot players could not go on (demo, bench).
    #[error(transparent)]
    Play(#[from] PlayError),
    /// The templates folder holds a template that does not compile.
    #[error("templates: {0}")]
    Templates(String),
    /// The IMAP inbox cannot be reached or read: the next pass tries again.
    #[error("IMAP {server}: {why}")]
    Imap { server: String, why: String },
    /// The process cannot set itself up (async runtime, signal handlers).
    #[error("{what}: {source}")]
    Setup {
        what: &'static str,
        #[source]
        source: std::io::Error,
    },
    /// Run as root on a data folder that belongs to another user (src/ops/ownership.rs).
    #[error("{0}")]
    NotOwner(String),
    /// A file given to import or restore is not what it should be.
    #[error("{what}: {why}")]
    BadInput { what: String, why: String },
}

impl ShellError {
    /// An I/O error on `path`.
    pub fn io(path: impl Into<PathBuf>, source: std::io::Error) -> ShellError {
        ShellError::Io {
            path: path.into(),
            source,
        }
    }

    /// The process exit code for this failure: 75 when trying again later may work, 78 for
    /// a configuration to fix, 64 for a command line to fix, 1 otherwise.
    pub fn exit_code(&self) -> u8 {
        match self {
            ShellError::Store(_) | ShellError::Imap { .. } => EX_TEMPFAIL,
            ShellError::Config { .. } | ShellError::Templates(_) => EX_CONFIG,
            ShellError::Usage(_) => EX_USAGE,
            ShellError::NotOwner(_) => EX_NOPERM,
            _ => 1,
        }
    }
}

/// Why the bots could not go on.
#[derive(Debug, thiserror::Error)]
pub enum PlayError {
    #[error("{0}")]
    Io(String),
    #[error("game {game}: seat {seat} has no token (no welcome mail in the outbox)")]
    NoToken { game: String, seat: usize },
    #[error("game {game} does not move: the judge answered {reply}")]
    Stalled { game: String, reply: String },
}
