//! The judge: its configuration, the games it runs, the wording of its mails, and the
//! errors and commands of its entry points (front.rs).

use crate::config::JudgeConfig;
use crate::model::{lower, StoreError};
use crate::templates::Templates;
use castellan_engine::dice::sha256;
use castellan_engine::GameInfo;

/// The judge: configuration, the games it runs, and the wording of its mails.
pub struct Judge {
    pub(crate) config: JudgeConfig,
    pub(crate) games: Vec<GameInfo>,
    pub(crate) templates: Templates,
}

/// Why an admin command failed.
#[derive(Debug, thiserror::Error)]
pub enum JudgeError {
    #[error(transparent)]
    Store(#[from] StoreError),
    #[error("{0}")]
    Refused(String),
}

/// The game master's local commands (`castellan game ...`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum AdminCommand {
    /// Create a game: players as (name, address) in seat order; options as key=value
    /// (the judge's keys `deadline`, `deadline-KIND`, `reminder`, `grace`, `seats`,
    /// `password`, and the game's own options).
    New {
        game: String,
        players: Vec<(String, String)>,
        gm: String,
        options: Vec<(String, String)>,
    },
    List,
    Show {
        game: String,
    },
    Pause {
        game: String,
    },
    Resume {
        game: String,
    },
    Extend {
        game: String,
        hours: u32,
    },
    /// Give a seat (1-based number or name) to another address.
    Replace {
        game: String,
        seat: String,
        address: String,
    },
    End {
        game: String,
    },
    /// The dice audit ([`crate::audit()`]); changes nothing. Refused if the audit fails.
    Verify {
        game: String,
    },
    /// Create a campaign (`castellan campaign new`): the same arguments as the mail's
    /// CAMPAIGN NEW, with `gm` as its game master.
    CampaignNew {
        gm: String,
        name: String,
        args: Vec<String>,
    },
    /// Put a game in a campaign; the operator needs no password.
    CampaignAdd {
        campaign: String,
        game: String,
    },
    /// A campaign's standings; changes nothing.
    CampaignStandings {
        campaign: String,
    },
}

impl Judge {
    pub fn new(config: JudgeConfig, games: Vec<GameInfo>, templates: Templates) -> Judge {
        Judge {
            config,
            games,
            templates,
        }
    }

    pub fn config(&self) -> &JudgeConfig {
        &self.config
    }

    pub(crate) fn info(&self, name: &str) -> Option<&GameInfo> {
        let n = lower(name);
        self.games.iter().find(|g| g.name == n)
    }

    pub(crate) fn msgid(&self, key: &str, index: usize) -> String {
        let h = sha256(format!("{key}\n{index}").as_bytes());
        format!("<{}@{}>", hex::encode(&h[..16]), self.config.domain)
    }

    pub(crate) fn thread_root(&self, game_id: &str) -> String {
        format!("<{game_id}.castellan@{}>", self.config.domain)
    }
}
