//! "Records carry a schema version. A database written by today's main opens and
//! is converted (test it on one made by today's binary, kept as a fixture)."
//!
//! tests/fixtures/schema1-db.tgz is a sled database written by castellan at commit
//! 453dbf4 (schema 1: each game whole in one value, its history inside), made with:
//!
//!     castellan demo --game castello --players 2 --data-dir var      # castello-1, finished
//!     castellan --data-dir var/demo game new --game castle-risk --gm gm@example.org \
//!         --player Red=red@example.org --player Blue=blue@example.org \
//!         --player Green=green@example.org                          # castle-2, running
//!     tar czf schema1-db.tgz -C var/demo db

use castellan::config::Config;
use castellan::play::demo::LocalJudge;
use castellan::store::SledStore;
use castellan_judge::{stored, Status, Store, StoredGame};
use std::path::{Path, PathBuf};

fn unpack(dir: &Path) {
    let fixture = PathBuf::from(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/fixtures/schema1-db.tgz"
    ));
    let ok = std::process::Command::new("tar")
        .arg("xzf")
        .arg(&fixture)
        .arg("-C")
        .arg(dir)
        .status()
        .expect("tar runs");
    assert!(ok.success(), "the fixture unpacks");
}

/// The games as schema 1 stored them, read with sled itself.
fn old_games(db: &Path) -> Vec<StoredGame> {
    let raw = sled::open(db).unwrap();
    let games = raw.open_tree("games").unwrap();
    let out = games
        .iter()
        .map(|kv| {
            let (_, v) = kv.unwrap();
            let value: serde_json::Value = serde_json::from_slice(&v).unwrap();
            assert!(stored::is_schema_1(&value), "the fixture is schema 1");
            stored::whole_record(value).unwrap()
        })
        .collect();
    drop(games);
    drop(raw);
    out
}

#[test]
fn a_database_of_schema_1_opens_converted_with_every_game_and_its_whole_history() {
    let dir = tempfile::tempdir().unwrap();
    unpack(dir.path());
    let db = dir.path().join("db");
    let old = old_games(&db);
    assert_eq!(old.len(), 2, "castello-1 and castle-2");
    let long = old.iter().find(|g| g.id == "castello-1").unwrap();
    let long_len = long.table.as_ref().unwrap().entries.len();
    assert!(long_len > 300, "a long game: {long_len} entries");

    let store = SledStore::open(&db).unwrap();
    let mut ids = store.game_ids().unwrap();
    ids.sort();
    assert_eq!(ids, vec!["castello-1".to_string(), "castle-2".to_string()]);
    for g in &old {
        let now = store.game_whole(&g.id).unwrap().unwrap();
        assert_eq!(&now, g, "{} reads back as it was written", g.id);
    }
    // A mail reads the header, the snapshot and only the history not yet reported.
    let tail = store.game("castello-1").unwrap().unwrap();
    let t = tail.table.as_ref().unwrap();
    let in_hand = t.entries.len();
    assert_eq!(t.base + in_hand, long_len);
    assert!(
        in_hand < 5,
        "the finished game's reported history is not loaded: {in_hand}"
    );
    // Every value of the converted games is small, whatever the game's length.
    for tree in ["games", "states", "history", "due", "game_index"] {
        let t = store.db().open_tree(tree).unwrap();
        for kv in t.iter() {
            let (k, v) = kv.unwrap();
            assert!(
                v.len() < 64 * 1024,
                "{tree} {:?}: {} bytes",
                String::from_utf8_lossy(&k),
                v.len()
            );
        }
    }
    // Opening again converts nothing more.
    assert_eq!(store.upgrade(false).unwrap(), 0);
    assert_eq!(
        store.upgrade(true).unwrap(),
        0,
        "no game is left in schema 1"
    );
}

#[test]
fn a_converted_game_replays_and_goes_on() {
    let dir = tempfile::tempdir().unwrap();
    unpack(dir.path());
    let old = old_games(&dir.path().join("db"));
    let running = old.iter().find(|g| g.id == "castle-2").unwrap().clone();
    assert_eq!(running.status, Status::Running);
    let base = Config {
        templates_dir: PathBuf::from(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/crates/judge/templates"
        )),
        ..Config::default()
    };
    let j = LocalJudge::open(&base, dir.path(), 5).unwrap();
    // The dice audit of both games, over their converted history.
    for id in ["castello-1", "castle-2"] {
        let (_, text) = j
            .svc
            .judge
            .admin(
                &j.svc.store,
                castellan_judge::AdminCommand::Verify { game: id.into() },
                &castellan_judge::Env {
                    now: 0,
                    entropy: [0; 32],
                },
            )
            .unwrap_or_else(|e| panic!("{id} verifies: {e:?}"));
        assert!(
            text.contains("replays from its secret and its orders: ok"),
            "{text}"
        );
    }
    // Past its deadline, the running game's defaults are played: its history grows in
    // the new layout, and the whole game still replays.
    let before = running.table.as_ref().unwrap().entries.len();
    j.now.store(
        running.deadline.unwrap() + 3 * 24 * 3600,
        std::sync::atomic::Ordering::SeqCst,
    );
    j.pass_after(0).unwrap();
    let after = j.svc.store.game_whole("castle-2").unwrap().unwrap();
    let len = after.table.as_ref().unwrap().entries.len();
    assert!(
        len > before,
        "defaults played after the deadline: {before} -> {len}"
    );
    assert_eq!(
        after.table.as_ref().unwrap().entries[..before],
        running.table.as_ref().unwrap().entries[..],
        "the converted entries are kept as they were"
    );
    let (_, text) = j
        .svc
        .judge
        .admin(
            &j.svc.store,
            castellan_judge::AdminCommand::Verify {
                game: "castle-2".into(),
            },
            &castellan_judge::Env {
                now: 0,
                entropy: [0; 32],
            },
        )
        .unwrap();
    assert!(
        text.contains("replays from its secret and its orders: ok"),
        "{text}"
    );
}
