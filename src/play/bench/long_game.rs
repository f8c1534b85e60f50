//! The long game of the benchmark: one table played to a late turn, service time per
//! mail early and late.

use super::{BenchSettings, LongGame};
use crate::config::Config;
use crate::error::ShellError;
use crate::play::demo::LocalJudge;
use crate::play::players::{play_games, MailPlayers, PlayError};
use castellan_judge::Store;
use std::path::Path;
use std::time::Instant;

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
pub(super) struct Window {
    pub(super) ms_per_mail: f64,
    pub(super) turns: [u32; 2],
    pub(super) mails: usize,
}

pub(super) struct LongRun {
    pub(super) game: LongGame,
    pub(super) early: Option<Window>,
    pub(super) late: Option<Window>,
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
pub(super) fn run_long_game(
    s: &BenchSettings,
    base: &Config,
    dir: &Path,
) -> Result<LongRun, ShellError> {
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
            database_bytes: crate::store::dir_size(&svc.config.database_path()),
            live_bytes: svc.store.live_bytes()?,
        },
        early,
        late,
    })
}
