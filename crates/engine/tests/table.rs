//! The Table contract, on a tiny game made for this test ("race to ten": seats take turns
//! adding 1–3 to a shared count plus a die roll's parity; whoever reaches 10 wins).

use castellan_engine::*;
use serde::{Deserialize, Serialize};

#[derive(Clone, Debug, Serialize, Deserialize)]
struct Race {
    count: u32,
    to_move: Seat,
    seats: usize,
    turn: u32,
    winner: Option<Seat>,
    secret_card: usize,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
enum Step {
    Add(u32),
}

#[derive(Clone, Debug, Serialize, Deserialize)]
enum Ev {
    Added { seat: Seat, n: u32, die: u8 },
    Drew { seat: Seat, card: usize },
}

impl Rules for Race {
    type Options = ();
    type Order = Step;
    type Event = Ev;
    const GAME: &'static str = "race";
    const STATE_VERSION: u32 = 1;
    fn seat_range() -> std::ops::RangeInclusive<usize> {
        2..=3
    }
    fn setup(p: &[String], _: &(), dice: &mut DiceBox) -> Result<(Self, Vec<Ev>), OrderError> {
        let card = dice.secret_below(52);
        Ok((
            Race {
                count: 0,
                to_move: 0,
                seats: p.len(),
                turn: 1,
                winner: None,
                secret_card: card,
            },
            vec![Ev::Drew { seat: 0, card }],
        ))
    }
    fn turn(&self) -> u32 {
        self.turn
    }
    fn pending(&self) -> Vec<Prompt> {
        if self.winner.is_some() {
            return vec![];
        }
        vec![Prompt {
            seat: self.to_move,
            kind: "turn".into(),
            question: "add 1 to 3".into(),
            choices: vec!["ADD 1".into(), "ADD 2".into(), "ADD 3".into()],
            default: "ADD 1".into(),
            standing: None,
        }]
    }
    fn parse(&self, _: Seat, line: &str) -> Result<Step, OrderError> {
        let mut w = line.split_whitespace();
        match (
            w.next().map(|s| s.to_uppercase()),
            w.next().map(str::parse::<u32>),
        ) {
            (Some(k), Some(Ok(n))) if k == "ADD" => Ok(Step::Add(n)),
            _ => Err(OrderError::new("not an order").hint("write: ADD 2")),
        }
    }
    fn apply(&mut self, seat: Seat, o: &Step, dice: &mut DiceBox) -> Result<Vec<Ev>, OrderError> {
        let Step::Add(n) = *o;
        if seat != self.to_move {
            return Err(OrderError::new("not your turn"));
        }
        if !(1..=3).contains(&n) {
            return Err(OrderError::new("add 1, 2 or 3").hint("write: ADD 2"));
        }
        let die = dice.roll(6).value;
        self.count += n + u32::from(die % 2 == 0);
        if self.count >= 10 {
            self.winner = Some(seat);
        }
        self.to_move = (seat + 1) % self.seats;
        self.turn += 1;
        Ok(vec![Ev::Added { seat, n, die }])
    }
    fn default_order(&self, _: &Prompt) -> Step {
        Step::Add(1)
    }
    fn bot_order(&self, _: Seat, rng: &mut BotRng) -> Step {
        Step::Add(1 + rng.below(3) as u32)
    }
    fn order_text(&self, o: &Step) -> String {
        let Step::Add(n) = o;
        format!("ADD {n}")
    }
    fn narrate(&self, e: &Ev, v: Viewer) -> Option<String> {
        match (e, v) {
            (Ev::Added { seat, n, die }, _) => Some(format!("seat {seat} adds {n}, die {die}")),
            (Ev::Drew { seat, card }, Viewer::Seat(s)) if s == *seat => {
                Some(format!("you hold card {card}"))
            }
            (Ev::Drew { seat, .. }, _) => Some(format!("seat {seat} draws a card")),
        }
    }
    fn public_view(&self) -> String {
        format!("count {}", self.count)
    }
    fn private_view(&self, seat: Seat) -> String {
        if seat == 0 {
            format!("card {}", self.secret_card)
        } else {
            String::new()
        }
    }
    fn outcome(&self) -> Option<Outcome> {
        self.winner.map(|w| Outcome {
            winners: vec![w],
            reason: "reached ten".into(),
        })
    }
    fn order_help() -> String {
        "ADD n".into()
    }
}

fn table() -> Table<Race> {
    Table::new(
        "race-1",
        Secret::derive(b"t"),
        vec!["Ann".into(), "Bob".into()],
        (),
    )
    .unwrap()
}

#[test]
fn a_refused_line_applies_nothing_and_names_the_line() {
    let mut t = table();
    let before = serde_json::to_string(&t).unwrap();
    let err = t.submit(0, "# my plan\n\nADD 9").unwrap_err();
    assert_eq!(err.len(), 1);
    assert_eq!(err[0].line_no, 3);
    assert_eq!(err[0].line, "ADD 9");
    assert_eq!(err[0].hint.as_deref(), Some("write: ADD 2"));
    // A good line followed by a bad one: the good one is not applied either.
    let err = t.submit(0, "ADD 2\nADD 3").unwrap_err();
    assert_eq!(
        (err[0].line_no, err[0].message.as_str()),
        (2, "not your turn")
    );
    assert_eq!(serde_json::to_string(&t).unwrap(), before);
}

#[test]
fn check_stops_at_the_first_die_and_changes_nothing() {
    let t = table();
    let before = serde_json::to_string(&t).unwrap();
    let v = t.check(0, "ADD 2\nADD 1");
    assert_eq!(v[0].verdict, LineVerdict::NeedsDice);
    assert_eq!(v[1].verdict, LineVerdict::NeedsDice);
    let v = t.check(0, "ADD 7");
    assert!(matches!(v[0].verdict, LineVerdict::Err { .. }));
    assert_eq!(serde_json::to_string(&t).unwrap(), before);
}

#[test]
fn private_narration_goes_only_to_its_seat() {
    let t = table();
    let n = t.narrate_since(0);
    assert_eq!(n.public, vec!["seat 0 draws a card".to_string()]);
    assert_eq!(n.private.len(), 1);
    assert_eq!(n.private[0].0, 0);
    assert!(n.private_for(1).is_empty());
}

#[test]
fn bots_play_out_and_the_game_replays_from_its_seed() {
    let mut t = table();
    let g = play_out(&mut t, 1000).unwrap();
    assert!(g.outcome.is_some() && !g.capped);
    let again = t.replay().unwrap();
    assert_eq!(
        serde_json::to_value(&again.state).unwrap(),
        serde_json::to_value(&t.state).unwrap()
    );
    // stored and reloaded through the object-safe face
    let s = load_table::<Race>(serde_json::to_value(&t).unwrap()).unwrap();
    assert!(s.verify().is_ok());
    assert_eq!(s.outcome(), t.state.outcome());
}

#[test]
fn a_tampered_history_fails_verification() {
    let mut t = table();
    play_out(&mut t, 1000).unwrap();
    if let Some(Step::Add(n)) = t.history[1].order.as_mut() {
        *n = if *n == 1 { 2 } else { 1 };
    }
    assert!(t.replay().is_err());
}

#[test]
fn the_order_cap_is_reported_not_silent() {
    let mut t = table();
    let g = play_out(&mut t, 2).unwrap();
    assert!(g.capped && g.outcome.is_none());
}

#[test]
fn options_come_from_key_value_pairs() {
    #[derive(Default, Serialize, Deserialize, Debug, PartialEq)]
    #[serde(default)]
    struct Opts {
        blind_placement: bool,
        turn_limit: u32,
        deal: String,
    }
    let o: Opts = options_from_pairs(&[
        ("blind-placement".into(), "yes".into()),
        ("turn_limit".into(), "40".into()),
        ("deal".into(), "random".into()),
    ])
    .unwrap();
    assert_eq!(
        o,
        Opts {
            blind_placement: true,
            turn_limit: 40,
            deal: "random".into()
        }
    );
    let e = options_from_pairs::<Opts>(&[("colour".into(), "x".into())]).unwrap_err();
    assert!(
        e.contains("unknown option") && e.contains("blind-placement"),
        "{e}"
    );
}
