//! SIGHUP reloads the daemon's configuration and templates instead of ending it (as
//! `systemctl reload castellan` sends it): a reworded template and a new judge address
//! are in the next reply; a key that needs a restart is said so; a file that no longer
//! loads changes nothing and the daemon goes on.

use std::io::{BufRead, BufReader};
use std::path::Path;
use std::process::{Command, Stdio};
use std::sync::mpsc;
use std::time::{Duration, Instant};

fn write_config(dir: &Path, address: &str, extra: &str) -> std::path::PathBuf {
    let cfg = dir.join("castellan.yaml");
    std::fs::write(
        &cfg,
        format!(
            "data_dir: {d}\ntemplates_dir: {d}/templates\njudge:\n  address: {address}\n{extra}",
            d = dir.display()
        ),
    )
    .unwrap();
    cfg
}

/// Lines of the daemon's stderr until one contains `what` (panics after 30 s).
fn wait_for(lines: &mpsc::Receiver<String>, seen: &mut Vec<String>, what: &str) {
    let end = Instant::now() + Duration::from_secs(30);
    while Instant::now() < end {
        if let Ok(l) = lines.recv_timeout(Duration::from_millis(200)) {
            let found = l.contains(what);
            seen.push(l);
            if found {
                return;
            }
        }
    }
    panic!("no line with {what:?}: {seen:#?}");
}

/// The reply in the outbox to `message_id`, waited for.
fn reply_to(dir: &Path, message_id: &str) -> String {
    let end = Instant::now() + Duration::from_secs(30);
    while Instant::now() < end {
        for e in std::fs::read_dir(dir.join("mail/outbox"))
            .into_iter()
            .flatten()
        {
            let p = e.unwrap().path();
            if p.extension().is_some_and(|x| x == "eml") {
                let text = std::fs::read_to_string(&p).unwrap();
                if text.contains(message_id) {
                    return text;
                }
            }
        }
        std::thread::sleep(Duration::from_millis(100));
    }
    panic!("no reply to {message_id}");
}

fn deliver(dir: &Path, name: &str, message_id: &str) {
    let inbox = dir.join("mail/inbox");
    for d in ["new", "cur", "tmp"] {
        std::fs::create_dir_all(inbox.join(d)).unwrap();
    }
    let mail = format!(
        "From: Ann <ann@example.org>\r\nTo: judge@example.org\r\nSubject: hi\r\n\
         Message-ID: {message_id}\r\n\r\nLIST\r\n"
    );
    std::fs::write(inbox.join("tmp").join(name), mail).unwrap();
    std::fs::rename(inbox.join("tmp").join(name), inbox.join("new").join(name)).unwrap();
}

fn kill(signal: &str, pid: u32) {
    let ok = Command::new("kill")
        .args([signal, &pid.to_string()])
        .status()
        .unwrap();
    assert!(ok.success());
}

#[test]
fn sighup_reloads_the_configuration_and_templates_and_the_daemon_goes_on() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    std::fs::create_dir_all(dir.join("templates/en")).unwrap();
    let cfg = write_config(dir, "judge@example.org", "");
    let mut child = Command::new(env!("CARGO_BIN_EXE_castellan"))
        .arg("--config")
        .arg(&cfg)
        .arg("serve")
        .env("CASTELLAN_LOG", "info")
        .env_remove("CASTELLAN_LOG_FILE")
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let (tx, lines) = mpsc::channel();
    let err = child.stderr.take().unwrap();
    std::thread::spawn(move || {
        for l in BufReader::new(err).lines() {
            if tx.send(l.unwrap()).is_err() {
                return;
            }
        }
    });
    let mut seen = Vec::new();
    wait_for(&lines, &mut seen, "castellan serving");
    deliver(dir, "1.M1.h", "<before@example.org>");
    let before = reply_to(dir, "<before@example.org>");
    assert!(before.contains("From: judge@example.org"), "{before}");
    assert!(!before.contains("Reworded by the operator"), "{before}");

    // The operator rewords the replies and moves the judge to another address.
    std::fs::write(
        dir.join("templates/en/reply.txt"),
        "Reworded by the operator.\n{% for s in sections %}{{ s.text }}\n{% endfor %}",
    )
    .unwrap();
    write_config(dir, "referee@example.org", "tick_seconds: 30\n");
    kill("-HUP", child.id());
    wait_for(
        &lines,
        &mut seen,
        "SIGHUP: configuration and templates reloaded",
    );
    deliver(dir, "2.M2.h", "<after@example.org>");
    let after = reply_to(dir, "<after@example.org>");
    assert!(after.contains("From: referee@example.org"), "{after}");
    assert!(after.contains("Reworded by the operator"), "{after}");

    // A key that names the data held open waits for a restart, and says so.
    let moved = dir.join("elsewhere");
    std::fs::write(
        &cfg,
        format!(
            "data_dir: {}\ntemplates_dir: {}/templates\njudge:\n  address: referee@example.org\n",
            moved.display(),
            dir.display()
        ),
    )
    .unwrap();
    kill("-HUP", child.id());
    wait_for(
        &lines,
        &mut seen,
        "data_dir changed: it takes effect at the next restart",
    );
    // A file that does not load changes nothing; the daemon goes on.
    std::fs::write(&cfg, "data_dir: [\n").unwrap();
    kill("-HUP", child.id());
    wait_for(&lines, &mut seen, "SIGHUP: nothing reloaded");
    deliver(dir, "3.M3.h", "<still@example.org>");
    let still = reply_to(dir, "<still@example.org>");
    assert!(still.contains("From: referee@example.org"), "{still}");

    kill("-TERM", child.id());
    wait_for(&lines, &mut seen, "SIGTERM: stopping");
    assert!(child.wait().unwrap().success());
}
