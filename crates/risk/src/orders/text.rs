//! Orders written: each order as a line in either language's order words (it parses back
//! to the same order), the lines prompts offer, and the help (ORDERS).

use crate::cards::{Card, CardRef};
use crate::map;
use crate::*;
use castellan_engine::assault::AttackPlan;
use castellan_engine::board::TerritoryId;

/// The order help (ORDERS), in `lang`.
pub fn help(lang: Lang) -> String {
    lang.pick(HELP, HELP_FR).to_string()
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

pub const HELP_FR: &str = "\
Ordres de Risk (un par ligne ; les noms se lisent avec indulgence : majuscules, accents,
noms anglais ou français, début de nom unique ; les mots anglais des ordres valent aussi) :
  RÉCLAME Alaska                        réclamer un territoire libre (répartition à la table)
  CLASSE Australie orientale, Indonésie, Siam   liste par ordre de préférence (répartition par choix)
  PLACE 3 Alaska, 2 Pérou               placer des armées (mise en place ou renforts)
  PLACE 2 Alaska NEUTRE 1 Pérou         partie à 2 : deux armées à vous et une neutre
  QG Alaska                             choisir votre quartier général secret (partie courte)
  ÉCHANGE Alaska, Pérou, PASSE-PARTOUT  échanger une combinaison de trois cartes
  ATTAQUE Kamchatka DEPUIS Alaska [JUSQU'À CONQUÊTE | JUSQU'À 3 RESTANTES | POUR 2 LANCERS]
         [AVEC 2 DÉS] [DÉPLACE 5 | DÉPLACE TOUT | LAISSE 2] [RELANCE] [COMMANDANT]
  DÉFENDS 2                             répondre à une attaque qui attend vos dés
  FORTIFIE 4 DEPUIS Ontario VERS Québec déplacer des armées à la fin de votre tour
  FIN                                   finir votre tour (une carte si vous avez conquis)
  RÈGLE DÉFENSE 2 | RÈGLE DÉFENSE 1 | RÈGLE DÉFENSE DEMANDE   réponse permanente en défense
  RÈGLE NEUTRE 2 | RÈGLE NEUTRE 1 | RÈGLE NEUTRE DEMANDE      partie à 2 : défense des neutres";

fn placements_text(p: &Placements, l: Lang) -> String {
    p.iter()
        .map(|(t, k)| format!("{k} {}", map::name_in(*t, l)))
        .collect::<Vec<_>>()
        .join(", ")
}

fn policy_text(p: Policy, l: Lang) -> String {
    match p {
        Policy::Dice(n) => n.to_string(),
        Policy::Ask => l.pick("ASK", "DEMANDE").into(),
    }
}

/// The TRADE line for these cards, in `l`'s order words.
pub fn trade_text_in(cards: &[Card], l: Lang) -> String {
    let refs: Vec<CardRef> = cards.iter().map(|c| crate::cards::card_ref(*c)).collect();
    text_in(&Order::Trade(refs), l)
}

/// The canonical order line (English order words and names; stored and used by bots).
pub fn text(o: &Order) -> String {
    text_in(o, Lang::En)
}

/// An attack plan in French order words (the English is [`AttackPlan::text`]).
pub fn plan_text_fr(plan: &AttackPlan) -> String {
    use castellan_engine::assault::{MoveIn, Until};
    let mut parts = Vec::new();
    match plan.until {
        Until::Conquered => {}
        Until::Left(n) | Until::ArmiesLeft(n) => parts.push(format!("JUSQU'À {n} RESTANTES")),
        Until::Rolls(n) => parts.push(format!("POUR {n} LANCERS")),
    }
    if let Some(d) = plan.dice {
        parts.push(if d == 1 {
            "AVEC 1 DÉ".to_string()
        } else {
            format!("AVEC {d} DÉS")
        });
    }
    match plan.move_in {
        MoveIn::Least => {}
        MoveIn::All => parts.push("DÉPLACE TOUT".into()),
        MoveIn::Exactly(n) => parts.push(format!("DÉPLACE {n}")),
        MoveIn::Leave(n) => parts.push(format!("LAISSE {n}")),
    }
    parts.join(" ")
}

/// The ATTACK line a prompt offers: the plan said in full ("UNTIL CONQUERED").
pub fn attack_choice(to: TerritoryId, from: TerritoryId, l: Lang) -> String {
    match l {
        Lang::En => format!(
            "ATTACK {} FROM {} UNTIL CONQUERED",
            map::name(to),
            map::name(from)
        ),
        Lang::Fr => format!(
            "ATTAQUE {} DEPUIS {} JUSQU'À CONQUÊTE",
            map::name_in(to, l),
            map::name_in(from, l)
        ),
    }
}

/// An order line in `l`'s order words and names; every line parses back to the order.
pub fn text_in(o: &Order, l: Lang) -> String {
    let name = |t: &TerritoryId| map::name_in(*t, l);
    let kw = |en: &'static str, fr: &'static str| l.pick(en, fr);
    match o {
        Order::Claim(t) => format!("{} {}", kw("CLAIM", "RÉCLAME"), name(t)),
        Order::Rank(list) => format!(
            "{} {}",
            kw("RANK", "CLASSE"),
            list.iter().map(name).collect::<Vec<_>>().join(", ")
        ),
        Order::Place { own, neutral } => {
            let mut s = "PLACE".to_string();
            if !own.is_empty() {
                s += " ";
                s += &placements_text(own, l);
            }
            if !neutral.is_empty() {
                s += kw(" NEUTRAL ", " NEUTRE ");
                s += &placements_text(neutral, l);
            }
            s
        }
        Order::Hq(t) => format!("{} {}", kw("HQ", "QG"), name(t)),
        Order::Trade(refs) => format!(
            "{} {}",
            kw("TRADE", "ÉCHANGE"),
            refs.iter()
                .map(|r| match r {
                    CardRef::Territory(t) => name(t).to_string(),
                    CardRef::Wild => kw("WILD", "PASSE-PARTOUT").into(),
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
            let mut s = format!(
                "{} {} {} {}",
                kw("ATTACK", "ATTAQUE"),
                name(to),
                kw("FROM", "DEPUIS"),
                name(from)
            );
            let p = l.pick(plan.text(), plan_text_fr(plan));
            if !p.is_empty() {
                s += " ";
                s += &p;
            }
            if *reroll {
                s += kw(" REROLL", " RELANCE");
            }
            if *commander {
                s += kw(" COMMANDER", " COMMANDANT");
            }
            s
        }
        Order::Defend(n) => format!("{} {n}", kw("DEFEND", "DÉFENDS")),
        Order::Fortify { from, to, armies } => format!(
            "{} {armies} {} {} {} {}",
            kw("FORTIFY", "FORTIFIE"),
            kw("FROM", "DEPUIS"),
            name(from),
            kw("TO", "VERS"),
            name(to)
        ),
        Order::End => kw("END", "FIN").into(),
        Order::SetDefend(p) => format!(
            "{} {}",
            kw("SET DEFEND", "RÈGLE DÉFENSE"),
            policy_text(*p, l)
        ),
        Order::SetNeutral(p) => format!(
            "{} {}",
            kw("SET NEUTRAL", "RÈGLE NEUTRE"),
            policy_text(*p, l)
        ),
    }
}
