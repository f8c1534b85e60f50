//! The commit: a group of mails in one transaction, and replies encoded where their mail
//! was judged.

use super::*;

/// Group commit: the mails of a group are committed in one transaction, in
/// their order. Each gets its own outbox keys, in order and after the previous mail's;
/// every processed mark is written; the journal entry recorded is the group's last
/// (whatever the order of the entries given), and a mail with no entry leaves it be.
#[test]
fn a_group_of_mails_commits_in_one_transaction_in_order() {
    let dir = tempfile::tempdir().unwrap();
    let store = SledStore::open(&dir.path().join("db")).unwrap();
    let mail = |n: usize| Changes {
        processed: vec![format!("mail-{n}")],
        outbox: (0..n).map(|_| reply(100)).collect(),
        ..Default::default()
    };
    let (a, b, c) = (mail(1), mail(2), mail(3));
    let keys = store
        .commit_group_unflushed(&[(&a, Some(9)), (&b, None), (&c, Some(7))])
        .unwrap();
    assert_eq!(keys.iter().map(Vec::len).collect::<Vec<_>>(), vec![1, 2, 3]);
    let flat: Vec<u64> = keys.concat();
    assert!(flat.windows(2).all(|w| w[0] < w[1]), "{flat:?}");
    let stored: Vec<u64> = store
        .outbox()
        .unwrap()
        .into_iter()
        .map(|(k, _)| k)
        .collect();
    assert_eq!(stored, flat);
    for n in 1..=3 {
        assert!(store.is_processed(&format!("mail-{n}")).unwrap());
    }
    assert_eq!(store.journal_seq().unwrap(), 9);
    store.commit_group_unflushed(&[(&mail(0), None)]).unwrap();
    assert_eq!(store.journal_seq().unwrap(), 9, "no entry: left as it was");
}

/// The commit's serial part: a mail's replies encoded where it was judged
/// (`encode_replies`, on another thread) are stored as the same bytes the commit would
/// have written, and read back as the same replies; encodings that do not match the
/// mail's replies (another count) are not taken, and the commit encodes them itself.
#[test]
fn replies_encoded_where_the_mail_was_judged_are_stored_as_the_commit_would() {
    let stored_values = |store: &SledStore| -> Vec<Vec<u8>> {
        store
            .outbox
            .iter()
            .values()
            .map(|v| v.unwrap().to_vec())
            .collect()
    };
    // A plain reply, one past the compression threshold, and one with a picture.
    let mut long = reply(0);
    long.html = None;
    long.body = "Turn 12: Prussia attacks Saxony.\n".repeat(400);
    let changes = Changes {
        processed: vec!["mail-1".into()],
        outbox: vec![reply(0), long, reply(30_000)],
        ..Default::default()
    };
    let plain_dir = tempfile::tempdir().unwrap();
    let plain = SledStore::open(&plain_dir.path().join("db")).unwrap();
    plain.commit_group_unflushed(&[(&changes, None)]).unwrap();

    let ahead_dir = tempfile::tempdir().unwrap();
    let ahead = SledStore::open(&ahead_dir.path().join("db")).unwrap();
    let encoded = std::thread::scope(|s| {
        s.spawn(|| encode_replies(&changes).unwrap())
            .join()
            .unwrap()
    });
    ahead
        .commit_group_encoded(&[(&changes, None, Some(&encoded))])
        .unwrap();
    assert_eq!(stored_values(&ahead), stored_values(&plain));
    let back: Vec<Outbound> = ahead
        .outbox()
        .unwrap()
        .into_iter()
        .map(|(_, item)| item.mail)
        .collect();
    assert_eq!(back, changes.outbox);

    // Encoded for other replies: ignored, the commit encodes its own.
    let other = encode_replies(&Changes {
        outbox: vec![reply(100)],
        ..Default::default()
    })
    .unwrap();
    let mismatch_dir = tempfile::tempdir().unwrap();
    let mismatch = SledStore::open(&mismatch_dir.path().join("db")).unwrap();
    mismatch
        .commit_group_encoded(&[(&changes, None, Some(&other))])
        .unwrap();
    assert_eq!(stored_values(&mismatch), stored_values(&plain));
}
