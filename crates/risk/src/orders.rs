//! The order language (docs/orders/risk.md): parsing orders; writing them and the help
//! in orders/text.rs.

use crate::cards::CardRef;
use crate::map::{self, board};
use crate::words;
use crate::*;
use castellan_engine::board::TerritoryId;
use castellan_engine::names::{normalize, NameError};
use castellan_engine::words::{cap, joined, refusal, refuse, refuse_bare, Hints};

pub(crate) mod hint;
pub(crate) use hint::attack_hint;
mod text;
pub use text::{attack_choice, help, text, text_in, trade_text_in};

/// An order keyword as written, in either language: normalized (lowercase, no accents).
fn is(word: &str, forms: &[&str]) -> bool {
    forms.contains(&normalize(word).as_str())
}

const FROM: &[&str] = &["from", "depuis"];
const TO: &[&str] = &["to", "vers", "a"];
const NEUTRAL: &[&str] = &["neutral", "neutre", "neutres"];
const WILD: &[&str] = &["wild", "wildcard", "joker", "passepartout"];

/// A territory named by a player (forgiving, either language), for MAP / NEIGHBOURS.
pub fn territory_named(name: &str) -> Result<usize, OrderError> {
    territory(
        name,
        (
            "write: MAP Alberta (a territory's name)",
            "écrivez : CARTE Alberta (le nom d'un territoire)",
        ),
    )
}

fn territory(name: &str, hint: (&str, &str)) -> Result<usize, OrderError> {
    if name.trim().is_empty() {
        return Err(refusal(
            "a territory name is missing",
            "il manque un nom de territoire",
        )
        .hints(hint.0, hint.1));
    }
    board()
        .resolve(name)
        .map_err(|e| words::name_error(&e, hint.0, hint.1))
}

fn policy(word: Option<&str>, hint: (&str, &str)) -> Result<Policy, OrderError> {
    let Some(w) = word else {
        return Err(refusal("say 1, 2 or ASK", "dites 1, 2 ou DEMANDE").hints(hint.0, hint.1));
    };
    if is(w, &["ask", "demande", "demander"]) {
        return Ok(Policy::Ask);
    }
    if is(w, &["max", "most"]) {
        return Ok(Policy::Dice(2));
    }
    match w.parse::<u32>() {
        Ok(n) if (1..=2).contains(&n) => Ok(Policy::Dice(n)),
        _ => {
            let w = w.to_uppercase();
            Err(refuse(
                |l| match l {
                    Lang::En => format!("\"{w}\": a defender rolls 1 or 2 dice, or ASK"),
                    Lang::Fr => format!("« {w} » : le défenseur lance 1 ou 2 dés, ou DEMANDE"),
                },
                |l| l.pick(hint.0, hint.1).to_string(),
            ))
        }
    }
}

const PLAN_WORDS: &[&str] = &[
    "until",
    "till",
    "for",
    "with",
    "then",
    "move",
    "leave",
    "reroll",
    "commander",
    "jusqua",
    "jusque",
    "pour",
    "avec",
    "puis",
    "deplace",
    "deplacer",
    "laisse",
    "laisser",
    "relance",
    "relancer",
    "commandant",
];

/// The French words of an attack plan, as the English words the shared plan language reads.
fn plan_word_en(word: &str) -> String {
    let en = match normalize(word).as_str() {
        "jusqua" | "jusque" => "UNTIL",
        "conquete" | "conquis" | "pris" => "CONQUERED",
        "restantes" | "restante" | "restants" | "restant" | "restent" => "LEFT",
        "pour" => "FOR",
        "lancers" | "lancer" | "lances" | "fois" => "ROLLS",
        "avec" => "WITH",
        "des" | "de" => "DICE",
        "puis" | "ensuite" => "THEN",
        "deplace" | "deplacer" => "MOVE",
        "tout" | "tous" | "toutes" => "ALL",
        "moins" => "LEAST",
        "laisse" | "laisser" => "LEAVE",
        "et" => "AND",
        "armees" => "ARMIES",
        "relance" | "relancer" => "REROLL",
        "commandant" => "COMMANDER",
        _ => return word.to_string(),
    };
    en.to_string()
}

const HOW_FR: &str = "après les territoires, écrivez JUSQU'À CONQUÊTE, JUSQU'À 3 RESTANTES, POUR 2 LANCERS, AVEC 2 DÉS, PUIS DÉPLACE 4, DÉPLACE TOUT ou LAISSE 2";

/// The French words that open an order, each with the English word [`parse`] reads the
/// same (normalized: lowercase, no accents). "place" is both, and counts as English.
const FRENCH_ORDER_WORDS: [(&str, &str); 29] = [
    ("reclame", "claim"),
    ("reclamer", "claim"),
    ("prends", "claim"),
    ("prendre", "claim"),
    ("classe", "rank"),
    ("classer", "rank"),
    ("classement", "rank"),
    ("placer", "place"),
    ("renforce", "place"),
    ("renforcer", "place"),
    ("qg", "hq"),
    ("echange", "trade"),
    ("echanger", "trade"),
    ("cartes", "trade"),
    ("attaque", "attack"),
    ("attaquer", "attack"),
    ("defends", "defend"),
    ("defendre", "defend"),
    ("fortifie", "fortify"),
    ("fortifier", "fortify"),
    ("deplace", "fortify"),
    ("deplacer", "fortify"),
    ("fin", "end"),
    ("termine", "end"),
    ("terminer", "end"),
    ("passe", "end"),
    ("passer", "end"),
    ("regle", "set"),
    ("regler", "set"),
];

/// A French order word, normalized, and the English word it stands for.
fn french_order_word(key: &str) -> Option<&'static str> {
    FRENCH_ORDER_WORDS
        .iter()
        .find(|(fr, _)| *fr == key)
        .map(|(_, en)| *en)
}

/// Does `line` open with one of Risk's French order words ("FORTIFIE 3 DEPUIS ...",
/// "RÉCLAME Alaska")? The words [`parse`] itself reads.
pub fn reads_as_french(line: &str) -> bool {
    line.split_whitespace()
        .next()
        .is_some_and(|w| french_order_word(&normalize(w)).is_some())
}

pub fn parse(s: &Risk, seat: Seat, line: &str) -> Result<Order, OrderError> {
    let line = line.trim();
    let words: Vec<&str> = line.split_whitespace().collect();
    let Some(first) = words.first() else {
        return Err(refusal("empty order", "ordre vide").hints("write: END", "écrivez : FIN"));
    };
    let rest = line[first.len()..].trim();
    let key = normalize(first);
    match french_order_word(&key).unwrap_or(&key) {
        "claim" | "take" => {
            let hint = hint::territory_hint(
                s,
                seat,
                ("CLAIM", "RÉCLAME"),
                ("write: CLAIM Alaska", "écrivez : RÉCLAME Alaska"),
            );
            Ok(Order::Claim(territory(rest, (&hint.0, &hint.1))?))
        }
        "rank" | "draft" => {
            Ok(Order::Rank(territory_list(rest).map_err(|e| {
                // The line as it was likely meant, else the rules' example.
                match castellan_engine::claim::list_as_meant(rest, |n| board().resolve(n)) {
                    Some(meant) => {
                        let line = |l: Lang| words::names(&meant, l);
                        e.write(
                            format!("RANK {}", line(Lang::En)),
                            format!("CLASSE {}", line(Lang::Fr)),
                        )
                    }
                    None => e.hints(
                        "write: RANK Eastern Australia, Indonesia, Siam",
                        "écrivez : CLASSE Australie orientale, Indonésie, Siam",
                    ),
                }
            })?))
        }
        "place" | "reinforce" => parse_place(s, seat, rest),
        "hq" | "headquarters" => {
            let hint = hint::territory_hint(
                s,
                seat,
                ("HQ", "QG"),
                ("write: HQ Alaska", "écrivez : QG Alaska"),
            );
            Ok(Order::Hq(territory(rest, (&hint.0, &hint.1))?))
        }
        "trade" | "cards" => parse_trade(s, seat, rest),
        "attack" => parse_attack(s, seat, &words),
        "defend" => {
            let hint = (
                "write: DEFEND 2 (or DEFEND 1)",
                "écrivez : DÉFENDS 2 (ou DÉFENDS 1)",
            );
            match words.get(1).map(|w| w.parse::<u32>()) {
                Some(Ok(n)) if (1..=2).contains(&n) => Ok(Order::Defend(n)),
                _ => Err(refusal(
                    "a defender rolls 1 or 2 dice",
                    "le défenseur lance 1 ou 2 dés",
                )
                .hints(hint.0, hint.1)),
            }
        }
        "fortify" | "move" => parse_fortify(s, seat, &words),
        "end" | "pass" | "done" => {
            if words.len() > 1 && !is(words[1], &["turn", "tour", "du"]) {
                return Err(
                    refusal("END takes nothing after it", "FIN ne prend rien après lui")
                        .hints("write: END", "écrivez : FIN"),
                );
            }
            Ok(Order::End)
        }
        "set" => parse_set(&words),
        _ => {
            let other = first.to_uppercase();
            Err(refuse(
                |l| match l {
                    Lang::En => format!("I do not know the order \"{other}\""),
                    Lang::Fr => format!("je ne connais pas l'ordre « {other} »"),
                },
                |l| {
                    l.pick(
                    "orders: CLAIM, RANK, PLACE, HQ, TRADE, ATTACK, DEFEND, FORTIFY, END, SET",
                    "ordres : RÉCLAME, CLASSE, PLACE, QG, ÉCHANGE, ATTAQUE, DÉFENDS, FORTIFIE, FIN, RÈGLE",
                ).to_string()
                },
            )
            .not_an_order())
        }
    }
}

fn parse_place(s: &Risk, seat: Seat, rest: &str) -> Result<Order, OrderError> {
    let (own_txt, neu_txt) = match find_word(rest, NEUTRAL) {
        Some((i, j)) => (&rest[..i], rest[j..].trim()),
        None => (rest, ""),
    };
    // The armies the seat places now, on a territory of its own.
    let hint = hint::place_hint(
        s,
        seat,
        (
            "write: PLACE 3 Alaska, 2 Peru",
            "écrivez : PLACE 3 Alaska, 2 Pérou",
        ),
    );
    let hint = (hint.0.as_str(), hint.1.as_str());
    let own = if own_txt.trim().is_empty() {
        vec![]
    } else {
        placements(own_txt, hint)?
    };
    let neutral = if neu_txt.is_empty() {
        vec![]
    } else {
        placements(neu_txt, hint)?
    };
    if own.is_empty() && neutral.is_empty() {
        return Err(refusal("no armies to place", "aucune armée à placer").hints(hint.0, hint.1));
    }
    Ok(Order::Place { own, neutral })
}

fn parse_trade(s: &Risk, seat: Seat, rest: &str) -> Result<Order, OrderError> {
    // A set the seat holds, else the rules' example.
    let hint = hint::trade_hint(s, seat);
    let hint = (hint.0.as_str(), hint.1.as_str());
    let parts: Vec<&str> = rest
        .split([',', ';'])
        .map(|p| p.trim())
        .filter(|p| !p.is_empty())
        .collect();
    if parts.len() != 3 {
        return Err(refusal("name three cards separated by commas (WILD for a wild card)", "nommez trois cartes séparées par des virgules (PASSE-PARTOUT pour une carte passe-partout)").hints(hint.0, hint.1));
    }
    let mut refs = Vec::new();
    for p in parts {
        if is(p, WILD) {
            refs.push(CardRef::Wild);
        } else {
            refs.push(CardRef::Territory(territory(p, hint)?));
        }
    }
    Ok(Order::Trade(refs))
}

fn parse_attack(s: &Risk, seat: Seat, words: &[&str]) -> Result<Order, OrderError> {
    let Some(fi) = words.iter().position(|w| is(w, FROM)) else {
        // An attack the seat can make, on the target it named if it can.
        let to = board().meant(&board().resolve(&words[1..].join(" ")));
        let hint = hint::attack_hint(s, seat, &to, &[]);
        return Err(refusal(
            "say where you attack FROM",
            "dites d'où vous attaquez (DEPUIS)",
        )
        .hints(hint.0, hint.1));
    };
    let tail = &words[fi + 1..];
    let pi = tail
        .iter()
        .position(|w| is(w, PLAN_WORDS))
        .unwrap_or(tail.len());
    let (to_text, from_text) = (words[1..fi].join(" "), tail[..pi].join(" "));
    let missing = |t: &str| t.trim().is_empty();
    if missing(&to_text) || missing(&from_text) {
        let hint = hint::attack_hint(s, seat, &[], &[]);
        let (en, fr) = (hint.0.as_str(), hint.1.as_str());
        territory(&to_text, (en, fr))?;
        territory(&from_text, (en, fr))?;
    }
    // Both names read before either is refused: a line with both wrong is told both.
    let (to, from) = match (board().resolve(&to_text), board().resolve(&from_text)) {
        (Ok(to), Ok(from)) => (to, from),
        (to, from) => {
            let (en, fr) = hint::attack_hint(s, seat, &board().meant(&to), &board().meant(&from));
            let refused = |e: NameError| words::name_error(&e, &en, &fr);
            return Err(match (to, from) {
                (Err(a), Err(b)) => joined(refused(a), [refused(b)]),
                (Err(e), _) | (_, Err(e)) => refused(e),
                (Ok(_), Ok(_)) => unreachable!("matched above"),
            });
        }
    };
    let mut reroll = false;
    let mut commander = false;
    let mut plan_words = Vec::new();
    for w in tail[pi..].iter().map(|w| plan_word_en(w)) {
        match normalize(&w).as_str() {
            "reroll" => reroll = true,
            "commander" => commander = true,
            _ => plan_words.push(w),
        }
    }
    let ws: Vec<&str> = plan_words.iter().map(|w| w.as_str()).collect();
    let plan = castellan_engine::assault::AttackPlan::parse(&ws).map_err(|e| {
        let given = tail[pi..].join(" ");
        OrderError::new(e.to_string())
            .hint(castellan_engine::assault::HOW)
            .fr(format!(
                "je ne comprends pas la fin de cette attaque : « {given} »"
            ))
            .hint_fr(HOW_FR)
    })?;
    Ok(Order::Attack {
        to,
        from,
        plan,
        reroll,
        commander,
    })
}

fn parse_fortify(s: &Risk, seat: Seat, words: &[&str]) -> Result<Order, OrderError> {
    // A move the seat can make, near the names it gave where they read.
    let named = |a: Option<usize>, b: Option<usize>| match (a, b) {
        (Some(a), Some(b)) if a < b => board().meant(&board().resolve(&words[a + 1..b].join(" "))),
        (Some(a), None) => board().meant(&board().resolve(&words[a + 1..].join(" "))),
        _ => vec![],
    };
    let (fi, ti) = (
        words.iter().position(|w| is(w, FROM)),
        words.iter().position(|w| is(w, TO)),
    );
    let hint = hint::fortify_hint(s, seat, &named(ti, None), &named(fi, ti));
    let hint = (hint.0.as_str(), hint.1.as_str());
    let n = match words.get(1).map(|w| w.parse::<u32>()) {
        Some(Ok(n)) => n,
        _ => {
            return Err(refusal(
                "say how many armies to move",
                "dites combien d'armées déplacer",
            )
            .hints(hint.0, hint.1))
        }
    };
    let fi = words.iter().position(|w| is(w, FROM));
    let ti = words.iter().position(|w| is(w, TO));
    let (Some(fi), Some(ti)) = (fi, ti) else {
        return Err(
            refusal("say FROM where and TO where", "dites DEPUIS où et VERS où")
                .hints(hint.0, hint.1),
        );
    };
    if fi != 2 || ti <= fi + 1 {
        return Err(refusal(
            "write the number, then FROM, then TO",
            "écrivez le nombre, puis DEPUIS, puis VERS",
        )
        .hints(hint.0, hint.1));
    }
    let from = territory(&words[fi + 1..ti].join(" "), hint)?;
    let to = territory(&words[ti + 1..].join(" "), hint)?;
    Ok(Order::Fortify {
        from,
        to,
        armies: n,
    })
}

fn parse_set(words: &[&str]) -> Result<Order, OrderError> {
    let what = words.get(1).copied().unwrap_or("");
    let value = words.get(2).copied();
    if is(
        what,
        &["defend", "defence", "defense", "defends", "defendre"],
    ) {
        Ok(Order::SetDefend(policy(
            value,
            ("write: SET DEFEND 2", "écrivez : RÈGLE DÉFENSE 2"),
        )?))
    } else if is(what, NEUTRAL) {
        Ok(Order::SetNeutral(policy(
            value,
            ("write: SET NEUTRAL 2", "écrivez : RÈGLE NEUTRE 2"),
        )?))
    } else {
        Err(refusal("SET what?", "RÈGLE quoi ?").hints(
            "write: SET DEFEND 2, SET DEFEND ASK or SET NEUTRAL 1",
            "écrivez : RÈGLE DÉFENSE 2, RÈGLE DÉFENSE DEMANDE ou RÈGLE NEUTRE 1",
        ))
    }
}

/// Territory names separated by commas (or one per word when no comma is given): the
/// engine's `territory_list`, with Risk's words.
fn territory_list(text: &str) -> Result<Vec<TerritoryId>, OrderError> {
    castellan_engine::claim::territory_list(
        text,
        |p| {
            board().resolve(p).map_err(|e| {
                words::name_error(
                    &e,
                    "separate territories with commas: Livonia, Poland, Moscow",
                    "séparez les territoires par des virgules : Alaska, Alberta, Ontario",
                )
            })
        },
        |t| {
            refuse_bare(|l| match l {
                Lang::En => format!("{} is listed twice", map::name(t)),
                Lang::Fr => format!("{} figure deux fois dans la liste", cap(&words::le(t, l))),
            })
        },
        || {
            refusal("no territory given", "aucun territoire donné").hints(
                "name territories separated by commas",
                "nommez des territoires séparés par des virgules",
            )
        },
    )
}

/// Placements like "5 Alaska, 3 Peru" (or "Alaska 5"): armies per territory; `example`
/// the placement the seat can write now ([`hint::place_hint`]).
fn placements(text: &str, example: (&str, &str)) -> Result<Placements, OrderError> {
    let (en, fr) = (
        format!(
            "{} (the armies, then the territory; several separated by commas)",
            example.0
        ),
        format!(
            "{} (les armées, puis le territoire ; plusieurs séparés par des virgules)",
            example.1
        ),
    );
    let hint = (en.as_str(), fr.as_str());
    castellan_engine::claim::parse_placements_with(text, hint, |name| {
        board()
            .resolve(name)
            .map_err(|e| words::name_error(&e, hint.0, hint.1))
    })
}

/// Byte range of the first whole word of `text` (a run of letters and digits) that is one
/// of `forms` (normalized).
fn find_word(text: &str, forms: &[&str]) -> Option<(usize, usize)> {
    let mut start = None;
    for (i, c) in text
        .char_indices()
        .chain(std::iter::once((text.len(), ' ')))
    {
        match (c.is_alphanumeric(), start) {
            (true, None) => start = Some(i),
            (false, Some(b)) => {
                if is(&text[b..i], forms) {
                    return Some((b, i));
                }
                start = None;
            }
            _ => {}
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every French order word reads as French and opens an order the parser knows (not
    /// a line it leaves unread); the English words do not read as French.
    #[test]
    fn french_order_words_read_as_french_and_parse() {
        let players = ["Ann".to_string(), "Bob".to_string(), "Cy".to_string()];
        let s = Risk::new(&players, &Options::default());
        for (fr, _) in FRENCH_ORDER_WORDS {
            assert!(reads_as_french(&format!("{fr} 2")), "{fr}");
            let parsed = parse(&s, 0, &format!("{fr} 2"));
            assert!(!matches!(parsed, Err(e) if e.not_an_order), "{fr}");
        }
        for line in [
            "FORTIFIER 3 DEPUIS Alaska VERS Alberta",
            "Réclame Alaska",
            "QG Pérou",
        ] {
            assert!(reads_as_french(line), "{line}");
        }
        for line in [
            "FORTIFY 3 FROM Alaska TO Alberta",
            "CLAIM Alaska",
            "PLACE 3 Peru",
            "END",
            "Bonjour",
        ] {
            assert!(!reads_as_french(line), "{line}");
        }
    }
}
