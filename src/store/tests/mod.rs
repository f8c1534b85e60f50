//! The store's unit tests: sled on disk in a temporary folder, by subject: its indexes
//! (due times, tokens, addresses, gauges, the highest game number), the outbox (its
//! values' encoding, the retry index), the commit (groups, replies encoded ahead), the
//! opening (the compaction lock, older databases' marks), the games kept decoded in
//! memory (`caching.rs`).

use super::*;

mod caching;
mod committing;
mod indexes;
mod opening;
mod replies;

/// A reply with an HTML part of `html_bytes` (0: an empty one).
fn reply(html_bytes: usize) -> Outbound {
    // An HTML part of a picture's size: varied text, as an SVG is.
    let mut html = String::with_capacity(html_bytes);
    let mut n = 0u64;
    while html.len() < html_bytes {
        n += 1;
        html.push_str(&format!(
            "<text x=\"{}\" y=\"{}\">Prussia {}</text>\n",
            n * 7 % 600,
            n * 13 % 400,
            n % 9
        ));
    }
    Outbound {
        message_id: "<r1@judge.example>".into(),
        to: "ann@example.org".into(),
        subject: "[castle-1] Turn 3".into(),
        body: "Waiting for: Ann\n".into(),
        in_reply_to: None,
        references: Vec::new(),
        headers: Vec::new(),
        html: Some(html),
        attachments: Vec::new(),
    }
}
