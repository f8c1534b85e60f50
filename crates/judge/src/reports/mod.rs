//! The reports after a game moved, as typed data: the public one (rendered once per
//! language among its readers) and each seat's private mail (in the seat's language).

use crate::clock::{format_long_in, format_long_zoned, format_short_in, format_short_zoned};
use crate::mails::*;
use crate::model::*;
use crate::run::*;
use castellan_engine::{Lang, Narration, Session, Viewer};

mod context;
mod map;
pub(crate) use context::*;
use map::map_text;
pub(crate) use map::{changed_lines, with_headings};

impl Run<'_> {
    /// One mail to each reader of the game: a player's holds the public report and, for
    /// their eyes only (the mail goes to their address alone), what they are asked, what
    /// only they were told and their private view; an observer's or the game master's holds
    /// the public report. A second seat at the same address gets its own private mail.
    pub(crate) fn report(&mut self, g: &mut Loaded) {
        let Some(session) = g.session.as_mut() else {
            return;
        };
        let finished = g.rec.status == Status::Finished;
        let dice = dice(&g.rec, session.as_mut(), finished);
        g.rec.revealed = dice.revealed_last;
        // A round ends when the turn comes back round to a seat at or before the one that
        // had it (or a simultaneous phase follows another): `SET REPORTS ROUND` readers
        // hear then.
        let round_ended = match (session.awaiting().first(), g.rec.reported_awaiting.first()) {
            (Some(now), Some(before)) => now <= before,
            _ => true,
        };
        let game_lang = self.game_lang(&g.rec);
        let view_now = map_text(session.as_ref(), game_lang);
        // A map drawn in lines (Castello's board) is read only whole; a map of paragraphs
        // (an empire each) is told by what changed.
        let changed = if finished || !session.map_in_paragraphs() {
            None
        } else {
            changed_lines(&g.rec.reported_view, &view_now)
        };
        let mut t = Telling {
            dice,
            finished,
            round_ended,
            game_lang,
            view_now,
            changed,
            told_since: Narrations::default(),
            public: Vec::new(),
            told: Vec::new(),
        };
        for to in Self::recipients(&g.rec) {
            self.report_to(g, &to, &mut t);
        }
        for seat in 0..g.rec.seats.len() {
            if !t.told.contains(&seat) && !g.rec.is_out(seat) {
                self.private_mail(g, seat, finished);
            }
        }
        if let Some(session) = g.session.as_ref() {
            g.rec.reported = session.history_len();
        }
        g.rec.reported_view = t.view_now;
        g.rec.final_sent = finished;
        g.rec.missed.clear();
        g.force_private = false;
        g.dirty = true;
    }

    /// The report's mail to the reader at `to`, if it is due (`SET REPORTS`): the public
    /// report in their language and, to a seat, its private part; or, to a seat out of
    /// the game, that it is out.
    fn report_to(&mut self, g: &mut Loaded, to: &str, t: &mut Telling) {
        let Some(session) = g.session.as_ref() else {
            return;
        };
        let seat = (0..g.rec.seats.len()).find(|&s| {
            let x = &g.rec.seats[s];
            !x.resigned
                && !t.told.contains(&s)
                && x.address.as_deref().is_some_and(|a| lower(a) == to)
        });
        let lang = match seat {
            Some(s) => self.seat_lang(&g.rec, s),
            None => self.addr_lang(&g.rec, to),
        };
        // SET REPORTS: a reader who asked for fewer mails hears when asked something,
        // at the start and the end, and (ROUND) when a round ends; what they missed
        // comes in that mail.
        let out_me = seat.and_then(|s| g.rec.out.iter().find(|o| o.seat == s).cloned());
        let asked = out_me.is_none()
            && seat.is_some_and(|s| !prompts_of(session.as_ref(), s, lang).is_empty());
        let pref = g.rec.reports.get(to).copied().unwrap_or_default();
        // A seat newly out is told at once, whatever its SET REPORTS.
        let due = t.finished
            || g.force_private
            || asked
            || out_me.as_ref().is_some_and(|o| !o.told)
            || match pref {
                Reports::Turn => true,
                Reports::Round => t.round_ended,
                Reports::None => false,
            };
        if !due {
            let from = g.rec.reported;
            g.rec.told.entry(to.to_string()).or_insert(from);
            t.told.extend(seat);
            return;
        }
        // A reader whose reports were held: everything since their last mail, and the
        // whole map.
        let held = g.rec.told.remove(to);
        let (mut ctx, public_svg) = self.public_for(&g.rec, session.as_ref(), lang, held, t);
        let token = match seat {
            Some(s) => {
                t.told.push(s);
                if let Some(o) = &out_me {
                    // Out of the game: told so, and no private part, nothing asked.
                    ctx.you_out = Some(out_ctx(&g.rec, o));
                    ctx.out_now.retain(|x| x.seat != s);
                    if let Some(o) = g.rec.out.iter_mut().find(|o| o.seat == s) {
                        o.told = true;
                    }
                } else {
                    let from = held.unwrap_or(g.rec.reported);
                    let n = t.told_since.since(session.as_ref(), from, lang);
                    let mut me = self.private_ctx(g, s, lang, n);
                    // Each event once: what the table reads is not told again as the
                    // seat's own, nor what is told to the seat as its own.
                    me.happened.retain(|l| !ctx.happened.contains(l));
                    told_to_the_seat(&mut ctx, &mut me, n, s);
                    ctx.me = Some(me);
                }
                if g.rec.seats[s].map == MapDetail::Full {
                    ctx.map_changes = None;
                }
                Some(g.rec.seats[s].token.clone())
            }
            // Observers and the game master read the whole map; the game master's
            // report carries their token, so a reply to it works.
            None => {
                ctx.map_changes = None;
                g.rec.token_of(to).map(str::to_string)
            }
        };
        localize(&mut ctx, &g.rec, to, lang);
        let id = g.rec.id.clone();
        self.send(to, lang, "report", &ctx, &id, token.as_deref());
        let svg = match seat {
            Some(_) if out_me.is_some() => {
                self.for_reader();
                public_svg
            }
            Some(s) => {
                self.for_reader();
                // The seat's own picture if it shows more, else the table's.
                g.session
                    .as_ref()
                    .and_then(|x| {
                        crate::html::seat_picture(x.as_ref(), s, lang, public_svg.as_deref())
                    })
                    .or(public_svg)
            }
            None => public_svg,
        };
        self.attach_picture(&g.rec, svg, lang);
    }

    /// The public report in `lang` and the table's picture: made once per language for
    /// every reader; for a reader whose reports were held since `held`, made for them
    /// (everything since, and the whole map).
    fn public_for(
        &mut self,
        rec: &GameRecord,
        session: &dyn Session,
        lang: Lang,
        held: Option<usize>,
        t: &mut Telling,
    ) -> (Report, Option<String>) {
        let map_in = |lang: Lang| {
            if lang == t.game_lang {
                t.view_now.clone()
            } else {
                map_text(session, lang)
            }
        };
        let cached = t.public.iter().position(|(l, _, _)| *l == lang);
        let cached = match cached {
            Some(i) => i,
            None => {
                let from = rec.reported;
                let n = t.told_since.since(session, from, lang);
                let map = map_in(lang);
                let mut ctx = self.public_report(rec, session, &t.dice, lang, (from, n), map);
                // The indices come from the game's language; another language's map is
                // used only when it has the same lines (else the reader gets it whole).
                let same_shape = ctx.map.lines().count() == t.view_now.lines().count();
                ctx.map_changes = t
                    .changed
                    .as_ref()
                    .filter(|_| same_shape)
                    .and_then(|c| with_headings(&ctx.map, c));
                let svg = session.picture(Viewer::Public, lang);
                t.public.push((lang, ctx, svg));
                t.public.len() - 1
            }
        };
        let svg = t.public[cached].2.clone();
        let ctx = match held {
            Some(from) => {
                let n = t.told_since.since(session, from, lang);
                let map = map_in(lang);
                let mut c = self.public_report(rec, session, &t.dice, lang, (from, n), map);
                c.map_changes = None;
                c
            }
            None => t.public[cached].1.clone(),
        };
        (ctx, svg)
    }

    /// A question mid-turn, to the seat that must answer it alone, with what happened so
    /// far (the table hears it all in the turn's report).
    pub(crate) fn question_mail(&mut self, g: &Loaded, seat: usize) {
        let s = &g.rec.seats[seat];
        let (Some(addr), Some(session)) = (s.address.clone(), g.session.as_ref()) else {
            return;
        };
        if s.resigned || s.bot || g.rec.is_out(seat) {
            return;
        }
        let lang = self.seat_lang(&g.rec, seat);
        let n = session.narrate_since(g.rec.reported, lang);
        let mut ctx = self.private_ctx(g, seat, lang, &n);
        ctx.happened.retain(|l| !n.public.contains(l));
        ctx.context = n.public;
        ctx.out_now = g
            .rec
            .out
            .iter()
            .filter(|o| o.at > g.rec.reported)
            .map(|o| out_ctx(&g.rec, o))
            .collect();
        let token = s.token.clone();
        self.send(&addr, lang, "private", &ctx, &g.rec.id, Some(&token));
        self.for_reader();
        let svg = crate::html::seat_picture(session.as_ref(), seat, lang, None);
        self.attach_picture(&g.rec, svg, lang);
    }

    /// What the writer of the mail alone learnt by it (a Spy's look, a card drawn), for
    /// their reply; nothing when there is nothing private.
    pub(crate) fn private_news(&mut self, g: &Loaded, seat: usize) {
        let Some(session) = g.session.as_ref() else {
            return;
        };
        if g.rec.is_out(seat) {
            return;
        }
        let lang = self.seat_lang(&g.rec, seat);
        if session
            .narrate_since(g.rec.reported, lang)
            .private_for(seat)
            .is_empty()
        {
            return;
        }
        self.private_mail(g, seat, false);
    }

    /// The last mail queued is a game's mail to one reader (a reply may take it in).
    fn for_reader(&mut self) {
        if let Some(d) = self.mails.last_mut() {
            d.for_reader = true;
        }
    }

    /// What a seat alone reads, with `n` the narration of what it was not told yet.
    fn private_ctx(&self, g: &Loaded, seat: usize, lang: Lang, n: &Narration) -> Private {
        let s = &g.rec.seats[seat];
        let zone = s.address.as_deref().and_then(|a| g.rec.zone_of(a));
        let (happened, view, prompts, turn) = match g.session.as_ref() {
            Some(session) => (
                n.private_for(seat)
                    .iter()
                    .map(|l| l.to_string())
                    .collect::<Vec<String>>(),
                session.private_view(seat, lang),
                prompts_of(session.as_ref(), seat, lang),
                session.turn(),
            ),
            None => (Vec::new(), String::new(), Vec::new(), 0),
        };
        // Each fact once: a private line the view says again (Risk's ranked list) is left
        // to the view.
        let in_view = |l: &String| view.lines().any(|v| v.trim() == l.trim());
        let happened = happened.into_iter().filter(|l| !in_view(l)).collect();
        let awaiting = g
            .session
            .as_ref()
            .map(|x| x.awaiting().iter().map(|a| seat_name(&g.rec, *a)).collect())
            .unwrap_or_default();
        Private {
            awaiting,
            game_id: g.rec.id.clone(),
            name: s.name.clone(),
            turn,
            happened,
            addressed: Vec::new(),
            context: Vec::new(),
            out_now: Vec::new(),
            view,
            prompts,
            deadline: g.rec.deadline.map(|d| format_long_zoned(d, lang, zone)),
            deadline_short: g.rec.deadline.map(|d| format_short_zoned(d, lang, zone)),
        }
    }

    /// The public report of what `n` narrates (everything since history entry `from`),
    /// with `map`, the map as [`map_text`] writes it in `lang`.
    fn public_report(
        &self,
        rec: &GameRecord,
        session: &dyn Session,
        dice: &Dice,
        lang: Lang,
        (from, n): (usize, &Narration),
        map: String,
    ) -> Report {
        let turn = session.turn();
        let finished = rec.status == Status::Finished;
        Report {
            dice: compact_dice(&n.untold),
            missed: rec.missed.iter().map(|m| m.in_lang(lang)).collect(),
            game_id: rec.id.clone(),
            game: rec.game.clone(),
            turn,
            happened: n.public.clone(),
            rolls: n.rolls.iter().map(RollCtx::from).collect(),
            map,
            map_changes: None,
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
            rolls_dice: session.rolls_dice(),
            draws_hidden: session.draws_hidden(),
            revealed: dice.revealed.clone(),
            revealed_last: (dice.revealed_last > 0).then_some(dice.revealed_last),
            next_turn: turn,
            players: rec
                .seats
                .iter()
                .enumerate()
                .map(|(i, s)| PlayerCtx {
                    name: s.name.clone(),
                    bot: s.bot,
                    resigned: s.resigned,
                    out: rec.is_out(i),
                })
                .collect(),
            out_now: rec
                .out
                .iter()
                .filter(|o| o.at > from)
                .map(|o| out_ctx(rec, o))
                .collect(),
            standings: if finished {
                standings(rec, session)
            } else {
                Vec::new()
            },
            you_out: None,
            me: None,
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
        let ctx = self.private_ctx(g, seat, lang, &n);
        if ctx.happened.is_empty() && ctx.prompts.is_empty() && !g.force_private && !finished {
            return;
        }
        let token = s.token.clone();
        self.send(&addr, lang, "private", &ctx, &g.rec.id, Some(&token));
        self.for_reader();
        let svg = crate::html::seat_picture(session.as_ref(), seat, lang, None);
        self.attach_picture(&g.rec, svg, lang);
    }
}

/// What every reader's mail of one report shares.
struct Telling {
    dice: Dice,
    finished: bool,
    /// `SET REPORTS ROUND` readers hear now.
    round_ended: bool,
    game_lang: Lang,
    /// The map now, in the game's language.
    view_now: String,
    /// The map's lines that changed since the last report.
    changed: Option<Vec<usize>>,
    /// Every reader is told the same entries: each narration is made once.
    told_since: Narrations,
    /// The public report made in each language, with the table's picture.
    public: Vec<(Lang, Report, Option<String>)>,
    /// The seats that have had their mail (or were held back).
    told: Vec<usize>,
}

/// The narrations one report tells, by first entry and language: every reader is told
/// the same entries, which are narrated once, not once a reader.
#[derive(Default)]
struct Narrations(Vec<((usize, Lang), Narration)>);

impl Narrations {
    /// The narration of `session`'s entries from `from` on, in `lang`.
    fn since(&mut self, session: &dyn Session, from: usize, lang: Lang) -> &Narration {
        let i = match self.0.iter().position(|(k, _)| *k == (from, lang)) {
            Some(i) => i,
            None => {
                self.0
                    .push(((from, lang), session.narrate_since(from, lang)));
                self.0.len() - 1
            }
        };
        &self.0[i].1
    }
}

/// The report's deadline in the reader's time zone, if they chose one (UTC beside it).
fn localize(ctx: &mut Report, rec: &GameRecord, to: &str, lang: Lang) {
    if let (Some(zone), Some(d)) = (rec.zone_of(to), rec.deadline) {
        ctx.deadline = Some(format_long_zoned(d, lang, Some(zone)));
        ctx.deadline_short = Some(format_short_zoned(d, lang, Some(zone)));
    }
}
