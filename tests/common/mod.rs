//! Helpers for the end-to-end tests on real mail servers (no mocks): the servers of
//! scripts/mail-servers.sh (aiosmtpd delivering into Maildirs, dovecot serving them over
//! IMAP) on 127.0.0.1, the real `castellan` binary configured for IMAP in and SMTP out,
//! players who write by SMTP, and their mailboxes read from disk.
//!
//! If the servers cannot start, the tests FAIL with the reason (never skip): run
//! scripts/install-test-deps.sh.

#![allow(dead_code)]

use castellan::config::Config;
use castellan::serve::env::system_clock;
use castellan::serve::service::Service;
use castellan_judge::{GameRecord, Status, Store};
use castellan_mail::{ImapInbox, Inbound};
use std::io::{BufRead, BufReader, Write};
use std::net::TcpStream;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::time::Duration;

/// The judge's address in every test.
pub const JUDGE: &str = "judge@castellan.test";
/// Password of every mailbox on the test servers.
pub const MAIL_PASSWORD: &str = "secret";

pub fn address(user: &str) -> String {
    format!("{user}@castellan.test")
}

fn repo() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

fn script() -> PathBuf {
    repo().join("scripts/mail-servers.sh")
}

/// The SMTP and IMAP servers, stopped when dropped (also when a test panics).
pub struct Servers {
    pub dir: tempfile::TempDir,
    pub smtp_port: u16,
    pub imap_port: u16,
    /// IMAP with TLS from the first byte, STARTTLS-only SMTP, and the throwaway CA that
    /// signed both servers' certificate.
    pub imaps_port: u16,
    pub smtp_starttls_port: u16,
    pub ca_file: PathBuf,
}

impl Servers {
    pub fn start() -> Servers {
        // dovecot reads the Maildirs as nobody: the folder must not be under /root.
        let dir = tempfile::Builder::new()
            .prefix("castellan-e2e-")
            .tempdir_in("/tmp")
            .expect("temp dir under /tmp");
        let out = Command::new("bash")
            .arg(script())
            .arg("start")
            .arg(dir.path())
            .output()
            .unwrap_or_else(|e| panic!("cannot run {}: {e}", script().display()));
        if !out.status.success() {
            // Stop whatever half started before failing.
            let _ = Command::new("bash")
                .arg(script())
                .arg("stop")
                .arg(dir.path())
                .output();
            panic!(
                "the test mail servers did not start ({}).\n\
                 Install them with: scripts/install-test-deps.sh (as root, Debian 12)\n\
                 stdout: {}\nstderr: {}",
                out.status,
                String::from_utf8_lossy(&out.stdout),
                String::from_utf8_lossy(&out.stderr)
            );
        }
        let env = std::fs::read_to_string(dir.path().join("ports.env")).expect("ports.env");
        let port = |key: &str| -> u16 {
            env.lines()
                .find_map(|l| l.strip_prefix(&format!("{key}=")))
                .and_then(|v| v.trim().parse().ok())
                .unwrap_or_else(|| panic!("{key} missing in ports.env: {env}"))
        };
        let ca_file = env
            .lines()
            .find_map(|l| l.strip_prefix("CA_FILE="))
            .map(|v| PathBuf::from(v.trim()))
            .unwrap_or_else(|| panic!("CA_FILE missing in ports.env: {env}"));
        Servers {
            smtp_port: port("SMTP_PORT"),
            imap_port: port("IMAP_PORT"),
            imaps_port: port("IMAPS_PORT"),
            smtp_starttls_port: port("SMTP_STARTTLS_PORT"),
            ca_file,
            dir,
        }
    }

    pub fn maildir(&self, user: &str) -> PathBuf {
        self.dir.path().join("mail").join(user).join("Maildir")
    }
}

impl Drop for Servers {
    fn drop(&mut self) {
        let _ = Command::new("bash")
            .arg(script())
            .arg("stop")
            .arg(self.dir.path())
            .output();
    }
}

/// One SMTP reply: reads continuation lines ("250-...") up to the last ("250 ...") and
/// checks the code.
fn smtp_expect(r: &mut impl BufRead, code: u16, after: &str) -> String {
    let mut all = String::new();
    loop {
        let mut line = String::new();
        let n = r
            .read_line(&mut line)
            .unwrap_or_else(|e| panic!("SMTP: no answer after {after}: {e}"));
        assert!(
            n > 0,
            "SMTP: connection closed after {after}; so far: {all}"
        );
        all.push_str(&line);
        if line.len() < 4 || line.as_bytes()[3] != b'-' {
            break;
        }
    }
    let got: u16 = all.get(..3).and_then(|c| c.parse().ok()).unwrap_or(0);
    assert_eq!(
        got, code,
        "SMTP: after {after} the server said {all:?}, expected {code}"
    );
    all
}

/// Sends `raw` (a whole RFC 5322 message, lines ending in \r\n or \n) by a plain SMTP
/// dialogue, as a mail client would. Returns once the server accepted it: the test SMTP
/// server has then written it into the recipient's Maildir.
pub fn smtp_send(port: u16, mail_from: &str, rcpt: &str, raw: &str) {
    let stream = TcpStream::connect(("127.0.0.1", port))
        .unwrap_or_else(|e| panic!("SMTP connect to 127.0.0.1:{port}: {e}"));
    stream
        .set_read_timeout(Some(Duration::from_secs(20)))
        .unwrap();
    let mut r = BufReader::new(stream.try_clone().unwrap());
    let mut w = stream;
    smtp_expect(&mut r, 220, "connect");
    let mut cmd = |line: &str, code: u16| {
        w.write_all(format!("{line}\r\n").as_bytes()).unwrap();
        smtp_expect(&mut r, code, line)
    };
    cmd("EHLO client.castellan.test", 250);
    cmd(&format!("MAIL FROM:<{mail_from}>"), 250);
    cmd(&format!("RCPT TO:<{rcpt}>"), 250);
    cmd("DATA", 354);
    // the message, dot-stuffed, then "." alone on a line
    let mut data = String::new();
    for line in raw.replace("\r\n", "\n").trim_end_matches('\n').split('\n') {
        if line.starts_with('.') {
            data.push('.');
        }
        data.push_str(line);
        data.push_str("\r\n");
    }
    data.push('.');
    cmd(&data, 250);
    cmd("QUIT", 221);
}

/// A plain-text mail from `user@castellan.test` to the judge. `extra` headers come
/// before the MIME headers, one per entry ("In-Reply-To: <x>").
pub fn letter(user: &str, message_id: &str, subject: &str, extra: &[String], body: &str) -> String {
    mail_with(
        user,
        message_id,
        subject,
        extra,
        "text/plain; charset=utf-8",
        body,
    )
}

pub fn mail_with(
    user: &str,
    message_id: &str,
    subject: &str,
    extra: &[String],
    content_type: &str,
    body: &str,
) -> String {
    let mut m = format!(
        "From: {} <{}>\r\nTo: {JUDGE}\r\nSubject: {subject}\r\nMessage-ID: {message_id}\r\n\
         Date: Mon, 23 Nov 2026 10:00:00 +0000\r\n",
        capitalise(user),
        address(user)
    );
    for h in extra {
        m.push_str(h);
        m.push_str("\r\n");
    }
    m.push_str(&format!(
        "MIME-Version: 1.0\r\nContent-Type: {content_type}\r\nContent-Transfer-Encoding: 8bit\r\n\r\n"
    ));
    m.push_str(&body.replace('\n', "\r\n"));
    if !m.ends_with("\r\n") {
        m.push_str("\r\n");
    }
    m
}

fn capitalise(s: &str) -> String {
    let mut c = s.chars();
    match c.next() {
        Some(f) => f.to_uppercase().chain(c).collect(),
        None => String::new(),
    }
}

/// One mail found in a player's Maildir.
#[derive(Debug, Clone)]
pub struct Got {
    pub path: PathBuf,
    pub mail: Inbound,
}

impl Got {
    /// Delivery order: the test SMTP server names each file `SECONDS.PpidQcounter.host`.
    pub fn delivered(&self) -> (u64, u64) {
        let name = self
            .path
            .file_name()
            .and_then(|n| n.to_str())
            .unwrap_or_default();
        let secs = name.split('.').next().and_then(|s| s.parse().ok());
        let counter = name
            .split('Q')
            .nth(1)
            .and_then(|s| s.split('.').next())
            .and_then(|s| s.parse().ok());
        (secs.unwrap_or(0), counter.unwrap_or(0))
    }
}

/// The real judge: a config file (IMAP in, SMTP out), a data dir, the real binary.
pub struct World {
    pub servers: Servers,
    pub data: tempfile::TempDir,
    pub config_path: PathBuf,
    sent: usize,
    label: String,
}

impl World {
    /// Servers up, config written. `label` keeps the Message-IDs of tests apart.
    pub fn new(label: &str) -> World {
        World::with(label, false)
    }

    /// Like [`World::new`], but the judge reads over IMAPS and sends over STARTTLS, trusting
    /// the servers' private CA through `ca_file` (players still use the plain SMTP port).
    pub fn new_tls(label: &str) -> World {
        World::with(label, true)
    }

    fn with(label: &str, tls: bool) -> World {
        let servers = Servers::start();
        let data = tempfile::Builder::new()
            .prefix("castellan-e2e-data-")
            .tempdir()
            .expect("temp dir");
        let config_path = data.path().join("castellan.yaml");
        // rate_limit_per_hour: a whole game by mail sends far more than 30 mails an hour
        // from one player; the limit has tests of its own in crates/judge.
        let yaml = format!(
            "data_dir: {data}\n\
             templates_dir: {templates}\n\
             inbound:\n  kind: imap\n  imap:\n    host: 127.0.0.1\n    port: {imap}\n    \
             tls: {tls}\n    ca_file: {ca}\n    user: judge\n    password: {MAIL_PASSWORD}\n    mailbox: INBOX\n    \
             poll_seconds: 1\n\
             outbound:\n  kind: smtp\n  smtp:\n    host: 127.0.0.1\n    port: {smtp}\n    \
             security: {security}\n    ca_file: {ca}\n\
             judge:\n  address: {JUDGE}\n  domain: castellan.test\n  rate_limit_per_hour: 100000\n",
            data = data.path().join("judge").display(),
            templates = repo().join("templates").display(),
            imap = if tls { servers.imaps_port } else { servers.imap_port },
            smtp = if tls { servers.smtp_starttls_port } else { servers.smtp_port },
            security = if tls { "starttls" } else { "none" },
            ca = if tls { servers.ca_file.display().to_string() } else { "null".to_string() },
        );
        std::fs::write(&config_path, yaml).unwrap();
        World {
            servers,
            data,
            config_path,
            sent: 0,
            label: label.to_string(),
        }
    }

    /// Runs the real binary with this world's config; `env` adds variables.
    pub fn castellan(&self, args: &[&str], env: &[(&str, &str)]) -> Output {
        let mut c = Command::new(env!("CARGO_BIN_EXE_castellan"));
        c.arg("--config").arg(&self.config_path).args(args);
        c.env_remove("CASTELLAN_FAULT");
        c.env("CASTELLAN_LOG", "warn");
        for (k, v) in env {
            c.env(k, v);
        }
        c.output().expect("run castellan")
    }

    /// Runs the binary and fails the test unless it exits 0. Returns stdout.
    pub fn castellan_ok(&self, args: &[&str]) -> String {
        let out = self.castellan(args, &[]);
        assert!(
            out.status.success(),
            "castellan {args:?} failed ({}):\nstdout: {}\nstderr: {}",
            out.status,
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        );
        String::from_utf8_lossy(&out.stdout).into_owned()
    }

    /// The real daemon (`serve`, polling every second), killed when the guard drops.
    pub fn spawn_daemon(&self) -> Daemon {
        let log = std::fs::File::create(self.data.path().join("daemon.log")).unwrap();
        let child = Command::new(env!("CARGO_BIN_EXE_castellan"))
            .arg("--config")
            .arg(&self.config_path)
            .arg("serve")
            .env_remove("CASTELLAN_FAULT")
            .env("CASTELLAN_LOG", "info")
            .stdin(std::process::Stdio::null())
            .stdout(std::process::Stdio::null())
            .stderr(log)
            .spawn()
            .expect("start castellan serve");
        Daemon {
            child,
            log: self.data.path().join("daemon.log"),
        }
    }

    /// Waits (20 s at most) until `user` holds an answer to `message_id`.
    pub fn wait_answer(&self, user: &str, message_id: &str) -> Vec<Got> {
        let start = std::time::Instant::now();
        loop {
            let got = self.answers(user, message_id);
            if !got.is_empty() || start.elapsed() > Duration::from_secs(20) {
                return got;
            }
            std::thread::sleep(Duration::from_millis(100));
        }
    }

    /// One pass of the real daemon: IMAP inbox, deadlines, SMTP outbox.
    pub fn serve_once(&self) -> String {
        self.castellan_ok(&["serve", "--once"])
    }

    /// `castellan game new` with named players (Name=user@castellan.test) and gm@; returns
    /// the game id.
    pub fn new_game(&self, game: &str, users: &[&str]) -> String {
        let mut args = vec![
            "game".to_string(),
            "new".into(),
            "--game".into(),
            game.into(),
        ];
        for u in users {
            args.push("--player".into());
            args.push(format!("{}={}", capitalise(u), address(u)));
        }
        args.push("--gm".into());
        args.push(address("gm"));
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        let out = self.castellan_ok(&args);
        out.lines()
            .find_map(|l| l.strip_prefix("created "))
            .map(|s| s.trim().to_string())
            .unwrap_or_else(|| panic!("game new said: {out}"))
    }

    /// The judge's database, opened between two runs of the binary (which holds it only
    /// while it runs). Drop it before running the binary again.
    pub fn service(&self) -> Service {
        let config = Config::load(&self.config_path, true).unwrap();
        Service::open(config, system_clock()).unwrap()
    }

    pub fn record(&self, game: &str) -> GameRecord {
        let svc = self.service();
        let rec = svc.store.game_header(game).unwrap();
        rec.unwrap_or_else(|| panic!("no game {game}"))
    }

    /// A fresh Message-ID for a player's mail.
    pub fn next_message_id(&mut self) -> String {
        self.sent += 1;
        format!("<{}-{}@client.castellan.test>", self.label, self.sent)
    }

    /// `user` sends `raw` to the judge by SMTP.
    pub fn send_raw(&self, user: &str, raw: &str) {
        smtp_send(self.servers.smtp_port, &address(user), JUDGE, raw);
    }

    /// Every mail in `user`'s Maildir (new/ and cur/), parsed as the judge parses mail.
    pub fn mailbox(&self, user: &str) -> Vec<Got> {
        let base = self.servers.maildir(user);
        let mut paths = Vec::new();
        for sub in ["new", "cur"] {
            if let Ok(rd) = std::fs::read_dir(base.join(sub)) {
                paths.extend(rd.filter_map(|e| e.ok().map(|e| e.path())));
            }
        }
        paths.sort();
        paths
            .into_iter()
            .map(|p| {
                let raw = std::fs::read(&p).unwrap();
                let mail = castellan_mail::parse(&raw, usize::MAX)
                    .unwrap_or_else(|e| panic!("{}: {e}", p.display()));
                Got { path: p, mail }
            })
            .collect()
    }

    /// The mails in `user`'s Maildir that answer `message_id` (In-Reply-To).
    pub fn answers(&self, user: &str, message_id: &str) -> Vec<Got> {
        self.mailbox(user)
            .into_iter()
            .filter(|g| g.mail.in_reply_to.as_deref() == Some(message_id))
            .collect()
    }

    /// How many mails each of these users holds.
    pub fn counts(&self, users: &[&str]) -> Vec<usize> {
        users.iter().map(|u| self.mailbox(u).len()).collect()
    }

    /// (game id, password) from `user`'s welcome mail.
    pub fn password(&self, user: &str, game: &str) -> String {
        self.mailbox(user)
            .iter()
            .filter_map(|g| welcome_password(&g.mail.body))
            .find(|(id, _)| id == game)
            .map(|(_, pw)| pw)
            .unwrap_or_else(|| panic!("no welcome mail for {game} in {user}'s Maildir"))
    }

    /// Runs `f` on a fresh IMAP session as the judge (for flags and unseen mail).
    pub fn judge_imap<T>(&self, f: impl AsyncFnOnce(&mut ImapInbox) -> T) -> T {
        let rt = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .unwrap();
        rt.block_on(async {
            let mut inbox = ImapInbox::connect(
                "127.0.0.1",
                self.servers.imap_port,
                &castellan_mail::ImapTls::None,
                "judge",
                MAIL_PASSWORD,
                "INBOX",
            )
            .await
            .expect("IMAP login as judge");
            let r = f(&mut inbox).await;
            let _ = inbox.logout().await;
            r
        })
    }

    /// The judge's unseen messages, as (uid, Message-ID).
    pub fn judge_unseen(&self) -> Vec<(u32, String)> {
        self.judge_imap(async |inbox: &mut ImapInbox| {
            inbox
                .fetch_unseen()
                .await
                .expect("fetch unseen")
                .into_iter()
                .map(|(uid, raw)| {
                    let m = castellan_mail::parse(&raw, usize::MAX).expect("parse");
                    (uid, m.message_id)
                })
                .collect()
        })
    }
}

/// Where a game stands: its history length, status, the seats it awaits that a person
/// holds (each with the whole turn its bot would send), and the session's JSON.
pub struct Turn {
    pub history: usize,
    pub status: Status,
    pub orders: Vec<(usize, Vec<String>)>,
    pub table: Option<serde_json::Value>,
}

/// Reads the game from the database: the seats it awaits and, for each seat a person
/// holds, the orders its bot would send (a whole turn in one mail).
pub fn turn(svc: &Service, game: &str) -> Turn {
    let rec = svc.store.game(game).unwrap().expect("game");
    let Some(table) = rec.table.clone() else {
        return Turn {
            history: 0,
            status: rec.status,
            orders: Vec::new(),
            table: None,
        };
    };
    let info = castellan::games::find(&rec.game).expect("known game");
    let session = (info.load)(table.clone()).expect("load the session");
    let orders = if rec.status == Status::Running {
        session
            .awaiting()
            .into_iter()
            .filter(|&s| {
                rec.seats
                    .get(s)
                    .is_some_and(|r| !r.bot && r.address.is_some())
            })
            .map(|s| (s, session.bot_turn(s, 500)))
            .collect()
    } else {
        Vec::new()
    };
    Turn {
        history: session.history_len(),
        status: rec.status,
        orders,
        table: Some(session.to_json().expect("the session's JSON")),
    }
}

/// The local part of a seat's address ("alice").
pub fn seat_user(rec: &GameRecord, seat: usize) -> String {
    let a = rec.seats[seat].address.clone().expect("seat taken");
    a.split('@').next().unwrap().to_string()
}

/// A running `castellan serve`; killed (by its own pid) if still running when dropped.
pub struct Daemon {
    pub child: std::process::Child,
    pub log: PathBuf,
}

impl Daemon {
    pub fn log(&self) -> String {
        std::fs::read_to_string(&self.log).unwrap_or_default()
    }

    /// Sends `signal` ("TERM", "INT") and waits (15 s at most) for the exit status.
    pub fn stop_with(&mut self, signal: &str) -> Option<std::process::ExitStatus> {
        let pid = self.child.id().to_string();
        let ok = Command::new("kill")
            .arg(format!("-{signal}"))
            .arg(&pid)
            .status()
            .expect("run kill");
        assert!(ok.success(), "kill -{signal} {pid} failed");
        let start = std::time::Instant::now();
        while start.elapsed() < Duration::from_secs(15) {
            if let Some(status) = self.child.try_wait().expect("wait") {
                return Some(status);
            }
            std::thread::sleep(Duration::from_millis(50));
        }
        None
    }
}

impl Drop for Daemon {
    fn drop(&mut self) {
        if let Ok(None) = self.child.try_wait() {
            let _ = self.child.kill();
            let _ = self.child.wait();
        }
    }
}

/// (game id, password) from a welcome mail's body, read as a person reads it: the tests
/// that stand for people typing their password use it; programs read headers instead.
pub fn welcome_password(body: &str) -> Option<(String, String)> {
    let pw = body
        .lines()
        .find_map(|l| l.trim().strip_prefix("Your password:"))?
        .trim()
        .to_string();
    // "Bot1, you are seat 1 in castle-1 (castle-risk)."
    let first = body.lines().find(|l| l.contains(", you are "))?;
    let after = first.split(" in ").nth(1)?;
    let game = after.split_whitespace().next()?.to_string();
    Some((game, pw))
}
