//! Games played without people: bot players through the real pipeline, demos, the
//! simulators and the benchmark.
//!
//! * [`players`]: bot players that play by mail through the real pipeline.
//! * [`demo`]: one whole game by email on the embedded defaults; [`tournament_demo`]: a
//!   whole campaign.
//! * [`simulate`]: engine-only games; [`mailsim`]: a population playing by mail.
//! * [`bench`](mod@bench): the end-to-end benchmark; [`budget`]: what a game's mail costs.

pub mod bench;
pub mod budget;
pub mod demo;
pub mod mailsim;
pub mod players;
pub mod simulate;
pub mod tournament_demo;
