//! Games stored before the history was typed: what they hold as words is read once, on
//! load, into the types the rules use now.
//!
//! Before: `Event::StandingSet { seat, text }` held the SET order's English line
//! ("SET DEFEND ALWAYS", "SET WORKS Rustici, Lapides"); `Event::Won { winners, reason,
//! reason_fr }` and the state's `outcome` (the engine's `Outcome`: winners, reason,
//! reason_fr) held why the game ended as English and French text. The English text is
//! the one the rules wrote (`narrate::end_reason` words it the same way now), so it reads
//! back into the [`End`] it was made from.

use crate::orders::parse_set;
use crate::{End, Standing};
use serde::{Deserialize, Deserializer};

#[derive(Deserialize)]
#[serde(untagged)]
enum Stored<T> {
    Typed(T),
    /// The English words of an older build.
    Words(String),
}

fn typed_or_read<'de, D: Deserializer<'de>, T: Deserialize<'de>>(
    d: D,
    read: fn(&str) -> Option<T>,
    what: &str,
) -> Result<T, D::Error> {
    match Stored::<T>::deserialize(d)? {
        Stored::Typed(t) => Ok(t),
        Stored::Words(w) => {
            read(&w).ok_or_else(|| serde::de::Error::custom(format!("unknown {what}: {w}")))
        }
    }
}

/// A standing answer: typed, or the English SET line of an older build.
pub(crate) fn standing<'de, D: Deserializer<'de>>(d: D) -> Result<Standing, D::Error> {
    typed_or_read(d, read_standing, "standing order")
}

/// Why a game ended: typed, or the English reason of an older build.
pub(crate) fn end<'de, D: Deserializer<'de>>(d: D) -> Result<End, D::Error> {
    typed_or_read(d, read_end, "end of game")
}

/// "SET DEFEND ALWAYS", "SET WORKS Rustici, Lapides", "SET WORKS ASK".
fn read_standing(line: &str) -> Option<Standing> {
    let words: Vec<&str> = line.split_whitespace().collect();
    match words.split_first() {
        Some((set, rest)) if set.eq_ignore_ascii_case("SET") => match parse_set(rest).ok()? {
            crate::Order::SetDefend(p) => Some(Standing::Defend(p)),
            crate::Order::SetWorks(v) => Some(Standing::Works(v)),
            _ => None,
        },
        _ => None,
    }
}

/// "Alice completed a castle of 4 walls and a tower"; "the 20 rounds are over: Alice and
/// Bob with 7 points"; "nobody finished a castle in 80 rounds: Alice with 1 point".
fn read_end(reason: &str) -> Option<End> {
    if reason.ends_with(" completed a castle of 4 walls and a tower") {
        return Some(End::Castle);
    }
    let points = || -> Option<u32> {
        let (_, tail) = reason.rsplit_once(" with ")?;
        tail.strip_suffix(" points")
            .or_else(|| tail.strip_suffix(" point"))?
            .parse()
            .ok()
    };
    if let Some(rest) = reason.strip_prefix("the ") {
        let (rounds, _) = rest.split_once(" rounds are over: ")?;
        return Some(End::RoundsOver {
            rounds: rounds.parse().ok()?,
            points: points()?,
        });
    }
    let rest = reason.strip_prefix("nobody finished a castle in ")?;
    let (rounds, _) = rest.split_once(" rounds: ")?;
    Some(End::RoundLimit {
        rounds: rounds.parse().ok()?,
        points: points()?,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Card, DefendPolicy};

    #[test]
    fn the_words_of_older_builds_read_back() {
        assert_eq!(
            read_end("Alice completed a castle of 4 walls and a tower"),
            Some(End::Castle)
        );
        assert_eq!(
            read_end("the 1 rounds are over: Alice and Bob with 0 points"),
            Some(End::RoundsOver {
                rounds: 1,
                points: 0
            })
        );
        assert_eq!(
            read_end("nobody finished a castle in 80 rounds: Al with Bo with 1 point"),
            Some(End::RoundLimit {
                rounds: 80,
                points: 1
            })
        );
        assert_eq!(read_end("the game was abandoned"), None);
        assert_eq!(
            read_standing("SET DEFEND NEVER"),
            Some(Standing::Defend(DefendPolicy::Never))
        );
        assert_eq!(
            read_standing("SET WORKS Rustici, Lapides x2"),
            Some(Standing::Works(vec![Card::Rustici, Card::LapidesX2]))
        );
        assert_eq!(
            read_standing("SET WORKS ASK"),
            Some(Standing::Works(vec![]))
        );
        assert_eq!(read_standing("END"), None);
    }
}
