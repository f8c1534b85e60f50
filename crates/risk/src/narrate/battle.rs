//! Battles told: the defender asked, each roll's dice, an attack of many rolls in one line,
//! the conquest.

use super::*;
use castellan_engine::words::dice_text;

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

/// Whether `next` continues the attack `run` holds: another roll of the same attacker
/// from the same territory on the same one, or the conquest that ends it.
pub(crate) fn same_attack(run: &[&Event], next: &Event) -> bool {
    let key = |e: &Event| match e {
        Event::Battle { seat, from, to, .. } => Some((*seat, *from, *to)),
        _ => None,
    };
    let Some(k) = run.first().and_then(|e| key(e)) else {
        return false;
    };
    if matches!(run.last(), Some(Event::Conquered { .. })) {
        return false;
    }
    match next {
        Event::Conquered { seat, from, to, .. } => (*seat, *from, *to) == k,
        e => key(e) == Some(k),
    }
}

/// One attack's run read out of its events.
pub(super) struct Attack {
    pub(super) seat: Seat,
    pub(super) from: TerritoryId,
    pub(super) to: TerritoryId,
    /// Who held the territory attacked, when the battles say.
    pub(super) defender: Option<Owner>,
    /// (attacker's losses, defender's losses) over every roll.
    pub(super) losses: (u32, u32),
    /// The defender's armies before the first roll and after the last.
    pub(super) counts: Option<(u32, u32)>,
    pub(super) moved: Option<u32>,
    /// Every roll in words, in order.
    pub(super) rolls: String,
}

impl Attack {
    pub(super) fn read(run: &[&Event], l: Lang) -> Option<Attack> {
        let Some(Event::Battle { seat, from, to, .. }) = run.first().copied() else {
            return None;
        };
        let mut a = Attack {
            seat: *seat,
            from: *from,
            to: *to,
            defender: None,
            losses: (0, 0),
            counts: None,
            moved: None,
            rolls: String::new(),
        };
        let mut rolls = Vec::new();
        for e in run {
            match e {
                Event::Battle {
                    attacker_losses,
                    defender_losses,
                    held,
                    ..
                } => {
                    if let Some((o, left)) = held {
                        a.defender = Some(*o);
                        let before = a.counts.map_or(left + defender_losses, |c| c.0);
                        a.counts = Some((before, *left));
                    }
                    a.losses.0 += attacker_losses;
                    a.losses.1 += defender_losses;
                    rolls.push(roll_text(e, l));
                }
                Event::Conquered { moved, .. } => a.moved = Some(*moved),
                _ => {}
            }
        }
        a.rolls = castellan_engine::words::rolls_line(&rolls, l);
        Some(a)
    }
}

/// One line for an attack: every roll's dice, who lost what, and the conquest if it
/// ended in one: "P1 attacks Alaska from Kamchatka: 6 5 3 against 4 2 — P2 loses 2, and
/// P1 takes it, moving in 3."
pub(crate) fn narrate_attack(s: &Risk, run: &[&Event], l: Lang) -> Option<String> {
    let a = Attack::read(run, l)?;
    let (who, to, from) = (pname(s, a.seat), words::le(a.to, l), words::le(a.from, l));
    let mut lost = Vec::new();
    if a.losses.0 > 0 {
        lost.push(l.pick(
            format!("{who} loses {}", a.losses.0),
            format!("{who} perd {}", a.losses.0),
        ));
    }
    if a.losses.1 > 0 {
        let k = a.losses.1;
        lost.push(match (a.defender, l) {
            (Some(Owner::Seat(d)), Lang::En) => format!("{} loses {k}", pname(s, d)),
            (Some(Owner::Seat(d)), Lang::Fr) => format!("{} perd {k}", pname(s, d)),
            (Some(Owner::Neutral), Lang::En) => format!("the neutral armies lose {k}"),
            (Some(Owner::Neutral), Lang::Fr) => format!("les armées neutres perdent {k}"),
            (_, Lang::En) => format!("the defender loses {k}"),
            (_, Lang::Fr) => format!("le défenseur perd {k}"),
        });
    }
    let lost = lost.join(", ");
    let mut line = match l {
        Lang::En => format!("{who} attacks {to} from {from}: {} — {lost}", a.rolls),
        Lang::Fr => format!("{who} attaque {to} depuis {from} : {} — {lost}", a.rolls),
    };
    line += &match (a.moved, l) {
        (Some(m), Lang::En) => format!(", and {who} takes it, moving in {m}."),
        (Some(m), Lang::Fr) => format!(
            ", et {who} s'en empare en y faisant entrer {}.",
            words::armies(m, l)
        ),
        (None, _) => ".".to_string(),
    };
    Some(line)
}

/// "You lost Alaska to P1 (3 → 0): 6 5 3 against 4 2; P1 moved in 3." or "P1 attacked
/// Alaska from Kamchatka: 6 5 3 against 4 2 — you lost 2 (3 → 1), P1 lost 1."
pub(crate) fn attack_to(s: &Risk, run: &[&Event], seat: Seat, l: Lang) -> Option<String> {
    let a = Attack::read(run, l)?;
    if a.defender != Some(Owner::Seat(seat)) || a.seat == seat {
        return None;
    }
    let (who, to, from) = (pname(s, a.seat), words::le(a.to, l), words::le(a.from, l));
    let (al, dl) = a.losses;
    let counts = a
        .counts
        .map(|(b, f)| format!(" ({b} → {})", if a.moved.is_some() { 0 } else { f }))
        .unwrap_or_default();
    let rolls = &a.rolls;
    Some(match a.moved {
        Some(m) => {
            let they = match (al, l) {
                (0, Lang::En) => format!("{who} moved in {m}"),
                (0, Lang::Fr) => format!("{who} y a fait entrer {}", words::armies(m, l)),
                (_, Lang::En) => format!("{who} lost {al} and moved in {m}"),
                (_, Lang::Fr) => format!(
                    "{who} a perdu {al} et y a fait entrer {}",
                    words::armies(m, l)
                ),
            };
            match l {
                Lang::En => format!("You lost {to} to {who}{counts}: {rolls}; {they}."),
                Lang::Fr => format!(
                    "Vous avez perdu {to} au profit {}{counts} : {rolls} ; {they}.",
                    fr::de(&who)
                ),
            }
        }
        None => {
            let dl = match (dl, l) {
                (0, Lang::En) => "nothing".to_string(),
                (0, Lang::Fr) => "rien".to_string(),
                (n, _) => n.to_string(),
            };
            let them = match (al, l) {
                (0, _) => String::new(),
                (_, Lang::En) => format!(", {who} lost {al}"),
                (_, Lang::Fr) => format!(", {who} a perdu {al}"),
            };
            match l {
                Lang::En => format!(
                    "{who} attacked {to} from {from}: {rolls} — you lost {dl}{counts}{them}."
                ),
                Lang::Fr => format!(
                    "{who} a attaqué {to} depuis {from} : {rolls} — vous avez perdu {dl}{counts}{them}."
                ),
            }
        }
    })
}

/// Whether an entry's narration tells each of its rolls: every die is a battle's (its
/// re-roll included), and each battle is told with its dice on its attack's line (past
/// `ROLLS_SHOWN` rolls, the line says HISTORY gives every die).
pub(crate) fn rolls_told(events: &[Event], rolls: &[castellan_engine::Roll]) -> bool {
    let shown: usize = events
        .iter()
        .map(|e| match e {
            Event::Battle {
                attack,
                defence,
                reroll,
                ..
            } => attack.len() + defence.len() + usize::from(reroll.is_some()),
            _ => 0,
        })
        .sum();
    !rolls.is_empty() && shown == rolls.len()
}

/// One roll's dice in words: "6 5 3 against 4 2", with a re-roll or the commander.
fn roll_text(e: &Event, l: Lang) -> String {
    let Event::Battle {
        attack,
        defence,
        reroll,
        commander,
        ..
    } = e
    else {
        return String::new();
    };
    let (x, y) = (dice_text(attack), dice_text(defence));
    let mut line = l.pick(format!("{x} against {y}"), format!("{x} contre {y}"));
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
    line
}

/// One roll told, without the closing full stop.
fn battle_line(s: &Risk, e: &Event, l: Lang) -> String {
    let Event::Battle {
        seat,
        from,
        to,
        attacker_losses,
        defender_losses,
        ..
    } = e
    else {
        return String::new();
    };
    let (who, to, from) = (pname(s, *seat), words::le(*to, l), words::le(*from, l));
    let roll = roll_text(e, l);
    match l {
        Lang::En => format!(
            "{who} attacks {to} from {from}: {roll}: attacker loses {attacker_losses}, defender loses {defender_losses}"
        ),
        Lang::Fr => format!(
            "{who} attaque {to} depuis {from} : {roll} : l'attaquant perd {attacker_losses}, le défenseur perd {defender_losses}"
        ),
    }
}
