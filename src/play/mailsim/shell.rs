//! The simulation's mail through the whole shell (a slice of the seeds, for
//! fidelity): a fresh data folder under the system's temporary folder (removed on drop)
//! holding a real sled database with its journal, a real Maildir inbox and the file
//! outbox, run by the [`Service`](crate::serve::service::Service) that `serve` and `ingest` run.
//!
//! * [`Post::deliver`] is what `castellan ingest` does with a mail an MTA pipes in: the
//!   raw message into the Maildir (tmp/ → new/, synced), the Maildir processed (parse,
//!   journal, judge, sled commit, flush, acknowledge) and the outbox drained to .eml
//!   files. No deadline pass: the pure judge's `handle` runs none either, and the
//!   simulation ticks at its own times.
//! * [`Post::tick`] is one pass of `serve`: the (empty) inbox, the deadlines, the outbox.
//!
//! The mails returned are the .eml files the pass wrote, parsed back with mail-parser,
//! in the order the judge queued them (the outbox's keys, read after the commit and
//! before the drain: the files are named by Message-ID, which says nothing of order).
//!
//! Determinism: the service reads its clock from a cell the shell sets to `env.now`
//! before each pass, and draws `env.entropy` ([`Entropy::Fixed`]), so it judges with
//! the very `Env` the pure judge is given. Nothing else in a pass draws time or
//! randomness that reaches the judge (the worker threads that judge a batch side by side
//! do not start for a batch of one mail; the threads that write replies ahead change
//! only when files are written, not what they hold).

use super::post::{Delivered, Post};
use crate::config::Config;
use crate::play::demo::LocalJudge;
use crate::serve::env::Entropy;
use castellan_judge::{Env, Outbound, Store};
use castellan_mail::Maildir;
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};

/// The mail through sled, the Maildir and the file outbox.
pub struct Shell {
    /// None only while dropping (the service closes before its folder is removed).
    local: Option<LocalJudge>,
    dir: PathBuf,
    inbox: Maildir,
    outbox: PathBuf,
    /// The outbox's .eml files already read.
    seen: BTreeSet<String>,
}

impl Shell {
    /// A fresh data folder and the service on it, configured as [`super::judge`] (its
    /// judge settings, the built-in templates), with no rolling backups.
    pub fn new() -> Result<Shell, String> {
        static MADE: AtomicUsize = AtomicUsize::new(0);
        let dir = std::env::temp_dir().join(format!(
            "castellan-mailsim-{}-{}",
            std::process::id(),
            MADE.fetch_add(1, Ordering::Relaxed)
        ));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).map_err(|e| format!("{}: {e}", dir.display()))?;
        let judge = super::judge();
        let mut base = Config {
            judge: judge.config().clone(),
            // The built-in wording, as the pure judge's: a folder that does not exist.
            templates_dir: dir.join("no-templates"),
            // The same cap on a body as the pure side's parse.
            max_message_bytes: judge.config().max_body_bytes,
            ..Config::default()
        };
        base.backup.every_hours = 0;
        let local = match LocalJudge::open(&base, &dir, 0) {
            Ok(l) => l,
            Err(e) => {
                let _ = std::fs::remove_dir_all(&dir);
                return Err(format!("the service does not open: {e}"));
            }
        };
        let inbox = match Maildir::open(local.svc.config.inbox_path()) {
            Ok(m) => m,
            Err(e) => {
                drop(local);
                let _ = std::fs::remove_dir_all(&dir);
                return Err(format!("the Maildir does not open: {e}"));
            }
        };
        let outbox = local.svc.config.outbox_path();
        Ok(Shell {
            local: Some(local),
            dir,
            inbox,
            outbox,
            seen: BTreeSet::new(),
        })
    }

    /// The data folder (removed on drop).
    pub fn dir(&self) -> &Path {
        &self.dir
    }

    fn local(&self) -> &LocalJudge {
        self.local.as_ref().expect("the service is open until drop")
    }

    /// The pass's clock and entropy: `env`'s.
    fn set(&mut self, env: &Env) {
        let local = self.local.as_mut().expect("the service is open until drop");
        local.now.store(env.now, Ordering::SeqCst);
        local.svc.entropy = Entropy::Fixed(env.entropy);
    }

    /// The inbox processed, the deadlines if `tick`, the outbox drained; the mails the
    /// pass wrote, in the order the judge queued them.
    fn pass(&mut self, tick: bool) -> Result<Vec<Outbound>, String> {
        let local = self.local();
        let svc = &local.svc;
        svc.process_maildir()
            .map_err(|e| format!("the inbox pass failed: {e}"))?;
        let left = self.inbox.list_new().map_err(|e| e.to_string())?;
        if !left.is_empty() {
            return Err(format!("{} mails left in the Maildir's new/", left.len()));
        }
        if tick {
            svc.tick()
                .map_err(|e| format!("the deadline pass failed: {e}"))?;
        }
        let queued: Vec<String> = svc
            .store
            .outbox()
            .map_err(|e| format!("the outbox does not read: {e}"))?
            .into_iter()
            .map(|(_, item)| item.mail.message_id)
            .collect();
        let (_, failed) = local
            .block_on(svc.drain_outbox(&local.transport))
            .map_err(|e| format!("the outbox drain failed: {e}"))?;
        if failed > 0 {
            return Err(format!("{failed} replies were not sent"));
        }
        let waiting = svc.store.outbox().map_err(|e| e.to_string())?.len();
        if waiting > 0 {
            return Err(format!("{waiting} replies still wait in the outbox"));
        }
        self.collect(&queued)
    }

    /// The .eml files not read before, parsed back, in the order of `queued`
    /// (Message-IDs). A file no reply of the pass names, or a reply without its file, is
    /// an error.
    fn collect(&mut self, queued: &[String]) -> Result<Vec<Outbound>, String> {
        let rd = std::fs::read_dir(&self.outbox)
            .map_err(|e| format!("{}: {e}", self.outbox.display()))?;
        let mut new: BTreeSet<String> = rd
            .filter_map(|e| e.ok())
            .filter_map(|e| e.file_name().into_string().ok())
            .filter(|n| n.ends_with(".eml") && !self.seen.contains(n))
            .collect();
        let mut out = Vec::with_capacity(queued.len());
        for id in queued {
            let name = castellan_mail::eml_file_name(id);
            if !new.remove(&name) {
                return Err(format!(
                    "reply {id} was sent but no new {name} is in the outbox"
                ));
            }
            let raw = std::fs::read(self.outbox.join(&name)).map_err(|e| e.to_string())?;
            out.push(parse_back(&raw).map_err(|e| format!("{name}: {e}"))?);
            self.seen.insert(name);
        }
        if !new.is_empty() {
            return Err(format!("files no reply of the pass names: {new:?}"));
        }
        Ok(out)
    }
}

impl Post for Shell {
    fn deliver(&mut self, raw: &[u8], env: &Env) -> Result<Delivered, String> {
        // As the service reads it (same function, same cap).
        let max = self.local().svc.config.max_message_bytes;
        let read = castellan_mail::parse(raw, max)
            .map_err(|e| format!("the mail layer refused the mail: {e}"))?;
        self.inbox
            .deliver(raw)
            .map_err(|e| format!("the Maildir refused the mail: {e}"))?;
        self.set(env);
        let out = self.pass(false)?;
        Ok(Delivered {
            read,
            out,
            slow_hashes: None,
        })
    }

    fn tick(&mut self, env: &Env) -> Result<Vec<Outbound>, String> {
        self.set(env);
        self.pass(true)
    }

    fn store(&self) -> &dyn Store {
        &self.local().svc.store
    }
}

impl Drop for Shell {
    fn drop(&mut self) {
        drop(self.local.take());
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}

/// A rendered .eml file back into the reply it was made from: the text/plain part as
/// the body, the HTML part if any, the judge's own headers (`X-Castellan-*`,
/// `List-Unsubscribe`: what the renderer passes on of `Outbound::headers`), Message-IDs
/// in angle brackets as the judge writes them.
pub fn parse_back(raw: &[u8]) -> Result<Outbound, String> {
    use mail_parser::{HeaderValue, MessageParser, MimeHeaders as _, PartType};
    let msg = MessageParser::default()
        .parse(raw)
        .ok_or("mail-parser cannot read it")?;
    let to = msg
        .to()
        .and_then(|a| a.first())
        .and_then(|a| a.address())
        .ok_or("no To address")?
        .to_string();
    let ids = |v: &HeaderValue| -> Vec<String> {
        match v {
            HeaderValue::Text(t) => vec![format!("<{t}>")],
            HeaderValue::TextList(l) => l.iter().map(|t| format!("<{t}>")).collect(),
            _ => Vec::new(),
        }
    };
    let message_id = msg
        .message_id()
        .map(|id| format!("<{id}>"))
        .ok_or("no Message-ID")?;
    let in_reply_to = ids(msg.in_reply_to()).into_iter().next();
    let references = ids(msg.references());
    let headers = msg
        .headers()
        .iter()
        .filter(|h| {
            let n = h.name();
            n.len() > 12 && n[..12].eq_ignore_ascii_case("x-castellan-")
                || n.eq_ignore_ascii_case("list-unsubscribe")
        })
        .filter_map(|h| {
            // As written, unfolded.
            let v = raw.get(h.offset_start as usize..h.offset_end as usize)?;
            let v = std::str::from_utf8(v).ok()?.replace("\r\n", "");
            Some((h.name().to_string(), v.trim().to_string()))
        })
        .collect();
    // The parts as they are, not mail-parser's conversions between text and HTML; the
    // text joined back from its format=flowed lines, as a reader's client joins it.
    let part = |ids: &[u32], html: bool| {
        let part = msg.parts.get(*ids.first()? as usize)?;
        let flowed = part
            .content_type()
            .and_then(|ct| ct.attribute("format"))
            .is_some_and(|f| f.eq_ignore_ascii_case("flowed"));
        match (&part.body, html) {
            (PartType::Text(t), false) if flowed => {
                Some(castellan_mail::unflow(&t.replace("\r\n", "\n"), false))
            }
            (PartType::Text(t), false) | (PartType::Html(t), true) => Some(t.replace("\r\n", "\n")),
            _ => None,
        }
    };
    let body = part(&msg.text_body, false).ok_or("no text/plain part")?;
    let html = part(&msg.html_body, true);
    let attachments = msg
        .attachments()
        .map(|a| {
            use mail_parser::MimeHeaders;
            let ct = a.content_type();
            castellan_judge::Attachment {
                filename: a.attachment_name().unwrap_or_default().to_string(),
                content_type: ct
                    .map(|c| format!("{}/{}", c.ctype(), c.subtype().unwrap_or_default()))
                    .unwrap_or_default(),
                content: a.contents().to_vec(),
            }
        })
        .collect();
    Ok(Outbound {
        message_id,
        to,
        subject: msg.subject().unwrap_or_default().to_string(),
        body,
        in_reply_to,
        references,
        headers,
        html,
        attachments,
    })
}
