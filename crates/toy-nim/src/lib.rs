//! Nim, a toy fifth game that only tests use: two players take turns taking 1 to 3 stones
//! from a pile of 10; whoever takes the last stone wins. It has one order (TAKE n, PRENDS n
//! in French), one kind of prompt (its own [`Ask`]) and a refusal (taking more than 3, or
//! more than the pile holds). It shows that a game is added by its own crate and one line
//! in the registry: no engine or judge code names it.

use castellan_engine::{
    BotRng, DiceBox, Lang, OrderError, Outcome, Prompt, PromptKinds, PromptRole, Rules, Seat,
    Viewer,
};
use serde::{Deserialize, Serialize};

/// The stones on the pile at the start.
pub const PILE: u32 = 10;

/// The game: the pile, whose turn, the winner once the pile is empty.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Nim {
    pile: u32,
    to_move: Seat,
    turn: u32,
    winner: Option<Seat>,
}

/// Take `n` stones.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Take(pub u32);

/// `seat` took `n` stones, `left` remain.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Took {
    seat: Seat,
    n: u32,
    left: u32,
}

/// What Nim asks: a turn, and nothing else.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Ask {
    Take,
}

impl PromptKinds for Ask {
    const ALL: &'static [Ask] = &[Ask::Take];
    fn name(self) -> &'static str {
        "take"
    }
    fn role(self) -> PromptRole {
        PromptRole::Turn
    }
}

impl Nim {
    /// The most `seat` may take now.
    fn most(&self) -> u32 {
        self.pile.min(3)
    }
}

impl Rules for Nim {
    type Options = ();
    type Order = Take;
    type Event = Took;
    type Ask = Ask;
    const GAME: &'static str = "nim";
    const STATE_VERSION: u32 = 1;

    fn seat_range() -> std::ops::RangeInclusive<usize> {
        2..=2
    }

    fn setup(_: &[String], _: &(), _: &mut DiceBox) -> Result<(Nim, Vec<Took>), OrderError> {
        let nim = Nim {
            pile: PILE,
            to_move: 0,
            turn: 1,
            winner: None,
        };
        Ok((nim, vec![]))
    }

    fn turn(&self) -> u32 {
        self.turn
    }

    fn pending(&self, lang: Lang) -> Vec<Prompt<Ask>> {
        if self.winner.is_some() {
            return vec![];
        }
        let word = lang.pick("TAKE", "PRENDS");
        vec![Prompt {
            seat: self.to_move,
            kind: Ask::Take,
            question: match lang {
                Lang::En => format!("Take 1 to {} stones; the last stone wins.", self.most()),
                Lang::Fr => format!(
                    "Prenez de 1 à {} pierres ; la dernière pierre gagne.",
                    self.most()
                ),
            },
            choices: (1..=self.most()).map(|n| format!("{word} {n}")).collect(),
            default: format!("{word} 1"),
            standing: None,
        }]
    }

    fn parse(&self, _: Seat, line: &str) -> Result<Take, OrderError> {
        let mut words = line.split_whitespace();
        let verb = words.next().map(str::to_uppercase);
        if !matches!(verb.as_deref(), Some("TAKE" | "PRENDS")) {
            return Err(OrderError::new("not a Nim order")
                .hint("write: TAKE 2")
                .fr("ce n'est pas un ordre de Nim")
                .hint_fr("écrivez : PRENDS 2")
                .not_an_order());
        }
        match words.next().map(str::parse::<u32>) {
            Some(Ok(n)) => Ok(Take(n)),
            _ => Err(OrderError::new("take how many stones?")
                .hint("write: TAKE 2")
                .fr("prendre combien de pierres ?")
                .hint_fr("écrivez : PRENDS 2")),
        }
    }

    fn apply(&mut self, seat: Seat, o: &Take, _: &mut DiceBox) -> Result<Vec<Took>, OrderError> {
        let Take(n) = *o;
        if seat != self.to_move || self.winner.is_some() {
            return Err(OrderError::new("not your turn").fr("ce n'est pas votre tour"));
        }
        if n == 0 || n > self.most() {
            return Err(OrderError::new(format!("take 1 to {} stones", self.most()))
                .hint("write: TAKE 1")
                .fr(format!("prenez de 1 à {} pierres", self.most()))
                .hint_fr("écrivez : PRENDS 1"));
        }
        self.pile -= n;
        if self.pile == 0 {
            self.winner = Some(seat);
        }
        self.to_move = 1 - seat;
        self.turn += 1;
        Ok(vec![Took {
            seat,
            n,
            left: self.pile,
        }])
    }

    fn default_order(&self, _: &Prompt<Ask>) -> Take {
        Take(1)
    }

    fn bot_order(&self, _: Seat, rng: &mut BotRng) -> Take {
        // The winning move when there is one (leave a multiple of 4), else any.
        match self.pile % 4 {
            0 => Take(1 + rng.below(self.most() as usize) as u32),
            n => Take(n),
        }
    }

    fn order_text(&self, o: &Take) -> String {
        format!("TAKE {}", o.0)
    }

    fn narrate(&self, e: &Took, _: Viewer, lang: Lang) -> Option<String> {
        Some(match lang {
            Lang::En => format!("seat {} takes {}, {} left", e.seat, e.n, e.left),
            Lang::Fr => format!("le siège {} prend {}, il en reste {}", e.seat, e.n, e.left),
        })
    }

    fn public_view(&self, lang: Lang) -> String {
        format!("{} {}", lang.pick("stones:", "pierres :"), self.pile)
    }

    fn private_view(&self, _: Seat, _: Lang) -> String {
        String::new()
    }

    fn outcome(&self) -> Option<Outcome> {
        self.winner
            .map(|w| Outcome::new(vec![w], "took the last stone").fr("a pris la dernière pierre"))
    }

    fn order_help(lang: Lang) -> String {
        lang.pick("TAKE n (1 to 3)", "PRENDS n (1 à 3)").into()
    }
}
