//! The `castellan` binary: parses the flags, resolves the configuration, and hands each
//! command to the module that does it.

use castellan::cli::{Cli, Command};
use castellan::config::{Config, ConfigSource};
use castellan::error::ShellError;
use castellan::{ops, play, serve};
use clap::Parser;
use std::process::ExitCode;

fn main() -> ExitCode {
    castellan::pipe::end_quietly_on_broken_pipe();
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(e) => return refused_command_line(e),
    };
    if let Command::Ingest { file } = &cli.command {
        castellan::logging::init(cli.log_format, castellan::logging::LogTo::Syslog);
        return serve::ingest::main(&cli, file);
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

fn run(cli: Cli) -> Result<ExitCode, ShellError> {
    // Made from the command line alone, whatever the configuration.
    let stdout = &mut std::io::stdout();
    match cli.command {
        Command::Manpage => return Ok(manual(castellan::manual::manpage(stdout))),
        Command::Completions { shell } => {
            return Ok(manual(castellan::manual::completions(shell, stdout)))
        }
        _ => {}
    }
    let source = ConfigSource::resolve(cli.config.as_deref());
    if let Command::Doctor = cli.command {
        // Before the configuration is loaded: one that does not load is one of the
        // doctor's findings.
        return Ok(ops::doctor::main(&source, cli.data_dir.as_deref()));
    }
    let config = Config::load_for(&source, cli.data_dir.as_deref())?;
    if !matches!(cli.command, Command::Config { .. }) {
        tracing::info!(config = %source.path.display(), "{}", source.describe());
    }
    if ops::ownership::guards(&cli.command) {
        ops::ownership::check(&config.data_dir)?;
    }
    match cli.command {
        Command::Config { show_secrets } => {
            config.show(&source, show_secrets)?;
            Ok(ExitCode::SUCCESS)
        }
        Command::Serve { once } => {
            let reload = serve::reload::Reload {
                source,
                data_dir: cli.data_dir,
            };
            serve::daemon::main(config, once, reload)
        }
        // Handled above (`ingest` in `main`).
        Command::Ingest { .. } | Command::Doctor => Ok(ExitCode::SUCCESS),
        Command::Manpage | Command::Completions { .. } => Ok(ExitCode::SUCCESS),
        // To the running daemon through its admin socket, or run here (`ops::admin`).
        cmd @ (Command::Game(_)
        | Command::Campaign(_)
        | Command::Verify { .. }
        | Command::Outbox { .. }
        | Command::Render { .. }
        | Command::Backup { restore: None, .. }) => ops::admin::main(config, cmd),
        Command::Backup { file, restore } => ops::backup::main(config, file, restore),
        Command::Recover => ops::recover::main(&config),
        Command::Compact => ops::compact::main(&config),
        Command::Simulate(a) => play::simulate::main(a),
        Command::Demo(a) if a.campaign => play::tournament_demo::main(config, a),
        Command::Demo(a) => play::demo::main(config, a),
        Command::Bench(a) => play::bench::main(config, a),
    }
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
        return castellan::serve::ingest::deferred(
            format!("the command line: {}", e.render()).trim_end(),
        );
    }
    e.exit()
}

/// The man page or the completions written, or why not.
fn manual(written: std::io::Result<()>) -> ExitCode {
    match written {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("castellan: cannot write it: {e}");
            ExitCode::FAILURE
        }
    }
}
