//! Where a map's labels go: each territory's name by its disc, each sea's name near its
//! place, each mark by its territory, none over another or over a disc, and none past the
//! picture's edge. Each label tries its places in order (under its disc, over it, to its
//! right, to its left, then the same on two lines, then slid aside, then a row further
//! off) and takes the first free one; the most crowded territories choose first.

use super::text::{text_width, Rect};

/// A label's font size and line height, whether it is bold, and whether it may be cut
/// in two lines.
#[derive(Clone, Copy)]
pub(super) struct Font {
    pub size: f64,
    pub line: f64,
    pub bold: bool,
    pub split: bool,
}

/// A label placed: its lines, each centred on `x` at its own baseline.
#[derive(Clone, Debug, Default)]
pub(super) struct Placed {
    pub x: f64,
    pub lines: Vec<(f64, String)>,
}

/// The room already taken in a `w` × `h` map.
pub(super) struct Room {
    pub w: f64,
    pub h: f64,
    pub taken: Vec<Rect>,
}

/// The ways to write `text`: on one line, then cut in two at the space or hyphen that
/// makes the longer line shortest (if the font lets it).
fn variants(text: &str, font: Font) -> Vec<Vec<String>> {
    let mut out = vec![vec![text.to_string()]];
    if !font.split {
        return out;
    }
    let mut best: Option<(f64, Vec<String>)> = None;
    for (i, c) in text.char_indices() {
        if c != ' ' && c != '-' {
            continue;
        }
        let (a, b) = if c == ' ' {
            (&text[..i], &text[i + 1..])
        } else {
            (&text[..=i], &text[i + 1..])
        };
        if a.is_empty() || b.is_empty() {
            continue;
        }
        let w = text_width(a, font.size, font.bold).max(text_width(b, font.size, font.bold));
        if best.as_ref().is_none_or(|(bw, _)| w < *bw) {
            best = Some((w, vec![a.to_string(), b.to_string()]));
        }
    }
    out.extend(best.map(|(_, l)| l));
    out
}

impl Room {
    /// Is `r` inside the map and clear of everything taken, with a unit to spare each
    /// way (a picture writes its coordinates rounded to the unit)?
    fn free(&self, r: &Rect) -> bool {
        let wide = Rect {
            x0: r.x0 - 1.0,
            y0: r.y0 - 1.0,
            x1: r.x1 + 1.0,
            y1: r.y1 + 1.0,
        };
        wide.inside(self.w, self.h) && !self.taken.iter().any(|t| t.hits(&wide))
    }

    /// The block of `lines` centred on `cx` with its top at `top`: its box and its lines'
    /// baselines.
    fn block(lines: &[String], cx: f64, top: f64, font: Font) -> (Rect, Placed) {
        let bw = lines
            .iter()
            .map(|l| text_width(l, font.size, font.bold))
            .fold(0.0, f64::max);
        let bh = font.line * (lines.len() - 1) as f64 + 1.18 * font.size;
        let rect = Rect {
            x0: cx - bw / 2.0,
            y0: top,
            x1: cx + bw / 2.0,
            y1: top + bh,
        };
        let placed = Placed {
            x: cx,
            lines: lines
                .iter()
                .enumerate()
                .map(|(k, l)| (top + 0.92 * font.size + font.line * k as f64, l.clone()))
                .collect(),
        };
        (rect, placed)
    }

    /// A label for the disc of radius `r` at (`x`, `y`): the first free of its places
    /// (taken), or `None` if none is.
    pub fn by_disc(&mut self, x: f64, y: f64, r: f64, text: &str, font: Font) -> Option<Placed> {
        let vs = variants(text, font);
        let mut tries: Vec<(f64, f64, usize)> = Vec::new();
        for far in [0.0, font.line, 2.0 * font.line] {
            for (vi, lines) in vs.iter().enumerate() {
                let bw = lines
                    .iter()
                    .map(|l| text_width(l, font.size, font.bold))
                    .fold(0.0, f64::max);
                let bh = font.line * (lines.len() - 1) as f64 + 1.18 * font.size;
                let (below, above) = (y + r + 2.5 + far, y - r - 2.5 - bh - far);
                let mid = y - bh / 2.0;
                let mut here = vec![
                    (x, below),
                    (x, above),
                    (x + r + 3.0 + bw / 2.0 + far, mid),
                    (x - r - 3.0 - bw / 2.0 - far, mid),
                ];
                for k in [1.0, 2.0, 3.0] {
                    let d = k * bw / 6.0;
                    here.extend([
                        (x - d, below),
                        (x + d, below),
                        (x - d, above),
                        (x + d, above),
                    ]);
                }
                for (dx, dy) in [(1.0, 1.0), (-1.0, 1.0), (1.0, -1.0), (-1.0, -1.0)] {
                    let cx = x + dx * (r + bw / 2.0);
                    let top = if dy > 0.0 {
                        y + r / 2.0 + far
                    } else {
                        y - r / 2.0 - bh - far
                    };
                    here.push((cx, top));
                }
                tries.extend(here.into_iter().map(|(cx, top)| (cx, top, vi)));
            }
        }
        self.first_free(&vs, &tries, font)
    }

    /// A label near (`x`, `y`) (its first line's baseline, centred): there if free, else
    /// the nearest free place on rings around it, sixteen ways, up to twenty rings out.
    pub fn near(&mut self, x: f64, y: f64, text: &str, font: Font) -> Option<Placed> {
        let vs = variants(text, font);
        let top = y - 0.92 * font.size;
        let mut tries = Vec::new();
        for ring in 0..20 {
            let ring = f64::from(ring);
            let ways = if ring == 0.0 { 1 } else { 16 };
            for k in 0..ways {
                let a = std::f64::consts::TAU * f64::from(k) / 16.0;
                let (dx, dy) = (a.sin() * ring * 12.0, a.cos() * ring * 8.0);
                for (vi, _) in vs.iter().enumerate() {
                    tries.push((x + dx, top + dy, vi));
                }
            }
        }
        self.first_free(&vs, &tries, font)
    }

    /// The first of `tries` (centre, top, variant) that is free, taken.
    fn first_free(
        &mut self,
        vs: &[Vec<String>],
        tries: &[(f64, f64, usize)],
        font: Font,
    ) -> Option<Placed> {
        for &(cx, top, vi) in tries {
            let (rect, placed) = Room::block(&vs[vi], cx, top, font);
            if self.free(&rect) {
                self.taken.push(rect);
                return Some(placed);
            }
        }
        None
    }

    /// A label where nothing fits: its first place, taken all the same (the pictures'
    /// tests say so).
    pub fn forced(&mut self, x: f64, y: f64, r: f64, text: &str, font: Font) -> Placed {
        let (rect, placed) = Room::block(&[text.to_string()], x, y + r + 1.0, font);
        self.taken.push(rect);
        placed
    }
}
