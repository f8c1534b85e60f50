//! `castellan bench`: numbers, never assertions. End to end: bot players' order mails go
//! through the real pipeline (Maildir → parse → judge → sled transaction flushed to disk →
//! acknowledge → .eml outbox), several games at once; we time each mail from its delivery
//! into the inbox to the end of the pass that answered it. Engine only: whole bot games
//! per second for every game.

use crate::config::Config;
use crate::demo::LocalJudge;
use crate::error::ShellError;
use crate::players::{play_games, MailPlayers, PlayError};
use crate::simulate::{self, SimulateSettings};
use castellan_judge::Store;
use serde::Serialize;
use std::time::{Duration, Instant};

pub struct BenchSettings {
    pub game: String,
    pub players: usize,
    /// Order mails to push through the pipeline.
    pub mails: usize,
    /// Games played at once (one mail each per pass).
    pub tables: usize,
    /// Whole bot games per game for the engine-only numbers (0: skip).
    pub engine_games: usize,
    pub seed: u64,
}

#[derive(Debug, Serialize)]
pub struct BenchReport {
    pub game: String,
    pub players: usize,
    pub tables: usize,
    pub mails_in: usize,
    pub mails_out: usize,
    pub games_created: usize,
    pub wall_seconds: f64,
    /// Order mails per second, bots' thinking included.
    pub mails_per_sec: f64,
    /// Time inside the service passes only, per order mail, in ms.
    pub service_ms_per_mail: f64,
    /// Delivery into the inbox → its answers in the outbox, in ms.
    pub latency_ms_p50: f64,
    pub latency_ms_p99: f64,
    pub latency_ms_max: f64,
    pub database_bytes: u64,
    /// The largest value stored (a game record today: it holds the game's whole history),
    /// in bytes, and its tree.
    pub largest_value_bytes: u64,
    pub largest_value_tree: String,
    /// Peak resident memory of the process (VmHWM), in KiB.
    pub peak_rss_kib: Option<u64>,
    /// What the games' mail cost their players (issue 12): mails per player per round,
    /// by kind, the longest turn mail.
    pub mail: crate::budget::MailBudget,
    pub engine: Vec<EngineSpeed>,
}

#[derive(Debug, Serialize)]
pub struct EngineSpeed {
    pub game: String,
    pub players: usize,
    pub games: usize,
    pub games_per_sec: f64,
    pub orders_per_sec: f64,
}

fn percentile(sorted: &[Duration], p: f64) -> f64 {
    if sorted.is_empty() {
        return 0.0;
    }
    let i = ((sorted.len() - 1) as f64 * p).round() as usize;
    sorted[i.min(sorted.len() - 1)].as_secs_f64() * 1000.0
}

fn dir_size(p: &std::path::Path) -> u64 {
    let mut n = 0;
    if let Ok(rd) = std::fs::read_dir(p) {
        for e in rd.flatten() {
            match e.metadata() {
                Ok(m) if m.is_dir() => n += dir_size(&e.path()),
                Ok(m) => n += m.len(),
                Err(_) => {}
            }
        }
    }
    n
}

pub fn peak_rss_kib() -> Option<u64> {
    let s = std::fs::read_to_string("/proc/self/status").ok()?;
    s.lines()
        .find_map(|l| l.strip_prefix("VmHWM:"))?
        .split_whitespace()
        .next()?
        .parse()
        .ok()
}

pub fn run(s: &BenchSettings, base: &Config) -> Result<BenchReport, ShellError> {
    let dir = std::env::temp_dir().join(format!("castellan-bench-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).map_err(|e| ShellError::io(&dir, e))?;
    let result = run_in(s, base, &dir);
    let _ = std::fs::remove_dir_all(&dir);
    result
}

fn run_in(
    s: &BenchSettings,
    base: &Config,
    dir: &std::path::Path,
) -> Result<BenchReport, ShellError> {
    let local = LocalJudge::open(base, dir, s.seed)?;
    let svc = &local.svc;
    let mut bots = MailPlayers::new(svc, "bench")?;
    let max_lines = svc.config.judge.max_lines;
    let mut latencies = Vec::with_capacity(s.mails);
    let mut service_time = Duration::ZERO;
    let mut mails = 0;
    let mut created = 0;
    let mut all_ids = Vec::new();
    let mut progress = crate::progress::Progress::new("bench", "order mails", Some(s.mails as u64));
    let start = Instant::now();
    while mails < s.mails {
        let mut ids = Vec::new();
        for _ in 0..s.tables.max(1) {
            ids.push(bots.create_game(svc, &s.game, s.players, &[])?);
            created += 1;
        }
        local.pass_after(0)?;
        all_ids.extend(ids.iter().cloned());
        let played = play_games(svc, &mut bots, &ids, s.mails - mails, max_lines, |round| {
            let t0 = Instant::now();
            local
                .pass_after(60)
                .map_err(|e| PlayError::Io(e.to_string()))?;
            let end = Instant::now();
            service_time += end - t0;
            latencies.extend(round.iter().map(|m| end - m.delivered_at));
            progress.inc(round.len() as u64);
            Ok(())
        })?;
        if played.mails == 0 {
            return Err(ShellError::Usage(
                "no game took a mail: nothing to measure".into(),
            ));
        }
        mails += played.mails;
    }
    let wall = start.elapsed().as_secs_f64();
    progress.finish();
    latencies.sort();
    bots.read_outbox()?;
    let mails_out = std::fs::read_dir(svc.config.outbox_path())
        .map(|rd| rd.count())
        .unwrap_or(0);
    svc.store.flush()?;
    let (largest_value_bytes, largest_value_tree) = svc.store.largest_value()?;
    // The mail budget over every game: their players, their dice turns, their setups.
    let (mut turns, mut setup) = (0, 0);
    for id in &all_ids {
        if let Some(rec) = svc.store.game_whole(id)? {
            if let Some(session) = crate::players::load_session(&rec)? {
                turns += session.turn();
                setup += crate::budget::setup_turns(session.as_ref());
            }
        }
    }
    let mail = crate::budget::measure(
        &svc.config.outbox_path(),
        &format!("gm@{}", crate::players::PLAYER_DOMAIN),
        s.players * all_ids.len().max(1),
        turns,
        setup,
    );
    let mut engine = Vec::new();
    if s.engine_games > 0 {
        let all = crate::games::all();
        let mut progress = crate::progress::Progress::new(
            "bench (engine)",
            "games",
            Some((all.len() * s.engine_games) as u64),
        );
        for info in all {
            let players = s.players.clamp(info.min_seats, info.max_seats);
            let r = simulate::run_with(
                &SimulateSettings {
                    game: info,
                    players,
                    games: s.engine_games,
                    seed: s.seed,
                    options: Vec::new(),
                    order_cap: 200_000,
                    replay: false,
                },
                &mut |_| progress.inc(1),
            );
            engine.push(EngineSpeed {
                game: info.name.to_string(),
                players,
                games: s.engine_games,
                games_per_sec: r.games_per_sec,
                orders_per_sec: r.orders_per_sec,
            });
        }
        progress.finish();
    }
    Ok(BenchReport {
        game: s.game.clone(),
        players: s.players,
        tables: s.tables,
        mails_in: mails,
        mails_out,
        games_created: created,
        wall_seconds: wall,
        mails_per_sec: mails as f64 / wall.max(1e-9),
        service_ms_per_mail: service_time.as_secs_f64() * 1000.0 / mails.max(1) as f64,
        latency_ms_p50: percentile(&latencies, 0.50),
        latency_ms_p99: percentile(&latencies, 0.99),
        latency_ms_max: latencies
            .last()
            .map(|d| d.as_secs_f64() * 1000.0)
            .unwrap_or(0.0),
        database_bytes: dir_size(&svc.config.database_path()),
        largest_value_bytes,
        largest_value_tree,
        peak_rss_kib: peak_rss_kib(),
        mail,
        engine,
    })
}

impl BenchReport {
    pub fn text(&self) -> String {
        let mut out = format!(
            "end to end ({} with {} players, {} games at once, sled flushed per mail):\n\
             \x20 order mails in: {}, mails out: {}, games: {}, wall {:.2} s\n\
             \x20 throughput: {:.1} order mails/s (bots' thinking included); service time {:.2} ms per mail\n\
             \x20 latency inbox → outbox: p50 {:.2} ms, p99 {:.2} ms, max {:.2} ms\n\
             \x20 database on disk: {:.1} MiB; largest stored value {} bytes ({}); peak RSS {}\n\
             \x20 mail budget: {:.1} mails a player a round; longest turn mail {} lines, deadline by line {}\n",
            self.game,
            self.players,
            self.tables,
            self.mails_in,
            self.mails_out,
            self.games_created,
            self.wall_seconds,
            self.mails_per_sec,
            self.service_ms_per_mail,
            self.latency_ms_p50,
            self.latency_ms_p99,
            self.latency_ms_max,
            self.database_bytes as f64 / 1048576.0,
            self.largest_value_bytes,
            self.largest_value_tree,
            self.peak_rss_kib
                .map(|k| format!("{:.1} MiB", k as f64 / 1024.0))
                .unwrap_or_else(|| "unknown".into()),
            self.mail.per_player_per_round,
            self.mail.longest_report_lines,
            self.mail.latest_deadline_line,
        );
        if !self.engine.is_empty() {
            out += "engine only (bots, no mail, no store):\n";
            for e in &self.engine {
                out += &format!(
                    "  {:<12} {} players: {:>8.1} games/s, {:>10.0} orders/s ({} games)\n",
                    e.game, e.players, e.games_per_sec, e.orders_per_sec, e.games
                );
            }
        }
        out
    }
}
