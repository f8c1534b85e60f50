//! What a game's mail costs its players ("A mail budget"): the outbox of a demo
//! read back, each mail classed by what it is, with the longest report and where its
//! deadline line falls. `castellan demo` prints it; `--json` gives it to scripts.

use serde::Serialize;
use std::collections::BTreeMap;
use std::path::Path;

/// The mail a game sent, measured.
#[derive(Clone, Debug, Default, Serialize)]
pub struct MailBudget {
    /// Mails to the players (not the game master), in all.
    pub to_players: usize,
    /// Mails per player per round, a round being one turn of every seat: `(dice turns of
    /// play) / players`, plus one round for the whole setup.
    pub per_player_per_round: f64,
    /// The rounds counted: play's dice turns over the players, plus one for the setup.
    pub rounds: f64,
    /// Mails to the players by kind: report, your_move, private, reply, final, welcome,
    /// notice.
    pub by_kind: BTreeMap<String, usize>,
    /// The longest turn mail's text part (a report, a player's "your move" report, the
    /// final report), in lines.
    pub longest_report_lines: usize,
    /// The latest line (1-based) at which a report's deadline or "game over" line comes.
    pub latest_deadline_line: usize,
    /// Average size of a mail in bytes (text and HTML parts, headers included).
    pub average_bytes: usize,
}

/// The dice turns of a game's setup: up to the one at whose end the first turn of play (a
/// prompt of [`castellan_engine::PromptRole::Turn`]: a turn, a move) is awaited, which the budget counts as one round; 0
/// when play is awaited from the start.
pub fn setup_turns(session: &dyn castellan_engine::Session) -> u32 {
    (0..=session.turn())
        .find(|t| {
            session.at_turn(*t).is_ok_and(|x| {
                x.pending(castellan_engine::Lang::En)
                    .iter()
                    .any(|p| p.kind.is_turn())
            })
        })
        .unwrap_or(0)
}

/// What a mail is, from its subject and its first line (the demo's mails are English;
/// a reply that carries a report has the report's subject).
fn kind(subject: &str, body: &str) -> &'static str {
    if subject.starts_with("Re:")
        || subject.contains("] Re:")
        || body.starts_with("The judge answers your mail.")
    {
        "reply"
    } else if subject.contains("your move") {
        "your_move"
    } else if subject.contains("your view") || subject.contains("for you alone") {
        "private"
    } else if subject.contains("Game over") {
        "final"
    } else if subject.contains("Welcome") || subject.contains("game master of") {
        "welcome"
    } else if subject.contains(" to move") || subject.contains("Turn ") {
        "report"
    } else {
        "notice"
    }
}

/// Measure the `.eml` files of `outbox` sent to anyone but `gm`.
/// `dice_turns`: the game's dice turns in all; `setup_turns`: those before play began.
pub fn measure(
    outbox: &Path,
    gm: &str,
    players: usize,
    dice_turns: u32,
    setup_turns: u32,
) -> MailBudget {
    let mut b = MailBudget::default();
    let Ok(rd) = std::fs::read_dir(outbox) else {
        return b;
    };
    let mut bytes = 0usize;
    let mut all = 0usize;
    for e in rd.flatten() {
        let p = e.path();
        if p.extension().is_none_or(|x| x != "eml") {
            continue;
        }
        let Ok(raw) = std::fs::read(&p) else { continue };
        bytes += raw.len();
        all += 1;
        let Ok(m) = castellan_mail::parse(&raw, usize::MAX) else {
            continue;
        };
        if m.to.iter().any(|t| t == gm) {
            continue;
        }
        b.to_players += 1;
        let k = kind(&m.subject, &m.body);
        *b.by_kind.entry(k.to_string()).or_default() += 1;
        // Every turn mail: the table's report, a player's own ("your move"), the end.
        if k == "report" || k == "final" || k == "your_move" {
            let lines: Vec<&str> = m.body.lines().collect();
            b.longest_report_lines = b.longest_report_lines.max(lines.len());
            if let Some(i) = lines
                .iter()
                .position(|l| l.starts_with("Deadline:") || l.starts_with("The game is over:"))
            {
                b.latest_deadline_line = b.latest_deadline_line.max(i + 1);
            }
        }
    }
    let play = f64::from(dice_turns.saturating_sub(setup_turns));
    let rounds = (play / players.max(1) as f64 + f64::from(u8::from(setup_turns > 0))).max(1.0);
    b.rounds = rounds;
    b.per_player_per_round = b.to_players as f64 / players.max(1) as f64 / rounds;
    b.average_bytes = bytes.checked_div(all).unwrap_or(0);
    b
}
