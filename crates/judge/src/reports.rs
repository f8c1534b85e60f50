//! The reports after a game moved, as typed data: the public one (rendered once per
//! language among its readers) and each seat's private mail (in the seat's language).

use crate::clock::{format_long_in, format_short_in};
use crate::mails::*;
use crate::model::*;
use crate::run::*;
use castellan_engine::{Lang, Narration, Session, Viewer};
use serde::Serialize;

/// A revealed dice seed.
#[derive(Clone, Debug, Serialize)]
pub(crate) struct Reveal {
    pub turn: u32,
    pub seed: String,
}

/// A die rolled since the last report.
#[derive(Clone, Debug, Serialize)]
pub(crate) struct RollCtx {
    pub turn: u32,
    pub index: u32,
    pub sides: u8,
    pub value: u8,
}

/// A seat as the public report lists it.
#[derive(Clone, Debug, Serialize)]
pub(crate) struct PlayerCtx {
    pub name: String,
    pub bot: bool,
    pub resigned: bool,
}

/// How the game ended, in the reader's language (`templates/LANG/outcome.txt`).
#[derive(Clone, Debug, Default, Serialize)]
pub(crate) struct OutcomeCtx {
    pub ended_by_gm: bool,
    pub winners: Vec<String>,
    pub reason: String,
}

/// The public report (`templates/LANG/report.txt`).
#[derive(Clone, Debug, Serialize)]
pub(crate) struct Report {
    pub game_id: String,
    pub game: String,
    pub turn: u32,
    pub happened: Vec<String>,
    pub rolls: Vec<RollCtx>,
    pub map: String,
    pub awaiting: Vec<String>,
    pub deadline: Option<String>,
    pub deadline_short: Option<String>,
    pub finished: bool,
    pub outcome: OutcomeCtx,
    pub secret_key: Option<String>,
    pub secret_commitment: String,
    pub commitment: String,
    pub revealed: Vec<Reveal>,
    pub revealed_last: Option<u32>,
    pub next_turn: u32,
    pub players: Vec<PlayerCtx>,
}

/// A seat's private mail (`templates/LANG/private.txt`).
#[derive(Clone, Debug, Serialize)]
pub(crate) struct Private {
    pub game_id: String,
    pub name: String,
    pub turn: u32,
    pub happened: Vec<String>,
    pub view: String,
    pub prompts: Vec<PromptCtx>,
    pub deadline: Option<String>,
    pub deadline_short: Option<String>,
}

/// The dice facts of a report: seeds revealed now, and the commitments.
struct Dice {
    revealed: Vec<Reveal>,
    revealed_last: u32,
    commitment: String,
    secret_commitment: String,
    secret_key: Option<String>,
}

/// Turns before the current one are over: reveal their seeds (the last one again if
/// none is new), and the secret key once the game is over.
fn dice(rec: &GameRecord, session: &mut dyn Session, finished: bool) -> Dice {
    let turn = session.turn();
    let upto = if finished {
        turn
    } else {
        turn.saturating_sub(1)
    };
    let mut turns: Vec<u32> = ((rec.revealed + 1)..=upto).collect();
    if turns.is_empty() && rec.revealed > 0 {
        turns.push(rec.revealed);
    }
    let revealed = turns
        .into_iter()
        .map(|t| Reveal {
            turn: t,
            seed: session.dice().turn_seed(t).hex(),
        })
        .collect();
    Dice {
        revealed,
        revealed_last: upto.max(rec.revealed),
        commitment: session.dice().commitment_for(turn).hex(),
        secret_commitment: session.dice().secret_commitment().hex(),
        secret_key: finished.then(|| session.dice().secret_key().hex()),
    }
}

fn outcome(rec: &GameRecord, session: &dyn Session, lang: Lang) -> OutcomeCtx {
    match session.outcome() {
        Some(o) => OutcomeCtx {
            ended_by_gm: false,
            winners: o.winners.iter().map(|w| seat_name(rec, *w)).collect(),
            reason: o.reason_in(lang).to_string(),
        },
        None => OutcomeCtx {
            ended_by_gm: rec.status == Status::Finished,
            ..Default::default()
        },
    }
}

impl Run<'_> {
    /// Public report to everyone (once per language), private mails to each player.
    pub(crate) fn report(&mut self, g: &mut Loaded) {
        let Some(session) = g.session.as_mut() else {
            return;
        };
        let finished = g.rec.status == Status::Finished;
        let dice = dice(&g.rec, session.as_mut(), finished);
        g.rec.revealed = dice.revealed_last;
        let mut by_lang: Vec<(Lang, Vec<String>)> = Vec::new();
        for to in Self::recipients(&g.rec) {
            let lang = self.addr_lang(&g.rec, &to);
            match by_lang.iter_mut().find(|(l, _)| *l == lang) {
                Some((_, v)) => v.push(to),
                None => by_lang.push((lang, vec![to])),
            }
        }
        for (lang, to) in by_lang {
            let Some(session) = g.session.as_ref() else {
                return;
            };
            let ctx = self.public_report(&g.rec, session.as_ref(), &dice, lang);
            let svg = session.picture(Viewer::Public, lang);
            for a in to {
                self.send(&a, lang, "report", &ctx, &g.rec.id.clone(), None);
                self.attach_picture(&g.rec, svg.as_deref(), lang);
            }
        }
        for seat in 0..g.rec.seats.len() {
            self.private_mail(g, seat, finished);
        }
        if let Some(session) = g.session.as_ref() {
            g.rec.reported = session.history_len();
        }
        g.rec.final_sent = finished;
        g.force_private = false;
        g.dirty = true;
    }

    fn public_report(
        &self,
        rec: &GameRecord,
        session: &dyn Session,
        dice: &Dice,
        lang: Lang,
    ) -> Report {
        let n: Narration = session.narrate_since(rec.reported, lang);
        let turn = session.turn();
        let finished = rec.status == Status::Finished;
        Report {
            game_id: rec.id.clone(),
            game: rec.game.clone(),
            turn,
            happened: n.public,
            rolls: n
                .rolls
                .iter()
                .map(|r| RollCtx {
                    turn: r.turn,
                    index: r.index,
                    sides: r.sides,
                    value: r.value,
                })
                .collect(),
            map: session.public_view(lang),
            awaiting: session
                .awaiting()
                .iter()
                .map(|s| seat_name(rec, *s))
                .collect(),
            deadline: rec.deadline.map(|d| format_long_in(d, lang)),
            deadline_short: rec.deadline.map(|d| format_short_in(d, lang)),
            finished,
            outcome: outcome(rec, session, lang),
            secret_key: dice.secret_key.clone(),
            secret_commitment: dice.secret_commitment.clone(),
            commitment: dice.commitment.clone(),
            revealed: dice.revealed.clone(),
            revealed_last: (dice.revealed_last > 0).then_some(dice.revealed_last),
            next_turn: turn,
            players: rec
                .seats
                .iter()
                .map(|s| PlayerCtx {
                    name: s.name.clone(),
                    bot: s.bot,
                    resigned: s.resigned,
                })
                .collect(),
        }
    }

    /// A seat's private mail: only to the seat's own address, in its language, when it
    /// was told something, is asked something, or the game started or ended.
    fn private_mail(&mut self, g: &Loaded, seat: usize, finished: bool) {
        let s = &g.rec.seats[seat];
        let (Some(addr), Some(session)) = (s.address.clone(), g.session.as_ref()) else {
            return;
        };
        if s.resigned {
            return;
        }
        let lang = self.seat_lang(&g.rec, seat);
        let n = session.narrate_since(g.rec.reported, lang);
        let mine = n.private_for(seat);
        let prompts = prompts_of(session.as_ref(), seat, lang);
        if mine.is_empty() && prompts.is_empty() && !g.force_private && !finished {
            return;
        }
        let ctx = Private {
            game_id: g.rec.id.clone(),
            name: s.name.clone(),
            turn: session.turn(),
            happened: mine.iter().map(|l| l.to_string()).collect(),
            view: session.private_view(seat, lang),
            prompts,
            deadline: g.rec.deadline.map(|d| format_long_in(d, lang)),
            deadline_short: g.rec.deadline.map(|d| format_short_in(d, lang)),
        };
        let token = s.token.clone();
        self.send(&addr, lang, "private", &ctx, &g.rec.id, Some(&token));
        let svg = session.picture(Viewer::Seat(seat), lang);
        self.attach_picture(&g.rec, svg.as_deref(), lang);
    }
}
