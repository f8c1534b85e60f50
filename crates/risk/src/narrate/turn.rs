//! Turns told: reinforcements, trades, lost armies, cards drawn, fortifying, standing
//! orders, eliminations, the turn limit and the end.

use super::*;
use super::{reason, seats_and};

/// "Europe +5" for each continent held.
fn continents_bonus(continents: &[usize], l: Lang) -> Vec<String> {
    continents
        .iter()
        .map(|g| format!("{} +{}", map::continent_in(*g, l), board().groups[*g].bonus))
        .collect()
}

pub(super) fn narrate_turn(s: &Risk, e: &Event, v: Viewer, l: Lang) -> Option<String> {
    let me = |seat: Seat| v == Viewer::Seat(seat);
    let n = |seat: Seat| pname(s, seat);
    Some(match (e, l) {
        (Event::TurnBegins { .. }, _) => turn_begins(s, e, l),
        (Event::Traded { .. } | Event::ArmiesLost { .. }, _) => narrate_armies(s, e, l),
        (
            Event::Eliminated {
                victim,
                by,
                cards: cs,
            },
            _,
        ) => eliminated(s, *victim, *by, cs, me(*by) || me(*victim), l),
        (Event::MustTrade { seat, cards: k }, Lang::En) => {
            format!("{} holds {k} cards and must trade sets now.", n(*seat))
        }
        (Event::MustTrade { seat, cards: k }, Lang::Fr) => format!(
            "{} a {k} cartes et doit échanger des combinaisons maintenant.",
            n(*seat)
        ),
        (Event::Drew { seat, card }, _) if me(*seat) => format!(
            "{} {}.",
            l.pick("You draw a card:", "Vous piochez une carte :"),
            card_name_in(*card, l)
        ),
        (Event::Drew { seat, .. }, Lang::En) => format!("{} draws a card.", n(*seat)),
        (Event::Drew { seat, .. }, Lang::Fr) => format!("{} pioche une carte.", n(*seat)),
        (
            Event::Fortified {
                seat,
                from,
                to,
                armies,
            },
            Lang::En,
        ) => format!(
            "{} moves {} from {} to {}.",
            n(*seat),
            words::armies(*armies, l),
            map::name(*from),
            map::name(*to)
        ),
        (
            Event::Fortified {
                seat,
                from,
                to,
                armies,
            },
            Lang::Fr,
        ) => format!(
            "{} déplace {} {} vers {}.",
            n(*seat),
            words::armies(*armies, l),
            words::de(*from),
            words::le(*to, l)
        ),
        (Event::TurnEnds { seat }, Lang::En) => format!("{} ends the turn.", n(*seat)),
        (Event::TurnEnds { seat }, Lang::Fr) => format!("{} termine son tour.", n(*seat)),
        (
            Event::StandingSet {
                seat,
                neutral,
                policy,
            },
            _,
        ) => {
            if !me(*seat) {
                return None;
            }
            standing_line(*neutral, *policy, l)
        }
        (Event::Extended { .. } | Event::Won { .. }, _) => narrate_end(s, e, l),
        _ => return None,
    })
}

fn narrate_armies(s: &Risk, e: &Event, l: Lang) -> String {
    let n = |seat: Seat| pname(s, seat);
    match (e, l) {
        (
            Event::Traded {
                seat,
                cards: cs,
                value,
                bonus_on,
            },
            _,
        ) => {
            let list = cs
                .iter()
                .map(|c| card_name_in(*c, l))
                .collect::<Vec<_>>()
                .join(", ");
            let bonus = bonus_on
                .map(|x| format!(", +2 {} {}", l.pick("on", "sur"), words::le(x, l)))
                .unwrap_or_default();
            match l {
                Lang::En => format!("{} trades {list} for {value} armies{bonus}.", n(*seat)),
                Lang::Fr => format!(
                    "{} échange {list} contre {}{bonus}.",
                    n(*seat),
                    words::armies(*value, l)
                ),
            }
        }
        (Event::ArmiesLost { seat, armies }, Lang::En) => format!(
            "{} loses {} that cannot be placed (at most {} a territory).",
            n(*seat),
            words::armies(*armies, l),
            s.cap()
        ),
        (Event::ArmiesLost { seat, armies }, Lang::Fr) => format!(
            "{} perd {} {} (au plus {} par territoire).",
            n(*seat),
            words::armies(*armies, l),
            if *armies > 1 {
                "impossibles à placer"
            } else {
                "impossible à placer"
            },
            s.cap()
        ),
        _ => String::new(),
    }
}

fn narrate_end(s: &Risk, e: &Event, l: Lang) -> String {
    match (e, l) {
        (Event::Extended { round, tied }, Lang::En) => format!(
            "Turn limit reached with a tie between {}: the game goes on to the end of round {round}.",
            seats_and(s, tied, l)
        ),
        (Event::Extended { round, tied }, Lang::Fr) => format!(
            "Limite de manches atteinte avec une égalité entre {} : la partie continue jusqu'à la fin de la manche {round}.",
            seats_and(s, tied, l)
        ),
        (Event::Won { winners, reason: r }, Lang::En) => {
            format!("{} wins: {}.", seats_and(s, winners, l), reason(*r, l))
        }
        (Event::Won { winners, reason: r }, Lang::Fr) => format!(
            "{} {} : {}.",
            seats_and(s, winners, l),
            if winners.len() > 1 { "gagnent" } else { "gagne" },
            reason(*r, l)
        ),
        _ => String::new(),
    }
}

fn turn_begins(s: &Risk, e: &Event, l: Lang) -> String {
    let Event::TurnBegins {
        seat,
        round,
        territories,
        base,
        continents,
        total,
    } = e
    else {
        return String::new();
    };
    let conts = continents_bonus(continents, l);
    let conts = if conts.is_empty() {
        String::new()
    } else {
        format!(", {}", conts.join(", "))
    };
    let who = pname(s, *seat);
    match l {
        Lang::En => format!(
            "Round {round}: {who}'s turn. {}: {}{conts}; {total} to place.",
            castellan_engine::lang::en::count(*territories, "territory", "territories"),
            words::armies(*base, l)
        ),
        Lang::Fr => format!(
            "Manche {round} : au tour de {who}. {} : {}{conts} ; {total} à placer.",
            fr::count(*territories, "territoire", "territoires"),
            words::armies(*base, l)
        ),
    }
}

fn eliminated(s: &Risk, victim: Seat, by: Seat, cs: &[Card], sees: bool, l: Lang) -> String {
    let (v, b) = (pname(s, victim), pname(s, by));
    let k = cs.len();
    let list = if cs.is_empty() {
        l.pick("none", "aucune").to_string()
    } else {
        cs.iter()
            .map(|c| card_name_in(*c, l))
            .collect::<Vec<_>>()
            .join(", ")
    };
    match (l, sees) {
        (Lang::En, true) => format!(
            "{v} is eliminated by {b}, who takes {}: {list}.",
            cards_en(k)
        ),
        (Lang::En, false) => format!("{v} is eliminated by {b}, who takes {}.", cards_en(k)),
        (Lang::Fr, true) => format!(
            "{v} est éliminé par {b}, qui prend ses cartes ({}) : {list}.",
            k
        ),
        (Lang::Fr, false) => format!("{v} est éliminé par {b}, qui prend ses cartes ({}).", k),
    }
}

/// "Standing order: defend with 2 dice when allowed." in either language.
fn standing_line(neutral: bool, policy: Policy, l: Lang) -> String {
    match l {
        Lang::En => format!(
            "Standing order: {} {}.",
            if neutral {
                "defend neutral territories with"
            } else {
                "defend with"
            },
            match policy {
                Policy::Dice(d) => format!("{d} dice when allowed"),
                Policy::Ask => "dice chosen when asked".into(),
            }
        ),
        Lang::Fr => format!(
            "Ordre permanent : défendre {}{}.",
            if neutral {
                "les territoires neutres "
            } else {
                ""
            },
            match policy {
                Policy::Dice(d) => format!("avec {} quand c'est permis", fr::count(d, "dé", "dés")),
                Policy::Ask => "en choisissant les dés à chaque attaque".into(),
            }
        ),
    }
}

/// "1 card", "3 cards".
fn cards_en(k: usize) -> String {
    castellan_engine::lang::en::count(k as i64, "card", "cards")
}
