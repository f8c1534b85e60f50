//! The judge mails only those who asked (issue 13):
//!
//! * **Double opt-in.** An address that never wrote to the judge (named by someone else in
//!   CREATE or REPLACE) gets one mail, once: the first the judge has for it (its welcome),
//!   ending with a short confirmation paragraph. Nothing more goes to it until a mail comes
//!   from that address. An address "wrote" when the judge keeps a sender record for it
//!   (every handled mail makes one); the operator's own commands (`castellan game new`,
//!   `replace`) count as consent for the addresses they name.
//! * **STOP / UNSUBSCRIBE.** An address that sends it gets no more mail, apart from the
//!   games it plays in (or runs): there STOP is not RESIGN, the answer says how to resign.
//!   It is removed from every game it observes. A later mail from the address lifts it.
//! * Every mail carries `List-Unsubscribe: <mailto:JUDGE?subject=STOP>` (RFC 2369).
//!
//! Both kinds of marks are kept with the senders' counters, under `asked/ADDRESS` and
//! `stop/ADDRESS` (`count` 1: set; 0: lifted).

use crate::model::*;
use crate::run::*;
use castellan_engine::Lang;

fn asked_key(addr: &str) -> String {
    format!("asked/{addr}")
}

fn stop_key(addr: &str) -> String {
    format!("stop/{addr}")
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

/// The paragraph that ends the one mail an address that never wrote gets.
#[derive(Clone, Debug, serde::Serialize)]
struct Confirm {
    judge: String,
}

impl Run<'_> {
    /// A mark of `key` set (count 1), in this handling or stored.
    fn mark(&self, key: &str) -> Result<bool, StoreError> {
        if let Some(r) = self.counters.get(key) {
            return Ok(r.count > 0);
        }
        Ok(self.store.sender(key)?.is_some_and(|r| r.count > 0))
    }

    fn set_mark(&mut self, key: String, on: bool) {
        let r = SenderRecord {
            address: key.clone(),
            window_start: self.now(),
            count: u32::from(on),
            ..Default::default()
        };
        self.counters.insert(key, r);
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
            if !over && (rec.seat_of(from).is_some() || lower(&rec.gm) == from) {
                playing.push(rec.id.clone());
            }
            if rec.observers.iter().any(|o| lower(o) == from) {
                let Some(mut g) = self.take(&id)? else {
                    continue;
                };
                g.rec.observers.retain(|o| lower(o) != from);
                g.keep = true;
                observing.push(g.rec.id.clone());
                self.put(g);
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

    /// After a mail from `from`: a STOP it sent before is lifted, unless this one is STOP.
    pub(crate) fn lift_stop(&mut self, from: &str) -> Result<(), StoreError> {
        if !self.stopped_now && self.mark(&stop_key(from))? {
            self.set_mark(stop_key(from), false);
        }
        Ok(())
    }

    /// Keep only the mails their addressees asked for (module doc); `writer`: the address
    /// of the mail being handled, which always gets its answer.
    pub(crate) fn only_those_who_asked(&mut self, writer: Option<&str>) -> Result<(), StoreError> {
        let drafts = std::mem::take(&mut self.mails);
        let mut kept = Vec::new();
        for mut d in drafts {
            let to = lower(&d.to);
            if writer == Some(to.as_str()) {
                kept.push(d);
                continue;
            }
            if self.mark(&stop_key(&to))? {
                let plays = match &d.game {
                    Some(id) => self.plays_in(id, &to)?,
                    None => false,
                };
                if !plays {
                    self.glog("", "held", format!("no mail to {to}: it sent STOP"));
                    continue;
                }
            }
            if !self.j.config.confirm_addresses || self.store.sender(&to)?.is_some() {
                kept.push(d);
                continue;
            }
            if self.mark(&asked_key(&to))? {
                self.glog(
                    "",
                    "held",
                    format!("no mail to {to}: it has not written yet"),
                );
                continue;
            }
            // The first mail to an address that never wrote: it ends with the confirmation.
            let lang = d.lang.unwrap_or(Lang::En);
            let ctx = Confirm {
                judge: self.j.config.address.clone(),
            };
            let note = self.render_in(lang, "confirm.txt", &ctx);
            d.body = format!("{}\n\n{}\n", d.body.trim_end(), note.trim());
            self.set_mark(asked_key(&to), true);
            kept.push(d);
        }
        self.mails = kept;
        Ok(())
    }

    /// The first mail from `from`: the seats it was named to are confirmed, and a game
    /// whose named players have all confirmed starts (its report asks everyone).
    pub(crate) fn confirm_seats(&mut self, from: &str) -> Result<(), StoreError> {
        for id in self.store.games_of_address(from)? {
            let Some(mut g) = self.take(&id)? else {
                continue;
            };
            let mut confirmed = false;
            for s in g.rec.seats.iter_mut() {
                if s.unconfirmed && s.address.as_deref().map(lower).as_deref() == Some(from) {
                    s.unconfirmed = false;
                    confirmed = true;
                }
            }
            if confirmed {
                g.keep = true;
                self.glog(&id, "confirmed", format!("{from} confirmed"));
                if g.rec.status == Status::Forming && g.rec.ready_to_start() {
                    if let Err(e) = self.start(&mut g) {
                        self.glog(&id, "error", format!("cannot start: {e}"));
                    }
                }
            }
            self.put(g);
        }
        Ok(())
    }

    /// Does `addr` hold a seat in (or run) game `id`, not over?
    fn plays_in(&mut self, id: &str, addr: &str) -> Result<bool, StoreError> {
        let Some(g) = self.take(id)? else {
            return Ok(false);
        };
        let plays = g.rec.status != Status::Finished
            && (g.rec.seat_of(addr).is_some() || lower(&g.rec.gm) == addr);
        self.put(g);
        Ok(plays)
    }
}

/// The `List-Unsubscribe` header of every mail (RFC 2369): a mail to the judge saying STOP.
pub(crate) fn list_unsubscribe(judge: &str) -> (String, String) {
    (
        "List-Unsubscribe".into(),
        format!("<mailto:{judge}?subject=STOP>"),
    )
}
