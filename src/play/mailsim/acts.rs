//! What the people of the simulation do: their next acts planned, each act written as a mail, delivered through
//! the post, and the promises checked after it.

use super::people::{Act, GmHabit, Person, Plan, Timing, HOUR};
use super::promises::{self, Event};
use super::{hostile, session_of, Sim, Violation, T0};
use castellan_judge::{Outbound, Status, StoredGame};
use rand::Rng;

impl Sim {
    /// Who will write next, and when.
    pub(super) fn plan(&mut self, g: &StoredGame) {
        let rec = &g.record;
        let session = session_of(g);
        let awaiting = session.as_ref().map(|s| s.awaiting()).unwrap_or_default();
        let due = rec.deadline.unwrap_or(self.now) + i64::from(rec.deadlines.grace_hours) * HOUR;
        for i in 0..self.people.len() {
            let p = &mut self.people[i];
            if p.plan.is_some() {
                continue;
            }
            if !p.written && p.timing != Timing::Absent {
                let at = self.now + self.rng.random_range(HOUR..12 * HOUR);
                p.plan = Some(Plan {
                    at,
                    act: Act::Confirm,
                });
                continue;
            }
            if rec.status != Status::Running || !awaiting.contains(&i) {
                continue;
            }
            // One plan a prompt: the same deadline and history length is the same prompt.
            let key = (
                rec.deadline,
                session.as_ref().map_or(0, |s| s.history_len()),
            );
            if p.planned_for == Some(key) {
                continue;
            }
            p.planned_for = Some(key);
            if let Some(at) = p.answer_time(self.now, due, &mut self.rng) {
                let act = if p.typos && self.rng.random_bool(0.3) {
                    Act::Typo
                } else if p.chatty && self.rng.random_bool(0.3) {
                    p.chatty = false;
                    Act::Press
                } else {
                    Act::Orders
                };
                p.plan = Some(Plan { at, act });
            }
        }
        if self.gm.plan.is_none() && rec.status == Status::Running && !awaiting.is_empty() {
            let r = self.rng.random_range(0..10);
            let plan = match self.gm_habit {
                GmHabit::Processes if r < 3 => Some((Act::Process, 24 * HOUR)),
                GmHabit::Extends if r < 2 => Some((Act::Extend, 20 * HOUR)),
                GmHabit::Pauses if r < 1 => Some((Act::Pause, 10 * HOUR)),
                GmHabit::Replaces if rec.seats.iter().any(|s| s.disorder) => {
                    Some((Act::Replace, 12 * HOUR))
                }
                GmHabit::Kicks if rec.seats.iter().any(|s| s.disorder) => {
                    Some((Act::Kick, 12 * HOUR))
                }
                _ => None,
            };
            if let Some((act, within)) = plan {
                let at = self.now + self.rng.random_range(HOUR..within);
                self.gm.plan = Some(Plan { at, act });
            }
        } else if self.gm.plan.is_none() && rec.status == Status::Forming {
            // Named players who never confirm: the game master starts without them.
            self.gm.plan = Some(Plan {
                at: self.now + 72 * HOUR,
                act: Act::Start,
            });
        } else if self.gm.plan.is_none() && rec.status == Status::Paused {
            let at = self.now + self.rng.random_range(HOUR..8 * HOUR);
            self.gm.plan = Some(Plan {
                at,
                act: Act::Resume,
            });
        }
    }

    /// Person `who` (None: the game master) does `act`.
    pub(super) fn act(&mut self, who: Option<usize>, act: Act) {
        // A deadline that passes while the mail travels is dealt with first (the daemon
        // ticks every pass): orders written for a turn that has passed are not sent.
        let due = self
            .record()
            .and_then(|r| castellan_judge::stored::next_due(&r));
        if due.is_some_and(|d| d <= self.now + 60) {
            self.now = self.now.max(due.unwrap_or(self.now));
            self.tick();
        }
        let Some(g) = self.stored() else {
            return;
        };
        let session = session_of(&g);
        let rec = g.record;
        let text = match act {
            Act::Confirm => {
                // How people say yes: the welcome's own example as typed, and variants.
                let address = match who {
                    Some(i) => self.people[i].address.as_str(),
                    None => self.gm.address.as_str(),
                };
                let yes = ["Hi, count me in!", "count me in", "I'm in.", "ok"];
                yes[address.len() % yes.len()].to_string()
            }
            Act::Orders | Act::Typo | Act::Press => {
                let Some(i) = who else { return };
                let Some(s) = session.as_ref() else { return };
                if rec.status != Status::Running || !s.awaiting().contains(&i) {
                    return;
                }
                match act {
                    Act::Typo => "ATACKK Atlantis FROM Nowhere".to_string(),
                    Act::Press => "PRESS Good luck, everyone!".to_string(),
                    _ => {
                        let orders = s.bot_text(i);
                        if orders.trim().is_empty() {
                            return;
                        }
                        orders
                    }
                }
            }
            Act::Start if rec.status != Status::Forming => return,
            Act::Start => "START".into(),
            Act::Process => "PROCESS".into(),
            Act::Extend => "EXTEND 24".into(),
            Act::Pause => "PAUSE".into(),
            Act::Resume => "RESUME".into(),
            Act::Replace | Act::Kick => {
                let Some(seat) = rec.seats.iter().position(|s| s.disorder) else {
                    return;
                };
                if act == Act::Kick {
                    format!("KICK {}", seat + 1)
                } else {
                    // The newcomer answers at once and writes plainly.
                    self.replaced += 1;
                    let name = self.people[seat].name.clone();
                    let addr = format!(
                        "sub{}.{}.{}@players.example",
                        self.replaced, seat, self.index
                    );
                    let mut p = Person::new(&name, &addr, &mut self.rng);
                    p.timing = Timing::Prompt;
                    self.pending_replacement = Some((seat, p));
                    format!("REPLACE {} {addr}", seat + 1)
                }
            }
        };
        let text = match who {
            Some(i) if self.people[i].french && !self.people[i].written => {
                format!("LANGUE fr\n{text}")
            }
            _ => text,
        };
        self.mail(who, act, &text);
        self.adopt_replacement();
        // A typo is followed by the right orders; press by the orders too.
        if let (Some(i), Act::Typo | Act::Press) = (who, act) {
            let at = self.now + 1800;
            self.people[i].plan = Some(Plan {
                at,
                act: Act::Orders,
            });
        }
    }

    /// The seat is the newcomer's once the judge has taken the REPLACE.
    pub(super) fn adopt_replacement(&mut self) {
        if let Some((seat, p)) = self.pending_replacement.take() {
            let taken = self
                .record()
                .is_some_and(|r| r.seats[seat].address.as_deref() == Some(p.address.as_str()));
            if taken {
                self.run.behaviours.push("replaced".into());
                self.people[seat] = p;
                self.people[seat].last = self.welcome_of(seat);
                if self.people[seat].last.is_none() {
                    self.violation(
                        "marks_unspellable",
                        format!("the newcomer {} got no welcome", self.people[seat].address),
                    );
                }
            }
        }
    }

    pub(super) fn mail(&mut self, who: Option<usize>, act: Act, text: &str) {
        let id = self.message_id();
        let person = match who {
            Some(i) => &self.people[i],
            None => &self.gm,
        };
        let raw = person.compose(&id, text);
        let from = person.address.clone();
        self.writing = Some(hostile::Writing {
            address: from.clone(),
            message_id: id.clone(),
            about: None,
            stop: false,
            hostile: None,
            named: Vec::new(),
        });
        let sender = match who {
            Some(i) => promises::Sender::Seat(i),
            None => promises::Sender::GameMaster,
        };
        self.deliver_raw(&from, &raw, sender, act);
        match who {
            Some(i) => self.people[i].written = true,
            None => self.gm.written = true,
        }
    }

    /// The raw message through the mail layer and the judge, committed; then the checks.
    pub(super) fn deliver_raw(
        &mut self,
        from: &str,
        raw: &[u8],
        sender: promises::Sender,
        act: Act,
    ) {
        self.now += 60;
        // The daemon's clock ticks every pass: a deadline that passed in the minute the
        // mail took is dealt with before the mail is read.
        let due = self
            .record()
            .and_then(|r| castellan_judge::stored::next_due(&r));
        if due.is_some_and(|d| d <= self.now) {
            self.tick();
        }
        self.events += 1;
        self.run.mails_in += 1;
        let before = self.snapshot();
        let env = self.env();
        match self.post.deliver(raw, &env) {
            Ok(d) => {
                self.work_bounded(&d, sender);
                if self.game.is_empty() {
                    let ids = self.post.store().game_ids().unwrap_or_default();
                    if let Some(id) = ids.first() {
                        self.game = id.clone();
                        self.run.game = format!("{} {id}", self.kind);
                    }
                }
                self.after(
                    before,
                    d.out,
                    Event::Mail {
                        sender,
                        act,
                        message_id: d.read.message_id.clone(),
                        body: d.read.body.clone(),
                    },
                );
            }
            Err(e)
                if matches!(sender, promises::Sender::Hostile(_))
                    && e.starts_with("the mail layer refused") =>
            {
                // A From no address can have is not read at all: nothing changed.
                self.writing = None;
            }
            Err(e) => {
                self.writing = None;
                self.violation("judge_answers", format!("{from}'s mail: {e}"))
            }
        }
    }

    pub(super) fn snapshot(&self) -> promises::Snapshot {
        let g = self.stored();
        let session = g.as_ref().and_then(session_of);
        promises::Snapshot::new(g.map(|g| g.record), session, self.now)
    }

    /// The last mail the event just handled sent to seat `seat`'s address.
    pub(super) fn welcome_of(&self, seat: usize) -> Option<Outbound> {
        let addr = &self.people[seat].address;
        self.last_out.iter().rev().find(|m| &m.to == addr).cloned()
    }

    pub(super) fn after(&mut self, before: promises::Snapshot, mails: Vec<Outbound>, event: Event) {
        self.run.mails_out += mails.len();
        let after = self.snapshot();
        // Each person reads the mails sent to them: what their client will reply to.
        for m in &mails {
            let belongs = m.subject.contains(&format!("[{}", self.game)) || self.game.is_empty();
            for p in self.people.iter_mut().chain(std::iter::once(&mut self.gm)) {
                if m.to == p.address && belongs {
                    p.last = Some(m.clone());
                }
            }
        }
        let found = promises::check(
            &mut self.watch,
            &self.judge,
            &before,
            &after,
            &mails,
            &event,
            &self.people,
        );
        let what = event.describe(&self.people, self.gm.address.as_str());
        for (promise, detail) in found {
            self.push(what.clone(), promise, detail);
        }
        for (promise, detail) in self.hostile_checks(&before, &after, &mails) {
            self.push(what.clone(), promise, detail);
        }
        self.last_out = mails;
    }

    pub(super) fn violation(&mut self, promise: &'static str, detail: String) {
        let what = format!("event {}", self.events);
        self.push(what, promise, detail);
    }

    pub(super) fn push(&mut self, event: String, promise: &'static str, detail: String) {
        if self.run.violations.len() < 50 {
            self.run.violations.push(Violation {
                seed: self.seed,
                index: self.index,
                game: self.run.game.clone(),
                event: format!(
                    "event {} at +{}h: {event}",
                    self.events,
                    (self.now - T0) / HOUR
                ),
                promise,
                detail,
            });
        }
    }
}
