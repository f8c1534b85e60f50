//! Words every game says the same way, in English and French: refused orders worded in
//! both languages, lists ("a, b and c" / "a, b et c"),
//! a capital first letter, and the board's shape told in words ("Poland (Blue 3)").
//!
//! A game keeps its own phrases; what is here is what each game wrote once for itself
//! before. French grammar proper (plurals, elision, articles) is in [`crate::lang::fr`].

use crate::api::OrderError;
use crate::lang::Lang;

/// The first letter in capitals (a French sentence that starts with "la Pologne").
pub fn cap(s: &str) -> String {
    let mut c = s.chars();
    match c.next() {
        Some(f) => f.to_uppercase().collect::<String>() + c.as_str(),
        None => String::new(),
    }
}

/// "a, b{last}c": the items joined by commas, the last one by `last` (" and ", " ou ").
pub fn join_last<S: AsRef<str>>(items: &[S], last: &str) -> String {
    match items {
        [] => String::new(),
        [one] => one.as_ref().to_string(),
        [init @ .., end] => {
            let init: Vec<&str> = init.iter().map(AsRef::as_ref).collect();
            format!("{}{last}{}", init.join(", "), end.as_ref())
        }
    }
}

/// "a, b and c" / "a, b et c".
pub fn and_list<S: AsRef<str>>(items: &[S], lang: Lang) -> String {
    join_last(items, lang.pick(" and ", " et "))
}

/// "a, b or c" / "a, b ou c".
pub fn or_list<S: AsRef<str>>(items: &[S], lang: Lang) -> String {
    join_last(items, lang.pick(" or ", " ou "))
}

/// "write: END" / "écrivez : FIN".
pub fn write(lang: Lang, line: &str) -> String {
    match lang {
        Lang::En => format!("write: {line}"),
        Lang::Fr => format!("écrivez : {line}"),
    }
}

/// A refused order worded in English and French (no hint yet).
pub fn refusal(en: impl Into<String>, fr: impl Into<String>) -> OrderError {
    OrderError::new(en).fr(fr)
}

/// A refused order with its message and hint in both languages; `m` and `h` give each
/// phrase in the language asked (English first, then French, side by side at the call).
pub fn refuse(m: impl Fn(Lang) -> String, h: impl Fn(Lang) -> String) -> OrderError {
    OrderError::new(m(Lang::En))
        .hint(h(Lang::En))
        .fr(m(Lang::Fr))
        .hint_fr(h(Lang::Fr))
}

/// A refused order without a hint, its message given in the language asked.
pub fn refuse_bare(m: impl Fn(Lang) -> String) -> OrderError {
    OrderError::new(m(Lang::En)).fr(m(Lang::Fr))
}

/// Several refusals of one line told at once (every misspelt name of a RANK list, both
/// names of an ATTACK): their messages joined by "; " in each language, the first hint
/// given. `Ok` when there is none.
pub fn all_of(errors: Vec<OrderError>) -> Result<(), OrderError> {
    let mut errors = errors.into_iter();
    match errors.next() {
        Some(first) => Err(joined(first, errors)),
        None => Ok(()),
    }
}

/// `first` and `more` told as one refusal (see [`all_of`]).
pub fn joined(first: OrderError, more: impl IntoIterator<Item = OrderError>) -> OrderError {
    more.into_iter().fold(first, |acc, e| {
        let hint = |l: Lang| acc.hint_in(l).or(e.hint_in(l)).map(str::to_string);
        let mut out = OrderError::new(format!(
            "{}; {}",
            acc.message_in(Lang::En),
            e.message_in(Lang::En)
        ))
        .fr(format!(
            "{} ; {}",
            acc.message_in(Lang::Fr),
            e.message_in(Lang::Fr)
        ));
        if let Some(h) = hint(Lang::En) {
            out = out.hint(h);
        }
        if let Some(h) = hint(Lang::Fr) {
            out = out.hint_fr(h);
        }
        out
    })
}

/// Hints in both languages on an [`OrderError`].
pub trait Hints {
    /// The hint in English and French.
    fn hints(self, en: impl Into<String>, fr: impl Into<String>) -> Self;
    /// `"write: <en>"` / `"écrivez : <fr>"`.
    fn write(self, en: impl AsRef<str>, fr: impl AsRef<str>) -> Self;
}

impl Hints for OrderError {
    fn hints(self, en: impl Into<String>, fr: impl Into<String>) -> Self {
        self.hint(en).hint_fr(fr)
    }
    fn write(self, en: impl AsRef<str>, fr: impl AsRef<str>) -> Self {
        self.hints(write(Lang::En, en.as_ref()), write(Lang::Fr, fr.as_ref()))
    }
}

/// The board's shape in words: who holds a territory as a neighbour's line tells it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Holder<'a> {
    /// The reader's own: "yours 2" / "à vous 2".
    Yours(u32),
    /// Another seat's: "Blue 3".
    Seat(&'a str, u32),
    /// Neutral armies: "neutral 1" / "neutre 1".
    Neutral(u32),
    /// Nobody's: "empty" / "vide".
    Empty,
}

impl Holder<'_> {
    /// "yours 2", "Blue 3", "neutral 1", "empty" (and their French).
    pub fn text(self, lang: Lang) -> String {
        match self {
            Holder::Yours(n) => format!("{} {n}", lang.pick("yours", "à vous")),
            Holder::Seat(name, n) => format!("{name} {n}"),
            Holder::Neutral(n) => format!("{} {n}", lang.pick("neutral", "neutre")),
            Holder::Empty => lang.pick("empty", "vide").to_string(),
        }
    }
}

/// "Poland (Blue 3)"; "~Poland (Blue 3)" across a crossing or sea lane.
pub fn held(name: &str, holder: Holder, crossing: bool, lang: Lang) -> String {
    let mark = if crossing { "~" } else { "" };
    format!("{mark}{name} ({})", holder.text(lang))
}

/// The last line of a private view's borders: the territories whose every neighbour is
/// the reader's own, on one line (a 6-player report stays short). None when there is none.
pub fn inside_line(inside: &[String], lang: Lang) -> Option<String> {
    (!inside.is_empty()).then(|| {
        format!(
            "{} {}",
            lang.pick(
                "inside your borders (every neighbour yours):",
                "à l'intérieur (tous les voisins sont à vous) :"
            ),
            inside.join(", ")
        )
    })
}

/// Dice as every text shows them (reports, HISTORY, VERIFY): "6 5 2".
/// The private view's paragraph of a seat's territories, as Castle Risk and Risk write it:
/// "Yours, 9 territories, 27 armies (legend): a; b; inside your borders: 7 territories,
/// 20 armies." (counts agreed), then the line that says how to get each territory's
/// neighbours (NEIGHBOURS). `total` and `armies` count every territory of the seat;
/// `list` is each one the reader must see, as the game writes it (its borders, and what
/// the game marks), `inside` the count and armies of the others (every neighbour theirs).
pub fn yours_lines(
    lang: Lang,
    (total, armies): (usize, u32),
    legend: (&str, &str),
    list: &[String],
    inside: (usize, u32),
) -> Vec<String> {
    let mut parts = list.to_vec();
    if inside.0 > 0 {
        parts.push(match lang {
            Lang::En => format!(
                "inside your borders: {}, {}",
                crate::lang::en::count(inside.0 as i64, "territory", "territories"),
                crate::lang::en::count(inside.1, "army", "armies")
            ),
            Lang::Fr => format!(
                "à l'intérieur de vos frontières : {}, {}",
                crate::lang::fr::count(inside.0 as i64, "territoire", "territoires"),
                crate::lang::fr::count(inside.1, "armée", "armées")
            ),
        });
    }
    vec![
        match lang {
            Lang::En => format!(
                "Yours, {}, {} ({}): {}.",
                crate::lang::en::count(total as i64, "territory", "territories"),
                crate::lang::en::count(armies, "army", "armies"),
                legend.0,
                parts.join("; ")
            ),
            Lang::Fr => format!(
                "À vous, {}, {} ({}) : {}.",
                crate::lang::fr::count(total as i64, "territoire", "territoires"),
                crate::lang::fr::count(armies, "armée", "armées"),
                legend.1,
                parts.join(" ; ")
            ),
        },
        lang.pick(
            "NEIGHBOURS: each of yours with all its neighbours.",
            "VOISINS : chacun des vôtres avec tous ses voisins.",
        )
        .to_string(),
    ]
}

/// The answer to a bare NEIGHBOURS: `heading` (its own line) then each of `lines`
/// indented; none when the seat holds nothing.
pub fn borders_block(heading: &str, lines: Vec<String>) -> Option<String> {
    (!lines.is_empty()).then(|| {
        let mut out = format!("{heading}\n");
        for l in lines {
            out.push_str(&format!("  {l}\n"));
        }
        out
    })
}

/// Most rolls an attack's line shows one by one (`rolls_line`).
pub const ROLLS_SHOWN: usize = 4;

/// An attack's rolls in words, in order: "6 5 3 against 4 2, 5 1 against 6". Past
/// [`ROLLS_SHOWN`] (an attack "until conquered" can roll forty times), their number and the
/// last roll, every die being in HISTORY's answer: "37 rolls, the last 6 6 4 against 5 2
/// (HISTORY: every die)".
pub fn rolls_line(rolls: &[String], lang: Lang) -> String {
    match rolls {
        [.., last] if rolls.len() > ROLLS_SHOWN => match lang {
            Lang::En => format!(
                "{} rolls, the last {last} (HISTORY: every die)",
                rolls.len()
            ),
            Lang::Fr => format!(
                "{} jets, le dernier {last} (HISTORIQUE : chaque dé)",
                rolls.len()
            ),
        },
        _ => rolls.join(", "),
    }
}

pub fn dice_text(d: &[u8]) -> String {
    d.iter()
        .map(|x| x.to_string())
        .collect::<Vec<_>>()
        .join(" ")
}

#[cfg(test)]
mod tests {
    use super::*;

    /// An attack's line shows each roll up to `ROLLS_SHOWN`; a longer one, its count and
    /// its last roll, and where every die is (HISTORY).
    #[test]
    fn a_long_attack_shows_its_count_and_last_roll() {
        let r = |n: usize| -> Vec<String> { (1..=n).map(|i| format!("{i} against 1")).collect() };
        assert_eq!(rolls_line(&r(2), Lang::En), "1 against 1, 2 against 1");
        assert_eq!(
            rolls_line(&r(ROLLS_SHOWN), Lang::En).matches(", ").count(),
            ROLLS_SHOWN - 1
        );
        assert_eq!(
            rolls_line(&r(37), Lang::En),
            "37 rolls, the last 37 against 1 (HISTORY: every die)"
        );
        assert_eq!(
            rolls_line(&r(5), Lang::Fr),
            "5 jets, le dernier 5 against 1 (HISTORIQUE : chaque dé)"
        );
    }

    /// The private view's counts agree with their number ("1 territory, 1 army", never
    /// "1 territories, 1 armies"), in both languages; the territories inside the borders
    /// are counted, not listed.
    #[test]
    fn the_yours_paragraph_agrees_its_counts() {
        let one = yours_lines(
            Lang::En,
            (1, 1),
            ("marks", "m"),
            &["Paris 1".into()],
            (0, 0),
        );
        assert_eq!(one[0], "Yours, 1 territory, 1 army (marks): Paris 1.");
        let two = yours_lines(
            Lang::En,
            (3, 6),
            ("m", "m"),
            &["A 2".into(), "B 3".into()],
            (1, 1),
        );
        assert_eq!(
            two[0],
            "Yours, 3 territories, 6 armies (m): A 2; B 3; inside your borders: 1 territory, 1 army."
        );
        let fr = yours_lines(
            Lang::Fr,
            (3, 9),
            ("m", "marques"),
            &["Paris 1".into()],
            (2, 8),
        );
        assert_eq!(
            fr[0],
            "À vous, 3 territoires, 9 armées (marques) : Paris 1 ; à l'intérieur de vos frontières : 2 territoires, 8 armées."
        );
        assert!(fr[1].starts_with("VOISINS"));
        assert_eq!(borders_block("H:", Vec::new()), None);
        assert_eq!(
            borders_block("H:", vec!["a".into(), "b".into()]).as_deref(),
            Some("H:\n  a\n  b\n")
        );
    }

    fn s(v: &[&str]) -> Vec<String> {
        v.iter().map(|x| x.to_string()).collect()
    }

    #[test]
    fn lists_join_the_last_item_by_a_word_of_the_language() {
        assert_eq!(and_list(&s(&[]), Lang::En), "");
        assert_eq!(and_list(&s(&["a"]), Lang::Fr), "a");
        assert_eq!(and_list(&s(&["a", "b"]), Lang::En), "a and b");
        assert_eq!(and_list(&["a", "b", "c"], Lang::Fr), "a, b et c");
        assert_eq!(or_list(&s(&["a", "b", "c"]), Lang::En), "a, b or c");
        assert_eq!(or_list(&["a", "b"], Lang::Fr), "a ou b");
    }

    #[test]
    fn a_capital_first_letter_even_accented() {
        assert_eq!(cap("la Pologne"), "La Pologne");
        assert_eq!(cap("état"), "État");
        assert_eq!(cap(""), "");
    }

    #[test]
    fn refusals_carry_both_languages() {
        let e = refusal("empty order", "ordre vide").write("END", "FIN");
        assert_eq!(e.message_in(Lang::Fr), "ordre vide");
        assert_eq!(e.hint_in(Lang::En), Some("write: END"));
        assert_eq!(e.hint_in(Lang::Fr), Some("écrivez : FIN"));
        let e = refuse(|l| l.pick("no", "non").into(), |l| write(l, "PASS"));
        assert_eq!(e.message_in(Lang::En), "no");
        assert_eq!(e.hint_in(Lang::Fr), Some("écrivez : PASS"));
        assert_eq!(refuse_bare(|l| l.code().into()).message_in(Lang::Fr), "fr");
    }

    #[test]
    fn several_refusals_of_a_line_are_told_at_once() {
        assert_eq!(all_of(vec![]), Ok(()));
        let one = refusal("\"Lvn\" is unknown", "« Lvn » est inconnu").write("RANK A", "CLASSE A");
        let two = refusal("\"Pln\" is unknown", "« Pln » est inconnu");
        let e = all_of(vec![one, two]).unwrap_err();
        assert_eq!(
            e.message_in(Lang::En),
            "\"Lvn\" is unknown; \"Pln\" is unknown"
        );
        assert_eq!(
            e.message_in(Lang::Fr),
            "« Lvn » est inconnu ; « Pln » est inconnu"
        );
        assert_eq!(e.hint_in(Lang::Fr), Some("écrivez : CLASSE A"));
    }

    #[test]
    fn the_shape_of_the_board_in_words() {
        assert_eq!(
            held("Poland", Holder::Seat("Blue", 3), false, Lang::En),
            "Poland (Blue 3)"
        );
        assert_eq!(
            held("Saxe", Holder::Yours(2), true, Lang::Fr),
            "~Saxe (à vous 2)"
        );
        assert_eq!(Holder::Neutral(1).text(Lang::Fr), "neutre 1");
        assert_eq!(Holder::Empty.text(Lang::En), "empty");
        assert_eq!(inside_line(&[], Lang::En), None);
        assert_eq!(
            inside_line(&s(&["Paris 3", "Lyon 1"]), Lang::En).unwrap(),
            "inside your borders (every neighbour yours): Paris 3, Lyon 1"
        );
        assert_eq!(dice_text(&[6, 5, 2]), "6 5 2");
    }
}
