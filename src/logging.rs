//! Logs through `tracing` on stderr: human-readable lines (the default), or one JSON object
//! a line (`--log-format json`) for log shippers. `CASTELLAN_LOG` sets the filter (default
//! `info`; e.g. `debug`, `castellan=debug,sled=warn`).

use clap::ValueEnum;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, ValueEnum)]
pub enum LogFormat {
    /// Human-readable lines.
    #[default]
    Text,
    /// One JSON object a line: timestamp, level, target, fields.message and the other fields.
    Json,
}

/// Install the global subscriber (once, first thing after parsing the flags).
pub fn init(format: LogFormat) {
    let filter = tracing_subscriber::EnvFilter::try_from_env("CASTELLAN_LOG")
        .unwrap_or_else(|_| tracing_subscriber::EnvFilter::new("info"));
    // Colours on a terminal only: a file or journald would keep the escape codes.
    use std::io::IsTerminal;
    let builder = tracing_subscriber::fmt()
        .with_env_filter(filter)
        .with_ansi(std::io::stderr().is_terminal())
        .with_writer(std::io::stderr);
    match format {
        LogFormat::Text => builder.init(),
        LogFormat::Json => builder.json().init(),
    }
}
