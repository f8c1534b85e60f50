//! Raw RFC 5322 bytes into a [`Inbound`], with the hygiene verdict.

use mail_parser::{
    Address, HeaderName, HeaderValue, Message, MessageParser, MimeHeaders, PartType,
};
use sha2::{Digest, Sha256};

use crate::quote::{flatten_html_reply, strip_quoted, strip_quoted_within};

/// One inbound email, reduced to what the judge needs: the judge's own input type, so the
/// mail edge and the judge share one definition (the edge depends on the core it feeds,
/// never the reverse: the judge stays free of any mail or network crate).
pub use castellan_judge::{AuthenticationResults, Inbound};

/// Why a message could not be read at all.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ParseError {
    #[error("empty message")]
    Empty,
    #[error("not an email: no header could be read")]
    NotAnEmail,
    /// No From address: Sender, Reply-To and Return-Path never say who wrote (DMARC
    /// authenticates the From alone), so nobody is answered.
    #[error("the message has no From address (Sender, Reply-To and Return-Path are not read for who wrote)")]
    NoSender,
    /// More than one From header, or more than one address in it: which one DMARC checked
    /// is unknown.
    #[error("the message has {0}: it must have one From address")]
    NotOneFrom(String),
    /// The From address holds what an address cannot, or would pass for another
    /// ([`castellan_judge::canonical_address`]).
    #[error("the From address is refused: {0}")]
    BadSender(String),
}

/// The note appended to a body that was cut at the size cap.
pub const TRUNCATION_NOTE: &str = "[castellan: message too long, only its beginning was read]";

/// The machine-readable `X-Castellan-*` headers of a message (name as written, value
/// trimmed), in order: what programs (bots, the demo, the benchmark) read instead of prose.
pub fn castellan_headers(raw: &[u8]) -> Vec<(String, String)> {
    let Some(msg) = MessageParser::default().parse(raw) else {
        return Vec::new();
    };
    msg.headers()
        .iter()
        .filter(|h| {
            let n = h.name();
            n.len() > 12 && n[..12].eq_ignore_ascii_case("x-castellan-")
        })
        .filter_map(|h| {
            let v = h.value().as_text()?;
            Some((h.name().to_string(), v.trim().to_string()))
        })
        .collect()
}

/// Parses raw bytes. Never panics; never fails for size: a message longer than the cap is
/// read up to the cap (`truncated`, body cut with [`TRUNCATION_NOTE`]).
///
/// `max_body_bytes` caps the body text kept (after quotes are stripped). The raw bytes
/// parsed are capped at `max(16 × max_body_bytes, 1 MiB)`: past that only the beginning of
/// the message is parsed (attachments beyond it are not listed) and `truncated` is set.
pub fn parse(raw: &[u8], max_body_bytes: usize) -> Result<Inbound, ParseError> {
    if raw.iter().all(|b| b.is_ascii_whitespace()) {
        return Err(ParseError::Empty);
    }
    let raw_cap = max_body_bytes.saturating_mul(16).max(1 << 20);
    let (input, raw_cut) = if raw.len() > raw_cap {
        (&raw[..raw_cap], true)
    } else {
        (raw, false)
    };
    // mail-parser is meant not to panic; a bug there must not take the daemon down.
    let parsed = std::panic::catch_unwind(|| parse_inner(raw, input, max_body_bytes, raw_cut));
    match parsed {
        Ok(r) => r,
        Err(_) => Err(ParseError::NotAnEmail),
    }
}

fn parse_inner(
    raw: &[u8],
    input: &[u8],
    max_body_bytes: usize,
    raw_cut: bool,
) -> Result<Inbound, ParseError> {
    let msg = MessageParser::default()
        .parse(input)
        .ok_or(ParseError::NotAnEmail)?;
    if msg.headers().is_empty() {
        return Err(ParseError::NotAnEmail);
    }

    let (from, from_name) = author(&msg)?;

    // Header fields the judge echoes (In-Reply-To, References, Subject) are kept within
    // RFC 5322's 998-character line: an over-long Message-ID counts as none.
    let message_id = match msg
        .message_id()
        .map(str::trim)
        .filter(|s| !s.is_empty() && s.len() <= MAX_ID_CHARS)
    {
        Some(id) => bracket(id),
        None => synthetic_message_id(raw),
    };
    let to = recipients(&msg);
    let subject = clip_header(msg.subject().unwrap_or("").trim(), MAX_SUBJECT_BYTES);
    let (in_reply_to, references) = thread(&msg);
    let attachments = attachment_names(&msg);
    let (body, html_only, truncated) = body_kept(&msg, max_body_bytes, raw_cut);

    Ok(Inbound {
        message_id,
        automatic: automatic_reason(&msg, &from),
        from,
        from_name,
        to,
        subject,
        body,
        in_reply_to,
        references,
        attachments,
        html_only,
        truncated,
        authentication_results: raw_header_values(&msg, "Authentication-Results")
            .iter()
            .filter_map(|v| AuthenticationResults::parse(&v.replace(['\r', '\n'], " ")))
            .collect(),
        bounce: crate::dsn::read_dsn(&msg),
    })
}

/// Every address the mail was sent to (To, Cc, Delivered-To, X-Original-To), each once.
fn recipients(msg: &Message) -> Vec<String> {
    let mut to: Vec<String> = Vec::new();
    let mut push = |a: String| {
        if !a.is_empty() && !to.contains(&a) {
            to.push(a);
        }
    };
    for addr in msg.all_to().chain(msg.all_cc()) {
        for a in addresses(addr) {
            push(a);
        }
    }
    for name in ["Delivered-To", "X-Original-To"] {
        for value in msg.header_values(name) {
            match value {
                HeaderValue::Address(addr) => addresses(addr).into_iter().for_each(&mut push),
                HeaderValue::Text(t) => push(bare_address(t)),
                _ => {}
            }
        }
        for raw_value in raw_header_values(msg, name) {
            push(bare_address(&raw_value));
        }
    }
    to
}

/// In-Reply-To and the newest References, each within the length a reply can echo.
fn thread(msg: &Message) -> (Option<String>, Vec<String>) {
    let in_reply_to = ids(msg.in_reply_to())
        .into_iter()
        .next()
        .filter(|id| id.len() <= MAX_ID_CHARS);
    let mut references: Vec<String> = ids(msg.references())
        .into_iter()
        .filter(|id| id.len() <= MAX_ID_CHARS)
        .collect();
    // The newest few are enough to thread a reply, and keep its References short.
    if references.len() > MAX_REFERENCES {
        references.drain(..references.len() - MAX_REFERENCES);
    }
    (in_reply_to, references)
}

/// The attachments' names ("(unnamed text/plain)" for one without a name).
fn attachment_names(msg: &Message) -> Vec<String> {
    let mut attachments = Vec::new();
    for part in msg.attachments() {
        let name = part
            .attachment_name()
            .map(|n| n.to_string())
            .unwrap_or_else(|| match part.content_type() {
                Some(ct) => format!(
                    "(unnamed {}/{})",
                    ct.ctype(),
                    ct.subtype().unwrap_or("octet-stream")
                ),
                None => "(unnamed)".to_string(),
            });
        attachments.push(name);
    }
    attachments
}

/// The body text kept (cut to `max_body_bytes`, with a note when cut), whether the mail
/// was HTML only, and whether anything was cut (`raw_cut`: the raw bytes were).
fn body_kept(msg: &Message, max_body_bytes: usize, raw_cut: bool) -> (String, bool, bool) {
    let (body, html_only) = body_text(msg, max_body_bytes);
    let (body, body_cut) = cut(&body, max_body_bytes);
    let truncated = raw_cut || body_cut;
    let body = if truncated {
        if body.is_empty() {
            TRUNCATION_NOTE.to_string()
        } else {
            format!("{body}\n{TRUNCATION_NOTE}")
        }
    } else {
        body
    };
    (body, html_only, truncated)
}

/// Longest Message-ID kept (longer: treated as absent), so that replies' In-Reply-To and
/// References lines stay within RFC 5322's 998 characters.
const MAX_ID_CHARS: usize = 250;
/// References kept (the newest).
const MAX_REFERENCES: usize = 3;
/// Longest subject kept, in bytes: "Subject: Re: [game #token] " and the subject fit in
/// one 998-character line.
const MAX_SUBJECT_BYTES: usize = 900;

/// `s` cut to at most `max` bytes on a character boundary, control characters removed
/// (a header value is one line).
fn clip_header(s: &str, max: usize) -> String {
    let s: String = s.chars().filter(|c| !c.is_control()).collect();
    if s.len() <= max {
        return s;
    }
    let mut end = max;
    while !s.is_char_boundary(end) {
        end -= 1;
    }
    s[..end].to_string()
}

/// `<hex sha256 of the raw bytes@castellan.invalid>`.
fn synthetic_message_id(raw: &[u8]) -> String {
    format!("<{}@castellan.invalid>", hex::encode(Sha256::digest(raw)))
}

fn bracket(id: &str) -> String {
    let id = id.trim().trim_start_matches('<').trim_end_matches('>');
    format!("<{id}>")
}

fn ids(value: &HeaderValue) -> Vec<String> {
    match value {
        HeaderValue::Text(t) => t
            .split_whitespace()
            .filter(|s| !s.is_empty())
            .map(bracket)
            .collect(),
        HeaderValue::TextList(list) => list
            .iter()
            .map(|s| s.trim())
            .filter(|s| !s.is_empty())
            .map(bracket)
            .collect(),
        _ => Vec::new(),
    }
}

fn raw_header_values(msg: &Message, name: &str) -> Vec<String> {
    msg.headers_raw()
        .filter(|(n, _)| n.eq_ignore_ascii_case(name))
        .map(|(_, v)| v.trim().to_string())
        .collect()
}

/// `Name <a@b>` or `<a@b>` or `a@b` → `a@b`, lowercase.
fn bare_address(text: &str) -> String {
    bracketed(text).to_lowercase()
}

/// `Name <a@b>` or `<a@b>` or `a@b` → `a@b`, as written.
fn bracketed(text: &str) -> &str {
    let t = text.trim();
    let inner = match (t.rfind('<'), t.rfind('>')) {
        (Some(a), Some(b)) if a < b => &t[a + 1..b],
        _ => t,
    };
    inner.trim()
}

fn addresses(addr: &Address) -> Vec<String> {
    addr.iter()
        .filter_map(|a| a.address())
        .map(|a| a.trim().to_lowercase())
        .filter(|a| !a.is_empty())
        .collect()
}

/// Who wrote: the one address of the one From header, in its canonical form, and its
/// display name. Sender, Reply-To and Return-Path are never read for it: DMARC
/// authenticates the From alone. Two From headers, two addresses, none, or an address
/// refused: an error (the mail is not judged, and nobody is answered).
fn author(msg: &Message) -> Result<(String, Option<String>), ParseError> {
    let headers: Vec<&mail_parser::Header> = msg
        .headers()
        .iter()
        .filter(|h| h.name == HeaderName::From)
        .collect();
    let raw_count = raw_header_values(msg, "From").len();
    let count = headers.len().max(raw_count);
    if count > 1 {
        return Err(ParseError::NotOneFrom(format!("{count} From headers")));
    }
    let Some(header) = headers.first() else {
        return Err(ParseError::NoSender);
    };
    let (address, name) = match &header.value {
        HeaderValue::Address(addr) => {
            let found: Vec<_> = addr
                .iter()
                .filter(|a| a.address().is_some_and(|s| !s.trim().is_empty()))
                .collect();
            match found.as_slice() {
                [] => return Err(ParseError::NoSender),
                [one] => (
                    one.address().unwrap_or("").to_string(),
                    one.name()
                        .map(|n| n.trim().to_string())
                        .filter(|n| !n.is_empty()),
                ),
                many => {
                    return Err(ParseError::NotOneFrom(format!(
                        "{} addresses in its From header",
                        many.len()
                    )))
                }
            }
        }
        _ => {
            let raw = raw_header_values(msg, "From")
                .into_iter()
                .next()
                .unwrap_or_default();
            (bracketed(&raw).to_string(), None)
        }
    };
    if address.trim().is_empty() {
        return Err(ParseError::NoSender);
    }
    let address = castellan_judge::canonical_address(&address)
        .map_err(|e| ParseError::BadSender(e.to_string()))?;
    Ok((address, name))
}

/// The body's new text (about `max` bytes of it at most, and a line) and whether it came
/// from HTML only. A single text part is read where it lies, not copied first.
fn body_text(msg: &Message, max: usize) -> (String, bool) {
    let mut texts: Vec<std::borrow::Cow<str>> = Vec::new();
    let mut htmls = Vec::new();
    for part in msg.text_bodies() {
        match &part.body {
            PartType::Text(t) => match flowed(part) {
                Some(delsp) => texts.push(std::borrow::Cow::Owned(unflow(t, delsp))),
                None => texts.push(std::borrow::Cow::Borrowed(t.as_ref())),
            },
            PartType::Html(h) => htmls.push(h.to_string()),
            _ => {}
        }
    }
    match texts.as_slice() {
        [] => {}
        [one] => return (strip_quoted_within(one, max), false),
        many => return (strip_quoted_within(&many.join("\n"), max), false),
    }
    if htmls.is_empty() {
        for part in msg.html_bodies() {
            if let PartType::Html(h) = &part.body {
                htmls.push(h.to_string());
            }
        }
    }
    if !htmls.is_empty() {
        let flat: Vec<String> = htmls.iter().map(|h| flatten_html_reply(h)).collect();
        return (strip_quoted(&flat.join("\n")), true);
    }
    (String::new(), false)
}

/// `Some(delsp)` when the part is `text/plain; format=flowed` (RFC 3676), with its DelSp.
fn flowed(part: &mail_parser::MessagePart) -> Option<bool> {
    let ct = part.content_type()?;
    let is = |name: &str, value: &str| {
        ct.attribute(name)
            .is_some_and(|v| v.trim().eq_ignore_ascii_case(value))
    };
    is("format", "flowed").then(|| is("delsp", "yes"))
}

/// Decode RFC 3676 format=flowed text: a line ending in a space (a soft break) joins the
/// next line of the same quote depth; with DelSp=yes that space goes. Space-stuffing is
/// undone; the signature separator "-- " is never a soft break. Quoted lines keep their
/// "> " markers (quote stripping comes after).
pub fn unflow(text: &str, delsp: bool) -> String {
    let mut out: Vec<String> = Vec::new();
    // The paragraph being joined: its quote depth and text so far.
    let mut open: Option<(usize, String)> = None;
    for raw in text.split('\n') {
        let line = raw.strip_suffix('\r').unwrap_or(raw);
        let depth = line.chars().take_while(|&c| c == '>').count();
        let mut content = &line[depth..];
        if let Some(rest) = content.strip_prefix(' ') {
            // Space-stuffed (or the space after the quote markers).
            content = rest;
        }
        let soft = content.ends_with(' ') && content != "-- ";
        let piece = if soft && delsp {
            &content[..content.len() - 1]
        } else {
            content
        };
        let mut current = match open.take() {
            Some((d, acc)) if d == depth => acc,
            Some((d, acc)) => {
                out.push(quoted(d, &acc));
                String::new()
            }
            None => String::new(),
        };
        current.push_str(piece);
        if soft {
            open = Some((depth, current));
        } else {
            out.push(quoted(depth, &current));
        }
    }
    if let Some((d, acc)) = open {
        out.push(quoted(d, &acc));
    }
    out.join("\n")
}

fn quoted(depth: usize, text: &str) -> String {
    if depth == 0 {
        text.to_string()
    } else {
        format!("{} {text}", ">".repeat(depth))
    }
}

/// Cuts `text` to at most `max` bytes, at a line break when one is near, else at a char
/// boundary.
fn cut(text: &str, max: usize) -> (String, bool) {
    if text.len() <= max {
        return (text.to_string(), false);
    }
    let mut end = max;
    while end > 0 && !text.is_char_boundary(end) {
        end -= 1;
    }
    let head = &text[..end];
    let head = match head.rfind('\n') {
        Some(nl) if nl * 2 >= end => &head[..nl],
        _ => head,
    };
    (head.trim_end().to_string(), true)
}

/// Why a message is automatic (must never be answered), or None.
///
/// - `Auto-Submitted` other than `no` (RFC 3834: auto-replied, auto-generated, …);
/// - a bounce: empty `Return-Path: <>`, sender `MAILER-DAEMON` or `postmaster`, or a
///   `multipart/report` (delivery status notification);
/// - `Precedence: bulk`, `list` or `junk`;
/// - `List-Id` (mailing-list traffic);
/// - `X-Auto-Response-Suppress` (the sender asks for no automatic answer; Exchange sets it
///   on its own automatic mail);
/// - vacation responders' `X-Autoreply` / `X-Autorespond`.
pub fn automatic_reason(msg: &Message, from: &str) -> Option<String> {
    let header = |name: &str| raw_header_values(msg, name);
    for v in header("Auto-Submitted") {
        let kind = v
            .split(';')
            .next()
            .unwrap_or("")
            .trim()
            .to_ascii_lowercase();
        if kind != "no" {
            return Some(format!("Auto-Submitted: {}", v.trim()));
        }
    }
    for v in header("Return-Path") {
        if v.trim()
            .trim_start_matches('<')
            .trim_end_matches('>')
            .trim()
            .is_empty()
        {
            return Some("bounce: empty Return-Path <>".to_string());
        }
    }
    let local = from.split('@').next().unwrap_or("").to_ascii_lowercase();
    if local == "mailer-daemon" || local == "postmaster" {
        return Some(format!("bounce: sent by {from}"));
    }
    if let Some(ct) = msg.root_part().content_type() {
        if ct.ctype().eq_ignore_ascii_case("multipart")
            && ct
                .subtype()
                .is_some_and(|s| s.eq_ignore_ascii_case("report"))
        {
            return Some("bounce: multipart/report (delivery status notification)".to_string());
        }
    }
    for v in header("Precedence") {
        let p = v.trim().to_ascii_lowercase();
        if matches!(p.as_str(), "bulk" | "list" | "junk") {
            return Some(format!("Precedence: {p}"));
        }
    }
    if let Some(v) = header("List-Id").into_iter().next() {
        return Some(format!("list mail: List-Id {}", v.trim()));
    }
    if let Some(v) = header("X-Auto-Response-Suppress").into_iter().next() {
        return Some(format!("X-Auto-Response-Suppress: {}", v.trim()));
    }
    for name in ["X-Autoreply", "X-Autorespond"] {
        if let Some(v) = header(name).into_iter().next() {
            return Some(format!("{name}: {}", v.trim()));
        }
    }
    None
}

#[cfg(test)]
mod tests;
