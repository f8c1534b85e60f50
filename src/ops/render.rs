//! `castellan render GAME [--turn N] [--seat S] --out map.svg|map.html`: the picture of a
//! stored game, as it stood at the end of any dice turn (replayed from its history), for
//! game masters and archives. The same picture the reports carry: the public one, or with
//! `--seat` that seat's (its secrets included: the game master's business).

use crate::error::ShellError;
use crate::serve::service::Service;
use castellan_engine::{Lang, Session, Viewer};
use castellan_judge::Store;
use std::path::Path;

/// What to draw.
pub struct RenderArgs<'a> {
    pub game: &'a str,
    pub turn: Option<u32>,
    /// Seat number from 1, or the player's name.
    pub seat: Option<&'a str>,
    pub out: &'a Path,
}

/// Draw it: the file's text (for `a.out`, written by the caller) and a line saying what
/// it is.
pub fn draw(svc: &Service, a: &RenderArgs) -> Result<(String, String), ShellError> {
    let stored = svc
        .store
        .game_whole(a.game)?
        .ok_or_else(|| ShellError::Usage(format!("there is no game \"{}\"", a.game)))?;
    let rec = &stored.record;
    let session = crate::play::players::load_session(&stored)?.ok_or_else(|| {
        ShellError::Usage(format!("{} has not started: nothing to draw yet", a.game))
    })?;
    let session: Box<dyn Session> = match a.turn {
        Some(n) if n < 1 => {
            return Err(ShellError::Usage(format!(
                "--turn {n}: the turns of {} are numbered from 1",
                a.game
            )))
        }
        Some(n) => session.at_turn(n).map_err(|why| ShellError::BadInput {
            what: format!("{}'s history", a.game),
            why,
        })?,
        None => session,
    };
    let viewer = match a.seat {
        None => Viewer::Public,
        Some(s) => {
            let i = match s.parse::<usize>() {
                Ok(n) if (1..=rec.seats.len()).contains(&n) => Some(n - 1),
                _ => rec
                    .seats
                    .iter()
                    .position(|x| x.name.eq_ignore_ascii_case(s)),
            };
            Viewer::Seat(i.ok_or_else(|| {
                ShellError::Usage(format!(
                    "--seat {s}: {} has seats 1 to {} ({})",
                    a.game,
                    rec.seats.len(),
                    rec.seats
                        .iter()
                        .map(|x| x.name.as_str())
                        .collect::<Vec<_>>()
                        .join(", ")
                ))
            })?)
        }
    };
    let lang = rec.language.unwrap_or(svc.config.judge.language);
    let svg = session
        .picture(viewer, lang)
        .ok_or_else(|| ShellError::Usage(format!("{} games draw no picture", rec.game)))?;
    let ext = a
        .out
        .extension()
        .and_then(|e| e.to_str())
        .map(str::to_lowercase);
    let bytes = match ext.as_deref() {
        Some("svg") => svg,
        Some("html" | "htm") => {
            let mut text = session.public_view(lang);
            if let Viewer::Seat(s) = viewer {
                text.push_str("\n\n");
                text.push_str(&session.private_view(s, lang));
            }
            let title = match lang {
                Lang::En => format!("{}, turn {}", rec.id, session.turn()),
                Lang::Fr => format!("{}, tour {}", rec.id, session.turn()),
            };
            castellan_judge::html_page(&title, &text, &svg, lang)
        }
        _ => {
            return Err(ShellError::Usage(format!(
                "--out {}: write to a file ending in .svg or .html",
                a.out.display()
            )))
        }
    };
    let line = format!(
        "wrote {} ({} bytes): {} at turn {}",
        a.out.display(),
        bytes.len(),
        rec.id,
        session.turn()
    );
    Ok((bytes, line))
}
