use super::super::people::Timing;
use super::super::post::Pure;
use super::super::{judge, seat_lang, Sim};
use super::*;

/// Game `index` of seed 7 (index 0: Castle Risk, 3: Castello), everyone confirming at
/// once, played until the game runs and awaits someone.
fn running(index: usize) -> Sim {
    let mut sim = Sim::new(7, index, Box::new(Pure::new(judge())));
    for p in &mut sim.people {
        p.timing = Timing::Prompt;
    }
    sim.create();
    while sim.events < 200 {
        let rec = sim.record().expect("the game exists");
        if rec.status == Status::Running && !sim.snapshot().awaiting().is_empty() {
            return sim;
        }
        assert!(sim.step(), "the game goes on");
    }
    panic!("the game never ran");
}

fn broken(
    sim: &Sim,
    before: &Snapshot,
    after: &Snapshot,
    mails: &[Outbound],
    event: &Event,
) -> Vec<&'static str> {
    let mut watch = Watch::default();
    check(
        &mut watch,
        &sim.judge,
        before,
        after,
        mails,
        event,
        &sim.people,
    )
    .into_iter()
    .map(|(p, _)| p)
    .collect()
}

fn mail(to: &str, subject: &str, body: &str, in_reply_to: Option<&str>) -> Outbound {
    Outbound {
        message_id: "<x@example.org>".into(),
        to: to.into(),
        subject: subject.into(),
        body: body.into(),
        in_reply_to: in_reply_to.map(str::to_string),
        references: Vec::new(),
        headers: Vec::new(),
        html: None,
        attachments: Vec::new(),
    }
}

fn seat_addr(sim: &Sim, s: usize) -> String {
    sim.people[s].address.clone()
}

#[test]
fn a_seat_awaited_and_never_mailed_breaks_asked_and_told_deadline() {
    let sim = running(0);
    let (b, a) = (sim.snapshot(), sim.snapshot());
    let found = broken(&sim, &b, &a, &[], &Event::Tick);
    assert!(found.contains(&"asked"), "{found:?}");
    assert!(found.contains(&"told_deadline"), "{found:?}");
}

#[test]
fn a_deadline_in_the_past_breaks_deadline_in_force() {
    let sim = running(3);
    let b = sim.snapshot();
    let mut a = sim.snapshot();
    let rec = a.rec.as_ref().unwrap();
    a.now = rec.deadline.unwrap() + i64::from(rec.deadlines.grace_hours) * 3600 + 1;
    assert!(broken(&sim, &b, &a, &[], &Event::Tick).contains(&"deadline_in_force"));
}

#[test]
fn a_subject_without_the_readers_token_and_another_seats_token_are_caught() {
    let sim = running(3);
    let (b, a) = (sim.snapshot(), sim.snapshot());
    let rec = a.rec.clone().unwrap();
    let to0 = seat_addr(&sim, 0);
    let no_token = mail(&to0, &format!("[{}] Turn 2", rec.id), "", None);
    assert!(broken(&sim, &b, &a, &[no_token], &Event::Tick).contains(&"token_in_subject"));
    let theirs = mail(
        &to0,
        &format!("[{} #{}] Turn 2", rec.id, rec.seats[0].token),
        &format!("reply with #{}", rec.seats[1].token),
        None,
    );
    assert!(broken(&sim, &b, &a, &[theirs], &Event::Tick).contains(&"private"));
}

#[test]
fn another_seats_private_view_in_a_mail_breaks_private() {
    let mut sim = running(0);
    // On until seat 1 knows something seat 0 does not (a card, hidden armies).
    let secret = loop {
        let a = sim.snapshot();
        let rec = a.rec.clone().unwrap();
        let session = a.session.as_ref().unwrap();
        let lang = seat_lang(&rec, 0, &sim.judge);
        let (public, own) = (session.public_view(lang), session.private_view(0, lang));
        let theirs = session.private_view(1, lang);
        let line = theirs
            .lines()
            .map(str::trim)
            .find(|l| l.len() >= 24 && !public.contains(l) && !own.contains(l));
        if let Some(l) = line {
            break l.to_string();
        }
        assert!(
            sim.step() && sim.events < 2000,
            "seat 1 never knew a secret"
        );
    };
    let (b, a) = (sim.snapshot(), sim.snapshot());
    let rec = a.rec.clone().unwrap();
    let leaked = mail(
        &seat_addr(&sim, 0),
        &format!("[{} #{}] Turn", rec.id, rec.seats[0].token),
        &format!("What happened:\n  {secret}\n"),
        None,
    );
    let found = broken(&sim, &b, &a, &[leaked], &Event::Tick);
    assert!(found.contains(&"private"), "{found:?} for {secret}");
}

fn mail_event(sim: &Sim, seat: usize, act: Act) -> Event {
    let _ = sim;
    Event::Mail {
        sender: Sender::Seat(seat),
        act,
        message_id: "<in@players.example>".into(),
        body: String::new(),
    }
}

#[test]
fn unanswered_refused_or_falsely_refused_mails_are_caught() {
    let sim = running(3);
    let (b, a) = (sim.snapshot(), sim.snapshot());
    let seat = a.awaiting()[0];
    let addr = seat_addr(&sim, seat);
    // No reply at all.
    let found = broken(&sim, &b, &a, &[], &mail_event(&sim, seat, Act::Orders));
    assert!(
        found.contains(&"answered") && found.contains(&"orders_applied"),
        "{found:?}"
    );
    // Orders answered "Nothing to do" and not applied.
    let nothing = mail(
        &addr,
        "Re",
        "== Nothing to do ==",
        Some("<in@players.example>"),
    );
    let found = broken(
        &sim,
        &b,
        &a,
        std::slice::from_ref(&nothing),
        &mail_event(&sim, seat, Act::Orders),
    );
    assert!(found.contains(&"orders_applied"), "{found:?}");
    // A greeting answered as an error.
    let found = broken(
        &sim,
        &b,
        &a,
        &[nothing],
        &mail_event(&sim, seat, Act::Confirm),
    );
    assert!(found.contains(&"greeting_not_an_error"), "{found:?}");
    // A refusal while the game moved (the history grew since `old`).
    let mut sim = sim;
    let old = sim.snapshot();
    while sim.snapshot().history() == old.history() {
        assert!(sim.step());
    }
    let now = sim.snapshot();
    let refused = mail(
        &addr,
        "Re",
        "Nothing was applied (orders are all or nothing)",
        Some("<in@players.example>"),
    );
    let found = broken(
        &sim,
        &old,
        &now,
        &[refused],
        &mail_event(&sim, seat, Act::Press),
    );
    assert!(found.contains(&"no_false_refusal"), "{found:?}");
    // A typo that moved the game, and whose reply does not quote it.
    let found = broken(&sim, &old, &now, &[], &mail_event(&sim, seat, Act::Typo));
    assert!(found.contains(&"typo_refused"), "{found:?}");
}

#[test]
fn a_miss_counted_by_process_or_told_to_nobody_is_caught() {
    let sim = running(0);
    let b = sim.snapshot();
    let mut a = sim.snapshot();
    a.rec.as_mut().unwrap().seats[1].misses += 1;
    let process = Event::Mail {
        sender: Sender::GameMaster,
        act: Act::Process,
        message_id: "<gm@players.example>".into(),
        body: "PROCESS".into(),
    };
    let found = broken(&sim, &b, &a, &[], &process);
    assert!(found.contains(&"process_not_a_miss"), "{found:?}");
    let found = broken(&sim, &b, &a, &[], &Event::Tick);
    assert!(found.contains(&"absence_told"), "{found:?}");
}

#[test]
fn an_end_told_to_nobody_or_won_by_an_absent_player_is_caught() {
    let mut sim = Sim::new(7, 3, Box::new(Pure::new(judge())));
    for p in &mut sim.people {
        p.timing = Timing::Prompt;
    }
    sim.create();
    while sim.step() && sim.events < 3000 {}
    let a = sim.snapshot();
    assert_eq!(a.status(), Some(Status::Finished), "the Castello game ends");
    let mut b = sim.snapshot();
    b.rec.as_mut().unwrap().status = Status::Running;
    let winners = a.session.as_ref().unwrap().outcome().unwrap().winners;
    let found = broken(&sim, &b, &a, &[], &Event::Tick);
    assert!(found.contains(&"end_told"), "{found:?}");
    if let Some(w) = winners.first() {
        sim.people[*w].timing = Timing::Absent;
        let found = broken(&sim, &b, &a, &[], &Event::Tick);
        assert!(found.contains(&"absent_never_wins"), "{found:?}");
    }
}
