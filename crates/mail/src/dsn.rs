//! Delivery status notifications (RFC 3464) read into the judge's [`Dsn`]: which mail
//! of ours did not arrive, to whom, and whether for good. A DSN stays automatic mail
//! ([`crate::automatic_reason`]): it is never answered, only counted by the judge.

use mail_parser::{Message, MessageParser, MimeHeaders, PartType};

pub use castellan_judge::{Dsn, DsnRecipient};

/// Recipients read from one report at most: a report naming more is read up to there.
const MAX_RECIPIENTS: usize = 50;

/// What `msg` reports, when it is a `multipart/report; report-type=delivery-status` with
/// a `message/delivery-status` part naming at least one recipient; else `None`.
pub fn read_dsn(msg: &Message) -> Option<Dsn> {
    let ct = msg.root_part().content_type()?;
    let is_report = ct.ctype().eq_ignore_ascii_case("multipart")
        && ct
            .subtype()
            .is_some_and(|s| s.eq_ignore_ascii_case("report"))
        && ct
            .attribute("report-type")
            .is_some_and(|t| t.trim().eq_ignore_ascii_case("delivery-status"));
    if !is_report {
        return None;
    }
    let mut dsn = Dsn::default();
    let mut returned_id = None;
    for part in msg.parts.iter().skip(1) {
        let Some(ct) = part.content_type() else {
            continue;
        };
        let kind = format!(
            "{}/{}",
            ct.ctype().to_ascii_lowercase(),
            ct.subtype().unwrap_or("").to_ascii_lowercase()
        );
        match kind.as_str() {
            "message/delivery-status" | "message/global-delivery-status" => {
                let text = String::from_utf8_lossy(part.contents());
                status_fields(&text, &mut dsn);
            }
            "message/rfc822" | "message/global" if returned_id.is_none() => {
                returned_id = match &part.body {
                    PartType::Message(m) => m.message_id().map(str::to_string),
                    _ => headers_message_id(part.contents()),
                };
            }
            "text/rfc822-headers" | "message/global-headers" if returned_id.is_none() => {
                returned_id = headers_message_id(part.contents());
            }
            _ => {}
        }
    }
    // The returned copy's own header says best which mail it was.
    if let Some(id) = returned_id.filter(|id| !id.trim().is_empty()) {
        dsn.original_message_id = Some(bracket(&id));
    }
    (!dsn.recipients.is_empty()).then_some(dsn)
}

/// The Message-ID of a block of returned headers.
fn headers_message_id(raw: &[u8]) -> Option<String> {
    let mut headers = raw.to_vec();
    // Headers alone parse as a message once an empty body follows them.
    headers.extend_from_slice(b"\r\n\r\n");
    MessageParser::default()
        .parse(&headers)?
        .message_id()
        .map(str::to_string)
}

/// The fields of a `message/delivery-status` body: the per-message group first, then one
/// group a recipient, groups parted by an empty line (RFC 3464 §2.1). Folded lines are
/// unfolded; unknown fields are skipped.
fn status_fields(text: &str, dsn: &mut Dsn) {
    for group in groups(text) {
        let mut recipient = DsnRecipient::default();
        let mut original_recipient = String::new();
        for (name, value) in group {
            match name.to_ascii_lowercase().as_str() {
                "final-recipient" => recipient.address = typed_address(&value),
                "original-recipient" => original_recipient = typed_address(&value),
                "action" => recipient.action = first_word(&value).to_ascii_lowercase(),
                "status" => recipient.status = first_word(&value).to_string(),
                "original-message-id" if dsn.original_message_id.is_none() => {
                    let id = value.trim();
                    if !id.is_empty() {
                        dsn.original_message_id = Some(bracket(id));
                    }
                }
                _ => {}
            }
        }
        if recipient.address.is_empty() {
            recipient.address = original_recipient;
        }
        if !recipient.address.is_empty() && dsn.recipients.len() < MAX_RECIPIENTS {
            dsn.recipients.push(recipient);
        }
    }
}

/// The groups of `name: value` fields of `text`, folded lines joined.
fn groups(text: &str) -> Vec<Vec<(String, String)>> {
    let mut out: Vec<Vec<(String, String)>> = vec![Vec::new()];
    for line in text.lines() {
        let line = line.trim_end_matches('\r');
        let group = out.last_mut().expect("never empty");
        if line.trim().is_empty() {
            if !group.is_empty() {
                out.push(Vec::new());
            }
            continue;
        }
        if line.starts_with([' ', '\t']) {
            if let Some((_, value)) = group.last_mut() {
                value.push(' ');
                value.push_str(line.trim());
            }
            continue;
        }
        if let Some((name, value)) = line.split_once(':') {
            group.push((name.trim().to_string(), value.trim().to_string()));
        }
    }
    out
}

/// `rfc822; Bob <bob@example.org>` → `bob@example.org`.
fn typed_address(value: &str) -> String {
    let address = value.split_once(';').map_or(value, |(_, a)| a).trim();
    let address = match (address.rfind('<'), address.rfind('>')) {
        (Some(a), Some(b)) if a < b => &address[a + 1..b],
        _ => address,
    };
    address.trim().to_lowercase()
}

/// `5.1.1 (user unknown)` → `5.1.1`.
fn first_word(value: &str) -> &str {
    value.split_whitespace().next().unwrap_or("")
}

fn bracket(id: &str) -> String {
    let id = id.trim().trim_start_matches('<').trim_end_matches('>');
    format!("<{id}>")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read(raw: &str) -> Option<Dsn> {
        let msg = MessageParser::default().parse(raw.as_bytes()).unwrap();
        read_dsn(&msg)
    }

    const HEADERS_ONLY: &str = "From: MAILER-DAEMON@mx.example.org\r\n\
        Content-Type: multipart/report; report-type=delivery-status; boundary=\"b\"\r\n\
        \r\n--b\r\nContent-Type: text/plain\r\n\r\nIt did not arrive.\r\n\
        --b\r\nContent-Type: message/delivery-status\r\n\r\n\
        Reporting-MTA: dns; mx.example.org\r\n\r\n\
        Final-Recipient: rfc822; <Bob@Example.org>\r\nAction: failed\r\n\
        Status: 4.4.7 (delivery time expired)\r\n\r\n\
        Final-Recipient: rfc822; carol@example.org\r\nAction: failed\r\nStatus: 5.2.2\r\n\r\n\
        --b\r\nContent-Type: text/rfc822-headers\r\n\r\n\
        From: judge@castellan.example\r\nMessage-ID: <abc@castellan.example>\r\n\
        --b--\r\n";

    #[test]
    fn a_report_with_returned_headers_names_each_recipient_and_the_mail() {
        let dsn = read(HEADERS_ONLY).expect("a DSN");
        assert_eq!(
            dsn.original_message_id.as_deref(),
            Some("<abc@castellan.example>")
        );
        let got: Vec<(&str, bool)> = dsn
            .recipients
            .iter()
            .map(|r| (r.address.as_str(), r.hard()))
            .collect();
        // The expired delivery (4.x.x) is soft; the full mailbox (5.x.x) hard.
        assert_eq!(
            got,
            [("bob@example.org", false), ("carol@example.org", true)]
        );
    }

    #[test]
    fn an_original_message_id_field_serves_without_the_returned_mail() {
        let raw = "From: postmaster@example.org\r\n\
            Content-Type: multipart/report; report-type=delivery-status; boundary=\"b\"\r\n\
            \r\n--b\r\nContent-Type: message/delivery-status\r\n\r\n\
            Original-Message-ID: <x@castellan.example>\r\n\r\n\
            Final-Recipient: rfc822;bob@example.org\r\nAction: failed\r\nStatus: 5.1.1\r\n\
            --b--\r\n";
        let dsn = read(raw).expect("a DSN");
        assert_eq!(
            dsn.original_message_id.as_deref(),
            Some("<x@castellan.example>")
        );
        assert!(dsn.recipients[0].hard());
    }

    #[test]
    fn other_reports_and_plain_mail_are_no_dsn() {
        let mdn = HEADERS_ONLY.replace("delivery-status;", "disposition-notification;");
        assert_eq!(read(&mdn), None);
        assert_eq!(read("From: a@b.org\r\nSubject: hi\r\n\r\nbody\r\n"), None);
    }
}
