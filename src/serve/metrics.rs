//! Optional metrics for `castellan serve`, in Prometheus' text format, on a 127.0.0.1 port
//! (`metrics.listen` in the config; off by default). Counters come from the daemon's loop;
//! gauges are read from the database at each scrape: the games' from counts the store keeps
//! as it writes them (src/store/gauges.rs), so a scrape reads a few keys however many games
//! there are; the outbox's from its keys and its retry index, no reply decoded.
//!
//! | metric | kind | what |
//! |---|---|---|
//! | `castellan_mails_in_total` | counter | messages taken from the inboxes (Maildir, IMAP) |
//! | `castellan_mails_out_total` | counter | replies the transport accepted |
//! | `castellan_send_failures_total` | counter | send attempts that failed (retried or parked) |
//! | `castellan_deadline_mails_total` | counter | mails made by deadlines (reminders, defaults) |
//! | `castellan_errors_total{stage}` | counter | failed passes: `inbox`, `deadlines`, `outbox` |
//! | `castellan_inbox_pass_seconds` | summary | time to take and handle the waiting messages, per pass that took any (`_sum`, `_count`) |
//! | `castellan_outbox_waiting`, `castellan_outbox_parked` | gauge | replies waiting; parked after failures |
//! | `castellan_games{status}` | gauge | games by status |
//! | `castellan_deadlines_pending` | gauge | games waiting on a deadline |
//! | `castellan_next_deadline_seconds` | gauge | seconds to the nearest deadline (absent when none) |

use crate::store::SledStore;
use std::fmt::Write as _;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;

#[derive(Default)]
pub struct Metrics {
    pub mails_in: AtomicU64,
    pub mails_out: AtomicU64,
    pub send_failures: AtomicU64,
    pub deadline_mails: AtomicU64,
    pub inbox_errors: AtomicU64,
    pub deadline_errors: AtomicU64,
    pub outbox_errors: AtomicU64,
    /// Microseconds, summed over inbox passes that took messages.
    pub inbox_pass_micros: AtomicU64,
    pub inbox_passes: AtomicU64,
    /// The judge's answers by `family/kind[/reason]`, counted by the service.
    pub answers: std::sync::Arc<std::sync::Mutex<std::collections::BTreeMap<String, u64>>>,
}

impl Metrics {
    pub fn add(counter: &AtomicU64, n: u64) {
        counter.fetch_add(n, Ordering::Relaxed);
    }

    /// The exposition: counters, then gauges read from `store` at time `now` (none while
    /// there is no store: `serve` is compacting the database).
    pub fn render(&self, store: Option<&SledStore>, now: i64) -> String {
        let mut s = String::new();
        self.counters(&mut s);
        if let Some(store) = store {
            gauges(store, now, &mut s);
        }
        s
    }

    /// The counters, kept since start.
    fn counters(&self, s: &mut String) {
        let get = |c: &AtomicU64| c.load(Ordering::Relaxed);
        let mut counter = |name: &str, help: &str, v: u64| {
            let _ = writeln!(s, "# HELP {name} {help}\n# TYPE {name} counter\n{name} {v}");
        };
        counter(
            "castellan_mails_in_total",
            "Messages taken from the inboxes.",
            get(&self.mails_in),
        );
        counter(
            "castellan_mails_out_total",
            "Replies the transport accepted.",
            get(&self.mails_out),
        );
        counter(
            "castellan_send_failures_total",
            "Send attempts that failed (retried or parked).",
            get(&self.send_failures),
        );
        counter(
            "castellan_deadline_mails_total",
            "Mails made by deadlines (reminders, defaults).",
            get(&self.deadline_mails),
        );
        let _ = writeln!(
            s,
            "# HELP castellan_errors_total Failed passes by stage.\n# TYPE castellan_errors_total counter"
        );
        for (stage, c) in [
            ("inbox", &self.inbox_errors),
            ("deadlines", &self.deadline_errors),
            ("outbox", &self.outbox_errors),
        ] {
            let _ = writeln!(s, "castellan_errors_total{{stage=\"{stage}\"}} {}", get(c));
        }
        let _ = writeln!(
            s,
            "# HELP castellan_answers_total The judge's answers to mail, by command family, \
             kind and reason (refusals among them: kind \"refused\" and the like).\n\
             # TYPE castellan_answers_total counter"
        );
        if let Ok(counts) = self.answers.lock() {
            for (label, n) in counts.iter() {
                let mut parts = label.splitn(3, '/');
                let family = parts.next().unwrap_or("");
                let kind = parts.next().unwrap_or("");
                let reason = parts.next().unwrap_or("");
                let _ = writeln!(
                    s,
                    "castellan_answers_total{{family=\"{family}\",kind=\"{kind}\",reason=\"{reason}\"}} {n}"
                );
            }
        }
        let _ = writeln!(
            s,
            "# HELP castellan_inbox_pass_seconds Time to take and handle the waiting messages, per pass that took any.\n\
             # TYPE castellan_inbox_pass_seconds summary\n\
             castellan_inbox_pass_seconds_sum {}\ncastellan_inbox_pass_seconds_count {}",
            get(&self.inbox_pass_micros) as f64 / 1e6,
            get(&self.inbox_passes)
        );
    }
}

/// The gauges, read from `store` at time `now`.
fn gauges(store: &SledStore, now: i64, s: &mut String) {
    let mut gauge = |name: &str, help: &str, lines: Vec<String>| {
        let _ = writeln!(s, "# HELP {name} {help}\n# TYPE {name} gauge");
        for l in lines {
            let _ = writeln!(s, "{l}");
        }
    };
    // Counted without decoding a reply (store/retry.rs): cheap during a relay outage too.
    if let Ok(c) = store.outbox_counts() {
        gauge(
            "castellan_outbox_waiting",
            "Replies waiting to be sent.",
            vec![format!("castellan_outbox_waiting {}", c.waiting)],
        );
        gauge(
            "castellan_outbox_parked",
            "Replies parked after failures.",
            vec![format!("castellan_outbox_parked {}", c.parked)],
        );
    }
    // Kept as the games are written (src/store/gauges.rs): a few keys, not every header.
    if let Ok(g) = store.game_gauges() {
        gauge(
            "castellan_games",
            "Games by status.",
            g.by_status
                .iter()
                .map(|(k, v)| format!("castellan_games{{status=\"{k}\"}} {v}"))
                .collect(),
        );
        gauge(
            "castellan_deadlines_pending",
            "Games waiting on a deadline.",
            vec![format!("castellan_deadlines_pending {}", g.deadlines)],
        );
        if let Some(d) = g.next_deadline {
            gauge(
                "castellan_next_deadline_seconds",
                "Seconds to the nearest deadline (negative: overdue, run at the next tick).",
                vec![format!("castellan_next_deadline_seconds {}", d - now)],
            );
        }
    }
}

/// Refuses an address that is not on the loopback interface: the metrics are not for the
/// network at large.
pub fn check_listen(listen: &str) -> Result<std::net::SocketAddr, String> {
    let addr: std::net::SocketAddr = listen
        .parse()
        .map_err(|e| format!("metrics.listen \"{listen}\": {e} (write it as 127.0.0.1:PORT)"))?;
    if !addr.ip().is_loopback() {
        return Err(format!(
            "metrics.listen \"{listen}\": only a loopback address (127.0.0.1:PORT) is allowed"
        ));
    }
    Ok(addr)
}

/// Answers every HTTP request on `listener` with the exposition (any path; the request is
/// read up to its blank line, at most 8 KiB).
pub async fn serve(
    listener: tokio::net::TcpListener,
    metrics: Arc<Metrics>,
    store: tokio::sync::watch::Receiver<Option<SledStore>>,
    clock: crate::serve::env::Clock,
) {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    loop {
        let Ok((mut conn, _)) = listener.accept().await else {
            continue;
        };
        let metrics = metrics.clone();
        let store = store.clone();
        let now = clock();
        tokio::spawn(async move {
            let mut buf = vec![0u8; 8192];
            let mut len = 0;
            let read = tokio::time::timeout(std::time::Duration::from_secs(5), async {
                while len < buf.len() {
                    match conn.read(&mut buf[len..]).await {
                        Ok(0) | Err(_) => break,
                        Ok(n) => len += n,
                    }
                    if buf[..len].windows(4).any(|w| w == b"\r\n\r\n")
                        || buf[..len].windows(2).any(|w| w == b"\n\n")
                    {
                        break;
                    }
                }
            })
            .await;
            if read.is_err() {
                return;
            }
            // Taken once the request is read, let go once answered: `serve` waits for every
            // handle of the database before it compacts it.
            let store = store.borrow().clone();
            let body = metrics.render(store.as_ref(), now);
            drop(store);
            let head = format!(
                "HTTP/1.1 200 OK\r\nContent-Type: text/plain; version=0.0.4; charset=utf-8\r\n\
                 Content-Length: {}\r\nConnection: close\r\n\r\n",
                body.len()
            );
            let _ = conn.write_all(head.as_bytes()).await;
            let _ = conn.write_all(body.as_bytes()).await;
            let _ = conn.shutdown().await;
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_loopback_addresses_are_taken() {
        assert!(check_listen("127.0.0.1:9464").is_ok());
        assert!(check_listen("[::1]:9464").is_ok());
        assert!(check_listen("0.0.0.0:9464")
            .unwrap_err()
            .contains("loopback"));
        assert!(check_listen("localhost").is_err());
    }
}
