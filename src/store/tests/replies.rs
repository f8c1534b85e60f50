//! The outbox: how its values are encoded (no stored value over 64 KiB, older values
//! still read), and the replies held back or parked by the retry index.

use super::*;

/// "No stored value over 64 KiB": a reply whose HTML part is as large as the
/// judge allows (150 KB) is stored compressed under 64 KiB, a long text reply compressed,
/// a usual one as it is (plain JSON); all three read back whole, in order.
#[test]
fn a_large_reply_is_stored_under_64_kib_and_reads_back_whole() {
    let dir = tempfile::tempdir().unwrap();
    let store = SledStore::open(&dir.path().join("db")).unwrap();
    let big = reply(castellan_judge::HTML_LIMIT);
    let mut small = reply(0);
    small.html = None;
    let mut long_text = reply(0);
    long_text.html = None;
    long_text.body = "Turn 3: Ann attacks Prussia from Saxony.\n".repeat(400);
    store
        .commit(&Changes {
            outbox: vec![big.clone(), small.clone(), long_text.clone()],
            ..Default::default()
        })
        .unwrap();
    let raw: Vec<Vec<u8>> = store
        .outbox
        .iter()
        .values()
        .map(|v| v.unwrap().to_vec())
        .collect();
    assert_eq!(raw.len(), 3);
    assert!(raw[0].len() < 64 * 1024, "{} bytes", raw[0].len());
    assert_eq!(raw[0][0], LZ4_FRAMED, "a reply with an HTML part");
    assert!(raw[1].starts_with(b"{"), "a usual reply stays plain JSON");
    assert_eq!(raw[2][0], LZ4, "a long text reply");
    let back: Vec<Outbound> = store
        .outbox()
        .unwrap()
        .into_iter()
        .map(|(_, i)| i.mail)
        .collect();
    assert_eq!(back, vec![big, small, long_text]);
    assert!(store.largest_value().unwrap().0 < 64 * 1024);
}

/// An outbox item with the largest picture the judge allows, tried twice already.
fn item_with_a_picture() -> OutboxItem {
    OutboxItem {
        mail: reply(castellan_judge::HTML_LIMIT),
        attempts: 2,
        not_before: 7,
        last_error: Some("busy".into()),
        failed: false,
    }
}

/// A reply stored by the builds before (deflated JSON, the HTML part inside it or
/// framed after it) still reads back.
#[test]
fn a_reply_stored_deflated_by_an_older_build_reads_back() {
    let item = item_with_a_picture();
    let older = deflated(DEFLATED, &[&serde_json::to_vec(&item).unwrap()]).unwrap();
    assert_eq!(decode_outbox(&older).unwrap(), item);
    let mut bare = item.clone();
    bare.mail.html = None;
    let json = serde_json::to_vec(&bare).unwrap();
    let len = (json.len() as u32).to_be_bytes();
    let html = item.mail.html.as_deref().unwrap_or_default().as_bytes();
    let framed = deflated(FRAMED, &[&len, &json, html]).unwrap();
    assert_eq!(decode_outbox(&framed).unwrap(), item);
}

/// An outbox item encoded as this build stores it decodes to itself.
#[test]
fn an_outbox_item_decodes_as_it_was_encoded() {
    let item = item_with_a_picture();
    assert_eq!(decode_outbox(&encode_outbox(&item).unwrap()).unwrap(), item);
}

/// A damaged frame is an error, not a panic.
#[test]
fn a_damaged_frame_is_an_error_not_a_panic() {
    let cut = deflated(FRAMED, &[&[0, 0, 9, 9], b"{}"]).unwrap();
    assert!(decode_outbox(&cut).is_err());
}

/// "Faults degrade, never stop" (a relay outage): a reply the transport refused
/// is held back by the retry index until its time, a parked one until it is given a fresh
/// start, and a drain's listing leaves them out without decoding them (their values are
/// garbage here); the counts decode nothing; a send and `castellan outbox --retry` clear
/// the entry; a database written before the index gets it when opened.
#[test]
fn replies_held_back_or_parked_are_left_out_of_a_drain_without_being_decoded() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("db");
    let store = SledStore::open(&path).unwrap();
    let now = 1_000;
    store
        .commit(&Changes {
            outbox: (0..3)
                .map(|n| Outbound {
                    message_id: format!("<r{n}@judge.example>"),
                    ..reply(2_000)
                })
                .collect(),
            ..Default::default()
        })
        .unwrap();
    let items = store.outbox().unwrap();
    let [(held, first), (parked, second), (fresh, _)] = &items[..] else {
        panic!("three replies: {items:?}");
    };
    let keys = |at: i64| -> Vec<u64> {
        store
            .outbox_due(at, |_| false)
            .unwrap()
            .into_iter()
            .map(|(k, _)| k)
            .collect()
    };
    assert_eq!(keys(now), [*held, *parked, *fresh]);
    let mut later = first.clone();
    (later.attempts, later.not_before) = (1, now + 100);
    store.update_outbox(*held, &later).unwrap();
    let mut failed = second.clone();
    (failed.attempts, failed.failed) = (5, true);
    store.update_outbox(*parked, &failed).unwrap();
    assert_eq!(keys(now), [*fresh]);
    assert_eq!(keys(now + 100), [*held, *fresh]);
    let counts = OutboxCounts {
        waiting: 2,
        parked: 1,
    };
    assert_eq!(store.outbox_counts().unwrap(), counts);
    // Their values unreadable: neither the listing at `now` nor the counts read them.
    for k in [held, parked] {
        store
            .outbox
            .insert(k.to_be_bytes(), b"garbage".to_vec())
            .unwrap();
    }
    assert_eq!(keys(now), [*fresh]);
    assert_eq!(store.outbox_counts().unwrap(), counts);
    store.update_outbox(*held, &later).unwrap();
    store.update_outbox(*parked, &failed).unwrap();
    // A fresh start for the parked one; the held one sent.
    assert_eq!(store.retry_parked().unwrap(), 1);
    assert_eq!(keys(now), [*parked, *fresh]);
    store.mark_sent(*held, &first.mail.message_id, now).unwrap();
    assert!(store.outbox_retry.is_empty());
    assert_eq!(
        store.outbox_counts().unwrap(),
        OutboxCounts {
            waiting: 2,
            parked: 0
        }
    );
    // Written before the index: the reply parked, its entry and the mark gone; opened.
    store.update_outbox(*parked, &failed).unwrap();
    store.outbox_retry.clear().unwrap();
    store.meta.remove(RETRY_KEY).unwrap();
    store.flush().unwrap();
    drop(store);
    let reopened = SledStore::reopened(&path);
    assert_eq!(
        reopened.outbox_counts().unwrap(),
        OutboxCounts {
            waiting: 1,
            parked: 1
        }
    );
    assert_eq!(
        reopened
            .outbox_due(now, |_| false)
            .unwrap()
            .into_iter()
            .map(|(k, _)| k)
            .collect::<Vec<_>>(),
        [*fresh]
    );
}
