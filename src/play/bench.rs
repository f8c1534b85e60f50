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

mod stored_games;
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
    pub largest_value_bytes: u64,
    pub largest_value_tree: String,
    /// What the games' mail cost their players (issue 12): mails per player per round,
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
    /// One `/metrics` exposition rendered over the filled folder (src/metrics.rs: the
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
    // Inbox (parse, judge, commit, flush, acknowledge), tick, outbox drain.
    let mut phases = [Duration::ZERO; 3];
    let mut mails = 0;
    let mut created = 0;
    let mut all_ids = Vec::new();
    let mut progress = crate::progress::Progress::new("bench", "order mails", Some(s.mails as u64));
    let start = Instant::now();
    while mails < s.mails {
        let mut ids = Vec::new();
        for _ in 0..tables {
            ids.push(bots.create_game(svc, &s.game, s.players, &[])?);
            created += 1;
        }
        local.pass_after(0)?;
        if s.text_mails {
            ask_for_text(svc, &mut bots, &ids)?;
            local.pass_after(0)?;
        }
        all_ids.extend(ids.iter().cloned());
        let played = play_games(svc, &mut bots, &ids, s.mails - mails, max_lines, |round| {
            let (t0, cpu0, steps0) = (Instant::now(), process_cpu(), batch_times());
            let pass = local
                .pass_after(60)
                .map_err(|e| PlayError::Io(e.to_string()))?;
            let end = Instant::now();
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
    let service = service_time.as_secs_f64();
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
        latency_ms_max: latencies
            .last()
            .map(|d| d.as_secs_f64() * 1000.0)
            .unwrap_or(0.0),
        database_bytes: crate::ops::compact::dir_size(&svc.config.database_path()),
        live_bytes: svc.store.live_bytes()?,
        largest_value_bytes,
        largest_value_tree,
        mail,
    })
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
            .game(id)?
            .ok_or_else(|| PlayError::Io(format!("no game {id}")))?;
        for (seat, r) in rec.seats.iter().enumerate() {
            if r.played_by_mail() {
                bots.send(svc, &rec, seat, "SET FORMAT TEXT\n")?;
            }
        }
    }
    Ok(())
}

/// The long game: bots end most games before turn 300. `castellan simulate --games 20
/// --json` (seed 1) gave Castle Risk with 2 to 6 players a longest game of 30 to 207 dice
/// turns, and Risk with 2 to 6 players 102 to 261. Risk's optional limit of armies on a
/// territory makes the bots' games last: at 5 armies with 3 players, 20 games out of 20
/// (seeds 1 to 20, one game each) lasted 421 to 599 turns; so that is the game played.
const LONG_GAME: &str = "risk";
const LONG_PLAYERS: usize = 3;
const LONG_OPTIONS: &[(&str, &str)] = &[("max_armies_per_territory", "5")];
/// The "early" window of dice turns, both ends included.
const EARLY_TURNS: [u32; 2] = [5, 15];
/// Dice turns measured from `late_turn` on (or the last ones, if the game ends sooner).
const LATE_WINDOW: u32 = 20;
/// A bound on the long game's mails, whatever happens.
const LONG_MAX_MAILS: usize = 50_000;

/// A window of the long game: its mean service time per mail, its first and last turns.
#[derive(Clone, Copy)]
struct Window {
    ms_per_mail: f64,
    turns: [u32; 2],
    mails: usize,
}

struct LongRun {
    game: LongGame,
    early: Option<Window>,
    late: Option<Window>,
}

/// The samples (dice turn, ms per mail) whose turn is in `lo..=hi`.
fn window(samples: &[(u32, f64)], lo: u32, hi: u32) -> Option<Window> {
    let inside: Vec<&(u32, f64)> = samples
        .iter()
        .filter(|(t, _)| (lo..=hi).contains(t))
        .collect();
    let first = inside.iter().map(|(t, _)| *t).min()?;
    let last = inside.iter().map(|(t, _)| *t).max()?;
    Some(Window {
        ms_per_mail: inside.iter().map(|(_, ms)| ms).sum::<f64>() / inside.len() as f64,
        turns: [first, last],
        mails: inside.len(),
    })
}

fn game_turn(svc: &crate::serve::service::Service, id: &str) -> Result<(u32, bool), PlayError> {
    let rec = svc
        .store
        .game(id)
        .map_err(|e| PlayError::Io(e.0))?
        .ok_or_else(|| PlayError::Io(format!("no game {id}")))?;
    let turn = crate::play::players::load_session(&rec)?.map_or(0, |s| s.turn());
    Ok((turn, rec.ended.is_some()))
}

/// One game by mail through the same pipeline, one mail per pass, each pass's service
/// time recorded against the dice turn the mail was written for; played until
/// `late_turn + LATE_WINDOW` or its end.
fn run_long_game(s: &BenchSettings, base: &Config, dir: &Path) -> Result<LongRun, ShellError> {
    std::fs::create_dir_all(dir).map_err(|e| ShellError::io(dir, e))?;
    let local = LocalJudge::open(base, dir, s.seed)?;
    let svc = &local.svc;
    let mut bots = MailPlayers::new(svc, "bench-long")?;
    let max_lines = svc.config.judge.max_lines;
    let options: Vec<(String, String)> = LONG_OPTIONS
        .iter()
        .map(|(k, v)| (k.to_string(), v.to_string()))
        .collect();
    let id = bots.create_game(svc, LONG_GAME, LONG_PLAYERS, &options)?;
    local.pass_after(0)?;
    let stop_at = s.late_turn.saturating_add(LATE_WINDOW);
    let mut progress =
        crate::progress::Progress::new("bench (long game)", "dice turns", Some(stop_at as u64));
    let mut shown = 0;
    let mut samples: Vec<(u32, f64)> = Vec::new();
    let mut mails = 0;
    let (final_turn, over) = loop {
        let played = play_games(
            svc,
            &mut bots,
            std::slice::from_ref(&id),
            10,
            max_lines,
            |round| {
                let (turn, _) = game_turn(svc, &id)?;
                let t0 = Instant::now();
                local
                    .pass_after(60)
                    .map_err(|e| PlayError::Io(e.to_string()))?;
                let ms = t0.elapsed().as_secs_f64() * 1000.0;
                samples.push((turn, ms / round.len().max(1) as f64));
                Ok(())
            },
        )?;
        mails += played.mails;
        let (turn, over) = game_turn(svc, &id)?;
        let now = turn.min(stop_at);
        if now > shown {
            progress.inc(u64::from(now - shown));
            shown = now;
        }
        if played.mails == 0 || over || turn >= stop_at || mails >= LONG_MAX_MAILS {
            break (turn, over);
        }
    };
    progress.finish();
    let early = window(&samples, EARLY_TURNS[0], EARLY_TURNS[1]);
    let last = samples.iter().map(|(t, _)| *t).max().unwrap_or(0);
    let late = if last >= s.late_turn {
        window(&samples, s.late_turn, stop_at - 1)
    } else {
        window(&samples, last.saturating_sub(LATE_WINDOW - 1), last)
    };
    svc.store.flush()?;
    let (largest_value_bytes, largest_value_tree) = svc.store.largest_value()?;
    Ok(LongRun {
        game: LongGame {
            game: LONG_GAME.to_string(),
            players: LONG_PLAYERS,
            options: LONG_OPTIONS
                .iter()
                .map(|(k, v)| format!("{k}={v}"))
                .collect(),
            game_id: id,
            mails_in: mails,
            final_turn,
            over,
            late_turn_target: s.late_turn,
            early_mails: early.map_or(0, |w| w.mails),
            late_mails: late.map_or(0, |w| w.mails),
            largest_value_bytes,
            largest_value_tree,
            database_bytes: crate::ops::compact::dir_size(&svc.config.database_path()),
            live_bytes: svc.store.live_bytes()?,
        },
        early,
        late,
    })
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

fn mib(bytes: u64) -> String {
    format!("{:.1} MiB", bytes as f64 / 1048576.0)
}

fn kib(k: Option<u64>) -> String {
    k.map(|k| format!("{:.1} MiB", k as f64 / 1024.0))
        .unwrap_or_else(|| "unknown".into())
}

impl BenchReport {
    pub fn text(&self) -> String {
        let mut out = format!(
            "end to end ({} with {} players, sled flushed per pass; mails/s of service = order \
             mails / time inside the service passes, bots' thinking kept out):\n",
            self.game, self.players
        );
        out += &format!(
            "  {:>6} {:>8} {:>9} {:>10} {:>10} {:>8} {:>10} {:>8} {:>8} {:>8} {:>8} {:>8} {:>9}\n",
            "tables",
            "mails in",
            "mails out",
            "mails/s",
            "mails/s",
            "service",
            "ms/mail",
            "pass",
            "pass",
            "latency",
            "latency",
            "latency",
            "database"
        );
        out +=
            &format!(
            "  {:>6} {:>8} {:>9} {:>10} {:>10} {:>8} {:>10} {:>8} {:>8} {:>8} {:>8} {:>8} {:>9}\n",
            "", "", "", "(service)", "(wall)", "s", "(service)", "p50 ms", "p99 ms", "p50 ms",
            "p99 ms", "max ms", ""
        );
        for t in &self.tables {
            out += &format!(
                "  {:>6} {:>8} {:>9} {:>10.1} {:>10.1} {:>8.2} {:>10.2} {:>8.2} {:>8.2} {:>8.2} {:>8.2} {:>8.2} {:>9}\n",
                t.tables,
                t.mails_in,
                t.mails_out,
                t.mails_per_sec_service,
                t.mails_per_sec_wall,
                t.service_seconds,
                t.service_ms_per_mail,
                t.pass_ms_p50,
                t.pass_ms_p99,
                t.latency_ms_p50,
                t.latency_ms_p99,
                t.latency_ms_max,
                mib(t.database_bytes),
            );
        }
        out += "  (wall: bots' thinking and game creation included; latency: delivery into the \
                inbox to the end of the pass that answered it)\n";
        for t in &self.tables {
            out += &format!(
                "  {} table(s), ms a mail by phase: inbox {:.2} (handled, durable, acknowledged: \
                 {:.1} mails/s), tick {:.2}, outbox {:.2}; CPU {:.2} ms a mail, {:.2} cores busy\n",
                t.tables,
                t.inbox_ms_per_mail,
                t.mails_per_sec_inbox,
                t.tick_ms_per_mail,
                t.outbox_ms_per_mail,
                t.service_cpu_ms_per_mail,
                t.service_cores_busy
            );
            let st = &t.inbox_steps;
            out += &format!(
                "    inbox by step, ms a mail: read {:.2}, journal {:.2}, judge and commit {:.2} \
                 (group commits {:.2}, waiting for the journal's fsync {:.2}), waiting for \
                 the writers {:.2}, flush {:.2}, acknowledgement {:.2}; {} batches\n",
                st.read,
                st.journal,
                st.judge_and_commit,
                st.commit,
                st.journal_wait,
                st.writers,
                st.flush,
                st.acknowledge,
                st.batches
            );
        }
        for t in &self.tables {
            out += &format!(
                "  mail budget, {} table(s): {:.1} mails a player a round; longest turn mail {} lines, deadline by line {}\n",
                t.tables,
                t.mail.per_player_per_round,
                t.mail.longest_report_lines,
                t.mail.latest_deadline_line,
            );
        }
        if let Some(l) = &self.long_game {
            let turns = |t: Option<[u32; 2]>| {
                t.map(|[a, b]| format!("turns {a}-{b}"))
                    .unwrap_or_else(|| "no turns".into())
            };
            let ms = |m: Option<f64>| {
                m.map(|m| format!("{m:.2} ms"))
                    .unwrap_or_else(|| "n/a".into())
            };
            out += &format!(
                "long game ({} with {} players, {}; one table, one mail a pass; {} mails, reached turn {}{}):\n\
                 \x20 service time per mail, early ({}): {} over {} mails\n\
                 \x20 service time per mail, late  ({}{}): {} over {} mails\n",
                l.game,
                l.players,
                l.options.join(" "),
                l.mails_in,
                l.final_turn,
                if l.over { ", game over" } else { "" },
                turns(self.early_turns_measured),
                ms(self.service_ms_per_mail_early),
                l.early_mails,
                turns(self.late_turns_measured),
                if self.late_turns_measured.is_some_and(|[a, _]| a < l.late_turn_target) {
                    format!(
                        "; the game ended before turn {}: its last turns",
                        l.late_turn_target
                    )
                } else {
                    String::new()
                },
                ms(self.service_ms_per_mail_late),
                l.late_mails,
            );
        }
        out += &format!(
            "largest stored value: {} bytes ({} tree, {}); bench process peak RSS {}\n",
            self.largest_value_bytes,
            self.largest_value_tree,
            self.largest_value_run,
            kib(self.peak_rss_kib),
        );
        if let Some(g) = &self.stored_games {
            out += &format!(
                "stored games ({} in a fresh folder, filled in {:.1} s, database {}):\n\
                 \x20 `serve --once` in a child process: start-up + one empty pass {:.0} ms, peak RSS {} ({})\n\
                 \x20 games due at its start: {}; deadline mails it wrote: {}\n\
                 \x20 `castellan backup` of them (what a rolling backup costs): {:.0} ms, peak RSS {}\n\
                 \x20 `serve --once` with one mail waiting: STOP {:.0} ms, a mail to judge+TOKEN@ {:.0} ms, CREATE {:.0} ms\n\
                 \x20 one `/metrics` scrape: {:.2} ms\n",
                g.games,
                g.fill_seconds,
                mib(g.database_bytes),
                g.startup_and_empty_pass_ms,
                kib(g.peak_rss_kib),
                g.peak_rss_source,
                g.due,
                g.deadline_mails
                    .map(|n| n.to_string())
                    .unwrap_or_else(|| "unknown".into()),
                g.backup_ms,
                kib(g.backup_peak_rss_kib),
                g.stop_mail_pass_ms,
                g.token_mail_pass_ms,
                g.create_mail_pass_ms,
                g.metrics_scrape_ms,
            );
        }
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
