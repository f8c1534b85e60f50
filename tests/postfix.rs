//! A real Postfix (Debian's package) feeding the judge through a pipe(8) transport to
//! `castellan ingest`, as docs/operating.md sets up a mail server. The instance
//! is scripts/postfix-instance.sh's: 127.0.0.1 on a spare port, its own queue, no outside
//! delivery; players' mailboxes are Postfix virtual(8) Maildirs.
//!
//! Checked: the judge answers mail sent into Postfix over SMTP (plus-addresses included);
//! an `ingest` exit 75 (the store unavailable) makes Postfix defer and retry, and the mail
//! is then handled once; mail that comes while `serve` holds the database is stored by
//! `ingest` and answered by `serve`; and the judge's own replies, sent back through that
//! Postfix, reach the players' Maildirs.
//!
//! Needs root (the Postfix master starts as root; the pipe runs as nobody) and postfix
//! (scripts/install-test-deps.sh). Without them the test FAILS with the reason.

mod common;

use common::smtp_send;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

const DOMAIN: &str = "castellan.test";
const JUDGE: &str = "judge@castellan.test";
/// How long a mail may take through Postfix before the test gives up (a failure bound,
/// not a speed check).
const PATIENCE: Duration = Duration::from_secs(60);

fn addr(user: &str) -> String {
    format!("{user}@{DOMAIN}")
}

/// The Postfix instance and the judge it pipes to, every file under one folder in /tmp
/// (nobody must reach the binary, the config and the data). Stopped when dropped.
struct Site {
    dir: tempfile::TempDir,
    script: PathBuf,
    port: u16,
    bin: PathBuf,
    config: PathBuf,
    data: PathBuf,
}

fn run(cmd: &mut Command) -> Output {
    cmd.output()
        .unwrap_or_else(|e| panic!("cannot run {cmd:?}: {e}"))
}

impl Site {
    fn start() -> Site {
        let dir = tempfile::Builder::new()
            .prefix("castellan-postfix-")
            .tempdir_in("/tmp")
            .unwrap();
        let d = dir.path();
        let repo = Path::new(env!("CARGO_MANIFEST_DIR"));
        run(Command::new("chmod").arg("755").arg(d));
        // The judge: the real binary, the templates and a data folder, all nobody's.
        let bin = d.join("castellan");
        std::fs::copy(env!("CARGO_BIN_EXE_castellan"), &bin).unwrap();
        let data = d.join("judge");
        std::fs::create_dir_all(&data).unwrap();
        let cp = run(Command::new("cp")
            .arg("-r")
            .arg(repo.join("crates/judge/templates"))
            .arg(d.join("templates")));
        assert!(cp.status.success());
        let script = repo.join("scripts/postfix-instance.sh");
        let config = d.join("castellan.yaml");
        let out = run(Command::new("bash")
            .arg(&script)
            .arg("start")
            .arg(d.join("postfix"))
            .arg(&bin)
            .arg(&config));
        if !out.status.success() {
            let _ = run(Command::new("bash")
                .arg(&script)
                .arg("stop")
                .arg(d.join("postfix")));
            panic!(
                "Postfix did not start ({}). It needs root and Debian's postfix: \
                 scripts/install-test-deps.sh\nstdout: {}\nstderr: {}",
                out.status,
                String::from_utf8_lossy(&out.stdout),
                String::from_utf8_lossy(&out.stderr)
            );
        }
        let env = std::fs::read_to_string(d.join("postfix/ports.env")).unwrap();
        let port: u16 = env
            .trim()
            .strip_prefix("SMTP_PORT=")
            .and_then(|p| p.parse().ok())
            .unwrap_or_else(|| panic!("no SMTP_PORT in {env}"));
        // The judge's configuration, as docs/operating.md gives it: ingest spools into the
        // Maildir, replies go back into the same Postfix by SMTP on 127.0.0.1.
        std::fs::write(
            &config,
            format!(
                "data_dir: {data}\n\
                 templates_dir: {templates}\n\
                 inbound: {{ kind: none }}\n\
                 outbound:\n  kind: smtp\n  smtp: {{ host: 127.0.0.1, port: {port}, security: none }}\n\
                 judge:\n  address: {JUDGE}\n  domain: {DOMAIN}\n",
                data = data.display(),
                templates = d.join("templates").display(),
            ),
        )
        .unwrap();
        run(Command::new("chmod").arg("644").arg(&config));
        let own = run(Command::new("chown")
            .arg("-R")
            .arg("nobody:nogroup")
            .arg(&data)
            .arg(d.join("templates")));
        assert!(own.status.success(), "chown: {own:?}");
        Site {
            script,
            port,
            bin,
            config,
            data,
            dir,
        }
    }

    /// `castellan --config CONFIG ARGS` as nobody, the user the pipe runs as.
    fn castellan(&self, args: &[&str]) -> Command {
        let mut c = Command::new("setpriv");
        c.args(["--reuid=nobody", "--regid=nogroup", "--clear-groups"])
            .arg(&self.bin)
            .arg("--config")
            .arg(&self.config)
            .args(args)
            .env("CASTELLAN_LOG", "warn");
        c
    }

    fn castellan_ok(&self, args: &[&str]) -> String {
        let out = run(&mut self.castellan(args));
        assert!(
            out.status.success(),
            "castellan {args:?}: {}{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        );
        String::from_utf8_lossy(&out.stdout).into_owned()
    }

    fn maillog(&self) -> String {
        std::fs::read_to_string(self.dir.path().join("postfix/maillog")).unwrap_or_default()
    }

    /// Every mail in `user`'s Postfix Maildir, raw.
    fn mailbox(&self, user: &str) -> Vec<String> {
        let base = self.dir.path().join("postfix/mail").join(DOMAIN).join(user);
        let mut out = Vec::new();
        for sub in ["new", "cur"] {
            if let Ok(rd) = std::fs::read_dir(base.join(sub)) {
                for e in rd.flatten() {
                    out.push(
                        String::from_utf8_lossy(&std::fs::read(e.path()).unwrap()).into_owned(),
                    );
                }
            }
        }
        out
    }

    /// The mails in `user`'s Maildir that answer `message_id`.
    fn answers(&self, user: &str, message_id: &str) -> Vec<String> {
        let want = format!("In-Reply-To: {message_id}");
        self.mailbox(user)
            .into_iter()
            .filter(|m| m.lines().any(|l| l.trim_end() == want))
            .collect()
    }

    /// Waits until `f` holds; fails with Postfix's log if it does not within PATIENCE.
    fn wait_for(&self, what: &str, f: impl Fn() -> bool) {
        let start = Instant::now();
        while !f() {
            assert!(
                start.elapsed() < PATIENCE,
                "waited {PATIENCE:?} for {what}\nPostfix's log:\n{}",
                self.maillog()
            );
            std::thread::sleep(Duration::from_millis(100));
        }
    }

    /// `user` mails `body` to `to` through Postfix's smtpd; returns the Message-ID.
    fn send(&self, user: &str, to: &str, id: &str, body: &str) -> String {
        let message_id = format!("<{id}@client.{DOMAIN}>");
        let raw = format!(
            "From: {user} <{from}>\r\nTo: {to}\r\nSubject: {id}\r\nMessage-ID: {message_id}\r\n\
             Date: Mon, 23 Nov 2026 10:00:00 +0000\r\nMIME-Version: 1.0\r\n\
             Content-Type: text/plain; charset=utf-8\r\n\r\n{body}\r\n",
            from = addr(user)
        );
        smtp_send(self.port, &addr(user), to, &raw);
        message_id
    }
}

impl Drop for Site {
    fn drop(&mut self) {
        let _ = Command::new("bash")
            .arg(&self.script)
            .arg("stop")
            .arg(self.dir.path().join("postfix"))
            .output();
    }
}

/// The value of header `name` in a raw mail.
fn header(raw: &str, name: &str) -> Option<String> {
    let prefix = format!("{name}: ");
    raw.lines()
        .take_while(|l| !l.is_empty())
        .find_map(|l| l.strip_prefix(&prefix).map(|v| v.trim().to_string()))
}

#[test]
fn postfix_pipes_mail_to_ingest_defers_on_exit_75_and_carries_the_replies() {
    let site = Site::start();

    // A game: the welcome mails go out through Postfix into the players' Maildirs.
    site.castellan_ok(&[
        "game",
        "new",
        "--game",
        "castle-risk",
        "--gm",
        &addr("gm"),
        "--player",
        &format!("Alice={}", addr("alice")),
        "--player",
        &format!("Bob={}", addr("bob")),
        "--player",
        &format!("Carol={}", addr("carol")),
    ]);
    for user in ["alice", "bob", "carol", "gm"] {
        site.wait_for(&format!("{user}'s welcome mail"), || {
            site.mailbox(user)
                .iter()
                .any(|m| header(m, "X-Castellan-Game").as_deref() == Some("castle-1"))
        });
    }
    let token = site
        .mailbox("alice")
        .iter()
        .filter(|m| header(m, "X-Castellan-Game").as_deref() == Some("castle-1"))
        .find_map(|m| header(m, "X-Castellan-Token"))
        .expect("alice's welcome mail names her token");

    // 1. The judge answers: HELP to the bare address, STATUS to alice's plus-address (the
    //    token there proves who she is and names the game).
    let help = site.send("dave", JUDGE, "help-1", "HELP");
    site.wait_for("the answer to HELP", || {
        site.answers("dave", &help).len() == 1
    });
    let plus = format!("judge+{token}@{DOMAIN}");
    let status = site.send("alice", &plus, "status-1", "STATUS");
    site.wait_for("the answer to STATUS by plus-address", || {
        site.answers("alice", &status).len() == 1
    });
    let answer = &site.answers("alice", &status)[0];
    assert!(answer.contains("castle-1"), "{answer}");
    // (Postfix logs the pipe's delivery when ingest exits, after the reply went out.)
    site.wait_for("the pipe to log the plus-address delivered", || {
        site.maillog().lines().any(|l| {
            l.contains(&format!("to=<{plus}>, relay=castellan"))
                && l.contains("status=sent (delivered via castellan service")
        })
    });

    // 2. The store unavailable: ingest cannot write its Maildir and exits 75. Postfix
    //    defers the message and retries it; once the store is back it is handled, once.
    let tmp = site.data.join("mail/inbox/tmp");
    assert!(tmp.is_dir(), "ingest made the Maildir");
    run(Command::new("chmod").arg("555").arg(&tmp));
    let busy = site.send("bob", JUDGE, "deferred-1", "HELP");
    site.wait_for("Postfix to defer the message (ingest exit 75)", || {
        site.maillog()
            .contains("status=deferred (temporary failure")
    });
    // Postfix keeps it and keeps trying: a second deferral of the same message. It retries
    // on its own within seconds (minimal_backoff_time = 1s), but when its queue manager
    // meets the message while the first delivery is still finishing ("skipped, still being
    // delivered") the message waits for a later queue scan: then the test asks Postfix for
    // one (`postqueue -f`), as an operator would. Only a kept message can defer twice.
    let retried = || {
        site.maillog()
            .matches("status=deferred (temporary failure")
            .count()
            >= 2
    };
    let start = Instant::now();
    while !retried() && start.elapsed() < Duration::from_secs(15) {
        std::thread::sleep(Duration::from_millis(200));
    }
    if !retried() {
        run(Command::new("postqueue")
            .arg("-c")
            .arg(site.dir.path().join("postfix/etc"))
            .arg("-f"));
    }
    site.wait_for("Postfix to retry", retried);
    assert!(site.answers("bob", &busy).is_empty());
    // What ingest prints goes into Postfix's deferral (and into a bounce, were there one):
    // its brief note only, no path nor internal error; the detail is in the
    // judge's log (syslog).
    let deferrals: Vec<String> = site
        .maillog()
        .lines()
        .filter(|l| l.contains("status=deferred"))
        .map(String::from)
        .collect();
    assert!(
        deferrals.iter().all(
            |l| l.contains("see the judge's log") && !l.contains(&*site.data.to_string_lossy())
        ),
        "ingest's deferral notes:\n{}",
        deferrals.join("\n")
    );
    run(Command::new("chmod").arg("755").arg(&tmp));
    site.wait_for("the deferred message to be handled", || {
        site.answers("bob", &busy).len() == 1
    });
    // Handled once: Postfix's queue is empty (nothing left to retry), and a pass of the
    // judge finds nothing more to do for it.
    site.wait_for("Postfix's queue to empty", || {
        let q = run(Command::new("postqueue")
            .arg("-c")
            .arg(site.dir.path().join("postfix/etc"))
            .arg("-j"));
        q.status.success() && q.stdout.is_empty()
    });
    let once = site.castellan_ok(&["serve", "--once"]);
    assert!(once.starts_with("took 0 message(s)"), "{once}");
    std::thread::sleep(Duration::from_secs(2));
    assert_eq!(site.answers("bob", &busy).len(), 1, "answered once");

    // 2b. A typo in the configuration: ingest exited 78 and Postfix bounced the
    //     player's mail with the configuration's path and keys. Now it defers (75), says
    //     nothing of the configuration, and the mail is handled once the typo is fixed.
    let good = std::fs::read_to_string(&site.config).unwrap();
    std::fs::write(&site.config, format!("{good}colour_of_the_judge: red\n")).unwrap();
    let deferred = || {
        site.maillog()
            .lines()
            .filter(|l| l.contains("status=deferred"))
            .count()
    };
    let before = deferred();
    let typo = site.send("bob", JUDGE, "typo-1", "HELP");
    site.wait_for("Postfix to defer the message (a config typo)", || {
        deferred() > before
    });
    let log = site.maillog();
    assert!(!log.contains("status=bounced"), "{log}");
    for l in log.lines().filter(|l| l.contains("status=deferred")) {
        assert!(
            !l.contains("colour_of_the_judge") && !l.contains(&*site.config.to_string_lossy()),
            "{l}"
        );
    }
    std::fs::write(&site.config, good).unwrap();
    run(Command::new("postqueue")
        .arg("-c")
        .arg(site.dir.path().join("postfix/etc"))
        .arg("-f"));
    site.wait_for("the mail deferred by the typo to be handled", || {
        site.answers("bob", &typo).len() == 1
    });

    // 3. The store busy: `serve` holds the database. ingest stores the message in the
    //    Maildir (exit 0) and serve answers it on its next pass.
    let mut serve = site
        .castellan(&["serve"])
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    std::thread::sleep(Duration::from_secs(1));
    let held = site.send("carol", JUDGE, "while-serving-1", "HELP");
    site.wait_for("serve to answer the mail ingest stored", || {
        site.answers("carol", &held).len() == 1
    });
    assert!(
        site.maillog()
            .contains("stored in the inbox; the database is not free"),
        "ingest stored the message for serve:\n{}",
        site.maillog()
    );
    let _ = Command::new("kill")
        .args(["-TERM", &serve.id().to_string()])
        .status();
    let status = serve.wait().unwrap();
    assert!(status.success(), "serve on SIGTERM: {status:?}");

    // 4. Every reply went through Postfix to a virtual Maildir, none elsewhere.
    let log = site.maillog();
    assert!(log.contains("relay=virtual") && log.contains("delivered to maildir"));
    assert!(!log.contains("status=bounced"), "{log}");
}
