//! OBSERVE [game-id] [OFF]: receive (or stop receiving) a game's public reports.

use crate::cmd::*;
use crate::model::*;
use crate::run::*;

impl Run<'_> {
    pub(crate) fn observe(
        &mut self,
        from: &str,
        id: Option<String>,
        off: bool,
    ) -> Result<(), StoreError> {
        let Some(id) = id else {
            self.section("OBSERVE: which game?", "Write: OBSERVE game-id");
            return Ok(());
        };
        let Some(mut g) = self.take(&id)? else {
            self.section(
                "OBSERVE refused",
                format!("There is no game \"{id}\". Send LIST for the games."),
            );
            return Ok(());
        };
        let id = g.rec.id.clone();
        if off {
            g.rec.observers.retain(|o| lower(o) != from);
            g.dirty = true;
            self.section(
                format!("OBSERVE {id} OFF"),
                "You no longer receive its reports.",
            );
        } else if g.rec.seat_of(from).is_some() || lower(&g.rec.gm) == from {
            self.section(
                format!("OBSERVE {id}"),
                "You already receive its reports (you play or run it).",
            );
        } else {
            if !g.rec.observers.iter().any(|o| lower(o) == from) {
                g.rec.observers.push(from.to_string());
                g.dirty = true;
            }
            let text = match &g.session {
                Some(s) => format!(
                    "You now receive every public report of {id}.\nTurn {}.\n{}",
                    s.turn(),
                    s.public_view(self.game_lang(&g.rec))
                ),
                None => format!("You will receive every public report of {id} once it starts."),
            };
            self.section(format!("OBSERVE {id}"), text);
        }
        self.put(g);
        Ok(())
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
