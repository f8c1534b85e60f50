//! The game's own words in both languages: armies, seats and territories (with their
//! French articles), placements, and the French of a name that did not resolve. What
//! every game words alike (refusals, lists, a capital letter, "write: ...") is the
//! engine's (`castellan_engine::words`).

use crate::map;
use crate::{Owner, Placements, Risk};
use castellan_engine::board::TerritoryId;
use castellan_engine::lang::fr;
use castellan_engine::names::{FrNameWords, NameError};
use castellan_engine::{Lang, OrderError, Seat};

/// "3 armies" / "3 armées"; "1 army" / "1 armée".
pub fn armies(n: u32, l: Lang) -> String {
    match l {
        Lang::En => castellan_engine::lang::en::count(n, "army", "armies"),
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

/// A seat's name ("seat 3" for one not there).
pub(crate) fn pname(s: &Risk, seat: Seat) -> String {
    s.players
        .get(seat)
        .map(|p| p.name.clone())
        .unwrap_or_else(|| format!("seat {seat}"))
}

/// Who holds a territory: a seat's name, "neutral", "nobody".
pub(crate) fn owner_name(s: &Risk, o: Owner, l: Lang) -> String {
    match o {
        Owner::Seat(p) => pname(s, p),
        Owner::Neutral => l.pick("neutral", "neutre").into(),
        Owner::Nobody => l.pick("nobody", "personne").into(),
    }
}

/// "3 on Alaska, 2 on Peru" / "3 armées sur l'Alaska, 2 armées sur le Pérou".
pub(crate) fn placements(p: &Placements, l: Lang) -> String {
    p.iter()
        .map(|(t, k)| match l {
            Lang::En => format!("{k} on {}", map::name(*t)),
            Lang::Fr => format!("{} sur {}", armies(*k, l), le(*t, l)),
        })
        .collect::<Vec<_>>()
        .join(", ")
}

/// Territory names in `lang`, joined by commas.
pub(crate) fn names(list: &[TerritoryId], l: Lang) -> String {
    list.iter()
        .map(|x| map::name_in(*x, l))
        .collect::<Vec<_>>()
        .join(", ")
}

/// Risk's French for a name that did not resolve (its players have read these words).
const NAME_WORDS: FrNameWords = FrNameWords {
    unknown: "n'est pas un nom de territoire connu",
    unknown_but: "n'est pas un nom connu",
    write_more: "écrivez le nom plus complètement",
};

/// A name that did not resolve, in both languages (French suggestions use French names).
pub fn name_error(e: &NameError, hint_en: &str, hint_fr: &str) -> OrderError {
    let fr_msg = e.french(NAME_WORDS, |n| match map::board().resolve(n) {
        Ok(t) => map::name_in(t, Lang::Fr).to_string(),
        Err(_) => n.to_string(),
    });
    OrderError::new(e.to_string())
        .hint(hint_en)
        .fr(fr_msg)
        .hint_fr(hint_fr)
}
