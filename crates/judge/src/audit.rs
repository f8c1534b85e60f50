//! The dice audit (VERIFY, `castellan verify`).

use crate::model::*;
use castellan_engine::dice::{DiceBox, CHAIN_LEN};
use castellan_engine::Session;

/// The dice audit of one started game (VERIFY by mail, `castellan verify`): every revealed
/// seed chains to the commitment, every die of those turns replays from its seed, and the
/// whole game replays from its secret and its orders. Returns (all good, the report).
pub fn audit(rec: &GameRecord, s: &mut dyn Session) -> (bool, String) {
    let revealed = rec.revealed;
    let rolls = s.narrate_since(0, castellan_engine::Lang::En).rolls;
    let game_id = s.game_id().to_string();
    let mut out = Vec::new();
    let mut ok = true;
    let c0 = s.dice().commitment_for(1);
    out.push(format!("Commitment S0: {}", c0.hex()));
    let mut dice_checked = 0;
    for t in 1..=revealed {
        let seed = s.dice().turn_seed(t);
        let prev = if (t - 1) % CHAIN_LEN == 0 {
            s.dice().commitment_for(t)
        } else {
            s.dice().turn_seed(t - 1)
        };
        if !DiceBox::seed_follows(&seed, &prev) {
            ok = false;
            out.push(format!("turn {t}: seed does NOT chain to the previous one"));
        }
        let of_turn: Vec<_> = rolls.iter().filter(|r| r.turn == t).collect();
        let sides: Vec<u8> = of_turn.iter().map(|r| r.sides).collect();
        let faces = DiceBox::replay(&game_id, &seed, t, &sides);
        let want: Vec<u8> = of_turn.iter().map(|r| r.value).collect();
        if faces != want {
            ok = false;
            out.push(format!("turn {t}: dice do NOT replay from the seed"));
        }
        dice_checked += want.len();
    }
    let replay = s.verify();
    out.push(format!(
        "Revealed turns 1 to {revealed}: every seed chains to the commitment{}; {dice_checked} dice replay from their seeds{}.",
        if ok { "" } else { " (see above)" },
        if ok { "" } else { " (see above)" }
    ));
    match replay {
        Ok(()) => out.push("The whole game replays from its secret and its orders: ok.".into()),
        Err(e) => {
            ok = false;
            out.push(format!("Replay FAILED: {e}"))
        }
    }
    if rec.status == Status::Finished {
        out.push(format!(
            "Secret card-stream key: {}",
            s.dice().secret_key().hex()
        ));
    }
    (ok, out.join("\n"))
}
