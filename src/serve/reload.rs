//! SIGHUP: the daemon reads its configuration file and its templates again, as Postfix and
//! Dovecot do on `reload`, instead of ending (`systemctl reload castellan`). The judge's
//! settings, the transports, the log's, the deadlines' and backups' settings take effect at
//! the next pass; what names the data the daemon holds open (`data_dir`, `database`,
//! `inbound.maildir`, `outbound.dir`) and the metrics' address need a restart: a change to
//! them is logged and left for it. A file that does not load changes nothing (logged).

use crate::config::{Config, ConfigSource};
use crate::error::ShellError;
use crate::serve::service::Service;
use crate::serve::templates::load_templates_lenient;
use std::path::PathBuf;

/// Where the daemon's configuration came from, to read it again on SIGHUP.
#[derive(Debug, Clone)]
pub struct Reload {
    pub source: ConfigSource,
    /// `--data-dir`, over the file's `data_dir`.
    pub data_dir: Option<PathBuf>,
}

impl Service {
    /// The configuration and templates read again from `from`. Returns the keys that
    /// changed but wait for a restart (kept as they were).
    pub fn reload(&mut self, from: &Reload) -> Result<Vec<&'static str>, ShellError> {
        let mut new = Config::load_for(&from.source, from.data_dir.as_deref())?;
        let templates = load_templates_lenient(&new.templates_dir)?;
        let old = &self.config;
        let mut kept = Vec::new();
        macro_rules! keep {
            ($key:literal, $($field:tt)+) => {
                if new.$($field)+ != old.$($field)+ {
                    kept.push($key);
                    new.$($field)+ = old.$($field)+.clone();
                }
            };
        }
        keep!("data_dir", data_dir);
        keep!("database", database);
        keep!("inbound.maildir", inbound.maildir);
        keep!("outbound.dir", outbound.dir);
        keep!("metrics.listen", metrics.listen);
        self.judge = castellan_judge::Judge::new(new.judge.clone(), crate::games::all(), templates);
        self.config = new;
        Ok(kept)
    }
}
