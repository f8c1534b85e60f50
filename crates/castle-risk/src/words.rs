//! Words of the game in both languages: territory and empire names with their French
//! articles, order keywords as a French reader writes them, and the French of the
//! engine's name errors. English is the reference; the French sits beside it. What every
//! game words alike (lists, refusals, counts, a capital letter) is the engine's
//! (`castellan_engine::words`).

use crate::map::map;
use castellan_engine::board::TerritoryId as T;
use castellan_engine::lang::fr;
use castellan_engine::names::{FrNameWords, NameError};
use castellan_engine::Lang;

/// A territory's name in `lang` (the bare name, as in a table or an order line).
pub fn tn(t: T, lang: Lang) -> &'static str {
    map().tname(t, lang)
}

/// "la Pologne", "l'Irlande", "le Yorkshire", "les Pays-Bas", "Paris".
pub fn le(t: T) -> String {
    map().fr[t].le()
}

/// "de la Pologne", "de l'Irlande", "du Yorkshire", "des Pays-Bas", "de Paris".
pub fn de(t: T) -> String {
    map().fr[t].de()
}

/// "en Pologne", "au Yorkshire", "aux Pays-Bas", "à Paris".
pub fn en(t: T) -> String {
    map().fr[t].en()
}

/// "à la Pologne", "au Yorkshire", "à Paris".
pub fn a(t: T) -> String {
    map().fr[t].a()
}

/// An empire's or group's name in `lang` ("British Empire", "Empire Britannique").
pub fn group(g: usize, lang: Lang) -> String {
    map().group_name(g, lang)
}

/// "l'Empire Britannique" (an empire's French name with its article).
pub fn group_le(g: usize) -> String {
    let n = map().group_name(g, Lang::Fr);
    if fr::elides(&n) {
        format!("l'{n}")
    } else {
        format!("la {n}")
    }
}

/// One card with its article: "a General", "an Admiral", "a Reinforcements card" / "un
/// Général", "une carte Renfort".
pub fn a_card(c: crate::cards::Card, lang: Lang) -> String {
    use crate::cards::Card;
    match (c, lang) {
        (Card::Reinforcements, Lang::En) => "a Reinforcements card".into(),
        (Card::Reinforcements, Lang::Fr) => "une carte Renfort".into(),
        (Card::Admiral, Lang::En) => "an Admiral".into(),
        (_, Lang::En) => format!("a {}", c.name()),
        (_, Lang::Fr) => format!("un {}", c.name_in(lang)),
    }
}

/// "3 armées" in French (the most common count).
pub fn armees(n: u32) -> String {
    fr::count(n, "armée", "armées")
}

/// An order keyword as a reader of `lang` writes it. The parser reads both (orders.rs
/// `keyword`); `kw(Lang::Fr, k)` always parses back to `k`.
pub fn kw(lang: Lang, en: &str) -> &str {
    if lang == Lang::En {
        return en;
    }
    match en {
        "CASTLE" => "CHÂTEAU",
        "CLAIM" => "PRENDRE",
        "RANK" => "CLASSEMENT",
        "PLACE" => "PLACER",
        "HIDE" => "CACHER",
        "REINFORCE" => "RENFORT",
        "TRUCE" => "TRÊVE",
        "SPY" => "ESPION",
        "DISCARD" => "DÉFAUSSER",
        "REVEAL" => "DÉVOILER",
        "ATTACK" => "ATTAQUE",
        "SAIL" => "AMIRAL",
        "END" => "FIN",
        "OCCUPY" => "OCCUPER",
        "PASS" => "PASSER",
        "ANNEX" => "ANNEXER",
        "DEFEND" => "DÉFENDRE",
        "COUNTERSPY" => "CONTRE-ESPION",
        "NO COUNTERSPY" => "PAS DE CONTRE-ESPION",
        "SET" => "CONSIGNE",
        "AGAIN" => "ENCORE",
        "ONCE" => "SEUL",
        "REOCCUPY" => "RÉOCCUPER",
        "FROM" => "DEPUIS",
        "TO" => "VERS",
        "UNTIL" => "JUSQU'À",
        "CONQUERED" => "CONQUÊTE",
        "UNTIL CONQUERED" => "JUSQU'À CONQUÊTE",
        "LEFT" => "RESTANTS",
        "FOR" => "POUR",
        "ROLLS" => "LANCERS",
        "WITH" => "AVEC",
        "DICE" => "DÉS",
        "THEN" => "PUIS",
        "MOVE" => "DÉPLACER",
        "ALL" => "TOUT",
        "LEAVE" => "LAISSER",
        "GENERAL" => "GÉNÉRAL",
        "MARSHAL" => "MARÉCHAL",
        "ALWAYS" => "TOUJOURS",
        "NEVER" => "JAMAIS",
        "WHEN" => "QUAND",
        "ON" => "SUR",
        "AUTO" => "AUTO",
        "ASK" => "DEMANDER",
        "NONE" => "AUCUN",
        other => other,
    }
}

/// The words of an English order line (keywords, numbers) written for `lang`: every
/// all-capitals word goes through [`kw`]. Only for lines without names.
pub fn kw_line(lang: Lang, en: &str) -> String {
    if lang == Lang::En {
        return en.to_string();
    }
    en.split(' ')
        .map(|w| match KEYWORDS.iter().find(|k| **k == w) {
            Some(k) => kw(lang, k),
            None => w,
        })
        .collect::<Vec<_>>()
        .join(" ")
}

const KEYWORDS: &[&str] = &[
    "UNTIL",
    "CONQUERED",
    "LEFT",
    "FOR",
    "ROLLS",
    "WITH",
    "DICE",
    "THEN",
    "MOVE",
    "ALL",
    "LEAVE",
    "GENERAL",
    "MARSHAL",
    "REVEAL",
    "DEFEND",
];

/// A name error (from the engine's forgiving names) in French; territory suggestions are
/// given by their French names.
pub fn name_error_fr(e: &NameError) -> String {
    e.french(FrNameWords::DEFAULT, |d| {
        match map().board.by_key(&d.to_lowercase().replace(' ', "_")) {
            Some(t) => tn(t, Lang::Fr).to_string(),
            None => d.to_string(),
        }
    })
}
