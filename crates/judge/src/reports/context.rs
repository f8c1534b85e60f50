//! What a report says, as typed contexts for the templates: dice, seats out, placings,
//! the outcome.

use crate::mails::*;
use crate::model::*;
use crate::run::*;
use castellan_engine::{Lang, Session};
use serde::Serialize;

/// A revealed dice seed.
#[derive(Clone, Debug, Serialize)]
pub(crate) struct Reveal {
    pub turn: u32,
    pub seed: String,
}

/// A die rolled since the last report.
#[derive(Clone, Debug, Serialize)]
pub(crate) struct RollCtx {
    pub turn: u32,
    pub index: u32,
    pub sides: u8,
    pub value: u8,
}

impl From<&castellan_engine::Roll> for RollCtx {
    fn from(r: &castellan_engine::Roll) -> RollCtx {
        RollCtx {
            turn: r.turn,
            index: r.index,
            sides: r.sides,
            value: r.value,
        }
    }
}

/// A seat as the public report lists it.
#[derive(Clone, Debug, Serialize)]
pub(crate) struct PlayerCtx {
    pub name: String,
    pub bot: bool,
    pub resigned: bool,
    /// Out of the game (eliminated).
    pub out: bool,
}

/// A seat out of the game, as a report tells it.
#[derive(Clone, Debug, Serialize)]
pub(crate) struct OutCtx {
    #[serde(skip)]
    pub seat: usize,
    pub name: String,
    pub turn: u32,
    /// Who put it out, when the game says.
    pub by: Option<String>,
    /// The same after French "de" ("d'Anna", "de Bob").
    pub by_de: Option<String>,
    /// The reader's own seat, told for the first time.
    pub newly: bool,
}

/// One line of the final standings: the winners first, then those still in at the end by
/// the game's measure, then those out, the last out highest (`placings`).
#[derive(Clone, Debug, Serialize)]
pub(crate) struct PlaceCtx {
    /// 1-based; seats tied share it ("1, 2, 2, 4").
    pub place: usize,
    pub name: String,
    pub winner: bool,
    /// The turn the seat went out on, if it did.
    pub out_turn: Option<u32>,
}

/// How the game ended, in the reader's language (`templates/LANG/outcome.txt`).
#[derive(Clone, Debug, Default, Serialize)]
pub(crate) struct OutcomeCtx {
    pub ended_by_gm: bool,
    pub winners: Vec<String>,
    pub reason: String,
}

/// The public report (`templates/LANG/report.txt`).
#[derive(Clone, Debug, Serialize)]
pub(crate) struct Report {
    pub game_id: String,
    pub game: String,
    pub turn: u32,
    pub happened: Vec<String>,
    pub rolls: Vec<RollCtx>,
    /// The dice no line of "What happened" shows (`Narration::untold`: setup's, a game
    /// that does not tell its rolls), compact: one line per dice turn, "3.1-3.14: 5 2 6
    /// ..." (a die of other than six sides as value/sides).
    pub dice: Vec<String>,
    /// Seats that missed a deadline since the last report, and what was played for them.
    pub missed: Vec<Missed>,
    pub map: String,
    /// The lines of the map that changed since the last report, each under its section's
    /// heading; `None`: the reader gets the whole map.
    pub map_changes: Option<Vec<String>>,
    pub awaiting: Vec<String>,
    pub deadline: Option<String>,
    pub deadline_short: Option<String>,
    pub finished: bool,
    pub outcome: OutcomeCtx,
    pub secret_key: Option<String>,
    pub secret_commitment: String,
    pub commitment: String,
    /// The game rolls public dice: the dice audit names the chain and its seeds.
    pub rolls_dice: bool,
    /// The game draws hidden cards: the secret stream's commitment (at the start) and key
    /// (at the end).
    pub draws_hidden: bool,
    pub revealed: Vec<Reveal>,
    pub revealed_last: Option<u32>,
    pub next_turn: u32,
    pub players: Vec<PlayerCtx>,
    /// Seats out of the game since the reader's last report, in the order they went out.
    pub out_now: Vec<OutCtx>,
    /// The game is over: every seat by its place.
    pub standings: Vec<PlaceCtx>,
    /// The reader's seat is out of the game: what they read instead of a private part.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub you_out: Option<OutCtx>,
    /// The reader's own seat, when the report goes to a player: what it is asked (at the
    /// top), what only it was told, its private view. One mail a turn, not two.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub me: Option<Private>,
}

/// A seat's private mail (`templates/LANG/private.txt`).
#[derive(Clone, Debug, Serialize)]
pub(crate) struct Private {
    pub game_id: String,
    pub name: String,
    pub turn: u32,
    pub happened: Vec<String>,
    /// What happened to this seat by another's hand, told to it ("What happened to you"):
    /// the public lines it stands for are left out of this seat's "What happened".
    pub addressed: Vec<String>,
    /// A question's mail: what the table has seen happen since the last report (the
    /// attack being answered), which the turn's report will tell everyone.
    pub context: Vec<String>,
    /// A question's mail: the seats out of the game since the last report (the turn's
    /// report tells the table).
    pub out_now: Vec<OutCtx>,
    pub view: String,
    /// Whom the game waits for (the subject says whose move it is).
    pub awaiting: Vec<String>,
    pub prompts: Vec<PromptCtx>,
    pub deadline: Option<String>,
    pub deadline_short: Option<String>,
}

/// What happened to `seat` by another's hand, told to it in its own section: the table's
/// lines those stand for leave this seat's "What happened" (each event once a mail).
/// `n` is the narration `ctx.happened` was made from.
pub(super) fn told_to_the_seat(
    ctx: &mut Report,
    me: &mut Private,
    n: &castellan_engine::Narration,
    seat: usize,
) {
    let (mine, covered) = n.addressed_to(seat);
    me.addressed = mine.into_iter().map(str::to_string).collect();
    ctx.happened = std::mem::take(&mut ctx.happened)
        .into_iter()
        .enumerate()
        .filter(|(i, _)| !covered.contains(i))
        .map(|(_, l)| l)
        .collect();
}

/// The dice facts of a report: seeds revealed now, and the commitments.
pub(super) struct Dice {
    pub(super) revealed: Vec<Reveal>,
    pub(super) revealed_last: u32,
    pub(super) commitment: String,
    pub(super) secret_commitment: String,
    pub(super) secret_key: Option<String>,
}

/// Turns before the current one are over: reveal their seeds (each once), and the secret
/// key once the game is over.
pub(super) fn dice(rec: &GameRecord, session: &mut dyn Session, finished: bool) -> Dice {
    let turn = session.turn();
    let upto = if finished {
        turn
    } else {
        turn.saturating_sub(1)
    };
    let revealed = ((rec.revealed + 1)..=upto)
        .map(|t| Reveal {
            turn: t,
            seed: session.dice().turn_seed(t).hex(),
        })
        .collect();
    Dice {
        revealed,
        revealed_last: upto.max(rec.revealed),
        commitment: session.dice().commitment_for(turn).hex(),
        secret_commitment: session.dice().secret_commitment().hex(),
        secret_key: finished.then(|| session.dice().secret_key().hex()),
    }
}

/// The dice of a report, one line per run of one dice turn: "3.1-3.14: 5 2 6 1 ...".
pub(crate) fn compact_dice(rolls: &[castellan_engine::dice::Roll]) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    let mut run: Option<(u32, u32, u32, Vec<String>)> = None;
    for r in rolls {
        let v = if r.sides == 6 {
            r.value.to_string()
        } else {
            format!("{}/{}", r.value, r.sides)
        };
        match &mut run {
            Some((turn, _, last, values)) if *turn == r.turn && r.index == *last + 1 => {
                *last = r.index;
                values.push(v);
            }
            _ => {
                if let Some(done) = run.take() {
                    out.push(dice_line(done));
                }
                run = Some((r.turn, r.index, r.index, vec![v]));
            }
        }
    }
    if let Some(done) = run {
        out.push(dice_line(done));
    }
    out
}

pub(super) fn dice_line((turn, first, last, values): (u32, u32, u32, Vec<String>)) -> String {
    if first == last {
        format!("{turn}.{first}: {}", values.join(" "))
    } else {
        format!("{turn}.{first}-{turn}.{last}: {}", values.join(" "))
    }
}

pub(super) fn out_ctx(rec: &GameRecord, o: &OutSeat) -> OutCtx {
    let by = o.by.map(|b| seat_name(rec, b));
    OutCtx {
        seat: o.seat,
        name: seat_name(rec, o.seat),
        turn: o.turn,
        by_de: by.as_deref().map(castellan_engine::lang::fr::de),
        by,
        newly: !o.told,
    }
}

/// The final placings as (place, seat), best first: the winners (sharing the first place),
/// then the seats still in at the end by the game's measure (highest first; equal ones, or
/// all of them without a measure, share a place), then the seats out, the last out highest.
/// Places count the seats before ("1, 2, 2, 4").
pub(crate) fn placings(
    seats: usize,
    winners: &[usize],
    out: &[usize],
    measure: Option<&[Vec<i64>]>,
) -> Vec<(usize, usize)> {
    let mut groups: Vec<Vec<usize>> = Vec::new();
    let winners: Vec<usize> = (0..seats).filter(|s| winners.contains(s)).collect();
    if !winners.is_empty() {
        groups.push(winners.clone());
    }
    let key = |s: usize| measure.and_then(|m| m.get(s)).cloned().unwrap_or_default();
    let mut still: Vec<usize> = (0..seats)
        .filter(|s| !winners.contains(s) && !out.contains(s))
        .collect();
    still.sort_by(|a, b| key(*b).cmp(&key(*a)).then(a.cmp(b)));
    let mut level: Vec<Vec<usize>> = Vec::new();
    for s in still {
        match level.last_mut() {
            Some(g) if key(g[0]) == key(s) => g.push(s),
            _ => level.push(vec![s]),
        }
    }
    groups.extend(level);
    for s in out
        .iter()
        .rev()
        .filter(|s| **s < seats && !winners.contains(s))
    {
        groups.push(vec![*s]);
    }
    let mut places = Vec::new();
    for g in groups {
        let place = places.len() + 1;
        places.extend(g.into_iter().map(|s| (place, s)));
    }
    places
}

pub(super) fn standings(rec: &GameRecord, session: &dyn Session) -> Vec<PlaceCtx> {
    let winners = session.outcome().map(|o| o.winners).unwrap_or_default();
    let out: Vec<usize> = rec.out.iter().map(|o| o.seat).collect();
    let measure = session.measure();
    let places = placings(rec.seats.len(), &winners, &out, measure.as_deref());
    // Everyone sharing the first place (a draw, or a game the game master ended with no
    // measure to rank by): the outcome says it, a list would add nothing.
    if places.iter().all(|(p, _)| *p == 1) {
        return Vec::new();
    }
    places
        .into_iter()
        .map(|(place, s)| PlaceCtx {
            place,
            name: seat_name(rec, s),
            winner: winners.contains(&s),
            out_turn: rec.out.iter().find(|o| o.seat == s).map(|o| o.turn),
        })
        .collect()
}

pub(super) fn outcome(rec: &GameRecord, session: &dyn Session, lang: Lang) -> OutcomeCtx {
    match session.outcome() {
        Some(o) => OutcomeCtx {
            ended_by_gm: false,
            winners: o.winners.iter().map(|w| seat_name(rec, *w)).collect(),
            reason: o.reason_in(lang).to_string(),
        },
        None => OutcomeCtx {
            ended_by_gm: rec.status == Status::Finished,
            ..Default::default()
        },
    }
}

#[cfg(test)]
mod placing_tests {
    use super::*;

    /// The final report once had no standings or placings; now it has. The winner
    /// first, then those still in by the game's measure (ties share a place), then those
    /// out, the last out highest.
    #[test]
    fn the_winner_then_the_survivors_by_measure_then_the_last_out_highest() {
        // Five seats: 2 wins; 0 and 4 still in (4 holds more); 3 went out before 1.
        let m = vec![vec![5, 9], vec![0, 0], vec![20, 40], vec![0, 0], vec![7, 3]];
        assert_eq!(
            placings(5, &[2], &[3, 1], Some(&m)),
            vec![(1, 2), (2, 4), (3, 0), (4, 1), (5, 3)]
        );
        // Equal measures share a place; the next place counts the seats before it.
        let m = vec![vec![5], vec![5], vec![9], vec![1]];
        assert_eq!(
            placings(4, &[2], &[], Some(&m)),
            vec![(1, 2), (2, 0), (2, 1), (4, 3)]
        );
        // No measure: those still in share the place after the winners.
        assert_eq!(
            placings(4, &[1], &[0], None),
            vec![(1, 1), (2, 2), (2, 3), (4, 0)]
        );
        // Shared win.
        assert_eq!(
            placings(3, &[0, 2], &[1], None),
            vec![(1, 0), (1, 2), (3, 1)]
        );
    }
}
