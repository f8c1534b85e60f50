//! The Castle Risk board: 44 territories of Europe in six empires and three independent
//! groups, loaded from `data/board.yaml` (derived from real geography, see
//! docs/rules/castle-risk.md), with French and English aliases and each territory's seas.

use castellan_engine::board::{display_from_key, Board, BoardBuilder, Edge, TerritoryId};
use castellan_engine::Lang;
use serde::Deserialize;
use std::collections::BTreeMap;
use std::sync::OnceLock;

/// The six empires, in the order of their castle tokens (group ids 0..6).
pub const EMPIRES: [&str; 6] = [
    "french", "british", "russian", "german", "ottoman", "austrian",
];
/// The independent groups (group ids 6..9).
pub const INDEPENDENT_GROUPS: [&str; 3] = ["italy", "spain", "scandinavia"];
/// Earnings for each whole empire.
pub const EMPIRE_BONUS: u32 = 4;
/// Earnings for all 11 independents.
pub const INDEPENDENTS_BONUS: u32 = 6;
/// Earnings for each captured castle token.
pub const TOKEN_BONUS: u32 = 8;

/// Which water a territory touches (for the Admiral).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Sea {
    /// Landlocked: no Admiral from or to it.
    None,
    /// The open sea (Atlantic, North Sea, Baltic, Mediterranean: all connected).
    Open,
    /// The Black Sea only.
    Black,
    /// Both (Turkey).
    Both,
}

/// Two coastal territories an Admiral can sail between: they share a body of water.
pub fn shares_sea(a: Sea, b: Sea) -> bool {
    use Sea::*;
    matches!(
        (a, b),
        (Open, Open) | (Black, Black) | (Both, Open | Black | Both) | (Open | Black, Both)
    )
}

pub use castellan_engine::lang::fr::{Article, FrName};

pub struct Map {
    pub board: Board,
    pub sea: Vec<Sea>,
    /// The 11 independent territories.
    pub independents: Vec<TerritoryId>,
    /// Each territory's French name (data/board.yaml `fr:` and `article:`).
    pub fr: Vec<FrName>,
    /// Each group's French name (data/board.yaml `fr:`): "Empire Britannique", "Italie".
    pub group_fr: Vec<String>,
    /// Each territory's chief city, (latitude, longitude) in degrees (data/board.yaml `at:`).
    pub at: Vec<(f64, f64)>,
}

impl Map {
    pub fn is_empire_group(&self, g: usize) -> bool {
        g < EMPIRES.len()
    }
    pub fn group_of(&self, t: TerritoryId) -> usize {
        self.board.territories[t].group
    }
    pub fn empire_name(&self, g: usize) -> &str {
        &self.board.groups[g].name
    }
    /// A territory's name in `lang`.
    pub fn tname(&self, t: TerritoryId, lang: Lang) -> &str {
        match lang {
            Lang::En => self.board.name(t),
            Lang::Fr => &self.fr[t].name,
        }
    }
    /// A group's name in `lang` ("British Empire", "Empire Britannique"; "Italy
    /// (independent)", "Italie (indépendants)").
    pub fn group_name(&self, g: usize, lang: Lang) -> String {
        match lang {
            Lang::En => self.board.groups[g].name.clone(),
            Lang::Fr if self.is_empire_group(g) => self.group_fr[g].clone(),
            Lang::Fr => format!("{} (indépendants)", self.group_fr[g]),
        }
    }
}

#[derive(Deserialize)]
struct RawTerritory {
    sea_access: String,
    fr: String,
    article: Article,
    /// Latitude and longitude of its chief city (the picture projects them).
    at: (f64, f64),
}

#[derive(Deserialize)]
struct RawGroup {
    fr: String,
    territories: Vec<String>,
}

#[derive(Deserialize)]
struct RawBoard {
    empires: BTreeMap<String, RawGroup>,
    independents: BTreeMap<String, RawGroup>,
    territories: BTreeMap<String, RawTerritory>,
    land_edges: Vec<(String, String, String)>,
    dotted_edges: Vec<(String, String, String)>,
}

pub const BOARD_YAML: &str = include_str!("../data/board.yaml");

/// Other spellings accepted in orders, besides the English and French names (the French
/// names are in data/board.yaml).
const ALIASES: &[(&str, &[&str])] = &[
    ("netherlands", &["Hollande", "Holland"]),
    ("marseille", &["Marseilles"]),
    ("wales", &["Galles"]),
    (
        "saint_petersburg",
        &["St Petersburg", "St-Pétersbourg", "Petersburg"],
    ),
    ("rhine", &["Rhin", "Rhineland"]),
    ("turkey", &["Constantinople"]),
    ("vienna", &["Wien"]),
];

const GROUP_NAMES: [(&str, &str); 9] = [
    ("french", "French Empire"),
    ("british", "British Empire"),
    ("russian", "Russian Empire"),
    ("german", "German Empire"),
    ("ottoman", "Ottoman Empire"),
    ("austrian", "Austrian Empire"),
    ("italy", "Italy (independent)"),
    ("spain", "Spain (independent)"),
    ("scandinavia", "Scandinavia (independent)"),
];

fn display(key: &str) -> String {
    match key {
        "saint_petersburg" => "Saint Petersburg".into(),
        k => display_from_key(k),
    }
}

/// Parse the board data. Errors name what is wrong in the file.
pub fn load(yaml: &str) -> Result<Map, String> {
    let raw: RawBoard = serde_yaml::from_str(yaml).map_err(|e| e.to_string())?;
    let mut b = BoardBuilder::default();
    let mut sea = Vec::new();
    let mut independents = Vec::new();
    let mut fr = Vec::new();
    let mut group_fr = Vec::new();
    let mut at = Vec::new();
    for (gi, (gkey, gname)) in GROUP_NAMES.iter().enumerate() {
        let group = if gi < 6 {
            raw.empires.get(*gkey)
        } else {
            raw.independents.get(*gkey)
        }
        .ok_or_else(|| format!("group {gkey} missing"))?;
        group_fr.push(group.fr.clone());
        let bonus = if gi < 6 { EMPIRE_BONUS } else { 0 };
        let g = b.group(gkey, gname, bonus);
        for key in &group.territories {
            let t = b
                .territory(key, &display(key), g)
                .map_err(|e| e.to_string())?;
            let rt = raw
                .territories
                .get(key)
                .ok_or_else(|| format!("territory {key} has no entry"))?;
            sea.push(match rt.sea_access.as_str() {
                "none" => Sea::None,
                "open" => Sea::Open,
                "black" => Sea::Black,
                "both" => Sea::Both,
                other => return Err(format!("{key}: unknown sea_access {other}")),
            });
            if gi >= 6 {
                independents.push(t);
            }
            b.alias(key, &rt.fr);
            at.push(rt.at);
            fr.push(FrName {
                name: rt.fr.clone(),
                article: rt.article,
            });
        }
    }
    for (a, c, _) in &raw.land_edges {
        b.edge(a, c, Edge::Land);
    }
    for (a, c, _) in &raw.dotted_edges {
        b.edge(a, c, Edge::Crossing);
    }
    for (key, names) in ALIASES {
        for n in names.iter() {
            b.alias(key, n);
        }
    }
    let board = b.build().map_err(|e| e.to_string())?;
    Ok(Map {
        board,
        sea,
        independents,
        fr,
        group_fr,
        at,
    })
}

/// The board, loaded once from the embedded data file.
pub fn map() -> &'static Map {
    static MAP: OnceLock<Map> = OnceLock::new();
    MAP.get_or_init(|| load(BOARD_YAML).expect("the embedded board data is checked by a test"))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The board data: 44 territories, 6 empires + 11 independents, every edge matches the
    /// `neighbors` lists of the data file, French names resolve.
    #[test]
    fn board_loads_and_matches_its_neighbour_lists() {
        let m = map();
        assert_eq!(m.board.len(), 44);
        assert_eq!(m.independents.len(), 11);
        let raw: serde_yaml::Value = serde_yaml::from_str(BOARD_YAML).unwrap();
        for (i, t) in m.board.territories.iter().enumerate() {
            let listed: Vec<String> = raw["territories"][t.key.as_str()]["neighbors"]
                .as_sequence()
                .unwrap()
                .iter()
                .map(|v| v.as_str().unwrap().to_string())
                .collect();
            let mut got: Vec<String> = m
                .board
                .neighbors(i)
                .map(|n| m.board.territories[n].key.clone())
                .collect();
            got.sort();
            let mut want = listed;
            want.sort();
            assert_eq!(got, want, "{}", t.key);
        }
        for (fr, en) in [
            ("Livonie", "Livonia"),
            ("Saint-Pétersbourg", "Saint Petersburg"),
            ("pologne", "Poland"),
            ("Bavière", "Bavaria"),
            ("saxe", "Saxony"),
            ("Prusse", "Prussia"),
        ] {
            assert_eq!(m.board.name(m.board.resolve(fr).unwrap()), en);
        }
        // Turkey is on both seas; the Black Sea does not reach the open sea.
        let t = |n: &str| m.sea[m.board.resolve(n).unwrap()];
        assert_eq!(t("Turkey"), Sea::Both);
        assert!(shares_sea(t("Turkey"), t("Ukraine")) && shares_sea(t("Turkey"), t("Naples")));
        assert!(!shares_sea(t("Ukraine"), t("Naples")));
        assert!(!shares_sea(t("Moscow"), t("Moscow")));
    }
}
