//! "A slow relay never holds the inbox: sending runs apart from judging." `castellan
//! serve` with an SMTP relay that accepts the connection and never answers: a mail that
//! comes while the drain waits on the relay is judged and acknowledged before the relay's
//! timeout runs out; once the relay answers, every reply goes, each once.

use castellan::config::Config;
use castellan::play::players::{progress, MailPlayers};
use castellan::serve::env::system_clock;
use castellan::serve::service::Service;
use std::io::{BufRead, BufReader, Write};
use std::net::{TcpListener, TcpStream};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// The relay's timeout (`outbound.smtp.timeout_seconds`).
const TIMEOUT: Duration = Duration::from_secs(20);

/// A relay on 127.0.0.1: silent (it takes each connection and holds it, never a word)
/// until `answering` is set, then a plain SMTP server keeping the Message-ID of each
/// mail it accepts.
#[derive(Default)]
struct Relay {
    answering: AtomicBool,
    /// Connections taken while silent.
    held: AtomicUsize,
    /// When the first connection taken while silent was closed by the client.
    hung_up: Mutex<Option<Instant>>,
    /// The Message-IDs of the mails accepted, in order.
    got: Mutex<Vec<String>>,
}

impl Relay {
    fn start() -> (Arc<Relay>, u16) {
        let listener = TcpListener::bind("127.0.0.1:0").unwrap();
        let port = listener.local_addr().unwrap().port();
        let relay = Arc::new(Relay::default());
        let r = relay.clone();
        std::thread::spawn(move || {
            for c in listener.incoming() {
                let Ok(c) = c else { continue };
                let r = r.clone();
                std::thread::spawn(move || {
                    if r.answering.load(Ordering::SeqCst) {
                        let _ = r.answer(c);
                    } else {
                        r.held.fetch_add(1, Ordering::SeqCst);
                        r.hold(c);
                    }
                });
            }
        });
        (relay, port)
    }

    /// Silent until the client hangs up.
    fn hold(&self, c: TcpStream) {
        let mut buf = [0u8; 512];
        let mut c = c;
        while matches!(std::io::Read::read(&mut c, &mut buf), Ok(n) if n > 0) {}
        self.hung_up.lock().unwrap().get_or_insert(Instant::now());
    }

    /// A plain SMTP dialogue, every mail accepted.
    fn answer(&self, c: TcpStream) -> std::io::Result<()> {
        let mut w = c.try_clone()?;
        let mut r = BufReader::new(c);
        w.write_all(b"220 relay.test ESMTP\r\n")?;
        let mut line = String::new();
        loop {
            line.clear();
            if r.read_line(&mut line)? == 0 {
                return Ok(());
            }
            let verb = line.trim_end().to_ascii_uppercase();
            let reply: &[u8] = if verb.starts_with("EHLO") || verb.starts_with("HELO") {
                b"250 relay.test\r\n"
            } else if verb == "DATA" {
                w.write_all(b"354 go on\r\n")?;
                let mut id = String::new();
                loop {
                    line.clear();
                    if r.read_line(&mut line)? == 0 {
                        return Ok(());
                    }
                    if line.trim_end() == "." {
                        break;
                    }
                    if let Some(v) = line
                        .to_ascii_lowercase()
                        .starts_with("message-id:")
                        .then(|| line[11..].trim().to_string())
                    {
                        id = v;
                    }
                }
                self.got.lock().unwrap().push(id);
                b"250 queued\r\n"
            } else if verb == "QUIT" {
                w.write_all(b"221 bye\r\n")?;
                return Ok(());
            } else {
                b"250 ok\r\n"
            };
            w.write_all(reply)?;
        }
    }
}

fn bin() -> Command {
    Command::new(env!("CARGO_BIN_EXE_castellan"))
}

/// The configuration: the file outbox, or (with a port) the SMTP relay there.
fn write_config(dir: &Path, smtp_port: Option<u16>) -> PathBuf {
    let p = dir.join("castellan.yaml");
    let mut text = format!(
        "data_dir: {}\ntemplates_dir: {}/crates/judge/templates\n",
        dir.display(),
        env!("CARGO_MANIFEST_DIR")
    );
    if let Some(port) = smtp_port {
        text.push_str(&format!(
            "outbound:\n  kind: smtp\n  retry_base_seconds: 1\n  retry_max_seconds: 2\n  \
             smtp: {{ host: 127.0.0.1, port: {port}, security: none, timeout_seconds: {} }}\n",
            TIMEOUT.as_secs()
        ));
    }
    std::fs::write(&p, text).unwrap();
    p
}

/// Wait for `done`, up to `limit`; whether it came.
fn wait_for(limit: Duration, mut done: impl FnMut() -> bool) -> bool {
    let give_up = Instant::now() + limit;
    while Instant::now() < give_up {
        if done() {
            return true;
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    done()
}

#[test]
fn a_relay_that_hangs_holds_the_outbox_not_the_inbox() {
    let tmp = tempfile::tempdir().unwrap();
    let cfg = write_config(tmp.path(), None);
    let made = bin()
        .arg("--config")
        .arg(&cfg)
        .args([
            "game",
            "new",
            "--game",
            "castle-risk",
            "--gm",
            "gm@players.invalid",
            "--player",
            "A=bot1@players.invalid",
            "--player",
            "B=bot2@players.invalid",
        ])
        .output()
        .unwrap();
    assert!(made.status.success(), "{made:?}");
    // An order mail, written now and put aside: it comes once the relay hangs.
    let (order, before) = {
        let svc = Service::open(Config::load(&cfg, true).unwrap(), system_clock()).unwrap();
        let mut bots = MailPlayers::new(&svc, "relay").unwrap();
        let sent = bots
            .play_one(&svc, "castle-1", 500)
            .unwrap()
            .expect("the game waits for a player");
        (sent, progress(&svc, "castle-1").unwrap())
    };
    let aside = tmp.path().join("aside.eml");
    std::fs::rename(&order.path, &aside).unwrap();

    let (relay, port) = Relay::start();
    let cfg = write_config(tmp.path(), Some(port));
    let log = tmp.path().join("serve.log");
    let mut serve = bin()
        .arg("--config")
        .arg(&cfg)
        .arg("serve")
        .stdout(Stdio::null())
        .stderr(std::fs::File::create(&log).unwrap())
        .spawn()
        .unwrap();
    let logged = || std::fs::read_to_string(&log).unwrap_or_default();
    // A first mail, whose reply the drain takes to the silent relay.
    let inbox = castellan_mail::Maildir::open(tmp.path().join("mail/inbox")).unwrap();
    inbox
        .deliver(b"From: Ann <ann@example.org>\r\nTo: judge@castellan.invalid\r\nSubject: help\r\nMessage-ID: <relay-help@example.org>\r\n\r\nHELP\r\n")
        .unwrap();
    let hangs = wait_for(Duration::from_secs(30), || {
        relay.held.load(Ordering::SeqCst) > 0
    });
    assert!(hangs, "the reply never reached the relay: {}", logged());
    let hung_at = Instant::now();

    // The order mail comes while the relay hangs: judged and acknowledged meanwhile.
    std::fs::rename(&aside, &order.path).unwrap();
    let taken = wait_for(TIMEOUT * 2, || !order.path.exists());
    let judged_after = hung_at.elapsed();
    let hung_up = *relay.hung_up.lock().unwrap();
    assert!(taken, "the order mail was never taken: {}", logged());
    assert!(
        judged_after < TIMEOUT && hung_up.is_none(),
        "the order mail waited for the relay's timeout: taken after {judged_after:?}, \
         the relay's connection closed at {hung_up:?}: {}",
        logged()
    );
    assert!(relay.got.lock().unwrap().is_empty());

    // The relay answers again: every reply goes, each once.
    relay.answering.store(true, Ordering::SeqCst);
    let outbox_empty = || {
        let out = bin()
            .arg("--config")
            .arg(&cfg)
            .arg("outbox")
            .output()
            .unwrap();
        String::from_utf8_lossy(&out.stdout).starts_with("0 waiting, 0 parked")
    };
    let all_sent = wait_for(TIMEOUT * 3, || {
        std::thread::sleep(Duration::from_millis(500));
        outbox_empty()
    });
    let killed = Command::new("kill")
        .args(["-TERM", &serve.id().to_string()])
        .status()
        .unwrap();
    assert!(killed.success());
    let status = serve.wait().unwrap();
    assert!(all_sent, "replies still wait: {}", logged());
    assert!(status.success(), "{}", logged());

    let got = relay.got.lock().unwrap().clone();
    let distinct: std::collections::BTreeSet<&String> = got.iter().collect();
    assert_eq!(distinct.len(), got.len(), "a reply sent twice: {got:?}");
    assert!(got.len() >= 2, "the help's reply and the order's: {got:?}");
    let svc = Service::open(Config::load(&cfg, true).unwrap(), system_clock()).unwrap();
    assert_ne!(
        progress(&svc, "castle-1").unwrap(),
        before,
        "the order mail moved the game on"
    );
    assert!(svc.store.outbox().unwrap().is_empty(), "sent marks kept");
}
