//! The renderer as it was before [`super::wire`]: lettre's message builder, with the
//! bodies encoded ahead by the functions below. Kept for the tests only, as the oracle the
//! one-pass writer must agree with byte for byte (`super::tests::the_writer_agrees_*`).

use std::time::{Duration, SystemTime};

use lettre::message::header::ContentTransferEncoding;
use lettre::message::header::{ContentType, HeaderName, HeaderValue, MIME_VERSION_1_0};
use lettre::message::{Body, MultiPart, SinglePart};
use lettre::Message;

use super::flowed::flowed;
use super::{bracket, mailbox, raw, OutgoingMail, RenderError};

/// Renders the mail as it goes on the wire: Message-ID, In-Reply-To, References,
/// `Auto-Submitted: auto-replied` (RFC 3834: other robots must not answer it),
/// `X-Auto-Response-Suppress: All` (Exchange: no out-of-office answers), a Date fixed from
/// `date_unix` (seconds since 1970, UTC; so golden files are stable), UTF-8 text/plain, or
/// `multipart/alternative` (text/plain, then text/html) when the mail has an HTML part.
/// Fails only for an address that does not parse.
pub(super) fn try_render(mail: &OutgoingMail, date_unix: i64) -> Result<Vec<u8>, RenderError> {
    let from = mailbox("from", &mail.from)?;
    let to = mailbox("to", &mail.to)?;
    let date = SystemTime::UNIX_EPOCH + Duration::from_secs(date_unix.max(0) as u64);
    let mut builder = Message::builder()
        .message_id(Some(bracket(&mail.message_id)))
        .date(date)
        .from(from)
        .to(to)
        .subject(mail.subject.replace(['\r', '\n'], " "));
    if let Some(irt) = &mail.in_reply_to {
        builder = builder.in_reply_to(bracket(irt));
    }
    let refs: Vec<String> = mail
        .references
        .iter()
        .filter(|r| !r.trim().is_empty())
        .map(|r| bracket(r))
        .collect();
    if !refs.is_empty() {
        builder = builder.references(refs.join(" "));
    }
    for (name, value) in &mail.headers {
        // `X-` headers, and List-Unsubscribe (RFC 2369: `<mailto:judge?subject=STOP>`).
        let plain = ((name.len() > 2 && name[..2].eq_ignore_ascii_case("x-"))
            || name.eq_ignore_ascii_case("List-Unsubscribe"))
            && name.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'-');
        if let (true, Ok(n)) = (plain, HeaderName::new_from_ascii(name.clone())) {
            builder = builder.raw_header(HeaderValue::new(n, value.replace(['\r', '\n'], " ")));
        }
    }
    let builder = builder
        .raw_header(raw("Auto-Submitted", "auto-replied"))
        .raw_header(raw("X-Auto-Response-Suppress", "All"))
        .header(MIME_VERSION_1_0);
    let message = match &mail.html {
        Some(html) => builder.multipart(
            MultiPart::alternative()
                .singlepart(
                    SinglePart::builder()
                        .header(text_plain())
                        .body(encoded(&flowed(&mail.body))),
                )
                .singlepart(
                    SinglePart::builder()
                        .header(ContentType::TEXT_HTML)
                        .body(encoded_html(html)),
                ),
        ),
        None => builder
            .header(text_plain())
            .body(encoded(&flowed(&mail.body))),
    }
    .map_err(|e| RenderError::Build(e.to_string()))?;
    Ok(message.formatted())
}

/// A text part as it goes on the wire: CRLF line endings, then 7bit if it is ASCII in
/// lines under 76 characters, else quoted-printable ([`quoted_printable`]). What lettre
/// would choose for such text (it would choose base64 only for binary data), written in
/// one pass: lettre's own encoders took most of the time of rendering a report.
fn encoded(text: &str) -> Body {
    encoded_within(text, super::TEXT_LINE)
}

/// The text part's `Content-Type`: UTF-8, format=flowed (RFC 3676).
fn text_plain() -> ContentType {
    ContentType::parse("text/plain; charset=utf-8; format=flowed")
        .expect("a well-formed content type")
}

/// The HTML part: as [`encoded`], but 7bit up to the 998 characters a line RFC 5322
/// (2.1.1) allows. The 78 it recommends are for a person reading the raw text, which no
/// one does with a page; our pages are ASCII (`svg::esc` writes the rest as references)
/// with a few long tags, and quoted-printable would write each of their `=` as `=3D`.
fn encoded_html(html: &str) -> Body {
    encoded_within(html, 999)
}

/// 7bit if `text` is ASCII in lines shorter than `limit`, else quoted-printable.
fn encoded_within(text: &str, limit: usize) -> Body {
    let (text, longest) = crlf(text);
    if longest < limit && text.is_ascii() {
        Body::dangerous_pre_encoded(text.into_bytes(), ContentTransferEncoding::SevenBit)
    } else {
        Body::dangerous_pre_encoded(
            quoted_printable(&text),
            ContentTransferEncoding::QuotedPrintable,
        )
    }
}

/// Quoted-printable (RFC 2045 6.7) of `text` whose lines end CRLF: `=`, controls and
/// bytes past ASCII as `=XX`, a space or tab that ends a line too, and lines kept to 76
/// characters with soft breaks (`=` at the end).
pub(super) fn quoted_printable(text: &str) -> Vec<u8> {
    const HEX: &[u8; 16] = b"0123456789ABCDEF";
    let mut out = Vec::with_capacity(text.len() + text.len() / 8);
    // Split at each `\n` (a search for one byte, where one for "\r\n" was a fifth of
    // rendering a report): every one of them ends a CRLF.
    for (n, line) in text.split('\n').enumerate() {
        if n > 0 {
            out.extend_from_slice(b"\r\n");
        }
        let bytes = line.strip_suffix('\r').unwrap_or(line).as_bytes();
        // Most lines need nothing: short, printable, no `=`, no space at the end.
        if bytes.len() <= 76
            && bytes
                .iter()
                .all(|&b| (33..=126).contains(&b) && b != b'=' || b == b' ' || b == b'\t')
            && !bytes.ends_with(b" ")
            && !bytes.ends_with(b"\t")
        {
            out.extend_from_slice(bytes);
            continue;
        }
        let mut width = 0;
        for (i, &b) in bytes.iter().enumerate() {
            let last = i + 1 == bytes.len();
            let plain = (b == b' ' || b == b'\t') && !last || (33..=126).contains(&b) && b != b'=';
            let len = if plain { 1 } else { 3 };
            // Room for the token and, unless it ends the line, a soft break after it.
            if width + len > if last { 76 } else { 75 } {
                out.extend_from_slice(b"=\r\n");
                width = 0;
            }
            if plain {
                out.push(b);
            } else {
                out.extend_from_slice(&[b'=', HEX[(b >> 4) as usize], HEX[(b & 15) as usize]]);
            }
            width += len;
        }
    }
    out
}

/// `s` with every line ending CRLF, as the wire wants it, and the length of its longest
/// line (without its CRLF). lettre would do it too, but by inserting one `\r` at a time
/// (quadratic: half the time of rendering a 25 KB report).
pub(super) fn crlf(s: &str) -> (String, usize) {
    let mut out = String::with_capacity(s.len() + s.len() / 32);
    let mut longest = 0;
    let mut rest = s;
    while let Some(i) = rest.find('\n') {
        let line = &rest[..i];
        let line = line.strip_suffix('\r').unwrap_or(line);
        longest = longest.max(line.len());
        out.push_str(line);
        out.push_str("\r\n");
        rest = &rest[i + 1..];
    }
    longest = longest.max(rest.len());
    out.push_str(rest);
    (out, longest)
}
