//! Keeping only the new text of a reply: quoted lines, attributions ("On … wrote:",
//! "Le … a écrit :"), Outlook's original-message blocks and signatures are dropped.

/// The new text of a reply, without what it quotes.
///
/// Drops every line that starts with `>` (interleaved answers between quotes are kept), and
/// cuts everything from the first of:
/// - an attribution line: `On … wrote:` (also wrapped over up to three lines), French
///   `Le … a écrit :`, German `Am … schrieb …:`, or any line ending in `wrote:` that is
///   followed by quoted (`>`) lines;
/// - Outlook's `-----Original Message-----` (also `----- Message d'origine -----`), a
///   `________________` separator followed by a `From:` header, or a header block
///   `From: … Sent: … To:/Subject: …` (French `De : … Envoyé : … À :/Objet : …`);
/// - a signature delimiter: `-- ` (or `--`) alone on a line;
/// - a trailing "Sent from my phone" line.
///
/// Line ends become `\n`, no-break spaces (U+00A0, U+202F: French typography, HTML
/// `&nbsp;`) become plain spaces, trailing spaces are removed, and leading and trailing
/// blank lines are dropped.
pub fn strip_quoted(text: &str) -> String {
    strip_quoted_within(text, usize::MAX)
}

/// [`strip_quoted`], keeping at most about `max` bytes of new text (a line more, so that
/// a caller cutting at `max` sees that there was more). Memory: one copy of `text` and a
/// slice per line, whatever the size of the mail (issue 13: under 1.5 x the message).
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
    for i in 0..lines.len() {
        if kept > max {
            break;
        }
        let line = lines[i];
        if is_signature_delimiter(line)
            || is_original_message(line)
            || is_attribution(&lines, i)
            || is_outlook_separator(&lines, i)
            || is_outlook_header_block(&lines, i)
            || is_trailing_device_signature(&lines, i)
        {
            break;
        }
        if line.trim_start().starts_with('>') {
            continue;
        }
        out.push(line.trim_end());
        kept += line.len() + 1;
    }
    while out.last().is_some_and(|l| l.trim().is_empty()) {
        out.pop();
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

fn is_attribution(lines: &[&str], i: usize) -> bool {
    let t = lines[i].trim();
    if t.is_empty() || t.starts_with('>') {
        return false;
    }
    let opener = starts_with_ci(t, "On ") || starts_with_ci(t, "Le ") || starts_with_ci(t, "Am ");
    if opener {
        // the attribution may wrap over up to three lines
        let mut joined = String::new();
        for line in lines.iter().skip(i).take(3) {
            let l = line.trim();
            if l.is_empty() || l.starts_with('>') {
                break;
            }
            if !joined.is_empty() {
                joined.push(' ');
            }
            joined.push_str(l);
            if ends_attribution(&joined) {
                return joined.chars().count() <= 300;
            }
        }
        return false;
    }
    // "Alice <alice@example.org> wrote:" directly above quoted lines
    ends_attribution(t)
        && next_nonblank_line(lines, i + 1).is_some_and(|l| l.trim_start().starts_with('>'))
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

fn is_trailing_device_signature(lines: &[&str], i: usize) -> bool {
    let t = lines[i].trim();
    let device = [
        "Sent from my ",
        "Envoyé de mon ",
        "Envoyé depuis mon ",
        "Get Outlook for ",
    ]
    .iter()
    .any(|p| starts_with_ci(t, p));
    device && lines[i + 1..].iter().all(|l| l.trim().is_empty())
}

/// Removes every `<blockquote>` element (nested ones included) from an HTML body, so that
/// the quoted message of an HTML reply does not survive flattening. An unclosed blockquote
/// runs to the end.
pub fn strip_html_quotes(html: &str) -> String {
    let lower = html.to_ascii_lowercase();
    let mut out = String::with_capacity(html.len());
    let mut pos = 0;
    while let Some(start) = find_open(&lower, pos) {
        out.push_str(&html[pos..start]);
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

/// The new text of an HTML reply: blockquotes dropped, flattened, then [`strip_quoted`].
pub fn strip_html_reply(html: &str) -> String {
    strip_quoted(&flatten_html(&strip_html_quotes(html)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn quoted_lines_go_and_interleaved_answers_stay() {
        let t = "ATTACK A FROM B\n> old order\n>> older\nEND TURN\n> more";
        assert_eq!(strip_quoted(t), "ATTACK A FROM B\nEND TURN");
    }

    #[test]
    fn english_attribution_cuts_everything_below() {
        let t = "PLACE 3 Poland\n\nOn Tue, 3 Mar 2026 at 10:00, Judge <judge@x.org> wrote:\nYour turn\n> ATTACK";
        assert_eq!(strip_quoted(t), "PLACE 3 Poland");
    }

    #[test]
    fn wrapped_attribution_is_recognised() {
        let t = "PASS\nOn Tue, 3 Mar 2026 at 10:00, Castellan Judge\n<judge@castellan.example> wrote:\n\n> old";
        assert_eq!(strip_quoted(t), "PASS");
    }

    #[test]
    fn french_attribution_is_recognised() {
        let t = "ATTAQUE Livonie DEPUIS Pologne\n\nLe mar. 3 mars 2026 à 10:00, Juge <judge@x.org> a écrit :\n> vieux";
        assert_eq!(strip_quoted(t), "ATTAQUE Livonie DEPUIS Pologne");
    }

    #[test]
    fn bare_wrote_line_needs_quotes_below() {
        // a line that merely ends in "wrote:" without quotes below is the player's text
        let t = "STATUS\nHere is what I wrote:\nPASS";
        assert_eq!(strip_quoted(t), t);
        let t = "STATUS\nAlice wrote:\n> PASS";
        assert_eq!(strip_quoted(t), "STATUS");
    }

    #[test]
    fn outlook_original_message_and_header_block() {
        let t = "PASS\n\n-----Original Message-----\nFrom: Judge\nSent: Monday\nTo: Alice\nSubject: Turn 3\n\nATTACK X";
        assert_eq!(strip_quoted(t), "PASS");
        let t = "PASS\n________________________________\nFrom: Judge <judge@x>\nSent: Monday\nTo: Alice\n\nold";
        assert_eq!(strip_quoted(t), "PASS");
        let t = "PASSE\nDe : Juge <judge@x>\nEnvoyé : lundi\nÀ : Alice\nObjet : Tour 3\nvieux";
        assert_eq!(strip_quoted(t), "PASSE");
    }

    #[test]
    fn a_lone_from_line_is_not_a_header_block() {
        let t = "From: the north I attack\nATTACK A FROM B";
        assert_eq!(strip_quoted(t), t);
    }

    #[test]
    fn signature_after_dash_dash_space() {
        let t = "END TURN\n-- \nAlice, Queen of Livonia\n";
        assert_eq!(strip_quoted(t), "END TURN");
        let t = "END TURN\n--\nAlice";
        assert_eq!(strip_quoted(t), "END TURN");
        // a dash-dash inside a line is not a signature
        let t = "SET DEFEND 2 -- always";
        assert_eq!(strip_quoted(t), t);
    }

    #[test]
    fn trailing_phone_signature_goes_but_not_in_the_middle() {
        assert_eq!(strip_quoted("PASS\n\nSent from my iPhone\n"), "PASS");
        let t = "Sent from my tent: PASS\nEND TURN";
        assert_eq!(strip_quoted(t), t);
    }

    #[test]
    fn crlf_and_blank_edges_are_normalised() {
        assert_eq!(strip_quoted("\r\n\r\nPASS  \r\nEND\r\n\r\n"), "PASS\nEND");
        assert_eq!(strip_quoted("END\u{a0}TURN\u{202f}!"), "END TURN !");
    }

    #[test]
    fn html_blockquotes_are_removed_nested() {
        let h = "<p>PASS</p><BLOCKQUOTE type=cite>old<blockquote>older</blockquote>still old</blockquote><p>END</p>";
        assert_eq!(strip_html_quotes(h), "<p>PASS</p><p>END</p>");
        // unclosed runs to the end; <blockquotex> is not a blockquote
        assert_eq!(strip_html_quotes("a<blockquote>b"), "a");
        assert_eq!(strip_html_quotes("a<blockquotex>b"), "a<blockquotex>b");
    }

    #[test]
    fn html_blocks_become_lines() {
        let h = "<html><head><style>p{}</style></head><body>PLACE 3 Poland<div>ATTACK Livonia FROM Poland</div><div><br></div><div>END&nbsp;TURN</div><p>a &amp; b</p></body></html>";
        assert_eq!(
            flatten_html(h).trim(),
            "PLACE 3 Poland\nATTACK Livonia FROM Poland\nEND\u{a0}TURN\na & b"
        );
    }

    #[test]
    fn html_reply_keeps_only_new_text() {
        let h = "<div>ATTACK Livonia FROM Poland</div><div class=\"gmail_quote\"><div>On Mon, Judge wrote:<br></div><blockquote>old orders</blockquote></div>";
        assert_eq!(strip_html_reply(h), "ATTACK Livonia FROM Poland");
    }
}
