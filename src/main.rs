//! The `castellan` binary: resolves flags against the configuration and calls the library.

use castellan::cli::{key_value, CampaignCommand, Cli, Command, GameCommand};
use castellan::config::{Config, ConfigSource};
use castellan::serve::env::system_clock;
use castellan::serve::service::Service;
use castellan_judge::AdminCommand;
use clap::Parser;
use std::io::Read;
use std::process::ExitCode;

use castellan::error::{ShellError, EX_TEMPFAIL};

fn main() -> ExitCode {
    castellan::pipe::end_quietly_on_broken_pipe();
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(e) => return refused_command_line(e),
    };
    if let Command::Ingest { file } = &cli.command {
        castellan::logging::init(cli.log_format, castellan::logging::LogTo::Syslog);
        return ingest_main(&cli, file);
    }
    castellan::logging::init(cli.log_format, castellan::logging::LogTo::Stderr);
    match run(cli) {
        Ok(code) => code,
        Err(e) => {
            eprintln!("castellan: {e}");
            ExitCode::from(e.exit_code())
        }
    }
}

fn pairs(list: &[String], flag: &str) -> Result<Vec<(String, String)>, ShellError> {
    list.iter()
        .map(|s| key_value(s, flag).map_err(ShellError::Usage))
        .collect()
}

fn load_config(cli: &Cli, source: &ConfigSource) -> Result<Config, ShellError> {
    let mut c = Config::load(&source.path, source.must_exist)?;
    if let Some(d) = &cli.data_dir {
        c.data_dir = d.clone();
    }
    Ok(c)
}

fn runtime() -> Result<tokio::runtime::Runtime, ShellError> {
    tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .map_err(|source| ShellError::Setup {
            what: "cannot start the async runtime",
            source,
        })
}

fn admin(config: Config, cmd: AdminCommand) -> Result<ExitCode, ShellError> {
    let svc = Service::open(config, system_clock())?;
    let (changes, text) = svc.judge.admin(&svc.store, cmd, &svc.env())?;
    svc.commit(&changes)?;
    println!("{}", text.trim_end());
    if !changes.outbox.is_empty() {
        let transport = svc.transport();
        let (sent, failed) = runtime()?.block_on(svc.drain_outbox(&transport))?;
        println!(
            "{sent} mail(s) sent{}",
            if failed > 0 {
                format!(", {failed} kept for retry")
            } else {
                String::new()
            }
        );
    }
    Ok(ExitCode::SUCCESS)
}

fn run(cli: Cli) -> Result<ExitCode, ShellError> {
    let source = ConfigSource::resolve(cli.config.as_deref());
    if let Command::Doctor = cli.command {
        // Before load_config: a config that does not load is one of the doctor's findings.
        let checks =
            castellan::ops::doctor::run(&source.path, source.must_exist, cli.data_dir.as_deref());
        let (text, healthy) = castellan::ops::doctor::render(&checks);
        println!("{}", source.describe());
        print!("{text}");
        return Ok(if healthy {
            ExitCode::SUCCESS
        } else {
            ExitCode::FAILURE
        });
    }
    let config = load_config(&cli, &source)?;
    if !matches!(cli.command, Command::Config { .. }) {
        tracing::info!(config = %source.path.display(), "{}", source.describe());
    }
    match cli.command {
        Command::Config { show_secrets } => {
            // First, as a YAML comment: the output stays a configuration file.
            println!("# {}", source.describe());
            let config = if show_secrets {
                config
            } else {
                config.with_secrets_hidden()
            };
            print!(
                "{}",
                serde_yaml::to_string(&config).map_err(|e| ShellError::Config {
                    path: source.path.clone(),
                    why: e.to_string(),
                })?
            );
            Ok(ExitCode::SUCCESS)
        }
        Command::Serve { once } => serve(config, once),
        Command::Ingest { .. } => Ok(ExitCode::SUCCESS), // handled in main
        Command::Game(g) => game_command(config, g),
        Command::Campaign(c) => campaign_command(config, c),
        Command::Doctor => Ok(ExitCode::SUCCESS), // handled above
        Command::Simulate(a) if a.by_mail => {
            let settings = castellan::play::mailsim::Settings {
                seed: a.seed,
                games: a.games,
                max_events: a.max_events,
                only: a.only,
                shell_every: a.shell_every,
                threads: std::thread::available_parallelism().map_or(1, |n| n.get()),
            };
            let r = castellan::play::mailsim::run(&settings);
            print_report(a.json, &r, &r.text())?;
            Ok(if r.broken.is_empty() {
                ExitCode::SUCCESS
            } else {
                ExitCode::FAILURE
            })
        }
        Command::Simulate(a) => {
            let game = castellan::games::find(&a.game).ok_or_else(|| unknown_game(&a.game))?;
            let settings = castellan::play::simulate::SimulateSettings {
                game,
                players: a.players,
                games: a.games,
                seed: a.seed,
                options: pairs(&a.options, "--option")?,
                order_cap: a.max_orders,
                replay: !a.no_replay,
            };
            let mut progress =
                castellan::progress::Progress::new("simulate", "games", Some(a.games as u64));
            let r = castellan::play::simulate::run_with(&settings, &mut |_| progress.inc(1));
            progress.finish();
            print_report(a.json, &r, &r.text())?;
            Ok(if r.errors.is_empty() {
                ExitCode::SUCCESS
            } else {
                ExitCode::FAILURE
            })
        }
        Command::Verify { game } => {
            let svc = Service::open(config, system_clock())?;
            match svc
                .judge
                .admin(&svc.store, AdminCommand::Verify { game }, &svc.env())
            {
                Ok((_, text)) => {
                    println!("{text}");
                    Ok(ExitCode::SUCCESS)
                }
                Err(e) => {
                    println!("{e}");
                    Ok(ExitCode::FAILURE)
                }
            }
        }
        Command::Render {
            game,
            turn,
            seat,
            out,
        } => {
            let svc = Service::open(config, system_clock())?;
            let args = castellan::ops::render::RenderArgs {
                game: &game,
                turn,
                seat: seat.as_deref(),
                out: &out,
            };
            println!("{}", castellan::ops::render::render(&svc, &args)?);
            Ok(ExitCode::SUCCESS)
        }
        Command::Demo(a) if a.campaign => {
            let game = if a.game == "castle-risk" {
                "risk".to_string()
            } else {
                a.game.clone()
            };
            castellan::games::find(&game).ok_or_else(|| unknown_game(&game))?;
            let mut options = pairs(&a.options, "--option")?;
            if options.is_empty() && game == "risk" {
                options = vec![
                    ("claim".into(), "random".into()),
                    ("placement".into(), "blind".into()),
                ];
            }
            let settings = castellan::play::tournament_demo::TournamentSettings {
                game,
                players: a.entrants,
                seed: a.seed,
                turn_limit: a.turn_limit,
                final_turn_limit: a.final_turn_limit,
                options,
                dir: a
                    .dir
                    .clone()
                    .unwrap_or_else(|| config.data_dir.join("demo-campaign")),
                max_mails: a.max_mails,
            };
            let r = castellan::play::tournament_demo::run(&settings, &config)?;
            print!("{}", r.text());
            Ok(if r.winner().is_some() {
                ExitCode::SUCCESS
            } else {
                ExitCode::FAILURE
            })
        }
        Command::Demo(a) => {
            castellan::games::find(&a.game).ok_or_else(|| unknown_game(&a.game))?;
            let dir = a
                .dir
                .clone()
                .unwrap_or_else(|| config.data_dir.join("demo"));
            let settings = castellan::play::demo::DemoSettings {
                game: a.game.clone(),
                players: a.players,
                seed: a.seed,
                options: pairs(&a.options, "--option")?,
                dir,
                max_mails: a.max_mails,
                minutes_per_pass: 10,
            };
            let r = castellan::play::demo::run(&settings, &config)?;
            print!("{}", r.text());
            Ok(if r.audit.starts_with("AUDIT FAILED") {
                ExitCode::FAILURE
            } else {
                ExitCode::SUCCESS
            })
        }
        Command::Bench(a) => {
            castellan::games::find(&a.game).ok_or_else(|| unknown_game(&a.game))?;
            let r = castellan::play::bench::run(
                &castellan::play::bench::BenchSettings {
                    game: a.game.clone(),
                    players: a.players,
                    mails: a.mails,
                    tables: a.tables.clone(),
                    engine_games: a.games,
                    seed: a.seed,
                    late_turn: a.late_turn,
                    stored_games: a.stored_games,
                    judges: a.judges,
                    text_mails: a.mail_format == castellan::cli::BenchMailFormat::Text,
                },
                &config,
            )?;
            print_report(a.json, &r, &r.text())?;
            Ok(ExitCode::SUCCESS)
        }
        Command::Outbox { retry } => outbox(config, retry),
        Command::Backup { file, restore } => backup(config, file, restore),
        Command::Recover => {
            let r = castellan::ops::recover::recover(&config, system_clock())?;
            print!("{}", r.text());
            Ok(ExitCode::SUCCESS)
        }
        Command::Compact => {
            let c = castellan::ops::compact::compact(&config, system_clock()())?;
            println!(
                "compacted {}: {} records, {} bytes -> {} bytes",
                config.database_path().display(),
                c.records,
                c.bytes_before,
                c.bytes_after
            );
            Ok(ExitCode::SUCCESS)
        }
    }
}

/// `serve` and `serve --once`.
fn serve(config: Config, once: bool) -> Result<ExitCode, ShellError> {
    check_ca_files(&config)?;
    // An `ingest` (or a command) holding the database for a moment is waited for (by
    // `serve --once` for 30 s at most: a timer's job does not hang); another `serve` (its
    // marker is there) is not.
    let patience = castellan::store::patience(&config.data_dir, std::time::Duration::from_secs(30));
    let svc = if once {
        Service::open_waiting(config, system_clock(), patience)?
    } else {
        Service::open_when_free(config, system_clock(), !patience.is_zero())?
    };
    let transport = svc.transport();
    // What a batch killed in the middle left in the file outbox (never a mail).
    match transport.sweep_stale(std::time::Duration::from_secs(3600)) {
        Ok(0) => {}
        Ok(n) => tracing::info!("removed {n} stale temporary file(s) from the outbox folder"),
        Err(e) => tracing::warn!("the outbox folder: {e}"),
    }
    let rt = runtime()?;
    if once {
        let r = rt.block_on(svc.run_once(&transport))?;
        println!(
            "took {} message(s), {} deadline mail(s), sent {}, {} kept for retry",
            r.taken, r.ticked, r.sent, r.failed
        );
        svc.flush()?;
        // A timer running `serve --once` gets the daemon's rolling backups too.
        if let Err(e) = svc.rolling_backup() {
            tracing::error!("rolling backup: {e}");
        }
        Ok(ExitCode::SUCCESS)
    } else {
        rt.block_on(castellan::serve::daemon::serve(svc, transport))?;
        Ok(ExitCode::SUCCESS)
    }
}

/// What `ingest` prints when it defers a message: the MTA may put it into a bounce, so it
/// names no path, key or internal error (the log has them).
const TEMPFAIL_NOTE: &str = "castellan: temporary failure, see the judge's log";

/// `ingest` as an MTA's pipe runs it (issue 34): every failure of ours (configuration,
/// permissions, store, journal, even a panic) exits 75 (EX_TEMPFAIL), so the MTA keeps the
/// mail and tries again, and prints only [`TEMPFAIL_NOTE`]; the detail goes to the log
/// (syslog, or `CASTELLAN_LOG_FILE`).
fn ingest_main(cli: &Cli, file: &str) -> ExitCode {
    std::panic::set_hook(Box::new(|info| {
        tracing::error!("ingest: {info}");
        eprintln!("{TEMPFAIL_NOTE}");
        std::process::exit(EX_TEMPFAIL.into());
    }));
    let source = ConfigSource::resolve(cli.config.as_deref());
    // Every line ingest logs names the configuration it read (a span's field), without a
    // line of its own for each mail.
    let _span = tracing::info_span!("ingest", config = %source.path.display()).entered();
    tracing::debug!("{}", source.describe());
    match load_config(cli, &source).and_then(|c| ingest(c, file)) {
        Ok(code) => code,
        Err(e) => deferred(e),
    }
}

/// A failure of ours in `ingest`: logged in full, [`TEMPFAIL_NOTE`] printed (and the
/// detail too when stderr is a terminal: an operator at work, never an MTA), exit 75.
fn deferred(detail: impl std::fmt::Display) -> ExitCode {
    tracing::error!(
        "ingest: {detail}; the message is deferred (exit 75): the MTA keeps it and tries again"
    );
    use std::io::IsTerminal;
    if std::io::stderr().is_terminal() {
        eprintln!("castellan ingest: {detail}");
    }
    eprintln!("{TEMPFAIL_NOTE}");
    ExitCode::from(EX_TEMPFAIL)
}

/// A command line clap refuses. For `ingest` it is the operator's mistake in the MTA's
/// pipe (Postfix bounces on any exit status but 75 and 71): deferred as any failure of
/// ours, the usage logged, not printed into a bounce. Any other command: clap's message
/// and exit status.
fn refused_command_line(e: clap::Error) -> ExitCode {
    use clap::error::ErrorKind;
    let shown = matches!(
        e.kind(),
        ErrorKind::DisplayHelp
            | ErrorKind::DisplayVersion
            | ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand
    );
    if !shown && std::env::args().skip(1).any(|a| a == "ingest") {
        castellan::logging::init(
            castellan::logging::LogFormat::Text,
            castellan::logging::LogTo::Syslog,
        );
        return deferred(format!("the command line: {}", e.render()).trim_end());
    }
    e.exit()
}

/// `ingest`: one message from an MTA's pipe (or a file): stored in the Maildir first,
/// then handled if the database is free. What it prints on a failure is in [`deferred`].
fn ingest(config: Config, file: &str) -> Result<ExitCode, ShellError> {
    // At most `max_stored_bytes` + 1 bytes are read: a bigger message is never held whole
    // in memory nor stored (issue 30: 200 MB cost 420 MiB and was stored, twice for a
    // duplicate).
    let limit = config.max_stored_bytes;
    let mut raw = Vec::new();
    let read = |input: &mut dyn std::io::Read, raw: &mut Vec<u8>| {
        input
            .take(limit.saturating_add(1) as u64)
            .read_to_end(raw)
            .map(|_| ())
    };
    let mut rest: Box<dyn std::io::Read> = if file == "-" {
        Box::new(std::io::stdin())
    } else {
        match std::fs::File::open(file) {
            Ok(f) => Box::new(f),
            Err(e) => return Ok(deferred(format!("cannot read {file}: {e}"))),
        }
    };
    if let Err(e) = read(&mut *rest, &mut raw) {
        return Ok(deferred(format!("cannot read {file}: {e}")));
    }
    if raw.len() > limit {
        return Ok(refuse_oversized(&raw, &mut *rest, limit));
    }
    // The message is safe on disk first (Maildir, synced); then handled if the
    // database is free. A running daemon holds the database: it takes the
    // message from the Maildir on its next pass.
    let inbox = match castellan_mail::Maildir::open(config.inbox_path()) {
        Ok(m) => m,
        Err(e) => {
            return Ok(deferred(format!(
                "inbox {}: {e}",
                config.inbox_path().display()
            )))
        }
    };
    if let Err(e) = inbox.deliver(&raw) {
        return Ok(deferred(format!(
            "cannot store the message in {}: {e}",
            config.inbox_path().display()
        )));
    }
    // Another `ingest` may hold the database for a moment: wait for it (it takes this
    // message too if it lists the inbox again first). A running `serve` holds it for
    // good and takes the message on its next pass.
    let patience = castellan::store::patience(&config.data_dir, std::time::Duration::from_secs(10));
    let svc = match Service::open_waiting(config, system_clock(), patience) {
        Ok(svc) => svc,
        Err(ShellError::Store(e)) if castellan::store::SledStore::is_busy_error(&e) => {
            tracing::info!("ingest: stored in the inbox; the database is not free ({e})");
            println!(
                "stored in the inbox; the database is not free: `castellan serve` takes it on its next pass"
            );
            return Ok(ExitCode::SUCCESS);
        }
        // Damaged, gone back in time, or a full disk: the MTA keeps the mail and
        // tries again (the copy in the inbox is recognised, not applied twice).
        Err(e) => return Ok(deferred(e)),
    };
    let n = match svc.process_maildir() {
        Ok(n) => n,
        Err(e) => return Ok(deferred(format!("the message is kept in the inbox: {e}"))),
    };
    // The mail is taken: whatever happens to the sending now, the replies wait in the
    // outbox for the next try (exit 0, or the MTA would deliver the mail again).
    let transport = svc.transport();
    match runtime().and_then(|rt| rt.block_on(svc.drain_outbox(&transport))) {
        Ok((sent, 0)) => println!("handled {n} message(s), sent {sent} mail(s)"),
        Ok((sent, failed)) => {
            tracing::warn!("ingest: {failed} repl(ies) not sent now, kept in the outbox for retry");
            println!("handled {n} message(s), sent {sent} mail(s), {failed} kept for retry")
        }
        Err(e) => {
            tracing::error!("ingest: the replies wait in the outbox: {e}");
            println!("handled {n} message(s); the replies wait in the outbox")
        }
    }
    Ok(ExitCode::SUCCESS)
}

/// A message over `max_stored_bytes`: the rest of it is read and thrown away (an MTA
/// writing into a pipe closed early would count a failure and try again), nothing is
/// stored, and nobody is answered (its sender is whatever its From says: an answer would
/// be backscatter; a real player's mail is far smaller, and the MTA's own size limit, when
/// set, refuses it earlier with a notice to the sending server). Exit 0: the MTA does not
/// try again. Logged with what the headers say.
fn refuse_oversized(head: &[u8], rest: &mut dyn std::io::Read, limit: usize) -> ExitCode {
    let more = std::io::copy(rest, &mut std::io::sink()).unwrap_or(0);
    let total = (head.len() as u64).saturating_add(more);
    let start = &head[..head.len().min(64 * 1024)];
    let (from, id) = match castellan_mail::parse(start, 1024) {
        Ok(m) => (m.from, m.message_id),
        Err(_) => (String::new(), String::new()),
    };
    tracing::warn!(
        bytes = total,
        limit,
        from = %from,
        message_id = %id,
        "ingest: message over max_stored_bytes, not stored and not answered"
    );
    println!(
        "not stored: the message has {total} bytes, over max_stored_bytes ({limit}); nothing is answered"
    );
    ExitCode::SUCCESS
}

/// `outbox [--retry]`: replies waiting or parked.
fn outbox(config: Config, retry: bool) -> Result<ExitCode, ShellError> {
    let svc = Service::open(config, system_clock())?;
    if retry {
        let n = svc.store.retry_parked()?;
        println!(
            "{n} parked repl{} will be tried again",
            if n == 1 { "y" } else { "ies" }
        );
    }
    let items = svc.store.outbox()?;
    let parked = items.iter().filter(|(_, i)| i.failed).count();
    println!("{} waiting, {parked} parked", items.len() - parked);
    for (key, i) in items {
        println!(
            "{key:>8} {:<7} to {} \"{}\" attempts {}{}",
            if i.failed { "PARKED" } else { "waiting" },
            i.mail.to,
            i.mail.subject,
            i.attempts,
            i.last_error.map(|e| format!(": {e}")).unwrap_or_default()
        );
    }
    Ok(ExitCode::SUCCESS)
}

/// `backup [FILE]` and `backup --restore FILE`.
fn backup(
    config: Config,
    file: Option<std::path::PathBuf>,
    restore: Option<std::path::PathBuf>,
) -> Result<ExitCode, ShellError> {
    let svc = Service::open(config, system_clock())?;
    if let Some(path) = restore {
        let done = castellan::ops::backup::restore_file(&svc.store, &path, true)?;
        println!("restored {} records from {}", done.records, path.display());
    } else {
        let path =
            file.unwrap_or_else(|| castellan::ops::rolling::path_at(&svc.config, (svc.clock)()));
        let mut progress = castellan::progress::Progress::new("backup", "records", None);
        let n = castellan::ops::backup::write_file(&svc.store, &path, Some(&mut progress))?;
        progress.finish();
        println!("{n} records written to {}", path.display());
    }
    Ok(ExitCode::SUCCESS)
}

/// A configured CA file that cannot be used stops `serve` at once, naming the key, rather
/// than failing every poll and parking every reply.
fn check_ca_files(c: &Config) -> Result<(), ShellError> {
    for (key, f) in c.ca_files_in_use() {
        castellan_mail::check_ca_file(f).map_err(|e| ShellError::Config {
            path: key.into(),
            why: e.to_string(),
        })?;
    }
    Ok(())
}

/// A report as JSON (`--json`, for scripts) or as text.
fn print_report<R: serde::Serialize>(json: bool, report: &R, text: &str) -> Result<(), ShellError> {
    if json {
        let j = serde_json::to_string_pretty(report).map_err(|e| ShellError::BadInput {
            what: "report".into(),
            why: e.to_string(),
        })?;
        println!("{j}");
    } else {
        print!("{text}");
    }
    Ok(())
}

fn unknown_game(name: &str) -> ShellError {
    let names: Vec<&str> = castellan::games::all().iter().map(|g| g.name).collect();
    ShellError::Usage(format!(
        "unknown game \"{name}\"; the games are: {}",
        names.join(", ")
    ))
}

/// An export as pretty JSON, to `file` (saying what was written and that it holds
/// `secret`) or to stdout.
fn write_export(
    export: &impl serde::Serialize,
    what: &str,
    file: Option<std::path::PathBuf>,
    secret: &str,
) -> Result<ExitCode, ShellError> {
    let text = serde_json::to_string_pretty(export).map_err(|e| ShellError::BadInput {
        what: format!("export of {what}"),
        why: e.to_string(),
    })?;
    match file {
        Some(p) => {
            castellan::store::write_private(&p, (text + "\n").as_bytes())
                .map_err(|e| ShellError::io(&p, e))?;
            eprintln!(
                "{what} written to {} (it holds {secret}: keep it private)",
                p.display()
            );
        }
        None => println!("{text}"),
    }
    Ok(ExitCode::SUCCESS)
}

fn campaign_command(config: Config, c: CampaignCommand) -> Result<ExitCode, ShellError> {
    match c {
        CampaignCommand::New { name, gm, args } => {
            admin(config, AdminCommand::CampaignNew { gm, name, args })
        }
        CampaignCommand::Add { campaign, game } => {
            admin(config, AdminCommand::CampaignAdd { campaign, game })
        }
        CampaignCommand::Standings { campaign } => {
            admin(config, AdminCommand::CampaignStandings { campaign })
        }
        CampaignCommand::List => {
            let svc = Service::open(config, system_clock())?;
            let text = castellan::ops::transfer::campaign_list(&svc.store)?;
            print!("{text}");
            Ok(ExitCode::SUCCESS)
        }
        CampaignCommand::Export { campaign, file } => {
            let svc = Service::open(config, system_clock())?;
            let e = castellan::ops::transfer::export_campaign(&svc.store, &campaign)?;
            let what = format!("{campaign} and its {} game(s)", e.games.len());
            write_export(&e, &what, file, "the games' secrets")
        }
        CampaignCommand::Import { file } => {
            let svc = Service::open(config, system_clock())?;
            let text = std::fs::read_to_string(&file).map_err(|e| ShellError::io(&file, e))?;
            let done =
                castellan::ops::transfer::import_campaign(&svc, &text, &castellan::games::all())?;
            println!("{done}");
            Ok(ExitCode::SUCCESS)
        }
    }
}

fn game_command(config: Config, g: GameCommand) -> Result<ExitCode, ShellError> {
    match g {
        GameCommand::New {
            game,
            players,
            gm,
            options,
        } => {
            let info = castellan::games::find(&game).ok_or_else(|| unknown_game(&game))?;
            admin(
                config,
                AdminCommand::New {
                    game: info.name.to_string(),
                    players: pairs(&players, "--player")?,
                    gm,
                    options: pairs(&options, "--option")?,
                },
            )
        }
        GameCommand::List => admin(config, AdminCommand::List),
        GameCommand::Show { game } => admin(config, AdminCommand::Show { game }),
        GameCommand::Pause { game } => admin(config, AdminCommand::Pause { game }),
        GameCommand::Resume { game } => admin(config, AdminCommand::Resume { game }),
        GameCommand::Extend { game, hours } => admin(config, AdminCommand::Extend { game, hours }),
        GameCommand::Replace { game, seat, player } => {
            // NAME=ADDRESS or a bare address.
            let address = match player.split_once('=') {
                Some((_, a)) => a.trim().to_string(),
                None => player.trim().to_string(),
            };
            admin(
                config,
                AdminCommand::Replace {
                    game,
                    seat,
                    address,
                },
            )
        }
        GameCommand::End { game } => admin(config, AdminCommand::End { game }),
        GameCommand::Export { game, file } => {
            let svc = Service::open(config, system_clock())?;
            let e = castellan::ops::transfer::export(&svc.store, &game)?;
            write_export(&e, &game, file, "the game's secret")
        }
        GameCommand::Import { file } => {
            let svc = Service::open(config, system_clock())?;
            let text = std::fs::read_to_string(&file).map_err(|e| ShellError::io(&file, e))?;
            let id = castellan::ops::transfer::import(&svc, &text, &castellan::games::all())?;
            println!("imported {id}");
            Ok(ExitCode::SUCCESS)
        }
    }
}
