//! PRESS text, or PRESS ... ENDPRESS: a message to every player and observer.

use crate::model::*;
use crate::run::*;
use serde_json::json;

impl Run<'_> {
    pub(crate) fn end_press(&mut self, ctx: &mut Ctx, from: &str) -> Result<(), StoreError> {
        let Some((_, lines)) = ctx.press.take() else {
            return Ok(());
        };
        let text = lines.join("\n").trim().to_string();
        self.press(ctx, from, &text)
    }

    pub(crate) fn press(&mut self, ctx: &Ctx, from: &str, text: &str) -> Result<(), StoreError> {
        if text.is_empty() {
            self.section(
                "PRESS refused",
                "The press message is empty. Write: PRESS your message",
            );
            return Ok(());
        }
        let Some((g, who)) = self.authed(ctx, from, "PRESS")? else {
            return Ok(());
        };
        let id = g.rec.id.clone();
        let name = match who.seat {
            Some(s) => g.rec.seats[s].name.clone(),
            None => "the game master".into(),
        };
        for to in Self::recipients(&g.rec) {
            let body = self.render(
                "press.txt",
                &json!({"game_id": id, "from": name, "text": text}),
            );
            self.mail(&to, format!("[{id}] Press from {name}"), body, Some(&id));
        }
        self.glog(&id, "press", format!("{name}: {text}"));
        self.section(
            format!("PRESS in {id}"),
            "Your message went to every player and observer.",
        );
        self.put(g);
        Ok(())
    }
}
