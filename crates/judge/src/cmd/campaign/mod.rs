//! CAMPAIGN and STANDINGS (CAMPAGNE, PALMARÈS): campaigns and tournaments.
//!
//! ```text
//! CAMPAIGN NEW Winter league [scoring=wins|placings|score]
//! CAMPAIGN NEW Spring cup tournament=risk players=Anna:anna@x,Bob:bob@x,... [turn-limit=4]
//!          [final-turn-limit=7] [table-max=6] [scoring=...] [any option of the game]
//! CAMPAIGN campaign-1 password ADD race-4
//! STANDINGS campaign-1
//! HISTORY campaign-1          (cmd/info.rs hands a campaign's id here)
//! ```
//! French: CAMPAGNE NOUVELLE ..., CAMPAGNE campaign-1 mot-de-passe AJOUTER race-4,
//! PALMARÈS campaign-1.

use crate::campaign::*;
use crate::clock::format_long_in;
use crate::cmd::*;
use crate::model::*;
use crate::password::{keyed, verify, Kind, Verdict};
use crate::run::*;

mod tournament;

/// A CAMPAIGN line, parsed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum CampaignCmd {
    /// NEW name, then `key=value` arguments.
    New { name: String, args: Vec<String> },
    /// id password ADD game-id
    Add {
        campaign: String,
        password: String,
        game: String,
    },
}

/// Why a CAMPAIGN line is refused before anything is looked up.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
#[serde(tag = "error", rename_all = "snake_case")]
pub(crate) enum CampaignError {
    BadScoring {
        given: String,
    },
    UnknownGame {
        given: String,
        known: Vec<String>,
    },
    BadNumber {
        key: String,
        value: String,
    },
    BadPlayer {
        given: String,
    },
    /// Fewer players than the smallest tournament: `tables` tables of `table`, then a final.
    TooFewPlayers {
        players: usize,
        needs: usize,
        tables: usize,
        table: usize,
    },
    /// A count no round of tables of `table_min..=table_max` brings to a final of that size
    /// (tables of one size only); `below` and `above` are the nearest counts that work.
    NoFinal {
        players: usize,
        table_min: usize,
        table_max: usize,
        below: Option<usize>,
        above: Option<usize>,
    },
    /// The players cannot be seated (the game refused a table).
    Seating {
        why: String,
    },
    /// An option the tournament's game does not have.
    BadOption {
        key: String,
        game: String,
    },
    /// `key=value` arguments for a campaign that is not a tournament.
    NotATournament {
        arg: String,
    },
}

/// What CAMPAIGN, STANDINGS and a campaign's HISTORY answer
/// (templates/LANG/answers/campaign.txt).
#[derive(Clone, Debug, serde::Serialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub(crate) enum CampaignAnswer {
    Created {
        campaign: String,
        name: String,
        scoring: &'static str,
        scoring_fr: &'static str,
        password: String,
        tournament: bool,
        tables: Vec<String>,
        /// Each preliminary game's round limit and the final's (0: none).
        turn_limit: u32,
        final_turn_limit: u32,
        /// Whether the tournament's game has a round limit at all.
        limited: bool,
    },
    Added {
        campaign: String,
        game: String,
    },
    Standings(StandingsMail),
    History {
        campaign: String,
        name: String,
        lines: Vec<HistoryLine>,
    },
    NoCampaign {
        campaign: String,
    },
    WrongPassword {
        campaign: String,
    },
    /// A credential of this mail was wrong already, or its Argon2id check was spent: the
    /// campaign's password was not checked (one try per mail).
    OneTryPerMail {
        campaign: String,
    },
    /// Too many wrong passwords for the campaign this hour.
    Locked {
        campaign: String,
    },
    NoGame {
        game: String,
    },
    /// The game has another game master than the campaign's.
    NotYourGame {
        game: String,
    },
    Refused {
        quoted: String,
        error: CampaignError,
    },
}

#[derive(Clone, Debug, serde::Serialize)]
pub(crate) struct HistoryLine {
    pub date: String,
    pub text: String,
}

/// CAMPAIGN NEW name [key=value ...] | CAMPAIGN id password ADD game-id
pub(crate) fn parse(a: &Args) -> Result<Command, CmdError> {
    let w = &a.words;
    let is = |i: usize, en: &str, fr: &str| {
        w.get(i)
            .is_some_and(|x| x.eq_ignore_ascii_case(en) || x.eq_ignore_ascii_case(fr))
    };
    if is(0, "NEW", "NOUVELLE") {
        let (args, name): (Vec<&str>, Vec<&str>) = w[1..].iter().partition(|x| x.contains('='));
        return Ok(Command::Campaign(CampaignCmd::New {
            name: name.join(" "),
            args: args.iter().map(|s| s.to_string()).collect(),
        }));
    }
    if w.len() == 4 && is(2, "ADD", "AJOUTER") {
        return Ok(Command::Campaign(CampaignCmd::Add {
            campaign: w[0].to_lowercase(),
            password: w[1].to_string(),
            game: w[3].to_lowercase(),
        }));
    }
    Err(CmdError::CampaignArgs)
}

impl Run<'_> {
    pub(crate) fn campaign_command(
        &mut self,
        from: &str,
        cmd: CampaignCmd,
        line: &str,
    ) -> Result<(), StoreError> {
        let lang = self.writer_lang(from);
        let answer = match cmd {
            CampaignCmd::New { name, args } => self.campaign_new(from, &name, &args, line)?,
            CampaignCmd::Add {
                campaign,
                password,
                game,
            } => self.campaign_add(&campaign, Some(&password), &game)?,
        };
        self.answer(lang, "campaign", &answer);
        Ok(())
    }

    pub(crate) fn campaign_new(
        &mut self,
        from: &str,
        name: &str,
        args: &[String],
        line: &str,
    ) -> Result<CampaignAnswer, StoreError> {
        let refuse = |error| CampaignAnswer::Refused {
            quoted: crate::limits::clip(&crate::limits::clean_text(line), 200),
            error,
        };
        let mut scoring = Scoring::Wins;
        let mut tournament: Option<String> = None;
        let mut rest = Vec::new();
        for a in args {
            let (k, v) = a.split_once('=').unwrap_or((a, ""));
            match lower(k).as_str() {
                "scoring" | "score" | "points" => match Scoring::parse(v) {
                    Some(s) => scoring = s,
                    None => {
                        return Ok(refuse(CampaignError::BadScoring {
                            given: v.to_string(),
                        }))
                    }
                },
                "tournament" | "tournoi" => tournament = Some(lower(v)),
                _ => rest.push(a.clone()),
            }
        }
        let name = if name.trim().is_empty() {
            "Campaign".to_string()
        } else {
            crate::limits::clip(&crate::limits::clean_text(name), 60)
        };
        let id = self.next_campaign_id()?;
        let salt = hex::encode(self.derive("campaign-salt"));
        let password = self.random_word("campaign-password", 8);
        let mut c = CampaignRecord {
            id: id.clone(),
            name: name.clone(),
            gm: lower(from),
            gm_password_hash: keyed(&salt, &password),
            salt,
            scoring,
            game: String::new(),
            players: Vec::new(),
            names: Default::default(),
            games: Vec::new(),
            results: Vec::new(),
            history: Vec::new(),
            tournament: None,
            created: self.now(),
            by_mail: !self.consent,
        };
        let now = self.now();
        c.history.push(CampaignEvent {
            at: now,
            // No address: HISTORY of a campaign answers anyone.
            en: format!("{name} created (scoring: {})", scoring.as_str()),
            fr: format!("{name} créée (points : {})", scoring.as_str()),
        });
        let mut tables = Vec::new();
        let mut limits = (0, 0, false);
        if let Some(game) = tournament {
            match self.open_tournament(&mut c, &game, &rest) {
                Ok(opened) => (tables, limits) = (opened.tables, opened.limits),
                Err(e) => return Ok(refuse(e)),
            }
        } else if let Some(a) = rest.first() {
            return Ok(refuse(CampaignError::NotATournament { arg: a.clone() }));
        }
        self.glog(&id, "campaign", format!("{name} created by {}", c.gm));
        let tournament = c.tournament.is_some();
        self.put_campaign(c);
        Ok(CampaignAnswer::Created {
            campaign: id,
            name,
            scoring: scoring.as_str(),
            scoring_fr: scoring.fr(),
            password,
            tournament,
            tables,
            turn_limit: limits.0,
            final_turn_limit: limits.1,
            limited: limits.2,
        })
    }

    /// The campaign password's one try: not checked after a wrong credential
    /// in the mail, past the mail's Argon2id computation, or while locked (ten wrong ones
    /// in the hour). A hash of an earlier format is replaced by the keyed hash.
    fn campaign_password(
        &mut self,
        c: &mut CampaignRecord,
        p: &str,
    ) -> Result<Option<CampaignAnswer>, StoreError> {
        let campaign = c.id.clone();
        let key = crate::auth::campaign_failures_key(&campaign);
        if self.failed_try || !self.slow_allowed(&c.gm_password_hash) {
            return Ok(Some(CampaignAnswer::OneTryPerMail { campaign }));
        }
        if self.locked(&key)? {
            return Ok(Some(CampaignAnswer::Locked { campaign }));
        }
        match verify(&c.gm_password_hash, &c.salt, p, Kind::Drawn) {
            Verdict::Yes => Ok(None),
            Verdict::Upgrade => {
                c.gm_password_hash = keyed(&c.salt, p);
                Ok(None)
            }
            Verdict::No => {
                self.count_failure(&key, crate::auth::MAX_FAILED_TRIES)?;
                Ok(Some(CampaignAnswer::WrongPassword { campaign }))
            }
        }
    }

    /// `password` is None for the operator (`castellan campaign add`).
    pub(crate) fn campaign_add(
        &mut self,
        id: &str,
        password: Option<&str>,
        game: &str,
    ) -> Result<CampaignAnswer, StoreError> {
        let Some(mut c) = self.take_campaign(id)? else {
            return Ok(CampaignAnswer::NoCampaign {
                campaign: id.to_string(),
            });
        };
        if let Some(p) = password {
            if let Some(refusal) = self.campaign_password(&mut c, p)? {
                self.put_campaign(c);
                return Ok(refusal);
            }
        }
        let Some(g) = self.game(game)? else {
            self.put_campaign(c);
            return Ok(CampaignAnswer::NoGame {
                game: game.to_string(),
            });
        };
        let (gid, gm) = (g.rec.id.clone(), lower(&g.rec.gm));
        let seats: Vec<_> = g
            .rec
            .seats
            .iter()
            .map(|s| (s.address.clone(), s.name.clone()))
            .collect();
        let ok = gm == c.gm;
        if ok && !c.games.contains(&gid) {
            c.games.push(gid.clone());
            let now = self.now();
            c.history.push(CampaignEvent {
                at: now,
                en: format!("{gid} joins the campaign"),
                fr: format!("{gid} entre dans la campagne"),
            });
            for (address, name) in seats {
                if let Some(a) = address.as_deref().map(lower) {
                    c.names.entry(a.clone()).or_insert(name);
                    if !c.players.contains(&a) {
                        c.players.push(a);
                    }
                }
            }
        }
        let campaign = c.id.clone();
        self.put_campaign(c);
        Ok(if ok {
            CampaignAnswer::Added {
                campaign,
                game: gid,
            }
        } else {
            CampaignAnswer::NotYourGame { game: gid }
        })
    }

    /// STANDINGS campaign-id (PALMARÈS)
    pub(crate) fn standings_command(&mut self, from: &str, id: &str) -> Result<(), StoreError> {
        let lang = self.writer_lang(from);
        let answer = self.campaign_standings(id)?;
        self.answer(lang, "campaign", &answer);
        Ok(())
    }

    pub(crate) fn campaign_standings(&mut self, id: &str) -> Result<CampaignAnswer, StoreError> {
        Ok(match self.take_campaign(id)? {
            None => CampaignAnswer::NoCampaign {
                campaign: id.to_string(),
            },
            Some(c) => {
                let a = CampaignAnswer::Standings(StandingsMail::of(&c));
                self.put_campaign(c);
                a
            }
        })
    }

    /// The operator's view of an answer (`castellan campaign ...`): the English text
    /// without its first line; a refusal is an error.
    pub(crate) fn campaign_admin_text(
        &mut self,
        a: &CampaignAnswer,
    ) -> Result<String, crate::judge::JudgeError> {
        let text = self.render_in(Lang::En, "answers/campaign.txt", a);
        let body = text
            .split_once('\n')
            .map(|(_, t)| t.trim().to_string())
            .unwrap_or(text);
        match a {
            CampaignAnswer::Created { .. }
            | CampaignAnswer::Added { .. }
            | CampaignAnswer::Standings(_)
            | CampaignAnswer::History { .. } => Ok(body),
            _ => Err(crate::judge::JudgeError::Refused(body)),
        }
    }

    /// HISTORY of a campaign: every line, dated, in the writer's language. `false` when
    /// `id` names no campaign (it is then a game's HISTORY).
    pub(crate) fn campaign_history(&mut self, from: &str, id: &str) -> Result<bool, StoreError> {
        let Some(c) = self.take_campaign(id)? else {
            return Ok(false);
        };
        let lang = self.writer_lang(from);
        // HISTORY answers anyone: no address in it. Lines stored before said
        // "created by <the organiser's address>", and a player without a name was told by
        // address: each address is told as the organiser, or as the player's name.
        let untold = |text: &str| {
            let mut t = text.replace(&c.gm, lang.pick("its organiser", "son organisateur"));
            for a in c.players.iter().filter(|a| !a.is_empty()) {
                let name = c
                    .names
                    .get(a)
                    .cloned()
                    .unwrap_or_else(|| lang.pick("a player", "un joueur").to_string());
                t = t.replace(a.as_str(), &name);
            }
            t
        };
        let lines = c
            .history
            .iter()
            .map(|e| HistoryLine {
                date: format_long_in(e.at, lang),
                text: untold(lang.pick(&e.en, &e.fr)),
            })
            .collect();
        let answer = CampaignAnswer::History {
            campaign: c.id.clone(),
            name: c.name.clone(),
            lines,
        };
        self.put_campaign(c);
        self.answer(lang, "campaign", &answer);
        Ok(true)
    }
}
