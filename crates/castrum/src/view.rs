//! The public report and the private view, in English or French.

use crate::orders::order_text_in;
use crate::words::{cartes, list_in, plural};
use crate::*;
use castellan_engine::lang::fr;

fn site_cards(site: &Site, lang: Lang) -> String {
    let mut kinds: Vec<String> = Vec::new();
    for c in Card::ALL {
        let k = site.count(c);
        if k > 0 {
            kinds.push(format!("{k} {}", c.name()));
        }
    }
    if kinds.is_empty() {
        lang.pick("empty", "vide").into()
    } else {
        kinds.join(", ")
    }
}

fn site_line(g: &Castrum, s: Seat, lang: Lang) -> String {
    let site = &g.sites[s];
    let (us, ul, ur) = (
        site.units(Material::Structores),
        site.units(Material::Lapides),
        site.units(Material::Rustici),
    );
    match lang {
        Lang::En => format!(
            "  {:<12} castle: {}/4 walls, {}/1 tower ({} pt) | site: {} [S {us} L {ul} R {ur}]{} | hand: {} cards",
            g.name(s),
            site.walls,
            site.towers,
            site.points(),
            site_cards(site, lang),
            site.mage
                .map(|c| format!(" | BLOCKED by {}'s Mage", g.name(c)))
                .unwrap_or_default(),
            g.hands[s].len()
        ),
        Lang::Fr => format!(
            "  {:<12} château : {}/4 murailles, {}/1 tour ({}) | chantier : {} [S {us} L {ul} R {ur}]{} | main : {}",
            g.name(s),
            site.walls,
            site.towers,
            fr::count(site.points(), "pt", "pts"),
            site_cards(site, lang),
            site.mage
                .map(|c| format!(" | BLOQUÉ par le Mage {}", fr::de(g.name(c))))
                .unwrap_or_default(),
            cartes(g.hands[s].len())
        ),
    }
}

fn header(g: &Castrum, lang: Lang) -> Vec<String> {
    let goal = match (g.options.victory, lang) {
        (Victory::Classic, Lang::En) => {
            "classic game: first complete castle (4 walls + 1 tower) wins".to_string()
        }
        (Victory::Classic, Lang::Fr) => {
            "partie classique : le premier château complet (4 murailles + 1 tour) l'emporte"
                .to_string()
        }
        (Victory::Timed, Lang::En) => format!(
            "timed game: {} rounds, then tower 4 points, wall 1",
            g.options.rounds
        ),
        (Victory::Timed, Lang::Fr) => format!(
            "partie programmée : {}, puis tour 4 points, muraille 1",
            fr::count(g.options.rounds, "tour de table", "tours de table")
        ),
    };
    let mode = match g.options.mode {
        Mode::Family => lang.pick("family rules", "jeu familial"),
        Mode::Expert => lang.pick("expert rules", "jeu expert"),
    };
    let mut out = vec![format!("Castrum, {mode}, {goal}.")];
    out.push(match lang {
        Lang::En => format!(
            "Round {}; {} began each round. Pile: {}.",
            g.round,
            g.name(g.first),
            castellan_engine::lang::en::count(g.pile_size() as i64, "card", "cards")
        ),
        Lang::Fr => format!(
            "Tour de table {} ; {} commence chaque tour de table. Pioche : {}.",
            g.round,
            g.name(g.first),
            cartes(g.pile_size())
        ),
    });
    out.push(match (g.in_force, lang) {
        (Some(h), Lang::En) => format!("Event of this round: {} ({}).", h.name(), h.effect()),
        (Some(h), Lang::Fr) => format!(
            "Événement de ce tour de table : {} ({}).",
            h.name_in(lang),
            h.effect_in(lang)
        ),
        (None, Lang::En) => "No event in force (the die is rolled after each full round).".into(),
        (None, Lang::Fr) => {
            "Aucun événement en cours (le dé est lancé après chaque tour de table complet).".into()
        }
    });
    out.push(lang.pick(
        "Sites (S Structores, L Lapides, R Rustici in units; x2 cards count twice):",
        "Chantiers (S Structores, L Lapides, R Rustici, en unités ; les cartes x2 comptent double) :",
    ).into());
    out
}

fn phase_line(g: &Castrum, lang: Lang) -> String {
    let de = |s: Seat| fr::de(g.name(s));
    let owed_names = |owed: &[Seat]| {
        owed.iter()
            .map(|s| g.name(*s).to_string())
            .collect::<Vec<_>>()
            .join(", ")
    };
    match (&g.phase, lang) {
        (Phase::Over, _) => match &g.outcome {
            Some(o) => format!(
                "{} {}.",
                lang.pick("Game over:", "Fin de la partie :"),
                crate::narrate::end_reason(g, &o.winners, o.end, lang)
            ),
            None => lang.pick("Game over.", "Fin de la partie.").into(),
        },
        (Phase::Turn, Lang::En) => format!(
            "{}'s turn ({} played so far).",
            g.name(g.current),
            plural(g.turn_state.played as usize, "card")
        ),
        (Phase::Turn, Lang::Fr) => {
            let played = g.turn_state.played as i64;
            format!(
                "Au tour {} ({} jusqu'ici).",
                de(g.current),
                fr::count(played, "carte jouée", "cartes jouées")
            )
        }
        (Phase::Defence(att), Lang::En) => format!(
            "{}'s turn: waiting for {} to answer the {} on their site.",
            g.name(att.attacker),
            g.name(att.victim),
            att.card.name()
        ),
        (Phase::Defence(att), Lang::Fr) => format!(
            "Tour {} : on attend la réponse {} à la carte {} posée sur son chantier.",
            de(att.attacker),
            de(att.victim),
            att.card.name()
        ),
        (Phase::Works(owed), Lang::En) => {
            format!("For the works: waiting for {}.", owed_names(owed))
        }
        (Phase::Works(owed), Lang::Fr) => {
            format!("Pour les œuvres : on attend {}.", owed_names(owed))
        }
    }
}

/// The public report: every site and castle, the pile, the event in force.
pub fn public_view(g: &Castrum, lang: Lang) -> String {
    let mut out = header(g, lang);
    for s in 0..g.seats() {
        out.push(site_line(g, s, lang));
    }
    out.push(phase_line(g, lang));
    out.join("\n")
}

/// What only `seat` may see: the hand and standing orders (its prompts come from
/// `Session::pending`, listed once by the judge).
pub fn private_view(g: &Castrum, seat: Seat, lang: Lang) -> String {
    if seat >= g.seats() {
        return String::new();
    }
    let mut hand = g.hands[seat].clone();
    hand.sort();
    let standing = (
        order_text_in(g, &Order::SetDefend(g.defend[seat]), lang),
        order_text_in(g, &Order::SetWorks(g.works[seat].clone()), lang),
    );
    let out = match lang {
        Lang::En => vec![
            format!("Your hand ({}): {}.", hand.len(), list_in(&hand, lang)),
            format!("Standing orders: {}; {}.", standing.0, standing.1),
        ],
        Lang::Fr => vec![
            format!("Votre main ({}) : {}.", hand.len(), list_in(&hand, lang)),
            format!("Consignes permanentes : {} ; {}.", standing.0, standing.1),
        ],
    };
    // What the seat is asked is the judge's to say, once, at the top of its mail.
    out.join("\n")
}
