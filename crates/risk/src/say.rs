//! Small helpers for words in both languages: refused orders carry English and French, and
//! the few French forms the game's sentences need.

use crate::map;
use castellan_engine::board::TerritoryId;
use castellan_engine::lang::fr;
use castellan_engine::names::NameError;
use castellan_engine::{Lang, OrderError};

/// A refused order with its message and hint in both languages; `m` and `h` give each
/// phrase in the language asked (English first, then French, side by side at the call).
pub fn refuse(m: impl Fn(Lang) -> String, h: impl Fn(Lang) -> String) -> OrderError {
    OrderError::new(m(Lang::En))
        .hint(h(Lang::En))
        .fr(m(Lang::Fr))
        .hint_fr(h(Lang::Fr))
}

/// A refused order without a hint.
pub fn refuse_bare(m: impl Fn(Lang) -> String) -> OrderError {
    OrderError::new(m(Lang::En)).fr(m(Lang::Fr))
}

/// A refused order from fixed phrases: (English, French) message, (English, French) hint.
pub fn refuse2(m: (&str, &str), h: (&str, &str)) -> OrderError {
    OrderError::new(m.0).hint(h.0).fr(m.1).hint_fr(h.1)
}

/// "write: END" / "écrivez : FIN".
pub fn write(l: Lang, line: &str) -> String {
    match l {
        Lang::En => format!("write: {line}"),
        Lang::Fr => format!("écrivez : {line}"),
    }
}

/// "3 armies" / "3 armées"; English keeps the plural for every count but 1, as before.
pub fn armies(n: u32, l: Lang) -> String {
    match l {
        Lang::En => format!("{n} armies"),
        Lang::Fr => fr::count(n, "armée", "armées"),
    }
}

/// A territory as the subject or object of a sentence: "Kamchatka" / "le Kamchatka".
pub fn le(t: TerritoryId, l: Lang) -> String {
    match l {
        Lang::En => map::name(t).to_string(),
        Lang::Fr => map::french(t).le.clone(),
    }
}

/// "of Kamchatka" is not needed in English; French "du Kamchatka", "de l'Alaska".
pub fn de(t: TerritoryId) -> String {
    map::french(t).de.clone()
}

/// First letter in capitals (a French sentence starting with "l'Alaska").
pub fn cap(s: &str) -> String {
    let mut c = s.chars();
    match c.next() {
        Some(f) => f.to_uppercase().collect::<String>() + c.as_str(),
        None => String::new(),
    }
}

/// "A, B and C" / "A, B et C".
pub fn and_list(items: &[String], l: Lang) -> String {
    list(items, l.pick(" and ", " et "))
}

/// "A, B or C" / "A, B ou C".
pub fn or_list(items: &[String], l: Lang) -> String {
    list(items, l.pick(" or ", " ou "))
}

fn list(items: &[String], last: &str) -> String {
    match items.len() {
        0 => String::new(),
        1 => items[0].clone(),
        n => format!("{}{last}{}", items[..n - 1].join(", "), items[n - 1]),
    }
}

/// A name that did not resolve, in both languages (French suggestions use French names).
pub fn name_error(e: &NameError, hint_en: &str, hint_fr: &str) -> OrderError {
    let french = |names: &[String]| -> Vec<String> {
        names
            .iter()
            .map(|n| match map::board().resolve(n) {
                Ok(t) => map::name_in(t, Lang::Fr).to_string(),
                Err(_) => n.clone(),
            })
            .collect()
    };
    let fr_msg = match e {
        NameError::Unknown { given, suggestions } if suggestions.is_empty() => {
            format!("« {given} » n'est pas un nom de territoire connu")
        }
        NameError::Unknown { given, suggestions } => format!(
            "« {given} » n'est pas un nom connu : vouliez-vous dire {} ?",
            or_list(&french(suggestions), Lang::Fr)
        ),
        NameError::Ambiguous { given, candidates } => format!(
            "« {given} » peut désigner {} : écrivez le nom plus complètement",
            or_list(&french(candidates), Lang::Fr)
        ),
    };
    OrderError::new(e.to_string())
        .hint(hint_en)
        .fr(fr_msg)
        .hint_fr(hint_fr)
}
