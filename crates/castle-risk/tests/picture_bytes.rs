//! The game's pictures, byte for byte, at a few turns of a bot game (see
//! crates/engine/tests/support/picture_bytes.rs).

#[path = "../../engine/tests/support/picture_bytes.rs"]
mod picture_bytes;

#[test]
fn the_pictures_are_byte_for_byte_as_recorded() {
    picture_bytes::check::<castellan_castle_risk::CastleRisk>(
        env!("CARGO_MANIFEST_DIR"),
        "castle-risk",
        4,
        Default::default(),
    );
}
