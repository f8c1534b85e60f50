//! The shape of the board: docs/orders/risk.md shows the whole board's adjacency,
//! made from the board data (this test checks it; `CASTELLAN_BLESS=1` rewrites it), and
//! NEIGHBOURS / MAP answers for one territory from public facts.

use castellan_engine::{play_out, Lang, Rules, Secret, Table};
use castellan_risk::map::{board, continent_in, name_in};
use castellan_risk::shape::adjacency_table;
use castellan_risk::{Owner, Risk};

const BEGIN: &str = "<!-- adjacency: generated from the board data; do not edit -->\n";
const END: &str = "<!-- end of adjacency -->\n";

#[test]
fn the_docs_show_the_whole_boards_adjacency_from_the_data() {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../../docs/orders/risk.md");
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
        "docs/orders/risk.md does not show the board data's adjacency: run with CASTELLAN_BLESS=1"
    );
}

/// A 3-player game some 150 bot orders in.
fn midgame() -> Table<Risk> {
    let id = "shape-risk-1";
    let names = (0..3).map(|i| format!("P{i}")).collect();
    let o = castellan_engine::options_from_pairs(&[]).expect("options");
    let mut t = Table::<Risk>::new(id, Secret::derive(id.as_bytes()), names, o).expect("setup");
    play_out(&mut t, 150).expect("bots play");
    assert!(t.state.won.is_none(), "still on");
    t
}

fn held(t: &Table<Risk>, seat: usize) -> Vec<usize> {
    (0..t.state.board.len())
        .filter(|&x| t.state.board[x].owner == Owner::Seat(seat))
        .collect()
}

/// A report is read on a phone: the private view tells the board around the seat in
/// short, never a line per territory with its neighbours: every territory the seat holds
/// on a border once with its armies in one paragraph (the others counted), each of 2 armies or more followed by what it
/// can attack (each neighbour not its own), and one line saying how to get the whole
/// list; a bare NEIGHBOURS gives it, a line per territory on a border.
#[test]
fn the_private_view_is_short_and_neighbours_alone_gives_the_whole_list() {
    let t = midgame();
    let g = &t.state;
    for seat in 0..3 {
        let mine = held(&t, seat);
        for (lang, yours, sep, ask, whole) in [
            (
                Lang::En,
                "Yours, ",
                "; ",
                "NEIGHBOURS: ",
                "Your territories and their neighbours",
            ),
            (
                Lang::Fr,
                "À vous, ",
                " ; ",
                "VOISINS : ",
                "Vos territoires et leurs voisins",
            ),
        ] {
            let view = g.private_view(seat, lang);
            assert!(!view.contains(whole), "{view}");
            assert!(view.lines().any(|l| l.starts_with(ask)), "{view}");
            let line = view.lines().find(|l| l.starts_with(yours)).expect(yours);
            let list = &line[line.find("):").or(line.find(") :")).unwrap() + 2..];
            let list = list.trim_start_matches([':', ' ']).trim_end_matches('.');
            let mut entries: Vec<&str> = list.split(sep).collect();
            // Inside the borders (every neighbour the seat's): counted in the last entry,
            // not listed.
            let (listed, inside): (Vec<_>, Vec<_>) = mine.iter().partition(|&&x| {
                board()
                    .neighbors(x)
                    .into_iter()
                    .any(|n| g.board[n].owner != Owner::Seat(seat))
            });
            if !inside.is_empty() {
                let armies: u32 = inside.iter().map(|&&x| g.board[x].armies).sum();
                let last = entries.pop().unwrap();
                let n = inside.len();
                assert!(
                    last.contains(&format!(": {n} territ"))
                        && last.contains(&format!(", {armies} ar")),
                    "{n} inside with {armies} armies: {line}"
                );
            }
            assert_eq!(entries.len(), listed.len(), "{line}");
            for x in listed {
                let entry = format!("{} {}", name_in(*x, lang), g.board[*x].armies);
                let found: Vec<&&str> = entries
                    .iter()
                    .filter(|e| e.split(" > ").next() == Some(entry.as_str()))
                    .collect();
                assert_eq!(found.len(), 1, "{entry} once in {line}");
                let targets = found[0].split_once(" > ").map_or("", |(_, t)| t);
                for n in board().neighbors(*x) {
                    let foreign = g.board[n].owner != Owner::Seat(seat);
                    let named = targets.contains(name_in(n, lang));
                    assert_eq!(named, foreign && g.board[*x].armies >= 2, "{entry}: {line}");
                }
                let head = format!("  {entry}");
                assert!(!view.lines().any(|l| l.starts_with(&head)), "{view}");
            }
            let all = g.borders(seat, lang).expect("the seat holds territories");
            assert!(all.starts_with(whole), "{all}");
            for x in &mine {
                let on_border = board()
                    .neighbors(*x)
                    .into_iter()
                    .any(|n| g.board[n].owner != Owner::Seat(seat));
                let head = format!("  {} {}", name_in(*x, lang), g.board[*x].armies);
                let own_line = all.lines().any(|l| {
                    l.starts_with(&format!("{head}:")) || l.starts_with(&format!("{head} :"))
                });
                assert_eq!(own_line, on_border, "{head} in {all}");
            }
        }
    }
}

/// The text map tells each continent in one paragraph, its territories by holder: every
/// territory exactly once, with its holder and armies, in English and French.
#[test]
fn the_text_map_holds_every_territory_once_with_its_holder_and_armies() {
    let t = midgame();
    let g = &t.state;
    for lang in [Lang::En, Lang::Fr] {
        let view = g.public_view(lang);
        let colon = lang.pick(": ", " : ");
        for (gi, group) in board().groups.iter().enumerate() {
            let head = format!("{} (bonus {})", continent_in(gi, lang), group.bonus);
            let lines: Vec<&str> = view.lines().filter(|l| l.starts_with(&head)).collect();
            assert_eq!(lines.len(), 1, "{head} in one paragraph: {view}");
            let line = lines[0].trim_end_matches('.');
            // "Europe (bonus 5). P0: Ukraine 3, Iceland 4. P1: ..." or
            // "Australia (bonus 2), held by P0: Eastern Australia 4, ...".
            let mut facts: Vec<(String, String)> = Vec::new();
            if let Some(rest) = line.strip_prefix(&format!(
                "{head}{}",
                lang.pick(", held by ", ", tenue par ")
            )) {
                let (who, list) = rest.split_once(colon).unwrap();
                facts.extend(list.split(", ").map(|e| (who.to_string(), e.to_string())));
            } else {
                let body = line.strip_prefix(&format!("{head}. ")).expect(line);
                for part in body.split(". ") {
                    let (who, list) = part.split_once(colon).expect(part);
                    facts.extend(list.split(", ").map(|e| (who.to_string(), e.to_string())));
                }
            }
            assert_eq!(facts.len(), group.members.len(), "{line}");
            for &x in &group.members {
                let want = format!("{} {}", name_in(x, lang), g.board[x].armies);
                let found: Vec<_> = facts.iter().filter(|(_, e)| *e == want).collect();
                assert_eq!(found.len(), 1, "{want} once in {line}");
                let who = match g.board[x].owner {
                    Owner::Seat(p) => g.players[p].name.clone(),
                    Owner::Neutral => lang.pick("neutral", "neutre").to_string(),
                    Owner::Nobody => lang.pick("nobody", "personne").to_string(),
                };
                assert_eq!(found[0].0, who, "{want}");
            }
        }
    }
}
