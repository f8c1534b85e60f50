//! The reports after a game moved, as typed data: the public one (rendered once per
//! language among its readers) and each seat's private mail (in the seat's language).

use crate::clock::{format_long_in, format_long_zoned, format_short_in, format_short_zoned};
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
    /// Out of the game (eliminated).
    pub out: bool,
}

/// A seat out of the game, as a report tells it.
#[derive(Clone, Debug, Serialize)]
pub(crate) struct OutCtx {
    #[serde(skip)]
    pub seat: usize,
    pub name: String,
    pub turn: u32,
    /// Who put it out, when the game says.
    pub by: Option<String>,
    /// The same after French "de" ("d'Anna", "de Bob").
    pub by_de: Option<String>,
    /// The reader's own seat, told for the first time.
    pub newly: bool,
}

/// One line of the final standings: the winners first, then those still in at the end by
/// the game's measure, then those out, the last out highest (`placings`).
#[derive(Clone, Debug, Serialize)]
pub(crate) struct PlaceCtx {
    /// 1-based; seats tied share it ("1, 2, 2, 4").
    pub place: usize,
    pub name: String,
    pub winner: bool,
    /// The turn the seat went out on, if it did.
    pub out_turn: Option<u32>,
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
    /// The dice, compact: one line per dice turn, "3.1-3.14: 5 2 6 ..." (a die of other
    /// than six sides as value/sides).
    pub dice: Vec<String>,
    /// Seats that missed a deadline since the last report, and what was played for them.
    pub missed: Vec<Missed>,
    pub map: String,
    /// The lines of the map that changed since the last report, each under its section's
    /// heading; `None`: the reader gets the whole map.
    pub map_changes: Option<Vec<String>>,
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
    /// Seats out of the game since the reader's last report, in the order they went out.
    pub out_now: Vec<OutCtx>,
    /// The game is over: every seat by its place.
    pub standings: Vec<PlaceCtx>,
    /// The reader's seat is out of the game: what they read instead of a private part.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub you_out: Option<OutCtx>,
    /// The reader's own seat, when the report goes to a player: what it is asked (at the
    /// top), what only it was told, its private view. One mail a turn, not two.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub me: Option<Private>,
}

/// A seat's private mail (`templates/LANG/private.txt`).
#[derive(Clone, Debug, Serialize)]
pub(crate) struct Private {
    pub game_id: String,
    pub name: String,
    pub turn: u32,
    pub happened: Vec<String>,
    /// A question's mail: what the table has seen happen since the last report (the
    /// attack being answered), which the turn's report will tell everyone.
    pub context: Vec<String>,
    /// A question's mail: the seats out of the game since the last report (the turn's
    /// report tells the table).
    pub out_now: Vec<OutCtx>,
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

/// The dice of a report, one line per run of one dice turn: "3.1-3.14: 5 2 6 1 ...".
fn compact_dice(rolls: &[castellan_engine::dice::Roll]) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    let mut run: Option<(u32, u32, u32, Vec<String>)> = None;
    for r in rolls {
        let v = if r.sides == 6 {
            r.value.to_string()
        } else {
            format!("{}/{}", r.value, r.sides)
        };
        match &mut run {
            Some((turn, _, last, values)) if *turn == r.turn && r.index == *last + 1 => {
                *last = r.index;
                values.push(v);
            }
            _ => {
                if let Some(done) = run.take() {
                    out.push(dice_line(done));
                }
                run = Some((r.turn, r.index, r.index, vec![v]));
            }
        }
    }
    if let Some(done) = run {
        out.push(dice_line(done));
    }
    out
}

fn dice_line((turn, first, last, values): (u32, u32, u32, Vec<String>)) -> String {
    if first == last {
        format!("{turn}.{first}: {}", values.join(" "))
    } else {
        format!("{turn}.{first}-{turn}.{last}: {}", values.join(" "))
    }
}

fn out_ctx(rec: &GameRecord, o: &OutSeat) -> OutCtx {
    let by = o.by.map(|b| seat_name(rec, b));
    OutCtx {
        seat: o.seat,
        name: seat_name(rec, o.seat),
        turn: o.turn,
        by_de: by.as_deref().map(castellan_engine::lang::fr::de),
        by,
        newly: !o.told,
    }
}

/// The final placings as (place, seat), best first: the winners (sharing the first place),
/// then the seats still in at the end by the game's measure (highest first; equal ones, or
/// all of them without a measure, share a place), then the seats out, the last out highest.
/// Places count the seats before ("1, 2, 2, 4").
pub(crate) fn placings(
    seats: usize,
    winners: &[usize],
    out: &[usize],
    measure: Option<&[Vec<i64>]>,
) -> Vec<(usize, usize)> {
    let mut groups: Vec<Vec<usize>> = Vec::new();
    let winners: Vec<usize> = (0..seats).filter(|s| winners.contains(s)).collect();
    if !winners.is_empty() {
        groups.push(winners.clone());
    }
    let key = |s: usize| measure.and_then(|m| m.get(s)).cloned().unwrap_or_default();
    let mut still: Vec<usize> = (0..seats)
        .filter(|s| !winners.contains(s) && !out.contains(s))
        .collect();
    still.sort_by(|a, b| key(*b).cmp(&key(*a)).then(a.cmp(b)));
    let mut level: Vec<Vec<usize>> = Vec::new();
    for s in still {
        match level.last_mut() {
            Some(g) if key(g[0]) == key(s) => g.push(s),
            _ => level.push(vec![s]),
        }
    }
    groups.extend(level);
    for s in out
        .iter()
        .rev()
        .filter(|s| **s < seats && !winners.contains(s))
    {
        groups.push(vec![*s]);
    }
    let mut places = Vec::new();
    for g in groups {
        let place = places.len() + 1;
        places.extend(g.into_iter().map(|s| (place, s)));
    }
    places
}

fn standings(rec: &GameRecord, session: &dyn Session) -> Vec<PlaceCtx> {
    let winners = session.outcome().map(|o| o.winners).unwrap_or_default();
    let out: Vec<usize> = rec.out.iter().map(|o| o.seat).collect();
    let measure = session.measure();
    let places = placings(rec.seats.len(), &winners, &out, measure.as_deref());
    // Everyone sharing the first place (a draw, or a game the game master ended with no
    // measure to rank by): the outcome says it, a list would add nothing.
    if places.iter().all(|(p, _)| *p == 1) {
        return Vec::new();
    }
    places
        .into_iter()
        .map(|(place, s)| PlaceCtx {
            place,
            name: seat_name(rec, s),
            winner: winners.contains(&s),
            out_turn: rec.out.iter().find(|o| o.seat == s).map(|o| o.turn),
        })
        .collect()
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
        let mut public: Vec<(Lang, Report, Option<String>)> = Vec::new();
        let mut told: Vec<usize> = Vec::new();
        let id = g.rec.id.clone();
        // A round ends when the turn comes back round to a seat at or before the one that
        // had it (or a simultaneous phase follows another): `SET REPORTS ROUND` readers
        // hear then.
        let awaiting_now = session.awaiting();
        let round_ended = match (awaiting_now.first(), g.rec.reported_awaiting.first()) {
            (Some(now), Some(before)) => now <= before,
            _ => true,
        };
        let game_lang = self.game_lang(&g.rec);
        let view_now = map_text(session.as_ref(), game_lang);
        // Every reader is told the same entries: each narration is made once.
        let mut told_since = Narrations::default();
        let map_in = |lang: Lang| match g.session.as_ref() {
            Some(s) if lang != game_lang => map_text(s.as_ref(), lang),
            _ => view_now.clone(),
        };
        let changed = if finished {
            None
        } else {
            changed_lines(&g.rec.reported_view, &view_now)
        };
        for to in Self::recipients(&g.rec) {
            let Some(session) = g.session.as_ref() else {
                return;
            };
            let seat = (0..g.rec.seats.len()).find(|&s| {
                let x = &g.rec.seats[s];
                !x.resigned
                    && !told.contains(&s)
                    && x.address.as_deref().is_some_and(|a| lower(a) == to)
            });
            let lang = match seat {
                Some(s) => self.seat_lang(&g.rec, s),
                None => self.addr_lang(&g.rec, &to),
            };
            // SET REPORTS: a reader who asked for fewer mails hears when asked something,
            // at the start and the end, and (ROUND) when a round ends; what they missed
            // comes in that mail.
            let out_me = seat.and_then(|s| g.rec.out.iter().find(|o| o.seat == s).cloned());
            let asked = out_me.is_none()
                && seat.is_some_and(|s| !prompts_of(session.as_ref(), s, lang).is_empty());
            let pref = g.rec.reports.get(&to).copied().unwrap_or_default();
            // A seat newly out is told at once, whatever its SET REPORTS.
            let due = finished
                || g.force_private
                || asked
                || out_me.as_ref().is_some_and(|o| !o.told)
                || match pref {
                    Reports::Turn => true,
                    Reports::Round => round_ended,
                    Reports::None => false,
                };
            if !due {
                let from = g.rec.reported;
                g.rec.told.entry(to.clone()).or_insert(from);
                if let Some(s) = seat {
                    told.push(s);
                }
                continue;
            }
            if !public.iter().any(|(l, _, _)| *l == lang) {
                let n = told_since.since(session.as_ref(), g.rec.reported, lang);
                let map = map_in(lang);
                let from = g.rec.reported;
                let mut ctx =
                    self.public_report(&g.rec, session.as_ref(), &dice, lang, (from, n), map);
                // The indices come from the game's language; another language's map is
                // used only when it has the same lines (else the reader gets it whole).
                let same_shape = ctx.map.lines().count() == view_now.lines().count();
                ctx.map_changes = changed
                    .as_ref()
                    .filter(|_| same_shape)
                    .and_then(|c| with_headings(&ctx.map, c));
                let svg = session.picture(Viewer::Public, lang);
                public.push((lang, ctx, svg));
            }
            let Some((_, cached, public_svg)) = public.iter().find(|(l, _, _)| *l == lang) else {
                continue;
            };
            // A reader whose reports were held: everything since their last mail, and the
            // whole map.
            let held = g.rec.told.remove(&to);
            let mut ctx = match held {
                Some(from) => {
                    let n = told_since.since(session.as_ref(), from, lang);
                    let map = map_in(lang);
                    let mut c =
                        self.public_report(&g.rec, session.as_ref(), &dice, lang, (from, n), map);
                    c.map_changes = None;
                    c
                }
                None => cached.clone(),
            };
            let public_svg = public_svg.clone();
            let token = match seat {
                Some(s) => {
                    told.push(s);
                    if let Some(o) = &out_me {
                        // Out of the game: told so, and no private part, nothing asked.
                        ctx.you_out = Some(out_ctx(&g.rec, o));
                        ctx.out_now.retain(|x| x.seat != s);
                        if let Some(o) = g.rec.out.iter_mut().find(|o| o.seat == s) {
                            o.told = true;
                        }
                    } else {
                        let from = held.unwrap_or(g.rec.reported);
                        let n = told_since.since(session.as_ref(), from, lang);
                        ctx.me = Some(self.private_ctx(g, s, lang, n));
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
                    g.rec.token_of(&to).map(str::to_string)
                }
            };
            localize(&mut ctx, &g.rec, &to, lang);
            self.send(&to, lang, "report", &ctx, &id, token.as_deref());
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
            self.attach_picture(&g.rec, svg.as_deref(), lang);
        }
        for seat in 0..g.rec.seats.len() {
            if !told.contains(&seat) && !g.rec.is_out(seat) {
                self.private_mail(g, seat, finished);
            }
        }
        if let Some(session) = g.session.as_ref() {
            g.rec.reported = session.history_len();
        }
        g.rec.reported_view = view_now;
        g.rec.final_sent = finished;
        g.rec.missed.clear();
        g.force_private = false;
        g.dirty = true;
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
        self.attach_picture(&g.rec, svg.as_deref(), lang);
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
                n.private_for(seat).iter().map(|l| l.to_string()).collect(),
                session.private_view(seat, lang),
                prompts_of(session.as_ref(), seat, lang),
                session.turn(),
            ),
            None => (Vec::new(), String::new(), Vec::new(), 0),
        };
        Private {
            game_id: g.rec.id.clone(),
            name: s.name.clone(),
            turn,
            happened,
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
            dice: compact_dice(&n.rolls),
            missed: rec.missed.clone(),
            game_id: rec.id.clone(),
            game: rec.game.clone(),
            turn,
            happened: n.public.clone(),
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
        self.attach_picture(&g.rec, svg.as_deref(), lang);
    }
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

/// The game's map as a report shows it: its public view without blank lines (its
/// sections have headings; a 6-player report stays short).
fn map_text(session: &dyn Session, lang: Lang) -> String {
    let view = session.public_view(lang);
    let mut out = String::with_capacity(view.len());
    for l in view.lines().filter(|l| !l.trim().is_empty()) {
        out.push_str(l);
        out.push('\n');
    }
    out
}

/// Maps shorter than this are shown whole: a short map is read at a glance.
const SHORT_MAP_LINES: usize = 40;

/// The indices of `now`'s lines that the last report's map (`before`) did not have; `None`
/// when the whole map should be shown: no map before (the first report), a short map, or
/// more than three lines in four changed.
pub(crate) fn changed_lines(before: &str, now: &str) -> Option<Vec<usize>> {
    if before.is_empty() {
        return None;
    }
    let lines: Vec<&str> = now.lines().collect();
    if lines.len() < SHORT_MAP_LINES {
        return None;
    }
    let old: std::collections::HashSet<&str> = before.lines().collect();
    let changed: Vec<usize> = (0..lines.len())
        .filter(|i| !lines[*i].trim().is_empty() && !old.contains(lines[*i]))
        .collect();
    (changed.len() * 4 <= lines.len() * 3).then_some(changed)
}

/// The lines of `map` at `changed`, each indented line under the heading above it (the
/// nearest line before it that is not indented), each heading once. `None` when an index
/// is past the map's end.
pub(crate) fn with_headings(map: &str, changed: &[usize]) -> Option<Vec<String>> {
    let lines: Vec<&str> = map.lines().collect();
    if changed.iter().any(|i| *i >= lines.len()) {
        return None;
    }
    let mut out = Vec::new();
    let mut last_heading: Option<usize> = None;
    for &i in changed {
        if lines[i].starts_with(' ') {
            if let Some(h) = (0..i)
                .rev()
                .find(|j| !lines[*j].starts_with(' ') && !lines[*j].trim().is_empty())
            {
                if last_heading != Some(h) && !changed.contains(&h) {
                    out.push(lines[h].to_string());
                }
                last_heading = Some(h);
            }
        } else {
            last_heading = Some(i);
        }
        out.push(lines[i].to_string());
    }
    Some(out)
}

#[cfg(test)]
mod placing_tests {
    use super::*;

    /// The final report once had no standings or placings; now it has. The winner
    /// first, then those still in by the game's measure (ties share a place), then those
    /// out, the last out highest.
    #[test]
    fn the_winner_then_the_survivors_by_measure_then_the_last_out_highest() {
        // Five seats: 2 wins; 0 and 4 still in (4 holds more); 3 went out before 1.
        let m = vec![vec![5, 9], vec![0, 0], vec![20, 40], vec![0, 0], vec![7, 3]];
        assert_eq!(
            placings(5, &[2], &[3, 1], Some(&m)),
            vec![(1, 2), (2, 4), (3, 0), (4, 1), (5, 3)]
        );
        // Equal measures share a place; the next place counts the seats before it.
        let m = vec![vec![5], vec![5], vec![9], vec![1]];
        assert_eq!(
            placings(4, &[2], &[], Some(&m)),
            vec![(1, 2), (2, 0), (2, 1), (4, 3)]
        );
        // No measure: those still in share the place after the winners.
        assert_eq!(
            placings(4, &[1], &[0], None),
            vec![(1, 1), (2, 2), (2, 3), (4, 0)]
        );
        // Shared win.
        assert_eq!(
            placings(3, &[0, 2], &[1], None),
            vec![(1, 0), (1, 2), (3, 1)]
        );
    }
}

#[cfg(test)]
mod map_tests {
    use super::*;

    fn map(rows: &[(&str, u32)]) -> String {
        let mut s = String::from("BOARD (turn 3)\nFRANCE\n");
        for (i, (name, n)) in rows.iter().enumerate() {
            if i == rows.len() / 2 {
                s.push_str("SPAIN\n");
            }
            s.push_str(&format!("  {name:<10} {n}\n"));
        }
        s
    }

    /// "Then what changed on the map. The full map comes last, or only on
    /// request (MAP)": a report shows the changed lines under their headings.
    #[test]
    fn only_the_changed_lines_are_shown_under_their_heading() {
        let names: Vec<String> = (0..50).map(|i| format!("T{i}")).collect();
        let before: Vec<(&str, u32)> = names.iter().map(|n| (n.as_str(), 1)).collect();
        let mut after = before.clone();
        after[3].1 = 5;
        after[40].1 = 2;
        let (b, a) = (map(&before), map(&after));
        let c = changed_lines(&b, &a).expect("a long map with few changes");
        let shown = with_headings(&a, &c).unwrap();
        assert_eq!(
            shown,
            vec!["FRANCE", "  T3         5", "SPAIN", "  T40        2"],
            "{shown:#?}"
        );
        // The first report, and a map mostly changed, are shown whole.
        assert_eq!(changed_lines("", &a), None);
        let all: Vec<(&str, u32)> = names.iter().map(|n| (n.as_str(), 9)).collect();
        assert_eq!(changed_lines(&b, &map(&all)), None);
        // A short map is shown whole.
        assert_eq!(changed_lines(&map(&before[..5]), &map(&after[..5])), None);
    }
}
