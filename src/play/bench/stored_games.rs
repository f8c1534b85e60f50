//! `--stored-games N`: a folder filled with N games, then `serve --once`, a backup and
//! one mail of each costly kind over it, each in a child process of this binary.

use super::*;

/// Games written per transaction when filling the folder.
const FILL_BATCH: usize = 1000;
/// The copies' deadlines: this far after the real clock, so nothing is due.
const FILL_DEADLINE_AHEAD: i64 = 30 * 86_400;

/// The address of seat `seat` in copy `k` of the stored games: each its own, as players'
/// are, so that a sender's games are few among many.
fn copy_address(k: u64, seat: usize) -> String {
    format!("copy{k}.seat{seat}@{}", crate::play::players::PLAYER_DOMAIN)
}

/// A token for copy `n` (the alphabet of the judge's own tokens).
fn copy_token(mut n: u64) -> String {
    const ALPHABET: &[u8] = b"abcdefghjkmnpqrstuvwxyz23456789";
    (0..6)
        .map(|_| {
            let c = ALPHABET[(n % ALPHABET.len() as u64) as usize] as char;
            n /= ALPHABET.len() as u64;
            c
        })
        .collect()
}

fn unix_now() -> i64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs() as i64)
}

/// Fill a fresh data folder with `s.stored_games` games (one real game created through the
/// judge, then copies of its record with fresh ids and tokens and deadlines ahead of the
/// real clock), then time `serve --once` over it in a child process of this binary.
pub(super) fn run_stored_games(
    s: &BenchSettings,
    base: &Config,
    dir: &Path,
) -> Result<StoredGames, ShellError> {
    std::fs::create_dir_all(dir).map_err(|e| ShellError::io(dir, e))?;
    let n = s.stored_games;
    let fill_start = Instant::now();
    // The database is closed when `fill` returns: the child opens it.
    let (games, due, metrics_scrape_ms) = fill(s, base, dir)?;
    let fill_seconds = fill_start.elapsed().as_secs_f64();
    let mut config = crate::play::demo::local_config(base, dir);
    // The empty pass alone: its rolling backup is measured apart, below.
    config.backup.every_hours = 0;
    let database_bytes = crate::store::dir_size(&config.database_path());
    let cfg_path = dir.with_extension("yaml");
    let yaml = serde_yaml::to_string(&config).map_err(|e| ShellError::Config {
        path: cfg_path.clone(),
        why: e.to_string(),
    })?;
    std::fs::write(&cfg_path, yaml).map_err(|e| ShellError::io(&cfg_path, e))?;
    let child = child_run(&cfg_path, dir, &["serve", "--once"])?;
    let backup_file = dir.with_extension("backup.jsonl");
    let backup = child_run(&cfg_path, dir, &["backup", &backup_file.to_string_lossy()])?;
    let _ = std::fs::remove_file(&backup_file);
    // One mail at a time, each about a copy in the middle of the folder.
    let k = (n.saturating_sub(1) / 2) as u64;
    let player = copy_address(k, 1);
    let judge = &config.judge.address;
    let (local_part, domain) = judge.split_once('@').unwrap_or((judge.as_str(), ""));
    let by_token = format!("{local_part}+{}@{domain}", copy_token(k * 16 + 2));
    let inbox_err = |e: &dyn std::fmt::Display| {
        ShellError::io(config.inbox_path(), std::io::Error::other(e.to_string()))
    };
    let inbox = castellan_mail::Maildir::open(config.inbox_path()).map_err(|e| inbox_err(&e))?;
    let one_mail = |from: &str, to: &str, subject: &str, body: &str| {
        let raw = crate::play::players::order_mail(
            from,
            "Bench",
            to,
            &format!("<{subject}@{}>", crate::play::players::PLAYER_DOMAIN),
            subject,
            body,
        );
        inbox.deliver(raw.as_bytes()).map_err(|e| inbox_err(&e))?;
        let run = child_run(&cfg_path, dir, &["serve", "--once"])?;
        if run.took != Some(1) {
            return Err(ShellError::Usage(format!(
                "serve --once over the stored games took {:?} mails, not the {subject} mail",
                run.took
            )));
        }
        Ok(run.ms)
    };
    let stop_mail_pass_ms = one_mail(&player, judge, "stop", "STOP")?;
    let token_mail_pass_ms = one_mail(&player, &by_token, "status", "STATUS")?;
    let create_mail_pass_ms = one_mail(
        &format!("new-gm@{}", crate::play::players::PLAYER_DOMAIN),
        judge,
        "create",
        &format!("CREATE {} seats={}", s.game, s.players),
    )?;
    Ok(StoredGames {
        games,
        fill_seconds,
        database_bytes,
        due,
        deadline_mails: child.deadline_mails,
        startup_and_empty_pass_ms: child.ms,
        peak_rss_kib: child.peak_rss_kib,
        peak_rss_source: child.peak_rss_source,
        backup_ms: backup.ms,
        backup_peak_rss_kib: backup.peak_rss_kib,
        stop_mail_pass_ms,
        token_mail_pass_ms,
        create_mail_pass_ms,
        metrics_scrape_ms,
    })
}

/// `s.stored_games` games written into the data folder `dir`, and the games the child's
/// pass will find due; one `/metrics` scrape over them timed (ms), which must count them
/// all. Returns (games, due, scrape ms).
fn fill(s: &BenchSettings, base: &Config, dir: &Path) -> Result<(usize, usize, f64), ShellError> {
    let n = s.stored_games;
    let local = LocalJudge::open(base, dir, s.seed)?;
    let svc = &local.svc;
    let mut bots = MailPlayers::new(svc, "bench-stored")?;
    let id = bots.create_game(svc, &s.game, s.players, &[])?;
    local.pass_after(0)?;
    let template = svc.store.game_whole(&id)?.ok_or_else(|| {
        ShellError::Store(castellan_judge::StoreError::new(format!(
            "game {id} vanished"
        )))
    })?;
    let deadline = unix_now() + FILL_DEADLINE_AHEAD;
    let prefix = id.rsplit_once('-').map_or(id.as_str(), |(p, _)| p);
    let mut progress =
        crate::progress::Progress::new("bench (stored games)", "games", Some(n as u64));
    let mut batch = Vec::with_capacity(FILL_BATCH);
    for i in 0..n {
        let mut g = template.clone();
        if i > 0 {
            let k = (i - 1) as u64;
            g.id = format!("{prefix}-{}", 100_000 + k);
            g.gm_token = copy_token(k * 16);
            for (j, seat) in g.seats.iter_mut().enumerate() {
                seat.token = copy_token(k * 16 + j as u64 + 1);
                seat.address = Some(copy_address(k, j));
            }
        }
        if g.deadline.is_some() {
            g.deadline = Some(deadline);
        }
        batch.push(g);
        if batch.len() >= FILL_BATCH || i + 1 == n {
            let games = std::mem::take(&mut batch);
            let count = games.len() as u64;
            svc.store.commit_unflushed(&castellan_judge::Changes {
                games,
                ..Default::default()
            })?;
            progress.inc(count);
        }
    }
    svc.store.flush()?;
    progress.finish();
    // What the child's pass will find due (a reminder or a missed deadline).
    let now = unix_now();
    let ids = svc.store.game_ids()?;
    let mut due = 0;
    for id in &ids {
        if let Some(rec) = svc.store.game_header(id)? {
            if castellan_judge::stored::next_due(&rec).is_some_and(|t| t <= now) {
                due += 1;
            }
        }
    }
    // One scrape; it must have counted every game, or there is nothing to report.
    let scrape = Instant::now();
    let text = crate::serve::metrics::Metrics::default().render(Some(&svc.store), now);
    let metrics_scrape_ms = scrape.elapsed().as_secs_f64() * 1000.0;
    let counted: u64 = text
        .lines()
        .filter(|l| l.starts_with("castellan_games{"))
        .filter_map(|l| l.rsplit(' ').next()?.parse::<u64>().ok())
        .sum();
    if counted != ids.len() as u64 {
        return Err(ShellError::Usage(format!(
            "the metrics counted {counted} games of {}",
            ids.len()
        )));
    }
    Ok((ids.len(), due, metrics_scrape_ms))
}

struct ChildRun {
    ms: f64,
    /// Messages the pass took from the inbox (its own count).
    took: Option<u64>,
    deadline_mails: Option<u64>,
    peak_rss_kib: Option<u64>,
    peak_rss_source: String,
}

/// `castellan --config CFG ARGS...` (this very binary: `serve --once`, `backup FILE`),
/// timed from spawn to exit; its peak RSS from `/usr/bin/time -f %M` when installed, else
/// its VmHWM polled.
fn child_run(cfg: &Path, dir: &Path, args: &[&str]) -> Result<ChildRun, ShellError> {
    let exe = std::env::current_exe().map_err(|e| ShellError::io("current_exe", e))?;
    let time = Path::new("/usr/bin/time");
    let with_time = time.exists();
    let rss_file = dir.with_extension("rss");
    let out_file = dir.with_extension("stdout");
    let err_file = dir.with_extension("stderr");
    let mut cmd = if with_time {
        let mut c = std::process::Command::new(time);
        c.arg("-f").arg("%M").arg("-o").arg(&rss_file).arg(&exe);
        c
    } else {
        std::process::Command::new(&exe)
    };
    let file = |p: &Path| std::fs::File::create(p).map_err(|e| ShellError::io(p, e));
    cmd.arg("--config")
        .arg(cfg)
        .args(args)
        .stdin(std::process::Stdio::null())
        .stdout(file(&out_file)?)
        .stderr(file(&err_file)?);
    let start = Instant::now();
    let mut child = cmd.spawn().map_err(|e| ShellError::io(&exe, e))?;
    let mut polled: Option<u64> = None;
    let status = if with_time {
        child.wait().map_err(|e| ShellError::io(&exe, e))?
    } else {
        loop {
            if let Some(st) = child.try_wait().map_err(|e| ShellError::io(&exe, e))? {
                break st;
            }
            if let Some(k) = vm_hwm(child.id()) {
                polled = Some(polled.map_or(k, |p| p.max(k)));
            }
            std::thread::sleep(Duration::from_millis(2));
        }
    };
    let ms = start.elapsed().as_secs_f64() * 1000.0;
    let stdout = std::fs::read_to_string(&out_file).unwrap_or_default();
    if !status.success() {
        let stderr = std::fs::read_to_string(&err_file).unwrap_or_default();
        return Err(ShellError::io(
            &exe,
            std::io::Error::other(format!(
                "{} over the stored games failed ({status}): {}",
                args.join(" "),
                stderr.trim()
            )),
        ));
    }
    // "took 0 message(s), 0 deadline mail(s), sent 0, 0 not sent (...)"
    let took = stdout
        .split(',')
        .find_map(|p| p.trim().strip_prefix("took "))
        .and_then(|p| p.split_whitespace().next()?.parse().ok());
    let deadline_mails = stdout
        .split(',')
        .find(|p| p.trim_end().ends_with("deadline mail(s)"))
        .and_then(|p| p.split_whitespace().next()?.parse().ok());
    let (peak_rss_kib, peak_rss_source) = if with_time {
        let kib = std::fs::read_to_string(&rss_file)
            .ok()
            .and_then(|t| t.lines().last()?.trim().parse().ok());
        (kib, "/usr/bin/time -f %M".to_string())
    } else {
        (
            polled,
            "/proc/PID/status VmHWM polled every 2 ms".to_string(),
        )
    };
    Ok(ChildRun {
        ms,
        took,
        deadline_mails,
        peak_rss_kib,
        peak_rss_source,
    })
}
