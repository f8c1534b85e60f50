//! What the game asks: the side to move, its legal moves as choices (captures first), the
//! default move, and a standing draw offer.

use crate::moves::{self, Move};
use crate::words::{self, accept_draw_word, colour, colour_in};
use crate::{Castello, Side};
use castellan_engine::{Lang, PromptKinds, PromptRole};

/// A prompt of Castello: one of its kinds.
pub(crate) type Prompt = castellan_engine::Prompt<Ask>;

/// What Castello asks of a seat: its move, the only kind.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Ask {
    /// Move (or accept a draw).
    Move,
}

impl PromptKinds for Ask {
    const ALL: &'static [Ask] = &[Ask::Move];

    fn name(self) -> &'static str {
        "move"
    }

    fn role(self) -> PromptRole {
        PromptRole::Turn
    }
}

/// How many legal moves a prompt lists as choices.
const PROMPT_CHOICES: usize = 40;

impl Castello {
    /// What the game waits for: the side to move, with its moves and a draw offer.
    pub(crate) fn prompts(&self, lang: Lang) -> Vec<Prompt> {
        if self.result.is_some() {
            return vec![];
        }
        let seat = self.to_move;
        let moves = moves::spread_for_listing(self.legal_moves(seat));
        let mut choices: Vec<String> = moves.iter().take(PROMPT_CHOICES).map(Move::text).collect();
        let mut question = self.question(seat, moves.len(), lang);
        if self.draw_offer == Some(seat.other()) {
            question.push_str(&match lang {
                Lang::En => format!(
                    " {} offers a draw: ACCEPT DRAW, or move to decline.",
                    colour(seat.other())
                ),
                Lang::Fr => format!(
                    " {} propose la nulle : ACCEPTE NULLE, ou jouez un coup pour refuser.",
                    colour_in(seat.other(), lang)
                ),
            });
            choices.push(accept_draw_word(lang).into());
        }
        let default = self.order_text_in(&self.default_move(), lang);
        vec![Prompt {
            seat: seat.seat(),
            kind: Ask::Move,
            question,
            choices,
            default,
            standing: None,
        }]
    }

    /// The prompt's question (without the draw offer).
    pub(crate) fn question(&self, seat: Side, n_moves: usize, lang: Lang) -> String {
        let limit = PROMPT_CHOICES;
        let mut q = match lang {
            Lang::En => format!(
                "Move {}: your move as {}. Move one pawn (a step, a first move of two, or jumps).",
                self.ply + 1,
                colour(seat)
            ),
            Lang::Fr => format!(
                "Coup {} : à vous de jouer avec {}. Déplacez un pion (d'une case, de deux cases \
                 au premier mouvement, ou par sauts).",
                self.ply + 1,
                words::les(seat)
            ),
        };
        if n_moves > limit {
            q.push_str(&match lang {
                Lang::En => {
                    format!(" {n_moves} legal moves; the choices show {limit}, captures first.")
                }
                Lang::Fr => format!(
                    " {n_moves} coups légaux ; les choix en montrent {limit}, les prises d'abord."
                ),
            });
        }
        q
    }
}
