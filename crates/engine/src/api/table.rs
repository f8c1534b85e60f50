//! [`Table`]: a game with its players, options, dice and history, as the judge stores it;
//! its orders checked and applied, its bots and defaults played, its history replayed.

use super::*;

/// A game with its players, options, dice and full history: what the judge stores.
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(bound = "")]
pub struct Table<R: Rules> {
    pub version: u32,
    pub state_version: u32,
    pub game: String,
    pub players: Vec<String>,
    pub options: R::Options,
    pub state: R,
    pub dice: DiceBox,
    /// The history in hand: entries `base..`, in order (entry `base + i` is `history[i]`).
    /// A game fresh from [`Table::new`] or replayed holds it whole (`base` 0); the judge's
    /// store keeps the entries apart and loads only the tail a mail needs, so
    /// `base` may be more. [`Table::replay`] and [`Table::replay_to`] need it whole.
    pub history: Vec<Entry<R>>,
    /// The number of history entries before `history[0]` (not loaded).
    #[serde(default, skip_serializing_if = "is_zero")]
    pub base: usize,
}

fn is_zero(n: &usize) -> bool {
    *n == 0
}

impl<R: Rules> Table<R> {
    /// A line parsed as `seat`'s order; a seat the table does not have is refused here, so
    /// no game's parser (nor its hints, which read the seat's hand and position) sees it.
    fn parse_as(&self, seat: Seat, line: &str) -> Result<R::Order, OrderError> {
        if seat >= self.players.len() {
            return Err(crate::words::refusal(
                format!("there is no seat {seat} at this table"),
                format!("il n'y a pas de siège {seat} à cette table"),
            ));
        }
        self.state.parse(seat, line)
    }

    /// Create a game. `master` is the game's secret (the judge draws it from the OS).
    pub fn new(
        game_id: &str,
        master: Secret,
        players: Vec<String>,
        options: R::Options,
    ) -> Result<Table<R>, OrderError> {
        if !R::seat_range().contains(&players.len()) {
            return Err(OrderError::new(format!(
                "{} is played by {} to {} players, not {}",
                R::GAME,
                R::seat_range().start(),
                R::seat_range().end(),
                players.len()
            )));
        }
        let mut dice = DiceBox::new(game_id, master);
        let (state, events) = R::setup(&players, &options, &mut dice)?;
        let rolls = dice.take_rolls();
        dice.enter_turn(state.turn());
        Ok(Table {
            version: TABLE_VERSION,
            state_version: R::STATE_VERSION,
            game: R::GAME.to_string(),
            players,
            options,
            state,
            dice,
            history: vec![Entry {
                turn: 1,
                seat: None,
                source: None,
                order: None,
                events,
                rolls,
            }],
            base: 0,
        })
    }

    /// The number of history entries, loaded or not (the index the next one gets).
    pub fn history_len(&self) -> usize {
        self.base + self.history.len()
    }

    /// Apply one typed order; on error nothing changes.
    pub fn apply(
        &mut self,
        seat: Seat,
        order: R::Order,
        source: Source,
    ) -> Result<&Entry<R>, OrderError> {
        if seat >= self.players.len() {
            return Err(OrderError::new(format!("there is no seat {seat}")));
        }
        let mut state = self.state.clone();
        let mut dice = self.dice.clone();
        dice.enter_turn(state.turn());
        let turn = dice.turn();
        let events = state.apply(seat, &order, &mut dice)?;
        let rolls = dice.take_rolls();
        dice.enter_turn(state.turn());
        self.state = state;
        self.dice = dice;
        self.history.push(Entry {
            turn,
            seat: Some(seat),
            source: Some(source),
            order: Some(order),
            events,
            rolls,
        });
        Ok(self.history.last().expect("just pushed"))
    }

    fn narrate_entry(&self, entry: &Entry<R>, lang: Lang) -> Narration {
        let told = self.state.rolls_told(&entry.events, &entry.rolls);
        let mut n = Narration {
            rolls: entry.rolls.clone(),
            untold: if told {
                Vec::new()
            } else {
                entry.rolls.clone()
            },
            ..Default::default()
        };
        // Runs of like events (one attack's battles) are told in one line when the game
        // says how.
        let mut runs: Vec<Vec<&R::Event>> = Vec::new();
        for e in &entry.events {
            match runs.last_mut() {
                Some(run) if self.state.continues_run(run, e) => run.push(e),
                _ => runs.push(vec![e]),
            }
        }
        let tell = |run: &[&R::Event], viewer: Viewer| -> Vec<Option<String>> {
            if run.len() >= 2 {
                if let Some(line) = self.state.narrate_run(run, viewer, lang) {
                    return vec![Some(line)];
                }
            }
            run.iter()
                .map(|e| self.state.narrate(e, viewer, lang))
                .collect()
        };
        for run in &runs {
            let public = tell(run, Viewer::Public);
            let first = n.public.len();
            n.public.extend(public.iter().flatten().cloned());
            let count = n.public.len() - first;
            if count > 0 {
                for seat in 0..self.players.len() {
                    if let Some(line) = self.state.narrate_to(run, seat, lang) {
                        n.addressed.push(crate::api::Addressed {
                            seat,
                            first,
                            count,
                            line,
                        });
                    }
                }
            }
            for seat in 0..self.players.len() {
                let mine = tell(run, Viewer::Seat(seat));
                if mine.len() == public.len() {
                    for (m, p) in mine.into_iter().zip(&public) {
                        if let Some(m) = m {
                            if Some(&m) != p.as_ref() {
                                n.private.push((seat, m));
                            }
                        }
                    }
                } else {
                    for m in mine.into_iter().flatten() {
                        if !public.contains(&Some(m.clone())) {
                            n.private.push((seat, m));
                        }
                    }
                }
            }
        }
        n
    }

    /// Narration of history entries `from..` in `lang` (the judge reports what an order
    /// caused). `from` counts every entry, loaded or not; entries before the loaded ones are not
    /// told (the judge loads from the earliest entry a reader has not been told).
    pub fn narrate_since(&self, from: usize, lang: Lang) -> Narration {
        let mut n = Narration::default();
        for e in self.history.iter().skip(from.saturating_sub(self.base)) {
            n.extend(self.narrate_entry(e, lang));
        }
        n
    }

    /// At the first refused line of a submission (`self` is the working copy, `original`
    /// the table before it): what stands. If a die was rolled or a hidden card drawn since
    /// `start`, the copy as it is ("a die once rolled stands"); otherwise the original, and
    /// no line counts as applied. The copy goes on checking with dice that refuse to roll.
    fn refusal_point(
        &mut self,
        start: usize,
        secret_start: u128,
        original: &Table<R>,
        applied: &mut Vec<usize>,
    ) -> Table<R> {
        let chance = self.history[start - self.base..]
            .iter()
            .any(|e| !e.rolls.is_empty())
            || self.dice.secret_position() != secret_start;
        let keep = if chance {
            self.clone()
        } else {
            applied.clear();
            original.clone()
        };
        self.dice = self.dice.dry_copy();
        keep
    }

    /// Apply the order lines of `text` for `seat`, in order. All or nothing until chance
    /// speaks: if a line is refused and no line before it rolled a die or drew a hidden
    /// card, nothing is applied; if one did, the lines before the refused one stand ("a die
    /// once rolled stands", docs/rules/dice.md), so a refused mail can never show a die that
    /// does not count. Either way the lines after the first refused one are only checked,
    /// on a copy that refuses to roll: every refused line is reported, and a line that
    /// would need chance stops the checking. Errors and narration are worded in `lang`.
    pub fn submit(&mut self, seat: Seat, text: &str, lang: Lang) -> Result<Narration, Refused> {
        let mut scratch = self.clone();
        let start = scratch.history_len();
        let secret_start = scratch.dice.secret_position();
        let mut errors = Vec::new();
        let mut applied: Vec<usize> = Vec::new();
        // After the first refused line: (what stands, the copy checking the rest).
        let mut stood: Option<Table<R>> = None;
        let mut unchecked = Vec::new();
        // Lines after the last order that are not orders at all (a signature, "thanks!"):
        // held back; ignored if nothing but such lines follows, refused if an order does.
        let mut tail: Vec<(usize, String, OrderError)> = Vec::new();
        for (line_no, line) in order_lines(text) {
            if !unchecked.is_empty() {
                unchecked.push((line_no, line));
                continue;
            }
            let parsed = scratch.parse_as(seat, &line);
            match &parsed {
                Err(e) if e.not_an_order && stood.is_none() && !applied.is_empty() => {
                    tail.push((line_no, line, e.clone()));
                    continue;
                }
                Err(e) if e.not_an_order && !tail.is_empty() => {
                    tail.push((line_no, line, e.clone()));
                    continue;
                }
                _ => {}
            }
            // An order after lines that were not orders: those lines are refused after all.
            for (tail_no, tail_line, e) in tail.drain(..) {
                errors.push(LineError {
                    line_no: tail_no,
                    line: tail_line,
                    message: e.message_in(lang).to_string(),
                    hint: e.hint_in(lang).map(str::to_string),
                });
                if stood.is_none() {
                    stood = Some(scratch.refusal_point(start, secret_start, self, &mut applied));
                }
            }
            let res = parsed.and_then(|o| scratch.apply(seat, o, Source::Player).map(|_| ()));
            if stood.is_some() && scratch.dice.dry_roll_wanted() {
                // Checking this line would need chance: stop here, say so.
                unchecked.push((line_no, line));
                continue;
            }
            match res {
                Ok(()) if stood.is_none() => applied.push(line_no),
                Ok(()) => {}
                Err(e) => {
                    errors.push(LineError {
                        line_no,
                        line: line.clone(),
                        message: e.message_in(lang).to_string(),
                        hint: e.hint_in(lang).map(str::to_string),
                    });
                    if stood.is_none() {
                        stood =
                            Some(scratch.refusal_point(start, secret_start, self, &mut applied));
                    }
                }
            }
        }
        let Some(kept) = stood else {
            let mut n = scratch.narrate_since(start, lang);
            n.ignored = tail.into_iter().map(|(no, line, _)| (no, line)).collect();
            *self = scratch;
            return Ok(n);
        };
        let narration = kept.narrate_since(start, lang);
        *self = kept;
        let unchecked = unchecked
            .into_iter()
            .map(|(line_no, line)| LineError {
                line_no,
                line,
                message: lang
                    .pick(
                        "not checked: a line before it needs dice or a hidden draw, which a refused mail never shows",
                        "non vérifiée : une ligne avant elle demande des dés ou un tirage caché, qu'un courrier refusé ne montre jamais",
                    )
                    .to_string(),
                hint: None,
            })
            .collect();
        Err(Refused {
            errors,
            unchecked,
            stood: applied,
            narration: Box::new(narration),
        })
    }

    /// Check order lines without applying them: each line is parsed and tried on a copy,
    /// up to the first line that needs chance (a die or a hidden draw); each line after it
    /// is checked against the state before it for what chance cannot change
    /// (`Rules::check_past_chance`), or said unchecked. A verdict says whether a line is
    /// legal, never what it would do: an outcome or a hidden fact (a Spy's reveal, a hand)
    /// is only learnt by playing the order. Worded in `lang`.
    pub fn check(&self, seat: Seat, text: &str, lang: Lang) -> Vec<LineCheck> {
        let mut scratch = self.clone();
        scratch.dice = self.dice.dry_copy();
        let mut out = Vec::new();
        // The state before the first line that needs chance, once one has.
        let mut before_chance: Option<R> = None;
        let refused = |e: OrderError| LineVerdict::Err {
            message: e.message_in(lang).to_string(),
            hint: e.hint_in(lang).map(str::to_string),
        };
        for (line_no, line) in order_lines(text) {
            let verdict = if let Some(before) = &before_chance {
                match before.check_past_chance(seat, &line) {
                    None => LineVerdict::Unchecked,
                    Some(Ok(())) => LineVerdict::PastChance,
                    Some(Err(e)) => refused(e),
                }
            } else {
                match scratch.parse_as(seat, &line) {
                    Err(e) => refused(e),
                    Ok(order) => {
                        let before = scratch.state.clone();
                        match scratch.apply(seat, order, Source::Player).map(|_| ()) {
                            _ if scratch.dice.dry_roll_wanted() => {
                                before_chance = Some(before);
                                LineVerdict::NeedsDice
                            }
                            Err(e) => refused(e),
                            Ok(_) => LineVerdict::Ok,
                        }
                    }
                }
            };
            out.push(LineCheck {
                line_no,
                line,
                verdict,
            });
        }
        out
    }

    /// Play the documented default for every prompt `seat` has.
    pub fn play_default(&mut self, seat: Seat) -> Result<Narration, OrderError> {
        let start = self.history_len();
        let awaited = |t: &Self| -> Vec<Seat> {
            let mut v: Vec<Seat> = t.state.pending(Lang::En).iter().map(|p| p.seat).collect();
            v.dedup();
            v
        };
        let before = awaited(self);
        // A default may raise a further prompt for the same seat (the rest of its turn);
        // bounded. It stops where a new phase begins for others too (a simultaneous phase
        // after another): there the seat is asked like everyone.
        for _ in 0..64 {
            let Some(p) = self
                .state
                .pending(Lang::En)
                .into_iter()
                .find(|p| p.seat == seat)
            else {
                break;
            };
            let order = self.state.default_order(&p);
            self.apply(seat, order, Source::Default)?;
            if awaited(self)
                .iter()
                .any(|s| *s != seat && !before.contains(s))
            {
                break;
            }
        }
        Ok(self.narrate_since(start, Lang::En))
    }

    fn bot_rng(&self, seat: Seat) -> BotRng {
        BotRng::new(&format!(
            "{}/{}/{}/{}",
            self.dice.game_id,
            self.history_len(),
            seat,
            self.dice.secret_commitment().hex()
        ))
    }

    /// The order a bot would play for `seat` now.
    pub fn bot_order(&self, seat: Seat) -> R::Order {
        self.state.bot_order(seat, &mut self.bot_rng(seat))
    }

    /// The order lines a bot would send in one mail: its orders while `seat` is the only
    /// seat the game waits for (worked out on a copy, whose dice are the real ones, so the
    /// lines stay legal when the judge applies them), at most `max_lines`.
    pub fn bot_turn(&self, seat: Seat, max_lines: usize) -> Vec<String> {
        let mut scratch = self.clone();
        let mut lines = Vec::new();
        while lines.len() < max_lines.max(1) {
            let waiting: Vec<Seat> = scratch
                .state
                .pending(Lang::En)
                .iter()
                .map(|p| p.seat)
                .collect();
            if !waiting.contains(&seat) || (!lines.is_empty() && waiting.iter().any(|s| *s != seat))
            {
                break;
            }
            let order = scratch.bot_order(seat);
            let text = scratch.state.order_text(&order);
            if scratch.apply(seat, order, Source::Bot).is_err() {
                break;
            }
            lines.push(text);
        }
        lines
    }

    /// Let a bot answer one prompt of `seat`.
    pub fn play_bot(&mut self, seat: Seat) -> Result<Narration, OrderError> {
        let start = self.history_len();
        let order = self.bot_order(seat);
        let text = self.state.order_text(&order);
        self.apply(seat, order, Source::Bot).map_err(|e| {
            OrderError::new(format!(
                "bot order \"{text}\" for seat {seat} refused: {}",
                e.message
            ))
        })?;
        Ok(self.narrate_since(start, Lang::En))
    }

    /// The game as set up from its seed, players and options, before any order (its
    /// whole history must be in hand to replay onto it).
    fn setup_from_seed(&self) -> Result<Table<R>, String> {
        self.whole()?;
        Table::<R>::new(
            &self.dice.game_id,
            self.dice_master(),
            self.players.clone(),
            self.options.clone(),
        )
        .map_err(|e| e.message)
    }

    /// Rebuild the game from its seed and history and compare: the `verify` command.
    pub fn replay(&self) -> Result<Table<R>, String> {
        let mut t = self.setup_from_seed()?;
        for (i, e) in self.history.iter().enumerate().skip(1) {
            let (Some(seat), Some(order), Some(src)) = (e.seat, e.order.clone(), e.source) else {
                return Err(format!("history entry {i} has no order"));
            };
            let got = t
                .apply(seat, order, src)
                .map_err(|er| format!("history entry {i}: {}", er.message))?;
            if got.rolls != e.rolls {
                return Err(format!("history entry {i}: dice differ on replay"));
            }
        }
        let mut a = serde_json::to_value(&t.state).map_err(|e| e.to_string())?;
        let mut b = serde_json::to_value(&self.state).map_err(|e| e.to_string())?;
        // Wording is not state: a game saved before a phrase was translated (no `*_fr`
        // field) must still verify against its replay (which has it).
        strip_wording(&mut a);
        strip_wording(&mut b);
        for v in [&mut a, &mut b] {
            if let Some(m) = v.as_object_mut() {
                m.retain(|k, _| !R::PICTURE_ONLY.contains(&k.as_str()));
            }
        }
        if a != b {
            return Err("final state differs on replay".into());
        }
        Ok(t)
    }

    /// The game as it stood at the end of dice turn `turn`: setup and every history entry
    /// of a turn up to `turn`, replayed from the seed.
    pub fn replay_to(&self, turn: u32) -> Result<Table<R>, String> {
        let mut t = self.setup_from_seed()?;
        for (i, e) in self.history.iter().enumerate().skip(1) {
            if e.turn > turn {
                break;
            }
            let (Some(seat), Some(order), Some(src)) = (e.seat, e.order.clone(), e.source) else {
                return Err(format!("history entry {i} has no order"));
            };
            t.apply(seat, order, src)
                .map_err(|er| format!("history entry {i}: {}", er.message))?;
        }
        Ok(t)
    }

    /// Err unless the whole history is in hand (replays start from the setup).
    fn whole(&self) -> Result<(), String> {
        if self.base == 0 {
            Ok(())
        } else {
            Err(format!(
                "only history entries {}.. are loaded; a replay needs them all",
                self.base
            ))
        }
    }

    fn dice_master(&self) -> Secret {
        self.dice.master_secret()
    }
}

/// Remove the translations (`*_fr` fields) from a stored state: what the rules decide
/// never depends on them.
fn strip_wording(v: &mut serde_json::Value) {
    match v {
        serde_json::Value::Object(m) => {
            m.retain(|k, _| !k.ends_with("_fr"));
            m.values_mut().for_each(strip_wording);
        }
        serde_json::Value::Array(a) => a.iter_mut().for_each(strip_wording),
        _ => {}
    }
}
