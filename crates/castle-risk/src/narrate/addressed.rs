//! What happened to a seat by another's hand, told to that seat ("What happened to you"):
//! the defender of an attack, the target of a Spy or a Diplomat, the loser of a castle.
//! Public facts only, worded to the one they happened to.

use super::runs::{rolls_text, Attack};
use super::*;

/// `run` told to `seat` if it happened to them and someone else did it.
pub(crate) fn narrate_to(g: &CastleRisk, run: &[&Event], seat: Seat, lang: Lang) -> Option<String> {
    let t = Teller {
        g,
        v: Viewer::Seat(seat),
        lang,
    };
    match run {
        [e] => t.single_to(e, seat),
        _ => t.attack_to(run, seat),
    }
}

impl Teller<'_> {
    /// "You lost Rhine to Alice (3 → 0): 6 5 3 against 4 2; Alice lost 1 and moved in 3."
    /// or "Alice attacked Rhine from Burgundy: 6 5 3 against 4 2 — you lost 2 (3 → 1)."
    fn attack_to(&self, run: &[&Event], seat: Seat) -> Option<String> {
        if matches!(run.first(), Some(Event::Reoccupied { .. })) {
            return None;
        }
        let a = Attack::read(run)?;
        let att = a.seat?;
        if a.defender != Some(seat) || att == seat {
            return None;
        }
        let l = self.lang;
        let who = self.n(att);
        let rolls = rolls_text(&a, l);
        let (al, dl) = a.losses;
        let counts = a
            .defenders()
            .map(|(b, f)| format!(" ({b} → {f})"))
            .unwrap_or_default();
        let mut line = match a.moved {
            Some((m, _)) => {
                let they = match (al, l) {
                    (0, Lang::En) => format!("{who} moved in {m}"),
                    (0, Lang::Fr) => format!("{who} y a fait entrer {}", armees(m)),
                    (_, Lang::En) => format!("{who} lost {al} and moved in {m}"),
                    (_, Lang::Fr) => format!("{who} a perdu {al} et y a fait entrer {}", armees(m)),
                };
                self.pick(
                    format!(
                        "You lost {} to {who}{counts}: {rolls}; {they}.",
                        tn(a.to, l)
                    ),
                    format!(
                        "Vous avez perdu {} au profit {}{counts} : {rolls} ; {they}.",
                        words::le(a.to),
                        self.de(att)
                    ),
                )
            }
            None => {
                let them = match (al, l) {
                    (0, _) => String::new(),
                    (_, Lang::En) => format!(", {who} lost {al}"),
                    (_, Lang::Fr) => format!(", {who} a perdu {al}"),
                };
                let dl = match (dl, l) {
                    (0, Lang::En) => "nothing".to_string(),
                    (0, Lang::Fr) => "rien".to_string(),
                    (n, _) => n.to_string(),
                };
                self.pick(
                    format!(
                        "{who} attacked {} from {}: {rolls} — you lost {dl}{counts}{them}.",
                        tn(a.to, l),
                        tn(a.from, l)
                    ),
                    format!(
                        "{who} a attaqué {} depuis {} : {rolls} — vous avez perdu {dl}{counts}{them}.",
                        words::le(a.to),
                        words::le(a.from)
                    ),
                )
            }
        };
        for e in &a.notes {
            if let Event::MarshalLost { seat: s } = e {
                if *s == seat {
                    line += self.lang.pick(
                        " Your Marshal is beaten and discarded.",
                        " Votre Maréchal est battu et défaussé.",
                    );
                }
            }
        }
        Some(line)
    }

    /// A single event done to `seat` by another: a Spy, a Diplomat's truce, a castle taken.
    fn single_to(&self, e: &Event, seat: Seat) -> Option<String> {
        let l = self.lang;
        Some(match e {
            Event::SpyPlayed { seat: by, target } if *target == seat && *by != seat => self.pick(
                format!("{} plays a Spy on you.", self.n(*by)),
                format!("{} joue un Espion contre vous.", self.n(*by)),
            ),
            Event::SpyDiscarded {
                seat: by,
                target,
                card,
            } if *target == seat && *by != seat => match (card, l) {
                (Some(c), Lang::En) => format!(
                    "{}'s Spy made you discard {} (shown to all).",
                    self.n(*by),
                    words::a_card(*c, l)
                ),
                (Some(c), Lang::Fr) => format!(
                    "L'Espion {} vous a fait défausser {} (montré à tous).",
                    self.de(*by),
                    words::a_card(*c, l)
                ),
                (None, Lang::En) => format!("{}'s Spy found your hand empty.", self.n(*by)),
                (None, Lang::Fr) => format!("L'Espion {} a trouvé votre main vide.", self.de(*by)),
            },
            Event::TruceMade { by, with } if *with == seat && *by != seat => self.pick(
                format!(
                    "{} plays a Diplomat: truce with you for this turn and your next turn.",
                    self.n(*by)
                ),
                format!(
                    "{} joue un Diplomate : trêve avec vous pour ce tour et votre prochain tour.",
                    self.n(*by)
                ),
            ),
            Event::CastleCaptured { victor, loser, t } if *loser == seat && *victor != seat => self
                .pick(
                    format!("{} captured your castle in {}.", self.n(*victor), tn(*t, l)),
                    format!(
                        "{} a pris votre château {}.",
                        self.n(*victor),
                        words::en(*t)
                    ),
                ),
            _ => return None,
        })
    }
}
