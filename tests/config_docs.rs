//! docs/config.md cannot drift from the binary: every key `castellan config` prints on the
//! built-in defaults (but `judge.*`, which docs/commands.md lists) has a row in the page's
//! table, with the default the binary prints; every row names a key the binary knows. And
//! the page's example of the Debian package's configuration holds the package's values.

use std::collections::BTreeMap;
use std::process::Command;

/// `castellan --config /dev/null config`, flattened: `outbound.smtp.port` → `587`.
fn printed_defaults() -> BTreeMap<String, String> {
    let out = Command::new(env!("CARGO_BIN_EXE_castellan"))
        .args(["--config", "/dev/null", "config"])
        .output()
        .unwrap();
    assert!(out.status.success(), "{out:?}");
    let yaml: serde_yaml::Value = serde_yaml::from_slice(&out.stdout).unwrap();
    let mut flat = BTreeMap::new();
    flatten("", &yaml, &mut flat);
    flat
}

fn flatten(prefix: &str, v: &serde_yaml::Value, out: &mut BTreeMap<String, String>) {
    use serde_yaml::Value;
    match v {
        Value::Mapping(m) => {
            for (k, v) in m {
                let k = k.as_str().unwrap();
                let key = if prefix.is_empty() {
                    k.to_string()
                } else {
                    format!("{prefix}.{k}")
                };
                flatten(&key, v, out);
            }
        }
        Value::Null => {
            out.insert(prefix.into(), "null".into());
        }
        Value::String(s) if s.is_empty() => {
            out.insert(prefix.into(), "''".into());
        }
        Value::String(s) => {
            out.insert(prefix.into(), s.clone());
        }
        Value::Sequence(s) if s.is_empty() => {
            out.insert(prefix.into(), "[]".into());
        }
        other => {
            out.insert(
                prefix.into(),
                serde_yaml::to_string(other).unwrap().trim().to_string(),
            );
        }
    }
}

/// The code spans of a table cell, in order.
fn spans(cell: &str) -> Vec<String> {
    cell.split('`')
        .skip(1)
        .step_by(2)
        .map(str::to_string)
        .collect()
}

/// The key table of docs/config.md: key → the default it documents. A cell
/// "`a.b.user` / `password`" names `a.b.user` and `a.b.password`; a default
/// "`127.0.0.1` / `587`" gives one to each, "`null` → `DATA_DIR/db`" its first span.
fn documented() -> BTreeMap<String, String> {
    let page =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/docs/config.md")).unwrap();
    let mut rows = BTreeMap::new();
    for line in page.lines().filter(|l| l.starts_with("| `")) {
        let cells: Vec<&str> = line.split(" | ").collect();
        let keys = spans(cells[0]);
        if keys[0].ends_with(".*") {
            continue;
        }
        let parent = keys[0].rsplit_once('.').map(|(p, _)| p.to_string());
        let defaults = spans(cells[1]);
        let alternatives = cells[1].contains(" / ");
        for (i, key) in keys.iter().enumerate() {
            let full = match (&parent, i) {
                (Some(p), 1..) => format!("{p}.{key}"),
                _ => key.clone(),
            };
            let default = if alternatives {
                &defaults[i]
            } else {
                &defaults[0]
            };
            rows.insert(full, default.clone());
        }
    }
    rows
}

#[test]
fn every_default_the_binary_prints_is_documented_as_it_is() {
    let printed = printed_defaults();
    let documented = documented();
    let mut wrong = Vec::new();
    for (key, value) in printed.iter().filter(|(k, _)| !k.starts_with("judge.")) {
        match documented.get(key) {
            None => wrong.push(format!("{key}: not in docs/config.md (default {value})")),
            Some(d) if d != value => wrong.push(format!(
                "{key}: docs/config.md says {d}, the binary {value}"
            )),
            Some(_) => {}
        }
    }
    for key in documented.keys() {
        if !printed.contains_key(key) {
            wrong.push(format!("{key}: in docs/config.md, unknown to the binary"));
        }
    }
    assert!(
        wrong.is_empty(),
        "docs/config.md drifted:\n{}",
        wrong.join("\n")
    );
}

#[test]
fn the_pages_example_of_the_package_configuration_is_the_packages() {
    let page =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/docs/config.md")).unwrap();
    let at = page
        .find("as the Debian package's")
        .expect("docs/config.md has no example of the package's configuration");
    let block = page[at..].split("```yaml\n").nth(1).unwrap();
    let block = block.split("```").next().unwrap();
    let mut example = BTreeMap::new();
    flatten("", &serde_yaml::from_str(block).unwrap(), &mut example);
    let package = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/contrib/castellan.yaml"
    ))
    .unwrap();
    let mut packaged = BTreeMap::new();
    flatten("", &serde_yaml::from_str(&package).unwrap(), &mut packaged);
    for (key, value) in &example {
        assert_eq!(
            packaged.get(key),
            Some(value),
            "docs/config.md's package example: {key}"
        );
    }
}
