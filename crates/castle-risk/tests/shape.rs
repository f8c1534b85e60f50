//! The shape of the board: docs/orders/castle-risk.md shows the whole board's adjacency,
//! made from the board data (this test checks it; `CASTELLAN_BLESS=1` rewrites it), and
//! NEIGHBOURS / MAP answers for one territory from public facts.

use castellan_castle_risk::shape::adjacency_table;
use castellan_engine::Lang;
mod common;

use castellan_castle_risk::map::map;
use castellan_castle_risk::{ClaimMode, PlacementMode};
use castellan_engine::{Rules, Source};

const BEGIN: &str = "<!-- adjacency: generated from the board data; do not edit -->\n";
const END: &str = "<!-- end of adjacency -->\n";

#[test]
fn the_docs_show_the_whole_boards_adjacency_from_the_data() {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../docs/orders/castle-risk.md"
    );
    let doc = std::fs::read_to_string(path).unwrap();
    let table = format!(
        "{BEGIN}\n### English\n\n{}\n### Français\n\n{}\n{END}",
        adjacency_table(Lang::En),
        adjacency_table(Lang::Fr)
    );
    let (before, after) = match (doc.find(BEGIN), doc.find(END)) {
        (Some(a), Some(b)) => (doc[..a].to_string(), doc[b + END.len()..].to_string()),
        _ => (
            format!("{}\n## The board's shape (adjacency)\n\n", doc.trim_end()),
            String::new(),
        ),
    };
    let want = format!("{before}{table}{after}");
    if std::env::var_os("CASTELLAN_BLESS").is_some() {
        std::fs::write(path, &want).unwrap();
    }
    assert!(
        doc == want,
        "docs/orders/castle-risk.md does not show the board data's adjacency: run with CASTELLAN_BLESS=1"
    );
}

/// A game 60 bot orders in, every territory held.
fn midgame() -> castellan_engine::Table<castellan_castle_risk::CastleRisk> {
    let mut t = common::table(
        "shape-1",
        3,
        common::options(ClaimMode::Random, PlacementMode::Rounds),
    );
    for _ in 0..60 {
        let seat = t.state.pending(Lang::En)[0].seat;
        let o = t.bot_order(seat);
        t.apply(seat, o, Source::Bot).expect("bot order");
    }
    t
}

/// "MAP Prussia" names every border of Prussia in the board data, each with its holder and
/// army count as the public map shows them, and where an Admiral may sail.
#[test]
fn neighbours_name_every_border_with_its_holder_and_armies() {
    let t = midgame();
    let g = &t.state;
    let b = &map().board;
    for name in ["Prussia", "prusse", "Paris", "Ukraine"] {
        let text = g.neighbours(name, Lang::En).unwrap().unwrap();
        let p = b.resolve(name).unwrap();
        for (n, _) in b.edges_of(p) {
            let terr = &g.board[*n];
            let holder = g.name(terr.owner.unwrap());
            let want = format!("{} ({holder} {})", b.name(*n), terr.armies);
            assert!(text.contains(&want), "{name}: {want} missing in\n{text}");
        }
        let coastal = map().sea[p] != castellan_castle_risk::map::Sea::None;
        assert_eq!(text.contains("An Admiral may sail"), coastal, "{text}");
    }
    // French, and a name that is no territory is refused with how to write it.
    let fr = g.neighbours("Prusse", Lang::Fr).unwrap().unwrap();
    assert!(fr.contains("Frontières terrestres :"), "{fr}");
    let e = g.neighbours("Atlantis", Lang::En).unwrap().unwrap_err();
    assert!(e.message.contains("Atlantis"), "{e:?}");
    assert_eq!(
        e.hint.as_deref(),
        Some("write: MAP Prussia (a territory's name)")
    );
}

/// A bare NEIGHBOURS lists, for each territory the writer holds, its neighbours and who
/// holds them: one line per territory on a border (or a coast), and one shared line for
/// those whose every neighbour is their own; none for a territory held by another.
#[test]
fn neighbours_alone_lists_each_held_territory_with_its_neighbours() {
    let t = midgame();
    let g = &t.state;
    for seat in 0..3 {
        let held: Vec<usize> = (0..g.board.len())
            .filter(|&x| g.board[x].owner == Some(seat))
            .collect();
        let Some(view) = g.borders(seat, Lang::En) else {
            assert!(held.is_empty(), "seat {seat} holds territories");
            continue;
        };
        let section: Vec<&str> = view
            .lines()
            .skip_while(|l| !l.starts_with("Your territories and their neighbours"))
            .skip(1)
            .take_while(|l| l.starts_with("  "))
            .collect();
        let inside = section
            .iter()
            .find_map(|l| l.strip_prefix("  inside your borders (every neighbour yours): "))
            .unwrap_or("");
        for x in held {
            let name = map().board.name(x);
            let head = format!("  {name} {}: ", g.board[x].armies);
            let own_line = section.iter().any(|l| l.starts_with(&head));
            let entry = format!("{name} {}", g.board[x].armies);
            let listed_inside = inside
                .split(", ")
                .any(|e| e == entry || e.starts_with(&format!("{entry} (Admiral: ")));
            assert!(own_line != listed_inside, "{name} once in {view}");
            if listed_inside {
                let all_mine = map()
                    .board
                    .edges_of(x)
                    .iter()
                    .all(|(n, _)| g.board[*n].owner == Some(seat));
                assert!(all_mine, "{name} is on a border: {view}");
            }
        }
        let fr = g.borders(seat, Lang::Fr).unwrap();
        assert!(fr.starts_with("Vos territoires et leurs voisins"), "{fr}");
    }
}

/// A report is read on a phone: the private view tells the board around the seat in
/// short, never a line per territory with its neighbours. Every territory the seat holds
/// on a border, its castle and its ports are named once with their armies in one
/// paragraph, each of 2 armies or more followed by what it can attack (each neighbour not
/// its own); the others are counted with their armies; one line says how to get the
/// whole list.
#[test]
fn the_private_view_tells_the_board_around_the_seat_in_short() {
    let t = midgame();
    let g = &t.state;
    for seat in 0..3 {
        for (lang, yours, sep, ask) in [
            (Lang::En, "Yours, ", "; ", "NEIGHBOURS: "),
            (Lang::Fr, "À vous, ", " ; ", "VOISINS : "),
        ] {
            let view = g.private_view(seat, lang);
            assert!(
                !view.contains("neighbours (~") && !view.contains("voisins (~"),
                "{view}"
            );
            let held: Vec<usize> = (0..g.board.len())
                .filter(|&x| g.board[x].owner == Some(seat))
                .collect();
            if held.is_empty() {
                continue;
            }
            assert!(view.lines().any(|l| l.starts_with(ask)), "{view}");
            let line = view.lines().find(|l| l.starts_with(yours)).expect(yours);
            let list = &line[line.find("):").or(line.find(") :")).unwrap() + 2..];
            let list = list.trim_start_matches([':', ' ']).trim_end_matches('.');
            let mut entries: Vec<&str> = list.split(sep).collect();
            // Inside the borders (every neighbour the seat's), neither its castle nor a
            // port: counted in the last entry, not listed.
            let (listed, inside): (Vec<usize>, Vec<usize>) = held.iter().partition(|&&x| {
                g.players[seat].castle == Some(x)
                    || map().sea[x] != castellan_castle_risk::map::Sea::None
                    || map()
                        .board
                        .edges_of(x)
                        .iter()
                        .any(|(n, _)| g.board[*n].owner != Some(seat))
            });
            if !inside.is_empty() {
                let armies: u32 = inside.iter().map(|&x| g.board[x].armies).sum();
                let last = entries.pop().unwrap();
                let n = inside.len();
                assert!(
                    last.contains(&format!(": {n} territ"))
                        && last.contains(&format!(", {armies} ar")),
                    "{n} inside with {armies} armies: {line}"
                );
            }
            assert_eq!(entries.len(), listed.len(), "{line}");
            for x in &listed {
                let name = map().tname(*x, lang);
                let mine: Vec<&&str> = entries
                    .iter()
                    .filter(|e| {
                        let head = e.split(" > ").next().unwrap().trim_end_matches(" (castle)");
                        let head = head.trim_end_matches(" (château)");
                        let (n, a) = head.rsplit_once(' ').unwrap();
                        n.trim_end_matches(['*', '^']) == name
                            && a == g.board[*x].armies.to_string()
                    })
                    .collect();
                assert_eq!(mine.len(), 1, "{name} once in {line}");
                let targets = mine[0].split_once(" > ").map_or("", |(_, t)| t);
                for (n, _) in map().board.edges_of(*x) {
                    let foreign = g.board[*n].owner != Some(seat);
                    let named = targets.contains(map().tname(*n, lang));
                    assert_eq!(
                        named,
                        foreign && g.board[*x].armies >= 2,
                        "{name}: {n} in {line}"
                    );
                }
            }
            // No territory's line with its neighbours, whatever its name.
            for x in &held {
                let head = format!("  {} {}", map().tname(*x, lang), g.board[*x].armies);
                assert!(!view.lines().any(|l| l.starts_with(&head)), "{view}");
            }
        }
    }
}

/// The text map tells each empire in one paragraph (a report read on a phone), and
/// still every fact: each territory exactly once, with its holder, its armies and its
/// castle, in English and French.
#[test]
fn the_text_map_holds_every_territory_once_with_its_holder_and_armies() {
    let t = midgame();
    let g = &t.state;
    for lang in [Lang::En, Lang::Fr] {
        let view = g.public_view(lang);
        let facts = common::map_facts(&view, lang);
        assert_eq!(facts.len(), g.board.len(), "{view}");
        for x in 0..g.board.len() {
            let name = map().tname(x, lang);
            let found: Vec<_> = facts.iter().filter(|f| f.0 == name).collect();
            assert_eq!(found.len(), 1, "{name} once in {view}");
            let (_, who, armies, castle) = found[0];
            assert_eq!(who, g.name(g.board[x].owner.unwrap()), "{name}");
            assert_eq!(*armies, g.board[x].armies, "{name}");
            assert_eq!(*castle, g.castle_owner_at(x).is_some(), "{name}");
        }
        // One line an empire or group: nine, not one a territory.
        let groups = view.lines().filter(|l| {
            l.contains("). ") || l.contains(", all held by ") || l.contains(", tout à ")
        });
        assert_eq!(groups.count(), 9, "{view}");
    }
}
