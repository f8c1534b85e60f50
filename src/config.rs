//! The server's configuration: config/castellan.yaml, every key optional, with defaults
//! that need no mail server (Maildir in, files out, sled on disk, all under `data_dir`).
//! docs/config.md documents every key; keep the two in step.

use crate::error::ShellError;
use serde::{Deserialize, Serialize};
use std::path::{Path, PathBuf};

#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Config {
    /// Where the database, the Maildir inbox and the file outbox live.
    pub data_dir: PathBuf,
    /// sled database folder (default: DATA_DIR/db).
    pub database: Option<PathBuf>,
    /// Templates folder read at run time; missing files fall back to the built-in wording.
    pub templates_dir: PathBuf,
    pub inbound: Inbound,
    pub outbound: Outbound,
    /// Seconds between deadline checks in `serve`.
    pub tick_seconds: u64,
    /// Largest message body read, in bytes (the rest is cut with a note in the reply).
    pub max_message_bytes: usize,
    /// Largest message `ingest` takes, in bytes: a bigger one is read no further than
    /// this plus one byte, never stored, and not answered (docs/security.md).
    pub max_stored_bytes: usize,
    /// The judge's own settings (address, deadlines, limits).
    pub judge: castellan_judge::JudgeConfig,
    /// Optional Prometheus metrics for `serve` (off by default).
    pub metrics: MetricsConfig,
    /// Rolling backups made by `serve` between passes.
    pub backup: BackupConfig,
    /// When `serve` compacts the database by itself.
    pub compact: CompactConfig,
    /// What the log line of each mail shows (src/serve/maillog.rs).
    pub log: LogConfig,
}

/// `log.*`: the line logged for each mail handled and each reply sent or parked.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct LogConfig {
    /// `full`: senders and recipients as they are; `hashed`: a digest of each address
    /// (the same address, the same digest), for a log that names nobody.
    pub addresses: AddressLog,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(rename_all = "lowercase")]
pub enum AddressLog {
    #[default]
    Full,
    Hashed,
}

/// `compact.*`: after each rolling backup, `serve` compacts the database in place (as
/// `castellan compact` does) if it is over `over_mb` MB on disk and over `over_ratio` times
/// its live data. `over_ratio: 0`: never (`castellan doctor` then warns past the defaults).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct CompactConfig {
    pub over_ratio: u64,
    pub over_mb: u64,
}

impl Default for CompactConfig {
    fn default() -> Self {
        CompactConfig {
            over_ratio: 3,
            over_mb: 32,
        }
    }
}

impl CompactConfig {
    /// Whether a database of `on_disk` bytes holding `live` bytes of records is worth
    /// compacting, by these settings; with `over_ratio: 0` (never by itself), by the
    /// defaults (what `castellan doctor` warns about).
    pub fn is_due(&self, on_disk: u64, live: u64) -> bool {
        let c = if self.over_ratio == 0 {
            CompactConfig::default()
        } else {
            self.clone()
        };
        on_disk > c.over_mb.saturating_mul(1024 * 1024)
            && on_disk > c.over_ratio.saturating_mul(live.max(1))
    }
}

/// `backup.*`: `serve` writes `backup-<unix time>.jsonl` into `dir` every `every_hours`
/// (0: never) and keeps the newest `keep`.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct BackupConfig {
    pub every_hours: u64,
    pub keep: u32,
    /// Folder of the backups (default: DATA_DIR/backups).
    pub dir: Option<PathBuf>,
}

impl Default for BackupConfig {
    fn default() -> Self {
        BackupConfig {
            every_hours: 6,
            keep: 8,
            dir: None,
        }
    }
}

/// `metrics.listen`: a 127.0.0.1 address (`127.0.0.1:9464`) where `serve` answers HTTP
/// requests with the metrics in Prometheus' text format; null (the default): no metrics.
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct MetricsConfig {
    pub listen: Option<String>,
}

#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Inbound {
    /// `maildir` (default), `imap`, or `none` (only `ingest` feeds the judge).
    pub kind: InboundKind,
    /// Maildir folder (default: DATA_DIR/mail/inbox).
    pub maildir: Option<PathBuf>,
    /// Remove a handled message from the Maildir's `cur/` once `recover` can no longer
    /// need it: when the journal segment that names it is removed, after a rolling backup
    /// that holds it (src/store/journal/ `Journal::prune`). Off by default: handled mail is
    /// the players' own words, kept until the operator says otherwise.
    pub prune_handled: bool,
    pub imap: Imap,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(rename_all = "lowercase")]
pub enum InboundKind {
    #[default]
    Maildir,
    Imap,
    None,
}

#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Imap {
    pub host: String,
    pub port: u16,
    /// TLS from the first byte (port 993). `false` only for a server on 127.0.0.1.
    pub tls: bool,
    /// A PEM file of CA certificates trusted besides the built-in (webpki) roots: the
    /// operator's private CA, or the server's own self-signed certificate. Only with `tls`.
    #[serde(default)]
    pub ca_file: Option<PathBuf>,
    pub user: String,
    pub password: String,
    pub mailbox: String,
    /// Seconds between polls.
    pub poll_seconds: u64,
    /// Seconds an IMAP connection (connect, TLS, login, select) and each later command may
    /// take before the pass gives up and tries again at the next poll.
    pub timeout_seconds: u64,
}

#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Outbound {
    /// `file` (default: one .eml per mail in `dir`), `smtp` or `sendmail`.
    pub kind: OutboundKind,
    /// Folder for the file transport (default: DATA_DIR/mail/outbox).
    pub dir: Option<PathBuf>,
    pub smtp: Smtp,
    /// The sendmail program for the sendmail transport.
    pub sendmail: PathBuf,
    /// Attempts before a mail is parked as failed (it stays in the database).
    pub max_attempts: u32,
    /// First retry delay in seconds; doubles each attempt up to `retry_max_seconds`.
    pub retry_base_seconds: u64,
    pub retry_max_seconds: u64,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(rename_all = "lowercase")]
pub enum OutboundKind {
    #[default]
    File,
    Smtp,
    Sendmail,
}

#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Smtp {
    pub host: String,
    pub port: u16,
    /// `none`, `starttls` or `tls`.
    pub security: String,
    /// A PEM file of CA certificates trusted besides the built-in (webpki) roots: the
    /// operator's private CA, or the server's own self-signed certificate. Only with TLS.
    #[serde(default)]
    pub ca_file: Option<PathBuf>,
    pub user: Option<String>,
    pub password: Option<String>,
    /// Seconds the whole SMTP session of one reply (connect, TLS, each command, the data)
    /// may take; past it the reply stays in the outbox for a retry.
    pub timeout_seconds: u64,
}

impl Default for Config {
    fn default() -> Self {
        Config {
            data_dir: PathBuf::from("var"),
            database: None,
            templates_dir: PathBuf::from("crates/judge/templates"),
            inbound: Inbound::default(),
            outbound: Outbound::default(),
            tick_seconds: 60,
            max_message_bytes: 256 * 1024,
            max_stored_bytes: 10 * 1024 * 1024,
            judge: castellan_judge::JudgeConfig::default(),
            metrics: MetricsConfig::default(),
            backup: BackupConfig::default(),
            compact: CompactConfig::default(),
            log: LogConfig::default(),
        }
    }
}

impl Default for Inbound {
    fn default() -> Self {
        Inbound {
            kind: InboundKind::Maildir,
            maildir: None,
            prune_handled: false,
            imap: Imap::default(),
        }
    }
}

impl Default for Imap {
    fn default() -> Self {
        Imap {
            host: "127.0.0.1".into(),
            port: 993,
            tls: true,
            ca_file: None,
            user: String::new(),
            password: String::new(),
            mailbox: "INBOX".into(),
            poll_seconds: 30,
            timeout_seconds: 60,
        }
    }
}

impl Default for Outbound {
    fn default() -> Self {
        Outbound {
            kind: OutboundKind::File,
            dir: None,
            smtp: Smtp::default(),
            sendmail: PathBuf::from("/usr/sbin/sendmail"),
            max_attempts: 8,
            retry_base_seconds: 30,
            retry_max_seconds: 3600,
        }
    }
}

impl Default for Smtp {
    fn default() -> Self {
        Smtp {
            host: "127.0.0.1".into(),
            port: 587,
            security: "starttls".into(),
            ca_file: None,
            user: None,
            password: None,
            timeout_seconds: 60,
        }
    }
}

/// What `castellan config` prints instead of a password (`--show-secrets` shows it).
pub const HIDDEN: &str = "(hidden: castellan config --show-secrets)";

/// Where the Debian package installs the configuration.
pub const SYSTEM_CONFIG: &str = "/etc/castellan/castellan.yaml";
/// The configuration of a checkout (the repository's own `config/`).
pub const CHECKOUT_CONFIG: &str = "config/castellan.yaml";

/// Which configuration file a command reads, and why.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ConfigSource {
    pub path: PathBuf,
    /// `--config`, `CASTELLAN_CONFIG`, the package's file, or a checkout's.
    pub from: &'static str,
    /// Named by the operator (`--config`, `CASTELLAN_CONFIG`) or found: a missing file is
    /// an error. Only the checkout's file may be missing (all defaults then).
    pub must_exist: bool,
}

impl ConfigSource {
    /// `--config FILE` if given, else `CASTELLAN_CONFIG` if set (not empty), else
    /// /etc/castellan/castellan.yaml when it exists, else config/castellan.yaml (a
    /// checkout; a missing one means "all defaults").
    pub fn resolve(flag: Option<&Path>) -> ConfigSource {
        Self::resolve_with(
            flag,
            std::env::var_os("CASTELLAN_CONFIG").as_deref(),
            Path::new(SYSTEM_CONFIG).exists(),
        )
    }

    /// [`ConfigSource::resolve`] with the environment and the system file given.
    pub fn resolve_with(
        flag: Option<&Path>,
        env: Option<&std::ffi::OsStr>,
        system_exists: bool,
    ) -> ConfigSource {
        let (path, from, must_exist) = match (flag, env.filter(|e| !e.is_empty())) {
            (Some(p), _) => (p.to_path_buf(), "--config", true),
            (None, Some(e)) => (PathBuf::from(e), "CASTELLAN_CONFIG", true),
            (None, None) if system_exists => (PathBuf::from(SYSTEM_CONFIG), "the package's", true),
            (None, None) => (PathBuf::from(CHECKOUT_CONFIG), "a checkout's", false),
        };
        ConfigSource {
            path,
            from,
            must_exist,
        }
    }

    /// The line a command prints first: which file it read (or that it runs on the
    /// built-in defaults).
    pub fn describe(&self) -> String {
        if self.path == Path::new("/dev/null") {
            format!("configuration: built-in defaults ({} /dev/null)", self.from)
        } else if !self.must_exist && !self.path.exists() {
            format!(
                "configuration: built-in defaults ({} {} does not exist)",
                self.from,
                self.path.display()
            )
        } else {
            format!("configuration: {} ({})", self.path.display(), self.from)
        }
    }
}

impl Config {
    /// The configuration `source` names, with `--data-dir` (when given) over its data folder.
    pub fn load_for(source: &ConfigSource, data_dir: Option<&Path>) -> Result<Config, ShellError> {
        let mut c = Config::load(&source.path, source.must_exist)?;
        if let Some(d) = data_dir {
            c.data_dir = d.to_path_buf();
        }
        Ok(c)
    }

    /// `castellan config [--show-secrets]`: the configuration in use, as YAML, after a
    /// comment naming where it came from (the output stays a configuration file).
    pub fn show(self, source: &ConfigSource, show_secrets: bool) -> Result<(), ShellError> {
        println!("# {}", source.describe());
        let config = if show_secrets {
            self
        } else {
            self.with_secrets_hidden()
        };
        print!(
            "{}",
            serde_yaml::to_string(&config).map_err(|e| ShellError::Config {
                path: source.path.clone(),
                why: e.to_string(),
            })?
        );
        Ok(())
    }
}

impl Config {
    /// Read `path`; a missing file at the default path means "all defaults".
    pub fn load(path: &Path, must_exist: bool) -> Result<Config, crate::error::ShellError> {
        let bad = |why: String| crate::error::ShellError::Config {
            path: path.to_path_buf(),
            why,
        };
        match std::fs::read_to_string(path) {
            Ok(text) => serde_yaml::from_str(&text).map_err(|e| bad(e.to_string())),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound && !must_exist => {
                Ok(Config::default())
            }
            Err(e) => Err(bad(e.to_string())),
        }
    }

    /// The private CA files the configured mail connections use, with their keys
    /// (`inbound.imap.ca_file`, `outbound.smtp.ca_file`): only those of a TLS connection.
    pub fn ca_files_in_use(&self) -> Vec<(&'static str, &PathBuf)> {
        let mut files = Vec::new();
        if self.inbound.kind == InboundKind::Imap && self.inbound.imap.tls {
            if let Some(f) = &self.inbound.imap.ca_file {
                files.push(("inbound.imap.ca_file", f));
            }
        }
        if self.outbound.kind == OutboundKind::Smtp && self.outbound.smtp.security != "none" {
            if let Some(f) = &self.outbound.smtp.ca_file {
                files.push(("outbound.smtp.ca_file", f));
            }
        }
        files
    }

    /// This configuration with every password set replaced by [`HIDDEN`] (what `castellan
    /// config` prints without `--show-secrets`): the IMAP and SMTP passwords and the
    /// creators' password.
    pub fn with_secrets_hidden(mut self) -> Config {
        let hide = |s: &mut String| {
            if !s.is_empty() {
                *s = HIDDEN.into();
            }
        };
        hide(&mut self.inbound.imap.password);
        hide(&mut self.judge.creator_password);
        if let Some(p) = &mut self.outbound.smtp.password {
            hide(p);
        }
        self
    }

    pub fn database_path(&self) -> PathBuf {
        self.database
            .clone()
            .unwrap_or_else(|| self.data_dir.join("db"))
    }
    pub fn backup_dir(&self) -> PathBuf {
        self.backup
            .dir
            .clone()
            .unwrap_or_else(|| self.data_dir.join("backups"))
    }
    /// The journal of every handling (src/store/journal/ and src/ops/recover.rs), beside the database.
    pub fn journal_path(&self) -> PathBuf {
        self.data_dir.join("journal.jsonl")
    }
    pub fn inbox_path(&self) -> PathBuf {
        self.inbound
            .maildir
            .clone()
            .unwrap_or_else(|| self.data_dir.join("mail/inbox"))
    }
    pub fn outbox_path(&self) -> PathBuf {
        self.outbound
            .dir
            .clone()
            .unwrap_or_else(|| self.data_dir.join("mail/outbox"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_shipped_config_file_parses_and_matches_the_defaults() {
        let shipped = Config::load(
            Path::new(concat!(
                env!("CARGO_MANIFEST_DIR"),
                "/config/castellan.yaml"
            )),
            true,
        )
        .unwrap();
        let d = Config::default();
        assert_eq!(
            serde_yaml::to_string(&shipped).unwrap(),
            serde_yaml::to_string(&d).unwrap()
        );
    }

    #[test]
    fn unknown_keys_are_refused_with_the_file_name() {
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("c.yaml");
        std::fs::write(&p, "data_dir: x\ncolour: red\n").unwrap();
        let e = Config::load(&p, true).unwrap_err().to_string();
        assert!(e.contains("c.yaml") && e.contains("colour"), "{e}");
    }

    #[test]
    fn ca_files_are_optional_and_read_when_given() {
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("c.yaml");
        // a file written before the keys existed still parses: no CA file
        std::fs::write(
            &p,
            "inbound:\n  imap: { host: imap.example.org, tls: true }\n\
             outbound:\n  smtp: { host: smtp.example.org, security: tls }\n",
        )
        .unwrap();
        let c = Config::load(&p, true).unwrap();
        assert_eq!(c.inbound.imap.ca_file, None);
        assert_eq!(c.outbound.smtp.ca_file, None);
        std::fs::write(
            &p,
            "inbound:\n  imap: { ca_file: /etc/castellan/ca.pem }\n\
             outbound:\n  smtp: { ca_file: private-ca.pem }\n",
        )
        .unwrap();
        let c = Config::load(&p, true).unwrap();
        assert_eq!(
            c.inbound.imap.ca_file,
            Some(PathBuf::from("/etc/castellan/ca.pem"))
        );
        assert_eq!(
            c.outbound.smtp.ca_file,
            Some(PathBuf::from("private-ca.pem"))
        );
    }

    #[test]
    fn the_config_is_the_flag_then_the_environment_then_etc_then_the_checkout() {
        use std::ffi::OsStr;
        let flag = Path::new("/srv/judge.yaml");
        let env = OsStr::new("/opt/castellan.yaml");
        let r = ConfigSource::resolve_with(Some(flag), Some(env), true);
        assert_eq!((r.path.as_path(), r.must_exist), (flag, true));
        let r = ConfigSource::resolve_with(None, Some(env), true);
        assert_eq!((r.path.as_path(), r.must_exist), (Path::new(env), true));
        let r = ConfigSource::resolve_with(None, Some(OsStr::new("")), true);
        assert_eq!(
            (r.path.as_path(), r.must_exist),
            (Path::new(SYSTEM_CONFIG), true)
        );
        let r = ConfigSource::resolve_with(None, None, false);
        assert_eq!(
            (r.path.as_path(), r.must_exist),
            (Path::new(CHECKOUT_CONFIG), false)
        );
        assert!(
            r.describe().starts_with("configuration: "),
            "{}",
            r.describe()
        );
    }

    #[test]
    fn a_missing_default_file_means_defaults() {
        let c = Config::load(Path::new("/nonexistent/castellan.yaml"), false).unwrap();
        assert_eq!(c.inbox_path(), PathBuf::from("var/mail/inbox"));
        assert!(Config::load(Path::new("/nonexistent/castellan.yaml"), true).is_err());
    }
}
