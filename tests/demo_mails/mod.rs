//! The mails of a whole demo game (`castellan demo` on the built-in defaults, seed 7), read
//! back from its outbox's .eml files in order: for the tests that check a promise over
//! every mail of a game.

use castellan::config::Config;
use castellan::play::demo::{run, DemoSettings};
use castellan_mail::Inbound;
use std::path::PathBuf;

/// Each mail the demo of `game` with `players` seats sent, parsed, in the outbox's order.
pub fn demo_mails(game: &str, players: usize) -> Vec<Inbound> {
    let dir = tempfile::tempdir().unwrap();
    let base = Config {
        templates_dir: PathBuf::from(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/crates/judge/templates"
        )),
        ..Config::default()
    };
    let settings = DemoSettings {
        game: game.into(),
        players,
        seed: 7,
        options: Vec::new(),
        dir: dir.path().join("demo"),
        max_mails: 20_000,
        minutes_per_pass: 10,
    };
    let report = run(&settings, &base).unwrap();
    let mut paths: Vec<PathBuf> = std::fs::read_dir(&report.outbox)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "eml"))
        .collect();
    paths.sort();
    paths
        .iter()
        .map(|p| castellan_mail::parse(&std::fs::read(p).unwrap(), usize::MAX).unwrap())
        .collect()
}
