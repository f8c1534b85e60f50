//! Standing orders: what a seat answers out of turn without being asked (`SET ...`), the
//! documented defaults, and the standing order written back as a player writes it.

use super::*;

/// When to engage a Marshal in defence.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum MarshalPolicy {
    Never,
    Always,
    /// When the attacked territory holds at least this many armies, or is the castle.
    When(u32),
}

/// When to reveal one's hidden armies as their territory is attacked.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum RevealPolicy {
    Never,
    /// Reveal when the territory is attacked and they are worth at least this many armies.
    OnAttack(u32),
}

/// A seat's standing orders. `None` = not set (the default applies, or a prompt in ask mode).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Standing {
    pub defend: Option<u32>,
    pub marshal: Option<MarshalPolicy>,
    pub counterspy: Option<bool>,
    pub reveal: Option<RevealPolicy>,
    /// Annexation preferences (territories in order); `Some(vec![])` = AUTO.
    pub annex: Option<Vec<T>>,
    /// Re-occupy after an elimination without being asked: `Some(true)` = ALL.
    pub reoccupy: Option<bool>,
    /// `SET GENERAL AGAIN|ONCE`: whether a beaten General is replaced by another from the
    /// hand within the same attack.
    #[serde(default)]
    pub general_again: Option<bool>,
}

/// Documented defaults.
pub const DEFAULT_DEFEND: u32 = 2;
pub const DEFAULT_MARSHAL: MarshalPolicy = MarshalPolicy::When(3);
pub const DEFAULT_COUNTERSPY: bool = true;
pub const DEFAULT_REVEAL: RevealPolicy = RevealPolicy::OnAttack(5);
/// "Vous pouvez alors : jouer une autre carte Générale si vous souhaitez, continuer
/// l'Attaque sans Général, ou terminer votre attaque": a second General is spent only when
/// the player says so (`GENERAL AGAIN`, `SET GENERAL AGAIN`).
pub const DEFAULT_GENERAL_AGAIN: bool = false;

/// A standing order.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum SetOrder {
    Defend(u32),
    Marshal(MarshalPolicy),
    CounterSpy(bool),
    Reveal(RevealPolicy),
    /// Annexation preferences; empty = AUTO.
    Annex(Vec<T>),
    /// `Some(true)` ALL, `Some(false)` NONE, `None` ASK.
    Reoccupy(Option<bool>),
    /// `SET GENERAL AGAIN` (true) or `SET GENERAL ONCE` (false).
    General(bool),
    /// Forget every standing order (back to prompts/defaults).
    Ask,
}

impl SetOrder {
    pub fn text(&self) -> String {
        self.text_in(Lang::En)
    }

    /// The standing order as a reader of `lang` writes it (parses back to itself).
    pub fn text_in(&self, lang: Lang) -> String {
        let k = |w: &'static str| kw(lang, w);
        let rest = match self {
            SetOrder::Defend(n) => format!("{} {n}", k("DEFEND")),
            SetOrder::Marshal(MarshalPolicy::Always) => format!("{} {}", k("MARSHAL"), k("ALWAYS")),
            SetOrder::Marshal(MarshalPolicy::Never) => format!("{} {}", k("MARSHAL"), k("NEVER")),
            SetOrder::Marshal(MarshalPolicy::When(n)) => {
                format!("{} {} {n}+", k("MARSHAL"), k("WHEN"))
            }
            SetOrder::CounterSpy(true) => format!("{} {}", k("COUNTERSPY"), k("ALWAYS")),
            SetOrder::CounterSpy(false) => format!("{} {}", k("COUNTERSPY"), k("NEVER")),
            SetOrder::Reveal(RevealPolicy::Never) => format!("{} {}", k("REVEAL"), k("NEVER")),
            SetOrder::Reveal(RevealPolicy::OnAttack(1)) => {
                format!("{} {} {}", k("REVEAL"), k("ON"), k("ATTACK"))
            }
            SetOrder::Reveal(RevealPolicy::OnAttack(n)) => {
                format!("{} {} {n}+", k("REVEAL"), k("WHEN"))
            }
            SetOrder::Annex(l) if l.is_empty() => format!("{} {}", k("ANNEX"), k("AUTO")),
            SetOrder::Annex(l) => format!(
                "{} {}",
                k("ANNEX"),
                l.iter()
                    .map(|t| tn(*t, lang))
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
            SetOrder::Reoccupy(Some(true)) => format!("{} {}", k("REOCCUPY"), k("ALL")),
            SetOrder::Reoccupy(Some(false)) => format!("{} {}", k("REOCCUPY"), k("NONE")),
            SetOrder::Reoccupy(None) => format!("{} {}", k("REOCCUPY"), k("ASK")),
            SetOrder::General(true) => format!("{} {}", k("GENERAL"), k("AGAIN")),
            SetOrder::General(false) => format!("{} {}", k("GENERAL"), k("ONCE")),
            SetOrder::Ask => k("ASK").to_string(),
        };
        format!("{} {rest}", k("SET"))
    }
}
