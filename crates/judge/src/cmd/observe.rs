//! OBSERVE [game-id] [OFF]: receive (or stop receiving) a game's public reports.

use crate::cmd::*;
use crate::model::*;
use crate::run::*;

/// What OBSERVE answers (templates/LANG/answers/observe.txt).
#[derive(Clone, Debug, serde::Serialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub(crate) enum ObserveAnswer {
    WhichGame,
    NoGame {
        game: String,
    },
    Off {
        game: String,
    },
    AlreadyReceives {
        game: String,
    },
    /// Now observing; the current turn and map if the game has started.
    Observing {
        game: String,
        turn: Option<u32>,
        map: Option<String>,
    },
}

impl Run<'_> {
    pub(crate) fn observe(
        &mut self,
        from: &str,
        id: Option<String>,
        off: bool,
    ) -> Result<(), StoreError> {
        let answer = self.observe_answer(from, id, off)?;
        let lang = self.writer_lang(from);
        self.answer(lang, "observe", &answer);
        Ok(())
    }

    fn observe_answer(
        &mut self,
        from: &str,
        id: Option<String>,
        off: bool,
    ) -> Result<ObserveAnswer, StoreError> {
        let Some(id) = id else {
            return Ok(ObserveAnswer::WhichGame);
        };
        let Some(done) = self.with_game(&id, |run, g| -> Result<ObserveAnswer, StoreError> {
            let game = g.rec.id.clone();
            let answer = if off {
                g.rec.observers.retain(|o| lower(o) != from);
                g.dirty = true;
                ObserveAnswer::Off { game }
            } else if g.rec.seat_of(from).is_some() || lower(&g.rec.gm) == from {
                ObserveAnswer::AlreadyReceives { game }
            } else {
                if !g.rec.observers.iter().any(|o| lower(o) == from) {
                    g.rec.observers.push(from.to_string());
                    g.dirty = true;
                }
                let lang = run.game_lang(&g.rec);
                ObserveAnswer::Observing {
                    game,
                    turn: g.session.as_ref().map(|s| s.turn()),
                    map: g.session.as_ref().map(|s| s.public_view(lang)),
                }
            };
            Ok(answer)
        })?
        else {
            return Ok(ObserveAnswer::NoGame { game: id });
        };
        done
    }
}

/// OBSERVE [game-id] [OFF]
pub(crate) fn parse(a: &Args) -> Command {
    let is_off = |w: &&&str| w.eq_ignore_ascii_case("off") || w.eq_ignore_ascii_case("non");
    let off = a.words.iter().any(|w| is_off(&w));
    let id = a
        .words
        .iter()
        .find(|w| !is_off(w))
        .map(|s| s.to_lowercase());
    Command::Observe(id, off)
}
