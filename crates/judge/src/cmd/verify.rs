//! VERIFY and HELP DICE: the dice audit by mail, and how to check it without the server's
//! files: the reply explains the check in the reader's language and carries the script.

use crate::audit::audit_in;
use crate::cmd::info::{DiceExample, InfoAnswer};
use crate::model::{Attachment, StoreError};
use crate::run::{Ctx, Run};
use castellan_engine::Session;

/// The reference script, carried by every VERIFY reply: 60 lines of Python 3 with its
/// standard library only (crates/engine/tests/dice_script.rs holds it to the engine).
pub(crate) const VERIFY_SCRIPT: &str = include_str!("../../../../scripts/verify_dice.py");

/// The script as VERIFY's reply carries it.
pub(crate) fn verify_script() -> Attachment {
    Attachment {
        filename: "verify_dice.py".into(),
        content_type: "text/x-python".into(),
        content: VERIFY_SCRIPT.as_bytes().to_vec(),
    }
}

/// The first revealed turn that rolled dice, as `verify_dice.py` checks it.
fn example(s: &mut dyn Session, revealed: u32) -> Option<DiceExample> {
    let rolls = s.narrate_since(0, castellan_engine::Lang::En).rolls;
    let turn = (1..=revealed).find(|t| rolls.iter().any(|r| r.turn == *t))?;
    let of_turn: Vec<_> = rolls.iter().filter(|r| r.turn == turn).collect();
    let game = s.game_id().to_string();
    let dice = s.dice();
    let previous = if turn == 1 {
        dice.commitment_for(1)
    } else {
        dice.turn_seed(turn - 1)
    };
    Some(DiceExample {
        game,
        turn,
        seed: dice.turn_seed(turn).hex(),
        previous: previous.hex(),
        sides: of_turn.iter().map(|r| r.sides).collect(),
        faces: of_turn.iter().map(|r| r.value).collect(),
    })
}

impl Run<'_> {
    /// VERIFY: the audit's report, how to check it, and the script attached.
    pub(crate) fn verify(&mut self, ctx: &Ctx, from: &str) -> Result<(), StoreError> {
        let lang = self.writer_lang(from);
        self.game_for(ctx, from, "VERIFY", |run, g| -> Result<(), StoreError> {
            let id = g.rec.id.clone();
            let mut whole = run.whole_session(g)?;
            let Some(s) = whole.as_mut() else {
                let answer = InfoAnswer::NotStarted {
                    command: "VERIFY".into(),
                    game: id,
                };
                run.answer(lang, "info", &answer);
                return Ok(());
            };
            // The audit's report in the reader's language.
            let (_, report) = audit_in(&g.rec, s.as_mut(), lang);
            // The example stays within the chain's first thousand turns (one commitment).
            let revealed = g.rec.revealed.min(castellan_engine::dice::CHAIN_LEN);
            let example = example(s.as_mut(), revealed);
            let before = run.sections.len();
            let answer = InfoAnswer::Verify {
                game: id,
                report,
                example,
            };
            run.answer(lang, "info", &answer);
            // The script goes with the answer that tells of it, once a reply.
            let attached = run
                .reply_attachments
                .iter()
                .any(|a| a.filename == "verify_dice.py");
            if run.sections.len() > before && !attached {
                run.reply_attachments.push(verify_script());
            }
            Ok(())
        })?
        .unwrap_or(Ok(()))
    }

    /// HELP DICE: how the dice are made and checked, in the reader's language.
    pub(crate) fn help_dice(&mut self, from: &str) {
        let lang = self.writer_lang(from);
        self.answer(lang, "info", &InfoAnswer::Dice);
    }
}
