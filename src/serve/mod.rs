//! The judge at work: mail in, judged, committed, answered.
//!
//! * [`service`]: parse → judge → commit → acknowledge, for one mail or a batch.
//! * `batch`: the inbox in batches, committed in groups; `outbox`: replies sent, with retries.
//! * [`optimistic`]: a batch's mails judged side by side, committed in order.
//! * `rollforward`: journal entries past the database replayed at open and before a pass.
//! * [`prestage`]: a batch's replies rendered and written (hidden) while it is handled.
//! * [`pass`]: one pass (every inbox, the deadlines, the outbox), with IMAP polling.
//! * [`admin_socket`]: the running daemon's admin socket (`game ...`, `outbox`, ... while it runs).
//! * [`ingest`]: `castellan ingest`, one mail from an MTA's pipe.
//! * [`daemon`]: `serve`, its tokio loop; `drain`: its outbox sent on a task of its own;
//!   [`metrics`]: its optional Prometheus page.
//! * [`env`](mod@env): the clock and the entropy; [`templates`]: the mail templates read at run time.

pub mod admin_socket;
mod batch;
pub mod daemon;
mod drain;
pub mod env;
pub mod ingest;
pub mod maillog;
pub mod metrics;
pub mod optimistic;
mod outbox;
pub mod pass;
pub mod prestage;
pub mod reload;
mod rollforward;
pub mod runtime;
pub mod service;
pub mod templates;
pub mod workers;
