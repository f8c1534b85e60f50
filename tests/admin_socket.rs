//! Admin while it runs: the running daemon (`castellan serve`, a real process on a real
//! sled database and Maildir) answers the admin commands over its socket in the data
//! folder; with no daemon the same commands run directly. Each says which way it went.

use std::path::{Path, PathBuf};
use std::process::{Child, Command, Output, Stdio};
use std::time::{Duration, Instant};

fn castellan(cfg: &Path, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_castellan"))
        .arg("--config")
        .arg(cfg)
        .args(args)
        .env("CASTELLAN_LOG", "warn")
        .output()
        .unwrap()
}

fn text(o: &Output) -> String {
    format!(
        "status {:?}\nstdout:\n{}\nstderr:\n{}",
        o.status.code(),
        String::from_utf8_lossy(&o.stdout),
        String::from_utf8_lossy(&o.stderr)
    )
}

fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

fn wait_for(what: &str, log: &Path, f: impl Fn() -> bool) {
    let start = Instant::now();
    while !f() {
        assert!(
            start.elapsed() < Duration::from_secs(60),
            "{what} never came; the daemon's log:\n{}",
            std::fs::read_to_string(log).unwrap_or_default()
        );
        std::thread::sleep(Duration::from_millis(50));
    }
}

/// A data folder with a game played a while (the demo), and a configuration naming it.
fn played(tmp: &Path) -> (PathBuf, PathBuf) {
    let data = tmp.join("data");
    let o = Command::new(env!("CARGO_BIN_EXE_castellan"))
        .args([
            "--config",
            "/dev/null",
            "demo",
            "--max-mails",
            "10",
            "--dir",
        ])
        .arg(&data)
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", text(&o));
    let cfg = tmp.join("castellan.yaml");
    std::fs::write(&cfg, format!("data_dir: {}\n", data.display())).unwrap();
    (data, cfg)
}

fn outbox_files(data: &Path) -> usize {
    std::fs::read_dir(data.join("mail/outbox"))
        .map(|d| {
            d.flatten()
                .filter(|e| e.path().extension().is_some_and(|x| x == "eml"))
                .count()
        })
        .unwrap_or(0)
}

fn stop(mut child: Child) {
    let _ = Command::new("kill")
        .args(["-TERM", &child.id().to_string()])
        .status();
    let status = child.wait().unwrap();
    assert!(status.success(), "serve ended with {status:?}");
}

const BY_DAEMON: &str = "answered by the running daemon";
const DIRECT: &str = "run directly";

#[test]
fn the_running_daemon_answers_the_admin_commands_and_without_it_they_run_directly() {
    let tmp = tempfile::tempdir().unwrap();
    let (data, cfg) = played(tmp.path());
    let socket = data.join("admin.sock");

    // No daemon: directly, and it says so.
    let direct = castellan(&cfg, &["game", "list"]);
    assert!(direct.status.success(), "{}", text(&direct));
    assert!(text(&direct).contains(DIRECT), "{}", text(&direct));
    assert!(stdout(&direct).contains("castle-1"), "{}", text(&direct));

    let log = tmp.path().join("serve.log");
    let daemon = Command::new(env!("CARGO_BIN_EXE_castellan"))
        .arg("--config")
        .arg(&cfg)
        .arg("serve")
        .stdout(Stdio::null())
        .stderr(std::fs::File::create(&log).unwrap())
        .spawn()
        .unwrap();
    wait_for("the admin socket", &log, || socket.exists());
    use std::os::unix::fs::{MetadataExt, PermissionsExt};
    let meta = std::fs::metadata(&socket).unwrap();
    assert_eq!(meta.permissions().mode() & 0o777, 0o660);
    assert_eq!(meta.gid(), std::fs::metadata(&data).unwrap().gid());

    let run = |args: &[&str]| {
        let o = castellan(&cfg, args);
        assert!(text(&o).contains(BY_DAEMON), "{args:?}: {}", text(&o));
        o
    };
    // The same answer through the daemon as directly (its deadlines have moved on since).
    let list = run(&["game", "list"]);
    assert!(list.status.success(), "{}", text(&list));
    let head = |o: &Output| stdout(o).split(", deadline").next().unwrap().to_string();
    assert_eq!(head(&list), head(&direct));
    let show = run(&["game", "show", "castle-1"]);
    assert!(show.status.success(), "{}", text(&show));
    assert!(stdout(&show).contains("castle-1"), "{}", text(&show));

    // PAUSE takes effect in the daemon's store.
    let pause = run(&["game", "pause", "castle-1"]);
    assert!(pause.status.success(), "{}", text(&pause));
    let show = run(&["game", "show", "castle-1"]);
    assert!(
        stdout(&show).to_lowercase().contains("paused"),
        "{}",
        text(&show)
    );

    let outbox = run(&["outbox", "--retry"]);
    assert!(outbox.status.success(), "{}", text(&outbox));
    assert!(
        stdout(&outbox).contains("parked replies will be tried again"),
        "{}",
        text(&outbox)
    );
    let verify = run(&["verify", "castle-1"]);
    assert!(verify.status.success(), "{}", text(&verify));

    // Files the daemon makes are written by the caller, where it said.
    let svg = tmp.path().join("map.svg");
    let render = run(&["render", "castle-1", "--out", svg.to_str().unwrap()]);
    assert!(render.status.success(), "{}", text(&render));
    assert!(std::fs::read_to_string(&svg).unwrap().starts_with("<svg"));
    let export = tmp.path().join("castle-1.json");
    let o = run(&["game", "export", "castle-1", export.to_str().unwrap()]);
    assert!(o.status.success(), "{}", text(&o));
    let json: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&export).unwrap()).unwrap();
    assert!(json.is_object());
    assert_eq!(
        std::fs::metadata(&export).unwrap().permissions().mode() & 0o777,
        0o600
    );
    let backup = tmp.path().join("by-hand.jsonl");
    let o = run(&["backup", backup.to_str().unwrap()]);
    assert!(o.status.success(), "{}", text(&o));
    let b = std::fs::read_to_string(&backup).unwrap();
    assert!(
        b.starts_with("{\"format\":\"castellan-backup/2\"") || b.contains("castellan-backup/2")
    );
    assert!(b.trim_end().ends_with("}") && b.contains("\"end\":true"));
    // A backup to the backup folder is the daemon's to write.
    let o = run(&["backup"]);
    assert!(o.status.success(), "{}", text(&o));
    assert!(std::fs::read_dir(data.join("backups")).unwrap().count() >= 1);

    // A new game's mails: queued by the daemon, and sent by its next pass.
    let before = outbox_files(&data);
    let new = run(&[
        "game",
        "new",
        "--game",
        "castello",
        "--gm",
        "gm@castellan.test",
        "--player",
        "A=a@castellan.test",
        "--player",
        "B=b@castellan.test",
    ]);
    assert!(new.status.success(), "{}", text(&new));
    assert!(text(&new).contains("queued"), "{}", text(&new));
    wait_for("the new game's mails", &log, || {
        outbox_files(&data) > before
    });
    assert!(stdout(&run(&["game", "list"])).contains("castello-"));

    // Not an admin command: refused by the daemon, with the reason.
    let compact = castellan(&cfg, &["compact"]);
    assert!(!compact.status.success(), "{}", text(&compact));
    assert!(!text(&compact).contains("Os {"), "{}", text(&compact));

    // A daemon that does not answer on a socket (one of an older version): said so,
    // with the fix, not the lock's raw error.
    std::fs::remove_file(&socket).unwrap();
    let held = castellan(&cfg, &["game", "list"]);
    assert_eq!(held.status.code(), Some(75), "{}", text(&held));
    assert!(
        text(&held).contains("does not answer on its admin socket: restart it")
            && !text(&held).contains("Os {"),
        "{}",
        text(&held)
    );

    stop(daemon);
    assert!(!socket.exists(), "the socket outlives the daemon");
    let after = castellan(&cfg, &["game", "show", "castle-1"]);
    assert!(after.status.success(), "{}", text(&after));
    assert!(text(&after).contains(DIRECT), "{}", text(&after));
    assert!(stdout(&after).to_lowercase().contains("paused"));
}

/// A socket a killed daemon left behind is no daemon: the command runs directly.
#[test]
fn a_socket_left_by_a_killed_daemon_is_passed_by() {
    let tmp = tempfile::tempdir().unwrap();
    let (data, cfg) = played(tmp.path());
    let socket = data.join("admin.sock");
    drop(std::os::unix::net::UnixListener::bind(&socket).unwrap());
    assert!(socket.exists());
    let o = castellan(&cfg, &["game", "list"]);
    assert!(o.status.success(), "{}", text(&o));
    assert!(text(&o).contains(DIRECT), "{}", text(&o));
}
