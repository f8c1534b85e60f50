//! A game stored by an older build still loads: `data/castle-risk-v1.json` is a table saved
//! mid-game (a Spy waiting for its answer) by the build whose state was version 1 (nine
//! parallel per-seat lists, two per-territory lists); `data/castle-risk-v1.views.txt` is
//! what that build showed (public view, then each private view).
use castellan_castle_risk::CastleRisk;
use castellan_engine::{Lang, Rules, Table};
mod common;

const V1: &str = include_str!("data/castle-risk-v1.json");
const V1_VIEWS: &str = include_str!("data/castle-risk-v1.views.txt");

/// The private views as the version-1 build showed them (the board around each seat,
/// added since, left out; the public map, denser now, is compared by its facts).
///
/// The version-1 views also listed each seat's prompts; now the judge lists them
/// once at the top of the mail (`Session::pending`), so they are left out of the expected
/// text (`without_prompts`) and checked through `pending` instead.
///
/// Standing orders, one a line in version 1, are one line now, and after the first turn
/// only those a player set (none here); the view has no heading naming its seat (the mail
/// that carries it does): both are left out of the version-1 text.
fn without_prompts(text: &str) -> String {
    let mut out = String::new();
    let mut skipping = false;
    let mut standing: Option<()> = None;
    for line in text.lines() {
        if standing.is_some() {
            if line.starts_with("  ") {
                continue;
            }
            standing = None;
        }
        if line.starts_with("Private view for ") {
            continue;
        }
        if line == "Standing orders:" {
            standing = Some(());
            continue;
        }
        if line.starts_with("Asked of you") || line == "Nothing is asked of you now." {
            skipping = line.starts_with("Asked");
            continue;
        }
        if skipping && line.starts_with("  ") {
            continue;
        }
        skipping = false;
        out.push_str(line);
        out.push('\n');
    }
    out
}

/// The private views, without the board around each seat (added since: "Yours, ..."
/// and the NEIGHBOURS line).
fn private_views(g: &CastleRisk) -> String {
    let added = ["Yours, ", "NEIGHBOURS: "];
    let mut v = String::new();
    for s in 0..g.n() {
        for line in g.private_view(s, Lang::En).lines() {
            if !added.iter().any(|a| line.starts_with(a)) {
                v.push_str(line);
                v.push('\n');
            }
        }
    }
    v
}

/// The version-1 map, one territory a line ("  Paris   Bruno   1  CASTLE of Bruno, port"),
/// as facts: (name, holder, armies, castle).
fn v1_map_facts(text: &str) -> Vec<common::MapFact> {
    text.lines()
        .skip_while(|l| !l.starts_with("FRENCH EMPIRE"))
        .take_while(|l| !l.starts_with("Private view"))
        .filter(|l| l.starts_with("  "))
        .map(|l| {
            let name = l[2..19].trim().to_string();
            let mut rest = l[19..].split_whitespace();
            let who = rest.next().unwrap().to_string();
            let armies = rest.next().unwrap().parse().unwrap();
            (name, who, armies, l.contains("CASTLE of"))
        })
        .collect()
}

/// The public view's lines before its map tell the same: the game's state, then each
/// player's row, its tokens and hidden armies now on lines of their own ("Tokens: Alice
/// Austrian Empire; ...", "Hidden armies: Alice used in Rhine; ...").
fn same_players(now: &str, v1: &str) {
    let lines: Vec<&str> = now.lines().collect();
    let v1: Vec<&str> = v1.lines().take_while(|l| !l.is_empty()).collect();
    assert_eq!(
        lines[..4],
        v1[..4],
        "the game's state and the players' heading"
    );
    let tokens = lines.iter().find(|l| l.starts_with("Tokens: ")).unwrap();
    let hidden = lines
        .iter()
        .find(|l| l.starts_with("Hidden armies: "))
        .unwrap();
    for row in &v1[4..] {
        let (row, rest) = row.split_once("; tokens: ").unwrap();
        let (held, armies) = rest.split_once("; hidden armies: ").unwrap();
        assert!(lines.contains(&row), "{row} in {now}");
        let name = row.trim().split(':').next().unwrap();
        for (line, what) in [(tokens, held), (hidden, armies)] {
            let named = line.contains(&format!(" {name} "));
            if what == "none" {
                assert!(!named, "{name}: {line}");
            } else {
                assert!(
                    line.contains(&format!("{name} {what}")),
                    "{name} {what}: {line}"
                );
            }
        }
    }
}

#[test]
fn a_stored_version_1_game_loads_and_plays_on() {
    let json: serde_json::Value = serde_json::from_str(V1).unwrap();
    let mut session = castellan_engine::load_table_json::<CastleRisk>(json.clone()).expect("loads");
    // The map is denser now (a paragraph an empire): the same facts.
    let public = session.public_view(Lang::En);
    let v1_public = V1_VIEWS.split("Private view").next().unwrap();
    same_players(&public, v1_public);
    let mut now = common::map_facts(&public, Lang::En);
    let mut then = v1_map_facts(v1_public);
    assert_eq!(then.len(), 44, "{then:?}");
    now.sort();
    then.sort();
    assert_eq!(now, then, "the same map");
    session
        .verify()
        .expect("replays from its seed to the same state");
    let t: Table<CastleRisk> = castellan_castle_risk::upgrade_table(json).unwrap();
    assert_eq!(t.state_version, CastleRisk::STATE_VERSION);
    assert_eq!(t.state.version, CastleRisk::STATE_VERSION);
    assert_eq!(
        common::map_facts(&t.state.public_view(Lang::En), Lang::En).len(),
        44,
        "every territory once"
    );
    let v1_private = &V1_VIEWS[V1_VIEWS.find("Private view").unwrap()..];
    assert_eq!(
        private_views(&t.state),
        without_prompts(v1_private),
        "the same game, shown the same"
    );
    let asked = t.state.pending(Lang::En);
    assert_eq!(asked.len(), 1, "{asked:?}");
    assert!(
        V1_VIEWS.contains(&format!(
            "Asked of you (counter-spy): {}",
            asked[0].question
        )),
        "the prompt the version-1 build showed: {asked:?}"
    );
    let replayed = t.replay().unwrap();
    assert_eq!(
        serde_json::to_value(&replayed.state).unwrap(),
        serde_json::to_value(&t.state).unwrap(),
        "the converted state is the state the history gives"
    );
    // And it plays on.
    for _ in 0..50 {
        if session.outcome().is_some() {
            break;
        }
        let seat = session.pending(Lang::En)[0].seat;
        session.play_bot(seat).expect("plays on");
    }
}
