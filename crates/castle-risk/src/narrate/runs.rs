//! Runs of like events told in one line: an attack (its declaration, the cards engaged,
//! every roll with its dice, its end), a player's re-occupations.

use super::*;

/// An event that belongs to an attack after its declaration.
fn attack_part(e: &Event) -> bool {
    matches!(
        e,
        Event::GeneralEngaged { .. }
            | Event::MarshalEngaged { .. }
            | Event::Battle { .. }
            | Event::DiceFewer { .. }
            | Event::GeneralLost { .. }
            | Event::MarshalLost { .. }
            | Event::AttackStopped { .. }
            | Event::Conquered { .. }
            | Event::AdmiralLost { .. }
            | Event::AdmiralBack { .. }
    )
}

/// Whether the attack `run` holds has ended: it stopped, or it conquered (a ship's
/// Admiral still comes back after the conquest).
fn attack_over(run: &[&Event], next: &Event) -> bool {
    match run.last() {
        Some(Event::AttackStopped { .. } | Event::AdmiralBack { .. }) => true,
        Some(Event::Conquered { by_sea, .. }) => {
            !(*by_sea && matches!(next, Event::AdmiralBack { .. }))
        }
        _ => false,
    }
}

/// Whether `next` continues the run `run` holds: the next part of the same attack (from
/// its declaration, or from its first roll when the defender's answer came in a mail of
/// their own), or another re-occupation by the same player.
pub(crate) fn same_battle_run(run: &[&Event], next: &Event) -> bool {
    let Some(first) = run.first().copied() else {
        return false;
    };
    if let (Event::Reoccupied { seat: a, .. }, Event::Reoccupied { seat: b, .. }) = (first, next) {
        return a == b;
    }
    let starts = matches!(first, Event::AttackDeclared { .. }) || attack_part(first);
    if !starts || !attack_part(next) || attack_over(run, next) {
        return false;
    }
    // The same territories throughout.
    let place = |e: &Event| match e {
        Event::AttackDeclared { from, to, .. }
        | Event::Battle { from, to, .. }
        | Event::AttackStopped { from, to, .. } => Some((*from, *to)),
        _ => None,
    };
    match (run.iter().find_map(|e| place(e)), place(next)) {
        (Some(a), Some(b)) => a == b,
        _ => true,
    }
}

/// What one attack's run says, read out of its events.
pub(super) struct Attack<'e> {
    pub(super) seat: Option<Seat>,
    pub(super) defender: Option<Seat>,
    pub(super) from: T,
    pub(super) to: T,
    pub(super) ship: Option<u32>,
    pub(super) declared: bool,
    pub(super) battles: Vec<&'e Event>,
    /// (attacker's losses, defender's losses) over every roll.
    pub(super) losses: (u32, u32),
    /// Armies moved in, when the attack took the territory.
    pub(super) moved: Option<(u32, bool)>,
    /// What was left on each side when the attack stopped.
    pub(super) stopped: Option<(u32, u32)>,
    /// The other events of the attack (a card beaten, fewer dice), told after the rolls.
    pub(super) notes: Vec<&'e Event>,
}

impl<'e> Attack<'e> {
    pub(super) fn read(run: &[&'e Event]) -> Option<Attack<'e>> {
        let mut a = Attack {
            seat: None,
            defender: None,
            from: 0,
            to: 0,
            ship: None,
            declared: false,
            battles: Vec::new(),
            losses: (0, 0),
            moved: None,
            stopped: None,
            notes: Vec::new(),
        };
        for e in run.iter().copied() {
            match e {
                Event::AttackDeclared {
                    seat,
                    from,
                    to,
                    ship,
                } => {
                    (a.seat, a.from, a.to, a.ship, a.declared) =
                        (Some(*seat), *from, *to, *ship, true);
                }
                Event::Battle {
                    from,
                    to,
                    attacker_losses,
                    defender_losses,
                    seats,
                    ..
                } => {
                    if !a.declared {
                        (a.from, a.to) = (*from, *to);
                    }
                    if let Some((s, d)) = seats {
                        a.seat = a.seat.or(Some(*s));
                        a.defender = Some(*d);
                    }
                    a.losses.0 += attacker_losses;
                    a.losses.1 += defender_losses;
                    a.battles.push(e);
                }
                Event::Conquered {
                    seat,
                    moved,
                    by_sea,
                    ..
                } => {
                    a.seat = a.seat.or(Some(*seat));
                    a.moved = Some((*moved, *by_sea));
                }
                Event::AttackStopped {
                    left, defenders, ..
                } => a.stopped = Some((*left, *defenders)),
                Event::GeneralEngaged { .. } | Event::MarshalEngaged { .. } => {}
                _ => a.notes.push(e),
            }
        }
        if a.battles.is_empty() || a.seat.is_none() {
            return None;
        }
        Some(a)
    }

    /// The defender's armies before the attack and after it, when the run tells its end.
    pub(super) fn defenders(&self) -> Option<(u32, u32)> {
        let after = match (self.moved, self.stopped) {
            (Some(_), _) => 0,
            (None, Some((_, d))) => d,
            (None, None) => return None,
        };
        Some((after + self.losses.1, after))
    }
}

/// One roll in words: "6 5 3 (+1 General) against 4 2" / "6 5 3 (+1 Général) contre 4 2".
pub(super) fn roll_text(e: &Event, lang: Lang) -> String {
    let Event::Battle {
        attacker,
        defender,
        general,
        marshal,
        ..
    } = e
    else {
        return String::new();
    };
    let gen = if *general {
        lang.pick(" (+1 General)", " (+1 Général)")
    } else {
        ""
    };
    let mar = if *marshal {
        lang.pick(" (+1 Marshal)", " (+1 Maréchal)")
    } else {
        ""
    };
    let (x, y) = (dice_text(attacker), dice_text(defender));
    lang.pick(
        format!("{x}{gen} against {y}{mar}"),
        format!("{x}{gen} contre {y}{mar}"),
    )
}

/// Every roll of an attack, in order: "6 5 3 against 4 2, 5 1 against 6" (a long attack:
/// its count and last roll, `castellan_engine::words::rolls_line`).
pub(super) fn rolls_text(a: &Attack, lang: Lang) -> String {
    let rolls: Vec<String> = a.battles.iter().map(|e| roll_text(e, lang)).collect();
    castellan_engine::words::rolls_line(&rolls, lang)
}

/// One line for a run: an attack with every roll's dice and who lost what, or every
/// territory a player re-occupied, by where the armies came from.
pub(crate) fn battle_run(g: &CastleRisk, run: &[&Event], lang: Lang) -> Option<String> {
    match run.first().copied() {
        Some(Event::Reoccupied { .. }) => reoccupy_run(g, run, lang),
        _ => attack_run(g, run, lang),
    }
}

/// "Alice attacks Rhine from Burgundy: 6 5 3 against 4 2 — Carol loses 2, and Alice takes
/// it, moving in 3."
fn attack_run(g: &CastleRisk, run: &[&Event], lang: Lang) -> Option<String> {
    let a = Attack::read(run)?;
    let t = Teller {
        g,
        v: Viewer::Public,
        lang,
    };
    let who = t.n(a.seat?);
    let head = t.attack_head(&a);
    let rolls = rolls_text(&a, lang);
    let (al, dl) = a.losses;
    let def = a.defender.map(|d| t.n(d));
    let mut lost = Vec::new();
    if al > 0 {
        lost.push(lang.pick(format!("{who} loses {al}"), format!("{who} perd {al}")));
    }
    if dl > 0 {
        lost.push(match (&def, lang) {
            (Some(d), Lang::En) => format!("{d} loses {dl}"),
            (Some(d), Lang::Fr) => format!("{d} perd {dl}"),
            (None, Lang::En) => format!("the defender loses {dl}"),
            (None, Lang::Fr) => format!("le défenseur perd {dl}"),
        });
    }
    let mut line = format!(
        "{head}{} {rolls} — {}",
        lang.pick(":", " :"),
        lost.join(", ")
    );
    line += &t.attack_end(&a);
    Some(line)
}

impl Teller<'_> {
    /// "Alice attacks Rhine from Burgundy", or the Admiral's sailing.
    pub(super) fn attack_head(&self, a: &Attack) -> String {
        let l = self.lang;
        let who = a.seat.map(|s| self.n(s)).unwrap_or_default();
        match (a.declared, a.ship) {
            (true, Some(k)) => self.pick(
                format!(
                    "{who} plays an Admiral: {} from {} to attack {}",
                    sail(k),
                    tn(a.from, l),
                    tn(a.to, l)
                ),
                format!(
                    "{who} joue un Amiral : {} par la mer {} pour attaquer {}",
                    partent(k),
                    words::de(a.from),
                    words::le(a.to)
                ),
            ),
            _ => self.pick(
                format!("{who} attacks {} from {}", tn(a.to, l), tn(a.from, l)),
                format!(
                    "{who} attaque {} depuis {}",
                    words::le(a.to),
                    words::le(a.from)
                ),
            ),
        }
    }

    /// How the attack ended and what else came of it: ", and Alice takes it, moving in 3." or
    /// "; the attack stops: Burgundy holds 1, Rhine holds 2."; a card beaten after.
    pub(super) fn attack_end(&self, a: &Attack) -> String {
        let l = self.lang;
        let who = a.seat.map(|s| self.n(s)).unwrap_or_default();
        let mut end = match (a.moved, a.stopped) {
            (Some((m, by_sea)), _) => self.pick(
                format!(
                    ", and {who} takes it, moving in {m}{}.",
                    if by_sea { " from the ship" } else { "" }
                ),
                format!(
                    ", et {who} s'en empare en y faisant entrer {}{}.",
                    armees(m),
                    if by_sea { " depuis le navire" } else { "" }
                ),
            ),
            (None, Some((left, defenders))) => self.pick(
                format!(
                    "; the attack stops: {} holds {left}, {} holds {defenders}.",
                    tn(a.from, l),
                    tn(a.to, l)
                ),
                format!(
                    " ; l'attaque s'arrête : il reste {} {} et {} {}.",
                    armees(left),
                    words::en(a.from),
                    armees(defenders),
                    words::en(a.to)
                ),
            ),
            (None, None) => ".".to_string(),
        };
        for e in &a.notes {
            let note = self.battle(e);
            if !note.is_empty() {
                end.push(' ');
                end += note.trim();
            }
        }
        end
    }
}

/// "1 army sails", "3 armies sail".
pub(super) fn sail(k: u32) -> String {
    if k == 1 {
        "1 army sails".into()
    } else {
        format!("{k} armies sail")
    }
}

/// "1 armée part", "3 armées partent".
pub(super) fn partent(k: u32) -> String {
    if k == 1 {
        "1 armée part".into()
    } else {
        format!("{} partent", armees(k))
    }
}

/// "Bot4 re-occupies Netherlands, Ireland (from Greece) and Serbia (from Burgundy)."
fn reoccupy_run(g: &CastleRisk, run: &[&Event], lang: Lang) -> Option<String> {
    let Some(Event::Reoccupied { seat, .. }) = run.first().copied() else {
        return None;
    };
    let mut groups: Vec<(T, Vec<T>)> = Vec::new();
    for e in run {
        if let Event::Reoccupied { t, from, .. } = e {
            match groups.iter_mut().find(|(f, _)| f == from) {
                Some((_, ts)) => ts.push(*t),
                None => groups.push((*from, vec![*t])),
            }
        }
    }
    let parts: Vec<String> = groups
        .iter()
        .map(|(from, ts)| {
            let names: Vec<&str> = ts.iter().map(|t| tn(*t, lang)).collect();
            lang.pick(
                format!(
                    "{} (an army each from {})",
                    names.join(", "),
                    tn(*from, lang)
                ),
                format!(
                    "{} (une armée chacun venue {})",
                    names.join(", "),
                    words::de(*from)
                ),
            )
        })
        .collect();
    Some(lang.pick(
        format!("{} re-occupies {}.", g.name(*seat), parts.join("; ")),
        format!("{} réoccupe {}.", g.name(*seat), parts.join(" ; ")),
    ))
}

/// Whether an entry's narration tells each of its rolls: every die rolled is a battle's,
/// and each battle is told on its attack's line (past `ROLLS_SHOWN` rolls, the line says
/// HISTORY gives every die).
pub(crate) fn rolls_told(events: &[Event], rolls: &[castellan_engine::Roll]) -> bool {
    let shown: usize = events
        .iter()
        .map(|e| match e {
            Event::Battle {
                attacker, defender, ..
            } => attacker.len() + defender.len(),
            _ => 0,
        })
        .sum();
    !rolls.is_empty() && shown == rolls.len()
}
