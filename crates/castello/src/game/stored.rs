//! Games stored before the state and history were typed: the words they hold are read
//! once, on load, into the types the rules use now.
//!
//! Before: `Event::Ended { winners, reason }` and the state's `result` (the engine's
//! `Outcome`: winners, reason) held why the game ended as English text ("Red took 4
//! castles"); the state's `last` held the last move as words ("Red E4-E5"). The text is
//! the one the rules wrote ([`End::text`] words it the same way now), so it reads back.

use super::{LastMove, Side};
use crate::geom::Sq;
use crate::words::{End, SIDES};
use castellan_engine::Lang;
use serde::de::Error as _;
use serde::{Deserialize, Deserializer};

#[derive(Deserialize)]
#[serde(untagged)]
enum Stored<T> {
    Typed(T),
    /// The English words of an older build.
    Words(String),
}

/// The engine's outcome as older builds stored it (the reason in English).
#[derive(Deserialize)]
struct OldOutcome {
    reason: String,
}

#[derive(Deserialize)]
#[serde(untagged)]
enum StoredResult {
    Typed(End),
    Outcome(OldOutcome),
}

/// Why a game ended: typed, or the English reason of an older build.
pub(crate) fn end<'de, D: Deserializer<'de>>(d: D) -> Result<End, D::Error> {
    match Stored::<End>::deserialize(d)? {
        Stored::Typed(e) => Ok(e),
        Stored::Words(w) => read_end(&w).ok_or_else(|| D::Error::custom(unknown_end(&w))),
    }
}

/// The state's result: typed, or the outcome of an older build.
pub(crate) fn result<'de, D: Deserializer<'de>>(d: D) -> Result<Option<End>, D::Error> {
    match Option::<StoredResult>::deserialize(d)? {
        None => Ok(None),
        Some(StoredResult::Typed(e)) => Ok(Some(e)),
        Some(StoredResult::Outcome(o)) => read_end(&o.reason)
            .map(Some)
            .ok_or_else(|| D::Error::custom(unknown_end(&o.reason))),
    }
}

/// The last move: typed, or the words of an older build ("Red E4-E5").
pub(crate) fn last<'de, D: Deserializer<'de>>(d: D) -> Result<Option<LastMove>, D::Error> {
    match Option::<Stored<LastMove>>::deserialize(d)? {
        None => Ok(None),
        Some(Stored::Typed(m)) => Ok(Some(m)),
        Some(Stored::Words(w)) => read_last(&w)
            .map(Some)
            .ok_or_else(|| D::Error::custom(format!("unknown last move: {w}"))),
    }
}

fn unknown_end(w: &str) -> String {
    format!("unknown end of game: {w}")
}

/// An English reason read back (`End::text(Lang::En)`).
fn read_end(en: &str) -> Option<End> {
    for s in Side::BOTH {
        for e in [
            End::Resigned(s),
            End::Castles(s),
            End::Pawns(s),
            End::Stuck(s),
        ] {
            if e.text(Lang::En) == en {
                return Some(e);
            }
        }
    }
    if en == End::Agreed.text(Lang::En) {
        return Some(End::Agreed);
    }
    let number = |pre: &str, post: &str| {
        en.strip_prefix(pre)?
            .strip_suffix(post)?
            .parse::<u32>()
            .ok()
    };
    number("draw: the same position came ", " times")
        .map(End::Repetition)
        .or_else(|| number("draw: ", " moves without a capture").map(End::MoveLimit))
}

/// "Red E4-E5": the side's English name, then the squares.
fn read_last(words: &str) -> Option<LastMove> {
    let (name, path) = words.split_once(' ')?;
    let side = Side::BOTH
        .into_iter()
        .find(|s| SIDES[s.index()].en == name)?;
    let path = path
        .split('-')
        .map(Sq::parse)
        .collect::<Option<Vec<Sq>>>()?;
    Some(LastMove { side, path })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::geom::sq;

    #[test]
    fn every_end_reads_back_from_its_english() {
        let all = [
            End::Resigned(Side::Red),
            End::Resigned(Side::Black),
            End::Agreed,
            End::Castles(Side::Black),
            End::Pawns(Side::Red),
            End::Repetition(3),
            End::MoveLimit(100),
            End::Stuck(Side::Black),
        ];
        for e in all {
            assert_eq!(read_end(&e.text(Lang::En)), Some(e));
        }
        assert_eq!(read_end("the board caught fire"), None);
    }

    #[test]
    fn the_last_move_reads_back_from_its_words() {
        assert_eq!(
            read_last("Black E4-E2-C2"),
            Some(LastMove {
                side: Side::Black,
                path: vec![sq("E4"), sq("E2"), sq("C2")]
            })
        );
        assert_eq!(read_last("Green E4-E5"), None);
    }
}
