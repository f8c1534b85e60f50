//! What happened, told to a viewer in English or French (each English phrase next to
//! its French one).

use crate::orders::order_text_in;
use crate::words::{cartes, list_in, plural};
use crate::*;
use castellan_engine::lang::fr;
use castellan_engine::words::and_list;

/// The viewer, the language and the game an event is told in.
struct Teller<'a> {
    g: &'a Castrum,
    viewer: Viewer,
    lang: Lang,
}

impl Teller<'_> {
    fn n(&self, s: &Seat) -> String {
        self.g.name(*s).to_string()
    }
    /// "d'Alice", "de Bob".
    fn de(&self, s: &Seat) -> String {
        fr::de(self.g.name(*s))
    }
    fn mine(&self, s: &Seat) -> bool {
        self.viewer == Viewer::Seat(*s)
    }
    fn list(&self, cards: &[Card]) -> String {
        list_in(cards, self.lang)
    }
    fn en(&self) -> bool {
        self.lang == Lang::En
    }
}

/// The event told to `viewer` (`None`: not for them).
pub fn narrate(g: &Castrum, ev: &Event, viewer: Viewer, lang: Lang) -> Option<String> {
    let t = Teller { g, viewer, lang };
    match ev {
        Event::FirstPlayer { .. }
        | Event::Drew { .. }
        | Event::Reshuffled { .. }
        | Event::TurnBegins { .. }
        | Event::TurnEnds { .. }
        | Event::Discarded { .. } => turn_events(&t, ev),
        Event::Placed { .. }
        | Event::Wheel { .. }
        | Event::Built { .. }
        | Event::Exchanged { .. }
        | Event::ExchangeFailed { .. } => site_events(&t, ev),
        Event::MageLeaves { .. }
        | Event::Attacked { .. }
        | Event::Defended { .. }
        | Event::Stolen { .. }
        | Event::Blocked { .. } => attack_events(&t, ev),
        Event::FireDie { .. } | Event::FireLots { .. } | Event::Witch { .. } => {
            damage_events(&t, ev)
        }
        _ => round_events(&t, ev),
    }
}

fn first_player(t: &Teller, rolls: &[Vec<(Seat, u8)>], seat: &Seat) -> String {
    let r: Vec<String> = rolls
        .iter()
        .map(|round| {
            round
                .iter()
                .map(|(s, v)| format!("{} {v}", t.n(s)))
                .collect::<Vec<_>>()
                .join(", ")
        })
        .collect();
    match t.lang {
        Lang::En => format!(
            "Dice for the first turn: {}. {} begins.",
            r.join("; then "),
            t.n(seat)
        ),
        Lang::Fr => format!(
            "Dés pour désigner le premier joueur : {}. {} commence.",
            r.join(" ; puis "),
            t.n(seat)
        ),
    }
}

fn turn_events(t: &Teller, ev: &Event) -> Option<String> {
    let en = t.en();
    Some(match ev {
        Event::FirstPlayer { rolls, seat } => first_player(t, rolls, seat),
        Event::Drew { seat, cards } if t.mine(seat) => match t.lang {
            Lang::En => format!("You draw {}: {}.", plural(cards.len(), "card"), t.list(cards)),
            Lang::Fr => format!("Vous piochez {} : {}.", cartes(cards.len()), t.list(cards)),
        },
        Event::Drew { seat, cards } if en => {
            format!("{} draws {}.", t.n(seat), plural(cards.len(), "card"))
        }
        Event::Drew { seat, cards } => format!("{} pioche {}.", t.n(seat), cartes(cards.len())),
        Event::Reshuffled { cards } if en => format!(
            "The pile is empty: the {} cards under it are shuffled into a new pile.",
            cards
        ),
        Event::Reshuffled { cards } => format!(
            "La pioche est vide : les {} placées dessous sont mélangées et forment une nouvelle pioche.",
            cartes(*cards)
        ),
        Event::TurnBegins { seat, round } if en => {
            format!("Round {round}: {}'s turn.", t.n(seat))
        }
        Event::TurnBegins { seat, round } => {
            format!("Tour de table {round} : c'est au tour {}.", t.de(seat))
        }
        Event::TurnEnds { seat } if en => format!("{}'s turn ends.", t.n(seat)),
        Event::TurnEnds { seat } => format!("Fin du tour {}.", t.de(seat)),
        Event::Discarded { seat, cards } if t.mine(seat) => match t.lang {
            Lang::En => format!("You discard {}.", t.list(cards)),
            Lang::Fr => format!("Vous défaussez {}.", t.list(cards)),
        },
        Event::Discarded { seat, cards } if en => {
            format!("{} discards {}.", t.n(seat), plural(cards.len(), "card"))
        }
        Event::Discarded { seat, cards } => {
            format!("{} défausse {}.", t.n(seat), cartes(cards.len()))
        }
        _ => return None,
    })
}

fn site_events(t: &Teller, ev: &Event) -> Option<String> {
    let en = t.en();
    Some(match ev {
        Event::Placed { seat, card } if en => {
            format!("{} puts {} on their site.", t.n(seat), card.name())
        }
        Event::Placed { seat, card } => {
            format!("{} pose une carte {} sur son chantier.", t.n(seat), card.name())
        }
        Event::Wheel { seat } if en => format!(
            "{} plays the Roue de Carrier: 3 more building cards on their site this turn.",
            t.n(seat)
        ),
        Event::Wheel { seat } => format!(
            "{} joue la Roue de Carrier : encore 3 cartes de construction sur son chantier ce tour-ci.",
            t.n(seat)
        ),
        Event::Built {
            seat,
            piece,
            used,
            walls,
            towers,
        } => match t.lang {
            Lang::En => format!(
                "{} builds a {} (using {}): {} and {}.",
                t.n(seat),
                piece.name(),
                t.list(used),
                plural(*walls as usize, "wall"),
                plural(*towers as usize, "tower")
            ),
            Lang::Fr => format!(
                "{} construit une {} (avec {}) : {} et {}.",
                t.n(seat),
                piece.name_in(Lang::Fr),
                t.list(used),
                Piece::Wall.count_in(*walls, Lang::Fr),
                Piece::Tower.count_in(*towers, Lang::Fr)
            ),
        },
        Event::Exchanged { seat, card } if en => format!(
            "{} exchanges a {} of their site for two {} from the pile (the pile is shuffled).",
            t.n(seat),
            card.name(),
            card.simple().name()
        ),
        Event::Exchanged { seat, card } => format!(
            "{} échange une carte {} de son chantier contre deux cartes {} de la pioche (la pioche est mélangée).",
            t.n(seat),
            card.name(),
            card.simple().name()
        ),
        Event::ExchangeFailed { seat, card } if en => format!(
            "{} looks for two {} in the pile to exchange a {} of their site, and finds fewer: the {} stays on the site.",
            t.n(seat),
            card.simple().name(),
            card.name(),
            card.name()
        ),
        Event::ExchangeFailed { seat, card } => format!(
            "{} cherche deux cartes {} dans la pioche pour échanger une carte {} de son chantier, et en trouve moins : la carte {} reste sur le chantier.",
            t.n(seat),
            card.simple().name(),
            card.name(),
            card.name()
        ),
        _ => return None,
    })
}

fn attack_events(t: &Teller, ev: &Event) -> Option<String> {
    let en = t.en();
    Some(match ev {
        Event::MageLeaves { caster, victim } if en => format!(
            "{}'s Mage leaves {}'s site, which is free again.",
            t.n(caster),
            t.n(victim)
        ),
        Event::MageLeaves { caster, victim } => format!(
            "Le Mage {} quitte le chantier {}, qui est de nouveau libre.",
            t.de(caster),
            t.de(victim)
        ),
        Event::Attacked {
            attacker,
            victim,
            card,
            aim,
        } => match t.lang {
            Lang::En => format!(
                "{} plays {} on {}'s site{}.",
                t.n(attacker),
                card.name(),
                t.n(victim),
                aim.map(|a| format!(", aiming at a {}", a.name()))
                    .unwrap_or_default()
            ),
            Lang::Fr => format!(
                "{} joue une carte {} sur le chantier {}{}.",
                t.n(attacker),
                card.name(),
                t.de(victim),
                aim.map(|a| format!(", en visant une carte {}", a.name()))
                    .unwrap_or_default()
            ),
        },
        Event::Defended {
            victim,
            defence,
            attack,
        } => match t.lang {
            Lang::En => format!(
                "{} answers with {}: the {} has no effect (both cards go under the pile, which is shuffled).",
                t.n(victim),
                defence.name(),
                attack.name()
            ),
            Lang::Fr => format!(
                "{} répond avec une carte {} : la carte {} est sans effet (les deux cartes vont sous la pioche, qui est mélangée).",
                t.n(victim),
                defence.name(),
                attack.name()
            ),
        },
        Event::Stolen { attacker, victim } if en => format!(
            "{} hires away a Structores from {}'s site.",
            t.n(attacker),
            t.n(victim)
        ),
        Event::Stolen { attacker, victim } => format!(
            "{} débauche une carte Structores du chantier {}.",
            t.n(attacker),
            t.de(victim)
        ),
        Event::Blocked { caster, victim } if en => format!(
            "{}'s Mage blocks {}'s site until {}'s next turn.",
            t.n(caster),
            t.n(victim),
            t.n(caster)
        ),
        Event::Blocked { caster, victim } => format!(
            "Le Mage {} bloque le chantier {} jusqu'au prochain tour {}.",
            t.de(caster),
            t.de(victim),
            t.de(caster)
        ),
        _ => return None,
    })
}

fn damage_events(t: &Teller, ev: &Event) -> Option<String> {
    Some(match (ev, t.lang) {
        (
            Event::FireDie {
                victim,
                card,
                die,
                lost,
            },
            Lang::En,
        ) => format!(
            "Fire on {}'s site: {} rolls {die}, {}.",
            t.n(victim),
            card.name(),
            if *lost { "lost" } else { "saved" }
        ),
        (
            Event::FireDie {
                victim,
                card,
                die,
                lost,
            },
            Lang::Fr,
        ) => format!(
            "Incendie sur le chantier {} : la carte {} fait {die} au dé, {}.",
            t.de(victim),
            card.name(),
            if *lost { "elle est perdue" } else { "elle est sauvée" }
        ),
        (Event::FireLots { victim, lots, lost }, Lang::En) => format!(
            "Fire on {}'s site: {} of three, one card taken from each: {} lost.",
            t.n(victim),
            plural(*lots, "lot"),
            t.list(lost)
        ),
        (Event::FireLots { victim, lots, lost }, Lang::Fr) => format!(
            "Incendie sur le chantier {} : {} de trois cartes, une carte retirée de chacun ; perdues : {}.",
            t.de(victim),
            fr::count(*lots as i64, "lot", "lots"),
            t.list(lost)
        ),
        (
            Event::Witch {
                victim,
                card,
                die,
                destroyed,
            },
            lang,
        ) => match lang {
            Lang::En => format!(
                "The Sorcière {} {}'s {}{}.",
                if *destroyed { "destroys" } else { "spares" },
                t.n(victim),
                card.name(),
                die.map(|d| format!(" (die {d})")).unwrap_or_default()
            ),
            Lang::Fr => format!(
                "La Sorcière {} la carte {} {}{}.",
                if *destroyed { "détruit" } else { "épargne" },
                card.name(),
                t.de(victim),
                die.map(|d| format!(" (dé : {d})")).unwrap_or_default()
            ),
        },
        _ => return None,
    })
}

fn round_events(t: &Teller, ev: &Event) -> Option<String> {
    let en = t.en();
    Some(match ev {
        Event::EventDie {
            round,
            die,
            happening: h,
        } => match t.lang {
            Lang::En => format!(
                "End of round {round}: the event die shows {die}: {}: {}.",
                h.name(),
                h.effect()
            ),
            Lang::Fr => format!(
                "Fin du tour de table {round} : le dé des événements donne {die} : {} : {}.",
                h.name_in(Lang::Fr),
                h.effect_in(Lang::Fr)
            ),
        },
        Event::Plague { seat, lost } if en => {
            format!("Plague on {}'s site: {} lost.", t.n(seat), t.list(lost))
        }
        Event::Plague { seat, lost } => format!(
            "Peste sur le chantier {} ; perdues : {}.",
            t.de(seat),
            t.list(lost)
        ),
        Event::Gave { seat, card } if en => format!(
            "{} gives a {} for the works (it goes under the pile).",
            t.n(seat),
            card.name()
        ),
        Event::Gave { seat, card } => format!(
            "{} cède une carte {} pour les œuvres (elle va sous la pioche).",
            t.n(seat),
            card.name()
        ),
        Event::Received { seat, from, cards } if t.mine(seat) => match t.lang {
            Lang::En => format!(
                "Feast of fools: you receive {}'s hand: {}.",
                t.n(from),
                t.list(cards)
            ),
            Lang::Fr => format!(
                "Fête des fous : vous recevez la main {} : {}.",
                t.de(from),
                t.list(cards)
            ),
        },
        Event::HandsPassed => t
            .lang
            .pick(
                "Feast of fools: every hand passes to the left neighbour.",
                "Fête des fous : chaque joueur passe sa main à son voisin de gauche.",
            )
            .into(),
        Event::StandingSet { seat, standing } if t.mine(seat) => {
            let text = order_text_in(t.g, &standing.order(), t.lang);
            match t.lang {
                Lang::En => format!("Standing order set: {text}."),
                Lang::Fr => format!("Consigne permanente enregistrée : {text}."),
            }
        }
        Event::Scores { points } => scores(t, points),
        Event::Won { winners, end } => {
            let reason = end_reason(t.g, winners, *end, t.lang);
            match t.lang {
                Lang::En => format!("Game over: {reason}."),
                Lang::Fr => format!("Fin de la partie : {reason}."),
            }
        }
        _ => return None,
    })
}

/// Why the game is over, in `lang`: "Alice completed a castle of 4 walls and a tower",
/// "the 20 rounds are over: Alice and Bob with 7 points".
pub fn end_reason(g: &Castrum, winners: &[Seat], end: End, lang: Lang) -> String {
    let names: Vec<&str> = winners.iter().map(|s| g.name(*s)).collect();
    let (why, points) = match (end, lang) {
        (End::Castle, Lang::En) => {
            return format!(
                "{} completed a castle of 4 walls and a tower",
                names.join(" and ")
            )
        }
        (End::Castle, Lang::Fr) => {
            return format!(
                "{} a achevé un château de 4 murailles et une tour",
                and_list(&names, Lang::Fr)
            )
        }
        (End::RoundsOver { rounds, points }, Lang::En) => {
            (format!("the {rounds} rounds are over"), points)
        }
        (End::RoundsOver { rounds: 1, points }, Lang::Fr) => {
            ("le tour de table est écoulé".to_string(), points)
        }
        (End::RoundsOver { rounds, points }, Lang::Fr) => {
            (format!("les {rounds} tours de table sont écoulés"), points)
        }
        (End::RoundLimit { rounds, points }, Lang::En) => (
            format!("nobody finished a castle in {rounds} rounds"),
            points,
        ),
        (End::RoundLimit { rounds, points }, Lang::Fr) => (
            format!("personne n'a achevé de château en {rounds} tours de table"),
            points,
        ),
    };
    match lang {
        Lang::En => format!(
            "{why}: {} with {points} point{}",
            names.join(" and "),
            if points == 1 { "" } else { "s" }
        ),
        Lang::Fr => format!(
            "{why} : {} avec {}",
            and_list(&names, Lang::Fr),
            fr::count(points, "point", "points")
        ),
    }
}

fn scores(t: &Teller, points: &[u32]) -> String {
    let p: Vec<String> = points
        .iter()
        .enumerate()
        .map(|(s, pt)| format!("{} {pt}", t.n(&s)))
        .collect();
    match t.lang {
        Lang::En => format!("Scores (tower 4, wall 1): {}.", p.join(", ")),
        Lang::Fr => format!("Points (tour 4, muraille 1) : {}.", p.join(", ")),
    }
}
