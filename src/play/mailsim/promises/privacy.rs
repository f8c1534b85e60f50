//! The promises of each mail to a seat: `token_in_subject`, `private`.

use super::super::{hostile, seat_lang};
use super::{Broken, Scene};
use castellan_engine::Session;
use castellan_judge::{GameRecord, Judge, Outbound};

/// token_in_subject, private: every mail of the event to a seat, in the seats' order.
pub(super) fn token_in_subject_and_private(sc: &Scene, out: &mut Broken) {
    for s in 0..sc.rec.seats.len() {
        for m in sc.to_seat(s) {
            token_in_subject(sc, s, m, out);
            private(sc, s, m, out);
        }
    }
}

/// token_in_subject: a mail about the game carries the reader's token in its subject.
fn token_in_subject(sc: &Scene, s: usize, m: &Outbound, out: &mut Broken) {
    let rec = sc.rec;
    let seat = &rec.seats[s];
    if hostile::tag(&m.subject).as_deref() == Some(rec.id.as_str())
        && !m.subject.contains(&format!("#{}", seat.token))
    {
        out.push((
            "token_in_subject",
            format!(
                "a mail to {} has no token in its subject: {:?}",
                seat.name, m.subject
            ),
        ));
    }
}

/// private: a mail to seat `s` carries no other seat's token (subject, headers, body)
/// and no line of another seat's private view.
fn private(sc: &Scene, s: usize, m: &Outbound, out: &mut Broken) {
    let rec = sc.rec;
    let seat = &rec.seats[s];
    for (o, other) in rec.seats.iter().enumerate() {
        if o == s || other.token.is_empty() {
            continue;
        }
        let leaks_token = m.subject.contains(&format!("#{}", other.token))
            || m.headers.iter().any(|(_, v)| v == &other.token)
            || m.body.contains(&format!("#{}", other.token));
        if leaks_token {
            out.push((
                "private",
                format!("a mail to {} carries {}'s token", seat.name, other.name),
            ));
        }
    }
    if let Some(leak) = sc
        .session()
        .and_then(|x| private_leak(x, rec, s, &m.body, sc.judge))
    {
        out.push(("private", leak));
    }
}

/// A line of another seat's private view (in the reader's language) that is in `body`
/// and is neither public nor in the reader's own private view.
fn private_leak(
    session: &dyn Session,
    rec: &GameRecord,
    reader: usize,
    body: &str,
    judge: &Judge,
) -> Option<String> {
    let lang = seat_lang(rec, reader, judge);
    let public = session.public_view(lang);
    let own = session.private_view(reader, lang);
    for o in (0..rec.seats.len()).filter(|o| *o != reader) {
        let theirs = session.private_view(o, lang);
        for line in theirs.lines().map(str::trim).filter(|l| l.len() >= 24) {
            if !public.contains(line) && !own.contains(line) && body.contains(line) {
                return Some(format!(
                    "a mail to {} carries {}'s private line {line:?}",
                    rec.seats[reader].name, rec.seats[o].name
                ));
            }
        }
    }
    None
}
