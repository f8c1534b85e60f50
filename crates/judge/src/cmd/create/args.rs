//! CREATE's arguments: each `key=value` read alone ([`CreateArgs`]), then resolved with
//! the game into a [`GameSetup`] (options checked against what the game accepts).

use super::*;

/// CREATE's arguments as written: each `key=value` checked alone, without the game.
#[derive(Debug, Default)]
pub(crate) struct CreateArgs {
    pub players: Vec<(String, String)>,
    pub seats: Option<usize>,
    pub join_password: Option<String>,
    pub deadlines: DeadlineSettings,
    /// `deadline-KIND=hours`, KIND as written.
    pub per_kind: Vec<(String, u32)>,
    /// The game's own options, as (key, value).
    pub options: Vec<(String, String)>,
    /// `language=fr` (or `langue=fr`).
    pub language: Option<Lang>,
    /// `min-reliability=80` (or `fiabilite-min=80`): JOIN needs that reliability.
    pub min_reliability: Option<u32>,
}

impl CreateArgs {
    /// Read every argument; every bad one is reported.
    pub(crate) fn read(args: &[String], cfg: &JudgeConfig) -> Result<CreateArgs, Vec<CreateError>> {
        let mut out = CreateArgs {
            deadlines: DeadlineSettings {
                hours: cfg.deadline_hours,
                per_kind: BTreeMap::new(),
                reminder_hours: cfg.reminder_hours,
                grace_hours: cfg.grace_hours,
            },
            ..Default::default()
        };
        let mut errors = Vec::new();
        for a in args {
            if let Err(e) = out.read_one(a, cfg) {
                errors.push(e);
            }
        }
        if errors.is_empty() {
            Ok(out)
        } else {
            Err(errors)
        }
    }

    fn read_one(&mut self, a: &str, cfg: &JudgeConfig) -> Result<(), CreateError> {
        let Some((k, v)) = a.split_once('=') else {
            return Err(CreateError::NotKeyValue { arg: a.to_string() });
        };
        let key = lower(k);
        let v = v.trim();
        let hours = |k: &str| -> Result<u32, CreateError> {
            v.parse::<u32>()
                .ok()
                .filter(|h| *h >= 1 && *h <= cfg.max_deadline_hours)
                .ok_or_else(|| CreateError::BadDeadline {
                    key: k.to_string(),
                    value: v.to_string(),
                    max: cfg.max_deadline_hours,
                })
        };
        let number = |k: &str| -> Result<u32, CreateError> {
            v.parse().map_err(|_| CreateError::BadHours {
                key: k.to_string(),
                value: v.to_string(),
            })
        };
        match key.as_str() {
            "player" | "players" => {
                for p in v.split(',').filter(|p| !p.trim().is_empty()) {
                    self.players.push(read_player(p)?);
                }
            }
            "seats" => {
                self.seats = Some(v.parse().map_err(|_| CreateError::BadSeats {
                    value: v.to_string(),
                })?)
            }
            "password" => self.join_password = Some(v.to_string()),
            "language" | "langue" => {
                self.language = Some(Lang::parse(v).ok_or_else(|| CreateError::BadLanguage {
                    key: key.clone(),
                    value: v.to_string(),
                })?)
            }
            "min-reliability" | "min_reliability" | "fiabilite-min" | "fiabilité-min" => {
                self.min_reliability =
                    Some(v.parse::<u32>().ok().filter(|n| *n <= 100).ok_or_else(|| {
                        CreateError::BadReliability {
                            value: v.to_string(),
                        }
                    })?)
            }
            "deadline" => self.deadlines.hours = hours(&key)?,
            "reminder" => self.deadlines.reminder_hours = number("reminder")?,
            "grace" => self.deadlines.grace_hours = number("grace")?,
            k if k.starts_with("deadline-") || k.starts_with("deadline.") => {
                self.per_kind.push((k[9..].to_string(), hours(k)?));
            }
            _ => self.options.push((key.clone(), v.to_string())),
        }
        Ok(())
    }
}

/// `Name:address` or a bare address (the name is the address's local part).
fn read_player(p: &str) -> Result<(String, String), CreateError> {
    // The address in its canonical form, or none (refused, `ident.rs`).
    let address = |a: &str| crate::ident::canonical_address(a).unwrap_or_default();
    let (name, addr) = match p.split_once(':') {
        Some((n, a)) => (n.trim().to_string(), address(a)),
        None => {
            let a = address(p);
            let n = a.split('@').next().unwrap_or("player").to_string();
            (capitalise(&n), a)
        }
    };
    if !addr.contains('@') || name.is_empty() {
        return Err(CreateError::BadPlayer {
            arg: crate::limits::clip(&crate::limits::clean_text(p), 80),
        });
    }
    let name = crate::limits::clean_name(&name).map_err(|name| CreateError::BadName {
        name,
        max: crate::limits::MAX_NAME_CHARS,
    })?;
    Ok((name, addr))
}

/// CREATE's arguments checked against the game: seats in range, nobody named twice,
/// deadlines only for the kinds of prompt the game asks, options the game knows.
#[derive(Debug)]
pub(crate) struct GameSetup {
    pub players: Vec<(String, String)>,
    pub seats: usize,
    pub join_password: Option<String>,
    pub deadlines: DeadlineSettings,
    pub options: Vec<(String, String)>,
    pub language: Option<Lang>,
    pub min_reliability: Option<u32>,
}

impl GameSetup {
    pub(crate) fn resolve(raw: CreateArgs, info: &GameInfo) -> Result<GameSetup, CreateError> {
        let mut deadlines = raw.deadlines;
        let game_kinds = (info.prompt_kinds)();
        for (kind, h) in raw.per_kind {
            match PromptKind::parse_among(&kind, &game_kinds) {
                Some(k) => {
                    deadlines.per_kind.insert(k.as_str().to_string(), h);
                }
                None => {
                    return Err(CreateError::UnknownKind {
                        kind,
                        game: info.name.to_string(),
                        kinds: game_kinds.iter().map(|k| k.as_str().to_string()).collect(),
                    });
                }
            }
        }
        let known_options = (info.options)();
        for (k, _) in &raw.options {
            check_option(k, &known_options, info)?;
        }
        let mut options = raw.options;
        // By mail, territories are drafted unless the game master says otherwise: the
        // printed table claim takes one round trip per territory, about 41 before play
        // starts. `claim=table` keeps the printed rule.
        if known_options.get("claim").is_some()
            && !options.iter().any(|(k, _)| k.eq_ignore_ascii_case("claim"))
        {
            options.push(("claim".into(), "draft".into()));
        }
        // Likewise the armies are placed blind, all at once (one mail each, revealed
        // together), unless the game master asks for `placement=rounds`, the printed
        // rule's five at a time in turn: about eight round trips each before play.
        if known_options.get("placement").is_some()
            && !options
                .iter()
                .any(|(k, _)| k.eq_ignore_ascii_case("placement"))
        {
            options.push(("placement".into(), "blind".into()));
        }
        let n = raw.seats.unwrap_or(raw.players.len());
        let players = raw.players;
        if n < players.len() {
            return Err(CreateError::FewerSeatsThanPlayers {
                seats: n,
                named: players.len(),
            });
        }
        if n < info.min_seats || n > info.max_seats {
            return Err(CreateError::SeatsOutOfRange {
                game: info.name.to_string(),
                min: info.min_seats,
                max: info.max_seats,
                asked: n,
            });
        }
        for (i, (name, addr)) in players.iter().enumerate() {
            if players[..i]
                .iter()
                .any(|(n2, a2)| crate::ident::names_alike(n2, name) || a2 == addr)
            {
                return Err(CreateError::NamedTwice {
                    name: name.clone(),
                    address: addr.clone(),
                });
            }
        }
        Ok(GameSetup {
            players,
            seats: n,
            join_password: raw.join_password,
            deadlines,
            options,
            language: raw.language,
            min_reliability: raw.min_reliability,
        })
    }
}

/// A key the game must know among its options (`-` and `_` alike).
fn check_option(k: &str, known: &serde_json::Value, info: &GameInfo) -> Result<(), CreateError> {
    let norm = k.replace('-', "_");
    if known.as_object().is_some_and(|m| m.contains_key(&norm)) {
        return Ok(());
    }
    let names: Vec<String> = known
        .as_object()
        .map(|m| m.keys().map(|k| k.replace('_', "-")).collect())
        .unwrap_or_default();
    Err(CreateError::UnknownOption {
        key: k.to_string(),
        game: info.name.to_string(),
        known: names,
    })
}
