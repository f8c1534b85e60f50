//! The judge mails only those who asked, in volume too:
//!
//! * **Consent a game.** An address gets a game's mail (reports, press, reminders,
//!   notices, standings) only once it has consented to that game: it runs it (it sent the
//!   CREATE), it took its seat itself (JOIN), it observes (OBSERVE only subscribes its
//!   sender), or it confirmed the seat it was named to. Writing to the judge (HELP, or
//!   playing elsewhere) is no consent to a stranger's game. The operator's commands
//!   (`castellan game new`, `replace`, `campaign new`) and the tables of a tournament the
//!   operator runs count as consent for the addresses they name.
//! * **Confirming a seat.** A seat named by someone else (CREATE, REPLACE, a tournament
//!   made by mail) waits, unconfirmed, and its address gets one mail: the confirmation, its
//!   welcome without a word the game master chose (no seat name, no player list: only the
//!   game's id, its kind and the seat's password and token), ending with a confirmation
//!   paragraph. A mail from that address carrying the seat's token (a reply to the
//!   confirmation: its subject carries it) or its password confirms the seat; a mail saying
//!   STOP confirms nothing, and a From alone (forgeable) never does.
//! * **Volume.** At most one confirmation to an address until it proves itself (a mail with
//!   a good token or password: the `asked` mark); at most [`CONFIRMATIONS_PER_MAIL`] for
//!   one handled mail; at most `confirmations_per_hour` on the whole server an hour; none
//!   to an address that sent STOP. A confirmation held is not sent later: the seat stays
//!   unconfirmed (the game master may START without it or REPLACE it).
//!   `new_games_per_hour` bounds the games made by mail (CREATE, the first round of a
//!   tournament) on the whole server an hour.
//! * **STOP / UNSUBSCRIBE.** An address that sends it gets no more mail, apart from the
//!   games it plays in (or runs) and has consented to: there STOP is not RESIGN, the answer
//!   says how to resign. It is removed from every game it observes, and no enrolment after
//!   it sends it anything. A later mail from the address lifts it.
//! * **Bounces.** An address whose mail came back undelivered for good
//!   `bounces_before_stop` times gets no mail at all until it writes (bounces.rs).
//! * Every mail carries `List-Unsubscribe: <mailto:JUDGE?subject=STOP>` (RFC 2369).
//!
//! The marks and budgets are kept beside the senders' counters, under keys no address can
//! spell ([`mark_key`]: `\0asked/ADDRESS`, `\0stop/ADDRESS`, `\0budget/new-games`,
//! `\0budget/confirmations`; `count` 1: set, 0: lifted; a budget counts in its hour).
//! `confirm_addresses: false` turns consent and confirmations off (STOP still holds).

use crate::model::*;
use crate::run::*;
use castellan_engine::Lang;

/// Confirmations one handled mail may cause, whatever it names.
pub const CONFIRMATIONS_PER_MAIL: u32 = 8;

/// The budget of new games by mail, an hour, on the whole server.
pub(crate) const NEW_GAMES: &str = "new-games";
/// The budget of confirmations, an hour, on the whole server.
pub(crate) const CONFIRMATIONS: &str = "confirmations";

fn asked_key(addr: &str) -> String {
    mark_key("asked", addr)
}

fn stop_key(addr: &str) -> String {
    mark_key("stop", addr)
}

/// What STOP answers (templates/LANG/answers/stop.txt).
#[derive(Clone, Debug, serde::Serialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub(crate) enum StopAnswer {
    /// No more mail; `playing`: the games whose mail still comes (seat or game master),
    /// `observing`: the games it no longer observes.
    Stopped {
        playing: Vec<String>,
        observing: Vec<String>,
    },
}

/// The paragraph that ends a confirmation.
#[derive(Clone, Debug, serde::Serialize)]
struct Confirm {
    judge: String,
}

/// How an address stands to a game or campaign's mail.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Consent {
    /// It runs it, or holds a confirmed seat (a campaign: of one of its games).
    Plays,
    /// It observes it.
    Watches,
    /// Neither: it gets none of its mail.
    No,
}

/// How `addr` stands to game `rec`.
fn consent_in(rec: &GameRecord, addr: &str) -> Consent {
    let seat = rec
        .seats
        .iter()
        .any(|s| !s.unconfirmed && s.address.as_deref().is_some_and(|a| lower(a) == addr));
    if lower(&rec.gm) == addr || seat {
        Consent::Plays
    } else if rec.observers.iter().any(|o| lower(o) == addr) {
        Consent::Watches
    } else {
        Consent::No
    }
}

impl Run<'_> {
    /// A mark of `key` set (count 1), in this handling or stored.
    fn mark(&self, key: &str) -> Result<bool, StoreError> {
        self.counters.mark(self.store, key)
    }

    fn set_mark(&mut self, key: String, on: bool) {
        let now = self.now();
        self.counters.set_mark(key, on, now);
    }

    /// Spend `n` of the server's budget `name` this hour (`limit` an hour): false, and
    /// nothing spent, when fewer than `n` are left. The hour starts at the first spending.
    pub(crate) fn spend_budget(
        &mut self,
        name: &str,
        n: u32,
        limit: u32,
    ) -> Result<bool, StoreError> {
        let now = self.now();
        self.counters
            .spend(self.store, &mark_key("budget", name), n, limit, now)
    }

    /// STOP: no more mail to `from`, but for the games it plays in or runs.
    pub(crate) fn stop(&mut self, from: &str) -> Result<(), StoreError> {
        let mut playing = Vec::new();
        let mut observing = Vec::new();
        // The games `from` plays in, runs or watches (one read of the store's index of
        // addresses), and those in hand, which this mail may have changed.
        let mut ids = self.store.games_of_address(from)?;
        ids.extend(self.games.keys().cloned());
        ids.sort();
        ids.dedup();
        for id in ids {
            // Headers only: a game is loaded whole only when STOP changes it (an observer
            // leaves), so STOP costs one small read a game of its sender's.
            let rec = match self.games.get(&id) {
                Some(g) => g.rec.clone(),
                None => match self.store.game_header(&id)? {
                    Some(r) => r,
                    None => continue,
                },
            };
            let over = rec.status == Status::Finished;
            if !over && consent_in(&rec, from) == Consent::Plays {
                playing.push(rec.id.clone());
            }
            if rec.observers.iter().any(|o| lower(o) == from) {
                self.with_game(&id, |_, g| {
                    g.rec.observers.retain(|o| lower(o) != from);
                    g.keep = true;
                    observing.push(g.rec.id.clone());
                })?;
            }
        }
        self.set_mark(stop_key(from), true);
        self.stopped_now = true;
        self.glog("", "stop", format!("{from} sent STOP"));
        let lang = self.writer_lang(from);
        let answer = StopAnswer::Stopped { playing, observing };
        self.answer(lang, "stop", &answer);
        Ok(())
    }

    /// After a mail from `from`: a STOP it sent before is lifted, unless this one is STOP;
    /// a mail that proved itself (a good token or password) lets one more confirmation
    /// come to it.
    pub(crate) fn lift_stop(&mut self, from: &str) -> Result<(), StoreError> {
        self.lift_bounces(from)?;
        if !self.stopped_now && self.mark(&stop_key(from))? {
            self.set_mark(stop_key(from), false);
        }
        if self.authenticated && self.mark(&asked_key(from))? {
            self.set_mark(asked_key(from), false);
        }
        Ok(())
    }

    /// How `addr` stands to the game or campaign `id` (as this handling has it).
    fn consent(&mut self, id: &str, addr: &str) -> Result<Consent, StoreError> {
        if let Some(g) = self.games.get(id) {
            return Ok(consent_in(&g.rec, addr));
        }
        if let Some(rec) = self.store.game_header(id)? {
            return Ok(consent_in(&rec, addr));
        }
        let c = match self.campaigns.get(id) {
            Some(c) => c.clone(),
            None => match self.store.campaign(id)? {
                Some(c) => c,
                None => return Ok(Consent::No),
            },
        };
        if lower(&c.gm) == addr || (!c.by_mail && c.players.iter().any(|p| lower(p) == addr)) {
            return Ok(Consent::Plays);
        }
        if !c.players.iter().any(|p| lower(p) == addr) {
            return Ok(Consent::No);
        }
        // A player of a campaign made by mail: one of its seats confirmed.
        for g in &c.games {
            let rec = match self.games.get(g) {
                Some(l) => Some(l.rec.clone()),
                None => self.store.game_header(g)?,
            };
            if rec.is_some_and(|r| {
                r.seats.iter().any(|s| {
                    !s.unconfirmed && s.address.as_deref().is_some_and(|a| lower(a) == addr)
                })
            }) {
                return Ok(Consent::Plays);
            }
        }
        Ok(Consent::No)
    }

    /// Keep only the mails their addressees asked for (module doc); `writer`: the address
    /// of the mail being handled, which always gets its answer.
    pub(crate) fn only_those_who_asked(&mut self, writer: Option<&str>) -> Result<(), StoreError> {
        let mut drafts = std::mem::take(&mut self.mails);
        // The lock notices too (kept apart so that a dropped handling keeps them): an
        // address that bounced or said STOP gets none either.
        drafts.append(&mut self.notices);
        let mut kept = Vec::new();
        let opt_in = self.j.config.confirm_addresses;
        for mut d in drafts {
            let to = lower(&d.to);
            if writer == Some(to.as_str()) {
                kept.push(d);
                continue;
            }
            // Mail that came back undelivered for good too often (bounces.rs): none at
            // all, until the address writes.
            if self.bounced(&to)? {
                let game = d.game.clone().unwrap_or_default();
                self.glog(&game, "held", format!("no mail to {to}: it bounced"));
                continue;
            }
            let stopped = self.mark(&stop_key(&to))?;
            if d.confirm && opt_in {
                if let Some(why) = self.no_confirmation(&to, stopped)? {
                    let game = d.game.clone().unwrap_or_default();
                    self.glog(&game, "held", format!("no confirmation to {to}: {why}"));
                    continue;
                }
                let lang = d.lang.unwrap_or(Lang::En);
                let ctx = Confirm {
                    judge: self.j.config.address.clone(),
                };
                let note = self.render_in(lang, "confirm.txt", &ctx);
                d.body = format!("{}\n\n{}\n", d.body.trim_end(), note.trim());
                self.set_mark(asked_key(&to), true);
                self.confirmations += 1;
                kept.push(d);
                continue;
            }
            let consent = match &d.game {
                Some(id) => self.consent(id, &to)?,
                None => Consent::Watches,
            };
            let consent = match consent {
                // Without the opt-in, a game's mail goes to whoever it names.
                Consent::No if !opt_in => Consent::Watches,
                c => c,
            };
            match (consent, stopped) {
                (Consent::Plays, _) | (Consent::Watches, false) => kept.push(d),
                (Consent::Watches, true) => {
                    self.glog("", "held", format!("no mail to {to}: it sent STOP"));
                }
                (Consent::No, _) => {
                    let game = d.game.clone().unwrap_or_default();
                    self.glog(
                        &game,
                        "held",
                        format!("no mail to {to}: it has not confirmed {game}"),
                    );
                }
            }
        }
        self.mails = kept;
        Ok(())
    }

    /// Why no confirmation goes to `to` now, if none does (module doc).
    fn no_confirmation(&mut self, to: &str, stopped: bool) -> Result<Option<String>, StoreError> {
        if stopped {
            return Ok(Some("it sent STOP".into()));
        }
        if self.mark(&asked_key(to))? {
            return Ok(Some(
                "it was sent one already and has not written with its token or password since"
                    .into(),
            ));
        }
        if self.confirmations >= CONFIRMATIONS_PER_MAIL {
            return Ok(Some(format!(
                "{CONFIRMATIONS_PER_MAIL} confirmations were sent for this mail"
            )));
        }
        let limit = self.j.config.confirmations_per_hour;
        if !self.spend_budget(CONFIRMATIONS, 1, limit)? {
            return Ok(Some(format!(
                "the judge sent its {limit} confirmations this hour"
            )));
        }
        Ok(None)
    }

    /// The seats `from` was named to whose token this mail carries (its subject's tag, a
    /// plus-address) are confirmed; a game whose named players have all confirmed starts.
    pub(crate) fn confirm_seats(&mut self, from: &str, mail: &Inbound) -> Result<(), StoreError> {
        let (tag, token, _) = crate::intake::reading::subject_tag(&mail.subject);
        let mut tokens: Vec<String> = token.into_iter().collect();
        let local = lower(self.j.config.address.split('@').next().unwrap_or(""));
        for to in &mail.to {
            let to = lower(to);
            let l = to.split('@').next().unwrap_or("");
            if let Some(t) = l.strip_prefix(&format!("{local}+")) {
                if !t.is_empty() && !tokens.iter().any(|x| x == t) {
                    tokens.push(t.to_string());
                }
            }
        }
        // As many as a mail may try (auth.rs).
        tokens.truncate(2);
        for t in tokens {
            // The game the subject's tag names (read anyway to handle the mail), else the
            // one a plus-address token names (as intake.rs looks it up).
            let id = match &tag {
                Some(id) => id.clone(),
                None => match self.store.game_of_token(&t)? {
                    Some(id) => id,
                    None => continue,
                },
            };
            self.with_game(&id, |run, g| {
                let seat = g.rec.seats.iter().position(|s| {
                    s.unconfirmed
                        && s.address.as_deref().map(lower).as_deref() == Some(from)
                        && crate::password::same(&s.token, &t)
                });
                if let Some(s) = seat {
                    run.confirm_seat(g, s, from);
                }
            })?;
        }
        Ok(())
    }

    /// The seats `from` proved with their password in this mail (auth.rs's tries) and
    /// that wait for its confirmation are confirmed.
    pub(crate) fn confirm_by_password(&mut self, from: &str) -> Result<(), StoreError> {
        let proved: Vec<(String, usize)> = self
            .tries
            .iter()
            .filter_map(|(id, (_, v))| Some((id.clone(), v.as_ref().ok()?.seat?)))
            .collect();
        for (id, s) in proved {
            self.with_game(&id, |run, g| {
                let waiting = g.rec.seats.get(s).is_some_and(|x| {
                    x.unconfirmed && x.address.as_deref().map(lower).as_deref() == Some(from)
                });
                if waiting {
                    run.confirm_seat(g, s, from);
                }
            })?;
        }
        Ok(())
    }

    /// Seat `s` of `g`, `from`'s, is confirmed; its game starts if it waited only for it.
    fn confirm_seat(&mut self, g: &mut Loaded, s: usize, from: &str) {
        g.rec.seats[s].unconfirmed = false;
        g.keep = true;
        let id = g.rec.id.clone();
        self.glog(&id, "confirmed", format!("{from} confirmed"));
        self.set_mark(asked_key(from), false);
        if g.rec.status == Status::Forming && g.rec.ready_to_start() {
            if let Err(e) = self.start(g) {
                self.glog(&id, "error", format!("cannot start: {e}"));
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::JudgeConfig;
    use crate::testing::{game, Bench, GM, SEATS};

    const WATCHER: &str = "watcher@example.org";
    const STRANGER: &str = "stranger@example.org";

    /// castle-1: Alice confirmed, Bob named and not confirmed, one observer.
    fn bench() -> Bench {
        let bench = Bench::new();
        let mut rec = game("castle-1");
        rec.seats[1].unconfirmed = true;
        rec.observers.push(WATCHER.into());
        bench.holds(rec);
        bench
    }

    /// Who of `to` a game's mail (`game`, else a mail of no game) reaches when `writer`'s
    /// mail is handled.
    fn reached(bench: &Bench, to: &[&str], game: Option<&str>, writer: &str) -> Vec<String> {
        let mut run = bench.run();
        for a in to {
            run.mail(a, "subject".into(), "body".into(), game);
        }
        run.only_those_who_asked(Some(writer)).unwrap();
        run.mails.iter().map(|d| d.to.clone()).collect()
    }

    #[test]
    fn a_games_mail_reaches_those_who_consented_to_it_and_the_writer() {
        let bench = bench();
        let (alice, bob) = (SEATS[0].1, SEATS[1].1);
        let all = [alice, bob, WATCHER, STRANGER, GM.0];
        assert_eq!(
            reached(&bench, &all, Some("castle-1"), GM.0),
            [alice, WATCHER, GM.0]
        );
        // The writer gets their answer whoever they are.
        assert_eq!(
            reached(&bench, &[STRANGER], Some("castle-1"), STRANGER),
            [STRANGER]
        );
        // Without the opt-in, a game's mail goes to whoever it names.
        let open = Bench::with(JudgeConfig {
            confirm_addresses: false,
            ..Default::default()
        });
        let mut rec = game("castle-1");
        rec.seats[1].unconfirmed = true;
        open.holds(rec);
        assert_eq!(
            reached(&open, &[bob, STRANGER], Some("castle-1"), GM.0),
            [bob, STRANGER]
        );
    }

    #[test]
    fn stop_holds_back_all_but_the_games_it_plays_until_its_next_mail() {
        let bench = bench();
        let alice = SEATS[0].1;
        for who in [alice, WATCHER] {
            let mut run = bench.run();
            run.stop(who).unwrap();
            bench.finish(run);
        }
        // The observer is no longer one; the player still gets their game's mail.
        let rec = crate::store::Store::game_header(&bench.store, "castle-1")
            .unwrap()
            .unwrap();
        assert!(rec.observers.is_empty());
        assert_eq!(
            reached(&bench, &[alice, WATCHER], Some("castle-1"), GM.0),
            [alice]
        );
        assert!(reached(&bench, &[alice, WATCHER], None, GM.0).is_empty());
        // A later mail from the address lifts its STOP; the STOP mail itself does not.
        let mut run = bench.run();
        run.stop(WATCHER).unwrap();
        run.lift_stop(WATCHER).unwrap();
        bench.finish(run);
        assert!(reached(&bench, &[WATCHER], None, GM.0).is_empty());
        let mut run = bench.run();
        run.lift_stop(WATCHER).unwrap();
        bench.finish(run);
        assert_eq!(reached(&bench, &[WATCHER], None, GM.0), [WATCHER]);
    }

    #[test]
    fn an_address_gets_one_confirmation_until_it_proves_itself() {
        let bench = bench();
        let bob = SEATS[1].1;
        let confirm = |bench: &Bench| {
            let mut run = bench.run();
            run.mail(bob, "confirm".into(), "body".into(), Some("castle-1"));
            run.mails[0].confirm = true;
            run.only_those_who_asked(Some(GM.0)).unwrap();
            let sent = run.mails.len();
            bench.finish(run);
            sent
        };
        assert_eq!(confirm(&bench), 1);
        assert_eq!(confirm(&bench), 0, "asked already");
        // A mail that proved itself lets one more come.
        let mut run = bench.run();
        run.authenticated = true;
        run.lift_stop(bob).unwrap();
        bench.finish(run);
        assert_eq!(confirm(&bench), 1);
    }

    #[test]
    fn one_mail_sends_at_most_its_share_of_confirmations() {
        let bench = Bench::new();
        bench.holds(game("castle-1"));
        let mut run = bench.run();
        let n = CONFIRMATIONS_PER_MAIL as usize + 3;
        for i in 0..n {
            let to = format!("named-{i}@example.org");
            run.mail(&to, "confirm".into(), "body".into(), Some("castle-1"));
            run.mails[i].confirm = true;
        }
        run.only_those_who_asked(Some(GM.0)).unwrap();
        assert_eq!(run.mails.len(), CONFIRMATIONS_PER_MAIL as usize);
    }
}
