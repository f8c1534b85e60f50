//! Prompts, the text world map and the private view, in English and French; narration
//! in narrate.rs.

use crate::cards::{self, card_name_in};
use crate::map::{self, board};
use crate::orders::{attack_choice, text_in, trade_text_in};
use crate::prompts::{prompt, Ask, Prompt};
use crate::words;
use crate::*;
use castellan_engine::battle::max_defence_dice;
use castellan_engine::lang::fr;

use crate::narrate::reason;
use crate::words::{names, owner_name, placements, pname};

pub fn pending(s: &Risk, l: Lang) -> Vec<Prompt> {
    if s.won.is_some() {
        return vec![];
    }
    let mut out = match s.phase {
        Phase::Over => vec![],
        Phase::Claim | Phase::Draft | Phase::Place | Phase::BlindPlace | Phase::Headquarters => {
            setup_prompts(s, l)
        }
        Phase::Play => match &s.battle {
            Some(b) => vec![defend_prompt(s, b, l)],
            None => vec![turn_prompt(s, l)],
        },
    };
    // choices and default text come from the default order (exact lines)
    for p in out.iter_mut() {
        let d = text_in(&crate::bot::default_order(s, p), l);
        if p.choices.is_empty() {
            p.choices = vec![d.clone()];
        } else if !p.choices.contains(&d) {
            p.choices.insert(0, d.clone());
        }
        p.default = d;
    }
    out
}

fn setup_prompts(s: &Risk, l: Lang) -> Vec<Prompt> {
    let mut out = Vec::new();
    match s.phase {
        Phase::Claim => {
            let free: Vec<usize> = (0..s.board.len())
                .filter(|&t| s.board[t].owner == Owner::Nobody)
                .collect();
            let q = match l {
                Lang::En => format!("Claim a free territory ({} left).", free.len()),
                Lang::Fr => format!("Réclamez un territoire libre (il en reste {}).", free.len()),
            };
            let choices = free
                .iter()
                .take(6)
                .map(|&t| text_in(&Order::Claim(t), l))
                .collect();
            out.push(prompt(s.to_move, Ask::Claim, q, choices, String::new()));
        }
        Phase::Draft => out = draft_prompts(s, l),
        Phase::Place => {
            let seat = s.to_move;
            let (own, neu) = s.placement_due(seat);
            let left = s.players[seat].to_place;
            let q = match l {
                Lang::En => format!(
                    "Place {own} of your armies{} ({left} left to place).",
                    if neu > 0 { " and 1 neutral army" } else { "" },
                ),
                Lang::Fr => format!(
                    "Placez {own} de vos armées{} (il vous en reste {left} à placer).",
                    if neu > 0 { " et 1 armée neutre" } else { "" },
                ),
            };
            out.push(prompt(seat, Ask::Place, q, vec![], String::new()));
        }
        Phase::BlindPlace => {
            for seat in (0..s.n()).filter(|&p| s.players[p].blind.is_none()) {
                let q = blind_question(s.placement_due(seat), l);
                out.push(prompt(seat, Ask::Place, q, vec![], String::new()));
            }
        }
        Phase::Headquarters => out = hq_prompts(s, l),
        Phase::Play | Phase::Over => {}
    }
    out
}

fn draft_prompts(s: &Risk, l: Lang) -> Vec<Prompt> {
    let mut out = Vec::new();

    let example: Vec<TerritoryId> = ["eastern_australia", "indonesia", "new_guinea", "siam"]
        .iter()
        .filter_map(|k| board().by_key(k))
        .collect();
    for seat in (0..s.n()).filter(|&p| s.players[p].rank.is_none()) {
        out.push(prompt(
                    seat,
                    Ask::Draft,
                    l.pick(
                        "Send your ranked list of territories; they are drafted round-robin.",
                        "Envoyez votre liste de territoires par ordre de préférence ; ils sont répartis à tour de rôle.",
                    )
                    .into(),
                    vec![text_in(&Order::Rank(example.clone()), l)],
                    String::new(),
                ));
    }
    out
}

fn hq_prompts(s: &Risk, l: Lang) -> Vec<Prompt> {
    let mut out = Vec::new();

    for seat in (0..s.n()).filter(|&p| s.players[p].hq.is_none()) {
        out.push(prompt(
            seat,
            Ask::Headquarters,
            l.pick(
                "Choose your secret headquarters among your territories.",
                "Choisissez votre quartier général secret parmi vos territoires.",
            )
            .into(),
            s.owned(seat)
                .iter()
                .take(5)
                .map(|&t| text_in(&Order::Hq(t), l))
                .collect(),
            String::new(),
        ));
    }
    out
}

fn blind_question((own, neu): (u32, u32), l: Lang) -> String {
    match l {
        Lang::En => format!(
            "Send all your placements at once: {own} armies{}; revealed when everyone has sent.",
            if neu > 0 { format!(" and {neu} neutral") } else { String::new() }
        ),
        Lang::Fr => format!(
            "Envoyez tous vos placements d'un coup : {}{} ; ils seront révélés quand tous auront envoyé les leurs.",
            words::armies(own, l),
            if neu > 0 {
                format!(" et {} neutre{}", neu, if neu > 1 { "s" } else { "" })
            } else {
                String::new()
            }
        ),
    }
}

fn defend_prompt(s: &Risk, b: &Battle, l: Lang) -> Prompt {
    let max = max_defence_dice(s.board[b.to].armies, 2);
    let neutral = s.board[b.to].owner == Owner::Neutral;
    let (to, from) = (s.board[b.to].armies, s.board[b.from].armies);
    let q = match l {
        Lang::En => format!(
            "{} attacks {}{} ({to} armies) from {} ({from} armies): how many dice do you defend with?",
            pname(s, s.to_move),
            if neutral { "the neutral " } else { "" },
            map::name(b.to),
            map::name(b.from),
        ),
        Lang::Fr => format!(
            "{} attaque {}{} ({}) depuis {} ({}) : avec combien de dés défendez-vous ?",
            pname(s, s.to_move),
            words::le(b.to, l),
            if neutral { " neutre" } else { "" },
            words::armies(to, l),
            words::le(b.from, l),
            words::armies(from, l),
        ),
    };
    let kind = if neutral {
        Ask::DefendNeutral
    } else {
        Ask::Defend
    };
    let choices = (1..=max)
        .rev()
        .map(|d| text_in(&Order::Defend(d), l))
        .collect();
    let mut p = prompt(b.responder, kind, q, choices, String::new());
    let standing = if neutral {
        Order::SetNeutral(Policy::Dice(2))
    } else {
        Order::SetDefend(Policy::Dice(2))
    };
    p.standing = Some(text_in(&standing, l));
    p
}

fn turn_prompt(s: &Risk, l: Lang) -> Prompt {
    let seat = s.to_move;
    let ts = &s.turn_state;
    let q = match (ts.stage, l) {
        (Stage::Reinforce, Lang::En) if s.players[seat].hand.len() >= 5 => {
            format!(
                "You hold {} cards: trade a set.",
                s.players[seat].hand.len()
            )
        }
        (Stage::Reinforce, Lang::Fr) if s.players[seat].hand.len() >= 5 => format!(
            "Vous avez {} cartes : échangez une combinaison.",
            s.players[seat].hand.len()
        ),
        (Stage::Reinforce, Lang::En) => format!(
            "Your turn: place {} (trade sets first if you wish).",
            words::armies(ts.reinforcements, l)
        ),
        (Stage::Reinforce, Lang::Fr) => format!(
            "À vous de jouer : placez {} (échangez d'abord des combinaisons si vous le souhaitez).",
            words::armies(ts.reinforcements, l)
        ),
        (Stage::Attack, _) => l
            .pick(
                "Attack, fortify, or end your turn.",
                "Attaquez, fortifiez, ou terminez votre tour.",
            )
            .into(),
        (Stage::Fortify, _) => l
            .pick("Fortify again or END.", "Fortifiez encore ou FIN.")
            .into(),
    };
    let mut choices = Vec::new();
    if ts.stage == Stage::Reinforce {
        let held = |t: usize| s.owns(seat, t);
        for set in cards::sets_in(&s.players[seat].hand, &held).iter().take(2) {
            choices.push(trade_text_in(set, l));
        }
    }
    if ts.stage == Stage::Attack {
        'found: for from in s.owned(seat) {
            if s.board[from].armies < 2 {
                continue;
            }
            for to in board().neighbors(from) {
                if !s.owns(seat, to) {
                    choices.push(attack_choice(to, from, l));
                    if choices.len() >= 3 {
                        break 'found;
                    }
                }
            }
        }
    }
    prompt(seat, Ask::Turn, q, choices, String::new())
}

impl Risk {
    pub fn order_text_of(&self, o: &Order) -> String {
        crate::orders::text(o)
    }
}

pub fn public_view(s: &Risk, l: Lang) -> String {
    let phase = match (s.phase, l) {
        (Phase::Play, Lang::En) => format!("round {}, {} to play", s.round, pname(s, s.to_move)),
        (Phase::Play, Lang::Fr) => {
            format!("manche {}, à {} de jouer", s.round, pname(s, s.to_move))
        }
        (Phase::Claim, _) => l
            .pick("claiming territories", "réclamation des territoires")
            .into(),
        (Phase::Draft, _) => l
            .pick(
                "drafting territories",
                "répartition des territoires par listes",
            )
            .into(),
        (Phase::Place | Phase::BlindPlace, _) => {
            l.pick("placing armies", "placement des armées").into()
        }
        (Phase::Headquarters, _) => l
            .pick("choosing headquarters", "choix des quartiers généraux")
            .into(),
        (Phase::Over, _) => l.pick("game over", "partie terminée").into(),
    };
    let mut out = vec![format!("RISK — {phase}")];
    map_lines(s, l, &mut out);
    player_lines(s, l, &mut out);
    let next = crate::cards::set_value(s.sets_traded + 1, s.opts.rising_sets);
    out.push(match l {
        Lang::En => format!(
            "Sets traded: {}; the next set is worth {next}. Cards in the draw pile: {}.",
            s.sets_traded,
            s.deck.len()
        ),
        Lang::Fr => format!(
            "Combinaisons échangées : {} ; la prochaine vaut {}. Cartes dans la pioche : {}.",
            s.sets_traded,
            words::armies(next, l),
            s.deck.len()
        ),
    });
    if s.opts.headquarters != Headquarters::None && !s.hq_revealed {
        let sep = l.pick(": ", " : ");
        let chosen: Vec<String> = (0..s.n())
            .filter_map(|p| {
                s.players[p]
                    .hq_commit
                    .as_ref()
                    .map(|c| format!("{}{sep}{c}", pname(s, p)))
            })
            .collect();
        if !chosen.is_empty() {
            out.push(format!(
                "{} {}",
                l.pick(
                    "Headquarters commitments:",
                    "Engagements des quartiers généraux :"
                ),
                chosen.join(l.pick("; ", " ; "))
            ));
        }
    }
    if let Some(w) = &s.won {
        out.push(format!(
            "{} {} ({})",
            l.pick("Winner:", "Vainqueur :"),
            w.winners
                .iter()
                .map(|w| pname(s, *w))
                .collect::<Vec<_>>()
                .join(", "),
            reason(w.reason, l)
        ));
    }
    out.join("\n")
}

/// The world map: a paragraph per continent, its territories by holder with their armies:
/// "Europe (bonus 5). Bot2: Ukraine 3, Iceland 4. Bot3: Scandinavia 2."; held by one,
/// "North America (bonus 5), held by Bot1: Alaska 2, Alberta 1, ...".
fn map_lines(s: &Risk, l: Lang, out: &mut Vec<String>) {
    let b = board();
    let colon = l.pick(":", " :");
    for (gi, g) in b.groups.iter().enumerate() {
        let entry = |t: usize| {
            let hq = if s.hq_revealed {
                (0..s.n())
                    .find(|&p| s.players[p].hq == Some(t))
                    .map(|p| format!(" ({} {})", l.pick("HQ of", "QG de"), pname(s, p)))
                    .unwrap_or_default()
            } else {
                String::new()
            };
            // A free territory (setup) is named alone: no holder, no army.
            if s.board[t].owner == Owner::Nobody && s.board[t].armies == 0 {
                return map::name_in(t, l).to_string();
            }
            format!("{} {}{hq}", map::name_in(t, l), s.board[t].armies)
        };
        let name = map::continent_in(gi, l);
        let holder = (0..s.n()).find(|&p| s.continents_of(p).contains(&gi));
        if let Some(p) = holder {
            let list: Vec<String> = g.members.iter().map(|&t| entry(t)).collect();
            out.push(format!(
                "\n{name} (bonus {}){} {}{colon} {}.",
                g.bonus,
                l.pick(", held by", ", tenue par"),
                pname(s, p),
                list.join(", ")
            ));
            continue;
        }
        // Holders in seat order, then the neutral armies, then the territories nobody holds.
        let owners = (0..s.n())
            .map(Owner::Seat)
            .chain([Owner::Neutral, Owner::Nobody]);
        let parts: Vec<String> = owners
            .filter_map(|o| {
                let list: Vec<String> = g
                    .members
                    .iter()
                    .filter(|&&t| s.board[t].owner == o)
                    .map(|&t| entry(t))
                    .collect();
                (!list.is_empty())
                    .then(|| format!("{}{colon} {}.", owner_name(s, o, l), list.join(", ")))
            })
            .collect();
        out.push(format!("\n{name} (bonus {}). {}", g.bonus, parts.join(" ")));
    }
}

fn player_lines(s: &Risk, l: Lang, out: &mut Vec<String>) {
    out.push(l.pick("\nPlayers:", "\nJoueurs :").into());
    for p in 0..s.n() {
        let (terr, _, conts) = s.base_reinforcements(p);
        let armies: u32 = s.owned(p).iter().map(|&t| s.board[t].armies).sum();
        let cards = s.players[p].hand.len() as u32;
        let held = if conts.is_empty() {
            String::new()
        } else {
            let names: Vec<&str> = conts.iter().map(|g| map::continent_in(*g, l)).collect();
            format!("{}{}", l.pick(", holds ", ", tient "), names.join(", "))
        };
        let gone = if s.players[p].eliminated {
            l.pick(" — eliminated", " — éliminé")
        } else {
            ""
        };
        out.push(match l {
            Lang::En => format!(
                "  {}: {terr} territories, {armies} armies, {cards} cards{held}{gone}",
                pname(s, p)
            ),
            Lang::Fr => format!(
                "  {} : {}, {}, {}{held}{gone}",
                pname(s, p),
                fr::count(terr, "territoire", "territoires"),
                words::armies(armies, l),
                fr::count(cards, "carte", "cartes"),
            ),
        });
    }
    if s.two_player() {
        let neutral: u32 = (0..s.board.len())
            .filter(|&t| s.board[t].owner == Owner::Neutral)
            .map(|t| s.board[t].armies)
            .sum();
        out.push(match l {
            Lang::En => format!("  neutral: {neutral} armies"),
            Lang::Fr => format!("  neutre : {}", words::armies(neutral, l)),
        });
    }
}

/// The standing order a seat starts with (`game::setup`): defend with 2 dice.
const DEFAULT_STAND: Policy = Policy::Dice(2);

pub fn private_view(s: &Risk, seat: Seat, l: Lang) -> String {
    let mut out = Vec::new();
    if seat >= s.n() {
        return String::new();
    }
    // No heading naming the seat: the mail that carries the view says whose it is.
    hand_lines(s, seat, l, &mut out);
    // The ranked list matters while the draft is on; after it, the map says what it gave.
    if let (Some(r), Phase::Claim | Phase::Draft) = (&s.players[seat].rank, s.phase) {
        out.push(format!(
            "{} {}.",
            l.pick("Your ranking:", "Votre liste :"),
            names(r, l)
        ));
    }
    if let Some((own, neutral)) = &s.players[seat].blind {
        out.push(format!(
            "{} {}",
            l.pick("Your placement (secret):", "Vos placements (secrets) :"),
            placements(own, l)
        ));
        if !neutral.is_empty() {
            out.push(format!(
                "  {} {}",
                l.pick("neutral:", "neutre :"),
                placements(neutral, l)
            ));
        }
    }
    // The board around the seat in short (every neighbour of every territory: NEIGHBOURS).
    if s.won.is_none() {
        out.extend(crate::shape::compact_lines(s, seat, l));
    }
    let pol = |p: Policy| match (p, l) {
        (Policy::Dice(d), Lang::En) => format!("{d} dice when allowed"),
        (Policy::Dice(d), Lang::Fr) => format!("{} quand c'est permis", fr::count(d, "dé", "dés")),
        (Policy::Ask, _) => l.pick("ask me", "me demander").into(),
    };
    // The standing orders while the game starts, then only those the player changed (a
    // report does not tell the defaults again and again; HELP lists them).
    let first = s.phase != Phase::Play || s.round <= 1;
    let defend = s.players[seat].stand_defend;
    if first || defend != DEFAULT_STAND {
        out.push(match l {
            Lang::En => format!("Standing order: defend with {}.", pol(defend)),
            Lang::Fr => format!("Ordre permanent en défense : {}.", pol(defend)),
        });
    }
    if s.two_player() && (first || s.players[seat].stand_neutral != DEFAULT_STAND) {
        out.push(match l {
            Lang::En => format!(
                "Standing order: defend neutral territories with {}.",
                pol(s.players[seat].stand_neutral)
            ),
            Lang::Fr => format!(
                "Ordre permanent pour les territoires neutres : {}.",
                pol(s.players[seat].stand_neutral)
            ),
        });
    }
    // What the game waits for from this seat is the judge's to list, once, at the top
    // of the mail (Session::pending).
    out.join("\n")
}

/// Cards in hand, a set to trade, headquarters and captured headquarters cards.
fn hand_lines(s: &Risk, seat: Seat, l: Lang, out: &mut Vec<String>) {
    if s.players[seat].hand.is_empty() {
        out.push(l.pick("Your cards: none.", "Vos cartes : aucune.").into());
    } else {
        let list: Vec<String> = s.players[seat]
            .hand
            .iter()
            .map(|c| card_name_in(*c, l))
            .collect();
        out.push(format!(
            "{} {}.",
            l.pick("Your cards:", "Vos cartes :"),
            list.join(", ")
        ));
        let held = |t: usize| s.owns(seat, t);
        if let Some(set) = cards::sets_in(&s.players[seat].hand, &held).first() {
            out.push(format!(
                "{} {}",
                l.pick(
                    "A set you could trade:",
                    "Une combinaison que vous pourriez échanger :"
                ),
                trade_text_in(set, l)
            ));
        }
    }
    if let Some(h) = s.players[seat].hq {
        out.push(format!(
            "{} {}{}.",
            l.pick("Your headquarters:", "Votre quartier général :"),
            map::name_in(h, l),
            if s.hq_revealed {
                ""
            } else {
                l.pick(
                    " (secret until everyone has chosen)",
                    " (secret jusqu'à ce que tous aient choisi)",
                )
            }
        ));
    }
    let cards_held: Vec<String> = (0..s.n())
        .filter(|&p| p != seat && s.hq_revealed && s.players[p].hq_card_holder == seat)
        .filter_map(|p| {
            s.players[p].hq.map(|t| match l {
                Lang::En => format!("{} ({}'s)", map::name(t), pname(s, p)),
                Lang::Fr => format!("{} (de {})", map::name_in(t, l), pname(s, p)),
            })
        })
        .collect();
    if !cards_held.is_empty() {
        out.push(format!(
            "{} {}.",
            l.pick(
                "Headquarters cards you captured (never used in sets):",
                "Cartes de quartier général capturées (jamais dans une combinaison) :"
            ),
            cards_held.join(", ")
        ));
    }
}
