//! The promises of the game's waiting: `deadline_in_force`, `asked`, `told_deadline`.

use super::super::seat_lang;
use super::{Broken, Scene, SeatWatch};
use castellan_engine::Lang;
use castellan_judge::{format_long_zoned, format_short_zoned};

/// deadline_in_force: a game that awaits someone has a deadline, and not one past its grace.
pub(super) fn deadline_in_force(sc: &Scene, out: &mut Broken) {
    let awaiting = &sc.awaiting;
    if awaiting.is_empty() {
        return;
    }
    let grace = i64::from(sc.rec.deadlines.grace_hours) * 3600;
    match sc.rec.deadline {
        None => out.push((
            "deadline_in_force",
            format!("seats {awaiting:?} are awaited and the game has no deadline"),
        )),
        Some(d) if d + grace <= sc.after.now => out.push((
            "deadline_in_force",
            format!(
                "seats {awaiting:?} are awaited on a deadline {} h in the past",
                (sc.after.now - d) / 3600
            ),
        )),
        _ => {}
    }
}

/// asked, told_deadline: each seat awaited was mailed its question and the deadline in
/// force (once a question and deadline: one violation, not one an event).
pub(super) fn asked_and_told_deadline(sc: &Scene, seats: &mut [SeatWatch], out: &mut Broken) {
    let rec = sc.rec;
    let awaiting_or_paused = sc.after.awaiting_or_paused();
    for (s, w) in seats.iter_mut().enumerate().take(rec.seats.len()) {
        let key = if awaiting_or_paused.contains(&s) {
            sc.after.key(s)
        } else {
            None
        };
        if key != w.key {
            w.key = key.clone();
            w.asked = false;
            w.reported_ask = false;
        }
        let Some(key) = key else { continue };
        if !sc.awaiting.contains(&s) {
            continue;
        }
        let lang = seat_lang(rec, s, sc.judge);
        heard(sc, s, lang, w);
        if !sc.reachable(s) {
            continue;
        }
        if !w.asked && !w.reported_ask {
            w.reported_ask = true;
            out.push((
                "asked",
                format!(
                    "{} is awaited for {:?} (turn {}) and no mail asked them",
                    rec.seats[s].name, key.1, key.0
                ),
            ));
        }
        if let Some(d) = rec.deadline {
            if w.told != Some(d) && w.reported_deadline != Some(d) {
                w.reported_deadline = Some(d);
                out.push((
                    "told_deadline",
                    format!(
                        "{} is awaited and was never mailed the deadline in force ({})",
                        rec.seats[s].name,
                        format_long_zoned(d, lang, None)
                    ),
                ));
            }
        }
    }
}

/// What the event's mails to seat `s` told it: a question it is awaited for, the deadline
/// in force (long or short, in the seat's zone).
fn heard(sc: &Scene, s: usize, lang: Lang, w: &mut SeatWatch) {
    let rec = sc.rec;
    let mine = sc.to_seat(s);
    if let Some(session) = sc.session() {
        let questions: Vec<String> = session
            .pending(lang)
            .into_iter()
            .filter(|p| p.seat == s)
            .map(|p| p.question)
            .collect();
        if mine
            .iter()
            .any(|m| questions.iter().any(|q| m.body.contains(q.as_str())))
        {
            w.asked = true;
        }
    }
    if let Some(d) = rec.deadline {
        let zone = rec.seats[s].address.as_deref().and_then(|a| rec.zone_of(a));
        let long = format_long_zoned(d, lang, zone);
        let short = format_short_zoned(d, lang, zone);
        if mine
            .iter()
            .any(|m| m.body.contains(&long) || m.body.contains(&short))
        {
            w.told = Some(d);
        }
    }
}
