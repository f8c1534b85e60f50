//! The command line as scripts use it: the names in design.md, the JSON fields
//! of `simulate`, and clear refusals of bad input (exit code and a message that says how).

use std::process::{Command, Output};

fn castellan(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_castellan"))
        .args(args)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .unwrap()
}

/// "The JSON has at least games, finished, turns_mean, turns_max, games_per_sec",
/// for every game (the same command for Risk, Castrum, Castello), and every
/// game ends and replays from its seed.
#[test]
fn simulate_prints_the_documented_json_for_every_game() {
    // Each game's seat counts; a game not listed: its fewest seats.
    let listed = [
        ("castle-risk", 3),
        ("risk", 2),
        ("risk", 6),
        ("castrum", 4),
        ("castello", 2),
    ];
    for (info, players) in castellan::games::cases(&listed, |g| g.min_seats).unwrap() {
        let game = info.name;
        let out = castellan(&[
            "simulate",
            "--game",
            game,
            "--players",
            &players.to_string(),
            "--games",
            "2",
            "--seed",
            "5",
            "--json",
        ]);
        assert!(
            out.status.success(),
            "{game}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
        for key in [
            "games",
            "finished",
            "turns_mean",
            "turns_max",
            "games_per_sec",
            "wins_by_seat",
            "replayed_identically",
        ] {
            assert!(v.get(key).is_some(), "{game}: no {key} in {v}");
        }
        assert_eq!(v["games"], 2, "{game}");
        assert_eq!(v["finished"], 2, "{game}: {v}");
        assert_eq!(v["replayed_identically"], 2, "{game}: {v}");
        assert_eq!(v["wins_by_seat"].as_array().unwrap().len(), players);
    }
}

/// Game options pass through `--option KEY=VALUE`; an unknown key is refused with the list.
#[test]
fn simulate_takes_game_options_and_refuses_unknown_ones() {
    let out = castellan(&[
        "simulate",
        "--game",
        "risk",
        "--players",
        "3",
        "--games",
        "1",
        "--option",
        "rising-sets=true",
        "--json",
    ]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let bad = castellan(&[
        "simulate",
        "--game",
        "risk",
        "--players",
        "3",
        "--games",
        "1",
        "--option",
        "colour=red",
    ]);
    assert!(!bad.status.success());
    let text = String::from_utf8_lossy(&bad.stdout);
    assert!(
        text.contains("unknown option") && text.contains("rising-sets"),
        "{text}"
    );
}

#[test]
fn an_unknown_game_is_refused_with_the_list_of_games() {
    let out = castellan(&["simulate", "--game", "chess"]);
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("unknown game \"chess\"")
            && err.contains("castle-risk")
            && err.contains("castello"),
        "{err}"
    );
}

/// The shipped configuration is the defaults; `config` prints what is in effect.
#[test]
fn config_prints_the_effective_configuration() {
    let out = castellan(&["config"]);
    assert!(out.status.success());
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        text.contains("data_dir: var") && text.contains("kind: maildir"),
        "{text}"
    );
    let missing = castellan(&["--config", "/nonexistent/castellan.yaml", "config"]);
    assert!(
        !missing.status.success(),
        "a config file named on the command line must exist"
    );
}

/// A configured CA file that cannot be used stops `serve` before it starts, naming the key.
#[test]
fn serve_refuses_an_unusable_ca_file_naming_the_key() {
    let dir = tempfile::tempdir().unwrap();
    let cfg = dir.path().join("c.yaml");
    std::fs::write(
        &cfg,
        format!(
            "data_dir: {}\noutbound:\n  kind: smtp\n  smtp: {{ ca_file: {}/missing.pem }}\n",
            dir.path().display(),
            dir.path().display()
        ),
    )
    .unwrap();
    let out = castellan(&["--config", cfg.to_str().unwrap(), "serve", "--once"]);
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("outbound.smtp.ca_file") && err.contains("missing.pem"),
        "{err}"
    );
}

/// `bench --json` with a list of table counts, the long game and
/// `--stored-games`, at tiny sizes; the fields are there (their numbers are not asserted).
#[test]
fn bench_measures_table_counts_the_long_game_and_stored_games() {
    let out = castellan(&[
        "bench",
        "--mails",
        "20",
        "--tables",
        "1,2",
        "--late-turn",
        "20",
        "--stored-games",
        "50",
        "--games",
        "0",
        "--json",
    ]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let tables = v["tables"].as_array().unwrap();
    assert_eq!(tables.len(), 2, "{v}");
    for t in tables {
        for key in [
            "mails_per_sec_service",
            "mails_per_sec_wall",
            "latency_ms_p50",
            "latency_ms_p99",
        ] {
            assert!(t[key].is_number(), "no {key} in {t}");
        }
    }
    for key in [
        "service_ms_per_mail_early",
        "service_ms_per_mail_late",
        "largest_value_bytes",
    ] {
        assert!(v[key].is_number(), "no {key} in {v}");
    }
    assert!(v["late_turns_measured"].is_array(), "{v}");
    let stored = &v["stored_games"];
    assert_eq!(stored["games"], 50, "{v}");
    assert_eq!(stored["due"], 0, "{v}");
    assert!(stored["startup_and_empty_pass_ms"].is_number(), "{v}");
    assert!(stored.get("peak_rss_kib").is_some(), "{v}");
}

/// Operating guide, "Rolling backups": `serve --once`, as the packaged timer runs it, makes
/// the rolling backups the daemon makes: one on its first pass, none again before
/// `backup.every_hours`.
#[test]
fn serve_once_makes_the_rolling_backups() {
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().to_str().unwrap();
    let backups = || {
        std::fs::read_dir(dir.path().join("backups"))
            .map(|rd| {
                rd.map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
                    .filter(|n| n.starts_with("backup-") && n.ends_with(".jsonl"))
                    .count()
            })
            .unwrap_or(0)
    };
    for _ in 0..2 {
        let out = castellan(&["--data-dir", data, "serve", "--once"]);
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        assert_eq!(backups(), 1);
    }
}

/// `castellan ingest` on configuration `cfg` with a small mail on stdin, its log in `log`.
fn ingest_with(cfg: &std::path::Path, log: &std::path::Path) -> Output {
    use std::io::Write;
    let mut child = Command::new(env!("CARGO_BIN_EXE_castellan"))
        .arg("--config")
        .arg(cfg)
        .arg("ingest")
        .env("CASTELLAN_LOG_FILE", log)
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(b"From: a@example.org\r\nTo: judge@example.org\r\nMessage-ID: <m1@example.org>\r\nSubject: hi\r\n\r\nhello\r\n")
        .unwrap();
    child.wait_with_output().unwrap()
}

/// What `ingest` printed (an MTA puts it into the bounce).
fn printed(out: &Output) -> String {
    format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    )
}

/// A configuration mistake of ours never bounces a player's mail:
/// `ingest` exits 75 (the MTA keeps the mail and retries) and prints no path, key or
/// error (the bounce would show them); the log has the detail.
#[test]
fn ingest_defers_on_an_unknown_config_key_and_shows_nothing_of_it() {
    let dir = tempfile::tempdir().unwrap();
    let cfg = dir.path().join("secret-place.yaml");
    std::fs::write(
        &cfg,
        format!(
            "data_dir: {}\ncolour_of_the_judge: red\n",
            dir.path().display()
        ),
    )
    .unwrap();
    let log = dir.path().join("log");
    let out = ingest_with(&cfg, &log);
    let text = printed(&out);
    assert_eq!(out.status.code(), Some(75), "{text}");
    assert!(
        !text.contains("secret-place") && !text.contains("colour_of_the_judge"),
        "{text}"
    );
    assert!(text.contains("temporary failure"), "{text}");
    let logged = std::fs::read_to_string(&log).unwrap();
    assert!(
        logged.contains("secret-place.yaml") && logged.contains("colour_of_the_judge"),
        "{logged}"
    );
}

/// A configuration file that cannot be read (here a folder: root reads
/// any file) defers the mail.
#[test]
fn ingest_defers_on_an_unreadable_config() {
    let dir = tempfile::tempdir().unwrap();
    let cfg = dir.path().join("castellan.yaml");
    std::fs::create_dir(&cfg).unwrap();
    let log = dir.path().join("log");
    let out = ingest_with(&cfg, &log);
    let text = printed(&out);
    assert_eq!(out.status.code(), Some(75), "{text}");
    assert!(!text.contains("castellan.yaml"), "{text}");
    let missing = ingest_with(&dir.path().join("missing.yaml"), &log);
    assert_eq!(missing.status.code(), Some(75), "{}", printed(&missing));
    assert!(!printed(&missing).contains("missing.yaml"));
}

/// A data directory that cannot be written (here under a file, which
/// stops root too) defers the mail, naming no path.
#[test]
fn ingest_defers_when_the_data_directory_cannot_be_written() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("a-file");
    std::fs::write(&file, "x").unwrap();
    let cfg = dir.path().join("castellan.yaml");
    std::fs::write(&cfg, format!("data_dir: {}/data\n", file.display())).unwrap();
    let log = dir.path().join("log");
    let out = ingest_with(&cfg, &log);
    let text = printed(&out);
    assert_eq!(out.status.code(), Some(75), "{text}");
    assert!(!text.contains("a-file"), "{text}");
    assert!(std::fs::read_to_string(&log).unwrap().contains("a-file"));
}

/// Without `--config`, CASTELLAN_CONFIG names the file; every command
/// says which file it read (`config` first, as a YAML comment; `doctor` first).
#[test]
fn the_config_comes_from_castellan_config_and_each_command_names_it() {
    let dir = tempfile::tempdir().unwrap();
    let cfg = dir.path().join("from-env.yaml");
    std::fs::write(&cfg, format!("data_dir: {}/data\n", dir.path().display())).unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_castellan"))
        .arg("config")
        .env("CASTELLAN_CONFIG", &cfg)
        .current_dir(dir.path())
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{out:?}");
    let first = text.lines().next().unwrap_or_default();
    assert!(
        first.starts_with("# configuration: ") && first.contains("from-env.yaml"),
        "{text}"
    );
    assert!(
        text.contains(&format!("{}/data", dir.path().display())),
        "{text}"
    );
    let doctor = Command::new(env!("CARGO_BIN_EXE_castellan"))
        .arg("doctor")
        .env("CASTELLAN_CONFIG", &cfg)
        .current_dir(dir.path())
        .output()
        .unwrap();
    let first = String::from_utf8_lossy(&doctor.stdout)
        .lines()
        .next()
        .unwrap_or_default()
        .to_string();
    assert!(first.contains("from-env.yaml"), "{first}");
    // A command with a summary of its own says it on stderr (its log).
    let list = Command::new(env!("CARGO_BIN_EXE_castellan"))
        .args(["game", "list"])
        .env("CASTELLAN_CONFIG", &cfg)
        .current_dir(dir.path())
        .output()
        .unwrap();
    assert!(
        String::from_utf8_lossy(&list.stderr).contains("from-env.yaml"),
        "{list:?}"
    );
    // A missing file named by CASTELLAN_CONFIG is an error, not the defaults.
    let missing = Command::new(env!("CARGO_BIN_EXE_castellan"))
        .arg("config")
        .env("CASTELLAN_CONFIG", dir.path().join("nope.yaml"))
        .current_dir(dir.path())
        .output()
        .unwrap();
    assert!(!missing.status.success());
    // `--config /dev/null`: the built-in defaults.
    let null = castellan(&["--config", "/dev/null", "config"]);
    assert!(null.status.success(), "{null:?}");
    assert!(String::from_utf8_lossy(&null.stdout).contains("built-in defaults"));
}

/// An SMTP relay that accepts the connection and never answers (lettre's bug 1027) no
/// longer hangs `ingest`: the reply fails within `outbound.smtp.timeout_seconds`, stays in
/// the outbox for a retry, and `ingest` exits 0 (the mail was taken).
#[test]
fn ingest_with_a_relay_that_never_answers_returns_and_keeps_the_reply() {
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let port = listener.local_addr().unwrap().port();
    std::thread::spawn(move || {
        let mut held = Vec::new();
        for c in listener.incoming() {
            held.push(c);
        }
    });
    let dir = tempfile::tempdir().unwrap();
    let cfg = dir.path().join("castellan.yaml");
    std::fs::write(
        &cfg,
        format!(
            "data_dir: {}\ntemplates_dir: {}/crates/judge/templates\n\
             outbound:\n  kind: smtp\n  smtp: {{ host: 127.0.0.1, port: {port}, security: none, timeout_seconds: 1 }}\n",
            dir.path().display(),
            env!("CARGO_MANIFEST_DIR")
        ),
    )
    .unwrap();
    let mut child = Command::new(env!("CARGO_BIN_EXE_castellan"))
        .arg("--config")
        .arg(&cfg)
        .arg("ingest")
        .env("CASTELLAN_LOG_FILE", dir.path().join("log"))
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    {
        use std::io::Write;
        child
            .stdin
            .take()
            .unwrap()
            .write_all(b"From: Ann <ann@example.org>\r\nTo: judge@castellan.invalid\r\nSubject: help\r\nMessage-ID: <hang-1@example.org>\r\n\r\nHELP\r\n")
            .unwrap();
    }
    // A generous outer bound (10x the deadline), only so that a hang fails the test.
    let give_up = std::time::Instant::now() + std::time::Duration::from_secs(10);
    while child.try_wait().unwrap().is_none() {
        if std::time::Instant::now() > give_up {
            let _ = child.kill();
            panic!("ingest still hangs on a silent relay after 10x its deadline");
        }
        std::thread::sleep(std::time::Duration::from_millis(50));
    }
    let out = child.wait_with_output().unwrap();
    assert_eq!(out.status.code(), Some(0), "{}", printed(&out));
    let outbox = castellan(&["--config", cfg.to_str().unwrap(), "outbox"]);
    let text = String::from_utf8_lossy(&outbox.stdout);
    assert!(
        text.lines()
            .next()
            .is_some_and(|l| !l.starts_with("0 waiting") && l.ends_with(", 0 parked")),
        "the reply must wait in the outbox for a retry: {text}"
    );
    assert!(text.contains("no answer within"), "{text}");
}

/// `castellan config` hides the passwords unless `--show-secrets`.
#[test]
fn config_hides_the_passwords_unless_asked() {
    let dir = tempfile::tempdir().unwrap();
    let cfg = dir.path().join("c.yaml");
    std::fs::write(
        &cfg,
        "inbound:\n  imap: { user: judge, password: imap-pw-1 }\n\
         outbound:\n  smtp: { user: judge, password: smtp-pw-2 }\n\
         judge:\n  creator_password: creator-pw-3\n",
    )
    .unwrap();
    let c = cfg.to_str().unwrap();
    let out = castellan(&["--config", c, "config"]);
    assert!(out.status.success(), "{out:?}");
    let text = String::from_utf8_lossy(&out.stdout);
    for pw in ["imap-pw-1", "smtp-pw-2", "creator-pw-3"] {
        assert!(!text.contains(pw), "{pw}: {text}");
    }
    assert_eq!(text.matches("--show-secrets").count(), 3, "{text}");
    let shown = castellan(&["--config", c, "config", "--show-secrets"]);
    let text = String::from_utf8_lossy(&shown.stdout);
    for pw in ["imap-pw-1", "smtp-pw-2", "creator-pw-3"] {
        assert!(text.contains(pw), "{pw}: {text}");
    }
}

/// A backup and an export made by hand are 0600 whatever the umask
/// (here 022, which would leave them readable by all).
#[test]
fn backups_and_exports_are_private_whatever_the_umask() {
    use std::os::unix::fs::PermissionsExt;
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path().display().to_string();
    let bin = env!("CARGO_BIN_EXE_castellan");
    let demo = Command::new(bin)
        .args(["demo", "--max-mails", "30", "--dir", &d])
        .output()
        .unwrap();
    assert!(demo.status.success(), "{demo:?}");
    let script = format!(
        "umask 022 && '{bin}' --config /dev/null --data-dir '{d}' backup '{d}/b.jsonl' && \
         '{bin}' --config /dev/null --data-dir '{d}' game export castle-1 '{d}/e.json'"
    );
    let out = Command::new("sh").arg("-c").arg(&script).output().unwrap();
    assert!(out.status.success(), "{out:?}");
    for f in ["b.jsonl", "e.json"] {
        let mode = std::fs::metadata(dir.path().join(f))
            .unwrap()
            .permissions()
            .mode();
        assert_eq!(mode & 0o777, 0o600, "{f}: {mode:o}");
    }
}

/// A typo in the MTA's pipe (a flag clap refuses) is a mistake of ours
/// too: deferred (75), the usage not printed into the bounce.
#[test]
fn ingest_defers_on_a_command_line_it_refuses() {
    let dir = tempfile::tempdir().unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_castellan"))
        .args(["--confgi", "/etc/castellan/castellan.yaml", "ingest"])
        .env("CASTELLAN_LOG_FILE", dir.path().join("log"))
        .stdin(std::process::Stdio::null())
        .output()
        .unwrap();
    let text = printed(&out);
    assert_eq!(out.status.code(), Some(75), "{text}");
    assert!(
        !text.contains("confgi") && !text.contains("Usage"),
        "{text}"
    );
    let logged = std::fs::read_to_string(dir.path().join("log")).unwrap();
    assert!(logged.contains("confgi"), "{logged}");
    // Any other command: clap's own message and exit status.
    let other = castellan(&["--confgi", "x", "config"]);
    assert_eq!(other.status.code(), Some(2));
}

/// An IMAP server that accepts the connection and never answers no
/// longer holds `serve --once`: the poll fails within `inbound.imap.timeout_seconds`.
#[test]
fn serve_once_with_an_imap_server_that_never_answers_returns() {
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let port = listener.local_addr().unwrap().port();
    std::thread::spawn(move || {
        let mut held = Vec::new();
        for c in listener.incoming() {
            held.push(c);
        }
    });
    let dir = tempfile::tempdir().unwrap();
    let cfg = dir.path().join("castellan.yaml");
    std::fs::write(
        &cfg,
        format!(
            "data_dir: {}\ntemplates_dir: {}/crates/judge/templates\n\
             inbound:\n  kind: imap\n  imap: {{ host: 127.0.0.1, port: {port}, tls: false, user: j, password: p, timeout_seconds: 1 }}\n",
            dir.path().display(),
            env!("CARGO_MANIFEST_DIR")
        ),
    )
    .unwrap();
    let mut child = Command::new(env!("CARGO_BIN_EXE_castellan"))
        .arg("--config")
        .arg(&cfg)
        .args(["serve", "--once"])
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    // A generous outer bound (10x the deadline), only so that a hang fails the test.
    let give_up = std::time::Instant::now() + std::time::Duration::from_secs(10);
    while child.try_wait().unwrap().is_none() {
        if std::time::Instant::now() > give_up {
            let _ = child.kill();
            panic!("serve --once still hangs on a silent IMAP server after 10x its deadline");
        }
        std::thread::sleep(std::time::Duration::from_millis(50));
    }
    let out = child.wait_with_output().unwrap();
    assert!(
        printed(&out).contains("no answer within"),
        "{}",
        printed(&out)
    );
}
