//! What Risk asks of a seat: its kinds of prompt. The prompts themselves, worded, are
//! made in view.rs; their defaults in bot.rs.

use castellan_engine::{PromptKinds, PromptRole, Seat};

/// A prompt of Risk: one of its kinds.
pub(crate) type Prompt = castellan_engine::Prompt<Ask>;

/// What Risk asks of a seat.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Ask {
    /// Claim a territory at setup.
    Claim,
    /// Rank the territories for the draft.
    Draft,
    /// Place armies at setup.
    Place,
    /// Choose the headquarters (Capital Risk).
    Headquarters,
    /// Play a turn.
    Turn,
    /// Answer an attack.
    Defend,
    /// Defend a neutral territory for the table.
    DefendNeutral,
}

impl PromptKinds for Ask {
    const ALL: &'static [Ask] = &[
        Ask::Claim,
        Ask::Draft,
        Ask::Place,
        Ask::Headquarters,
        Ask::Turn,
        Ask::Defend,
        Ask::DefendNeutral,
    ];

    fn name(self) -> &'static str {
        match self {
            Ask::Claim => "claim",
            Ask::Draft => "draft",
            Ask::Place => "place",
            Ask::Headquarters => "headquarters",
            Ask::Turn => "turn",
            Ask::Defend => "defend",
            Ask::DefendNeutral => "defend-neutral",
        }
    }

    fn role(self) -> PromptRole {
        match self {
            Ask::Claim | Ask::Draft | Ask::Place | Ask::Headquarters => PromptRole::Step,
            Ask::Turn => PromptRole::Turn,
            Ask::Defend | Ask::DefendNeutral => PromptRole::Question,
        }
    }
}

/// A prompt without a standing order.
pub(crate) fn prompt(
    seat: Seat,
    kind: Ask,
    q: String,
    choices: Vec<String>,
    default: String,
) -> Prompt {
    Prompt {
        seat,
        kind,
        question: q,
        choices,
        default,
        standing: None,
    }
}
