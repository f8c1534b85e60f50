//! Battles told: the defender asked, each roll's dice, an attack of many rolls in one line,
//! the conquest.

use super::*;

pub(super) fn narrate_battle(s: &Risk, e: &Event, l: Lang) -> String {
    let n = |seat: Seat| pname(s, seat);
    let t = |x: TerritoryId| words::le(x, l);
    match (e, l) {
        (
            Event::AwaitDefence {
                responder,
                from,
                to,
            },
            Lang::En,
        ) => format!(
            "The attack on {} from {} waits for {}'s dice (DEFEND 1 or DEFEND 2).",
            t(*to),
            t(*from),
            n(*responder)
        ),
        (
            Event::AwaitDefence {
                responder,
                from,
                to,
            },
            Lang::Fr,
        ) => format!(
            "L'attaque contre {} depuis {} attend les dés de {} (DÉFENDS 1 ou DÉFENDS 2).",
            t(*to),
            t(*from),
            n(*responder)
        ),
        (Event::Battle { .. }, _) => battle_line(s, e, l) + ".",
        (
            Event::Conquered {
                seat,
                from,
                to,
                moved,
            },
            Lang::En,
        ) => format!(
            "{} conquers {} and moves in {moved} from {}.",
            n(*seat),
            t(*to),
            t(*from)
        ),
        (
            Event::Conquered {
                seat,
                from,
                to,
                moved,
            },
            Lang::Fr,
        ) => format!(
            "{} conquiert {} et y fait entrer {} depuis {}.",
            n(*seat),
            t(*to),
            words::armies(*moved, l),
            t(*from)
        ),
        _ => String::new(),
    }
}

/// Whether `next` continues the attack `run` holds: another plain battle (no card
/// re-roll, no commander) of the same attacker from the same territory on the same one, or
/// the conquest that ends it.
pub(crate) fn same_attack(run: &[&Event], next: &Event) -> bool {
    let plain = |e: &Event| match e {
        Event::Battle {
            seat,
            from,
            to,
            reroll: None,
            commander: None,
            ..
        } => Some((*seat, *from, *to)),
        _ => None,
    };
    let Some(key) = run.first().and_then(|e| plain(e)) else {
        return false;
    };
    if matches!(run.last(), Some(Event::Conquered { .. })) {
        return false;
    }
    match next {
        Event::Conquered { seat, from, to, .. } => (*seat, *from, *to) == key,
        e => plain(e) == Some(key),
    }
}

/// One line for an attack ("one line per battle"): how many rolls (or the one
/// roll's dice), what each side lost, and the conquest if it ended in one; each die is in
/// the report's dice lines.
pub(crate) fn narrate_attack(s: &Risk, run: &[&Event], l: Lang) -> Option<String> {
    let Some(first @ Event::Battle { seat, from, to, .. }) = run.first().copied() else {
        return None;
    };
    let battles: Vec<&&Event> = run
        .iter()
        .filter(|e| matches!(e, Event::Battle { .. }))
        .collect();
    let mut line = if battles.len() == 1 {
        battle_line(s, first, l)
    } else {
        let (mut a, mut d) = (0, 0);
        for e in &battles {
            if let Event::Battle {
                attacker_losses,
                defender_losses,
                ..
            } = e
            {
                a += attacker_losses;
                d += defender_losses;
            }
        }
        let (who, to, from, n) = (
            pname(s, *seat),
            words::le(*to, l),
            words::le(*from, l),
            battles.len(),
        );
        match l {
            Lang::En => format!(
                "{who} attacks {to} from {from}: {n} rolls, attacker loses {a}, defender loses {d}"
            ),
            Lang::Fr => format!(
                "{who} attaque {to} depuis {from} : {n} lancers, l'attaquant perd {a}, le défenseur perd {d}"
            ),
        }
    };
    if let Some(Event::Conquered { moved, .. }) = run.last().copied() {
        line += &match l {
            Lang::En => format!("; conquers it and moves in {moved}."),
            Lang::Fr => format!(
                " ; s'en empare et y fait entrer {}.",
                words::armies(*moved, l)
            ),
        };
    } else {
        line.push('.');
    }
    Some(line)
}

/// One roll told, without the closing full stop.
fn battle_line(s: &Risk, e: &Event, l: Lang) -> String {
    let Event::Battle {
        seat,
        from,
        to,
        attack,
        defence,
        attacker_losses,
        defender_losses,
        reroll,
        commander,
    } = e
    else {
        return String::new();
    };
    let (who, to, from) = (pname(s, *seat), words::le(*to, l), words::le(*from, l));
    let mut line = match l {
        Lang::En => format!("{who} attacks {to} from {from}: {attack:?} against {defence:?}"),
        Lang::Fr => format!("{who} attaque {to} depuis {from} : {attack:?} contre {defence:?}"),
    };
    if let Some((c, old, new)) = reroll {
        line += &match l {
            Lang::En => format!(
                " (re-rolled a {old} into a {new} showing the {} card)",
                card_name_in(*c, l)
            ),
            Lang::Fr => format!(
                " (un {old} relancé en {new} grâce à la carte {})",
                card_name_in(*c, l)
            ),
        };
    }
    if let Some(old) = commander {
        line += &match l {
            Lang::En => format!(" (the commander turned a {old} into a 6)"),
            Lang::Fr => format!(" (le commandant a changé un {old} en 6)"),
        };
    }
    line + &match l {
        Lang::En => {
            format!(": attacker loses {attacker_losses}, defender loses {defender_losses}")
        }
        Lang::Fr => {
            format!(" : l'attaquant perd {attacker_losses}, le défenseur perd {defender_losses}")
        }
    }
}
