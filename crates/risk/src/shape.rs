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
/// for its private view; the territories whose every neighbour is its own share one last
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
