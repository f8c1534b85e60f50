//! The command line as scripts use it: the names in design.md and issue 3, the JSON fields
//! of `simulate`, and clear refusals of bad input (exit code and a message that says how).

use std::process::{Command, Output};

fn castellan(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_castellan"))
        .args(args)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .unwrap()
}

/// Issue 2: "The JSON has at least games, finished, turns_mean, turns_max, games_per_sec",
/// for every game (issues 4 and 5: the same command for Risk, Castrum, Castello), and every
/// game ends and replays from its seed.
#[test]
fn simulate_prints_the_documented_json_for_every_game() {
    for (game, players) in [
        ("castle-risk", 3),
        ("risk", 2),
        ("risk", 6),
        ("castrum", 4),
        ("castello", 2),
    ] {
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

/// Issue 11, item 7: `bench --json` with a list of table counts, the long game and
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
