//! Whether a line reads as a Castle Risk order written in French, by the parser's own
//! words: the judge answers a mail holding one in French (`Rules::reads_as_french`).

use super::*;

/// The order words [`super::parse`] reads (after `super::keyword`).
const ORDER_KEYS: [&str; 18] = [
    "CASTLE",
    "CLAIM",
    "RANK",
    "PLACE",
    "HIDE",
    "REINFORCE",
    "TRUCE",
    "SPY",
    "REVEAL",
    "ATTACK",
    "SAIL",
    "END",
    "PASS",
    "OCCUPY",
    "ANNEX",
    "DEFEND",
    "COUNTERSPY",
    "SET",
];

/// The English forms of the order words (normalized): every other form [`keyword`] reads
/// as an order word is French ("place" and "defense" are both, and count as English).
const ENGLISH_ORDER_WORDS: [&str; 27] = [
    "castle",
    "claim",
    "rank",
    "ranking",
    "place",
    "hide",
    "reinforce",
    "truce",
    "diplomat",
    "spy",
    "reveal",
    "attack",
    "sail",
    "admiral",
    "end",
    "done",
    "endturn",
    "occupy",
    "reoccupy",
    "pass",
    "annex",
    "defend",
    "defense",
    "defence",
    "counterspy",
    "set",
    "no",
];

/// Does `line` open with one of this game's French order words ("ATTAQUER ...",
/// "RENFORCER 2", "PAS DE CONTRE-ESPION")? Read by [`super::parse`]'s own `super::keyword`, so a French
/// word the parser learns is a French word here.
pub fn reads_as_french(line: &str) -> bool {
    let ws = words(line);
    let Some((written, key)) = ws.first() else {
        return false;
    };
    let order = ORDER_KEYS.contains(&key.as_str()) || (key == "NO" && no_counterspy(&ws[1..]));
    order && !ENGLISH_ORDER_WORDS.contains(&normalize(written).as_str())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every French order word the parser reads is French; its English words are not.
    #[test]
    fn french_order_words_read_as_french() {
        for line in [
            "ATTAQUER Bohême DEPUIS Saxe",
            "renforcer 2",
            "Amiral 5 depuis Bretagne vers Naples",
            "PAS DE CONTRE-ESPION",
            "contre-espion",
            "Réoccuper Galles",
            "TERMINER",
            "consigne défense 2",
            "Château Paris",
        ] {
            assert!(reads_as_french(line), "{line}");
        }
        for line in [
            "ATTACK Bohemia FROM Saxony",
            "REINFORCE 2",
            "SAIL 5 FROM Brittany TO Naples",
            "NO COUNTERSPY",
            "PLACE 3 Paris",
            "END",
            "Bonjour",
            "",
        ] {
            assert!(!reads_as_french(line), "{line}");
        }
    }
}
