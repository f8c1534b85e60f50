//! Outgoing mail as data: drafts, sections, the prompts shown, the notices' events (the
//! reply and the mails queued are made in reply.rs).

use castellan_engine::Lang;
use castellan_engine::{Prompt, Session};

/// A section of a reply: a title and its text.
#[derive(Clone, Debug, serde::Serialize)]
pub(crate) struct Section {
    pub(crate) title: String,
    pub(crate) text: String,
    /// The answer to orders: its events are left to a report the reply carries.
    #[serde(skip)]
    pub(crate) events: bool,
}

/// The answer to a mail (`templates/LANG/reply.txt`): its sections in order.
#[derive(Clone, Debug, serde::Serialize)]
pub(crate) struct Reply {
    pub sections: Vec<Section>,
    /// The turn mails this reply carries (its writer's own report of the game their mail
    /// moved): one mail, not two.
    pub then: Vec<String>,
    pub judge: String,
}

/// A mail before its Message-ID is made.
pub(crate) struct Draft {
    pub(crate) to: String,
    pub(crate) subject: String,
    pub(crate) body: String,
    pub(crate) in_reply_to: Option<String>,
    pub(crate) references: Vec<String>,
    pub(crate) headers: Vec<(String, String)>,
    /// The HTML part (html.rs), if the mail has one.
    pub(crate) html: Option<String>,
    /// The game it is about, if any (STOP keeps a game's mail to its players).
    pub(crate) game: Option<String>,
    /// The language it is written in, when known (the confirmation paragraph follows it).
    pub(crate) lang: Option<Lang>,
    /// A game's mail to one reader (report or private), which the reply to that reader
    /// takes in when the same handling makes both.
    pub(crate) for_reader: bool,
    /// The picture of its HTML part, kept to redraw the page when a reply takes it in.
    pub(crate) svg: Option<String>,
    /// A confirmation: the one mail an address named by someone else gets before it has
    /// confirmed its seat (optin.rs); no other mail of the game goes to it until then.
    pub(crate) confirm: bool,
    /// Files it carries (VERIFY's reply: the dice script).
    pub(crate) attachments: Vec<crate::model::Attachment>,
}

/// A prompt as the templates show it.
#[derive(Clone, Debug, serde::Serialize)]
pub(crate) struct PromptCtx {
    pub kind: String,
    pub question: String,
    pub choices: Vec<String>,
    /// The choices as the mail lays them out: one a line, or several a line when each is
    /// short (Castello's "A5-A3"), so a long list of moves stays a few lines. At most
    /// [`CHOICE_ROWS`] rows in all: past that, the first rows, how many choices were left
    /// out (`more_choices`), and the last row (`last_rows`: often END).
    pub choice_rows: Vec<String>,
    pub more_choices: usize,
    pub last_rows: Vec<String>,
    pub default: String,
    pub standing: Option<String>,
}

/// The most rows of choices a mail shows: they are examples; the order help has the rest.
pub(crate) const CHOICE_ROWS: usize = 6;

impl From<&Prompt> for PromptCtx {
    fn from(p: &Prompt) -> PromptCtx {
        // One short word each (at most 12 characters, no space: Castello's moves): 8 to a
        // line; any other choice, one a line, so each line can be copied.
        let word = |c: &String| c.chars().count() <= 12 && !c.contains(char::is_whitespace);
        let per_row = if p.choices.iter().all(word) { 8 } else { 1 };
        let rows: Vec<&[String]> = p.choices.chunks(per_row).collect();
        let (shown, more, last) = if rows.len() > CHOICE_ROWS {
            let keep = CHOICE_ROWS - 2;
            let left_out = &rows[keep..rows.len() - 1];
            (
                &rows[..keep],
                left_out.iter().map(|r| r.len()).sum(),
                &rows[rows.len() - 1..],
            )
        } else {
            (&rows[..], 0, &rows[..0])
        };
        let join = |rs: &[&[String]]| rs.iter().map(|r| r.join("  ")).collect();
        PromptCtx {
            kind: p.kind.as_str().to_string(),
            question: p.question.clone(),
            choice_rows: join(shown),
            more_choices: more,
            last_rows: join(last),
            choices: p.choices.clone(),
            default: p.default.clone(),
            standing: p.standing.clone(),
        }
    }
}

/// What a seat is asked now, in `lang`.
pub(crate) fn prompts_of(session: &dyn Session, seat: usize, lang: Lang) -> Vec<PromptCtx> {
    session
        .pending(lang)
        .iter()
        .filter(|p| p.seat == seat)
        .map(PromptCtx::from)
        .collect()
}

/// What a notice tells a game's readers (`templates/LANG/notice.txt`, by `event`).
#[derive(Clone, Debug, serde::Serialize)]
#[serde(tag = "event", rename_all = "snake_case")]
pub(crate) enum Event {
    Joined {
        name: String,
        address: String,
        open_left: usize,
    },
    Resigned {
        name: String,
    },
    /// A seat missed `misses` deadlines in a row: civil disorder.
    CivilDisorder {
        name: String,
        misses: u32,
    },
    Paused,
    Resumed,
    Extended {
        hours: u32,
    },
    /// DEADLINE n: the deadline is now n hours away.
    DeadlineSet {
        hours: u32,
    },
    Replaced {
        name: String,
    },
    Kicked {
        name: String,
    },
    /// `tries` failed password tries on a seat (`name`; empty: the game master's) this
    /// hour: its password is locked until the hour ends.
    PasswordLocked {
        name: String,
        tries: u32,
    },
    /// `tries` wrong tokens came from the address of the seat `name` (empty: the game
    /// master) this hour: its tokens are not checked until the hour ends.
    TokenLocked {
        name: String,
        tries: u32,
    },
    /// `tries` wrong join passwords were tried this hour: JOIN is not checked until the
    /// hour ends.
    JoinLocked {
        tries: u32,
    },
    /// Mail to the seat `name` at `address` came back undelivered for good `bounces` times:
    /// the judge mails it no more until it writes (crate::bounces).
    Bounced {
        name: String,
        address: String,
        bounces: u32,
    },
    /// The game cannot be loaded: it waits, its mail kept, until it can.
    Quarantined {
        why: String,
    },
}

/// A notice's context: the event, and the game's deadline in the reader's language.
#[derive(Clone, Debug, serde::Serialize)]
pub(crate) struct Notice {
    pub game_id: String,
    #[serde(flatten)]
    pub event: Event,
    pub deadline: Option<String>,
}

/// The `List-Unsubscribe` header of every mail (RFC 2369): a mail to the judge saying STOP.
pub(crate) fn list_unsubscribe(judge: &str) -> (String, String) {
    (
        "List-Unsubscribe".into(),
        format!("<mailto:{judge}?subject=STOP>"),
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    fn prompt(choices: &[&str]) -> Prompt {
        Prompt {
            seat: 0,
            kind: castellan_engine::toy::Ask::Turn.into(),
            question: "Your turn".into(),
            choices: choices.iter().map(|c| c.to_string()).collect(),
            default: "END".into(),
            standing: None,
        }
    }

    /// No report over 120 lines: a long list of example lines shows its first
    /// rows, how many were left out, and its last (END); short one-word moves go eight a
    /// line; a short list is shown whole.
    #[test]
    fn choices_are_examples_a_few_lines_long() {
        let attacks: Vec<String> = (0..8).map(|i| format!("ATTACK T{i} FROM S")).collect();
        let mut all: Vec<&str> = attacks.iter().map(String::as_str).collect();
        all.push("END");
        let p = PromptCtx::from(&prompt(&all));
        assert_eq!(p.choice_rows.len(), CHOICE_ROWS - 2);
        assert_eq!(p.choice_rows[3], "ATTACK T3 FROM S");
        assert_eq!(p.more_choices, 4);
        assert_eq!(p.last_rows, vec!["END"]);
        let moves: Vec<String> = (0..20).map(|i| format!("A{i}-B{i}")).collect();
        let m: Vec<&str> = moves.iter().map(String::as_str).collect();
        let p = PromptCtx::from(&prompt(&m));
        assert_eq!(p.choice_rows.len(), 3);
        assert_eq!(p.choice_rows[0].split("  ").count(), 8);
        assert_eq!((p.more_choices, p.last_rows.len()), (0, 0));
        let p = PromptCtx::from(&prompt(&["ADD 1", "ADD 2"]));
        assert_eq!(p.choice_rows, vec!["ADD 1", "ADD 2"]);
    }
}
