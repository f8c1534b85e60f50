//! Opening a database: the compaction lock, and the marks of an older database moved.

use super::*;

/// A compaction and an open store exclude each other, whichever comes first: no store
/// opens while a compaction holds its lock (busy: `ingest` then leaves its mail in the
/// inbox), and no compaction begins while a store is open, in any process.
#[test]
fn a_compaction_and_an_open_database_exclude_each_other() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("db");
    SledStore::open(&db).unwrap().flush().unwrap();
    let compacting = SledStore::lock_for_compaction(&db).unwrap();
    match SledStore::open(&db) {
        Err(e) => assert!(SledStore::is_busy_error(&e), "{}", e.0),
        Ok(_) => panic!("a store opened during a compaction"),
    }
    drop(compacting);
    let open = SledStore::open(&db).unwrap();
    let e = SledStore::lock_for_compaction(&db).unwrap_err();
    assert!(SledStore::is_busy_error(&e), "{}", e.0);
    drop(open);
    assert!(SledStore::lock_for_compaction(&db).is_ok());
}

/// Sender records and marks once shared one key space. A database written before
/// keeps its marks meaning what they meant: `stop/…`, `asked/…` and `failed-tries/…` in
/// `senders` are moved at open to keys no address can spell; sender records stay.
#[test]
fn old_marks_are_moved_to_keys_no_address_can_spell() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("db");
    let store = SledStore::open(&path).unwrap();
    let rec = |address: &str, count: u32| SenderRecord {
        address: address.into(),
        window_start: 7,
        count,
        ..Default::default()
    };
    for r in [
        rec("stop/fan@target.example", 1),
        rec("asked/newbie@example.net", 1),
        rec("failed-tries/castle-1/seat-0", 4),
        rec("anna@example.org", 3),
    ] {
        store
            .senders
            .insert(r.address.as_bytes(), serde_json::to_vec(&r).unwrap())
            .unwrap();
    }
    store.meta.remove(MARKS_KEY).unwrap();
    store.flush().unwrap();
    drop(store);
    let reopened = SledStore::reopened(&path);
    let mark = |kind: &str, name: &str| {
        reopened
            .sender(&castellan_judge::mark_key(kind, name))
            .unwrap()
    };
    let stop = mark("stop", "fan@target.example").expect("the STOP kept");
    assert_eq!((stop.count, stop.window_start), (1, 7));
    assert_eq!(
        stop.address,
        castellan_judge::mark_key("stop", "fan@target.example")
    );
    assert_eq!(mark("asked", "newbie@example.net").unwrap().count, 1);
    assert_eq!(mark("failed-tries", "castle-1/seat-0").unwrap().count, 4);
    for old in [
        "stop/fan@target.example",
        "asked/newbie@example.net",
        "failed-tries/castle-1/seat-0",
    ] {
        assert!(reopened.sender(old).unwrap().is_none(), "{old}");
    }
    assert_eq!(
        reopened.sender("anna@example.org").unwrap().unwrap().count,
        3
    );
}
