//! What a game waits for: a [`Prompt`] to a seat, of a kind the game declares.
//!
//! Each game names its own kinds of prompt in an enum of its own that implements
//! [`PromptKinds`] (Castle Risk's `Ask::CounterSpy`, Castello's `Ask::Move`): its rules,
//! defaults and bots match on that enum exhaustively, and a new game adds kinds without
//! touching the engine. The judge sees a [`PromptKind`]: the kind's written name and its
//! [`PromptRole`], the only facts it acts on.

use super::*;

/// What the judge does with a prompt of some kind: the one fact about a kind, besides its
/// name, that changes who is told what.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum PromptRole {
    /// A step of its own: setting up (a castle, a claim, a draft), placing armies, works.
    Step,
    /// The play of a turn (a turn, a move): the first one awaited ends a game's setup.
    Turn,
    /// A question put to a player inside someone else's turn (or their own, after an
    /// attack): the judge mails it to the one who must answer, not to the table.
    Question,
}

/// A game's own kinds of prompt: an enum in the game's crate (`type Ask` of its
/// [`Rules`]). Deadlines may be set per kind (`deadline-defend=12`), by its name.
pub trait PromptKinds: Copy + Eq + Debug + Send + Sync + 'static {
    /// Every kind the game raises, in the order its errors list them.
    const ALL: &'static [Self];
    /// The kind as written in options ("counter-spy"): lowercase, words joined by '-'.
    fn name(self) -> &'static str;
    /// What the judge does with it.
    fn role(self) -> PromptRole;
}

/// A kind of prompt as the judge sees it, whatever the game: its name and its role.
/// Made from a game's kind (`PromptKind::from(Ask::Defend)`) and compared with one
/// (`p.kind == Ask::Defend`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct PromptKind {
    name: &'static str,
    role: PromptRole,
}

impl PromptKind {
    /// The kind as written in options ("counter-spy").
    pub fn as_str(self) -> &'static str {
        self.name
    }

    /// What the judge does with it.
    pub fn role(self) -> PromptRole {
        self.role
    }

    /// A question put inside a turn ([`PromptRole::Question`]): mailed to its answerer
    /// alone.
    pub fn is_question(self) -> bool {
        self.role == PromptRole::Question
    }

    /// The play of a turn ([`PromptRole::Turn`]).
    pub fn is_turn(self) -> bool {
        self.role == PromptRole::Turn
    }

    /// Every kind of the game whose kinds are `K`.
    pub fn all_of<K: PromptKinds>() -> Vec<PromptKind> {
        K::ALL.iter().map(|k| PromptKind::from(*k)).collect()
    }

    /// The kind among `kinds` written `s` ("counter-spy", "COUNTER_SPY").
    pub fn parse_among(s: &str, kinds: &[PromptKind]) -> Option<PromptKind> {
        let s = s.trim().to_lowercase().replace('_', "-");
        kinds.iter().copied().find(|k| k.name == s)
    }
}

impl<K: PromptKinds> From<K> for PromptKind {
    fn from(k: K) -> PromptKind {
        PromptKind {
            name: k.name(),
            role: k.role(),
        }
    }
}

/// `p.kind == Ask::Defend`: the same name and role.
impl<K: PromptKinds> PartialEq<K> for PromptKind {
    fn eq(&self, other: &K) -> bool {
        *self == PromptKind::from(*other)
    }
}

impl std::fmt::Display for PromptKind {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name)
    }
}

/// A decision the game waits for: who, what, the legal answers, and what happens if the
/// deadline passes ("every decision has three answers": an order now, a standing order,
/// a default). A game makes them of its own kinds `K`; the judge sees them as
/// `Prompt<PromptKind>` ([`Prompt::erase`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Prompt<K = PromptKind> {
    pub seat: Seat,
    pub kind: K,
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

impl<K: PromptKinds> Prompt<K> {
    /// The prompt as the judge sees it: its kind reduced to a [`PromptKind`].
    pub fn erase(self) -> Prompt {
        Prompt {
            seat: self.seat,
            kind: self.kind.into(),
            question: self.question,
            choices: self.choices,
            default: self.default,
            standing: self.standing,
        }
    }
}
