//! Narration of events, public and private, in English and French side by side: the
//! events are typed data (game/events.rs), worded here in the reader's language. This file
//! tells the setup; `turns.rs` the cards and turns, `battle.rs` an attack event by event,
//! `runs.rs` runs of like events in one line (an attack with its dice), `addressed.rs`
//! what happened to a seat told to that seat, `end.rs` eliminations and the end of the game.

use crate::cards::{hand_text_in, Card};
use crate::game::{track_number, Awaited, CastleRisk, Earning, EndReason, Event, PlaceWhy, T};
use crate::map::map;
use crate::words::{self, armees, tn};
use castellan_engine::lang::fr;
use castellan_engine::words::{cap, dice_text};
use castellan_engine::{Lang, Seat, Viewer};

mod addressed;
mod battle;
mod end;
mod runs;
mod turns;

pub(crate) use addressed::narrate_to;
pub(crate) use end::end_reason;
pub(crate) use runs::{battle_run, rolls_told, same_battle_run};

/// "3 on Poland, 2 on Paris" / "3 en Pologne, 2 à Paris".
fn placements(p: &[(T, u32)], lang: Lang) -> String {
    p.iter()
        .map(|(t, n)| match lang {
            Lang::En => format!("{n} on {}", tn(*t, lang)),
            Lang::Fr => format!("{} {}", armees(*n), words::en(*t)),
        })
        .collect::<Vec<_>>()
        .join(", ")
}

fn list(ts: &[T], lang: Lang) -> String {
    ts.iter()
        .map(|t| tn(*t, lang))
        .collect::<Vec<_>>()
        .join(", ")
}

/// Is this event only for `seat`'s eyes (None for public events)?
fn private_to(e: &Event) -> Option<Seat> {
    match e {
        Event::RankSent { seat, .. }
        | Event::BlindSent { seat, .. }
        | Event::StandingSet { seat, .. } => Some(*seat),
        _ => None,
    }
}

/// The words narration needs: the reader, names, the language.
struct Teller<'a> {
    g: &'a CastleRisk,
    v: Viewer,
    lang: Lang,
}

impl Teller<'_> {
    fn n(&self, s: Seat) -> String {
        self.g.name(s).to_string()
    }
    /// "d'Alice", "de Bruno".
    fn de(&self, s: Seat) -> String {
        fr::de(self.g.name(s))
    }
    fn me(&self, s: Seat) -> bool {
        self.v == Viewer::Seat(s)
    }
    fn hand(&self, c: &[Card]) -> String {
        hand_text_in(c, self.lang)
    }
    fn pick(&self, en: String, fr: String) -> String {
        self.lang.pick(en, fr)
    }
}

pub fn narrate(g: &CastleRisk, e: &Event, v: Viewer, lang: Lang) -> Option<String> {
    let t = Teller { g, v, lang };
    if let Some(owner) = private_to(e) {
        if !t.me(owner) {
            // Others learn only that something was sent.
            return match e {
                Event::RankSent { seat, .. } => Some(t.pick(
                    format!("{} has sent a ranked list.", t.n(*seat)),
                    format!("{} a envoyé son classement.", t.n(*seat)),
                )),
                Event::BlindSent { seat, .. } => Some(t.pick(
                    format!("{} has sent a placement.", t.n(*seat)),
                    format!("{} a envoyé son placement.", t.n(*seat)),
                )),
                _ => None,
            };
        }
    }
    match e {
        Event::TokensDrawn { .. }
        | Event::CastlePlaced { .. }
        | Event::Claimed { .. }
        | Event::RankSent { .. }
        | Event::Drafted { .. }
        | Event::Dealt { .. }
        | Event::Placed { .. }
        | Event::BlindSent { .. }
        | Event::HiddenCommitted { .. } => Some(t.setup(e)),
        Event::Battle { .. }
        | Event::AttackDeclared { .. }
        | Event::GeneralEngaged { .. }
        | Event::MarshalEngaged { .. }
        | Event::GeneralLost { .. }
        | Event::DiceFewer { .. }
        | Event::MarshalLost { .. }
        | Event::AttackStopped { .. }
        | Event::Conquered { .. }
        | Event::AdmiralLost { .. }
        | Event::AdmiralBack { .. } => Some(t.battle(e)),
        Event::CastleCaptured { .. }
        | Event::Eliminated { .. }
        | Event::Reoccupied { .. }
        | Event::Annexed { .. }
        | Event::GameOver { .. } => Some(t.elimination(e)),
        Event::SpySaw { .. } => t.spy_saw(e),
        _ => t.cards_and_turns(e),
    }
}

impl Teller<'_> {
    fn setup(&self, e: &Event) -> String {
        let l = self.lang;
        match e {
            Event::TokensDrawn { first, tokens } => {
                let drawn = |lang: Lang| {
                    tokens
                        .iter()
                        .map(|(s, e)| match lang {
                            Lang::En => format!("{} {}", self.n(*s), map().empire_name(*e)),
                            Lang::Fr => format!("{} ({})", self.n(*s), words::group(*e, lang)),
                        })
                        .collect::<Vec<_>>()
                        .join(", ")
                };
                self.pick(
                    format!("{} rolled highest and places first. Castle tokens drawn: {}.", self.n(*first), drawn(l)),
                    format!("{} a fait le plus haut dé et place en premier. Jetons de château tirés : {}.", self.n(*first), drawn(l)),
                )
            }
            Event::CastlePlaced { seat, t } => self.pick(
                format!(
                    "{} puts the castle in {} with 1 army.",
                    self.n(*seat),
                    tn(*t, l)
                ),
                format!(
                    "{} place son château {} avec 1 armée.",
                    self.n(*seat),
                    words::en(*t)
                ),
            ),
            Event::Claimed { seat, t } => self.pick(
                format!("{} claims {}.", self.n(*seat), tn(*t, l)),
                format!("{} prend {}.", self.n(*seat), words::le(*t)),
            ),
            Event::RankSent { list: ts, .. } => {
                let what = if ts.is_empty() {
                    l.pick("no preference", "aucune préférence").to_string()
                } else {
                    list(ts, l)
                };
                self.pick(
                    format!("Your ranked list: {what}."),
                    format!("Votre classement : {what}."),
                )
            }
            Event::Drafted { picks } | Event::Dealt { picks } => {
                let mut by: Vec<Vec<T>> = vec![Vec::new(); self.g.n()];
                for (s, t) in picks {
                    by[*s].push(*t);
                }
                let who = by
                    .iter()
                    .enumerate()
                    .map(|(s, ts)| format!("{} {}", self.n(s), list(ts, l)))
                    .collect::<Vec<_>>();
                let drafted = matches!(e, Event::Drafted { .. });
                match l {
                    Lang::En => format!(
                        "{}: {}.",
                        if drafted {
                            "The draft gives"
                        } else {
                            "The random deal gives"
                        },
                        who.join("; ")
                    ),
                    Lang::Fr => format!(
                        "{} : {}.",
                        if drafted {
                            "La répartition donne"
                        } else {
                            "Le tirage au sort donne"
                        },
                        who.join(" ; ")
                    ),
                }
            }
            _ => self.setup_own(e),
        }
    }

    fn setup_own(&self, e: &Event) -> String {
        let l = self.lang;
        match e {
            Event::Placed {
                seat,
                placements: p,
                why,
            } => {
                let why = match (why, l) {
                    (PlaceWhy::Setup, _) => "",
                    (PlaceWhy::Reinforcements, Lang::En) => " (reinforcements)",
                    (PlaceWhy::Earnings, Lang::En) => " (earnings)",
                    (PlaceWhy::Reinforcements, Lang::Fr) => " (renforts)",
                    (PlaceWhy::Earnings, Lang::Fr) => " (nouvelles troupes)",
                };
                self.pick(
                    format!("{} places {}{why}.", self.n(*seat), placements(p, l)),
                    format!("{} place {}{why}.", self.n(*seat), placements(p, l)),
                )
            }
            Event::BlindSent { placements: p, .. } => self.pick(
                format!(
                    "Your placement, revealed when all are in: {}.",
                    placements(p, l)
                ),
                format!(
                    "Votre placement, dévoilé quand tous seront arrivés : {}.",
                    placements(p, l)
                ),
            ),
            Event::HiddenCommitted {
                seat,
                t,
                commitment,
            } => match (self.me(*seat), l) {
                (true, Lang::En) => format!(
                    "Your hidden armies are in {} (commitment {commitment}).",
                    tn(*t, l)
                ),
                (true, Lang::Fr) => format!(
                    "Vos armées cachées sont {} (engagement {commitment}).",
                    words::en(*t)
                ),
                (false, Lang::En) => format!(
                    "{} has chosen a hidden-army territory: commitment {commitment}.",
                    self.n(*seat)
                ),
                (false, Lang::Fr) => format!(
                    "{} a choisi le territoire de ses armées cachées : engagement {commitment}.",
                    self.n(*seat)
                ),
            },
            _ => String::new(),
        }
    }
}
