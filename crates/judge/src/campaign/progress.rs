//! A campaign moved on as its games end: each game's result scored, the standings
//! mailed, a tournament's next round seated.

use super::*;
use crate::run::*;

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
            .flat_map(|r| qualifiers(r, t.per_table.max(1)))
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
        if let Err(e) = self.seat_round(c, qualified, t.round + 1) {
            c.event(
                now,
                format!("the next round cannot be seated: {e}"),
                format!("le tour suivant ne peut pas être placé : {e}"),
            );
        }
    }

    /// Seat `players` for round `round` (`plan_round`) and create (and start) its games.
    /// Qualifiers that no plan takes (tables that ended with nobody to send on: every seat
    /// resigned) play the final if they fit one table, else as few tables as fit them.
    pub(crate) fn seat_round(
        &mut self,
        c: &mut CampaignRecord,
        mut players: Vec<String>,
        round: u32,
    ) -> Result<(), String> {
        let t = c.tournament.clone().ok_or("not a tournament")?;
        let n = players.len();
        let plan = round_plan(&t, n, round)?;
        let seed = self.derive(&format!("seat/{}/{round}", c.id));
        shuffle(&mut players, seed);
        let (is_final, per_table, tables) = match plan {
            RoundPlan::Final => (true, 1, vec![players]),
            RoundPlan::Preliminary { tables, per_table } => {
                (false, per_table, seat_tables(&players, tables))
            }
        };
        // The first round of a tournament made by mail spends the server's budget of new
        // games this hour, all its tables at once (crate::optin).
        if round == 1 && c.by_mail && !self.consent {
            let limit = self.j.config.new_games_per_hour;
            let n = u32::try_from(tables.len()).unwrap_or(u32::MAX);
            if !self
                .spend_budget(crate::optin::NEW_GAMES, n, limit)
                .map_err(|e| e.to_string())?
            {
                return Err(format!(
                    "its {n} tables are more than the new games the judge may still make by \
                     mail this hour (at most {limit} an hour, for everyone)"
                ));
            }
        }
        let limit = if is_final {
            t.final_turn_limit
        } else {
            t.turn_limit
        };
        let mut ids = Vec::new();
        for table in tables {
            let id = self.seat_table(c, &t, &table, limit)?;
            c.games.push(id.clone());
            ids.push(id);
        }
        let now = self.now();
        let (what, quoi) = match (is_final, per_table) {
            (true, _) => ("the final".to_string(), "la finale".to_string()),
            (false, 1) => ("preliminary".to_string(), "préliminaire".to_string()),
            (false, k) => (
                format!("preliminary, the best {k} of each table go on"),
                format!("préliminaire, les {k} meilleurs de chaque table passent"),
            ),
        };
        c.event(
            now,
            format!("round {round} ({what}) seated: {}", ids.join(", ")),
            format!("tour {round} ({quoi}) placé : {}", ids.join(", ")),
        );
        if let Some(t) = c.tournament.as_mut() {
            t.round = round;
            t.is_final = is_final;
            t.per_table = per_table;
            t.tables = ids;
        }
        Ok(())
    }

    /// One table of a tournament's round made: a game of the campaign's kind for the
    /// players of `table`, with the round's limit and the tournament's options; its id.
    fn seat_table(
        &mut self,
        c: &CampaignRecord,
        t: &Tournament,
        table: &[String],
        limit: u32,
    ) -> Result<String, String> {
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
        // The judge seats a tournament's tables round after round: in a tournament the
        // operator runs they do not wait for confirmations (its naming is consent); in
        // one made by mail each named player confirms its seat (docs/rules/absence.md).
        let given = self.consent || !c.by_mail;
        let consent = std::mem::replace(&mut self.consent, given);
        let seating = std::mem::replace(&mut self.seating, true);
        let created = self.create(&c.gm, &c.game, &args);
        self.consent = consent;
        self.seating = seating;
        let id = created.map_err(|e| format!("{e:?}"))?;
        self.with_game(&id, |run, g| run.settle(g))
            .map_err(|e| e.to_string())?;
        Ok(id)
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

/// How round `round` of tournament `t` seats its `n` players: the first round must lead
/// to a final; a later one that cannot is a final if one table holds everyone, else a
/// round of tables of at most `table_max` where each table's best goes on.
fn round_plan(t: &Tournament, n: usize, round: u32) -> Result<RoundPlan, String> {
    Ok(match plan_round(n, t.table_min, t.table_max, round == 1) {
        Some(p) => p,
        None if round == 1 => {
            return Err(format!(
                "{n} players cannot sit at tables of {} to {} down to a final",
                t.table_min, t.table_max
            ))
        }
        None if n <= t.table_max => RoundPlan::Final,
        None => RoundPlan::Preliminary {
            tables: n.div_ceil(t.table_max.max(1)),
            per_table: 1,
        },
    })
}
