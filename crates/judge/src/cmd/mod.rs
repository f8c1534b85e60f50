//! The judge's own commands: one line each, keyword first, any case.
//! Lines that are not judge commands are order text for the game in context.

mod create;
mod dispatch;
mod gm;
mod info;
mod join;
mod observe;
mod orders;
mod press;
mod seat;

pub(crate) use create::capitalise;

/// A judge command, parsed from one line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Cmd {
    Help,
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
    /// ORDERS [game or game-id]
    Orders(Option<String>),
    /// CHECK [order]: one line, or (bare) the rest of the game's lines.
    Check(Option<String>),
    /// HISTORY [game-id] [turn | from-to]
    History(Option<String>, Option<String>),
    /// PRESS text, or bare PRESS: the following lines until ENDPRESS.
    Press(Option<String>),
    EndPress,
    /// OBSERVE [game-id] [OFF]
    Observe(Option<String>, bool),
    Resign,
    /// VACATION days | OFF
    Vacation(String),
    Verify(Option<String>),
    Start,
    Pause,
    Resume,
    Extend(String),
    /// REPLACE seat address
    Replace(String, String),
    Kick(String),
    End,
}

/// A refused command line: what is wrong, and how to write it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CmdError {
    pub message: String,
    pub hint: String,
}

fn err(message: &str, hint: &str) -> Option<Result<Cmd, CmdError>> {
    Some(Err(CmdError {
        message: message.into(),
        hint: hint.into(),
    }))
}

/// Does this word look like a game id ("race-1", "castle-7")?
pub fn looks_like_id(w: &str) -> bool {
    w.contains('-')
        && w.chars().any(|c| c.is_ascii_alphabetic())
        && w.chars().last().is_some_and(|c| c.is_ascii_digit())
}

/// Keywords that are judge commands.
pub const KEYWORDS: [&str; 26] = [
    "HELP", "LIST", "CREATE", "JOIN", "GAME", "PASSWORD", "STATUS", "MAP", "ORDERS", "CHECK",
    "HISTORY", "PRESS", "ENDPRESS", "OBSERVE", "RESIGN", "VACATION", "VERIFY", "START", "PAUSE",
    "RESUME", "EXTEND", "REPLACE", "KICK", "END", "SIGNOFF", "QUIT",
];

/// `None` if the line is not a judge command (order text, or chatter outside a game).
pub fn parse(line: &str) -> Option<Result<Cmd, CmdError>> {
    let line = line.trim();
    let mut words = line.split_whitespace();
    let kw = words.next()?.to_uppercase();
    let kw = kw.trim_end_matches(':');
    let args: Vec<&str> = words.collect();
    let rest = line
        .split_once(char::is_whitespace)
        .map(|(_, r)| r.trim().to_string())
        .filter(|r| !r.is_empty());
    let one_id = |a: &[&str]| a.first().map(|s| s.to_string());
    Some(Ok(match kw {
        "HELP" | "?" => Cmd::Help,
        "LIST" => Cmd::List,
        "CREATE" => match args.split_first() {
            Some((g, more)) => Cmd::Create(
                g.to_lowercase(),
                more.iter().map(|s| s.to_string()).collect(),
            ),
            None => {
                return err(
                    "CREATE needs the game's name",
                    "write: CREATE castle-risk seats=4 player=Anna:anna@example.org",
                )
            }
        },
        "JOIN" => match args.as_slice() {
            [g, p] => Cmd::Join {
                game: g.to_lowercase(),
                password: p.to_string(),
                name: None,
            },
            [g, p, as_, n] if as_.eq_ignore_ascii_case("as") => Cmd::Join {
                game: g.to_lowercase(),
                password: p.to_string(),
                name: Some(n.to_string()),
            },
            _ => {
                return err(
                    "JOIN needs the game id and its join password",
                    "write: JOIN castle-7 password AS YourName",
                )
            }
        },
        "GAME" => match args.as_slice() {
            [g] => Cmd::Game(g.to_lowercase(), None),
            [g, p] => Cmd::Game(g.to_lowercase(), Some(p.to_string())),
            _ => {
                return err(
                    "GAME needs the game id, then optionally your password",
                    "write: GAME castle-7 yourpassword",
                )
            }
        },
        "PASSWORD" => match args.as_slice() {
            [p] => Cmd::Password(p.to_string()),
            _ => return err("PASSWORD needs one word", "write: PASSWORD yourpassword"),
        },
        "STATUS" | "MAP" => Cmd::Status(one_id(&args).map(|s| s.to_lowercase())),
        "ORDERS" => Cmd::Orders(one_id(&args).map(|s| s.to_lowercase())),
        "CHECK" => Cmd::Check(rest),
        "HISTORY" => {
            let (id, range) = match args.as_slice() {
                [] => (None, None),
                [a] if looks_like_id(a) => (Some(a.to_lowercase()), None),
                [a] => (None, Some(a.to_string())),
                [a, b] if looks_like_id(a) => (Some(a.to_lowercase()), Some(b.to_string())),
                _ => {
                    return err(
                        "HISTORY takes a game id and a turn or a range",
                        "write: HISTORY castle-7 3-5",
                    )
                }
            };
            Cmd::History(id, range)
        }
        "PRESS" => Cmd::Press(rest),
        "ENDPRESS" => Cmd::EndPress,
        "OBSERVE" => {
            let off = args.iter().any(|a| a.eq_ignore_ascii_case("off"));
            let id = args
                .iter()
                .find(|a| !a.eq_ignore_ascii_case("off"))
                .map(|s| s.to_lowercase());
            Cmd::Observe(id, off)
        }
        "RESIGN" if args.is_empty() => Cmd::Resign,
        "VACATION" => match args.as_slice() {
            [d] => Cmd::Vacation(d.to_string()),
            _ => {
                return err(
                    "VACATION takes a number of days, or OFF",
                    "write: VACATION 5",
                )
            }
        },
        "VERIFY" => Cmd::Verify(one_id(&args).map(|s| s.to_lowercase())),
        "START" if args.is_empty() => Cmd::Start,
        "PAUSE" if args.is_empty() => Cmd::Pause,
        "RESUME" if args.is_empty() => Cmd::Resume,
        "EXTEND" => match args.as_slice() {
            [h] => Cmd::Extend(h.to_string()),
            _ => return err("EXTEND takes a number of hours", "write: EXTEND 24"),
        },
        "REPLACE" => match args.as_slice() {
            [s, a] => Cmd::Replace(s.to_string(), a.to_string()),
            _ => {
                return err(
                    "REPLACE takes the seat (number or name) and the new player's address",
                    "write: REPLACE 2 newplayer@example.org",
                )
            }
        },
        "KICK" => match args.as_slice() {
            [s] => Cmd::Kick(s.to_string()),
            _ => return err("KICK takes the seat (number or name)", "write: KICK 2"),
        },
        "END" if args.is_empty() || (args.len() == 1 && args[0].eq_ignore_ascii_case("game")) => {
            Cmd::End
        }
        // Signatures some mail programs add without "-- ": stop reading.
        "SIGNOFF" | "QUIT" => return None,
        _ => return None,
    }))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Issue 3 (Commands by email): "case-insensitive".
    #[test]
    fn keywords_are_case_insensitive() {
        assert_eq!(parse("help"), Some(Ok(Cmd::Help)));
        assert_eq!(parse("LiSt"), Some(Ok(Cmd::List)));
        assert_eq!(
            parse("game Race-1 Secret"),
            Some(Ok(Cmd::Game("race-1".into(), Some("Secret".into()))))
        );
        assert_eq!(
            parse("join race-1 pw as Anna"),
            Some(Ok(Cmd::Join {
                game: "race-1".into(),
                password: "pw".into(),
                name: Some("Anna".into())
            }))
        );
    }

    /// Order text is not a command: "Anything else in a game context is order text".
    #[test]
    fn order_lines_are_not_commands() {
        assert_eq!(parse("ADD 2"), None);
        assert_eq!(parse("ATTACK Livonia FROM Poland"), None);
        assert_eq!(parse("SET DEFEND 2"), None);
        // RESIGN with words after it is the game's business.
        assert_eq!(parse("RESIGN now please"), None);
    }

    /// "Errors quote the line, say what is wrong and how to write it".
    #[test]
    fn bad_commands_say_how_to_write_them() {
        let Some(Err(e)) = parse("JOIN race-1") else {
            panic!("JOIN without password must be refused")
        };
        assert!(e.hint.contains("JOIN castle-7 password"), "{e:?}");
        assert_eq!(
            parse("HISTORY race-1 3-5"),
            Some(Ok(Cmd::History(Some("race-1".into()), Some("3-5".into()))))
        );
        assert_eq!(
            parse("HISTORY 4"),
            Some(Ok(Cmd::History(None, Some("4".into()))))
        );
    }
}
