//! Export and import of one game: its record (with the whole game and its secret) and its
//! event log, as one JSON document. Import refuses to overwrite a game that exists.

use crate::error::ShellError;
use crate::store::SledStore;
use castellan_judge::{Changes, GameRecord, LogLine, Store, StoreError};
use serde::{Deserialize, Serialize};

/// What `castellan game export` writes. Holds the game's secret: keep it private.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct ExportedGame {
    pub format: String,
    pub record: GameRecord,
    pub log: Vec<LogLine>,
}

pub const FORMAT: &str = "castellan-game/1";

pub fn export(store: &SledStore, id: &str) -> Result<ExportedGame, ShellError> {
    let record = store
        .game(id)?
        .ok_or_else(|| ShellError::Usage(format!("there is no game {id}")))?;
    let log = store
        .game_log(&record.id)?
        .into_iter()
        .map(serde_json::from_value)
        .collect::<Result<Vec<LogLine>, _>>()
        .map_err(|e| ShellError::Store(StoreError(format!("log of {id} is unreadable: {e}"))))?;
    Ok(ExportedGame {
        format: FORMAT.into(),
        record,
        log,
    })
}

/// Parse and check an export, then store it in one transaction. Returns the game id.
pub fn import(
    svc: &crate::service::Service,
    text: &str,
    games: &[castellan_engine::GameInfo],
) -> Result<String, ShellError> {
    let bad = |why: String| ShellError::BadInput {
        what: "import".into(),
        why,
    };
    let e: ExportedGame =
        serde_json::from_str(text).map_err(|e| bad(format!("not a game export: {e}")))?;
    if e.format != FORMAT {
        return Err(bad(format!(
            "unknown export format {:?} (this version reads {FORMAT})",
            e.format
        )));
    }
    let store = &svc.store;
    let id = e.record.id.clone();
    if store.game(&id)?.is_some() {
        return Err(bad(format!("game {id} exists already: nothing imported")));
    }
    let info = games
        .iter()
        .find(|g| g.name == e.record.game)
        .ok_or_else(|| bad(format!("unknown game {:?}", e.record.game)))?;
    if let Some(t) = &e.record.table {
        let s = (info.load)(t.clone())
            .map_err(|err| bad(format!("the game in the export does not load: {err}")))?;
        s.verify()
            .map_err(|err| bad(format!("the game in the export does not replay: {err}")))?;
    }
    let changes = Changes {
        games: vec![e.record],
        log: e.log,
        ..Changes::default()
    };
    svc.commit(&changes)?;
    Ok(id)
}
