//! Runs of like events told in one line: an attack's rolls and its conquest, a player's
//! re-occupations.

use super::*;

/// Whether `next` continues the run `run` holds: another battle on the same territories
/// with the same General and Marshal bonuses (a bonus that comes or goes has its own
/// line), or another re-occupation by the same player.
pub(crate) fn same_battle_run(run: &[&Event], next: &Event) -> bool {
    if let (Some(Event::Reoccupied { seat: a, .. }), Event::Reoccupied { seat: b, .. }) =
        (run.first().copied(), next)
    {
        return a == b;
    }
    // A plain attack by land (no General, no Marshal): its declaration, its rolls and its
    // conquest in one line.
    if let Some(Event::AttackDeclared {
        from,
        to,
        ship: None,
        ..
    }) = run.first().copied()
    {
        if matches!(run.last(), Some(Event::Conquered { .. })) {
            return false;
        }
        return match next {
            Event::Battle {
                from: f,
                to: t,
                general: false,
                marshal: false,
                ..
            } => (f, t) == (from, to),
            Event::Conquered {
                to: t,
                by_sea: false,
                ..
            } => t == to && run.len() > 1,
            _ => false,
        };
    }
    let key = |e: &Event| match e {
        Event::Battle {
            from,
            to,
            general,
            marshal,
            ..
        } => Some((*from, *to, *general, *marshal)),
        _ => None,
    };
    match (run.first().and_then(|e| key(e)), key(next)) {
        (Some(a), Some(b)) => a == b,
        _ => false,
    }
}

/// What the attacker and the defender lost in the battles among `events`.
fn losses(events: &[&Event]) -> (u32, u32) {
    events.iter().fold((0, 0), |(a, d), e| match e {
        Event::Battle {
            attacker_losses,
            defender_losses,
            ..
        } => (a + attacker_losses, d + defender_losses),
        _ => (a, d),
    })
}

/// One line for a run ("one line per battle" rather than one a roll): how many
/// rolls, the bonuses, what each side lost (each die is in the report's dice lines); or
/// every territory a player re-occupied, by where the armies came from.
pub(crate) fn battle_run(g: &CastleRisk, run: &[&Event], lang: Lang) -> Option<String> {
    match run.first().copied() {
        Some(Event::AttackDeclared { .. }) => attack_run(g, run, lang),
        Some(Event::Reoccupied { .. }) => reoccupy_run(g, run, lang),
        _ => rolls_run(run, lang),
    }
}

/// "Bot4 attacks Poland from Prussia: 3 rolls, attacker loses 2, defender loses 3; conquers
/// it and moves in 4 armies."
fn attack_run(g: &CastleRisk, run: &[&Event], lang: Lang) -> Option<String> {
    let Some(Event::AttackDeclared { seat, from, to, .. }) = run.first().copied() else {
        return None;
    };
    let battles: Vec<&Event> = run
        .iter()
        .copied()
        .filter(|e| matches!(e, Event::Battle { .. }))
        .collect();
    let (a, d) = losses(&battles);
    let rolls = match battles.as_slice() {
        [Event::Battle {
            attacker, defender, ..
        }] => lang.pick(
            format!(
                "dice {} against {}",
                dice_text(attacker),
                dice_text(defender)
            ),
            format!("dés {} contre {}", dice_text(attacker), dice_text(defender)),
        ),
        _ => lang.pick(
            format!("{} rolls", battles.len()),
            format!("{} lancers", battles.len()),
        ),
    };
    let (who, t, f) = (g.name(*seat), tn(*to, lang), tn(*from, lang));
    let mut line = lang.pick(
        format!("{who} attacks {t} from {f}: {rolls}, attacker loses {a}, defender loses {d}"),
        format!(
            "{who} attaque {} depuis {} : {rolls}, l'attaquant perd {a}, le défenseur perd {d}",
            words::le(*to),
            words::le(*from)
        ),
    );
    if let Some(Event::Conquered { moved, .. }) = run.last().copied() {
        line += &lang.pick(
            format!("; conquers it and moves in {moved} armies."),
            format!(" ; s'en empare et y fait entrer {}.", armees(*moved)),
        );
    } else {
        line.push('.');
    }
    Some(line)
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

/// "  3 rolls (+1 General): attacker loses 2, defender loses 3."
fn rolls_run(run: &[&Event], lang: Lang) -> Option<String> {
    let Some(Event::Battle {
        general, marshal, ..
    }) = run.first().copied()
    else {
        return None;
    };
    let (a, d) = losses(run);
    let n = run.len();
    let bonus = match (general, marshal) {
        (false, false) => String::new(),
        (true, false) => lang.pick(" (+1 General)", " (+1 Général)").to_string(),
        (false, true) => lang
            .pick(" (defender +1 Marshal)", " (défenseur +1 Maréchal)")
            .to_string(),
        (true, true) => lang
            .pick(
                " (+1 General against +1 Marshal)",
                " (+1 Général contre +1 Maréchal)",
            )
            .to_string(),
    };
    Some(lang.pick(
        format!("  {n} rolls{bonus}: attacker loses {a}, defender loses {d}."),
        format!("  {n} lancers{bonus} : l'attaquant perd {a}, le défenseur perd {d}."),
    ))
}
