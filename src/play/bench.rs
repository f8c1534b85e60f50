//! `castellan bench`: numbers, never assertions. End to end: bot players' order mails go
//! through the real pipeline (Maildir → parse → judge → sled transaction flushed to disk →
//! acknowledge → .eml outbox), several games at once; we time each mail from its delivery
//! into the inbox to the end of the pass that answered it. Engine only: whole bot games
//! per second for every game.

use crate::config::Config;
use crate::error::ShellError;
use crate::play::demo::LocalJudge;
use crate::play::players::{play_games, MailPlayers, PlayError};
use crate::play::simulate::{self, SimulateSettings};
use castellan_judge::Store;
use serde::Serialize;
use std::path::Path;
use std::time::{Duration, Instant};

mod disk_io;
mod long_game;
mod report;
mod stored_games;
use long_game::run_long_game;
use stored_games::run_stored_games;

pub struct BenchSettings {
    pub game: String,
    pub players: usize,
    /// Order mails to push through the pipeline, for each count of tables.
    pub mails: usize,
    /// Counts of games played at once (one mail each per pass), each measured in a fresh
    /// data folder.
    pub tables: Vec<usize>,
    /// Whole bot games per game for the engine-only numbers (0: skip).
    pub engine_games: usize,
    pub seed: u64,
    /// The long game: the per-mail service time from this dice turn on (0: skip it).
    pub late_turn: u32,
    /// Stored games for the start-up measure (0: skip it).
    pub stored_games: usize,
    /// Threads judging a batch side by side (None: the service's default, the cores).
    pub judges: Option<usize>,
    /// The bots' seats read text mails (`SET FORMAT TEXT`, asked by mail before the
    /// measure): no HTML part, no picture.
    pub text_mails: bool,
}

#[derive(Debug, Serialize)]
pub struct BenchReport {
    pub game: String,
    pub players: usize,
    /// What the order-mail runs' seats read: "html" (text and picture) or "text".
    pub mail_format: &'static str,
    /// Order mails in, over every count of tables.
    pub mails_in: usize,
    /// One run per count of tables (`--tables 1,64`).
    pub tables: Vec<TablesRun>,
    /// The long game's mean service time per order mail early (turns 5-15) and late
    /// (from `late_turn_target` on, or the last turns reached when the game ended
    /// sooner), with the turns each mean covers (first, last).
    pub service_ms_per_mail_early: Option<f64>,
    pub early_turns_measured: Option<[u32; 2]>,
    pub service_ms_per_mail_late: Option<f64>,
    pub late_turns_measured: Option<[u32; 2]>,
    pub long_game: Option<LongGame>,
    /// The largest value stored, in bytes, and its tree, over every run; `largest_value_run` says which.
    pub largest_value_bytes: u64,
    pub largest_value_tree: String,
    pub largest_value_run: String,
    /// Peak resident memory of the bench process itself (VmHWM), in KiB: every run above,
    /// the filling of `--stored-games` included (the child's is `stored_games.peak_rss_kib`).
    pub peak_rss_kib: Option<u64>,
    /// `--stored-games N`: start-up and one empty pass of `serve --once` over N games.
    pub stored_games: Option<StoredGames>,
    pub engine: Vec<EngineSpeed>,
}

/// [`crate::serve::service::BatchTimes`] per order mail, in ms.
#[derive(Debug, Serialize)]
pub struct InboxSteps {
    pub batches: u64,
    /// Reading and parsing the messages.
    pub read: f64,
    /// The journal entries written ahead (their fdatasync runs while the batch is judged).
    pub journal: f64,
    /// Of judging and committing, waiting for the journal's fdatasync to end.
    pub journal_wait: f64,
    /// Judging (side by side) and committing in groups.
    pub judge_and_commit: f64,
    /// Of that, the group commits on the service's thread.
    pub commit: f64,
    /// Waiting for the replies written ahead.
    pub writers: f64,
    /// The batch's flush to the device (sled, then one syncfs).
    pub flush: f64,
    /// Moving the messages to cur/.
    pub acknowledge: f64,
}

impl InboxSteps {
    fn of(t: &crate::serve::service::BatchTimes, mails: usize) -> InboxSteps {
        let ms = |d: Duration| d.as_secs_f64() * 1000.0 / mails.max(1) as f64;
        InboxSteps {
            batches: t.batches,
            read: ms(t.read),
            journal: ms(t.journal),
            journal_wait: ms(t.journal_wait),
            judge_and_commit: ms(t.judge_and_commit),
            commit: ms(t.commit),
            writers: ms(t.writers),
            flush: ms(t.flush),
            acknowledge: ms(t.acknowledge),
        }
    }
}

/// One count of tables, end to end.
#[derive(Debug, Serialize)]
pub struct TablesRun {
    pub tables: usize,
    pub mails_in: usize,
    pub mails_out: usize,
    pub games_created: usize,
    /// Time inside the service passes (inbox, deadlines, outbox), in seconds.
    pub service_seconds: f64,
    /// The whole run, bots' thinking and game creation included, in seconds.
    pub wall_seconds: f64,
    /// Order mails per second of service passes: bots' thinking kept out.
    pub mails_per_sec_service: f64,
    /// Order mails per second of wall clock: bots' thinking included.
    pub mails_per_sec_wall: f64,
    /// Time inside the service passes per order mail, in ms.
    pub service_ms_per_mail: f64,
    /// That time by phase, per order mail, in ms: taking the inbox (parse, judge, commit,
    /// the batch's flush, acknowledgement: a mail is durable and acknowledged at its end),
    /// the deadline tick, and the outbox drain (the transport: here one .eml file a reply).
    pub inbox_ms_per_mail: f64,
    pub tick_ms_per_mail: f64,
    pub outbox_ms_per_mail: f64,
    /// CPU time of the whole process (every thread: judges, writers, sled's) inside the
    /// service passes, per order mail, in ms; and that over the passes' time: how many
    /// cores the service kept busy.
    pub service_cpu_ms_per_mail: f64,
    pub service_cores_busy: f64,
    /// The inbox time by step, per order mail, in ms, and the batches it took.
    pub inbox_steps: InboxSteps,
    /// Order mails per second of inbox time alone: handled, durable and acknowledged.
    pub mails_per_sec_inbox: f64,
    /// One service pass (all the tables' mails of a round), in ms.
    pub pass_ms_p50: f64,
    pub pass_ms_p99: f64,
    /// Delivery into the inbox → its answers in the outbox, in ms (includes the wait
    /// while the other tables' bots write their mails of the same round).
    pub latency_ms_p50: f64,
    pub latency_ms_p99: f64,
    pub latency_ms_max: f64,
    pub database_bytes: u64,
    /// The bytes of every key and value held at the end: what a compacted database must
    /// store (`database_bytes` over it: how much more sled's file takes).
    pub live_bytes: u64,
    /// What the passes cost the disk, and `database_over_live`.
    #[serde(flatten)]
    pub disk: disk_io::DiskFigures,
    pub largest_value_bytes: u64,
    pub largest_value_tree: String,
    /// What the games' mail cost their players: mails per player per round,
    /// by kind, the longest turn mail.
    pub mail: crate::play::budget::MailBudget,
}

/// One game played by mail, one mail per pass, its service time recorded against its
/// dice turn.
#[derive(Debug, Serialize)]
pub struct LongGame {
    pub game: String,
    pub players: usize,
    pub options: Vec<String>,
    pub game_id: String,
    pub mails_in: usize,
    /// The dice turn the game reached; `over`: it ended there.
    pub final_turn: u32,
    pub over: bool,
    pub late_turn_target: u32,
    pub early_mails: usize,
    pub late_mails: usize,
    pub largest_value_bytes: u64,
    pub largest_value_tree: String,
    pub database_bytes: u64,
    /// As [`TablesRun::live_bytes`].
    pub live_bytes: u64,
}

/// `serve --once` in a child process over a data folder holding `games` stored games.
#[derive(Debug, Serialize)]
pub struct StoredGames {
    pub games: usize,
    /// Writing them (one real game created, then copies in batches, one flush).
    pub fill_seconds: f64,
    pub database_bytes: u64,
    /// Games whose deadline (or reminder) was due when the child started: 0 means the
    /// pass had nothing to do but look.
    pub due: usize,
    /// What the child's pass did: deadline mails written (its own count).
    pub deadline_mails: Option<u64>,
    /// The child's wall time from spawn to exit: start-up (config, sled open), one pass
    /// (empty inbox, the games due by the deadline index, outbox) and the final flush.
    pub startup_and_empty_pass_ms: f64,
    /// The child's peak resident memory, in KiB, and how it was read.
    pub peak_rss_kib: Option<u64>,
    pub peak_rss_source: String,
    /// `castellan backup` of the same folder in a child process (what a rolling backup
    /// costs: `serve` and `serve --once` make one every `backup.every_hours`, so the pass
    /// above runs with them off): its wall time and peak RSS.
    pub backup_ms: f64,
    pub backup_peak_rss_kib: Option<u64>,
    /// `serve --once` in a child process again, with one mail waiting, each kind alone
    /// (start-up included: compare with `startup_and_empty_pass_ms`): STOP from a player
    /// of one game (what finds a sender's games), a mail that names its game only by its
    /// `judge+TOKEN@` address (what finds a token's game), and CREATE (what numbers a new
    /// game).
    pub stop_mail_pass_ms: f64,
    pub token_mail_pass_ms: f64,
    pub create_mail_pass_ms: f64,
    /// One `/metrics` exposition rendered over the filled folder (src/serve/metrics.rs: the
    /// games by status, the deadlines pending and the nearest one, the outbox), in the
    /// bench's own process on the open store.
    pub metrics_scrape_ms: f64,
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

/// CPU time used so far by every thread of this process.
fn process_cpu() -> Duration {
    let mut t = libc::timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: `t` is a valid timespec for the call to fill.
    if unsafe { libc::clock_gettime(libc::CLOCK_PROCESS_CPUTIME_ID, &mut t) } != 0 {
        return Duration::ZERO;
    }
    Duration::new(t.tv_sec as u64, t.tv_nsec as u32)
}

/// Peak resident memory of this process (VmHWM), in KiB.
pub fn peak_rss_kib() -> Option<u64> {
    vm_hwm("self")
}

/// VmHWM of process `pid` (a number, or `self`), in KiB.
fn vm_hwm(pid: impl std::fmt::Display) -> Option<u64> {
    let s = std::fs::read_to_string(format!("/proc/{pid}/status")).ok()?;
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

fn run_in(s: &BenchSettings, base: &Config, dir: &Path) -> Result<BenchReport, ShellError> {
    let mut tables = Vec::new();
    for &n in &s.tables {
        let n = n.max(1);
        if s.tables.len() > 1 {
            eprintln!("bench: {n} table(s) at once");
        }
        tables.push(run_tables(s, base, &dir.join(format!("tables-{n}")), n)?);
    }
    let mut largest = (0, String::new(), String::new());
    for t in &tables {
        if t.largest_value_bytes > largest.0 {
            largest = (
                t.largest_value_bytes,
                t.largest_value_tree.clone(),
                format!("{} table(s)", t.tables),
            );
        }
    }
    let long = if s.late_turn > 0 {
        Some(run_long_game(s, base, &dir.join("long-game"))?)
    } else {
        None
    };
    if let Some(l) = &long {
        if l.game.largest_value_bytes > largest.0 {
            largest = (
                l.game.largest_value_bytes,
                l.game.largest_value_tree.clone(),
                format!("long game (turn {})", l.game.final_turn),
            );
        }
    }
    let stored_games = if s.stored_games > 0 {
        Some(run_stored_games(s, base, &dir.join("stored-games"))?)
    } else {
        None
    };
    let engine = engine_speeds(s);
    Ok(BenchReport {
        game: s.game.clone(),
        players: s.players,
        mail_format: if s.text_mails { "text" } else { "html" },
        mails_in: tables.iter().map(|t| t.mails_in).sum(),
        tables,
        service_ms_per_mail_early: long.as_ref().and_then(|l| l.early.map(|w| w.ms_per_mail)),
        early_turns_measured: long.as_ref().and_then(|l| l.early.map(|w| w.turns)),
        service_ms_per_mail_late: long.as_ref().and_then(|l| l.late.map(|w| w.ms_per_mail)),
        late_turns_measured: long.as_ref().and_then(|l| l.late.map(|w| w.turns)),
        long_game: long.map(|l| l.game),
        largest_value_bytes: largest.0,
        largest_value_tree: largest.1,
        largest_value_run: largest.2,
        peak_rss_kib: peak_rss_kib(),
        stored_games,
        engine,
    })
}

/// `tables` games at once, in a fresh data folder, until `s.mails` order mails went (new
/// games are started when the first ones end).
fn run_tables(
    s: &BenchSettings,
    base: &Config,
    dir: &Path,
    tables: usize,
) -> Result<TablesRun, ShellError> {
    std::fs::create_dir_all(dir).map_err(|e| ShellError::io(dir, e))?;
    let mut local = LocalJudge::open(base, dir, s.seed)?;
    if let Some(n) = s.judges {
        local.svc.judges = n.max(1);
    }
    let svc = &local.svc;
    let mut bots = MailPlayers::new(svc, "bench")?;
    let max_lines = svc.config.judge.max_lines;
    let mut latencies = Vec::with_capacity(s.mails);
    let mut passes = Vec::new();
    let mut service_time = Duration::ZERO;
    let mut service_cpu = Duration::ZERO;
    let mut steps = crate::serve::service::BatchTimes::default();
    let batch_times = || *svc.batch_times.lock().unwrap_or_else(|e| e.into_inner());
    let database = svc.config.database_path();
    let mut disk = disk_io::DiskUse::default();
    // Inbox (parse, judge, commit, flush, acknowledge), tick, outbox drain.
    let mut phases = [Duration::ZERO; 3];
    let mut mails = 0;
    let mut created = 0;
    let mut all_ids = Vec::new();
    let mut progress = crate::progress::Progress::new("bench", "order mails", Some(s.mails as u64));
    let start = Instant::now();
    while mails < s.mails {
        let ids = start_games(s, &local, &mut bots, tables)?;
        created += ids.len();
        all_ids.extend(ids.iter().cloned());
        let played = play_games(svc, &mut bots, &ids, s.mails - mails, max_lines, |round| {
            let disk0 = disk_io::DiskCounters::read(&database);
            let (t0, cpu0, steps0) = (Instant::now(), process_cpu(), batch_times());
            let pass = local
                .pass_after(60)
                .map_err(|e| PlayError::Io(e.to_string()))?;
            let end = Instant::now();
            disk.add(disk0, disk_io::DiskCounters::read(&database));
            service_cpu += process_cpu().saturating_sub(cpu0);
            steps += batch_times() - steps0;
            phases[0] += pass.inbox_time;
            phases[1] += pass.tick_time;
            phases[2] += pass.outbox_time;
            service_time += end - t0;
            passes.push(end - t0);
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
    passes.sort();
    let (mails_out, mail) = mail_out(svc, &mut bots, s, &all_ids)?;
    svc.store.flush()?;
    let (largest_value_bytes, largest_value_tree) = svc.store.largest_value()?;
    let service = service_time.as_secs_f64();
    let (database_bytes, live_bytes) = (crate::store::dir_size(&database), svc.store.live_bytes()?);
    Ok(TablesRun {
        tables,
        mails_in: mails,
        mails_out,
        games_created: created,
        service_seconds: service,
        wall_seconds: wall,
        mails_per_sec_service: mails as f64 / service.max(1e-9),
        mails_per_sec_wall: mails as f64 / wall.max(1e-9),
        service_ms_per_mail: service * 1000.0 / mails.max(1) as f64,
        inbox_ms_per_mail: phases[0].as_secs_f64() * 1000.0 / mails.max(1) as f64,
        tick_ms_per_mail: phases[1].as_secs_f64() * 1000.0 / mails.max(1) as f64,
        outbox_ms_per_mail: phases[2].as_secs_f64() * 1000.0 / mails.max(1) as f64,
        service_cpu_ms_per_mail: service_cpu.as_secs_f64() * 1000.0 / mails.max(1) as f64,
        service_cores_busy: service_cpu.as_secs_f64() / service.max(1e-9),
        inbox_steps: InboxSteps::of(&steps, mails),
        mails_per_sec_inbox: mails as f64 / phases[0].as_secs_f64().max(1e-9),
        pass_ms_p50: percentile(&passes, 0.50),
        pass_ms_p99: percentile(&passes, 0.99),
        latency_ms_p50: percentile(&latencies, 0.50),
        latency_ms_p99: percentile(&latencies, 0.99),
        latency_ms_max: percentile(&latencies, 1.0),
        database_bytes,
        live_bytes,
        disk: disk.figures(steps.batches, mails, database_bytes, live_bytes),
        largest_value_bytes,
        largest_value_tree,
        mail,
    })
}

/// What the games `all_ids` sent: how many mails were written, and the mail budget over
/// every game (their players, their dice turns, their setups).
fn mail_out(
    svc: &crate::serve::service::Service,
    bots: &mut MailPlayers,
    s: &BenchSettings,
    all_ids: &[String],
) -> Result<(usize, crate::play::budget::MailBudget), ShellError> {
    bots.read_outbox()?;
    let mails_out = std::fs::read_dir(svc.config.outbox_path())
        .map(|rd| rd.count())
        .unwrap_or(0);
    let (mut turns, mut setup) = (0, 0);
    for id in all_ids {
        if let Some(rec) = svc.store.game_whole(id)? {
            if let Some(session) = crate::play::players::load_session(&rec)? {
                turns += session.turn();
                setup += crate::play::budget::setup_turns(session.as_ref());
            }
        }
    }
    let mail = crate::play::budget::measure(
        &svc.config.outbox_path(),
        &format!("gm@{}", crate::play::players::PLAYER_DOMAIN),
        s.players * all_ids.len().max(1),
        turns,
        setup,
    );
    Ok((mails_out, mail))
}

/// `tables` new games, started outside the measured passes (with `--mail-format text`,
/// each seat asks for text mails).
fn start_games(
    s: &BenchSettings,
    local: &LocalJudge,
    bots: &mut MailPlayers,
    tables: usize,
) -> Result<Vec<String>, ShellError> {
    let svc = &local.svc;
    let ids = (0..tables)
        .map(|_| bots.create_game(svc, &s.game, s.players, &[]))
        .collect::<Result<Vec<_>, _>>()?;
    local.pass_after(0)?;
    if s.text_mails {
        ask_for_text(svc, bots, &ids)?;
        local.pass_after(0)?;
    }
    Ok(ids)
}

/// Each person's seat of the games `ids` asks by mail for text mails (`SET FORMAT TEXT`),
/// handled outside the measured passes.
fn ask_for_text(
    svc: &crate::serve::service::Service,
    bots: &mut MailPlayers,
    ids: &[String],
) -> Result<(), ShellError> {
    for id in ids {
        let rec = svc
            .store
            .game_header(id)?
            .ok_or_else(|| PlayError::Io(format!("no game {id}")))?;
        for (seat, r) in rec.seats.iter().enumerate() {
            if r.played_by_mail() {
                bots.send(svc, &rec, seat, "SET FORMAT TEXT\n")?;
            }
        }
    }
    Ok(())
}

fn engine_speeds(s: &BenchSettings) -> Vec<EngineSpeed> {
    let mut engine = Vec::new();
    if s.engine_games == 0 {
        return engine;
    }
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
    engine
}

/// `castellan bench`, reported as text or JSON.
pub fn main(
    config: Config,
    a: crate::cli::BenchArgs,
) -> Result<std::process::ExitCode, ShellError> {
    crate::games::named(&a.game)?;
    let r = run(
        &BenchSettings {
            game: a.game.clone(),
            players: a.players,
            mails: a.mails,
            tables: a.tables.clone(),
            engine_games: a.games,
            seed: a.seed,
            late_turn: a.late_turn,
            stored_games: a.stored_games,
            judges: a.judges,
            text_mails: a.mail_format == crate::cli::BenchMailFormat::Text,
        },
        &config,
    )?;
    crate::play::print_report(a.json, &r, &r.text())?;
    Ok(std::process::ExitCode::SUCCESS)
}
