//! The game's words in English and French: the two sides, the order keywords (accepted in
//! both languages whatever the reader's language), and how a game ends.
//!
//! French vocabulary from the seed (the rules text `docs/rules/castello.md` quotes): pions,
//! châteaux, tablier, cases, prises, « domicile », « les rouges » / « les noirs ».

use crate::{Order, Side, CASTLES_TO_WIN, PAWNS_TO_WIN};
use castellan_engine::lang::fr;
use castellan_engine::{Lang, Seat};
use serde::{Deserialize, Serialize};

/// One side's names.
pub struct SideNames {
    /// "Red": the English name (stored, and the reference).
    pub en: &'static str,
    /// "Rouge": the side as a name in French ("Rouge joue E4-E5").
    pub fr: &'static str,
    /// "rouge" / "rouges": the colour as an adjective ("un pion rouge", "les rouges").
    pub fr_adj: &'static str,
    pub fr_adj_plural: &'static str,
}

/// Seat 0 (red) and seat 1 (black). Seed: "L'un des joueurs joue avec les rouges, l'autre
/// avec les noirs."
pub const SIDES: [SideNames; 2] = [
    SideNames {
        en: "Red",
        fr: "Rouge",
        fr_adj: "rouge",
        fr_adj_plural: "rouges",
    },
    SideNames {
        en: "Black",
        fr: "Noir",
        fr_adj: "noir",
        fr_adj_plural: "noirs",
    },
];

fn side(side: Side) -> &'static SideNames {
    &SIDES[side.index()]
}

/// "Red" or "Black".
pub fn colour(side: Side) -> &'static str {
    colour_in(side, Lang::En)
}

/// "Red" / "Rouge".
pub fn colour_in(seat: Side, lang: Lang) -> &'static str {
    lang.pick(side(seat).en, side(seat).fr)
}

/// "les rouges" / "les noirs" (French only: "vous jouez avec les rouges").
pub fn les(seat: Side) -> String {
    format!("les {}", side(seat).fr_adj_plural)
}

/// "2 black pawns" / "2 pions noirs", "1 red pawn" / "1 pion rouge".
pub fn pawns_in(n: usize, seat: Side, lang: Lang) -> String {
    match lang {
        Lang::En => format!(
            "{n} {} pawn{}",
            side(seat).en.to_lowercase(),
            if n > 1 { "s" } else { "" }
        ),
        Lang::Fr => fr::count(
            n as i64,
            &format!("pion {}", side(seat).fr_adj),
            &format!("pions {}", side(seat).fr_adj_plural),
        ),
    }
}

/// "a red pawn" / "un pion rouge".
pub fn a_pawn_in(seat: Side, lang: Lang) -> String {
    match lang {
        Lang::En => format!("a {} pawn", side(seat).en.to_lowercase()),
        Lang::Fr => format!("un pion {}", side(seat).fr_adj),
    }
}

/// The order keywords written in `lang` (the English ones are `order_text`'s).
pub fn resign_word(lang: Lang) -> &'static str {
    lang.pick("RESIGN", "ABANDON")
}
pub fn offer_draw_word(lang: Lang) -> &'static str {
    lang.pick("OFFER DRAW", "PROPOSE NULLE")
}
pub fn accept_draw_word(lang: Lang) -> &'static str {
    lang.pick("ACCEPT DRAW", "ACCEPTE NULLE")
}

/// Upper case without French accents: "déplace" -> "DEPLACE", "accepté" -> "ACCEPTE".
pub fn fold(s: &str) -> String {
    s.chars()
        .map(|c| match c {
            'à' | 'â' | 'À' | 'Â' => 'A',
            'é' | 'è' | 'ê' | 'ë' | 'É' | 'È' | 'Ê' | 'Ë' => 'E',
            'î' | 'ï' | 'Î' | 'Ï' => 'I',
            'ô' | 'Ô' => 'O',
            'ù' | 'û' | 'ü' | 'Ù' | 'Û' | 'Ü' => 'U',
            'ç' | 'Ç' => 'C',
            '’' => '\'',
            c => c,
        })
        .collect::<String>()
        .to_uppercase()
}

/// The whole-line orders, English and French ("RESIGN", "ABANDON", "PROPOSE NULLE"...).
/// `folded` is the line upper-cased, accents removed, words joined by one space.
pub fn keyword_order(folded: &str) -> Option<Order> {
    Some(match folded {
        "RESIGN" | "I RESIGN" | "ABANDON" | "ABANDONNE" | "ABANDONNER" | "J'ABANDONNE" => {
            Order::Resign
        }
        "OFFER DRAW" | "DRAW" | "PROPOSE DRAW" | "PROPOSE NULLE" | "NULLE" | "PROPOSER NULLE"
        | "PROPOSE LA NULLE" | "PROPOSER LA NULLE" => Order::OfferDraw,
        "ACCEPT DRAW" | "ACCEPT" | "ACCEPTE NULLE" | "ACCEPT NULLE" | "ACCEPTE" | "ACCEPTER"
        | "ACCEPTER NULLE" | "ACCEPTE LA NULLE" | "ACCEPTER LA NULLE" => Order::AcceptDraw,
        _ => return None,
    })
}

/// A word that may lead a move: MOVE, PLAY, JOUE, JOUER, DEPLACE, DÉPLACE, DEPLACER.
pub fn is_move_word(folded: &str) -> bool {
    matches!(
        folded,
        "MOVE" | "PLAY" | "JOUE" | "JOUER" | "DEPLACE" | "DEPLACER"
    )
}

/// How a game of Castello ends (stored typed; older builds stored its English text, read
/// back on load: `stored.rs`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum End {
    /// This seat resigned.
    Resigned(Side),
    Agreed,
    /// This seat took the castles it needed.
    Castles(Side),
    /// This seat took the pawns it needed.
    Pawns(Side),
    /// The same position this many times.
    Repetition(u32),
    /// This many moves without a capture.
    MoveLimit(u32),
    /// This seat cannot move.
    Stuck(Side),
}

impl End {
    pub fn winners(self) -> Vec<Seat> {
        match self {
            End::Resigned(s) | End::Stuck(s) => vec![s.other().seat()],
            End::Castles(s) | End::Pawns(s) => vec![s.seat()],
            End::Agreed | End::Repetition(_) | End::MoveLimit(_) => vec![],
        }
    }

    /// The reason, as the outcome and the narration word it.
    pub fn text(self, lang: Lang) -> String {
        let c = |s: Side| colour_in(s, lang);
        match (self, lang) {
            (End::Resigned(s), Lang::En) => format!("{} resigned", c(s)),
            (End::Resigned(s), Lang::Fr) => format!("{} a abandonné", c(s)),
            (End::Agreed, Lang::En) => "draw agreed".into(),
            (End::Agreed, Lang::Fr) => "nulle d'un commun accord".into(),
            (End::Castles(s), Lang::En) => format!("{} took {CASTLES_TO_WIN} castles", c(s)),
            (End::Castles(s), Lang::Fr) => {
                format!("{} a conquis {CASTLES_TO_WIN} châteaux", c(s))
            }
            (End::Pawns(s), Lang::En) => format!("{} took {PAWNS_TO_WIN} enemy pawns", c(s)),
            (End::Pawns(s), Lang::Fr) => format!("{} a pris {PAWNS_TO_WIN} pions adverses", c(s)),
            (End::Repetition(n), Lang::En) => format!("draw: the same position came {n} times"),
            (End::Repetition(n), Lang::Fr) => {
                format!("nulle : la même position est revenue {n} fois")
            }
            (End::MoveLimit(n), Lang::En) => format!("draw: {n} moves without a capture"),
            (End::MoveLimit(n), Lang::Fr) => format!("nulle : {n} coups sans prise"),
            (End::Stuck(s), Lang::En) => format!("{} cannot move any pawn and loses", c(s)),
            (End::Stuck(s), Lang::Fr) => {
                format!("{} ne peut plus déplacer aucun pion et perd", c(s))
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn french_words() {
        assert_eq!(pawns_in(1, Side::Black, Lang::Fr), "1 pion noir");
        assert_eq!(pawns_in(3, Side::Red, Lang::Fr), "3 pions rouges");
        assert_eq!(pawns_in(3, Side::Red, Lang::En), "3 red pawns");
        assert_eq!(fold("déplace"), "DEPLACE");
    }
}
