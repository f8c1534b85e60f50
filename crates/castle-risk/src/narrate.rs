//! Narration of events, public and private, in English and French side by side.

use crate::cards::{hand_text_in, Card};
use crate::game::{track_number, CastleRisk, Event, PlaceWhy, T};
use crate::map::map;
use crate::text::{self, armees, cap, tn};
use castellan_engine::lang::fr;
use castellan_engine::{Lang, Seat, Viewer};

fn dice_text(d: &[u8]) -> String {
    d.iter()
        .map(|x| x.to_string())
        .collect::<Vec<_>>()
        .join("-")
}

/// "3 on Poland, 2 on Paris" / "3 en Pologne, 2 à Paris".
fn placements(p: &[(T, u32)], lang: Lang) -> String {
    p.iter()
        .map(|(t, n)| match lang {
            Lang::En => format!("{n} on {}", tn(*t, lang)),
            Lang::Fr => format!("{} {}", armees(*n), text::en(*t)),
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
                            Lang::Fr => format!("{} ({})", self.n(*s), text::group(*e, lang)),
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
                    text::en(*t)
                ),
            ),
            Event::Claimed { seat, t } => self.pick(
                format!("{} claims {}.", self.n(*seat), tn(*t, l)),
                format!("{} prend {}.", self.n(*seat), text::le(*t)),
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
                    text::en(*t)
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

    fn cards_and_turns(&self, e: &Event) -> Option<String> {
        let l = self.lang;
        let cards = |k: usize| text::count(Lang::Fr, k as i64, ("", ""), ("carte", "cartes"));
        Some(match e {
            Event::CardsDealt { seat, cards: c } => match (self.me(*seat), l) {
                (true, Lang::En) => format!("You are dealt: {}.", self.hand(c)),
                (true, Lang::Fr) => format!("Vous recevez : {}.", self.hand(c)),
                (false, Lang::En) => format!("{} is dealt {} cards.", self.n(*seat), c.len()),
                (false, Lang::Fr) => format!("{} reçoit {}.", self.n(*seat), cards(c.len())),
            },
            Event::FirstPlayer { seat } => self.pick(
                format!("The die names {} first player.", self.n(*seat)),
                format!("Le dé désigne {} comme premier joueur.", self.n(*seat)),
            ),
            Event::TurnBegins { seat, number } => self.pick(
                format!("Turn {number}: {} to play.", self.n(*seat)),
                format!("Tour {number} : à {} de jouer.", self.n(*seat)),
            ),
            Event::Drew { seat, cards: c } => match (self.me(*seat), l) {
                (true, Lang::En) => format!("You draw: {}.", self.hand(c)),
                (true, Lang::Fr) => format!("Vous tirez : {}.", self.hand(c)),
                (false, Lang::En) => format!("{} draws {} card(s).", self.n(*seat), c.len()),
                (false, Lang::Fr) => format!("{} tire {}.", self.n(*seat), cards(c.len())),
            },
            Event::DiplomatReplaced { seat } => self.pick(
                format!("{} drew a Diplomat, which is not used with two players: it is discarded and replaced.", self.n(*seat)),
                format!("{} a tiré un Diplomate, qui ne sert pas à deux joueurs : il est défaussé et remplacé.", self.n(*seat)),
            ),
            Event::DiplomatsPurged { seat, count } => self.pick(
                format!("{} discards {count} Diplomat(s) and draws as many cards.", self.n(*seat)),
                format!(
                    "{} défausse {} et tire autant de cartes.",
                    self.n(*seat),
                    fr::count(*count as i64, "Diplomate", "Diplomates")
                ),
            ),
            Event::TwoPlayerRule => l
                .pick(
                    "Two players remain: Diplomats are discarded and no longer used.",
                    "Il reste deux joueurs : les Diplomates sont défaussés et ne servent plus.",
                )
                .into(),
            Event::Reinforced { seat, cards: k, armies, track } => self.pick(
                format!(
                    "{} plays {k} Reinforcements card(s) for {armies} armies (track now at {track}; hidden armies now worth {}).",
                    self.n(*seat),
                    track_number(*track)
                ),
                format!(
                    "{} joue {} pour {} (piste à {track} ; les armées cachées valent maintenant {}).",
                    self.n(*seat),
                    fr::count(*k, "carte Renfort", "cartes Renfort"),
                    armees(*armies),
                    track_number(*track)
                ),
            ),
            _ => return self.cards_in_play(e),
        })
    }

    fn cards_in_play(&self, e: &Event) -> Option<String> {
        let l = self.lang;
        Some(match e {
            Event::TruceMade { by, with } => self.pick(
                format!(
                    "{} plays a Diplomat: truce with {} for this turn and {}'s next turn.",
                    self.n(*by),
                    self.n(*with),
                    self.n(*with)
                ),
                format!(
                    "{} joue un Diplomate : trêve avec {} pour ce tour et le prochain tour {}.",
                    self.n(*by),
                    self.n(*with),
                    self.de(*with)
                ),
            ),
            Event::SpyPlayed { seat, target } => self.pick(
                format!("{} plays a Spy on {}.", self.n(*seat), self.n(*target)),
                format!("{} joue un Espion contre {}.", self.n(*seat), self.n(*target)),
            ),
            Event::SpyCountered { seat, target } => self.pick(
                format!(
                    "{} counters {}'s Spy with a Spy: both are discarded, nothing is seen.",
                    self.n(*target),
                    self.n(*seat)
                ),
                format!(
                    "{} contre l'Espion {} avec un Espion : les deux sont défaussés, rien n'est vu.",
                    self.n(*target),
                    self.de(*seat)
                ),
            ),
            Event::SpyDiscarded { seat, target, card } => match (card, l) {
                (Some(c), Lang::En) => format!(
                    "{}'s Spy makes {} discard a {} (shown to all).",
                    self.n(*seat),
                    self.n(*target),
                    c.name()
                ),
                (Some(c), Lang::Fr) => format!(
                    "L'Espion {} oblige {} à défausser un {} (montré à tous).",
                    self.de(*seat),
                    self.n(*target),
                    c.name_in(l)
                ),
                (None, Lang::En) => format!("{}'s Spy finds {}'s hand empty.", self.n(*seat), self.n(*target)),
                (None, Lang::Fr) => format!("L'Espion {} trouve la main {} vide.", self.de(*seat), self.de(*target)),
            },
            Event::HiddenRevealed { seat, t, armies, salt, commitment } => self.pick(
                format!(
                    "{} reveals hidden armies in {}: {armies} armies (salt {salt}, commitment {commitment}).",
                    self.n(*seat),
                    tn(*t, l)
                ),
                format!(
                    "{} dévoile ses armées cachées {} : {} (sel {salt}, engagement {commitment}).",
                    self.n(*seat),
                    text::en(*t),
                    armees(*armies)
                ),
            ),
            _ => return self.turn_notes(e),
        })
    }

    fn turn_notes(&self, e: &Event) -> Option<String> {
        let l = self.lang;
        Some(match e {
            Event::Waiting { seat, what } => match l {
                Lang::En => format!("Waiting for {} {what}.", self.n(*seat)),
                Lang::Fr => waiting_fr(&self.n(*seat), what),
            },
            Event::StandingSet { text: s, .. } => match l {
                Lang::En => format!("Standing order noted: {s}."),
                Lang::Fr => format!("Consigne notée : {}.", standing_fr(self.g, s)),
            },
            Event::TurnEnds {
                seat,
                earnings,
                detail,
            } => match (*earnings > 0, l) {
                (true, Lang::En) => format!(
                    "{} ends the turn and earns {earnings} armies ({detail}).",
                    self.n(*seat)
                ),
                (true, Lang::Fr) => format!(
                    "{} termine son tour et reçoit {} ({}).",
                    self.n(*seat),
                    armees(*earnings),
                    earnings_detail_fr(detail)
                ),
                (false, Lang::En) => format!("{} ends the turn (no earnings).", self.n(*seat)),
                (false, Lang::Fr) => format!(
                    "{} termine son tour (pas de nouvelles troupes).",
                    self.n(*seat)
                ),
            },
            Event::CardReturned { seat, card } => self.pick(
                format!("{}'s {} returns to hand.", self.n(*seat), card.name()),
                format!(
                    "Le {} {} revient dans sa main.",
                    card.name_in(l),
                    self.de(*seat)
                ),
            ),
            _ => return None,
        })
    }

    fn spy_saw(&self, e: &Event) -> Option<String> {
        let Event::SpySaw { seat, target, hand } = e else {
            return None;
        };
        if self.me(*seat) {
            Some(self.pick(
                format!(
                    "Your Spy sees {}'s hand: {}.",
                    self.n(*target),
                    self.hand(hand)
                ),
                format!(
                    "Votre Espion voit la main {} : {}.",
                    self.de(*target),
                    self.hand(hand)
                ),
            ))
        } else if self.me(*target) {
            Some(self.pick(
                format!("{}'s Spy has seen your hand.", self.n(*seat)),
                format!("L'Espion {} a vu votre main.", self.de(*seat)),
            ))
        } else {
            None
        }
    }

    fn battle(&self, e: &Event) -> String {
        let l = self.lang;
        match e {
            Event::AttackDeclared {
                seat,
                from,
                to,
                ship: Some(k),
            } => self.pick(
                format!(
                    "{} plays an Admiral: {k} armies sail from {} to attack {}.",
                    self.n(*seat),
                    tn(*from, l),
                    tn(*to, l)
                ),
                format!(
                    "{} joue un Amiral : {} partent par la mer {} pour attaquer {}.",
                    self.n(*seat),
                    armees(*k),
                    text::de(*from),
                    text::le(*to)
                ),
            ),
            Event::AttackDeclared {
                seat,
                from,
                to,
                ship: None,
            } => self.pick(
                format!(
                    "{} attacks {} from {}.",
                    self.n(*seat),
                    tn(*to, l),
                    tn(*from, l)
                ),
                format!(
                    "{} attaque {} depuis {}.",
                    self.n(*seat),
                    text::le(*to),
                    text::le(*from)
                ),
            ),
            Event::GeneralEngaged { seat } => self.pick(
                format!(
                    "{} engages a General (+1 on the highest die).",
                    self.n(*seat)
                ),
                format!(
                    "{} engage un Général (+1 au dé le plus fort).",
                    self.n(*seat)
                ),
            ),
            Event::MarshalEngaged { seat } => self.pick(
                format!(
                    "{} engages a Marshal (+1 on the highest die).",
                    self.n(*seat)
                ),
                format!(
                    "{} engage un Maréchal (+1 au dé le plus fort).",
                    self.n(*seat)
                ),
            ),
            _ => self.battle_dice(e),
        }
    }

    fn battle_dice(&self, e: &Event) -> String {
        let l = self.lang;
        match e {
            Event::Battle {
                attacker,
                defender,
                general,
                marshal,
                attacker_losses: a,
                defender_losses: d,
                ..
            } => {
                let gen = if *general {
                    l.pick(" (+1 General)", " (+1 Général)")
                } else {
                    ""
                };
                let mar = if *marshal {
                    l.pick(" (+1 Marshal)", " (+1 Maréchal)")
                } else {
                    ""
                };
                let (x, y) = (dice_text(attacker), dice_text(defender));
                self.pick(
                    format!("  dice {x}{gen} against {y}{mar}: attacker loses {a}, defender loses {d}."),
                    format!("  dés {x}{gen} contre {y}{mar} : l'attaquant perd {a}, le défenseur perd {d}."),
                )
            }
            Event::GeneralLost { seat } => self.pick(
                format!("{}'s General is beaten and discarded.", self.n(*seat)),
                format!("Le Général {} est battu et défaussé.", self.de(*seat)),
            ),
            Event::MarshalLost { seat } => self.pick(
                format!("{}'s Marshal is beaten and discarded.", self.n(*seat)),
                format!("Le Maréchal {} est battu et défaussé.", self.de(*seat)),
            ),
            Event::DiceFewer {
                from,
                asked,
                rolled,
                armies,
                ship,
            } => {
                let (why, pourquoi) = if *ship {
                    (
                        format!("{armies} aboard"),
                        format!("{} à bord", armees(*armies)),
                    )
                } else {
                    (
                        format!("{} has {armies}", tn(*from, l)),
                        format!("{} {}", armees(*armies), text::en(*from)),
                    )
                };
                let (die, de) = if *rolled == 1 {
                    ("die", "dé")
                } else {
                    ("dice", "dés")
                };
                self.pick(
                    format!("  {rolled} {die} now, not the {asked} asked: {why}."),
                    format!("  {rolled} {de} désormais, et non les {asked} demandés : {pourquoi}."),
                )
            }
            _ => self.battle_end(e),
        }
    }

    fn battle_end(&self, e: &Event) -> String {
        let l = self.lang;
        match e {
            Event::AttackStopped {
                from,
                to,
                left,
                defenders,
            } => self.pick(
                format!(
                    "The attack stops: {} holds {left}, {} holds {defenders}.",
                    tn(*from, l),
                    tn(*to, l)
                ),
                format!(
                    "L'attaque s'arrête ; il reste {} {} et {} {}.",
                    armees(*left),
                    text::en(*from),
                    armees(*defenders),
                    text::en(*to)
                ),
            ),
            Event::Conquered {
                seat,
                to,
                moved,
                by_sea,
                ..
            } => self.pick(
                format!(
                    "{} conquers {} and moves in {moved} armies{}.",
                    self.n(*seat),
                    tn(*to, l),
                    if *by_sea { " from the ship" } else { "" }
                ),
                format!(
                    "{} conquiert {} et y fait entrer {}{}.",
                    self.n(*seat),
                    text::le(*to),
                    armees(*moved),
                    if *by_sea { " depuis le navire" } else { "" }
                ),
            ),
            Event::AdmiralLost { seat, to } => self.pick(
                format!(
                    "{}'s fleet is destroyed before {}: the Admiral is discarded.",
                    self.n(*seat),
                    tn(*to, l)
                ),
                format!(
                    "La flotte {} est détruite devant {} : l'Amiral est défaussé.",
                    self.de(*seat),
                    text::le(*to)
                ),
            ),
            Event::AdmiralBack { seat } => self.pick(
                format!("{}'s Admiral returns to hand.", self.n(*seat)),
                format!("L'Amiral {} revient dans sa main.", self.de(*seat)),
            ),
            _ => String::new(),
        }
    }

    fn elimination(&self, e: &Event) -> String {
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
                    text::en(*t)
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
                    text::le(*t),
                    text::de(*from)
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
                    text::le(*t),
                    text::de(*f)
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
                    text::le(*t)
                ),
            ),
            _ => self.game_over(e),
        }
    }

    fn game_over(&self, e: &Event) -> String {
        let l = self.lang;
        match e {
            Event::GameOver { winners, reason } => {
                let names: Vec<String> = winners.iter().map(|s| self.n(*s)).collect();
                match l {
                    Lang::En => format!("Game over: {} ({reason}).", names.join(", ")),
                    Lang::Fr => {
                        let why = self
                            .g
                            .outcome
                            .as_ref()
                            .filter(|o| o.reason == *reason)
                            .and_then(|o| o.reason_fr.clone());
                        match why {
                            Some(w) => format!("Partie terminée : {} ({w}).", text::et(&names)),
                            None => format!("Partie terminée : {}.", text::et(&names)),
                        }
                    }
                }
            }
            _ => String::new(),
        }
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
            .map(|t| text::group(*t, l))
            .collect::<Vec<_>>()
            .join(", ");
        let base = match l {
            Lang::En => format!(
                "{} is eliminated: {armies_removed} armies leave the board; {} takes the castle token(s) {tok}, {} card(s){}.",
                self.n(*seat),
                self.n(*by),
                cards.len(),
                if *hidden_taken > 0 { " and the unused hidden armies" } else { "" }
            ),
            Lang::Fr => format!(
                "Élimination {} : {} quittent le plateau ; {} prend {} ({tok}), {}{}.",
                self.de(*seat),
                armees(*armies_removed),
                self.n(*by),
                if tokens.len() == 1 { "le jeton de château" } else { "les jetons de château" },
                fr::count(cards.len() as i64, "carte", "cartes"),
                if *hidden_taken > 0 { " et les armées cachées inutilisées" } else { "" }
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

/// "Waiting for Bob to defend Poland (...)" in French, read from the stored English.
fn waiting_fr(who: &str, what: &str) -> String {
    if what.starts_with("to counter the Spy") {
        return format!(
            "On attend {} réponde à l'Espion (CONTRE-ESPION ou PAS DE CONTRE-ESPION).",
            fr::que(who)
        );
    }
    let t = what
        .strip_prefix("to defend ")
        .and_then(|r| r.split(" (").next())
        .and_then(|name| map().board.resolve(name).ok());
    match t {
        Some(t) => format!(
            "On attend {} défende {} (DÉFENDRE 2, DÉFENDRE 1 MARÉCHAL ...).",
            fr::que(who),
            text::le(t)
        ),
        None => format!("On attend {who}."),
    }
}

/// A stored standing order (English) as a French reader writes it.
fn standing_fr(g: &CastleRisk, s: &str) -> String {
    match crate::orders::parse(g, 0, s) {
        Ok(crate::orders::Order::Set(o)) => o.text_in(Lang::Fr),
        _ => s.to_string(),
    }
}

/// The earnings detail (stored in English: "French Empire 4, all independents 6, 1
/// captured castle token(s) 8") in French.
fn earnings_detail_fr(detail: &str) -> String {
    detail
        .split(", ")
        .map(|part| {
            let (what, n) = part.rsplit_once(' ').unwrap_or((part, ""));
            if what == "all independents" {
                return format!("tous les territoires indépendants {n}");
            }
            if let Some(k) = what.strip_suffix(" captured castle token(s)") {
                let k: i64 = k.parse().unwrap_or(0);
                return format!(
                    "{} {n}",
                    fr::count(k, "jeton de château pris", "jetons de château pris")
                );
            }
            match (0..map().board.groups.len()).find(|g| map().empire_name(*g) == what) {
                Some(g) => format!("{} {n}", cap(&text::group(g, Lang::Fr))),
                None => part.to_string(),
            }
        })
        .collect::<Vec<_>>()
        .join(", ")
}

/// Whether `next` continues the run `run` holds: another battle on the same territories
/// with the same General and Marshal bonuses (a bonus that comes or goes has its own
/// line), or another re-occupation by the same player.
pub(crate) fn same_battle_run(run: &[&Event], next: &Event) -> bool {
    if let (Some(Event::Reoccupied { seat: a, .. }), Event::Reoccupied { seat: b, .. }) =
        (run.first().copied(), next)
    {
        return a == b;
    }
    // A plain attack by land (no General, no Marshal): its declaration, its rolls and its
    // conquest in one line.
    if let Some(Event::AttackDeclared {
        from,
        to,
        ship: None,
        ..
    }) = run.first().copied()
    {
        if matches!(run.last(), Some(Event::Conquered { .. })) {
            return false;
        }
        return match next {
            Event::Battle {
                from: f,
                to: t,
                general: false,
                marshal: false,
                ..
            } => (f, t) == (from, to),
            Event::Conquered {
                to: t,
                by_sea: false,
                ..
            } => t == to && run.len() > 1,
            _ => false,
        };
    }
    let key = |e: &Event| match e {
        Event::Battle {
            from,
            to,
            general,
            marshal,
            ..
        } => Some((*from, *to, *general, *marshal)),
        _ => None,
    };
    match (run.first().and_then(|e| key(e)), key(next)) {
        (Some(a), Some(b)) => a == b,
        _ => false,
    }
}

/// What the attacker and the defender lost in the battles among `events`.
fn losses(events: &[&Event]) -> (u32, u32) {
    events.iter().fold((0, 0), |(a, d), e| match e {
        Event::Battle {
            attacker_losses,
            defender_losses,
            ..
        } => (a + attacker_losses, d + defender_losses),
        _ => (a, d),
    })
}

/// One line for a run (issue 12, "one line per battle" rather than one a roll): how many
/// rolls, the bonuses, what each side lost (each die is in the report's dice lines); or
/// every territory a player re-occupied, by where the armies came from.
pub(crate) fn battle_run(g: &CastleRisk, run: &[&Event], lang: Lang) -> Option<String> {
    if let Some(Event::AttackDeclared { seat, from, to, .. }) = run.first().copied() {
        let battles: Vec<&Event> = run
            .iter()
            .copied()
            .filter(|e| matches!(e, Event::Battle { .. }))
            .collect();
        let (a, d) = losses(&battles);
        let rolls = match battles.as_slice() {
            [Event::Battle {
                attacker, defender, ..
            }] => lang.pick(
                format!(
                    "dice {} against {}",
                    dice_text(attacker),
                    dice_text(defender)
                ),
                format!("dés {} contre {}", dice_text(attacker), dice_text(defender)),
            ),
            _ => lang.pick(
                format!("{} rolls", battles.len()),
                format!("{} lancers", battles.len()),
            ),
        };
        let (who, t, f) = (g.name(*seat), tn(*to, lang), tn(*from, lang));
        let mut line = lang.pick(
            format!("{who} attacks {t} from {f}: {rolls}, attacker loses {a}, defender loses {d}"),
            format!(
                "{who} attaque {} depuis {f} : {rolls}, l'attaquant perd {a}, le défenseur perd {d}",
                text::le(*to)
            ),
        );
        if let Some(Event::Conquered { moved, .. }) = run.last().copied() {
            line += &lang.pick(
                format!("; conquers it and moves in {moved} armies."),
                format!(" ; le conquiert et y fait entrer {}.", armees(*moved)),
            );
        } else {
            line.push('.');
        }
        return Some(line);
    }
    if let Some(Event::Reoccupied { seat, .. }) = run.first().copied() {
        // "Bot4 re-occupies Netherlands, Ireland (from Greece) and Serbia (from Burgundy)."
        let mut groups: Vec<(T, Vec<T>)> = Vec::new();
        for e in run {
            if let Event::Reoccupied { t, from, .. } = e {
                match groups.iter_mut().find(|(f, _)| f == from) {
                    Some((_, ts)) => ts.push(*t),
                    None => groups.push((*from, vec![*t])),
                }
            }
        }
        let parts: Vec<String> = groups
            .iter()
            .map(|(from, ts)| {
                let names: Vec<&str> = ts.iter().map(|t| tn(*t, lang)).collect();
                lang.pick(
                    format!(
                        "{} (an army each from {})",
                        names.join(", "),
                        tn(*from, lang)
                    ),
                    format!(
                        "{} (une armée chacun venue {})",
                        names.join(", "),
                        text::de(*from)
                    ),
                )
            })
            .collect();
        return Some(lang.pick(
            format!("{} re-occupies {}.", g.name(*seat), parts.join("; ")),
            format!("{} réoccupe {}.", g.name(*seat), parts.join(" ; ")),
        ));
    }
    let Some(Event::Battle {
        general, marshal, ..
    }) = run.first().copied()
    else {
        return None;
    };
    let (a, d) = losses(run);
    let n = run.len();
    let bonus = match (general, marshal) {
        (false, false) => String::new(),
        (true, false) => lang.pick(" (+1 General)", " (+1 Général)").to_string(),
        (false, true) => lang
            .pick(" (defender +1 Marshal)", " (défenseur +1 Maréchal)")
            .to_string(),
        (true, true) => lang
            .pick(
                " (+1 General against +1 Marshal)",
                " (+1 Général contre +1 Maréchal)",
            )
            .to_string(),
    };
    Some(lang.pick(
        format!("  {n} rolls{bonus}: attacker loses {a}, defender loses {d}."),
        format!("  {n} lancers{bonus} : l'attaquant perd {a}, le défenseur perd {d}."),
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The strings stored in English in events read in French.
    #[test]
    fn stored_english_details_read_in_french() {
        assert_eq!(
            waiting_fr("Alice", "to defend Poland (DEFEND 2, DEFEND 1 MARSHAL ...)"),
            "On attend qu'Alice défende la Pologne (DÉFENDRE 2, DÉFENDRE 1 MARÉCHAL ...)."
        );
        assert_eq!(
            waiting_fr("Bruno", "to counter the Spy (COUNTERSPY or NO COUNTERSPY)"),
            "On attend que Bruno réponde à l'Espion (CONTRE-ESPION ou PAS DE CONTRE-ESPION)."
        );
        assert_eq!(
            earnings_detail_fr(
                "British Empire 4, all independents 6, 2 captured castle token(s) 16"
            ),
            "Empire Britannique 4, tous les territoires indépendants 6, 2 jetons de château pris 16"
        );
    }
}
