//! `parse` and `strip_quoted` never panic, whatever the bytes.

use castellan_mail::{flatten_html, parse, strip_html_quotes, strip_quoted};
use proptest::prelude::*;

/// Pieces of real mail, so random input reaches deep into the parser (MIME boundaries,
/// encodings, charsets, HTML) rather than stopping at the first header.
const PIECES: &[&str] = &[
    "From: a@b.c\r\n",
    "To: judge@x\r\n",
    "Subject: =?utf-8?q?=C3=A9?=\r\n",
    "Content-Type: multipart/mixed; boundary=\"B\"\r\n",
    "\r\n--B\r\n",
    "\r\n--B--\r\n",
    "Content-Type: text/html; charset=iso-8859-1\r\n",
    "Content-Type: message/rfc822\r\n",
    "Content-Transfer-Encoding: base64\r\n",
    "Content-Transfer-Encoding: quoted-printable\r\n",
    "=C3=\r\n",
    "=\r\n",
    "<blockquote>",
    "</blockquote>",
    "<div>",
    "&nbsp;&#x1F600;&amp",
    "> quoted\r\n",
    "On Mon wrote:\r\n",
    "-- \r\n",
    "\r\n",
    "Return-Path: <>\r\n",
    "Auto-Submitted: no\r\n",
    "Message-ID: <\r\n",
    "References: <a> <b\r\n",
    "\u{e9}\u{0}\u{ff}",
];

proptest! {
    #![proptest_config(ProptestConfig { cases: 512, ..ProptestConfig::default() })]

    #[test]
    fn parse_never_panics_on_random_bytes(raw in proptest::collection::vec(any::<u8>(), 0..2048), cap in 0usize..4096) {
        let _ = parse(&raw, cap);
    }

    #[test]
    fn parse_never_panics_on_mail_like_bytes(
        parts in proptest::collection::vec((0..PIECES.len(), proptest::collection::vec(any::<u8>(), 0..8)), 0..40),
        cap in 0usize..512,
    ) {
        let mut raw = Vec::new();
        for (i, noise) in parts {
            raw.extend_from_slice(PIECES[i].as_bytes());
            raw.extend_from_slice(&noise);
        }
        if let Ok(p) = parse(&raw, cap) {
            // the body respects the cap (plus the note)
            prop_assert!(!p.truncated || p.body.ends_with("only its beginning was read]"));
            prop_assert!(p.message_id.starts_with('<') && p.message_id.ends_with('>'));
        }
    }

    #[test]
    fn text_helpers_never_panic(s in "\\PC{0,400}") {
        let _ = strip_quoted(&s);
        let _ = flatten_html(&s);
        let _ = strip_html_quotes(&s);
        let _ = castellan_mail::visible_html(&s);
    }

    /// HTML-shaped noise (tags, styles, colours, broken quotes) through the hidden-text
    /// filter: never a panic.
    #[test]
    fn the_hidden_text_filter_never_panics(parts in proptest::collection::vec((0usize..12, "\\PC{0,12}"), 0..24)) {
        const BITS: [&str; 12] = ["<div style=\"", "display:none", "color:#fff\">", "</div>", "<style>.a{font-size:0}", "</style>", "<font size=0 color=", "<span class='a'>", "<!--", "-->", "<br/>", "rgb(1,2"];
        let mut html = String::new();
        for (i, noise) in parts {
            html.push_str(BITS[i]);
            html.push_str(&noise);
        }
        let _ = castellan_mail::visible_html(&html);
        let _ = flatten_html(&html);
    }
}

#[test]
fn body_never_exceeds_the_cap_plus_note() {
    let long = format!("From: a@b.c\r\n\r\n{}", "é".repeat(5000));
    for cap in [0, 1, 2, 3, 100, 9999] {
        let p = parse(long.as_bytes(), cap).unwrap();
        let kept = p
            .body
            .trim_end_matches("[castellan: message too long, only its beginning was read]");
        assert!(
            kept.trim_end().len() <= cap,
            "cap {cap}: {} bytes kept",
            kept.len()
        );
    }
}
