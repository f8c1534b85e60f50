//! The promises of the mail of the event: `answered`, `no_false_refusal`,
//! `orders_applied`, `typo_refused`, `greeting_not_an_error`, `process_not_a_miss`.

use super::{Act, Broken, Scene, Sender, REFUSALS};
use castellan_judge::Outbound;

/// What the judge did with the mail of the event (`message_id`, from `sender`): it is
/// answered, its answer refuses nothing that moved, and what it asked (orders, a typo, a
/// greeting, PROCESS) had the effect promised.
pub(super) fn the_mail_and_its_answer(
    sc: &Scene,
    sender: Sender,
    act: Act,
    message_id: &str,
    out: &mut Broken,
) {
    let rec = sc.rec;
    let from = match sender {
        Sender::Seat(i) => rec.seats.get(i).and_then(|x| x.address.clone()),
        Sender::GameMaster => Some(rec.gm.clone()),
        Sender::Observer | Sender::Hostile(_) | Sender::Bystander => None,
    };
    let reply = from.as_ref().and_then(|f| {
        sc.mails
            .iter()
            .find(|m| &m.to == f && m.in_reply_to.as_deref() == Some(message_id))
    });
    if from.is_some() && reply.is_none() {
        out.push(("answered", format!("{act:?} got no reply")));
    }
    let grew = sc.after.history() > sc.before.history();
    let refusal = reply.and_then(|r| REFUSALS.iter().find(|p| r.body.contains(**p)));
    if let Some(p) = refusal {
        no_false_refusal(sc, act, from.as_deref(), p, grew, out);
    }
    if let Sender::Seat(i) = sender {
        match act {
            Act::Orders => orders_applied(sc, i, reply, refusal.is_some(), grew, out),
            Act::Typo => typo_refused(reply, grew, out),
            Act::Confirm => greeting_not_an_error(reply, out),
            _ => {}
        }
    }
    if act == Act::Process {
        process_not_a_miss(sc, out);
    }
}

/// no_false_refusal: an answer that says nothing was applied (`refusal`) when the game
/// moved, or when the press the mail sent went out to the others.
fn no_false_refusal(
    sc: &Scene,
    act: Act,
    from: Option<&str>,
    refusal: &str,
    grew: bool,
    out: &mut Broken,
) {
    let pressed = act == Act::Press
        && sc
            .mails
            .iter()
            .any(|m| Some(m.to.as_str()) != from && m.body.contains("Good luck, everyone!"));
    if grew || pressed {
        out.push((
            "no_false_refusal",
            format!(
                "the reply says {refusal:?} though {}",
                if grew {
                    "the game moved"
                } else {
                    "the press went out"
                }
            ),
        ));
    }
}

/// orders_applied: seat `i`'s orders moved the game (its history, what it is awaited for,
/// or whether it is awaited) and their answer refuses nothing.
fn orders_applied(
    sc: &Scene,
    i: usize,
    reply: Option<&Outbound>,
    refused: bool,
    grew: bool,
    out: &mut Broken,
) {
    let moved = grew || sc.before.key(i) != sc.after.key(i) || !sc.awaiting.contains(&i);
    if !moved || refused {
        out.push((
            "orders_applied",
            format!(
                "the orders were not applied; the reply began: {:?}",
                reply.map(|r| r.body.lines().take(6).collect::<Vec<_>>().join(" / "))
            ),
        ));
    }
}

/// typo_refused: a line that is no order changes nothing and its answer quotes it.
fn typo_refused(reply: Option<&Outbound>, grew: bool, out: &mut Broken) {
    let quoted = reply.is_some_and(|r| r.body.contains("ATACKK"));
    if grew || !quoted {
        out.push((
            "typo_refused",
            format!("history grew: {grew}; the reply quoted the line: {quoted}"),
        ));
    }
}

/// greeting_not_an_error: a greeting's answer neither fails to understand nor refuses.
fn greeting_not_an_error(reply: Option<&Outbound>, out: &mut Broken) {
    if let Some(r) = reply.filter(|r| {
        r.body.contains("Not understood")
            || r.body.contains("Non compris")
            || r.body.contains(" refused ==")
            || r.body.contains(" refusés ==")
            || REFUSALS.iter().any(|p| r.body.contains(p))
    }) {
        out.push((
            "greeting_not_an_error",
            format!(
                "the reply: {:?}",
                r.body.lines().take(4).collect::<Vec<_>>().join(" / ")
            ),
        ));
    }
}

/// process_not_a_miss: after the game master's PROCESS no seat counts a further miss,
/// nor is handed to a bot.
fn process_not_a_miss(sc: &Scene, out: &mut Broken) {
    let b = sc.before.misses();
    for (s, (m, bot)) in sc.after.misses().into_iter().enumerate() {
        if b.get(s).is_some_and(|(bm, bb)| m > *bm || (bot && !bb)) {
            out.push((
                "process_not_a_miss",
                format!(
                    "{} counted a missed deadline after PROCESS",
                    sc.rec.seats[s].name
                ),
            ));
        }
    }
}
