//! `castellan demo --campaign`: a Risk tournament by mail. A game master mails
//! `CAMPAIGN NEW ... tournament=risk players=...` into the Maildir; the judge seats the
//! tables and welcomes every bot; the bots play their tables by real mail (tokens read from
//! the welcome mails' headers); when the last table of a round ends the judge seats the
//! next round, then the final; the standings are printed at the end.

use crate::config::Config;
use crate::error::ShellError;
use crate::play::demo::LocalJudge;
use crate::play::players::{order_mail, play_games, MailPlayers, PlayError, PLAYER_DOMAIN};
use castellan_judge::{CampaignRecord, Status, Store};
use std::path::PathBuf;

pub struct TournamentSettings {
    pub game: String,
    pub players: usize,
    pub seed: u64,
    /// Each preliminary game's round limit (Risk's `turn_limit`).
    pub turn_limit: u32,
    /// The final's round limit (0: none).
    pub final_turn_limit: u32,
    /// Options for every table (`claim=random` ...).
    pub options: Vec<(String, String)>,
    pub dir: PathBuf,
    pub max_mails: usize,
}

#[derive(Debug)]
pub struct TournamentReport {
    pub campaign: CampaignRecord,
    /// Tables per round, in order.
    pub rounds: Vec<Vec<String>>,
    pub mails_in: usize,
    pub mails_out: usize,
    pub dir: PathBuf,
    /// The file outbox (one .eml a mail).
    pub outbox: PathBuf,
}

/// The address of tournament player `i` (1-based).
pub fn entrant(i: usize) -> String {
    format!("entrant{i}@{PLAYER_DOMAIN}")
}

pub fn run(s: &TournamentSettings, base: &Config) -> Result<TournamentReport, ShellError> {
    if s.dir.exists() {
        std::fs::remove_dir_all(&s.dir).map_err(|e| ShellError::io(&s.dir, e))?;
    }
    std::fs::create_dir_all(&s.dir).map_err(|e| ShellError::io(&s.dir, e))?;
    // The demo's judge is the operator's own and its entrants are its bots: it runs
    // without the opt-in and the hourly budget of new games (a tournament made by
    // mail waits for each entrant's confirmation, and one mail causes at most 8).
    let mut base = base.clone();
    base.judge.confirm_addresses = false;
    base.judge.new_games_per_hour = u32::MAX;
    let local = LocalJudge::open(&base, &s.dir, s.seed)?;
    let svc = &local.svc;
    let io = |e: PlayError| ShellError::Store(castellan_judge::StoreError::new(e.to_string()));
    let mut bots = MailPlayers::new(svc, &format!("cup-{}", s.seed)).map_err(io)?;
    let id = create_campaign(s, &local)?;
    let mut rounds: Vec<Vec<String>> = Vec::new();
    let mut mails = 0;
    loop {
        let c = svc
            .store
            .campaign(&id)?
            .ok_or_else(|| ShellError::Store(castellan_judge::StoreError::new("no campaign")))?;
        let Some(t) = c.tournament.clone() else { break };
        if t.winner.is_some() || mails >= s.max_mails {
            break;
        }
        if rounds.last() != Some(&t.tables) {
            rounds.push(t.tables.clone());
        }
        let played = play_games(
            svc,
            &mut bots,
            &t.tables,
            s.max_mails - mails,
            svc.config.judge.max_lines,
            |_| {
                local
                    .pass_after(600)
                    .map(|_| ())
                    .map_err(|e| PlayError::Io(e.to_string()))
            },
        )
        .map_err(io)?;
        mails += played.mails;
        // Tables no player can move (every seat a stand-in) move on their deadlines.
        let stuck = t.tables.iter().any(|g| {
            svc.store
                .game_header(g)
                .ok()
                .flatten()
                .is_some_and(|r| r.status == Status::Running)
        });
        let after = svc.store.campaign(&id)?.and_then(|c| c.tournament);
        if played.mails == 0 && stuck && after.as_ref().map(|t| &t.tables) == Some(&t.tables) {
            local.pass_after(49 * 3600)?;
        }
    }
    let campaign = svc
        .store
        .campaign(&id)?
        .ok_or_else(|| ShellError::Store(castellan_judge::StoreError::new("no campaign")))?;
    let outbox = svc.config.outbox_path();
    let mails_out = std::fs::read_dir(&outbox)
        .map(|rd| rd.filter_map(Result::ok).count())
        .unwrap_or(0);
    svc.store.flush()?;
    Ok(TournamentReport {
        campaign,
        rounds,
        mails_in: mails,
        mails_out,
        dir: s.dir.clone(),
        outbox,
    })
}

/// The game master's mail that creates the tournament, handled; the campaign's id.
fn create_campaign(s: &TournamentSettings, local: &LocalJudge) -> Result<String, ShellError> {
    let svc = &local.svc;
    let players: Vec<String> = (1..=s.players)
        .map(|i| format!("Player{i}:{}", entrant(i)))
        .collect();
    let mut line = format!(
        "CAMPAIGN NEW Demo cup tournament={} players={} turn-limit={} final-turn-limit={}",
        s.game,
        players.join(","),
        s.turn_limit,
        s.final_turn_limit
    );
    for (k, v) in &s.options {
        line.push_str(&format!(" {k}={v}"));
    }
    let gm = format!("gm@{PLAYER_DOMAIN}");
    let raw = order_mail(
        &gm,
        "Game master",
        &svc.config.judge.address,
        &format!("<cup-{}-create@{PLAYER_DOMAIN}>", s.seed),
        "tournament",
        &format!("{line}\n"),
    );
    castellan_mail::Maildir::open(svc.config.inbox_path())
        .and_then(|m| m.deliver(raw.as_bytes()))
        .map_err(|e| ShellError::Store(castellan_judge::StoreError::new(e.to_string())))?;
    local.pass_after(60)?;
    svc.store.campaign_ids()?.into_iter().last().ok_or_else(|| {
        ShellError::Store(castellan_judge::StoreError::new(
            "the judge created no campaign (see the game master's reply in the outbox)",
        ))
    })
}

impl TournamentReport {
    pub fn winner(&self) -> Option<String> {
        self.campaign
            .tournament
            .as_ref()
            .and_then(|t| t.winner.clone())
            .filter(|w| !w.is_empty())
    }

    pub fn text(&self) -> String {
        let c = &self.campaign;
        let mut s = format!("Tournament {} ({}):\n", c.name, c.id);
        for (i, r) in self.rounds.iter().enumerate() {
            let last =
                i + 1 == self.rounds.len() && c.tournament.as_ref().is_some_and(|t| t.is_final);
            s.push_str(&format!(
                "  round {}{}: {}\n",
                i + 1,
                if last { " (final)" } else { "" },
                r.join(", ")
            ));
        }
        match self.winner() {
            Some(w) => s.push_str(&format!(
                "Winner: {}\n",
                c.names.get(&w).cloned().unwrap_or(w)
            )),
            None => s.push_str("No winner yet (stopped at the mail limit).\n"),
        }
        s.push_str("Standings:\n");
        for st in c.standings() {
            s.push_str(&format!(
                "  {:>2}. {:<10} {:>3} point(s), {} won of {}\n",
                st.rank, st.name, st.points, st.won, st.played
            ));
        }
        s.push_str(&format!(
            "Order mails in: {}; mails out: {}\nFolder: {}\n",
            self.mails_in,
            self.mails_out,
            self.dir.display()
        ));
        s
    }
}

/// `castellan demo --campaign`: a whole campaign by mail (Risk for `castle-risk`, with
/// random claims and blind placement unless options are given); a failure if nobody won.
pub fn main(config: Config, a: crate::cli::DemoArgs) -> Result<std::process::ExitCode, ShellError> {
    let game = if a.game == "castle-risk" {
        "risk".to_string()
    } else {
        a.game.clone()
    };
    crate::games::named(&game)?;
    let mut options = crate::cli::pairs(&a.options, "--option")?;
    if options.is_empty() && game == "risk" {
        options = vec![
            ("claim".into(), "random".into()),
            ("placement".into(), "blind".into()),
        ];
    }
    let settings = TournamentSettings {
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
    let r = run(&settings, &config)?;
    print!("{}", r.text());
    Ok(if r.winner().is_some() {
        std::process::ExitCode::SUCCESS
    } else {
        std::process::ExitCode::FAILURE
    })
}
