//! Castle Risk pictures per second (no criterion): the public picture and a seat's own of a
//! game in its middle, in both languages, as a report of the judge draws them.
//! Run: cargo bench -p castellan-castle-risk --bench picture [-- ROUNDS]

use castellan_castle_risk::{CastleRisk, Options};
use castellan_engine::{play_out, Lang, Secret, Session, Table, Viewer};
use std::time::Instant;

fn main() {
    let rounds: usize = std::env::args()
        .skip(1)
        .find_map(|a| a.parse().ok())
        .unwrap_or(2_000);
    let id = "bench-picture";
    let names = (1..=4).map(|i| format!("Bot {i}")).collect();
    let mut t =
        Table::<CastleRisk>::new(id, Secret::derive(id.as_bytes()), names, Options::default())
            .expect("table");
    play_out(&mut t, 200_000).expect("bot game");
    let s = t
        .at_turn(Session::turn(&t) / 2)
        .expect("the middle of the game");
    let t0 = Instant::now();
    let mut bytes = 0usize;
    for i in 0..rounds {
        let lang = if i % 2 == 0 { Lang::En } else { Lang::Fr };
        for viewer in [Viewer::Public, Viewer::Seat(i % 4)] {
            bytes += s.picture(viewer, lang).map_or(0, |p| p.len());
        }
    }
    let secs = t0.elapsed().as_secs_f64();
    let n = 2 * rounds;
    println!(
        "pictures: {n} in {secs:.3}s = {:.0} pictures/s, {:.1} µs each ({} bytes each)",
        n as f64 / secs,
        secs * 1e6 / n as f64,
        bytes / n
    );
}
