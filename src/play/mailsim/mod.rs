//! `castellan simulate --by-mail`: a population of simulated people plays many games of
//! every game by mail through the pure judge, on a simulated clock, and the promises a
//! player relies on (docs/promises.md) are checked after every handled mail and every
//! tick.
//!
//! Deterministic, in the spirit of FoundationDB's simulation testing: everything (who
//! plays which game, when each answers, how their mail client writes, the judge's
//! entropy) comes from one seed and the game's index, so a failure replays exactly
//! (`castellan simulate --by-mail --seed S --only N`) and names the seed, the game, the
//! event and the promise it broke.
//!
//! Each mail goes the way a real one does: the person's mail client writes a raw RFC 5322
//! message (a reply to the last mail the judge sent them, top-posted, bottom-posted,
//! HTML only, signed off...), the mail layer parses it (`castellan_mail::parse`: quotes
//! and signatures stripped), the judge handles it, and the changes are committed to a
//! [`castellan_judge::MemoryStore`] that keeps games as the sled store does (header, snapshot, history).
//!
//! * `people.rs`: the behaviours (timing, style, game masters' habits) and the raw mail.
//! * `post.rs`, `shell.rs`: where the mail goes: the pure judge, or every `shell_every`th
//!   game through the whole shell (sled, the Maildir, the .eml files parsed back).
//! * `promises.rs`: the promises, one function each, checked after every event.

mod acts;
mod hostile;
mod hostile_acts;
mod people;
pub mod post;
mod promises;
pub mod shell;

pub use hostile::{Kind as HostileKind, HOSTILE_PROMISES};
pub use people::{Act, GmHabit, Style, Timing};
pub use promises::{END_PROMISES, PROMISES};

use crate::play::players::load_session;
use castellan_engine::{Lang, Session};
use castellan_judge::{
    Env, GameRecord, Judge, JudgeConfig, Outbound, Status, StoredGame, Templates,
};
use people::{Person, HOUR};
use promises::{Event, Watch};
use rand::{Rng, RngCore, SeedableRng};
use rand_chacha::ChaCha8Rng;
use serde::Serialize;
use std::collections::BTreeMap;

/// The judge's address in the simulation.
pub const JUDGE: &str = "judge@example.org";
const GM: &str = "gm@players.example";
const OBSERVER: &str = "watcher@players.example";
const T0: i64 = 1_767_225_600; // Thu 1 Jan 2026 00:00 UTC
const NAMES: [&str; 6] = ["Alice", "Bob", "Carol", "Dave", "Erin", "Frank"];

/// The games and how many play each.
const GAMES: [(&str, usize, usize); 4] = [
    ("castle-risk", 3, 4),
    ("risk", 3, 4),
    ("castrum", 2, 4),
    ("castello", 2, 2),
];

#[derive(Clone, Debug)]
pub struct Settings {
    pub seed: u64,
    pub games: usize,
    /// Events (mails handled and ticks) after which a game is stopped and counted capped.
    pub max_events: usize,
    /// Play only this game index (a failure's replay).
    pub only: Option<usize>,
    /// Every this many games (index 0, N, 2N...) through the whole shell
    /// ([`shell::Shell`]) rather than the pure judge; 0: none.
    pub shell_every: usize,
    pub threads: usize,
}

/// One broken promise: enough to replay it and to read what happened.
#[derive(Clone, Debug, Serialize)]
pub struct Violation {
    pub seed: u64,
    pub index: usize,
    pub game: String,
    /// The event's number in its game and what it was ("mail 12 from bob@…: orders, bottom-post").
    pub event: String,
    pub promise: &'static str,
    pub detail: String,
}

impl std::fmt::Display for Violation {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "seed {} game #{} ({}), {}: broke \"{}\": {}",
            self.seed, self.index, self.game, self.event, self.promise, self.detail
        )
    }
}

/// What one simulated game did.
#[derive(Clone, Debug, Default, Serialize)]
pub struct GameRun {
    pub index: usize,
    pub game: String,
    pub finished: bool,
    pub capped: bool,
    pub mails_in: usize,
    pub mails_out: usize,
    pub ticks: usize,
    /// Played through the whole shell ([`shell::Shell`]), not the pure judge.
    pub shell: bool,
    pub behaviours: Vec<String>,
    pub violations: Vec<Violation>,
}

/// What `simulate --by-mail` prints (`--json`).
#[derive(Clone, Debug, Default, Serialize)]
pub struct Report {
    pub seed: u64,
    pub games: usize,
    pub finished: usize,
    pub capped: usize,
    pub mails_in: usize,
    pub mails_out: usize,
    pub ticks: usize,
    /// Games played through the whole shell (`shell_every`).
    pub shell_games: usize,
    pub games_by_kind: BTreeMap<String, usize>,
    /// How many people (and game masters) of each behaviour took part.
    pub behaviours: BTreeMap<String, usize>,
    /// Broken promises by name.
    pub broken: BTreeMap<String, usize>,
    /// The first violations (all of them are counted in `broken`).
    pub violations: Vec<Violation>,
    pub seconds: f64,
}

impl Report {
    pub fn text(&self) -> String {
        let mut s = format!(
            "simulate --by-mail: seed {}, {} games ({} finished, {} stopped at the event cap), {} mails in, {} out, {} ticks, {:.1} s\n",
            self.seed, self.games, self.finished, self.capped, self.mails_in, self.mails_out, self.ticks, self.seconds
        );
        if self.shell_games > 0 {
            s.push_str(&format!(
                "  {} of them through the whole shell (sled, Maildir, .eml files)\n",
                self.shell_games
            ));
        }
        for (k, n) in &self.games_by_kind {
            s.push_str(&format!("  {k}: {n} games\n"));
        }
        s.push_str("behaviours: ");
        s.push_str(
            &self
                .behaviours
                .iter()
                .map(|(k, n)| format!("{k} {n}"))
                .collect::<Vec<_>>()
                .join(", "),
        );
        s.push('\n');
        if self.broken.is_empty() {
            s.push_str(&format!(
                "every promise held after every mail and tick ({} promises checked)\n",
                PROMISES.len() + END_PROMISES.len() + HOSTILE_PROMISES.len()
            ));
        } else {
            s.push_str("BROKEN promises:\n");
            for (p, n) in &self.broken {
                s.push_str(&format!("  {p}: {n} times\n"));
            }
            for v in &self.violations {
                s.push_str(&format!("  {v}\n"));
            }
        }
        s
    }
}

/// Play `settings.games` games (or the one `only` names) on `threads` threads.
pub fn run(settings: &Settings) -> Report {
    let start = std::time::Instant::now();
    let indexes: Vec<usize> = match settings.only {
        Some(i) => vec![i],
        None => (0..settings.games).collect(),
    };
    let threads = settings.threads.max(1);
    let mut runs: Vec<GameRun> = std::thread::scope(|scope| {
        let handles: Vec<_> = (0..threads)
            .map(|t| {
                let mine: Vec<usize> = indexes.iter().copied().skip(t).step_by(threads).collect();
                scope.spawn(move || {
                    mine.into_iter()
                        .map(|i| play_one(settings, i))
                        .collect::<Vec<_>>()
                })
            })
            .collect();
        handles
            .into_iter()
            .flat_map(|h| h.join().unwrap_or_default())
            .collect()
    });
    runs.sort_by_key(|r| r.index);
    let mut r = Report {
        seed: settings.seed,
        games: runs.len(),
        ..Report::default()
    };
    for g in runs {
        r.finished += usize::from(g.finished);
        r.capped += usize::from(g.capped);
        r.mails_in += g.mails_in;
        r.mails_out += g.mails_out;
        r.ticks += g.ticks;
        r.shell_games += usize::from(g.shell);
        *r.games_by_kind.entry(g.game.clone()).or_default() += 1;
        for b in g.behaviours {
            *r.behaviours.entry(b).or_default() += 1;
        }
        for v in g.violations {
            *r.broken.entry(v.promise.to_string()).or_default() += 1;
            if r.violations.len() < 20 {
                r.violations.push(v);
            }
        }
    }
    r.seconds = start.elapsed().as_secs_f64();
    r
}

/// The judge as the simulation runs it: the defaults (opt-in on), cheap password hashes.
pub fn judge() -> Judge {
    let config = JudgeConfig {
        address: JUDGE.into(),
        domain: "example.org".into(),
        password_memory_kib: 8,
        password_iterations: 1,
        ..JudgeConfig::default()
    };
    Judge::new(config, crate::games::all(), Templates::builtin())
}

/// Play game `index` of `seed` to its end (or the event cap) and check every promise.
pub fn play(seed: u64, index: usize, max_events: usize) -> GameRun {
    play_with(seed, index, max_events, Box::new(post::Pure::new(judge())))
}

/// Game `index` of a run: through the whole shell if `shell_every` says so, else the
/// pure judge. A shell that cannot be set up is a broken promise of its own.
fn play_one(settings: &Settings, index: usize) -> GameRun {
    let (seed, max) = (settings.seed, settings.max_events);
    if settings.shell_every == 0 || !index.is_multiple_of(settings.shell_every) {
        return play(seed, index, max);
    }
    match shell::Shell::new() {
        Ok(s) => GameRun {
            shell: true,
            ..play_with(seed, index, max, Box::new(s))
        },
        Err(e) => GameRun {
            index,
            game: GAMES[index % GAMES.len()].0.to_string(),
            shell: true,
            violations: vec![Violation {
                seed,
                index,
                game: GAMES[index % GAMES.len()].0.to_string(),
                event: "setting up the shell".into(),
                promise: "judge_answers",
                detail: e,
            }],
            ..GameRun::default()
        },
    }
}

/// [`play`] with the mail going through `post` (the pure judge, or the whole shell).
pub fn play_with(seed: u64, index: usize, max_events: usize, post: Box<dyn post::Post>) -> GameRun {
    let mut sim = Sim::new(seed, index, post);
    sim.create();
    while sim.events < max_events {
        if !sim.step() {
            break;
        }
    }
    sim.finish(max_events)
}

/// One game's world: the judge, its store, the clock, the people.
struct Sim {
    seed: u64,
    index: usize,
    rng: ChaCha8Rng,
    /// The judge's configuration and wording, for the checks.
    judge: Judge,
    post: Box<dyn post::Post>,
    now: i64,
    kind: &'static str,
    game: String,
    people: Vec<Person>,
    gm: Person,
    gm_habit: GmHabit,
    observer: bool,
    watch: Watch,
    events: usize,
    run: GameRun,
    sent: u64,
    /// Newcomers brought in by REPLACE so far, and the one the game master's mail names.
    replaced: usize,
    pending_replacement: Option<(usize, Person)>,
    /// The mails of the last event (a newcomer reads their welcome there).
    last_out: Vec<Outbound>,
    /// The hostile population (hostile.rs), from its own generator.
    hrng: ChaCha8Rng,
    hostiles: Vec<hostile::Hostile>,
    bystanders: Option<hostile::Bystanders>,
    /// The bystanders' mails still to send: when, from whom, what.
    bystander_plan: Vec<(i64, String, &'static str)>,
    ledger: hostile::Ledger,
    /// Who wrote the mail being handled (None: a tick).
    writing: Option<hostile::Writing>,
}

impl Sim {
    fn new(seed: u64, index: usize, post: Box<dyn post::Post>) -> Sim {
        let mut rng =
            ChaCha8Rng::seed_from_u64(seed ^ (index as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15));
        let (kind, lo, hi) = GAMES[index % GAMES.len()];
        let n = rng.random_range(lo..=hi);
        let mut people: Vec<Person> = NAMES[..n]
            .iter()
            .map(|name| {
                let addr = format!("{}.{index}@players.example", name.to_lowercase());
                Person::new(name, &addr, &mut rng)
            })
            .collect();
        // At least one person plays.
        if people.iter().all(|p| p.timing == Timing::Absent) {
            people[0].timing = Timing::Prompt;
        }
        let mut gm = Person::new("Gina", GM, &mut rng);
        gm.style = Style::Plain;
        gm.timing = Timing::Prompt;
        let gm_habit = match rng.random_range(0..6) {
            0 => GmHabit::Passive,
            1 => GmHabit::Processes,
            2 => GmHabit::Extends,
            3 => GmHabit::Pauses,
            4 => GmHabit::Replaces,
            _ => GmHabit::Kicks,
        };
        let observer = rng.random_bool(0.3);
        let mut hrng = ChaCha8Rng::seed_from_u64(
            seed ^ (index as u64).wrapping_mul(0xD1B5_4A32_D192_ED03) ^ 0x4854_4C45,
        );
        let (hostiles, bystanders) = hostile::cast(index, T0, &mut hrng);
        let bystander_plan = match &bystanders {
            Some(b) => vec![
                (T0 + HOUR, b.helped.clone(), "HELP"),
                (T0 + HOUR + 60, b.stopped.clone(), "HELP"),
                (T0 + 2 * HOUR, b.stopped.clone(), "STOP"),
            ],
            None => Vec::new(),
        };
        let mut run = GameRun {
            index,
            game: kind.to_string(),
            ..GameRun::default()
        };
        for p in &people {
            run.behaviours
                .push(format!("{:?}", p.timing).to_lowercase());
            run.behaviours.push(format!("{:?}", p.style).to_lowercase());
            if p.french {
                run.behaviours.push("french".into());
            }
            if p.typos {
                run.behaviours.push("typos".into());
            }
            if p.chatty {
                run.behaviours.push("press".into());
            }
        }
        run.behaviours
            .push(format!("gm-{:?}", gm_habit).to_lowercase());
        if observer {
            run.behaviours.push("observer".into());
        }
        for h in &hostiles {
            run.behaviours
                .push(format!("hostile-{:?}", h.kind).to_lowercase());
        }
        Sim {
            seed,
            index,
            rng,
            judge: judge(),
            post,
            now: T0,
            kind,
            game: String::new(),
            people,
            gm,
            gm_habit,
            observer,
            watch: Watch::default(),
            events: 0,
            run,
            sent: 0,
            replaced: 0,
            pending_replacement: None,
            last_out: Vec::new(),
            hrng,
            hostiles,
            bystanders,
            bystander_plan,
            ledger: hostile::Ledger::default(),
            writing: None,
        }
    }

    fn env(&mut self) -> Env {
        let mut entropy = [0u8; 32];
        self.rng.fill_bytes(&mut entropy);
        Env {
            now: self.now,
            entropy,
        }
    }

    /// The game's record as stored now.
    pub(super) fn record(&self) -> Option<GameRecord> {
        if self.game.is_empty() {
            return None;
        }
        self.post.store().game_header(&self.game).ok().flatten()
    }

    /// The game as stored now, its table with it.
    pub(super) fn stored(&self) -> Option<StoredGame> {
        if self.game.is_empty() {
            return None;
        }
        self.post.store().game(&self.game).ok().flatten()
    }

    /// The game master creates the game, naming every player.
    fn create(&mut self) {
        let players: Vec<String> = self
            .people
            .iter()
            .map(|p| format!("player={}:{}", p.name, p.address))
            .collect();
        let lang = if self.rng.random_bool(0.2) {
            " language=fr"
        } else {
            ""
        };
        let text = format!(
            "CREATE {} {} deadline=48 reminder=12{lang}",
            self.kind,
            players.join(" ")
        );
        self.gm.written = true;
        self.mail(None, Act::Confirm, &text);
        if self.game.is_empty() {
            self.violation(
                "create",
                "a game master's CREATE naming its players makes the game".into(),
            );
        }
        if self.observer {
            let id = self.game.clone();
            let mut o = Person::new("Olga", OBSERVER, &mut self.rng);
            o.style = Style::Plain;
            let mid = self.message_id();
            let raw = o.compose(&mid, &format!("OBSERVE {id}"));
            self.writing = Some(hostile::Writing {
                address: OBSERVER.to_string(),
                message_id: mid,
                about: Some(id.clone()),
                stop: false,
                hostile: None,
                named: Vec::new(),
            });
            self.deliver_raw(OBSERVER, &raw, promises::Sender::Observer, Act::Confirm);
        }
    }

    fn message_id(&mut self) -> String {
        self.sent += 1;
        format!(
            "<sim{}.{}.{}@players.example>",
            self.seed, self.index, self.sent
        )
    }

    /// One step of the clock: to the next thing anyone (the judge's tick included) does.
    /// False when nothing will ever happen again.
    fn step(&mut self) -> bool {
        let Some(g) = self.stored() else {
            return false;
        };
        let rec = &g.record;
        if rec.status == Status::Finished {
            return false;
        }
        self.plan(&g);
        let due = castellan_judge::stored::next_due(rec);
        let next = self
            .people
            .iter()
            .chain(std::iter::once(&self.gm))
            .filter_map(|p| p.plan.map(|p| p.at))
            .chain(due)
            .chain(self.hostiles.iter().filter(|h| h.left > 0).map(|h| h.next))
            .chain(self.bystander_plan.iter().map(|b| b.0))
            .min();
        let Some(next) = next else {
            return false;
        };
        self.now = self.now.max(next);
        if due.is_some_and(|d| d <= self.now) {
            self.tick();
        }
        for i in 0..self.people.len() {
            if let Some(plan) = self.people[i].plan.filter(|p| p.at <= self.now) {
                self.people[i].plan = None;
                self.act(Some(i), plan.act);
            }
        }
        if let Some(plan) = self.gm.plan.filter(|p| p.at <= self.now) {
            self.gm.plan = None;
            self.act(None, plan.act);
        }
        while let Some(i) = self.bystander_plan.iter().position(|b| b.0 <= self.now) {
            let (_, from, text) = self.bystander_plan.remove(i);
            self.bystander_mail(&from, text);
        }
        for i in 0..self.hostiles.len() {
            if self.hostiles[i].left > 0 && self.hostiles[i].next <= self.now {
                self.hostile_act(i);
            }
        }
        true
    }

    fn tick(&mut self) {
        let before = self.snapshot();
        let env = self.env();
        self.writing = None;
        self.run.ticks += 1;
        self.events += 1;
        match self.post.tick(&env) {
            Ok(out) => self.after(before, out, Event::Tick),
            Err(e) => self.violation("judge_answers", e),
        }
    }

    /// The end: the game replays from its log and verifies.
    fn finish(mut self, max_events: usize) -> GameRun {
        let rec = self.post.store().game_whole(&self.game).ok().flatten();
        match rec {
            Some(rec) => {
                self.run.finished = rec.record.status == Status::Finished;
                self.run.capped = !self.run.finished && self.events >= max_events;
                if let Some(detail) = promises::replays(&rec) {
                    self.violation("replays", detail);
                }
            }
            None => self.violation("create", "no game was stored".into()),
        }
        self.run
    }
}

/// The language a seat reads (its own, else the game's, else the judge's).
pub(crate) fn seat_lang(rec: &GameRecord, seat: usize, judge: &Judge) -> Lang {
    rec.seats
        .get(seat)
        .and_then(|s| s.language)
        .or(rec.language)
        .unwrap_or(judge.config().language)
}

/// A stored game's session (None while it forms).
pub(crate) fn session_of(g: &StoredGame) -> Option<Box<dyn Session>> {
    load_session(g).ok().flatten()
}
