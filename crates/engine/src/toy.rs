//! A toy game for testing the machinery around games (judge, store, mail) without a real
//! rule set: seats take turns adding 1 to 3 to a shared count, plus one when a die shows an
//! even face; whoever brings the count to 10 wins. Seat 0 holds a secret card, so tests can
//! check that private facts stay private. Compiled only with the `toy` feature.

use crate::*;
use serde::{Deserialize, Serialize};

#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Race {
    count: u32,
    to_move: Seat,
    seats: usize,
    turn: u32,
    winner: Option<Seat>,
    secret_card: usize,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum Step {
    Add(u32),
}

/// Race asks one thing: a turn.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Ask {
    Turn,
}

impl PromptKinds for Ask {
    const ALL: &'static [Ask] = &[Ask::Turn];
    fn name(self) -> &'static str {
        "turn"
    }
    fn role(self) -> PromptRole {
        PromptRole::Turn
    }
}

#[derive(Clone, Debug, Serialize, Deserialize)]
pub enum Ev {
    Added { seat: Seat, n: u32, die: u8 },
    Drew { seat: Seat, card: usize },
}

impl Rules for Race {
    type Options = ();
    type Order = Step;
    type Event = Ev;
    type Ask = Ask;
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
    fn pending(&self, lang: Lang) -> Vec<Prompt<Ask>> {
        if self.winner.is_some() {
            return vec![];
        }
        vec![Prompt {
            seat: self.to_move,
            kind: Ask::Turn,
            question: lang.pick("add 1 to 3", "ajoutez 1 à 3").into(),
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
            (Some(k), Some(Ok(n))) if k == "ADD" || k == "AJOUTE" => Ok(Step::Add(n)),
            (Some(k), _) if k == "ADD" || k == "AJOUTE" => Err(OrderError::new("add how many?")
                .hint("write: ADD 2")
                .fr("ajouter combien ?")
                .hint_fr("écrivez : ADD 2")),
            _ => Err(OrderError::new("not an order")
                .hint("write: ADD 2")
                .fr("ce n'est pas un ordre")
                .hint_fr("écrivez : ADD 2")
                .not_an_order()),
        }
    }
    fn apply(&mut self, seat: Seat, o: &Step, dice: &mut DiceBox) -> Result<Vec<Ev>, OrderError> {
        let Step::Add(n) = *o;
        if seat != self.to_move {
            return Err(OrderError::new("not your turn").fr("ce n'est pas votre tour"));
        }
        if !(1..=3).contains(&n) {
            return Err(OrderError::new("add 1, 2 or 3")
                .hint("write: ADD 2")
                .fr("ajoutez 1, 2 ou 3")
                .hint_fr("écrivez : ADD 2"));
        }
        let die = dice.roll(6).value;
        self.count += n + u32::from(die.is_multiple_of(2));
        if self.count >= 10 {
            self.winner = Some(seat);
        }
        self.to_move = (seat + 1) % self.seats;
        self.turn += 1;
        Ok(vec![Ev::Added { seat, n, die }])
    }
    fn default_order(&self, _: &Prompt<Ask>) -> Step {
        Step::Add(1)
    }
    fn bot_order(&self, _: Seat, rng: &mut BotRng) -> Step {
        Step::Add(1 + rng.below(3) as u32)
    }
    fn order_text(&self, o: &Step) -> String {
        let Step::Add(n) = o;
        format!("ADD {n}")
    }
    fn narrate(&self, e: &Ev, v: Viewer, lang: Lang) -> Option<String> {
        match (e, v, lang) {
            (Ev::Added { seat, n, die }, _, Lang::En) => {
                Some(format!("seat {seat} adds {n}, die {die}"))
            }
            (Ev::Added { seat, n, die }, _, Lang::Fr) => {
                Some(format!("le siège {seat} ajoute {n}, dé {die}"))
            }
            (Ev::Drew { seat, card }, Viewer::Seat(s), _) if s == *seat => Some(lang.pick(
                format!("you hold card {card}"),
                format!("vous tenez la carte {card}"),
            )),
            (Ev::Drew { seat, .. }, _, _) => Some(lang.pick(
                format!("seat {seat} draws a card"),
                format!("le siège {seat} tire une carte"),
            )),
        }
    }
    fn public_view(&self, lang: Lang) -> String {
        format!("{} {}", lang.pick("count", "total"), self.count)
    }
    fn private_view(&self, seat: Seat, lang: Lang) -> String {
        if seat == 0 {
            format!("{} {}", lang.pick("card", "carte"), self.secret_card)
        } else {
            String::new()
        }
    }
    fn outcome(&self) -> Option<Outcome> {
        self.winner
            .map(|w| Outcome::new(vec![w], "reached ten").fr("a atteint dix"))
    }
    fn order_help(lang: Lang) -> String {
        lang.pick("ADD n", "ADD n (ou AJOUTE n)").into()
    }
    /// A bar of the count out of ten; seat 0's picture also shows its card (a private
    /// fact, so the judge's privacy tests scan the pictures too).
    fn picture(&self, viewer: Viewer, lang: Lang) -> Option<String> {
        let mut s = crate::svg::Svg::new(220, 60, "#fff", "race");
        s.raw(&format!(
            "<rect x=\"10\" y=\"10\" width=\"{}\" height=\"14\" fill=\"#1f5fa8\"/>",
            20 * self.count.min(10)
        ));
        s.text(
            10.0,
            44.0,
            "start",
            "font-size:12px",
            &self.public_view(lang),
        );
        if viewer == Viewer::Seat(0) {
            s.text(
                120.0,
                44.0,
                "start",
                "font-size:12px",
                &self.private_view(0, lang),
            );
        }
        Some(s.finish())
    }
}
