//! Shared by the map games' set-up: drafting territories from ranked lists, dealing them
//! at random, and reading territory lists and army placements out of order text.
//! (Claiming 44 territories one army at a time is slow by email; these are the by-email
//! forms that keep the rule's fairness.)

use crate::api::OrderError;
use crate::board::{Board, TerritoryId};
use crate::dice::DiceBox;
use crate::names::NameError;
use crate::Seat;

/// Round-robin draft: seats pick in `order`, again and again, each taking the first
/// territory of its ranked list that is still free; a seat whose list is used up takes the
/// free territory with the lowest id (documented fallback). Stops when `available` is empty.
pub fn draft_round_robin(
    order: &[Seat],
    rankings: &[Vec<TerritoryId>],
    available: &[TerritoryId],
) -> Vec<(Seat, TerritoryId)> {
    let mut free: Vec<TerritoryId> = available.to_vec();
    free.sort_unstable();
    let mut picks = Vec::with_capacity(free.len());
    let mut cursor = vec![0usize; rankings.len()];
    'outer: loop {
        for &seat in order {
            if free.is_empty() {
                break 'outer;
            }
            let mut choice = None;
            if let (Some(list), Some(c)) = (rankings.get(seat), cursor.get_mut(seat)) {
                while *c < list.len() {
                    let t = list[*c];
                    *c += 1;
                    if let Some(pos) = free.iter().position(|&f| f == t) {
                        choice = Some(free.remove(pos));
                        break;
                    }
                }
            }
            let t = choice.unwrap_or_else(|| free.remove(0));
            picks.push((seat, t));
        }
        if order.is_empty() {
            break;
        }
    }
    picks
}

/// Deal `available` territories round-robin in `order` after a public shuffle (the deal
/// is public knowledge, so it uses the turn's public dice and is auditable).
pub fn deal_at_random(
    order: &[Seat],
    available: &[TerritoryId],
    dice: &mut DiceBox,
) -> Vec<(Seat, TerritoryId)> {
    let mut pool: Vec<TerritoryId> = available.to_vec();
    pool.sort_unstable();
    let mut out = Vec::with_capacity(pool.len());
    let mut i = 0;
    while !pool.is_empty() && !order.is_empty() {
        let k = if pool.len() == 1 {
            0
        } else {
            public_index(dice, pool.len())
        };
        out.push((order[i % order.len()], pool.remove(k)));
        i += 1;
    }
    out
}

/// A public uniform index below `n` (n may exceed 255: drawn as two dice digits).
pub fn public_index(dice: &mut DiceBox, n: usize) -> usize {
    if n <= 255 {
        return dice.public_below(n);
    }
    loop {
        let hi = dice.public_below(256usize.min(n.div_ceil(256)));
        let lo = dice.public_below(255);
        let v = hi * 255 + lo;
        if v < n {
            return v;
        }
    }
}

/// The territories of a list as written: names separated by commas or semicolons (or one
/// a word when there is none), each read by `resolve`, none twice. Each game words the
/// errors: `twice` for a territory named again, `empty` when none is given. Every name that
/// does not read is told at once (`words::all_of`), not the first alone.
pub fn territory_list(
    text: &str,
    mut resolve: impl FnMut(&str) -> Result<TerritoryId, OrderError>,
    twice: impl Fn(TerritoryId) -> OrderError,
    empty: impl FnOnce() -> OrderError,
) -> Result<Vec<TerritoryId>, OrderError> {
    let mut out = Vec::new();
    let mut errors = Vec::new();
    for p in list_parts(text) {
        match resolve(p) {
            Ok(t) if out.contains(&t) => errors.push(twice(t)),
            Ok(t) => out.push(t),
            Err(e) => errors.push(e),
        }
    }
    crate::words::all_of(errors)?;
    if out.is_empty() {
        return Err(empty());
    }
    Ok(out)
}

/// The names of a list as written: split on commas or semicolons, else one a word.
fn list_parts(text: &str) -> Vec<&str> {
    let parts: Vec<&str> = if text.contains(',') || text.contains(';') {
        text.split([',', ';']).collect()
    } else {
        text.split_whitespace().collect()
    };
    parts
        .into_iter()
        .map(str::trim)
        .filter(|p| !p.is_empty())
        .collect()
}

/// A list as it was likely meant, for a hint ("write: RANK Livonia, Poland, Moscow"): each
/// name that does not read replaced by the first name its error suggests (read again by
/// `resolve`), each territory once. `None` when every name read, or one suggests nothing.
pub fn list_as_meant(
    text: &str,
    resolve: impl Fn(&str) -> Result<TerritoryId, NameError>,
) -> Option<Vec<TerritoryId>> {
    let mut out = Vec::new();
    let mut mended = false;
    for p in list_parts(text) {
        let t = match resolve(p) {
            Ok(t) => t,
            Err(NameError::Unknown { suggestions, .. }) => {
                mended = true;
                resolve(suggestions.first()?).ok()?
            }
            Err(NameError::Ambiguous { candidates, .. }) => {
                mended = true;
                resolve(candidates.first()?).ok()?
            }
        };
        if !out.contains(&t) {
            out.push(t);
        }
    }
    mended.then_some(out)
}

/// Territory names separated by commas (or one per word when no comma is given).
pub fn parse_territory_list(board: &Board, text: &str) -> Result<Vec<TerritoryId>, OrderError> {
    territory_list(
        text,
        |p| {
            board.resolve(p).map_err(|e| {
                OrderError::new(e.to_string())
                    .hint("separate territories with commas: Livonia, Poland, Moscow")
            })
        },
        |t| OrderError::new(format!("{} is listed twice", board.name(t))),
        || OrderError::new("no territory given").hint("name territories separated by commas"),
    )
}

/// Placements like "5 Livonia, 3 Poland" (or "Livonia 5"): armies per territory.
pub fn parse_placements(board: &Board, text: &str) -> Result<Vec<(TerritoryId, u32)>, OrderError> {
    let hint = (
        "write the armies then the territory, separated by commas: 5 Livonia, 3 Poland",
        "écrivez les armées puis le territoire, séparés par des virgules : 5 Livonia, 3 Poland",
    );
    parse_placements_with(text, hint, |name| {
        board
            .resolve(name)
            .map_err(|e| OrderError::new(e.to_string()).hint(hint.0))
    })
}

/// Placements ("5 Livonia, 3 Poland", or "Livonia 5"), each name read by `resolve` (a game
/// passes its own, which knows its names in every language); errors in English and French,
/// with `hint` (English, French) saying how to write it. Every name that does not read is
/// told at once.
pub fn parse_placements_with<T: Copy + PartialEq>(
    text: &str,
    hint: (&str, &str),
    resolve: impl Fn(&str) -> Result<T, OrderError>,
) -> Result<Vec<(T, u32)>, OrderError> {
    let refuse = |en: String, fr: String| OrderError::new(en).fr(fr).hint(hint.0).hint_fr(hint.1);
    let mut out: Vec<(T, u32)> = Vec::new();
    let mut bad_names = Vec::new();
    for part in text
        .split([',', ';'])
        .map(|p| p.trim())
        .filter(|p| !p.is_empty())
    {
        let words: Vec<&str> = part.split_whitespace().collect();
        let (n, name) = match (
            words.first().map(|w| w.parse::<u32>()),
            words.last().map(|w| w.parse::<u32>()),
        ) {
            (Some(Ok(n)), _) => (n, words[1..].join(" ")),
            (_, Some(Ok(n))) => (n, words[..words.len() - 1].join(" ")),
            _ => {
                return Err(refuse(
                    format!("\"{part}\" has no number of armies"),
                    format!("« {part} » n'a pas de nombre d'armées"),
                ))
            }
        };
        if n == 0 {
            return Err(refuse(
                format!("\"{part}\": place at least one army"),
                format!("« {part} » : placez au moins une armée"),
            ));
        }
        let t = match resolve(&name) {
            Ok(t) => t,
            Err(e) => {
                bad_names.push(e);
                continue;
            }
        };
        match out.iter_mut().find(|(x, _)| *x == t) {
            Some(e) => e.1 += n,
            None => out.push((t, n)),
        }
    }
    crate::words::all_of(bad_names)?;
    if out.is_empty() {
        return Err(refuse(
            "no placement given".into(),
            "aucun placement donné".into(),
        ));
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::{BoardBuilder, Edge};
    use crate::dice::Secret;

    fn board() -> Board {
        let mut b = BoardBuilder::default();
        let g = b.group("g", "G", 0);
        for (k, n) in [
            ("a", "Alpha"),
            ("b", "Beta"),
            ("c", "Gamma"),
            ("d", "Delta"),
            ("e", "Epsilon"),
        ] {
            b.territory(k, n, g).unwrap();
        }
        for (x, y) in [("a", "b"), ("b", "c"), ("c", "d"), ("d", "e")] {
            b.edge(x, y, Edge::Land);
        }
        b.build().unwrap()
    }

    #[test]
    fn draft_gives_each_seat_its_best_free_choice_in_turn() {
        // seat 1 picks first; both want 0 first.
        let picks = draft_round_robin(&[1, 0], &[vec![0, 1, 2], vec![0, 3]], &[0, 1, 2, 3, 4]);
        assert_eq!(picks, vec![(1, 0), (0, 1), (1, 3), (0, 2), (1, 4)]);
    }

    #[test]
    fn deal_covers_every_territory_once() {
        let mut d = DiceBox::new("g", Secret::derive(b"deal"));
        let picks = deal_at_random(&[0, 1, 2], &[0, 1, 2, 3, 4], &mut d);
        let mut ts: Vec<_> = picks.iter().map(|p| p.1).collect();
        ts.sort();
        assert_eq!(ts, vec![0, 1, 2, 3, 4]);
        assert_eq!(picks.iter().filter(|p| p.0 == 0).count(), 2);
        assert!(
            !d.take_rolls().is_empty(),
            "the deal is drawn with public dice"
        );
    }

    #[test]
    fn placements_and_lists_parse_forgivingly() {
        let b = board();
        assert_eq!(
            parse_placements(&b, "5 alpha, gamma 3, 1 Alpha").unwrap(),
            vec![(0, 6), (2, 3)]
        );
        assert!(parse_placements(&b, "five alpha").is_err());
        assert!(parse_placements(&b, "0 alpha").is_err());
        assert_eq!(
            parse_territory_list(&b, "delta, ALPHA").unwrap(),
            vec![3, 0]
        );
        assert!(parse_territory_list(&b, "alpha, alpha").is_err());
        let e = parse_territory_list(&b, "Gumna").unwrap_err();
        assert!(e.message.contains("Gamma"), "{}", e.message);
    }

    /// A list is split on commas or semicolons, else one name a word; a territory named
    /// twice and an empty list are the game's own errors.
    #[test]
    fn a_territory_list_splits_and_refuses_repeats_and_nothing() {
        let b = board();
        let read = |text: &str| {
            territory_list(
                text,
                |p| {
                    b.resolve(p)
                        .map_err(|_| OrderError::new(format!("unknown {p}")))
                },
                |t| OrderError::new(format!("twice {t}")),
                || OrderError::new("none"),
            )
            .map_err(|e| e.message)
        };
        let (alpha, gamma) = (b.resolve("alpha").unwrap(), b.resolve("gamma").unwrap());
        assert_eq!(read("alpha; gamma"), Ok(vec![alpha, gamma]));
        assert_eq!(read("alpha gamma"), Ok(vec![alpha, gamma]));
        assert_eq!(read("alpha, , gamma"), Ok(vec![alpha, gamma]));
        assert_eq!(read("alpha, alpha"), Err(format!("twice {alpha}")));
        assert_eq!(read(" , ;"), Err("none".to_string()));
        assert_eq!(read("alpha, nowhere"), Err("unknown nowhere".to_string()));
        // Every name that does not read, in one answer.
        assert_eq!(
            read("nowhere, alpha, elsewhere"),
            Err("unknown nowhere; unknown elsewhere".to_string())
        );
    }

    /// A list with names that do not read, as it was likely meant; none when all read or
    /// one suggests nothing.
    #[test]
    fn a_list_as_it_was_likely_meant() {
        let b = board();
        let meant = |text: &str| list_as_meant(text, |n| b.resolve(n));
        let id = |n: &str| b.resolve(n).unwrap();
        assert_eq!(
            meant("Alpah, gamma, Dleat, Alpha"),
            Some(vec![id("Alpha"), id("Gamma"), id("Delta")])
        );
        assert_eq!(meant("alpha, gamma"), None);
        assert_eq!(meant("alpha, zzzzzzzzzz"), None);
    }

    #[test]
    fn every_bad_name_of_a_placement_is_told_at_once() {
        let b = board();
        let e = parse_placements(&b, "5 alpa, 2 gamma, 3 dxltx").unwrap_err();
        assert!(
            e.message.contains("\"alpa\"") && e.message.contains("\"dxltx\""),
            "{}",
            e.message
        );
    }

    #[test]
    fn large_public_index_stays_in_range() {
        let mut d = DiceBox::new("g", Secret::derive(b"x"));
        for _ in 0..200 {
            assert!(public_index(&mut d, 1000) < 1000);
        }
    }
}
