//! The classic 42-territory board (data/board.yaml, from the shared research) loaded into
//! the shared [`Board`], with the card symbol of each territory and French names as aliases.

use castellan_engine::board::{display_from_key, Board, BoardBuilder, Edge, TerritoryId};
use castellan_engine::lang::fr;
use castellan_engine::Lang;
use serde::{Deserialize, Serialize};
use std::sync::OnceLock;

/// The silhouette on a Risk card.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Symbol {
    Infantry,
    Cavalry,
    Artillery,
}

impl Symbol {
    pub fn word(self) -> &'static str {
        match self {
            Symbol::Infantry => "infantry",
            Symbol::Cavalry => "cavalry",
            Symbol::Artillery => "artillery",
        }
    }

    /// The silhouette's name in `lang` (the rules text: "fantassin, cavalier, canon").
    pub fn word_in(self, lang: Lang) -> &'static str {
        match (self, lang) {
            (_, Lang::En) => self.word(),
            (Symbol::Infantry, Lang::Fr) => "fantassin",
            (Symbol::Cavalry, Lang::Fr) => "cavalier",
            (Symbol::Artillery, Lang::Fr) => "canon",
        }
    }
}

/// A territory's French name and the forms a sentence needs.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct French {
    /// Bare name, as on the map ("Kamchatka").
    pub name: String,
    /// With its article ("le Kamchatka", "l'Alaska", "Madagascar").
    pub le: String,
    /// After "de" ("du Kamchatka", "de l'Alaska", "des Territoires du Nord-Ouest", "de Madagascar").
    pub de: String,
}

impl French {
    /// From the name with its article, as written in data/board.yaml.
    fn from_data(with_article: &str) -> French {
        let n = fr::FrName::parse(with_article);
        French {
            le: n.le(),
            de: n.de(),
            name: n.name,
        }
    }
}

/// The board with its card symbols.
#[derive(Debug)]
pub struct RiskMap {
    pub board: Board,
    /// Card symbol of each territory's card.
    pub symbols: Vec<Symbol>,
    pub wild_cards: usize,
    /// French names of the territories (by id) and of the continents (by group).
    pub french: Vec<French>,
    pub continents_fr: Vec<String>,
    /// Each territory's (latitude, longitude), in degrees (data/board.yaml `at:`).
    pub at: Vec<(f64, f64)>,
}

const DATA: &str = include_str!("../data/board.yaml");

/// Other French spellings accepted in orders (the names shown are in data/board.yaml).
const FRENCH: &[(&str, &str)] = &[
    ("alaska", "Alaska"),
    ("alberta", "Alberta"),
    ("central_america", "Amérique centrale"),
    ("eastern_united_states", "États de l'Est"),
    ("eastern_united_states", "Est des États-Unis"),
    ("greenland", "Groenland"),
    ("northwest_territory", "Territoires du Nord-Ouest"),
    ("ontario", "Ontario"),
    ("quebec", "Québec"),
    ("western_united_states", "États de l'Ouest"),
    ("western_united_states", "Ouest des États-Unis"),
    ("argentina", "Argentine"),
    ("brazil", "Brésil"),
    ("peru", "Pérou"),
    ("venezuela", "Vénézuela"),
    ("great_britain", "Grande-Bretagne"),
    ("iceland", "Islande"),
    ("northern_europe", "Europe du Nord"),
    ("scandinavia", "Scandinavie"),
    ("southern_europe", "Europe du Sud"),
    ("ukraine", "Ukraine"),
    ("western_europe", "Europe de l'Ouest"),
    ("western_europe", "Europe occidentale"),
    ("congo", "Congo"),
    ("east_africa", "Afrique de l'Est"),
    ("east_africa", "Afrique orientale"),
    ("egypt", "Égypte"),
    ("madagascar", "Madagascar"),
    ("north_africa", "Afrique du Nord"),
    ("south_africa", "Afrique du Sud"),
    ("afghanistan", "Afghanistan"),
    ("china", "Chine"),
    ("india", "Inde"),
    ("irkutsk", "Irkoutsk"),
    ("japan", "Japon"),
    ("kamchatka", "Kamtchatka"),
    ("middle_east", "Moyen-Orient"),
    ("mongolia", "Mongolie"),
    ("siam", "Siam"),
    ("siberia", "Sibérie"),
    ("ural", "Oural"),
    ("yakutsk", "Yakoutsk"),
    ("kamchatka", "Kamtchatka"),
    ("venezuela", "Vénézuela"),
    ("eastern_australia", "Australie orientale"),
    ("eastern_australia", "Australie de l'Est"),
    ("indonesia", "Indonésie"),
    ("new_guinea", "Nouvelle-Guinée"),
    ("western_australia", "Australie occidentale"),
    ("western_australia", "Australie de l'Ouest"),
];

#[derive(Deserialize)]
struct RawContinent {
    bonus: u32,
    fr: String,
    territories: Vec<String>,
}

#[derive(Deserialize)]
struct RawTerritory {
    name: String,
    fr: String,
    card: String,
    /// Latitude and longitude of the region's middle (the picture projects them).
    at: (f64, f64),
}

fn load() -> Result<RiskMap, String> {
    let v: serde_yaml::Value = serde_yaml::from_str(DATA).map_err(|e| e.to_string())?;
    let conts = v
        .get("continents")
        .and_then(|c| c.as_mapping())
        .ok_or("no continents")?;
    let terrs: std::collections::BTreeMap<String, RawTerritory> =
        serde_yaml::from_value(v.get("territories").cloned().ok_or("no territories")?)
            .map_err(|e| e.to_string())?;
    let mut b = BoardBuilder::default();
    let mut symbols = Vec::new();
    let mut french = Vec::new();
    let mut continents_fr = Vec::new();
    let mut at = Vec::new();
    for (k, c) in conts {
        let key = k.as_str().ok_or("continent key")?;
        let c: RawContinent = serde_yaml::from_value(c.clone()).map_err(|e| e.to_string())?;
        let g = b.group(key, &display_from_key(key), c.bonus);
        continents_fr.push(c.fr);
        for t in &c.territories {
            let raw = terrs.get(t).ok_or(format!("territory {t} has no entry"))?;
            b.territory(t, &raw.name, g).map_err(|e| e.to_string())?;
            at.push(raw.at);
            let f = French::from_data(&raw.fr);
            b.alias(t, &f.name);
            french.push(f);
            symbols.push(match raw.card.as_str() {
                "infantry" => Symbol::Infantry,
                "cavalry" => Symbol::Cavalry,
                "artillery" => Symbol::Artillery,
                s => return Err(format!("unknown card symbol {s}")),
            });
        }
    }
    let edges: Vec<(String, String, String)> =
        serde_yaml::from_value(v.get("edges").cloned().ok_or("no edges")?)
            .map_err(|e| e.to_string())?;
    for (a, c, kind) in edges {
        let kind = if kind == "sea" {
            Edge::Crossing
        } else {
            Edge::Land
        };
        b.edge(&a, &c, kind);
    }
    for (k, fr) in FRENCH {
        b.alias(k, fr);
    }
    let wild_cards = v.get("wild_cards").and_then(|w| w.as_u64()).unwrap_or(2) as usize;
    let board = b.build().map_err(|e| e.to_string())?;
    Ok(RiskMap {
        board,
        symbols,
        wild_cards,
        french,
        continents_fr,
        at,
    })
}

/// The board, loaded once. The data is compiled in and checked by the tests below, so it
/// cannot fail on any player input.
pub fn map() -> &'static RiskMap {
    static MAP: OnceLock<RiskMap> = OnceLock::new();
    MAP.get_or_init(|| load().expect("the compiled-in board data is valid (checked by tests)"))
}

pub fn board() -> &'static Board {
    &map().board
}

pub fn name(t: TerritoryId) -> &'static str {
    board().name(t)
}

/// The name shown to a reader of `lang` ("Northwest Territory", "Territoires du Nord-Ouest").
pub fn name_in(t: TerritoryId, lang: Lang) -> &'static str {
    match lang {
        Lang::En => name(t),
        Lang::Fr => &french(t).name,
    }
}

/// The French forms of a territory's name.
pub fn french(t: TerritoryId) -> &'static French {
    &map().french[t]
}

/// A continent's name in `lang` ("North America", "Amérique du Nord").
pub fn continent_in(g: usize, lang: Lang) -> &'static str {
    match lang {
        Lang::En => &board().groups[g].name,
        Lang::Fr => &map().continents_fr[g],
    }
}

/// Number of cards in the deck (one per territory plus the wild cards).
pub fn deck_size() -> usize {
    map().symbols.len() + map().wild_cards
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Board: "la mappemonde divisée en 42 territoires"; research: 83 edges, bonuses
    /// 5/2/5/3/7/2, a symbol on every card, 2 wild cards ("deux cartes passe-partout").
    #[test]
    fn the_board_has_42_territories_83_edges_and_the_printed_bonuses() {
        let m = load().unwrap();
        assert_eq!(m.board.len(), 42);
        assert_eq!(m.board.edge_count(), 83);
        let bonuses: Vec<u32> = m.board.groups.iter().map(|g| g.bonus).collect();
        assert_eq!(bonuses, vec![5, 2, 5, 3, 7, 2]);
        assert_eq!(m.symbols.len(), 42);
        assert_eq!(m.wild_cards, 2);
        for s in [Symbol::Infantry, Symbol::Cavalry, Symbol::Artillery] {
            assert_eq!(m.symbols.iter().filter(|x| **x == s).count(), 14);
        }
    }

    /// Rule 1 (003 §Attaquer): "L'Afrique du Nord est adjacente au Brésil et l'Alaska est
    /// adjacent au Kamchatka"; French names are accepted.
    #[test]
    fn dotted_lines_are_adjacent_and_french_names_resolve() {
        let b = board();
        let r = |s: &str| b.resolve(s).unwrap();
        assert!(b.adjacent(r("Afrique du Nord"), r("Brésil")));
        assert!(b.adjacent(r("Alaska"), r("Kamchatka")));
        assert!(b.adjacent(r("Groenland"), r("Territoires du Nord-Ouest")));
        assert!(b.adjacent(r("afrique du nord"), r("egypte")));
        assert_eq!(r("Sibérie"), r("Siberia"));
        assert!(!b.adjacent(r("Alaska"), r("Brazil")));
    }

    /// Every French name shown resolves to its territory; articles give the "de" forms.
    #[test]
    fn french_names_resolve_and_take_their_articles() {
        let b = board();
        for t in 0..b.len() {
            assert_eq!(b.resolve(&french(t).name), Ok(t), "{}", french(t).name);
        }
        let f = |s: &str| french(b.resolve(s).unwrap());
        assert_eq!(f("Kamchatka").de, "du Kamchatka");
        assert_eq!(f("Alaska").de, "de l'Alaska");
        assert_eq!(f("Madagascar").le, "Madagascar");
        assert_eq!(f("Madagascar").de, "de Madagascar");
        assert_eq!(f("Irkutsk").de, "d'Irkoutsk");
        assert_eq!(f("Northwest Territory").de, "des Territoires du Nord-Ouest");
        assert_eq!(f("China").de, "de la Chine");
        assert_eq!(continent_in(5, Lang::Fr), "Océanie");
        assert_eq!(continent_in(5, Lang::En), "Australia");
    }
}
