//! The cards of Castrum, their names (Latin, French, English) and the deck file.

use castellan_engine::names::Names;
use castellan_engine::Lang;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::sync::OnceLock;

/// The names file shipped with the game: cards, pieces and round events in English and
/// French.
pub const NAMES_YAML: &str = include_str!("../data/names.yaml");

/// One card's names (data/names.yaml).
#[derive(Clone, Debug, Deserialize)]
pub struct CardNames {
    pub name: String,
    pub gloss_en: String,
    pub gloss_fr: String,
    #[serde(default)]
    pub aliases: Vec<String>,
}

/// A word in both languages, singular and plural (data/names.yaml, `pieces`).
#[derive(Clone, Debug, Deserialize)]
pub struct PieceNames {
    pub en: String,
    pub fr: String,
    pub plural_en: String,
    pub plural_fr: String,
}

/// A round event's name and effect in both languages (data/names.yaml, `events`).
#[derive(Clone, Debug, Deserialize)]
pub struct EventNames {
    pub en: String,
    pub fr: String,
    pub effect_en: String,
    pub effect_fr: String,
}

/// The whole names file.
#[derive(Clone, Debug, Deserialize)]
pub struct NamesData {
    pub cards: BTreeMap<String, CardNames>,
    pub pieces: BTreeMap<String, PieceNames>,
    pub events: BTreeMap<String, EventNames>,
}

/// The names file, read once (a test checks it names every card, piece and event).
pub fn names_data() -> &'static NamesData {
    static DATA: OnceLock<NamesData> = OnceLock::new();
    DATA.get_or_init(|| {
        serde_yaml::from_str(NAMES_YAML).unwrap_or_else(|e| panic!("data/names.yaml: {e}"))
    })
}

/// One card type. Cards of the same type are interchangeable, so a hand or a site is a
/// list of types.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub enum Card {
    Structores,
    Lapides,
    LapidesX2,
    Rustici,
    RusticiX2,
    Roue,
    Incendie,
    Sorciere,
    PiecesOr,
    Mage,
    Gardes,
    Moines,
    Reliques,
}

/// The three building materials.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Material {
    Structores,
    Lapides,
    Rustici,
}

impl Card {
    pub const ALL: [Card; 13] = [
        Card::Structores,
        Card::Lapides,
        Card::LapidesX2,
        Card::Rustici,
        Card::RusticiX2,
        Card::Roue,
        Card::Incendie,
        Card::Sorciere,
        Card::PiecesOr,
        Card::Mage,
        Card::Gardes,
        Card::Moines,
        Card::Reliques,
    ];

    /// The name shown in reports and written in orders (the printed name: the same in
    /// English and French; from data/names.yaml).
    pub fn name(self) -> &'static str {
        &names_data().cards[self.key()].name
    }

    /// What the card is, in a word of `lang` ("masons", "maçons").
    pub fn gloss(self, lang: Lang) -> &'static str {
        let n = &names_data().cards[self.key()];
        lang.pick(&n.gloss_en, &n.gloss_fr)
    }

    /// The key of this card in data/deck.yaml.
    pub fn key(self) -> &'static str {
        match self {
            Card::Structores => "structores",
            Card::Lapides => "lapides",
            Card::LapidesX2 => "lapides_x2",
            Card::Rustici => "rustici",
            Card::RusticiX2 => "rustici_x2",
            Card::Roue => "roue_de_carrier",
            Card::Incendie => "incendie",
            Card::Sorciere => "sorciere",
            Card::PiecesOr => "pieces_d_or",
            Card::Mage => "mage",
            Card::Gardes => "gardes",
            Card::Moines => "moines",
            Card::Reliques => "reliques",
        }
    }

    fn aliases(self) -> &'static [String] {
        &names_data().cards[self.key()].aliases
    }

    /// The material this card brings to a site, and how many units (x2 cards count twice).
    pub fn material(self) -> Option<(Material, u32)> {
        match self {
            Card::Structores => Some((Material::Structores, 1)),
            Card::Lapides => Some((Material::Lapides, 1)),
            Card::LapidesX2 => Some((Material::Lapides, 2)),
            Card::Rustici => Some((Material::Rustici, 1)),
            Card::RusticiX2 => Some((Material::Rustici, 2)),
            _ => None,
        }
    }

    pub fn is_material(self) -> bool {
        self.material().is_some()
    }

    pub fn is_double(self) -> bool {
        matches!(self, Card::LapidesX2 | Card::RusticiX2)
    }

    /// The simple card an x2 card stands for.
    pub fn simple(self) -> Card {
        match self {
            Card::LapidesX2 => Card::Lapides,
            Card::RusticiX2 => Card::Rustici,
            c => c,
        }
    }

    pub fn is_attack(self) -> bool {
        matches!(
            self,
            Card::Incendie | Card::Sorciere | Card::PiecesOr | Card::Mage
        )
    }

    pub fn is_defence(self) -> bool {
        matches!(self, Card::Gardes | Card::Moines | Card::Reliques)
    }

    /// The defence card that cancels this attack card.
    pub fn defence(self) -> Option<Card> {
        match self {
            Card::Incendie => Some(Card::Gardes),
            Card::Sorciere | Card::PiecesOr => Some(Card::Moines),
            Card::Mage => Some(Card::Reliques),
            _ => None,
        }
    }

    /// Forgiving names of every card (Latin, French and English).
    pub fn names() -> Names<Card> {
        let mut n = Names::new();
        for c in Card::ALL {
            n.add(c.name(), c);
        }
        for c in Card::ALL {
            for a in c.aliases() {
                n.add_alias(a, c.name(), c);
            }
        }
        n
    }
}

/// How many cards of each type a deck holds.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Deck {
    pub counts: Vec<(Card, u32)>,
}

/// The deck file shipped with the game.
pub const DECK_YAML: &str = include_str!("../data/deck.yaml");

impl Deck {
    /// Parse a deck file: `key: count` for every card type.
    pub fn from_yaml(text: &str) -> Result<Deck, String> {
        let map: std::collections::BTreeMap<String, u32> =
            serde_yaml::from_str(text).map_err(|e| format!("deck file: {e}"))?;
        for k in map.keys() {
            if !Card::ALL.iter().any(|c| c.key() == k) {
                return Err(format!("deck file: unknown card \"{k}\""));
            }
        }
        let mut counts = Vec::new();
        for c in Card::ALL {
            match map.get(c.key()) {
                Some(n) => counts.push((c, *n)),
                None => return Err(format!("deck file: no count for \"{}\"", c.key())),
            }
        }
        Ok(Deck { counts })
    }

    /// The shipped deck.
    pub fn standard() -> Result<Deck, String> {
        Deck::from_yaml(DECK_YAML)
    }

    pub fn total(&self) -> u32 {
        self.counts.iter().map(|(_, n)| n).sum()
    }

    pub fn count(&self, card: Card) -> u32 {
        self.counts
            .iter()
            .find(|(c, _)| *c == card)
            .map(|(_, n)| *n)
            .unwrap_or(0)
    }

    /// The same deck with `card` set to `n` copies (measurements only).
    pub fn with(&self, card: Card, n: u32) -> Deck {
        let mut d = self.clone();
        for e in d.counts.iter_mut() {
            if e.0 == card {
                e.1 = n;
            }
        }
        d
    }

    /// Every card, in type order.
    pub fn cards(&self) -> Vec<Card> {
        let mut v = Vec::new();
        for (c, n) in &self.counts {
            for _ in 0..*n {
                v.push(*c);
            }
        }
        v
    }
}
