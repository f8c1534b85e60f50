//! The shape of the board, in words, so that a player can see it:
//! which territories border which, who holds them, and where an Admiral may sail. From
//! public facts only (owners and army counts, as the public map shows them).

use crate::game::{CastleRisk, T};
use crate::map::{map, shares_sea, Sea};
use crate::words::tn;
use castellan_engine::board::Edge;
use castellan_engine::words::{self, Holder};
use castellan_engine::{Lang, Seat};

/// "Poland (Blue 3)", "Saxony (yours 2)", "Ukraine (empty)"; "~" before across a
/// dotted crossing.
fn held(g: &CastleRisk, t: T, crossing: bool, me: Option<Seat>, lang: Lang) -> String {
    words::held(tn(t, lang), holder(g, t, me), crossing, lang)
}

/// "Blue 3", "yours 2", "empty".
fn holder(g: &CastleRisk, t: T, me: Option<Seat>) -> Holder<'_> {
    let terr = &g.board[t];
    match terr.owner {
        Some(s) if Some(s) == me => Holder::Yours(terr.armies),
        Some(s) => Holder::Seat(g.name(s), terr.armies),
        None => Holder::Empty,
    }
}

/// Where an Admiral may sail from `t`, in a few words.
fn sea_words(t: T, lang: Lang) -> Option<&'static str> {
    match map().sea[t] {
        Sea::None => None,
        Sea::Open => Some(lang.pick(
            "the open sea (any open-sea coast)",
            "la haute mer (toute côte de haute mer)",
        )),
        Sea::Black => Some(lang.pick(
            "the Black Sea (its coasts only)",
            "la mer Noire (ses côtes seulement)",
        )),
        Sea::Both => Some(lang.pick(
            "the open sea and the Black Sea",
            "la haute mer et la mer Noire",
        )),
    }
}

/// Land borders and dotted crossings of `t`, in board order.
fn borders(t: T) -> Vec<(T, Edge)> {
    map().board.edges_of(t).to_vec()
}

/// One compact line per territory `seat` holds (a bare NEIGHBOURS):
/// "Prussia 4: Poland (Blue 3), Saxony (yours 2)", then one line for its ports, by sea
/// ("Your ports (an Admiral sails from them): open sea: Paris, London; Black Sea: ...").
pub fn border_lines(g: &CastleRisk, seat: Seat, lang: Lang) -> Vec<String> {
    let mut out = Vec::new();
    let mut inside = Vec::new();
    for t in (0..g.board.len()).filter(|&t| g.board[t].owner == Some(seat)) {
        let around = borders(t);
        // Every neighbour its own: one shared line (a 6-player report stays short).
        if around.iter().all(|(n, _)| g.board[*n].owner == Some(seat)) {
            inside.push(format!("{} {}", tn(t, lang), g.board[t].armies));
            continue;
        }
        let near: Vec<String> = around
            .into_iter()
            .map(|(n, e)| held(g, n, e == Edge::Crossing, Some(seat), lang))
            .collect();
        out.push(format!(
            "{} {}{} {}",
            tn(t, lang),
            g.board[t].armies,
            lang.pick(":", " :"),
            near.join(", ")
        ));
    }
    out.extend(words::inside_line(&inside, lang));
    out.extend(ports_line(g, seat, lang));
    out
}

/// "Your ports (an Admiral sails from them): open sea: Paris, London; Black Sea: ...".
fn ports_line(g: &CastleRisk, seat: Seat, lang: Lang) -> Option<String> {
    // Ports by sea: open sea, Black Sea, both.
    let mut ports: [Vec<&str>; 3] = Default::default();
    for t in (0..g.board.len()).filter(|&t| g.board[t].owner == Some(seat)) {
        match map().sea[t] {
            Sea::None => {}
            Sea::Open => ports[0].push(tn(t, lang)),
            Sea::Black => ports[1].push(tn(t, lang)),
            Sea::Both => ports[2].push(tn(t, lang)),
        }
    }
    let seas = [
        lang.pick("open sea", "haute mer"),
        lang.pick("Black Sea", "mer Noire"),
        lang.pick("both seas", "les deux mers"),
    ];
    let by_sea: Vec<String> = seas
        .iter()
        .zip(&ports)
        .filter(|(_, p)| !p.is_empty())
        .map(|(sea, p)| format!("{sea}{} {}", lang.pick(":", " :"), p.join(", ")))
        .collect();
    (!by_sea.is_empty()).then(|| {
        format!(
            "{} {}",
            lang.pick(
                "Your ports (an Admiral sails from them):",
                "Vos ports (un Amiral en part) :"
            ),
            by_sea.join(lang.pick("; ", " ; "))
        )
    })
}

/// The private view's short form of the board around `seat` (a report read on a phone):
/// its territories with their armies in one paragraph, its ports marked as on the map,
/// and after each territory of 2 armies or more what it can attack (each neighbour not
/// its own, with its holder and armies); then how to get every territory's neighbours
/// (`border_lines`, by NEIGHBOURS); a territory whose every neighbour is its own, neither
/// its castle nor a port, is counted, not listed. "Yours, 4 territories, 10 armies
/// (...): Paris* 1; Burgundy 6 (castle) > Rhine (Bob 2), Marseille* (Bob 1); Brittany* 2;
/// inside your borders: 1 territory, 1 army."
pub fn compact_lines(g: &CastleRisk, seat: Seat, lang: Lang) -> Vec<String> {
    let mine: Vec<T> = (0..g.board.len())
        .filter(|&t| g.board[t].owner == Some(seat))
        .collect();
    if mine.is_empty() {
        return Vec::new();
    }
    let armies: u32 = mine.iter().map(|&t| g.board[t].armies).sum();
    // A territory whose every neighbour is the seat's is counted, not listed, unless it
    // holds the castle or is a port (an Admiral sails from it).
    let (listed, inside): (Vec<T>, Vec<T>) = mine.iter().partition(|&&t| {
        g.players[seat].castle == Some(t)
            || map().sea[t] != Sea::None
            || borders(t)
                .into_iter()
                .any(|(n, _)| g.board[n].owner != Some(seat))
    });
    let inside = (
        inside.len(),
        inside.iter().map(|&t| g.board[t].armies).sum(),
    );
    let list: Vec<String> = listed
        .iter()
        .map(|&t| {
            let port = match map().sea[t] {
                Sea::None => "",
                Sea::Open => "*",
                Sea::Black => "^",
                Sea::Both => "*^",
            };
            let castle = if g.players[seat].castle == Some(t) {
                lang.pick(" (castle)", " (château)")
            } else {
                ""
            };
            let targets: Vec<String> = if g.board[t].armies >= 2 {
                borders(t)
                    .into_iter()
                    .filter(|(n, _)| g.board[*n].owner != Some(seat))
                    .map(|(n, e)| held(g, n, e == Edge::Crossing, Some(seat), lang))
                    .collect()
            } else {
                Vec::new()
            };
            let targets = if targets.is_empty() {
                String::new()
            } else {
                format!(" > {}", targets.join(", "))
            };
            format!(
                "{}{port} {}{castle}{targets}",
                tn(t, lang),
                g.board[t].armies
            )
        })
        .collect();
    castellan_engine::words::yours_lines(
        lang,
        (mine.len(), armies),
        (
            "> can attack, ~ dotted crossing, * ^ ports",
            "> peut attaquer, ~ pointillé, * ^ ports",
        ),
        &list,
        inside,
    )
}

/// Every territory `seat` holds with its neighbours (the answer to a bare NEIGHBOURS): a
/// heading, then `border_lines`. None when the seat holds nothing.
pub fn borders_text(g: &CastleRisk, seat: Seat, lang: Lang) -> Option<String> {
    castellan_engine::words::borders_block(
        lang.pick(
            "Your territories and their neighbours (~ a dotted crossing):",
            "Vos territoires et leurs voisins (~ une traversée en pointillé) :",
        ),
        border_lines(g, seat, lang),
    )
}

/// The answer to `MAP Prussia` / `NEIGHBOURS Prussia`.
pub fn neighbours_text(g: &CastleRisk, t: T, lang: Lang) -> String {
    let m = map();
    let mut out = format!(
        "{} ({}): {}\n",
        tn(t, lang),
        m.group_name(m.group_of(t), lang),
        holder(g, t, None).text(lang)
    );
    let (land, dotted): (Vec<_>, Vec<_>) =
        borders(t).into_iter().partition(|(_, e)| *e == Edge::Land);
    let list = |v: &[(T, Edge)]| {
        v.iter()
            .map(|(n, _)| held(g, *n, false, None, lang))
            .collect::<Vec<_>>()
            .join(", ")
    };
    if !land.is_empty() {
        out.push_str(&format!(
            "{} {}\n",
            lang.pick("Land borders:", "Frontières terrestres :"),
            list(&land)
        ));
    }
    if !dotted.is_empty() {
        out.push_str(&format!(
            "{} {}\n",
            lang.pick(
                "Dotted crossings (as land):",
                "Traversées en pointillé (comme la terre) :"
            ),
            list(&dotted)
        ));
    }
    match sea_words(t, lang) {
        Some(sea) => {
            let coasts: Vec<String> = (0..g.board.len())
                .filter(|&o| o != t && shares_sea(m.sea[t], m.sea[o]))
                .map(|o| tn(o, lang).to_string())
                .collect();
            out.push_str(&format!(
                "{} {sea}: {}\n",
                lang.pick("An Admiral may sail across", "Un Amiral peut traverser"),
                coasts.join(", ")
            ));
        }
        None => out.push_str(lang.pick(
            "Landlocked: no Admiral from or to it.\n",
            "Sans côte : aucun Amiral n'en part ni n'y arrive.\n",
        )),
    }
    out
}

/// The whole board's adjacency as a Markdown table (docs/orders/castle-risk.md keeps it;
/// a test checks the doc against the data).
pub fn adjacency_table(lang: Lang) -> String {
    let m = map();
    let mut out = String::from(lang.pick(
        "| territory | group | land borders | dotted crossings | sea |\n|---|---|---|---|---|\n",
        "| territoire | groupe | frontières terrestres | pointillés | mer |\n|---|---|---|---|---|\n",
    ));
    for t in 0..m.board.len() {
        let of = |kind: Edge| {
            borders(t)
                .into_iter()
                .filter(|(_, e)| *e == kind)
                .map(|(n, _)| tn(n, lang).to_string())
                .collect::<Vec<_>>()
                .join(", ")
        };
        let sea = match m.sea[t] {
            Sea::None => "-",
            Sea::Open => lang.pick("open", "haute mer"),
            Sea::Black => lang.pick("Black Sea", "mer Noire"),
            Sea::Both => lang.pick("open + Black Sea", "haute mer + mer Noire"),
        };
        out.push_str(&format!(
            "| {} | {} | {} | {} | {sea} |\n",
            tn(t, lang),
            m.group_name(m.group_of(t), lang),
            of(Edge::Land),
            of(Edge::Crossing)
        ));
    }
    out
}
