//! Output piped into `head` or a pager closed early ends quietly: no panic, no
//! exit 101, nothing on stderr; the exit status is the one a shell reports for a program
//! ended by SIGPIPE (141), as `cat` or `grep` give.

use std::process::{Command, Stdio};

const EXIT_BROKEN_PIPE: i32 = 141;

fn bin() -> Command {
    let mut c = Command::new(env!("CARGO_BIN_EXE_castellan"));
    c.current_dir(env!("CARGO_MANIFEST_DIR"))
        .env("CASTELLAN_LOG", "warn");
    c
}

/// A data dir with one demo game (castle-1) in it.
fn demo_dir() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    let out = bin()
        .args(["demo", "--max-mails", "60", "--dir"])
        .arg(dir.path())
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    dir
}

/// Runs `castellan ARGS` with its stdout a pipe whose reading end is already closed.
fn into_a_closed_pipe(args: &[&str]) -> (Option<i32>, String) {
    let mut child = bin()
        .args(args)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    drop(child.stdout.take());
    let out = child.wait_with_output().unwrap();
    (
        out.status.code(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn every_printing_command_ends_quietly_on_a_closed_pipe() {
    let dir = demo_dir();
    let d = dir.path().to_str().unwrap();
    for args in [
        vec!["--data-dir", d, "game", "export", "castle-1"],
        vec!["--data-dir", d, "game", "list"],
        vec!["--data-dir", d, "game", "show", "castle-1"],
        vec!["--data-dir", d, "doctor"],
        vec!["--data-dir", d, "outbox"],
        vec!["config"],
        vec!["simulate", "--games", "2", "--json"],
        vec!["--help"],
    ] {
        let (code, stderr) = into_a_closed_pipe(&args);
        // clap prints --help itself and ignores the write error: 0 there.
        let want = if args == ["--help"] {
            0
        } else {
            EXIT_BROKEN_PIPE
        };
        assert_eq!(code, Some(want), "{args:?}: {stderr}");
        // Only simulate's progress line (stderr is not the closed pipe), the line that
        // names the configuration read and the one that says which way an admin command
        // ran may be there.
        let other: Vec<&str> = stderr
            .lines()
            .filter(|l| {
                !l.starts_with("simulate: ") && !l.contains("configuration: ") && !says_the_way(l)
            })
            .collect();
        assert!(other.is_empty(), "{args:?} wrote on stderr: {stderr}");
    }
}

#[test]
fn game_export_into_head_ends_quietly() {
    let dir = demo_dir();
    // The export is far bigger than a pipe's buffer, so head has closed its end well
    // before the last write.
    let script = format!(
        "set -o pipefail; '{}' --data-dir '{}' game export castle-1 2>err | head -c 10 >/dev/null; \
         echo \"${{PIPESTATUS[0]}}\"",
        env!("CARGO_BIN_EXE_castellan"),
        dir.path().display()
    );
    let out = Command::new("bash")
        .arg("-c")
        .arg(&script)
        .current_dir(dir.path())
        .output()
        .unwrap();
    let status = String::from_utf8_lossy(&out.stdout).trim().to_string();
    let err = std::fs::read_to_string(dir.path().join("err")).unwrap();
    // Only the line that names the configuration read, and the way the command ran.
    assert!(
        err.lines()
            .all(|l| l.contains("configuration: ") || says_the_way(l)),
        "stderr: {err}"
    );
    assert!(
        status == "141" || status == "0",
        "exit status {status} (101 is the old panic)"
    );
}

/// The note of an admin command that says which way it ran (directly, or by the daemon).
fn says_the_way(line: &str) -> bool {
    line.starts_with("castellan: run directly on ")
        || line.starts_with("castellan: answered by the running daemon")
}
