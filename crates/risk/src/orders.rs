//! The order language (docs/orders/risk.md): parsing and writing orders.

use crate::cards::{Card, CardRef};
use crate::map::{self, board};
use crate::*;
use castellan_engine::claim::{parse_placements, parse_territory_list};

/// The order help (ORDERS), in `lang`.
pub fn help(_lang: castellan_engine::Lang) -> String {
    HELP.to_string()
}

pub const HELP: &str = "\
Risk orders (one per line; names are forgiving: case, accents, French names, unique prefixes):
  CLAIM Alaska                          claim a free territory (table claim)
  RANK Eastern Australia, Indonesia, Siam       ranked list for the draft (draft claim)
  PLACE 3 Alaska, 2 Peru                place armies (setup or reinforcements)
  PLACE 2 Alaska NEUTRAL 1 Peru         2-player setup: two of yours and one neutral
  HQ Alaska                             choose your secret headquarters (short game)
  TRADE Alaska, Peru, WILD              trade a set of three cards
  ATTACK Kamchatka FROM Alaska [UNTIL CONQUERED | UNTIL 3 LEFT | FOR 2 ROLLS]
         [WITH 2 DICE] [MOVE 5 | MOVE ALL | LEAVE 2] [REROLL] [COMMANDER]
  DEFEND 2                              answer an attack that waits for your dice
  FORTIFY 4 FROM Ontario TO Quebec      move armies at the end of your turn
  END                                   end your turn (draws a card after a conquest)
  SET DEFEND 2 | SET DEFEND 1 | SET DEFEND ASK      standing answer for your defence
  SET NEUTRAL 2 | SET NEUTRAL 1 | SET NEUTRAL ASK   2-player: your defence of neutrals";

fn err(m: impl Into<String>, hint: &str) -> OrderError {
    OrderError::new(m).hint(hint)
}

fn territory(name: &str, hint: &str) -> Result<usize, OrderError> {
    if name.trim().is_empty() {
        return Err(err("a territory name is missing", hint));
    }
    board()
        .resolve(name)
        .map_err(|e| OrderError::new(e.to_string()).hint(hint))
}

fn policy(word: Option<&str>, hint: &str) -> Result<Policy, OrderError> {
    match word.map(|w| w.to_uppercase()) {
        Some(w) if w == "ASK" => Ok(Policy::Ask),
        Some(w) if w == "MAX" || w == "MOST" => Ok(Policy::Dice(2)),
        Some(w) => match w.parse::<u32>() {
            Ok(n) if (1..=2).contains(&n) => Ok(Policy::Dice(n)),
            _ => Err(err(
                format!("\"{w}\": a defender rolls 1 or 2 dice, or ASK"),
                hint,
            )),
        },
        None => Err(err("say 1, 2 or ASK", hint)),
    }
}

const PLAN_WORDS: &[&str] = &[
    "UNTIL",
    "TILL",
    "FOR",
    "WITH",
    "THEN",
    "MOVE",
    "LEAVE",
    "REROLL",
    "RE-ROLL",
    "COMMANDER",
];

pub fn parse(_s: &Risk, _seat: Seat, line: &str) -> Result<Order, OrderError> {
    let line = line.trim();
    let words: Vec<&str> = line.split_whitespace().collect();
    let Some(first) = words.first() else {
        return Err(err("empty order", "write: END"));
    };
    let kw = first.to_uppercase();
    let rest = line[first.len()..].trim();
    match kw.as_str() {
        "CLAIM" | "TAKE" => Ok(Order::Claim(territory(rest, "write: CLAIM Alaska")?)),
        "RANK" | "DRAFT" => Ok(Order::Rank(
            parse_territory_list(board(), rest)
                .map_err(|e| e.hint("write: RANK Eastern Australia, Indonesia, Siam"))?,
        )),
        "PLACE" | "REINFORCE" => {
            let up = rest.to_uppercase();
            let (own_txt, neu_txt) = match find_word(&up, "NEUTRAL") {
                Some(i) => (&rest[..i], rest[i + "NEUTRAL".len()..].trim()),
                None => (rest, ""),
            };
            let hint = "write: PLACE 3 Alaska, 2 Peru";
            let own = if own_txt.trim().is_empty() {
                vec![]
            } else {
                parse_placements(board(), own_txt)?
            };
            let neutral = if neu_txt.is_empty() {
                vec![]
            } else {
                parse_placements(board(), neu_txt)?
            };
            if own.is_empty() && neutral.is_empty() {
                return Err(err("no armies to place", hint));
            }
            Ok(Order::Place { own, neutral })
        }
        "HQ" | "HEADQUARTERS" => Ok(Order::Hq(territory(rest, "write: HQ Alaska")?)),
        "TRADE" | "CARDS" => {
            let hint = "write: TRADE Alaska, Peru, WILD";
            let parts: Vec<&str> = rest
                .split([',', ';'])
                .map(|p| p.trim())
                .filter(|p| !p.is_empty())
                .collect();
            if parts.len() != 3 {
                return Err(err(
                    "name three cards separated by commas (WILD for a wild card)",
                    hint,
                ));
            }
            let mut refs = Vec::new();
            for p in parts {
                let u = castellan_engine::names::normalize(p);
                if ["wild", "wildcard", "joker", "passepartout"].contains(&u.as_str()) {
                    refs.push(CardRef::Wild);
                } else {
                    refs.push(CardRef::Territory(territory(p, hint)?));
                }
            }
            Ok(Order::Trade(refs))
        }
        "ATTACK" | "ATTAQUE" => {
            let hint = "write: ATTACK Kamchatka FROM Alaska UNTIL CONQUERED";
            let Some(fi) = words.iter().position(|w| w.eq_ignore_ascii_case("FROM")) else {
                return Err(err("say where you attack FROM", hint));
            };
            let to = territory(&words[1..fi].join(" "), hint)?;
            let tail = &words[fi + 1..];
            let pi = tail
                .iter()
                .position(|w| PLAN_WORDS.contains(&w.to_uppercase().as_str()))
                .unwrap_or(tail.len());
            let from = territory(&tail[..pi].join(" "), hint)?;
            let mut reroll = false;
            let mut commander = false;
            let mut plan_words = Vec::new();
            for w in &tail[pi..] {
                match w.to_uppercase().as_str() {
                    "REROLL" | "RE-ROLL" => reroll = true,
                    "COMMANDER" => commander = true,
                    _ => plan_words.push(*w),
                }
            }
            let plan = castellan_engine::assault::AttackPlan::parse(&plan_words)
                .map_err(|(m, h)| OrderError::new(m).hint(h))?;
            Ok(Order::Attack {
                to,
                from,
                plan,
                reroll,
                commander,
            })
        }
        "DEFEND" => {
            let hint = "write: DEFEND 2 (or DEFEND 1)";
            match words.get(1).map(|w| w.parse::<u32>()) {
                Some(Ok(n)) if (1..=2).contains(&n) => Ok(Order::Defend(n)),
                _ => Err(err("a defender rolls 1 or 2 dice", hint)),
            }
        }
        "FORTIFY" | "MOVE" => {
            let hint = "write: FORTIFY 3 FROM Ontario TO Quebec";
            let n = match words.get(1).map(|w| w.parse::<u32>()) {
                Some(Ok(n)) => n,
                _ => return Err(err("say how many armies to move", hint)),
            };
            let fi = words.iter().position(|w| w.eq_ignore_ascii_case("FROM"));
            let ti = words.iter().position(|w| w.eq_ignore_ascii_case("TO"));
            let (Some(fi), Some(ti)) = (fi, ti) else {
                return Err(err("say FROM where and TO where", hint));
            };
            if fi != 2 || ti <= fi + 1 {
                return Err(err("write the number, then FROM, then TO", hint));
            }
            let from = territory(&words[fi + 1..ti].join(" "), hint)?;
            let to = territory(&words[ti + 1..].join(" "), hint)?;
            Ok(Order::Fortify {
                from,
                to,
                armies: n,
            })
        }
        "END" | "PASS" | "DONE" => {
            if words.len() > 1 && !words[1].eq_ignore_ascii_case("TURN") {
                return Err(err("END takes nothing after it", "write: END"));
            }
            Ok(Order::End)
        }
        "SET" => {
            let what = words.get(1).map(|w| w.to_uppercase());
            match what.as_deref() {
                Some("DEFEND") | Some("DEFENCE") | Some("DEFENSE") => Ok(Order::SetDefend(policy(
                    words.get(2).copied(),
                    "write: SET DEFEND 2",
                )?)),
                Some("NEUTRAL") => Ok(Order::SetNeutral(policy(
                    words.get(2).copied(),
                    "write: SET NEUTRAL 2",
                )?)),
                _ => Err(err(
                    "SET what?",
                    "write: SET DEFEND 2, SET DEFEND ASK or SET NEUTRAL 1",
                )),
            }
        }
        other => Err(err(
            format!("I do not know the order \"{other}\""),
            "orders: CLAIM, RANK, PLACE, HQ, TRADE, ATTACK, DEFEND, FORTIFY, END, SET",
        )),
    }
}

/// Byte index of `word` as a whole word in `up` (already uppercase).
fn find_word(up: &str, word: &str) -> Option<usize> {
    let mut start = 0;
    while let Some(i) = up[start..].find(word) {
        let i = start + i;
        let before = up[..i]
            .chars()
            .last()
            .map(|c| !c.is_alphanumeric())
            .unwrap_or(true);
        let after = up[i + word.len()..]
            .chars()
            .next()
            .map(|c| !c.is_alphanumeric())
            .unwrap_or(true);
        if before && after {
            return Some(i);
        }
        start = i + word.len();
    }
    None
}

fn placements_text(p: &Placements) -> String {
    p.iter()
        .map(|(t, k)| format!("{k} {}", map::name(*t)))
        .collect::<Vec<_>>()
        .join(", ")
}

fn policy_text(p: Policy) -> String {
    match p {
        Policy::Dice(n) => n.to_string(),
        Policy::Ask => "ASK".into(),
    }
}

pub fn trade_text(cards: &[Card]) -> String {
    let refs: Vec<CardRef> = cards.iter().map(|c| crate::cards::card_ref(*c)).collect();
    text(&Order::Trade(refs))
}

pub fn text(o: &Order) -> String {
    match o {
        Order::Claim(t) => format!("CLAIM {}", map::name(*t)),
        Order::Rank(l) => format!(
            "RANK {}",
            l.iter()
                .map(|t| map::name(*t))
                .collect::<Vec<_>>()
                .join(", ")
        ),
        Order::Place { own, neutral } => {
            let mut s = "PLACE".to_string();
            if !own.is_empty() {
                s += " ";
                s += &placements_text(own);
            }
            if !neutral.is_empty() {
                s += " NEUTRAL ";
                s += &placements_text(neutral);
            }
            s
        }
        Order::Hq(t) => format!("HQ {}", map::name(*t)),
        Order::Trade(refs) => format!(
            "TRADE {}",
            refs.iter()
                .map(|r| match r {
                    CardRef::Territory(t) => map::name(*t).to_string(),
                    CardRef::Wild => "WILD".into(),
                })
                .collect::<Vec<_>>()
                .join(", ")
        ),
        Order::Attack {
            to,
            from,
            plan,
            reroll,
            commander,
        } => {
            let mut s = format!("ATTACK {} FROM {}", map::name(*to), map::name(*from));
            let p = plan.text();
            if !p.is_empty() {
                s += " ";
                s += &p;
            }
            if *reroll {
                s += " REROLL";
            }
            if *commander {
                s += " COMMANDER";
            }
            s
        }
        Order::Defend(n) => format!("DEFEND {n}"),
        Order::Fortify { from, to, armies } => format!(
            "FORTIFY {armies} FROM {} TO {}",
            map::name(*from),
            map::name(*to)
        ),
        Order::End => "END".into(),
        Order::SetDefend(p) => format!("SET DEFEND {}", policy_text(*p)),
        Order::SetNeutral(p) => format!("SET NEUTRAL {}", policy_text(*p)),
    }
}
