//! The games this judge runs: one [`GameInfo`] per game crate.

use castellan_engine::{game_info, GameInfo};

/// Every game, in the order HELP and LIST show them.
pub fn all() -> Vec<GameInfo> {
    vec![
        // Its own loader: a game stored under an older state version converts on load.
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
