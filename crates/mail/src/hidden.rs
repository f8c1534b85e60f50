//! Text a reader does not see is not read as commands: an HTML-only mail whose
//! visible text is "Hi!" can carry `RESIGN` in a `display:none` block. Before the HTML is
//! flattened ([`crate::quote::flatten_html_reply`]), every element a mail client would not
//! show is dropped with all it holds.
//!
//! Recognised as hidden (docs/security.md, "Hidden HTML"), from inline `style` attributes,
//! from the `hidden` attribute, from `<font size=0>` and `<font color=…>`, and from
//! `<style>` blocks whose rules have simple selectors (`.class`, `tag.class`, `tag`, `#id`,
//! `tag#id`, lists of them with commas):
//! * `display:none`, `visibility:hidden|collapse`, `opacity:0`;
//! * a zero `font-size` (`0`, `0px`, `0pt`, `0em`, `0%`, …) or `<font size="0">`;
//! * text whose colour is the background's behind it (each channel within 16 of 255; the
//!   background inherited from the nearest element that sets one, white if none), or
//!   `transparent` text, or a colour with alpha 0.
//!
//! Not recognised (the text is read): selectors with descendants, attributes or
//! pseudo-classes, `!important` fights between rules, positioning off-screen
//! (`position:absolute; left:-9999px`), `max-height:0` with `overflow:hidden`, clipping,
//! text hidden by an image over it, colours given by name other than the common ones
//! below, `hsl()`, CSS variables and media queries. A mail with a text/plain part is read
//! from that part and none of this applies.

use std::collections::HashMap;

/// Elements that never hold content (no end tag).
const VOID: &[&str] = &[
    "area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "param", "source",
    "track", "wbr",
];

/// An RGB colour, or a fully transparent one.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Colour {
    Rgb(u8, u8, u8),
    Transparent,
}

const WHITE: Colour = Colour::Rgb(255, 255, 255);

fn named(name: &str) -> Option<Colour> {
    Some(match name {
        "white" => WHITE,
        "black" => Colour::Rgb(0, 0, 0),
        "red" => Colour::Rgb(255, 0, 0),
        "green" => Colour::Rgb(0, 128, 0),
        "lime" => Colour::Rgb(0, 255, 0),
        "blue" => Colour::Rgb(0, 0, 255),
        "yellow" => Colour::Rgb(255, 255, 0),
        "gray" | "grey" => Colour::Rgb(128, 128, 128),
        "silver" => Colour::Rgb(192, 192, 192),
        "whitesmoke" => Colour::Rgb(245, 245, 245),
        "snow" => Colour::Rgb(255, 250, 250),
        "ivory" => Colour::Rgb(255, 255, 240),
        "navy" => Colour::Rgb(0, 0, 128),
        "transparent" => Colour::Transparent,
        _ => return None,
    })
}

/// A CSS or HTML colour: a common name, `#rgb`, `#rrggbb`, `#rrggbbaa`, `rgb()`, `rgba()`.
fn colour(v: &str) -> Option<Colour> {
    let v = v.trim().trim_end_matches("!important").trim();
    if let Some(hex) = v.strip_prefix('#') {
        let h = |s: &str| u8::from_str_radix(s, 16).ok();
        let d = |c: &str| h(c).map(|x| x * 17);
        return match hex.len() {
            3 => Some(Colour::Rgb(d(&hex[0..1])?, d(&hex[1..2])?, d(&hex[2..3])?)),
            6 => Some(Colour::Rgb(h(&hex[0..2])?, h(&hex[2..4])?, h(&hex[4..6])?)),
            8 if h(&hex[6..8])? == 0 => Some(Colour::Transparent),
            8 => Some(Colour::Rgb(h(&hex[0..2])?, h(&hex[2..4])?, h(&hex[4..6])?)),
            _ => None,
        };
    }
    if let Some(args) = v
        .strip_prefix("rgba(")
        .or_else(|| v.strip_prefix("rgb("))
        .and_then(|a| a.strip_suffix(')'))
    {
        let parts: Vec<&str> = args
            .split([',', ' ', '/'])
            .filter(|p| !p.is_empty())
            .collect();
        let chan = |p: &str| -> Option<u8> {
            match p.strip_suffix('%') {
                Some(pc) => pc
                    .parse::<f32>()
                    .ok()
                    .map(|x| (x.clamp(0.0, 100.0) * 2.55) as u8),
                None => p.parse::<f32>().ok().map(|x| x.clamp(0.0, 255.0) as u8),
            }
        };
        if parts.len() >= 4 {
            let a = parts[3];
            let alpha = match a.strip_suffix('%') {
                Some(pc) => pc.parse::<f32>().ok()? / 100.0,
                None => a.parse::<f32>().ok()?,
            };
            if alpha <= 0.0 {
                return Some(Colour::Transparent);
            }
        }
        if parts.len() >= 3 {
            return Some(Colour::Rgb(
                chan(parts[0])?,
                chan(parts[1])?,
                chan(parts[2])?,
            ));
        }
        return None;
    }
    named(v)
}

/// Would text in `fg` be lost on `bg`?
fn same(fg: Colour, bg: Colour) -> bool {
    match (fg, bg) {
        (Colour::Transparent, _) => true,
        (Colour::Rgb(a, b, c), Colour::Rgb(x, y, z)) => {
            a.abs_diff(x) <= 16 && b.abs_diff(y) <= 16 && c.abs_diff(z) <= 16
        }
        (Colour::Rgb(..), Colour::Transparent) => false,
    }
}

/// What a set of declarations says about visibility and colours.
#[derive(Clone, Copy, Debug, Default)]
struct Look {
    hidden: bool,
    color: Option<Colour>,
    background: Option<Colour>,
}

impl Look {
    fn merge(&mut self, other: Look) {
        self.hidden |= other.hidden;
        if other.color.is_some() {
            self.color = other.color;
        }
        if other.background.is_some() {
            self.background = other.background;
        }
    }
}

/// Is a CSS length zero (`0`, `0px`, `0.0em`, `0%`)?
fn zero_length(v: &str) -> bool {
    let num: String = v
        .trim()
        .chars()
        .take_while(|c| c.is_ascii_digit() || *c == '.' || *c == '-' || *c == '+')
        .collect();
    !num.is_empty() && num.parse::<f32>().is_ok_and(|x| x <= 0.0)
}

/// `display:none; color:#fff` as a [`Look`] (lower-cased input).
fn declarations(css: &str) -> Look {
    let mut look = Look::default();
    for decl in css.split(';') {
        let Some((prop, value)) = decl.split_once(':') else {
            continue;
        };
        let (prop, value) = (
            prop.trim(),
            value.trim().trim_end_matches("!important").trim(),
        );
        match prop {
            "display" if value == "none" => look.hidden = true,
            "visibility" if value == "hidden" || value == "collapse" => look.hidden = true,
            "opacity" if zero_length(value) => look.hidden = true,
            "font-size" if zero_length(value) => look.hidden = true,
            "font"
                if value.split_whitespace().any(|w| {
                    zero_length(w.split('/').next().unwrap_or(w))
                        && w.starts_with(|c: char| c.is_ascii_digit())
                }) =>
            {
                look.hidden = true
            }
            "color" => look.color = colour(value).or(look.color),
            "background-color" => look.background = colour(value).or(look.background),
            "background" => {
                if let Some(c) = value.split_whitespace().find_map(colour) {
                    look.background = Some(c);
                }
            }
            _ => {}
        }
    }
    look
}

/// The rules of `<style>` blocks with simple selectors: by `.class`, `tag`, `#id`.
#[derive(Default)]
struct Sheet {
    rules: HashMap<String, Look>,
}

impl Sheet {
    fn read(&mut self, css: &str) {
        // Comments out; at-rules (media queries) skipped with their block.
        let mut text = String::with_capacity(css.len());
        let mut rest = css;
        while let Some(i) = rest.find("/*") {
            text.push_str(&rest[..i]);
            rest = rest[i + 2..]
                .find("*/")
                .map_or("", |j| &rest[i + 2 + j + 2..]);
        }
        text.push_str(rest);
        let mut rest = text.as_str();
        while let Some(open) = rest.find('{') {
            let selectors = rest[..open].trim();
            let Some(close) = rest[open..].find('}').map(|k| k + open) else {
                break;
            };
            if selectors.starts_with('@') {
                // Skip the whole at-rule block (one level of nesting).
                let inner_close = rest[close + 1..].find('}').map(|k| k + close + 1);
                rest = inner_close.map_or("", |c| &rest[c + 1..]);
                continue;
            }
            let look = declarations(&rest[open + 1..close]);
            for sel in selectors.split(',') {
                let sel = sel.trim();
                let simple = !sel.is_empty()
                    && sel
                        .chars()
                        .all(|c| c.is_ascii_alphanumeric() || matches!(c, '.' | '#' | '-' | '_'))
                    && sel.matches(['.', '#']).count() <= 1;
                if simple {
                    // "p.x" and ".x" both apply to class x (the tag is not checked: a rule
                    // read too widely only hides more).
                    let key = match sel.find(['.', '#']) {
                        Some(i) => sel[i..].to_string(),
                        None => sel.to_string(),
                    };
                    self.rules.entry(key).or_default().merge(look);
                }
            }
            rest = &rest[close + 1..];
        }
    }

    fn look_of(&self, tag: &str, attrs: &[(String, String)]) -> Look {
        let mut look = Look::default();
        if let Some(l) = self.rules.get(tag) {
            look.merge(*l);
        }
        for (name, value) in attrs {
            match name.as_str() {
                "class" => {
                    for c in value.split_whitespace() {
                        if let Some(l) = self.rules.get(&format!(".{c}")) {
                            look.merge(*l);
                        }
                    }
                }
                "id" => {
                    if let Some(l) = self.rules.get(&format!("#{}", value.trim())) {
                        look.merge(*l);
                    }
                }
                _ => {}
            }
        }
        look
    }
}

/// The end of the tag starting at `start` (`<`): the index after its `>`, quotes honoured.
fn tag_end(b: &[u8], start: usize) -> usize {
    let mut quote: Option<u8> = None;
    let mut i = start + 1;
    while i < b.len() {
        match (quote, b[i]) {
            (Some(q), c) if c == q => quote = None,
            (Some(_), _) => {}
            (None, b'"' | b'\'') => quote = Some(b[i]),
            (None, b'>') => return i + 1,
            _ => {}
        }
        i += 1;
    }
    b.len()
}

/// The text of `b[from..to]`, never split inside a character (a stray byte of a broken
/// tag cannot make the filter panic: tests/no_panic.rs).
fn bytes_text(b: &[u8], from: usize, to: usize) -> String {
    let to = to.min(b.len());
    String::from_utf8_lossy(&b[from.min(to)..to]).into_owned()
}

/// A start tag's name and attributes (names lower-cased, values as written, lower-cased
/// too: only styles, classes, ids, sizes and colours are looked at).
fn attributes(tag: &str) -> (String, Vec<(String, String)>) {
    let b = tag.as_bytes();
    let mut i = 1;
    let name_end = b[i..]
        .iter()
        .position(|c| !(c.is_ascii_alphanumeric() || *c == b'-' || *c == b':'))
        .map_or(b.len(), |k| k + i);
    let name = bytes_text(b, i, name_end);
    i = name_end;
    let mut attrs = Vec::new();
    while i < b.len() {
        while i < b.len() && (b[i].is_ascii_whitespace() || b[i] == b'/') {
            i += 1;
        }
        if i >= b.len() || b[i] == b'>' {
            break;
        }
        let n0 = i;
        while i < b.len() && !b[i].is_ascii_whitespace() && !matches!(b[i], b'=' | b'>' | b'/') {
            i += 1;
        }
        let an = bytes_text(b, n0, i);
        while i < b.len() && b[i].is_ascii_whitespace() {
            i += 1;
        }
        let mut value = String::new();
        if i < b.len() && b[i] == b'=' {
            i += 1;
            while i < b.len() && b[i].is_ascii_whitespace() {
                i += 1;
            }
            if i < b.len() && (b[i] == b'"' || b[i] == b'\'') {
                let q = b[i];
                let v0 = i + 1;
                let v1 = b[v0..]
                    .iter()
                    .position(|c| *c == q)
                    .map_or(b.len(), |k| k + v0);
                value = bytes_text(b, v0, v1);
                i = (v1 + 1).min(b.len());
            } else {
                let v0 = i;
                while i < b.len() && !b[i].is_ascii_whitespace() && b[i] != b'>' {
                    i += 1;
                }
                value = bytes_text(b, v0, i);
            }
        }
        if an.is_empty() {
            // A stray byte: step over the whole character it begins.
            i += 1;
            while i < b.len() && !tag.is_char_boundary(i) {
                i += 1;
            }
            continue;
        }
        attrs.push((an, value));
    }
    (name, attrs)
}

/// One open element: its name, whether it hides what it holds, and the colours in force.
struct Open {
    name: String,
    hidden: bool,
    color: Option<Colour>,
    background: Colour,
}

impl Open {
    /// An element opened inside `parent`: hidden if its parent is, if a rule or its own
    /// attributes hide it, or if its text has the colour of its background.
    fn new(sheet: &Sheet, parent: Option<&Open>, name: String, attrs: &[(String, String)]) -> Open {
        let parent_hidden = parent.is_some_and(|o| o.hidden);
        let (parent_color, parent_bg) = parent.map_or((None, WHITE), |o| (o.color, o.background));
        let mut look = sheet.look_of(&name, attrs);
        for (an, value) in attrs {
            match an.as_str() {
                "style" => look.merge(declarations(value)),
                "hidden" => look.hidden = true,
                "bgcolor" => look.background = colour(value).or(look.background),
                "color" if name == "font" => look.color = colour(value).or(look.color),
                "size" if name == "font" && zero_length(value) => look.hidden = true,
                _ => {}
            }
        }
        let background = match look.background {
            Some(Colour::Rgb(r, g, bl)) => Colour::Rgb(r, g, bl),
            _ => parent_bg,
        };
        let color = look.color.or(parent_color);
        let invisible = color.is_some_and(|c| same(c, background));
        Open {
            name,
            hidden: parent_hidden || look.hidden || invisible,
            color,
            background,
        }
    }
}

/// Every `<style>` block of the (lower-cased) mail: a rule applies wherever its block sits.
fn style_sheet(lower: &str) -> Sheet {
    let b = lower.as_bytes();
    let mut sheet = Sheet::default();
    let mut from = 0;
    while let Some(k) = lower[from..].find("<style") {
        let open_end = tag_end(b, from + k);
        let close = lower[open_end..]
            .find("</style")
            .map_or(lower.len(), |c| c + open_end);
        sheet.read(&lower[open_end..close]);
        from = close.max(open_end);
        if from >= lower.len() {
            break;
        }
    }
    sheet
}

/// A closing tag (`after_slash`: from its name on, lower-cased): the open element of that
/// name closes, with all it holds; the tag is kept if what it closes was shown.
fn close_element(stack: &mut Vec<Open>, after_slash: &str, tag: &str, out: &mut String) {
    let name: String = after_slash
        .chars()
        .take_while(|c| c.is_ascii_alphanumeric() || *c == '-' || *c == ':')
        .collect();
    let hidden_now = stack.last().is_some_and(|o| o.hidden);
    if let Some(pos) = stack.iter().rposition(|o| o.name == name) {
        stack.truncate(pos);
    }
    if !hidden_now {
        out.push_str(tag);
    }
}

/// Where reading resumes after a raw text element (`<style>`, `<script>`...) whose opening
/// tag ends at `end`: past its closing tag, or at the end of the mail.
fn after_raw_text(lower: &str, name: &str, end: usize) -> usize {
    let b = lower.as_bytes();
    let close = format!("</{name}");
    let stop = lower[end..].find(&close).map_or(b.len(), |c| c + end);
    if stop >= b.len() {
        b.len()
    } else {
        tag_end(b, stop)
    }
}

/// `html` without the elements a reader would not see (this module's top comment), nor
/// `<style>`, `<script>` and `<head>` contents. Linear in the input; never fails.
pub fn visible_html(html: &str) -> String {
    let lower = html.to_ascii_lowercase();
    let b = lower.as_bytes();
    let sheet = style_sheet(&lower);
    let mut out = String::with_capacity(html.len());
    let mut stack: Vec<Open> = Vec::new();
    let hidden_now = |stack: &[Open]| stack.last().is_some_and(|o| o.hidden);
    let mut i = 0;
    while i < b.len() {
        let Some(k) = lower[i..].find('<') else {
            if !hidden_now(&stack) {
                out.push_str(&html[i..]);
            }
            break;
        };
        let lt = i + k;
        if !hidden_now(&stack) {
            out.push_str(&html[i..lt]);
        }
        if lower[lt..].starts_with("<!--") {
            i = lower[lt..].find("-->").map_or(b.len(), |e| lt + e + 3);
            continue;
        }
        let end = tag_end(b, lt);
        let tag = &lower[lt..end];
        let closing = tag.starts_with("</");
        let name_start = if closing { lt + 2 } else { lt + 1 };
        let first = b.get(name_start).copied();
        if !first.is_some_and(|c| c.is_ascii_alphabetic()) && !tag.starts_with("<!") {
            // Not a tag ("a < b"): text.
            if !hidden_now(&stack) {
                out.push('<');
            }
            i = lt + 1;
            continue;
        }
        if tag.starts_with("<!") || tag.starts_with("<?") {
            i = end;
            continue;
        }
        if closing {
            close_element(
                &mut stack,
                &lower[name_start..end],
                &html[lt..end],
                &mut out,
            );
            i = end;
            continue;
        }
        let (name, attrs) = attributes(tag);
        // Raw text elements: their content is never text a reader sees.
        if matches!(name.as_str(), "style" | "script" | "head" | "title") {
            i = after_raw_text(&lower, &name, end);
            continue;
        }
        let open = Open::new(&sheet, stack.last(), name, &attrs);
        if !open.hidden {
            out.push_str(&html[lt..end]);
        }
        let self_closing = tag.ends_with("/>");
        if !VOID.contains(&open.name.as_str()) && !self_closing {
            stack.push(open);
        }
        i = end;
    }
    out
}

#[cfg(test)]
mod tests;
