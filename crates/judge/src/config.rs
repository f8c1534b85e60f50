//! The judge's settings (the `judge:` section of config/castellan.yaml).
//! docs/commands.md lists every key with its default; keep the two in step.

use castellan_engine::Lang;
use serde::{Deserialize, Serialize};

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct JudgeConfig {
    /// The judge's own address (From of every mail; plus-addresses carry tokens).
    pub address: String,
    /// Domain of the Message-IDs the judge makes.
    pub domain: String,
    /// Hours to answer a prompt, unless the game sets its own.
    pub deadline_hours: u32,
    /// Reminder this many hours before a deadline (0: no reminders).
    pub reminder_hours: u32,
    /// Orders still accepted this many hours after a deadline before the default is played.
    pub grace_hours: u32,
    /// Deadlines missed in a row before a bot stands in and the game master is told.
    pub max_misses: u32,
    /// Vacation days a player may take per game.
    pub vacation_limit_days: u32,
    /// Mails per sender per hour without a right token or password, and as many again with
    /// one; a mail past its allowance is not read (one warning reply an hour).
    pub rate_limit_per_hour: u32,
    /// Largest body read, in bytes; longer bodies are refused with a reply.
    pub max_body_bytes: usize,
    /// Most lines read from one mail (orders and PRESS lines included).
    pub max_lines: usize,
    /// Most commands (lines that are not orders) read from one mail; the rest of the
    /// mail is skipped and the reply says from which line.
    pub max_commands: usize,
    /// Most bytes of the reply to one mail (and, past 16 KiB, at most 10 × the mail);
    /// answers past it are left out and named.
    pub max_reply_bytes: usize,
    /// Addresses allowed to CREATE games by mail (empty: anyone). A listed address must
    /// also give `creator_password` (PASSWORD line before CREATE): a From proves nothing.
    pub creators: Vec<String>,
    /// The creators' password (empty: nobody can CREATE by mail while `creators` is set).
    pub creator_password: String,
    /// Highest value of the deadline a game master may set, in hours.
    pub max_deadline_hours: u32,
    /// The language of mails to readers who chose none and whose game has none (en, fr).
    pub language: Lang,
    /// Double opt-in: an address named by someone else (CREATE, REPLACE) that never wrote
    /// to the judge gets one mail, with a confirmation paragraph, and nothing more until it
    /// writes (crate::optin).
    pub confirm_addresses: bool,
    /// New games created by mail (CREATE, the first round of a tournament) in an hour, on
    /// the whole server; past it CREATE is refused until the hour ends (crate::optin).
    pub new_games_per_hour: u32,
    /// Confirmations (the one mail an address named by someone else gets before it has
    /// confirmed) sent in an hour, on the whole server; past it they are held (crate::optin).
    pub confirmations_per_hour: u32,
    /// Hard bounces (delivery status notifications of a `5.x.x` failure about a mail of
    /// the judge's) before an address gets no more mail and its games' game masters are
    /// told; a later mail from the address lifts it. 0: bounces are not counted
    /// (crate::bounces).
    pub bounces_before_stop: u32,
    /// Days after which an address's hard bounces, short of `bounces_before_stop`, are
    /// stale: the next one counts from 1 again (Mailman's `bounce_info_stale_after`), so
    /// a mailbox full once a season never adds up to a stop. 0: they never go stale.
    pub bounces_stale_days: u32,
    /// Servers whose `Authentication-Results` headers are trusted (the receiving MTA's
    /// authserv-id, as it writes it); empty: none is. A mail such a header calls forged
    /// (DMARC fails; or SPF fails and no DKIM signature passes) is logged and not answered.
    pub trusted_authserv_ids: Vec<String>,
    /// Argon2id memory per password hash, in KiB (19456: 19 MiB, OWASP's minimum).
    pub password_memory_kib: u32,
    /// Argon2id passes over that memory.
    pub password_iterations: u32,
    /// Argon2id lanes.
    pub password_lanes: u32,
}

impl Default for JudgeConfig {
    fn default() -> JudgeConfig {
        JudgeConfig {
            address: "judge@castellan.invalid".into(),
            domain: "castellan.invalid".into(),
            deadline_hours: 48,
            reminder_hours: 12,
            grace_hours: 0,
            max_misses: 2,
            vacation_limit_days: 14,
            rate_limit_per_hour: 30,
            max_body_bytes: 64 * 1024,
            max_lines: 500,
            max_commands: 20,
            max_reply_bytes: 64 * 1024,
            creators: Vec::new(),
            creator_password: String::new(),
            max_deadline_hours: 24 * 14,
            language: Lang::En,
            confirm_addresses: true,
            new_games_per_hour: 30,
            confirmations_per_hour: 60,
            bounces_before_stop: 3,
            bounces_stale_days: 7,
            trusted_authserv_ids: Vec::new(),
            password_memory_kib: 19 * 1024,
            password_iterations: 2,
            password_lanes: 1,
        }
    }
}
