//! PRESS text, or PRESS ... ENDPRESS: a message to every player and observer.

use crate::model::*;
use crate::run::*;

impl Run<'_> {
    pub(crate) fn end_press(&mut self, ctx: &mut Ctx, from: &str) -> Result<(), StoreError> {
        let Some((_, lines)) = ctx.press.take() else {
            return Ok(());
        };
        let text = lines.join("\n").trim().to_string();
        self.press(ctx, from, &text)
    }

    pub(crate) fn press(&mut self, ctx: &Ctx, from: &str, text: &str) -> Result<(), StoreError> {
        // Relayed to others: no control characters (NUL, ESC, ...) and no bidi overrides.
        let text = crate::limits::clean_text(text);
        let text = text.trim();
        if text.is_empty() {
            let lang = self.writer_lang(from);
            self.answer(lang, "press", &PressAnswer::Empty);
            return Ok(());
        }
        let Some(done) = self.authed(
            ctx,
            from,
            "PRESS",
            |run, g, who| -> Result<(), StoreError> {
                let id = g.rec.id.clone();
                let name = who.seat.map(|s| g.rec.seats[s].name.clone());
                // Everyone but the writer, whose reply says it went (one reply a mail).
                for to in Self::recipients(&g.rec)
                    .into_iter()
                    .filter(|a| *a != lower(from))
                {
                    let ctx = Press {
                        game_id: id.clone(),
                        from: name.clone(),
                        text: text.to_string(),
                    };
                    let lang = run.addr_lang(&g.rec, &to);
                    // Each reader's own token (never the writer's or another seat's).
                    let token = g.rec.token_of(&to);
                    run.send(&to, lang, "press", &ctx, &id, token);
                }
                let name = name.as_deref().unwrap_or("game master");
                run.glog(&id, "press", format!("{name}: {text}"));
                let lang = run.addr_lang(&g.rec, from);
                run.answer(lang, "press", &PressAnswer::Sent { game: id });
                Ok(())
            },
        )?
        else {
            return Ok(());
        };
        done
    }
}

/// What PRESS answers (templates/LANG/answers/press.txt).
#[derive(Clone, Debug, serde::Serialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub(crate) enum PressAnswer {
    Empty,
    Sent { game: String },
}

/// A press mail's context (`templates/LANG/press.txt`); `from` is `None` for the game master.
#[derive(serde::Serialize)]
struct Press {
    game_id: String,
    from: Option<String>,
    text: String,
}
