//! The Castle Risk order language: English keywords with French synonyms, forgiving names.
//! Every error says what is wrong and how to write it (docs/orders/castle-risk.md).

use crate::cards::Card;
use crate::game::{CastleRisk, MarshalPolicy, OccupyWhat, RevealPolicy, SetOrder, T};
use crate::map::map;
use crate::text::{kw, name_error_fr, oe, tn, Hints};
use castellan_engine::assault::AttackPlan;
use castellan_engine::names::{normalize, Names};
use castellan_engine::{Lang, OrderError, Seat};
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
    let board = &map().board;
    board.resolve(s).or_else(|e| {
        strip_article(s)
            .and_then(|rest| board.resolve(rest).ok())
            .ok_or_else(|| {
                OrderError::new(e.to_string())
                    .hint(hint.to_string())
                    .fr(name_error_fr(&e))
                    .hint_fr(hint_fr.to_string())
            })
    })
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
        oe(e.to_string(), name_error_fr(&e)).hints(
            format!("{}; the players are {all}", hint.0),
            format!("{} ; les joueurs sont {all}", hint.1),
        )
    })?;
    if s == seat {
        return Err(oe(
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
            oe(
                format!("a number is missing after {}", what.0),
                format!("il manque un nombre après {}", what.1),
            )
            .hints(hint.0, hint.1)
        })
}

pub fn parse(g: &CastleRisk, seat: Seat, line: &str) -> Result<Order, OrderError> {
    let ws = words(line);
    let Some(first) = ws.first() else {
        return Err(oe("empty order", "ordre vide").hints("write: END", "écrivez : FIN"));
    };
    let rest = &ws[1..];
    let rest_text = join(rest);
    match first.1.as_str() {
        "CASTLE" => Ok(Order::Castle(tres(
            &rest_text,
            "write: CASTLE Paris",
            "écrivez : CHÂTEAU Paris",
        )?)),
        "CLAIM" => Ok(Order::Claim(tres(
            &rest_text,
            "write: CLAIM Livonia",
            "écrivez : PRENDRE Livonie",
        )?)),
        "RANK" => {
            if rest.is_empty() || rest_text.eq_ignore_ascii_case("any") {
                return Ok(Order::Rank(vec![]));
            }
            Ok(Order::Rank(territory_list(&rest_text)?))
        }
        "PLACE" => Ok(Order::Place(placements(&rest_text)?)),
        "HIDE" => Ok(Order::Hide(tres(
            &rest_text,
            "write: HIDE Livonia",
            "écrivez : CACHER Livonie",
        )?)),
        "REINFORCE" => {
            let n = match rest.first() {
                None => 1,
                Some(_) => number(
                    rest.first(),
                    ("REINFORCE", "RENFORT"),
                    (
                        "write: REINFORCE 2 (the number of cards)",
                        "écrivez : RENFORT 2 (le nombre de cartes)",
                    ),
                )?,
            };
            Ok(Order::Reinforce(n))
        }
        "TRUCE" => Ok(Order::Truce(player(
            g,
            seat,
            &rest_text,
            ("write: TRUCE Bob", "écrivez : TRÊVE Bob"),
        )?)),
        "SPY" => parse_spy(g, seat, rest),
        "REVEAL" => {
            if rest.is_empty() {
                Ok(Order::Reveal(None))
            } else {
                Ok(Order::Reveal(Some(tres(
                    &rest_text,
                    "write: REVEAL Livonia",
                    "écrivez : DÉVOILER Livonie",
                )?)))
            }
        }
        "ATTACK" => parse_attack(rest),
        "SAIL" => parse_sail(rest),
        "END" => {
            let turn = |w: &(String, String)| matches!(normalize(&w.0).as_str(), "turn" | "tour");
            if !(rest.is_empty() || (rest.len() == 1 && turn(&rest[0]))) {
                return Err(oe("END takes nothing after it", "rien ne suit FIN")
                    .hints("write: END", "écrivez : FIN"));
            }
            Ok(Order::End)
        }
        "PASS" => Ok(Order::Occupy(OccupyWhat::Pass)),
        "OCCUPY" => parse_occupy(rest),
        "ANNEX" => {
            let (t, from) = target_from(
                rest,
                "write: ANNEX Livonia FROM Poland",
                "écrivez : ANNEXER Livonie DEPUIS Pologne",
            )?;
            Ok(Order::Annex { t, from })
        }
        "DEFEND" => parse_defend(rest),
        "COUNTERSPY" => Ok(Order::CounterSpy(!matches!(
            rest.first().map(|w| w.1.as_str()),
            Some("NO") | Some("NEVER")
        ))),
        "NO" if no_counterspy(rest) => Ok(Order::CounterSpy(false)),
        "SET" => parse_set(rest),
        other => Err(oe(
            format!("\"{other}\" is not an order I know"),
            format!("« {} » n'est pas un ordre que je connais", first.0),
        )
        .hints(
            "orders: ATTACK, SAIL, REINFORCE, TRUCE, SPY, REVEAL, PLACE, END, SET ... (send HELP for the list)",
            "ordres : ATTAQUE, AMIRAL, RENFORT, TRÊVE, ESPION, DÉVOILER, PLACER, FIN, CONSIGNE ... (envoyez HELP pour la liste)",
        )
        .not_an_order()),
    }
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
    let target = player(
        g,
        seat,
        &join(&rest[..cut]),
        (
            "write: SPY Bob DISCARD Admiral, General",
            "écrivez : ESPION Bob DÉFAUSSER Amiral, Général",
        ),
    )?;
    let mut prefer = Vec::new();
    if cut < rest.len() {
        let list = join(&rest[cut + 1..]);
        for c in list.split([',', ';', ' ']) {
            let c = c.trim();
            if c.is_empty() || matches!(keyword(c).as_str(), "THEN" | "AND" | "OR" | "ET" | "OU") {
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

fn parse_occupy(rest: &[(String, String)]) -> Result<Order, OrderError> {
    if rest.len() == 1 && rest[0].1 == "ALL" {
        return Ok(Order::Occupy(OccupyWhat::All));
    }
    if rest.len() == 1 && rest[0].1 == "NONE" {
        return Ok(Order::Occupy(OccupyWhat::Pass));
    }
    let (t, from) = target_from(
        rest,
        "write: OCCUPY Livonia FROM Poland",
        "écrivez : OCCUPER Livonie DEPUIS Pologne",
    )?;
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
                return Err(oe(
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
/// or French (the engine's `parse_territory_list`, with French errors).
fn territory_list(text: &str) -> Result<Vec<T>, OrderError> {
    let parts: Vec<&str> = if text.contains(',') || text.contains(';') {
        text.split([',', ';']).collect()
    } else {
        text.split_whitespace().collect()
    };
    let mut out = Vec::new();
    for p in parts.iter().map(|p| p.trim()).filter(|p| !p.is_empty()) {
        let t = tres(
            p,
            "separate territories with commas: Livonia, Poland, Moscow",
            "séparez les territoires par des virgules : Livonie, Pologne, Moscou",
        )?;
        if out.contains(&t) {
            return Err(oe(
                format!("{} is listed twice", map().board.name(t)),
                format!("{} est nommé deux fois", tn(t, Lang::Fr)),
            ));
        }
        out.push(t);
    }
    if out.is_empty() {
        return Err(oe("no territory given", "aucun territoire donné").hints(
            "name territories separated by commas",
            "nommez des territoires séparés par des virgules",
        ));
    }
    Ok(out)
}

/// Placements like "5 Livonia, 3 Poland" (or "Livonia 5"), English or French names.
fn placements(text: &str) -> Result<Vec<(T, u32)>, OrderError> {
    let hint = (
        "write the armies then the territory, separated by commas: 5 Livonia, 3 Poland",
        "écrivez les armées puis le territoire, séparés par des virgules : 5 Livonie, 3 Pologne",
    );
    castellan_engine::claim::parse_placements_with(text, hint, |name| tres(name, hint.0, hint.1))
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

/// Where the plan starts, the General (`GENERAL`, `GENERAL AGAIN`, `GENERAL ONCE`) and the
/// plan's words.
fn split_plan(ws: &[(String, String)]) -> (usize, bool, Option<bool>, Vec<String>) {
    let cut = ws
        .iter()
        .position(|w| PLAN_WORDS.contains(&w.1.as_str()))
        .unwrap_or(ws.len());
    let mut general = false;
    let mut again = None;
    let mut plan = Vec::new();
    for w in &ws[cut..] {
        match w.1.as_str() {
            "GENERAL" => general = true,
            "AGAIN" if general => again = Some(true),
            "ONCE" if general => again = Some(false),
            _ => plan.push(w.1.clone()),
        }
    }
    (cut, general, again, plan)
}

/// The engine's attack plan, with its errors in French too.
fn plan(words: &[String]) -> Result<AttackPlan, OrderError> {
    let pw: Vec<&str> = words.iter().map(|s| s.as_str()).collect();
    AttackPlan::parse(&pw).map_err(|(m, h)| {
        OrderError::new(m.clone())
            .hint(h)
            .fr(plan_error_fr(&m))
            .hint_fr(PLAN_HOW_FR)
    })
}

const PLAN_HOW_FR: &str = "après les territoires écrivez JUSQU'À CONQUÊTE, JUSQU'À 3 RESTANTS, POUR 2 LANCERS, AVEC 2 DÉS, PUIS DÉPLACER 4, DÉPLACER TOUT ou LAISSER 2";

/// The French of the engine's attack-plan errors (assault.rs), read from the English.
fn plan_error_fr(m: &str) -> String {
    if let Some(w) = m.strip_prefix("a number is missing after ") {
        return format!("il manque un nombre après {}", kw(Lang::Fr, w));
    }
    if let Some(n) = m
        .strip_prefix("UNTIL ")
        .and_then(|r| r.strip_suffix(" must be followed by LEFT"))
    {
        return format!("JUSQU'À {n} doit être suivi de RESTANTS");
    }
    if m.starts_with("UNTIL needs") {
        return "JUSQU'À demande CONQUÊTE ou un nombre d'armées RESTANTS".into();
    }
    if m.starts_with("FOR 0 ROLLS") {
        return "POUR 0 LANCERS n'attaquerait pas du tout".into();
    }
    if let Some(n) = m.strip_suffix(" dice: an attacker rolls 1 to 3 dice") {
        return format!("{n} dés : l'attaquant lance de 1 à 3 dés");
    }
    if let Some(w) = m
        .strip_prefix("I do not understand \"")
        .and_then(|r| r.strip_suffix("\" in an attack"))
    {
        return format!(
            "je ne comprends pas « {} » dans une attaque",
            kw(Lang::Fr, w)
        );
    }
    "je ne comprends pas la fin de cette attaque".into()
}

fn parse_attack(rest: &[(String, String)]) -> Result<Order, OrderError> {
    let Some(fi) = rest.iter().position(|w| w.1 == "FROM") else {
        return Err(oe(
            "say where the attack comes from",
            "dites d'où part l'attaque",
        )
        .hints(ATTACK_HINT, ATTACK_HINT_FR));
    };
    let to = tres(&join(&rest[..fi]), ATTACK_HINT, ATTACK_HINT_FR)?;
    let after = &rest[fi + 1..];
    let (cut, general, again, plan_words) = split_plan(after);
    let from = tres(&join(&after[..cut]), ATTACK_HINT, ATTACK_HINT_FR)?;
    let plan = plan(&plan_words)?;
    Ok(Order::Attack {
        to,
        from,
        plan,
        general,
        again,
    })
}

fn parse_sail(rest: &[(String, String)]) -> Result<Order, OrderError> {
    let hint = (
        "write: SAIL 6 FROM Marseille TO Naples",
        "écrivez : AMIRAL 6 DEPUIS Marseille VERS Naples",
    );
    let armies = number(
        rest.first(),
        (
            "SAIL (the armies that board)",
            "AMIRAL (les armées qui embarquent)",
        ),
        hint,
    )?;
    let r = &rest[1..];
    let r = if matches!(
        r.first().map(|w| normalize(&w.0)).as_deref(),
        Some("armies" | "armees")
    ) {
        &r[1..]
    } else {
        r
    };
    if r.first().map(|w| w.1.as_str()) != Some("FROM") {
        return Err(oe(
            "say the port the armies board at",
            "dites le port où les armées embarquent",
        )
        .hints(hint.0, hint.1));
    }
    let Some(ti) = r.iter().position(|w| w.1 == "TO") else {
        return Err(oe(
            "say the territory attacked by sea",
            "dites le territoire attaqué par la mer",
        )
        .hints(hint.0, hint.1));
    };
    let from = tres(&join(&r[1..ti]), hint.0, hint.1)?;
    let after = &r[ti + 1..];
    let (cut, general, again, pw) = split_plan(after);
    let to = tres(&join(&after[..cut]), hint.0, hint.1)?;
    let plan = plan(&pw)?;
    if plan.until != castellan_engine::assault::Until::Conquered
        || plan.move_in != castellan_engine::assault::MoveIn::Least
    {
        return Err(oe(
            "an Admiral's attack goes on to the end and every survivor lands",
            "l'attaque d'un Amiral va jusqu'au bout et tous les survivants débarquent",
        )
        .hints(
            "only WITH n DICE and GENERAL may follow: SAIL 6 FROM Marseille TO Naples WITH 2 DICE",
            "seuls AVEC n DÉS et GÉNÉRAL peuvent suivre : AMIRAL 6 DEPUIS Marseille VERS Naples AVEC 2 DÉS",
        ));
    }
    Ok(Order::Sail {
        armies,
        from,
        to,
        dice: plan.dice,
        general,
        again,
    })
}

fn set_policy_err(en: &str, fr: &str, hint_en: &str, hint_fr: &str) -> OrderError {
    oe(en, fr).hints(hint_en, hint_fr)
}

fn parse_set(rest: &[(String, String)]) -> Result<Order, OrderError> {
    let hint = (
        "write: SET DEFEND 2, SET MARSHAL WHEN 3+, SET COUNTERSPY ALWAYS, SET REVEAL ON ATTACK, SET ANNEX AUTO, SET REOCCUPY ALL",
        "écrivez : CONSIGNE DÉFENDRE 2, CONSIGNE MARÉCHAL QUAND 3+, CONSIGNE CONTRE-ESPION TOUJOURS, CONSIGNE DÉVOILER SUR ATTAQUE, CONSIGNE ANNEXER AUTO, CONSIGNE RÉOCCUPER TOUT",
    );
    let Some(what) = rest.first() else {
        return Err(oe("SET what?", "CONSIGNE pour quoi ?").hints(hint.0, hint.1));
    };
    let args = &rest[1..];
    let a0 = args.first().map(|w| w.1.as_str());
    let when_n = |args: &[(String, String)]| -> Result<u32, OrderError> {
        number(args.get(1), ("WHEN", "QUAND"), hint)
    };
    let s = match what.1.as_str() {
        "DEFEND" => SetOrder::Defend(number(
            args.first(),
            ("SET DEFEND", "CONSIGNE DÉFENDRE"),
            ("write: SET DEFEND 2", "écrivez : CONSIGNE DÉFENDRE 2"),
        )?),
        "MARSHAL" => SetOrder::Marshal(match a0 {
            Some("ALWAYS") => MarshalPolicy::Always,
            Some("NEVER") | Some("NO") => MarshalPolicy::Never,
            Some("WHEN") => MarshalPolicy::When(when_n(args)?.max(1)),
            _ => {
                return Err(set_policy_err(
                    "SET MARSHAL needs ALWAYS, NEVER or WHEN n+",
                    "CONSIGNE MARÉCHAL demande TOUJOURS, JAMAIS ou QUAND n+",
                    "write: SET MARSHAL WHEN 3+",
                    "écrivez : CONSIGNE MARÉCHAL QUAND 3+",
                ))
            }
        }),
        "COUNTERSPY" => SetOrder::CounterSpy(match a0 {
            Some("ALWAYS") => true,
            Some("NEVER") | Some("NO") => false,
            _ => {
                return Err(set_policy_err(
                    "SET COUNTERSPY needs ALWAYS or NEVER",
                    "CONSIGNE CONTRE-ESPION demande TOUJOURS ou JAMAIS",
                    "write: SET COUNTERSPY ALWAYS",
                    "écrivez : CONSIGNE CONTRE-ESPION TOUJOURS",
                ))
            }
        }),
        "REVEAL" => SetOrder::Reveal(match a0 {
            Some("NEVER") | Some("NO") => RevealPolicy::Never,
            Some("ON") | Some("ALWAYS") => RevealPolicy::OnAttack(1),
            Some("WHEN") => RevealPolicy::OnAttack(when_n(args)?.max(1)),
            _ => {
                return Err(set_policy_err(
                    "SET REVEAL needs ON ATTACK, NEVER or WHEN n+",
                    "CONSIGNE DÉVOILER demande SUR ATTAQUE, JAMAIS ou QUAND n+",
                    "write: SET REVEAL ON ATTACK",
                    "écrivez : CONSIGNE DÉVOILER SUR ATTAQUE",
                ))
            }
        }),
        "ANNEX" => match a0 {
            Some("AUTO") | None => SetOrder::Annex(vec![]),
            _ => SetOrder::Annex(territory_list(&join(args))?),
        },
        "REOCCUPY" | "OCCUPY" => SetOrder::Reoccupy(match a0 {
            Some("ALL") => Some(true),
            Some("NONE") | Some("NEVER") => Some(false),
            Some("ASK") => None,
            _ => {
                return Err(set_policy_err(
                    "SET REOCCUPY needs ALL, NONE or ASK",
                    "CONSIGNE RÉOCCUPER demande TOUT, AUCUN ou DEMANDER",
                    "write: SET REOCCUPY ALL",
                    "écrivez : CONSIGNE RÉOCCUPER TOUT",
                ))
            }
        }),
        "GENERAL" => SetOrder::General(match a0 {
            Some("AGAIN") => true,
            Some("ONCE") => false,
            _ => {
                return Err(set_policy_err(
                    "SET GENERAL needs AGAIN or ONCE",
                    "CONSIGNE GÉNÉRAL demande ENCORE ou SEUL",
                    "write: SET GENERAL AGAIN (another General when one is beaten) or SET GENERAL ONCE",
                    "écrivez : CONSIGNE GÉNÉRAL ENCORE (un autre Général quand l'un est battu) ou CONSIGNE GÉNÉRAL SEUL",
                ))
            }
        }),
        "ASK" => SetOrder::Ask,
        other => {
            return Err(oe(
                format!("there is no standing order \"{other}\""),
                format!("il n'y a pas de consigne « {} »", what.0),
            )
            .hints(hint.0, hint.1))
        }
    };
    Ok(Order::Set(s))
}

/// The order as a player writes it; `parse(order_text(o)) == o`.
pub fn order_text(g: &CastleRisk, o: &Order) -> String {
    order_text_in(g, o, Lang::En)
}

/// The attack plan as written in `lang` (empty for the default).
pub fn plan_text(plan: &AttackPlan, lang: Lang) -> String {
    crate::text::kw_line(lang, &plan.text())
}

/// The order as a reader of `lang` writes it (French keywords and names in French);
/// `parse(order_text_in(o, lang)) == o` in both languages.
pub fn order_text_in(g: &CastleRisk, o: &Order, lang: Lang) -> String {
    let t = |t: &T| tn(*t, lang).to_string();
    let k = |w: &'static str| kw(lang, w);
    let with_plan = |base: String, plan: &AttackPlan, general: bool, again: Option<bool>| {
        let mut s = base;
        let p = plan_text(plan, lang);
        if !p.is_empty() {
            s.push(' ');
            s.push_str(&p);
        }
        if general {
            s.push(' ');
            s.push_str(k("GENERAL"));
            match again {
                Some(true) => s.push_str(&format!(" {}", k("AGAIN"))),
                Some(false) => s.push_str(&format!(" {}", k("ONCE"))),
                None => {}
            }
        }
        s
    };
    let list = |l: &[T]| l.iter().map(t).collect::<Vec<_>>().join(", ");
    match o {
        Order::Castle(x) => format!("{} {}", k("CASTLE"), t(x)),
        Order::Claim(x) => format!("{} {}", k("CLAIM"), t(x)),
        Order::Rank(l) if l.is_empty() => k("RANK").into(),
        Order::Rank(l) => format!("{} {}", k("RANK"), list(l)),
        Order::Place(p) => format!(
            "{} {}",
            k("PLACE"),
            p.iter()
                .map(|(x, n)| format!("{n} {}", t(x)))
                .collect::<Vec<_>>()
                .join(", ")
        ),
        Order::Hide(x) => format!("{} {}", k("HIDE"), t(x)),
        Order::Reinforce(n) => format!("{} {n}", k("REINFORCE")),
        Order::Truce(s) => format!("{} {}", k("TRUCE"), g.name(*s)),
        Order::Spy { target, prefer } if prefer.is_empty() => {
            format!("{} {}", k("SPY"), g.name(*target))
        }
        Order::Spy { target, prefer } => format!(
            "{} {} {} {}",
            k("SPY"),
            g.name(*target),
            k("DISCARD"),
            prefer
                .iter()
                .map(|c| c.name_in(lang))
                .collect::<Vec<_>>()
                .join(", ")
        ),
        Order::Reveal(None) => k("REVEAL").into(),
        Order::Reveal(Some(x)) => format!("{} {}", k("REVEAL"), t(x)),
        Order::Attack {
            to,
            from,
            plan,
            general,
            again,
        } => with_plan(
            format!("{} {} {} {}", k("ATTACK"), t(to), k("FROM"), t(from)),
            plan,
            *general,
            *again,
        ),
        Order::Sail {
            armies,
            from,
            to,
            dice,
            general,
            again,
        } => {
            let plan = AttackPlan {
                dice: *dice,
                ..AttackPlan::default()
            };
            with_plan(
                format!(
                    "{} {armies} {} {} {} {}",
                    k("SAIL"),
                    k("FROM"),
                    t(from),
                    k("TO"),
                    t(to)
                ),
                &plan,
                *general,
                *again,
            )
        }
        Order::End => k("END").into(),
        Order::Occupy(OccupyWhat::All) => format!("{} {}", k("OCCUPY"), k("ALL")),
        Order::Occupy(OccupyWhat::Pass) => k("PASS").into(),
        Order::Occupy(OccupyWhat::One { t: x, from: None }) => format!("{} {}", k("OCCUPY"), t(x)),
        Order::Occupy(OccupyWhat::One {
            t: x,
            from: Some(f),
        }) => format!("{} {} {} {}", k("OCCUPY"), t(x), k("FROM"), t(f)),
        Order::Annex { t: x, from: None } => format!("{} {}", k("ANNEX"), t(x)),
        Order::Annex {
            t: x,
            from: Some(f),
        } => format!("{} {} {} {}", k("ANNEX"), t(x), k("FROM"), t(f)),
        Order::Defend {
            dice,
            marshal,
            reveal,
        } => {
            let mut s = format!("{} {dice}", k("DEFEND"));
            if *marshal {
                s.push(' ');
                s.push_str(k("MARSHAL"));
            }
            if *reveal {
                s.push(' ');
                s.push_str(k("REVEAL"));
            }
            s
        }
        Order::CounterSpy(true) => k("COUNTERSPY").into(),
        Order::CounterSpy(false) => k("NO COUNTERSPY").into(),
        Order::Set(s) => s.text_in(lang),
    }
}
