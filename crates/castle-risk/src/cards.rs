//! The 48 cards of Castle Risk.

use castellan_engine::names::Names;
use castellan_engine::{Lang, OrderError};
use serde::{Deserialize, Serialize};

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub enum Card {
    Marshal,
    Diplomat,
    General,
    Admiral,
    Spy,
    Reinforcements,
}

impl Card {
    pub const ALL: [Card; 6] = [
        Card::Marshal,
        Card::Diplomat,
        Card::General,
        Card::Admiral,
        Card::Spy,
        Card::Reinforcements,
    ];

    /// How many of this card the deck holds (rule 3: 8/7/8/6/7/12).
    pub fn count(self) -> usize {
        match self {
            Card::Marshal => 8,
            Card::Diplomat => 7,
            Card::General => 8,
            Card::Admiral => 6,
            Card::Spy => 7,
            Card::Reinforcements => 12,
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            Card::Marshal => "Marshal",
            Card::Diplomat => "Diplomat",
            Card::General => "General",
            Card::Admiral => "Admiral",
            Card::Spy => "Spy",
            Card::Reinforcements => "Reinforcements",
        }
    }

    /// The card's name in `lang`; the French as the French rules text names the cards.
    pub fn name_in(self, lang: Lang) -> &'static str {
        match lang {
            Lang::En => self.name(),
            Lang::Fr => match self {
                Card::Marshal => "Maréchal",
                Card::Diplomat => "Diplomate",
                Card::General => "Général",
                Card::Admiral => "Amiral",
                Card::Spy => "Espion",
                Card::Reinforcements => "Renfort",
            },
        }
    }

    fn names() -> Names<Card> {
        let mut n = Names::new();
        for c in Card::ALL {
            n.add(c.name(), c);
        }
        for c in Card::ALL {
            n.add_alias(c.name_in(Lang::Fr), c.name(), c);
        }
        for (alias, c) in [
            ("Marshall", Card::Marshal),
            ("Renforts", Card::Reinforcements),
            ("Reinforcement", Card::Reinforcements),
        ] {
            n.add_alias(alias, c.name(), c);
        }
        n
    }

    /// Forgiving card name (English or French).
    pub fn parse(s: &str) -> Result<Card, OrderError> {
        Card::names().resolve(s).map_err(|e| {
            OrderError::new(e.to_string())
                .hint("the cards are Marshal, Diplomat, General, Admiral, Spy, Reinforcements")
                .fr(crate::words::name_error_fr(&e))
                .hint_fr("les cartes sont Maréchal, Diplomate, Général, Amiral, Espion, Renfort")
        })
    }
}

/// The full deck of 48, in a fixed order (draws are random at the moment of drawing).
pub fn full_deck() -> Vec<Card> {
    Card::ALL
        .iter()
        .flat_map(|c| std::iter::repeat_n(*c, c.count()))
        .collect()
}

/// A hand written for a player: "General, Spy, Spy".
pub fn hand_text(cards: &[Card]) -> String {
    hand_text_in(cards, Lang::En)
}

/// A hand written for a reader of `lang`: "General, Spy, Spy", "Général, Espion, Espion".
pub fn hand_text_in(cards: &[Card], lang: Lang) -> String {
    if cards.is_empty() {
        return lang.pick("no cards", "aucune carte").into();
    }
    let mut v = cards.to_vec();
    v.sort();
    v.iter()
        .map(|c| c.name_in(lang))
        .collect::<Vec<_>>()
        .join(", ")
}
