//! The order language: parsing a line (a move's squares, or RESIGN, OFFER DRAW, ACCEPT DRAW
//! in English or French) and writing an order back in either language; the ORDERS help.

use crate::moves::{self, Move};
use crate::words::{self, accept_draw_word, offer_draw_word, resign_word};
use crate::{Castello, Side, Sq};
use castellan_engine::words::{refusal, Hints};
use castellan_engine::{Lang, OrderError, Seat};
use serde::{Deserialize, Serialize};

/// An order.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Order {
    /// The squares the pawn stands on in turn: "E4-E5", "E4-E6", "E4-E2-C2-A2-C4".
    Move(Vec<Sq>),
    Resign,
    OfferDraw,
    AcceptDraw,
}

impl Castello {
    /// Parse one order line of `seat` (English or French words).
    pub(crate) fn parse_order(&self, seat: Seat, line: &str) -> Result<Order, OrderError> {
        let seat = side_of(seat)?;
        let toks: Vec<String> = line
            .split_whitespace()
            .map(|w| w.to_uppercase().trim_end_matches(['.', '!']).to_string())
            .collect();
        let joined = toks.join(" ");
        if let Some(o) = words::keyword_order(&words::fold(&joined)) {
            return Ok(o);
        }
        let move_word = toks
            .first()
            .is_some_and(|w| words::is_move_word(&words::fold(w)));
        // A line that starts with a word (not a square such as E4, not a move word) is not
        // an order at all: a signature or a "thanks!" after the move is ignored, not refused.
        let starts_with_word = !move_word
            && toks.first().is_some_and(|w| {
                let mut c = w.chars();
                c.next().is_some_and(char::is_alphabetic)
                    && !c.next().is_some_and(|d| d.is_ascii_digit())
            });
        let body = if move_word {
            toks[1..].join(" ")
        } else {
            joined.clone()
        };
        let path = parse_path(&body).map_err(|e| {
            let e = self.with_example(seat, e);
            if starts_with_word {
                e.not_an_order()
            } else {
                e
            }
        })?;
        if path.len() < 2 {
            return Err(self.no_destination(seat, path[0]));
        }
        Ok(Order::Move(path))
    }

    /// The order as written in `lang`: the moves are the same squares in both languages,
    /// the other orders take the French keywords (`ABANDON`, `PROPOSE NULLE`,
    /// `ACCEPTE NULLE`). Every line parses back to `order` whatever the language.
    pub fn order_text_in(&self, order: &Order, lang: Lang) -> String {
        match order {
            Order::Move(p) => moves::path_text(p),
            Order::Resign => resign_word(lang).into(),
            Order::OfferDraw => offer_draw_word(lang).into(),
            Order::AcceptDraw => accept_draw_word(lang).into(),
        }
    }

    /// A parse error's hint with one legal move of the seat to play as an example.
    fn with_example(&self, seat: Side, e: OrderError) -> OrderError {
        let (Some(h), Some(h_fr)) = (e.hint_in(Lang::En), e.hint_in(Lang::Fr)) else {
            return e;
        };
        if self.result.is_some() || seat != self.to_move {
            return e;
        }
        let Some(m) = self.legal_moves(seat).first().map(Move::text) else {
            return e;
        };
        let (h, h_fr) = (
            format!("{h} (for instance {m})"),
            format!("{h_fr} (par exemple {m})"),
        );
        e.hints(h, h_fr)
    }
}

/// The English forms of the whole-line orders ([`words::keyword_order`]) and of the words
/// that may lead a move ([`words::is_move_word`]); their other forms are French.
const ENGLISH_ORDER_FORMS: [&str; 9] = [
    "RESIGN",
    "I RESIGN",
    "OFFER DRAW",
    "DRAW",
    "PROPOSE DRAW",
    "ACCEPT DRAW",
    "ACCEPT",
    "MOVE",
    "PLAY",
];

/// Does `line` read as one of Castello's orders written in French ("ABANDON", "PROPOSE
/// NULLE", "DÉPLACE E4-E5")? The words the order parser itself reads.
pub fn reads_as_french(line: &str) -> bool {
    let toks: Vec<String> = line
        .split_whitespace()
        .map(|w| words::fold(w.trim_end_matches(['.', '!'])))
        .collect();
    let french = |form: &str| !ENGLISH_ORDER_FORMS.contains(&form);
    let joined = toks.join(" ");
    if words::keyword_order(&joined).is_some() {
        return french(&joined);
    }
    toks.first()
        .is_some_and(|w| words::is_move_word(w) && french(w))
}

/// The side a seat plays, or the error for a seat Castello does not have.
pub(crate) fn side_of(seat: Seat) -> Result<Side, OrderError> {
    Side::of_seat(seat).ok_or_else(|| {
        refusal(
            format!("there is no seat {seat} in Castello"),
            format!("il n'y a pas de place {seat} à Castello"),
        )
    })
}

/// An order error in both languages, with the general hint on writing a move.
fn path_error(en: String, fr: String) -> OrderError {
    refusal(en, fr).hints(moves::GENERAL[0], moves::GENERAL[1])
}

/// Split an order line into squares: "E4-E2-C2", "e4 e2 c2", "E4xE2xC2", "E4 - E6".
fn parse_path(text: &str) -> Result<Vec<Sq>, OrderError> {
    let chars: Vec<char> = text.chars().collect();
    let mut i = 0;
    let mut out = Vec::new();
    while i < chars.len() {
        let c = chars[i];
        if c.is_whitespace() || "-xX,;:>/–—".contains(c) {
            i += 1;
            continue;
        }
        if c.is_alphabetic() {
            let mut j = i + 1;
            while j < chars.len() && chars[j].is_ascii_digit() {
                j += 1;
            }
            let tok: String = chars[i..j].iter().collect();
            if j == i + 1 {
                let mut k = i;
                while k < chars.len() && chars[k].is_alphanumeric() {
                    k += 1;
                }
                let word: String = chars[i..k].iter().collect();
                return Err(path_error(
                    format!(
                        "\"{word}\" is not a square or an order (squares are A1..U15; orders: a \
                         move, RESIGN, OFFER DRAW, ACCEPT DRAW)"
                    ),
                    format!(
                        "« {word} » n'est ni une case ni un ordre (cases : A1..U15 ; ordres : un \
                         coup, ABANDON, PROPOSE NULLE, ACCEPTE NULLE)"
                    ),
                ));
            }
            match Sq::parse(&tok) {
                Some(s) => out.push(s),
                None => {
                    return Err(path_error(
                        format!("{tok} is off the board: columns run A to U, rows 1 to 15"),
                        format!(
                            "{tok} est hors du tablier : les colonnes vont de A à U, les \
                             rangées de 1 à 15"
                        ),
                    ))
                }
            }
            i = j;
            continue;
        }
        return Err(path_error(
            format!("unexpected \"{c}\" in a move"),
            format!("« {c} » inattendu dans un coup"),
        ));
    }
    if out.is_empty() {
        return Err(path_error(
            "no move given".into(),
            "aucun coup indiqué".into(),
        ));
    }
    Ok(out)
}

/// The ORDERS help.
pub(crate) fn order_help(lang: Lang) -> String {
    match lang {
        Lang::En => "Castello orders (one per line):\n\
         E4-E5            move the pawn on E4 one square (any of the 8 directions)\n\
         E4-E6            a pawn's first move may go two squares in a straight line\n\
         E4-E2-C2-A2-C4   jumps over adjacent pawns (either colour, never a castle) to the\n\
                          empty square beyond; enemy pawns jumped are taken; stop whenever\n\
                          you like; the move ends after the fifth capture\n\
         RESIGN           give up the game\n\
         OFFER DRAW       offer a draw (it stands until your opponent moves)\n\
         ACCEPT DRAW      accept your opponent's offer\n\
         Squares are a column A-U and a row 1-15; lowercase, spaces and x work too \
         (e4 e2 c2, E4xE2xC2)."
            .into(),
        Lang::Fr => [
            "Ordres de Castello (un par ligne) :",
            "E4-E5            déplace le pion de E4 d'une case (dans l'une des 8 directions)",
            "E4-E6            premier mouvement d'un pion : deux cases en ligne droite",
            "E4-E2-C2-A2-C4   sauts par-dessus des pions voisins (de l'une ou l'autre couleur,",
            "                 jamais un château) vers la case libre juste derrière ; les pions",
            "                 adverses sautés sont pris ; arrêtez-vous quand vous voulez ; le",
            "                 coup s'achève après la cinquième prise",
            "ABANDON          abandonner la partie",
            "PROPOSE NULLE    proposer la nulle (elle tient jusqu'au prochain coup adverse)",
            "ACCEPTE NULLE    accepter la nulle proposée par votre adversaire",
            "Une case est une colonne A-U et une rangée 1-15 ; minuscules, espaces et x sont",
            "acceptés (e4 e2 c2, E4xE2xC2), ainsi qu'un JOUE en tête (JOUE E4-E5). Les ordres",
            "s'écrivent aussi en anglais (RESIGN, OFFER DRAW, ACCEPT DRAW, MOVE).",
        ]
        .join("\n"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The French forms of the whole-line orders and of the move words read as French and
    /// parse as the order; the English forms do not read as French.
    #[test]
    fn french_orders_read_as_french() {
        for line in [
            "ABANDON",
            "J'abandonne",
            "PROPOSER LA NULLE",
            "nulle",
            "Accepte nulle",
        ] {
            assert!(reads_as_french(line), "{line}");
            assert!(words::keyword_order(&words::fold(line)).is_some(), "{line}");
        }
        assert!(reads_as_french("DÉPLACE E4-E5"));
        assert!(reads_as_french("joue E4-E5"));
        for line in [
            "RESIGN",
            "OFFER DRAW",
            "ACCEPT DRAW",
            "MOVE E4-E5",
            "E4-E5",
            "Bonjour",
        ] {
            assert!(!reads_as_french(line), "{line}");
        }
    }
}
