//! Logs through `tracing`: human-readable lines (the default), or one JSON object a line
//! (`--log-format json`) for log shippers. `CASTELLAN_LOG` sets the filter (default
//! `info`; e.g. `debug`, `castellan=debug,sled=warn`). The storage library's own logs
//! (sled's, at every level its noise) are off unless the filter names `sled`.
//! Each mail handled and each reply sent or parked gets one line (src/serve/maillog.rs).
//!
//! journald and syslog stamp every line with its time, its level and the process: there a
//! line carries neither a time of its own nor colours (stderr is journald's when
//! `JOURNAL_STREAM` is set, as systemd sets it for a unit).
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
    let asked = std::env::var("CASTELLAN_LOG").ok();
    let filter = tracing_subscriber::EnvFilter::try_new(filter_directives(asked.as_deref()))
        .unwrap_or_else(|_| tracing_subscriber::EnvFilter::new(filter_directives(None)));
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
    // journald and syslog stamp each line: no time of their own there.
    let stamped = match (
        std::env::var_os("CASTELLAN_LOG_FILE").filter(|f| !f.is_empty()),
        to,
    ) {
        (Some(_), _) => false,
        (None, LogTo::Syslog) => true,
        (None, LogTo::Stderr) => std::env::var_os("JOURNAL_STREAM").is_some(),
    };
    let builder = tracing_subscriber::fmt()
        .with_env_filter(filter)
        .with_ansi(ansi && !stamped)
        .with_writer(writer);
    match (format, stamped) {
        (LogFormat::Text, false) => builder.init(),
        (LogFormat::Text, true) => builder.without_time().init(),
        (LogFormat::Json, _) => builder.json().init(),
    }
}

/// The filter: `CASTELLAN_LOG` (or `info`), with sled's own logs off unless it names sled.
pub fn filter_directives(asked: Option<&str>) -> String {
    let asked = asked
        .map(str::trim)
        .filter(|a| !a.is_empty())
        .unwrap_or("info");
    if asked.contains("sled") {
        asked.to_string()
    } else {
        format!("{asked},sled=off")
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

#[cfg(test)]
mod tests {
    #[test]
    fn sleds_logs_are_off_unless_named() {
        use super::filter_directives as f;
        assert_eq!(f(None), "info,sled=off");
        assert_eq!(f(Some("")), "info,sled=off");
        assert_eq!(f(Some("debug")), "debug,sled=off");
        assert_eq!(f(Some("debug,sled=debug")), "debug,sled=debug");
    }
}
