//! What a game waits for: a [`Prompt`] to a seat, of a [`PromptKind`].

use super::*;

/// What kind of decision a prompt asks for. Closed: a game lists the kinds it prompts in
/// [`Rules::PROMPT_KINDS`], deadlines may be set per kind (`deadline-defend=12`), and
/// defaults match on it exhaustively. Stored and written kebab-case ("counter-spy").
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum PromptKind {
    /// Castle Risk: choose your castle's territory.
    Castle,
    /// Claim a territory at setup.
    Claim,
    /// Castle Risk: rank the empires for the draft.
    Rank,
    /// Place armies.
    Place,
    /// Castle Risk: hide armies at setup.
    Hide,
    /// Play a turn.
    Turn,
    /// Answer an attack.
    Defend,
    /// Castrum: defend a neutral card.
    DefendNeutral,
    /// Castle Risk: answer a spy.
    CounterSpy,
    /// Castle Risk: re-occupy vacated territories after taking a castle.
    Reoccupy,
    /// Castle Risk: annex a vacated territory.
    Annex,
    /// Castrum: the draft.
    Draft,
    /// Castrum: choose the headquarters.
    Headquarters,
    /// Castrum: the works.
    Works,
    /// Castello: a move.
    Move,
}

impl PromptKind {
    /// Every kind, in declaration order.
    pub const ALL: [PromptKind; 15] = [
        PromptKind::Castle,
        PromptKind::Claim,
        PromptKind::Rank,
        PromptKind::Place,
        PromptKind::Hide,
        PromptKind::Turn,
        PromptKind::Defend,
        PromptKind::DefendNeutral,
        PromptKind::CounterSpy,
        PromptKind::Reoccupy,
        PromptKind::Annex,
        PromptKind::Draft,
        PromptKind::Headquarters,
        PromptKind::Works,
        PromptKind::Move,
    ];

    /// A question put to a player inside someone else's turn (or their own, after an
    /// attack): defend, a Castrum neutral card, counter a Spy, re-occupy, annex. The judge
    /// mails it to the one who must answer, not to the table.
    pub fn is_question(self) -> bool {
        matches!(
            self,
            PromptKind::Defend
                | PromptKind::DefendNeutral
                | PromptKind::CounterSpy
                | PromptKind::Reoccupy
                | PromptKind::Annex
        )
    }

    /// The kind as written in options and stored ("counter-spy").
    pub fn as_str(self) -> &'static str {
        match self {
            PromptKind::Castle => "castle",
            PromptKind::Claim => "claim",
            PromptKind::Rank => "rank",
            PromptKind::Place => "place",
            PromptKind::Hide => "hide",
            PromptKind::Turn => "turn",
            PromptKind::Defend => "defend",
            PromptKind::DefendNeutral => "defend-neutral",
            PromptKind::CounterSpy => "counter-spy",
            PromptKind::Reoccupy => "reoccupy",
            PromptKind::Annex => "annex",
            PromptKind::Draft => "draft",
            PromptKind::Headquarters => "headquarters",
            PromptKind::Works => "works",
            PromptKind::Move => "move",
        }
    }

    /// Read a kind as written ("counter-spy", "COUNTER_SPY").
    pub fn parse(s: &str) -> Option<PromptKind> {
        let s = s.trim().to_lowercase().replace('_', "-");
        PromptKind::ALL.into_iter().find(|k| k.as_str() == s)
    }
}

/// `kind == "counter-spy"`: compares with the written form.
impl PartialEq<&str> for PromptKind {
    fn eq(&self, other: &&str) -> bool {
        self.as_str() == *other
    }
}

impl std::fmt::Display for PromptKind {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

/// A decision the game waits for: who, what, the legal answers, and what happens if the
/// deadline passes ("every decision has three answers": an order now, a standing order,
/// a default).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Prompt {
    pub seat: Seat,
    pub kind: PromptKind,
    /// The question, in one or two sentences, in the language asked for.
    pub question: String,
    /// Order lines the seat may send now, exactly as they would be written.
    /// When the legal answers are many, a representative sample.
    pub choices: Vec<String>,
    /// What the judge plays if the deadline passes.
    pub default: String,
    /// A line that sets a standing order answering this kind of prompt, if the game has one.
    pub standing: Option<String>,
}
