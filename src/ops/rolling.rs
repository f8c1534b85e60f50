//! The rolling backups of `serve`: one every `backup.every_hours`, the newest
//! `backup.keep` kept, and the journal's segments they all hold removed.

use super::backup::{parse_line, path_at, write_file, Line};
use crate::config::Config;
use crate::error::ShellError;
use crate::serve::service::Service;
use crate::store::journal::numbered_files;
use crate::store::SledStore;
use castellan_mail::Maildir;
use std::io::BufRead;
use std::path::{Path, PathBuf};

/// The rolling backups in `dir`, `backup-<unix time>.jsonl`, newest first.
pub fn list(dir: &Path) -> Vec<(i64, PathBuf)> {
    let mut out = numbered_files(dir, "backup-", ".jsonl");
    out.sort_by(|a, b| b.cmp(a));
    out
}

/// The journal entry the oldest of the rolling backups holds (from their header lines):
/// `recover` may fall back to any of them, so the journal's entries up to it are the only
/// ones none needs. `None` when there is no backup or a header cannot be read.
pub fn oldest_kept_seq(config: &Config) -> Option<u64> {
    let mut oldest: Option<u64> = None;
    for (_, path) in list(&config.backup_dir()) {
        let mut first = String::new();
        let f = std::fs::File::open(&path).ok()?;
        std::io::BufReader::new(f).read_line(&mut first).ok()?;
        let Line::Header { journal_seq, .. } = parse_line(first.trim_end(), 1).ok()? else {
            return None;
        };
        oldest = Some(oldest.map_or(journal_seq, |o| o.min(journal_seq)));
    }
    oldest
}

/// Between two passes of `serve`: if the newest backup is `backup.every_hours` old or
/// more, write a new one and keep only the newest `backup.keep`. Returns the new file.
pub fn rolling(
    store: &SledStore,
    config: &Config,
    now: i64,
) -> Result<Option<PathBuf>, ShellError> {
    let b = &config.backup;
    if b.every_hours == 0 {
        return Ok(None);
    }
    let dir = config.backup_dir();
    std::fs::create_dir_all(&dir).map_err(|e| ShellError::io(&dir, e))?;
    let existing = list(&dir);
    if let Some((t, _)) = existing.first() {
        if now - t < (b.every_hours as i64) * 3600 {
            return Ok(None);
        }
    }
    let path = path_at(config, now);
    let n = write_file(store, &path, None)?;
    tracing::info!(file = %path.display(), records = n, "rolling backup written");
    for (_, old) in list(&dir).into_iter().skip(b.keep.max(1) as usize) {
        match std::fs::remove_file(&old) {
            Ok(()) => tracing::info!(file = %old.display(), "old backup removed"),
            Err(e) => tracing::warn!(file = %old.display(), "cannot remove an old backup: {e}"),
        }
    }
    Ok(Some(path))
}

impl Service {
    /// Between two passes: a rolling backup when one is due ([`rolling`]);
    /// after one, the journal's segment is closed and the closed segments every kept
    /// backup holds are removed (src/store/journal/ `Journal::rotate`, `Journal::prune`), so
    /// the journal on disk, and what `recover` reads, stay within the backups kept.
    pub fn rolling_backup(&self) -> Result<Option<PathBuf>, ShellError> {
        // No entry left pending (src/serve/rollforward.rs) in the segment about to close.
        self.roll_forward()?;
        let made = rolling(&self.store, &self.config, (self.clock)())?;
        if made.is_some() {
            self.flush()?;
            if let Some(closed) = self.journal.rotate()? {
                tracing::info!(segment = %closed.display(), "journal segment closed");
            }
            if let Some(held) = oldest_kept_seq(&self.config) {
                let pruned = self.journal.prune(held);
                if pruned.segments > 0 {
                    tracing::info!(
                        segments = pruned.segments,
                        "journal segments every kept backup holds removed"
                    );
                }
                if self.config.inbound.prune_handled && !pruned.mails.is_empty() {
                    let inbox = self.config.inbox_path();
                    match Maildir::open(&inbox).and_then(|m| m.remove_handled(&pruned.mails)) {
                        Ok(n) => tracing::info!(
                            mails = n,
                            "handled mail no kept backup needs removed from the Maildir's cur/"
                        ),
                        Err(e) => tracing::warn!(
                            "cannot remove handled mail from {}: {e}",
                            inbox.display()
                        ),
                    }
                }
            }
        }
        Ok(made)
    }
}
