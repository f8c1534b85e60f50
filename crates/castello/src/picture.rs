//! The board as a picture (SVG): the 21 × 15 squares in their three sections, columns A–U
//! and rows 1–15 labelled as the orders name them, the pawns (a ring on those that have not
//! moved yet and may still go two squares), the castles standing and the ones taken, the
//! last move's path and the pawns it captured. Made from the public position only (Castello
//! hides nothing: a seat's picture is the same).

use crate::geom::{Sq, COLS, ROWS};
use crate::words::colour_in;
use crate::{Castello, Cell, Side};
use castellan_engine::svg::{wrap_to, Svg};
use castellan_engine::{Lang, Viewer};
use std::fmt::Write;

const C: f64 = 32.0;
const LEFT: f64 = 26.0;
const TOP: f64 = 46.0;
const PAWN: [&str; 2] = ["#c0392b", "#1b1b1b"];
const SECTION: [&str; 3] = ["#f6dcdc", "#efe8d8", "#dcdcdc"];
/// The legend's text size and the height of its lines.
const LEGEND: f64 = 15.0;
const LEGEND_ROW: f64 = 19.0;

fn centre(s: Sq) -> (f64, f64) {
    (
        LEFT + (s.col as f64 + 0.5) * C,
        TOP + (ROWS as f64 - 1.0 - s.row as f64 + 0.5) * C,
    )
}

fn castle(x: f64, y: f64, fill: &str, stroke: &str, dash: bool) -> String {
    let (l, b) = (x - 9.0, y + 8.0);
    format!(
        "<path d=\"M{l:.1} {b:.1}v-15h4v4h3v-4h4v4h3v-4h4v15z\" fill=\"{fill}\" stroke=\"{stroke}\" \
         stroke-width=\"1.5\"{}/>",
        if dash { " stroke-dasharray=\"3 2\"" } else { "" }
    )
}

impl Castello {
    /// The picture in `lang` (the same for every viewer: nothing in Castello is hidden).
    pub(crate) fn picture_in(&self, _viewer: Viewer, lang: Lang) -> String {
        let w = LEFT * 2.0 + COLS as f64 * C;
        let board_h = ROWS as f64 * C;
        let legend = self.legend_lines(w, lang);
        let rows: usize = legend.iter().map(|(_, l)| l.len()).sum();
        let h = TOP + board_h + 24.0 + LEGEND_ROW * rows as f64 + 8.0;
        let title = match (&self.result, lang) {
            (Some(_), Lang::En) => format!("Castello, after {} moves: game over", self.ply),
            (Some(_), Lang::Fr) => format!("Castello, après {} coups : partie terminée", self.ply),
            (None, Lang::En) => format!(
                "Castello, move {}: {} to move",
                self.ply + 1,
                self.name_in(self.to_move, lang)
            ),
            (None, Lang::Fr) => format!(
                "Castello, coup {} : à {} de jouer",
                self.ply + 1,
                self.name_in(self.to_move, lang)
            ),
        };
        let mut s = Svg::new(w as u32, h.ceil() as u32, "#faf8f2", &title);
        s.text(
            10.0,
            18.0,
            "start",
            "font-size:15px;font-weight:bold;fill:#222",
            &title,
        );
        s.raw(&grid(w, board_h));
        self.draw_castles(&mut s);
        self.draw_last_move(&mut s);
        self.draw_pawns(&mut s);
        draw_legend(&mut s, TOP + board_h + 40.0, &legend);
        s.finish()
    }

    /// Standing castles in stone (home castles edged in their side's colour), taken ones as
    /// a dashed outline in the taker's colour.
    fn draw_castles(&self, s: &mut Svg) {
        for c in &self.castles {
            let (x, y) = centre(c.sq);
            let edge = c.home.map(|h| PAWN[h.index()]).unwrap_or("#333");
            let (fill, dash, state) = match c.taken_by {
                Some(t) => ("none", true, format!("taken-by-{}", colour_in(t, Lang::En))),
                None => ("#a9a39a", false, "standing".to_string()),
            };
            let stroke = c.taken_by.map(|t| PAWN[t.index()]).unwrap_or(edge);
            s.raw(&format!(
                "<g data-square=\"{}\" data-castle=\"{state}\">{}</g>",
                c.sq,
                castle(x, y, fill, stroke, dash)
            ));
        }
    }

    /// The last move: its path, then a cross on each pawn it captured.
    fn draw_last_move(&self, s: &mut Svg) {
        if self.last_path.len() > 1 {
            let pts: Vec<String> = self
                .last_path
                .iter()
                .map(|q| {
                    let (x, y) = centre(*q);
                    format!("{x:.0},{y:.0}")
                })
                .collect();
            s.raw(&format!(
                "<polyline points=\"{}\" fill=\"none\" stroke=\"#e6a100\" stroke-width=\"5\" \
                 stroke-linejoin=\"round\" stroke-linecap=\"round\" opacity=\"0.85\"/>",
                pts.join(" ")
            ));
            let (x, y) = centre(self.last_path[0]);
            s.raw(&format!(
                "<circle cx=\"{x:.0}\" cy=\"{y:.0}\" r=\"6\" fill=\"none\" stroke=\"#e6a100\" stroke-width=\"3\"/>"
            ));
        }
        for q in &self.last_captured {
            let (x, y) = centre(*q);
            s.raw(&format!(
                "<g data-captured=\"{q}\"><path d=\"M{:.0} {:.0}l14 14m0 -14l-14 14\" stroke=\"#d35400\" stroke-width=\"4\" stroke-linecap=\"round\"/></g>",
                x - 7.0,
                y - 7.0
            ));
        }
    }

    /// The pawns, by side; a ring on each that has not moved yet.
    fn draw_pawns(&self, s: &mut Svg) {
        let mut rings = String::from("<g fill=\"none\" stroke=\"#fff\" stroke-width=\"1.6\">");
        for seat in Side::BOTH {
            let mut g = format!(
                "<g data-owner=\"{}\" fill=\"{}\" stroke=\"#000\">",
                colour_in(seat, Lang::En),
                PAWN[seat.index()]
            );
            for i in 0..self.cells.len() {
                let Cell::Pawn { seat: p, moved } = self.cells[i] else {
                    continue;
                };
                if p != seat {
                    continue;
                }
                let q = Sq::from_idx(i);
                let (x, y) = centre(q);
                let _ = write!(
                    g,
                    "<circle data-square=\"{q}\" cx=\"{x:.0}\" cy=\"{y:.0}\" r=\"11.5\"/>"
                );
                if !moved {
                    let _ = write!(rings, "<circle cx=\"{x:.0}\" cy=\"{y:.0}\" r=\"6\"/>");
                }
            }
            g.push_str("</g>");
            s.raw(&g);
        }
        rings.push_str("</g>");
        s.raw(&rings);
    }

    /// The legend's entries: each side's count (with its pawn's colour), then the last
    /// move; each cut into lines that fit the picture's width `w`.
    fn legend_lines(&self, w: f64, lang: Lang) -> Vec<(Option<&'static str>, Vec<String>)> {
        let mut out = Vec::new();
        for seat in Side::BOTH {
            let line = match lang {
                Lang::En => format!(
                    "{}: {} pawns on the board, has taken {} pawns and {} castles",
                    self.name_in(seat, lang),
                    self.pawn_count(seat),
                    self.pawns_taken(seat),
                    self.castle_count(seat)
                ),
                Lang::Fr => format!(
                    "{} : {} pions sur le tablier, a pris {} pions et {} châteaux",
                    self.name_in(seat, lang),
                    self.pawn_count(seat),
                    self.pawns_taken(seat),
                    self.castle_count(seat)
                ),
            };
            let lines = wrap_to(&line, w - 30.0 - 8.0, LEGEND, false);
            out.push((Some(PAWN[seat.index()]), lines));
        }
        if let Some(l) = &self.last {
            let moved = lang.pick("Last move", "Dernier coup");
            let sep = lang.pick(": ", " : ");
            let line = format!("{moved}{sep}{}", l.text_in(lang));
            out.push((None, wrap_to(&line, w - 10.0 - 8.0, LEGEND, false)));
        }
        out
    }
}

/// The legend from `y` down: each entry's lines, a pawn's disc before a side's.
fn draw_legend(s: &mut Svg, y: f64, legend: &[(Option<&str>, Vec<String>)]) {
    let mut y = y;
    let style = "font-size:15px;fill:#222";
    for (pawn, lines) in legend {
        let x = match pawn {
            Some(colour) => {
                s.raw(&format!(
                    "<circle cx=\"17\" cy=\"{:.0}\" r=\"7\" fill=\"{colour}\"/>",
                    y - 5.0
                ));
                30.0
            }
            None => 10.0,
        };
        for l in lines {
            s.text(x, y, "start", style, l);
            y += LEGEND_ROW;
        }
    }
}

/// The three sections, the grid, and the columns and rows labelled as the orders name them.
fn grid(w: f64, board_h: f64) -> String {
    let mut out = String::new();
    for (i, tint) in SECTION.iter().enumerate() {
        let _ = write!(
            out,
            "<rect x=\"{:.0}\" y=\"{TOP:.0}\" width=\"{:.0}\" height=\"{board_h:.0}\" fill=\"{tint}\"/>",
            LEFT + 7.0 * C * i as f64,
            7.0 * C
        );
    }
    // The grid: thin lines in one path, the board's edge and the sections' in another.
    let (mut thin, mut thick) = (String::new(), String::new());
    for c in 0..=COLS {
        let x = LEFT + c as f64 * C;
        let d = if c % 7 == 0 { &mut thick } else { &mut thin };
        let _ = write!(d, "M{x:.0} {TOP:.0}v{board_h:.0}");
    }
    for r in 0..=ROWS {
        let y = TOP + r as f64 * C;
        let d = if r % ROWS == 0 { &mut thick } else { &mut thin };
        let _ = write!(d, "M{LEFT:.0} {y:.0}h{:.0}", COLS as f64 * C);
    }
    let _ = write!(
        out,
        "<g stroke=\"#555\" fill=\"none\"><path d=\"{thin}\" stroke-width=\"0.6\"/><path d=\"{thick}\" stroke-width=\"2.5\"/></g>\
         <g text-anchor=\"middle\" font-size=\"12\" font-weight=\"bold\" fill=\"#333\">"
    );
    let mut label = |x: f64, y: f64, l: &str| {
        let _ = write!(out, "<text x=\"{x:.0}\" y=\"{y:.0}\">{l}</text>");
    };
    for c in 0..COLS {
        let x = LEFT + (c as f64 + 0.5) * C;
        let l = ((b'A' + c as u8) as char).to_string();
        label(x, TOP - 6.0, &l);
        label(x, TOP + board_h + 15.0, &l);
    }
    for r in 0..ROWS {
        let y = TOP + (ROWS as f64 - 1.0 - r as f64 + 0.5) * C + 4.0;
        label(LEFT / 2.0, y, &(r + 1).to_string());
        label(w - LEFT / 2.0, y, &(r + 1).to_string());
    }
    out.push_str("</g>");
    out
}
