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

/// The games of [`all`] that `listed` does not name: a test that runs "every game" from a
/// table of its own (each game with its seats, its seeds) asserts this is empty, so a game
/// added to the registry cannot go untested there.
pub fn missing_from(listed: &[&str]) -> Vec<&'static str> {
    all()
        .into_iter()
        .map(|g| g.name)
        .filter(|n| !listed.contains(n))
        .collect()
}

#[cfg(test)]
mod tests {
    /// A table that leaves a game out is told which.
    #[test]
    fn a_table_without_a_game_is_told_which() {
        assert_eq!(
            super::missing_from(&["castle-risk", "risk", "castrum"]),
            vec!["castello"]
        );
        let all: Vec<&str> = super::all().iter().map(|g| g.name).collect();
        assert!(super::missing_from(&all).is_empty());
    }
}
