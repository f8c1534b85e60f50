//! HELP LIST ORDERS STATUS HISTORY VERIFY: commands that only read.

use crate::auth::*;
use crate::clock::{format_long, format_long_in};
use crate::cmd::*;
use crate::mails::{prompts_of, PromptCtx};
use crate::model::*;
use crate::reports::compact_dice;
use crate::run::*;
use castellan_engine::{Lang, Session};
use serde_json::json;

impl Run<'_> {
    pub(crate) fn list_line(&self, r: &GameRecord) -> String {
        let filled = r.seats.len() - r.open_seats();
        format!(
            "{} {} {:?}, {}/{} seats{}{}",
            r.id,
            r.game,
            r.status,
            filled,
            r.seats.len(),
            if r.status == Status::Forming && r.open_seats() > 0 {
                format!(" ({} open: JOIN {} password)", r.open_seats(), r.id)
            } else {
                String::new()
            },
            r.deadline
                .map(|d| format!(", deadline {}", format_long(d)))
                .unwrap_or_default()
        )
    }

    pub(crate) fn show(&self, g: &Loaded) -> String {
        let r = &g.rec;
        let mut out = self.list_line(r);
        out.push_str(&format!("\ngame master: {}\n", r.gm));
        for (i, s) in r.seats.iter().enumerate() {
            out.push_str(&format!(
                "seat {}: {} <{}>{}{}{}{}\n",
                i + 1,
                s.name,
                s.address.as_deref().unwrap_or("open"),
                if s.bot { " [bot]" } else { "" },
                if s.resigned { " [resigned]" } else { "" },
                if s.misses > 0 {
                    format!(" [{} missed]", s.misses)
                } else {
                    String::new()
                },
                s.vacation_until
                    .filter(|v| *v > self.now())
                    .map(|v| format!(" [vacation until {}]", format_long(v)))
                    .unwrap_or_default()
            ));
        }
        if !r.observers.is_empty() {
            out.push_str(&format!("observers: {}\n", r.observers.join(", ")));
        }
        if let Some(s) = &g.session {
            out.push_str(&format!(
                "turn {}\n{}\n",
                s.turn(),
                s.public_view(castellan_engine::Lang::En)
            ));
        }
        out
    }

    /// `work` on the game in context for `command` (STATUS, HISTORY, VERIFY); or, when no
    /// game was named, the answer saying so. `None` when there is nothing (more) to
    /// answer: the unknown game named was answered at GAME.
    pub(super) fn game_for<R>(
        &mut self,
        ctx: &Ctx,
        from: &str,
        command: &str,
        work: impl FnOnce(&mut Self, &mut Loaded) -> R,
    ) -> Result<Option<R>, StoreError> {
        let Some(id) = ctx.game.clone() else {
            let lang = self.writer_lang(from);
            let command = command.into();
            self.answer(lang, "info", &InfoAnswer::WhichGame { command });
            return Ok(None);
        };
        if ctx.bad {
            return Ok(None);
        }
        self.with_game(&id, work)
    }

    pub(crate) fn status(&mut self, ctx: &Ctx, from: &str) -> Result<(), StoreError> {
        self.game_for(ctx, from, "STATUS", |run, g| -> Result<(), StoreError> {
            let lang = run.addr_lang(&g.rec, from);
            let who = run.auth(g, ctx, from)?.ok();
            let session = g.session.as_ref();
            // The reply goes to this seat's own address only.
            let private = match (who, session) {
                (Some(Who { seat: Some(s), .. }), Some(session)) => Some(PrivateStatus {
                    name: g.rec.seats[s].name.clone(),
                    view: session.private_view(s, lang),
                    prompts: prompts_of(session.as_ref(), s, lang),
                }),
                _ => None,
            };
            let answer = InfoAnswer::Status {
                line: run.game_line(&g.rec, lang),
                turn: session.map(|s| s.turn()),
                waiting: session
                    .map(|s| s.awaiting().iter().map(|x| seat_name(&g.rec, *x)).collect())
                    .unwrap_or_default(),
                map: session.map(|s| s.public_view(lang)),
                ask_password: private.is_none() && g.rec.seat_of(from).is_some(),
                private,
            };
            run.answer(lang, "info", &answer);
            Ok(())
        })?
        .unwrap_or(Ok(()))
    }

    /// NEIGHBOURS / MAP territory: public facts only, so no password is needed. A bare
    /// NEIGHBOURS from a seat: each territory it holds with its neighbours.
    pub(crate) fn neighbours(
        &mut self,
        ctx: &Ctx,
        from: &str,
        name: &str,
    ) -> Result<(), StoreError> {
        self.game_for(
            ctx,
            from,
            "NEIGHBOURS",
            |run, g| -> Result<(), StoreError> {
                let lang = run.addr_lang(&g.rec, from);
                let game = g.rec.id.clone();
                let seat = g.rec.seat_of(from);
                let borders = |s: &dyn Session| seat.and_then(|seat| s.borders(seat, lang));
                let answer = match g.session.as_ref() {
                    None => InfoAnswer::NotStarted {
                        command: "NEIGHBOURS".into(),
                        game,
                    },
                    // A bare NEIGHBOURS from a seat: every territory it holds with its
                    // neighbours (its reports tell the board around it in short).
                    Some(s) if name.trim().is_empty() && borders(s.as_ref()).is_some() => {
                        let text = borders(s.as_ref()).unwrap_or_default();
                        InfoAnswer::Neighbours { game, text }
                    }
                    Some(s) => match s.neighbours(name, lang) {
                        None => InfoAnswer::NoTerritories { game },
                        Some(Ok(text)) => InfoAnswer::Neighbours { game, text },
                        Some(Err(e)) => InfoAnswer::NoSuchTerritory {
                            game,
                            name: name.to_string(),
                            message: e.message_in(lang).to_string(),
                            hint: e.hint_in(lang).map(str::to_string),
                        },
                    },
                };
                run.answer(lang, "info", &answer);
                Ok(())
            },
        )?
        .unwrap_or(Ok(()))
    }

    /// A game as LIST and STATUS show it, dates in `lang`.
    fn game_line(&self, r: &GameRecord, lang: Lang) -> GameLine {
        GameLine {
            id: r.id.clone(),
            game: r.game.clone(),
            status: format!("{:?}", r.status),
            filled: r.seats.len() - r.open_seats(),
            seats: r.seats.len(),
            open: if r.status == Status::Forming {
                r.open_seats()
            } else {
                0
            },
            deadline: r.deadline.map(|d| format_long_in(d, lang)),
            players: Vec::new(),
            to_move: Vec::new(),
        }
    }

    /// [`Run::game_line`] for LIST: to a player, game master or observer of the game, with
    /// the players' names and whom it waits for (a stranger learns no name from LIST).
    fn list_entry(&self, r: &GameRecord, lang: Lang, from: &str) -> GameLine {
        let mut line = self.game_line(r, lang);
        let member = r.seat_of(from).is_some()
            || r.gm.eq_ignore_ascii_case(from)
            || r.observers.iter().any(|o| o.eq_ignore_ascii_case(from));
        if !member {
            return line;
        }
        line.players = r
            .seats
            .iter()
            .filter(|s| s.address.is_some())
            .map(|s| s.name.clone())
            .collect();
        if r.status == Status::Running {
            line.to_move = r
                .reported_awaiting
                .iter()
                .filter_map(|&i| r.seats.get(i).map(|s| s.name.clone()))
                .collect();
        }
        line
    }

    pub(crate) fn history(
        &mut self,
        ctx: &Ctx,
        from: &str,
        range: Option<&str>,
        picture: bool,
    ) -> Result<(), StoreError> {
        self.game_for(ctx, from, "HISTORY", |run, g| -> Result<(), StoreError> {
            let who = run.auth(g, ctx, from)?.ok();
            let id = g.rec.id.clone();
            let lang = run.addr_lang(&g.rec, from);
            let whole = run.whole_session(g)?;
            let Some(s) = whole.as_ref() else {
                let answer = InfoAnswer::NotStarted {
                    command: "HISTORY".into(),
                    game: id,
                };
                run.answer(lang, "info", &answer);
                return Ok(());
            };
            let turns = s.entry_turns();
            let last = turns.last().copied().unwrap_or(1);
            let Some((a, b)) = turn_range(range, last) else {
                let answer = InfoAnswer::BadRange {
                    game: id,
                    range: range.unwrap_or("").to_string(),
                };
                run.answer(lang, "info", &answer);
                return Ok(());
            };
            let seat = who.and_then(|w| w.seat);
            let (public, rolls, mine) = told_in(s.as_ref(), &turns, (a, b), seat, lang);
            let answer = InfoAnswer::History {
                game: id,
                from: a,
                to: b,
                lines: public,
                rolls,
                mine,
                picture: None,
                picture_cut: None,
            };
            let svg = if picture {
                // The board at the end of the range, as this reader may see it.
                let viewer = match who {
                    Some(Who {
                        seat: Some(seat), ..
                    }) => castellan_engine::Viewer::Seat(seat),
                    _ => castellan_engine::Viewer::Public,
                };
                s.at_turn(b)
                    .ok()
                    .and_then(|past| past.picture(viewer, lang))
            } else {
                None
            };
            run.answer_history(lang, answer, svg, b);
            Ok(())
        })?
        .unwrap_or(Ok(()))
    }

    /// HISTORY's answer, with the board's picture in the HTML part only if text and
    /// HTML stay within the reply's budget (a 229-byte mail drew 23 KB), and only with
    /// its answer.
    fn answer_history(&mut self, lang: Lang, mut answer: InfoAnswer, svg: Option<String>, b: u32) {
        let mut svg = svg.filter(|svg| {
            if let InfoAnswer::History { picture, .. } = &mut answer {
                *picture = Some(b);
            }
            let text = self.render_in(lang, "answers/info.txt", &answer);
            let fits = self.bounds.admit_picture(svg.len(), text.len() + 8);
            if let InfoAnswer::History {
                picture,
                picture_cut,
                ..
            } = &mut answer
            {
                if !fits {
                    *picture = None;
                    *picture_cut = Some(b);
                }
            }
            fits
        });
        let before = self.sections.len();
        self.answer(lang, "info", &answer);
        if self.sections.len() == before {
            svg = None;
        }
        if svg.is_some() {
            self.reply_picture = svg;
        }
    }
}

/// A game as LIST and STATUS show it.
#[derive(Clone, Debug, serde::Serialize)]
pub(crate) struct GameLine {
    pub id: String,
    pub game: String,
    /// Forming, Running, Paused, Finished.
    pub status: String,
    pub filled: usize,
    pub seats: usize,
    /// Open seats while forming.
    pub open: usize,
    pub deadline: Option<String>,
    /// LIST to a member of the game: the names of the seats taken (never their
    /// addresses).
    pub players: Vec<String>,
    /// LIST to a member of the game: whom a running game waits for.
    pub to_move: Vec<String>,
}

/// The private part of STATUS, for an authenticated seat.
#[derive(Clone, Debug, serde::Serialize)]
pub(crate) struct PrivateStatus {
    pub name: String,
    pub view: String,
    pub prompts: Vec<PromptCtx>,
}

/// What HELP, LIST, ORDERS, STATUS, HISTORY and VERIFY answer
/// (templates/LANG/answers/info.txt).
#[derive(Clone, Debug, serde::Serialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub(crate) enum InfoAnswer {
    /// `command`: STATUS, HISTORY or VERIFY.
    WhichGame {
        command: String,
    },
    NotStarted {
        command: String,
        game: String,
    },
    /// NEIGHBOURS: the board around one territory, in the game's words.
    Neighbours {
        game: String,
        text: String,
    },
    /// NEIGHBOURS in a game without territories (Castrum, Castello).
    NoTerritories {
        game: String,
    },
    /// NEIGHBOURS naming no territory of the board (or none at all).
    NoSuchTerritory {
        game: String,
        name: String,
        message: String,
        hint: Option<String>,
    },
    Help {
        text: String,
    },
    List {
        games: Vec<GameLine>,
    },
    OrdersHelp {
        game: String,
        help: String,
    },
    OrdersWhichGame {
        games: Vec<String>,
    },
    Status {
        line: GameLine,
        turn: Option<u32>,
        waiting: Vec<String>,
        map: Option<String>,
        private: Option<PrivateStatus>,
        /// A seat's writer without credentials: say how to see the private part.
        ask_password: bool,
    },
    BadRange {
        game: String,
        range: String,
    },
    History {
        game: String,
        from: u32,
        to: u32,
        lines: Vec<String>,
        /// The dice rolled, compact as a report writes them: "3.1-3.6: 6 5 3 4 2 1".
        rolls: Vec<String>,
        mine: Vec<String>,
        /// HISTORY ... PICTURE: the turn whose board the reply's HTML part shows.
        picture: Option<u32>,
        /// HISTORY ... PICTURE whose picture the reply's budget left out.
        picture_cut: Option<u32>,
    },
    /// VERIFY: the audit's report (English), and how to check it with the script the
    /// reply carries (`example`: commands for one turn of this game, when one is revealed).
    Verify {
        game: String,
        report: String,
        example: Option<DiceExample>,
    },
    /// HELP DICE: how the dice are made and checked (the template's text).
    Dice,
}

/// VERIFY's worked example: one revealed turn's seed, the seed or commitment before it,
/// and its dice, as `verify_dice.py chain` and `roll` take and print them.
#[derive(Clone, Debug, serde::Serialize)]
pub(crate) struct DiceExample {
    pub game: String,
    pub turn: u32,
    pub seed: String,
    pub previous: String,
    pub sides: Vec<u8>,
    pub faces: Vec<u8>,
}

/// HISTORY's range: none (every turn up to `last`), a turn, or `from-to`.
fn turn_range(range: Option<&str>, last: u32) -> Option<(u32, u32)> {
    let parsed: Option<(u32, u32)> = match range {
        None => Some((1, last)),
        Some(r) => match r.split_once('-') {
            Some((a, b)) => a.trim().parse().ok().zip(b.trim().parse().ok()),
            None => r.trim().parse().ok().map(|t| (t, t)),
        },
    };
    parsed.filter(|(a, b)| a <= b)
}

/// HISTORY [game-id] [turn | from-to]
pub(crate) fn parse_history(a: &Args) -> Result<Command, CmdError> {
    let is_picture = |w: &&str| {
        ["PICTURE", "IMAGE", "MAP", "CARTE"]
            .iter()
            .any(|p| w.eq_ignore_ascii_case(p))
    };
    let picture = a.words.last().is_some_and(is_picture);
    let words = if picture {
        &a.words[..a.words.len() - 1]
    } else {
        &a.words[..]
    };
    let (id, range) = match words {
        [] => (None, None),
        [x] if looks_like_id(x) => (Some(x.to_lowercase()), None),
        [x] => (None, Some(x.to_string())),
        [x, y] if looks_like_id(x) => (Some(x.to_lowercase()), Some(y.to_string())),
        _ => return Err(CmdError::HistoryArgs),
    };
    Ok(Command::History(id, range, picture))
}

impl Run<'_> {
    /// HELP: the judge's help text.
    pub(crate) fn help(&mut self, from: &str) {
        let games: Vec<_> = self
            .j
            .games
            .iter()
            .map(|g| json!({"name": g.name, "min": g.min_seats, "max": g.max_seats}))
            .collect();
        let lang = self.writer_lang(from);
        let text = self.render_in(
            lang,
            "help.txt",
            &json!({"judge": self.j.config.address, "games": games}),
        );
        self.answer(lang, "info", &InfoAnswer::Help { text });
    }

    /// LIST: every game, one line each.
    pub(crate) fn list(&mut self, from: &str) -> Result<(), StoreError> {
        let lang = self.writer_lang(from);
        let mut games = Vec::new();
        for id in self.store.game_ids()? {
            let rec = match self.games.get(&id) {
                Some(g) => Some(g.rec.clone()),
                None => self.store.game_header(&id)?,
            };
            if let Some(r) = rec {
                games.push(self.list_entry(&r, lang, from));
            }
        }
        for (id, g) in &self.games {
            if !games.iter().any(|l| l.id == *id) {
                games.push(self.list_entry(&g.rec, lang, from));
            }
        }
        self.answer(lang, "info", &InfoAnswer::List { games });
        Ok(())
    }

    /// ORDERS [game or game-id]: the game's order syntax.
    pub(crate) fn orders_help(
        &mut self,
        ctx: &Ctx,
        from: &str,
        arg: Option<String>,
    ) -> Result<(), StoreError> {
        let lang = self.writer_lang(from);
        let name = match arg.or_else(|| ctx.game.clone()) {
            Some(a) => match self.info(&a) {
                Some(i) => Some(i.name.to_string()),
                None => self.game(&a)?.map(|g| g.rec.game.clone()),
            },
            None => None,
        };
        let answer = match name.and_then(|n| self.j.info(&n).copied()) {
            Some(info) => InfoAnswer::OrdersHelp {
                game: info.name.to_string(),
                help: (info.help)(lang),
            },
            None => InfoAnswer::OrdersWhichGame {
                games: self.j.games.iter().map(|g| g.name.to_string()).collect(),
            },
        };
        self.answer(lang, "info", &answer);
        Ok(())
    }
}

/// What turns `a` to `b` told: the public lines (at most 2,000), the dice rolled, and
/// what only `seat` was told. `turns`: the turn of each history entry.
fn told_in(
    s: &dyn castellan_engine::Session,
    turns: &[u32],
    (a, b): (u32, u32),
    seat: Option<usize>,
    lang: Lang,
) -> (Vec<String>, Vec<String>, Vec<String>) {
    let from_i = turns.iter().position(|t| *t >= a).unwrap_or(turns.len());
    let to_i = turns.iter().position(|t| *t > b).unwrap_or(turns.len());
    let all = s.narrate_since(from_i, lang);
    let tail = s.narrate_since(to_i, lang);
    let keep = |v: usize, t: usize| v.saturating_sub(t);
    let public = all.public[..keep(all.public.len(), tail.public.len())]
        .iter()
        .take(2000)
        .cloned()
        .collect();
    let rolls = compact_dice(&all.rolls[..keep(all.rolls.len(), tail.rolls.len())]);
    let mine = match seat {
        Some(seat) => {
            let mine_all = all.private_for(seat);
            let mine_tail = tail.private_for(seat).len();
            mine_all[..keep(mine_all.len(), mine_tail)]
                .iter()
                .map(|l| l.to_string())
                .collect()
        }
        None => Vec::new(),
    };
    (public, rolls, mine)
}
