//! `castellan demo`: bots play one whole game by email through the real pipeline on the
//! embedded defaults (Maildir inbox, sled on disk, file outbox), then the game is audited.

use crate::config::Config;
use crate::error::ShellError;
use crate::play::players::{load_session, play_games, MailPlayers, PlayError};
use crate::serve::env::Entropy;
use crate::serve::pass::PassReport;
use crate::serve::service::Service;
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
    /// Dice turns before play began (the setup).
    pub setup_turns: u32,
    pub dir: PathBuf,
    pub inbox: PathBuf,
    pub outbox: PathBuf,
    pub database: PathBuf,
    pub audit: String,
    /// The mail the game cost its players.
    pub mail: crate::play::budget::MailBudget,
}

/// Noon UTC, 23 November 2026: the demo's simulated start.
pub const DEMO_EPOCH: i64 = 1_795_435_200;

/// The whole judge on the embedded defaults under one folder, on a fake clock and seeded
/// entropy, so a run can be repeated exactly: the demo, the benchmark and the end-to-end
/// tests drive it pass by pass.
pub struct LocalJudge {
    pub svc: Service,
    pub transport: castellan_mail::Transport,
    /// The fake clock (unix seconds) the service reads.
    pub now: Arc<AtomicI64>,
    rt: tokio::runtime::Runtime,
}

impl LocalJudge {
    /// Open the judge with every path under `dir` ([`local_config`]), the clock at
    /// [`DEMO_EPOCH`] and entropy drawn from `seed`.
    pub fn open(base: &Config, dir: &std::path::Path, seed: u64) -> Result<LocalJudge, ShellError> {
        let now = Arc::new(AtomicI64::new(DEMO_EPOCH));
        let clock = now.clone();
        let mut svc = Service::open(
            local_config(base, dir),
            Arc::new(move || clock.load(Ordering::SeqCst)),
        )?;
        svc.entropy = Entropy::seeded(seed);
        let transport = svc.transport();
        let rt = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .map_err(|source| ShellError::Setup {
                what: "cannot start the async runtime",
                source,
            })?;
        Ok(LocalJudge {
            svc,
            transport,
            now,
            rt,
        })
    }

    /// Move the fake clock `seconds` on, then run one pass: inbox, deadlines, outbox.
    pub fn pass_after(&self, seconds: i64) -> Result<PassReport, ShellError> {
        self.now.fetch_add(seconds, Ordering::SeqCst);
        self.rt.block_on(self.svc.run_once(&self.transport))
    }

    /// Run a future of the service (an outbox drain, say) to its end.
    pub fn block_on<F: std::future::Future>(&self, f: F) -> F::Output {
        self.rt.block_on(f)
    }
}

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

pub fn run(s: &DemoSettings, base: &Config) -> Result<DemoReport, ShellError> {
    if s.dir.exists() {
        std::fs::remove_dir_all(&s.dir).map_err(|e| ShellError::io(&s.dir, e))?;
    }
    std::fs::create_dir_all(&s.dir).map_err(|e| ShellError::io(&s.dir, e))?;
    let local = LocalJudge::open(base, &s.dir, s.seed)?;
    let svc = &local.svc;
    let mut bots = MailPlayers::new(svc, &format!("demo-{}", s.seed))?;
    let id = bots.create_game(svc, &s.game, s.players, &s.options)?;
    local.pass_after(0)?;
    let step = s.minutes_per_pass * 60;
    let played = play_games(
        svc,
        &mut bots,
        std::slice::from_ref(&id),
        s.max_mails,
        svc.config.judge.max_lines,
        |_| {
            local
                .pass_after(step)
                .map(|_| ())
                .map_err(|e| PlayError::Io(e.to_string()))
        },
    )?;
    let stored = svc.store.game_whole(&id)?.ok_or_else(|| {
        ShellError::Store(castellan_judge::StoreError::new(format!(
            "game {id} vanished"
        )))
    })?;
    let session = load_session(&stored)?;
    let rec = stored.record;
    let turns = session.as_ref().map_or(0, |s| s.turn());
    let setup_turns = session
        .as_deref()
        .map_or(0, crate::play::budget::setup_turns);
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
    svc.store.flush()?;
    let mail = crate::play::budget::measure(&outbox, &rec.gm, rec.seats.len(), turns, setup_turns);
    Ok(DemoReport {
        setup_turns,
        mail,
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
             To the players: {:.1} a player a round ({:.1} rounds: the setup as one, then {} dice turns of play); by kind: {}\n\
             Longest report: {} lines; deadline by line {}; average mail {} bytes\n\
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
            self.mail.per_player_per_round,
            self.mail.rounds,
            self.turns - self.setup_turns,
            self.mail
                .by_kind
                .iter()
                .map(|(k, n)| format!("{k} {n}"))
                .collect::<Vec<_>>()
                .join(", "),
            self.mail.longest_report_lines,
            self.mail.latest_deadline_line,
            self.mail.average_bytes,
            self.inbox.display(),
            self.outbox.display(),
            self.database.display(),
            self.audit
        )
    }
}

/// `castellan demo`: one whole game by mail (`--campaign`:
/// [`crate::play::tournament_demo::main`]); a failure if the audit failed.
pub fn main(config: Config, a: crate::cli::DemoArgs) -> Result<std::process::ExitCode, ShellError> {
    crate::games::named(&a.game)?;
    let dir = a
        .dir
        .clone()
        .unwrap_or_else(|| config.data_dir.join("demo"));
    let settings = DemoSettings {
        game: a.game.clone(),
        players: a.players,
        seed: a.seed,
        options: crate::cli::pairs(&a.options, "--option")?,
        dir,
        max_mails: a.max_mails,
        minutes_per_pass: 10,
    };
    let r = run(&settings, &config)?;
    print!("{}", r.text());
    Ok(if r.audit.starts_with("AUDIT FAILED") {
        std::process::ExitCode::FAILURE
    } else {
        std::process::ExitCode::SUCCESS
    })
}
