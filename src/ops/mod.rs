//! The operator's commands on a data folder: backups, recovery, compaction, checks,
//! export and import, pictures.
//!
//! * [`admin`]: `game ...`, `campaign ...`, `verify`, `outbox`.
//! * [`backup`](mod@backup): whole-database backups, streamed; the rolling backups of `serve`.
//! * [`ownership`]: root refused on a data folder of another user's.
//! * [`recover`]: `castellan recover`, the database rebuilt from a backup and the journal.
//! * [`compact`]: `castellan compact`, the database rewritten with its live records only.
//! * [`doctor`]: `castellan doctor`, the operator's checks with a fix for each problem.
//! * [`transfer`]: export and import of one game or campaign.
//! * [`render`](mod@render): `castellan render`, a stored game's picture at any turn.

pub mod admin;
pub mod backup;
pub mod compact;
pub mod doctor;
pub mod ownership;
pub mod recover;
pub mod render;
pub mod rolling;
pub mod transfer;
