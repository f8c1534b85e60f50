//! Every text of the game's pictures in its own room: no two overlap, none leaves the
//! picture, in both languages, public and seats' (see
//! crates/engine/tests/support/picture_texts.rs).

#[path = "../../engine/tests/support/picture_texts.rs"]
mod picture_texts;

#[test]
fn no_text_of_a_picture_overlaps_another_or_leaves_it() {
    picture_texts::check::<castellan_castrum::Castrum>("castrum", 2, Default::default(), 5);
    picture_texts::check::<castellan_castrum::Castrum>("castrum", 4, Default::default(), 5);
}
