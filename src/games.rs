//! The games this judge runs: one [`GameInfo`] per game crate.

use castellan_engine::{game_info, GameInfo};

/// Every game, in the order HELP and LIST show them.
pub fn all() -> Vec<GameInfo> {
    vec![
        // Their own loaders: a game stored under an older state version converts on load.
        castellan_castle_risk::game_info(),
        game_info::<castellan_risk::Risk>(),
        game_info::<castellan_castrum::Castrum>(),
        game_info::<castellan_castello::Castello>(),
    ]
}

/// The game called `name` (accepts "castle-risk", "castle_risk", "Castle Risk").
pub fn find(name: &str) -> Option<GameInfo> {
    let want = castellan_engine::names::normalize(name);
    all()
        .into_iter()
        .find(|g| castellan_engine::names::normalize(g.name) == want)
}

/// The game called `name`, or the usage error that lists the games.
pub fn named(name: &str) -> Result<GameInfo, crate::error::ShellError> {
    find(name).ok_or_else(|| {
        let names: Vec<&str> = all().iter().map(|g| g.name).collect();
        crate::error::ShellError::Usage(format!(
            "unknown game \"{name}\"; the games are: {}",
            names.join(", ")
        ))
    })
}

/// The registry and one more game, for a test of a game this build does not ship (a toy
/// crate of the tests): what [`all`] gives, then `extra`, to hand to the judge. Refused
/// when `extra`'s name is one of the registry's.
pub fn with(extra: GameInfo) -> Result<Vec<GameInfo>, String> {
    if find(extra.name).is_some() {
        return Err(format!("a game is already called \"{}\"", extra.name));
    }
    let mut games = all();
    games.push(extra);
    Ok(games)
}

/// Every game of the registry, in its order, with the cases a test lists for it by name
/// (its seats, options, seeds), or `fallback` of it alone when the test lists none: a test
/// of "every game" iterates the registry, so a game added to it is tested with no edit to
/// the test. A name the registry does not know is an error.
pub fn cases<C: Clone>(
    listed: &[(&str, C)],
    fallback: impl Fn(&GameInfo) -> C,
) -> Result<Vec<(GameInfo, C)>, String> {
    if let Some((unknown, _)) = listed.iter().find(|(n, _)| find(n).is_none()) {
        return Err(format!("no game is called \"{unknown}\""));
    }
    Ok(all()
        .into_iter()
        .flat_map(|g| {
            let mine: Vec<C> = listed
                .iter()
                .filter(|(n, _)| *n == g.name)
                .map(|(_, c)| c.clone())
                .collect();
            let mine = if mine.is_empty() {
                vec![fallback(&g)]
            } else {
                mine
            };
            mine.into_iter().map(move |c| (g, c))
        })
        .collect())
}

#[cfg(test)]
mod tests {
    /// A game the test does not list is tested with the fallback; each listed one with
    /// its own cases, in the registry's order.
    #[test]
    fn every_game_has_its_cases_or_the_fallback() {
        let listed = [("castello", 2), ("castle-risk", 3), ("castle-risk", 4)];
        let got: Vec<(&str, usize)> = super::cases(&listed, |g| g.min_seats)
            .unwrap()
            .into_iter()
            .map(|(g, c)| (g.name, c))
            .collect();
        assert_eq!(
            got,
            vec![
                ("castle-risk", 3),
                ("castle-risk", 4),
                ("risk", 2),
                ("castrum", 2),
                ("castello", 2)
            ]
        );
        assert!(super::cases(&[("chess", 2)], |g| g.min_seats).is_err());
    }

    /// A game of the tests' own joins the registry, under a name of its own only.
    #[test]
    fn an_extra_game_joins_the_registry_under_a_new_name() {
        let castello = super::find("castello").unwrap();
        assert!(super::with(castello).is_err());
        let renamed = castellan_engine::GameInfo {
            name: "castello-2",
            ..castello
        };
        let games = super::with(renamed).unwrap();
        assert_eq!(games.len(), super::all().len() + 1);
        assert_eq!(games.last().unwrap().name, "castello-2");
    }
}
