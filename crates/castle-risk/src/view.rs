//! Narration of events (public and private), the text map of Europe and the private view.

use crate::cards::hand_text;
use crate::game::{CastleRisk, Event, Phase, PlaceWhy, T};
use crate::map::{map, EMPIRES};
use castellan_engine::{Lang, Rules, Seat, Viewer};

fn tn(t: T) -> &'static str {
    CastleRisk::tname(t)
}

fn dice_text(d: &[u8]) -> String {
    d.iter()
        .map(|x| x.to_string())
        .collect::<Vec<_>>()
        .join("-")
}

fn placements(p: &[(T, u32)]) -> String {
    p.iter()
        .map(|(t, n)| format!("{n} on {}", tn(*t)))
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

pub fn narrate(g: &CastleRisk, e: &Event, v: Viewer, _lang: Lang) -> Option<String> {
    let me = |s: Seat| v == Viewer::Seat(s);
    let n = |s: Seat| g.name(s).to_string();
    if let Some(owner) = private_to(e) {
        if !me(owner) {
            // Others learn only that something was sent.
            return match e {
                Event::RankSent { seat, .. } => {
                    Some(format!("{} has sent a ranked list.", n(*seat)))
                }
                Event::BlindSent { seat, .. } => {
                    Some(format!("{} has sent a placement.", n(*seat)))
                }
                _ => None,
            };
        }
    }
    let s = match e {
        Event::TokensDrawn { first, tokens } => format!(
            "{} rolled highest and places first. Castle tokens drawn: {}.",
            n(*first),
            tokens
                .iter()
                .map(|(s, e)| format!("{} {}", n(*s), map().empire_name(*e)))
                .collect::<Vec<_>>()
                .join(", ")
        ),
        Event::CastlePlaced { seat, t } => format!("{} puts the castle in {} with 1 army.", n(*seat), tn(*t)),
        Event::Claimed { seat, t } => format!("{} claims {}.", n(*seat), tn(*t)),
        Event::RankSent { list, .. } => format!(
            "Your ranked list: {}.",
            if list.is_empty() {
                "no preference".to_string()
            } else {
                list.iter().map(|t| tn(*t)).collect::<Vec<_>>().join(", ")
            }
        ),
        Event::Drafted { picks } | Event::Dealt { picks } => {
            let mut by: Vec<Vec<&str>> = vec![Vec::new(); g.n()];
            for (s, t) in picks {
                by[*s].push(tn(*t));
            }
            format!(
                "{}: {}.",
                if matches!(e, Event::Drafted { .. }) {
                    "The draft gives"
                } else {
                    "The random deal gives"
                },
                by.iter()
                    .enumerate()
                    .map(|(s, l)| format!("{} {}", n(s), l.join(", ")))
                    .collect::<Vec<_>>()
                    .join("; ")
            )
        }
        Event::Placed { seat, placements: p, why } => format!(
            "{} places {}{}.",
            n(*seat),
            placements(p),
            match why {
                PlaceWhy::Setup => "",
                PlaceWhy::Reinforcements => " (reinforcements)",
                PlaceWhy::Earnings => " (earnings)",
            }
        ),
        Event::BlindSent { placements: p, .. } => {
            format!("Your placement, revealed when all are in: {}.", placements(p))
        }
        Event::HiddenCommitted { seat, t, commitment } => {
            if me(*seat) {
                format!(
                    "Your hidden armies are in {} (commitment {commitment}).",
                    tn(*t)
                )
            } else {
                format!("{} has chosen a hidden-army territory: commitment {commitment}.", n(*seat))
            }
        }
        Event::CardsDealt { seat, cards } => {
            if me(*seat) {
                format!("You are dealt: {}.", hand_text(cards))
            } else {
                format!("{} is dealt {} cards.", n(*seat), cards.len())
            }
        }
        Event::FirstPlayer { seat } => format!("The die names {} first player.", n(*seat)),
        Event::TurnBegins { seat, number } => format!("Turn {number}: {} to play.", n(*seat)),
        Event::Drew { seat, cards } => {
            if me(*seat) {
                format!("You draw: {}.", hand_text(cards))
            } else {
                format!("{} draws {} card(s).", n(*seat), cards.len())
            }
        }
        Event::DiplomatReplaced { seat } => format!(
            "{} drew a Diplomat, which is not used with two players: it is discarded and replaced.",
            n(*seat)
        ),
        Event::DiplomatsPurged { seat, count } => format!(
            "{} discards {count} Diplomat(s) and draws as many cards.",
            n(*seat)
        ),
        Event::TwoPlayerRule => {
            "Two players remain: Diplomats are discarded and no longer used.".into()
        }
        Event::Reinforced { seat, cards, armies, track } => format!(
            "{} plays {cards} Reinforcements card(s) for {armies} armies (track now at {track}; hidden armies now worth {}).",
            n(*seat),
            crate::game::track_number(*track)
        ),
        Event::TruceMade { by, with } => format!(
            "{} plays a Diplomat: truce with {} for this turn and {}'s next turn.",
            n(*by),
            n(*with),
            n(*with)
        ),
        Event::SpyPlayed { seat, target } => format!("{} plays a Spy on {}.", n(*seat), n(*target)),
        Event::SpyCountered { seat, target } => format!(
            "{} counters {}'s Spy with a Spy: both are discarded, nothing is seen.",
            n(*target),
            n(*seat)
        ),
        Event::SpySaw { seat, target, hand } => {
            if me(*seat) {
                format!("Your Spy sees {}'s hand: {}.", n(*target), hand_text(hand))
            } else if me(*target) {
                format!("{}'s Spy has seen your hand.", n(*seat))
            } else {
                return None;
            }
        }
        Event::SpyDiscarded { seat, target, card } => match card {
            Some(c) => format!(
                "{}'s Spy makes {} discard a {} (shown to all).",
                n(*seat),
                n(*target),
                c.name()
            ),
            None => format!("{}'s Spy finds {}'s hand empty.", n(*seat), n(*target)),
        },
        Event::HiddenRevealed { seat, t, armies, salt, commitment } => format!(
            "{} reveals hidden armies in {}: {armies} armies (salt {salt}, commitment {commitment}).",
            n(*seat),
            tn(*t)
        ),
        Event::Waiting { seat, what } => format!("Waiting for {} {what}.", n(*seat)),
        Event::AttackDeclared { seat, from, to, ship } => match ship {
            Some(k) => format!(
                "{} plays an Admiral: {k} armies sail from {} to attack {}.",
                n(*seat),
                tn(*from),
                tn(*to)
            ),
            None => format!("{} attacks {} from {}.", n(*seat), tn(*to), tn(*from)),
        },
        Event::GeneralEngaged { seat } => format!("{} engages a General (+1 on the highest die).", n(*seat)),
        Event::MarshalEngaged { seat } => format!("{} engages a Marshal (+1 on the highest die).", n(*seat)),
        Event::Battle {
            attacker,
            defender,
            general,
            marshal,
            attacker_losses,
            defender_losses,
            ..
        } => format!(
            "  dice {}{} against {}{}: attacker loses {attacker_losses}, defender loses {defender_losses}.",
            dice_text(attacker),
            if *general { " (+1 General)" } else { "" },
            dice_text(defender),
            if *marshal { " (+1 Marshal)" } else { "" }
        ),
        Event::GeneralLost { seat } => format!("{}'s General is beaten and discarded.", n(*seat)),
        Event::MarshalLost { seat } => format!("{}'s Marshal is beaten and discarded.", n(*seat)),
        Event::AttackStopped { from, to, left, defenders } => format!(
            "The attack stops: {} holds {left}, {} holds {defenders}.",
            tn(*from),
            tn(*to)
        ),
        Event::Conquered { seat, to, moved, by_sea, .. } => format!(
            "{} conquers {} and moves in {moved} armies{}.",
            n(*seat),
            tn(*to),
            if *by_sea { " from the ship" } else { "" }
        ),
        Event::AdmiralLost { seat, to } => format!(
            "{}'s fleet is destroyed before {}: the Admiral is discarded.",
            n(*seat),
            tn(*to)
        ),
        Event::AdmiralBack { seat } => format!("{}'s Admiral returns to hand.", n(*seat)),
        Event::CastleCaptured { victor, loser, t } => format!(
            "{} captures {}'s castle in {}!",
            n(*victor),
            n(*loser),
            tn(*t)
        ),
        Event::Eliminated { seat, by, armies_removed, tokens, cards, hidden_taken } => {
            let base = format!(
                "{} is eliminated: {armies_removed} armies leave the board; {} takes the castle token(s) {}, {} card(s){}.",
                n(*seat),
                n(*by),
                tokens
                    .iter()
                    .map(|t| map().empire_name(*t).to_string())
                    .collect::<Vec<_>>()
                    .join(", "),
                cards.len(),
                if *hidden_taken > 0 {
                    " and the unused hidden armies"
                } else {
                    ""
                }
            );
            if me(*by) {
                format!("{base} The cards you take: {}.", hand_text(cards))
            } else {
                base
            }
        }
        Event::Reoccupied { seat, t, from } => {
            format!("{} re-occupies {} with an army from {}.", n(*seat), tn(*t), tn(*from))
        }
        Event::Annexed { seat, t, from } => match from {
            Some(f) => format!("{} annexes {} with an army from {}.", n(*seat), tn(*t), tn(*f)),
            None => format!("{} annexes {} with a new army (nobody could spare one).", n(*seat), tn(*t)),
        },
        Event::StandingSet { text, .. } => format!("Standing order noted: {text}."),
        Event::TurnEnds { seat, earnings, detail } => {
            if *earnings > 0 {
                format!("{} ends the turn and earns {earnings} armies ({detail}).", n(*seat))
            } else {
                format!("{} ends the turn (no earnings).", n(*seat))
            }
        }
        Event::CardReturned { seat, card } => {
            format!("{}'s {} returns to hand.", n(*seat), card.name())
        }
        Event::GameOver { winners, reason } => format!(
            "Game over: {} ({reason}).",
            winners.iter().map(|s| n(*s)).collect::<Vec<_>>().join(", ")
        ),
    };
    Some(s)
}

/// The text map every player and observer sees.
pub fn public_view(g: &CastleRisk, _lang: Lang) -> String {
    let m = map();
    let mut out = String::new();
    let phase = match &g.phase {
        Phase::Castles { .. } => "setup: castles".to_string(),
        Phase::Claim { .. } => "setup: claiming territories".to_string(),
        Phase::Draft { .. } => "setup: draft (ranked lists)".to_string(),
        Phase::Place { .. } => "setup: placing armies, 5 at a time".to_string(),
        Phase::Blind { .. } => "setup: blind placement".to_string(),
        Phase::Hide => "setup: hidden armies".to_string(),
        Phase::Play => format!("turn {}, {} to play", g.turns_played, g.name(g.current)),
        Phase::Over => "game over".to_string(),
    };
    out.push_str(&format!("CASTLE RISK ({phase})\n"));
    out.push_str(&format!(
        "Reinforcements track: {} of 12 played; next card worth {}; hidden armies now worth {}.\n",
        g.track,
        if g.track < 12 {
            (g.track + 3).to_string()
        } else {
            "-".into()
        },
        g.hidden_value()
    ));
    out.push_str(&format!(
        "Cards: pile {}, discard {}, on the table {}.\n",
        g.pile.len(),
        g.discard.len(),
        g.in_play.len()
    ));
    out.push_str("Players:\n");
    for s in 0..g.n() {
        let terr = g.territories_of(s);
        let armies: u32 = terr.iter().map(|t| g.armies[*t]).sum();
        let state = if g.alive[s] {
            format!(
                "castle in {}, {} territories, {armies} armies, {} cards",
                g.castle[s].map(tn).unwrap_or("-"),
                terr.len(),
                g.hands[s].len()
            )
        } else {
            "eliminated".to_string()
        };
        let tokens: Vec<&str> = g.tokens[s].iter().map(|e| m.empire_name(*e)).collect();
        let hidden: Vec<String> = g.hidden[s]
            .iter()
            .map(|h| {
                if h.used {
                    format!("used in {}", tn(h.territory))
                } else {
                    format!("committed {}", &h.commitment[..12.min(h.commitment.len())])
                }
            })
            .collect();
        out.push_str(&format!(
            "  {}: {state}; tokens: {}; hidden armies: {}\n",
            g.name(s),
            if tokens.is_empty() {
                "none".into()
            } else {
                tokens.join(", ")
            },
            if hidden.is_empty() {
                "none".into()
            } else {
                hidden.join("; ")
            }
        ));
    }
    if !g.truces.is_empty() {
        out.push_str("Truces:\n");
        for t in &g.truces {
            out.push_str(&format!(
                "  {} and {} (until the end of {}'s next turn)\n",
                g.name(t.by),
                g.name(t.with),
                g.name(t.with)
            ));
        }
    }
    let w = g.players.iter().map(|p| p.len()).max().unwrap_or(4).max(6);
    for (gi, grp) in m.board.groups.iter().enumerate() {
        let holder = grp.members.first().and_then(|t| g.owner[*t]);
        let all = holder.is_some() && grp.members.iter().all(|t| g.owner[*t] == holder);
        let bonus = if gi < EMPIRES.len() {
            " (4 for all)"
        } else {
            ""
        };
        out.push_str(&format!(
            "\n{}{bonus}{}\n",
            grp.name.to_uppercase(),
            if all {
                format!("  [all held by {}]", g.name(holder.unwrap_or(0)))
            } else {
                String::new()
            }
        ));
        for &t in &grp.members {
            let owner = g.owner[t]
                .map(|s| g.name(s).to_string())
                .unwrap_or_else(|| "-".into());
            let mut marks = Vec::new();
            if let Some(c) = g.castle_owner_at(t) {
                marks.push(format!("CASTLE of {}", g.name(c)));
            }
            if m.sea[t] != crate::map::Sea::None {
                marks.push(match m.sea[t] {
                    crate::map::Sea::Black => "port: Black Sea".to_string(),
                    crate::map::Sea::Both => "port: open sea + Black Sea".to_string(),
                    _ => "port".to_string(),
                });
            }
            out.push_str(&format!(
                "  {:<17} {:<w$} {:>3}  {}\n",
                tn(t),
                owner,
                g.armies[t],
                marks.join(", ")
            ));
        }
    }
    out.push_str("\n(All 11 independents together earn 6.)\n");
    if let Some(o) = &g.outcome {
        out.push_str(&format!("\nGAME OVER: {}\n", o.reason));
    }
    out
}

fn standing_text(g: &CastleRisk, s: Seat) -> Vec<String> {
    use crate::game::*;
    let st = &g.standing[s];
    let set_or = |set: bool| if set { "" } else { " (default)" };
    vec![
        format!(
            "defend with {} dice{}",
            st.defend.unwrap_or(DEFAULT_DEFEND),
            set_or(st.defend.is_some())
        ),
        format!(
            "Marshal: {}{}",
            match st.marshal.unwrap_or(DEFAULT_MARSHAL) {
                MarshalPolicy::Never => "never".to_string(),
                MarshalPolicy::Always => "always".to_string(),
                MarshalPolicy::When(n) =>
                    format!("when the territory holds {n}+ armies or is the castle"),
            },
            set_or(st.marshal.is_some())
        ),
        format!(
            "counter-Spy: {}{}",
            if st.counterspy.unwrap_or(DEFAULT_COUNTERSPY) {
                "always"
            } else {
                "never"
            },
            set_or(st.counterspy.is_some())
        ),
        format!(
            "reveal hidden armies on defence: {}{}",
            match st.reveal.unwrap_or(DEFAULT_REVEAL) {
                RevealPolicy::Never => "never".to_string(),
                RevealPolicy::OnAttack(n) => format!("when attacked and worth {n}+"),
            },
            set_or(st.reveal.is_some())
        ),
        format!(
            "annex: {}",
            match &st.annex {
                None => "default (next to your territories)".to_string(),
                Some(l) if l.is_empty() => "auto".to_string(),
                Some(l) => l.iter().map(|t| tn(*t)).collect::<Vec<_>>().join(", "),
            }
        ),
        format!(
            "re-occupy: {}",
            match st.reoccupy {
                None => "ask",
                Some(true) => "all",
                Some(false) => "none",
            }
        ),
    ]
}

/// What only `seat` may know.
pub fn private_view(g: &CastleRisk, s: Seat, lang: Lang) -> String {
    if s >= g.n() {
        return String::new();
    }
    let mut out = format!("Private view for {}\n", g.name(s));
    out.push_str(&format!("Hand: {}\n", hand_text(&g.hands[s])));
    let engaged: Vec<&str> = g
        .in_play
        .iter()
        .filter(|(x, _)| *x == s)
        .map(|(_, c)| c.name())
        .collect();
    if !engaged.is_empty() {
        out.push_str(&format!("Engaged on the table: {}\n", engaged.join(", ")));
    }
    for h in &g.hidden[s] {
        out.push_str(&format!(
            "Hidden armies{}: {} ({}), worth {} now{}\n",
            if h.chosen_by != s {
                format!(" (taken from {})", g.name(h.chosen_by))
            } else {
                String::new()
            },
            tn(h.territory),
            if h.used { "used" } else { "unused" },
            g.hidden_value(),
            if !h.used && g.owner[h.territory] == Some(s) {
                "; you hold it: REVEAL".to_string()
            } else {
                String::new()
            }
        ));
    }
    let truces: Vec<String> = g
        .truces
        .iter()
        .filter(|t| t.by == s || t.with == s)
        .map(|t| g.name(if t.by == s { t.with } else { t.by }).to_string())
        .collect();
    if !truces.is_empty() {
        out.push_str(&format!("Truces with: {}\n", truces.join(", ")));
    }
    out.push_str("Standing orders:\n");
    for l in standing_text(g, s) {
        out.push_str(&format!("  {l}\n"));
    }
    let prompts: Vec<_> = g
        .pending(lang)
        .into_iter()
        .filter(|p| p.seat == s)
        .collect();
    if prompts.is_empty() {
        out.push_str("Nothing is asked of you now.\n");
    }
    for p in prompts {
        out.push_str(&format!("Asked of you ({}): {}\n", p.kind, p.question));
        for c in &p.choices {
            out.push_str(&format!("  {c}\n"));
        }
        out.push_str(&format!("  default if you do not answer: {}\n", p.default));
        if let Some(st) = &p.standing {
            out.push_str(&format!("  standing order for this: {st}\n"));
        }
    }
    out
}

/// The order help (ORDERS), in `lang`.
pub fn help(_lang: castellan_engine::Lang) -> String {
    HELP.to_string()
}

pub const HELP: &str = "\
Castle Risk orders (one per line; English or French keywords; names are forgiving):
Setup
  CASTLE Paris                      put your castle in your drawn empire (CHATEAU)
  CLAIM Livonia                     claim a free territory (table claim)
  RANK Livonia, Poland, Moscow      your ranked list (draft claim); RANK alone = no preference
  PLACE 3 Paris, 2 Brittany         place armies (setup rounds of 5, blind, reinforcements, earnings)
  HIDE Livonia                      your secret hidden-army territory (CACHER)
Your turn
  REINFORCE 2                       play 2 Reinforcements cards (before the first attack) (RENFORT)
  TRUCE Bob                         play a Diplomat (before the first attack) (TREVE / DIPLOMATE)
  SPY Bob [DISCARD Admiral, General]  play a Spy; the first listed card Bob holds is discarded (ESPION)
  REVEAL [Livonia]                  reveal your hidden armies in a territory you hold (REVELER)
  ATTACK Livonia FROM Poland [UNTIL CONQUERED | UNTIL 3 LEFT | FOR 2 ROLLS] [WITH 2 DICE]
         [THEN MOVE 5 | MOVE ALL | LEAVE 2] [GENERAL]        (ATTAQUE ... DEPUIS ...)
  SAIL 6 FROM Marseille TO Naples [WITH 2 DICE] [GENERAL]     Admiral sea attack, to the end (AMIRAL)
  END                               end the turn and collect earnings (FIN)
After a castle capture
  OCCUPY Livonia [FROM Poland] | OCCUPY ALL | PASS            the victor re-occupies
  ANNEX Livonia [FROM Moscow]                                 the others annex in turn
Answers when asked (option ask=true)
  DEFEND 2 [MARSHAL] [REVEAL]       defend a whole attack
  COUNTERSPY | NO COUNTERSPY        answer a Spy
Standing orders (any time)
  SET DEFEND 1|2, SET MARSHAL ALWAYS|NEVER|WHEN 3+, SET COUNTERSPY ALWAYS|NEVER,
  SET REVEAL ON ATTACK|NEVER|WHEN 5+, SET ANNEX AUTO|Livonia, Poland, SET REOCCUPY ALL|NONE|ASK,
  SET ASK (forget them all)
";
