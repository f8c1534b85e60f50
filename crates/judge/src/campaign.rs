//! Campaigns and the Risk tournament (issue 15).
//!
//! A campaign groups games and players under one game master, with a scoring rule of its
//! own ([`Scoring`]); its standings are mailed to every player and the game master each
//! time one of its games ends. A tournament is a campaign whose games the judge seats
//! itself, round after round, as the Risk rules text organises one ("ORGANISATION D'UN
//! TOURNOI", seeds/003; decisions in docs/rules/risk.md): tables of 3 to 6, preliminary
//! rounds whose table winners go on, then a final.
//!
//! Pure like the rest of the judge: what happens is worked out here and written through
//! [`Changes::campaigns`](crate::Changes) in the handling's one transaction.

use crate::model::*;
use crate::run::*;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

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

/// Seat `players` at tables of `min..=max`: as few tables as `max` allows, sizes as even as
/// possible (they differ by one at most), in the order given (the caller shuffles). Too few
/// players for one table is an error saying so.
pub fn seat_tables(players: &[String], min: usize, max: usize) -> Result<Vec<Vec<String>>, String> {
    let n = players.len();
    if max == 0 || min > max {
        return Err(format!("tables of {min} to {max} players cannot be seated"));
    }
    if n < min {
        return Err(format!("{n} players cannot fill a table of at least {min}"));
    }
    let tables = n.div_ceil(max);
    if n / tables < min {
        return Err(format!(
            "{n} players cannot sit at tables of {min} to {max}"
        ));
    }
    let (base, extra) = (n / tables, n % tables);
    let mut out = Vec::new();
    let mut i = 0;
    for t in 0..tables {
        let size = base + usize::from(t < extra);
        out.push(players[i..i + size].to_vec());
        i += size;
    }
    Ok(out)
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

impl Run<'_> {
    /// A campaign from the working set, else the store.
    pub(crate) fn take_campaign(&mut self, id: &str) -> Result<Option<CampaignRecord>, StoreError> {
        let id = lower(id);
        if let Some(c) = self.campaigns.remove(&id) {
            return Ok(Some(c));
        }
        self.store.campaign(&id)
    }

    pub(crate) fn put_campaign(&mut self, c: CampaignRecord) {
        self.campaigns.insert(c.id.clone(), c);
    }

    pub(crate) fn next_campaign_id(&self) -> Result<String, StoreError> {
        let mut max = 0u64;
        let ids = self.store.campaign_ids()?;
        for id in ids.iter().chain(self.campaigns.keys()) {
            if let Some(n) = id.rsplit('-').next().and_then(|n| n.parse::<u64>().ok()) {
                max = max.max(n);
            }
        }
        Ok(format!("campaign-{}", max + 1))
    }

    /// The result of a finished game, from its record and session.
    fn result_of(&self, g: &Loaded, round: u32) -> GameResult {
        let winners = g
            .session
            .as_ref()
            .and_then(|s| s.outcome())
            .map(|o| o.winners)
            .unwrap_or_default();
        let scores = g.session.as_ref().and_then(|s| s.scores());
        let outcome = g.session.as_ref().and_then(|s| s.outcome());
        let names: Vec<String> = winners.iter().map(|w| seat_name(&g.rec, *w)).collect();
        let ended_fr = match &outcome {
            Some(o) if !names.is_empty() => format!(
                "{} {} ({})",
                names.join(" et "),
                if names.len() > 1 {
                    "ont gagné"
                } else {
                    "a gagné"
                },
                o.reason_fr.as_deref().unwrap_or(&o.reason)
            ),
            Some(o) => format!("égalité ({})", o.reason_fr.as_deref().unwrap_or(&o.reason)),
            None => "arrêtée par le maître de jeu".to_string(),
        };
        GameResult {
            game: g.rec.id.clone(),
            round,
            places: g
                .rec
                .seats
                .iter()
                .enumerate()
                .filter_map(|(i, s)| {
                    Some(Place {
                        address: lower(s.address.as_deref()?),
                        name: s.name.clone(),
                        won: winners.contains(&i),
                        resigned: s.resigned,
                        score: scores.as_ref().and_then(|v| v.get(i).copied()),
                    })
                })
                .collect(),
            ended: g.rec.ended.clone().unwrap_or_default(),
            ended_fr,
        }
    }

    /// Games that ended in this handling: their campaigns record the result, mail the
    /// standings, and a tournament seats its next round when the round is over.
    pub(crate) fn campaigns_after_games(&mut self) -> Result<(), StoreError> {
        let ended: Vec<String> = self
            .games
            .iter()
            .filter(|(id, g)| {
                g.rec.status == Status::Finished
                    && self
                        .basis
                        .get(*id)
                        .is_none_or(|b| b.status() != Status::Finished)
            })
            .map(|(id, _)| id.clone())
            .collect();
        if ended.is_empty() {
            return Ok(());
        }
        let mut ids = self.store.campaign_ids()?;
        for k in self.campaigns.keys() {
            if !ids.contains(k) {
                ids.push(k.clone());
            }
        }
        for cid in ids {
            let Some(mut c) = self.take_campaign(&cid)? else {
                continue;
            };
            let mine: Vec<String> = ended
                .iter()
                .filter(|g| c.games.contains(g) && !c.results.iter().any(|r| &r.game == *g))
                .cloned()
                .collect();
            if mine.is_empty() {
                self.put_campaign(c);
                continue;
            }
            for gid in &mine {
                let round = c.tournament.as_ref().map_or(0, |t| t.round);
                let r = self.result_of(&self.games[gid], round);
                for p in &r.places {
                    c.names.entry(p.address.clone()).or_insert(p.name.clone());
                    if !c.players.contains(&p.address) {
                        c.players.push(p.address.clone());
                    }
                }
                let now = self.now();
                c.event(
                    now,
                    format!("{gid} ended: {}", r.ended),
                    format!("{gid} est finie : {}", r.ended_fr),
                );
                c.results.push(r);
            }
            if c.tournament.is_some() {
                self.tournament_step(&mut c);
            }
            self.mail_standings(&c);
            self.put_campaign(c);
        }
        Ok(())
    }

    /// Every table of the round has ended: the qualifiers go on to the next round (another
    /// preliminary while they do not fit one table, else the final), or the final's
    /// winner wins the tournament.
    fn tournament_step(&mut self, c: &mut CampaignRecord) {
        let Some(t) = c.tournament.clone() else {
            return;
        };
        if t.winner.is_some()
            || !t
                .tables
                .iter()
                .all(|g| c.results.iter().any(|r| &r.game == g))
        {
            return;
        }
        let qualified: Vec<String> = t
            .tables
            .iter()
            .filter_map(|g| c.results.iter().find(|r| &r.game == g))
            .filter_map(qualifier)
            .collect();
        let now = self.now();
        let name = |a: &String| c.names.get(a).cloned().unwrap_or_else(|| a.clone());
        if t.is_final || qualified.len() <= 1 {
            let winner = qualified.first().cloned();
            if let Some(w) = &winner {
                let n = name(w);
                c.event(
                    now,
                    format!("{n} wins the tournament"),
                    format!("{n} remporte le tournoi"),
                );
            }
            if let Some(t) = c.tournament.as_mut() {
                t.winner = winner.or(Some(String::new()));
            }
            return;
        }
        let names: Vec<String> = qualified.iter().map(name).collect();
        c.event(
            now,
            format!("round {} over; going on: {}", t.round, names.join(", ")),
            format!(
                "tour {} terminé ; qualifiés : {}",
                t.round,
                names.join(", ")
            ),
        );
        let is_final = qualified.len() <= t.table_max;
        if let Err(e) = self.seat_round(c, qualified, t.round + 1, is_final) {
            c.event(
                now,
                format!("the next round cannot be seated: {e}"),
                format!("le tour suivant ne peut pas être placé : {e}"),
            );
        }
    }

    /// Seat `players` for round `round` and create (and start) its games.
    pub(crate) fn seat_round(
        &mut self,
        c: &mut CampaignRecord,
        mut players: Vec<String>,
        round: u32,
        is_final: bool,
    ) -> Result<(), String> {
        let t = c.tournament.clone().ok_or("not a tournament")?;
        let seed = self.derive(&format!("seat/{}/{round}", c.id));
        shuffle(&mut players, seed);
        let tables = if is_final {
            vec![players]
        } else {
            seat_tables(&players, t.table_min, t.table_max)?
        };
        let limit = if is_final {
            t.final_turn_limit
        } else {
            t.turn_limit
        };
        let mut ids = Vec::new();
        for table in tables {
            let mut args: Vec<String> = table
                .iter()
                .map(|a| {
                    let n = c.names.get(a).cloned().unwrap_or_else(|| {
                        crate::cmd::capitalise(a.split('@').next().unwrap_or("player"))
                    });
                    format!("player={n}:{a}")
                })
                .collect();
            if limit > 0 {
                args.push(format!("turn-limit={limit}"));
            }
            args.extend(t.options.iter().map(|(k, v)| format!("{k}={v}")));
            args.extend(t.judge_args.iter().cloned());
            let id = self
                .create(&c.gm, &c.game, &args)
                .map_err(|e| format!("{e:?}"))?;
            if let Some(mut g) = self.games.remove(&id) {
                self.settle(&mut g);
                self.games.insert(id.clone(), g);
            }
            c.games.push(id.clone());
            ids.push(id);
        }
        let now = self.now();
        let what = if is_final { "the final" } else { "preliminary" };
        let quoi = if is_final {
            "la finale"
        } else {
            "préliminaire"
        };
        c.event(
            now,
            format!("round {round} ({what}) seated: {}", ids.join(", ")),
            format!("tour {round} ({quoi}) placé : {}", ids.join(", ")),
        );
        if let Some(t) = c.tournament.as_mut() {
            t.round = round;
            t.is_final = is_final;
            t.tables = ids;
        }
        Ok(())
    }

    /// The standings to every player of the campaign and its game master, each in the
    /// language of their last game (else the server's).
    fn mail_standings(&mut self, c: &CampaignRecord) {
        let mut to: Vec<String> = c.players.clone();
        if !to.contains(&c.gm) {
            to.push(c.gm.clone());
        }
        for a in to {
            let lang = c
                .games
                .iter()
                .rev()
                .find_map(|g| {
                    let l = self.games.get(g)?;
                    l.rec.seat_of(&a).map(|s| self.seat_lang(&l.rec, s))
                })
                .unwrap_or(self.j.config.language);
            let ctx = StandingsMail::of(c);
            self.send(&a, lang, "standings", &ctx, &c.id, None);
        }
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
mod tests {
    use super::*;

    fn players(n: usize) -> Vec<String> {
        (0..n).map(|i| format!("p{i}@example.org")).collect()
    }

    /// "Chaque table doit accueillir un minimum de trois joueurs et un maximum de six
    /// joueurs": 24 players sit at 4 tables of 6, 25 at 5 tables of 5, 9 at 2 of 4 and 5
    /// (as few tables as possible), never below 3 or above 6.
    #[test]
    fn tables_hold_three_to_six_players_as_even_as_possible() {
        for n in 3..=96 {
            let t = seat_tables(&players(n), 3, 6).unwrap();
            assert_eq!(t.iter().map(Vec::len).sum::<usize>(), n);
            assert!(t.iter().all(|x| (3..=6).contains(&x.len())), "{n}: {t:?}");
            let (lo, hi) = (
                t.iter().map(Vec::len).min().unwrap(),
                t.iter().map(Vec::len).max().unwrap(),
            );
            assert!(hi - lo <= 1, "{n}");
            assert_eq!(t.len(), n.div_ceil(6), "{n}");
        }
        assert_eq!(
            seat_tables(&players(24), 3, 6)
                .unwrap()
                .iter()
                .map(Vec::len)
                .collect::<Vec<_>>(),
            vec![6, 6, 6, 6]
        );
        assert!(seat_tables(&players(2), 3, 6).is_err());
        // A game of 3 seats only (the toy race): 9 players at 3 tables of 3.
        assert_eq!(seat_tables(&players(9), 3, 3).unwrap().len(), 3);
        assert!(seat_tables(&players(4), 3, 3).is_err());
    }

    fn place(a: &str, won: bool, score: Option<i64>) -> Place {
        Place {
            address: a.into(),
            name: a.into(),
            won,
            resigned: false,
            score,
        }
    }

    /// "S'il y a un gagnant incontestable ... il passe"; otherwise "Le joueur le plus
    /// puissant (celui qui occupe le plus de territoires) passe".
    #[test]
    fn the_table_winner_or_the_strongest_goes_on() {
        let r = |places| GameResult {
            game: "risk-1".into(),
            round: 1,
            places,
            ended: String::new(),
            ended_fr: String::new(),
        };
        let won = r(vec![
            place("a", false, Some(20)),
            place("b", true, Some(10)),
        ]);
        assert_eq!(qualifier(&won).as_deref(), Some("b"));
        let ended = r(vec![
            place("a", false, Some(12)),
            place("b", false, Some(30)),
        ]);
        assert_eq!(qualifier(&ended).as_deref(), Some("b"));
    }

    #[test]
    fn standings_add_points_by_the_campaigns_scoring() {
        let mut c = CampaignRecord {
            id: "campaign-1".into(),
            name: "Winter".into(),
            gm: "gm@example.org".into(),
            gm_password_hash: String::new(),
            salt: String::new(),
            scoring: Scoring::Wins,
            game: String::new(),
            players: vec!["a".into(), "b".into(), "c".into()],
            names: BTreeMap::new(),
            games: vec![],
            results: vec![
                GameResult {
                    game: "g-1".into(),
                    round: 0,
                    places: vec![
                        place("a", true, Some(5)),
                        place("b", false, Some(9)),
                        place("c", false, Some(1)),
                    ],
                    ended: String::new(),
                    ended_fr: String::new(),
                },
                GameResult {
                    game: "g-2".into(),
                    round: 0,
                    places: vec![place("b", true, Some(2)), place("c", false, Some(1))],
                    ended: String::new(),
                    ended_fr: String::new(),
                },
            ],
            history: vec![],
            tournament: None,
            created: 0,
        };
        let s = c.standings();
        // a and b both won one; a in fewer games ranks first.
        assert_eq!((s[0].address.as_str(), s[0].points), ("a", 1));
        assert_eq!((s[1].address.as_str(), s[1].points, s[1].rank), ("b", 1, 2));
        assert_eq!((s[2].address.as_str(), s[2].points, s[2].rank), ("c", 0, 3));
        c.scoring = Scoring::Placings;
        let s = c.standings();
        // b: 1 + 2 = 3; a: 3; c: 1 + 1 = 2.
        assert_eq!(s[0].points, 3);
        assert_eq!(s[2].address, "c");
        c.scoring = Scoring::Score;
        let s = c.standings();
        assert_eq!((s[0].address.as_str(), s[0].points), ("b", 11));
    }
}
