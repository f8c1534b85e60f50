//! Sending replies: a folder of .eml files, SMTP, or a sendmail command.

use std::path::{Path, PathBuf};
use std::time::Duration;

use lettre::address::Envelope;
use lettre::transport::smtp::authentication::Credentials;
use lettre::transport::smtp::client::{Certificate, CertificateStore, Tls, TlsParameters};
use lettre::{AsyncSendmailTransport, AsyncSmtpTransport, AsyncTransport, Tokio1Executor};

use crate::render::{mailbox, try_render, OutgoingMail};
use crate::tls::{
    ca_file_error, certificate_error, load_ca_file, CERTIFICATE_HINT, CERTIFICATE_REFUSED,
};

/// How an SMTP connection is secured.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SmtpSecurity {
    /// Plain text (a local relay, tests).
    None,
    /// STARTTLS is required (port 587).
    StartTls,
    /// TLS from the first byte (port 465).
    Tls,
}

/// Where outgoing mail goes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Transport {
    /// One `<message-id>.eml` file per mail in `dir` (written to a dotfile, then renamed).
    File { dir: PathBuf },
    /// An SMTP relay. With TLS (`security` not `None`) the server's certificate must chain
    /// to one of the webpki roots or, when `ca_file` is given, to one of the certificates of
    /// that PEM file (a private CA, or the server's own self-signed certificate); `ca_file`
    /// is read at each connection and ignored without TLS.
    ///
    /// `timeout` bounds the whole session of each mail (connect, TLS, every command, the
    /// data): a relay that accepts the connection and never answers fails the mail with a
    /// transient error after it (lettre's own timeout covers the connect only: lettre's
    /// bug 1027), and the rest of the batch fails at once.
    Smtp {
        host: String,
        port: u16,
        security: SmtpSecurity,
        user: Option<String>,
        password: Option<String>,
        ca_file: Option<PathBuf>,
        timeout: Duration,
    },
    /// A sendmail-compatible command (`/usr/sbin/sendmail`), given the message on stdin.
    Sendmail { command: PathBuf },
}

/// Why a mail was not sent, and whether trying again later may help.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SendError {
    /// Try again later (connection refused, timeout, 4xx answer, disk full, …).
    #[error("temporary failure, retry later: {0}")]
    Transient(String),
    /// Retrying will not help (bad address, 5xx answer, a server certificate that is not
    /// trusted, a CA file that cannot be used: the last two need the configuration fixed,
    /// and then the parked mail retried).
    #[error("permanent failure: {0}")]
    Permanent(String),
}

impl SendError {
    pub fn is_transient(&self) -> bool {
        matches!(self, SendError::Transient(_))
    }
}

/// The file name a mail gets in a File transport: its Message-ID without brackets, every
/// character other than `A-Za-z0-9 . _ @ + -` replaced by `_`, then `.eml`.
pub fn eml_file_name(message_id: &str) -> String {
    let id = message_id
        .trim()
        .trim_start_matches('<')
        .trim_end_matches('>');
    let mut name: String = id
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || matches!(c, '.' | '_' | '@' | '+' | '-') {
                c
            } else {
                '_'
            }
        })
        .collect();
    if name.is_empty() || name.starts_with('.') {
        name.insert(0, '_');
    }
    name.truncate(200);
    format!("{name}.eml")
}

impl Transport {
    /// Sends one mail (rendered with [`crate::render`] at `date_unix`). A bad address, a
    /// 5xx answer, an untrusted server certificate and an unusable CA file are permanent
    /// errors; network trouble and 4xx answers are transient. To send several mails, use
    /// [`Transport::mailer`]: SMTP then reuses one connection.
    pub async fn send(&self, mail: &OutgoingMail, date_unix: i64) -> Result<(), SendError> {
        let mut mailer = self.mailer();
        mailer.send(mail, date_unix).await?;
        mailer.finish().await
    }

    /// The file transport's hidden temporary files older than `age`: left by a process
    /// that died in the middle of a batch (never renamed, so never a mail). Removed;
    /// returns how many. A younger one may be another process's batch being written.
    pub fn sweep_stale(&self, age: Duration) -> std::io::Result<usize> {
        let Transport::File { dir } = self else {
            return Ok(0);
        };
        let rd = match std::fs::read_dir(dir) {
            Ok(rd) => rd,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(0),
            Err(e) => return Err(e),
        };
        let mut removed = 0;
        for e in rd.flatten() {
            let name = e.file_name().to_string_lossy().into_owned();
            if !(name.starts_with('.') && name.ends_with(".tmp") && name.contains(".eml.")) {
                continue;
            }
            let old = e
                .metadata()
                .and_then(|m| m.modified())
                .ok()
                .and_then(|t| t.elapsed().ok())
                .is_some_and(|d| d >= age);
            if old && std::fs::remove_file(e.path()).is_ok() {
                removed += 1;
            }
        }
        Ok(removed)
    }

    /// A sender for a batch of mails. For SMTP the lettre transport (with its connection
    /// pool) is built on the first mail and kept, so the batch shares connections and TLS
    /// handshakes instead of opening one per mail; it closes when the mailer is dropped.
    pub fn mailer(&self) -> Mailer<'_> {
        Mailer {
            transport: self,
            smtp: None,
            smtp_down: None,
            staged: Vec::new(),
            adopted: Vec::new(),
            writing: std::collections::VecDeque::new(),
            failed: None,
        }
    }

    fn smtp_transport(&self) -> Result<Option<AsyncSmtpTransport<Tokio1Executor>>, SendError> {
        let Transport::Smtp {
            host,
            port,
            security,
            user,
            password,
            ca_file,
            timeout,
        } = self
        else {
            return Ok(None);
        };
        let tls = match security {
            SmtpSecurity::None => Tls::None,
            SmtpSecurity::StartTls => {
                Tls::Required(tls_parameters(host, *port, ca_file.as_deref())?)
            }
            SmtpSecurity::Tls => Tls::Wrapper(tls_parameters(host, *port, ca_file.as_deref())?),
        };
        let mut builder = AsyncSmtpTransport::<Tokio1Executor>::builder_dangerous(host.as_str())
            .port(*port)
            .tls(tls)
            .timeout(Some(*timeout));
        if let Some(user) = user {
            builder = builder.credentials(Credentials::new(
                user.clone(),
                password.clone().unwrap_or_default(),
            ));
        }
        Ok(Some(builder.build()))
    }
}

/// Sends a batch of mails through one [`Transport`] (see [`Transport::mailer`]). A mail
/// is out once [`Mailer::finish`] returned: the file transport renders and writes each
/// mail to a hidden temporary file on the blocking threads, as many at once as there are
/// cores, while the caller goes on with the next mail; it makes the whole batch durable
/// at once (one `syncfs`, the renames, one fsync of the folder) instead of one fsync per
/// mail.
pub struct Mailer<'a> {
    transport: &'a Transport,
    smtp: Option<AsyncSmtpTransport<Tokio1Executor>>,
    /// SMTP: the relay did not answer within the deadline, or could not be reached; the
    /// rest of the batch fails at once with this error instead of waiting the deadline
    /// again for each mail.
    smtp_down: Option<SendError>,
    /// File transport: (temporary file, its final name) written but not yet durable.
    staged: Vec<Staged>,
    /// File transport: files written ahead and made durable already ([`Mailer::adopt`]).
    adopted: Vec<Staged>,
    /// File transport: mails being rendered and written.
    writing: std::collections::VecDeque<tokio::task::JoinHandle<std::io::Result<Staged>>>,
    /// File transport: the first mail of the batch that could not be written (the whole
    /// batch then fails at [`Mailer::finish`]).
    failed: Option<std::io::Error>,
}

/// A mail written to its hidden temporary file: (temporary file, final name).
pub type Staged = (std::path::PathBuf, std::path::PathBuf);

/// Render `mail` and write it to a hidden temporary file of the file transport's folder
/// `dir`, ahead of the flush that lets it go: it is not synced, and nothing reads it until
/// a [`Mailer`] adopts it ([`Mailer::adopt`]) and [`Mailer::finish`] renames it. `tag`
/// keeps its name apart from every other mail's being written (the service gives the
/// outbox key). A bad address is refused and nothing written.
pub fn prestage(
    dir: &std::path::Path,
    mail: &OutgoingMail,
    date_unix: i64,
    tag: &str,
) -> std::io::Result<Staged> {
    let bytes = try_render(mail, date_unix).map_err(std::io::Error::other)?;
    write_staged(dir, &eml_file_name(&mail.message_id), tag, &bytes)
}

impl Drop for Mailer<'_> {
    /// A batch dropped before [`Mailer::finish`] delivered nothing: its temporary files go
    /// (one still being written when the mailer is dropped is left, hidden and never
    /// renamed: the folder's readers take `*.eml` only, and `serve` sweeps it at its next
    /// start: [`Transport::sweep_stale`]).
    fn drop(&mut self) {
        for (tmp, _) in self.staged.drain(..).chain(self.adopted.drain(..)) {
            let _ = std::fs::remove_file(tmp);
        }
    }
}

/// How many mails the file transport renders and writes at once.
/// Asked once: `available_parallelism` reads the cgroup files on each call (a tenth of
/// a drain's time when it was asked each time).
fn writers() -> usize {
    static WRITERS: std::sync::OnceLock<usize> = std::sync::OnceLock::new();
    *WRITERS.get_or_init(|| std::thread::available_parallelism().map_or(2, |n| n.get().clamp(1, 8)))
}

impl Mailer<'_> {
    /// Make every mail sent so far durable and visible: for the file transport, the batch's
    /// files are synced to the device with one `syncfs`, renamed to their names, and the
    /// folder fsynced. SMTP and sendmail have handed each mail on already: nothing to do.
    /// On an error none of the staged mails counts as sent (send them again).
    pub async fn finish(&mut self) -> Result<(), SendError> {
        while !self.writing.is_empty() {
            self.wait_one().await;
        }
        if let Some(e) = self.failed.take() {
            for (tmp, _) in self.staged.drain(..).chain(self.adopted.drain(..)) {
                let _ = std::fs::remove_file(tmp);
            }
            return Err(SendError::Transient(format!(
                "cannot write the mail files: {e}"
            )));
        }
        if self.staged.is_empty() && self.adopted.is_empty() {
            return Ok(());
        }
        // Written here: to be synced. Adopted: durable already.
        let written = !self.staged.is_empty();
        let mut staged = std::mem::take(&mut self.staged);
        staged.append(&mut self.adopted);
        let Transport::File { dir } = self.transport else {
            return Ok(());
        };
        let dir = dir.clone();
        let result = tokio::task::spawn_blocking(move || -> std::io::Result<()> {
            let cleanup = |staged: &[(std::path::PathBuf, std::path::PathBuf)]| {
                for (tmp, _) in staged {
                    let _ = std::fs::remove_file(tmp);
                }
            };
            let synced = if written {
                sync_filesystem(&dir).or_else(|_| {
                    staged.iter().try_for_each(|(tmp, _)| {
                        let f = std::fs::File::open(tmp)?;
                        crate::maildir::note_device_flush();
                        f.sync_all()
                    })
                })
            } else {
                Ok(())
            };
            if let Err(e) = synced {
                cleanup(&staged);
                return Err(e);
            }
            for (i, (tmp, name)) in staged.iter().enumerate() {
                if let Err(e) = std::fs::rename(tmp, name) {
                    cleanup(&staged[i..]);
                    return Err(e);
                }
            }
            crate::maildir::sync_dir(&dir)
        })
        .await
        .map_err(|e| SendError::Transient(format!("file writer stopped: {e}")))?;
        result.map_err(|e| SendError::Transient(format!("cannot write the mail files: {e}")))
    }

    /// Take a mail written ahead ([`prestage`]) and already synced to the device (the
    /// caller's flush covered it: `syncfs`) into this batch: [`Mailer::finish`] makes it
    /// visible with the rest, and syncs only what this mailer wrote itself. Only a file
    /// transport's mail written to its own folder is taken; otherwise the file is removed
    /// and false returned (send the mail instead).
    pub fn adopt(&mut self, staged: Staged) -> bool {
        match self.transport {
            Transport::File { dir } if staged.0.parent() == Some(dir.as_path()) => {
                self.adopted.push(staged);
                true
            }
            _ => {
                let _ = std::fs::remove_file(&staged.0);
                false
            }
        }
    }

    /// The oldest mail being written, done: staged, or the batch's error.
    async fn wait_one(&mut self) {
        let Some(task) = self.writing.pop_front() else {
            return;
        };
        match task.await {
            Ok(Ok(staged)) => self.staged.push(staged),
            Ok(Err(e)) => {
                self.failed.get_or_insert(e);
            }
            Err(e) => {
                self.failed
                    .get_or_insert(std::io::Error::other(format!("file writer stopped: {e}")));
            }
        }
    }

    /// Whether the SMTP relay failed this batch as a whole (no answer within the
    /// deadline, or no connection at all): every later mail of the batch fails at once
    /// with the same error, so a caller may as well stop here and try again later.
    pub fn relay_down(&self) -> bool {
        self.smtp_down.is_some()
    }

    /// Sends one mail; errors as [`Transport::send`]. The file transport refuses a bad
    /// address here, then renders and writes the mail in the background; a failure to
    /// write fails the whole batch at [`Mailer::finish`].
    pub async fn send(&mut self, mail: &OutgoingMail, date_unix: i64) -> Result<(), SendError> {
        if let Transport::File { dir } = self.transport {
            crate::render::check(mail).map_err(|e| SendError::Permanent(e.to_string()))?;
            while self.writing.len() >= writers() {
                self.wait_one().await;
            }
            let (dir, mail) = (dir.clone(), mail.clone());
            let n = self.staged.len() + self.writing.len();
            self.writing.push_back(tokio::task::spawn_blocking(move || {
                let bytes = crate::render::render(&mail, date_unix);
                write_staged(
                    &dir,
                    &eml_file_name(&mail.message_id),
                    &n.to_string(),
                    &bytes,
                )
            }));
            return Ok(());
        }
        let bytes = try_render(mail, date_unix).map_err(|e| SendError::Permanent(e.to_string()))?;
        match self.transport {
            // Rendered and written in the background above.
            Transport::File { .. } => Ok(()),
            Transport::Smtp {
                host,
                port,
                timeout,
                ..
            } => {
                let envelope = envelope(mail)?;
                if let Some(e) = &self.smtp_down {
                    return Err(e.clone());
                }
                if self.smtp.is_none() {
                    self.smtp = self.transport.smtp_transport()?;
                }
                let Some(transport) = &self.smtp else {
                    return Err(SendError::Permanent("not an SMTP transport".into()));
                };
                let Ok(sent) =
                    tokio::time::timeout(*timeout, transport.send_raw(&envelope, &bytes)).await
                else {
                    // The session is in an unknown state: its connection is dropped with
                    // the transport, and the batch ends here.
                    self.smtp = None;
                    let e = SendError::Transient(format!(
                        "SMTP {host}:{port}: no answer within {} s (outbound.smtp.timeout_seconds)",
                        timeout.as_secs_f64()
                    ));
                    self.smtp_down = Some(e.clone());
                    return Err(e);
                };
                let e = match sent {
                    Ok(_) => return Ok(()),
                    Err(e) => e,
                };
                // an untrusted certificate will not fix itself: park the mail
                // (and say why) rather than retry it for hours
                if let Some(why) = certificate_error(&e) {
                    Err(SendError::Permanent(format!(
                        "SMTP {host}:{port}: {CERTIFICATE_REFUSED} ({why}); {CERTIFICATE_HINT}"
                    )))
                } else if e.is_permanent() {
                    Err(SendError::Permanent(format!("SMTP {host}:{port}: {e}")))
                } else if e.is_transient() || e.is_tls() || e.is_client() {
                    Err(SendError::Transient(format!("SMTP {host}:{port}: {e}")))
                } else {
                    // No answer about this mail at all (the connection refused, lost or
                    // garbled): the relay is down for the rest of the batch as well.
                    self.smtp = None;
                    let e = SendError::Transient(format!("SMTP {host}:{port}: {e}"));
                    self.smtp_down = Some(e.clone());
                    Err(e)
                }
            }
            Transport::Sendmail { command } => {
                let envelope = envelope(mail)?;
                let transport =
                    AsyncSendmailTransport::<Tokio1Executor>::new_with_command(command.as_os_str());
                // sendmail's exit codes do not say reliably what is permanent: retry.
                transport
                    .send_raw(&envelope, &bytes)
                    .await
                    .map_err(|e| SendError::Transient(format!("{}: {e}", command.display())))
            }
        }
    }
}

/// The webpki roots plus the certificates of `ca_file`. A CA file that cannot be used is
/// permanent: the same file fails the same way until the configuration is fixed.
fn tls_parameters(
    host: &str,
    port: u16,
    ca_file: Option<&Path>,
) -> Result<TlsParameters, SendError> {
    let mut builder =
        TlsParameters::builder(host.to_string()).certificate_store(CertificateStore::WebpkiRoots);
    if let Some(path) = ca_file {
        let bad = |why: &str| {
            SendError::Permanent(format!("SMTP {host}:{port}: {}", ca_file_error(path, why)))
        };
        for der in load_ca_file(path).map_err(|e| bad(&e))? {
            let cert = Certificate::from_der(der.to_vec()).map_err(|e| bad(&e.to_string()))?;
            builder = builder.add_root_certificate(cert);
        }
    }
    builder
        .build_rustls()
        .map_err(|e| SendError::Permanent(format!("TLS set-up for {host}:{port}: {e}")))
}

fn envelope(mail: &OutgoingMail) -> Result<Envelope, SendError> {
    let from = mailbox("from", &mail.from).map_err(|e| SendError::Permanent(e.to_string()))?;
    let to = mailbox("to", &mail.to).map_err(|e| SendError::Permanent(e.to_string()))?;
    Envelope::new(Some(from.email), vec![to.email])
        .map_err(|e| SendError::Permanent(format!("envelope: {e}")))
}

/// Write a mail of a batch to a hidden temporary file (not synced: [`Mailer::finish`]
/// syncs the batch), named apart by `tag`; returns (temporary file, final name).
fn write_staged(
    dir: &std::path::Path,
    name: &str,
    tag: &str,
    bytes: &[u8],
) -> std::io::Result<(std::path::PathBuf, std::path::PathBuf)> {
    use std::io::Write;
    std::fs::create_dir_all(dir)?;
    let tmp = dir.join(format!(".{name}.{}.{tag}.tmp", std::process::id()));
    let mut f = std::fs::File::create(&tmp)?;
    if let Err(e) = f.write_all(bytes) {
        let _ = std::fs::remove_file(&tmp);
        return Err(e);
    }
    Ok((tmp, dir.join(name)))
}

/// Sync every file of the filesystem holding `dir` to the device, in one call (Linux
/// `syncfs`).
pub fn sync_filesystem(dir: &std::path::Path) -> std::io::Result<()> {
    use std::os::fd::AsRawFd;
    let f = std::fs::File::open(dir)?;
    crate::maildir::note_device_flush();
    // SAFETY: syncfs takes a file descriptor we own for the length of the call.
    let r = unsafe { libc::syncfs(f.as_raw_fd()) };
    if r == 0 {
        Ok(())
    } else {
        Err(std::io::Error::last_os_error())
    }
}

#[cfg(test)]
mod tests;
