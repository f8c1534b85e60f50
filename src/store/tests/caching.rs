//! The games kept decoded in memory (store/cache.rs): read from sled once, replaced by
//! what a commit wrote only once it committed, and always what a load from sled gives.

use super::*;
use crate::play::demo::LocalJudge;
use crate::play::players::{play_games, MailPlayers};

/// A game as sled holds it, read around the cache: from `needed_from` (`from` None) or
/// from `from`.
fn from_sled(store: &SledStore, id: &str, from: Option<usize>) -> Option<StoredGame> {
    store.load_from_sled(id, from).unwrap().map(|(g, _)| g)
}

/// A game read twice (as a mail, as a header, whole once its entries are kept from the
/// first) is read from sled once; a store opened again starts with none kept.
#[test]
fn a_game_loaded_twice_is_read_from_sled_once() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("db");
    {
        let store = SledStore::open(&path).unwrap();
        let rec = crate::fixtures::game_record("castle-1", "gm1", &["a1", "b1"]);
        store
            .commit(&Changes {
                games: vec![rec.into()],
                ..Default::default()
            })
            .unwrap();
        assert_eq!(store.game_loads_from_sled(), 0, "the commit keeps it");
    }
    let store = SledStore::reopened(&path);
    assert_eq!(store.cache.len(), 0);
    let first = store.game("castle-1").unwrap().unwrap();
    assert_eq!(store.game_loads_from_sled(), 1);
    assert_eq!(store.game("castle-1").unwrap().unwrap(), first);
    assert_eq!(
        store.game_header("castle-1").unwrap().unwrap(),
        first.record
    );
    assert_eq!(store.game_whole("castle-1").unwrap().unwrap(), first);
    assert_eq!(store.game_loads_from_sled(), 1, "served from memory");
    // A game that is not stored is read each time (nothing kept of it).
    assert!(store.game("castle-2").unwrap().is_none());
    assert!(store.game("castle-2").unwrap().is_none());
    assert_eq!(store.game_loads_from_sled(), 3);
    // Taking sled itself forgets what was kept.
    let _ = store.db();
    assert_eq!(store.game("castle-1").unwrap().unwrap(), first);
    assert_eq!(store.game_loads_from_sled(), 4);
}

/// A commit whose transaction fails (a game whose history in hand starts past the
/// stored end) writes nothing, and the game kept in memory stays as it was: the one
/// sled still holds.
#[test]
fn a_failed_commit_leaves_the_games_kept_as_they_were() {
    let dir = tempfile::tempdir().unwrap();
    let store = SledStore::open(&dir.path().join("db")).unwrap();
    let rec = crate::fixtures::game_record("castle-1", "gm1", &["a1", "b1"]);
    store
        .commit(&Changes {
            games: vec![rec.clone().into()],
            ..Default::default()
        })
        .unwrap();
    let before = store.game("castle-1").unwrap().unwrap();
    let mut changed = rec.clone();
    changed.reported = 3;
    changed.gm = "other@example.org".into();
    let mut gap: StoredGame = crate::fixtures::game_record("castle-2", "gm2", &["a2"]).into();
    gap.table = Some(StoredTable {
        snapshot: Snapshot::from_bytes(br#"{"history_len":6}"#.to_vec()),
        base: 5,
        entries: vec![StoredEntry::from_bytes(b"{}".to_vec())],
    });
    let failed = store.commit(&Changes {
        games: vec![changed.clone().into(), gap],
        ..Default::default()
    });
    assert!(failed.is_err(), "{failed:?}");
    let loads = store.game_loads_from_sled();
    assert_eq!(store.game("castle-1").unwrap().unwrap(), before);
    assert_eq!(store.game_loads_from_sled(), loads, "still kept");
    assert_eq!(from_sled(&store, "castle-1", None).unwrap(), before);
    assert!(store.game("castle-2").unwrap().is_none());
    // The same change alone commits, and is what is kept.
    store
        .commit(&Changes {
            games: vec![changed.clone().into()],
            ..Default::default()
        })
        .unwrap();
    assert_eq!(store.game("castle-1").unwrap().unwrap().record, changed);
    assert_eq!(store.game_loads_from_sled(), loads + 1, "castle-2, absent");
}

/// Over real games played by mail through the service (its judges side by side, its
/// group commits), each game kept in memory is, after every pass, what a load from sled
/// gives, as a mail needs it and whole; and once kept, the games' mails read nothing of
/// them from sled.
#[test]
fn the_games_kept_are_what_sled_holds_after_every_pass() {
    let dir = tempfile::tempdir().unwrap();
    let base = crate::config::Config {
        templates_dir: std::path::PathBuf::from(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/crates/judge/templates"
        )),
        ..Default::default()
    };
    let mut local = LocalJudge::open(&base, dir.path(), 7).unwrap();
    local.svc.judges = 2;
    let svc = &local.svc;
    let mut bots = MailPlayers::new(svc, "cache").unwrap();
    let ids: Vec<String> = [("castle-risk", 3), ("castello", 2), ("risk", 3)]
        .iter()
        .map(|(g, players)| bots.create_game(svc, g, *players, &[]))
        .collect::<Result<_, _>>()
        .unwrap();
    local.pass_after(0).unwrap();
    let check = |svc: &crate::serve::service::Service| {
        for id in &ids {
            let kept = svc.store.cache.get(id).expect("kept after its commit");
            assert_eq!(kept.window(None), from_sled(&svc.store, id, None), "{id}");
            let whole = from_sled(&svc.store, id, Some(0)).unwrap();
            assert_eq!(svc.store.game_whole(id).unwrap().unwrap(), whole, "{id}");
            assert_eq!(svc.store.game(id).unwrap(), from_sled(&svc.store, id, None));
        }
    };
    check(svc);
    // The loads of the passes alone: the checks load whole games.
    let mut pass_loads = 0;
    let played = play_games(svc, &mut bots, &ids, 60, 50, |_| {
        let loads = svc.store.game_loads_from_sled();
        local
            .pass_after(600)
            .map_err(|e| crate::play::players::PlayError::Io(e.to_string()))?;
        pass_loads += svc.store.game_loads_from_sled() - loads;
        check(svc);
        Ok(())
    })
    .unwrap();
    assert!(played.mails >= 30, "{}", played.mails);
    assert_eq!(pass_loads, 0, "over {} mails", played.mails);
}

/// A load that read sled while a commit wrote (a judge on another thread) is not kept:
/// what it read may be the state before the commit, or part of it.
#[test]
fn a_load_a_commit_overtook_is_not_kept() {
    let dir = tempfile::tempdir().unwrap();
    let store = SledStore::open(&dir.path().join("db")).unwrap();
    let rec = crate::fixtures::game_record("castle-1", "gm1", &["a1"]);
    let commit = |rec: &GameRecord| {
        store
            .commit(&Changes {
                games: vec![rec.clone().into()],
                ..Default::default()
            })
            .unwrap()
    };
    commit(&rec);
    store.forget_games();
    // Read before the commit, kept after it.
    let ticket = store.cache.ticket();
    let (stale, header_bytes) = store.load_from_sled("castle-1", None).unwrap().unwrap();
    let mut changed = rec.clone();
    changed.gm = "other@example.org".into();
    commit(&changed);
    store.cache.fill(
        ticket,
        "castle-1",
        cache::Cached::new(stale, header_bytes.unwrap()).unwrap(),
    );
    assert_eq!(store.game("castle-1").unwrap().unwrap().record, changed);
    // Read while a write is under way: not kept either.
    store.forget_games();
    let writing = store.cache.writing();
    let ticket = store.cache.ticket();
    let (read, header_bytes) = store.load_from_sled("castle-1", None).unwrap().unwrap();
    drop(writing);
    store.cache.fill(
        ticket,
        "castle-1",
        cache::Cached::new(read, header_bytes.unwrap()).unwrap(),
    );
    assert_eq!(store.cache.len(), 0);
}
