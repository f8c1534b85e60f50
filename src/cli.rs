//! Raw command-line flags (clap). `main` turns them into resolved settings: the config
//! file merged with flags, so the rest of the program never looks at flags.

use clap::{Args, Parser, Subcommand};
use std::path::PathBuf;

#[derive(Debug, Parser)]
#[command(
    name = "castellan",
    version,
    about = "A play-by-email judge for Castle Risk, Risk, Castrum and Castello"
)]
pub struct Cli {
    /// Configuration file (every key optional; see docs/config.md). Default:
    /// CASTELLAN_CONFIG if set, else /etc/castellan/castellan.yaml when it exists, else
    /// config/castellan.yaml (a checkout). `--config /dev/null`: the built-in defaults.
    #[arg(long, global = true)]
    pub config: Option<PathBuf>,
    /// Override the configuration's data_dir (database, Maildir inbox, file outbox).
    #[arg(long, global = true)]
    pub data_dir: Option<PathBuf>,
    /// Logs on stderr as text lines or as JSON lines (for log shippers); CASTELLAN_LOG filters.
    #[arg(long, global = true, value_enum, default_value_t = crate::logging::LogFormat::Text)]
    pub log_format: crate::logging::LogFormat,
    #[command(subcommand)]
    pub command: Command,
}

#[derive(Debug, Subcommand)]
pub enum Command {
    /// Run the judge: read the inbox, run deadlines, send the outbox.
    Serve {
        /// Process everything waiting (inbox, due deadlines), drain the outbox, and exit.
        #[arg(long)]
        once: bool,
    },
    /// Take one raw message (a file, or - for stdin as an MTA pipe delivers it).
    /// Exit 0 once stored, 75 (EX_TEMPFAIL) if the store cannot take it.
    Ingest {
        #[arg(default_value = "-")]
        file: String,
    },
    /// The game master's local commands.
    #[command(subcommand)]
    Game(GameCommand),
    /// Campaigns: create one, put games in it, read its standings, move it to another judge.
    #[command(subcommand)]
    Campaign(CampaignCommand),
    /// Bots play whole games through the engine and report turns, winners and speed.
    Simulate(SimulateArgs),
    /// Replay a stored game from its seed and history and check every dice commitment.
    Verify {
        /// Game id, like castle-1.
        game: String,
    },
    /// Write a stored game's picture, as the reports carry it, for any past turn (replayed
    /// from the history): an SVG, or an HTML page with the text report beside it.
    Render {
        /// Game id, like castle-1.
        game: String,
        /// The dice turn to draw, at its end (default: now).
        #[arg(long)]
        turn: Option<u32>,
        /// Draw this seat's picture (number from 1, or the player's name), its secrets
        /// included; default: the public picture.
        #[arg(long)]
        seat: Option<String>,
        /// The file to write: map.svg or map.html.
        #[arg(long)]
        out: PathBuf,
    },
    /// Play a whole game by email with bots through the real pipeline on the embedded
    /// defaults (Maildir in, files out, sled on disk) and say where the mails are.
    Demo(DemoArgs),
    /// Measure emails/s end to end and arrival-to-outbox latency, with durability on.
    Bench(BenchArgs),
    /// Write the whole database to a file (JSON lines), or restore one into an empty database.
    Backup {
        /// Output file (default: `BACKUP_DIR/backup-<unix time>.jsonl`, `DATA_DIR/backups`).
        file: Option<PathBuf>,
        /// Restore this backup into the (empty) database instead.
        #[arg(long, conflicts_with = "file")]
        restore: Option<PathBuf>,
    },
    /// Rebuild the database from the newest complete backup and the journal of every
    /// handling since (after a damaged or lost database); the old folder is kept aside.
    Recover,
    /// Rewrite the database with only its live records (sled never shrinks its file), with
    /// `serve` stopped; says the size before and after.
    Compact,
    /// Replies waiting to be sent or parked after failures, with their last error.
    Outbox {
        /// Give every parked reply a fresh start (after fixing the relay or the address).
        #[arg(long)]
        retry: bool,
    },
    /// Print the effective configuration (defaults merged with the file), its passwords
    /// hidden.
    Config {
        /// Print the passwords too (IMAP, SMTP, creator_password).
        #[arg(long)]
        show_secrets: bool,
    },
    /// Check the installation: config, data directory, database, inbox and outbox (connects
    /// to IMAP and SMTP when configured), templates, backups. One line per check, with a
    /// fix for each problem; exits non-zero when something is wrong.
    Doctor,
    /// Print the man page castellan(1) (roff).
    Manpage,
    /// Print the completions for a shell (bash, zsh, fish, elvish, powershell).
    Completions { shell: clap_complete::Shell },
}

#[derive(Debug, Subcommand)]
pub enum CampaignCommand {
    /// Create a campaign (or a tournament); prints its id and its game master's password.
    New {
        /// The campaign's name, like "Winter league".
        name: String,
        /// The game master's address.
        #[arg(long)]
        gm: String,
        /// A CAMPAIGN NEW argument KEY=VALUE (repeat): scoring=wins|placings|score, or for
        /// a tournament tournament=risk players=Anna:anna@x,... turn-limit=30 ...
        #[arg(long = "arg", value_name = "KEY=VALUE")]
        args: Vec<String>,
    },
    /// Put a game in a campaign (no password needed here).
    Add { campaign: String, game: String },
    /// Every campaign, one line each.
    List,
    /// A campaign's standings.
    Standings { campaign: String },
    /// Write a whole campaign (the campaign, each of its games with its log, and its
    /// players' records) as one JSON document.
    Export {
        campaign: String,
        /// Output file (default: stdout).
        file: Option<PathBuf>,
    },
    /// Read a campaign written by export into this judge. Refused, with nothing changed,
    /// if the campaign or any of its games exists here already.
    Import { file: PathBuf },
}

#[derive(Debug, Subcommand)]
pub enum GameCommand {
    /// Create a game.
    New {
        /// castle-risk, risk, castrum or castello.
        #[arg(long)]
        game: String,
        /// A player as NAME=ADDRESS (repeat, in seat order).
        #[arg(long = "player", value_name = "NAME=ADDRESS")]
        players: Vec<String>,
        /// The game master's address.
        #[arg(long)]
        gm: String,
        /// A game option KEY=VALUE (repeat).
        #[arg(long = "option", value_name = "KEY=VALUE")]
        options: Vec<String>,
    },
    /// List games.
    List,
    /// Show a game: players, status, deadline, the public map.
    Show {
        game: String,
    },
    Pause {
        game: String,
    },
    Resume {
        game: String,
    },
    /// Push the current deadline back by HOURS.
    Extend {
        game: String,
        hours: u32,
    },
    /// Give a seat to another player: SEAT is the seat number (1-based) or the player's name.
    Replace {
        game: String,
        seat: String,
        /// NAME=ADDRESS of the new player.
        player: String,
    },
    /// End a game now.
    End {
        game: String,
    },
    /// Write a game (record and log) as JSON.
    Export {
        game: String,
        /// Output file (default: stdout).
        file: Option<PathBuf>,
    },
    /// Read a game written by export.
    Import {
        file: PathBuf,
    },
}

#[derive(Debug, Args)]
pub struct SimulateArgs {
    #[arg(long, default_value = "castle-risk")]
    pub game: String,
    #[arg(long, default_value_t = 4)]
    pub players: usize,
    #[arg(long, default_value_t = 100)]
    pub games: usize,
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// A game option KEY=VALUE (repeat).
    #[arg(long = "option", value_name = "KEY=VALUE")]
    pub options: Vec<String>,
    /// Print JSON (fields: games, finished, capped, turns_mean, turns_max, wins_by_seat, games_per_sec...).
    #[arg(long)]
    pub json: bool,
    /// Orders after which a game is stopped and counted as capped.
    #[arg(long, default_value_t = 200_000)]
    pub max_orders: usize,
    /// Skip replaying each game from its seed.
    #[arg(long)]
    pub no_replay: bool,
    /// Simulated people play every game by mail through the judge, on a simulated clock,
    /// and every promise of docs/promises.md is checked after each mail and tick (`--game`
    /// and `--players` are then ignored: the games and players come from the seed).
    #[arg(long)]
    pub by_mail: bool,
    /// With --by-mail: play only this game index (a failure names it), to replay it.
    #[arg(long, requires = "by_mail")]
    pub only: Option<usize>,
    /// With --by-mail: events (mails and ticks) after which a game is stopped.
    #[arg(long, default_value_t = 1500)]
    pub max_events: usize,
    /// With --by-mail: every Nth game (index 0, N, 2N...) goes through the whole shell
    /// (sled, the Maildir, the .eml files parsed back) instead of the pure judge; 0: none.
    /// The games go round the four by index: an N that is a multiple of 4 sends only
    /// Castle Risk games through the shell, an odd N all four.
    #[arg(long, default_value_t = 0, requires = "by_mail")]
    pub shell_every: usize,
}

#[derive(Debug, Args)]
pub struct DemoArgs {
    #[arg(long, default_value = "castle-risk")]
    pub game: String,
    #[arg(long, default_value_t = 3)]
    pub players: usize,
    #[arg(long, default_value_t = 7)]
    pub seed: u64,
    /// A game option KEY=VALUE (repeat).
    #[arg(long = "option", value_name = "KEY=VALUE")]
    pub options: Vec<String>,
    /// Data folder for the demo (emptied first). Default: DATA_DIR/demo.
    #[arg(long)]
    pub dir: Option<PathBuf>,
    /// Stop after this many order mails (the game is reported as unfinished).
    #[arg(long, default_value_t = 20_000)]
    pub max_mails: usize,
    /// Play a tournament by mail instead: `--entrants` bots at tables of 3 to 6,
    /// preliminary rounds and a final, standings at the end (`--game risk` by default).
    #[arg(long)]
    pub campaign: bool,
    /// Players of the tournament (`--campaign`).
    #[arg(long, default_value_t = 18)]
    pub entrants: usize,
    /// Each preliminary table's round limit (`--campaign`).
    #[arg(long, default_value_t = 3)]
    pub turn_limit: u32,
    /// The final's round limit (`--campaign`; 0: none).
    #[arg(long, default_value_t = 4)]
    pub final_turn_limit: u32,
}

#[derive(Debug, Args)]
pub struct BenchArgs {
    /// Order mails to push through the pipeline.
    #[arg(long, default_value_t = 500)]
    pub mails: usize,
    #[arg(long, default_value = "castle-risk")]
    pub game: String,
    #[arg(long, default_value_t = 3)]
    pub players: usize,
    /// Games played at once: one count, or a list measured one after the other, each in a
    /// fresh data folder (`--tables 1,64`).
    #[arg(long, value_delimiter = ',', default_value = "1,64")]
    pub tables: Vec<usize>,
    /// Whole bot games per game for the engine-only numbers (0: skip).
    #[arg(long, default_value_t = 20)]
    pub games: usize,
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// The long game (one Risk game by mail): service time per mail early (turns 5-15) and
    /// from this dice turn on (0: skip the long game).
    #[arg(long, default_value_t = 300)]
    pub late_turn: u32,
    /// Fill a fresh data folder with N stored games, then time start-up plus one empty pass
    /// of `serve --once` over it in a child process, and its peak RSS (0: skip).
    #[arg(long, default_value_t = 0)]
    pub stored_games: usize,
    /// Threads judging a batch's mails side by side (default: the cores; 1: one after
    /// the other, to measure what judging side by side gives).
    #[arg(long)]
    pub judges: Option<usize>,
    /// What the bots' seats read, as each asks by mail before the measure, to see what
    /// the pictures cost.
    #[arg(long, value_enum, default_value_t = BenchMailFormat::Html)]
    pub mail_format: BenchMailFormat,
    #[arg(long)]
    pub json: bool,
}

/// What the bench's seats read (`castellan bench --mail-format`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum BenchMailFormat {
    /// The text and an HTML part with the board's picture (every seat's default).
    Html,
    /// The text alone: each seat asks for it by mail first (`SET FORMAT TEXT`).
    Text,
}

/// Split `KEY=VALUE` (or `NAME=ADDRESS`), with a message naming the flag on error.
pub fn key_value(s: &str, flag: &str) -> Result<(String, String), String> {
    match s.split_once('=') {
        Some((k, v)) if !k.trim().is_empty() => Ok((k.trim().to_string(), v.trim().to_string())),
        _ => Err(format!("{flag} takes KEY=VALUE, got \"{s}\"")),
    }
}

/// `--player` and `--option` values as (key, value) pairs; a malformed one is a usage error.
pub fn pairs(
    list: &[String],
    flag: &str,
) -> Result<Vec<(String, String)>, crate::error::ShellError> {
    list.iter()
        .map(|s| key_value(s, flag).map_err(crate::error::ShellError::Usage))
        .collect()
}
