//! Bounces, as Mailman reads them: a delivery status notification (RFC 3464, read by the
//! mail layer into [`Inbound::bounce`]) about a mail the judge sent counts one hard
//! bounce (`Action: failed`, a `5.x.x` status) against the address it names; a soft one
//! (`4.x.x`, a delay) counts nothing. At `bounces_before_stop` hard bounces the address
//! gets no more mail, of any game ([`Run::only_those_who_asked`] drops it), and the game
//! masters of the games where it holds a seat are told once (a notice, `bounced`). A later
//! mail from the address itself lifts it ([`Run::lift_stop`]), and it counts from 0 again.
//! Bounces short of the stop whose last is older than `bounces_stale_days` (7) are
//! forgotten when the next one comes: a mailbox full now and then never adds up to a stop.
//! A DSN is never answered, whatever it says.
//!
//! The tally is kept beside the senders' counters under a key no address can spell
//! ([`mark_key`]: `\0bounces/ADDRESS`, `count` the hard bounces so far).
//!
//! **Forged DSNs.** A DSN counts only when the mail it returns has a Message-ID the
//! judge's way (`@DOMAIN>`, as `Judge::msgid` makes them) and its recipient is an address
//! of a game (a seat, a game master or an observer). A forger cannot make the judge mail
//! anyone (a DSN is never answered, and the one notice goes to game masters about their
//! own games), cannot stop an address no game names, and cannot make a real DSN about
//! someone else's mail count. What a forger who knows a player's address and the judge's
//! domain can do is send `bounces_before_stop` DSNs of their own (each with a new
//! Message-ID) and so hold back that player's mail: the game master is told, so it does
//! not go unseen, and the player's next mail undoes it (as with a forged STOP). An
//! operator who fears that sets `bounces_before_stop: 0`.

use crate::judge::Judge;
use crate::model::*;
use crate::run::*;
use crate::store::{Changes, Store};

/// Recipients of one DSN counted at most: a report naming more counts its first ones.
const RECIPIENTS_PER_DSN: usize = 8;

fn bounces_key(addr: &str) -> String {
    mark_key("bounces", addr)
}

impl Judge {
    /// What `mail` (`mid`), automatic mail, writes when it is a DSN: its hard bounces
    /// counted in a handling of its own, whose only mail is a notice to game masters.
    /// Another automatic mail writes nothing more.
    pub(crate) fn read_bounce(
        &self,
        store: &dyn Store,
        env: &Env,
        mail: &Inbound,
        mid: &str,
        key: String,
        mut changes: Changes,
    ) -> Result<Changes, StoreError> {
        let Some(dsn) = &mail.bounce else {
            return Ok(changes);
        };
        let mut run = Run::new(self, store, env, key);
        run.count_bounce(dsn, mid)?;
        run.only_those_who_asked(None)?;
        run.finish_into(&mut changes);
        Ok(changes)
    }
}

impl Run<'_> {
    /// Count what `dsn` (a mail with Message-ID `mid`) says: one hard bounce for each
    /// address of a game it names, when the mail it returns is the judge's.
    pub(crate) fn count_bounce(&mut self, dsn: &Dsn, mid: &str) -> Result<(), StoreError> {
        let limit = self.j.config.bounces_before_stop;
        if limit == 0 {
            return Ok(());
        }
        let ours = format!("@{}>", lower(&self.j.config.domain));
        let original = dsn.original_message_id.as_deref().map(lower);
        if !original.as_deref().is_some_and(|id| id.ends_with(&ours)) {
            let named = original.as_deref().unwrap_or("no mail");
            let text = format!("DSN {mid} about {named}, not a mail of the judge's: not counted");
            self.glog("", "bounce", text);
            return Ok(());
        }
        let mut counted: Vec<String> = Vec::new();
        for r in dsn.recipients.iter().take(RECIPIENTS_PER_DSN) {
            let Ok(addr) = crate::ident::canonical_address(&r.address) else {
                continue;
            };
            if counted.contains(&addr) || !spells_an_address(&addr) {
                continue;
            }
            if !r.hard() {
                let text = format!(
                    "DSN {mid}: {addr} {} {}, soft: not counted",
                    r.action, r.status
                );
                self.glog("", "bounce", text);
                continue;
            }
            let games = self.store.games_of_address(&addr)?;
            if games.is_empty() {
                let text = format!("DSN {mid}: {addr} is in no game: not counted");
                self.glog("", "bounce", text);
                continue;
            }
            counted.push(addr.clone());
            let now = self.now();
            self.forget_stale_bounces(&addr, now)?;
            let n = self
                .counters
                .add_to_tally(self.store, &bounces_key(&addr), now)?;
            let text = format!("DSN {mid}: {addr} {}, hard bounce {n} of {limit}", r.status);
            self.glog("", "bounce", text);
            if n == limit {
                self.tell_bounced(&addr, &games, n)?;
            }
        }
        Ok(())
    }

    /// Bounces of `addr` short of the stop, the last of them older than
    /// `bounces_stale_days`: forgotten, so the one being counted is the first again.
    fn forget_stale_bounces(&mut self, addr: &str, now: i64) -> Result<(), StoreError> {
        let days = self.j.config.bounces_stale_days;
        let key = bounces_key(addr);
        let Some((n, last)) = self.counters.tally_at(self.store, &key)? else {
            return Ok(());
        };
        let stale = days > 0 && now.saturating_sub(last) > i64::from(days) * 86_400;
        if n > 0 && n < self.j.config.bounces_before_stop && stale {
            let text = format!("{addr}: {n} hard bounce(s) older than {days} days forgotten");
            self.glog("", "bounce", text);
            self.counters.set_mark(key, false, now);
        }
        Ok(())
    }

    /// `addr` gets no more mail: the game masters of the games it holds a seat in (and
    /// does not run) are told.
    fn tell_bounced(&mut self, addr: &str, games: &[String], n: u32) -> Result<(), StoreError> {
        self.glog(
            "",
            "bounced",
            format!("no more mail to {addr}: {n} hard bounces"),
        );
        for id in games {
            let Some(rec) = self.store.game_header(id)? else {
                continue;
            };
            let gm = lower(&rec.gm);
            let Some(seat) = rec.seat_of(addr) else {
                continue;
            };
            if rec.status == Status::Finished || gm == addr {
                continue;
            }
            let event = crate::mails::Event::Bounced {
                name: rec.seats[seat].name.clone(),
                address: addr.to_string(),
                bounces: n,
            };
            self.notify(&rec, &[gm], event);
        }
        Ok(())
    }

    /// Does `addr` get no more mail for its bounces?
    pub(crate) fn bounced(&self, addr: &str) -> Result<bool, StoreError> {
        let limit = self.j.config.bounces_before_stop;
        Ok(limit > 0 && self.counters.tally(self.store, &bounces_key(addr))? >= limit)
    }

    /// A mail from `addr` itself: its bounces are forgotten.
    pub(crate) fn lift_bounces(&mut self, addr: &str) -> Result<(), StoreError> {
        if self.counters.tally(self.store, &bounces_key(addr))? > 0 {
            self.glog("", "bounce", format!("{addr} wrote: its bounces forgotten"));
            let now = self.now();
            self.counters.set_mark(bounces_key(addr), false, now);
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::JudgeConfig;
    use crate::testing::{game, Bench, GM, SEATS};

    const BOB: &str = SEATS[1].1;

    fn dsn(original: &str, to: &str, status: &str) -> Dsn {
        Dsn {
            original_message_id: Some(original.into()),
            recipients: vec![DsnRecipient {
                address: to.into(),
                action: "failed".into(),
                status: status.into(),
            }],
        }
    }

    /// Handle `d` on `bench` as a handling of its own; the mails it sends.
    fn count(bench: &Bench, d: &Dsn) -> Vec<String> {
        let mut run = bench.run();
        run.count_bounce(d, "<dsn@mx.example.org>").unwrap();
        run.only_those_who_asked(None).unwrap();
        let to = run.mails.iter().map(|m| m.to.clone()).collect();
        bench.finish(run);
        to
    }

    /// Who of `to` a game's mail reaches.
    fn reached(bench: &Bench, to: &[&str]) -> Vec<String> {
        let mut run = bench.run();
        for a in to {
            run.mail(a, "subject".into(), "body".into(), Some("castle-1"));
        }
        run.only_those_who_asked(None).unwrap();
        run.mails.iter().map(|d| d.to.clone()).collect()
    }

    fn bench_with(limit: u32) -> Bench {
        let bench = Bench::with(JudgeConfig {
            bounces_before_stop: limit,
            ..Default::default()
        });
        bench.holds(game("castle-1"));
        bench
    }

    const OURS: &str = "<0123abcd@castellan.invalid>";

    #[test]
    fn the_third_hard_bounce_stops_the_mail_and_tells_the_game_master_once() {
        let bench = bench_with(3);
        let alice = SEATS[0].1;
        assert!(count(&bench, &dsn(OURS, BOB, "5.1.1")).is_empty());
        assert!(count(&bench, &dsn(OURS, BOB, "5.1.1")).is_empty());
        assert_eq!(reached(&bench, &[alice, BOB]), [alice, BOB]);
        assert_eq!(count(&bench, &dsn(OURS, BOB, "5.2.1")), [GM.0]);
        assert_eq!(reached(&bench, &[alice, BOB, GM.0]), [alice, GM.0]);
        // A fourth tells nobody again.
        assert!(count(&bench, &dsn(OURS, BOB, "5.1.1")).is_empty());
        // A mail from the address lifts it, and it counts from 0 again.
        let mut run = bench.run();
        run.lift_stop(BOB).unwrap();
        bench.finish(run);
        assert_eq!(reached(&bench, &[BOB]), [BOB]);
        count(&bench, &dsn(OURS, BOB, "5.1.1"));
        assert_eq!(reached(&bench, &[BOB]), [BOB]);
    }

    #[test]
    fn soft_bounces_forged_ones_and_strangers_count_nothing() {
        let bench = bench_with(1);
        // Soft: the server tries again.
        count(&bench, &dsn(OURS, BOB, "4.2.2"));
        let mut delayed = dsn(OURS, BOB, "5.1.1");
        delayed.recipients[0].action = "delayed".into();
        count(&bench, &delayed);
        // About a mail that is not the judge's, or about none.
        count(&bench, &dsn("<x@elsewhere.example>", BOB, "5.1.1"));
        count(
            &bench,
            &dsn("<x@castellan.invalid.evil.example>", BOB, "5.1.1"),
        );
        let mut none = dsn(OURS, BOB, "5.1.1");
        none.original_message_id = None;
        count(&bench, &none);
        assert_eq!(reached(&bench, &[BOB]), [BOB]);
        // An address no game names.
        let stranger = "stranger@example.org";
        count(&bench, &dsn(OURS, stranger, "5.1.1"));
        let run = bench.run();
        assert!(!run.bounced(stranger).unwrap());
        // Counted, the one bounce is enough here.
        assert_eq!(count(&bench, &dsn(OURS, BOB, "5.1.1")), [GM.0]);
        assert_eq!(reached(&bench, &[BOB]), Vec::<String>::new());
    }

    /// "bounces_stale_days: days after which hard bounces short of the stop are stale":
    /// two bounces, then a quiet fortnight, and the third counts as the first; two more
    /// within the week reach the stop. Once stopped, time alone lifts nothing.
    #[test]
    fn bounces_older_than_the_stale_days_count_from_one_again() {
        let mut bench = bench_with(3);
        assert!(count(&bench, &dsn(OURS, BOB, "5.1.1")).is_empty());
        assert!(count(&bench, &dsn(OURS, BOB, "5.1.1")).is_empty());
        bench.env.now += 8 * 86_400;
        assert!(count(&bench, &dsn(OURS, BOB, "5.1.1")).is_empty());
        assert_eq!(
            reached(&bench, &[BOB]),
            [BOB],
            "stale bounces stopped the mail"
        );
        bench.env.now += 6 * 86_400;
        assert!(count(&bench, &dsn(OURS, BOB, "5.1.1")).is_empty());
        assert_eq!(count(&bench, &dsn(OURS, BOB, "5.1.1")), [GM.0]);
        assert!(reached(&bench, &[BOB]).is_empty());
        bench.env.now += 30 * 86_400;
        count(&bench, &dsn(OURS, BOB, "5.1.1"));
        assert!(reached(&bench, &[BOB]).is_empty(), "a stop went stale");
    }

    /// "At `bounces_before_stop` hard bounces the address gets no more mail, of any game":
    /// a lock notice (kept apart from the handling's mails, so that a dropped handling
    /// still sends it) is held too.
    #[test]
    fn a_bounced_address_gets_no_lock_notice_either() {
        let bench = bench_with(1);
        let alice = SEATS[0].1;
        assert_eq!(count(&bench, &dsn(OURS, BOB, "5.1.1")), [GM.0]);
        let mut run = bench.run();
        let rec = game("castle-1");
        let locked = crate::mails::Event::PasswordLocked {
            name: "Bob".into(),
            tries: 10,
        };
        run.notice(&rec, &[BOB.to_string(), alice.to_string()], locked);
        run.only_those_who_asked(None).unwrap();
        let mut changes = Changes::default();
        run.finish_into(&mut changes);
        let to: Vec<&str> = changes.outbox.iter().map(|m| m.to.as_str()).collect();
        assert_eq!(to, [alice]);
    }

    /// With `bounces_stale_days: 0` bounces never go stale.
    #[test]
    fn with_no_stale_days_bounces_add_up_whatever_the_time_between() {
        let mut bench = Bench::with(JudgeConfig {
            bounces_before_stop: 2,
            bounces_stale_days: 0,
            ..Default::default()
        });
        bench.holds(game("castle-1"));
        count(&bench, &dsn(OURS, BOB, "5.1.1"));
        bench.env.now += 365 * 86_400;
        assert_eq!(count(&bench, &dsn(OURS, BOB, "5.1.1")), [GM.0]);
    }

    #[test]
    fn with_the_key_at_zero_nothing_is_counted() {
        let bench = bench_with(0);
        for _ in 0..5 {
            assert!(count(&bench, &dsn(OURS, BOB, "5.1.1")).is_empty());
        }
        assert_eq!(reached(&bench, &[BOB]), [BOB]);
    }
}
