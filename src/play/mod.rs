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

/// A report as JSON (`--json`, for scripts) or as text.
pub fn print_report<R: serde::Serialize>(
    json: bool,
    report: &R,
    text: &str,
) -> Result<(), crate::error::ShellError> {
    if json {
        let j = serde_json::to_string_pretty(report).map_err(|e| {
            crate::error::ShellError::BadInput {
                what: "report".into(),
                why: e.to_string(),
            }
        })?;
        println!("{j}");
    } else {
        print!("{text}");
    }
    Ok(())
}
