//! [`Session`], the object-safe face of a [`Table`] the judge uses for any game, and
//! [`GameInfo`], what the judge and the command line know of a game without its types.

use super::*;

/// The object-safe face of a [`Table`], used by the judge for any game.
pub trait Session: Send {
    fn game(&self) -> &str;
    fn game_id(&self) -> &str;
    fn players(&self) -> &[String];
    fn turn(&self) -> u32;
    /// Who must answer what now, worded in `lang`.
    fn pending(&self, lang: Lang) -> Vec<Prompt>;
    /// Seats the game waits for, without repeats, in seat order.
    fn awaiting(&self) -> Vec<Seat> {
        let mut s: Vec<Seat> = self.pending(Lang::En).iter().map(|p| p.seat).collect();
        s.sort_unstable();
        s.dedup();
        s
    }
    fn submit(&mut self, seat: Seat, text: &str, lang: Lang) -> Result<Narration, Refused>;
    fn check(&self, seat: Seat, text: &str, lang: Lang) -> Vec<LineCheck>;
    /// Does `line` start like an order of this game (legal or not)? `false` for a line
    /// with no order word at all ([`OrderError::not_an_order`]: a greeting, a signature),
    /// which the judge may leave unread rather than refuse.
    fn is_order_line(&self, seat: Seat, line: &str) -> bool;
    fn play_default(&mut self, seat: Seat) -> Result<Narration, String>;
    fn play_bot(&mut self, seat: Seat) -> Result<Narration, String>;
    /// The order line a bot would send for `seat` now.
    fn bot_text(&self, seat: Seat) -> String;
    /// The lines a bot would send in one mail for `seat` (see [`Table::bot_turn`]).
    fn bot_turn(&self, seat: Seat, max_lines: usize) -> Vec<String>;
    fn public_view(&self, lang: Lang) -> String;
    fn private_view(&self, seat: Seat, lang: Lang) -> String;
    /// The board as an SVG picture (see [`Rules::picture`]).
    fn picture(&self, viewer: Viewer, lang: Lang) -> Option<String>;
    /// See [`Rules::picture_shows_secrets`].
    fn picture_shows_secrets(&self, seat: Seat) -> bool;
    /// The game rolls public dice ([`Rules::ROLLS_DICE`]).
    fn rolls_dice(&self) -> bool;
    /// The game draws from the secret stream ([`Rules::DRAWS_HIDDEN`]).
    fn draws_hidden(&self) -> bool;
    /// A report may show only the map's paragraphs that changed
    /// ([`Rules::MAP_IN_PARAGRAPHS`]).
    fn map_in_paragraphs(&self) -> bool;
    /// The board around one territory (see [`Rules::neighbours`]).
    fn neighbours(&self, name: &str, lang: Lang) -> Option<Result<String, OrderError>>;
    /// Every territory of a seat with its neighbours (see [`Rules::borders`]).
    fn borders(&self, seat: Seat, lang: Lang) -> Option<String>;
    /// The game as it stood at the end of dice turn `turn` (replayed from its seed and
    /// history; the whole game if `turn` is past its end): `castellan render --turn N`.
    fn at_turn(&self, turn: u32) -> Result<Box<dyn Session>, String>;
    fn outcome(&self) -> Option<Outcome>;

    /// Each seat's score, for a game that keeps one (Risk: territories held); campaigns
    /// scored by "each game's own score" use it. `None`: no score.
    fn scores(&self) -> Option<Vec<i64>> {
        None
    }
    /// The seats out of the game, in seat order (see [`Rules::eliminated`]).
    fn eliminated(&self) -> Vec<Seat> {
        Vec::new()
    }
    /// The eliminations told by the history entries in hand from entry `from` on, in the
    /// order they happened: (entry, its dice turn, the seat out, who put it out if the game
    /// says); see [`Rules::eliminates`].
    fn eliminations_since(&self, _from: usize) -> Vec<Elimination> {
        Vec::new()
    }
    /// Each seat's standing for the final placings, highest first (see [`Rules::measure`];
    /// the game's scores when it has no other measure).
    fn measure(&self) -> Option<Vec<Vec<i64>>> {
        self.scores()
            .map(|v| v.into_iter().map(|x| vec![x]).collect())
    }
    fn order_help(&self, lang: Lang) -> String;
    /// The kinds of prompt this game raises.
    fn prompt_kinds(&self) -> Vec<PromptKind>;
    fn dice(&mut self) -> &mut DiceBox;
    fn history_len(&self) -> usize;
    /// The first history entry in hand (0: the whole history; see [`Table::base`]).
    fn history_base(&self) -> usize;
    /// Narration of history entries from `from` on (HISTORY, reports), in `lang`.
    fn narrate_since(&self, from: usize, lang: Lang) -> Narration;
    /// Dice turn of each history entry in hand (from [`Session::history_base`]).
    fn entry_turns(&self) -> Vec<u32>;
    /// Replay from seed and history; Err says where it diverged.
    fn verify(&self) -> Result<(), String>;
    /// The stored form: the snapshot, and the history entries from `from` on (the store
    /// has those before). See [`StoredTable`].
    fn stored(&self, from: usize) -> Result<StoredTable, String>;
    /// The whole table as one JSON value: for exports and tests, never on a mail's way
    /// (the store keeps [`Session::stored`]).
    fn to_json(&self) -> Result<serde_json::Value, String>;
}

impl<R: Rules> Session for Table<R> {
    fn game(&self) -> &str {
        R::GAME
    }
    fn game_id(&self) -> &str {
        &self.dice.game_id
    }
    fn players(&self) -> &[String] {
        &self.players
    }
    fn turn(&self) -> u32 {
        self.state.turn()
    }
    fn pending(&self, lang: Lang) -> Vec<Prompt> {
        self.state
            .pending(lang)
            .into_iter()
            .map(Prompt::erase)
            .collect()
    }
    fn submit(&mut self, seat: Seat, text: &str, lang: Lang) -> Result<Narration, Refused> {
        Table::submit(self, seat, text, lang)
    }
    fn check(&self, seat: Seat, text: &str, lang: Lang) -> Vec<LineCheck> {
        Table::check(self, seat, text, lang)
    }
    fn is_order_line(&self, seat: Seat, line: &str) -> bool {
        !matches!(self.state.parse(seat, line.trim()), Err(e) if e.not_an_order)
    }
    fn play_default(&mut self, seat: Seat) -> Result<Narration, String> {
        Table::play_default(self, seat).map_err(|e| e.message)
    }
    fn play_bot(&mut self, seat: Seat) -> Result<Narration, String> {
        Table::play_bot(self, seat).map_err(|e| e.message)
    }
    fn bot_text(&self, seat: Seat) -> String {
        self.state.order_text(&self.bot_order(seat))
    }
    fn bot_turn(&self, seat: Seat, max_lines: usize) -> Vec<String> {
        Table::bot_turn(self, seat, max_lines)
    }
    fn public_view(&self, lang: Lang) -> String {
        self.state.public_view(lang)
    }
    fn private_view(&self, seat: Seat, lang: Lang) -> String {
        self.state.private_view(seat, lang)
    }
    fn picture(&self, viewer: Viewer, lang: Lang) -> Option<String> {
        let svg = self.state.picture(viewer, lang)?;
        Some(crate::svg::stamp(&svg, viewer))
    }
    fn picture_shows_secrets(&self, seat: Seat) -> bool {
        self.state.picture_shows_secrets(seat)
    }
    fn rolls_dice(&self) -> bool {
        R::ROLLS_DICE
    }
    fn draws_hidden(&self) -> bool {
        R::DRAWS_HIDDEN
    }
    fn map_in_paragraphs(&self) -> bool {
        R::MAP_IN_PARAGRAPHS
    }
    fn neighbours(&self, name: &str, lang: Lang) -> Option<Result<String, OrderError>> {
        self.state.neighbours(name, lang)
    }
    fn borders(&self, seat: Seat, lang: Lang) -> Option<String> {
        self.state.borders(seat, lang)
    }
    fn at_turn(&self, turn: u32) -> Result<Box<dyn Session>, String> {
        Ok(Box::new(self.replay_to(turn)?))
    }
    fn outcome(&self) -> Option<Outcome> {
        self.state.outcome()
    }
    fn scores(&self) -> Option<Vec<i64>> {
        self.state.scores()
    }
    fn eliminated(&self) -> Vec<Seat> {
        self.state.eliminated()
    }
    fn eliminations_since(&self, from: usize) -> Vec<Elimination> {
        let first = from.max(self.base);
        self.history
            .iter()
            .enumerate()
            .skip(first - self.base)
            .flat_map(|(i, e)| {
                e.events.iter().filter_map(move |ev| {
                    R::eliminates(ev).map(|(seat, by)| Elimination {
                        entry: self.base + i,
                        turn: e.turn,
                        seat,
                        by,
                    })
                })
            })
            .collect()
    }
    fn measure(&self) -> Option<Vec<Vec<i64>>> {
        self.state.measure().or_else(|| {
            self.state
                .scores()
                .map(|v| v.into_iter().map(|x| vec![x]).collect())
        })
    }
    fn order_help(&self, lang: Lang) -> String {
        R::order_help(lang)
    }
    fn prompt_kinds(&self) -> Vec<PromptKind> {
        PromptKind::all_of::<R::Ask>()
    }
    fn dice(&mut self) -> &mut DiceBox {
        &mut self.dice
    }
    fn history_len(&self) -> usize {
        Table::history_len(self)
    }
    fn history_base(&self) -> usize {
        self.base
    }
    fn narrate_since(&self, from: usize, lang: Lang) -> Narration {
        Table::narrate_since(self, from, lang)
    }
    fn entry_turns(&self) -> Vec<u32> {
        self.history.iter().map(|e| e.turn).collect()
    }
    fn verify(&self) -> Result<(), String> {
        self.replay().map(|_| ())
    }
    fn stored(&self, from: usize) -> Result<StoredTable, String> {
        Table::stored(self, from)
    }
    fn to_json(&self) -> Result<serde_json::Value, String> {
        serde_json::to_value(self).map_err(|e| e.to_string())
    }
}

/// A seat put out of the game, as the history tells it ([`Session::eliminations_since`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Elimination {
    /// The history entry whose events put the seat out.
    pub entry: usize,
    /// That entry's dice turn.
    pub turn: u32,
    pub seat: Seat,
    /// Who put it out, when the game says.
    pub by: Option<Seat>,
}

/// Load a stored table of game `R` (the judge's registry calls this per game name).
pub fn load_table<R: Rules>(stored: StoredTable) -> Result<Box<dyn Session>, String> {
    Table::<R>::from_stored(&stored).map(|t| Box::new(t) as Box<dyn Session>)
}

/// Load a table of game `R` from the JSON of [`Session::to_json`] (an export).
pub fn load_table_json<R: Rules>(json: serde_json::Value) -> Result<Box<dyn Session>, String> {
    let mut t: Table<R> =
        serde_json::from_value(R::upgrade_json(json)).map_err(|e| e.to_string())?;
    t.check_versions()?;
    Ok(Box::new(t))
}

impl<R: Rules> Table<R> {
    /// Err unless the table's envelope and state are of versions this build reads; an
    /// older state (converted as it was read) is marked with this build's version.
    pub(crate) fn check_versions(&mut self) -> Result<(), String> {
        let readable = R::OLDEST_STATE_VERSION..=R::STATE_VERSION;
        if self.version != TABLE_VERSION || !readable.contains(&self.state_version) {
            return Err(format!(
                "stored {} game has version {}/{}, this build reads {}/{}",
                R::GAME,
                self.version,
                self.state_version,
                TABLE_VERSION,
                R::STATE_VERSION
            ));
        }
        self.state_version = R::STATE_VERSION;
        Ok(())
    }
}

/// Result of one bot-played game.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct PlayedGame {
    pub outcome: Option<Outcome>,
    /// The game's own turn counter at the end.
    pub turns: u32,
    pub orders: usize,
    /// True if the order cap stopped the game (reported, never silent).
    pub capped: bool,
}

/// Let bots play a whole game; `max_orders` caps runaway games (reported as `capped`).
/// Err means a bot order was refused or the game stalled: a bug to report.
pub fn play_out<R: Rules>(table: &mut Table<R>, max_orders: usize) -> Result<PlayedGame, String> {
    let mut orders = 0;
    while table.state.outcome().is_none() {
        if orders >= max_orders {
            return Ok(PlayedGame {
                outcome: None,
                turns: table.state.turn(),
                orders,
                capped: true,
            });
        }
        let pending = table.state.pending(Lang::En);
        let Some(p) = pending.first() else {
            return Err(format!(
                "game stalled at order {orders}: no prompt and no outcome"
            ));
        };
        let seat = p.seat;
        let order = table.bot_order(seat);
        let text = table.state.order_text(&order);
        if let Err(e) = table.apply(seat, order, Source::Bot) {
            return Err(format!(
                "bot order \"{text}\" (seat {seat}, prompt {}) refused: {} ",
                p.kind.name(),
                e.message
            ));
        }
        orders += 1;
    }
    Ok(PlayedGame {
        outcome: table.state.outcome(),
        turns: table.state.turn(),
        orders,
        capped: false,
    })
}

/// `key=value` game options as written on the command line or in a CREATE mail.
pub type OptionPairs = [(String, String)];
/// Creates a game: id, master secret, player names, options.
pub type CreateFn = fn(&str, Secret, Vec<String>, &OptionPairs) -> Result<Box<dyn Session>, String>;
/// Bots play one whole game: (game id, master, seats, options, order cap, replay?) ->
/// (result, replayed identically from its seed; false when not asked).
pub type SimulateFn =
    fn(&str, Secret, usize, &OptionPairs, usize, bool) -> Result<(PlayedGame, bool), String>;

/// What the judge and the command line need to know about one game, without knowing its
/// types: build one with [`game_info`] for each game and hand the list to the judge.
#[derive(Clone, Copy)]
pub struct GameInfo {
    pub name: &'static str,
    pub min_seats: usize,
    pub max_seats: usize,
    /// Create a game: id, master secret, player names, `key=value` options.
    pub create: CreateFn,
    /// Load a stored game (its [`Session::stored`] form).
    pub load: fn(StoredTable) -> Result<Box<dyn Session>, String>,
    /// Load a game from the JSON of [`Session::to_json`] (an export).
    pub load_json: fn(serde_json::Value) -> Result<Box<dyn Session>, String>,
    /// The order language's help text, in a language.
    pub help: fn(Lang) -> String,
    /// Every kind of prompt the game raises (deadlines per kind are checked against it).
    pub prompt_kinds: fn() -> Vec<PromptKind>,
    /// Bots play one whole game: (game id, master, seats, options, order cap) ->
    /// (result, replayed identically from its seed).
    pub simulate: SimulateFn,
    /// The options this game accepts with their defaults, as JSON.
    pub options: fn() -> serde_json::Value,
    /// Does a line read as one of this game's orders written in French
    /// ([`Rules::reads_as_french`])? A mail holding one is answered in French.
    pub reads_as_french: fn(&str) -> bool,
}

fn create_table<R: Rules>(
    id: &str,
    master: Secret,
    players: Vec<String>,
    options: &[(String, String)],
) -> Result<Box<dyn Session>, String> {
    let o: R::Options = options_from_pairs(options)?;
    Table::<R>::new(id, master, players, o)
        .map(|t| Box::new(t) as Box<dyn Session>)
        .map_err(|e| e.message)
}

fn simulate_table<R: Rules>(
    id: &str,
    master: Secret,
    seats: usize,
    options: &[(String, String)],
    cap: usize,
    replay: bool,
) -> Result<(PlayedGame, bool), String> {
    let o: R::Options = options_from_pairs(options)?;
    let players = (1..=seats).map(|i| format!("Bot {i}")).collect();
    let mut t = Table::<R>::new(id, master, players, o).map_err(|e| e.message)?;
    let played = play_out(&mut t, cap)?;
    let replayed = replay && t.replay().is_ok();
    Ok((played, replayed))
}

/// The [`GameInfo`] of game `R`.
pub fn game_info<R: Rules>() -> GameInfo {
    GameInfo {
        name: R::GAME,
        min_seats: *R::seat_range().start(),
        max_seats: *R::seat_range().end(),
        create: create_table::<R>,
        load: load_table::<R>,
        load_json: load_table_json::<R>,
        help: R::order_help,
        prompt_kinds: PromptKind::all_of::<R::Ask>,
        simulate: simulate_table::<R>,
        options: || serde_json::to_value(R::Options::default()).unwrap_or_default(),
        reads_as_french: R::reads_as_french,
    }
}
