//! Export and import of one game: its record (with the whole game and its secret) and its
//! event log, as one JSON document. Import refuses to overwrite a game that exists.

use crate::store::SledStore;
use castellan_judge::{Changes, GameRecord, LogLine, Store};
use serde::{Deserialize, Serialize};

/// What `castellan game export` writes. Holds the game's secret: keep it private.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct ExportedGame {
    pub format: String,
    pub record: GameRecord,
    pub log: Vec<LogLine>,
}

pub const FORMAT: &str = "castellan-game/1";

pub fn export(store: &SledStore, id: &str) -> Result<ExportedGame, String> {
    let record = store
        .game(id)
        .map_err(|e| e.0)?
        .ok_or_else(|| format!("there is no game {id}"))?;
    let log = store
        .game_log(&record.id)
        .map_err(|e| e.0)?
        .into_iter()
        .map(serde_json::from_value)
        .collect::<Result<Vec<LogLine>, _>>()
        .map_err(|e| format!("log of {id} is unreadable: {e}"))?;
    Ok(ExportedGame {
        format: FORMAT.into(),
        record,
        log,
    })
}

/// Parse and check an export, then store it in one transaction. Returns the game id.
pub fn import(
    store: &SledStore,
    text: &str,
    games: &[castellan_engine::GameInfo],
) -> Result<String, String> {
    let e: ExportedGame =
        serde_json::from_str(text).map_err(|e| format!("not a game export: {e}"))?;
    if e.format != FORMAT {
        return Err(format!(
            "unknown export format {:?} (this version reads {FORMAT})",
            e.format
        ));
    }
    let id = e.record.id.clone();
    if store.game(&id).map_err(|e| e.0)?.is_some() {
        return Err(format!("game {id} exists already: nothing imported"));
    }
    let info = games
        .iter()
        .find(|g| g.name == e.record.game)
        .ok_or_else(|| format!("unknown game {:?}", e.record.game))?;
    if let Some(t) = &e.record.table {
        let s = (info.load)(t.clone())
            .map_err(|err| format!("the game in the export does not load: {err}"))?;
        s.verify()
            .map_err(|err| format!("the game in the export does not replay: {err}"))?;
    }
    let changes = Changes {
        games: vec![e.record],
        log: e.log,
        ..Changes::default()
    };
    store.commit(&changes).map_err(|e| e.0)?;
    Ok(id)
}
