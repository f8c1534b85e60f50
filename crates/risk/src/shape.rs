//! The shape of the board, in words, so that a player can see it:
//! which territories border which and who holds them. Risk has no Admiral: its sea lanes
//! are borders like any other, marked "~". From public facts only.

use crate::map::{board, continent_in, name_in};
use crate::{Owner, Risk};
use castellan_engine::board::{Edge, TerritoryId};
use castellan_engine::words::{self, Holder};
use castellan_engine::{Lang, Seat};

/// "Alberta (Blue 3)", "Ontario (yours 2)", "Peru (neutral 1)"; "~" before across a sea lane.
fn held(g: &Risk, t: TerritoryId, crossing: bool, me: Option<Seat>, lang: Lang) -> String {
    words::held(name_in(t, lang), holder(g, t, me), crossing, lang)
}

/// "Blue 3", "yours 2", "neutral 1", "empty".
fn holder(g: &Risk, t: TerritoryId, me: Option<Seat>) -> Holder<'_> {
    let armies = g.board[t].armies;
    match g.board[t].owner {
        Owner::Seat(s) if Some(s) == me => Holder::Yours(armies),
        Owner::Seat(s) => Holder::Seat(g.players.get(s).map_or("", |p| &p.name), armies),
        Owner::Neutral => Holder::Neutral(armies),
        Owner::Nobody => Holder::Empty,
    }
}

fn near(t: TerritoryId, g: &Risk, me: Option<Seat>, lang: Lang) -> Vec<String> {
    board()
        .edges_of(t)
        .iter()
        .map(|(n, e)| held(g, *n, *e == Edge::Crossing, me, lang))
        .collect()
}

/// One compact line per territory `seat` holds on a border (a neighbour not its own),
/// for a bare NEIGHBOURS; the territories whose every neighbour is its own share one last
/// line (a 6-player report stays short).
pub fn border_lines(g: &Risk, seat: Seat, lang: Lang) -> Vec<String> {
    let mut lines = Vec::new();
    let mut inside = Vec::new();
    for t in (0..g.board.len()).filter(|&t| g.board[t].owner == Owner::Seat(seat)) {
        let all_mine = board()
            .neighbors(t)
            .into_iter()
            .all(|n| g.board[n].owner == Owner::Seat(seat));
        if all_mine {
            inside.push(format!("{} {}", name_in(t, lang), g.board[t].armies));
        } else {
            lines.push(format!(
                "{} {}{} {}",
                name_in(t, lang),
                g.board[t].armies,
                lang.pick(":", " :"),
                near(t, g, Some(seat), lang).join(", ")
            ));
        }
    }
    lines.extend(words::inside_line(&inside, lang));
    lines
}

/// The private view's short form of the board around `seat` (a report read on a phone):
/// its territories with their armies in one paragraph, after each of 2 armies or more
/// what it can attack (each neighbour not its own, with its holder and armies); then how
/// to get every territory's neighbours (`border_lines`, by NEIGHBOURS); a territory
/// whose every neighbour is its own is counted, not listed. "Yours, 4 territories, 10
/// armies (...): Peru 1; Brazil 6 > North Africa (Bob 2), Venezuela (Bob 1); inside your
/// borders: 1 territory, 3 armies."
pub fn compact_lines(g: &Risk, seat: Seat, lang: Lang) -> Vec<String> {
    let mine: Vec<TerritoryId> = (0..g.board.len())
        .filter(|&t| g.board[t].owner == Owner::Seat(seat))
        .collect();
    if mine.is_empty() {
        return Vec::new();
    }
    let armies: u32 = mine.iter().map(|&t| g.board[t].armies).sum();
    // A territory whose every neighbour is the seat's is counted, not listed.
    let (frontier, inside): (Vec<TerritoryId>, Vec<TerritoryId>) = mine.iter().partition(|&&t| {
        board()
            .edges_of(t)
            .iter()
            .any(|(n, _)| g.board[*n].owner != Owner::Seat(seat))
    });
    let inside = (
        inside.len(),
        inside.iter().map(|&t| g.board[t].armies).sum(),
    );
    let list: Vec<String> = frontier
        .iter()
        .map(|&t| {
            let targets: Vec<String> = if g.board[t].armies >= 2 {
                board()
                    .edges_of(t)
                    .iter()
                    .filter(|(n, _)| g.board[*n].owner != Owner::Seat(seat))
                    .map(|(n, e)| held(g, *n, *e == Edge::Crossing, Some(seat), lang))
                    .collect()
            } else {
                Vec::new()
            };
            let targets = if targets.is_empty() {
                String::new()
            } else {
                format!(" > {}", targets.join(", "))
            };
            format!("{} {}{targets}", name_in(t, lang), g.board[t].armies)
        })
        .collect();
    castellan_engine::words::yours_lines(
        lang,
        (mine.len(), armies),
        (
            "> can attack, ~ sea lane",
            "> peut attaquer, ~ route maritime",
        ),
        &list,
        inside,
    )
}

/// Every territory `seat` holds with its neighbours (the answer to a bare NEIGHBOURS): a
/// heading, then `border_lines`. None when the seat holds nothing.
pub fn borders_text(g: &Risk, seat: Seat, lang: Lang) -> Option<String> {
    castellan_engine::words::borders_block(
        lang.pick(
            "Your territories and their neighbours (~ a sea lane):",
            "Vos territoires et leurs voisins (~ une route maritime) :",
        ),
        border_lines(g, seat, lang),
    )
}

/// The answer to `MAP Alberta` / `NEIGHBOURS Alberta`.
pub fn neighbours_text(g: &Risk, t: TerritoryId, lang: Lang) -> String {
    format!(
        "{} ({}): {}\n{} {}\n",
        name_in(t, lang),
        continent_in(board().territories[t].group, lang),
        holder(g, t, None).text(lang),
        lang.pick(
            "Borders (~ a sea lane):",
            "Frontières (~ une route maritime) :"
        ),
        near(t, g, None, lang).join(", ")
    )
}

/// The whole board's adjacency as a Markdown table (docs/orders/risk.md keeps it; a test
/// checks the doc against the data).
pub fn adjacency_table(lang: Lang) -> String {
    let b = board();
    let mut out = String::from(lang.pick(
        "| territory | continent | borders (~ sea lane) |\n|---|---|---|\n",
        "| territoire | continent | frontières (~ route maritime) |\n|---|---|---|\n",
    ));
    for t in 0..b.len() {
        let list: Vec<String> = b
            .edges_of(t)
            .iter()
            .map(|(n, e)| {
                let lane = if *e == Edge::Crossing { "~" } else { "" };
                format!("{lane}{}", name_in(*n, lang))
            })
            .collect();
        out.push_str(&format!(
            "| {} | {} | {} |\n",
            name_in(t, lang),
            continent_in(b.territories[t].group, lang),
            list.join(", ")
        ));
    }
    out
}
