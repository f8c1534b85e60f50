//! Castles captured, players eliminated, re-occupation and annexation, the end of the game.

use super::*;
use castellan_engine::words::and_list;

impl Teller<'_> {
    pub(super) fn elimination(&self, e: &Event) -> String {
        let l = self.lang;
        match e {
            Event::CastleCaptured { victor, loser, t } => self.pick(
                format!(
                    "{} captures {}'s castle in {}!",
                    self.n(*victor),
                    self.n(*loser),
                    tn(*t, l)
                ),
                format!(
                    "{} prend le château {} {} !",
                    self.n(*victor),
                    self.de(*loser),
                    words::en(*t)
                ),
            ),
            Event::Eliminated { .. } => self.eliminated(e),
            Event::Reoccupied { seat, t, from } => self.pick(
                format!(
                    "{} re-occupies {} with an army from {}.",
                    self.n(*seat),
                    tn(*t, l),
                    tn(*from, l)
                ),
                format!(
                    "{} réoccupe {} avec une armée venue {}.",
                    self.n(*seat),
                    words::le(*t),
                    words::de(*from)
                ),
            ),
            Event::Annexed {
                seat,
                t,
                from: Some(f),
            } => self.pick(
                format!(
                    "{} annexes {} with an army from {}.",
                    self.n(*seat),
                    tn(*t, l),
                    tn(*f, l)
                ),
                format!(
                    "{} annexe {} avec une armée venue {}.",
                    self.n(*seat),
                    words::le(*t),
                    words::de(*f)
                ),
            ),
            Event::Annexed {
                seat,
                t,
                from: None,
            } => self.pick(
                format!(
                    "{} annexes {} with a new army (nobody could spare one).",
                    self.n(*seat),
                    tn(*t, l)
                ),
                format!(
                    "{} annexe {} avec une nouvelle armée (personne ne pouvait en céder une).",
                    self.n(*seat),
                    words::le(*t)
                ),
            ),
            _ => self.game_over(e),
        }
    }

    fn game_over(&self, e: &Event) -> String {
        let Event::GameOver { winners, reason } = e else {
            return String::new();
        };
        let names: Vec<String> = winners.iter().map(|s| self.n(*s)).collect();
        let why = end_reason(self.g, winners, reason, self.lang);
        self.pick(
            format!("Game over: {} ({why}).", names.join(", ")),
            format!("Partie terminée : {} ({why}).", and_list(&names, Lang::Fr)),
        )
    }

    fn eliminated(&self, e: &Event) -> String {
        let Event::Eliminated {
            seat,
            by,
            armies_removed,
            tokens,
            cards,
            hidden_taken,
        } = e
        else {
            return String::new();
        };
        let l = self.lang;
        let tok = tokens
            .iter()
            .map(|t| words::group(*t, l))
            .collect::<Vec<_>>()
            .join(", ");
        let base = match l {
            Lang::En => format!(
                "{} is eliminated: {} leave the board; {} takes {} {tok}, {}{}.",
                self.n(*seat),
                castellan_engine::lang::en::count(*armies_removed, "army", "armies"),
                self.n(*by),
                if tokens.len() == 1 {
                    "the castle token"
                } else {
                    "the castle tokens"
                },
                castellan_engine::lang::en::count(cards.len() as i64, "card", "cards"),
                if *hidden_taken > 0 {
                    " and the unused hidden armies"
                } else {
                    ""
                }
            ),
            Lang::Fr => format!(
                "Élimination {} : {} quittent le plateau ; {} prend {} ({tok}), {}{}.",
                self.de(*seat),
                armees(*armies_removed),
                self.n(*by),
                if tokens.len() == 1 {
                    "le jeton de château"
                } else {
                    "les jetons de château"
                },
                fr::count(cards.len() as i64, "carte", "cartes"),
                if *hidden_taken > 0 {
                    " et les armées cachées inutilisées"
                } else {
                    ""
                }
            ),
        };
        if self.me(*by) {
            self.pick(
                format!("{base} The cards you take: {}.", self.hand(cards)),
                format!("{base} Les cartes que vous prenez : {}.", self.hand(cards)),
            )
        } else {
            base
        }
    }
}

/// Why the game ended, in `lang` (the outcome's reason and the last line of the history).
pub(crate) fn end_reason(
    g: &CastleRisk,
    winners: &[Seat],
    reason: &EndReason,
    lang: Lang,
) -> String {
    match (reason, lang) {
        (EndReason::Tokens(v), Lang::En) => format!("{} holds every castle token", g.name(*v)),
        (EndReason::Tokens(v), Lang::Fr) => {
            format!("{} détient tous les jetons de château", g.name(*v))
        }
        (EndReason::TurnLimit { turns, leader }, Lang::En) => format!(
            "turn limit reached ({turns} turns); leader by territories: {}",
            leader.map(|s| g.name(s)).unwrap_or("nobody")
        ),
        (EndReason::TurnLimit { turns, leader }, Lang::Fr) => format!(
            "limite de tours atteinte ({}) ; en tête aux territoires : {}",
            fr::count(*turns, "tour", "tours"),
            leader.map(|s| g.name(s)).unwrap_or("personne")
        ),
        (EndReason::Stalemate { turns, standings }, _) => {
            stalemate(g, winners, *turns, standings, lang)
        }
    }
}

/// "stalemate after 33 turns: ...; decided by territories, then armies: Bruno wins (Bruno
/// 23 territories, 23 armies; Alice 21 territories, 27 armies)".
fn stalemate(
    g: &CastleRisk,
    winners: &[Seat],
    turns: u32,
    table: &[(Seat, usize, u64)],
    lang: Lang,
) -> String {
    let standings = table
        .iter()
        .map(|&(s, t, a)| match lang {
            Lang::En => format!(
                "{} {}, {}",
                g.name(s),
                castellan_engine::lang::en::count(t as i64, "territory", "territories"),
                castellan_engine::lang::en::count(a as i64, "army", "armies")
            ),
            Lang::Fr => format!(
                "{} {}, {}",
                g.name(s),
                fr::count(t as i64, "territoire", "territoires"),
                fr::count(a as i64, "armée", "armées")
            ),
        })
        .collect::<Vec<_>>()
        .join("; ");
    let names: Vec<String> = winners.iter().map(|s| g.name(*s).to_string()).collect();
    match lang {
        Lang::En => {
            let verdict = match winners {
                [w] => format!("{} wins", g.name(*w)),
                _ => format!("shared by {}", names.join(", ")),
            };
            format!(
                "stalemate after {turns} turns: no player can ever attack or gain an army again \
                 (every Reinforcements card is on the track, nobody earns, no hidden armies can be \
                 revealed, no territory of 2+ armies borders an enemy by land or sea); decided by \
                 territories, then armies: {verdict} ({standings})"
            )
        }
        Lang::Fr => {
            let verdict = match winners {
                [w] => format!("{} gagne", g.name(*w)),
                _ => format!("partagée entre {}", and_list(&names, Lang::Fr)),
            };
            format!(
                "blocage après {} : plus aucun joueur ne pourra attaquer ni gagner d'armée \
                 (toutes les cartes Renfort sont jouées, personne ne reçoit de nouvelles troupes, \
                 aucune armée cachée ne peut être dévoilée, aucun territoire de 2 armées ou plus ne \
                 touche un ennemi par terre ou par mer) ; décidé aux territoires, puis aux armées : \
                 {verdict} ({})",
                fr::count(turns, "tour", "tours"),
                standings.replace("; ", " ; ")
            )
        }
    }
}
