//! Mail as the judge sees it: one inbound mail reduced to what the judge needs, the
//! `Authentication-Results` it carries, and one mail to send.

use serde::{Deserialize, Serialize};

/// One inbound email, reduced to what the judge needs. The mail layer
/// (`castellan_mail::parse`) builds it from raw bytes: quotes and signatures stripped, the
/// hygiene verdict made. One type for both sides.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Inbound {
    /// With angle brackets. A message without one gets `<sha256-of-raw@castellan.invalid>`,
    /// so the same bytes twice are recognised as the same message.
    pub message_id: String,
    /// Who wrote: the one address of the one From header, bare, in its canonical form
    /// (`canonical_address`: lower case, NFC). Sender, Reply-To and Return-Path are never
    /// read for it.
    pub from: String,
    pub from_name: Option<String>,
    /// To, Cc, Delivered-To and X-Original-To addresses, lowercase, each once, in that
    /// order: plus-address tokens live here.
    pub to: Vec<String>,
    pub subject: String,
    /// The new text only: quoted replies and signatures stripped, HTML-only mail flattened.
    pub body: String,
    /// With angle brackets.
    pub in_reply_to: Option<String>,
    /// With angle brackets, oldest first as in the header.
    pub references: Vec<String>,
    /// File names of attachments (ignored by the judge; it may say so in its reply).
    pub attachments: Vec<String>,
    /// The message had no text/plain body: the body is flattened HTML.
    pub html_only: bool,
    /// Why this mail must not be answered (automatic mail: auto-replies, bounces, bulk and
    /// list mail), or None for mail from a person.
    pub automatic: Option<String>,
    /// The message was over the size cap: the body was cut and ends with a note.
    pub truncated: bool,
    /// Its `Authentication-Results` headers (RFC 8601), topmost first. The judge trusts
    /// one only when its server is named in `trusted_authserv_ids`.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub authentication_results: Vec<AuthenticationResults>,
    /// What a delivery status notification (RFC 3464: `multipart/report;
    /// report-type=delivery-status`) says, when this mail is one. It is still automatic
    /// mail (never answered); the judge only counts its hard failures (crate::bounces).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub bounce: Option<Dsn>,
}

/// A delivery status notification as the mail layer read it: the Message-ID of the mail
/// that was not delivered (from its returned copy or headers, `message/rfc822` or
/// `text/rfc822-headers`, else an `Original-Message-ID` field) and each recipient's fate.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Dsn {
    /// With angle brackets; `None` when the report names none.
    pub original_message_id: Option<String>,
    pub recipients: Vec<DsnRecipient>,
}

/// One per-recipient block of a `message/delivery-status` part.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct DsnRecipient {
    /// `Final-Recipient` (else `Original-Recipient`), its address type dropped, lower case.
    pub address: String,
    /// `Action`, lower case: `failed`, `delayed`, `delivered`, `relayed`, `expanded`.
    pub action: String,
    /// `Status`, as `5.1.1`.
    pub status: String,
}

impl DsnRecipient {
    /// A hard bounce: the delivery failed for good (`Action: failed`, a `5.x.x` status).
    /// A `4.x.x` (soft: the server tries again) or a delay is not one.
    pub fn hard(&self) -> bool {
        self.action == "failed" && self.status.starts_with("5.")
    }
}

/// One `Authentication-Results` header as the mail layer read it: the server that added
/// it and its SPF, DKIM and DMARC results (`pass`, `fail`, `none`, ...), lowercase, with
/// what DMARC alignment needs: the domains of the DKIM signatures that passed and the
/// domain DMARC was evaluated for. Comments (`(...)`) are not read.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct AuthenticationResults {
    pub authserv_id: String,
    pub spf: Option<String>,
    /// `pass` when any signature passed, else the last result.
    pub dkim: Option<String>,
    pub dmarc: Option<String>,
    /// `header.d` (else the domain of `header.i`) of each DKIM signature that passed.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub dkim_domains: Vec<String>,
    /// `header.from` of the DMARC result: the From domain it judged.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub dmarc_from: Option<String>,
}

impl AuthenticationResults {
    /// Read one header value: `mx.example.org; spf=pass smtp.mailfrom=...; dkim=pass ...`.
    pub fn parse(value: &str) -> Option<AuthenticationResults> {
        let value = without_comments(value);
        let mut parts = value.split(';');
        let authserv_id = parts.next()?.split_whitespace().next()?.to_lowercase();
        let mut r = AuthenticationResults {
            authserv_id,
            ..Default::default()
        };
        for part in parts {
            let mut words = part.split_whitespace();
            let Some((method, result)) = words.next().and_then(|w| w.split_once('=')) else {
                continue;
            };
            let result = result.trim_matches('"').to_lowercase();
            let props: Vec<(String, String)> = words
                .filter_map(|w| w.split_once('='))
                .map(|(k, v)| (k.to_lowercase(), v.trim_matches('"').to_lowercase()))
                .collect();
            let prop = |name: &str| props.iter().find(|(k, _)| k == name).map(|(_, v)| v);
            let slot = match method.to_lowercase().as_str() {
                "spf" => &mut r.spf,
                "dkim" => {
                    let domain = prop("header.d").cloned().or_else(|| {
                        prop("header.i").map(|i| crate::ident::domain_of(&format!("@{i}")))
                    });
                    if let (true, Some(d)) = (result == "pass", domain) {
                        if !d.is_empty() && !r.dkim_domains.contains(&d) {
                            r.dkim_domains.push(d);
                        }
                    }
                    &mut r.dkim
                }
                "dmarc" => {
                    r.dmarc_from = prop("header.from").cloned();
                    &mut r.dmarc
                }
                _ => continue,
            };
            // Several DKIM signatures: one pass is enough.
            if slot.as_deref() != Some("pass") {
                *slot = Some(result);
            }
        }
        Some(r)
    }

    /// Why this result says the mail's From (`from`, its one address) is forged, as DMARC
    /// (RFC 7489) means it: DMARC fails; or DMARC passes, but for another domain than the
    /// From's; or, DMARC passing neither as said nor by a DKIM signature aligned with the
    /// From domain (the domain or a parent of it), SPF fails. `None`: not forged (DMARC
    /// passes, or nothing failed).
    pub fn forged(&self, from: &str) -> Option<String> {
        let domain = crate::ident::domain_of(from);
        match (self.dmarc.as_deref(), self.dmarc_from.as_deref()) {
            (Some("fail"), _) => return Some("dmarc=fail".into()),
            (Some("pass"), Some(d)) if d.trim_end_matches('.') != domain => {
                return Some(format!(
                    "dmarc=pass for {d}, not the From's domain {domain}"
                ))
            }
            (Some("pass"), _) => return None,
            _ => {}
        }
        if self
            .dkim_domains
            .iter()
            .any(|d| crate::ident::aligned(d, &domain))
        {
            return None;
        }
        if self.spf.as_deref() == Some("fail") {
            let mut why = "spf=fail without a DMARC pass".to_string();
            if !self.dkim_domains.is_empty() {
                why.push_str(&format!(
                    "; dkim=pass for {} only, not aligned with {domain}",
                    self.dkim_domains.join(", ")
                ));
            }
            return Some(why);
        }
        None
    }
}

/// `value` without its RFC 5322 comments (parenthesised, nested, `\` escapes), quoted
/// strings kept: a verdict inside a comment is no verdict.
fn without_comments(value: &str) -> String {
    let mut out = String::with_capacity(value.len());
    let (mut depth, mut quoted, mut escaped) = (0usize, false, false);
    for c in value.chars() {
        if escaped {
            escaped = false;
            if depth == 0 {
                out.push(c);
            }
            continue;
        }
        match c {
            '\\' if depth > 0 || quoted => escaped = true,
            '"' if depth == 0 => {
                quoted = !quoted;
                out.push(c);
            }
            '(' if !quoted => depth += 1,
            ')' if !quoted && depth > 0 => {
                depth -= 1;
                if depth == 0 {
                    out.push(' ');
                }
            }
            c if depth == 0 => out.push(c),
            _ => {}
        }
    }
    out
}

/// One mail to send. The Message-ID is stable: handling the same input again gives the
/// same IDs, so a resent reply is recognised as the same mail.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Outbound {
    pub message_id: String,
    pub to: String,
    pub subject: String,
    pub body: String,
    pub in_reply_to: Option<String>,
    pub references: Vec<String>,
    /// Machine-readable facts for programs (bots, the demo, the benchmark), never prose:
    /// `X-Castellan-Game` and `X-Castellan-Token` on a welcome mail. Rewording a template
    /// cannot change them.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub headers: Vec<(String, String)>,
    /// The same content as `body` as an HTML page with the board's picture (SVG inline):
    /// sent as `multipart/alternative` beside the text. `None`: text only (a game that
    /// draws no picture, a reader who chose `SET FORMAT TEXT`, or a mail that is no report).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub html: Option<String>,
    /// Files the mail carries (VERIFY: the dice script): sent as `multipart/mixed`, the
    /// text (or text and HTML) first.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub attachments: Vec<Attachment>,
}

/// A file a mail carries: its name, its `Content-Type` and its bytes.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Attachment {
    /// `verify_dice.py`: letters, digits, `.`, `-` and `_` (others are dropped when sent).
    pub filename: String,
    /// `text/x-python`.
    pub content_type: String,
    pub content: Vec<u8>,
}
