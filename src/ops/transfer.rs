//! Export and import of one game (its record, with the whole game and its secret, and its
//! event log) or of a whole campaign (the campaign, each of its games, its players'
//! records), as one JSON document. Import refuses to overwrite anything that exists, and
//! stores everything in one transaction or nothing.

use crate::error::ShellError;
use crate::store::SledStore;
use castellan_judge::{
    CampaignRecord, Changes, LogLine, PlayerRecord, Store, StoreError, StoredGame,
};
use serde::{Deserialize, Serialize};

/// What `castellan game export` writes. Holds the game's secret: keep it private.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct ExportedGame {
    pub format: String,
    /// The game whole: its record, its table with its history inside.
    pub record: StoredGame,
    pub log: Vec<LogLine>,
}

pub const FORMAT: &str = "castellan-game/1";

pub fn export(store: &SledStore, id: &str) -> Result<ExportedGame, ShellError> {
    let record = store
        .game_whole(id)?
        .ok_or_else(|| ShellError::Usage(format!("there is no game {id}")))?;
    let log = store
        .game_log(&record.record.id)?
        .into_iter()
        .map(serde_json::from_value)
        .collect::<Result<Vec<LogLine>, _>>()
        .map_err(|e| {
            ShellError::Store(StoreError::new(format!("log of {id} is unreadable: {e}")))
        })?;
    Ok(ExportedGame {
        format: FORMAT.into(),
        record,
        log,
    })
}

/// Parse and check an export, then store it in one transaction. Returns the game id.
pub fn import(
    svc: &crate::serve::service::Service,
    text: &str,
    games: &[castellan_engine::GameInfo],
) -> Result<String, ShellError> {
    let e: ExportedGame =
        serde_json::from_str(text).map_err(|e| bad(format!("not a game export: {e}")))?;
    if e.format != FORMAT {
        return Err(bad(format!(
            "unknown export format {:?} (this version reads {FORMAT})",
            e.format
        )));
    }
    let mut e = e;
    e.record.table = check_game(&svc.store, &e, games)?;
    let id = e.record.record.id.clone();
    let changes = Changes {
        games: vec![e.record],
        log: e.log,
        ..Changes::default()
    };
    svc.commit(&changes)?;
    Ok(id)
}

fn bad(why: String) -> ShellError {
    ShellError::BadInput {
        what: "import".into(),
        why,
    }
}

/// A game to import: absent here, of a game this judge has, loading and replaying.
/// Returns its table as this build stores it (`None` while it forms).
fn check_game(
    store: &SledStore,
    e: &ExportedGame,
    games: &[castellan_engine::GameInfo],
) -> Result<Option<castellan_engine::StoredTable>, ShellError> {
    let id = &e.record.record.id;
    if store.game(id)?.is_some() {
        return Err(bad(format!("game {id} exists already: nothing imported")));
    }
    if let Some(l) = e.log.iter().find(|l| &l.game != id) {
        return Err(bad(format!(
            "the log of {id} holds a line of game {:?}: nothing imported",
            l.game
        )));
    }
    let info = games
        .iter()
        .find(|g| g.name == e.record.record.game)
        .ok_or_else(|| bad(format!("unknown game {:?}", e.record.record.game)))?;
    let Some(t) = &e.record.table else {
        return Ok(None);
    };
    if t.base != 0 {
        return Err(bad(format!(
            "{id}: the export holds only part of the history"
        )));
    }
    let s = (info.load)(t.clone())
        .map_err(|err| bad(format!("{id}: the game in the export does not load: {err}")))?;
    s.verify().map_err(|err| {
        bad(format!(
            "{id}: the game in the export does not replay: {err}"
        ))
    })?;
    s.stored(0)
        .map(Some)
        .map_err(|err| bad(format!("{id}: the game cannot be stored: {err}")))
}

/// What `castellan campaign export` writes. Holds every game's secret: keep it private.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct ExportedCampaign {
    pub format: String,
    pub campaign: CampaignRecord,
    /// Each of the campaign's games, in the campaign's order.
    pub games: Vec<ExportedGame>,
    /// The records of the campaign's players, as the exporting judge kept them (they count
    /// every game of that judge, not only this campaign's).
    pub records: Vec<PlayerRecord>,
}

pub const CAMPAIGN_FORMAT: &str = "castellan-campaign/1";

/// `castellan campaign list`: one line per campaign.
pub fn campaign_list(store: &SledStore) -> Result<String, ShellError> {
    let mut out = String::new();
    for id in store.campaign_ids()? {
        if let Some(c) = store.campaign(&id)? {
            let kind = match &c.tournament {
                Some(t) if t.winner.is_some() => "tournament, ended".to_string(),
                Some(t) => format!("tournament, round {}", t.round),
                None => "campaign".to_string(),
            };
            out.push_str(&format!(
                "{}  {}  ({kind}; {} game(s), {} player(s); game master {})\n",
                c.id,
                c.name,
                c.games.len(),
                c.players.len(),
                c.gm
            ));
        }
    }
    if out.is_empty() {
        out = "no campaigns\n".into();
    }
    Ok(out)
}

pub fn export_campaign(store: &SledStore, id: &str) -> Result<ExportedCampaign, ShellError> {
    let id = id.to_lowercase();
    let campaign = store
        .campaign(&id)?
        .ok_or_else(|| ShellError::Usage(format!("there is no campaign {id}")))?;
    let mut games = Vec::new();
    let mut ids: Vec<&String> = campaign.games.iter().collect();
    if let Some(t) = &campaign.tournament {
        ids.extend(t.tables.iter().filter(|g| !campaign.games.contains(g)));
    }
    for g in ids {
        games.push(export(store, g)?);
    }
    let mut records = Vec::new();
    for a in &campaign.players {
        if let Some(r) = store.record(a)? {
            records.push(r);
        }
    }
    Ok(ExportedCampaign {
        format: CAMPAIGN_FORMAT.into(),
        campaign,
        games,
        records,
    })
}

/// Parse and check a campaign export, then store the campaign, its games with their logs
/// and the records of players this judge has no record of, in one transaction. A player
/// this judge already keeps a record of keeps it as it is (adding the two would count
/// twice any game both judges saw). Returns what was done, for the operator.
pub fn import_campaign(
    svc: &crate::serve::service::Service,
    text: &str,
    games: &[castellan_engine::GameInfo],
) -> Result<String, ShellError> {
    let e: ExportedCampaign =
        serde_json::from_str(text).map_err(|e| bad(format!("not a campaign export: {e}")))?;
    if e.format != CAMPAIGN_FORMAT {
        return Err(bad(format!(
            "unknown export format {:?} (this version reads {CAMPAIGN_FORMAT})",
            e.format
        )));
    }
    let store = &svc.store;
    let id = e.campaign.id.clone();
    if store.campaign(&id)?.is_some() {
        return Err(bad(format!(
            "campaign {id} exists already: nothing imported"
        )));
    }
    for g in &e.campaign.games {
        if !e.games.iter().any(|x| &x.record.record.id == g) {
            return Err(bad(format!(
                "campaign {id} counts game {g}, which the export lacks: nothing imported"
            )));
        }
    }
    for (i, g) in e.games.iter().enumerate() {
        if g.format != FORMAT {
            return Err(bad(format!(
                "game {} has format {:?} (this version reads {FORMAT})",
                g.record.record.id, g.format
            )));
        }
        if e.games[..i]
            .iter()
            .any(|x| x.record.record.id == g.record.record.id)
        {
            return Err(bad(format!(
                "game {} is in the export twice",
                g.record.record.id
            )));
        }
    }
    let mut e = e;
    for g in &mut e.games {
        g.record.table = check_game(store, g, games)?;
    }
    let mut changes = Changes::default();
    let mut kept = Vec::new();
    for r in e.records {
        if store.record(&r.address)?.is_some() {
            kept.push(r.address);
        } else {
            changes.records.push(r);
        }
    }
    let n_games = e.games.len();
    for g in e.games {
        changes.games.push(g.record);
        changes.log.extend(g.log);
    }
    changes.campaigns.push(e.campaign);
    let n_records = changes.records.len();
    svc.commit(&changes)?;
    let mut done = format!("imported {id} with {n_games} game(s) and {n_records} player record(s)");
    if !kept.is_empty() {
        done.push_str(&format!(
            "; this judge's own record kept for {}",
            kept.join(", ")
        ));
    }
    Ok(done)
}
