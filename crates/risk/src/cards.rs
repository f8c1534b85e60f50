//! Risk cards: one per territory (same id as the territory) with a symbol, plus wild cards;
//! what makes a set and what a set is worth.

use crate::map::{self, Symbol};
use castellan_engine::Lang;
use serde::{Deserialize, Serialize};

/// A card: `0..42` shows the territory with that id, `42..` are wild cards.
pub type Card = usize;

/// A card as an order names it: a territory's card or "a wild card".
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum CardRef {
    Territory(usize),
    Wild,
}

pub fn is_wild(c: Card) -> bool {
    c >= map::map().symbols.len()
}

pub fn symbol(c: Card) -> Option<Symbol> {
    map::map().symbols.get(c).copied()
}

/// "Alaska (infantry)" or "wild card".
pub fn card_name(c: Card) -> String {
    card_name_in(c, Lang::En)
}

/// The card in `lang`: "Alaska (infantry)" / "Alaska (fantassin)", "wild card" /
/// "passe-partout".
pub fn card_name_in(c: Card, lang: Lang) -> String {
    match symbol(c) {
        Some(s) => format!("{} ({})", map::name_in(c, lang), s.word_in(lang)),
        None => lang.pick("wild card", "passe-partout").to_string(),
    }
}

pub fn card_ref(c: Card) -> CardRef {
    if is_wild(c) {
        CardRef::Wild
    } else {
        CardRef::Territory(c)
    }
}

/// Rule (003 §Cartes RISK): "(1) trois cartes ayant la même silhouette; (2) trois cartes de
/// silhouettes différentes; (3) deux cartes quelconques plus une carte passe-partout".
pub fn is_set(cards: &[Card]) -> bool {
    if cards.len() != 3 {
        return false;
    }
    let syms: Vec<Symbol> = cards.iter().filter_map(|c| symbol(*c)).collect();
    if syms.len() < 3 {
        return true; // at least one wild
    }
    let same = syms[0] == syms[1] && syms[1] == syms[2];
    let all_diff = syms[0] != syms[1] && syms[1] != syms[2] && syms[0] != syms[2];
    same || all_diff
}

/// Value of the `n`-th set traded in the game (1-based), counted across all players.
/// Standard: 4, 6, 8, 10, 12, 15, then +5. Rising option: 4, 5, 6, ...
pub fn set_value(n: u32, rising: bool) -> u32 {
    let n = n.max(1);
    if rising {
        return 3 + n;
    }
    match n {
        1..=5 => 2 + 2 * n,
        _ => 15 + 5 * (n - 6),
    }
}

/// All sets in `hand`, best first: sets using fewer wild cards first, then sets showing a
/// territory `held` (for the +2 bonus), then by card ids (deterministic).
pub fn sets_in(hand: &[Card], held: &dyn Fn(usize) -> bool) -> Vec<[Card; 3]> {
    let mut out = Vec::new();
    for i in 0..hand.len() {
        for j in i + 1..hand.len() {
            for k in j + 1..hand.len() {
                let s = [hand[i], hand[j], hand[k]];
                if is_set(&s) {
                    out.push(s);
                }
            }
        }
    }
    out.sort_by_key(|s| {
        let wilds = s.iter().filter(|c| is_wild(**c)).count();
        let bonus = s.iter().any(|c| !is_wild(*c) && held(*c));
        (wilds, !bonus, *s)
    });
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn by(sym: Symbol) -> Vec<Card> {
        (0..42).filter(|c| symbol(*c) == Some(sym)).collect()
    }

    /// Rule (003 §Cartes RISK): three of a kind, one of each, or any two plus a wild.
    #[test]
    fn sets_are_three_alike_three_different_or_two_and_a_wild() {
        let (i, c, a) = (
            by(Symbol::Infantry),
            by(Symbol::Cavalry),
            by(Symbol::Artillery),
        );
        assert!(is_set(&[i[0], i[1], i[2]]));
        assert!(is_set(&[i[0], c[0], a[0]]));
        assert!(!is_set(&[i[0], i[1], c[0]]));
        assert!(is_set(&[i[0], c[1], 42]));
        assert!(is_set(&[i[0], 42, 43]));
        assert!(!is_set(&[i[0], i[1]]));
    }

    /// Rule (003 §Cartes RISK): "4, 6, 8, 10, 12, 15 ... chaque combinaison additionnelle vaut
    /// cinq armées de plus. Exemple: À la septième combinaison, tu reçois 20 armées; à la
    /// huitième, tu reçois 25"; optional rule: "la première combinaison vaudrait quatre
    /// armées, la deuxième cinq, la troisième six".
    #[test]
    fn set_values_follow_the_table_and_the_rising_option() {
        let v: Vec<u32> = (1..=8).map(|n| set_value(n, false)).collect();
        assert_eq!(v, vec![4, 6, 8, 10, 12, 15, 20, 25]);
        let r: Vec<u32> = (1..=4).map(|n| set_value(n, true)).collect();
        assert_eq!(r, vec![4, 5, 6, 7]);
    }
}
