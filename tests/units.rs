//! The systemd units in contrib/: `systemd-analyze verify` passes on the daemon's
//! unit and on the `serve --once` service and timer, offline, with no systemd running: the
//! units go into a scratch root beside the real binary (as /usr/bin/castellan, where the
//! package puts it) and a copy of the system's own units. Any warning fails the test, and a
//! broken unit is shown to be caught. Needs systemd-analyze (scripts/install-test-deps.sh
//! installs systemd); without it the test fails, saying so.

use std::path::{Path, PathBuf};
use std::process::Command;

const UNITS: [&str; 3] = [
    "castellan.service",
    "castellan-once.service",
    "castellan-once.timer",
];

fn contrib(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("contrib")
        .join(name)
}

fn read(name: &str) -> String {
    std::fs::read_to_string(contrib(name)).unwrap_or_else(|e| panic!("contrib/{name}: {e}"))
}

/// A root with the system's units, the binary at /usr/bin/castellan and `units`
/// (name, text) in /etc/systemd/system.
fn scratch_root(units: &[(&str, String)]) -> tempfile::TempDir {
    let root = tempfile::tempdir().unwrap();
    let r = root.path();
    let system_units = Path::new("/lib/systemd/system");
    assert!(
        system_units.join("sysinit.target").exists(),
        "no systemd units in /lib/systemd/system: install systemd (scripts/install-test-deps.sh)"
    );
    std::fs::create_dir_all(r.join("usr/lib/systemd")).unwrap();
    let cp = Command::new("cp")
        .arg("-r")
        .arg(system_units)
        .arg(r.join("usr/lib/systemd/"))
        .status()
        .unwrap();
    assert!(cp.success());
    std::fs::create_dir_all(r.join("usr/bin")).unwrap();
    std::fs::copy(env!("CARGO_BIN_EXE_castellan"), r.join("usr/bin/castellan")).unwrap();
    // ExecReload= sends SIGHUP with /bin/kill.
    std::fs::create_dir_all(r.join("bin")).unwrap();
    std::fs::copy("/bin/kill", r.join("bin/kill")).unwrap();
    std::fs::create_dir_all(r.join("etc/systemd/system")).unwrap();
    for (name, text) in units {
        std::fs::write(r.join("etc/systemd/system").join(name), text).unwrap();
    }
    root
}

/// `systemd-analyze verify --root` on the named units: (success, everything it printed).
fn verify(root: &Path, names: &[&str]) -> (bool, String) {
    let out = Command::new("systemd-analyze")
        .arg("verify")
        .arg(format!("--root={}", root.display()))
        .args(names.iter().map(|n| format!("/etc/systemd/system/{n}")))
        .env("SYSTEMD_LOG_COLOR", "0")
        .output()
        .unwrap_or_else(|e| {
            panic!(
                "cannot run systemd-analyze ({e}): install systemd (scripts/install-test-deps.sh)"
            )
        });
    (
        out.status.success(),
        format!(
            "{}{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        ),
    )
}

#[test]
fn systemd_analyze_verify_passes_on_every_unit_without_a_warning() {
    let units: Vec<(&str, String)> = UNITS.iter().map(|n| (*n, read(n))).collect();
    let root = scratch_root(&units);
    let (ok, said) = verify(root.path(), &UNITS);
    assert!(ok, "systemd-analyze verify failed:\n{said}");
    assert!(
        said.trim().is_empty(),
        "systemd-analyze verify warned:\n{said}"
    );
}

#[test]
fn the_check_catches_a_broken_unit() {
    let broken = read("castellan.service")
        .replace("Restart=on-failure", "Restart=sometimes")
        .replace("NoNewPrivileges=yes", "NoNewPrivilege=yes");
    let root = scratch_root(&[("castellan.service", broken)]);
    let (_, said) = verify(root.path(), &["castellan.service"]);
    assert!(said.contains("sometimes"), "{said}");
    assert!(said.contains("NoNewPrivilege"), "{said}");
    // and a missing binary fails outright
    std::fs::remove_file(root.path().join("usr/bin/castellan")).unwrap();
    std::fs::write(
        root.path().join("etc/systemd/system/castellan.service"),
        read("castellan.service"),
    )
    .unwrap();
    let (ok, said) = verify(root.path(), &["castellan.service"]);
    assert!(!ok && said.contains("/usr/bin/castellan"), "{said}");
}

/// What is asked of the units, and that they agree with the package's paths.
#[test]
fn the_units_run_as_their_own_user_hardened_with_state_and_restart() {
    for name in ["castellan.service", "castellan-once.service"] {
        let u = read(name);
        for line in [
            "User=castellan",
            "StateDirectory=castellan",
            "WorkingDirectory=/var/lib/castellan",
            "NoNewPrivileges=yes",
            "ProtectSystem=strict",
            "ProtectHome=yes",
            "PrivateTmp=yes",
            "ReadWritePaths=/var/lib/castellan",
        ] {
            assert!(u.lines().any(|l| l == line), "{name}: no {line}");
        }
    }
    let daemon = read("castellan.service");
    for line in [
        "ExecStart=/usr/bin/castellan --config /etc/castellan/castellan.yaml serve",
        "Restart=on-failure",
        "KillSignal=SIGTERM",
        "WantedBy=multi-user.target",
    ] {
        assert!(
            daemon.lines().any(|l| l == line),
            "castellan.service: no {line}"
        );
    }
    let once = read("castellan-once.service");
    assert!(once
        .lines()
        .any(|l| l
            == "ExecStart=/usr/bin/castellan --config /etc/castellan/castellan.yaml serve --once"));
    assert!(once.lines().any(|l| l == "Type=oneshot"));
    assert!(once.lines().any(|l| l == "Conflicts=castellan.service"));
    let timer = read("castellan-once.timer");
    assert!(timer.lines().any(|l| l == "Unit=castellan-once.service"));
    assert!(timer.lines().any(|l| l == "WantedBy=timers.target"));
}

/// The package's configuration (/etc/castellan/castellan.yaml) loads, and points where the
/// units and the package put things.
#[test]
fn the_packaged_config_loads_and_agrees_with_the_units() {
    let c = castellan::config::Config::load(&contrib("castellan.yaml"), true).unwrap();
    assert_eq!(c.data_dir, Path::new("/var/lib/castellan"));
    // The templates an operator rewords: conffiles in /etc, kept on upgrade.
    assert_eq!(c.templates_dir, Path::new("/etc/castellan/templates"));
    // SMTP to the local MTA: sendmail's setgid/setuid helpers cannot run under the units'
    // NoNewPrivileges.
    assert_eq!(c.outbound.kind, castellan::config::OutboundKind::Smtp);
    assert!(read("castellan.service")
        .lines()
        .any(|l| l == "NoNewPrivileges=yes"));
}

/// Several judges on one host: `castellan@NAME.service` passes `systemd-analyze verify` as
/// an instance, reads /etc/castellan/NAME.yaml and writes only /var/lib/castellan/NAME;
/// it and the daemon reload on `systemctl reload` (SIGHUP) instead of restarting.
#[test]
fn the_template_unit_runs_one_judge_per_instance_and_both_daemons_reload() {
    let template = read("castellan@.service");
    let root = scratch_root(&[("castellan@.service", template.clone())]);
    let (ok, said) = verify(root.path(), &["castellan@league.service"]);
    assert!(
        ok && said.trim().is_empty(),
        "systemd-analyze verify:\n{said}"
    );
    for line in [
        "ExecStart=/usr/bin/castellan --config /etc/castellan/%i.yaml serve",
        "StateDirectory=castellan/%i",
        "WorkingDirectory=/var/lib/castellan/%i",
        "ReadWritePaths=/var/lib/castellan/%i",
        "User=castellan",
        "NoNewPrivileges=yes",
        "ExecReload=/bin/kill -HUP $MAINPID",
    ] {
        assert!(
            template.lines().any(|l| l == line),
            "castellan@.service: no {line}"
        );
    }
    assert!(read("castellan.service")
        .lines()
        .any(|l| l == "ExecReload=/bin/kill -HUP $MAINPID"));
}
