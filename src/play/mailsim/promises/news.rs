//! The promises of the news every player is told: `absence_told`, `elimination_told`,
//! `end_told`, `absent_never_wins`.

use super::super::people::Timing;
use super::{Broken, Scene, Snapshot};
use castellan_judge::{Outbound, Status};

/// absence_told (after a tick): when a seat counts a further miss, every other player
/// reached is mailed its name.
pub(super) fn absence_told(sc: &Scene, out: &mut Broken) {
    if sc.after.status() == Some(Status::Finished) {
        return;
    }
    let rec = sc.rec;
    let b = sc.before.misses();
    for (s, (m, _)) in sc.after.misses().into_iter().enumerate() {
        if b.get(s).is_none_or(|(bm, _)| m <= *bm) {
            continue;
        }
        let name = &rec.seats[s].name;
        for o in (0..rec.seats.len()).filter(|o| *o != s && sc.reachable(*o)) {
            if !sc.to_seat(o).iter().any(|m| m.body.contains(name.as_str())) {
                out.push((
                    "absence_told",
                    format!(
                        "{} missed a deadline and {} was not told",
                        name, rec.seats[o].name
                    ),
                ));
            }
        }
    }
}

/// elimination_told: a seat put out is told so, and so is every other player reached, in
/// the next report each gets. `untold`: (reader, seat put out) not told yet, kept between
/// events.
pub(super) fn elimination_told(sc: &Scene, untold: &mut Vec<(usize, usize)>, out: &mut Broken) {
    let rec = sc.rec;
    let was_out = |s: usize| sc.before.rec.as_ref().is_some_and(|r| r.is_out(s));
    for o in rec.out.iter().filter(|o| !was_out(o.seat)) {
        for r in (0..rec.seats.len()).filter(|r| sc.reachable(*r) || *r == o.seat) {
            if !untold.contains(&(r, o.seat)) {
                untold.push((r, o.seat));
            }
        }
    }
    // A newcomer (REPLACE) takes the seat after the news: their reports show the table as
    // it is (the seats out marked), there is nothing to tell them as news.
    let address = |snap: &Snapshot, s: usize| {
        snap.rec
            .as_ref()
            .and_then(|r| r.seats.get(s))
            .and_then(|x| x.address.clone())
    };
    untold.retain(|(r, _)| address(sc.before, *r) == address(sc.after, *r));
    for (r, x) in std::mem::take(untold) {
        // Reports (their subject names the turn) and whatever says it; a notice (PAUSE,
        // a newcomer) between the elimination and the next report does not count.
        let says_out = |b: &str| b.contains("out of the game") || b.contains("hors jeu");
        let mine: Vec<&Outbound> = sc
            .to_seat(r)
            .into_iter()
            .filter(|m| {
                m.subject.contains("Turn ") || m.subject.contains("Tour ") || says_out(&m.body)
            })
            .collect();
        if mine.is_empty() || !sc.reachable(r) {
            untold.push((r, x));
            continue;
        }
        let name = rec.seats[x].name.as_str();
        let says = |b: &str| says_out(b) && (r == x || b.contains(name));
        if !mine.iter().any(|m| says(&m.body)) {
            out.push((
                "elimination_told",
                format!(
                    "{} was put out and {}'s next mail does not say it: {:?}",
                    name,
                    rec.seats[r].name,
                    mine.iter().map(|m| m.subject.as_str()).collect::<Vec<_>>()
                ),
            ));
        }
    }
}

/// end_told, absent_never_wins (when the game has just ended): every player reached is
/// mailed, and no one who never wrote wins while someone present to the end loses.
pub(super) fn end_told_and_absent_never_wins(sc: &Scene, out: &mut Broken) {
    if sc.after.status() != Some(Status::Finished) || sc.before.status() == Some(Status::Finished) {
        return;
    }
    let rec = sc.rec;
    for s in (0..rec.seats.len()).filter(|s| sc.reachable(*s)) {
        if sc.to_seat(s).is_empty() {
            out.push((
                "end_told",
                format!("{} was not told the game ended", rec.seats[s].name),
            ));
        }
    }
    let Some(o) = sc.session().and_then(|x| x.outcome()) else {
        return;
    };
    let people = sc.people;
    // Someone present to the end who does not share the win lost to the absence.
    let present = |s: usize| {
        rec.seats[s].played_by_mail()
            && !rec.seats[s].disorder
            && people.get(s).is_some_and(|p| p.timing != Timing::Absent)
    };
    let someone_played = (0..rec.seats.len()).any(|s| present(s) && !o.winners.contains(&s));
    // A seat the game master handed to a bot (KICK) plays to win by their choice.
    for w in o.winners.into_iter().filter(|w| !rec.seats[*w].bot) {
        if someone_played && people.get(w).is_some_and(|p| p.timing == Timing::Absent) {
            out.push((
                "absent_never_wins",
                format!("{} never wrote and won ({})", rec.seats[w].name, o.reason),
            ));
        }
    }
}
