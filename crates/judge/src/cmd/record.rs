//! RECORD [address] (BILAN [adresse]): a player's record across the games of this judge:
//! games played, finished and won, deadlines met and missed, resignations and
//! the reliability figure (crate::record). Counts only: nothing private. Told to its own
//! address only: RECORD of another address answers the same whether or not it plays here
//! (docs/security.md, "Addresses"); `min-reliability=` is checked by the judge.

use crate::cmd::*;
use crate::model::*;
use crate::run::*;

/// What RECORD answers (templates/LANG/answers/record.txt).
#[derive(Clone, Debug, serde::Serialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub(crate) enum RecordAnswer {
    Record {
        address: String,
        played: u32,
        finished: u32,
        won: u32,
        met: u32,
        missed: u32,
        resigned: u32,
        reliability: u32,
    },
    /// The word after RECORD is not a mail address.
    NotAnAddress { given: String },
    /// Another address than the writer's: the same answer for every one.
    NotYours { address: String },
}

impl Run<'_> {
    pub(crate) fn record_command(
        &mut self,
        from: &str,
        address: Option<String>,
    ) -> Result<(), StoreError> {
        let lang = self.writer_lang(from);
        let address = address.unwrap_or_else(|| from.to_string());
        let address = lower(address.trim_matches(|c| c == '<' || c == '>'));
        let answer = if !address.contains('@') || address.chars().any(char::is_whitespace) {
            RecordAnswer::NotAnAddress {
                given: crate::limits::clip(&crate::limits::clean_text(&address), 80),
            }
        } else if address != lower(from) {
            RecordAnswer::NotYours {
                address: crate::limits::clip(&crate::limits::clean_text(&address), 80),
            }
        } else {
            let r = self.record_of(&address)?;
            RecordAnswer::Record {
                reliability: r.reliability(),
                address,
                played: r.played,
                finished: r.finished,
                won: r.won,
                met: r.met,
                missed: r.missed,
                resigned: r.resigned,
            }
        };
        self.answer(lang, "record", &answer);
        Ok(())
    }
}

/// RECORD [address]
pub(crate) fn parse(a: &Args) -> Command {
    Command::Record(a.words.first().map(|w| w.to_string()))
}
