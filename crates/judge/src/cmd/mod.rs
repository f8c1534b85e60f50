//! The judge's own commands: one line each, keyword first, any case. Lines that are not
//! judge commands are order text for the game in context.
//!
//! This file only routes: [`parse`] reads the keyword and hands the rest of the line to
//! that command's family (each file below holds a family's syntax, parser and apply);
//! [`Run::command`] hands a parsed command to its family.
//!
//! To add a command:
//! 1. a variant of [`Command`] here, its [`Keyword`] with its English and French words
//!    (cmd/keyword.rs), and one arm in `parse` calling its parser (the match is
//!    exhaustive);
//! 2. in its family's file (or a new `cmd/<family>.rs`): the syntax in a doc comment, the
//!    parser (typed arguments, a [`CmdError`] variant for each way the line is wrong), and
//!    the apply on `Run`, which answers with the family's answer enum
//!    (`#[serde(tag = "kind")]`) through `Run::answer`;
//! 3. the wording of each variant in `templates/en/answers/<family>.txt` and
//!    `templates/fr/answers/<family>.txt` (a new file goes in `templates::KINDS` and
//!    `defaults`), and of each new [`CmdError`] in `answers/intake.txt`;
//! 4. one line in `Run::command` here;
//! 5. a golden conversation step in each language under tests/conversations/ and its
//!    markers in tests/conversations.rs (`CASTELLAN_BLESS=1` writes the expected mails);
//! 6. its syntax in docs/commands.md and docs/commandes.md.

mod campaign;
mod create;
mod gm;
mod info;
mod join;
mod keyword;
mod observe;
mod orders;
mod press;
mod record;
mod seat;
mod verify;

pub(crate) use create::{capitalise, CreateFailure};
pub(crate) use gm::Extend;
pub(crate) use seat::Vacation;

use crate::config::JudgeConfig;
pub(crate) use crate::model::looks_like_id;
use crate::model::{MailFormat, MapDetail, Reports, StoreError};
use crate::run::{Ctx, Run};
use castellan_engine::Lang;
pub use keyword::Keyword;

/// A judge command, parsed from one line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Command {
    Help,
    /// HELP DICE (AIDE DÉS, GET DICE): how the dice are made and how to check them.
    HelpDice,
    List,
    /// CREATE game key=value ...
    Create(String, Vec<String>),
    /// JOIN game-id password [AS Name]
    Join {
        game: String,
        password: String,
        name: Option<String>,
    },
    /// GAME game-id [password]
    Game(String, Option<String>),
    Password(String),
    /// STATUS / MAP [game-id]
    Status(Option<String>),
    /// NEIGHBOURS [game-id] territory, MAP territory (VOISINS, CARTE): the board around
    /// one territory; a bare NEIGHBOURS [game-id]: around each of the writer's.
    Neighbours(Option<String>, String),
    /// ORDERS [game or game-id]
    Orders(Option<String>),
    /// CHECK [order]: one line, or (bare) the rest of the game's lines.
    Check(Option<String>),
    /// HISTORY [game-id] [turn | from-to]
    /// HISTORY [game-id] [turn | from-to] [PICTURE]: with PICTURE, the reply carries the
    /// board as it stood at the end of the range (HTML part).
    History(Option<String>, Option<String>, bool),
    /// PRESS text, or bare PRESS: the following lines until ENDPRESS.
    Press(Option<String>),
    EndPress,
    /// OBSERVE [game-id] [OFF]
    Observe(Option<String>, bool),
    Resign,
    /// VACATION days | OFF
    Vacation(Vacation),
    Verify(Option<String>),
    Start,
    Pause,
    Resume,
    /// EXTEND hours (1 to the judge's longest deadline, checked at parse)
    Extend(Extend),
    /// REPLACE seat address
    Replace(String, String),
    Kick(String),
    /// END GAME [code] (FIN PARTIE [code]): the game master ends the game; by mail, END
    /// GAME alone answers with a code and `END GAME <code>` ends it. A bare END is the
    /// game's order.
    End(Option<String>),
    /// PROCESS (TRAITER): play now what is due, the default for every seat awaited.
    Process,
    /// DEADLINE n (ÉCHÉANCE n): the current deadline becomes n hours from now.
    Deadline(Extend),
    /// SET LANGUAGE en | fr (also LANGUE fr, SET LANGUE fr, RÉGLER LANGUE fr)
    Language(Lang),
    /// SET FORMAT TEXT | HTML (also RÉGLER FORMAT TEXTE | HTML)
    Format(MailFormat),
    /// SET MAP CHANGES | FULL (RÉGLER CARTE CHANGEMENTS | ENTIÈRE)
    MapDetail(MapDetail),
    /// SET REPORTS TURN | ROUND | NONE (RÉGLER RAPPORTS TOUR | MANCHE | AUCUN)
    Reports(Reports),
    /// SET TIMEZONE Europe/Paris (RÉGLER FUSEAU Europe/Paris): the zone's IANA name, or
    /// UTC.
    TimeZone(String),
    /// STOP or UNSUBSCRIBE (DÉSABONNER): no more mail to this address (crate::optin).
    Stop,
    /// RECORD [address] (BILAN): a player's record across games.
    Record(Option<String>),
    /// CAMPAIGN NEW ... | CAMPAIGN id password ADD game (CAMPAGNE)
    Campaign(campaign::CampaignCmd),
    /// STANDINGS campaign-id (PALMARÈS)
    Standings(String),
}

/// A refused command line: what is wrong (the answer, templates/LANG/answers/intake.txt,
/// also says how to write it).
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, thiserror::Error)]
#[serde(tag = "error", rename_all = "snake_case")]
pub enum CmdError {
    #[error("CREATE needs the game's name")]
    CreateArgs,
    #[error("JOIN needs the game id and its join password")]
    JoinArgs,
    #[error("GAME needs the game id, then optionally your password")]
    GameArgs,
    #[error("PASSWORD needs one word")]
    PasswordArgs,
    #[error("HISTORY takes a game id and a turn or a range")]
    HistoryArgs,
    #[error("VACATION {given}: write a number of days from 1, or OFF")]
    VacationDays { given: String },
    #[error("VACATION takes a number of days, or OFF")]
    VacationArgs,
    #[error("EXTEND {given}: write a number of hours from 1 to {max}")]
    ExtendHours { given: String, max: u32 },
    #[error("EXTEND takes a number of hours")]
    ExtendArgs,
    #[error("DEADLINE takes a number of hours from now: DEADLINE 12")]
    DeadlineArgs,
    #[error("REPLACE takes the seat (number or name) and the new player's address")]
    ReplaceArgs,
    #[error("KICK takes the seat (number or name)")]
    KickArgs,
    #[error("\"{given}\" is not a language this judge writes (en, fr)")]
    NotALanguage { given: String },
    #[error("SET LANGUAGE takes a language: en or fr")]
    LanguageArgs,
    #[error("SET FORMAT takes TEXT or HTML")]
    FormatArgs,
    #[error("SET MAP takes CHANGES or FULL")]
    MapArgs,
    #[error("SET REPORTS takes TURN, ROUND or NONE")]
    ReportsArgs,
    #[error("{given:?} is not a time zone")]
    NotATimeZone { given: String },
    #[error("CAMPAIGN takes NEW name [scoring=...] or: campaign-id password ADD game-id")]
    CampaignArgs,
    #[error("STANDINGS takes a campaign id")]
    StandingsArgs,
}

/// The keyword a command word stands for, and whether it was French.
pub fn keyword(word: &str) -> Option<(Keyword, bool)> {
    Keyword::read(word)
}

/// Is this line's first word a French command word?
pub fn is_french(line: &str) -> bool {
    line.split_whitespace()
        .next()
        .and_then(keyword)
        .is_some_and(|(_, fr)| fr)
}

/// The words of a line after its keyword, and the rest of the line as typed.
pub(crate) struct Args<'l> {
    pub words: Vec<&'l str>,
    pub rest: Option<String>,
}

impl Args<'_> {
    pub fn first_lower(&self) -> Option<String> {
        self.words.first().map(|s| s.to_lowercase())
    }
}

/// HELP ORDERS [game] (HELP RULES, AIDE ORDRES, AIDE RÈGLES) is ORDERS [game]; HELP DICE
/// (AIDE DÉS) the dice's help; `None` for any other topic.
fn help_topic(a: &Args) -> Option<Command> {
    let topic = castellan_engine::names::normalize(a.words.first()?);
    match topic.as_str() {
        "orders" | "rules" | "ordres" | "regles" => {
            Some(Command::Orders(a.words.get(1).map(|w| w.to_lowercase())))
        }
        "dice" | "des" | "de" => Some(Command::HelpDice),
        _ => None,
    }
}

/// `None` if the line is not a judge command (order text, or chatter outside a game).
pub fn parse(line: &str, config: &JudgeConfig) -> Option<Result<Command, CmdError>> {
    let line = line.trim();
    let mut words = line.split_whitespace();
    let first = words.next()?;
    let kw = match keyword(first) {
        Some((k, _)) => k,
        None if first == "?" => Keyword::Help,
        None => return None,
    };
    let a = Args {
        words: words.collect(),
        rest: line
            .split_once(char::is_whitespace)
            .map(|(_, r)| r.trim().to_string())
            .filter(|r| !r.is_empty()),
    };
    let bare = a.words.is_empty();
    use Keyword as K;
    Some(match kw {
        K::Help => Ok(help_topic(&a).unwrap_or(Command::Help)),
        K::Get => return help_topic(&a).map(Ok),
        K::List => Ok(Command::List),
        K::Create => create::parse(&a),
        K::Join => join::parse(&a),
        K::Game => parse_game(&a),
        K::Password => parse_password(&a),
        K::Map if a.words.len() > 1 || a.words.first().is_some_and(|w| !looks_like_id(w)) => {
            Ok(neighbours(&a))
        }
        K::Status | K::Map => Ok(Command::Status(a.first_lower())),
        K::Neighbours => Ok(neighbours(&a)),
        K::Orders => Ok(Command::Orders(a.first_lower())),
        K::Check => Ok(Command::Check(a.rest)),
        K::History => info::parse_history(&a),
        K::Press => Ok(Command::Press(a.rest)),
        K::EndPress => Ok(Command::EndPress),
        K::Observe => Ok(observe::parse(&a)),
        // RESIGN, START ... with words after them are the game's business.
        K::Resign if bare => Ok(Command::Resign),
        K::Vacation => seat::parse_vacation(&a),
        K::Verify => Ok(Command::Verify(a.first_lower())),
        K::Start if bare => Ok(Command::Start),
        K::Pause if bare => Ok(Command::Pause),
        K::Resume if bare => Ok(Command::Resume),
        K::Extend => gm::parse_extend(&a, config),
        K::Replace => gm::parse_replace(&a),
        K::Kick => gm::parse_kick(&a),
        K::Set | K::Language => return parse_language(kw, &a),
        K::Stop if bare => Ok(Command::Stop),
        K::Record => Ok(record::parse(&a)),
        K::Campaign => campaign::parse(&a),
        K::Standings => match a.words.as_slice() {
            [id] => Ok(Command::Standings(id.to_lowercase())),
            _ => Err(CmdError::StandingsArgs),
        },
        // END GAME / FIN PARTIE ends the game; a bare END is always the game's order.
        K::End
            if (1..=2).contains(&a.words.len())
                && (a.words[0].eq_ignore_ascii_case("game")
                    || a.words[0].eq_ignore_ascii_case("partie")) =>
        {
            Ok(Command::End(a.words.get(1).map(|c| c.to_lowercase())))
        }
        K::Process if bare => Ok(Command::Process),
        K::Deadline => match a.words.as_slice() {
            [h] => gm::Extend::new(h.trim_end_matches(['h', 'H']), config).map(Command::Deadline),
            _ => Err(CmdError::DeadlineArgs),
        },
        // A command word with arguments it does not take (RESIGN now, START later) is no
        // command: the line is the game's, or not read.
        K::Resign | K::Start | K::Pause | K::Resume | K::Stop | K::Process | K::End => return None,
        // Words some people sign off with: never a command, and not an order.
        K::SignOff => return None,
    })
}

impl Run<'_> {
    /// Apply one command: hand it to its family.
    pub(crate) fn command(
        &mut self,
        ctx: &mut Ctx,
        cmd: Command,
        no: usize,
        line: &str,
        from: &str,
    ) -> Result<(), StoreError> {
        match cmd {
            Command::Help => self.help(from),
            Command::HelpDice => self.help_dice(from),
            Command::List => self.list(from)?,
            Command::Create(game, args) => {
                let password = ctx.password.clone();
                self.create_by_mail(from, password.as_deref(), &game, &args, no, line)?
            }
            Command::Join {
                game,
                password,
                name,
            } => self.join(from, &game, &password, name)?,
            Command::Game(id, pw) => self.enter_game(ctx, &id, pw)?,
            Command::Password(pw) => ctx.password = Some(pw),
            Command::Status(id) => {
                self.enter_named(ctx, id)?;
                self.status(ctx, from)?;
            }
            Command::Neighbours(id, name) => {
                self.enter_named(ctx, id)?;
                self.neighbours(ctx, from, &name)?;
            }
            Command::Orders(arg) => self.orders_help(ctx, from, arg)?,
            Command::Check(Some(order)) => self.check_line(ctx, from, no, order)?,
            Command::Check(None) => ctx.check_mode = true,
            Command::History(Some(id), None, false) if self.campaign_history(from, &id)? => {}
            Command::History(id, range, picture) => {
                self.enter_named(ctx, id)?;
                self.history(ctx, from, range.as_deref(), picture)?;
            }
            Command::Press(Some(text)) => self.press(ctx, from, &text)?,
            Command::Press(None) => ctx.press = Some((no, Vec::new())),
            Command::EndPress => {}
            Command::Observe(id, off) => {
                let id = id.or_else(|| ctx.game.clone());
                self.observe(from, id, off)?;
            }
            Command::Verify(id) => {
                self.enter_named(ctx, id)?;
                self.verify(ctx, from)?;
            }
            Command::Resign | Command::Vacation(_) => self.seat_command(ctx, from, cmd)?,
            Command::Stop => self.stop(from)?,
            Command::Start
            | Command::Pause
            | Command::Resume
            | Command::Extend(_)
            | Command::Replace(..)
            | Command::Kick(_)
            | Command::End(_)
            | Command::Process
            | Command::Deadline(_) => self.gm_by_mail(ctx, from, cmd, no, line)?,
            Command::Language(lang) => self.set_language(ctx, from, lang)?,
            Command::Format(format) => self.set_format(ctx, from, format)?,
            Command::MapDetail(map) => self.set_map(ctx, from, map)?,
            Command::Reports(r) => self.set_reports(ctx, from, r)?,
            Command::TimeZone(z) => self.set_zone(ctx, from, z)?,
            Command::Record(address) => self.record_command(from, address)?,
            Command::Campaign(c) => self.campaign_command(from, c, line)?,
            Command::Standings(id) => self.standings_command(from, &id)?,
        }
        Ok(())
    }

    /// STATUS, HISTORY, VERIFY naming a game: it becomes the game in context.
    fn enter_named(&mut self, ctx: &mut Ctx, id: Option<String>) -> Result<(), StoreError> {
        if let Some(id) = id {
            self.enter_game(ctx, &id, ctx.password.clone())?;
        }
        Ok(())
    }
}

/// NEIGHBOURS [game-id] [territory]: a first word that looks like a game id names the
/// game; no territory: each of the writer's own with its neighbours.
fn neighbours(a: &Args) -> Command {
    match a.words.as_slice() {
        [id, rest @ ..] if looks_like_id(id) && !rest.is_empty() => {
            Command::Neighbours(Some(id.to_lowercase()), rest.join(" "))
        }
        [id] if looks_like_id(id) => Command::Neighbours(Some(id.to_lowercase()), String::new()),
        words => Command::Neighbours(None, words.join(" ")),
    }
}

/// SET LANGUAGE fr, LANGUAGE fr (and the French LANGUE fr, RÉGLER LANGUE fr); SET FORMAT
/// TEXT | HTML (RÉGLER FORMAT TEXTE | HTML). Any other SET is a game's standing order.
fn parse_language(kw: Keyword, a: &Args) -> Option<Result<Command, CmdError>> {
    if let (Keyword::Set, [w, rest @ ..]) = (kw, a.words.as_slice()) {
        if w.eq_ignore_ascii_case("FORMAT") {
            return Some(match rest {
                [f] => seat::parse_format(f).ok_or(CmdError::FormatArgs),
                _ => Err(CmdError::FormatArgs),
            });
        }
        if ["TIMEZONE", "ZONE", "FUSEAU"]
            .iter()
            .any(|k| w.eq_ignore_ascii_case(k))
        {
            let given = rest.join(" ");
            return Some(match crate::clock::time_zone(&given) {
                Some(z) => Ok(Command::TimeZone(z)),
                None => Err(CmdError::NotATimeZone { given }),
            });
        }
        if w.eq_ignore_ascii_case("REPORTS") || w.eq_ignore_ascii_case("RAPPORTS") {
            return Some(match rest {
                [r] => seat::parse_reports(r).ok_or(CmdError::ReportsArgs),
                _ => Err(CmdError::ReportsArgs),
            });
        }
        if w.eq_ignore_ascii_case("MAP") || w.eq_ignore_ascii_case("CARTE") {
            return Some(match rest {
                [m] => seat::parse_map(m).ok_or(CmdError::MapArgs),
                _ => Err(CmdError::MapArgs),
            });
        }
    }
    let words: &[&str] = match (kw, a.words.as_slice()) {
        (Keyword::Set, [w, rest @ ..]) if matches!(keyword(w), Some((Keyword::Language, _))) => {
            rest
        }
        (Keyword::Set, _) => return None,
        (_, all) => all,
    };
    Some(match words {
        [l] => Lang::parse(l)
            .map(Command::Language)
            .ok_or_else(|| CmdError::NotALanguage {
                given: l.to_string(),
            }),
        _ => Err(CmdError::LanguageArgs),
    })
}

pub(crate) fn first_word(line: &str) -> String {
    line.split_whitespace().next().unwrap_or("").to_uppercase()
}

/// GAME game-id [password]: the game the following lines are for.
pub(crate) fn parse_game(a: &Args) -> Result<Command, CmdError> {
    match a.words.as_slice() {
        [g] => Ok(Command::Game(g.to_lowercase(), None)),
        [g, p] => Ok(Command::Game(g.to_lowercase(), Some(p.to_string()))),
        _ => Err(CmdError::GameArgs),
    }
}

/// PASSWORD word
pub(crate) fn parse_password(a: &Args) -> Result<Command, CmdError> {
    match a.words.as_slice() {
        [p] => Ok(Command::Password(p.to_string())),
        _ => Err(CmdError::PasswordArgs),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse_(line: &str) -> Option<Result<Command, CmdError>> {
        parse(line, &JudgeConfig::default())
    }

    /// HELP ORDERS and HELP DICE, in either language, and GET as other judges spell them:
    /// the texts themselves by mail, never a file on the server.
    #[test]
    fn help_orders_and_help_dice_in_both_languages() {
        assert_eq!(parse_("HELP ORDERS"), Some(Ok(Command::Orders(None))));
        assert_eq!(
            parse_("help orders castle-risk"),
            Some(Ok(Command::Orders(Some("castle-risk".into()))))
        );
        assert_eq!(parse_("AIDE RÈGLES"), Some(Ok(Command::Orders(None))));
        assert_eq!(parse_("aide ordres"), Some(Ok(Command::Orders(None))));
        assert_eq!(parse_("GET RULES"), Some(Ok(Command::Orders(None))));
        assert_eq!(parse_("HELP DICE"), Some(Ok(Command::HelpDice)));
        assert_eq!(parse_("AIDE DÉS"), Some(Ok(Command::HelpDice)));
        assert_eq!(parse_("get dice"), Some(Ok(Command::HelpDice)));
        // Any other topic: HELP's whole text; GET with another word is no command.
        assert_eq!(parse_("HELP me please"), Some(Ok(Command::Help)));
        assert_eq!(parse_("Get well soon"), None);
        assert_eq!(parse_("GET"), None);
    }

    /// Commands by email are case-insensitive.
    #[test]
    fn keywords_are_case_insensitive() {
        assert_eq!(parse_("help"), Some(Ok(Command::Help)));
        assert_eq!(parse_("LiSt"), Some(Ok(Command::List)));
        assert_eq!(
            parse_("game Race-1 Secret"),
            Some(Ok(Command::Game("race-1".into(), Some("Secret".into()))))
        );
        assert_eq!(
            parse_("join race-1 pw as Anna"),
            Some(Ok(Command::Join {
                game: "race-1".into(),
                password: "pw".into(),
                name: Some("Anna".into())
            }))
        );
    }

    /// Order text is not a command: "Anything else in a game context is order text".
    #[test]
    fn order_lines_are_not_commands() {
        assert_eq!(parse_("ADD 2"), None);
        assert_eq!(parse_("ATTACK Livonia FROM Poland"), None);
        assert_eq!(parse_("SET DEFEND 2"), None);
        // RESIGN with words after it is the game's business.
        assert_eq!(parse_("RESIGN now please"), None);
    }

    /// "Errors quote the line, say what is wrong and how to write it".
    #[test]
    fn bad_commands_say_how_to_write_them() {
        let Some(Err(e)) = parse_("JOIN race-1") else {
            panic!("JOIN without password must be refused")
        };
        assert_eq!(e, CmdError::JoinArgs);
        // How to write it is in the answer template, in each language.
        let t = crate::templates::Templates::builtin();
        let ctx = serde_json::json!({"kind": "refused", "quoted": {"no": 1, "line": "JOIN race-1"},
                                     "error": {"error": "join_args"}});
        let en = t.render_in(castellan_engine::Lang::En, "answers/intake.txt", &ctx);
        assert!(
            en.text
                .contains("write: JOIN castle-7 password AS YourName"),
            "{en:?}"
        );
        let fr = t.render_in(castellan_engine::Lang::Fr, "answers/intake.txt", &ctx);
        assert!(fr.text.contains("REJOINDRE castle-7"), "{fr:?}");
        assert_eq!(
            parse_("HISTORY race-1 3-5"),
            Some(Ok(Command::History(
                Some("race-1".into()),
                Some("3-5".into()),
                false
            )))
        );
        assert_eq!(
            parse_("HISTORY 4"),
            Some(Ok(Command::History(None, Some("4".into()), false)))
        );
        assert_eq!(
            parse_("HISTORY castle-7 12 PICTURE"),
            Some(Ok(Command::History(
                Some("castle-7".into()),
                Some("12".into()),
                true
            )))
        );
    }
}
