//! Every byte of a game's pictures, shared by the games' `picture_bytes` tests: a bot game
//! on a fixed seed, drawn at a few turns for the public and for each seat in both
//! languages, each picture's length and FNV-1a digest against the game's
//! tests/data/picture_digests.txt. `CASTELLAN_BLESS=1` rewrites the list;
//! `CASTELLAN_PICTURES=DIR` also writes the pictures into DIR, to diff two builds' output.

use castellan_engine::{play_out, Lang, Rules, Secret, Session, Table, Viewer};

/// FNV-1a, 64 bits: a digest that needs no crate and never changes.
fn fnv(s: &str) -> u64 {
    s.bytes().fold(0xcbf2_9ce4_8422_2325, |h, b| {
        (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
    })
}

/// Plays `R` out with `seats` bots and checks its pictures against `dir`/tests/data.
pub fn check<R: Rules>(dir: &str, game: &str, seats: usize, options: R::Options) {
    let id = format!("pictures-{game}");
    let names = (1..=seats).map(|i| format!("Bot {i}")).collect();
    let mut t = Table::<R>::new(&id, Secret::derive(id.as_bytes()), names, options)
        .expect("the table is set up");
    play_out(&mut t, 200_000).expect("the bots play the game out");
    let last = Session::turn(&t);
    let mut turns = vec![0, 1, 2, last / 4, last / 2, 3 * last / 4, last];
    turns.dedup();
    let out = std::env::var("CASTELLAN_PICTURES").ok();
    let mut got = String::new();
    for turn in turns {
        let s = t.at_turn(turn).expect("the game at that turn");
        let viewers = std::iter::once(Viewer::Public).chain((0..seats).map(Viewer::Seat));
        for viewer in viewers {
            for lang in [Lang::En, Lang::Fr] {
                let Some(p) = s.picture(viewer, lang) else {
                    continue;
                };
                let who = match viewer {
                    Viewer::Public => "public".to_string(),
                    Viewer::Seat(n) => format!("seat-{n}"),
                };
                let name = format!("{game}-{turn}-{who}-{}", lang.code());
                got.push_str(&format!("{name} {} {:016x}\n", p.len(), fnv(&p)));
                if let Some(d) = &out {
                    std::fs::create_dir_all(d).expect("the pictures' folder");
                    std::fs::write(format!("{d}/{name}.svg"), &p).expect("a picture written");
                }
            }
        }
    }
    let path = format!("{dir}/tests/data/picture_digests.txt");
    if std::env::var("CASTELLAN_BLESS").is_ok() {
        std::fs::create_dir_all(format!("{dir}/tests/data")).expect("tests/data");
        std::fs::write(&path, &got).expect("the digests written");
        return;
    }
    let want = std::fs::read_to_string(&path).unwrap_or_default();
    assert!(
        want == got,
        "{path} differs (CASTELLAN_BLESS=1 rewrites it):\n--- want\n{want}\n--- got\n{got}"
    );
}
