//! The Castle Risk order language: English keywords with French synonyms, forgiving names.
//! Every error says what is wrong and how to write it (docs/orders/castle-risk.md).

use crate::cards::Card;
use crate::game::{CastleRisk, MarshalPolicy, OccupyWhat, RevealPolicy, SetOrder, T};
use crate::map::map;
use castellan_engine::assault::AttackPlan;
use castellan_engine::claim::{parse_placements, parse_territory_list};
use castellan_engine::names::{normalize, Names};
use castellan_engine::{OrderError, Seat};
use serde::{Deserialize, Serialize};

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Order {
    /// Setup: the castle on a territory of the drawn empire.
    Castle(T),
    /// Setup (table claim): one territory.
    Claim(T),
    /// Setup (draft): the ranked list (may be empty: no preference).
    Rank(Vec<T>),
    /// Setup placement, Reinforcements or earnings: armies per territory.
    Place(Vec<(T, u32)>),
    /// Setup: the hidden-army territory (secret).
    Hide(T),
    /// Play this many Reinforcements cards.
    Reinforce(u32),
    /// Diplomat: a truce with a player.
    Truce(Seat),
    /// Spy on a player; the cards to discard, in order of preference.
    Spy {
        target: Seat,
        prefer: Vec<Card>,
    },
    /// Reveal hidden armies (in the named territory, if several slots).
    Reveal(Option<T>),
    Attack {
        to: T,
        from: T,
        plan: AttackPlan,
        general: bool,
    },
    /// Admiral: `armies` board at `from` and attack `to` by sea, to the end.
    Sail {
        armies: u32,
        from: T,
        to: T,
        dice: Option<u32>,
        general: bool,
    },
    End,
    Occupy(OccupyWhat),
    Annex {
        t: T,
        from: Option<T>,
    },
    Defend {
        dice: u32,
        marshal: bool,
        reveal: bool,
    },
    CounterSpy(bool),
    Set(SetOrder),
}

const ATTACK_HINT: &str = "write: ATTACK Livonia FROM Poland UNTIL CONQUERED";

fn tres(s: &str, hint: &str) -> Result<T, OrderError> {
    map()
        .board
        .resolve(s)
        .map_err(|e| OrderError::new(e.to_string()).hint(hint.to_string()))
}

/// French (and other) synonyms of keywords, mapped to the English keyword.
fn keyword(w: &str) -> String {
    let n = normalize(w);
    let k = match n.as_str() {
        "chateau" => "CASTLE",
        "claim" | "prendre" | "prends" | "reclamer" => "CLAIM",
        "rank" | "ranking" | "classement" | "liste" => "RANK",
        "place" | "placer" | "placement" => "PLACE",
        "hide" | "cacher" | "cache" => "HIDE",
        "reinforce" | "renfort" | "renforts" | "renforcer" => "REINFORCE",
        "truce" | "diplomat" | "treve" | "diplomate" => "TRUCE",
        "spy" | "espion" | "espionner" => "SPY",
        "reveal" | "reveler" | "devoiler" => "REVEAL",
        "attack" | "attaque" | "attaquer" => "ATTACK",
        "sail" | "admiral" | "amiral" => "SAIL",
        "end" | "fin" | "done" | "endturn" => "END",
        "occupy" | "occuper" | "reoccupy" => "OCCUPY",
        "pass" | "passe" => "PASS",
        "annex" | "annexer" => "ANNEX",
        "defend" | "defendre" | "defense" | "defence" => "DEFEND",
        "counterspy" | "contreespion" => "COUNTERSPY",
        "set" | "regle" => "SET",
        "from" | "depuis" => "FROM",
        "to" | "vers" => "TO",
        "until" | "till" | "jusqua" | "jusque" => "UNTIL",
        "conquered" | "conquis" | "conquete" | "taken" | "won" => "CONQUERED",
        "left" | "restant" | "restants" | "reste" => "LEFT",
        "for" | "pour" => "FOR",
        "rolls" | "roll" | "lancers" | "lancer" | "fois" | "times" => "ROLLS",
        "with" | "avec" => "WITH",
        "dice" | "die" | "des" | "de6" => "DICE",
        "then" | "puis" | "ensuite" => "THEN",
        "move" | "deplacer" | "bouger" => "MOVE",
        "all" | "tout" | "tous" => "ALL",
        "leave" | "laisser" => "LEAVE",
        "general" => "GENERAL",
        "marshal" | "marechal" | "marshall" => "MARSHAL",
        "discard" | "defausser" | "jeter" => "DISCARD",
        "no" | "non" | "pas" => "NO",
        "always" | "toujours" => "ALWAYS",
        "never" | "jamais" => "NEVER",
        "when" | "quand" | "si" => "WHEN",
        "on" | "sur" => "ON",
        "auto" => "AUTO",
        "ask" | "demander" => "ASK",
        "none" | "aucun" => "NONE",
        _ => return w.to_uppercase(),
    };
    k.to_string()
}

/// Split a line into words, keeping the original spelling next to the keyword reading.
fn words(line: &str) -> Vec<(String, String)> {
    line.replace(['\'', '’'], "")
        .split_whitespace()
        .map(|w| (w.to_string(), keyword(w)))
        .collect()
}

fn join(ws: &[(String, String)]) -> String {
    ws.iter()
        .map(|w| w.0.as_str())
        .collect::<Vec<_>>()
        .join(" ")
}

const PLAN_WORDS: [&str; 9] = [
    "UNTIL", "FOR", "WITH", "THEN", "MOVE", "LEAVE", "GENERAL", "TILL", "AND",
];

fn player(g: &CastleRisk, seat: Seat, name: &str, hint: &str) -> Result<Seat, OrderError> {
    let mut n = Names::new();
    for (i, p) in g.players.iter().enumerate() {
        n.add(p, i);
    }
    let s = n.resolve(name).map_err(|e| {
        OrderError::new(e.to_string())
            .hint(format!("{hint}; the players are {}", g.players.join(", ")))
    })?;
    if s == seat {
        return Err(OrderError::new("name another player, not yourself").hint(hint.to_string()));
    }
    Ok(s)
}

fn number(w: Option<&(String, String)>, what: &str, hint: &str) -> Result<u32, OrderError> {
    w.and_then(|w| w.0.trim_end_matches('+').parse::<u32>().ok())
        .ok_or_else(|| {
            OrderError::new(format!("a number is missing after {what}")).hint(hint.to_string())
        })
}

pub fn parse(g: &CastleRisk, seat: Seat, line: &str) -> Result<Order, OrderError> {
    let ws = words(line);
    let Some(first) = ws.first() else {
        return Err(OrderError::new("empty order").hint("write: END"));
    };
    let rest = &ws[1..];
    let rest_text = join(rest);
    match first.1.as_str() {
        "CASTLE" => Ok(Order::Castle(tres(&rest_text, "write: CASTLE Paris")?)),
        "CLAIM" => Ok(Order::Claim(tres(&rest_text, "write: CLAIM Livonia")?)),
        "RANK" => {
            if rest.is_empty() || rest_text.eq_ignore_ascii_case("any") {
                return Ok(Order::Rank(vec![]));
            }
            Ok(Order::Rank(parse_territory_list(&map().board, &rest_text)?))
        }
        "PLACE" => Ok(Order::Place(parse_placements(&map().board, &rest_text)?)),
        "HIDE" => Ok(Order::Hide(tres(&rest_text, "write: HIDE Livonia")?)),
        "REINFORCE" => {
            let n = match rest.first() {
                None => 1,
                Some(_) => number(rest.first(), "REINFORCE", "write: REINFORCE 2 (the number of cards)")?,
            };
            Ok(Order::Reinforce(n))
        }
        "TRUCE" => Ok(Order::Truce(player(g, seat, &rest_text, "write: TRUCE Bob")?)),
        "SPY" => {
            let cut = rest.iter().position(|w| w.1 == "DISCARD").unwrap_or(rest.len());
            let target = player(g, seat, &join(&rest[..cut]), "write: SPY Bob DISCARD Admiral, General")?;
            let mut prefer = Vec::new();
            if cut < rest.len() {
                let list = join(&rest[cut + 1..]);
                for c in list.split([',', ';', ' ']) {
                    let c = c.trim();
                    if c.is_empty() || matches!(keyword(c).as_str(), "THEN" | "AND" | "OR") {
                        continue;
                    }
                    let card = Card::parse(c)?;
                    if !prefer.contains(&card) {
                        prefer.push(card);
                    }
                }
            }
            Ok(Order::Spy { target, prefer })
        }
        "REVEAL" => {
            if rest.is_empty() {
                Ok(Order::Reveal(None))
            } else {
                Ok(Order::Reveal(Some(tres(&rest_text, "write: REVEAL Livonia")?)))
            }
        }
        "ATTACK" => parse_attack(rest),
        "SAIL" => parse_sail(rest),
        "END" => {
            if !(rest.is_empty() || (rest.len() == 1 && normalize(&rest[0].0) == "turn")) {
                return Err(OrderError::new("END takes nothing after it").hint("write: END"));
            }
            Ok(Order::End)
        }
        "PASS" => Ok(Order::Occupy(OccupyWhat::Pass)),
        "OCCUPY" => {
            if rest.len() == 1 && rest[0].1 == "ALL" {
                return Ok(Order::Occupy(OccupyWhat::All));
            }
            if rest.len() == 1 && rest[0].1 == "NONE" {
                return Ok(Order::Occupy(OccupyWhat::Pass));
            }
            let (t, from) = target_from(rest, "write: OCCUPY Livonia FROM Poland")?;
            Ok(Order::Occupy(OccupyWhat::One { t, from }))
        }
        "ANNEX" => {
            let (t, from) = target_from(rest, "write: ANNEX Livonia FROM Poland")?;
            Ok(Order::Annex { t, from })
        }
        "DEFEND" => {
            let hint = "write: DEFEND 2 (or DEFEND 2 MARSHAL, DEFEND 1 REVEAL)";
            let dice = number(rest.first(), "DEFEND", hint)?;
            let mut marshal = false;
            let mut reveal = false;
            for w in rest.iter().skip(1) {
                match w.1.as_str() {
                    "MARSHAL" => marshal = true,
                    "REVEAL" => reveal = true,
                    "WITH" | "AND" | "DICE" => {}
                    _ => {
                        return Err(OrderError::new(format!(
                            "I do not understand \"{}\" in a defence",
                            w.0
                        ))
                        .hint(hint))
                    }
                }
            }
            Ok(Order::Defend {
                dice,
                marshal,
                reveal,
            })
        }
        "COUNTERSPY" => Ok(Order::CounterSpy(
            !matches!(rest.first().map(|w| w.1.as_str()), Some("NO") | Some("NEVER")),
        )),
        "NO" if rest.first().map(|w| w.1.as_str()) == Some("COUNTERSPY") => {
            Ok(Order::CounterSpy(false))
        }
        "SET" => parse_set(rest),
        other => Err(OrderError::new(format!("\"{other}\" is not an order I know")).hint(
            "orders: ATTACK, SAIL, REINFORCE, TRUCE, SPY, REVEAL, PLACE, END, SET ... (send HELP for the list)",
        )),
    }
}

fn target_from(rest: &[(String, String)], hint: &str) -> Result<(T, Option<T>), OrderError> {
    let cut = rest.iter().position(|w| w.1 == "FROM");
    match cut {
        Some(i) => Ok((
            tres(&join(&rest[..i]), hint)?,
            Some(tres(&join(&rest[i + 1..]), hint)?),
        )),
        None => Ok((tres(&join(rest), hint)?, None)),
    }
}

fn split_plan(ws: &[(String, String)]) -> (usize, bool, Vec<String>) {
    let cut = ws
        .iter()
        .position(|w| PLAN_WORDS.contains(&w.1.as_str()))
        .unwrap_or(ws.len());
    let mut general = false;
    let mut plan = Vec::new();
    for w in &ws[cut..] {
        if w.1 == "GENERAL" {
            general = true;
        } else {
            plan.push(w.1.clone());
        }
    }
    (cut, general, plan)
}

fn parse_attack(rest: &[(String, String)]) -> Result<Order, OrderError> {
    let Some(fi) = rest.iter().position(|w| w.1 == "FROM") else {
        return Err(OrderError::new("say where the attack comes from").hint(ATTACK_HINT));
    };
    let to = tres(&join(&rest[..fi]), ATTACK_HINT)?;
    let after = &rest[fi + 1..];
    let (cut, general, plan_words) = split_plan(after);
    let from = tres(&join(&after[..cut]), ATTACK_HINT)?;
    let pw: Vec<&str> = plan_words.iter().map(|s| s.as_str()).collect();
    let plan = AttackPlan::parse(&pw).map_err(|(m, h)| OrderError::new(m).hint(h))?;
    Ok(Order::Attack {
        to,
        from,
        plan,
        general,
    })
}

fn parse_sail(rest: &[(String, String)]) -> Result<Order, OrderError> {
    let hint = "write: SAIL 6 FROM Marseille TO Naples";
    let armies = number(rest.first(), "SAIL (the armies that board)", hint)?;
    let r = &rest[1..];
    let r = if r.first().map(|w| normalize(&w.0)) == Some("armies".into()) {
        &r[1..]
    } else {
        r
    };
    if r.first().map(|w| w.1.as_str()) != Some("FROM") {
        return Err(OrderError::new("say the port the armies board at").hint(hint));
    }
    let Some(ti) = r.iter().position(|w| w.1 == "TO") else {
        return Err(OrderError::new("say the territory attacked by sea").hint(hint));
    };
    let from = tres(&join(&r[1..ti]), hint)?;
    let after = &r[ti + 1..];
    let (cut, general, pw) = split_plan(after);
    let to = tres(&join(&after[..cut]), hint)?;
    let pw: Vec<&str> = pw.iter().map(|s| s.as_str()).collect();
    let plan = AttackPlan::parse(&pw).map_err(|(m, h)| OrderError::new(m).hint(h))?;
    if plan.until != castellan_engine::assault::Until::Conquered
        || plan.move_in != castellan_engine::assault::MoveIn::Least
    {
        return Err(OrderError::new(
            "an Admiral's attack goes on to the end and every survivor lands",
        )
        .hint(
            "only WITH n DICE and GENERAL may follow: SAIL 6 FROM Marseille TO Naples WITH 2 DICE",
        ));
    }
    Ok(Order::Sail {
        armies,
        from,
        to,
        dice: plan.dice,
        general,
    })
}

fn parse_set(rest: &[(String, String)]) -> Result<Order, OrderError> {
    let hint = "write: SET DEFEND 2, SET MARSHAL WHEN 3+, SET COUNTERSPY ALWAYS, SET REVEAL ON ATTACK, SET ANNEX AUTO, SET REOCCUPY ALL";
    let Some(what) = rest.first() else {
        return Err(OrderError::new("SET what?").hint(hint));
    };
    let args = &rest[1..];
    let a0 = args.first().map(|w| w.1.as_str());
    let when_n = |args: &[(String, String)]| -> Result<u32, OrderError> {
        number(args.get(1), "WHEN", hint)
    };
    let s = match what.1.as_str() {
        "DEFEND" => SetOrder::Defend(number(args.first(), "SET DEFEND", "write: SET DEFEND 2")?),
        "MARSHAL" => SetOrder::Marshal(match a0 {
            Some("ALWAYS") => MarshalPolicy::Always,
            Some("NEVER") | Some("NO") => MarshalPolicy::Never,
            Some("WHEN") => MarshalPolicy::When(when_n(args)?.max(1)),
            _ => {
                return Err(
                    OrderError::new("SET MARSHAL needs ALWAYS, NEVER or WHEN n+")
                        .hint("write: SET MARSHAL WHEN 3+"),
                )
            }
        }),
        "COUNTERSPY" => SetOrder::CounterSpy(match a0 {
            Some("ALWAYS") => true,
            Some("NEVER") | Some("NO") => false,
            _ => {
                return Err(OrderError::new("SET COUNTERSPY needs ALWAYS or NEVER")
                    .hint("write: SET COUNTERSPY ALWAYS"))
            }
        }),
        "REVEAL" => SetOrder::Reveal(match a0 {
            Some("NEVER") | Some("NO") => RevealPolicy::Never,
            Some("ON") | Some("ALWAYS") => RevealPolicy::OnAttack(1),
            Some("WHEN") => RevealPolicy::OnAttack(when_n(args)?.max(1)),
            _ => {
                return Err(
                    OrderError::new("SET REVEAL needs ON ATTACK, NEVER or WHEN n+")
                        .hint("write: SET REVEAL ON ATTACK"),
                )
            }
        }),
        "ANNEX" => match a0 {
            Some("AUTO") | None => SetOrder::Annex(vec![]),
            _ => SetOrder::Annex(parse_territory_list(&map().board, &join(args))?),
        },
        "REOCCUPY" | "OCCUPY" => SetOrder::Reoccupy(match a0 {
            Some("ALL") => Some(true),
            Some("NONE") | Some("NEVER") => Some(false),
            Some("ASK") => None,
            _ => {
                return Err(OrderError::new("SET REOCCUPY needs ALL, NONE or ASK")
                    .hint("write: SET REOCCUPY ALL"))
            }
        }),
        "ASK" => SetOrder::Ask,
        other => {
            return Err(
                OrderError::new(format!("there is no standing order \"{other}\"")).hint(hint),
            )
        }
    };
    Ok(Order::Set(s))
}

/// The order as a player writes it; `parse(order_text(o)) == o`.
pub fn order_text(g: &CastleRisk, o: &Order) -> String {
    let t = |t: &T| CastleRisk::tname(*t).to_string();
    let with_plan = |base: String, plan: &AttackPlan, general: bool| {
        let mut s = base;
        let p = plan.text();
        if !p.is_empty() {
            s.push(' ');
            s.push_str(&p);
        }
        if general {
            s.push_str(" GENERAL");
        }
        s
    };
    match o {
        Order::Castle(x) => format!("CASTLE {}", t(x)),
        Order::Claim(x) => format!("CLAIM {}", t(x)),
        Order::Rank(l) if l.is_empty() => "RANK".into(),
        Order::Rank(l) => format!("RANK {}", l.iter().map(t).collect::<Vec<_>>().join(", ")),
        Order::Place(p) => format!(
            "PLACE {}",
            p.iter()
                .map(|(x, n)| format!("{n} {}", t(x)))
                .collect::<Vec<_>>()
                .join(", ")
        ),
        Order::Hide(x) => format!("HIDE {}", t(x)),
        Order::Reinforce(n) => format!("REINFORCE {n}"),
        Order::Truce(s) => format!("TRUCE {}", g.name(*s)),
        Order::Spy { target, prefer } if prefer.is_empty() => format!("SPY {}", g.name(*target)),
        Order::Spy { target, prefer } => format!(
            "SPY {} DISCARD {}",
            g.name(*target),
            prefer
                .iter()
                .map(|c| c.name())
                .collect::<Vec<_>>()
                .join(", ")
        ),
        Order::Reveal(None) => "REVEAL".into(),
        Order::Reveal(Some(x)) => format!("REVEAL {}", t(x)),
        Order::Attack {
            to,
            from,
            plan,
            general,
        } => with_plan(format!("ATTACK {} FROM {}", t(to), t(from)), plan, *general),
        Order::Sail {
            armies,
            from,
            to,
            dice,
            general,
        } => {
            let plan = AttackPlan {
                dice: *dice,
                ..AttackPlan::default()
            };
            with_plan(
                format!("SAIL {armies} FROM {} TO {}", t(from), t(to)),
                &plan,
                *general,
            )
        }
        Order::End => "END".into(),
        Order::Occupy(OccupyWhat::All) => "OCCUPY ALL".into(),
        Order::Occupy(OccupyWhat::Pass) => "PASS".into(),
        Order::Occupy(OccupyWhat::One { t: x, from: None }) => format!("OCCUPY {}", t(x)),
        Order::Occupy(OccupyWhat::One {
            t: x,
            from: Some(f),
        }) => {
            format!("OCCUPY {} FROM {}", t(x), t(f))
        }
        Order::Annex { t: x, from: None } => format!("ANNEX {}", t(x)),
        Order::Annex {
            t: x,
            from: Some(f),
        } => format!("ANNEX {} FROM {}", t(x), t(f)),
        Order::Defend {
            dice,
            marshal,
            reveal,
        } => {
            let mut s = format!("DEFEND {dice}");
            if *marshal {
                s.push_str(" MARSHAL");
            }
            if *reveal {
                s.push_str(" REVEAL");
            }
            s
        }
        Order::CounterSpy(true) => "COUNTERSPY".into(),
        Order::CounterSpy(false) => "NO COUNTERSPY".into(),
        Order::Set(s) => s.text(),
    }
}
