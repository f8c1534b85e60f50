//! A game stored before the picture's fields existed still loads and verifies.

use castellan_castello::{Castello, Options};
use castellan_engine::dice::Secret;
use castellan_engine::{load_table_json, Session, Table, Viewer};

/// The last move's path and captures are kept for the picture only
/// (`Rules::PICTURE_ONLY`): a game saved without them verifies against its replay, and its
/// picture draws once the next move is played.
#[test]
fn a_game_stored_without_the_last_path_still_verifies() {
    let mut t: Table<Castello> = Table::new(
        "stored-1",
        Secret::derive(b"stored"),
        vec!["Alice".into(), "Bruno".into()],
        Options::default(),
    )
    .unwrap();
    for _ in 0..12 {
        let seat = t.awaiting()[0];
        t.play_bot(seat).unwrap();
    }
    let mut json = t.to_json().unwrap();
    let state = json["state"].as_object_mut().unwrap();
    assert!(state.remove("last_path").is_some(), "the path is stored");
    state.remove("last_captured");
    let old = load_table_json::<Castello>(json).unwrap();
    old.verify().unwrap();
    assert!(!old
        .picture(Viewer::Public, castellan_engine::Lang::En)
        .unwrap()
        .contains("<polyline"));
    assert!(t
        .picture(Viewer::Public, castellan_engine::Lang::En)
        .unwrap()
        .contains("<polyline"));
}
