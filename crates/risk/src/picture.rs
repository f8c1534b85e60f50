//! The board as a picture (SVG): the 42 territories of the world at the middle of the
//! regions they stand for (data/board.yaml `at:`, projected), borders and sea lanes (the
//! Alaska–Kamchatka lane leaves one edge and comes back at the other), the continents
//! tinted, the owners' colours and army counts, revealed headquarters. Made from the
//! public view's facts only; a seat's picture adds that seat's own secret headquarters.

use crate::map::{self, board};
use crate::{Owner, Risk};
use castellan_engine::board::Edge;
use castellan_engine::lang::PerLang;
use castellan_engine::svg::{
    project, seat_colour, spread, GraphMap, MapBase, Node, Region, NOBODY,
};
use castellan_engine::{Lang, Seat, Viewer};

const W: f64 = 900.0;
const H: f64 = 520.0;
const NEUTRAL: &str = "#8a8576";
/// North America, South America, Europe, Africa, Asia, Australia (data order).
const TINTS: [&str; 6] = [
    "#f6e3b4", "#f2c9c9", "#c9d6ef", "#f3dcc4", "#d9ead3", "#e4d3ec",
];

fn name(s: &Risk, seat: Seat) -> String {
    s.players
        .get(seat)
        .map(|p| p.name.clone())
        .unwrap_or_else(|| format!("seat {seat}"))
}

/// Each territory's place in the picture: worked out once (spreading the close regions
/// apart is the costly part of a picture, and the board never changes).
fn places() -> &'static [(f64, f64)] {
    static PLACES: std::sync::OnceLock<Vec<(f64, f64)>> = std::sync::OnceLock::new();
    PLACES.get_or_init(|| {
        let mut at = project(&map::map().at, W, H, 16.0);
        spread(&mut at, 34.0, W, H);
        at
    })
}

/// What of the picture depends on the board alone, in one language: drawn once
/// ([`GraphMap::base`]), with the continents the legend lists.
struct Board {
    base: MapBase,
    regions: Vec<Region>,
}

/// The board's parts of the picture in `lang`, drawn the first time they are asked for.
fn drawn_board(lang: Lang) -> &'static Board {
    static BOARDS: PerLang<Board> = PerLang::new();
    BOARDS.get(lang, || {
        let b = board();
        let mut edges = Vec::new();
        for a in 0..b.len() {
            for &(c, e) in b.edges_of(a) {
                if a < c {
                    edges.push((a, c, e == Edge::Crossing));
                }
            }
        }
        let regions: Vec<Region> = (0..b.groups.len())
            .map(|g| Region {
                name: format!("{} (+{})", map::continent_in(g, lang), b.groups[g].bonus),
                tint: TINTS[g % TINTS.len()],
            })
            .collect();
        let base = GraphMap {
            width: W,
            height: H,
            nodes: (0..places().len()).map(|t| node(t, lang)).collect(),
            edges,
            regions: regions.clone(),
            ..GraphMap::default()
        }
        .base();
        Board { base, regions }
    })
}

/// Territory `t` as the board alone draws it: where, its name and continent.
fn node(t: usize, lang: Lang) -> Node {
    let (x, y) = places()[t];
    Node {
        x,
        y,
        name: map::name_in(t, lang).to_string(),
        owner: None,
        colour: NOBODY,
        armies: 0,
        region: board().territories[t].group,
        castle: None,
        port: None,
        mark: None,
    }
}

/// The picture for `viewer` in `lang`: the board's parts drawn once (`drawn_board`),
/// the owners, armies, headquarters and legend drawn for this state.
pub fn picture(s: &Risk, viewer: Viewer, lang: Lang) -> String {
    let drawn = drawn_board(lang);
    let me = match viewer {
        Viewer::Seat(p) if p < s.n() => Some(p),
        _ => None,
    };
    let mut nodes = Vec::with_capacity(places().len());
    for t in 0..places().len() {
        let (owner, colour) = match s.board[t].owner {
            Owner::Seat(p) => (Some(name(s, p)), seat_colour(p)),
            Owner::Neutral => (Some(lang.pick("neutral", "neutre").to_string()), NEUTRAL),
            Owner::Nobody => (None, NOBODY),
        };
        let hq = s
            .hq_revealed
            .then(|| (0..s.n()).find(|&p| s.players[p].hq == Some(t)));
        let mine = me.filter(|&p| !s.hq_revealed && s.players.get(p).and_then(|x| x.hq) == Some(t));
        nodes.push(Node {
            owner,
            colour,
            armies: s.board[t].armies,
            castle: hq.flatten().map(seat_colour),
            mark: mine.map(|_| lang.pick("your HQ", "votre QG").to_string()),
            ..node(t, lang)
        });
    }
    let mut legend: Vec<(&'static str, String)> = (0..s.n())
        .map(|p| {
            let owned = s.owned(p);
            let armies: u32 = owned.iter().map(|&t| s.board[t].armies).sum();
            let text = if s.players[p].eliminated {
                format!("{}: {}", name(s, p), lang.pick("eliminated", "éliminé"))
            } else {
                match lang {
                    Lang::En => format!(
                        "{}: {} territories, {armies} armies",
                        name(s, p),
                        owned.len()
                    ),
                    Lang::Fr => format!("{} : {} terr., {armies} armées", name(s, p), owned.len()),
                }
            };
            (seat_colour(p), text)
        })
        .collect();
    if s.board.iter().any(|x| x.owner == Owner::Neutral) {
        legend.push((NEUTRAL, lang.pick("neutral", "neutre").to_string()));
    }
    for r in &drawn.regions {
        legend.push((r.tint, r.name.clone()));
    }
    let title = match lang {
        Lang::En => format!("Risk, round {}", s.round),
        Lang::Fr => format!("Risk, manche {}", s.round),
    };
    GraphMap {
        width: W,
        height: H,
        title: title.clone(),
        header: vec![title],
        nodes,
        legend,
        ..GraphMap::default()
    }
    .render_on(&drawn.base)
}

#[cfg(test)]
mod tests {
    use super::*;
    use castellan_engine::svg::check_texts;

    /// A seat's own mark ("your HQ") finds room by any territory, in both languages: no
    /// text overlaps another or leaves the picture, whichever territory it is on.
    #[test]
    fn a_mark_on_any_territory_finds_room() {
        for lang in [Lang::En, Lang::Fr] {
            let drawn = drawn_board(lang);
            for t in 0..places().len() {
                let mut nodes: Vec<Node> = (0..places().len()).map(|u| node(u, lang)).collect();
                nodes[t].mark = Some(lang.pick("your HQ", "votre QG").to_string());
                nodes[t].armies = 88;
                let svg = GraphMap {
                    width: W,
                    height: H,
                    header: vec!["Risk, round 88".to_string()],
                    nodes,
                    ..GraphMap::default()
                }
                .render_on(&drawn.base);
                assert_eq!(check_texts(&svg), Vec::<String>::new(), "{t} {lang:?}");
            }
        }
    }
}
