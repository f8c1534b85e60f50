//! (feature `testing`, for the game crates' tests only) What the four games' tests share:
//! rule cases kept as data ([`cases`]) and the stored games of older builds checked against
//! what those builds told ([`stored`]).
//!
//! Pure like the rest of the engine: the tests read and write the files and hand their text
//! in; nothing here touches a disk.

pub mod cases;
pub mod stored;

/// The same text, or a panic naming the first line that differs (`what` says which).
pub fn same(got: &str, want: &str, what: &str) {
    if got == want {
        return;
    }
    let differs = got
        .lines()
        .zip(want.lines())
        .enumerate()
        .find(|(_, (g, w))| g != w);
    match differs {
        Some((i, (g, w))) => panic!("{what}: line {}:\n  want: {w}\n  got:  {g}", i + 1),
        None => panic!(
            "{what}: lengths differ: {} lines wanted, {} got",
            want.lines().count(),
            got.lines().count()
        ),
    }
}
