//! `ingest` stored a message of any size (200 MB: 420 MiB RSS, stored twice for a
//! duplicate). Now `castellan ingest` reads at most `max_stored_bytes` + 1 bytes: a bigger
//! message is read to its end and thrown away, never stored, never answered; exit 0
//! (docs/config.md `max_stored_bytes`, docs/security.md "Amplification").

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

fn write_config(dir: &Path, max_stored: usize) -> PathBuf {
    let p = dir.join("castellan.yaml");
    std::fs::write(
        &p,
        format!(
            "data_dir: {}\ntemplates_dir: {}/crates/judge/templates\nmax_stored_bytes: {max_stored}\n",
            dir.display(),
            env!("CARGO_MANIFEST_DIR")
        ),
    )
    .unwrap();
    p
}

/// Files in the Maildir inbox (new/ and cur/).
fn stored(dir: &Path) -> usize {
    ["new", "cur"]
        .iter()
        .map(|d| {
            std::fs::read_dir(dir.join("mail/inbox").join(d))
                .map(|rd| rd.count())
                .unwrap_or(0)
        })
        .sum()
}

fn outbox(dir: &Path) -> usize {
    std::fs::read_dir(dir.join("mail/outbox"))
        .map(|rd| {
            rd.filter(|e| {
                e.as_ref()
                    .is_ok_and(|e| e.path().extension().is_some_and(|x| x == "eml"))
            })
            .count()
        })
        .unwrap_or(0)
}

/// `castellan ingest` with `raw` on its standard input.
fn ingest(cfg: &Path, raw: &[u8]) -> std::process::Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_castellan"))
        .arg("--config")
        .arg(cfg)
        .arg("ingest")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    let raw = raw.to_vec();
    let writer = std::thread::spawn(move || {
        // The whole message goes in: the judge must read (and drop) all of it.
        stdin.write_all(&raw).unwrap();
    });
    let out = child.wait_with_output().unwrap();
    writer.join().unwrap();
    out
}

fn mail(id: &str, body_bytes: usize) -> Vec<u8> {
    let mut m = format!(
        "From: Ann <ann@example.org>\r\nTo: judge@castellan.invalid\r\nSubject: hi\r\nMessage-ID: <{id}@example.org>\r\n\r\nLIST\r\n"
    )
    .into_bytes();
    while m.len() < body_bytes {
        m.extend_from_slice(
            b"xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx\r\n",
        );
    }
    m
}

#[test]
fn ingest_refuses_a_message_over_max_stored_bytes_before_storing_it() {
    let tmp = tempfile::tempdir().unwrap();
    let cfg = write_config(tmp.path(), 64 * 1024);
    // Over the bound, twice (a duplicate): nothing stored, nothing answered, exit 0.
    for _ in 0..2 {
        let out = ingest(&cfg, &mail("big", 4 * 1024 * 1024));
        assert!(out.status.success(), "{out:?}");
        assert!(
            String::from_utf8_lossy(&out.stdout).contains("not stored"),
            "{out:?}"
        );
        assert_eq!(stored(tmp.path()), 0, "an oversized message was stored");
        assert_eq!(outbox(tmp.path()), 0, "an oversized message was answered");
    }
    // Under it, as before: stored, handled, answered.
    let out = ingest(&cfg, &mail("small", 60 * 1024));
    assert!(out.status.success(), "{out:?}");
    assert_eq!(stored(tmp.path()), 1);
    assert_eq!(outbox(tmp.path()), 1);
}
