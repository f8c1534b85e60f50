//! A tournament's campaign: its arguments read and checked, its first round seated
//! (CAMPAIGN NEW ... tournament=GAME players=...).

use super::*;

/// The seed's time limits in rounds, at the judge's measure of one round for its "30
/// minutes" (docs/rules/risk.md, "Time limit"): "La première partie préliminaire, d'une durée
/// limite de 2 heures" is 4 rounds; the final's "une limite de 3 h 30 est recommandée" is 7.
pub(crate) const TOURNAMENT_TURN_LIMIT: u32 = 4;
pub(crate) const TOURNAMENT_FINAL_TURN_LIMIT: u32 = 7;

/// What a tournament's arguments say.
struct TournamentArgs {
    game: String,
    players: Vec<(String, String)>,
    /// None: not given (the seed's limit when the game has one).
    turn_limit: Option<u32>,
    final_turn_limit: Option<u32>,
    table_max: usize,
    options: Vec<(String, String)>,
    /// CREATE arguments of the judge's own (language, deadlines) for every table.
    judge_args: Vec<String>,
}

/// A tournament opened: its first round's tables, and its round limits (preliminary,
/// final, whether the game keeps one).
pub(super) struct Opened {
    pub(super) tables: Vec<String>,
    pub(super) limits: (u32, u32, bool),
}

impl Run<'_> {
    /// The tournament `game` of campaign `c`, from the CAMPAIGN NEW arguments `args`: its
    /// players and tables checked, its first round seated. The tables seated, and the
    /// round limits (preliminary, final, whether the game keeps one).
    pub(super) fn open_tournament(
        &mut self,
        c: &mut CampaignRecord,
        game: &str,
        args: &[String],
    ) -> Result<Opened, CampaignError> {
        let t = self.tournament_args(game, args)?;
        let info = self.info(&t.game).copied().expect("checked");
        let table_min = 3.max(info.min_seats);
        let table_max = t.table_max.min(info.max_seats);
        let n = t.players.len();
        // A preliminary round and a final, every table of table_min..=table_max
        // (campaign::plan_round; docs/rules/risk.md, "Players").
        if plan_round(n, table_min, table_max, true).is_none() {
            let error = match fewest_entrants(table_min, table_max) {
                Some((needs, tables)) if n < needs => CampaignError::TooFewPlayers {
                    players: n,
                    needs,
                    tables,
                    table: table_min,
                },
                None => CampaignError::TooFewPlayers {
                    players: n,
                    needs: 2 * table_min,
                    tables: 2,
                    table: table_min,
                },
                Some(_) => {
                    let (below, above) = nearest_entrants(n, table_min, table_max);
                    CampaignError::NoFinal {
                        players: n,
                        table_min,
                        table_max,
                        below,
                        above,
                    }
                }
            };
            return Err(error);
        }
        c.game = t.game.clone();
        let has_limit = (info.options)()
            .as_object()
            .is_some_and(|m| m.contains_key("turn_limit"));
        let limits = (
            t.turn_limit.unwrap_or(0),
            t.final_turn_limit.unwrap_or(0),
            has_limit,
        );
        for (n, a) in &t.players {
            c.players.push(a.clone());
            c.names.insert(a.clone(), n.clone());
        }
        c.tournament = Some(Tournament {
            table_min,
            table_max,
            turn_limit: t.turn_limit.unwrap_or(0),
            final_turn_limit: t.final_turn_limit.unwrap_or(0),
            options: t.options,
            judge_args: t.judge_args,
            round: 0,
            is_final: false,
            per_table: 1,
            tables: Vec::new(),
            winner: None,
        });
        let players = c.players.clone();
        if let Err(why) = self.seat_round(c, players, 1) {
            return Err(CampaignError::Seating { why });
        }
        let tables = c
            .tournament
            .as_ref()
            .map(|t| t.tables.clone())
            .unwrap_or_default();
        Ok(Opened { tables, limits })
    }

    fn tournament_args(
        &self,
        game: &str,
        args: &[String],
    ) -> Result<TournamentArgs, CampaignError> {
        if self.info(game).is_none() {
            return Err(CampaignError::UnknownGame {
                given: game.to_string(),
                known: self.j.games.iter().map(|g| g.name.to_string()).collect(),
            });
        }
        let mut t = TournamentArgs {
            game: game.to_string(),
            players: Vec::new(),
            turn_limit: None,
            final_turn_limit: None,
            table_max: 6,
            options: Vec::new(),
            judge_args: Vec::new(),
        };
        for a in args {
            let (k, v) = a.split_once('=').unwrap_or((a, ""));
            let num = |key: &str| {
                v.parse::<u32>().map_err(|_| CampaignError::BadNumber {
                    key: key.to_string(),
                    value: v.to_string(),
                })
            };
            match lower(k).replace('_', "-").as_str() {
                "players" | "player" | "joueurs" => t.add_players(v)?,
                "turn-limit" => t.turn_limit = Some(num("turn-limit")?),
                "final-turn-limit" => t.final_turn_limit = Some(num("final-turn-limit")?),
                "table-max" => {
                    t.table_max = num("table-max")?.clamp(3, 6) as usize;
                }
                // The judge's own CREATE keys go to every table as they are.
                "language" | "langue" | "deadline" | "reminder" | "grace" => {
                    t.judge_args.push(a.clone())
                }
                k if k.starts_with("deadline-") => t.judge_args.push(a.clone()),
                _ => t.options.push((k.to_string(), v.to_string())),
            }
        }
        // The tables' options must be the game's (checked now, not at each round).
        let info = self.info(game).expect("checked");
        let mut pairs: Vec<(String, String)> = t.options.clone();
        let known = (info.options)();
        let limited = known
            .as_object()
            .is_some_and(|m| m.contains_key("turn_limit"));
        if t.turn_limit.unwrap_or(0) > 0 || t.final_turn_limit.unwrap_or(0) > 0 {
            pairs.push(("turn-limit".into(), "1".into()));
        }
        // Not given: the seed's limits, where the game keeps a round limit.
        if limited {
            t.turn_limit.get_or_insert(TOURNAMENT_TURN_LIMIT);
            t.final_turn_limit
                .get_or_insert(TOURNAMENT_FINAL_TURN_LIMIT);
        }
        for (k, _) in &pairs {
            let norm = k.replace('-', "_");
            if !known.as_object().is_some_and(|m| m.contains_key(&norm)) {
                return Err(CampaignError::BadOption {
                    key: k.clone(),
                    game: game.to_string(),
                });
            }
        }
        Ok(t)
    }
}

impl TournamentArgs {
    /// `players=Name:address,...` (or bare addresses, named by their local part): each a
    /// good name and address, no address twice and no two names that read alike.
    fn add_players(&mut self, v: &str) -> Result<(), CampaignError> {
        // The names' look-alike keys and the addresses seen so far, so a long
        // list costs one skeleton a name, not one a pair.
        let mut keys: std::collections::HashSet<String> = self
            .players
            .iter()
            .flat_map(|(pn, _)| crate::ident::name_keys(pn))
            .collect();
        let mut addresses: std::collections::HashSet<String> =
            self.players.iter().map(|(_, a)| a.clone()).collect();
        for p in v.split(',').filter(|p| !p.trim().is_empty()) {
            let address = |a: &str| crate::ident::canonical_address(a).unwrap_or_default();
            let (n, addr) = match p.split_once(':') {
                Some((n, a)) => (n.trim().to_string(), address(a)),
                None => {
                    let a = address(p);
                    let n = capitalise(a.split('@').next().unwrap_or("player"));
                    (n, a)
                }
            };
            let ok = addr.contains('@') && !n.is_empty();
            let name = crate::limits::clean_name(&n).ok().filter(|_| ok);
            let fresh = |n: &str| {
                let k = crate::ident::name_keys(n);
                (!addresses.contains(&addr) && !k.iter().any(|k| keys.contains(k))).then_some(k)
            };
            match name.as_deref().and_then(|n| fresh(n).map(|k| (n, k))) {
                Some((n, k)) => {
                    // Two names read alike when either key is the same.
                    keys.extend(k);
                    addresses.insert(addr.clone());
                    self.players.push((n.to_string(), addr))
                }
                _ => {
                    return Err(CampaignError::BadPlayer {
                        given: crate::limits::clip(&crate::limits::clean_text(p), 80),
                    })
                }
            }
        }
        Ok(())
    }
}
