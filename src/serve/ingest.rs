//! `castellan ingest`: one message from an MTA's pipe (or a file), stored in the Maildir
//! first, then handled if the database is free; every failure of ours defers the mail
//! (exit 75) so the MTA keeps it.

use crate::cli::Cli;
use crate::config::{Config, ConfigSource};
use crate::error::{ShellError, EX_TEMPFAIL};
use crate::serve::env::system_clock;
use crate::serve::runtime::runtime;
use crate::serve::service::Service;
use std::io::Read;
use std::process::ExitCode;

/// What `ingest` prints when it defers a message: the MTA may put it into a bounce, so it
/// names no path, key or internal error (the log has them).
const TEMPFAIL_NOTE: &str = "castellan: temporary failure, see the judge's log";

/// `ingest` as an MTA's pipe runs it: every failure of ours (configuration,
/// permissions, store, journal, even a panic) exits 75 (EX_TEMPFAIL), so the MTA keeps the
/// mail and tries again, and prints only `TEMPFAIL_NOTE`; the detail goes to the log
/// (syslog, or `CASTELLAN_LOG_FILE`).
pub fn main(cli: &Cli, file: &str) -> ExitCode {
    std::panic::set_hook(Box::new(|info| {
        tracing::error!("ingest: {info}");
        eprintln!("{TEMPFAIL_NOTE}");
        std::process::exit(EX_TEMPFAIL.into());
    }));
    let source = ConfigSource::resolve(cli.config.as_deref());
    // Every line ingest logs names the configuration it read (a span's field), without a
    // line of its own for each mail.
    let _span = tracing::info_span!("ingest", config = %source.path.display()).entered();
    tracing::debug!("{}", source.describe());
    match Config::load_for(&source, cli.data_dir.as_deref()).and_then(|c| ingest(c, file)) {
        Ok(code) => code,
        Err(e) => deferred(e),
    }
}

/// A failure of ours in `ingest`: logged in full, `TEMPFAIL_NOTE` printed (and the
/// detail too when stderr is a terminal: an operator at work, never an MTA), exit 75.
pub fn deferred(detail: impl std::fmt::Display) -> ExitCode {
    tracing::error!(
        "ingest: {detail}; the message is deferred (exit 75): the MTA keeps it and tries again"
    );
    use std::io::IsTerminal;
    if std::io::stderr().is_terminal() {
        eprintln!("castellan ingest: {detail}");
    }
    eprintln!("{TEMPFAIL_NOTE}");
    ExitCode::from(EX_TEMPFAIL)
}

/// `ingest`: one message from an MTA's pipe (or a file): stored in the Maildir first,
/// then handled if the database is free. What it prints on a failure is in [`deferred`].
fn ingest(config: Config, file: &str) -> Result<ExitCode, ShellError> {
    // Root on the castellan user's data folder would leave root-owned files there.
    crate::ops::ownership::check(&config.data_dir)?;
    // At most `max_stored_bytes` + 1 bytes are read: a bigger message is never held whole
    // in memory nor stored (200 MB cost 420 MiB and was stored, twice for a
    // duplicate).
    let limit = config.max_stored_bytes;
    let mut raw = Vec::new();
    let read = |input: &mut dyn std::io::Read, raw: &mut Vec<u8>| {
        input
            .take(limit.saturating_add(1) as u64)
            .read_to_end(raw)
            .map(|_| ())
    };
    let mut rest: Box<dyn std::io::Read> = if file == "-" {
        Box::new(std::io::stdin())
    } else {
        match std::fs::File::open(file) {
            Ok(f) => Box::new(f),
            Err(e) => return Ok(deferred(format!("cannot read {file}: {e}"))),
        }
    };
    if let Err(e) = read(&mut *rest, &mut raw) {
        return Ok(deferred(format!("cannot read {file}: {e}")));
    }
    if raw.len() > limit {
        return Ok(refuse_oversized(&raw, &mut *rest, limit));
    }
    // The message is safe on disk first (Maildir, synced); then handled if the
    // database is free. A running daemon holds the database: it takes the
    // message from the Maildir on its next pass.
    let inbox = match castellan_mail::Maildir::open(config.inbox_path()) {
        Ok(m) => m,
        Err(e) => {
            return Ok(deferred(format!(
                "inbox {}: {e}",
                config.inbox_path().display()
            )))
        }
    };
    if let Err(e) = inbox.deliver(&raw) {
        return Ok(deferred(format!(
            "cannot store the message in {}: {e}",
            config.inbox_path().display()
        )));
    }
    // Another `ingest` may hold the database for a moment: wait for it (it takes this
    // message too if it lists the inbox again first). A running `serve` holds it for
    // good and takes the message on its next pass.
    let patience = crate::store::patience(&config.data_dir, std::time::Duration::from_secs(10));
    let svc = match Service::open_waiting(config, system_clock(), patience) {
        Ok(svc) => svc,
        Err(ShellError::Store(e)) if crate::store::SledStore::is_busy_error(&e) => {
            tracing::info!("ingest: stored in the inbox; the database is not free ({e})");
            println!(
                "stored in the inbox; the database is not free: `castellan serve` takes it on its next pass"
            );
            return Ok(ExitCode::SUCCESS);
        }
        // Damaged, gone back in time, or a full disk: the MTA keeps the mail and
        // tries again (the copy in the inbox is recognised, not applied twice).
        Err(e) => return Ok(deferred(e)),
    };
    let n = match svc.process_maildir() {
        Ok(n) => n,
        Err(e) => return Ok(deferred(format!("the message is kept in the inbox: {e}"))),
    };
    // The mail is taken: whatever happens to the sending now, the replies wait in the
    // outbox for the next try (exit 0, or the MTA would deliver the mail again).
    let transport = svc.transport();
    match runtime().and_then(|rt| rt.block_on(svc.drain_outbox(&transport))) {
        Ok((sent, 0)) => println!("handled {n} message(s), sent {sent} mail(s)"),
        Ok((sent, failed)) => {
            tracing::warn!("ingest: {failed} repl(ies) not sent now, kept in the outbox (for retry, or parked)");
            println!(
                "handled {n} message(s), sent {sent} mail(s), {failed} not sent (kept for retry, or parked: `castellan outbox`)"
            )
        }
        Err(e) => {
            tracing::error!("ingest: the replies wait in the outbox: {e}");
            println!("handled {n} message(s); the replies wait in the outbox")
        }
    }
    Ok(ExitCode::SUCCESS)
}

/// A message over `max_stored_bytes`: the rest of it is read and thrown away (an MTA
/// writing into a pipe closed early would count a failure and try again), nothing is
/// stored, and nobody is answered (its sender is whatever its From says: an answer would
/// be backscatter; a real player's mail is far smaller, and the MTA's own size limit, when
/// set, refuses it earlier with a notice to the sending server). Exit 0: the MTA does not
/// try again. Logged with what the headers say.
fn refuse_oversized(head: &[u8], rest: &mut dyn std::io::Read, limit: usize) -> ExitCode {
    let more = std::io::copy(rest, &mut std::io::sink()).unwrap_or(0);
    let total = (head.len() as u64).saturating_add(more);
    let start = &head[..head.len().min(64 * 1024)];
    let (from, id) = match castellan_mail::parse(start, 1024) {
        Ok(m) => (m.from, m.message_id),
        Err(_) => (String::new(), String::new()),
    };
    tracing::warn!(
        bytes = total,
        limit,
        from = %from,
        message_id = %id,
        "ingest: message over max_stored_bytes, not stored and not answered"
    );
    println!(
        "not stored: the message has {total} bytes, over max_stored_bytes ({limit}); nothing is answered"
    );
    ExitCode::SUCCESS
}
