//! Golden files: every `tests/golden/NAME.eml` is parsed with a body cap of
//! [`BODY_CAP`] bytes and compared with `NAME.expected` (the Inbound as pretty JSON,
//! but for what a delivery status notification reports: in `NAME.dsn.expected`);
//! every `tests/golden/render-NAME.json` (an OutgoingMail and a date) is rendered and
//! compared with `render-NAME.expected.eml`. One test each, naming every file that broke.
//!
//! To (re)write the expected files after a deliberate change, run with
//! `CASTELLAN_BLESS=1` and review the diff.

use std::fs;
use std::path::{Path, PathBuf};

use castellan_mail::{parse, render, OutgoingMail};

const BODY_CAP: usize = 2000;

fn golden_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/golden")
}

fn bless() -> bool {
    std::env::var_os("CASTELLAN_BLESS").is_some()
}

fn files(suffix: &str, prefix: Option<&str>) -> Vec<PathBuf> {
    let mut out: Vec<PathBuf> = fs::read_dir(golden_dir())
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| {
            let name = p.file_name().unwrap().to_string_lossy().into_owned();
            name.ends_with(suffix)
                && !name.ends_with(".expected.eml")
                && prefix.is_none_or(|pre| name.starts_with(pre))
        })
        .collect();
    out.sort();
    out
}

/// Compares (or blesses) one golden pair; returns a failure description.
fn check(expected_path: &Path, actual: &[u8]) -> Option<String> {
    if bless() {
        fs::write(expected_path, actual).unwrap();
        return None;
    }
    match fs::read(expected_path) {
        Err(e) => Some(format!("{}: cannot read ({e})", expected_path.display())),
        Ok(expected) if expected != actual => Some(format!(
            "{} differs\n--- expected\n{}\n--- actual\n{}",
            expected_path.display(),
            String::from_utf8_lossy(&expected),
            String::from_utf8_lossy(actual)
        )),
        Ok(_) => None,
    }
}

#[test]
fn parse_golden_files() {
    let emls = files(".eml", None);
    assert!(emls.len() >= 20, "golden files missing: {}", emls.len());
    let mut failures = Vec::new();
    for eml in &emls {
        let raw = fs::read(eml).unwrap();
        // A delivery status notification's reading goes apart, in NAME.dsn.expected.
        let mut dsn = None;
        let actual = match parse(&raw, BODY_CAP) {
            Ok(mut p) => {
                dsn = p.bounce.take();
                serde_json::to_string_pretty(&p).unwrap()
            }
            Err(e) => format!("error: {e}"),
        } + "\n";
        if let Some(f) = check(&eml.with_extension("expected"), actual.as_bytes()) {
            failures.push(f);
        }
        if let Some(dsn) = dsn {
            let actual = serde_json::to_string_pretty(&dsn).unwrap() + "\n";
            if let Some(f) = check(&eml.with_extension("dsn.expected"), actual.as_bytes()) {
                failures.push(f);
            }
        }
    }
    assert!(
        failures.is_empty(),
        "{} golden file(s) broke:\n{}",
        failures.len(),
        failures.join("\n\n")
    );
}

#[derive(serde::Deserialize)]
struct RenderCase {
    date_unix: i64,
    mail: OutgoingMail,
}

#[test]
fn render_golden_files() {
    let cases = files(".json", Some("render-"));
    assert!(cases.len() >= 2, "render golden files missing");
    let mut failures = Vec::new();
    for case in &cases {
        let c: RenderCase = serde_json::from_slice(&fs::read(case).unwrap())
            .unwrap_or_else(|e| panic!("{}: {e}", case.display()));
        let actual = render(&c.mail, c.date_unix);
        let name = case.file_stem().unwrap().to_string_lossy().into_owned();
        if let Some(f) = check(&golden_dir().join(format!("{name}.expected.eml")), &actual) {
            failures.push(f);
        }
    }
    assert!(
        failures.is_empty(),
        "{} golden file(s) broke:\n{}",
        failures.len(),
        failures.join("\n\n")
    );
}

/// A rendered reply parses back to what was sent: threading ids, subject, body, and it is
/// recognised as automatic (so two judges never answer each other).
#[test]
fn rendered_replies_parse_back() {
    for case in files(".json", Some("render-")) {
        let c: RenderCase = serde_json::from_slice(&fs::read(&case).unwrap()).unwrap();
        let p = parse(&render(&c.mail, c.date_unix), 1 << 20).unwrap();
        assert_eq!(p.message_id, c.mail.message_id, "{}", case.display());
        assert_eq!(p.in_reply_to, c.mail.in_reply_to, "{}", case.display());
        assert_eq!(p.references, c.mail.references, "{}", case.display());
        assert_eq!(p.subject, c.mail.subject, "{}", case.display());
        assert_eq!(p.body, c.mail.body.trim_end(), "{}", case.display());
        assert_eq!(p.automatic.as_deref(), Some("Auto-Submitted: auto-replied"));
    }
}
