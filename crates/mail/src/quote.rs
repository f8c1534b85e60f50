//! Keeping only the new text of a reply, wherever it stands: quoted lines, attributions
//! ("On … wrote:", "Le … a écrit :"), Outlook's original-message blocks and signatures are
//! dropped.

/// The new text of a reply, without what it quotes.
///
/// The promise: quoted lines are never read, and the sender's new text is read wherever it
/// stands: above the quote (top-posting), below it (bottom-posting) or between its parts
/// (interleaved answers).
///
/// - Every line that starts with `>` is dropped, wherever it is.
/// - An attribution: `On … wrote:` (also wrapped over up to three lines), French
///   `Le … a écrit :`, German `Am … schrieb …:`, or any line ending in `wrote:` that is
///   followed by `>` lines. When the next non-blank line below it is quoted (`>`), the
///   attribution is dropped and reading goes on: the quote goes line by line, and the
///   unquoted text after the end of the quoted block is new text and is kept. When it is
///   not (a client that copies the old mail below the attribution without `>` markers, or
///   nothing follows), everything from the attribution on is cut: unmarked text after an
///   attribution cannot be told from the old mail, so it is never read.
///
/// Everything is cut from the first of these, where the rest is the old mail or a
/// signature without `>` markers:
/// - Outlook's `-----Original Message-----` (also `----- Message d'origine -----`), a
///   `________________` separator followed by a `From:` header, or a header block
///   `From: … Sent: … To:/Subject: …` (French `De : … Envoyé : … À :/Objet : …`);
/// - a signature delimiter: `-- ` (or `--`) alone on a line.
///
/// A "Sent from my phone" line is dropped when it is the last line of the new text (also
/// when a quote follows it: a top-post from a phone).
///
/// Line ends become `\n`, no-break spaces (U+00A0, U+202F: French typography, HTML
/// `&nbsp;`) become plain spaces, trailing spaces are removed, and leading and trailing
/// blank lines are dropped.
pub fn strip_quoted(text: &str) -> String {
    strip_quoted_within(text, usize::MAX)
}

/// [`strip_quoted`], keeping at most about `max` bytes of new text (a line more, so that
/// a caller cutting at `max` sees that there was more). Memory: one copy of `text` and a
/// slice per line, whatever the size of the mail (under 1.5 x the message).
pub fn strip_quoted_within(text: &str, max: usize) -> String {
    // Line breaks to \n and no-break spaces to spaces, in one pass and one copy.
    let mut norm = String::with_capacity(text.len());
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '\r' => {
                if chars.peek() == Some(&'\n') {
                    chars.next();
                }
                norm.push('\n');
            }
            '\u{a0}' | '\u{202f}' => norm.push(' '),
            c => norm.push(c),
        }
    }
    let text = norm;
    let lines: Vec<&str> = text.split('\n').collect();
    let mut out: Vec<&str> = Vec::new();
    let mut kept = 0usize;
    let mut i = 0;
    while i < lines.len() {
        if kept > max {
            break;
        }
        let line = lines[i];
        if is_quoted(line) {
            i += 1;
            continue;
        }
        if let Some(n) = attribution_lines(&lines, i) {
            if next_nonblank_line(&lines, i + n).is_some_and(is_quoted) {
                // the attribution of a `>` quote: skip it, the quote goes line by line,
                // and what follows the quote is new text again
                i += n;
                continue;
            }
            // an attribution over an unquoted copy of the old mail (or over nothing)
            break;
        }
        if is_signature_delimiter(line)
            || is_original_message(line)
            || is_outlook_separator(&lines, i)
            || is_outlook_header_block(&lines, i)
        {
            break;
        }
        out.push(line.trim_end());
        kept += line.len() + 1;
        i += 1;
    }
    while out.last().is_some_and(|l| l.trim().is_empty()) {
        out.pop();
    }
    // "Sent from my …" as the last line of the new text, also above a quote (top-posting)
    if out.last().is_some_and(|l| is_device_signature(l)) {
        out.pop();
        while out.last().is_some_and(|l| l.trim().is_empty()) {
            out.pop();
        }
    }
    let first = out
        .iter()
        .position(|l| !l.trim().is_empty())
        .unwrap_or(out.len());
    out[first..].join("\n")
}

fn is_signature_delimiter(line: &str) -> bool {
    line == "-- " || line.trim_end() == "--"
}

fn is_original_message(line: &str) -> bool {
    let t = line.trim();
    if !t.starts_with("---") {
        return false;
    }
    let inner = t.trim_matches(|c: char| c == '-' || c.is_whitespace());
    let inner = inner.to_lowercase();
    matches!(
        inner.as_str(),
        "original message"
            | "message d'origine"
            | "message d\u{2019}origine"
            | "ursprüngliche nachricht"
            | "mensaje original"
            | "messaggio originale"
    )
}

fn strip_decoration(line: &str) -> &str {
    line.trim().trim_start_matches(['*', '_']).trim_start()
}

fn starts_with_ci(text: &str, prefix: &str) -> bool {
    text.len() >= prefix.len()
        && text.is_char_boundary(prefix.len())
        && text[..prefix.len()].eq_ignore_ascii_case(prefix)
}

fn ends_attribution(t: &str) -> bool {
    let l = t.trim_end().to_lowercase();
    l.ends_with("wrote:")
        || l.ends_with("a écrit :")
        || l.ends_with("a écrit:")
        || l.ends_with("a ecrit :")
        || l.ends_with("a ecrit:")
        || l.ends_with("a écrit\u{a0}:")
        || (l.ends_with(':') && l.contains("schrieb"))
}

fn next_nonblank_line<'a>(lines: &[&'a str], from: usize) -> Option<&'a str> {
    lines[from.min(lines.len())..]
        .iter()
        .copied()
        .find(|l| !l.trim().is_empty())
}

fn is_quoted(line: &str) -> bool {
    line.trim_start().starts_with('>')
}

/// How many lines the attribution starting at line `i` spans (`On … wrote:` and its
/// French and German forms wrap over up to three lines), or `None` when line `i` does not
/// start one.
fn attribution_lines(lines: &[&str], i: usize) -> Option<usize> {
    let t = lines[i].trim();
    if t.is_empty() || t.starts_with('>') {
        return None;
    }
    let opener = starts_with_ci(t, "On ") || starts_with_ci(t, "Le ") || starts_with_ci(t, "Am ");
    if opener {
        // the attribution may wrap over up to three lines
        let mut joined = String::new();
        for (n, line) in lines.iter().skip(i).take(3).enumerate() {
            let l = line.trim();
            if l.is_empty() || l.starts_with('>') {
                break;
            }
            if !joined.is_empty() {
                joined.push(' ');
            }
            joined.push_str(l);
            if ends_attribution(&joined) {
                return (joined.chars().count() <= 300).then_some(n + 1);
            }
        }
        return None;
    }
    // "Alice <alice@example.org> wrote:" directly above quoted lines
    (ends_attribution(t) && next_nonblank_line(lines, i + 1).is_some_and(is_quoted)).then_some(1)
}

fn is_from_header(line: &str) -> bool {
    let t = strip_decoration(line);
    starts_with_ci(t, "From:")
        || starts_with_ci(t, "De :")
        || starts_with_ci(t, "De:")
        || starts_with_ci(t, "De\u{a0}:")
}

fn is_outlook_separator(lines: &[&str], i: usize) -> bool {
    let t = lines[i].trim();
    t.len() >= 10
        && t.chars().all(|c| c == '_')
        && next_nonblank_line(lines, i + 1).is_some_and(is_from_header)
}

fn is_outlook_header_block(lines: &[&str], i: usize) -> bool {
    if !is_from_header(lines[i]) {
        return false;
    }
    let mut sent = false;
    let mut other = false;
    for line in lines.iter().skip(i + 1).take(6) {
        let t = strip_decoration(line);
        if [
            "Sent:",
            "Envoyé :",
            "Envoyé:",
            "Envoyé\u{a0}:",
            "Date:",
            "Date :",
        ]
        .iter()
        .any(|p| starts_with_ci(t, p))
        {
            sent = true;
        }
        if [
            "To:", "À :", "À:", "A :", "Subject:", "Objet :", "Objet:", "Cc:",
        ]
        .iter()
        .any(|p| starts_with_ci(t, p))
        {
            other = true;
        }
    }
    sent && other
}

/// "Sent from my iPhone" and the like (dropped only as the last line of the new text).
fn is_device_signature(line: &str) -> bool {
    let t = line.trim();
    [
        "Sent from my ",
        "Envoyé de mon ",
        "Envoyé depuis mon ",
        "Get Outlook for ",
    ]
    .iter()
    .any(|p| starts_with_ci(t, p))
}

/// Removes every `<blockquote>` element (nested ones included) from an HTML body, so that
/// the quoted message of an HTML reply does not survive flattening. An unclosed blockquote
/// runs to the end. What follows a blockquote stays.
pub fn strip_html_quotes(html: &str) -> String {
    replace_html_quotes(html, "")
}

/// What each outermost blockquote becomes in [`flatten_html_reply`]: a block that flattens
/// to a line `>`, so that [`strip_quoted`] sees a quote where the blockquote was (an
/// attribution above it is the quote's, and the text below it is new).
const QUOTE_MARK: &str = "<div>&gt;</div>";

/// The HTML body flattened ([`flatten_html`]) with each blockquote replaced by a quoted
/// line `>`, ready for [`strip_quoted`].
pub(crate) fn flatten_html_reply(html: &str) -> String {
    // What a reader does not see is not read (crate::hidden).
    flatten_html(&replace_html_quotes(
        &crate::hidden::visible_html(html),
        QUOTE_MARK,
    ))
}

/// `html` with each outermost `<blockquote>` element replaced by `with`.
fn replace_html_quotes(html: &str, with: &str) -> String {
    let lower = html.to_ascii_lowercase();
    let mut out = String::with_capacity(html.len());
    let mut pos = 0;
    while let Some(start) = find_open(&lower, pos) {
        out.push_str(&html[pos..start]);
        out.push_str(with);
        let mut depth = 0usize;
        let mut cursor = start;
        let mut end = html.len();
        loop {
            let open = find_open(&lower, cursor);
            let close = lower[cursor..].find("</blockquote").map(|k| k + cursor);
            match (open, close) {
                (Some(o), Some(c)) if o < c => {
                    depth += 1;
                    cursor = o + 1;
                }
                (Some(o), None) => {
                    depth += 1;
                    cursor = o + 1;
                }
                (_, Some(c)) => {
                    depth = depth.saturating_sub(1);
                    let gt = lower[c..]
                        .find('>')
                        .map(|k| k + c + 1)
                        .unwrap_or(html.len());
                    cursor = gt;
                    if depth == 0 {
                        end = gt;
                        break;
                    }
                }
                (None, None) => break,
            }
        }
        pos = end;
    }
    out.push_str(&html[pos..]);
    out
}

fn find_open(lower: &str, from: usize) -> Option<usize> {
    let mut at = from;
    while let Some(k) = lower[at..].find("<blockquote") {
        let start = at + k;
        let after = lower.as_bytes().get(start + "<blockquote".len()).copied();
        if matches!(
            after,
            None | Some(b'>' | b'/' | b' ' | b'\t' | b'\r' | b'\n')
        ) {
            return Some(start);
        }
        at = start + 1;
    }
    None
}

const BLOCK_TAGS: &[&str] = &[
    "div",
    "p",
    "li",
    "ul",
    "ol",
    "tr",
    "table",
    "h1",
    "h2",
    "h3",
    "h4",
    "h5",
    "h6",
    "pre",
    "hr",
    "section",
    "article",
    "header",
    "footer",
    "dl",
    "dt",
    "dd",
    "blockquote",
    "center",
];

/// Marks block boundaries for [`flatten_html`] (ASCII record separator: not whitespace to
/// mail-parser's converter, so it survives as text).
const BREAK: char = '\u{1e}';

/// HTML flattened to plain text: tags dropped, entities decoded (mail-parser's converter),
/// and one line per block: `<br>` and every block element (`div`, `p`, `li`, `tr`, headings,
/// …) start a new line, so an order written one per `<div>` (as Gmail does) stays one per
/// line. Runs of breaks collapse into one.
pub fn flatten_html(html: &str) -> String {
    let lower = html.to_ascii_lowercase();
    let bytes = lower.as_bytes();
    let mut marked = String::with_capacity(html.len() + 64);
    let mut last = 0;
    for (i, _) in lower.match_indices('<') {
        let name_start = if bytes.get(i + 1) == Some(&b'/') {
            i + 2
        } else {
            i + 1
        };
        let name_end = bytes[name_start..]
            .iter()
            .position(|b| !b.is_ascii_alphanumeric())
            .map_or(bytes.len(), |k| name_start + k);
        if BLOCK_TAGS.contains(&&lower[name_start..name_end]) {
            marked.push_str(&html[last..i]);
            marked.push(BREAK);
            last = i;
        }
    }
    marked.push_str(&html[last..]);
    let flat = mail_parser::decoders::html::html_to_text(&marked);
    // collapse each run of breaks, newlines and the spaces between them into one newline
    let mut out = String::with_capacity(flat.len());
    let mut chars = flat.chars().peekable();
    while let Some(c) = chars.next() {
        if c == BREAK || c == '\n' {
            while out.ends_with([' ', '\t']) {
                out.pop();
            }
            while let Some(&n) = chars.peek() {
                if n == BREAK || n == '\n' || n == ' ' || n == '\t' {
                    chars.next();
                } else {
                    break;
                }
            }
            out.push('\n');
        } else {
            out.push(c);
        }
    }
    out
}

/// The new text of an HTML reply: flattened with each blockquote as a quoted line `>`, then
/// [`strip_quoted`]: the quote is never read, and new text below it (bottom-posting) is.
pub fn strip_html_reply(html: &str) -> String {
    strip_quoted(&flatten_html_reply(html))
}

#[cfg(test)]
mod tests;
