//! Progress of long runs (`simulate`, `bench`, `backup`) on stderr: a bar (indicatif) when stderr is
//! a terminal; otherwise plain lines: once the run has lasted 2 seconds, one at each tenth
//! of the way (or every 10 seconds when the total is unknown or the run is slow), and one
//! at the end, so a log or a CI run shows a long run moving without a flood from short
//! ones. stdout (the report, `--json`) is never touched.

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use std::io::IsTerminal;
use std::time::{Duration, Instant};

/// Seconds between two plain lines at most, for slow runs and unknown totals.
const PLAIN_EVERY: Duration = Duration::from_secs(10);
/// A run shorter than this gets only the final line.
const PLAIN_AFTER: Duration = Duration::from_secs(2);

pub struct Progress {
    label: String,
    unit: &'static str,
    total: Option<u64>,
    done: u64,
    bar: Option<ProgressBar>,
    started: Instant,
    last_line: Instant,
    last_tenth: u64,
}

impl Progress {
    /// `total` None: the count only (a spinner on a terminal).
    pub fn new(label: &str, unit: &'static str, total: Option<u64>) -> Progress {
        Progress::with_terminal(label, unit, total, std::io::stderr().is_terminal())
    }

    fn with_terminal(label: &str, unit: &'static str, total: Option<u64>, tty: bool) -> Progress {
        let bar = tty.then(|| {
            let (bar, template) = match total {
                Some(t) => (
                    ProgressBar::new(t),
                    "{prefix} [{bar:40}] {pos}/{len} {msg} ({per_sec}, {eta} left)",
                ),
                None => (
                    ProgressBar::new_spinner(),
                    "{prefix} {spinner} {pos} {msg} ({per_sec})",
                ),
            };
            bar.set_draw_target(ProgressDrawTarget::stderr());
            if let Ok(style) = ProgressStyle::with_template(template) {
                bar.set_style(style.progress_chars("=> "));
            }
            bar.set_prefix(label.to_string());
            bar.set_message(unit);
            bar.enable_steady_tick(Duration::from_millis(200));
            bar
        });
        Progress {
            label: label.to_string(),
            unit,
            total,
            done: 0,
            bar,
            started: Instant::now(),
            last_line: Instant::now(),
            last_tenth: 0,
        }
    }

    pub fn inc(&mut self, n: u64) {
        self.done += n;
        if let Some(bar) = &self.bar {
            bar.inc(n);
            return;
        }
        let tenth = match self.total {
            Some(t) if t > 0 => self.done * 10 / t,
            _ => 0,
        };
        let due = tenth > self.last_tenth || self.last_line.elapsed() >= PLAIN_EVERY;
        if due && self.total != Some(self.done) {
            self.last_tenth = tenth;
            if self.started.elapsed() >= PLAIN_AFTER {
                self.line();
            }
        }
    }

    fn line(&mut self) {
        self.last_line = Instant::now();
        eprintln!("{}", self.plain());
    }

    /// The plain line: "simulate: 300/1000 games (30%)" or "backup: 1200 records".
    pub fn plain(&self) -> String {
        match self.total {
            Some(t) if t > 0 => format!(
                "{}: {}/{t} {} ({}%)",
                self.label,
                self.done,
                self.unit,
                self.done * 100 / t
            ),
            _ => format!("{}: {} {}", self.label, self.done, self.unit),
        }
    }

    /// The end: the bar is cleared (the command's own report follows), or a last line.
    pub fn finish(mut self) {
        match self.bar.take() {
            Some(bar) => bar.finish_and_clear(),
            None => {
                self.line();
            }
        }
    }
}

/// A writer that counts the lines written through it, for a backup's progress.
pub struct LineCounter<'a, W: std::io::Write> {
    pub inner: W,
    pub progress: &'a mut Progress,
}

impl<W: std::io::Write> std::io::Write for LineCounter<'_, W> {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        let n = self.inner.write(buf)?;
        let lines = buf[..n].iter().filter(|&&b| b == b'\n').count();
        if lines > 0 {
            self.progress.inc(lines as u64);
        }
        Ok(n)
    }
    fn flush(&mut self) -> std::io::Result<()> {
        self.inner.flush()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn plain_lines_name_the_count_and_the_share() {
        let mut p = Progress::with_terminal("simulate", "games", Some(200), false);
        p.inc(50);
        assert_eq!(p.plain(), "simulate: 50/200 games (25%)");
        let mut q = Progress::with_terminal("backup", "records", None, false);
        q.inc(7);
        assert_eq!(q.plain(), "backup: 7 records");
        p.finish();
        q.finish();
    }
}
