//! The dice audit (VERIFY, `castellan verify`).

use crate::model::*;
use castellan_engine::dice::{DiceBox, CHAIN_LEN};
use castellan_engine::{Lang, Session};

/// The dice audit of one started game (VERIFY by mail, `castellan verify`): every revealed
/// seed chains to the commitment, every die of those turns replays from its seed, and the
/// whole game replays from its secret and its orders. Returns (all good, the report).
pub fn audit(rec: &GameRecord, s: &mut dyn Session) -> (bool, String) {
    audit_in(rec, s, Lang::En)
}

/// [`audit`], its report worded in `lang` (VERIFY by mail: the reader's language).
pub fn audit_in(rec: &GameRecord, s: &mut dyn Session, lang: Lang) -> (bool, String) {
    let fr = lang == Lang::Fr;
    let revealed = rec.revealed;
    let rolls = s.narrate_since(0, castellan_engine::Lang::En).rolls;
    let game_id = s.game_id().to_string();
    let mut out = Vec::new();
    let mut ok = true;
    let c0 = s.dice().commitment_for(1);
    out.push(match lang {
        Lang::En => format!("Commitment S0: {}", c0.hex()),
        Lang::Fr => format!("Engagement S0 : {}", c0.hex()),
    });
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
            out.push(match lang {
                Lang::En => format!("turn {t}: seed does NOT chain to the previous one"),
                Lang::Fr => format!("tour {t} : la graine ne s'enchaîne PAS à la précédente"),
            });
        }
        let of_turn: Vec<_> = rolls.iter().filter(|r| r.turn == t).collect();
        let sides: Vec<u8> = of_turn.iter().map(|r| r.sides).collect();
        let faces = DiceBox::replay(&game_id, &seed, t, &sides);
        let want: Vec<u8> = of_turn.iter().map(|r| r.value).collect();
        if faces != want {
            ok = false;
            out.push(match lang {
                Lang::En => format!("turn {t}: dice do NOT replay from the seed"),
                Lang::Fr => format!("tour {t} : les dés ne se rejouent PAS depuis la graine"),
            });
        }
        dice_checked += want.len();
    }
    let replay = s.verify();
    let above = match (ok, fr) {
        (true, _) => "",
        (false, false) => " (see above)",
        (false, true) => " (voir plus haut)",
    };
    out.push(if fr {
        let dice = castellan_engine::lang::fr::count(dice_checked as i64, "dé se rejoue", "dés se rejouent");
        format!("Tours dévoilés 1 à {revealed} : chaque graine s'enchaîne à l'engagement{above} ; {dice} depuis leurs graines{above}.")
    } else {
        let dice = castellan_engine::lang::en::count(dice_checked as i64, "die replays", "dice replay");
        format!("Revealed turns 1 to {revealed}: every seed chains to the commitment{above}; {dice} from their seeds{above}.")
    });
    match replay {
        Ok(()) => out.push(
            lang.pick(
                "The whole game replays from its secret and its orders: ok.",
                "La partie entière se rejoue depuis son secret et ses ordres : bon.",
            )
            .into(),
        ),
        Err(e) => {
            ok = false;
            out.push(match lang {
                Lang::En => format!("Replay FAILED: {e}"),
                Lang::Fr => format!("La partie NE se rejoue PAS : {e}"),
            })
        }
    }
    if rec.status == Status::Finished {
        let key = s.dice().secret_key().hex();
        out.push(match lang {
            Lang::En => format!("Secret card-stream key: {key}"),
            Lang::Fr => format!("Clé secrète du tirage des cartes : {key}"),
        });
    }
    (ok, out.join("\n"))
}
