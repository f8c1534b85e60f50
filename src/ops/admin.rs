//! The operator's commands on games and campaigns (`game ...`, `campaign ...`, `verify`),
//! run through the judge as a game master's, and `outbox`.

use crate::cli::{pairs, CampaignCommand, GameCommand};
use crate::config::Config;
use crate::error::ShellError;
use crate::serve::daemon::runtime;
use crate::serve::env::system_clock;
use crate::serve::service::Service;
use castellan_judge::AdminCommand;
use std::process::ExitCode;

/// `game ...`: the operator's commands on one game.
pub fn game(config: Config, g: GameCommand) -> Result<ExitCode, ShellError> {
    match g {
        GameCommand::New {
            game,
            players,
            gm,
            options,
        } => {
            let info = crate::games::named(&game)?;
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
            let e = crate::ops::transfer::export(&svc.store, &game)?;
            write_export(&e, &game, file, "the game's secret")
        }
        GameCommand::Import { file } => {
            let svc = Service::open(config, system_clock())?;
            let text = std::fs::read_to_string(&file).map_err(|e| ShellError::io(&file, e))?;
            let id = crate::ops::transfer::import(&svc, &text, &crate::games::all())?;
            println!("imported {id}");
            Ok(ExitCode::SUCCESS)
        }
    }
}

/// `campaign ...`: the operator's commands on campaigns.
pub fn campaign(config: Config, c: CampaignCommand) -> Result<ExitCode, ShellError> {
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
            let text = crate::ops::transfer::campaign_list(&svc.store)?;
            print!("{text}");
            Ok(ExitCode::SUCCESS)
        }
        CampaignCommand::Export { campaign, file } => {
            let svc = Service::open(config, system_clock())?;
            let e = crate::ops::transfer::export_campaign(&svc.store, &campaign)?;
            let what = format!("{campaign} and its {} game(s)", e.games.len());
            write_export(&e, &what, file, "the games' secrets")
        }
        CampaignCommand::Import { file } => {
            let svc = Service::open(config, system_clock())?;
            let text = std::fs::read_to_string(&file).map_err(|e| ShellError::io(&file, e))?;
            let done = crate::ops::transfer::import_campaign(&svc, &text, &crate::games::all())?;
            println!("{done}");
            Ok(ExitCode::SUCCESS)
        }
    }
}

/// `verify GAME`: the game's log replayed and compared with its stored state.
pub fn verify(config: Config, game: String) -> Result<ExitCode, ShellError> {
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

/// `outbox [--retry]`: replies waiting or parked.
pub fn outbox(config: Config, retry: bool) -> Result<ExitCode, ShellError> {
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

/// A game master's command run by the operator: its answer printed, its mail sent.
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
            crate::store::write_private(&p, (text + "\n").as_bytes())
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
