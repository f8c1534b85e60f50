//! One log line per mail, as Postfix writes one per message: which mail (its Maildir file
//! or IMAP id, and its Message-ID), who sent it (in full or hashed: `log.addresses`), the
//! games it touched, what the judge answered and how many replies it queued; and one line
//! per reply sent or parked. Each line is logged once the mail is handled for good (its
//! batch flushed), under the target `castellan::mail`, at `info` (a parked reply at
//! `warn`), with the fields as key=value pairs (`--log-format json`: as JSON fields), so
//! `journalctl -t castellan` or a grep for a sender or a Message-ID finds a mail's whole
//! story.

use crate::config::AddressLog;
use castellan_judge::{Changes, Inbound};
use sha2::Digest;

/// The target of these lines, for a `CASTELLAN_LOG` filter (`castellan::mail=info`).
pub const TARGET: &str = "castellan::mail";

/// What became of one inbound mail, to be logged once it is handled for good.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MailLine {
    /// The Maildir file's name (Postfix's queue id, as it were), or empty (IMAP).
    pub queue_id: String,
    pub message_id: String,
    pub from: String,
    /// Ids of the games it created or changed.
    pub games: Vec<String>,
    /// What the judge answered (`family/kind[/reason]`, comma-separated), or
    /// `duplicate`, `unreadable`, `held` (a game in quarantine), `ignored`.
    pub outcome: String,
    /// Replies queued in the outbox.
    pub replies: usize,
}

impl MailLine {
    /// A mail judged and committed.
    pub fn judged(queue_id: &str, mail: &Inbound, changes: &Changes) -> MailLine {
        let mut games: Vec<String> = changes
            .games
            .iter()
            .map(|g| g.id.clone())
            .chain(changes.headers.iter().map(|h| h.id.clone()))
            .collect();
        games.sort();
        games.dedup();
        let mut answers: Vec<&str> = Vec::new();
        for a in &changes.answers {
            if !answers.contains(&a.as_str()) {
                answers.push(a);
            }
        }
        let outcome = if answers.is_empty() {
            "ignored".to_string()
        } else {
            answers.join(",")
        };
        MailLine {
            games,
            outcome,
            replies: changes.outbox.len(),
            ..MailLine::other(queue_id, Some(mail), "")
        }
    }

    /// A mail not judged: `outcome` says why (`duplicate`, `held`, `unreadable: ...`).
    pub fn other(queue_id: &str, mail: Option<&Inbound>, outcome: &str) -> MailLine {
        MailLine {
            queue_id: queue_id.to_string(),
            message_id: mail.map(|m| m.message_id.clone()).unwrap_or_default(),
            from: mail.map(|m| m.from.clone()).unwrap_or_default(),
            games: Vec::new(),
            outcome: outcome.to_string(),
            replies: 0,
        }
    }

    /// The line, logged.
    pub fn log(&self, addresses: AddressLog) {
        let games = if self.games.is_empty() {
            "-".to_string()
        } else {
            self.games.join(",")
        };
        tracing::info!(
            target: TARGET,
            queue_id = %or_dash(&self.queue_id),
            message_id = %or_dash(&self.message_id),
            from = %address(&self.from, addresses),
            games = %games,
            outcome = %self.outcome,
            replies = self.replies,
            "mail"
        );
    }
}

/// A reply the transport took.
pub fn reply_sent(message_id: &str, to: &str, addresses: AddressLog) {
    tracing::info!(
        target: TARGET,
        message_id = %message_id,
        to = %address(to, addresses),
        "reply sent"
    );
}

/// A reply not sent: parked for good (`retry`: None) or tried again later.
pub fn reply_failed(
    message_id: &str,
    to: &str,
    addresses: AddressLog,
    attempts: u32,
    retry_in: Option<u64>,
    why: &dyn std::fmt::Display,
) {
    let to = address(to, addresses);
    match retry_in {
        None => tracing::warn!(
            target: TARGET,
            message_id = %message_id,
            to = %to,
            attempts,
            error = %why,
            "reply parked (castellan outbox --retry sends it again)"
        ),
        Some(secs) => tracing::info!(
            target: TARGET,
            message_id = %message_id,
            to = %to,
            attempts,
            retry_in = secs,
            error = %why,
            "reply deferred"
        ),
    }
}

fn or_dash(s: &str) -> &str {
    if s.is_empty() {
        "-"
    } else {
        s
    }
}

/// An address as the log shows it: as it is, or `sha256:` and the first 16 hex digits of
/// the digest of its lower-case form (the same address, the same digest: grep finds a
/// sender's mails without the log naming anyone). A digest of an address can be checked
/// against a guess: it hides addresses from a reader of the log, not from one who already
/// knows them.
pub fn address(a: &str, addresses: AddressLog) -> String {
    match (a.is_empty(), addresses) {
        (true, _) => "-".to_string(),
        (false, AddressLog::Full) => a.to_string(),
        (false, AddressLog::Hashed) => {
            let digest = sha2::Sha256::digest(a.trim().to_lowercase().as_bytes());
            format!("sha256:{}", &hex::encode(digest)[..16])
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_hashed_address_is_the_same_for_the_same_address_and_names_nobody() {
        let a = address("Ann@Example.org", AddressLog::Hashed);
        assert_eq!(a, address("ann@example.org", AddressLog::Hashed));
        assert!(a.starts_with("sha256:") && a.len() == 7 + 16, "{a}");
        assert!(!a.contains("ann"));
        assert_ne!(a, address("bob@example.org", AddressLog::Hashed));
        assert_eq!(
            address("ann@example.org", AddressLog::Full),
            "ann@example.org"
        );
        assert_eq!(address("", AddressLog::Hashed), "-");
    }
}
