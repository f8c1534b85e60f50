//! The game's own words in English and French: card lists and counts, and the French of a
//! name that did not resolve. What every game words alike (refusals, lists of names,
//! "write: ...") is the engine's (`castellan_engine::words`).

use crate::Card;
use castellan_engine::lang::fr;
use castellan_engine::names::{FrNameWords, NameError};
use castellan_engine::Lang;

/// "1 card", "3 cards" (English).
pub(crate) fn plural(n: usize, word: &str) -> String {
    if n == 1 {
        format!("1 {word}")
    } else {
        format!("{n} {word}s")
    }
}

/// "1 carte", "3 cartes" (French).
pub(crate) fn cartes(n: usize) -> String {
    fr::count(n as i64, "carte", "cartes")
}

/// "Lapides, Lapides, Mage"
pub fn list(cards: &[Card]) -> String {
    list_in(cards, Lang::En)
}

/// "Lapides, Lapides, Mage"; "(none)" / "(aucune)".
pub fn list_in(cards: &[Card], lang: Lang) -> String {
    if cards.is_empty() {
        return lang.pick("(none)", "(aucune)").into();
    }
    cards
        .iter()
        .map(|c| c.name())
        .collect::<Vec<_>>()
        .join(", ")
}

/// Castrum's French for a name that did not resolve (cards and players).
const NAME_WORDS: FrNameWords = FrNameWords {
    unknown: "n'est pas un nom connu",
    unknown_but: "n'est pas un nom connu",
    write_more: "écrivez davantage du nom",
};

/// A name that did not resolve, in French ("did you mean" -> "vouliez-vous dire").
pub(crate) fn name_error_fr(er: &NameError) -> String {
    er.french(NAME_WORDS, str::to_string)
}
