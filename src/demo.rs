//! `castellan demo`: bots play one whole game by email through the real pipeline on the
//! embedded defaults (Maildir inbox, sled on disk, file outbox), then the game is audited.

use crate::config::Config;
use crate::players::{play_games, MailPlayers, PlayError};
use crate::service::{Entropy, Service};
use castellan_judge::{AdminCommand, Status, Store};
use std::path::PathBuf;
use std::sync::atomic::{AtomicI64, Ordering};
use std::sync::Arc;

pub struct DemoSettings {
    pub game: String,
    pub players: usize,
    pub seed: u64,
    pub options: Vec<(String, String)>,
    pub dir: PathBuf,
    pub max_mails: usize,
    /// Simulated minutes between two passes (deadlines are hours away: none is missed).
    pub minutes_per_pass: i64,
}

#[derive(Debug)]
pub struct DemoReport {
    pub game_id: String,
    pub status: Status,
    pub ended: Option<String>,
    pub mails_in: usize,
    pub mails_out: usize,
    pub turns: u32,
    pub dir: PathBuf,
    pub inbox: PathBuf,
    pub outbox: PathBuf,
    pub database: PathBuf,
    pub audit: String,
}

/// Noon UTC, 23 November 2026: the demo's simulated start.
pub const DEMO_EPOCH: i64 = 1_795_435_200;

/// A configuration whose every path is under `dir`, Maildir in and files out.
pub fn local_config(base: &Config, dir: &std::path::Path) -> Config {
    let mut c = base.clone();
    c.data_dir = dir.to_path_buf();
    c.database = None;
    c.inbound.kind = crate::config::InboundKind::Maildir;
    c.inbound.maildir = None;
    c.outbound.kind = crate::config::OutboundKind::File;
    c.outbound.dir = None;
    c
}

pub fn run(s: &DemoSettings, base: &Config) -> Result<DemoReport, String> {
    if s.dir.exists() {
        std::fs::remove_dir_all(&s.dir).map_err(|e| format!("{}: {e}", s.dir.display()))?;
    }
    std::fs::create_dir_all(&s.dir).map_err(|e| format!("{}: {e}", s.dir.display()))?;
    let config = local_config(base, &s.dir);
    let now = Arc::new(AtomicI64::new(DEMO_EPOCH));
    let clock_now = now.clone();
    let mut svc = Service::open(config, Arc::new(move || clock_now.load(Ordering::SeqCst)))?;
    svc.entropy = Entropy::seeded(s.seed);
    let transport = svc.transport();
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .map_err(|e| e.to_string())?;
    let mut bots =
        MailPlayers::new(&svc, &format!("demo-{}", s.seed)).map_err(|e| e.to_string())?;
    let id = bots.create_game(&svc, &s.game, s.players, &s.options)?;
    rt.block_on(svc.run_once(&transport))?;
    let max_lines = svc.config.judge.max_lines;
    let step = s.minutes_per_pass * 60;
    let played = play_games(
        &svc,
        &mut bots,
        std::slice::from_ref(&id),
        s.max_mails,
        max_lines,
        |_| {
            now.fetch_add(step, Ordering::SeqCst);
            rt.block_on(svc.run_once(&transport))
                .map(|_| ())
                .map_err(PlayError::Io)
        },
    )
    .map_err(|e| e.to_string())?;
    let rec = svc
        .store
        .game(&id)
        .map_err(|e| e.0)?
        .ok_or("the game vanished")?;
    let turns = match (&rec.table, crate::games::find(&rec.game)) {
        (Some(t), Some(info)) => (info.load)(t.clone()).map(|s| s.turn()).unwrap_or(0),
        _ => 0,
    };
    let audit = match svc.judge.admin(
        &svc.store,
        AdminCommand::Verify { game: id.clone() },
        &svc.env(),
    ) {
        Ok((_, text)) => text,
        Err(e) => format!("AUDIT FAILED: {e}"),
    };
    let outbox = svc.config.outbox_path();
    let mails_out = std::fs::read_dir(&outbox)
        .map(|rd| {
            rd.filter(|e| {
                e.as_ref()
                    .is_ok_and(|e| e.path().extension().is_some_and(|x| x == "eml"))
            })
            .count()
        })
        .unwrap_or(0);
    svc.store.flush().map_err(|e| e.0)?;
    Ok(DemoReport {
        game_id: id,
        status: rec.status,
        ended: rec.ended.clone(),
        mails_in: played.mails,
        mails_out,
        turns,
        dir: s.dir.clone(),
        inbox: svc.config.inbox_path(),
        outbox,
        database: svc.config.database_path(),
        audit,
    })
}

impl DemoReport {
    pub fn text(&self) -> String {
        format!(
            "Demo game {}: {:?}{} after {} turns.\n\
             Order mails in: {} (each parsed, judged, committed to sled, acknowledged)\n\
             Mails out: {} (public reports, private mails, replies)\n\
             Inbox (Maildir):  {}\n\
             Outbox (.eml):    {}\n\
             Database (sled):  {}\n\n\
             Dice audit:\n{}\n",
            self.game_id,
            self.status,
            self.ended
                .as_deref()
                .map(|e| format!(" ({e})"))
                .unwrap_or_default(),
            self.turns,
            self.mails_in,
            self.mails_out,
            self.inbox.display(),
            self.outbox.display(),
            self.database.display(),
            self.audit
        )
    }
}
