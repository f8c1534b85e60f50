//! The shape of the board: docs/orders/risk.md shows the whole board's adjacency,
//! made from the board data (this test checks it; `CASTELLAN_BLESS=1` rewrites it), and
//! NEIGHBOURS / MAP answers for one territory from public facts.

use castellan_engine::Lang;
use castellan_risk::shape::adjacency_table;

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
