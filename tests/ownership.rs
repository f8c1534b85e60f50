//! Ownership kept: run as root on a data folder that belongs to another user, a command
//! refuses (exit 77; `ingest` defers, 75), says as whom to run it, and leaves no file of
//! root's there; run as that user it works.

use std::os::unix::fs::MetadataExt;
use std::path::Path;
use std::process::{Command, Output};

fn is_root() -> bool {
    // SAFETY: geteuid(2) has no preconditions.
    unsafe { libc::geteuid() == 0 }
}

fn text(o: &Output) -> String {
    format!(
        "status {:?}\n{}{}",
        o.status.code(),
        String::from_utf8_lossy(&o.stdout),
        String::from_utf8_lossy(&o.stderr)
    )
}

/// Every path under `dir` (itself included) with its owner.
fn owners(dir: &Path) -> Vec<(String, u32)> {
    let mut out = vec![(dir.display().to_string(), dir.metadata().unwrap().uid())];
    if dir.is_dir() {
        for e in std::fs::read_dir(dir).unwrap().flatten() {
            out.extend(owners(&e.path()));
        }
    }
    out
}

const NOBODY: u32 = 65534;

#[test]
fn root_on_another_users_data_folder_refuses_and_says_as_whom_to_run() {
    if !is_root() {
        eprintln!("skipped: the refusal is root's; this test runs as another user");
        return;
    }
    let tmp = tempfile::tempdir().unwrap();
    std::fs::set_permissions(
        tmp.path(),
        std::os::unix::fs::PermissionsExt::from_mode(0o755),
    )
    .unwrap();
    let data = tmp.path().join("data");
    // A data folder as the package leaves it: the judge's user's.
    std::fs::create_dir(&data).unwrap();
    std::os::unix::fs::chown(&data, Some(NOBODY), Some(NOBODY)).unwrap();
    let before = owners(&data);
    let castellan = |args: &[&str]| {
        Command::new(env!("CARGO_BIN_EXE_castellan"))
            .args(["--config", "/dev/null", "--data-dir"])
            .arg(&data)
            .args(args)
            .env("CASTELLAN_LOG", "warn")
            .output()
            .unwrap()
    };
    for args in [
        &["serve", "--once"][..],
        &["game", "list"],
        &["outbox"],
        &["backup"],
        &["recover"],
        &["compact"],
        &["backup", "--restore", "/dev/null"],
    ] {
        let o = castellan(args);
        let out = text(&o);
        assert_eq!(o.status.code(), Some(77), "{args:?}: {out}");
        assert!(
            out.contains("refusing to run as root") && out.contains("sudo -u nobody castellan"),
            "{args:?}: {out}"
        );
        assert_eq!(owners(&data), before, "{args:?} left files behind");
    }
    // `ingest`: deferred (the MTA keeps the mail), nothing stored as root.
    let mut ingest = Command::new(env!("CARGO_BIN_EXE_castellan"))
        .args(["--config", "/dev/null", "--data-dir"])
        .arg(&data)
        .arg("ingest")
        .env("CASTELLAN_LOG_FILE", tmp.path().join("ingest.log"))
        .stdin(std::process::Stdio::piped())
        .output();
    let o = ingest.as_mut().unwrap();
    assert_eq!(o.status.code(), Some(75), "{}", text(o));
    assert_eq!(owners(&data), before);
    let log = std::fs::read_to_string(tmp.path().join("ingest.log")).unwrap();
    assert!(log.contains("refusing to run as root"), "{log}");

    // As the folder's owner, the same command works, and every file is theirs.
    let o = Command::new("setpriv")
        .args([
            "--reuid",
            &NOBODY.to_string(),
            "--regid",
            &NOBODY.to_string(),
        ])
        .arg("--clear-groups")
        .arg(env!("CARGO_BIN_EXE_castellan"))
        .args(["--config", "/dev/null", "--data-dir"])
        .arg(&data)
        .args(["serve", "--once"])
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", text(&o));
    for (path, uid) in owners(&data) {
        assert_eq!(uid, NOBODY, "{path}");
    }
}
