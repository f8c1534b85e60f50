//! End to end on real servers (no mocks): scripts/mail-servers.sh starts an SMTP server
//! (aiosmtpd delivering into Maildirs) and dovecot (IMAP) on 127.0.0.1 in a temp dir.
//! Alice's mail goes in over SMTP with `Transport::Smtp`, the judge reads it over IMAP with
//! `ImapInbox` (fetching sets no `\Seen`; `mark_seen` does), IDLE wakes up on new mail, and
//! the judge's reply lands in Alice's own Maildir.
//!
//! TLS, on the same servers: IMAPS, SMTP with STARTTLS required and SMTP over TLS, with a
//! certificate for 127.0.0.1 / localhost signed by a throwaway CA the script makes at each
//! start. Trusting that CA's file, every one of them works; without it, each is refused with
//! a certificate error that says so (for SMTP a permanent one: it will not fix itself).
//!
//! If the servers cannot start, this FAILS (never skips): run scripts/install-test-deps.sh.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

use castellan_mail::{
    parse, ImapError, ImapInbox, ImapTls, Maildir, OutgoingMail, SmtpSecurity, Transport,
};

struct Servers {
    dir: tempfile::TempDir,
    smtp_port: u16,
    smtp_starttls_port: u16,
    smtps_port: u16,
    imap_port: u16,
    imaps_port: u16,
    /// The throwaway CA that signed the servers' certificate (PEM).
    ca_file: PathBuf,
}

fn script() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../scripts/mail-servers.sh")
}

impl Servers {
    fn start() -> Servers {
        let dir = tempfile::Builder::new()
            .prefix("castellan-mail-")
            .tempdir()
            .expect("temp dir");
        let out = Command::new("bash")
            .arg(script())
            .arg("start")
            .arg(dir.path())
            .output()
            .unwrap_or_else(|e| panic!("cannot run {}: {e}", script().display()));
        if !out.status.success() {
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
        let value = |key: &str| -> String {
            env.lines()
                .find_map(|l| l.strip_prefix(&format!("{key}=")))
                .map(|v| v.trim().to_string())
                .unwrap_or_else(|| panic!("{key} missing in ports.env: {env}"))
        };
        let port = |key: &str| -> u16 {
            value(key)
                .parse()
                .unwrap_or_else(|e| panic!("{key} in ports.env: {e}"))
        };
        let ca_file = PathBuf::from(value("CA_FILE"));
        assert!(
            ca_file.is_file(),
            "CA_FILE {} is missing",
            ca_file.display()
        );
        Servers {
            smtp_port: port("SMTP_PORT"),
            smtp_starttls_port: port("SMTP_STARTTLS_PORT"),
            smtps_port: port("SMTPS_PORT"),
            imap_port: port("IMAP_PORT"),
            imaps_port: port("IMAPS_PORT"),
            ca_file,
            dir,
        }
    }

    fn smtp(&self) -> Transport {
        Transport::Smtp {
            host: "127.0.0.1".into(),
            port: self.smtp_port,
            security: SmtpSecurity::None,
            user: None,
            password: None,
            ca_file: None,
            timeout: std::time::Duration::from_secs(60),
        }
    }

    /// SMTP with TLS (`StartTls` on the port that requires it, `Tls` on the SMTPS port) to
    /// `host` (127.0.0.1 or localhost, both in the certificate), trusting `ca_file`.
    fn smtp_tls(&self, host: &str, security: SmtpSecurity, ca_file: Option<PathBuf>) -> Transport {
        Transport::Smtp {
            host: host.into(),
            port: match security {
                SmtpSecurity::StartTls => self.smtp_starttls_port,
                SmtpSecurity::Tls => self.smtps_port,
                SmtpSecurity::None => panic!("smtp_tls is for TLS"),
            },
            security,
            user: None,
            password: None,
            ca_file,
            timeout: std::time::Duration::from_secs(60),
        }
    }

    async fn imap(&self, user: &str) -> ImapInbox {
        ImapInbox::connect(
            "127.0.0.1",
            self.imap_port,
            &ImapTls::None,
            user,
            "secret",
            "INBOX",
        )
        .await
        .unwrap_or_else(|e| panic!("IMAP login as {user}: {e}"))
    }

    /// IMAP over TLS from the first byte, to `host`, as the judge.
    async fn imaps(&self, host: &str, tls: &ImapTls) -> Result<ImapInbox, ImapError> {
        ImapInbox::connect(host, self.imaps_port, tls, "judge", "secret", "INBOX").await
    }

    fn maildir(&self, user: &str) -> PathBuf {
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

/// Waits until `n` messages are in `user`'s Maildir new/ (delivery is asynchronous), 15 s
/// at most, then returns what is there.
async fn wait_delivered(servers: &Servers, user: &str, n: usize) -> Vec<PathBuf> {
    let maildir = Maildir::open(servers.maildir(user)).unwrap();
    let start = Instant::now();
    loop {
        let got = maildir.list_new().unwrap();
        if got.len() >= n || start.elapsed() > Duration::from_secs(15) {
            return got;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

/// Fetches until `n` unseen messages are there (delivery is asynchronous), 15 s at most.
async fn wait_unseen(inbox: &mut ImapInbox, n: usize) -> Vec<(u32, Vec<u8>)> {
    let start = Instant::now();
    loop {
        let got = inbox.fetch_unseen().await.expect("fetch_unseen");
        if got.len() >= n || start.elapsed() > Duration::from_secs(15) {
            return got;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

fn orders_mail() -> OutgoingMail {
    OutgoingMail {
        html: None,
        headers: Vec::new(),
        message_id: "<orders-1@example.org>".into(),
        from: "Alice Martin <alice@example.org>".into(),
        to: "judge+tok-7f3a@castellan.test".into(),
        subject: "[castle-7] orders, à vous".into(),
        body: "PLACE 3 Poland\nATTACK Livonia FROM Poland UNTIL CONQUERED\nEND TURN\n".into(),
        in_reply_to: Some("<turn-1.castle-7@castellan.test>".into()),
        references: vec!["<turn-1.castle-7@castellan.test>".into()],
        attachments: Vec::new(),
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn smtp_in_imap_read_reply_out() {
    let servers = Servers::start();
    let date = 1_772_528_400;

    // Alice writes to the judge (plus-addressed token) over SMTP.
    servers
        .smtp()
        .send(&orders_mail(), date)
        .await
        .expect("SMTP send as alice");

    // The judge reads it over IMAP.
    let mut judge = servers.imap("judge").await;
    let got = wait_unseen(&mut judge, 1).await;
    assert_eq!(
        got.len(),
        1,
        "alice's mail did not reach the judge's IMAP inbox"
    );
    let (uid, raw) = &got[0];
    let mail = parse(raw, 64 * 1024).expect("parse");
    assert_eq!(mail.message_id, "<orders-1@example.org>");
    assert_eq!(mail.from, "alice@example.org");
    assert_eq!(mail.from_name.as_deref(), Some("Alice Martin"));
    assert!(
        mail.to
            .contains(&"judge+tok-7f3a@castellan.test".to_string()),
        "{:?}",
        mail.to
    );
    assert_eq!(mail.subject, "[castle-7] orders, à vous");
    assert_eq!(
        mail.body,
        "PLACE 3 Poland\nATTACK Livonia FROM Poland UNTIL CONQUERED\nEND TURN"
    );
    assert_eq!(
        mail.in_reply_to.as_deref(),
        Some("<turn-1.castle-7@castellan.test>")
    );

    // Fetching set no flag: the message is still unseen, and fetched again.
    let flags = judge.flags(*uid).await.unwrap();
    assert!(
        !flags.iter().any(|f| f.contains("Seen")),
        "fetch set \\Seen: {flags:?}"
    );
    let again = judge.fetch_unseen().await.unwrap();
    assert_eq!(again.len(), 1);
    assert_eq!(&again[0].1, raw);

    // After the (simulated) commit the judge marks it seen: no longer unseen, even for a new
    // session.
    judge.mark_seen(*uid).await.unwrap();
    let flags = judge.flags(*uid).await.unwrap();
    assert!(
        flags.iter().any(|f| f.contains("Seen")),
        "mark_seen did not set \\Seen: {flags:?}"
    );
    assert!(judge.fetch_unseen().await.unwrap().is_empty());
    let mut other_session = servers.imap("judge").await;
    assert!(other_session.fetch_unseen().await.unwrap().is_empty());
    other_session.logout().await.unwrap();

    // The judge answers over SMTP; the reply lands in alice's own Maildir, threaded.
    let reply = OutgoingMail {
        html: None,
        headers: Vec::new(),
        message_id: "<turn-2.castle-7.alice@castellan.test>".into(),
        from: "Castellan <judge@castellan.test>".into(),
        to: mail.from.clone(),
        subject: "[castle-7] Turn 2: Blue to move".into(),
        body: "Orders accepted.\nLivonia conquered.\n".into(),
        in_reply_to: Some(mail.message_id.clone()),
        references: vec![
            "<turn-1.castle-7@castellan.test>".into(),
            mail.message_id.clone(),
        ],
        attachments: Vec::new(),
    };
    servers
        .smtp()
        .send(&reply, date + 60)
        .await
        .expect("SMTP reply");
    let alice = Maildir::open(servers.maildir("alice")).unwrap();
    let delivered = wait_delivered(&servers, "alice", 1).await;
    assert_eq!(
        delivered.len(),
        1,
        "the reply did not reach alice's Maildir"
    );
    let got = parse(&alice.read(&delivered[0]).unwrap(), 64 * 1024).unwrap();
    assert_eq!(got.message_id, "<turn-2.castle-7.alice@castellan.test>");
    assert_eq!(got.in_reply_to.as_deref(), Some("<orders-1@example.org>"));
    assert_eq!(
        got.references,
        ["<turn-1.castle-7@castellan.test>", "<orders-1@example.org>"]
    );
    assert_eq!(got.body, "Orders accepted.\nLivonia conquered.");
    // our own replies say they are automatic, so no robot (nor another judge) answers them
    assert_eq!(
        got.automatic.as_deref(),
        Some("Auto-Submitted: auto-replied")
    );

    // Alice sees it over IMAP too.
    let mut alice_imap = servers.imap("alice").await;
    assert_eq!(wait_unseen(&mut alice_imap, 1).await.len(), 1);
    alice_imap.logout().await.unwrap();

    judge.logout().await.unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn idle_wakes_up_on_new_mail_and_times_out_without() {
    let servers = Servers::start();
    let mut judge = servers.imap("judge").await;

    // nothing arrives: IDLE returns false after its timeout
    let t = Instant::now();
    assert!(!judge.idle_wait(Duration::from_millis(700)).await.unwrap());
    assert!(t.elapsed() >= Duration::from_millis(600));

    // a mail arrives while idling: IDLE wakes up well before its timeout
    let smtp = servers.smtp();
    let sender = async {
        tokio::time::sleep(Duration::from_millis(500)).await;
        smtp.send(&orders_mail(), 0).await.expect("send");
    };
    let t = Instant::now();
    let (woke, ()) = tokio::join!(judge.idle_wait(Duration::from_secs(20)), sender);
    assert!(woke.unwrap(), "IDLE did not report the new mail");
    assert!(t.elapsed() < Duration::from_secs(15));
    assert_eq!(wait_unseen(&mut judge, 1).await.len(), 1);
    judge.logout().await.unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn wrong_password_and_unreachable_server_are_errors() {
    let servers = Servers::start();
    let err = ImapInbox::connect(
        "127.0.0.1",
        servers.imap_port,
        &ImapTls::None,
        "judge",
        "wrong",
        "INBOX",
    )
    .await
    .unwrap_err();
    assert!(matches!(err, ImapError::Login(..)), "{err}");
    let err = ImapInbox::connect(
        "127.0.0.1",
        servers.imap_port,
        &ImapTls::None,
        "judge",
        "secret",
        "NoSuchBox",
    )
    .await
    .unwrap_err();
    assert!(matches!(err, ImapError::Select(..)), "{err}");
    // SMTP down: a transient error (the outbox retries later)
    let port = servers.smtp_port;
    drop(servers);
    let down = Transport::Smtp {
        host: "127.0.0.1".into(),
        port,
        security: SmtpSecurity::None,
        user: None,
        password: None,
        ca_file: None,
        timeout: std::time::Duration::from_secs(60),
    };
    let err = down.send(&orders_mail(), 0).await.unwrap_err();
    assert!(err.is_transient(), "{err}");
}

// ---- TLS -------------------------------------------------------------------------------

/// The wording of a refused certificate: says it is the certificate, why, and what to do.
fn assert_says_untrusted(err: &str) {
    assert!(
        err.contains("certificate is not trusted")
            && err.contains("UnknownIssuer")
            && err.contains("ca_file"),
        "not a clear certificate error: {err}"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn imaps_trusting_the_ca_file_fetches_and_marks_seen() {
    let servers = Servers::start();
    servers
        .smtp()
        .send(&orders_mail(), 0)
        .await
        .expect("SMTP send");
    let trust = ImapTls::with_ca_file(&servers.ca_file);
    let mut judge = servers
        .imaps("127.0.0.1", &trust)
        .await
        .unwrap_or_else(|e| panic!("IMAPS with the CA file: {e}"));
    let got = wait_unseen(&mut judge, 1).await;
    assert_eq!(got.len(), 1, "the mail did not reach the judge over IMAPS");
    let mail = parse(&got[0].1, 64 * 1024).unwrap();
    assert_eq!(mail.message_id, "<orders-1@example.org>");
    judge.mark_seen(got[0].0).await.unwrap();
    judge.logout().await.unwrap();

    // by name too (the certificate names DNS:localhost as well as IP:127.0.0.1): seen now
    let mut by_name = servers
        .imaps("localhost", &trust)
        .await
        .unwrap_or_else(|e| panic!("IMAPS to localhost with the CA file: {e}"));
    assert!(by_name.fetch_unseen().await.unwrap().is_empty());
    by_name.logout().await.unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn imaps_without_the_ca_file_is_a_certificate_error() {
    let servers = Servers::start();
    // the webpki roots alone do not know the throwaway CA
    let err = servers
        .imaps("127.0.0.1", &ImapTls::webpki())
        .await
        .unwrap_err();
    assert!(matches!(err, ImapError::Certificate(..)), "{err:?}");
    assert_says_untrusted(&err.to_string());
    assert!(err.to_string().contains("127.0.0.1"), "{err}");

    // a CA file that is not there: named, and no connection is tried
    let missing = servers.dir.path().join("tls/no-such-ca.pem");
    let err = servers
        .imaps("127.0.0.1", &ImapTls::with_ca_file(&missing))
        .await
        .unwrap_err();
    assert!(matches!(err, ImapError::CaFile(..)), "{err:?}");
    assert!(
        err.to_string()
            .contains(&format!("CA file {}", missing.display())),
        "{err}"
    );

    // the server's own key is no CA file either (no certificate in it)
    let key = servers.dir.path().join("tls/server.key");
    let err = servers
        .imaps("127.0.0.1", &ImapTls::with_ca_file(&key))
        .await
        .unwrap_err();
    assert!(
        matches!(err, ImapError::CaFile(..)) && err.to_string().contains("no certificate"),
        "{err:?}"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn smtp_starttls_trusting_the_ca_file_delivers() {
    let servers = Servers::start();

    // this port requires STARTTLS (plain text is refused), so what arrives came over TLS
    let plain_on_tls_port = Transport::Smtp {
        host: "127.0.0.1".into(),
        port: servers.smtp_starttls_port,
        security: SmtpSecurity::None,
        user: None,
        password: None,
        ca_file: None,
        timeout: std::time::Duration::from_secs(60),
    };
    let err = plain_on_tls_port.send(&orders_mail(), 0).await.unwrap_err();
    assert!(
        !err.is_transient() && err.to_string().contains("STARTTLS"),
        "{err}"
    );

    let reply = OutgoingMail {
        html: None,
        headers: Vec::new(),
        message_id: "<tls-reply-1@castellan.test>".into(),
        from: "Castellan <judge@castellan.test>".into(),
        to: "alice@example.org".into(),
        subject: "[castle-7] over STARTTLS".into(),
        body: "Orders accepted.\n".into(),
        in_reply_to: Some("<orders-1@example.org>".into()),
        references: vec!["<orders-1@example.org>".into()],
        attachments: Vec::new(),
    };
    servers
        .smtp_tls(
            "127.0.0.1",
            SmtpSecurity::StartTls,
            Some(servers.ca_file.clone()),
        )
        .send(&reply, 0)
        .await
        .unwrap_or_else(|e| panic!("SMTP STARTTLS with the CA file: {e}"));
    let delivered = wait_delivered(&servers, "alice", 1).await;
    assert_eq!(delivered.len(), 1, "the mail did not reach alice's Maildir");
    let alice = Maildir::open(servers.maildir("alice")).unwrap();
    let got = parse(&alice.read(&delivered[0]).unwrap(), 64 * 1024).unwrap();
    assert_eq!(got.message_id, "<tls-reply-1@castellan.test>");
    assert_eq!(got.body, "Orders accepted.");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn smtps_trusting_the_ca_file_delivers_by_name() {
    let servers = Servers::start();
    let mut reply = orders_mail();
    reply.to = "bob@example.org".into();
    servers
        .smtp_tls(
            "localhost",
            SmtpSecurity::Tls,
            Some(servers.ca_file.clone()),
        )
        .send(&reply, 0)
        .await
        .unwrap_or_else(|e| panic!("SMTP over TLS to localhost with the CA file: {e}"));
    let delivered = wait_delivered(&servers, "bob", 1).await;
    assert_eq!(delivered.len(), 1, "the mail did not reach bob's Maildir");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn smtp_tls_without_the_ca_file_is_a_permanent_certificate_error() {
    let servers = Servers::start();
    for security in [SmtpSecurity::StartTls, SmtpSecurity::Tls] {
        let err = servers
            .smtp_tls("127.0.0.1", security, None)
            .send(&orders_mail(), 0)
            .await
            .unwrap_err();
        // retrying will not make the certificate trusted: the outbox parks the mail
        assert!(!err.is_transient(), "{security:?}: {err}");
        assert_says_untrusted(&err.to_string());
    }
    // a CA file that is not there: permanent, named
    let missing = servers.dir.path().join("tls/no-such-ca.pem");
    let err = servers
        .smtp_tls("127.0.0.1", SmtpSecurity::StartTls, Some(missing.clone()))
        .send(&orders_mail(), 0)
        .await
        .unwrap_err();
    assert!(
        !err.is_transient()
            && err
                .to_string()
                .contains(&format!("CA file {}", missing.display())),
        "{err}"
    );
    // nothing was delivered
    tokio::time::sleep(Duration::from_millis(300)).await;
    assert!(Maildir::open(servers.maildir("judge"))
        .unwrap()
        .list_new()
        .unwrap()
        .is_empty());
}

/// The client port each delivered mail came from (the sink's `X-Sink-Peer` header).
fn peers(servers: &Servers, user: &str) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for dir in ["new", "cur"] {
        let Ok(rd) = std::fs::read_dir(servers.maildir(user).join(dir)) else {
            continue;
        };
        for e in rd.flatten() {
            let raw = std::fs::read_to_string(e.path()).unwrap_or_default();
            if let Some(p) = raw.lines().find_map(|l| l.strip_prefix("X-Sink-Peer: ")) {
                out.push(p.trim().to_string());
            }
        }
    }
    out.sort();
    out
}

/// A batch sent through one [`Transport::mailer`] shares one SMTP connection (and one
/// STARTTLS handshake); separate `send` calls each open their own. lettre hands a
/// connection back to its pool in a task of its own, so mails sent back to back may open a
/// second one; the short pause here lets the hand-back finish, which makes the count exact.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_mailer_sends_a_batch_over_one_connection() {
    let servers = Servers::start();
    let t = servers.smtp_tls(
        "127.0.0.1",
        SmtpSecurity::StartTls,
        Some(servers.ca_file.clone()),
    );
    let mail = |n: usize, to: &str| OutgoingMail {
        html: None,
        headers: Vec::new(),
        message_id: format!("<batch-{n}@castellan.test>"),
        from: "judge@castellan.test".into(),
        to: to.into(),
        subject: format!("batch {n}"),
        body: "x\n".into(),
        in_reply_to: None,
        references: vec![],
        attachments: Vec::new(),
    };
    let mut mailer = t.mailer();
    for n in 0..3 {
        mailer.send(&mail(n, "carol@example.org"), 0).await.unwrap();
        tokio::time::sleep(std::time::Duration::from_millis(50)).await;
    }
    drop(mailer);
    for n in 3..6 {
        t.send(&mail(n, "dave@example.org"), 0).await.unwrap();
    }
    wait_delivered(&servers, "carol", 3).await;
    wait_delivered(&servers, "dave", 3).await;
    let mut batch = peers(&servers, "carol");
    assert_eq!(batch.len(), 3);
    batch.dedup();
    assert_eq!(batch.len(), 1, "one connection for the batch: {batch:?}");
    let mut single = peers(&servers, "dave");
    single.dedup();
    assert_eq!(
        single.len(),
        3,
        "a connection per separate send: {single:?}"
    );
}
