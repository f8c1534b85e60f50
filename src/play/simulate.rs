//! `castellan simulate`: bots play whole games through the engine (no mail, no store) and
//! every game is replayed from its seed to prove it is reproducible.

use castellan_engine::{GameInfo, Secret};
use serde::Serialize;
use std::time::Instant;

#[derive(Clone)]
pub struct SimulateSettings {
    pub game: GameInfo,
    pub players: usize,
    pub games: usize,
    pub seed: u64,
    pub options: Vec<(String, String)>,
    /// Orders after which a game is stopped and reported as capped.
    pub order_cap: usize,
    /// Replay every game from its seed and compare (costs about as much as playing).
    pub replay: bool,
}

/// The JSON `--json` prints (field names are relied on by scripts: keep them).
#[derive(Debug, Clone, Serialize)]
pub struct SimulateReport {
    pub game: String,
    pub players: usize,
    pub options: Vec<String>,
    pub seed: u64,
    pub games: usize,
    /// Games that ended with an outcome (a winner, or a draw where the game has draws).
    pub finished: usize,
    /// Games stopped by the order cap (never silent: counted here).
    pub capped: usize,
    /// Games with a winner.
    pub decided: usize,
    pub draws: usize,
    pub replayed_identically: usize,
    pub turns_mean: f64,
    pub turns_max: u32,
    pub orders_mean: f64,
    pub wins_by_seat: Vec<usize>,
    pub games_per_sec: f64,
    pub orders_per_sec: f64,
    pub errors: Vec<String>,
}

/// The master secret of simulated game `i` under `seed` (so one game can be replayed alone).
pub fn game_secret(game: &str, seed: u64, i: usize) -> Secret {
    Secret::derive(format!("castellan-simulate/{game}/{seed}/{i}").as_bytes())
}

pub fn run(s: &SimulateSettings) -> SimulateReport {
    run_with(s, &mut |_| {})
}

/// [`run`], calling `each_game` after every game (the command's progress).
pub fn run_with(s: &SimulateSettings, each_game: &mut dyn FnMut(usize)) -> SimulateReport {
    let start = Instant::now();
    let mut r = SimulateReport {
        game: s.game.name.to_string(),
        players: s.players,
        options: s.options.iter().map(|(k, v)| format!("{k}={v}")).collect(),
        seed: s.seed,
        games: s.games,
        finished: 0,
        capped: 0,
        decided: 0,
        draws: 0,
        replayed_identically: 0,
        turns_mean: 0.0,
        turns_max: 0,
        orders_mean: 0.0,
        wins_by_seat: vec![0; s.players],
        games_per_sec: 0.0,
        orders_per_sec: 0.0,
        errors: Vec::new(),
    };
    let (mut turns, mut orders) = (0u64, 0u64);
    for i in 0..s.games {
        let id = format!("sim-{}-{i}", s.seed);
        let secret = game_secret(s.game.name, s.seed, i);
        match (s.game.simulate)(&id, secret, s.players, &s.options, s.order_cap, s.replay) {
            Err(e) => {
                if r.errors.len() < 10 {
                    r.errors.push(format!("game {i}: {e}"));
                }
            }
            Ok((played, replayed)) => {
                turns += played.turns as u64;
                orders += played.orders as u64;
                r.turns_max = r.turns_max.max(played.turns);
                if replayed {
                    r.replayed_identically += 1;
                }
                if played.capped {
                    r.capped += 1;
                }
                if let Some(o) = played.outcome {
                    r.finished += 1;
                    if o.winners.is_empty() {
                        r.draws += 1;
                    } else {
                        r.decided += 1;
                    }
                    for w in o.winners {
                        if let Some(c) = r.wins_by_seat.get_mut(w) {
                            *c += 1;
                        }
                    }
                }
            }
        }
        each_game(i + 1);
    }
    let secs = start.elapsed().as_secs_f64().max(1e-9);
    let n = s.games.max(1) as f64;
    r.turns_mean = turns as f64 / n;
    r.orders_mean = orders as f64 / n;
    r.games_per_sec = s.games as f64 / secs;
    r.orders_per_sec = orders as f64 / secs;
    r
}

impl SimulateReport {
    pub fn text(&self) -> String {
        let mut out = format!(
            "{} with {} players{}: {} games, {} finished ({} won, {} drawn), {} capped, {} replayed identically\n",
            self.game,
            self.players,
            if self.options.is_empty() { String::new() } else { format!(" ({})", self.options.join(", ")) },
            self.games,
            self.finished,
            self.decided,
            self.draws,
            self.capped,
            self.replayed_identically
        );
        out += &format!(
            "turns: mean {:.1}, max {}; orders per game: mean {:.1}\n",
            self.turns_mean, self.turns_max, self.orders_mean
        );
        out += &format!(
            "wins by seat: {}\n",
            self.wins_by_seat
                .iter()
                .enumerate()
                .map(|(i, w)| format!("{}: {w}", i + 1))
                .collect::<Vec<_>>()
                .join(", ")
        );
        out += &format!(
            "speed: {:.1} games/s, {:.0} orders/s\n",
            self.games_per_sec, self.orders_per_sec
        );
        for e in &self.errors {
            out += &format!("ERROR {e}\n");
        }
        out
    }
}

/// `castellan simulate`: engine-only games, or with `--by-mail` a population playing by
/// mail ([`crate::play::mailsim`]); a failure if any game broke.
pub fn main(
    a: crate::cli::SimulateArgs,
) -> Result<std::process::ExitCode, crate::error::ShellError> {
    use crate::play::print_report;
    use std::process::ExitCode;
    if a.by_mail {
        let settings = crate::play::mailsim::Settings {
            seed: a.seed,
            games: a.games,
            max_events: a.max_events,
            only: a.only,
            shell_every: a.shell_every,
            threads: std::thread::available_parallelism().map_or(1, |n| n.get()),
        };
        let r = crate::play::mailsim::run(&settings);
        print_report(a.json, &r, &r.text())?;
        return Ok(if r.broken.is_empty() {
            ExitCode::SUCCESS
        } else {
            ExitCode::FAILURE
        });
    }
    let game = crate::games::named(&a.game)?;
    let settings = SimulateSettings {
        game,
        players: a.players,
        games: a.games,
        seed: a.seed,
        options: crate::cli::pairs(&a.options, "--option")?,
        order_cap: a.max_orders,
        replay: !a.no_replay,
    };
    let mut progress = crate::progress::Progress::new("simulate", "games", Some(a.games as u64));
    let r = run_with(&settings, &mut |_| progress.inc(1));
    progress.finish();
    print_report(a.json, &r, &r.text())?;
    Ok(if r.errors.is_empty() {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    })
}
