//! The simulated world's hostile side: what the hostile senders and the
//! bystanders of hostile.rs write, and the checks of their promises after every event, as
//! methods of the game's world ([`Sim`]).

use super::hostile::{self, Kind};
use super::people::Act;
use super::{post, promises, session_of, Sim, GAMES, GM, OBSERVER};
use castellan_judge::{GameRecord, Outbound, Status};
use rand::Rng;

impl Sim {
    /// A bystander writes `text` (HELP, STOP): it never plays.
    pub(super) fn bystander_mail(&mut self, from: &str, text: &str) {
        let id = self.message_id();
        let raw = hostile::raw(from, text, &id, text);
        self.writing = Some(hostile::Writing {
            address: from.to_string(),
            message_id: id,
            about: None,
            stop: text == "STOP",
            hostile: None,
            named: Vec::new(),
        });
        self.deliver_raw(from, &raw, promises::Sender::Bystander, Act::Confirm);
    }

    /// The addresses of the players who have written (a forger's or guesser's target).
    fn written_seats(&self, rec: &GameRecord) -> Vec<(usize, String)> {
        rec.seats
            .iter()
            .enumerate()
            .filter(|(i, s)| {
                !s.bot
                    && !s.resigned
                    && self.people.get(*i).is_some_and(|p| {
                        p.written && s.address.as_deref() == Some(p.address.as_str())
                    })
            })
            .map(|(i, s)| (i, s.address.clone().unwrap_or_default()))
            .collect()
    }

    /// Hostile sender `i` writes its next mail (module hostile.rs says who does what).
    pub(super) fn hostile_act(&mut self, i: usize) {
        let kind = self.hostiles[i].kind;
        let n = self.hostiles[i].sent;
        self.hostiles[i].sent += 1;
        self.hostiles[i].left -= 1;
        self.hostiles[i].next = hostile::next_after(kind, self.now, &mut self.hrng);
        let Some(g) = self.stored() else { return };
        let rec = &g.record;
        if rec.status == Status::Finished {
            return;
        }
        let game = self.game.clone();
        let own = self.hostiles[i].address.clone();
        let seats = self.written_seats(rec);
        let target =
            (!seats.is_empty()).then(|| seats[self.hrng.random_range(0..seats.len())].clone());
        let mut named = Vec::new();
        let (from, subject, body) = match kind {
            Kind::Stranger => {
                let mut extra: Vec<String> = self
                    .bystanders
                    .iter()
                    .flat_map(|b| [b.helped.clone(), b.stopped.clone()])
                    .collect();
                if let Some((_, a)) = &target {
                    extra.push(a.clone());
                }
                let (text, who) = match n % 5 {
                    0 | 4 => {
                        let kind = GAMES[self.hrng.random_range(0..GAMES.len())].0;
                        let lines = self.hrng.random_range(1..=20);
                        hostile::creates(kind, lines, self.index, n, &extra, n == 4)
                    }
                    1 => hostile::tournament(self.index, n, 12, &extra),
                    2 => (format!("HISTORY {game}"), Vec::new()),
                    _ => match &target {
                        Some((_, a)) => (format!("RECORD {a}"), vec![a.clone()]),
                        None => ("LIST".to_string(), Vec::new()),
                    },
                };
                named = who;
                (own, "Hello".to_string(), text)
            }
            Kind::Forger => {
                let Some((seat, addr)) = target else { return };
                let session = session_of(&g);
                let orders = session
                    .as_ref()
                    .map(|s| s.bot_text(seat))
                    .unwrap_or_default();
                let body = match n % 3 {
                    0 => "RESIGN".to_string(),
                    1 if !orders.trim().is_empty() => orders,
                    _ => "PASSWORD wrong-guess-1234\nRESIGN".to_string(),
                };
                let subject = if n.is_multiple_of(2) {
                    format!("Re: [{game}] your move")
                } else {
                    format!(
                        "Re: [{game} #{}] your move",
                        hostile::made_up_token(&mut self.hrng)
                    )
                };
                (addr, subject, body)
            }
            Kind::Guesser => {
                let Some((_, addr)) = target else { return };
                let a = hostile::made_up_token(&mut self.hrng);
                let b = hostile::made_up_token(&mut self.hrng);
                (
                    addr,
                    format!("Re: [{game} #{a}] [{game} #{b}]"),
                    "STATUS".to_string(),
                )
            }
            Kind::KeySpeller => {
                let from = match n {
                    0 if self.observer => format!("stop/{OBSERVER}"),
                    0 | 1 => format!("asked/sub1.0.{}@players.example", self.index),
                    _ => format!("failed-tries/{game}/seat-0"),
                };
                (from, "help".to_string(), "HELP".to_string())
            }
            Kind::Flooder => (own, "help".to_string(), "HELP".to_string()),
        };
        let id = self.message_id();
        let raw = hostile::raw(&from, &subject, &id, &body);
        self.writing = Some(hostile::Writing {
            address: from.to_lowercase(),
            message_id: id,
            about: None,
            stop: false,
            hostile: Some(kind),
            named,
        });
        self.deliver_raw(&from, &raw, promises::Sender::Hostile(kind), Act::Confirm);
    }

    /// `work_bounded` (hostile.rs): at most one slow password hash a mail, and a hostile
    /// sender's answer within the reply budget its mail buys.
    pub(super) fn work_bounded(&mut self, d: &post::Delivered, sender: promises::Sender) {
        let max = castellan_judge::MAX_SLOW_HASHES_PER_MAIL;
        if let Some(n) = d.slow_hashes.filter(|n| *n > max) {
            self.violation(
                "work_bounded",
                format!("one mail cost {n} Argon2id hashes (at most {max})"),
            );
        }
        if !matches!(sender, promises::Sender::Hostile(_)) {
            return;
        }
        let request = d.read.subject.len() + d.read.body.len() + d.read.from.len();
        let budget = castellan_judge::reply_budget(self.judge.config().max_reply_bytes, request);
        let answer: usize = d
            .out
            .iter()
            .filter(|m| m.in_reply_to.as_deref() == Some(d.read.message_id.as_str()))
            .map(|m| m.body.len() + m.html.as_ref().map_or(0, String::len))
            .sum();
        if answer > budget {
            self.violation(
                "work_bounded",
                format!(
                    "a {request}-byte hostile mail got a {answer}-byte answer (budget {budget})"
                ),
            );
        }
    }

    /// The hostile population's promises (hostile.rs) after one event.
    pub(super) fn hostile_checks(
        &mut self,
        before: &promises::Snapshot,
        after: &promises::Snapshot,
        mails: &[Outbound],
    ) -> Vec<(&'static str, String)> {
        let mut writing = self.writing.take();
        if let Some(w) = writing.as_mut() {
            // The players, the game master and the observer write about their game.
            if w.hostile.is_none() && w.about.is_none() && !self.game.is_empty() {
                let bystander = self
                    .bystanders
                    .as_ref()
                    .is_some_and(|b| w.address == b.helped || w.address == b.stopped);
                if !bystander {
                    w.about = Some(self.game.clone());
                }
            }
            self.ledger.wrote(w);
        }
        let mut people: Vec<String> = self
            .people
            .iter()
            .map(|p| p.address.clone())
            .chain([GM.to_string(), OBSERVER.to_string()])
            .collect();
        if let Some(b) = &self.bystanders {
            people.push(b.helped.clone());
            people.push(b.stopped.clone());
        }
        let fp = |s: &promises::Snapshot| hostile::fingerprint(s.rec.as_ref(), s.history_len());
        let mut found = self.ledger.check(
            writing.as_ref(),
            &fp(before),
            &fp(after),
            mails,
            self.now,
            &people,
            self.judge.config().rate_limit_per_hour,
        );
        // An observer nobody stopped is told the end, whatever senders spelled like the
        // judge's marks wrote.
        let ended = before
            .rec
            .as_ref()
            .is_some_and(|r| r.status != Status::Finished)
            && after
                .rec
                .as_ref()
                .is_some_and(|r| r.status == Status::Finished);
        let watching = after
            .rec
            .as_ref()
            .is_some_and(|r| r.observers.iter().any(|o| o == OBSERVER));
        if ended && watching && !mails.iter().any(|m| m.to == OBSERVER) {
            found.push((
                "marks_unspellable",
                "the game ended and its observer was not told".into(),
            ));
        }
        found
    }
}
