//! `castellan doctor`: on the demo's data directory all is well (exit 0); on a
//! broken configuration every problem is named, each with its fix (exit non-zero); and the
//! network checks log in to real IMAP and SMTP servers on 127.0.0.1.

mod common;

use std::path::Path;
use std::process::{Command, Output};

fn castellan(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_castellan"))
        .args(args)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .env("CASTELLAN_LOG", "warn")
        .output()
        .unwrap()
}

fn text(o: &Output) -> String {
    format!(
        "{}{}",
        String::from_utf8_lossy(&o.stdout),
        String::from_utf8_lossy(&o.stderr)
    )
}

/// Every FAIL or WARN line carries a fix.
fn every_problem_has_a_fix(out: &str) {
    for line in out.lines() {
        if line.starts_with("FAIL") || line.starts_with("WARN") {
            assert!(line.contains("; fix: "), "no fix on: {line}\n{out}");
        }
    }
}

#[test]
fn the_demos_data_directory_is_healthy() {
    let dir = tempfile::tempdir().unwrap();
    let demo = dir.path().join("demo");
    let d = demo.to_str().unwrap();
    let o = castellan(&["demo", "--dir", d, "--max-mails", "60"]);
    assert!(o.status.success(), "{}", text(&o));
    let o = castellan(&["--data-dir", d, "doctor"]);
    let out = text(&o);
    assert!(o.status.success(), "{out}");
    assert!(out.contains("all is well"), "{out}");
    assert!(!out.contains("FAIL"), "{out}");
    assert!(out.contains("1 game(s), every record readable"), "{out}");
    assert!(out.contains("of live data"), "{out}");
    every_problem_has_a_fix(&out);

    // With a fresh backup even the warning goes.
    let o = castellan(&["--data-dir", d, "backup"]);
    assert!(o.status.success(), "{}", text(&o));
    let o = castellan(&["--data-dir", d, "doctor"]);
    let out = text(&o);
    assert!(o.status.success(), "{out}");
    assert!(out.contains("0 warnings"), "{out}");

    // What an interrupted `castellan compact` leaves beside the database is named.
    std::fs::create_dir_all(demo.join("db.before-compact-1795600000")).unwrap();
    let o = castellan(&["--data-dir", d, "doctor"]);
    let out = text(&o);
    assert!(
        out.contains("WARN") && out.contains("db.before-compact-1795600000"),
        "{out}"
    );
    every_problem_has_a_fix(&out);
}

/// A port on 127.0.0.1 that nothing listens on.
fn closed_port() -> u16 {
    let l = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    l.local_addr().unwrap().port()
}

#[test]
fn a_broken_config_names_each_problem_with_its_fix() {
    let dir = tempfile::tempdir().unwrap();
    let p = dir.path();
    // data_dir is a file; a template that does not parse; IMAP in clear to a remote host;
    // an SMTP relay nobody runs, with an unknown security and a missing CA file.
    std::fs::write(p.join("not-a-folder"), "x").unwrap();
    std::fs::create_dir(p.join("templates")).unwrap();
    std::fs::write(p.join("templates/reply.txt"), "{% for x in %}").unwrap();
    let yaml = format!(
        "data_dir: {data}\n\
         templates_dir: {templates}\n\
         inbound:\n  kind: imap\n  imap: {{ host: imap.example.org, port: 143, tls: false }}\n\
         outbound:\n  kind: smtp\n  smtp: {{ host: 127.0.0.1, port: {port}, security: bogus, ca_file: {ca} }}\n\
         judge:\n  address: nobody\n\
         metrics: {{ listen: '0.0.0.0:9464' }}\n",
        data = p.join("not-a-folder").display(),
        templates = p.join("templates").display(),
        port = closed_port(),
        ca = p.join("missing-ca.pem").display(),
    );
    let cfg = p.join("c.yaml");
    std::fs::write(&cfg, yaml).unwrap();
    let o = castellan(&["--config", cfg.to_str().unwrap(), "doctor"]);
    let out = text(&o);
    assert!(!o.status.success(), "{out}");
    for (what, fix) in [
        (
            "judge.address \"nobody\" is not a mail address",
            "set judge.address",
        ),
        (
            "outbound.smtp.security \"bogus\"",
            "set outbound.smtp.security",
        ),
        (
            "inbound.imap.tls is false for imap.example.org",
            "inbound.imap.tls: true",
        ),
        (
            "outbound.smtp.ca_file: CA file",
            "point outbound.smtp.ca_file",
        ),
        ("not-a-folder is not a folder", "set data_dir"),
        ("reply.txt", "correct the template"),
        ("Connection refused", "outbound.smtp.host"),
        ("metrics.listen \"0.0.0.0:9464\"", "set metrics.listen"),
    ] {
        let line = out
            .lines()
            .find(|l| l.starts_with("FAIL") && l.contains(what))
            .unwrap_or_else(|| panic!("no FAIL line with {what:?}:\n{out}"));
        assert!(line.contains(fix), "the fix is not {fix:?}: {line}");
    }
    every_problem_has_a_fix(&out);
    assert!(out.contains("problems"), "{out}");
}

#[test]
fn a_config_that_does_not_load_is_a_finding_not_a_crash() {
    let dir = tempfile::tempdir().unwrap();
    let cfg = dir.path().join("c.yaml");
    std::fs::write(&cfg, "data_dir: x\ncolour: red\n").unwrap();
    let o = castellan(&["--config", cfg.to_str().unwrap(), "doctor"]);
    let out = text(&o);
    assert_eq!(o.status.code(), Some(1), "{out}");
    let line = out.lines().find(|l| l.starts_with("FAIL")).expect(&out);
    assert!(line.contains("colour") && line.contains("fix:"), "{out}");

    let o = castellan(&["--config", "/nonexistent/castellan.yaml", "doctor"]);
    let out = text(&o);
    assert_eq!(o.status.code(), Some(1), "{out}");
    assert!(out.contains("FAIL") && out.contains("/nonexistent/castellan.yaml"));
}

/// The IMAP check logs in (IMAPS, with the private CA) and the SMTP check says EHLO and
/// sees STARTTLS, on the real test servers; a wrong password is named.
#[test]
fn doctor_logs_in_to_the_real_servers() {
    let w = common::World::new_tls("doctor");
    let o = w.castellan(&["doctor"], &[]);
    let out = text(&o);
    assert!(o.status.success(), "{out}");
    assert!(out.contains("logged in as judge"), "{out}");
    assert!(out.contains("answers EHLO (starttls)"), "{out}");

    let yaml = std::fs::read_to_string(&w.config_path).unwrap();
    let bad = yaml.replace(
        &format!("password: {}", common::MAIL_PASSWORD),
        "password: wrong",
    );
    assert_ne!(bad, yaml);
    let cfg = Path::new(w.data.path()).join("bad.yaml");
    std::fs::write(&cfg, bad).unwrap();
    let o = Command::new(env!("CARGO_BIN_EXE_castellan"))
        .arg("--config")
        .arg(&cfg)
        .arg("doctor")
        .output()
        .unwrap();
    let out = text(&o);
    assert!(!o.status.success(), "{out}");
    let line = out
        .lines()
        .find(|l| l.starts_with("FAIL  imap"))
        .expect(&out);
    assert!(line.contains("password"), "{line}");
}

/// doctor counts the templates in their language folders, as the judge reads them (the
/// package's /etc/castellan/templates holds `en/` and `fr/`, nothing at its top).
#[test]
fn the_templates_in_language_folders_are_counted() {
    let dir = tempfile::tempdir().unwrap();
    let p = dir.path();
    for f in ["en/report.txt", "en/answers/join.txt", "fr/report.txt"] {
        let path = p.join("templates").join(f);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, "{{ game_id }}\n").unwrap();
    }
    let yaml = format!(
        "data_dir: {data}\ntemplates_dir: {templates}\n",
        data = p.join("data").display(),
        templates = p.join("templates").display(),
    );
    let cfg = p.join("c.yaml");
    std::fs::write(&cfg, yaml).unwrap();
    let out = text(&castellan(&["--config", cfg.to_str().unwrap(), "doctor"]));
    let line = out
        .lines()
        .find(|l| l.contains("templates"))
        .unwrap_or_else(|| panic!("no templates line:\n{out}"));
    assert!(line.contains("3 template(s) parse"), "{line}\n{out}");
}
