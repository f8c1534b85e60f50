//! `--log-format json`: every line the daemon logs on stderr is one JSON object
//! with a timestamp, a level and the message, for log shippers; text stays the default.

use std::io::{BufRead, BufReader};
use std::process::{Command, Stdio};

/// Runs `serve` on a fresh data dir until it logged its start, stops it with SIGTERM, and
/// returns what it logged.
fn serve_logs(format: &str) -> Vec<String> {
    let dir = tempfile::tempdir().unwrap();
    let mut child = Command::new(env!("CARGO_BIN_EXE_castellan"))
        .args(["--log-format", format, "--data-dir"])
        .arg(dir.path())
        .arg("serve")
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .env("CASTELLAN_LOG", "info")
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut err = BufReader::new(child.stderr.take().unwrap());
    let mut lines = Vec::new();
    // The line naming the configuration read comes first, before the daemon's
    // start: read on to the start, so that the signal finds its handler in place.
    loop {
        let mut line = String::new();
        err.read_line(&mut line).unwrap();
        lines.push(line.trim_end().to_string());
        if line.is_empty() || !line.contains("configuration: ") {
            break;
        }
    }
    let _ = Command::new("kill")
        .args(["-TERM", &child.id().to_string()])
        .status();
    for l in err.lines() {
        lines.push(l.unwrap());
    }
    assert!(child.wait().unwrap().success());
    lines
}

#[test]
fn json_logs_are_one_object_a_line() {
    let lines = serve_logs("json");
    assert!(lines.len() >= 2, "{lines:?}");
    for l in &lines {
        let v: serde_json::Value =
            serde_json::from_str(l).unwrap_or_else(|e| panic!("not JSON ({e}): {l}"));
        assert!(v["timestamp"].is_string(), "{l}");
        assert_eq!(v["level"], "INFO", "{l}");
        assert!(v["fields"]["message"].is_string(), "{l}");
    }
    // First the configuration read, then the start.
    assert!(lines[0].contains("configuration: "), "{lines:?}");
    assert!(lines[1].contains("castellan serving"), "{lines:?}");
    assert!(
        lines.iter().any(|l| l.contains("SIGTERM: stopping")),
        "{lines:?}"
    );
}

#[test]
fn text_logs_stay_the_default() {
    let lines = serve_logs("text");
    assert!(lines[0].contains("INFO") && lines[0].contains("configuration: "));
    assert!(lines[1].contains("INFO") && lines[1].contains("castellan serving"));
    assert!(serde_json::from_str::<serde_json::Value>(&lines[1]).is_err());
    let bad = Command::new(env!("CARGO_BIN_EXE_castellan"))
        .args(["--log-format", "xml", "config"])
        .output()
        .unwrap();
    assert_eq!(bad.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&bad.stderr).contains("json"));
}
