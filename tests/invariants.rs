//! Guards of ARCHITECTURE.md's invariants that are about the code's shape rather than its
//! behaviour: which crate may depend on what, and what a pure crate may not call.

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;
use std::process::Command;

/// Crates that must stay pure: the engine, every game, and the judge.
const PURE: &[&str] = &[
    "castellan-engine",
    "castellan-castle-risk",
    "castellan-risk",
    "castellan-castrum",
    "castellan-castello",
    "castellan-judge",
];

/// Crates that do I/O, keep time, or talk to the network: none may be reachable from a
/// pure crate's normal dependencies.
const IMPURE: &[&str] = &[
    "tokio",
    "sled",
    "lettre",
    "mail-parser",
    "async-imap",
    "rustls",
    "tokio-rustls",
    "castellan-mail",
    "castellan",
];

/// The host's target triple, from `rustc -vV`.
fn host_triple() -> String {
    let rustc = std::env::var("RUSTC").unwrap_or_else(|_| "rustc".into());
    let out = Command::new(rustc)
        .arg("-vV")
        .output()
        .expect("rustc -vV runs");
    String::from_utf8_lossy(&out.stdout)
        .lines()
        .find_map(|l| l.strip_prefix("host: "))
        .expect("rustc -vV names the host")
        .trim()
        .to_string()
}

/// Normal (non-dev, non-build) dependencies of every package, by name, from `cargo metadata`.
fn dependency_graph() -> BTreeMap<String, BTreeSet<String>> {
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
    let out = Command::new(cargo)
        .args(["metadata", "--format-version", "1", "--locked"])
        .args(["--filter-platform", &host_triple()])
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .expect("cargo metadata runs");
    assert!(
        out.status.success(),
        "cargo metadata: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    let meta: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let names: BTreeMap<String, String> = meta["packages"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| {
            (
                p["id"].as_str().unwrap().to_string(),
                p["name"].as_str().unwrap().to_string(),
            )
        })
        .collect();
    let mut graph = BTreeMap::new();
    for node in meta["resolve"]["nodes"].as_array().unwrap() {
        let from = names[node["id"].as_str().unwrap()].clone();
        let deps: BTreeSet<String> = node["deps"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|d| {
                d["dep_kinds"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .any(|k| k["kind"].is_null())
            })
            .map(|d| names[d["pkg"].as_str().unwrap()].clone())
            .collect();
        graph.entry(from).or_insert_with(BTreeSet::new).extend(deps);
    }
    graph
}

/// ARCHITECTURE.md, "Engines are pure" (and the judge with them): no pure crate reaches
/// tokio, sled, lettre, mail-parser or the mail edge through its normal dependencies.
#[test]
fn pure_crates_depend_on_nothing_that_does_io() {
    let graph = dependency_graph();
    for root in PURE {
        let mut seen = BTreeSet::new();
        let mut stack = vec![(root.to_string(), vec![root.to_string()])];
        while let Some((name, path)) = stack.pop() {
            assert!(
                !IMPURE.contains(&name.as_str()),
                "{root} depends on {name}: {}",
                path.join(" -> ")
            );
            for d in graph.get(&name).into_iter().flatten() {
                if seen.insert(d.clone()) {
                    let mut p = path.clone();
                    p.push(d.clone());
                    stack.push((d.clone(), p));
                }
            }
        }
    }
}

/// ARCHITECTURE.md, "Engines are pure": no source file of a pure crate reads a clock, the
/// environment, a file or the network.
#[test]
fn pure_crates_call_no_clock_file_environment_or_network() {
    let forbidden = [
        "std::fs",
        "std::net",
        "std::env",
        "SystemTime",
        "Instant::now",
        "std::process",
        "std::thread::sleep",
    ];
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let dirs = [
        "crates/engine/src",
        "crates/castle-risk/src",
        "crates/risk/src",
        "crates/castrum/src",
        "crates/castello/src",
        "crates/judge/src",
    ];
    let mut files = Vec::new();
    for d in dirs {
        let mut stack = vec![root.join(d)];
        while let Some(p) = stack.pop() {
            for e in std::fs::read_dir(&p).unwrap() {
                let path = e.unwrap().path();
                if path.is_dir() {
                    stack.push(path);
                } else if path.extension().is_some_and(|x| x == "rs") {
                    files.push(path);
                }
            }
        }
    }
    assert!(files.len() > 20, "found the sources ({})", files.len());
    for f in files {
        let text = std::fs::read_to_string(&f).unwrap();
        for (no, line) in text.lines().enumerate() {
            let code = line.split("//").next().unwrap_or("");
            for word in forbidden {
                assert!(
                    !code.contains(word),
                    "{}:{}: a pure crate uses {word}: {line}",
                    f.display(),
                    no + 1
                );
            }
        }
    }
}

/// ARCHITECTURE.md stays true: every guard its invariants table names (a backticked test
/// name, or a golden case of crates/mail/tests/golden) exists.
#[test]
fn every_invariant_in_architecture_names_a_guard_that_exists() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let arch = std::fs::read_to_string(root.join("ARCHITECTURE.md")).unwrap();
    let table = arch
        .split("## Invariants")
        .nth(1)
        .expect("ARCHITECTURE.md has an Invariants section");
    let mut sources = String::new();
    let mut stack = vec![root.join("crates"), root.join("tests"), root.join("src")];
    while let Some(p) = stack.pop() {
        for e in std::fs::read_dir(&p).unwrap() {
            let path = e.unwrap().path();
            if path.is_dir() && !path.ends_with("target") {
                stack.push(path);
            } else if path.extension().is_some_and(|x| x == "rs") {
                sources.push_str(&std::fs::read_to_string(&path).unwrap());
            }
        }
    }
    let golden: BTreeSet<String> = std::fs::read_dir(root.join("crates/mail/tests/golden"))
        .unwrap()
        .filter_map(|e| {
            let p = e.ok()?.path();
            Some(p.file_stem()?.to_string_lossy().into_owned())
        })
        .collect();
    let mut checked = 0;
    for row in table.lines().filter(|l| l.starts_with("| **")) {
        let guards = row.rsplit('|').nth(1).unwrap_or("");
        let names: Vec<&str> = guards
            .split('`')
            .skip(1)
            .step_by(2)
            .filter(|n| {
                n.chars()
                    .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '_')
            })
            .collect();
        assert!(!names.is_empty(), "an invariant without a guard: {row}");
        for n in names {
            let found = sources.contains(&format!("fn {n}(")) || golden.contains(n);
            assert!(found, "ARCHITECTURE.md names `{n}`, which no test defines");
            checked += 1;
        }
    }
    assert!(checked >= 10, "{checked} guards checked");
}
