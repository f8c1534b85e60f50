//! Castellan's mail edge: raw RFC 5322 bytes in, [`Inbound`] out; [`OutgoingMail`] in,
//! an email on the wire out. No game or judge knowledge lives here.
//!
//! - [`parse`]: mail-parser, text/plain with an HTML-only fallback, quoted replies and
//!   signatures stripped ([`strip_quoted`]), attachments listed and ignored, a size cap, and
//!   the hygiene verdict ([`Inbound::automatic`]): mail we must never answer; a delivery
//!   status notification read ([`Inbound::bounce`], dsn.rs) for the judge to count.
//! - [`render`] / [`Transport::send`]: lettre; every reply is threaded and says it is
//!   automatic (`Auto-Submitted: auto-replied`, `X-Auto-Response-Suppress: All`).
//! - [`Maildir`]: the embedded default inbox (tmp → new → cur).
//! - [`ImapInbox`]: IMAP over plain TCP or TLS (tokio-rustls); fetching never sets `\Seen`,
//!   [`ImapInbox::mark_seen`] does, after the judge committed.
//! - TLS, for IMAP ([`ImapTls`]) and SMTP ([`SmtpSecurity`]): the server's certificate is
//!   checked against the webpki roots plus an optional PEM CA file (a private CA or a
//!   self-signed server; [`check_ca_file`] tests one at start-up).

mod dsn;
mod hidden;
mod imap;
mod maildir;
mod parse;
mod quote;
mod render;
mod tls;
mod transport;

pub use dsn::{read_dsn, Dsn, DsnRecipient};
pub use hidden::visible_html;
pub use imap::{ImapError, ImapInbox, ImapStream, ImapTls};
pub use maildir::{delivered_name, device_flushes, note_device_flush, sync_dir, Maildir};
pub use parse::{
    automatic_reason, castellan_headers, parse, unflow, Inbound, ParseError, TRUNCATION_NOTE,
};
pub use quote::{flatten_html, strip_html_quotes, strip_html_reply, strip_quoted};
pub use render::{render, try_render, OutgoingMail, RenderError};
pub use tls::check_ca_file;
pub use transport::{
    eml_file_name, prestage, sync_filesystem, Mailer, SendError, SmtpSecurity, Staged, Transport,
};

/// For the tests of a server that never answers: a port on 127.0.0.1 that
/// accepts every connection and holds it, silent.
#[cfg(test)]
pub(crate) fn silent_server() -> u16 {
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let port = listener.local_addr().unwrap().port();
    std::thread::spawn(move || {
        let mut held = Vec::new();
        for c in listener.incoming() {
            held.push(c);
        }
    });
    port
}
