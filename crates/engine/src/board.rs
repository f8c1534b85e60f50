//! A map board as a graph: territories, the groups they belong to (empires, continents)
//! with their bonus, and the edges between them. Games load their own data file into it.

use crate::names::{NameError, Names};
use serde::{Deserialize, Serialize};

pub type TerritoryId = usize;

/// How two territories touch.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
pub enum Edge {
    /// A shared land border.
    Land,
    /// A water crossing drawn on the board (Castle Risk's dotted lines, Risk's sea lanes):
    /// used like a land border.
    Crossing,
}

#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Territory {
    /// Stable key from the data file (`saint_petersburg`).
    pub key: String,
    /// Name shown in reports (`Saint Petersburg`).
    pub name: String,
    pub group: usize,
}

#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Group {
    pub key: String,
    pub name: String,
    pub bonus: u32,
    pub members: Vec<TerritoryId>,
}

#[derive(Clone, Debug)]
pub struct Board {
    pub territories: Vec<Territory>,
    pub groups: Vec<Group>,
    adjacency: Vec<Vec<(TerritoryId, Edge)>>,
    names: Names<TerritoryId>,
}

#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum BoardError {
    #[error("unknown territory key {0:?} in the board data")]
    UnknownKey(String),
    #[error("territory {0:?} is listed twice")]
    Duplicate(String),
    #[error("the board is not connected: {0:?} cannot be reached")]
    Disconnected(String),
}

/// Collects territories, groups and edges, then checks them in [`BoardBuilder::build`].
#[derive(Default)]
pub struct BoardBuilder {
    territories: Vec<Territory>,
    groups: Vec<Group>,
    edges: Vec<(String, String, Edge)>,
    aliases: Vec<(String, String)>,
}

pub fn display_from_key(key: &str) -> String {
    key.split('_')
        .map(crate::words::cap)
        .collect::<Vec<_>>()
        .join(" ")
}

impl BoardBuilder {
    pub fn group(&mut self, key: &str, name: &str, bonus: u32) -> usize {
        self.groups.push(Group {
            key: key.into(),
            name: name.into(),
            bonus,
            members: vec![],
        });
        self.groups.len() - 1
    }

    pub fn territory(
        &mut self,
        key: &str,
        name: &str,
        group: usize,
    ) -> Result<TerritoryId, BoardError> {
        if self.territories.iter().any(|t| t.key == key) {
            return Err(BoardError::Duplicate(key.into()));
        }
        self.territories.push(Territory {
            key: key.into(),
            name: name.into(),
            group,
        });
        let id = self.territories.len() - 1;
        self.groups[group].members.push(id);
        Ok(id)
    }

    pub fn alias(&mut self, key: &str, alias: &str) {
        self.aliases.push((key.into(), alias.into()));
    }

    pub fn edge(&mut self, a: &str, b: &str, kind: Edge) {
        self.edges.push((a.into(), b.into(), kind));
    }

    pub fn build(self) -> Result<Board, BoardError> {
        let find = |k: &str, ts: &[Territory]| {
            ts.iter()
                .position(|t| t.key == k)
                .ok_or_else(|| BoardError::UnknownKey(k.into()))
        };
        let mut adjacency = vec![Vec::new(); self.territories.len()];
        for (a, b, kind) in &self.edges {
            let (ia, ib) = (find(a, &self.territories)?, find(b, &self.territories)?);
            if ia == ib || adjacency[ia].iter().any(|(x, _)| *x == ib) {
                continue;
            }
            adjacency[ia].push((ib, *kind));
            adjacency[ib].push((ia, *kind));
        }
        for a in adjacency.iter_mut() {
            a.sort();
        }
        let mut names = Names::new();
        for (i, t) in self.territories.iter().enumerate() {
            names.add(&t.name, i);
            names.add_alias(&t.key, &t.name, i);
        }
        for (k, alias) in &self.aliases {
            let i = find(k, &self.territories)?;
            names.add_alias(alias, &self.territories[i].name, i);
        }
        let board = Board {
            territories: self.territories,
            groups: self.groups,
            adjacency,
            names,
        };
        // connectivity
        if !board.territories.is_empty() {
            let mut seen = vec![false; board.len()];
            let mut stack = vec![0];
            seen[0] = true;
            while let Some(t) = stack.pop() {
                for &(n, _) in &board.adjacency[t] {
                    if !seen[n] {
                        seen[n] = true;
                        stack.push(n);
                    }
                }
            }
            if let Some(i) = seen.iter().position(|s| !s) {
                return Err(BoardError::Disconnected(board.territories[i].key.clone()));
            }
        }
        Ok(board)
    }
}

impl Board {
    pub fn len(&self) -> usize {
        self.territories.len()
    }
    pub fn is_empty(&self) -> bool {
        self.territories.is_empty()
    }
    pub fn name(&self, t: TerritoryId) -> &str {
        &self.territories[t].name
    }
    pub fn neighbors(&self, t: TerritoryId) -> impl Iterator<Item = TerritoryId> + '_ {
        self.adjacency[t].iter().map(|(n, _)| *n)
    }
    pub fn edges_of(&self, t: TerritoryId) -> &[(TerritoryId, Edge)] {
        &self.adjacency[t]
    }
    pub fn edge(&self, a: TerritoryId, b: TerritoryId) -> Option<Edge> {
        self.adjacency
            .get(a)?
            .iter()
            .find(|(n, _)| *n == b)
            .map(|(_, k)| *k)
    }
    pub fn adjacent(&self, a: TerritoryId, b: TerritoryId) -> bool {
        self.edge(a, b).is_some()
    }
    pub fn by_key(&self, key: &str) -> Option<TerritoryId> {
        self.territories.iter().position(|t| t.key == key)
    }
    /// Forgiving lookup for order text.
    pub fn resolve(&self, given: &str) -> Result<TerritoryId, NameError> {
        self.names.resolve(given)
    }
    pub fn names(&self) -> &Names<TerritoryId> {
        &self.names
    }
    /// The territories a name given in an order may mean, for a hint: the one it names,
    /// else those its [`NameError`] suggests.
    pub fn meant(&self, named: &Result<TerritoryId, NameError>) -> Vec<TerritoryId> {
        let names = match named {
            Ok(t) => return vec![*t],
            Err(NameError::Unknown { suggestions, .. }) => suggestions,
            Err(NameError::Ambiguous { candidates, .. }) => candidates,
        };
        names.iter().filter_map(|n| self.resolve(n).ok()).collect()
    }

    /// An attack a seat could write now, for a hint ("write: ATTACK Bohemia FROM Saxony"),
    /// as `(to, from)`: from the first of `from` (the territory named, or what a misspelt
    /// name may have meant) the seat holds (`mine`) with at least 2 `armies` (one attacks,
    /// one stays) and a neighbour it may attack (`foe`),
    /// else from its such territory next to one of `to`, else from the one of most
    /// `armies` (ties: the first); on the first of `to` next to it that it may attack, else
    /// on its first such neighbour. `None` when the seat holds no such territory (the
    /// set-up, or nothing left to attack).
    pub fn attack_example(
        &self,
        to: &[TerritoryId],
        from: &[TerritoryId],
        mine: impl Fn(TerritoryId) -> bool,
        foe: impl Fn(TerritoryId) -> bool,
        armies: impl Fn(TerritoryId) -> u32,
    ) -> Option<(TerritoryId, TerritoryId)> {
        let targets = |f: TerritoryId| self.neighbors(f).filter(|&n| foe(n));
        let can = |f: &TerritoryId| mine(*f) && armies(*f) >= 2 && targets(*f).next().is_some();
        let from = from.iter().copied().find(can).or_else(|| {
            let mut own: Vec<TerritoryId> = (0..self.len()).filter(can).collect();
            own.sort_by_key(|&f| {
                let near = to.iter().any(|&t| foe(t) && self.adjacent(f, t));
                (!near, std::cmp::Reverse(armies(f)))
            });
            own.first().copied()
        })?;
        let to = to
            .iter()
            .copied()
            .find(|&t| foe(t) && self.adjacent(from, t))
            .or_else(|| targets(from).next())?;
        Some((to, from))
    }

    pub fn edge_count(&self) -> usize {
        self.adjacency.iter().map(|a| a.len()).sum::<usize>() / 2
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn edges_are_symmetric_and_names_resolve() {
        let mut b = BoardBuilder::default();
        let g = b.group("g", "G", 2);
        b.territory("a", "Alpha", g).unwrap();
        b.territory("b", "Beta", g).unwrap();
        b.alias("b", "Bêta");
        b.edge("a", "b", Edge::Crossing);
        let board = b.build().unwrap();
        assert_eq!(board.edge(1, 0), Some(Edge::Crossing));
        assert_eq!(board.resolve("beta"), Ok(1));
        assert_eq!(board.resolve("BETA"), Ok(1));
        assert_eq!(board.edge_count(), 1);
    }

    /// The attack a hint suggests is one the seat can make: from a territory of its own
    /// with at least 2 armies (one attacks, one stays), on a neighbour it may attack.
    #[test]
    fn an_attack_example_starts_from_two_armies() {
        let mut b = BoardBuilder::default();
        let g = b.group("g", "G", 0);
        for (k, n) in [("a", "A"), ("b", "B"), ("c", "C")] {
            b.territory(k, n, g).unwrap();
        }
        b.edge("a", "b", Edge::Land);
        b.edge("b", "c", Edge::Land);
        let board = b.build().unwrap();
        // The seat holds A (1 army) and C (3); B is the foe's.
        let armies = |t: TerritoryId| [1, 5, 3][t];
        let example = |to: &[TerritoryId], from: &[TerritoryId]| {
            board.attack_example(to, from, |t| t != 1, |t| t == 1, armies)
        };
        assert_eq!(example(&[1], &[0]), Some((1, 2)), "not from A's one army");
        let armies = |_: TerritoryId| 1;
        let none = board.attack_example(&[1], &[0], |t| t != 1, |t| t == 1, armies);
        assert_eq!(none, None, "no attack from one army anywhere");
    }

    #[test]
    fn disconnected_or_unknown_boards_are_refused() {
        let mut b = BoardBuilder::default();
        let g = b.group("g", "G", 0);
        b.territory("a", "A", g).unwrap();
        b.territory("b", "B", g).unwrap();
        assert!(matches!(b.build(), Err(BoardError::Disconnected(_))));
        let mut b = BoardBuilder::default();
        let g = b.group("g", "G", 0);
        b.territory("a", "A", g).unwrap();
        b.edge("a", "zz", Edge::Land);
        assert!(matches!(b.build(), Err(BoardError::UnknownKey(_))));
    }
}
