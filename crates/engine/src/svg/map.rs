//! A map of territories joined by borders, as Castle Risk and Risk draw it: where each
//! territory stands ([`project`], [`spread`]), and the picture, its board's parts drawn
//! once ([`MapBase`]).

use super::place::{Font, Placed, Room};
use super::text::{text_width, wrap_to, Rect};
use super::{esc_into, push_content, push_int, push_px, Px, Svg};
use std::fmt::Write;

/// A territory as a map picture draws it.
#[derive(Clone, Debug)]
pub struct Node {
    /// Position in the picture's units (see [`project`] and [`spread`]).
    pub x: f64,
    pub y: f64,
    pub name: String,
    /// Who holds it, as the text report names them (`None`: nobody).
    pub owner: Option<String>,
    /// Fill: the owner's colour (`NOBODY` when nobody holds it).
    pub colour: &'static str,
    pub armies: u32,
    /// Index into [`GraphMap::regions`].
    pub region: usize,
    /// A castle (or headquarters) of the seat of this colour stands here.
    pub castle: Option<&'static str>,
    /// A port: the colour of its water.
    pub port: Option<&'static str>,
    /// A private mark only this picture's reader may see ("hidden armies", "your HQ").
    pub mark: Option<String>,
}

/// A group of territories (an empire, a continent): tinted behind its members.
#[derive(Clone, Debug)]
pub struct Region {
    pub name: String,
    pub tint: &'static str,
}

/// A map of territories joined by borders, as Castle Risk and Risk draw it.
#[derive(Clone, Debug, Default)]
pub struct GraphMap {
    /// Map area, in units; the legend is added below it.
    pub width: f64,
    pub height: f64,
    pub title: String,
    /// Lines above the map (the game, the turn, whose move).
    pub header: Vec<String>,
    pub nodes: Vec<Node>,
    /// (a, b, dotted): a border, or a crossing drawn dotted.
    pub edges: Vec<(usize, usize, bool)>,
    pub regions: Vec<Region>,
    /// Water and other labels: (x, y, text).
    pub labels: Vec<(f64, f64, String)>,
    /// Water drawn under everything: (cx, cy, rx, ry).
    pub waters: Vec<(f64, f64, f64, f64)>,
    /// The legend's lines: (swatch colour, text).
    pub legend: Vec<(&'static str, String)>,
}

/// Node radius.
const R: f64 = 13.0;
const HEAD: f64 = 22.0;
/// The territories' names.
const NAME: Font = Font {
    size: 11.0,
    line: 13.0,
    bold: false,
    split: true,
};
/// The seas' names.
const SEA: Font = Font {
    size: 12.0,
    line: 14.0,
    bold: false,
    split: true,
};
/// A mark set on a territory, on one line (it is read as one phrase).
const MARK: Font = Font {
    size: 11.0,
    line: 13.0,
    bold: true,
    split: false,
};
/// The legend's text size and the height of its rows.
const LEGEND: f64 = 16.0;
const LEGEND_ROW: f64 = 22.0;

/// Equirectangular projection of (latitude, longitude) points into a `w` × `h` box with a
/// `margin`, longitude scaled by the cosine of the middle latitude (true shape there), the
/// box filled each way.
pub fn project(points: &[(f64, f64)], w: f64, h: f64, margin: f64) -> Vec<(f64, f64)> {
    let (mut la0, mut la1, mut lo0, mut lo1) = (f64::MAX, f64::MIN, f64::MAX, f64::MIN);
    for &(la, lo) in points {
        la0 = la0.min(la);
        la1 = la1.max(la);
        lo0 = lo0.min(lo);
        lo1 = lo1.max(lo);
    }
    let k = ((la0 + la1) / 2.0).to_radians().cos().max(0.2);
    let (dx, dy) = (((lo1 - lo0) * k).max(1e-6), (la1 - la0).max(1e-6));
    let (sx, sy) = ((w - 2.0 * margin) / dx, (h - 2.0 * margin) / dy);
    points
        .iter()
        .map(|&(la, lo)| (margin + (lo - lo0) * k * sx, margin + (la1 - la) * sy))
        .collect()
}

/// Push points closer than `min` apart until none is (or after 200 rounds), keeping them
/// inside `w` × `h`: close cities stay where they are, give or take a node's width.
pub fn spread(points: &mut [(f64, f64)], min: f64, w: f64, h: f64) {
    for _ in 0..200 {
        let mut moved = false;
        for i in 0..points.len() {
            for j in (i + 1)..points.len() {
                let (dx, dy) = (points[j].0 - points[i].0, points[j].1 - points[i].1);
                let d = (dx * dx + dy * dy).sqrt();
                if d < min {
                    let (ux, uy) = if d < 1e-6 {
                        (1.0, 0.0)
                    } else {
                        (dx / d, dy / d)
                    };
                    let push = (min - d) / 2.0 + 0.01;
                    points[i].0 -= ux * push;
                    points[i].1 -= uy * push;
                    points[j].0 += ux * push;
                    points[j].1 += uy * push;
                    moved = true;
                }
            }
        }
        for p in points.iter_mut() {
            p.0 = p.0.clamp(R + 2.0, w - R - 2.0);
            p.1 = p.1.clamp(R + 2.0, h - R - 12.0);
        }
        if !moved {
            break;
        }
    }
}

/// What of a map's picture depends on its board alone (each territory's place, name and
/// port, the regions, the borders, the water and its labels), written once
/// ([`GraphMap::base`]): a board drawn again and again copies it, and draws only the
/// owners, the armies, the castles, the marks and the legend.
#[derive(Clone, Debug)]
pub struct MapBase {
    /// From the water to the port rings, the discs' group opened.
    under: String,
    /// The territories' names, their group opened and closed.
    names: String,
    /// How many territories it was drawn for.
    nodes: usize,
    /// The room the discs and the names take: marks go elsewhere.
    taken: Vec<Rect>,
}

/// Where the board's words go: each territory's name, each sea's; and the room they and
/// the discs take.
struct Words {
    names: Vec<Placed>,
    seas: Vec<Placed>,
    /// Lines from a disc to its name set further off: (disc, name).
    leaders: Vec<(f64, f64, f64, f64)>,
    taken: Vec<Rect>,
}

impl GraphMap {
    /// The picture: header, tinted regions, water, borders, territories (owner's colour,
    /// army count, name; each territory's circle titled "Name: owner, armies"), castles
    /// and ports, then the legend. Styles are set once per group of like elements and
    /// coordinates rounded to the unit, to keep the mail small.
    pub fn render(&self) -> String {
        self.render_on(&self.base())
    }

    /// The parts of [`GraphMap::render`] that depend on the board alone: the same for
    /// every map with these places, names, ports, regions, edges, labels and waters.
    pub fn base(&self) -> MapBase {
        let words = self.words();
        let mut under = String::with_capacity(16 * 1024);
        self.draw_waters(&mut under);
        self.draw_regions(&mut under);
        draw_labels(&mut under, &words.seas);
        if !words.leaders.is_empty() {
            under.push_str("\n<g stroke=\"#1a1a1a\" stroke-width=\"0.8\">");
            for &(x1, y1, x2, y2) in &words.leaders {
                line(&mut under, x1, y1, x2, y2);
            }
            under.push_str("\n</g>");
        }
        self.draw_borders(&mut under);
        self.draw_ports(&mut under);
        let mut names = String::with_capacity(64 * self.nodes.len() + 256);
        draw_names(&mut names, &words.names);
        MapBase {
            under,
            names,
            nodes: self.nodes.len(),
            taken: words.taken,
        }
    }

    /// Where the names go: the discs' room taken first, then each territory's name by its
    /// disc (the most crowded first), then each sea's near its place.
    fn words(&self) -> Words {
        let discs = self.nodes.iter().map(|n| Rect {
            x0: n.x - R - 1.0,
            y0: n.y - R - 1.0,
            x1: n.x + R + 1.0,
            y1: n.y + R + 1.0,
        });
        let mut room = Room {
            w: self.width,
            h: self.height,
            taken: discs.collect(),
        };
        let crowd = |a: &Node| {
            let near = |b: &&Node| (a.x - b.x).hypot(a.y - b.y) < 80.0;
            self.nodes.iter().filter(near).count()
        };
        let mut order: Vec<usize> = (0..self.nodes.len()).collect();
        order.sort_by_key(|&i| std::cmp::Reverse(crowd(&self.nodes[i])));
        let mut names = vec![Placed::default(); self.nodes.len()];
        let mut leaders = Vec::new();
        for i in order {
            let n = &self.nodes[i];
            names[i] = match room.by_disc(n.x, n.y, R, &n.name, NAME) {
                Some(at) => at,
                // Further off, with a line from the disc to it.
                None => match room.near(n.x, n.y + R + 10.0, &n.name, NAME) {
                    Some(at) => {
                        let ly = at.lines.first().map_or(n.y, |(y, _)| *y - 4.0);
                        leaders.push((n.x, n.y, at.x, ly));
                        at
                    }
                    None => room.forced(n.x, n.y, R, &n.name, NAME),
                },
            };
        }
        let seas = self
            .labels
            .iter()
            .map(|(x, y, t)| {
                room.near(*x, *y, t, SEA)
                    .unwrap_or_else(|| room.forced(*x, *y, 0.0, t, SEA))
            })
            .collect();
        Words {
            names,
            seas,
            leaders,
            taken: room.taken,
        }
    }

    /// [`GraphMap::render`] with the board's parts taken from `base`, which must come
    /// from a map of the same board ([`GraphMap::base`]): the same bytes.
    pub fn render_on(&self, base: &MapBase) -> String {
        debug_assert_eq!(base.nodes, self.nodes.len(), "a base of another board");
        let (legend, legend_rows) = self.legend_rows();
        let total_h =
            HEAD * self.header.len() as f64 + self.height + LEGEND_ROW * legend_rows + 12.0;
        let capacity = base.under.len()
            + base.names.len()
            + 160 * self.nodes.len()
            + 160 * (self.legend.len() + self.header.len())
            + 1024;
        let mut s = Svg::with_capacity(
            self.width as u32,
            total_h.ceil() as u32,
            "#f4f1ea",
            &self.title,
            capacity,
        );
        for (i, h) in self.header.iter().enumerate() {
            s.text(
                10.0,
                16.0 + HEAD * i as f64,
                "start",
                "font-size:15px;font-weight:bold;fill:#222",
                h,
            );
        }
        let top = HEAD * self.header.len() as f64;
        let o = &mut s.out;
        o.push_str("\n<g transform=\"translate(0,");
        push_px(o, top);
        o.push_str(")\">");
        o.push_str(&base.under);
        self.draw_discs(o);
        o.push_str(&base.names);
        self.draw_castles_and_marks(o, base);
        self.draw_legend(o, top, &legend);
        o.push_str("\n</svg>");
        s.out
    }

    /// The seas and lakes, under everything.
    fn draw_waters(&self, o: &mut String) {
        for &(cx, cy, rx, ry) in &self.waters {
            let _ = write!(
                o,
                "\n<ellipse cx=\"{}\" cy=\"{}\" rx=\"{}\" ry=\"{}\" fill=\"#bcd7ea\"/>",
                Px(cx),
                Px(cy),
                Px(rx),
                Px(ry)
            );
        }
    }

    /// Regions: each member's disc and each inner border in the region's tint, so a
    /// region reads as one patch.
    fn draw_regions(&self, o: &mut String) {
        for (ri, r) in self.regions.iter().enumerate() {
            let _ = write!(
                o,
                "\n<g stroke=\"{t}\" fill=\"{t}\" stroke-linecap=\"round\" stroke-width=\"34\" opacity=\"0.55\">",
                t = r.tint
            );
            for &(a, b, _) in &self.edges {
                let (na, nb) = (&self.nodes[a], &self.nodes[b]);
                if na.region == ri && nb.region == ri {
                    line(o, na.x, na.y, nb.x, nb.y);
                }
            }
            for n in self.nodes.iter().filter(|n| n.region == ri) {
                o.push_str("\n<circle cx=\"");
                push_px(o, n.x);
                o.push_str("\" cy=\"");
                push_px(o, n.y);
                o.push_str("\" r=\"19\"/>");
            }
            o.push_str("\n</g>");
        }
    }

    /// The borders: land first, then the dotted ones (and the round-the-world stubs).
    fn draw_borders(&self, o: &mut String) {
        for dotted in [false, true] {
            o.push_str(if dotted {
                "\n<g stroke=\"#555\" stroke-width=\"1.6\" stroke-dasharray=\"3 4\">"
            } else {
                "\n<g stroke=\"#666\" stroke-width=\"1.4\">"
            });
            for &(a, b, d) in &self.edges {
                let (na, nb) = (&self.nodes[a], &self.nodes[b]);
                let round_world = (na.x - nb.x).abs() > self.width / 2.0;
                if round_world && dotted {
                    // Round the world: a stub from each towards its own edge.
                    let y = (na.y + nb.y) / 2.0;
                    let (l, r) = if na.x < nb.x { (na, nb) } else { (nb, na) };
                    line(o, l.x, l.y, 0.0, y);
                    line(o, r.x, r.y, self.width, y);
                } else if !round_world && d == dotted {
                    line(o, na.x, na.y, nb.x, nb.y);
                }
            }
            o.push_str("\n</g>");
        }
    }

    /// Each port's ring, then the territories' discs' group opened.
    fn draw_ports(&self, o: &mut String) {
        o.push_str("\n<g fill=\"none\" stroke-width=\"3\">");
        for n in &self.nodes {
            if let Some(p) = n.port {
                let _ = write!(
                    o,
                    "\n<circle cx=\"{}\" cy=\"{}\" r=\"{:.1}\" stroke=\"{p}\"/>",
                    Px(n.x),
                    Px(n.y),
                    R + 2.5
                );
            }
        }
        o.push_str("\n</g>\n<g stroke=\"#222\" stroke-width=\"1\">");
    }

    /// Each territory's disc in its owner's colour (titled "Name: owner, armies"), then
    /// its army count.
    fn draw_discs(&self, o: &mut String) {
        for n in &self.nodes {
            o.push_str("\n<circle cx=\"");
            push_px(o, n.x);
            o.push_str("\" cy=\"");
            push_px(o, n.y);
            o.push_str("\" r=\"13\" fill=\"");
            o.push_str(n.colour);
            o.push_str("\">\n<title>");
            esc_into(o, &n.name);
            o.push_str(": ");
            esc_into(o, n.owner.as_deref().unwrap_or("-"));
            o.push_str(", ");
            push_int(o, i64::from(n.armies));
            o.push_str("</title>\n</circle>");
        }
        o.push_str(
            "\n</g>\n<g text-anchor=\"middle\" font-size=\"13\" font-weight=\"bold\" fill=\"#fff\">",
        );
        for n in &self.nodes {
            o.push_str("\n<text x=\"");
            push_px(o, n.x);
            o.push_str("\" y=\"");
            push_px(o, n.y + 4.5);
            o.push_str(if n.owner.is_some() {
                "\">"
            } else {
                "\" fill=\"#222\">"
            });
            push_int(o, i64::from(n.armies));
            o.push_str("</text>");
        }
    }

    /// Castles and the marks set on a territory (a picture's reader's own, say), each
    /// mark where no name or other mark is.
    fn draw_castles_and_marks(&self, o: &mut String, base: &MapBase) {
        let mut room = Room {
            w: self.width,
            h: self.height,
            taken: Vec::new(),
        };
        for n in &self.nodes {
            if let Some(c) = n.castle {
                castle(o, n.x + R, n.y - R + 2.0, c);
            }
            if let Some(m) = &n.mark {
                if room.taken.is_empty() {
                    room.taken.clone_from(&base.taken);
                }
                // By the ring; else further off, with a line from the ring to it.
                let at = match room.by_disc(n.x, n.y, R + 6.0, m, MARK) {
                    Some(at) => at,
                    None => {
                        let at = room
                            .near(n.x, n.y - R - 12.0, m, MARK)
                            .unwrap_or_else(|| room.forced(n.x, n.y, R + 6.0, m, MARK));
                        let ly = at.lines.first().map_or(n.y, |(y, _)| *y - 4.0);
                        let (dx, dy) = (at.x - n.x, ly - n.y);
                        let d = dx.hypot(dy).max(1.0);
                        o.push_str("\n<g stroke=\"#000\" stroke-width=\"1.2\">");
                        line(
                            o,
                            n.x + dx / d * (R + 6.0),
                            n.y + dy / d * (R + 6.0),
                            at.x,
                            ly,
                        );
                        o.push_str("\n</g>");
                        at
                    }
                };
                let _ = write!(
                    o,
                    "\n<circle cx=\"{}\" cy=\"{}\" r=\"{}\" fill=\"none\" stroke=\"#000\" stroke-width=\"2\" stroke-dasharray=\"2 2\"/>\
                     \n<g text-anchor=\"middle\" font-size=\"11\" font-weight=\"bold\" fill=\"#000\" stroke=\"#f4f1ea\" stroke-width=\"3\" paint-order=\"stroke\">",
                    Px(n.x),
                    Px(n.y),
                    Px(R + 6.0),
                );
                for (y, l) in &at.lines {
                    text_at(o, at.x, *y, l);
                }
                o.push_str("\n</g>");
            }
        }
        o.push_str("\n</g>");
    }

    /// The legend's entries laid out under the map: two a row where each fits half the
    /// width, one a row (on as many lines as it takes) where it does not. Each entry's
    /// swatch colour, row and column, and its lines; and how many rows in all.
    #[allow(clippy::type_complexity)]
    fn legend_rows(&self) -> (Vec<(&'static str, f64, usize, Vec<String>)>, f64) {
        let half = self.width / 2.0 - 21.0 - 16.0;
        let full = self.width - 10.0 - 21.0 - 8.0;
        let (mut row, mut col) = (0usize, 0usize);
        let mut out = Vec::new();
        for (c, t) in &self.legend {
            if text_width(t, LEGEND, false) <= half {
                out.push((*c, row as f64, col, vec![t.clone()]));
                col += 1;
                if col == 2 {
                    (row, col) = (row + 1, 0);
                }
            } else {
                if col == 1 {
                    (row, col) = (row + 1, 0);
                }
                let lines = wrap_to(t, full, LEGEND, false);
                let n = lines.len();
                out.push((*c, row as f64, 0, lines));
                row += n;
            }
        }
        (out, (row + usize::from(col == 1)) as f64)
    }

    /// The legend under the map, as [`GraphMap::legend_rows`] lays it out.
    fn draw_legend(&self, o: &mut String, top: f64, rows: &[(&str, f64, usize, Vec<String>)]) {
        let y0 = top + self.height + 6.0;
        let col = self.width / 2.0;
        o.push_str("\n<g font-size=\"16\" fill=\"#222\">");
        for (c, row, k, lines) in rows {
            let (x, y) = (10.0 + col * *k as f64, y0 + LEGEND_ROW * row);
            o.push_str("\n<rect x=\"");
            push_px(o, x);
            o.push_str("\" y=\"");
            push_px(o, y);
            o.push_str("\" width=\"15\" height=\"15\" fill=\"");
            o.push_str(c);
            o.push_str("\" stroke=\"#222\" stroke-width=\"0.8\"/>");
            for (i, l) in lines.iter().enumerate() {
                text_at(o, x + 21.0, y + 13.0 + LEGEND_ROW * i as f64, l);
            }
        }
        o.push_str("\n</g>");
    }
}

/// The names written on the map (seas), in italics.
fn draw_labels(o: &mut String, seas: &[Placed]) {
    o.push_str(
        "\n<g text-anchor=\"middle\" font-size=\"12\" font-style=\"italic\" fill=\"#2e6a94\">",
    );
    for p in seas {
        for (y, l) in &p.lines {
            text_at(o, p.x, *y, l);
        }
    }
    o.push_str("\n</g>");
}

/// Each territory's name where [`GraphMap::words`] put it.
fn draw_names(o: &mut String, names: &[Placed]) {
    o.push_str("\n</g>\n<g text-anchor=\"middle\" font-size=\"11\" fill=\"#1a1a1a\" stroke=\"#f4f1ea\" stroke-width=\"3\" paint-order=\"stroke\">");
    for p in names {
        for (y, l) in &p.lines {
            text_at(o, p.x, *y, l);
        }
    }
    o.push_str("\n</g>");
}

/// A small castle (a crenellated tower) centred on (`x`, `y`).
fn castle(o: &mut String, x: f64, y: f64, fill: &str) {
    let (l, t) = (x - 7.0, y - 7.0);
    o.push_str("\n<path d=\"M");
    push_px(o, l);
    o.push(' ');
    push_px(o, t + 14.0);
    o.push_str("v-10h3v3h2.5v-3h3v3h2.5v-3h3v10z\" fill=\"");
    o.push_str(fill);
    o.push_str("\" stroke=\"#111\" stroke-width=\"1.2\"/>");
}

/// A text at (`x`, `y`), styled by its group, on a line of its own.
fn text_at(o: &mut String, x: f64, y: f64, text: &str) {
    o.push_str("\n<text x=\"");
    push_px(o, x);
    o.push_str("\" y=\"");
    push_px(o, y);
    o.push_str("\">");
    push_content(o, text);
    o.push_str("</text>");
}

/// A line from (`x1`, `y1`) to (`x2`, `y2`), styled by its group, on a line of its own.
/// Written piece by piece: a board draws its borders twice, the most written element of
/// a picture, and `write!` with four coordinates cost four times as much.
fn line(o: &mut String, x1: f64, y1: f64, x2: f64, y2: f64) {
    for (name, v) in [
        ("\n<line x1=\"", x1),
        ("\" y1=\"", y1),
        ("\" x2=\"", x2),
        ("\" y2=\"", y2),
    ] {
        o.push_str(name);
        push_px(o, v);
    }
    o.push_str("\"/>");
}
