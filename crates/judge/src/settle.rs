//! After a handling: bots play, ends are recorded, deadlines reset, reports sent.

use crate::model::*;
use crate::run::*;

impl Run<'_> {
    /// After a handling: bots play their seats, finished games are closed, deadlines
    /// are reset, and every game that moved is reported.
    pub(crate) fn settle_all(&mut self) -> Result<(), StoreError> {
        let ids: Vec<String> = self.games.keys().cloned().collect();
        for id in ids {
            self.with_game(&id, |run, g| {
                if g.dirty {
                    run.settle(g);
                }
            })?;
        }
        Ok(())
    }

    pub(crate) fn settle(&mut self, g: &mut Loaded) {
        if g.session.is_none() {
            return;
        }
        if g.rec.status == Status::Running {
            self.play_for_the_absent(g);
            close_or_set_deadline(g, self.now());
        }
        if let Some(session) = g.session.as_ref() {
            record_out(&mut g.rec, session.as_ref());
        }
        self.tell(g);
    }

    /// Bot stand-ins answer at once, and so do the defaults of a seat in civil disorder
    /// while someone still plays by mail (a table of absent players is played by its
    /// deadlines, not all at once).
    fn play_for_the_absent(&mut self, g: &mut Loaded) {
        let (id, now) = (g.rec.id.clone(), self.now());
        let Some(session) = g.session.as_mut() else {
            return;
        };
        let someone_plays = g
            .rec
            .seats
            .iter()
            .enumerate()
            .any(|(i, x)| x.played_by_mail() && !x.disorder && !x.resigned && !g.rec.is_out(i));
        // Defaults of civil disorder at most a round or two a handling: a table where
        // the seats still playing are not awaited for long (or never: an absent table)
        // goes on by its deadlines rather than all at once (nobody attacks in civil
        // disorder, so such a game may never end by itself).
        let mut disorder_plays = 0;
        for _ in 0..100_000 {
            if session.outcome().is_some() {
                break;
            }
            let Some(seat) = session.awaiting().into_iter().find(|s| {
                g.rec.seats.get(*s).is_some_and(|x| {
                    x.bot || (x.disorder && someone_plays && disorder_plays < DISORDER_PLAYS)
                })
            }) else {
                break;
            };
            if !g.rec.seats[seat].bot {
                disorder_plays += 1;
                // A two-player game cannot be played passively (Castello must move):
                // against a player present, the seat in civil disorder resigns by the
                // game's own order where it has one (docs/rules/absence.md).
                let other_plays =
                    g.rec.seats.iter().enumerate().any(|(i, x)| {
                        i != seat && x.played_by_mail() && !x.disorder && !x.unconfirmed
                    });
                if g.rec.seats.len() == 2
                    && other_plays
                    && session
                        .submit(seat, "RESIGN", castellan_engine::Lang::En)
                        .is_ok()
                {
                    continue;
                }
            }
            let played = if g.rec.seats[seat].bot {
                session.play_bot(seat).is_ok() || session.play_default(seat).is_ok()
            } else {
                session.play_default(seat).is_ok()
            };
            // The turn went through a seat the judge plays: whoever is awaited after
            // it is awaited anew (asked, with a new deadline), even the same seat.
            g.forced |= played;
            if !played {
                self.log.push(LogLine {
                    game: id.clone(),
                    at: now,
                    kind: "error".into(),
                    text: format!("bot and default both refused for seat {seat}"),
                });
                break;
            }
        }
    }

    /// Who is told what now (`telling`): the table's report, a question to its answerer
    /// alone, the turn's player told when it resumes, the writer's private news.
    fn tell(&mut self, g: &mut Loaded) {
        let Some(session) = g.session.as_ref() else {
            return;
        };
        let moved = session.history_len() > g.rec.reported || g.force_private;
        let finished_now = g.rec.status == Status::Finished && !g.rec.final_sent;
        let pending = session.pending(castellan_engine::Lang::En);
        let (mut turn, mut questions) = (Vec::new(), Vec::new());
        for s in session.awaiting() {
            let mine: Vec<_> = pending.iter().filter(|p| p.seat == s).collect();
            if !mine.is_empty() && mine.iter().all(|p| p.kind.is_question()) {
                questions.push(s);
            } else {
                turn.push(s);
            }
        }
        let t = telling(
            &Waiting {
                // After a phase ended by force, every seat awaited is awaited anew.
                turn: if g.forced {
                    Vec::new()
                } else {
                    g.rec.reported_awaiting.clone()
                },
                questions: g.rec.questioned.clone(),
                on_questions_only: g.rec.question_wait,
            },
            &turn,
            &questions,
        );
        let writer = self
            .touched
            .iter()
            .find(|(t, _)| *t == g.rec.id)
            .and_then(|(_, s)| *s);
        let mut next = t.next.clone();
        if finished_now || g.force_private || (moved && t.report) {
            self.report(g);
            if !turn.is_empty() {
                next.turn = turn;
                next.on_questions_only = false;
            }
        } else if moved {
            for s in &t.ask {
                self.question_mail(g, *s);
            }
            for s in t.resumed.iter().filter(|s| Some(**s) != writer) {
                self.question_mail(g, *s);
            }
            // What the writer alone learnt by their mail goes in their reply; and what
            // they are asked now, when their orders left them awaited for something else.
            if let Some(w) = writer.filter(|w| !t.ask.contains(w)) {
                if (g.ask_writer || t.resumed.contains(&w)) && session_awaits(g, w) {
                    self.question_mail(g, w);
                } else {
                    self.private_news(g, w);
                }
            }
        }
        if moved || finished_now {
            g.rec.reported_awaiting = next.turn;
            g.rec.questioned = next.questions;
            g.rec.question_wait = next.on_questions_only;
        }
    }
}

/// A running game's end recorded, or its deadline set for a new turn or phase: one a
/// seat is awaited for that was not, or one that follows a phase ended by force.
fn close_or_set_deadline(g: &mut Loaded, now: i64) {
    let Some(session) = g.session.as_ref() else {
        return;
    };
    if let Some(o) = session.outcome() {
        g.rec.status = Status::Finished;
        g.rec.deadline = None;
        let winners: Vec<String> = o.winners.iter().map(|w| seat_name(&g.rec, *w)).collect();
        g.rec.ended = Some(if winners.is_empty() {
            format!("a draw ({})", o.reason)
        } else {
            format!("{} won ({})", winners.join(" and "), o.reason)
        });
        return;
    }
    let awaiting = session.awaiting();
    // A seat that sends part of its turn, or one of several in a simultaneous phase, does
    // not move the deadline; a phase ended by its deadline or PROCESS is followed by a
    // new one, even when it awaits the same seats.
    let new_phase = g.forced
        || awaiting
            .iter()
            .any(|s| !g.rec.deadline_awaiting.contains(s));
    g.rec.deadline_awaiting = awaiting.clone();
    if g.rec.deadline.is_some() && !new_phase {
        return;
    }
    let hours = session
        .pending(castellan_engine::Lang::En)
        .iter()
        .map(|p| g.rec.deadlines.hours_for(p.kind.as_str()))
        .max()
        .unwrap_or(g.rec.deadlines.hours);
    let mut d = now + i64::from(hours) * 3600;
    for s in awaiting {
        if let Some(v) = g.rec.seats.get(s).and_then(|x| x.vacation_until) {
            d = d.max(v);
        }
    }
    g.rec.deadline = Some(d);
    g.rec.deadline_history = session.history_len();
    g.rec.reminded.clear();
}

/// The most defaults of seats in civil disorder played in one handling.
const DISORDER_PLAYS: usize = 24;

/// Seats the game now puts out and the record does not have yet join it, in the order
/// they went out (the history's elimination events; a seat whose event is not in hand
/// last, with the current turn), each with when the judge saw it.
pub(crate) fn record_out(rec: &mut GameRecord, session: &dyn castellan_engine::Session) {
    let new: Vec<usize> = session
        .eliminated()
        .into_iter()
        .filter(|s| *s < rec.seats.len() && !rec.is_out(*s))
        .collect();
    if new.is_empty() {
        return;
    }
    let events = session.eliminations_since(session.history_base());
    let mut found: Vec<(usize, OutSeat)> = new
        .iter()
        .map(|&seat| {
            let e = events.iter().rev().find(|e| e.seat == seat);
            let order = e.map_or(usize::MAX, |e| e.entry);
            (
                order,
                OutSeat {
                    seat,
                    turn: e.map_or(session.turn(), |e| e.turn),
                    by: e.and_then(|e| e.by).filter(|b| *b < rec.seats.len()),
                    at: session.history_len(),
                    told: false,
                },
            )
        })
        .collect();
    found.sort_by_key(|(order, o)| (*order, o.seat));
    rec.out.extend(found.into_iter().map(|(_, o)| o));
}

fn session_awaits(g: &Loaded, seat: usize) -> bool {
    g.session
        .as_ref()
        .is_some_and(|s| s.awaiting().contains(&seat))
}

/// Whom the game waits for, as the mails told it (stored in the game record).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct Waiting {
    /// Seats awaited for their turn or phase without a break since the last report.
    pub turn: Vec<usize>,
    /// Seats asked a question mid-turn and not answered yet.
    pub questions: Vec<usize>,
    /// The game waited on questions alone (the turn's player was not awaited).
    pub on_questions_only: bool,
}

/// What the end of a handling tells, and to whom (one report a turn).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct Telling {
    /// The table gets the turn's report: a seat is awaited for a turn or phase that was
    /// not awaited without a break since the last report.
    pub report: bool,
    /// Seats newly asked a question: each gets it alone.
    pub ask: Vec<usize>,
    /// Seats awaited again once the questions are answered (the attacker whose defender
    /// answered): each is told its turn goes on.
    pub resumed: Vec<usize>,
    pub next: Waiting,
}

/// `was`: what the mails told before; `turn`, `questions`: whom the game awaits now, for
/// a turn or phase and for a question.
pub(crate) fn telling(was: &Waiting, turn: &[usize], questions: &[usize]) -> Telling {
    let new_questions: Vec<usize> = questions
        .iter()
        .copied()
        .filter(|s| !was.questions.contains(s))
        .collect();
    if turn.is_empty() && !questions.is_empty() {
        // Only questions are awaited: the turn is not over; whoever has the turn stays.
        return Telling {
            report: false,
            ask: new_questions,
            resumed: Vec::new(),
            next: Waiting {
                turn: was.turn.clone(),
                questions: questions.to_vec(),
                on_questions_only: true,
            },
        };
    }
    let kept: Vec<usize> = was
        .turn
        .iter()
        .copied()
        .filter(|s| turn.contains(s))
        .collect();
    let newly = turn.iter().any(|s| !kept.contains(s));
    if newly {
        return Telling {
            report: true,
            ask: Vec::new(),
            resumed: Vec::new(),
            next: Waiting {
                turn: turn.to_vec(),
                questions: questions.to_vec(),
                on_questions_only: false,
            },
        };
    }
    Telling {
        report: false,
        ask: new_questions,
        resumed: if was.on_questions_only {
            turn.to_vec()
        } else {
            Vec::new()
        },
        next: Waiting {
            turn: kept,
            questions: questions.to_vec(),
            on_questions_only: false,
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn w(turn: &[usize], questions: &[usize], only: bool) -> Waiting {
        Waiting {
            turn: turn.to_vec(),
            questions: questions.to_vec(),
            on_questions_only: only,
        }
    }

    /// "For each other player's completed turn ... a player gets at most one mail": a
    /// mail that leaves the same player to move tells nobody else; the next player's turn
    /// is reported.
    #[test]
    fn a_turn_sent_in_several_mails_is_reported_once_when_it_passes() {
        let t = telling(&w(&[0], &[], false), &[0], &[]);
        assert!(!t.report);
        assert_eq!(t.next, w(&[0], &[], false));
        let t = telling(&w(&[0], &[], false), &[1], &[]);
        assert!(t.report);
        assert_eq!(t.next.turn, vec![1]);
    }

    /// "(or each phase in a simultaneous game)": submissions within a phase tell nobody;
    /// the phase that follows, awaiting the same seats again, is reported.
    #[test]
    fn a_simultaneous_phase_is_reported_when_it_ends_not_at_each_submission() {
        let mut was = w(&[0, 1, 2], &[], false);
        for now in [vec![1, 2], vec![2]] {
            let t = telling(&was, &now, &[]);
            assert!(!t.report, "{now:?}");
            was = t.next;
        }
        let t = telling(&was, &[0, 1, 2], &[]);
        assert!(t.report);
    }

    /// "A question mid-turn (defend, Marshal, counter-Spy, a Castrum defence card) goes
    /// only to the player who must answer it": no report; the defender alone is asked,
    /// once; when they answer, the attacker alone is told their turn goes on.
    #[test]
    fn a_question_goes_to_its_answerer_and_the_turn_resumes_without_a_report() {
        let t = telling(&w(&[0], &[], false), &[], &[2]);
        assert!(!t.report);
        assert_eq!(t.ask, vec![2]);
        assert_eq!(t.next, w(&[0], &[2], true));
        // A mail that leaves the question pending asks nothing again.
        let again = telling(&t.next, &[], &[2]);
        assert!(again.ask.is_empty() && !again.report);
        let back = telling(&t.next, &[0], &[]);
        assert!(!back.report);
        assert_eq!(back.resumed, vec![0]);
        assert_eq!(back.next, w(&[0], &[], false));
        // The same defender attacked again is asked again.
        let second = telling(&back.next, &[], &[2]);
        assert_eq!(second.ask, vec![2]);
        // And the turn's end is reported.
        assert!(telling(&back.next, &[1], &[]).report);
    }
}
