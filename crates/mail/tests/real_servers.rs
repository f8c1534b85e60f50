//! End to end on real servers (no mocks): scripts/mail-servers.sh starts an SMTP server
//! (aiosmtpd delivering into Maildirs) and dovecot (IMAP) on 127.0.0.1 in a temp dir.
//! Alice's mail goes in over SMTP with `Transport::Smtp`, the judge reads it over IMAP with
//! `ImapInbox` (fetching sets no `\Seen`; `mark_seen` does), IDLE wakes up on new mail, and
//! the judge's reply lands in Alice's own Maildir.
//!
//! If the servers cannot start, this FAILS (never skips): run scripts/install-test-deps.sh.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

use castellan_mail::{parse, ImapError, ImapInbox, Maildir, OutgoingMail, SmtpSecurity, Transport};

struct Servers {
    dir: tempfile::TempDir,
    smtp_port: u16,
    imap_port: u16,
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
        let port = |key: &str| -> u16 {
            env.lines()
                .find_map(|l| l.strip_prefix(&format!("{key}=")))
                .and_then(|v| v.trim().parse().ok())
                .unwrap_or_else(|| panic!("{key} missing in ports.env: {env}"))
        };
        Servers {
            smtp_port: port("SMTP_PORT"),
            imap_port: port("IMAP_PORT"),
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
        }
    }

    async fn imap(&self, user: &str) -> ImapInbox {
        ImapInbox::connect("127.0.0.1", self.imap_port, false, user, "secret", "INBOX")
            .await
            .unwrap_or_else(|e| panic!("IMAP login as {user}: {e}"))
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
        message_id: "<orders-1@example.org>".into(),
        from: "Alice Martin <alice@example.org>".into(),
        to: "judge+tok-7f3a@castellan.test".into(),
        subject: "[castle-7] orders, à vous".into(),
        body: "PLACE 3 Poland\nATTACK Livonia FROM Poland UNTIL CONQUERED\nEND TURN\n".into(),
        in_reply_to: Some("<turn-1.castle-7@castellan.test>".into()),
        references: vec!["<turn-1.castle-7@castellan.test>".into()],
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
    };
    servers
        .smtp()
        .send(&reply, date + 60)
        .await
        .expect("SMTP reply");
    let alice = Maildir::open(servers.maildir("alice")).unwrap();
    let start = Instant::now();
    let mut delivered = alice.list_new().unwrap();
    while delivered.is_empty() && start.elapsed() < Duration::from_secs(15) {
        tokio::time::sleep(Duration::from_millis(100)).await;
        delivered = alice.list_new().unwrap();
    }
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
        false,
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
        false,
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
    };
    let err = down.send(&orders_mail(), 0).await.unwrap_err();
    assert!(err.is_transient(), "{err}");
}
