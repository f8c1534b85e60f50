//! The languages players read, and the small French grammar the games' phrases need.
//!
//! Every text a game produces for a player (narration, views, prompts, order errors, the
//! order help) takes a [`Lang`]. English is the reference: stored data, logs and the dice
//! audit are in English; French is chosen per player (`SET LANGUAGE fr`), per game or per
//! server. Order words are accepted in both languages whatever the reader's language.
//!
//! Why phrases are Rust `match`es rather than Fluent files: a game has two languages and
//! a few hundred phrases, each built from typed values (territories, counts, seats). A
//! `match lang` keeps the English and French of one phrase side by side, the compiler
//! checks that every phrase has both (no missing key at run time), and the few grammar
//! rules French needs here (plural, elision, gender of a name) are the functions below.

use serde::{Deserialize, Serialize};

/// A language a player can read.
#[derive(
    Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize,
)]
#[serde(rename_all = "lowercase")]
pub enum Lang {
    #[default]
    En,
    Fr,
}

impl Lang {
    /// Every language, English first.
    pub const ALL: [Lang; 2] = [Lang::En, Lang::Fr];

    /// The ISO 639-1 code ("en", "fr").
    pub fn code(self) -> &'static str {
        match self {
            Lang::En => "en",
            Lang::Fr => "fr",
        }
    }

    /// Read a language as a player may write it: "fr", "FR", "french", "français",
    /// "francais", "en", "english", "anglais".
    pub fn parse(s: &str) -> Option<Lang> {
        match s.trim().to_lowercase().as_str() {
            "en" | "eng" | "english" | "anglais" => Some(Lang::En),
            "fr" | "fra" | "fre" | "french" | "français" | "francais" => Some(Lang::Fr),
            _ => None,
        }
    }

    /// Pick the phrase of this language.
    pub fn pick<T>(self, en: T, fr: T) -> T {
        match self {
            Lang::En => en,
            Lang::Fr => fr,
        }
    }
}

impl std::fmt::Display for Lang {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.code())
    }
}

/// The little French grammar the games' phrases need.
pub mod fr {
    /// "1 armée", "0 armée", "3 armées" (French singular covers 0 and 1).
    pub fn count(n: impl Into<i64>, singular: &str, plural: &str) -> String {
        let n = n.into();
        if n.abs() <= 1 {
            format!("{n} {singular}")
        } else {
            format!("{n} {plural}")
        }
    }

    /// Whether a word elides the article before it ("l'Autriche", "d'Espagne").
    pub fn elides(word: &str) -> bool {
        let first = word
            .chars()
            .next()
            .map(|c| c.to_lowercase().next().unwrap_or(c));
        matches!(
            first,
            Some(
                'a' | 'e'
                    | 'i'
                    | 'o'
                    | 'u'
                    | 'y'
                    | 'h'
                    | 'à'
                    | 'â'
                    | 'é'
                    | 'è'
                    | 'ê'
                    | 'î'
                    | 'ô'
                    | 'û'
            )
        )
    }

    /// "de Paris", "d'Autriche".
    pub fn de(word: &str) -> String {
        if elides(word) {
            format!("d'{word}")
        } else {
            format!("de {word}")
        }
    }

    /// "que Paris", "qu'Athènes".
    pub fn que(word: &str) -> String {
        if elides(word) {
            format!("qu'{word}")
        } else {
            format!("que {word}")
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn languages_read_as_players_write_them() {
        assert_eq!(Lang::parse("FR"), Some(Lang::Fr));
        assert_eq!(Lang::parse("français"), Some(Lang::Fr));
        assert_eq!(Lang::parse(" english "), Some(Lang::En));
        assert_eq!(Lang::parse("de"), None);
        for l in Lang::ALL {
            assert_eq!(Lang::parse(l.code()), Some(l));
        }
    }

    #[test]
    fn french_plurals_and_elisions() {
        assert_eq!(fr::count(1, "armée", "armées"), "1 armée");
        assert_eq!(fr::count(0, "armée", "armées"), "0 armée");
        assert_eq!(fr::count(3, "armée", "armées"), "3 armées");
        assert_eq!(fr::de("Autriche"), "d'Autriche");
        assert_eq!(fr::de("Prusse"), "de Prusse");
        assert_eq!(fr::de("Égypte"), "d'Égypte");
        assert_eq!(fr::que("Athènes"), "qu'Athènes");
    }
}
