//! How much room a text takes in a picture, worked out without a font: each character's
//! advance is a conservative guess (DejaVu Sans, the widest of the fonts a picture falls
//! back to, rounded up; bold a tenth wider still), so a label laid out by these boxes does
//! not run into another in any client. [`text_boxes`] reads the boxes back from a finished
//! picture and [`check_texts`] says which overlap or leave the picture: the games' tests
//! run it on every picture they draw.

/// A box in the picture's units: left, top, right, bottom.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Rect {
    pub x0: f64,
    pub y0: f64,
    pub x1: f64,
    pub y1: f64,
}

impl Rect {
    /// Do the two boxes share more than a hair (half a unit each way)?
    pub fn hits(&self, o: &Rect) -> bool {
        self.x0 + 0.5 < o.x1 && o.x0 + 0.5 < self.x1 && self.y0 + 0.5 < o.y1 && o.y0 + 0.5 < self.y1
    }

    /// Is the box inside `w` × `h`?
    pub fn inside(&self, w: f64, h: f64) -> bool {
        self.x0 >= 0.0 && self.y0 >= 0.0 && self.x1 <= w && self.y1 <= h
    }

    /// The box moved by (`dx`, `dy`).
    pub fn shifted(&self, dx: f64, dy: f64) -> Rect {
        Rect {
            x0: self.x0 + dx,
            y0: self.y0 + dy,
            x1: self.x1 + dx,
            y1: self.y1 + dy,
        }
    }
}

/// One character's advance, in ems, rounded up from the widest fallback font's.
fn advance(c: char) -> f64 {
    match c {
        'i' | 'j' | 'l' | '\'' | '.' | ',' | ':' | ';' | '!' | '|' | '\u{b7}' => 0.32,
        'f' | 't' | 'r' | 'I' | ' ' | '-' | '(' | ')' | '[' | ']' | '/' | 'J' => 0.44,
        'm' => 0.98,
        'w' => 0.84,
        'M' | 'W' | '\u{2014}' => 1.0,
        'A'..='Z' => 0.8,
        '0'..='9' | '+' | '#' | '?' | '\u{2013}' => 0.64,
        'a'..='z' => 0.64,
        c if c.is_alphabetic() && c.is_uppercase() => 0.8,
        c if c.is_alphabetic() => 0.64,
        c if c.is_ascii() => 0.7,
        _ => 1.0,
    }
}

/// How wide `text` is at `size` units, `bold` or not: a little more than any of the fonts
/// a picture names (or falls back to) would draw it.
pub fn text_width(text: &str, size: f64, bold: bool) -> f64 {
    let ems: f64 = text.chars().map(advance).sum();
    ems * size * if bold { 1.1 } else { 1.0 }
}

/// The box of a line of `text` whose baseline starts at (`x`, `y`), anchored `anchor`
/// (`start`, `middle` or `end`): from the top of a capital with its accent to the bottom
/// of a descender.
pub fn text_box(x: f64, y: f64, anchor: &str, size: f64, bold: bool, text: &str) -> Rect {
    let w = text_width(text, size, bold);
    let x0 = match anchor {
        "middle" => x - w / 2.0,
        "end" => x - w,
        _ => x,
    };
    Rect {
        x0,
        y0: y - 0.92 * size,
        x1: x0 + w,
        y1: y + 0.26 * size,
    }
}

/// Words cut into lines no wider than `width` at `size` (a word wider alone stands on a
/// line of its own).
pub fn wrap_to(text: &str, width: f64, size: f64, bold: bool) -> Vec<String> {
    let mut lines: Vec<String> = vec![String::new()];
    for w in text.split_whitespace() {
        let l = lines.last_mut().expect("one line at least");
        let longer = format!("{l} {w}");
        if !l.is_empty() && text_width(&longer, size, bold) > width {
            lines.push(w.to_string());
        } else if l.is_empty() {
            l.push_str(w);
        } else {
            *l = longer;
        }
    }
    lines
}

/// A text of a finished picture and the room it takes.
#[derive(Clone, Debug)]
pub struct TextBox {
    pub text: String,
    pub rect: Rect,
}

/// The value of attribute `name` in a tag's inside (`text x="3" y="4"`).
fn attr<'a>(tag: &'a str, name: &str) -> Option<&'a str> {
    let mut rest = tag;
    while let Some(i) = rest.find(name) {
        let before = rest[..i].chars().last();
        let after = &rest[i + name.len()..];
        if before.is_some_and(char::is_whitespace) {
            if let Some(v) = after.strip_prefix("=\"") {
                return v.split('"').next();
            }
        }
        rest = after;
    }
    None
}

/// A presentation property, from the tag's `style` or its own attribute.
fn prop<'a>(tag: &'a str, name: &str) -> Option<&'a str> {
    if let Some(style) = attr(tag, "style") {
        for decl in style.split(';') {
            if let Some((k, v)) = decl.split_once(':') {
                if k.trim() == name {
                    return Some(v.trim());
                }
            }
        }
    }
    attr(tag, name)
}

/// Text as written in the picture, its references read back (`&#233;` is `é`).
fn unescape(s: &str) -> String {
    let mut out = String::new();
    let mut rest = s;
    while let Some(i) = rest.find('&') {
        out.push_str(&rest[..i]);
        let Some(end) = rest[i..].find(';') else {
            out.push_str(&rest[i..]);
            return out;
        };
        let ent = &rest[i + 1..i + end];
        let c = match ent {
            "amp" => Some('&'),
            "lt" => Some('<'),
            "gt" => Some('>'),
            "quot" => Some('"'),
            _ => ent
                .strip_prefix('#')
                .and_then(|n| n.parse::<u32>().ok())
                .and_then(char::from_u32),
        };
        out.push(c.unwrap_or('?'));
        rest = &rest[i + end + 1..];
    }
    out.push_str(rest);
    out
}

/// What a group passes down to the texts in it.
#[derive(Clone, Default)]
struct Inherited {
    dx: f64,
    dy: f64,
    size: Option<f64>,
    bold: bool,
    anchor: Option<String>,
}

impl Inherited {
    /// This group's or text's own settings over its parent's.
    fn under(&self, tag: &str) -> Inherited {
        let mut me = self.clone();
        if let Some(t) = attr(tag, "transform").and_then(|t| t.strip_prefix("translate(")) {
            let mut it = t.trim_end_matches(')').split([',', ' ']);
            me.dx += it.next().and_then(|v| v.parse().ok()).unwrap_or(0.0);
            me.dy += it.next().and_then(|v| v.parse().ok()).unwrap_or(0.0);
        }
        if let Some(s) = prop(tag, "font-size") {
            me.size = s.trim_end_matches("px").parse().ok();
        }
        if let Some(w) = prop(tag, "font-weight") {
            me.bold = w == "bold" || w.parse::<u32>().is_ok_and(|n| n >= 600);
        }
        if let Some(a) = prop(tag, "text-anchor") {
            me.anchor = Some(a.to_string());
        }
        me
    }
}

/// Every `<text>` of a picture written by [`crate::svg::Svg`] with its box (the groups'
/// translations, sizes, weights and anchors applied), in document order; and the picture's
/// `viewBox` size.
pub fn text_boxes(svg: &str) -> (f64, f64, Vec<TextBox>) {
    let (mut w, mut h) = (0.0, 0.0);
    let mut stack = vec![Inherited::default()];
    let mut out = Vec::new();
    let mut rest = svg;
    while let Some(i) = rest.find('<') {
        let Some(j) = rest[i..].find('>') else { break };
        let tag = &rest[i + 1..i + j];
        rest = &rest[i + j + 1..];
        let name = match tag.strip_prefix('/') {
            Some(closing) => {
                if closing.trim() == "g" {
                    "/g"
                } else {
                    ""
                }
            }
            None => tag
                .split(|c: char| c.is_whitespace() || c == '/')
                .next()
                .unwrap_or(""),
        };
        let top = stack.last().cloned().unwrap_or_default();
        match name {
            "svg" => {
                if let Some(vb) = attr(tag, "viewBox") {
                    let v: Vec<f64> = vb.split(' ').filter_map(|n| n.parse().ok()).collect();
                    if v.len() == 4 {
                        (w, h) = (v[2], v[3]);
                    }
                }
            }
            "g" if !tag.ends_with('/') => stack.push(top.under(tag)),
            "/g" => {
                stack.pop();
            }
            "text" => {
                let me = top.under(tag);
                let end = rest.find("</text>").unwrap_or(rest.len());
                let text = unescape(rest[..end].trim());
                let num = |a: &str| attr(tag, a).and_then(|v| v.parse::<f64>().ok());
                let (x, y) = (
                    num("x").unwrap_or(0.0) + me.dx,
                    num("y").unwrap_or(0.0) + me.dy,
                );
                let anchor = me.anchor.as_deref().unwrap_or("start");
                let rect = text_box(x, y, anchor, me.size.unwrap_or(16.0), me.bold, &text);
                if !text.is_empty() {
                    out.push(TextBox { text, rect });
                }
            }
            _ => {}
        }
    }
    (w, h, out)
}

/// What is wrong with the texts of `svg`: each pair that overlaps and each text that
/// leaves the picture, one a line (empty: nothing).
pub fn check_texts(svg: &str) -> Vec<String> {
    let (w, h, boxes) = text_boxes(svg);
    let mut wrong = Vec::new();
    for (i, a) in boxes.iter().enumerate() {
        if !a.rect.inside(w, h) {
            wrong.push(format!(
                "{:?} leaves the {w} x {h} picture: {:?}",
                a.text, a.rect
            ));
        }
        for b in &boxes[i + 1..] {
            if a.rect.hits(&b.rect) {
                wrong.push(format!("{:?} overlaps {:?}", a.text, b.text));
            }
        }
    }
    wrong
}
