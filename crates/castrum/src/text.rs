//! The order language (parse / order_text), narration and the text views.

use crate::rules::list;
use crate::*;
use castellan_engine::names::{normalize, Names};

/// The order help (ORDERS), in `lang`.
pub fn help(_lang: castellan_engine::Lang) -> String {
    HELP.to_string()
}

pub const HELP: &str = "\
Castrum orders (one per line; case and accents do not matter; card names in Latin, French or English):
  PLAY Lapides                         put a building card on your site
  PLAY Roue de Carrier                 first card of your turn: then 3 building cards on your site
  PLAY Incendie ON Bob                 attack Bob's site (also Mage, Pièces d'Or)
  PLAY Sorcière ON Bob TARGET Lapides  the witch aims at one card of Bob's site
  DISCARD Mage, Lapides                discard 1 to 3 cards instead of playing (ends your turn)
  BUILD WALL | BUILD TOWER             turn site cards into a wall (1 S + 2 L + 3 R) or a tower (1 S + 5 L + 6 R)
  EXCHANGE Lapides x2                  an x2 card of your site for two simple cards from the pile
  END                                  end your turn (you draw back to 5 cards)
  DEFEND | ACCEPT                      answer an attack on your site (Gardes/Moines/Reliques)
  GIVE Rustici                         'for the works': give up one card of your site
  SET DEFEND ALWAYS | NEVER | ASK      standing answer to attacks (any time)
  SET WORKS Rustici, Lapides | ASK     standing answer to 'for the works' (any time)";

fn e(msg: impl Into<String>) -> OrderError {
    OrderError::new(msg)
}

fn seat_names(g: &Castrum, me: Seat) -> Names<Seat> {
    let mut n = Names::new();
    for (i, p) in g.players.iter().enumerate() {
        n.add(p, i);
    }
    for alias in ["me", "moi", "myself", "self"] {
        if me < g.seats() && !g.players.iter().any(|p| normalize(p) == alias) {
            n.add_alias(alias, g.name(me), me);
        }
    }
    n
}

fn card(words: &[&str], hint: &str) -> Result<Card, OrderError> {
    let text = words.join(" ");
    if text.trim().is_empty() {
        return Err(e("a card name is missing").hint(hint.to_string()));
    }
    Card::names()
        .resolve(&text)
        .map_err(|er| e(er.to_string()).hint(hint.to_string()))
}

fn cards(words: &[&str], hint: &str) -> Result<Vec<Card>, OrderError> {
    let text = words.join(" ");
    let mut out = Vec::new();
    for part in text.split([',', ';', '+']) {
        // "Lapides and Mage", "Lapides et Mage"
        let mut chunk: Vec<&str> = Vec::new();
        for w in part.split_whitespace() {
            let n = normalize(w);
            if n == "and" || n == "et" {
                if !chunk.is_empty() {
                    out.push(card(&chunk, hint)?);
                    chunk.clear();
                }
            } else {
                chunk.push(w);
            }
        }
        if !chunk.is_empty() {
            out.push(card(&chunk, hint)?);
        }
    }
    if out.is_empty() {
        return Err(e("name the cards").hint(hint.to_string()));
    }
    Ok(out)
}

/// Parse one order line written by `seat`.
pub fn parse(g: &Castrum, seat: Seat, line: &str) -> Result<Order, OrderError> {
    let words: Vec<&str> = line.split_whitespace().collect();
    let Some(first) = words.first() else {
        return Err(e("empty order").hint("write: PLAY Lapides"));
    };
    let key = normalize(first);
    let rest = &words[1..];
    let only = |o: Order, w: &str| {
        if rest.is_empty() {
            Ok(o)
        } else {
            Err(e(format!("{w} takes nothing after it")).hint(format!("write: {w}")))
        }
    };
    match key.as_str() {
        "play" | "jouer" | "joue" | "poser" => parse_play(g, seat, rest),
        "discard" | "defausser" | "defausse" => {
            Ok(Order::Discard(cards(rest, "write: DISCARD Mage, Lapides")?))
        }
        "build" | "construire" | "batir" => {
            let what = rest.iter().map(|w| normalize(w)).collect::<String>();
            match what.as_str() {
                "wall" | "muraille" | "mur" | "rempart" => Ok(Order::Build(Piece::Wall)),
                "tower" | "tour" | "donjon" | "keep" => Ok(Order::Build(Piece::Tower)),
                _ => Err(e("build a WALL or a TOWER").hint("write: BUILD WALL")),
            }
        }
        "exchange" | "echanger" | "echange" => {
            Ok(Order::Exchange(card(rest, "write: EXCHANGE Lapides x2")?))
        }
        "end" | "fin" | "pass" | "done" | "passe" => only(Order::End, "END"),
        "defend" | "defendre" | "defense" | "defence" => {
            // "DEFEND" or "DEFEND WITH Gardes"
            if rest.is_empty() {
                return Ok(Order::Defend);
            }
            let r: Vec<&str> = if matches!(normalize(rest[0]).as_str(), "with" | "avec") {
                rest[1..].to_vec()
            } else {
                rest.to_vec()
            };
            let c = card(&r, "write: DEFEND")?;
            if !c.is_defence() {
                return Err(e(format!("{} is not a defence card", c.name())).hint("write: DEFEND"));
            }
            if let Phase::Defence(att) = &g.phase {
                if att.defence_card() != c {
                    return Err(e(format!(
                        "{} do not stop a {}: {} do",
                        c.name(),
                        att.card.name(),
                        att.defence_card().name()
                    ))
                    .hint("write: DEFEND, or ACCEPT"));
                }
            }
            Ok(Order::Defend)
        }
        "accept" | "allow" | "accepter" | "nodefence" | "nodefense" => {
            only(Order::Accept, "ACCEPT")
        }
        "no" | "pas" if rest.len() == 1 && normalize(rest[0]).starts_with("defen") => {
            Ok(Order::Accept)
        }
        "give" | "donner" | "donne" => Ok(Order::Give(card(rest, "write: GIVE Rustici")?)),
        "set" | "regler" => parse_set(rest),
        _ => Err(e(format!("\"{first}\" is not a Castrum order"))
            .hint("write one of: PLAY, DISCARD, BUILD, EXCHANGE, END, DEFEND, ACCEPT, GIVE, SET")),
    }
}

fn parse_set(rest: &[&str]) -> Result<Order, OrderError> {
    let Some(what) = rest.first().map(|w| normalize(w)) else {
        return Err(e("SET what?").hint("write: SET DEFEND ALWAYS"));
    };
    let arg: Vec<&str> = rest[1..].to_vec();
    match what.as_str() {
        "defend" | "defence" | "defense" | "defendre" => {
            match arg
                .iter()
                .map(|w| normalize(w))
                .collect::<String>()
                .as_str()
            {
                "always" | "toujours" | "yes" => Ok(Order::SetDefend(DefendPolicy::Always)),
                "never" | "jamais" | "no" => Ok(Order::SetDefend(DefendPolicy::Never)),
                "ask" | "demander" => Ok(Order::SetDefend(DefendPolicy::Ask)),
                _ => {
                    Err(e("SET DEFEND takes ALWAYS, NEVER or ASK").hint("write: SET DEFEND ALWAYS"))
                }
            }
        }
        "works" | "oeuvres" => {
            let joined = arg.iter().map(|w| normalize(w)).collect::<String>();
            if joined == "ask" || joined == "demander" {
                return Ok(Order::SetWorks(Vec::new()));
            }
            Ok(Order::SetWorks(cards(
                &arg,
                "write: SET WORKS Rustici, Lapides",
            )?))
        }
        _ => Err(e(format!("there is no standing order \"{}\"", rest[0]))
            .hint("write: SET DEFEND ALWAYS, or SET WORKS Rustici")),
    }
}

fn parse_play(g: &Castrum, seat: Seat, rest: &[&str]) -> Result<Order, OrderError> {
    let pos = |keys: &[&str]| {
        rest.iter()
            .position(|w| keys.contains(&normalize(w).as_str()))
    };
    let on = pos(&["on", "sur", "onto", "against", "contre"]);
    let tg = pos(&["target", "cible", "at", "aiming"]);
    let card_end = on.or(tg).unwrap_or(rest.len());
    let c = card(
        &rest[..card_end],
        "write: PLAY Lapides, or PLAY Incendie ON Bob",
    )?;
    let mut target = None;
    if let Some(i) = on {
        let end = tg.filter(|t| *t > i).unwrap_or(rest.len());
        let who = rest[i + 1..end].join(" ");
        let t = seat_names(g, seat).resolve(&who).map_err(|er| {
            e(format!("player {er}")).hint(format!("the players are: {}", g.players.join(", ")))
        })?;
        target = Some(t);
    }
    let mut aim = None;
    if let Some(i) = tg {
        let end = on.filter(|o| *o > i).unwrap_or(rest.len());
        aim = Some(card(
            &rest[i + 1..end],
            "write: PLAY Sorcière ON Bob TARGET Lapides",
        )?);
    }
    // Normal form: own-site cards carry no target; only the Sorcière keeps an aim.
    if (c.is_material() || c == Card::Roue) && target == Some(seat) {
        target = None;
    }
    if c == Card::PiecesOr && aim == Some(Card::Structores) {
        aim = None;
    }
    Ok(Order::Play {
        card: c,
        target,
        aim,
    })
}

/// The order as a player writes it.
pub fn order_text(g: &Castrum, o: &Order) -> String {
    match o {
        Order::Play { card, target, aim } => {
            let mut s = format!("PLAY {}", card.name());
            if let Some(t) = target {
                s.push_str(&format!(" ON {}", g.name(*t)));
            }
            if let Some(a) = aim {
                s.push_str(&format!(" TARGET {}", a.name()));
            }
            s
        }
        Order::Discard(c) => format!("DISCARD {}", list(c)),
        Order::Build(p) => format!("BUILD {}", p.name().to_uppercase()),
        Order::Exchange(c) => format!("EXCHANGE {}", c.name()),
        Order::End => "END".into(),
        Order::Defend => "DEFEND".into(),
        Order::Accept => "ACCEPT".into(),
        Order::Give(c) => format!("GIVE {}", c.name()),
        Order::SetDefend(p) => format!(
            "SET DEFEND {}",
            match p {
                DefendPolicy::Ask => "ASK",
                DefendPolicy::Always => "ALWAYS",
                DefendPolicy::Never => "NEVER",
            }
        ),
        Order::SetWorks(v) if v.is_empty() => "SET WORKS ASK".into(),
        Order::SetWorks(v) => format!("SET WORKS {}", list(v)),
    }
}

fn plural(n: usize, word: &str) -> String {
    if n == 1 {
        format!("1 {word}")
    } else {
        format!("{n} {word}s")
    }
}

/// The event told to `viewer` (`None`: not for them).
pub fn narrate(g: &Castrum, ev: &Event, viewer: Viewer, _lang: Lang) -> Option<String> {
    let n = |s: &Seat| g.name(*s).to_string();
    let mine = |s: &Seat| viewer == Viewer::Seat(*s);
    Some(match ev {
        Event::FirstPlayer { rolls, seat } => {
            let r: Vec<String> = rolls
                .iter()
                .map(|round| {
                    round
                        .iter()
                        .map(|(s, v)| format!("{} {v}", n(s)))
                        .collect::<Vec<_>>()
                        .join(", ")
                })
                .collect();
            format!("Dice for the first turn: {}. {} begins.", r.join("; then "), n(seat))
        }
        Event::Drew { seat, cards } if mine(seat) => {
            format!("You draw {}: {}.", plural(cards.len(), "card"), list(cards))
        }
        Event::Drew { seat, cards } => format!("{} draws {}.", n(seat), plural(cards.len(), "card")),
        Event::Reshuffled { cards } => format!(
            "The pile is empty: the {} cards under it are shuffled into a new pile.",
            cards
        ),
        Event::TurnBegins { seat, round } => format!("Round {round}: {}'s turn.", n(seat)),
        Event::MageLeaves { caster, victim } => format!(
            "{}'s Mage leaves {}'s site, which is free again.",
            n(caster),
            n(victim)
        ),
        Event::Placed { seat, card } => format!("{} puts {} on their site.", n(seat), card.name()),
        Event::Wheel { seat } => format!(
            "{} plays the Roue de Carrier: 3 more building cards on their site this turn.",
            n(seat)
        ),
        Event::Attacked {
            attacker,
            victim,
            card,
            aim,
        } => format!(
            "{} plays {} on {}'s site{}.",
            n(attacker),
            card.name(),
            n(victim),
            aim.map(|a| format!(", aiming at a {}", a.name()))
                .unwrap_or_default()
        ),
        Event::Defended {
            victim,
            defence,
            attack,
        } => format!(
            "{} answers with {}: the {} has no effect (both cards go under the pile, which is shuffled).",
            n(victim),
            defence.name(),
            attack.name()
        ),
        Event::FireDie {
            victim,
            card,
            die,
            lost,
        } => format!(
            "Fire on {}'s site: {} rolls {die}, {}.",
            n(victim),
            card.name(),
            if *lost { "lost" } else { "saved" }
        ),
        Event::FireLots { victim, lots, lost } => format!(
            "Fire on {}'s site: {} of three, one card taken from each: {} lost.",
            n(victim),
            plural(*lots, "lot"),
            list(lost)
        ),
        Event::Witch {
            victim,
            card,
            die,
            destroyed,
        } => format!(
            "The Sorcière {} {}'s {}{}.",
            if *destroyed { "destroys" } else { "spares" },
            n(victim),
            card.name(),
            die.map(|d| format!(" (die {d})")).unwrap_or_default()
        ),
        Event::Stolen { attacker, victim } => format!(
            "{} hires away a Structores from {}'s site.",
            n(attacker),
            n(victim)
        ),
        Event::Blocked { caster, victim } => format!(
            "{}'s Mage blocks {}'s site until {}'s next turn.",
            n(caster),
            n(victim),
            n(caster)
        ),
        Event::Built {
            seat,
            piece,
            used,
            walls,
            towers,
        } => format!(
            "{} builds a {} (using {}): {} and {}.",
            n(seat),
            piece.name(),
            list(used),
            plural(*walls as usize, "wall"),
            plural(*towers as usize, "tower")
        ),
        Event::Exchanged { seat, card } => format!(
            "{} exchanges a {} of their site for two {} from the pile (the pile is shuffled).",
            n(seat),
            card.name(),
            card.simple().name()
        ),
        Event::Discarded { seat, cards } if mine(seat) => {
            format!("You discard {}.", list(cards))
        }
        Event::Discarded { seat, cards } => {
            format!("{} discards {}.", n(seat), plural(cards.len(), "card"))
        }
        Event::TurnEnds { seat } => format!("{}'s turn ends.", n(seat)),
        Event::EventDie {
            round,
            die,
            happening,
        } => format!(
            "End of round {round}: the event die shows {die}: {}: {}.",
            happening.name(),
            happening.effect()
        ),
        Event::Plague { seat, lost } => {
            format!("Plague on {}'s site: {} lost.", n(seat), list(lost))
        }
        Event::Gave { seat, card } => format!(
            "{} gives a {} for the works (it goes under the pile).",
            n(seat),
            card.name()
        ),
        Event::Received { seat, from, cards } if mine(seat) => format!(
            "Feast of fools: you receive {}'s hand: {}.",
            n(from),
            list(cards)
        ),
        Event::Received { .. } => return None,
        Event::HandsPassed => "Feast of fools: every hand passes to the left neighbour.".into(),
        Event::StandingSet { seat, text } if mine(seat) => {
            format!("Standing order set: {text}.")
        }
        Event::StandingSet { .. } => return None,
        Event::Scores { points } => {
            let p: Vec<String> = points
                .iter()
                .enumerate()
                .map(|(s, pt)| format!("{} {pt}", n(&s)))
                .collect();
            format!("Scores (tower 4, wall 1): {}.", p.join(", "))
        }
        Event::Won { reason, .. } => format!("Game over: {reason}."),
    })
}

fn site_line(g: &Castrum, s: Seat) -> String {
    let site = &g.sites[s];
    let mut kinds: Vec<String> = Vec::new();
    for c in Card::ALL {
        let k = site.count(c);
        if k > 0 {
            kinds.push(format!("{k} {}", c.name()));
        }
    }
    format!(
        "  {:<12} castle: {}/4 walls, {}/1 tower ({} pt) | site: {} [S {} L {} R {}]{} | hand: {} cards",
        g.name(s),
        site.walls,
        site.towers,
        site.points(),
        if kinds.is_empty() {
            "empty".into()
        } else {
            kinds.join(", ")
        },
        site.units(Material::Structores),
        site.units(Material::Lapides),
        site.units(Material::Rustici),
        site.mage
            .map(|c| format!(" | BLOCKED by {}'s Mage", g.name(c)))
            .unwrap_or_default(),
        g.hands[s].len()
    )
}

/// The public report: every site and castle, the pile, the event in force.
pub fn public_view(g: &Castrum, _lang: Lang) -> String {
    let mut out = Vec::new();
    let goal = match g.options.victory {
        Victory::Classic => {
            "classic game: first complete castle (4 walls + 1 tower) wins".to_string()
        }
        Victory::Timed => format!(
            "timed game: {} rounds, then tower 4 points, wall 1",
            g.options.rounds
        ),
    };
    let mode = match g.options.mode {
        Mode::Family => "family rules",
        Mode::Expert => "expert rules",
    };
    out.push(format!("Castrum, {mode}, {goal}."));
    out.push(format!(
        "Round {}; {} began each round. Pile: {} cards.",
        g.round,
        g.name(g.first),
        g.pile_size()
    ));
    out.push(match g.in_force {
        Some(h) => format!("Event of this round: {} ({}).", h.name(), h.effect()),
        None => "No event in force (the die is rolled after each full round).".into(),
    });
    out.push("Sites (S Structores, L Lapides, R Rustici in units; x2 cards count twice):".into());
    for s in 0..g.seats() {
        out.push(site_line(g, s));
    }
    out.push(match &g.phase {
        Phase::Over => match &g.outcome {
            Some(o) => format!("Game over: {}.", o.reason),
            None => "Game over.".into(),
        },
        Phase::Turn => format!(
            "{}'s turn ({} played so far).",
            g.name(g.current),
            plural(g.turn_state.played as usize, "card")
        ),
        Phase::Defence(att) => format!(
            "{}'s turn: waiting for {} to answer the {} on their site.",
            g.name(att.attacker),
            g.name(att.victim),
            att.card.name()
        ),
        Phase::Works(owed) => format!(
            "For the works: waiting for {}.",
            owed.iter()
                .map(|s| g.name(*s).to_string())
                .collect::<Vec<_>>()
                .join(", ")
        ),
    });
    out.join("\n")
}

/// What only `seat` may see: the hand, standing orders, prompts.
pub fn private_view(g: &Castrum, seat: Seat, _lang: Lang) -> String {
    if seat >= g.seats() {
        return String::new();
    }
    let mut hand = g.hands[seat].clone();
    hand.sort();
    let mut out = vec![format!("Your hand ({}): {}.", hand.len(), list(&hand))];
    out.push(format!(
        "Standing orders: {}; {}.",
        order_text(g, &Order::SetDefend(g.defend[seat])),
        order_text(g, &Order::SetWorks(g.works[seat].clone()))
    ));
    for p in g
        .prompts(castellan_engine::Lang::En)
        .into_iter()
        .filter(|p| p.seat == seat)
    {
        out.push(p.question.clone());
        out.push(format!("  You may write: {}", p.choices.join(" | ")));
        out.push(format!("  If you do not answer: {}", p.default));
        if let Some(s) = &p.standing {
            out.push(format!("  Standing order: {s}"));
        }
    }
    out.join("\n")
}
