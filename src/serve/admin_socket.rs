//! The running daemon's admin socket: `DATA_DIR/admin.sock`, a Unix socket of mode 0660
//! owned by the data folder's group (the castellan group), as `doveadm` and `postqueue`
//! talk to their daemons. `serve` holds the database for good; an admin command run
//! meanwhile (`game ...`, `campaign ...`, `verify`, `outbox`, `render`, `backup`) sends
//! its command line here and the daemon runs it, between two passes, with the same code a
//! command run directly uses (`ops::admin::answer`) on its own open store.
//!
//! One request a connection: the client writes a [`Request`] as JSON and closes its
//! side; the daemon writes the [`Answer`] as JSON and closes. Whoever can connect (root,
//! the castellan user and group) may run any admin command: the socket's mode is the
//! access control. The daemon never opens a path of the caller's: a file the command
//! reads comes in the request, a file it makes goes back in the answer.

use crate::ops::admin::{Answer, By};
use crate::serve::service::Service;
use serde::{Deserialize, Serialize};
use std::io::{Read, Write};
use std::path::{Path, PathBuf};

/// The largest request read (a campaign to import, whole).
const MAX_REQUEST: u64 = 256 << 20;

/// What a client asks the daemon.
#[derive(Debug, Serialize, Deserialize)]
pub enum Request {
    /// Run this command line (what follows `castellan`; the global flags are ignored:
    /// the daemon's configuration is the one that counts); `input` is the file it reads.
    Command {
        args: Vec<String>,
        input: Option<String>,
    },
    /// Who is serving: [`Status`], as JSON in the answer's `out`.
    Status,
}

/// What the daemon says of itself (`castellan doctor` compares it with its own view).
#[derive(Debug, Serialize, Deserialize)]
pub struct Status {
    pub pid: u32,
    /// Its effective configuration, as `castellan config` prints it (passwords hidden).
    pub effective: String,
}

/// The admin socket of the data folder `data_dir`.
pub fn path(data_dir: &Path) -> PathBuf {
    data_dir.join("admin.sock")
}

/// Send `request` to the daemon listening on `socket`. `Ok(None)`: no daemon listens
/// there (no socket, or one a stopped daemon left); `Err`: one listens but cannot be
/// reached or answered (the reason, with its fix).
pub fn send(socket: &Path, request: &Request) -> Result<Option<Answer>, String> {
    use std::io::ErrorKind;
    use std::os::unix::net::UnixStream;
    let mut stream = match UnixStream::connect(socket) {
        Ok(s) => s,
        Err(e) if matches!(e.kind(), ErrorKind::NotFound | ErrorKind::ConnectionRefused) => {
            return Ok(None)
        }
        Err(e) if e.kind() == ErrorKind::PermissionDenied => {
            return Err(format!(
                "{e}: run the command as the castellan user or as a member of its group \
                 (`sudo -u castellan castellan ...`)"
            ))
        }
        Err(e) => return Err(e.to_string()),
    };
    let body = serde_json::to_vec(request).map_err(|e| e.to_string())?;
    let _ = stream.set_read_timeout(Some(std::time::Duration::from_secs(600)));
    stream
        .write_all(&body)
        .and_then(|_| stream.shutdown(std::net::Shutdown::Write))
        .map_err(|e| format!("cannot send the command: {e}"))?;
    let mut reply = Vec::new();
    stream
        .read_to_end(&mut reply)
        .map_err(|e| format!("no answer: {e}"))?;
    serde_json::from_slice(&reply).map(Some).map_err(|e| {
        format!("an answer that does not read ({e}): is the daemon of another version?")
    })
}

/// [`send`] a command line.
pub fn ask(
    socket: &Path,
    args: impl Iterator<Item = String>,
    input: Option<String>,
) -> Result<Option<Answer>, String> {
    send(
        socket,
        &Request::Command {
            args: args.collect(),
            input,
        },
    )
}

/// A request the daemon took, waiting for its loop to run it.
pub struct Job {
    request: Request,
    reply: tokio::sync::oneshot::Sender<Answer>,
}

impl Job {
    /// Run it on the daemon's service and send the answer back.
    pub fn run(self, svc: &Service) {
        let answer = match self.request {
            Request::Status => status(svc),
            Request::Command { args, input } => command(svc, args, input),
        };
        let _ = self.reply.send(answer);
    }
}

fn status(svc: &Service) -> Answer {
    let s = Status {
        pid: std::process::id(),
        effective: effective(&svc.config),
    };
    Answer {
        out: serde_json::to_string(&s).unwrap_or_default(),
        ..Answer::default()
    }
}

/// A configuration as `castellan config` prints it (passwords hidden), to compare the
/// daemon's with a command's.
pub fn effective(config: &crate::config::Config) -> String {
    serde_yaml::to_string(&config.clone().with_secrets_hidden()).unwrap_or_default()
}

fn command(svc: &Service, args: Vec<String>, input: Option<String>) -> Answer {
    use clap::Parser;
    let cli = match crate::cli::Cli::try_parse_from(
        std::iter::once("castellan".to_string()).chain(args.iter().cloned()),
    ) {
        Ok(cli) => cli,
        Err(e) => {
            return Answer {
                note: e.render().to_string(),
                code: crate::error::EX_USAGE,
                ..Answer::default()
            }
        }
    };
    if !crate::ops::admin::is_admin(&cli.command) {
        return Answer {
            note: format!(
                "castellan: `{}` is not run by the daemon: stop `castellan serve` first\n",
                args.join(" ")
            ),
            code: crate::error::EX_TEMPFAIL,
            ..Answer::default()
        };
    }
    tracing::info!("admin socket: castellan {}", args.join(" "));
    match crate::ops::admin::answer(svc, cli.command, input, By::Daemon) {
        Ok(mut a) => {
            if a.queued > 0 {
                a.note.push_str(&format!(
                    "{} mail(s) queued: the daemon sends them now\n",
                    a.queued
                ));
            }
            a
        }
        Err(e) => Answer {
            note: format!("castellan: {e}\n"),
            code: e.exit_code(),
            ..Answer::default()
        },
    }
}

/// Listen on `DATA_DIR/admin.sock` (one a stopped daemon left is replaced: this process
/// holds the database, so no other daemon runs), mode 0660, group of the data folder.
/// The jobs come out of the receiver, for the serving loop to run between passes.
/// Call within the runtime.
pub fn listen(data_dir: &Path) -> std::io::Result<tokio::sync::mpsc::Receiver<Job>> {
    use std::os::unix::fs::{MetadataExt, PermissionsExt};
    let socket = path(data_dir);
    match std::fs::remove_file(&socket) {
        Err(e) if e.kind() != std::io::ErrorKind::NotFound => return Err(e),
        _ => {}
    }
    let listener = tokio::net::UnixListener::bind(&socket)?;
    std::fs::set_permissions(&socket, std::fs::Permissions::from_mode(0o660))?;
    let gid = std::fs::metadata(data_dir)?.gid();
    if std::fs::metadata(&socket)?.gid() != gid {
        // Not ours to give (a daemon not in the folder's group): owner only, then.
        if let Err(e) = std::os::unix::fs::chown(&socket, None, Some(gid)) {
            tracing::warn!(
                "{}: cannot give it the data folder's group: {e}",
                socket.display()
            );
        }
    }
    let (tx, rx) = tokio::sync::mpsc::channel(16);
    tokio::spawn(async move {
        loop {
            match listener.accept().await {
                Ok((stream, _)) => {
                    tokio::spawn(serve_one(stream, tx.clone()));
                }
                Err(e) => {
                    tracing::warn!("admin socket: {e}");
                    tokio::time::sleep(std::time::Duration::from_millis(200)).await;
                }
            }
        }
    });
    Ok(rx)
}

/// One connection: its request read whole, handed to the loop, the answer written back.
async fn serve_one(mut stream: tokio::net::UnixStream, jobs: tokio::sync::mpsc::Sender<Job>) {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let mut body = Vec::new();
    if let Err(e) = (&mut stream).take(MAX_REQUEST).read_to_end(&mut body).await {
        tracing::warn!("admin socket: {e}");
        return;
    }
    let answer = match serde_json::from_slice::<Request>(&body) {
        Ok(request) => {
            let (reply, answered) = tokio::sync::oneshot::channel();
            if jobs.send(Job { request, reply }).await.is_err() {
                return;
            }
            match answered.await {
                Ok(a) => a,
                Err(_) => return,
            }
        }
        Err(e) => Answer {
            note: format!("castellan: a request that does not read: {e}\n"),
            code: crate::error::EX_USAGE,
            ..Answer::default()
        },
    };
    let bytes = serde_json::to_vec(&answer).unwrap_or_default();
    let _ = stream.write_all(&bytes).await;
    let _ = stream.shutdown().await;
}
