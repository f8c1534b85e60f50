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

/// Each player's private view lists, for each territory they hold, its neighbours and who
/// holds them: one line per territory on a border (or a coast), and one shared line for
/// those whose every neighbour is their own (a 6-player report stays short); none
/// for a territory held by another.
#[test]
fn the_private_view_lists_each_held_territory_with_its_neighbours() {
    let t = midgame();
    let g = &t.state;
    for seat in 0..3 {
        let view = g.private_view(seat, Lang::En);
        let held: Vec<usize> = (0..g.board.len())
            .filter(|&x| g.board[x].owner == Some(seat))
            .collect();
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
    }
}
