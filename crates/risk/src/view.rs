//! Prompts, narration, the text world map and the private view.

use crate::cards::{self, card_name};
use crate::map::{self, board};
use crate::*;
use castellan_engine::battle::max_defence_dice;

fn pname(s: &Risk, seat: Seat) -> String {
    s.players
        .get(seat)
        .cloned()
        .unwrap_or_else(|| format!("seat {seat}"))
}

fn owner_name(s: &Risk, o: Owner) -> String {
    match o {
        Owner::Seat(p) => pname(s, p),
        Owner::Neutral => "neutral".into(),
        Owner::Nobody => "nobody".into(),
    }
}

fn placements(p: &Placements) -> String {
    p.iter()
        .map(|(t, k)| format!("{k} on {}", map::name(*t)))
        .collect::<Vec<_>>()
        .join(", ")
}

fn prompt(
    seat: Seat,
    kind: PromptKind,
    q: String,
    choices: Vec<String>,
    default: String,
) -> Prompt {
    Prompt {
        seat,
        kind,
        question: q,
        choices,
        default,
        standing: None,
    }
}

pub fn pending(s: &Risk, _lang: Lang) -> Vec<Prompt> {
    if s.outcome.is_some() {
        return vec![];
    }
    let mut out = Vec::new();
    match s.phase {
        Phase::Over => {}
        Phase::Claim => {
            let free: Vec<usize> = (0..s.owner.len())
                .filter(|&t| s.owner[t] == Owner::Nobody)
                .collect();
            out.push(prompt(
                s.to_move,
                PromptKind::Claim,
                format!("Claim a free territory ({} left).", free.len()),
                free.iter()
                    .take(6)
                    .map(|&t| format!("CLAIM {}", map::name(t)))
                    .collect(),
                String::new(),
            ));
        }
        Phase::Draft => {
            for seat in 0..s.n() {
                if s.ranks[seat].is_none() {
                    out.push(prompt(
                        seat,
                        PromptKind::Draft,
                        "Send your ranked list of territories; they are drafted round-robin."
                            .into(),
                        vec!["RANK Eastern Australia, Indonesia, New Guinea, Siam".into()],
                        String::new(),
                    ));
                }
            }
        }
        Phase::Place => {
            let seat = s.to_move;
            let (own, neu) = s.placement_due(seat);
            out.push(prompt(
                seat,
                PromptKind::Place,
                format!(
                    "Place {own} of your armies{} ({} left to place).",
                    if neu > 0 {
                        " and 1 neutral army".to_string()
                    } else {
                        String::new()
                    },
                    s.to_place[seat]
                ),
                vec![],
                String::new(),
            ));
        }
        Phase::BlindPlace => {
            for seat in 0..s.n() {
                if s.blind[seat].is_none() {
                    let (own, neu) = s.placement_due(seat);
                    out.push(prompt(
                        seat,
                        PromptKind::Place,
                        format!(
                            "Send all your placements at once: {own} armies{}; revealed when everyone has sent.",
                            if neu > 0 { format!(" and {neu} neutral") } else { String::new() }
                        ),
                        vec![],
                        String::new(),
                    ));
                }
            }
        }
        Phase::Headquarters => {
            for seat in 0..s.n() {
                if s.hq[seat].is_none() {
                    out.push(prompt(
                        seat,
                        PromptKind::Headquarters,
                        "Choose your secret headquarters among your territories.".into(),
                        s.owned(seat)
                            .iter()
                            .take(5)
                            .map(|&t| format!("HQ {}", map::name(t)))
                            .collect(),
                        String::new(),
                    ));
                }
            }
        }
        Phase::Play => {
            if let Some(b) = &s.battle {
                let max = max_defence_dice(s.armies[b.to], 2);
                let neutral = s.owner[b.to] == Owner::Neutral;
                let mut p = prompt(
                    b.responder,
                    if neutral { PromptKind::DefendNeutral } else { PromptKind::Defend },
                    format!(
                        "{} attacks {}{} ({} armies) from {} ({} armies): how many dice do you defend with?",
                        pname(s, s.to_move),
                        if neutral { "the neutral " } else { "" },
                        map::name(b.to),
                        s.armies[b.to],
                        map::name(b.from),
                        s.armies[b.from]
                    ),
                    (1..=max).rev().map(|d| format!("DEFEND {d}")).collect(),
                    String::new(),
                );
                p.standing = Some(
                    if neutral {
                        "SET NEUTRAL 2"
                    } else {
                        "SET DEFEND 2"
                    }
                    .into(),
                );
                out.push(p);
            } else {
                let seat = s.to_move;
                let ts = &s.turn_state;
                let q = match ts.stage {
                    Stage::Reinforce if s.hands[seat].len() >= 5 => {
                        format!("You hold {} cards: trade a set.", s.hands[seat].len())
                    }
                    Stage::Reinforce => format!(
                        "Your turn: place {} armies (trade sets first if you wish).",
                        ts.reinforcements
                    ),
                    Stage::Attack => "Attack, fortify, or end your turn.".to_string(),
                    Stage::Fortify => "Fortify again or END.".to_string(),
                };
                let mut choices = Vec::new();
                if ts.stage == Stage::Reinforce {
                    let held = |t: usize| s.owns(seat, t);
                    for set in cards::sets_in(&s.hands[seat], &held).iter().take(2) {
                        choices.push(crate::orders::trade_text(set));
                    }
                }
                if ts.stage == Stage::Attack {
                    'found: for from in s.owned(seat) {
                        if s.armies[from] < 2 {
                            continue;
                        }
                        for to in board().neighbors(from) {
                            if !s.owns(seat, to) {
                                choices.push(format!(
                                    "ATTACK {} FROM {} UNTIL CONQUERED",
                                    map::name(to),
                                    map::name(from)
                                ));
                                if choices.len() >= 3 {
                                    break 'found;
                                }
                            }
                        }
                    }
                }
                out.push(prompt(seat, PromptKind::Turn, q, choices, String::new()));
            }
        }
    }
    // choices and default text come from the default order (exact lines)
    for p in out.iter_mut() {
        let d = s.order_text_of(&crate::bot::default_order(s, p));
        if p.choices.is_empty() {
            p.choices = vec![d.clone()];
        } else if !p.choices.contains(&d) {
            p.choices.insert(0, d.clone());
        }
        p.default = d;
    }
    out
}

impl Risk {
    pub fn order_text_of(&self, o: &Order) -> String {
        crate::orders::text(o)
    }
}

pub fn narrate(s: &Risk, e: &Event, v: Viewer, _lang: Lang) -> Option<String> {
    let me = |seat: Seat| v == Viewer::Seat(seat);
    let n = |seat: Seat| pname(s, seat);
    let t = |x: usize| map::name(x).to_string();
    Some(match e {
        Event::FirstPlayer { seat } => format!("{} rolled highest and goes first.", n(*seat)),
        Event::Claimed { seat, t: x } => format!("{} claims {}.", n(*seat), t(*x)),
        Event::Ranked { seat, list } => {
            if me(*seat) {
                format!(
                    "Your ranking: {}.",
                    list.iter().map(|x| t(*x)).collect::<Vec<_>>().join(", ")
                )
            } else {
                format!("{} has sent a ranking.", n(*seat))
            }
        }
        Event::Allotted { picks, how } => {
            let mut lines = vec![format!("Territories {how}:")];
            let mut owners: Vec<Owner> = (0..s.n()).map(Owner::Seat).collect();
            if picks.iter().any(|p| p.0 == Owner::Neutral) {
                owners.push(Owner::Neutral);
            }
            for o in owners {
                let l: Vec<String> =
                    picks.iter().filter(|p| p.0 == o).map(|p| t(p.1)).collect();
                lines.push(format!("  {}: {}", owner_name(s, o), l.join(", ")));
            }
            lines.join("\n")
        }
        Event::Placed { seat, own, neutral } => {
            let mut l = format!("{} places {}", n(*seat), placements(own));
            if !neutral.is_empty() {
                l += &format!(" and a neutral army: {}", placements(neutral));
            }
            l + "."
        }
        Event::BlindSent { seat, own, neutral } => {
            if me(*seat) {
                let mut l = format!("Your placement (secret until all have sent): {}", placements(own));
                if !neutral.is_empty() {
                    l += &format!("; neutral: {}", placements(neutral));
                }
                l
            } else {
                format!("{} has sent a placement.", n(*seat))
            }
        }
        Event::BlindRevealed { all } => {
            let mut lines = vec!["Placements revealed:".to_string()];
            for (seat, own, neutral) in all {
                let mut l = format!("  {}: {}", n(*seat), placements(own));
                if !neutral.is_empty() {
                    l += &format!("; neutral: {}", placements(neutral));
                }
                lines.push(l);
            }
            lines.join("\n")
        }
        Event::HqCommitted { seat, t: x, commitment } => {
            if me(*seat) {
                format!(
                    "Your headquarters: {} (commitment {commitment}).",
                    t(*x)
                )
            } else {
                format!(
                    "{} has chosen a headquarters (commitment {commitment}).",
                    n(*seat)
                )
            }
        }
        Event::HqRevealed { all } => {
            let mut lines = vec!["Headquarters revealed (check: SHA-256(salt \":\" key) = commitment):".to_string()];
            for (seat, x, salt) in all {
                lines.push(format!(
                    "  {}: {} (key {}, salt {})",
                    n(*seat),
                    t(*x),
                    board().territories[*x].key,
                    salt.hex()
                ));
            }
            lines.join("\n")
        }
        Event::TurnBegins {
            seat,
            round,
            territories,
            base,
            continents,
            total,
        } => {
            let conts: Vec<String> = continents
                .iter()
                .map(|g| format!("{} +{}", board().groups[*g].name, board().groups[*g].bonus))
                .collect();
            format!(
                "Round {round}: {}'s turn. {territories} territories: {base} armies{}; {total} to place.",
                n(*seat),
                if conts.is_empty() { String::new() } else { format!(", {}", conts.join(", ")) }
            )
        }
        Event::Traded {
            seat,
            cards: cs,
            value,
            bonus_on,
        } => format!(
            "{} trades {} for {value} armies{}.",
            n(*seat),
            cs.iter().map(|c| card_name(*c)).collect::<Vec<_>>().join(", "),
            bonus_on
                .map(|x| format!(", +2 on {}", t(x)))
                .unwrap_or_default()
        ),
        Event::ArmiesLost { seat, armies } => format!(
            "{} loses {armies} armies that cannot be placed (at most {} a territory).",
            n(*seat),
            s.cap()
        ),
        Event::AwaitDefence { responder, from, to } => format!(
            "The attack on {} from {} waits for {}'s dice (DEFEND 1 or DEFEND 2).",
            t(*to),
            t(*from),
            n(*responder)
        ),
        Event::Battle {
            seat,
            from,
            to,
            attack,
            defence,
            attacker_losses,
            defender_losses,
            reroll,
            commander,
        } => {
            let mut l = format!(
                "{} attacks {} from {}: {:?} against {:?}",
                n(*seat),
                t(*to),
                t(*from),
                attack,
                defence
            );
            if let Some((c, old, new)) = reroll {
                l += &format!(" (re-rolled a {old} into a {new} showing the {} card)", card_name(*c));
            }
            if let Some(old) = commander {
                l += &format!(" (the commander turned a {old} into a 6)");
            }
            l + &format!(
                ": attacker loses {attacker_losses}, defender loses {defender_losses}."
            )
        }
        Event::Conquered {
            seat,
            from,
            to,
            moved,
        } => format!(
            "{} conquers {} and moves in {moved} from {}.",
            n(*seat),
            t(*to),
            t(*from)
        ),
        Event::HqTaken { seat, of, t: x } => format!(
            "{} captures {}'s headquarters {} and takes its card.",
            n(*seat),
            n(*of),
            t(*x)
        ),
        Event::Eliminated { victim, by, cards: cs } => {
            if me(*by) || me(*victim) {
                format!(
                    "{} is eliminated by {}, who takes {} cards: {}.",
                    n(*victim),
                    n(*by),
                    cs.len(),
                    if cs.is_empty() {
                        "none".to_string()
                    } else {
                        cs.iter().map(|c| card_name(*c)).collect::<Vec<_>>().join(", ")
                    }
                )
            } else {
                format!(
                    "{} is eliminated by {}, who takes {} cards.",
                    n(*victim),
                    n(*by),
                    cs.len()
                )
            }
        }
        Event::MustTrade { seat, cards: k } => format!(
            "{} holds {k} cards and must trade sets now.",
            n(*seat)
        ),
        Event::Drew { seat, card } => {
            if me(*seat) {
                format!("You draw a card: {}.", card_name(*card))
            } else {
                format!("{} draws a card.", n(*seat))
            }
        }
        Event::Fortified {
            seat,
            from,
            to,
            armies,
        } => format!(
            "{} moves {armies} armies from {} to {}.",
            n(*seat),
            t(*from),
            t(*to)
        ),
        Event::TurnEnds { seat } => format!("{} ends the turn.", n(*seat)),
        Event::StandingSet {
            seat,
            neutral,
            policy,
        } => {
            if !me(*seat) {
                return None;
            }
            format!(
                "Standing order: {} {}.",
                if *neutral { "defend neutral territories with" } else { "defend with" },
                match policy {
                    Policy::Dice(d) => format!("{d} dice when allowed"),
                    Policy::Ask => "dice chosen when asked".into(),
                }
            )
        }
        Event::Extended { round, tied } => format!(
            "Turn limit reached with a tie between {}: the game goes on to the end of round {round}.",
            tied.iter().map(|x| n(*x)).collect::<Vec<_>>().join(" and ")
        ),
        Event::Won { winners, reason } => format!(
            "{} wins: {reason}.",
            winners.iter().map(|x| n(*x)).collect::<Vec<_>>().join(" and ")
        ),
    })
}

pub fn public_view(s: &Risk, _lang: Lang) -> String {
    let b = board();
    let mut out = Vec::new();
    let phase = match s.phase {
        Phase::Claim => "claiming territories".to_string(),
        Phase::Draft => "drafting territories".into(),
        Phase::Place | Phase::BlindPlace => "placing armies".into(),
        Phase::Headquarters => "choosing headquarters".into(),
        Phase::Play => format!("round {}, {} to play", s.round, pname(s, s.to_move)),
        Phase::Over => "game over".into(),
    };
    out.push(format!("RISK — {phase}"));
    let width = b
        .territories
        .iter()
        .map(|t| t.name.len())
        .max()
        .unwrap_or(10);
    for (gi, g) in b.groups.iter().enumerate() {
        let holder = (0..s.n()).find(|&p| s.continents_of(p).contains(&gi));
        out.push(format!(
            "\n{} (bonus {}){}",
            g.name,
            g.bonus,
            holder
                .map(|p| format!(" — held by {}", pname(s, p)))
                .unwrap_or_default()
        ));
        for &t in &g.members {
            let hq = if s.hq_revealed {
                (0..s.n())
                    .find(|&p| s.hq[p] == Some(t))
                    .map(|p| format!("  [HQ of {}]", pname(s, p)))
                    .unwrap_or_default()
            } else {
                String::new()
            };
            out.push(format!(
                "  {:width$}  {:>3}  {}{hq}",
                b.territories[t].name,
                s.armies[t],
                owner_name(s, s.owner[t]),
            ));
        }
    }
    out.push("\nPlayers:".into());
    for p in 0..s.n() {
        let (terr, _, conts) = s.base_reinforcements(p);
        let armies: u32 = s.owned(p).iter().map(|&t| s.armies[t]).sum();
        out.push(format!(
            "  {}: {} territories, {} armies, {} cards{}{}",
            pname(s, p),
            terr,
            armies,
            s.hands[p].len(),
            if conts.is_empty() {
                String::new()
            } else {
                format!(
                    ", holds {}",
                    conts
                        .iter()
                        .map(|g| b.groups[*g].name.clone())
                        .collect::<Vec<_>>()
                        .join(", ")
                )
            },
            if s.eliminated[p] {
                " — eliminated"
            } else {
                ""
            }
        ));
    }
    if s.two_player() {
        let neutral: u32 = (0..s.owner.len())
            .filter(|&t| s.owner[t] == Owner::Neutral)
            .map(|t| s.armies[t])
            .sum();
        out.push(format!("  neutral: {neutral} armies"));
    }
    let next = crate::cards::set_value(s.sets_traded + 1, s.opts.rising_sets);
    out.push(format!(
        "Sets traded: {}; the next set is worth {next}. Cards in the draw pile: {}.",
        s.sets_traded,
        s.deck.len()
    ));
    if s.opts.headquarters != Headquarters::None && !s.hq_revealed {
        let chosen: Vec<String> = (0..s.n())
            .filter_map(|p| {
                s.hq_commit[p]
                    .as_ref()
                    .map(|c| format!("{}: {c}", pname(s, p)))
            })
            .collect();
        if !chosen.is_empty() {
            out.push(format!("Headquarters commitments: {}", chosen.join("; ")));
        }
    }
    if let Some(o) = &s.outcome {
        out.push(format!(
            "Winner: {} ({})",
            o.winners
                .iter()
                .map(|w| pname(s, *w))
                .collect::<Vec<_>>()
                .join(", "),
            o.reason
        ));
    }
    out.join("\n")
}

pub fn private_view(s: &Risk, seat: Seat, _lang: Lang) -> String {
    let mut out = Vec::new();
    if seat >= s.n() {
        return String::new();
    }
    out.push(format!("{} — your private view", pname(s, seat)));
    if s.hands[seat].is_empty() {
        out.push("Your cards: none.".into());
    } else {
        out.push(format!(
            "Your cards: {}.",
            s.hands[seat]
                .iter()
                .map(|c| card_name(*c))
                .collect::<Vec<_>>()
                .join(", ")
        ));
        let held = |t: usize| s.owns(seat, t);
        if let Some(set) = cards::sets_in(&s.hands[seat], &held).first() {
            out.push(format!(
                "A set you could trade: {}",
                crate::orders::trade_text(set)
            ));
        }
    }
    if let Some(h) = s.hq[seat] {
        out.push(format!(
            "Your headquarters: {}{}.",
            map::name(h),
            if s.hq_revealed {
                ""
            } else {
                " (secret until everyone has chosen)"
            }
        ));
    }
    let cards_held: Vec<String> = (0..s.n())
        .filter(|&p| p != seat && s.hq_revealed && s.hq_card_holder[p] == seat)
        .filter_map(|p| s.hq[p].map(|t| format!("{} ({}'s)", map::name(t), pname(s, p))))
        .collect();
    if !cards_held.is_empty() {
        out.push(format!(
            "Headquarters cards you captured (never used in sets): {}.",
            cards_held.join(", ")
        ));
    }
    if let Some(r) = &s.ranks[seat] {
        out.push(format!(
            "Your ranking: {}.",
            r.iter()
                .map(|t| map::name(*t))
                .collect::<Vec<_>>()
                .join(", ")
        ));
    }
    if let Some((own, neutral)) = &s.blind[seat] {
        out.push(format!("Your placement (secret): {}", placements(own)));
        if !neutral.is_empty() {
            out.push(format!("  neutral: {}", placements(neutral)));
        }
    }
    let pol = |p: Policy| match p {
        Policy::Dice(d) => format!("{d} dice when allowed"),
        Policy::Ask => "ask me".into(),
    };
    out.push(format!(
        "Standing order: defend with {}.",
        pol(s.stand_defend[seat])
    ));
    if s.two_player() {
        out.push(format!(
            "Standing order: defend neutral territories with {}.",
            pol(s.stand_neutral[seat])
        ));
    }
    for p in pending(s, castellan_engine::Lang::En)
        .into_iter()
        .filter(|p| p.seat == seat)
    {
        out.push(format!("Waiting for you: {}", p.question));
        for c in &p.choices {
            out.push(format!("  {c}"));
        }
        out.push(format!("  default if you do not answer: {}", p.default));
        if let Some(st) = &p.standing {
            out.push(format!("  standing order: {st}"));
        }
    }
    out.join("\n")
}
