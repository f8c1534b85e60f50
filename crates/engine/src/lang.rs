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

/// A value made once per language, the first time it is asked for, and kept (a game's
/// picture parts that depend on the board alone): `static X: PerLang<T> = PerLang::new();`.
pub struct PerLang<T>([std::sync::OnceLock<T>; 2]);

impl<T> PerLang<T> {
    pub const fn new() -> PerLang<T> {
        PerLang([std::sync::OnceLock::new(), std::sync::OnceLock::new()])
    }

    /// The value for `lang`, made by `make` the first time.
    pub fn get(&self, lang: Lang, make: impl FnOnce() -> T) -> &T {
        let i = match lang {
            Lang::En => 0,
            Lang::Fr => 1,
        };
        self.0[i].get_or_init(make)
    }
}

impl<T> Default for PerLang<T> {
    fn default() -> Self {
        PerLang::new()
    }
}

/// English counts: "1 army", "0 armies", "3 armies" (English singular is 1 alone).
pub mod en {
    /// "1 army", "0 armies", "3 armies".
    pub fn count(n: impl Into<i64>, singular: &str, plural: &str) -> String {
        let n = n.into();
        if n.abs() == 1 {
            format!("{n} {singular}")
        } else {
            format!("{n} {plural}")
        }
    }

    #[cfg(test)]
    mod tests {
        /// English: 1 alone takes the singular; French (fr::count): 0 and 1.
        #[test]
        fn one_alone_is_singular_in_english() {
            assert_eq!(super::count(1, "army", "armies"), "1 army");
            assert_eq!(super::count(0, "army", "armies"), "0 armies");
            assert_eq!(super::count(2, "army", "armies"), "2 armies");
            assert_eq!(super::super::fr::count(0, "armée", "armées"), "0 armée");
        }
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

    /// The article a French name takes in a sentence ("la Pologne", "le Yorkshire",
    /// "l'Irlande", "les Pays-Bas", "Paris").
    #[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
    #[serde(rename_all = "lowercase")]
    pub enum Article {
        La,
        Le,
        L,
        Les,
        /// A city: no article ("à Paris", "de Londres").
        None,
    }

    /// A French name and its article, and the forms a sentence needs.
    #[derive(Clone, Debug, PartialEq, Eq)]
    pub struct FrName {
        pub name: String,
        pub article: Article,
    }

    impl FrName {
        /// Read from the name written with its article: "le Kamchatka", "l'Alaska",
        /// "les Pays-Bas", "la Chine", "Madagascar" (none).
        pub fn parse(with_article: &str) -> FrName {
            let articles = [
                ("le ", Article::Le),
                ("les ", Article::Les),
                ("la ", Article::La),
                ("l'", Article::L),
            ];
            for (prefix, article) in articles {
                if let Some(name) = with_article.strip_prefix(prefix) {
                    return FrName {
                        name: name.to_string(),
                        article,
                    };
                }
            }
            FrName {
                name: with_article.to_string(),
                article: Article::None,
            }
        }
        /// "la Pologne", "l'Irlande", "le Yorkshire", "les Pays-Bas", "Paris".
        pub fn le(&self) -> String {
            let n = &self.name;
            match self.article {
                Article::La => format!("la {n}"),
                Article::Le => format!("le {n}"),
                Article::L => format!("l'{n}"),
                Article::Les => format!("les {n}"),
                Article::None => n.clone(),
            }
        }
        /// "de la Pologne", "de l'Irlande", "du Yorkshire", "des Pays-Bas", "de Paris".
        pub fn de(&self) -> String {
            let n = &self.name;
            match self.article {
                Article::La => format!("de la {n}"),
                Article::Le => format!("du {n}"),
                Article::L => format!("de l'{n}"),
                Article::Les => format!("des {n}"),
                Article::None => de(n),
            }
        }
        /// Where: "en Pologne", "en Irlande", "au Yorkshire", "aux Pays-Bas", "à Paris".
        pub fn en(&self) -> String {
            let n = &self.name;
            match self.article {
                Article::La | Article::L => format!("en {n}"),
                Article::Le => format!("au {n}"),
                Article::Les => format!("aux {n}"),
                Article::None => format!("à {n}"),
            }
        }
        /// "à la Pologne", "à l'Irlande", "au Yorkshire", "aux Pays-Bas", "à Paris".
        pub fn a(&self) -> String {
            let n = &self.name;
            match self.article {
                Article::La => format!("à la {n}"),
                Article::L => format!("à l'{n}"),
                Article::Le => format!("au {n}"),
                Article::Les => format!("aux {n}"),
                Article::None => format!("à {n}"),
            }
        }
    }

    /// The four games' French order words that are no English order word (each game parses
    /// its own; this list only tells the judge that a mail was written in French, so its
    /// reply opens in French).
    const ORDER_WORDS: &[&str] = &[
        "ABANDONNE",
        "ABANDONNER",
        "ACCEPTE",
        "ACCEPTER",
        "AMIRAL",
        "ANNEXER",
        "ATTAQUE",
        "CACHER",
        "CHÂTEAU",
        "CIBLE",
        "CLASSE",
        "CLASSEMENT",
        "CONSIGNE",
        "CONSTRUIRE",
        "CONTRE-ESPION",
        "DÉFAUSSER",
        "DÉFENDRE",
        "DÉFENDS",
        "DÉPLACE",
        "DÉPLACER",
        "DEPLACE",
        "DEPLACER",
        "DÉVOILER",
        "DONNER",
        "ÉCHANGE",
        "ÉCHANGER",
        "ESPION",
        "FIN",
        "FORTIFIE",
        "JOUE",
        "JOUER",
        "NULLE",
        "OCCUPER",
        "PASSER",
        "PLACER",
        "PRENDRE",
        "QG",
        "RÉCLAME",
        "RÈGLE",
        "RENFORT",
        "RÉOCCUPER",
        "TRÊVE",
    ];

    /// Whether an order line opens with a French order word ("ATTAQUE ...", "fin").
    pub fn is_order_line(line: &str) -> bool {
        line.split_whitespace()
            .next()
            .is_some_and(|w| ORDER_WORDS.contains(&w.to_uppercase().as_str()))
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

    #[test]
    fn french_names_take_their_articles() {
        let f = fr::FrName::parse;
        assert_eq!(f("la Pologne").de(), "de la Pologne");
        assert_eq!(f("la Pologne").en(), "en Pologne");
        assert_eq!(f("l'Irlande").a(), "à l'Irlande");
        assert_eq!(f("le Yorkshire").de(), "du Yorkshire");
        assert_eq!(f("le Yorkshire").en(), "au Yorkshire");
        assert_eq!(f("les Pays-Bas").de(), "des Pays-Bas");
        assert_eq!(f("les Pays-Bas").a(), "aux Pays-Bas");
        assert_eq!(f("Irkoutsk").de(), "d'Irkoutsk");
        assert_eq!(f("Paris").en(), "à Paris");
        assert_eq!(f("Paris").le(), "Paris");
        assert_eq!(f("l'Alaska").name, "Alaska");
    }
}
