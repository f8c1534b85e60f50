//! Campaigns and the Risk tournament.
//!
//! A campaign groups games and players under one game master, with a scoring rule of its
//! own ([`Scoring`]); its standings are mailed to every player and the game master each
//! time one of its games ends. A tournament is a campaign whose games the judge seats
//! itself, round after round, as the Risk rules text organises one ("ORGANISATION D'UN
//! TOURNOI", seeds/003; decisions in docs/rules/risk.md): tables of 3 to 6, preliminary
//! rounds whose table winners go on, then a final.
//!
//! Pure like the rest of the judge: what happens is worked out here and written through
//! [`Changes::campaigns`](crate::Changes) in the handling's one transaction. This file
//! holds the records, the scoring and the planning of rounds, all data; progress.rs moves
//! a campaign on as its games end.

use crate::model::*;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

mod progress;

/// How a campaign scores its games.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Scoring {
    /// One point a game won.
    Wins,
    /// A game's winner scores as many points as the table had players, every other player
    /// who finished it 1, a player who resigned 0 (the engine knows winners, not a full
    /// order of places).
    Placings,
    /// The game's own score for each seat (Risk: territories held at the end), when the
    /// game keeps one; a game without a score counts as `Placings`.
    Score,
}

impl Scoring {
    pub fn parse(s: &str) -> Option<Scoring> {
        match s.to_lowercase().as_str() {
            "wins" | "victoires" => Some(Scoring::Wins),
            "placings" | "places" | "classement" => Some(Scoring::Placings),
            "score" | "scores" | "points" => Some(Scoring::Score),
            _ => None,
        }
    }
    /// The rule's name in French.
    pub fn fr(self) -> &'static str {
        match self {
            Scoring::Wins => "victoires",
            Scoring::Placings => "places",
            Scoring::Score => "score",
        }
    }
    pub fn as_str(self) -> &'static str {
        match self {
            Scoring::Wins => "wins",
            Scoring::Placings => "placings",
            Scoring::Score => "score",
        }
    }
}

/// One player's part in a finished game.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Place {
    pub address: String,
    pub name: String,
    pub won: bool,
    pub resigned: bool,
    /// The game's own score, if it keeps one.
    pub score: Option<i64>,
}

fn one() -> usize {
    1
}

/// A finished game of a campaign.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct GameResult {
    pub game: String,
    /// Tournament round (1, 2, ...); 0 outside a tournament.
    pub round: u32,
    pub places: Vec<Place>,
    /// The game's ending, as the judge logged it ("Anna won (...)").
    pub ended: String,
    /// The same in French.
    #[serde(default)]
    pub ended_fr: String,
}

/// One line of a campaign's history (the HISTORY of a campaign), in both languages.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct CampaignEvent {
    pub at: i64,
    pub en: String,
    pub fr: String,
}

/// The tournament a campaign runs, if it is one.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Tournament {
    /// Table sizes: the text's 3 to 6, within what the game allows.
    pub table_min: usize,
    pub table_max: usize,
    /// Rounds of play per preliminary game (`turn_limit` of each table), 0 = none.
    pub turn_limit: u32,
    /// The same for the final, 0 = none ("La partie finale peut être limitée en temps ou
    /// non").
    pub final_turn_limit: u32,
    /// Other options handed to every table (`key=value`).
    pub options: Vec<(String, String)>,
    /// The judge's own CREATE arguments for every table (`language=fr`, `deadline=72`).
    #[serde(default)]
    pub judge_args: Vec<String>,
    /// The round being played (1 = the first preliminary).
    pub round: u32,
    /// Whether the round being played is the final.
    pub is_final: bool,
    /// How many go on from each table of the round being played (`plan_round`); records
    /// from before it was kept send on one.
    #[serde(default = "one")]
    pub per_table: usize,
    /// The games of the round being played.
    pub tables: Vec<String>,
    /// The tournament's winner, once the final has ended.
    pub winner: Option<String>,
}

/// A campaign as the judge stores it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct CampaignRecord {
    /// "campaign-3".
    pub id: String,
    pub name: String,
    /// The game master's address.
    pub gm: String,
    /// The campaign's game master's password hash (crate::password: Argon2id).
    pub gm_password_hash: String,
    pub salt: String,
    pub scoring: Scoring,
    /// The game its tournament tables play ("risk"); empty for a campaign of any games.
    #[serde(default)]
    pub game: String,
    /// Addresses, in the order they came in.
    pub players: Vec<String>,
    /// Names by address (as seated).
    #[serde(default)]
    pub names: BTreeMap<String, String>,
    pub games: Vec<String>,
    pub results: Vec<GameResult>,
    pub history: Vec<CampaignEvent>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tournament: Option<Tournament>,
    pub created: i64,
    /// Created by mail (CAMPAIGN NEW), not by the operator: its tournament tables wait
    /// for their players' confirmations, and its first round spends the server's budget
    /// of new games (crate::optin). Absent in a record stored before this field: the
    /// operator's, as such tables were then taken to be.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub by_mail: bool,
}

/// One line of the standings.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Standing {
    pub rank: usize,
    pub name: String,
    pub address: String,
    pub points: i64,
    pub played: u32,
    pub won: u32,
}

/// Points of each place of `r` under `scoring`.
pub fn points(scoring: Scoring, r: &GameResult) -> Vec<i64> {
    let n = r.places.len() as i64;
    let placings = |p: &Place| {
        if p.won {
            n
        } else if p.resigned {
            0
        } else {
            1
        }
    };
    r.places
        .iter()
        .map(|p| match scoring {
            Scoring::Wins => i64::from(p.won),
            Scoring::Placings => placings(p),
            Scoring::Score => p.score.unwrap_or_else(|| placings(p)),
        })
        .collect()
}

impl CampaignRecord {
    /// The standings: points, then wins, then games played (fewer first), then the order
    /// the players came in; equal points, wins and games share a rank.
    pub fn standings(&self) -> Vec<Standing> {
        let mut by: BTreeMap<&str, (i64, u32, u32)> = BTreeMap::new();
        for a in &self.players {
            by.entry(a.as_str()).or_default();
        }
        for r in &self.results {
            for (p, pts) in r.places.iter().zip(points(self.scoring, r)) {
                let e = by.entry(p.address.as_str()).or_default();
                e.0 += pts;
                e.1 += u32::from(p.won);
                e.2 += 1;
            }
        }
        let order = |a: &str| {
            self.players
                .iter()
                .position(|p| p == a)
                .unwrap_or(usize::MAX)
        };
        let mut rows: Vec<(&str, (i64, u32, u32))> = by.into_iter().collect();
        rows.sort_by(|x, y| {
            (y.1 .0, y.1 .1, std::cmp::Reverse(y.1 .2))
                .cmp(&(x.1 .0, x.1 .1, std::cmp::Reverse(x.1 .2)))
                .then(order(x.0).cmp(&order(y.0)))
        });
        let mut out: Vec<Standing> = Vec::new();
        for (i, (a, (pts, won, played))) in rows.into_iter().enumerate() {
            let rank = match out.last() {
                Some(l) if (l.points, l.won, l.played) == (pts, won, played) => l.rank,
                _ => i + 1,
            };
            out.push(Standing {
                rank,
                name: self.names.get(a).cloned().unwrap_or_else(|| a.to_string()),
                address: a.to_string(),
                points: pts,
                played,
                won,
            });
        }
        out
    }

    fn event(&mut self, at: i64, en: String, fr: String) {
        self.history.push(CampaignEvent { at, en, fr });
    }
}

/// How one round of a tournament is played.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RoundPlan {
    /// A preliminary round: `tables` tables (of `min..=max` each, sizes as even as
    /// possible), the best `per_table` of each going on.
    Preliminary { tables: usize, per_table: usize },
    /// The final: everyone at one table of `min..=max`, its winner wins the tournament.
    Final,
}

/// How many go on from each table, most preferred first: one ("Le gagnant incontestable ou
/// le joueur le plus puissant de chaque table passe"), else two, only where one a table
/// could never make a final of three (6 to 8 entrants at tables of 3 to 6).
const PER_TABLE: [usize; 2] = [1, 2];

/// Whether `m` players, after a round already played, can be brought down to a final of
/// `min..=max`: they fit one table, or a preliminary round sends on a number that can.
fn reaches_final(m: usize, min: usize, max: usize, strict: bool) -> bool {
    (min..=max).contains(&m) || preliminary(m, min, max, strict).is_some()
}

/// The preliminary round for `m` players: the fewest tables whose qualifiers reach a final,
/// one a table (`strict`: one a table in every later round too), else two a table.
fn preliminary(m: usize, min: usize, max: usize, strict: bool) -> Option<RoundPlan> {
    if min == 0 || max < min {
        return None;
    }
    let per: &[usize] = if strict { &PER_TABLE[..1] } else { &PER_TABLE };
    for &per_table in per {
        for tables in m.div_ceil(max).max(1)..=m / min {
            let next = tables * per_table;
            // Fewer go on than sat down, and fewer than the smallest table holds.
            if next < m && per_table < m / tables && reaches_final(next, min, max, strict) {
                return Some(RoundPlan::Preliminary { tables, per_table });
            }
        }
    }
    None
}

/// The round `m` players play, at tables of `min..=max` (the text's "un minimum de trois
/// joueurs et un maximum de six joueurs"): the final once they fit one table after at least
/// one preliminary round ("un *minimum* de deux parties, soit une partie préliminaire et une
/// partie finale"), else a preliminary round whose qualifiers can still be brought to a
/// final of `min..=max`. One goes on from each table whenever that can end in such a final,
/// in every round; else two a table (docs/rules/risk.md, "Tables"). None: `m` players
/// cannot be brought to a final (too few, or tables of one size that never divide them).
pub fn plan_round(m: usize, min: usize, max: usize, first: bool) -> Option<RoundPlan> {
    if !first && (min..=max).contains(&m) {
        return Some(RoundPlan::Final);
    }
    preliminary(m, min, max, true).or_else(|| preliminary(m, min, max, false))
}

/// Every round of a tournament of `n` entrants, when each table sends on as many as its
/// round's plan says: the table sizes of each round, the final's last. None when `n` is
/// refused.
pub fn tournament_rounds(n: usize, min: usize, max: usize) -> Option<Vec<Vec<usize>>> {
    let mut rounds = Vec::new();
    let mut m = n;
    loop {
        match plan_round(m, min, max, rounds.is_empty())? {
            RoundPlan::Final => {
                rounds.push(vec![m]);
                return Some(rounds);
            }
            RoundPlan::Preliminary { tables, per_table } => {
                rounds.push(table_sizes(m, tables));
                m = tables * per_table;
            }
        }
    }
}

/// The smallest number of entrants a tournament at tables of `min..=max` takes, and its
/// first round's tables.
pub fn fewest_entrants(min: usize, max: usize) -> Option<(usize, usize)> {
    (min.max(1)..=max.max(min) * max.max(min) + 1).find_map(|n| {
        match plan_round(n, min, max, true) {
            Some(RoundPlan::Preliminary { tables, .. }) => Some((n, tables)),
            _ => None,
        }
    })
}

/// The nearest entrant counts below and above `n` that a tournament at tables of
/// `min..=max` takes (for a refusal's hint).
pub fn nearest_entrants(n: usize, min: usize, max: usize) -> (Option<usize>, Option<usize>) {
    let ok = |k: usize| plan_round(k, min, max, true).is_some();
    let below = (1..n).rev().find(|&k| ok(k));
    let above = (n + 1..=n.saturating_mul(3).max(n + 2 * max + 2)).find(|&k| ok(k));
    (below, above)
}

/// `n` players at `tables` tables, sizes as even as possible (they differ by one at most).
fn table_sizes(n: usize, tables: usize) -> Vec<usize> {
    let tables = tables.max(1);
    let (base, extra) = (n / tables, n % tables);
    (0..tables).map(|t| base + usize::from(t < extra)).collect()
}

/// Seat `players` at `tables` tables, sizes as even as possible, in the order given (the
/// caller shuffles).
pub fn seat_tables(players: &[String], tables: usize) -> Vec<Vec<String>> {
    let mut out = Vec::new();
    let mut i = 0;
    for size in table_sizes(players.len(), tables) {
        out.push(players[i..i + size].to_vec());
        i += size;
    }
    out
}

/// Who goes on from a finished table: "S'il y a un gagnant incontestable (un joueur qui a
/// éliminé tous ses adversaires), il passe à la prochaine partie ... Le joueur le plus
/// puissant (celui qui occupe le plus de territoires) passe". The game's outcome names
/// that player (Risk's `turn_limit` ends on the most territories, and plays on while they
/// tie: "Dans le cas d'une égalité, la partie est prolongée"). A table that ended with no
/// single winner (the game master's END, a shared result) sends on the one with the best
/// score, else the first seat still playing: written in docs/rules/risk.md.
pub fn qualifier(r: &GameResult) -> Option<String> {
    let winners: Vec<&Place> = r.places.iter().filter(|p| p.won).collect();
    if winners.len() == 1 {
        return Some(winners[0].address.clone());
    }
    let pool: Vec<&Place> = if winners.is_empty() {
        r.places.iter().filter(|p| !p.resigned).collect()
    } else {
        winners
    };
    let best = pool.iter().filter_map(|p| p.score).max();
    pool.iter()
        .find(|p| best.is_none() || p.score == best)
        .map(|p| p.address.clone())
}

/// The best `k` of a finished table, best first: its `qualifier`, then the others by score
/// (territories: "le joueur le plus puissant"), those who resigned last, then in seat order
/// (docs/rules/risk.md, "Qualification").
pub fn qualifiers(r: &GameResult, k: usize) -> Vec<String> {
    let mut out: Vec<String> = qualifier(r).into_iter().collect();
    let mut rest: Vec<(usize, &Place)> = r
        .places
        .iter()
        .enumerate()
        .filter(|(_, p)| !out.contains(&p.address))
        .collect();
    rest.sort_by_key(|(i, p)| (p.resigned, std::cmp::Reverse(p.score), !p.won, *i));
    out.extend(rest.into_iter().map(|(_, p)| p.address.clone()));
    out.truncate(k);
    out
}

/// A deterministic shuffle from the handling's entropy (Fisher–Yates over SHA-256 bytes).
fn shuffle(v: &mut [String], seed: [u8; 32]) {
    let mut bytes = seed;
    let mut k = 0;
    for i in (1..v.len()).rev() {
        if k + 2 > bytes.len() {
            bytes = castellan_engine::dice::sha256(&bytes);
            k = 0;
        }
        let r = usize::from(u16::from_be_bytes([bytes[k], bytes[k + 1]]));
        k += 2;
        v.swap(i, r % (i + 1));
    }
}

/// The standings mail's context (`templates/LANG/standings.txt`).
#[derive(Clone, Debug, Serialize)]
pub(crate) struct StandingsMail {
    pub campaign: String,
    pub name: String,
    pub scoring: &'static str,
    pub scoring_fr: &'static str,
    pub standings: Vec<Standing>,
    pub last: Option<String>,
    pub last_fr: Option<String>,
    pub tournament: bool,
    pub round: u32,
    pub is_final: bool,
    pub tables: Vec<String>,
    pub winner: Option<String>,
}

impl StandingsMail {
    pub(crate) fn of(c: &CampaignRecord) -> StandingsMail {
        let t = c.tournament.as_ref();
        StandingsMail {
            campaign: c.id.clone(),
            name: c.name.clone(),
            scoring: c.scoring.as_str(),
            scoring_fr: c.scoring.fr(),
            standings: c.standings(),
            last: c.history.last().map(|e| e.en.clone()),
            last_fr: c.history.last().map(|e| e.fr.clone()),
            tournament: t.is_some(),
            round: t.map_or(0, |t| t.round),
            is_final: t.is_some_and(|t| t.is_final),
            tables: t.map(|t| t.tables.clone()).unwrap_or_default(),
            winner: t
                .and_then(|t| t.winner.clone())
                .filter(|w| !w.is_empty())
                .map(|w| c.names.get(&w).cloned().unwrap_or(w)),
        }
    }
}

#[cfg(test)]
mod tests;
