//! The operator's commands on a running judge's data (`game ...`, `campaign ...`,
//! `verify`, `outbox`, `render`, `backup`), run through the judge as a game master's.
//!
//! One code for both ways a command goes: [`answer`] runs it on an open [`Service`] and
//! gives back an [`Answer`] (what to print, the files to write); [`main`] hands it to the
//! running daemon over its admin socket (src/serve/admin_socket.rs), which calls
//! [`answer`] with its own open store, or, when no daemon runs, opens the database itself
//! and calls [`answer`] here. Either way the command says which way it went.

use crate::cli::{pairs, CampaignCommand, Command, GameCommand};
use crate::config::Config;
use crate::error::ShellError;
use crate::serve::env::system_clock;
use crate::serve::runtime::runtime;
use crate::serve::service::Service;
use castellan_judge::AdminCommand;
use serde::{Deserialize, Serialize};
use std::path::PathBuf;
use std::process::ExitCode;

/// What an admin command gives back, wherever it ran: what to print, the files to write
/// (by the caller, as the caller's user), its exit status, and the replies it queued.
#[derive(Debug, Default, Serialize, Deserialize)]
pub struct Answer {
    /// For stdout.
    pub out: String,
    /// For stderr.
    pub note: String,
    /// Files for the caller to write (an export, a picture, a backup to a path of its own).
    pub files: Vec<FileOut>,
    pub code: u8,
    /// Replies this command put in the outbox: run directly, they are sent at once; in
    /// the daemon, by its next pass (which follows at once).
    pub queued: usize,
}

/// A file an admin command made, for its caller to write.
#[derive(Debug, Serialize, Deserialize)]
pub struct FileOut {
    pub path: PathBuf,
    pub text: String,
    /// 0600 whatever the umask (it holds the games' secrets).
    pub private: bool,
}

impl Answer {
    fn out(text: impl Into<String>) -> Answer {
        Answer {
            out: text.into(),
            ..Answer::default()
        }
    }

    /// Print it and write its files; its exit status.
    pub fn deliver(self) -> Result<ExitCode, ShellError> {
        for f in &self.files {
            if f.private {
                crate::store::write_private(&f.path, f.text.as_bytes())
            } else {
                std::fs::write(&f.path, f.text.as_bytes())
            }
            .map_err(|e| ShellError::io(&f.path, e))?;
        }
        print!("{}", self.out);
        eprint!("{}", self.note);
        Ok(ExitCode::from(self.code))
    }
}

/// Which way a command runs: in this process on the database it opened, or in the
/// running daemon on its own.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum By {
    Direct,
    Daemon,
}

/// Whether `cmd` is an admin command: one the running daemon answers over its socket.
pub fn is_admin(cmd: &Command) -> bool {
    matches!(
        cmd,
        Command::Game(_)
            | Command::Campaign(_)
            | Command::Verify { .. }
            | Command::Outbox { .. }
            | Command::Render { .. }
            | Command::Backup { restore: None, .. }
    )
}

/// The file an admin command reads (`game import`, `campaign import`), read by the caller,
/// so the daemon never opens a path of the operator's.
pub fn input_of(cmd: &Command) -> Result<Option<String>, ShellError> {
    let file = match cmd {
        Command::Game(GameCommand::Import { file })
        | Command::Campaign(CampaignCommand::Import { file }) => file,
        _ => return Ok(None),
    };
    std::fs::read_to_string(file)
        .map(Some)
        .map_err(|e| ShellError::io(file, e))
}

/// An admin command: to the running daemon over its socket if one answers, otherwise
/// run here on the database. Says on stderr which way it went.
pub fn main(config: Config, cmd: Command) -> Result<ExitCode, ShellError> {
    let input = input_of(&cmd)?;
    let socket = crate::serve::admin_socket::path(&config.data_dir);
    match crate::serve::admin_socket::ask(&socket, std::env::args().skip(1), input.clone()) {
        Ok(Some(answer)) => {
            eprintln!(
                "castellan: answered by the running daemon (admin socket {})",
                socket.display()
            );
            return answer.deliver();
        }
        Ok(None) => {}
        Err(why) => {
            return Err(ShellError::Usage(format!(
                "the running daemon's admin socket {}: {why}",
                socket.display()
            )))
        }
    }
    crate::ops::ownership::check(&config.data_dir)?;
    eprintln!(
        "castellan: run directly on {} (no daemon answers on {})",
        config.database_path().display(),
        socket.display()
    );
    if let Command::Backup {
        file,
        restore: None,
    } = cmd
    {
        // Streamed to the file with its progress, as `backup` always was.
        return crate::ops::backup::main(config, file, None);
    }
    // An `ingest` holds the database for a moment: waited for.
    let (data_dir, db) = (config.data_dir.clone(), config.database_path());
    let patience = crate::store::patience(&data_dir, std::time::Duration::from_secs(10));
    let svc = Service::open_waiting(config, system_clock(), patience)
        .map_err(|e| held_by_serve(&data_dir, &db, e))?;
    let answer = answer(&svc, cmd, input, By::Direct)?;
    let queued = answer.queued;
    let code = answer.deliver()?;
    if queued > 0 {
        let transport = svc.transport();
        let (sent, failed) = runtime()?.block_on(svc.drain_outbox(&transport))?;
        println!(
            "{sent} mail(s) sent{}",
            if failed > 0 {
                format!(", {failed} not sent (kept for retry, or parked: `castellan outbox`)")
            } else {
                String::new()
            }
        );
    }
    Ok(code)
}

/// A database held by a `serve` that does not answer on its admin socket (one of an older
/// version, or stuck): said so, with the fix, rather than the lock's raw error.
fn held_by_serve(data_dir: &std::path::Path, db: &std::path::Path, e: ShellError) -> ShellError {
    match e {
        ShellError::Store(e)
            if crate::store::SledStore::is_busy_error(&e) && crate::store::is_serving(data_dir) =>
        {
            tracing::debug!("{e}");
            ShellError::Store(castellan_judge::StoreError::busy(format!(
                "the database at {} is held by a `castellan serve` that does not answer on \
                 its admin socket: restart it (systemctl restart castellan), then run the \
                 command again",
                db.display()
            )))
        }
        other => other,
    }
}

/// Run an admin command on the open service `svc`; `input` is the file it reads, read by
/// the caller. The daemon calls this with its own service, a command run directly with
/// the one it opened.
pub fn answer(
    svc: &Service,
    cmd: Command,
    input: Option<String>,
    by: By,
) -> Result<Answer, ShellError> {
    match cmd {
        Command::Game(g) => game(svc, g, input),
        Command::Campaign(c) => campaign(svc, c, input),
        Command::Verify { game } => verify(svc, game),
        Command::Outbox { retry } => outbox(svc, retry),
        Command::Render {
            game,
            turn,
            seat,
            out,
        } => {
            let args = crate::ops::render::RenderArgs {
                game: &game,
                turn,
                seat: seat.as_deref(),
                out: &out,
            };
            let (bytes, line) = crate::ops::render::draw(svc, &args)?;
            Ok(Answer {
                out: format!("{line}\n"),
                files: vec![FileOut {
                    path: out.clone(),
                    text: bytes,
                    private: false,
                }],
                ..Answer::default()
            })
        }
        Command::Backup {
            file,
            restore: None,
        } => backup(svc, file, by),
        other => Err(ShellError::Usage(format!(
            "{other:?} is not an admin command: stop `castellan serve` first"
        ))),
    }
}

/// `game ...`: the operator's commands on one game.
fn game(svc: &Service, g: GameCommand, input: Option<String>) -> Result<Answer, ShellError> {
    let cmd = match g {
        GameCommand::New {
            game,
            players,
            gm,
            options,
        } => AdminCommand::New {
            game: crate::games::named(&game)?.name.to_string(),
            players: pairs(&players, "--player")?,
            gm,
            options: pairs(&options, "--option")?,
        },
        GameCommand::List => AdminCommand::List,
        GameCommand::Show { game } => AdminCommand::Show { game },
        GameCommand::Pause { game } => AdminCommand::Pause { game },
        GameCommand::Resume { game } => AdminCommand::Resume { game },
        GameCommand::Extend { game, hours } => AdminCommand::Extend { game, hours },
        GameCommand::Replace { game, seat, player } => {
            // NAME=ADDRESS or a bare address.
            let address = match player.split_once('=') {
                Some((_, a)) => a.trim().to_string(),
                None => player.trim().to_string(),
            };
            AdminCommand::Replace {
                game,
                seat,
                address,
            }
        }
        GameCommand::End { game } => AdminCommand::End { game },
        GameCommand::Export { game, file } => {
            let e = crate::ops::transfer::export(&svc.store, &game)?;
            return exported(&e, &game, file, "the game's secret");
        }
        GameCommand::Import { file } => {
            let text = input.ok_or_else(|| ShellError::Usage(format!("{}", file.display())))?;
            let id = crate::ops::transfer::import(svc, &text, &crate::games::all())?;
            return Ok(Answer::out(format!("imported {id}\n")));
        }
    };
    admin(svc, cmd)
}

/// `campaign ...`: the operator's commands on campaigns.
fn campaign(
    svc: &Service,
    c: CampaignCommand,
    input: Option<String>,
) -> Result<Answer, ShellError> {
    match c {
        CampaignCommand::New { name, gm, args } => {
            admin(svc, AdminCommand::CampaignNew { gm, name, args })
        }
        CampaignCommand::Add { campaign, game } => {
            admin(svc, AdminCommand::CampaignAdd { campaign, game })
        }
        CampaignCommand::Standings { campaign } => {
            admin(svc, AdminCommand::CampaignStandings { campaign })
        }
        CampaignCommand::List => Ok(Answer::out(crate::ops::transfer::campaign_list(
            &svc.store,
        )?)),
        CampaignCommand::Export { campaign, file } => {
            let e = crate::ops::transfer::export_campaign(&svc.store, &campaign)?;
            let what = format!("{campaign} and its {} game(s)", e.games.len());
            exported(&e, &what, file, "the games' secrets")
        }
        CampaignCommand::Import { file } => {
            let text = input.ok_or_else(|| ShellError::Usage(format!("{}", file.display())))?;
            let done = crate::ops::transfer::import_campaign(svc, &text, &crate::games::all())?;
            Ok(Answer::out(format!("{done}\n")))
        }
    }
}

/// `verify GAME`: the game's log replayed and compared with its stored state.
fn verify(svc: &Service, game: String) -> Result<Answer, ShellError> {
    Ok(
        match svc
            .judge
            .admin(&svc.store, AdminCommand::Verify { game }, &svc.env())
        {
            Ok((_, text)) => Answer::out(format!("{text}\n")),
            Err(e) => Answer {
                out: format!("{e}\n"),
                code: 1,
                ..Answer::default()
            },
        },
    )
}

/// `outbox [--retry]`: replies waiting or parked.
fn outbox(svc: &Service, retry: bool) -> Result<Answer, ShellError> {
    use std::fmt::Write;
    let mut out = String::new();
    if retry {
        let n = svc.store.retry_parked()?;
        let _ = writeln!(
            out,
            "{n} parked repl{} will be tried again",
            if n == 1 { "y" } else { "ies" }
        );
    }
    let items = svc.store.outbox()?;
    let parked = items.iter().filter(|(_, i)| i.failed).count();
    let _ = writeln!(out, "{} waiting, {parked} parked", items.len() - parked);
    for (key, i) in items {
        let _ = writeln!(
            out,
            "{key:>8} {:<7} to {} \"{}\" attempts {}{}",
            if i.failed { "PARKED" } else { "waiting" },
            i.mail.to,
            i.mail.subject,
            i.attempts,
            i.last_error.map(|e| format!(": {e}")).unwrap_or_default()
        );
    }
    Ok(Answer::out(out))
}

/// `backup [FILE]` through the daemon: to the backup folder by the daemon (the data's
/// owner), or to FILE by the caller.
fn backup(svc: &Service, file: Option<PathBuf>, by: By) -> Result<Answer, ShellError> {
    match file {
        Some(path) if by == By::Daemon => {
            let mut bytes = Vec::new();
            let n = crate::ops::backup::write(&svc.store, &mut bytes)?;
            Ok(Answer {
                out: format!("{n} records written to {}\n", path.display()),
                files: vec![FileOut {
                    path,
                    text: String::from_utf8_lossy(&bytes).into_owned(),
                    private: true,
                }],
                ..Answer::default()
            })
        }
        file => {
            let path =
                file.unwrap_or_else(|| crate::ops::backup::path_at(&svc.config, (svc.clock)()));
            let n = crate::ops::backup::write_file(&svc.store, &path, None)?;
            Ok(Answer::out(format!(
                "{n} records written to {}\n",
                path.display()
            )))
        }
    }
}

/// A game master's command run by the operator: its answer, its mail queued.
fn admin(svc: &Service, cmd: AdminCommand) -> Result<Answer, ShellError> {
    let (changes, text) = svc.judge.admin(&svc.store, cmd, &svc.env())?;
    svc.commit(&changes)?;
    Ok(Answer {
        out: format!("{}\n", text.trim_end()),
        queued: changes.outbox.len(),
        ..Answer::default()
    })
}

/// An export as pretty JSON, to `file` (saying what was written and that it holds
/// `secret`) or to stdout.
fn exported(
    export: &impl serde::Serialize,
    what: &str,
    file: Option<PathBuf>,
    secret: &str,
) -> Result<Answer, ShellError> {
    let text = serde_json::to_string_pretty(export).map_err(|e| ShellError::BadInput {
        what: format!("export of {what}"),
        why: e.to_string(),
    })?;
    Ok(match file {
        Some(p) => Answer {
            note: format!(
                "{what} written to {} (it holds {secret}: keep it private)\n",
                p.display()
            ),
            files: vec![FileOut {
                path: p,
                text: text + "\n",
                private: true,
            }],
            ..Answer::default()
        },
        None => Answer::out(text + "\n"),
    })
}
