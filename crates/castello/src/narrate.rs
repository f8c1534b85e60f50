//! What happened, told in English or French (nothing in Castello is hidden: every viewer
//! reads the same line).

use crate::moves;
use crate::words::{colour, colour_in, pawns_in};
use crate::{Castello, End, Event, Side, BLACK, CASTLES_TO_WIN, RED};
use castellan_engine::{Lang, Seat};

impl Castello {
    /// One event, told to everyone (nothing in Castello is hidden).
    pub(crate) fn narrate_in(&self, event: &Event, lang: Lang) -> String {
        let c = |s: Side| colour_in(s, lang);
        match (event, lang) {
            (Event::Start { first, drawn }, _) => self.narrate_start(*first, *drawn, lang),
            (
                Event::Moved {
                    seat,
                    path,
                    captured,
                },
                _,
            ) => {
                let path = moves::path_text(path);
                let mut s = match lang {
                    Lang::En => format!("{} plays {path}", c(*seat)),
                    Lang::Fr => format!("{} joue {path}", c(*seat)),
                };
                if !captured.is_empty() {
                    let names: Vec<String> = captured.iter().map(|c| c.to_string()).collect();
                    let taken = pawns_in(captured.len(), seat.other(), lang);
                    s.push_str(&match lang {
                        Lang::En => format!(", taking {taken} ({})", names.join(", ")),
                        Lang::Fr => format!(" et prend {taken} ({})", names.join(", ")),
                    });
                }
                s.push('.');
                s
            }
            (Event::CastleTaken { seat, sq, total }, Lang::En) => format!(
                "{} takes the castle on {sq} ({total} of {CASTLES_TO_WIN}).",
                c(*seat)
            ),
            (Event::CastleTaken { seat, sq, total }, Lang::Fr) => format!(
                "{} conquiert le château en {sq} ({total} sur {CASTLES_TO_WIN}).",
                c(*seat)
            ),
            (Event::DrawOffered { seat }, Lang::En) => format!("{} offers a draw.", c(*seat)),
            (Event::DrawOffered { seat }, Lang::Fr) => format!("{} propose la nulle.", c(*seat)),
            (Event::DrawDeclined { seat }, Lang::En) => {
                format!("{} moves on: the draw offer is declined.", c(*seat))
            }
            (Event::DrawDeclined { seat }, Lang::Fr) => {
                format!("{} joue : la proposition de nulle est refusée.", c(*seat))
            }
            (Event::DrawAgreed, Lang::En) => "The players agree a draw.".into(),
            (Event::DrawAgreed, Lang::Fr) => "Les joueurs conviennent de la nulle.".into(),
            (Event::Resigned { seat }, Lang::En) => format!("{} resigns.", c(*seat)),
            (Event::Resigned { seat }, Lang::Fr) => format!("{} abandonne.", c(*seat)),
            (Event::Ended { winners, end }, _) => self.narrate_end(winners, *end, lang),
        }
    }

    fn narrate_start(&self, first: Side, drawn: bool, lang: Lang) -> String {
        match lang {
            Lang::En => format!(
                "Castello begins: {} (columns A-B) against {} (columns T-U); {} moves first{}.",
                self.name_in(RED, lang),
                self.name_in(BLACK, lang),
                colour(first),
                if drawn { " (drawn by lot)" } else { "" }
            ),
            Lang::Fr => format!(
                "La partie de Castello commence : {} (colonnes A-B) contre {} (colonnes T-U) ; \
                 {} joue en premier{}.",
                self.name_in(RED, lang),
                self.name_in(BLACK, lang),
                colour_in(first, lang),
                if drawn { " (tiré au sort)" } else { "" }
            ),
        }
    }

    fn narrate_end(&self, winners: &[Seat], end: End, lang: Lang) -> String {
        let reason = end.text(lang);
        let winner = winners
            .first()
            .and_then(|w| Side::of_seat(*w))
            .map(|w| self.name_in(w, lang));
        match (winner, lang) {
            (Some(w), Lang::En) => format!("Game over: {w} wins ({reason})."),
            (Some(w), Lang::Fr) => format!("Partie terminée : {w} gagne ({reason})."),
            (None, Lang::En) => format!("Game over: {reason}."),
            (None, Lang::Fr) => format!("Partie terminée : {reason}."),
        }
    }
}
