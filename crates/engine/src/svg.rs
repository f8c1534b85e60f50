//! What every game's picture shares: text escaping, the seats' colours and the frame of an
//! SVG that mail clients show as it is (no script, no remote image, no web font, inline
//! styles only; `width="100%"` and a `viewBox` so it shrinks to a phone's width; a light
//! background of its own so it reads the same in a dark-mode client).

use std::fmt::Write;

/// The seats' colours (seat 0 first), distinct for the colour-blind as far as six allow,
/// each dark enough for white text on it.
pub const SEAT_COLOURS: [&str; 6] = [
    "#c0392b", "#1f5fa8", "#1e8449", "#b9770e", "#7d3c98", "#4d5656",
];
/// A seat's colour names in the pictures' legends, in the order of [`SEAT_COLOURS`].
pub const SEAT_COLOUR_NAMES: [(&str, &str); 6] = [
    ("red", "rouge"),
    ("blue", "bleu"),
    ("green", "vert"),
    ("orange", "orange"),
    ("purple", "violet"),
    ("grey", "gris"),
];
/// The colour of land nobody holds.
pub const NOBODY: &str = "#d5d0c4";

/// A seat's colour.
pub fn seat_colour(seat: usize) -> &'static str {
    SEAT_COLOURS[seat % SEAT_COLOURS.len()]
}

/// `s` as SVG/HTML text: `&`, `<`, `>`, `"` and `'` escaped, and anything beyond ASCII
/// written as a numeric reference (`é` is `&#233;`): a page of ASCII in short lines goes
/// into a mail as it is (7bit), without the third more that base64 would add.
pub fn esc(s: &str) -> Esc<'_> {
    Esc(s)
}

/// Text escaped for XML, written where it is formatted ([`esc`]): each run of plain ASCII
/// in one piece, never a `String` of its own.
pub struct Esc<'a>(&'a str);

/// A piece of escaped text: a run of plain text as it is, an entity, or a character beyond
/// ASCII written as its number.
enum Piece<'a> {
    Plain(&'a str),
    Entity(&'static str),
    Number(u32),
}

/// `s` cut into the [`Piece`]s of its escaped form, handed to `put` in order. By byte, not
/// by char: a report is mostly plain ASCII, which is only looked at.
fn pieces<E>(s: &str, mut put: impl FnMut(Piece<'_>) -> Result<(), E>) -> Result<(), E> {
    let mut plain = 0;
    for (i, b) in s.bytes().enumerate() {
        let escaped = match b {
            b'&' => "&amp;",
            b'<' => "&lt;",
            b'>' => "&gt;",
            b'"' => "&quot;",
            b'\'' => "&#39;",
            // ASCII, or the rest of a character begun before (0x80..=0xBF).
            ..=0xBF => continue,
            // The first byte of a character beyond ASCII: written as its number.
            _ => "",
        };
        put(Piece::Plain(&s[plain..i]))?;
        if escaped.is_empty() {
            let c = s[i..].chars().next().unwrap_or_default();
            put(Piece::Number(u32::from(c)))?;
            plain = i + c.len_utf8();
        } else {
            put(Piece::Entity(escaped))?;
            plain = i + 1;
        }
    }
    put(Piece::Plain(&s[plain..]))
}

impl std::fmt::Display for Esc<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        pieces(self.0, |p| match p {
            Piece::Plain(t) | Piece::Entity(t) => f.write_str(t),
            Piece::Number(n) => write!(f, "&#{n};"),
        })
    }
}

/// `s` escaped as [`esc`] writes it, at the end of `out`: the same bytes without a
/// formatter in between (a page's text and a picture's names go through here).
pub fn esc_into(out: &mut String, s: &str) {
    let _ = pieces(s, |p| -> Result<(), std::convert::Infallible> {
        match p {
            Piece::Plain(t) | Piece::Entity(t) => out.push_str(t),
            Piece::Number(n) => {
                out.push_str("&#");
                push_int(out, i64::from(n));
                out.push(';');
            }
        }
        Ok(())
    });
}

/// The picture marked with whom it was made for: `data-viewer="public"` or
/// `data-viewer="seat-N"` on its root (N from 1), so a test can see that no seat's picture
/// reaches anyone else.
pub fn stamp(svg: &str, viewer: crate::Viewer) -> String {
    let Some(rest) = svg.strip_prefix("<svg") else {
        return svg.to_string();
    };
    let mut out = String::with_capacity(svg.len() + 32);
    out.push_str("<svg data-viewer=\"");
    match viewer {
        crate::Viewer::Public => out.push_str("public"),
        crate::Viewer::Seat(s) => {
            out.push_str("seat-");
            push_int(&mut out, s as i64 + 1);
        }
    }
    out.push('"');
    out.push_str(rest);
    out
}

/// A coordinate written as `{:.0}` writes it (rounded half to even), without the cost of
/// formatting a float: a picture writes some thousand of them.
#[derive(Clone, Copy)]
pub struct Px(pub f64);

impl std::fmt::Display for Px {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let v = self.0.round_ties_even();
        if v == 0.0 && v.is_sign_negative() {
            f.write_str("-0")
        } else if v.is_finite() && v.abs() < 1e15 {
            write!(f, "{}", v as i64)
        } else {
            write!(f, "{:.0}", self.0)
        }
    }
}

/// `s` appended to `out` one element a line, as if the whole picture were written first
/// and every `><` then made `>` newline `<`: the picture is never copied again to break
/// its lines (a mail's lines must stay under 998 characters).
fn push_lines(out: &mut String, s: &str) {
    let mut rest = s;
    if out.ends_with('>') && rest.starts_with('<') {
        out.push('\n');
    }
    while let Some(i) = rest.find("><") {
        out.push_str(&rest[..=i]);
        out.push('\n');
        rest = &rest[i + 1..];
    }
    out.push_str(rest);
}

/// The text of an element (escaped), and the line break the empty text of an element
/// would have left between its tags.
fn push_content(out: &mut String, s: &str) {
    if s.is_empty() {
        out.push('\n');
    } else {
        esc_into(out, s);
    }
}

/// An SVG being written: coordinates in the picture's own units, one element a line.
pub struct Svg {
    out: String,
}

impl Svg {
    /// A picture `w` × `h` units on a background of `bg`, titled `title` (the tooltip and
    /// what a screen reader says).
    pub fn new(w: u32, h: u32, bg: &str, title: &str) -> Svg {
        Svg::with_capacity(w, h, bg, title, 0)
    }

    /// [`Svg::new`] with room for `capacity` bytes, for a picture whose size is known.
    pub fn with_capacity(w: u32, h: u32, bg: &str, title: &str, capacity: usize) -> Svg {
        let mut out = String::with_capacity(capacity.max(512));
        let _ = write!(
            out,
            "<svg xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 {w} {h}\" width=\"100%\" \
             style=\"max-width:{w}px;height:auto;display:block;background:{bg};\
             font-family:Helvetica,Arial,sans-serif\" role=\"img\">\n<title>"
        );
        push_content(&mut out, title);
        let _ = write!(
            out,
            "</title>\n<rect x=\"0\" y=\"0\" width=\"{w}\" height=\"{h}\" fill=\"{bg}\"/>"
        );
        Svg { out }
    }

    /// Raw SVG markup (the caller escapes any text in it).
    pub fn raw(&mut self, s: &str) -> &mut Svg {
        push_lines(&mut self.out, s);
        self
    }

    /// A text at (`x`, `y`), `anchor` start, middle or end; `style` is inline SVG
    /// presentation (`font-size:11px;fill:#222`).
    pub fn text(&mut self, x: f64, y: f64, anchor: &str, style: &str, text: &str) -> &mut Svg {
        let o = &mut self.out;
        if o.ends_with('>') {
            o.push('\n');
        }
        o.push_str("<text x=\"");
        push_px(o, x);
        o.push_str("\" y=\"");
        push_px(o, y);
        o.push_str("\" text-anchor=\"");
        o.push_str(anchor);
        o.push_str("\" style=\"");
        o.push_str(style);
        o.push_str("\">");
        push_content(o, text);
        o.push_str("</text>");
        self
    }

    /// The SVG, one element a line (a mail's lines must stay under 998 characters).
    pub fn finish(mut self) -> String {
        push_lines(&mut self.out, "</svg>");
        self.out
    }
}

/// `Px(v)` written at the end of `o`: an integer's digits pushed directly, with no
/// formatter in between (a float too large or not finite goes through [`Px`]).
fn push_px(o: &mut String, v: f64) {
    let r = v.round_ties_even();
    if !(r.is_finite() && r.abs() < 1e15) || (r == 0.0 && r.is_sign_negative()) {
        let _ = write!(o, "{}", Px(v));
        return;
    }
    push_int(o, r as i64);
}

/// `n` in decimal at the end of `o`, as `{n}` writes it.
fn push_int(o: &mut String, n: i64) {
    if n < 0 {
        o.push('-');
    }
    let mut digits = [0u8; 20];
    let (mut i, mut m) = (digits.len(), n.unsigned_abs());
    loop {
        i -= 1;
        digits[i] = b'0' + (m % 10) as u8;
        m /= 10;
        if m == 0 {
            break;
        }
    }
    o.extend(digits[i..].iter().map(|&d| char::from(d)));
}

mod map;
mod place;
mod text;
pub use map::{project, spread, GraphMap, MapBase, Node, Region};
pub use text::{check_texts, text_box, text_boxes, text_width, wrap_to, Rect, TextBox};

#[cfg(test)]
mod tests;
