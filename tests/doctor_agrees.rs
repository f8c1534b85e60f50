//! `castellan doctor` does not lie: for each broken set-up under which `ingest` defers a
//! mail (exit 75), doctor fails with the fix; where ingest takes the mail, doctor is
//! content. Real data folders (the demo's sled database, Maildir and journal), the real
//! binary, and the users the package runs them as.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

const NOBODY: u32 = 65534;

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

/// `castellan --config CFG ARGS`, as `user` (None: this process's).
fn castellan(cfg: &Path, user: Option<u32>, args: &[&str]) -> Command {
    let mut c = match user {
        Some(uid) => {
            let mut c = Command::new("setpriv");
            c.args(["--reuid", &uid.to_string(), "--regid", &uid.to_string()])
                .arg("--clear-groups")
                .arg(env!("CARGO_BIN_EXE_castellan"));
            c
        }
        None => Command::new(env!("CARGO_BIN_EXE_castellan")),
    };
    c.arg("--config").arg(cfg).args(args);
    c.env("CASTELLAN_LOG", "warn");
    c
}

fn doctor(cfg: &Path, user: Option<u32>) -> (bool, String) {
    let o = castellan(cfg, user, &["doctor"]).output().unwrap();
    let out = text(&o);
    for line in out.lines() {
        if line.starts_with("FAIL") || line.starts_with("WARN") {
            assert!(line.contains("; fix: "), "no fix on: {line}\n{out}");
        }
    }
    (o.status.success(), out)
}

/// A mail piped to `ingest` as `user`; its exit status.
fn ingest(cfg: &Path, user: Option<u32>, n: usize) -> i32 {
    let mut child = castellan(cfg, user, &["ingest"])
        .env("CASTELLAN_LOG_FILE", "/dev/null")
        .stdin(Stdio::piped())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    write!(
        child.stdin.take().unwrap(),
        "From: Ann <ann@example.org>\r\nTo: judge@castellan.invalid\r\nSubject: hi\r\n\
         Message-ID: <doctor-{n}@example.org>\r\n\r\nLIST\r\n"
    )
    .unwrap();
    child.wait().unwrap().code().unwrap()
}

/// A copy of a played demo's data folder in `tmp/name`, with its configuration.
fn setup(tmp: &Path, name: &str) -> (PathBuf, PathBuf) {
    let demo = tmp.join("demo");
    if !demo.exists() {
        let o = Command::new(env!("CARGO_BIN_EXE_castellan"))
            .args([
                "--config",
                "/dev/null",
                "demo",
                "--max-mails",
                "10",
                "--dir",
            ])
            .arg(&demo)
            .output()
            .unwrap();
        assert!(o.status.success(), "{}", text(&o));
    }
    let data = tmp.join(name);
    let o = Command::new("cp")
        .arg("-a")
        .arg(&demo)
        .arg(&data)
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", text(&o));
    let cfg = tmp.join(format!("{name}.yaml"));
    std::fs::write(
        &cfg,
        format!(
            "data_dir: {}\ntemplates_dir: {}/crates/judge/templates\n",
            data.display(),
            env!("CARGO_MANIFEST_DIR")
        ),
    )
    .unwrap();
    (data, cfg)
}

fn chown_r(path: &Path, uid: u32) {
    let o = Command::new("chown")
        .arg("-R")
        .arg(format!("{uid}:{uid}"))
        .arg(path)
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", text(&o));
}

#[test]
fn doctor_fails_wherever_ingest_defers_and_gives_the_fix() {
    let tmp = tempfile::tempdir().unwrap();
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(tmp.path(), std::fs::Permissions::from_mode(0o755)).unwrap();
    let mut n = 0;
    let mut next = || {
        n += 1;
        n
    };

    // Healthy: both content.
    let (_, cfg) = setup(tmp.path(), "healthy");
    let (healthy, out) = doctor(&cfg, None);
    assert!(healthy, "{out}");
    assert_eq!(ingest(&cfg, None, next()), 0);

    // The database gone (a lost disk, a deleted folder): back in time.
    let (data, cfg) = setup(tmp.path(), "gone");
    std::fs::remove_dir_all(data.join("db")).unwrap();
    let (healthy, out) = doctor(&cfg, None);
    assert!(!healthy && out.contains("went back in time"), "{out}");
    assert!(out.contains("fix: castellan recover"), "{out}");
    assert_eq!(ingest(&cfg, None, next()), 75);
    // ingest made an empty database meanwhile: still back in time, still said.
    let (healthy, out) = doctor(&cfg, None);
    assert!(!healthy && out.contains("went back in time"), "{out}");
    // The fix works, and then both are content.
    let o = castellan(&cfg, None, &["recover"]).output().unwrap();
    assert!(o.status.success(), "{}", text(&o));
    assert_eq!(ingest(&cfg, None, next()), 0);
    let (healthy, out) = doctor(&cfg, None);
    assert!(healthy, "{out}");
    assert!(out.contains("set aside by `castellan recover`"), "{out}");

    // The database file scribbled over: the fix is recover, never a restore that loses
    // every mail since the backup.
    let (data, cfg) = setup(tmp.path(), "scribbled");
    let db = data.join("db/db");
    let len = std::fs::metadata(&db).unwrap().len() as usize;
    std::fs::write(&db, vec![0x5a; len]).unwrap();
    let (healthy, out) = doctor(&cfg, None);
    assert!(!healthy, "{out}");
    assert!(out.contains("castellan recover"), "{out}");
    assert!(!out.contains("backup --restore"), "{out}");
    assert_eq!(ingest(&cfg, None, next()), 75);

    if !is_root() {
        eprintln!("skipped the ownership set-ups: they need root");
        return;
    }
    // The package's way: the data folder is the judge user's (here nobody), and a command
    // run as root left the journal root's.
    let (data, cfg) = setup(tmp.path(), "rootjournal");
    chown_r(&data, NOBODY);
    std::os::unix::fs::chown(data.join("journal.jsonl"), Some(0), Some(0)).unwrap();
    assert_eq!(ingest(&cfg, Some(NOBODY), next()), 75);
    for user in [None, Some(NOBODY)] {
        let (healthy, out) = doctor(&cfg, user);
        assert!(!healthy, "{user:?}: {out}");
        assert!(
            out.contains("FAIL  ownership") && out.contains("journal.jsonl (root)"),
            "{user:?}: {out}"
        );
        assert!(out.contains("chown -R nobody:"), "{user:?}: {out}");
    }
    // Run as root, doctor checks as the folder's owner and leaves nothing of root's.
    let (_, out) = doctor(&cfg, None);
    assert!(out.contains("checks run as nobody"), "{out}");
    std::os::unix::fs::chown(data.join("journal.jsonl"), Some(NOBODY), Some(NOBODY)).unwrap();
    let (healthy, out) = doctor(&cfg, None);
    assert!(healthy, "{out}");
    assert_eq!(ingest(&cfg, Some(NOBODY), next()), 0);

    // A configuration the judge's user cannot read.
    let (data, cfg) = setup(tmp.path(), "unreadable");
    chown_r(&data, NOBODY);
    std::fs::set_permissions(&cfg, std::fs::Permissions::from_mode(0o600)).unwrap();
    assert_eq!(ingest(&cfg, Some(NOBODY), next()), 75);
    let (healthy, out) = doctor(&cfg, None);
    assert!(!healthy && out.contains("nobody cannot read"), "{out}");
}

/// Doctor fails when the running daemon's configuration is not the command's.
#[test]
fn doctor_fails_when_the_running_daemon_reads_another_configuration() {
    let tmp = tempfile::tempdir().unwrap();
    let (data, cfg) = setup(tmp.path(), "served");
    let log = tmp.path().join("serve.log");
    let mut daemon = castellan(&cfg, None, &["serve"])
        .stdout(Stdio::null())
        .stderr(std::fs::File::create(&log).unwrap())
        .spawn()
        .unwrap();
    let start = Instant::now();
    while !data.join("admin.sock").exists() {
        assert!(
            start.elapsed() < Duration::from_secs(60),
            "{}",
            std::fs::read_to_string(&log).unwrap()
        );
        std::thread::sleep(Duration::from_millis(50));
    }
    let (healthy, out) = doctor(&cfg, None);
    assert!(out.contains("uses this same configuration"), "{out}");
    assert!(healthy, "{out}");
    // The file edited after the daemon started.
    let edited = tmp.path().join("edited.yaml");
    let mut text = std::fs::read_to_string(&cfg).unwrap();
    text.push_str("tick_seconds: 17\n");
    std::fs::write(&edited, text).unwrap();
    let (healthy, out) = doctor(&edited, None);
    assert!(!healthy, "{out}");
    assert!(
        out.contains("uses another configuration") && out.contains("tick_seconds: 17"),
        "{out}"
    );
    let _ = Command::new("kill")
        .args(["-TERM", &daemon.id().to_string()])
        .status();
    assert!(daemon.wait().unwrap().success());
}

/// A relay that takes the connection and never answers: doctor fails within its timeout,
/// with the fix, instead of hanging or calling it well. (`ingest` takes the mail all the
/// same: its reply waits in the outbox, sent apart from judging.)
#[test]
fn a_relay_that_hangs_is_a_failure_with_its_fix() {
    let tmp = tempfile::tempdir().unwrap();
    let (_, cfg) = setup(tmp.path(), "hangs");
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let port = listener.local_addr().unwrap().port();
    let held = std::thread::spawn(move || {
        let (s, _) = listener.accept().unwrap();
        std::thread::sleep(Duration::from_secs(40));
        drop(s);
    });
    let mut text = std::fs::read_to_string(&cfg).unwrap();
    text.push_str(&format!(
        "outbound:\n  kind: smtp\n  smtp: {{ host: 127.0.0.1, port: {port}, security: none }}\n"
    ));
    std::fs::write(&cfg, text).unwrap();
    let start = Instant::now();
    let (healthy, out) = doctor(&cfg, None);
    assert!(start.elapsed() < Duration::from_secs(30), "{out}");
    assert!(!healthy, "{out}");
    assert!(out.contains("FAIL  smtp"), "{out}");
    assert!(out.contains("did not answer within"), "{out}");
    drop(held);
}
