//! Outgoing replies rendered to RFC 5322 bytes: lettre's headers, then the parts written
//! in one pass ([`wire`]).

use std::io::Write as _;
use std::time::{Duration, SystemTime};

use lettre::message::header::{self, HeaderName, HeaderValue, Headers, MIME_VERSION_1_0};
use lettre::message::{Mailbox, Mailboxes};
use serde::{Deserialize, Serialize};

#[cfg(test)]
mod agrees;
mod attach;
mod flowed;
#[cfg(test)]
mod oracle;
mod wire;

/// One email the judge sends.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct OutgoingMail {
    /// With angle brackets; stable (the judge derives it) so a resend is recognised.
    pub message_id: String,
    /// `judge@example.org` or `Castellan <judge@example.org>`.
    pub from: String,
    /// Same forms as `from`.
    pub to: String,
    pub subject: String,
    /// UTF-8 plain text.
    pub body: String,
    /// With angle brackets.
    pub in_reply_to: Option<String>,
    /// With angle brackets, oldest first.
    pub references: Vec<String>,
    /// Extra machine-readable headers (`X-Castellan-Token`...) and `List-Unsubscribe`:
    /// other names must start with `X-`; any other name is dropped, and CR or LF in a value
    /// flattened.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub headers: Vec<(String, String)>,
    /// An HTML part with the same content as `body` (and the board's picture): the mail
    /// goes out as `multipart/alternative`, the text first.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub html: Option<String>,
    /// Files it carries (VERIFY's reply: the dice script): the mail goes out as
    /// `multipart/mixed`, the text (or the alternative of text and HTML) first.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub attachments: Vec<castellan_judge::Attachment>,
}

/// Why a mail cannot be rendered.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum RenderError {
    #[error("bad {field} address {value:?}: {reason}")]
    BadAddress {
        field: &'static str,
        value: String,
        reason: String,
    },
    #[error("cannot build the message: {0}")]
    Build(String),
}

/// The address of a `from`/`to` field, parsed.
pub(crate) fn mailbox(field: &'static str, value: &str) -> Result<Mailbox, RenderError> {
    value
        .trim()
        .parse::<Mailbox>()
        .map_err(|e| RenderError::BadAddress {
            field,
            value: value.to_string(),
            reason: e.to_string(),
        })
}

fn bracket(id: &str) -> String {
    let id = id.trim().trim_start_matches('<').trim_end_matches('>');
    format!("<{id}>")
}

fn raw(name: &'static str, value: &str) -> HeaderValue {
    HeaderValue::new(HeaderName::new_from_ascii_str(name), value.to_string())
}

/// What [`try_render`] would refuse, without rendering: a `from` or `to` address that does
/// not parse.
pub fn check(mail: &OutgoingMail) -> Result<(), RenderError> {
    mailbox("from", &mail.from)?;
    mailbox("to", &mail.to)?;
    Ok(())
}

/// Renders the mail as it goes on the wire: Message-ID, In-Reply-To, References,
/// `Auto-Submitted: auto-replied` (RFC 3834: other robots must not answer it),
/// `X-Auto-Response-Suppress: All` (Exchange: no out-of-office answers), a Date fixed from
/// `date_unix` (seconds since 1970, UTC; so golden files are stable), UTF-8 text/plain
/// as `format=flowed` in lines of at most 78 characters (render/flowed.rs), or
/// `multipart/alternative` (text/plain, then text/html) when the mail has an HTML part,
/// inside a `multipart/mixed` with its attachments after it when it has any
/// (render/attach.rs). Fails only for an address that does not parse.
///
/// The headers are lettre's (its folding and RFC 2047 words), written as its message
/// builder would; the parts are written by `wire` (render/wire.rs) in one pass over each text, into one
/// buffer. The bytes are those the builder made (`oracle`, the tests' reference).
pub fn try_render(mail: &OutgoingMail, date_unix: i64) -> Result<Vec<u8>, RenderError> {
    let headers = headers(mail, date_unix)?;
    let html = mail.html.as_deref().unwrap_or("");
    // Room for both parts as quoted-printable of French (a growing buffer is copied
    // whole): what 7bit leaves unused costs nothing.
    let files: usize = mail
        .attachments
        .iter()
        .map(|a| a.content.len() * 4 / 3 + 256)
        .sum();
    let mut out = Vec::with_capacity(1024 + (mail.body.len() + html.len()) * 3 / 2 + files);
    write!(out, "{headers}").expect("writing to a Vec cannot fail");
    if mail.attachments.is_empty() {
        body(&mut out, mail);
        return Ok(out);
    }
    let mixed = boundary();
    multipart(&mut out, b"mixed", &mixed);
    open_part(&mut out, &mixed);
    body(&mut out, mail);
    for a in &mail.attachments {
        out.extend_from_slice(b"\r\n");
        open_part(&mut out, &mixed);
        attach::part(&mut out, a);
    }
    out.extend_from_slice(b"\r\n--");
    out.extend_from_slice(mixed.as_bytes());
    out.extend_from_slice(b"--\r\n");
    Ok(out)
}

/// A boundary as lettre draws one: 40 alphanumerics of the thread's fastrand generator.
fn boundary() -> String {
    std::iter::repeat_with(fastrand::alphanumeric)
        .take(40)
        .collect()
}

/// `Content-Type: multipart/<kind>` with its boundary, and the blank line.
fn multipart(out: &mut Vec<u8>, kind: &[u8], boundary: &str) {
    out.extend_from_slice(b"Content-Type: multipart/");
    out.extend_from_slice(kind);
    out.extend_from_slice(b";\r\n boundary=\"");
    out.extend_from_slice(boundary.as_bytes());
    out.extend_from_slice(b"\"\r\n\r\n");
}

/// A part's delimiter line.
fn open_part(out: &mut Vec<u8>, boundary: &str) {
    out.extend_from_slice(b"--");
    out.extend_from_slice(boundary.as_bytes());
    out.extend_from_slice(b"\r\n");
}

/// The mail's text: text/plain alone, or `multipart/alternative` (text/plain, then
/// text/html) when it has an HTML part.
fn body(out: &mut Vec<u8>, mail: &OutgoingMail) {
    let text = flowed::flowed(&mail.body);
    match &mail.html {
        Some(html) => {
            let boundary = boundary();
            multipart(out, b"alternative", &boundary);
            for (content_type, text, limit) in [
                (wire::TEXT_PLAIN, text.as_str(), TEXT_LINE),
                (wire::TEXT_HTML, html.as_str(), HTML_LINE),
            ] {
                open_part(out, &boundary);
                wire::part(out, content_type, text, limit);
                out.extend_from_slice(b"\r\n");
            }
            out.extend_from_slice(b"--");
            out.extend_from_slice(boundary.as_bytes());
            out.extend_from_slice(b"--\r\n");
        }
        None => wire::part(out, wire::TEXT_PLAIN, &text, TEXT_LINE),
    }
}

/// A text part goes 7bit if it is ASCII (in lines of at most 78 characters, as
/// [`flowed`] writes them), else quoted-printable.
const TEXT_LINE: usize = flowed::WIDTH + 1;

/// The HTML part goes 7bit up to the 998 characters a line RFC 5322 (2.1.1) allows. The
/// 78 it recommends are for a person reading the raw text, which no one does with a page;
/// our pages are ASCII (`svg::esc` writes the rest as references) with a few long tags,
/// and quoted-printable would write each of their `=` as `=3D`.
const HTML_LINE: usize = 999;

/// The message's headers, set in the order, and with the values, of lettre's message
/// builder; and its checks: the `From` and `To` it wrote must read back (its envelope).
fn headers(mail: &OutgoingMail, date_unix: i64) -> Result<Headers, RenderError> {
    let from = mailbox("from", &mail.from)?;
    let to = mailbox("to", &mail.to)?;
    let date = SystemTime::UNIX_EPOCH + Duration::from_secs(date_unix.max(0) as u64);
    let mut h = Headers::with_capacity(12 + mail.headers.len());
    h.set(header::MessageId::from(bracket(&mail.message_id)));
    h.set(header::Date::new(date));
    // lettre's builder reads From and To back for the envelope, and refuses the message
    // if either does not parse as written: a parse as long as the rest of the headers'
    // work, needless for an address that surely reads back.
    let (from_back, to_back) = (reads_back(&from), reads_back(&to));
    h.set(header::From::from(Mailboxes::from(from)));
    h.set(header::To::from(Mailboxes::from(to)));
    h.set(header::Subject::from(
        mail.subject.replace(['\r', '\n'], " "),
    ));
    if let Some(irt) = &mail.in_reply_to {
        h.set(header::InReplyTo::from(bracket(irt)));
    }
    let refs: Vec<String> = mail
        .references
        .iter()
        .filter(|r| !r.trim().is_empty())
        .map(|r| bracket(r))
        .collect();
    if !refs.is_empty() {
        h.set(header::References::from(refs.join(" ")));
    }
    for (name, value) in &mail.headers {
        // `X-` headers, and List-Unsubscribe (RFC 2369: `<mailto:judge?subject=STOP>`).
        let plain = ((name.len() > 2 && name[..2].eq_ignore_ascii_case("x-"))
            || name.eq_ignore_ascii_case("List-Unsubscribe"))
            && name.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'-');
        if let (true, Ok(n)) = (plain, HeaderName::new_from_ascii(name.clone())) {
            h.insert_raw(HeaderValue::new(n, value.replace(['\r', '\n'], " ")));
        }
    }
    h.insert_raw(raw("Auto-Submitted", "auto-replied"));
    h.insert_raw(raw("X-Auto-Response-Suppress", "All"));
    h.set(MIME_VERSION_1_0);
    if !from_back && h.get::<header::From>().is_none() {
        return Err(RenderError::Build(
            "missing source address, invalid envelope".into(),
        ));
    }
    if !to_back && h.get::<header::To>().is_none() {
        return Err(RenderError::Build(
            "missing destination address, invalid envelope".into(),
        ));
    }
    Ok(h)
}

/// Whether `m`, as lettre writes it in a header, surely parses back (so the builder's
/// check can be left out): a name (if any) of letters, digits and spaces, written as it
/// is, and an address of dot-separated runs of letters, digits, `-`, `_` and `+`.
fn reads_back(m: &Mailbox) -> bool {
    let runs = |s: &str| {
        !s.is_empty()
            && s.split('.').all(|run| {
                !run.is_empty()
                    && run
                        .bytes()
                        .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'-' | b'_' | b'+'))
            })
    };
    let name = m.name.as_deref().unwrap_or("");
    name.bytes().all(|b| b.is_ascii_alphanumeric() || b == b' ')
        && runs(m.email.user())
        && runs(m.email.domain())
}

/// The lines of a text made to end CRLF, and its longest line, as the oracle does it.
#[cfg(test)]
use oracle::crlf;

/// The quoted-printable of `text` alone, as [`wire`] writes it in a part.
#[cfg(test)]
fn quoted_printable(text: &str) -> Vec<u8> {
    let mut out = Vec::new();
    wire::quoted_printable(&mut out, text.as_bytes());
    out
}

/// [`try_render`], for callers that have already checked the addresses (as
/// [`crate::Transport::send`] does). Never panics: an address that does not parse is
/// replaced by `invalid@castellan.invalid` so the bytes still show what was meant.
pub fn render(mail: &OutgoingMail, date_unix: i64) -> Vec<u8> {
    match try_render(mail, date_unix) {
        Ok(bytes) => bytes,
        Err(_) => {
            let fix = |a: &str| {
                if mailbox("x", a).is_ok() {
                    a.to_string()
                } else {
                    "invalid@castellan.invalid".to_string()
                }
            };
            let fixed = OutgoingMail {
                from: fix(&mail.from),
                to: fix(&mail.to),
                ..mail.clone()
            };
            try_render(&fixed, date_unix).unwrap_or_default()
        }
    }
}

#[cfg(test)]
mod tests {
    /// Text through [`super::quoted_printable`] decodes (by mail-parser, as a receiver
    /// would) to itself, in lines of at most 76 characters.
    #[test]
    fn quoted_printable_reads_back_as_written_in_short_lines() {
        let long = "word ".repeat(40);
        let samples = [
            String::from("plain"),
            String::new(),
            long.clone(),
            format!("{long}\nsecond line = 3\ttab \nfin  "),
            "é à ç, « guillemets » — tiret; Überraschung 日本 ".repeat(9),
            "x".repeat(300),
            "=".repeat(100),
            "a\tb\t\n \n\t".to_string(),
            "\u{7f}\u{1}ctl".to_string(),
        ];
        for text in samples {
            let (crlf, _) = super::crlf(&text);
            let qp = super::quoted_printable(&crlf);
            let wire = String::from_utf8(qp.clone()).unwrap();
            assert!(wire.is_ascii());
            for l in wire.split("\r\n") {
                assert!(l.len() <= 76, "{l:?} ({} chars)", l.len());
                assert!(!l.ends_with(' ') && !l.ends_with('\t'), "{l:?}");
            }
            let mut raw = b"Content-Type: text/plain; charset=utf-8\r\n\
                Content-Transfer-Encoding: quoted-printable\r\n\r\n"
                .to_vec();
            raw.extend_from_slice(&qp);
            let parsed = mail_parser::MessageParser::default().parse(&raw).unwrap();
            let back = parsed
                .body_text(0)
                .unwrap_or_default()
                .replace("\r\n", "\n");
            assert_eq!(back, text.replace("\r\n", "\n"), "{wire}");
        }
    }

    /// A mail with an HTML part reads back, both parts, as it was given (the text joined
    /// back from its format=flowed lines of at most 78 characters); ASCII in short lines
    /// goes as 7bit.
    #[test]
    fn both_parts_read_back_whole() {
        let mut m = sample();
        m.body = format!("Tour 3 : à vous. {}\nfin", "long ".repeat(30).trim_end());
        m.html = Some("<html>\n<body>\n<p>short</p>\n</body>\n</html>".into());
        let bytes = super::render(&m, 0);
        let text = String::from_utf8_lossy(&bytes);
        assert!(text.contains("Content-Transfer-Encoding: 7bit"), "{text}");
        assert!(
            text.contains("Content-Transfer-Encoding: quoted-printable"),
            "{text}"
        );
        let parsed = mail_parser::MessageParser::default().parse(&bytes).unwrap();
        let flowed = parsed.body_text(0).unwrap().replace("\r\n", "\n");
        assert!(flowed.lines().all(|l| l.chars().count() <= 78), "{flowed}");
        assert_eq!(crate::parse::unflow(&flowed, false), m.body);
        assert_eq!(
            parsed.body_html(0).unwrap().replace("\r\n", "\n"),
            m.html.unwrap()
        );
    }

    /// An ASCII page goes as 7bit while its lines stay within RFC 5322's 998 characters
    /// (a long tag, as the board's picture has, is no reason to write each `=` as `=3D`);
    /// a longer line, or text beyond ASCII, makes it quoted-printable. Both read back whole.
    #[test]
    fn an_ascii_page_goes_7bit_up_to_998_characters_a_line() {
        let tag = format!("<svg style=\"{}\">", "a:b;".repeat(70));
        for (line, encoding) in [
            (tag.clone(), "7bit"),
            ("x".repeat(998), "7bit"),
            ("x".repeat(999), "quoted-printable"),
            (format!("{tag}\u{e9}"), "quoted-printable"),
        ] {
            let mut m = sample();
            m.html = Some(format!("<html>\n{line}\n</html>"));
            let bytes = super::render(&m, 0);
            let text = String::from_utf8_lossy(&bytes);
            let html_part = text.split("text/html").nth(1).unwrap();
            assert!(
                html_part.contains(&format!("Content-Transfer-Encoding: {encoding}")),
                "{} chars: {html_part}",
                line.len()
            );
            assert!(text.split("\r\n").all(|l| l.len() <= 998));
            let parsed = mail_parser::MessageParser::default().parse(&bytes).unwrap();
            assert_eq!(
                parsed.body_html(0).unwrap().replace("\r\n", "\n"),
                m.html.unwrap()
            );
        }
    }

    #[test]
    fn line_endings_become_crlf_once() {
        let crlf = |s| super::crlf(s).0;
        assert_eq!(crlf("a\nb\r\nc\n\nd"), "a\r\nb\r\nc\r\n\r\nd");
        assert_eq!(crlf(""), "");
        assert_eq!(crlf("\n"), "\r\n");
        assert_eq!(crlf("é\r"), "é\r");
        // The longest line, without its line ending (`é` is two bytes).
        assert_eq!(super::crlf("ab\r\nabcd\nabc").1, 4);
        assert_eq!(super::crlf("ab\nééé\r").1, 7);
        assert_eq!(super::crlf("").1, 0);
    }

    use super::*;

    fn sample() -> OutgoingMail {
        OutgoingMail {
            headers: Vec::new(),
            html: None,
            message_id: "<r1.castle-7@judge.example>".into(),
            from: "Castellan <judge@judge.example>".into(),
            to: "alice@example.org".into(),
            subject: "[castle-7] Turn 12: Red to move".into(),
            body: "Your move.\n".into(),
            in_reply_to: Some("<m1@example.org>".into()),
            references: vec!["<m0@example.org>".into(), "<m1@example.org>".into()],
            attachments: Vec::new(),
        }
    }

    /// "Machines read data, not prose": the judge's machine-readable headers go
    /// out on the wire and come back through `castellan_headers`; a value cannot inject a
    /// header line, and only `X-` names are written.
    #[test]
    fn machine_readable_headers_survive_the_round_trip_and_cannot_inject() {
        let mut m = sample();
        m.headers = vec![
            ("X-Castellan-Game".into(), "castle-7".into()),
            (
                "X-Castellan-Token".into(),
                "k3j9x\r\nBcc: eve@example.org".into(),
            ),
            ("Bcc".into(), "eve@example.org".into()),
        ];
        let bytes = render(&m, 0);
        let text = String::from_utf8_lossy(&bytes);
        assert!(!text.contains("\r\nBcc:"), "{text}");
        let got = crate::castellan_headers(&bytes);
        assert_eq!(
            got,
            vec![
                ("X-Castellan-Game".to_string(), "castle-7".to_string()),
                (
                    "X-Castellan-Token".to_string(),
                    "k3j9x  Bcc: eve@example.org".to_string()
                ),
            ]
        );
    }

    /// Every mail carries List-Unsubscribe (RFC 2369) as the judge set it.
    #[test]
    fn list_unsubscribe_goes_out() {
        let mut m = sample();
        m.headers = vec![(
            "List-Unsubscribe".into(),
            "<mailto:judge@castellan.example?subject=STOP>".into(),
        )];
        let text = String::from_utf8(render(&m, 0)).unwrap();
        assert!(
            text.contains("List-Unsubscribe: <mailto:judge@castellan.example?subject=STOP>\r\n"),
            "{text}"
        );
    }

    #[test]
    fn reply_headers_are_present() {
        let out = String::from_utf8(render(&sample(), 1_700_000_000)).unwrap();
        for h in [
            "Message-ID: <r1.castle-7@judge.example>",
            "In-Reply-To: <m1@example.org>",
            "References: <m0@example.org> <m1@example.org>",
            "Auto-Submitted: auto-replied",
            "X-Auto-Response-Suppress: All",
            "Date: Tue, 14 Nov 2023 22:13:20 +0000",
            "Content-Type: text/plain; charset=utf-8",
            "MIME-Version: 1.0",
        ] {
            assert!(out.contains(h), "missing {h} in\n{out}");
        }
        assert!(!out.contains("Precedence"));
    }

    #[test]
    fn bad_address_is_an_error_and_render_does_not_panic() {
        let mut m = sample();
        m.to = "not an address".into();
        assert!(matches!(
            try_render(&m, 0),
            Err(RenderError::BadAddress { field: "to", .. })
        ));
        let out = String::from_utf8(render(&m, 0)).unwrap();
        assert!(out.contains("To: invalid@castellan.invalid"));
    }

    /// A report with a picture goes out as multipart/alternative, the text part
    /// first and unchanged, the HTML part after it; both parse back.
    #[test]
    fn a_mail_with_an_html_part_is_multipart_alternative_with_the_text_first() {
        let mut m = sample();
        m.body = "Turn 12. Paris: Alice, 5 armies.\n".into();
        m.html = Some("<!DOCTYPE html>\n<html><body><svg xmlns=\"http://www.w3.org/2000/svg\"></svg><pre>Turn 12.</pre></body></html>".into());
        let bytes = render(&m, 0);
        let text = String::from_utf8_lossy(&bytes);
        assert!(
            text.contains("Content-Type: multipart/alternative"),
            "{text}"
        );
        let parsed = mail_parser::MessageParser::default()
            .parse(&bytes[..])
            .unwrap();
        assert_eq!(
            parsed.body_text(0).unwrap().trim_end(),
            "Turn 12. Paris: Alice, 5 armies."
        );
        let html = parsed.body_html(0).unwrap();
        assert!(html.contains("<svg xmlns"), "{html}");
        let (t, h) = (
            text.find("text/plain").unwrap(),
            text.find("text/html").unwrap(),
        );
        assert!(t < h, "the text part comes first");
    }

    /// A mail with a file is multipart/mixed: its text first, then the file, which parses
    /// back byte for byte with its name and type; with an HTML part too, the alternative
    /// comes first, whole.
    #[test]
    fn a_mail_with_an_attachment_is_multipart_mixed_and_the_file_reads_back() {
        let script = "#!/usr/bin/env python3\nprint('ok')  # é\n".repeat(40);
        let mut m = sample();
        m.body = "VERIFY castle-7\nCheck it yourself: verify_dice.py, attached.\n".into();
        m.attachments = vec![castellan_judge::Attachment {
            filename: "verify_dice.py".into(),
            content_type: "text/x-python".into(),
            content: script.as_bytes().to_vec(),
        }];
        for html in [
            None,
            Some("<html><body><pre>VERIFY</pre></body></html>".to_string()),
        ] {
            m.html = html.clone();
            let bytes = render(&m, 0);
            let text = String::from_utf8_lossy(&bytes);
            assert!(text.contains("Content-Type: multipart/mixed"), "{text}");
            assert!(text.lines().all(|l| l.len() <= 78), "{text}");
            let parsed = mail_parser::MessageParser::default()
                .parse(&bytes[..])
                .unwrap();
            assert_eq!(
                parsed
                    .body_text(0)
                    .unwrap()
                    .trim_end()
                    .replace("\r\n", "\n"),
                "VERIFY castle-7\nCheck it yourself: verify_dice.py, attached."
            );
            assert_eq!(text.contains("text/html"), html.is_some());
            if html.is_some() {
                assert!(parsed.body_html(0).unwrap().contains("<pre>VERIFY</pre>"));
            }
            assert_eq!(parsed.attachment_count(), 1);
            use mail_parser::MimeHeaders;
            let a = parsed.attachment(0).unwrap();
            assert_eq!(a.attachment_name(), Some("verify_dice.py"));
            let ct = a.content_type().unwrap();
            assert_eq!((ct.ctype(), ct.subtype()), ("text", Some("x-python")));
            assert_eq!(a.contents(), script.as_bytes());
        }
    }

    #[test]
    fn the_same_mail_renders_the_same_bytes() {
        assert_eq!(render(&sample(), 5), render(&sample(), 5));
    }
}
