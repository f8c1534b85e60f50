//! The shared "whole attack on one line" language of the Risk family, and its driver.
//!
//! After the territories, an attack line may say how long to go on and how many armies to
//! move in on conquest:
//!
//! ```text
//! ... UNTIL CONQUERED            (the default: roll until the territory falls or you cannot go on)
//! ... UNTIL 4 LEFT               (stop when the attacking territory is down to 4 armies)
//! ... FOR 3 ROLLS                (at most 3 exchanges of dice)
//! ... WITH 2 DICE                (roll 2 dice, not the most allowed)
//! ... THEN MOVE 5 | MOVE ALL | LEAVE 2    (on conquest; the least allowed is the dice last rolled)
//! ```
//! The words may come in any order; `THEN` is optional.

use serde::{Deserialize, Serialize};

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Until {
    Conquered,
    /// `UNTIL n LEFT`: stop with n armies left in the attacking territory, never fewer
    /// (the attacker rolls no more dice than it can afford to lose).
    Left(u32),
    /// The reading of `UNTIL n LEFT` of old: stop once the attacking territory
    /// holds n armies or fewer, an exchange could take it below n. Kept so that orders
    /// stored before replay as they were played (the dice audit); never parsed any more.
    ArmiesLeft(u32),
    /// At most this many exchanges of dice.
    Rolls(u32),
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum MoveIn {
    /// As few as allowed (the number of dice last rolled).
    Least,
    /// All but one.
    All,
    Exactly(u32),
    /// All but this many.
    Leave(u32),
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct AttackPlan {
    pub until: Until,
    /// Dice to roll each time (capped by what is allowed); `None` = the most allowed.
    pub dice: Option<u32>,
    pub move_in: MoveIn,
}

impl Default for AttackPlan {
    fn default() -> Self {
        AttackPlan {
            until: Until::Conquered,
            dice: None,
            move_in: MoveIn::Least,
        }
    }
}

/// How to write an attack's plan (the hint of every [`PlanError`]), in English.
pub const HOW: &str = "after the territories write UNTIL CONQUERED, UNTIL 3 LEFT, FOR 2 ROLLS, WITH 2 DICE, THEN MOVE 4, MOVE ALL or LEAVE 2";

/// What is wrong with an attack's plan: typed, so that each game words it in its reader's
/// language (`Display` gives the English).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PlanError {
    /// No number after UNTIL, FOR, WITH, MOVE or LEAVE (the keyword, in English).
    NumberMissing { after: &'static str },
    /// UNTIL 3 without LEFT.
    UntilWithoutLeft(u32),
    /// UNTIL followed by neither CONQUERED nor a number.
    UntilWhat,
    /// FOR 0 ROLLS.
    ForNoRolls,
    /// WITH n DICE, n not 1 to 3.
    Dice(u32),
    /// A word the plan does not know (as written, in capitals).
    NotUnderstood(String),
}

impl std::fmt::Display for PlanError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            PlanError::NumberMissing { after } => write!(f, "a number is missing after {after}"),
            PlanError::UntilWithoutLeft(n) => write!(f, "UNTIL {n} must be followed by LEFT"),
            PlanError::UntilWhat => f.write_str("UNTIL needs CONQUERED or a number of armies LEFT"),
            PlanError::ForNoRolls => f.write_str("FOR 0 ROLLS would not attack at all"),
            PlanError::Dice(n) => write!(f, "{n} dice: an attacker rolls 1 to 3 dice"),
            PlanError::NotUnderstood(w) => write!(f, "I do not understand \"{w}\" in an attack"),
        }
    }
}

fn num(w: Option<&&str>, after: &'static str) -> Result<u32, PlanError> {
    w.and_then(|s| s.parse::<u32>().ok())
        .ok_or(PlanError::NumberMissing { after })
}

impl AttackPlan {
    /// Parse the words after the territories (already split on whitespace). An error says
    /// what is wrong ([`HOW`] says how to write it).
    pub fn parse(words: &[&str]) -> Result<AttackPlan, PlanError> {
        let mut p = AttackPlan::default();
        let up: Vec<String> = words.iter().map(|w| w.to_uppercase()).collect();
        let w: Vec<&str> = up.iter().map(|s| s.as_str()).collect();
        let mut i = 0;
        while i < w.len() {
            match w[i] {
                "THEN" | "," | "AND" => i += 1,
                "UNTIL" | "TILL" => match w.get(i + 1) {
                    Some(&"CONQUERED") | Some(&"TAKEN") | Some(&"WON") => {
                        p.until = Until::Conquered;
                        i += 2;
                    }
                    Some(n) if n.parse::<u32>().is_ok() => {
                        let n = num(Some(n), "UNTIL")?;
                        if !matches!(
                            w.get(i + 2),
                            Some(&"LEFT") | Some(&"REMAIN") | Some(&"ARMIES")
                        ) {
                            return Err(PlanError::UntilWithoutLeft(n));
                        }
                        let mut j = i + 3;
                        if w.get(i + 2) == Some(&"ARMIES") && w.get(j) == Some(&"LEFT") {
                            j += 1;
                        }
                        p.until = Until::Left(n.max(1));
                        i = j;
                    }
                    _ => return Err(PlanError::UntilWhat),
                },
                "FOR" => {
                    let n = num(w.get(i + 1), "FOR")?;
                    if n == 0 {
                        return Err(PlanError::ForNoRolls);
                    }
                    p.until = Until::Rolls(n);
                    i += 2;
                    if matches!(w.get(i), Some(&"ROLLS") | Some(&"ROLL") | Some(&"TIMES")) {
                        i += 1;
                    }
                }
                "WITH" => {
                    let n = num(w.get(i + 1), "WITH")?;
                    if !(1..=3).contains(&n) {
                        return Err(PlanError::Dice(n));
                    }
                    p.dice = Some(n);
                    i += 2;
                    if matches!(w.get(i), Some(&"DICE") | Some(&"DIE")) {
                        i += 1;
                    }
                }
                "MOVE" => match w.get(i + 1) {
                    Some(&"ALL") => {
                        p.move_in = MoveIn::All;
                        i += 2;
                    }
                    Some(&"LEAST") | Some(&"MIN") => {
                        p.move_in = MoveIn::Least;
                        i += 2;
                    }
                    _ => {
                        let n = num(w.get(i + 1), "MOVE")?;
                        p.move_in = MoveIn::Exactly(n);
                        i += 2;
                    }
                },
                "LEAVE" => {
                    let n = num(w.get(i + 1), "LEAVE")?;
                    p.move_in = MoveIn::Leave(n.max(1));
                    i += 2;
                }
                other => return Err(PlanError::NotUnderstood(other.to_string())),
            }
        }
        Ok(p)
    }

    /// The plan as it would be written (empty for the default).
    pub fn text(&self) -> String {
        let mut parts = Vec::new();
        match self.until {
            Until::Conquered => {}
            Until::Left(n) | Until::ArmiesLeft(n) => parts.push(format!("UNTIL {n} LEFT")),
            Until::Rolls(n) => parts.push(format!("FOR {n} ROLLS")),
        }
        if let Some(d) = self.dice {
            parts.push(format!("WITH {d} DICE"));
        }
        match self.move_in {
            MoveIn::Least => {}
            MoveIn::All => parts.push("MOVE ALL".into()),
            MoveIn::Exactly(n) => parts.push(format!("MOVE {n}")),
            MoveIn::Leave(n) => parts.push(format!("LEAVE {n}")),
        }
        parts.join(" ")
    }

    /// Should another exchange be rolled? `attacking` = armies in the attacking territory,
    /// `rolls` = exchanges already rolled, `max_dice` = the cap for this attack (3, or 2
    /// against a castle).
    pub fn go_on(&self, attacking: u32, defending: u32, rolls: u32) -> bool {
        if defending == 0 || attacking < 2 {
            return false;
        }
        match self.until {
            Until::Conquered => true,
            Until::Left(n) | Until::ArmiesLeft(n) => attacking > n,
            Until::Rolls(k) => rolls < k,
        }
    }

    /// Dice for the next exchange, given the most allowed now and the `attacking` armies.
    /// Under `UNTIL n LEFT` the attacker rolls no more dice than it can afford to lose
    /// (an exchange costs at most one army per attacking die), so the attack stops at n
    /// armies left, never below (it once went past n).
    pub fn dice_now(&self, allowed: u32, attacking: u32) -> u32 {
        let d = self.dice.map(|d| d.min(allowed)).unwrap_or(allowed);
        match self.until {
            Until::Left(n) => d.min(attacking.saturating_sub(n)).max(1),
            _ => d,
        }
    }

    /// Armies to move in after a conquest: at least `least` (dice last rolled), leaving
    /// at least one behind in the `attacking` territory.
    pub fn armies_to_move(&self, attacking: u32, least: u32) -> u32 {
        let most = attacking.saturating_sub(1);
        let want = match self.move_in {
            MoveIn::Least => least,
            MoveIn::All => most,
            MoveIn::Exactly(n) => n,
            MoveIn::Leave(n) => attacking.saturating_sub(n),
        };
        want.clamp(least.min(most), most)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn p(s: &str) -> AttackPlan {
        AttackPlan::parse(&s.split_whitespace().collect::<Vec<_>>()).unwrap()
    }

    #[test]
    fn one_line_says_a_whole_attack() {
        assert_eq!(p(""), AttackPlan::default());
        assert_eq!(p("until conquered then move 5").move_in, MoveIn::Exactly(5));
        assert_eq!(p("until 4 left").until, Until::Left(4));
        assert_eq!(p("for 2 rolls with 2 dice").until, Until::Rolls(2));
        assert_eq!(p("for 2 rolls with 2 dice").dice, Some(2));
        assert_eq!(p("MOVE ALL").move_in, MoveIn::All);
        assert_eq!(p("leave 3").move_in, MoveIn::Leave(3));
        for s in [
            "until 4 left with 1 dice move 7",
            "for 3 rolls leave 2",
            "move all",
        ] {
            assert_eq!(p(&p(s).text()), p(s), "round trip of {s}");
        }
    }

    #[test]
    fn bad_plans_say_what_is_wrong() {
        let e = AttackPlan::parse(&["until", "dawn"]).unwrap_err();
        assert_eq!(e, PlanError::UntilWhat);
        assert!(e.to_string().contains("UNTIL") && HOW.contains("UNTIL CONQUERED"));
        assert_eq!(
            AttackPlan::parse(&["until", "3"]),
            Err(PlanError::UntilWithoutLeft(3))
        );
        assert_eq!(
            AttackPlan::parse(&["with", "4", "dice"]),
            Err(PlanError::Dice(4))
        );
        assert_eq!(
            AttackPlan::parse(&["for", "0", "rolls"]),
            Err(PlanError::ForNoRolls)
        );
        assert_eq!(
            AttackPlan::parse(&["leave"]),
            Err(PlanError::NumberMissing { after: "LEAVE" })
        );
        assert_eq!(
            AttackPlan::parse(&["banana"]),
            Err(PlanError::NotUnderstood("BANANA".into()))
        );
    }

    #[test]
    fn moving_in_takes_at_least_the_dice_rolled_and_leaves_one() {
        // "move in at least as many armies as dice last rolled, leaving >= 1 behind"
        assert_eq!(p("").armies_to_move(10, 3), 3);
        assert_eq!(p("move 1").armies_to_move(10, 3), 3);
        assert_eq!(p("move all").armies_to_move(10, 3), 9);
        assert_eq!(p("move 50").armies_to_move(10, 3), 9);
        assert_eq!(p("leave 4").armies_to_move(10, 2), 6);
        assert_eq!(p("").armies_to_move(3, 2), 2);
    }

    #[test]
    fn stopping_rules() {
        assert!(!p("").go_on(1, 3, 0));
        assert!(!p("").go_on(5, 0, 0));
        assert!(p("until 4 left").go_on(5, 2, 9));
        assert!(!p("until 4 left").go_on(4, 2, 0));
        assert!(!p("for 2 rolls").go_on(9, 2, 2));
    }

    /// `UNTIL n LEFT`: whatever the dice, the attacking territory never ends below n armies
    /// (the worst case: every exchange costs the attacker as many armies as it rolled dice,
    /// up to the defender's dice).
    #[test]
    fn until_n_left_never_goes_below_n() {
        for n in 1..8u32 {
            let plan = p(&format!("until {n} left"));
            for start in 1..30u32 {
                for defender_dice in 1..=2u32 {
                    let mut attacking = start;
                    let mut rolls = 0;
                    while plan.go_on(attacking, 100, rolls) {
                        let allowed = attacking.saturating_sub(1).min(3);
                        let ad = plan.dice_now(allowed, attacking);
                        attacking -= ad.min(defender_dice);
                        rolls += 1;
                    }
                    assert!(
                        attacking >= n.min(start),
                        "UNTIL {n} LEFT from {start}: ended with {attacking}"
                    );
                }
            }
        }
    }
}
