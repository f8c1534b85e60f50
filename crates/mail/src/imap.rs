//! An IMAP inbox (async-imap over tokio; TLS with tokio-rustls, the server's certificate
//! checked against the webpki roots plus, optionally, the operator's own CA file).
//!
//! Fetching uses `BODY.PEEK[]`, so nothing is flagged `\Seen` until the judge has
//! committed and calls [`ImapInbox::mark_seen`]: a crash in between means the message is
//! fetched again, and the judge's Message-ID check makes that harmless.

use std::fmt;
use std::io;
use std::path::PathBuf;
use std::pin::Pin;
use std::sync::Arc;
use std::task::{Context, Poll};
use std::time::Duration;

use async_imap::extensions::idle::IdleResponse;
use async_imap::Session;
use futures_util::TryStreamExt;
use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};
use tokio::net::TcpStream;
use tokio_rustls::rustls;
use tokio_rustls::TlsConnector;

use crate::tls::{certificate_error, root_store, CERTIFICATE_HINT, CERTIFICATE_REFUSED};

/// How [`ImapInbox::connect`] secures its connection.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ImapTls {
    /// Plain TCP: only for a server on 127.0.0.1 (tests, a local relay).
    None,
    /// TLS from the first byte (IMAPS, port 993). The server's certificate must chain to
    /// one of the webpki roots or, when `ca_file` is given, to one of the certificates of
    /// that PEM file (a private CA, or the server's own self-signed certificate).
    Tls { ca_file: Option<PathBuf> },
}

impl ImapTls {
    /// TLS trusting the webpki roots only.
    pub fn webpki() -> ImapTls {
        ImapTls::Tls { ca_file: None }
    }

    /// TLS trusting the webpki roots and the certificates of the PEM file `ca_file`.
    pub fn with_ca_file(ca_file: impl Into<PathBuf>) -> ImapTls {
        ImapTls::Tls {
            ca_file: Some(ca_file.into()),
        }
    }
}

/// What went wrong talking to the IMAP server (all worth a retry later, except bad
/// credentials, a missing mailbox, an untrusted certificate or a bad CA file, which need
/// the configuration fixed).
#[derive(Debug, thiserror::Error)]
pub enum ImapError {
    #[error("cannot connect to {0}: {1}")]
    Connect(String, io::Error),
    #[error("TLS with {0}: {1}")]
    Tls(String, String),
    /// The server's certificate was refused (unknown issuer, expired, wrong name, …).
    #[error("TLS with {0}: {refused} ({1}); {hint}", refused = CERTIFICATE_REFUSED, hint = CERTIFICATE_HINT)]
    Certificate(String, String),
    /// The CA file is missing, unreadable or holds no usable certificate; the text names it.
    #[error("{0}")]
    CaFile(String),
    #[error("login as {0} refused: {1}")]
    Login(String, String),
    #[error("cannot select mailbox {0}: {1}")]
    Select(String, String),
    #[error("IMAP: {0}")]
    Protocol(String),
    #[error("the IMAP session is closed")]
    Closed,
}

impl From<async_imap::error::Error> for ImapError {
    fn from(e: async_imap::error::Error) -> Self {
        ImapError::Protocol(e.to_string())
    }
}

/// A TCP stream, plain or TLS.
pub enum ImapStream {
    Plain(TcpStream),
    Tls(Box<tokio_rustls::client::TlsStream<TcpStream>>),
}

impl fmt::Debug for ImapStream {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ImapStream::Plain(_) => f.write_str("ImapStream::Plain"),
            ImapStream::Tls(_) => f.write_str("ImapStream::Tls"),
        }
    }
}

impl AsyncRead for ImapStream {
    fn poll_read(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<()>> {
        match self.get_mut() {
            ImapStream::Plain(s) => Pin::new(s).poll_read(cx, buf),
            ImapStream::Tls(s) => Pin::new(s.as_mut()).poll_read(cx, buf),
        }
    }
}

impl AsyncWrite for ImapStream {
    fn poll_write(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<io::Result<usize>> {
        match self.get_mut() {
            ImapStream::Plain(s) => Pin::new(s).poll_write(cx, buf),
            ImapStream::Tls(s) => Pin::new(s.as_mut()).poll_write(cx, buf),
        }
    }
    fn poll_flush(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        match self.get_mut() {
            ImapStream::Plain(s) => Pin::new(s).poll_flush(cx),
            ImapStream::Tls(s) => Pin::new(s.as_mut()).poll_flush(cx),
        }
    }
    fn poll_shutdown(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        match self.get_mut() {
            ImapStream::Plain(s) => Pin::new(s).poll_shutdown(cx),
            ImapStream::Tls(s) => Pin::new(s.as_mut()).poll_shutdown(cx),
        }
    }
}

/// One logged-in IMAP session on one selected mailbox.
pub struct ImapInbox {
    session: Option<Session<ImapStream>>,
    mailbox: String,
    /// How long each command may take ([`ImapInbox::connect_within`]).
    deadline: Duration,
}

impl fmt::Debug for ImapInbox {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("ImapInbox")
            .field("mailbox", &self.mailbox)
            .field("open", &self.session.is_some())
            .finish()
    }
}

/// The deadline of [`ImapInbox::connect`].
pub const NETWORK_TIMEOUT: Duration = Duration::from_secs(60);

async fn timed<T>(
    deadline: Duration,
    what: &str,
    fut: impl std::future::Future<Output = Result<T, ImapError>>,
) -> Result<T, ImapError> {
    match tokio::time::timeout(deadline, fut).await {
        Ok(r) => r,
        Err(_) => Err(ImapError::Protocol(format!(
            "{what}: no answer within {deadline:?}"
        ))),
    }
}

fn tls_connector(host: &str, ca_file: Option<&std::path::Path>) -> Result<TlsConnector, ImapError> {
    let roots = root_store(ca_file).map_err(ImapError::CaFile)?;
    let provider = Arc::new(rustls::crypto::ring::default_provider());
    let config = rustls::ClientConfig::builder_with_provider(provider)
        .with_safe_default_protocol_versions()
        .map_err(|e| ImapError::Tls(host.to_string(), e.to_string()))?
        .with_root_certificates(roots)
        .with_no_client_auth();
    Ok(TlsConnector::from(Arc::new(config)))
}

impl ImapInbox {
    /// Connects (secured as `tls` says), logs in and selects `mailbox`. A CA file that
    /// cannot be used is an [`ImapError::CaFile`], found before any connection is made;
    /// a refused server certificate is an [`ImapError::Certificate`].
    pub async fn connect(
        host: &str,
        port: u16,
        tls: &ImapTls,
        user: &str,
        password: &str,
        mailbox: &str,
    ) -> Result<ImapInbox, ImapError> {
        Self::connect_within(NETWORK_TIMEOUT, host, port, tls, user, password, mailbox).await
    }

    /// [`ImapInbox::connect`] with the whole connection (connect, TLS, greeting, login,
    /// select) under `deadline`, and each later command too: a server that accepts and
    /// never answers is an error after it, not a hang.
    pub async fn connect_within(
        deadline: Duration,
        host: &str,
        port: u16,
        tls: &ImapTls,
        user: &str,
        password: &str,
        mailbox: &str,
    ) -> Result<ImapInbox, ImapError> {
        let mut inbox = timed(
            deadline,
            &format!("IMAP {host}:{port}: connection"),
            Self::open(deadline, host, port, tls, user, password, mailbox),
        )
        .await?;
        inbox.deadline = deadline;
        Ok(inbox)
    }

    async fn open(
        deadline: Duration,
        host: &str,
        port: u16,
        tls: &ImapTls,
        user: &str,
        password: &str,
        mailbox: &str,
    ) -> Result<ImapInbox, ImapError> {
        let addr = format!("{host}:{port}");
        let connector = match tls {
            ImapTls::None => None,
            ImapTls::Tls { ca_file } => Some(tls_connector(host, ca_file.as_deref())?),
        };
        let tcp = timed(deadline, "connect", async {
            TcpStream::connect((host, port))
                .await
                .map_err(|e| ImapError::Connect(addr.clone(), e))
        })
        .await?;
        let stream = if let Some(connector) = connector {
            let name = rustls::pki_types::ServerName::try_from(host.to_string())
                .map_err(|e| ImapError::Tls(host.to_string(), e.to_string()))?;
            let s = timed(deadline, "TLS handshake", async {
                connector
                    .connect(name, tcp)
                    .await
                    .map_err(|e| match certificate_error(&e) {
                        Some(why) => ImapError::Certificate(host.to_string(), why),
                        None => ImapError::Tls(host.to_string(), e.to_string()),
                    })
            })
            .await?;
            ImapStream::Tls(Box::new(s))
        } else {
            ImapStream::Plain(tcp)
        };
        let mut client = async_imap::Client::new(stream);
        timed(deadline, "greeting", async {
            client
                .read_response()
                .await
                .map_err(|e| ImapError::Protocol(format!("no greeting: {e}")))?
                .ok_or_else(|| ImapError::Protocol("connection closed before the greeting".into()))
        })
        .await?;
        let mut session = timed(deadline, "login", async {
            client
                .login(user, password)
                .await
                .map_err(|(e, _)| ImapError::Login(user.to_string(), e.to_string()))
        })
        .await?;
        timed(deadline, "select", async {
            session
                .select(mailbox)
                .await
                .map_err(|e| ImapError::Select(mailbox.to_string(), e.to_string()))
        })
        .await?;
        Ok(ImapInbox {
            session: Some(session),
            mailbox: mailbox.to_string(),
            deadline,
        })
    }

    fn session(&mut self) -> Result<&mut Session<ImapStream>, ImapError> {
        self.session.as_mut().ok_or(ImapError::Closed)
    }

    /// Every unseen message, by UID in increasing order, with its raw bytes. Sets no flag
    /// (`UID SEARCH UNSEEN`, then `UID FETCH … BODY.PEEK[]`).
    pub async fn fetch_unseen(&mut self) -> Result<Vec<(u32, Vec<u8>)>, ImapError> {
        let deadline = self.deadline;
        let session = self.session()?;
        timed(deadline, "fetch", async move {
            // a NOOP first so the server reports mail that arrived since SELECT
            session.noop().await?;
            let mut uids: Vec<u32> = session.uid_search("UNSEEN").await?.into_iter().collect();
            uids.sort_unstable();
            let mut out = Vec::new();
            for chunk in uids.chunks(50) {
                let set = chunk
                    .iter()
                    .map(|u| u.to_string())
                    .collect::<Vec<_>>()
                    .join(",");
                let fetches: Vec<_> = session
                    .uid_fetch(&set, "(UID BODY.PEEK[])")
                    .await?
                    .try_collect()
                    .await?;
                for f in fetches {
                    if let (Some(uid), Some(body)) = (f.uid, f.body()) {
                        out.push((uid, body.to_vec()));
                    }
                }
            }
            out.sort_by_key(|(uid, _)| *uid);
            out.dedup_by_key(|(uid, _)| *uid);
            Ok(out)
        })
        .await
    }

    /// Flags one message `\Seen` (call only after the judge has committed it).
    pub async fn mark_seen(&mut self, uid: u32) -> Result<(), ImapError> {
        let deadline = self.deadline;
        let session = self.session()?;
        timed(deadline, "store", async move {
            let _: Vec<_> = session
                .uid_store(uid.to_string(), "+FLAGS (\\Seen)")
                .await?
                .try_collect()
                .await?;
            Ok(())
        })
        .await
    }

    /// The flags of one message, as the server states them (`\Seen`, `\Recent`, …).
    pub async fn flags(&mut self, uid: u32) -> Result<Vec<String>, ImapError> {
        let deadline = self.deadline;
        let session = self.session()?;
        timed(deadline, "fetch flags", async move {
            let fetches: Vec<_> = session
                .uid_fetch(uid.to_string(), "(UID FLAGS)")
                .await?
                .try_collect()
                .await?;
            Ok(fetches
                .iter()
                .filter(|f| f.uid == Some(uid))
                .flat_map(|f| f.flags().map(|fl| format!("{fl:?}")))
                .collect())
        })
        .await
    }

    /// Waits (IMAP IDLE) until the server reports a change in the mailbox or `timeout`
    /// passes. Returns true when something happened (then call [`Self::fetch_unseen`]).
    pub async fn idle_wait(&mut self, timeout: Duration) -> Result<bool, ImapError> {
        let session = self.session.take().ok_or(ImapError::Closed)?;
        let mut handle = session.idle();
        timed(self.deadline, "IDLE", async { Ok(handle.init().await?) }).await?;
        let (wait, _stop) = handle.wait_with_timeout(timeout);
        let result = wait.await;
        let news = matches!(result, Ok(IdleResponse::NewData(_)));
        let session = timed(self.deadline, "IDLE done", async {
            Ok(handle.done().await?)
        })
        .await?;
        self.session = Some(session);
        result?;
        Ok(news)
    }

    /// Logs out and closes the connection.
    pub async fn logout(mut self) -> Result<(), ImapError> {
        if let Some(mut s) = self.session.take() {
            timed(
                self.deadline,
                "logout",
                async move { Ok(s.logout().await?) },
            )
            .await?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A server that accepts the connection and never sends its greeting is an
    /// error within the connection's deadline, not a hang.
    #[tokio::test]
    async fn a_server_that_never_answers_times_out_within_the_deadline() {
        let port = crate::silent_server();
        let deadline = Duration::from_millis(500);
        // a generous outer bound, only so that a hang fails instead of stalling CI
        let r = tokio::time::timeout(
            deadline * 10,
            ImapInbox::connect_within(
                deadline,
                "127.0.0.1",
                port,
                &ImapTls::None,
                "judge",
                "secret",
                "INBOX",
            ),
        )
        .await
        .expect("connect did not return within 10x its deadline");
        let e = r.unwrap_err().to_string();
        assert!(e.contains("no answer within"), "{e}");
    }
}
