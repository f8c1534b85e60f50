//! Optional metrics: with `metrics.listen` set, `serve` answers HTTP on that
//! 127.0.0.1 port in Prometheus' text format: mails in and out, the outbox, games and
//! deadlines, the inbox pass time. Off by default; a non-loopback address is refused.

use std::io::{Read, Write};
use std::net::TcpStream;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port()
}

fn castellan(config: &std::path::Path) -> Command {
    let mut c = Command::new(env!("CARGO_BIN_EXE_castellan"));
    c.arg("--config")
        .arg(config)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .env("CASTELLAN_LOG", "warn");
    c
}

fn scrape(port: u16) -> Option<String> {
    let mut s = TcpStream::connect(("127.0.0.1", port)).ok()?;
    s.set_read_timeout(Some(Duration::from_secs(10))).ok()?;
    s.write_all(b"GET /metrics HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
        .ok()?;
    let mut out = String::new();
    s.read_to_string(&mut out).ok()?;
    Some(out)
}

/// The value of an unlabelled (or fully labelled) sample.
fn sample(text: &str, name: &str) -> Option<f64> {
    text.lines()
        .find_map(|l| l.strip_prefix(&format!("{name} ")))
        .and_then(|v| v.trim().parse().ok())
}

#[test]
fn serve_exposes_prometheus_metrics_on_a_loopback_port() {
    let dir = tempfile::tempdir().unwrap();
    let port = free_port();
    let config = dir.path().join("c.yaml");
    std::fs::write(
        &config,
        format!(
            "data_dir: {}\nmetrics:\n  listen: 127.0.0.1:{port}\n\
             judge: {{ address: judge@castellan.test, domain: castellan.test }}\n",
            dir.path().join("data").display()
        ),
    )
    .unwrap();
    let out = castellan(&config)
        .args([
            "game",
            "new",
            "--game",
            "castle-risk",
            "--gm",
            "gm@castellan.test",
            "--player",
            "A=a@castellan.test",
            "--player",
            "B=b@castellan.test",
            "--player",
            "C=c@castellan.test",
        ])
        .output()
        .unwrap();
    assert!(out.status.success(), "{out:?}");
    // Its log, said if the metrics never come.
    let serve_log = dir.path().join("serve.log");
    let mut serve = castellan(&config)
        .arg("serve")
        .stdout(Stdio::null())
        .stderr(std::fs::File::create(&serve_log).unwrap())
        .spawn()
        .unwrap();
    // serve listens for metrics only once it holds the database: until then an `ingest`
    // could take the database first and handle the mail itself, and serve would count
    // nothing (CI failed on that race once).
    let start = Instant::now();
    while scrape(port).is_none() {
        assert!(
            start.elapsed() < Duration::from_secs(60),
            "serve never listened for metrics; serve: {:?}, its log: {}",
            serve.try_wait(),
            std::fs::read_to_string(&serve_log).unwrap_or_default()
        );
        std::thread::sleep(Duration::from_millis(100));
    }
    // A mail into the Maildir, stored by ingest (serve holds the database) and taken by serve.
    let mut ingest = castellan(&config)
        .arg("ingest")
        .stdin(Stdio::piped())
        .stdout(Stdio::null())
        .spawn()
        .unwrap();
    ingest
        .stdin
        .take()
        .unwrap()
        .write_all(
            b"From: d@castellan.test\r\nTo: judge@castellan.test\r\nSubject: help\r\n\
              Message-ID: <metrics-1@castellan.test>\r\n\r\nHELP\r\nGAME castle-1 guess\r\nPAUSE\r\n",
        )
        .unwrap();
    assert!(ingest.wait().unwrap().success());
    let start = Instant::now();
    let text = loop {
        if let Some(t) = scrape(port) {
            if sample(&t, "castellan_mails_in_total") == Some(1.0)
                && sample(&t, "castellan_mails_out_total") >= Some(1.0)
            {
                break t;
            }
        }
        assert!(
            start.elapsed() < Duration::from_secs(60),
            "no metrics with the mail counted: {:?}; serve: {:?}, its log: {}",
            scrape(port),
            serve.try_wait(),
            std::fs::read_to_string(&serve_log).unwrap_or_default()
        );
        std::thread::sleep(Duration::from_millis(200));
    };
    let _ = Command::new("kill")
        .args(["-TERM", &serve.id().to_string()])
        .status();
    assert!(serve.wait().unwrap().success());

    assert!(text.starts_with("HTTP/1.1 200 OK"), "{text}");
    assert!(
        text.contains("Content-Type: text/plain; version=0.0.4"),
        "{text}"
    );
    assert!(
        text.contains("# TYPE castellan_mails_in_total counter"),
        "{text}"
    );
    assert_eq!(
        sample(&text, "castellan_outbox_parked"),
        Some(0.0),
        "{text}"
    );
    assert!(
        sample(&text, "castellan_outbox_waiting").is_some(),
        "{text}"
    );
    // Refusals by reason: a stranger's PAUSE is refused, and HELP is answered.
    assert_eq!(
        sample(
            &text,
            "castellan_answers_total{family=\"auth\",kind=\"refused\",reason=\"not_in_game\"}"
        ),
        Some(1.0),
        "{text}"
    );
    assert_eq!(
        sample(
            &text,
            "castellan_answers_total{family=\"info\",kind=\"help\",reason=\"\"}"
        ),
        Some(1.0),
        "{text}"
    );
    assert!(
        sample(&text, "castellan_inbox_pass_seconds_count") >= Some(1.0),
        "{text}"
    );
    assert_eq!(
        sample(&text, "castellan_games{status=\"running\"}"),
        Some(1.0),
        "{text}"
    );
    assert_eq!(
        sample(&text, "castellan_deadlines_pending"),
        Some(1.0),
        "{text}"
    );
    assert!(
        sample(&text, "castellan_next_deadline_seconds") > Some(0.0),
        "{text}"
    );
    assert_eq!(
        sample(&text, "castellan_errors_total{stage=\"inbox\"}"),
        Some(0.0),
        "{text}"
    );
}

#[test]
fn a_metrics_address_off_the_loopback_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let config = dir.path().join("c.yaml");
    std::fs::write(
        &config,
        format!(
            "data_dir: {}\nmetrics: {{ listen: '0.0.0.0:9464' }}\n",
            dir.path().join("data").display()
        ),
    )
    .unwrap();
    let out = castellan(&config).arg("serve").output().unwrap();
    assert!(!out.status.success());
    assert!(
        String::from_utf8_lossy(&out.stderr).contains("only a loopback address"),
        "{out:?}"
    );
}
