//! Logs through `tracing`: human-readable lines (the default), or one JSON object a line
//! (`--log-format json`) for log shippers. `CASTELLAN_LOG` sets the filter (default
//! `info`; e.g. `debug`, `castellan=debug,sled=warn`).
//!
//! Where they go: the file `CASTELLAN_LOG_FILE` names when it is set (appended to);
//! otherwise stderr, except for `ingest`, which logs to syslog (facility `mail`, tag
//! `castellan`: journald on Debian), because an MTA puts what its pipe prints into the
//! bounce a player may get.

use clap::ValueEnum;
use tracing_subscriber::fmt::writer::BoxMakeWriter;
use tracing_subscriber::fmt::MakeWriter;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, ValueEnum)]
pub enum LogFormat {
    /// Human-readable lines.
    #[default]
    Text,
    /// One JSON object a line: timestamp, level, target, fields.message and the other fields.
    Json,
}

/// Where the logs go when `CASTELLAN_LOG_FILE` is not set.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LogTo {
    /// stderr (every command but `ingest`).
    Stderr,
    /// syslog, facility `mail` (`ingest`: its stderr goes into bounces).
    Syslog,
}

/// Install the global subscriber (once, first thing after parsing the flags).
pub fn init(format: LogFormat, to: LogTo) {
    let filter = tracing_subscriber::EnvFilter::try_from_env("CASTELLAN_LOG")
        .unwrap_or_else(|_| tracing_subscriber::EnvFilter::new("info"));
    let file = std::env::var_os("CASTELLAN_LOG_FILE")
        .filter(|f| !f.is_empty())
        .and_then(|f| {
            std::fs::OpenOptions::new()
                .create(true)
                .append(true)
                .open(f)
                .ok()
        });
    // Colours on a terminal only: a file or journald would keep the escape codes.
    use std::io::IsTerminal;
    let (writer, ansi) = match (file, to) {
        (Some(f), _) => (BoxMakeWriter::new(std::sync::Mutex::new(f)), false),
        (None, LogTo::Syslog) => {
            // SAFETY: the ident is a static C string, as openlog(3) requires.
            unsafe { libc::openlog(c"castellan".as_ptr(), libc::LOG_PID, libc::LOG_MAIL) };
            (BoxMakeWriter::new(Syslog), false)
        }
        (None, LogTo::Stderr) => (
            BoxMakeWriter::new(std::io::stderr),
            std::io::stderr().is_terminal(),
        ),
    };
    let builder = tracing_subscriber::fmt()
        .with_env_filter(filter)
        .with_ansi(ansi)
        .with_writer(writer);
    match format {
        LogFormat::Text => builder.init(),
        LogFormat::Json => builder.json().init(),
    }
}

/// syslog(3) as a `tracing` writer: one record a line, at the event's level.
struct Syslog;

struct SyslogLine {
    priority: libc::c_int,
    buf: Vec<u8>,
}

impl<'a> MakeWriter<'a> for Syslog {
    type Writer = SyslogLine;
    fn make_writer(&'a self) -> SyslogLine {
        SyslogLine {
            priority: libc::LOG_INFO,
            buf: Vec::new(),
        }
    }
    fn make_writer_for(&'a self, meta: &tracing::Metadata<'_>) -> SyslogLine {
        let priority = match *meta.level() {
            tracing::Level::ERROR => libc::LOG_ERR,
            tracing::Level::WARN => libc::LOG_WARNING,
            tracing::Level::INFO => libc::LOG_INFO,
            _ => libc::LOG_DEBUG,
        };
        SyslogLine {
            priority,
            buf: Vec::new(),
        }
    }
}

impl std::io::Write for SyslogLine {
    fn write(&mut self, b: &[u8]) -> std::io::Result<usize> {
        self.buf.extend_from_slice(b);
        Ok(b.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

impl Drop for SyslogLine {
    fn drop(&mut self) {
        let text = String::from_utf8_lossy(&self.buf);
        for line in text.lines().filter(|l| !l.trim().is_empty()) {
            if let Ok(c) = std::ffi::CString::new(line.replace('\0', " ")) {
                // SAFETY: a constant "%s" format and a NUL-terminated string.
                unsafe { libc::syslog(self.priority, c"%s".as_ptr(), c.as_ptr()) };
            }
        }
    }
}
