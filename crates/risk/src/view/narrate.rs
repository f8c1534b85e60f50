//! What happened, told: setup, the blind placement, headquarters, battles and attacks,
//! turns, armies, eliminations and the end, in English and French, each seat told only
//! what it may see.

use super::*;

pub fn narrate(s: &Risk, e: &Event, v: Viewer, l: Lang) -> Option<String> {
    match e {
        Event::FirstPlayer { .. }
        | Event::Claimed { .. }
        | Event::Ranked { .. }
        | Event::Allotted { .. }
        | Event::Placed { .. } => Some(narrate_setup(s, e, v, l)),
        Event::BlindSent { .. } | Event::BlindRevealed { .. } => Some(narrate_blind(s, e, v, l)),
        Event::HqCommitted { .. } | Event::HqRevealed { .. } | Event::HqTaken { .. } => {
            Some(narrate_hq(s, e, v, l))
        }
        Event::AwaitDefence { .. } | Event::Battle { .. } | Event::Conquered { .. } => {
            Some(narrate_battle(s, e, l))
        }
        _ => narrate_turn(s, e, v, l),
    }
}

/// The names of seats: "P1 and P2" / "P1 et P2".
fn seats_and(s: &Risk, seats: &[Seat], l: Lang) -> String {
    let names: Vec<String> = seats.iter().map(|x| pname(s, *x)).collect();
    match l {
        Lang::En => names.join(" and "),
        Lang::Fr => say::and_list(&names, l),
    }
}

fn narrate_setup(s: &Risk, e: &Event, v: Viewer, l: Lang) -> String {
    let me = |seat: Seat| v == Viewer::Seat(seat);
    let n = |seat: Seat| pname(s, seat);
    match (e, l) {
        (Event::FirstPlayer { seat }, Lang::En) => {
            format!("{} rolled highest and goes first.", n(*seat))
        }
        (Event::FirstPlayer { seat }, Lang::Fr) => {
            format!(
                "{} a fait le plus grand total aux dés et commence.",
                n(*seat)
            )
        }
        (Event::Claimed { seat, t: x }, Lang::En) => {
            format!("{} claims {}.", n(*seat), map::name(*x))
        }
        (Event::Claimed { seat, t: x }, Lang::Fr) => {
            format!("{} réclame {}.", n(*seat), say::le(*x, l))
        }
        (Event::Ranked { seat, list }, _) if me(*seat) => {
            format!(
                "{} {}.",
                l.pick("Your ranking:", "Votre liste :"),
                names(list, l)
            )
        }
        (Event::Ranked { seat, .. }, Lang::En) => format!("{} has sent a ranking.", n(*seat)),
        (Event::Ranked { seat, .. }, Lang::Fr) => format!("{} a envoyé sa liste.", n(*seat)),
        (Event::Allotted { picks, how }, _) => allotted(s, picks, *how, l),
        (Event::Placed { seat, own, neutral }, Lang::En) => {
            let mut line = format!("{} places {}", n(*seat), placements(own, l));
            if !neutral.is_empty() {
                line += &format!(" and a neutral army: {}", placements(neutral, l));
            }
            line + "."
        }
        (Event::Placed { seat, own, neutral }, Lang::Fr) => {
            let mut line = format!("{} place {}", n(*seat), placements(own, l));
            if !neutral.is_empty() {
                line += &format!(" ; neutre : {}", placements(neutral, l));
            }
            line + "."
        }
        _ => String::new(),
    }
}

fn narrate_blind(s: &Risk, e: &Event, v: Viewer, l: Lang) -> String {
    let me = |seat: Seat| v == Viewer::Seat(seat);
    let n = |seat: Seat| pname(s, seat);
    match (e, l) {
        (Event::BlindSent { seat, own, neutral }, _) if me(*seat) => {
            let mut line = format!(
                "{} {}",
                l.pick(
                    "Your placement (secret until all have sent):",
                    "Vos placements (secrets jusqu'à ce que tous aient envoyé les leurs) :"
                ),
                placements(own, l)
            );
            if !neutral.is_empty() {
                line += &format!(
                    "{} {}",
                    l.pick("; neutral:", " ; neutre :"),
                    placements(neutral, l)
                );
            }
            line
        }
        (Event::BlindSent { seat, .. }, Lang::En) => format!("{} has sent a placement.", n(*seat)),
        (Event::BlindSent { seat, .. }, Lang::Fr) => {
            format!("{} a envoyé ses placements.", n(*seat))
        }
        (Event::BlindRevealed { all }, _) => {
            let mut lines = vec![l
                .pick("Placements revealed:", "Placements révélés :")
                .to_string()];
            for (seat, own, neutral) in all {
                let mut line =
                    format!("  {}{} {}", n(*seat), l.pick(":", " :"), placements(own, l));
                if !neutral.is_empty() {
                    line += &format!(
                        "{} {}",
                        l.pick("; neutral:", " ; neutre :"),
                        placements(neutral, l)
                    );
                }
                lines.push(line);
            }
            lines.join("\n")
        }
        _ => String::new(),
    }
}

/// Territory names joined by commas.
pub(super) fn names(list: &[TerritoryId], l: Lang) -> String {
    list.iter()
        .map(|x| map::name_in(*x, l))
        .collect::<Vec<_>>()
        .join(", ")
}

fn allotted(s: &Risk, picks: &[(Owner, TerritoryId)], how: Allotment, l: Lang) -> String {
    let mut lines = vec![match l {
        Lang::En => format!("Territories {}:", allotment(how, l)),
        Lang::Fr => format!("Territoires {} :", allotment(how, l)),
    }];
    let mut owners: Vec<Owner> = (0..s.n()).map(Owner::Seat).collect();
    if picks.iter().any(|p| p.0 == Owner::Neutral) {
        owners.push(Owner::Neutral);
    }
    for o in owners {
        let list: Vec<TerritoryId> = picks.iter().filter(|p| p.0 == o).map(|p| p.1).collect();
        lines.push(format!(
            "  {}{} {}",
            owner_name(s, o, l),
            l.pick(":", " :"),
            names(&list, l)
        ));
    }
    lines.join("\n")
}

/// How the territories were shared out: "dealt at random" / "distribués au hasard".
pub fn allotment(how: Allotment, l: Lang) -> &'static str {
    match how {
        Allotment::Piles => l.pick(
            "dealt from the cards into three piles",
            "distribués avec les cartes en trois piles",
        ),
        Allotment::Random => l.pick("dealt at random", "distribués au hasard"),
        Allotment::Draft => l.pick(
            "drafted from the ranked lists",
            "répartis d'après les listes de préférence",
        ),
    }
}

/// Why the game was won: "holds all 42 territories" / "occupe les 42 territoires".
pub fn reason(r: WinReason, l: Lang) -> String {
    match (r, l) {
        (WinReason::Opponent, _) => l
            .pick("eliminated the opponent", "a éliminé son adversaire")
            .into(),
        (WinReason::World, _) => l
            .pick("holds all 42 territories", "occupe les 42 territoires")
            .into(),
        (WinReason::Headquarters { taken }, Lang::En) => {
            format!("holds {taken} enemy headquarters and its own")
        }
        (WinReason::Headquarters { taken }, Lang::Fr) => format!(
            "tient {} et le sien",
            fr::count(
                taken,
                "quartier général adverse",
                "quartiers généraux adverses"
            )
        ),
        (
            WinReason::TurnLimit {
                territories,
                rounds,
            },
            Lang::En,
        ) => format!(
            "most territories ({territories}) when the turn limit of {rounds} rounds was reached"
        ),
        (
            WinReason::TurnLimit {
                territories,
                rounds,
            },
            Lang::Fr,
        ) => format!("le plus de territoires ({territories}) à la limite de {rounds} manches"),
    }
}

fn narrate_hq(s: &Risk, e: &Event, v: Viewer, l: Lang) -> String {
    let me = |seat: Seat| v == Viewer::Seat(seat);
    let n = |seat: Seat| pname(s, seat);
    match (e, l) {
        (
            Event::HqCommitted {
                seat,
                t: x,
                commitment,
            },
            Lang::En,
        ) if me(*seat) => {
            format!(
                "Your headquarters: {} (commitment {commitment}).",
                map::name(*x)
            )
        }
        (
            Event::HqCommitted {
                seat,
                t: x,
                commitment,
            },
            Lang::Fr,
        ) if me(*seat) => format!(
            "Votre quartier général : {} (engagement {commitment}).",
            map::name_in(*x, l)
        ),
        (
            Event::HqCommitted {
                seat, commitment, ..
            },
            Lang::En,
        ) => format!(
            "{} has chosen a headquarters (commitment {commitment}).",
            n(*seat)
        ),
        (
            Event::HqCommitted {
                seat, commitment, ..
            },
            Lang::Fr,
        ) => format!(
            "{} a choisi son quartier général (engagement {commitment}).",
            n(*seat)
        ),
        (Event::HqRevealed { all }, _) => hq_revealed(s, all, l),
        (Event::HqTaken { seat, of, t: x }, Lang::En) => format!(
            "{} captures {}'s headquarters {} and takes its card.",
            n(*seat),
            n(*of),
            map::name(*x)
        ),
        (Event::HqTaken { seat, of, t: x }, Lang::Fr) => format!(
            "{} capture le quartier général de {}, {}, et prend sa carte.",
            n(*seat),
            n(*of),
            say::le(*x, l)
        ),
        _ => String::new(),
    }
}

fn hq_revealed(s: &Risk, all: &[(Seat, TerritoryId, castellan_engine::Secret)], l: Lang) -> String {
    let n = |seat: Seat| pname(s, seat);
    let mut lines = vec![l
        .pick(
            "Headquarters revealed (check: SHA-256(salt \":\" key) = commitment):",
            "Quartiers généraux révélés (vérification : SHA-256(sel \":\" clé) = engagement) :",
        )
        .to_string()];
    for (seat, x, salt) in all {
        let key = &board().territories[*x].key;
        lines.push(match l {
            Lang::En => format!(
                "  {}: {} (key {key}, salt {})",
                n(*seat),
                map::name(*x),
                salt.hex()
            ),
            Lang::Fr => format!(
                "  {} : {} (clé {key}, sel {})",
                n(*seat),
                map::name_in(*x, l),
                salt.hex()
            ),
        });
    }
    lines.join("\n")
}

fn narrate_battle(s: &Risk, e: &Event, l: Lang) -> String {
    let n = |seat: Seat| pname(s, seat);
    let t = |x: TerritoryId| say::le(x, l);
    match (e, l) {
        (
            Event::AwaitDefence {
                responder,
                from,
                to,
            },
            Lang::En,
        ) => format!(
            "The attack on {} from {} waits for {}'s dice (DEFEND 1 or DEFEND 2).",
            t(*to),
            t(*from),
            n(*responder)
        ),
        (
            Event::AwaitDefence {
                responder,
                from,
                to,
            },
            Lang::Fr,
        ) => format!(
            "L'attaque contre {} depuis {} attend les dés de {} (DÉFENDS 1 ou DÉFENDS 2).",
            t(*to),
            t(*from),
            n(*responder)
        ),
        (Event::Battle { .. }, _) => battle_line(s, e, l),
        (
            Event::Conquered {
                seat,
                from,
                to,
                moved,
            },
            Lang::En,
        ) => format!(
            "{} conquers {} and moves in {moved} from {}.",
            n(*seat),
            t(*to),
            t(*from)
        ),
        (
            Event::Conquered {
                seat,
                from,
                to,
                moved,
            },
            Lang::Fr,
        ) => format!(
            "{} conquiert {} et y fait entrer {} depuis {}.",
            n(*seat),
            t(*to),
            say::armies(*moved, l),
            t(*from)
        ),
        _ => String::new(),
    }
}

/// Whether `next` continues the attack `run` holds: another plain battle (no card
/// re-roll, no commander) of the same attacker from the same territory on the same one, or
/// the conquest that ends it.
pub(crate) fn same_attack(run: &[&Event], next: &Event) -> bool {
    let plain = |e: &Event| match e {
        Event::Battle {
            seat,
            from,
            to,
            reroll: None,
            commander: None,
            ..
        } => Some((*seat, *from, *to)),
        _ => None,
    };
    let Some(key) = run.first().and_then(|e| plain(e)) else {
        return false;
    };
    if matches!(run.last(), Some(Event::Conquered { .. })) {
        return false;
    }
    match next {
        Event::Conquered { seat, from, to, .. } => (*seat, *from, *to) == key,
        e => plain(e) == Some(key),
    }
}

/// One line for an attack (issue 12, "one line per battle"): how many rolls (or the one
/// roll's dice), what each side lost, and the conquest if it ended in one; each die is in
/// the report's dice lines.
pub(crate) fn narrate_attack(s: &Risk, run: &[&Event], l: Lang) -> Option<String> {
    let Some(first @ Event::Battle { seat, from, to, .. }) = run.first().copied() else {
        return None;
    };
    let battles: Vec<&&Event> = run
        .iter()
        .filter(|e| matches!(e, Event::Battle { .. }))
        .collect();
    let mut line = if battles.len() == 1 {
        battle_line(s, first, l).trim_end_matches('.').to_string()
    } else {
        let (mut a, mut d) = (0, 0);
        for e in &battles {
            if let Event::Battle {
                attacker_losses,
                defender_losses,
                ..
            } = e
            {
                a += attacker_losses;
                d += defender_losses;
            }
        }
        let (who, to, from, n) = (
            pname(s, *seat),
            say::le(*to, l),
            say::le(*from, l),
            battles.len(),
        );
        match l {
            Lang::En => format!(
                "{who} attacks {to} from {from}: {n} rolls, attacker loses {a}, defender loses {d}"
            ),
            Lang::Fr => format!(
                "{who} attaque {to} depuis {from} : {n} lancers, l'attaquant perd {a}, le défenseur perd {d}"
            ),
        }
    };
    if let Some(Event::Conquered { moved, .. }) = run.last().copied() {
        line += &match l {
            Lang::En => format!("; conquers it and moves in {moved}."),
            Lang::Fr => format!(
                " ; le conquiert et y fait entrer {}.",
                say::armies(*moved, l)
            ),
        };
    } else {
        line.push('.');
    }
    Some(line)
}

fn battle_line(s: &Risk, e: &Event, l: Lang) -> String {
    let Event::Battle {
        seat,
        from,
        to,
        attack,
        defence,
        attacker_losses,
        defender_losses,
        reroll,
        commander,
    } = e
    else {
        return String::new();
    };
    let (who, to, from) = (pname(s, *seat), say::le(*to, l), say::le(*from, l));
    let mut line = match l {
        Lang::En => format!("{who} attacks {to} from {from}: {attack:?} against {defence:?}"),
        Lang::Fr => format!("{who} attaque {to} depuis {from} : {attack:?} contre {defence:?}"),
    };
    if let Some((c, old, new)) = reroll {
        line += &match l {
            Lang::En => format!(
                " (re-rolled a {old} into a {new} showing the {} card)",
                card_name_in(*c, l)
            ),
            Lang::Fr => format!(
                " (un {old} relancé en {new} grâce à la carte {})",
                card_name_in(*c, l)
            ),
        };
    }
    if let Some(old) = commander {
        line += &match l {
            Lang::En => format!(" (the commander turned a {old} into a 6)"),
            Lang::Fr => format!(" (le commandant a changé un {old} en 6)"),
        };
    }
    line + &match l {
        Lang::En => {
            format!(": attacker loses {attacker_losses}, defender loses {defender_losses}.")
        }
        Lang::Fr => {
            format!(" : l'attaquant perd {attacker_losses}, le défenseur perd {defender_losses}.")
        }
    }
}

/// "Europe +5" for each continent held.
fn continents_bonus(continents: &[usize], l: Lang) -> Vec<String> {
    continents
        .iter()
        .map(|g| format!("{} +{}", map::continent_in(*g, l), board().groups[*g].bonus))
        .collect()
}

fn narrate_turn(s: &Risk, e: &Event, v: Viewer, l: Lang) -> Option<String> {
    let me = |seat: Seat| v == Viewer::Seat(seat);
    let n = |seat: Seat| pname(s, seat);
    Some(match (e, l) {
        (Event::TurnBegins { .. }, _) => turn_begins(s, e, l),
        (Event::Traded { .. } | Event::ArmiesLost { .. }, _) => narrate_armies(s, e, l),
        (
            Event::Eliminated {
                victim,
                by,
                cards: cs,
            },
            _,
        ) => eliminated(s, *victim, *by, cs, me(*by) || me(*victim), l),
        (Event::MustTrade { seat, cards: k }, Lang::En) => {
            format!("{} holds {k} cards and must trade sets now.", n(*seat))
        }
        (Event::MustTrade { seat, cards: k }, Lang::Fr) => format!(
            "{} a {k} cartes et doit échanger des combinaisons maintenant.",
            n(*seat)
        ),
        (Event::Drew { seat, card }, _) if me(*seat) => format!(
            "{} {}.",
            l.pick("You draw a card:", "Vous piochez une carte :"),
            card_name_in(*card, l)
        ),
        (Event::Drew { seat, .. }, Lang::En) => format!("{} draws a card.", n(*seat)),
        (Event::Drew { seat, .. }, Lang::Fr) => format!("{} pioche une carte.", n(*seat)),
        (
            Event::Fortified {
                seat,
                from,
                to,
                armies,
            },
            Lang::En,
        ) => format!(
            "{} moves {armies} armies from {} to {}.",
            n(*seat),
            map::name(*from),
            map::name(*to)
        ),
        (
            Event::Fortified {
                seat,
                from,
                to,
                armies,
            },
            Lang::Fr,
        ) => format!(
            "{} déplace {} {} vers {}.",
            n(*seat),
            say::armies(*armies, l),
            say::de(*from),
            say::le(*to, l)
        ),
        (Event::TurnEnds { seat }, Lang::En) => format!("{} ends the turn.", n(*seat)),
        (Event::TurnEnds { seat }, Lang::Fr) => format!("{} termine son tour.", n(*seat)),
        (
            Event::StandingSet {
                seat,
                neutral,
                policy,
            },
            _,
        ) => {
            if !me(*seat) {
                return None;
            }
            standing_line(*neutral, *policy, l)
        }
        (Event::Extended { .. } | Event::Won { .. }, _) => narrate_end(s, e, l),
        _ => return None,
    })
}

fn narrate_armies(s: &Risk, e: &Event, l: Lang) -> String {
    let n = |seat: Seat| pname(s, seat);
    match (e, l) {
        (
            Event::Traded {
                seat,
                cards: cs,
                value,
                bonus_on,
            },
            _,
        ) => {
            let list = cs
                .iter()
                .map(|c| card_name_in(*c, l))
                .collect::<Vec<_>>()
                .join(", ");
            let bonus = bonus_on
                .map(|x| format!(", +2 {} {}", l.pick("on", "sur"), say::le(x, l)))
                .unwrap_or_default();
            match l {
                Lang::En => format!("{} trades {list} for {value} armies{bonus}.", n(*seat)),
                Lang::Fr => format!(
                    "{} échange {list} contre {}{bonus}.",
                    n(*seat),
                    say::armies(*value, l)
                ),
            }
        }
        (Event::ArmiesLost { seat, armies }, Lang::En) => format!(
            "{} loses {armies} armies that cannot be placed (at most {} a territory).",
            n(*seat),
            s.cap()
        ),
        (Event::ArmiesLost { seat, armies }, Lang::Fr) => format!(
            "{} perd {} {} (au plus {} par territoire).",
            n(*seat),
            say::armies(*armies, l),
            if *armies > 1 {
                "impossibles à placer"
            } else {
                "impossible à placer"
            },
            s.cap()
        ),
        _ => String::new(),
    }
}

fn narrate_end(s: &Risk, e: &Event, l: Lang) -> String {
    match (e, l) {
        (Event::Extended { round, tied }, Lang::En) => format!(
            "Turn limit reached with a tie between {}: the game goes on to the end of round {round}.",
            seats_and(s, tied, l)
        ),
        (Event::Extended { round, tied }, Lang::Fr) => format!(
            "Limite de manches atteinte avec une égalité entre {} : la partie continue jusqu'à la fin de la manche {round}.",
            seats_and(s, tied, l)
        ),
        (Event::Won { winners, reason: r }, Lang::En) => {
            format!("{} wins: {}.", seats_and(s, winners, l), reason(*r, l))
        }
        (Event::Won { winners, reason: r }, Lang::Fr) => format!(
            "{} {} : {}.",
            seats_and(s, winners, l),
            if winners.len() > 1 { "gagnent" } else { "gagne" },
            reason(*r, l)
        ),
        _ => String::new(),
    }
}

fn turn_begins(s: &Risk, e: &Event, l: Lang) -> String {
    let Event::TurnBegins {
        seat,
        round,
        territories,
        base,
        continents,
        total,
    } = e
    else {
        return String::new();
    };
    let conts = continents_bonus(continents, l);
    let conts = if conts.is_empty() {
        String::new()
    } else {
        format!(", {}", conts.join(", "))
    };
    let who = pname(s, *seat);
    match l {
        Lang::En => format!(
            "Round {round}: {who}'s turn. {territories} territories: {base} armies{conts}; {total} to place."
        ),
        Lang::Fr => format!(
            "Manche {round} : au tour de {who}. {} : {}{conts} ; {total} à placer.",
            fr::count(*territories, "territoire", "territoires"),
            say::armies(*base, l)
        ),
    }
}

fn eliminated(s: &Risk, victim: Seat, by: Seat, cs: &[Card], sees: bool, l: Lang) -> String {
    let (v, b) = (pname(s, victim), pname(s, by));
    let k = cs.len();
    let list = if cs.is_empty() {
        l.pick("none", "aucune").to_string()
    } else {
        cs.iter()
            .map(|c| card_name_in(*c, l))
            .collect::<Vec<_>>()
            .join(", ")
    };
    match (l, sees) {
        (Lang::En, true) => format!("{v} is eliminated by {b}, who takes {k} cards: {list}."),
        (Lang::En, false) => format!("{v} is eliminated by {b}, who takes {k} cards."),
        (Lang::Fr, true) => format!(
            "{v} est éliminé par {b}, qui prend ses cartes ({}) : {list}.",
            k
        ),
        (Lang::Fr, false) => format!("{v} est éliminé par {b}, qui prend ses cartes ({}).", k),
    }
}

/// "Standing order: defend with 2 dice when allowed." in either language.
fn standing_line(neutral: bool, policy: Policy, l: Lang) -> String {
    match l {
        Lang::En => format!(
            "Standing order: {} {}.",
            if neutral {
                "defend neutral territories with"
            } else {
                "defend with"
            },
            match policy {
                Policy::Dice(d) => format!("{d} dice when allowed"),
                Policy::Ask => "dice chosen when asked".into(),
            }
        ),
        Lang::Fr => format!(
            "Ordre permanent : défendre {}{}.",
            if neutral {
                "les territoires neutres "
            } else {
                ""
            },
            match policy {
                Policy::Dice(d) => format!("avec {} quand c'est permis", fr::count(d, "dé", "dés")),
                Policy::Ask => "en choisissant les dés à chaque attaque".into(),
            }
        ),
    }
}
