//! Progress of long runs: a bar when stderr is a terminal (a pty from script(1)),
//! plain lines otherwise; stdout keeps only the report, so `--json` still parses.

use std::process::Command;

fn castellan() -> Command {
    let mut c = Command::new(env!("CARGO_BIN_EXE_castellan"));
    c.current_dir(env!("CARGO_MANIFEST_DIR"))
        .env("CASTELLAN_LOG", "warn");
    c
}

#[test]
fn simulate_says_plain_lines_on_a_pipe_and_keeps_stdout_clean() {
    let out = castellan()
        .args(["simulate", "--games", "6", "--json"])
        .output()
        .unwrap();
    assert!(out.status.success());
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["games"], 6);
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(
        err.lines().last(),
        Some("simulate: 6/6 games (100%)"),
        "{err}"
    );
    assert!(
        !err.contains('\r') && !err.contains('\x1b'),
        "no terminal codes: {err:?}"
    );
}

#[test]
fn simulate_draws_a_bar_on_a_terminal() {
    let cmd = format!("'{}' simulate --games 6", env!("CARGO_BIN_EXE_castellan"));
    let out = Command::new("script")
        .args(["-qec", &cmd, "/dev/null"])
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .expect("script(1), from Debian's bsdutils");
    assert!(out.status.success(), "{out:?}");
    let all = String::from_utf8_lossy(&out.stdout);
    assert!(all.contains("simulate ["), "no bar: {all:?}");
    assert!(all.contains("6 games, 6 finished"), "{all:?}");
    assert!(
        !all.contains("simulate: 6/6"),
        "plain lines on a terminal: {all:?}"
    );
}

#[test]
fn backup_and_restore_count_their_records() {
    let dir = tempfile::tempdir().unwrap();
    let demo = dir.path().join("d");
    let o = castellan()
        .args(["demo", "--max-mails", "30", "--dir"])
        .arg(&demo)
        .output()
        .unwrap();
    assert!(o.status.success());
    let o = castellan()
        .arg("--data-dir")
        .arg(&demo)
        .arg("backup")
        .arg(dir.path().join("b.jsonl"))
        .output()
        .unwrap();
    assert!(o.status.success());
    let stdout = String::from_utf8_lossy(&o.stdout);
    let n: usize = stdout.split_whitespace().next().unwrap().parse().unwrap();
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(
        err.lines().last(),
        Some(format!("backup: {n} records").as_str()),
        "{err}"
    );
    let lines = std::fs::read_to_string(dir.path().join("b.jsonl"))
        .unwrap()
        .lines()
        .count();
    assert_eq!(lines, n + 2, "the records, a header and an end line");
    // And restore counts them back, into an empty data folder.
    let o = castellan()
        .arg("--data-dir")
        .arg(dir.path().join("empty"))
        .args(["backup", "--restore"])
        .arg(dir.path().join("b.jsonl"))
        .output()
        .unwrap();
    assert!(o.status.success(), "{o:?}");
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(
        err.lines().last(),
        Some(format!("restore: {n}/{n} records (100%)").as_str()),
        "{err}"
    );
}

#[test]
fn bench_says_its_progress_on_stderr_and_keeps_its_json() {
    let out = castellan()
        .args([
            "bench",
            "--mails",
            "20",
            "--games",
            "1",
            "--tables",
            "1",
            "--late-turn",
            "0",
            "--json",
        ])
        .output()
        .unwrap();
    assert!(out.status.success(), "{out:?}");
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert!(v["mails_in"].as_u64() >= Some(20), "{v}");
    let err = String::from_utf8_lossy(&out.stderr);
    // (the last round may carry a few mails past the 20 asked for)
    assert!(
        err.lines()
            .any(|l| l.starts_with("bench: ") && l.contains("/20 order mails")),
        "{err}"
    );
    assert!(
        err.lines()
            .any(|l| l.starts_with("bench (engine): 4/4 games")),
        "{err}"
    );
}
