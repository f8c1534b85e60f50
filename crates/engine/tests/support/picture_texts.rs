//! Every text of a game's pictures in its own room, shared by the games' `picture_texts`
//! tests: a bot game on a fixed seed, drawn at every few turns for the public and for each
//! seat in both languages; no two texts overlap and none leaves the picture (each text's
//! box from `svg::text_boxes`, a conservative width per character at its size).

use castellan_engine::svg::check_texts;
use castellan_engine::{play_out, Lang, Rules, Secret, Session, Table, Viewer};

/// Plays `R` out with `seats` bots and checks the texts of its pictures at `every`-th turn.
pub fn check<R: Rules>(game: &str, seats: usize, options: R::Options, every: usize) {
    let id = format!("texts-{game}");
    let names = (1..=seats).map(|i| format!("Bot {i}")).collect();
    let mut t = Table::<R>::new(&id, Secret::derive(id.as_bytes()), names, options)
        .expect("the table is set up");
    play_out(&mut t, 200_000).expect("the bots play the game out");
    let last = Session::turn(&t);
    let mut wrong = Vec::new();
    let mut turns: Vec<u32> = (0..=last).step_by(every.max(1)).collect();
    turns.push(last);
    turns.dedup();
    for turn in turns {
        let s = t.at_turn(turn).expect("the game at that turn");
        let viewers = std::iter::once(Viewer::Public).chain((0..seats).map(Viewer::Seat));
        for viewer in viewers {
            for lang in [Lang::En, Lang::Fr] {
                let Some(p) = s.picture(viewer, lang) else {
                    continue;
                };
                for w in check_texts(&p) {
                    wrong.push(format!("{game}, turn {turn}, {viewer:?}, {lang:?}: {w}"));
                }
            }
        }
    }
    wrong.dedup();
    assert!(
        wrong.is_empty(),
        "{} texts out of place:\n{}",
        wrong.len(),
        wrong.join("\n")
    );
}
