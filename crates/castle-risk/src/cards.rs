//! The 48 cards of Castle Risk.

use castellan_engine::names::Names;
use castellan_engine::OrderError;
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

    fn names() -> Names<Card> {
        let mut n = Names::new();
        for c in Card::ALL {
            n.add(c.name(), c);
        }
        for (alias, c) in [
            ("Maréchal", Card::Marshal),
            ("Marshall", Card::Marshal),
            ("Diplomate", Card::Diplomat),
            ("Général", Card::General),
            ("Amiral", Card::Admiral),
            ("Espion", Card::Spy),
            ("Renfort", Card::Reinforcements),
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
    if cards.is_empty() {
        return "no cards".into();
    }
    let mut v = cards.to_vec();
    v.sort();
    v.iter().map(|c| c.name()).collect::<Vec<_>>().join(", ")
}
