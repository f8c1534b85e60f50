//! The Castle Risk order language: English keywords with French synonyms, forgiving names.
//! Every error says what is wrong and how to write it (docs/orders/castle-risk.md).

use crate::cards::Card;
use crate::game::{CastleRisk, MarshalPolicy, OccupyWhat, RevealPolicy, SetOrder, T};
use crate::map::map;
use crate::words::{kw, name_error_fr, tn};
use castellan_engine::assault::{self, AttackPlan, PlanError};
use castellan_engine::names::{normalize, NameError, Names};
use castellan_engine::words::{refusal, Hints};
use castellan_engine::{Lang, OrderError, Seat};
use serde::{Deserialize, Serialize};

mod attack;
mod french;
pub(crate) mod hint;
mod set;
mod write;

pub(crate) use attack::attack_hint_now;
use attack::{parse_attack, parse_sail};
pub use french::reads_as_french;
use set::parse_set;
pub use set::parse_standing;
pub use write::{order_text, order_text_in, plan_text};

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
        /// `GENERAL AGAIN` (`Some(true)`): when the General is beaten, play another from
        /// the hand in the same attack; `GENERAL ONCE` (`Some(false)`): go on without;
        /// `None`: the seat's standing order (`SET GENERAL`), else ONCE.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        again: Option<bool>,
    },
    /// Admiral: `armies` board at `from` and attack `to` by sea, to the end.
    Sail {
        armies: u32,
        from: T,
        to: T,
        dice: Option<u32>,
        general: bool,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        again: Option<bool>,
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
const ATTACK_HINT_FR: &str = "écrivez : ATTAQUE Livonie DEPUIS Pologne JUSQU'À CONQUÊTE";

/// A territory named in an order, English or French; a French article before the name is
/// dropped ("la Pologne", "l'Irlande").
/// A territory named by a player (forgiving, either language), for MAP / NEIGHBOURS.
pub fn territory(name: &str) -> Result<T, OrderError> {
    tres(
        name.trim(),
        "write: MAP Prussia (a territory's name)",
        "écrivez : CARTE Prusse (le nom d'un territoire)",
    )
}

fn tres(s: &str, hint: &str, hint_fr: &str) -> Result<T, OrderError> {
    resolve(s).map_err(|e| name_refused(&e, hint, hint_fr))
}

/// A territory named in either language, a French article before it dropped.
fn resolve(s: &str) -> Result<T, NameError> {
    let board = &map().board;
    board.resolve(s).or_else(|e| {
        strip_article(s)
            .and_then(|rest| board.resolve(rest).ok())
            .ok_or(e)
    })
}

/// A name that did not resolve, refused in both languages with the hint given.
fn name_refused(e: &NameError, hint: &str, hint_fr: &str) -> OrderError {
    OrderError::new(e.to_string())
        .hint(hint.to_string())
        .fr(name_error_fr(e))
        .hint_fr(hint_fr.to_string())
}

fn strip_article(s: &str) -> Option<&str> {
    let s = s.trim();
    for a in [
        "le ", "la ", "les ", "l'", "l’", "Le ", "La ", "Les ", "L'", "L’",
    ] {
        if let Some(rest) = s.strip_prefix(a) {
            return Some(rest);
        }
    }
    None
}

/// French (and other) synonyms of keywords, mapped to the English keyword.
fn keyword(w: &str) -> String {
    let n = normalize(w);
    let k = match n.as_str() {
        "chateau" => "CASTLE",
        "claim" | "prendre" | "prends" | "reclamer" => "CLAIM",
        "rank" | "ranking" | "classement" | "classer" | "liste" => "RANK",
        "place" | "placer" | "placement" => "PLACE",
        "hide" | "cacher" | "cache" => "HIDE",
        "reinforce" | "renfort" | "renforts" | "renforcer" => "REINFORCE",
        "truce" | "diplomat" | "treve" | "diplomate" => "TRUCE",
        "spy" | "espion" | "espionner" => "SPY",
        "reveal" | "reveler" | "devoiler" => "REVEAL",
        "attack" | "attaque" | "attaquer" => "ATTACK",
        "sail" | "admiral" | "amiral" => "SAIL",
        "end" | "fin" | "done" | "endturn" | "terminer" => "END",
        "occupy" | "occuper" | "reoccupy" | "reoccuper" => "OCCUPY",
        "pass" | "passe" | "passer" => "PASS",
        "annex" | "annexer" => "ANNEX",
        "defend" | "defendre" | "defense" | "defence" => "DEFEND",
        "counterspy" | "contreespion" => "COUNTERSPY",
        "set" | "regle" | "consigne" => "SET",
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
        "move" | "deplacer" | "deplace" | "bouger" => "MOVE",
        "all" | "tout" | "tous" => "ALL",
        "leave" | "laisser" => "LEAVE",
        "general" => "GENERAL",
        "again" | "encore" => "AGAIN",
        "once" | "seul" => "ONCE",
        "marshal" | "marechal" | "marshall" => "MARSHAL",
        "discard" | "defausser" | "jeter" => "DISCARD",
        "no" | "non" | "pas" | "sans" => "NO",
        "always" | "toujours" => "ALWAYS",
        "never" | "jamais" => "NEVER",
        "when" | "quand" | "si" => "WHEN",
        "on" | "sur" => "ON",
        "auto" => "AUTO",
        "ask" | "demander" => "ASK",
        "none" | "aucun" | "aucune" => "NONE",
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

fn player(g: &CastleRisk, seat: Seat, name: &str, hint: (&str, &str)) -> Result<Seat, OrderError> {
    let mut n = Names::new();
    for (i, p) in g.players.iter().enumerate() {
        n.add(&p.name, i);
    }
    let all = g
        .players
        .iter()
        .map(|p| p.name.as_str())
        .collect::<Vec<_>>()
        .join(", ");
    let s = n.resolve(name).map_err(|e| {
        refusal(e.to_string(), name_error_fr(&e)).hints(
            format!("{}; the players are {all}", hint.0),
            format!("{} ; les joueurs sont {all}", hint.1),
        )
    })?;
    if s == seat {
        return Err(refusal(
            "name another player, not yourself",
            "nommez un autre joueur que vous-même",
        )
        .hints(hint.0, hint.1));
    }
    Ok(s)
}

fn number(
    w: Option<&(String, String)>,
    what: (&str, &str),
    hint: (&str, &str),
) -> Result<u32, OrderError> {
    w.and_then(|w| w.0.trim_end_matches('+').parse::<u32>().ok())
        .ok_or_else(|| {
            refusal(
                format!("a number is missing after {}", what.0),
                format!("il manque un nombre après {}", what.1),
            )
            .hints(hint.0, hint.1)
        })
}

pub fn parse(g: &CastleRisk, seat: Seat, line: &str) -> Result<Order, OrderError> {
    let ws = words(line);
    let Some(first) = ws.first() else {
        return Err(refusal("empty order", "ordre vide").hints("write: END", "écrivez : FIN"));
    };
    let rest = &ws[1..];
    let rest_text = join(rest);
    match first.1.as_str() {
        "CASTLE" => {
            let (en, fr) = hint::castle_hint(g, seat);
            Ok(Order::Castle(tres(&rest_text, &en, &fr)?))
        }
        "CLAIM" => {
            let (en, fr) = hint::claim_hint(g);
            Ok(Order::Claim(tres(&rest_text, &en, &fr)?))
        }
        "RANK" => {
            if rest.is_empty() || rest_text.eq_ignore_ascii_case("any") {
                return Ok(Order::Rank(vec![]));
            }
            Ok(Order::Rank(
                territory_list(&rest_text).map_err(|e| as_meant(e, "RANK", &rest_text))?,
            ))
        }
        "PLACE" => Ok(Order::Place(placements(g, seat, &rest_text)?)),
        "HIDE" => {
            let (en, fr) = hint::hide_hint(g, seat);
            Ok(Order::Hide(tres(&rest_text, &en, &fr)?))
        }
        "REINFORCE" => parse_reinforce(g, seat, rest),
        "TRUCE" => {
            let other = hint::other_player(g, seat).unwrap_or("Bob");
            let (en, fr) = (
                format!("write: TRUCE {other}"),
                format!("écrivez : TRÊVE {other}"),
            );
            Ok(Order::Truce(player(g, seat, &rest_text, (&en, &fr))?))
        }
        "SPY" => parse_spy(g, seat, rest),
        "REVEAL" => parse_reveal(g, seat, rest),
        "ATTACK" => parse_attack(g, seat, rest),
        "SAIL" => parse_sail(g, seat, rest),
        "END" => parse_end(rest),
        "PASS" => Ok(Order::Occupy(OccupyWhat::Pass)),
        "OCCUPY" => parse_occupy(g, seat, rest),
        "ANNEX" => {
            let (en, fr) = hint::annex_hint(g, seat);
            let (t, from) = target_from(rest, &en, &fr)?;
            Ok(Order::Annex { t, from })
        }
        "DEFEND" => parse_defend(rest),
        "COUNTERSPY" => Ok(Order::CounterSpy(!matches!(
            rest.first().map(|w| w.1.as_str()),
            Some("NO") | Some("NEVER")
        ))),
        "NO" if no_counterspy(rest) => Ok(Order::CounterSpy(false)),
        "SET" => parse_set(rest).map(Order::Set),
        other => Err(unknown_order(other, &first.0)),
    }
}

/// An order word this game does not know (`other` as read, `written` as written).
fn unknown_order(other: &str, written: &str) -> OrderError {
    refusal(
        format!("\"{other}\" is not an order I know"),
        format!("« {written} » n'est pas un ordre que je connais"),
    )
    .hints(
        "orders: ATTACK, SAIL, REINFORCE, TRUCE, SPY, REVEAL, PLACE, END, SET ... (send HELP for the list)",
        "ordres : ATTAQUE, AMIRAL, RENFORT, TRÊVE, ESPION, DÉVOILER, PLACER, FIN, CONSIGNE ... (envoyez HELP pour la liste)",
    )
    .not_an_order()
}

/// "REINFORCE" (one card) or "REINFORCE 2".
fn parse_reinforce(
    g: &CastleRisk,
    seat: Seat,
    rest: &[(String, String)],
) -> Result<Order, OrderError> {
    let held = g.players[seat]
        .hand
        .iter()
        .filter(|c| **c == Card::Reinforcements)
        .count()
        .max(1);
    let n = match rest.first() {
        None => 1,
        Some(_) => number(
            rest.first(),
            ("REINFORCE", "RENFORT"),
            (
                &format!("write: REINFORCE {held} (the number of cards)"),
                &format!("écrivez : RENFORT {held} (le nombre de cartes)"),
            ),
        )?,
    };
    Ok(Order::Reinforce(n))
}

/// "REVEAL" (the answer to a Spy) or "REVEAL Livonia".
fn parse_reveal(
    g: &CastleRisk,
    seat: Seat,
    rest: &[(String, String)],
) -> Result<Order, OrderError> {
    if rest.is_empty() {
        return Ok(Order::Reveal(None));
    }
    let (en, fr) = hint::reveal_hint(g, seat);
    Ok(Order::Reveal(Some(tres(&join(rest), &en, &fr)?)))
}

/// "END" or "END TURN" ("FIN", "FIN TOUR"), nothing else after it.
fn parse_end(rest: &[(String, String)]) -> Result<Order, OrderError> {
    let turn = |w: &(String, String)| matches!(normalize(&w.0).as_str(), "turn" | "tour");
    if !(rest.is_empty() || (rest.len() == 1 && turn(&rest[0]))) {
        return Err(refusal("END takes nothing after it", "rien ne suit FIN")
            .hints("write: END", "écrivez : FIN"));
    }
    Ok(Order::End)
}

/// "NO COUNTERSPY", "PAS DE CONTRE-ESPION".
fn no_counterspy(rest: &[(String, String)]) -> bool {
    let r: Vec<&(String, String)> = rest.iter().filter(|w| normalize(&w.0) != "de").collect();
    r.first().map(|w| w.1.as_str()) == Some("COUNTERSPY")
}

fn parse_spy(g: &CastleRisk, seat: Seat, rest: &[(String, String)]) -> Result<Order, OrderError> {
    let cut = rest
        .iter()
        .position(|w| w.1 == "DISCARD")
        .unwrap_or(rest.len());
    let other = hint::other_player(g, seat).unwrap_or("Bob");
    let target = player(
        g,
        seat,
        &join(&rest[..cut]),
        (
            &format!("write: SPY {other} DISCARD Admiral, General"),
            &format!("écrivez : ESPION {other} DÉFAUSSER Amiral, Général"),
        ),
    )?;
    let mut prefer = Vec::new();
    let mut errors = Vec::new();
    if cut < rest.len() {
        let list = join(&rest[cut + 1..]);
        for c in list.split([',', ';', ' ']) {
            let c = c.trim();
            if c.is_empty() || matches!(keyword(c).as_str(), "THEN" | "AND" | "OR" | "ET" | "OU") {
                continue;
            }
            match Card::parse(c) {
                Ok(card) if !prefer.contains(&card) => prefer.push(card),
                Ok(_) => {}
                // Every card name that does not read, at once.
                Err(e) => errors.push(e),
            }
        }
    }
    castellan_engine::words::all_of(errors)?;
    Ok(Order::Spy { target, prefer })
}

fn parse_occupy(
    g: &CastleRisk,
    seat: Seat,
    rest: &[(String, String)],
) -> Result<Order, OrderError> {
    if rest.len() == 1 && rest[0].1 == "ALL" {
        return Ok(Order::Occupy(OccupyWhat::All));
    }
    if rest.len() == 1 && rest[0].1 == "NONE" {
        return Ok(Order::Occupy(OccupyWhat::Pass));
    }
    let (en, fr) = hint::occupy_hint(g, seat);
    let (t, from) = target_from(rest, &en, &fr)?;
    Ok(Order::Occupy(OccupyWhat::One { t, from }))
}

fn parse_defend(rest: &[(String, String)]) -> Result<Order, OrderError> {
    let hint = (
        "write: DEFEND 2 (or DEFEND 2 MARSHAL, DEFEND 1 REVEAL)",
        "écrivez : DÉFENDRE 2 (ou DÉFENDRE 2 MARÉCHAL, DÉFENDRE 1 DÉVOILER)",
    );
    let dice = number(rest.first(), ("DEFEND", "DÉFENDRE"), hint)?;
    let mut marshal = false;
    let mut reveal = false;
    for w in rest.iter().skip(1) {
        match w.1.as_str() {
            "MARSHAL" => marshal = true,
            "REVEAL" => reveal = true,
            "WITH" | "AND" | "DICE" | "ET" => {}
            _ => {
                return Err(refusal(
                    format!("I do not understand \"{}\" in a defence", w.0),
                    format!("je ne comprends pas « {} » dans une défense", w.0),
                )
                .hints(hint.0, hint.1))
            }
        }
    }
    Ok(Order::Defend {
        dice,
        marshal,
        reveal,
    })
}

/// Territory names separated by commas (or one per word when no comma is given), English
/// or French (the engine's `territory_list`, with French errors).
fn territory_list(text: &str) -> Result<Vec<T>, OrderError> {
    castellan_engine::claim::territory_list(
        text,
        |p| {
            tres(
                p,
                "separate territories with commas: Livonia, Poland, Moscow",
                "séparez les territoires par des virgules : Livonie, Pologne, Moscou",
            )
        },
        |t| {
            refusal(
                format!("{} is listed twice", map().board.name(t)),
                format!("{} est nommé deux fois", tn(t, Lang::Fr)),
            )
        },
        || {
            refusal("no territory given", "aucun territoire donné").hints(
                "name territories separated by commas",
                "nommez des territoires séparés par des virgules",
            )
        },
    )
}

/// A refused list's hint: the line as it was likely meant ("write: RANK Livonia, Poland"),
/// each misspelt name replaced by what its error suggests; `e` as it is when none can be.
fn as_meant(e: OrderError, order: &str, text: &str) -> OrderError {
    let Some(meant) = castellan_engine::claim::list_as_meant(text, resolve) else {
        return e;
    };
    let line = |lang: Lang| {
        let names: Vec<&str> = meant.iter().map(|t| tn(*t, lang)).collect();
        format!("{} {}", kw(lang, order), names.join(", "))
    };
    e.write(line(Lang::En), line(Lang::Fr))
}

/// Placements like "5 Livonia, 3 Poland" (or "Livonia 5"), English or French names; the
/// hint's example the armies `seat` has to place and where ([`hint::place_example`]).
fn placements(g: &CastleRisk, seat: Seat, text: &str) -> Result<Vec<(T, u32)>, OrderError> {
    let (en, fr) = match hint::place_example(g, seat) {
        Some((n, t)) => (
            format!(
                "write: PLACE {n} {} (the armies, then the territory; several separated by commas)",
                tn(t, Lang::En)
            ),
            format!(
                "écrivez : PLACER {n} {} (les armées, puis le territoire ; plusieurs séparés par des virgules)",
                tn(t, Lang::Fr)
            ),
        ),
        None => (
            "write the armies then the territory, separated by commas: 5 Livonia, 3 Poland".into(),
            "écrivez les armées puis le territoire, séparés par des virgules : 5 Livonie, 3 Pologne".into(),
        ),
    };
    castellan_engine::claim::parse_placements_with(text, (&en, &fr), |name| tres(name, &en, &fr))
}

fn target_from(
    rest: &[(String, String)],
    hint: &str,
    hint_fr: &str,
) -> Result<(T, Option<T>), OrderError> {
    let cut = rest.iter().position(|w| w.1 == "FROM");
    match cut {
        Some(i) => Ok((
            tres(&join(&rest[..i]), hint, hint_fr)?,
            Some(tres(&join(&rest[i + 1..]), hint, hint_fr)?),
        )),
        None => Ok((tres(&join(rest), hint, hint_fr)?, None)),
    }
}
