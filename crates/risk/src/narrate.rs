//! What happened, told: setup, the blind placement, headquarters, battles and attacks,
//! turns, armies, eliminations and the end, in English and French, each seat told only
//! what it may see.

use crate::cards::{card_name_in, Card};
use crate::map::{self, board};
use crate::words::{self, names, owner_name, placements, pname};
use crate::*;
use castellan_engine::lang::fr;
use castellan_engine::words::and_list;

mod battle;
mod turn;

use battle::narrate_battle;
pub(crate) use battle::{attack_to, narrate_attack, rolls_told, same_attack};
use turn::narrate_turn;

pub fn narrate(s: &Risk, e: &Event, v: Viewer, l: Lang) -> Option<String> {
    match e {
        Event::FirstPlayer { .. }
        | Event::Claimed { .. }
        | Event::Ranked { .. }
        | Event::Allotted { .. }
        | Event::Placed { .. } => Some(narrate_setup(s, e, v, l)),
        Event::BlindSent { .. } | Event::BlindRevealed { .. } => Some(narrate_blind(s, e, v, l)),
        Event::HqCommitted { .. } | Event::HqRevealed { .. } | Event::HqTaken { .. } => {
            Some(narrate_hq(s, e, v, l))
        }
        Event::AwaitDefence { .. } | Event::Battle { .. } | Event::Conquered { .. } => {
            Some(narrate_battle(s, e, l))
        }
        _ => narrate_turn(s, e, v, l),
    }
}

/// `run` told to `seat` if it happened to them by another's hand: an attack on one of
/// their territories, their headquarters captured.
pub fn narrate_to(s: &Risk, run: &[&Event], seat: Seat, l: Lang) -> Option<String> {
    match run {
        [Event::HqTaken { seat: by, of, t: x }] if *of == seat && *by != seat => Some(match l {
            Lang::En => format!(
                "{} captured your headquarters {} and took its card.",
                pname(s, *by),
                map::name(*x)
            ),
            Lang::Fr => format!(
                "{} a capturé votre quartier général, {}, et a pris sa carte.",
                pname(s, *by),
                words::le(*x, l)
            ),
        }),
        _ => attack_to(s, run, seat, l),
    }
}

/// The names of seats: "P1 and P2" / "P1 et P2".
pub(super) fn seats_and(s: &Risk, seats: &[Seat], l: Lang) -> String {
    let names: Vec<String> = seats.iter().map(|x| pname(s, *x)).collect();
    match l {
        Lang::En => names.join(" and "),
        Lang::Fr => and_list(&names, l),
    }
}

fn narrate_setup(s: &Risk, e: &Event, v: Viewer, l: Lang) -> String {
    let me = |seat: Seat| v == Viewer::Seat(seat);
    let n = |seat: Seat| pname(s, seat);
    match (e, l) {
        (Event::FirstPlayer { seat }, Lang::En) => {
            format!("{} rolled highest and goes first.", n(*seat))
        }
        (Event::FirstPlayer { seat }, Lang::Fr) => {
            format!(
                "{} a fait le plus grand total aux dés et commence.",
                n(*seat)
            )
        }
        (Event::Claimed { seat, t: x }, Lang::En) => {
            format!("{} claims {}.", n(*seat), map::name(*x))
        }
        (Event::Claimed { seat, t: x }, Lang::Fr) => {
            format!("{} réclame {}.", n(*seat), words::le(*x, l))
        }
        (Event::Ranked { seat, list }, _) if me(*seat) => {
            format!(
                "{} {}.",
                l.pick("Your ranking:", "Votre liste :"),
                names(list, l)
            )
        }
        (Event::Ranked { seat, .. }, Lang::En) => format!("{} has sent a ranking.", n(*seat)),
        (Event::Ranked { seat, .. }, Lang::Fr) => format!("{} a envoyé sa liste.", n(*seat)),
        (Event::Allotted { picks, how }, _) => allotted(s, picks, *how, l),
        (Event::Placed { seat, own, neutral }, Lang::En) => {
            let mut line = format!("{} places {}", n(*seat), placements(own, l));
            if !neutral.is_empty() {
                line += &format!(" and a neutral army: {}", placements(neutral, l));
            }
            line + "."
        }
        (Event::Placed { seat, own, neutral }, Lang::Fr) => {
            let mut line = format!("{} place {}", n(*seat), placements(own, l));
            if !neutral.is_empty() {
                line += &format!(" ; neutre : {}", placements(neutral, l));
            }
            line + "."
        }
        _ => String::new(),
    }
}

fn narrate_blind(s: &Risk, e: &Event, v: Viewer, l: Lang) -> String {
    let me = |seat: Seat| v == Viewer::Seat(seat);
    let n = |seat: Seat| pname(s, seat);
    match (e, l) {
        (Event::BlindSent { seat, own, neutral }, _) if me(*seat) => {
            let mut line = format!(
                "{} {}",
                l.pick(
                    "Your placement (secret until all have sent):",
                    "Vos placements (secrets jusqu'à ce que tous aient envoyé les leurs) :"
                ),
                placements(own, l)
            );
            if !neutral.is_empty() {
                line += &format!(
                    "{} {}",
                    l.pick("; neutral:", " ; neutre :"),
                    placements(neutral, l)
                );
            }
            line
        }
        (Event::BlindSent { seat, .. }, Lang::En) => format!("{} has sent a placement.", n(*seat)),
        (Event::BlindSent { seat, .. }, Lang::Fr) => {
            format!("{} a envoyé ses placements.", n(*seat))
        }
        (Event::BlindRevealed { all }, _) => {
            let mut lines = vec![l
                .pick("Placements revealed:", "Placements révélés :")
                .to_string()];
            for (seat, own, neutral) in all {
                let mut line =
                    format!("  {}{} {}", n(*seat), l.pick(":", " :"), placements(own, l));
                if !neutral.is_empty() {
                    line += &format!(
                        "{} {}",
                        l.pick("; neutral:", " ; neutre :"),
                        placements(neutral, l)
                    );
                }
                lines.push(line);
            }
            lines.join("\n")
        }
        _ => String::new(),
    }
}

/// Territory names joined by commas.
fn allotted(s: &Risk, picks: &[(Owner, TerritoryId)], how: Allotment, l: Lang) -> String {
    let mut lines = vec![match l {
        Lang::En => format!("Territories {}:", allotment(how, l)),
        Lang::Fr => format!("Territoires {} :", allotment(how, l)),
    }];
    let mut owners: Vec<Owner> = (0..s.n()).map(Owner::Seat).collect();
    if picks.iter().any(|p| p.0 == Owner::Neutral) {
        owners.push(Owner::Neutral);
    }
    for o in owners {
        let list: Vec<TerritoryId> = picks.iter().filter(|p| p.0 == o).map(|p| p.1).collect();
        lines.push(format!(
            "  {}{} {}",
            owner_name(s, o, l),
            l.pick(":", " :"),
            names(&list, l)
        ));
    }
    lines.join("\n")
}

/// How the territories were shared out: "dealt at random" / "distribués au hasard".
pub fn allotment(how: Allotment, l: Lang) -> &'static str {
    match how {
        Allotment::Piles => l.pick(
            "dealt from the cards into three piles",
            "distribués avec les cartes en trois piles",
        ),
        Allotment::Random => l.pick("dealt at random", "distribués au hasard"),
        Allotment::Draft => l.pick(
            "drafted from the ranked lists",
            "répartis d'après les listes de préférence",
        ),
    }
}

/// Why the game was won: "holds all 42 territories" / "occupe les 42 territoires".
pub fn reason(r: WinReason, l: Lang) -> String {
    match (r, l) {
        (WinReason::Opponent, _) => l
            .pick("eliminated the opponent", "a éliminé son adversaire")
            .into(),
        (WinReason::World, _) => l
            .pick("holds all 42 territories", "occupe les 42 territoires")
            .into(),
        (WinReason::Headquarters { taken }, Lang::En) => {
            format!("holds {taken} enemy headquarters and its own")
        }
        (WinReason::Headquarters { taken }, Lang::Fr) => format!(
            "tient {} et le sien",
            fr::count(
                taken,
                "quartier général adverse",
                "quartiers généraux adverses"
            )
        ),
        (
            WinReason::TurnLimit {
                territories,
                rounds,
            },
            Lang::En,
        ) => format!(
            "most territories ({territories}) when the turn limit of {rounds} rounds was reached"
        ),
        (
            WinReason::TurnLimit {
                territories,
                rounds,
            },
            Lang::Fr,
        ) => format!("le plus de territoires ({territories}) à la limite de {rounds} manches"),
    }
}

fn narrate_hq(s: &Risk, e: &Event, v: Viewer, l: Lang) -> String {
    let me = |seat: Seat| v == Viewer::Seat(seat);
    let n = |seat: Seat| pname(s, seat);
    match (e, l) {
        (
            Event::HqCommitted {
                seat,
                t: x,
                commitment,
            },
            Lang::En,
        ) if me(*seat) => {
            format!(
                "Your headquarters: {} (commitment {commitment}).",
                map::name(*x)
            )
        }
        (
            Event::HqCommitted {
                seat,
                t: x,
                commitment,
            },
            Lang::Fr,
        ) if me(*seat) => format!(
            "Votre quartier général : {} (engagement {commitment}).",
            map::name_in(*x, l)
        ),
        (
            Event::HqCommitted {
                seat, commitment, ..
            },
            Lang::En,
        ) => format!(
            "{} has chosen a headquarters (commitment {commitment}).",
            n(*seat)
        ),
        (
            Event::HqCommitted {
                seat, commitment, ..
            },
            Lang::Fr,
        ) => format!(
            "{} a choisi son quartier général (engagement {commitment}).",
            n(*seat)
        ),
        (Event::HqRevealed { all }, _) => hq_revealed(s, all, l),
        (Event::HqTaken { seat, of, t: x }, Lang::En) => format!(
            "{} captures {}'s headquarters {} and takes its card.",
            n(*seat),
            n(*of),
            map::name(*x)
        ),
        (Event::HqTaken { seat, of, t: x }, Lang::Fr) => format!(
            "{} capture le quartier général {}, {}, et prend sa carte.",
            n(*seat),
            fr::de(&n(*of)),
            words::le(*x, l)
        ),
        _ => String::new(),
    }
}

fn hq_revealed(s: &Risk, all: &[(Seat, TerritoryId, castellan_engine::Secret)], l: Lang) -> String {
    let n = |seat: Seat| pname(s, seat);
    let mut lines = vec![l
        .pick(
            "Headquarters revealed (check: SHA-256(salt \":\" key) = commitment):",
            "Quartiers généraux révélés (vérification : SHA-256(sel \":\" clé) = engagement) :",
        )
        .to_string()];
    for (seat, x, salt) in all {
        let key = &board().territories[*x].key;
        lines.push(match l {
            Lang::En => format!(
                "  {}: {} (key {key}, salt {})",
                n(*seat),
                map::name(*x),
                salt.hex()
            ),
            Lang::Fr => format!(
                "  {} : {} (clé {key}, sel {})",
                n(*seat),
                map::name_in(*x, l),
                salt.hex()
            ),
        });
    }
    lines.join("\n")
}
