//! The board as a picture (SVG): the 44 territories at their chief cities (data/board.yaml
//! `at:`, projected), land borders and dotted crossings, the seas, each empire tinted, the
//! owners' colours and army counts, the castles. Made from the public view's facts only; a
//! seat's picture adds that seat's own hidden armies.

use crate::game::CastleRisk;
use crate::map::{map, Sea};
use crate::words;
use castellan_engine::board::Edge;
use castellan_engine::lang::PerLang;
use castellan_engine::svg::{
    project, seat_colour, spread, GraphMap, MapBase, Node, Region, NOBODY,
};
use castellan_engine::{Lang, Seat, Viewer};

const W: f64 = 760.0;
const H: f64 = 560.0;
/// The empires' and the independents' tints (group order of data/board.yaml).
const TINTS: [&str; 9] = [
    "#c9d6ef", "#f2c9c9", "#d9ead3", "#e0e0e0", "#f6e3b4", "#e4d3ec", "#fde9d9", "#f3f0c4",
    "#d2ecec",
];
/// The seas' colours for the port rings.
const OPEN_SEA: &str = "#6ec6f0";
const BLACK_SEA: &str = "#17324d";

/// (latitude, longitude) of the picture's corners: the territories' extent with a margin.
fn extent() -> Vec<(f64, f64)> {
    let m = map();
    let mut pts = m.at.clone();
    pts.push((62.5, -11.5));
    pts.push((36.5, 40.5));
    pts
}

/// Each territory's place in the picture: worked out once (spreading the close cities
/// apart is the costly part of a picture, and the board never changes).
pub fn places() -> &'static [(f64, f64)] {
    static PLACES: std::sync::OnceLock<Vec<(f64, f64)>> = std::sync::OnceLock::new();
    PLACES.get_or_init(|| {
        let mut p = project(&extent(), W, H, 14.0);
        p.truncate(map().at.len());
        spread(&mut p, 36.0, W, H);
        p
    })
}

fn pos(lat: f64, lon: f64) -> (f64, f64) {
    let mut pts = extent();
    pts.push((lat, lon));
    *project(&pts, W, H, 14.0).last().unwrap_or(&(0.0, 0.0))
}

/// What of the picture depends on the board alone, in one language: drawn once
/// ([`GraphMap::base`]), with the regions the legend lists.
struct Board {
    base: MapBase,
    regions: Vec<Region>,
}

/// The board's parts of the picture in `lang`, drawn the first time they are asked for.
fn board(lang: Lang) -> &'static Board {
    static BOARDS: PerLang<Board> = PerLang::new();
    BOARDS.get(lang, || {
        let m = map();
        let mut edges = Vec::new();
        for a in 0..m.at.len() {
            for &(b, e) in m.board.edges_of(a) {
                if a < b {
                    edges.push((a, b, e == Edge::Crossing));
                }
            }
        }
        let regions = (0..m.board.groups.len())
            .map(|gi| Region {
                name: words::group(gi, lang),
                tint: TINTS[gi % TINTS.len()],
            })
            .collect::<Vec<_>>();
        let sea = |la: f64, lo: f64, en: &str, fr: &str| {
            let (x, y) = pos(la, lo);
            (x, y, lang.pick(en, fr).to_string())
        };
        let labels = vec![
            sea(46.0, -8.0, "Atlantic", "Atlantique"),
            sea(56.8, 3.2, "North Sea", "mer du Nord"),
            sea(57.6, 17.8, "Baltic", "Baltique"),
            sea(38.3, 6.0, "Mediterranean", "Méditerranée"),
            sea(43.4, 34.6, "Black Sea", "mer Noire"),
        ];
        let (bx, by) = pos(43.2, 34.0);
        let base = GraphMap {
            width: W,
            height: H,
            nodes: (0..m.at.len()).map(|t| node(t, lang)).collect(),
            edges,
            regions: regions.clone(),
            labels,
            waters: vec![(bx, by, 62.0, 30.0)],
            ..GraphMap::default()
        }
        .base();
        Board { base, regions }
    })
}

/// The picture for `viewer` in `lang`: the board's parts drawn once (`board`), the
/// owners, armies, castles, marks and legend drawn for this state.
pub fn picture(g: &CastleRisk, viewer: Viewer, lang: Lang) -> String {
    let seat: Option<Seat> = match viewer {
        Viewer::Seat(s) if s < g.n() => Some(s),
        _ => None,
    };
    let board = board(lang);
    let turn = match (g.turns_played, lang) {
        (0, _) => format!("Castle Risk, {}", lang.pick("setting up", "mise en place")),
        (n, Lang::En) => format!("Castle Risk, turn {n}"),
        (n, Lang::Fr) => format!("Castle Risk, tour {n}"),
    };
    GraphMap {
        width: W,
        height: H,
        title: turn.clone(),
        header: vec![turn],
        nodes: nodes(g, seat, lang),
        legend: legend(g, &board.regions, lang),
        ..GraphMap::default()
    }
    .render_on(&board.base)
}

/// Territory `t` as the board alone draws it: where, its name, region and port.
fn node(t: usize, lang: Lang) -> Node {
    let m = map();
    let at = places();
    Node {
        x: at[t].0,
        y: at[t].1,
        name: words::tn(t, lang).to_string(),
        owner: None,
        colour: NOBODY,
        armies: 0,
        region: m.group_of(t),
        castle: None,
        port: match m.sea[t] {
            Sea::None => None,
            Sea::Open => Some(OPEN_SEA),
            Sea::Black | Sea::Both => Some(BLACK_SEA),
        },
        mark: None,
    }
}

/// Each territory: where, whose, how many armies, its castle and port; `seat`'s own unused
/// hidden armies marked.
fn nodes(g: &CastleRisk, seat: Option<Seat>, lang: Lang) -> Vec<Node> {
    let mut nodes = Vec::with_capacity(g.board.ids().len());
    for t in g.board.ids() {
        let owner = g.board[t].owner;
        let mark = seat.and_then(|s| {
            g.players[s]
                .hidden
                .iter()
                .any(|h| h.territory == t && !h.used)
                .then(|| lang.pick("hidden armies", "armées cachées").to_string())
        });
        nodes.push(Node {
            owner: owner.map(|s| g.name(s).to_string()),
            colour: owner.map(seat_colour).unwrap_or(NOBODY),
            armies: g.board[t].armies,
            castle: g.castle_owner_at(t).map(seat_colour),
            mark,
            ..node(t, lang)
        });
    }
    nodes
}

/// The legend: each seat with its territories and armies, the regions, the ports.
fn legend(g: &CastleRisk, regions: &[Region], lang: Lang) -> Vec<(&'static str, String)> {
    let mut legend: Vec<(&'static str, String)> = (0..g.n())
        .map(|s| {
            let terr = g.territories_of(s);
            let armies: u32 = terr.iter().map(|t| g.board[*t].armies).sum();
            let state = if g.players[s].alive {
                match lang {
                    Lang::En => format!("{} territories, {armies} armies", terr.len()),
                    Lang::Fr => format!("{} terr., {armies} armées", terr.len()),
                }
            } else {
                lang.pick("eliminated", "hors jeu").to_string()
            };
            (seat_colour(s), format!("{}: {state}", g.name(s)))
        })
        .collect();
    for r in regions {
        legend.push((r.tint, r.name.clone()));
    }
    legend.push((
        OPEN_SEA,
        lang.pick(
            "ring: port (dark: Black Sea); dotted: crossing",
            "anneau : port (foncé : mer Noire) ; pointillé : passage",
        )
        .to_string(),
    ));
    legend
}

#[cfg(test)]
mod tests {
    use super::*;
    use castellan_engine::svg::check_texts;

    /// A seat's mark ("hidden armies") finds room by any territory, in both languages:
    /// no text overlaps another or leaves the picture, whichever territory it is on.
    #[test]
    fn a_mark_on_any_territory_finds_room() {
        for lang in [Lang::En, Lang::Fr] {
            let board = board(lang);
            for t in 0..places().len() {
                let mut nodes: Vec<Node> = (0..places().len()).map(|u| node(u, lang)).collect();
                nodes[t].mark = Some(lang.pick("hidden armies", "armées cachées").to_string());
                nodes[t].armies = 88;
                let svg = GraphMap {
                    width: W,
                    height: H,
                    header: vec!["Castle Risk, turn 88".to_string()],
                    nodes,
                    ..GraphMap::default()
                }
                .render_on(&board.base);
                assert_eq!(check_texts(&svg), Vec::<String>::new(), "{t} {lang:?}");
            }
        }
    }
}
