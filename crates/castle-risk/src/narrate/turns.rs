//! Cards and turns: dealing, drawing, the cards played in turn, what the game waits for,
//! standing orders and the end of a turn.

use super::*;

impl Teller<'_> {
    pub(super) fn cards_and_turns(&self, e: &Event) -> Option<String> {
        let l = self.lang;
        let cards = |k: usize| fr::count(k as i64, "carte", "cartes");
        Some(match e {
            Event::CardsDealt { seat, cards: c } => match (self.me(*seat), l) {
                (true, Lang::En) => format!("You are dealt: {}.", self.hand(c)),
                (true, Lang::Fr) => format!("Vous recevez : {}.", self.hand(c)),
                (false, Lang::En) => format!(
                    "{} is dealt {}.",
                    self.n(*seat),
                    castellan_engine::lang::en::count(c.len() as i64, "card", "cards")
                ),
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
                (false, Lang::En) => format!(
                    "{} draws {}.",
                    self.n(*seat),
                    castellan_engine::lang::en::count(c.len() as i64, "card", "cards")
                ),
                (false, Lang::Fr) => format!("{} tire {}.", self.n(*seat), cards(c.len())),
            },
            Event::DiplomatReplaced { seat } => self.pick(
                format!("{} drew a Diplomat, which is not used with two players: it is discarded and replaced.", self.n(*seat)),
                format!("{} a tiré un Diplomate, qui ne sert pas à deux joueurs : il est défaussé et remplacé.", self.n(*seat)),
            ),
            Event::DiplomatsPurged { seat, count } => self.pick(
                format!(
                    "{} discards {} and draws as many cards.",
                    self.n(*seat),
                    castellan_engine::lang::en::count(*count as i64, "Diplomat", "Diplomats")
                ),
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
                    "{} plays {} for {} (track now at {track}; hidden armies now worth {}).",
                    self.n(*seat),
                    castellan_engine::lang::en::count(*k, "Reinforcements card", "Reinforcements cards"),
                    castellan_engine::lang::en::count(*armies, "army", "armies"),
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
                    "{}'s Spy makes {} discard {} (shown to all).",
                    self.n(*seat),
                    self.n(*target),
                    words::a_card(*c, l)
                ),
                (Some(c), Lang::Fr) => format!(
                    "L'Espion {} oblige {} à défausser {} (montré à tous).",
                    self.de(*seat),
                    self.n(*target),
                    words::a_card(*c, l)
                ),
                (None, Lang::En) => format!("{}'s Spy finds {}'s hand empty.", self.n(*seat), self.n(*target)),
                (None, Lang::Fr) => format!("L'Espion {} trouve la main {} vide.", self.de(*seat), self.de(*target)),
            },
            Event::HiddenRevealed { seat, t, armies, salt, commitment } => self.pick(
                format!(
                    "{} reveals hidden armies in {}: {} (salt {salt}, commitment {commitment}).",
                    self.n(*seat),
                    tn(*t, l),
                    castellan_engine::lang::en::count(*armies, "army", "armies")
                ),
                format!(
                    "{} dévoile ses armées cachées {} : {} (sel {salt}, engagement {commitment}).",
                    self.n(*seat),
                    words::en(*t),
                    armees(*armies)
                ),
            ),
            _ => return self.turn_notes(e),
        })
    }

    fn turn_notes(&self, e: &Event) -> Option<String> {
        let l = self.lang;
        Some(match e {
            Event::Waiting { seat, what } => self.waiting(*seat, *what),
            Event::StandingSet { order, .. } => self.pick(
                format!("Standing order noted: {}.", order.text_in(Lang::En)),
                format!("Consigne notée : {}.", order.text_in(Lang::Fr)),
            ),
            Event::TurnEnds {
                seat,
                earnings,
                detail,
            } => match (*earnings > 0, l) {
                (true, Lang::En) => format!(
                    "{} ends the turn and earns {} ({}).",
                    self.n(*seat),
                    castellan_engine::lang::en::count(*earnings, "army", "armies"),
                    earnings_detail(detail, l)
                ),
                (true, Lang::Fr) => format!(
                    "{} termine son tour et reçoit {} ({}).",
                    self.n(*seat),
                    armees(*earnings),
                    earnings_detail(detail, l)
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

    pub(super) fn spy_saw(&self, e: &Event) -> Option<String> {
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

    /// "Waiting for Bob to defend Poland (DEFEND 2, DEFEND 1 MARSHAL ...)."
    fn waiting(&self, seat: Seat, what: Awaited) -> String {
        let who = self.n(seat);
        match (what, self.lang) {
            (Awaited::Defence(t), Lang::En) => format!(
                "Waiting for {who} to defend {} (DEFEND 2, DEFEND 1 MARSHAL ...).",
                tn(t, Lang::En)
            ),
            (Awaited::Defence(t), Lang::Fr) => format!(
                "On attend {} défende {} (DÉFENDRE 2, DÉFENDRE 1 MARÉCHAL ...).",
                fr::que(&who),
                words::le(t)
            ),
            (Awaited::CounterSpy, Lang::En) => {
                format!("Waiting for {who} to counter the Spy (COUNTERSPY or NO COUNTERSPY).")
            }
            (Awaited::CounterSpy, Lang::Fr) => format!(
                "On attend {} réponde à l'Espion (CONTRE-ESPION ou PAS DE CONTRE-ESPION).",
                fr::que(&who)
            ),
        }
    }
}

/// "French Empire 4, all independents 6, 1 captured castle token(s) 8".
fn earnings_detail(parts: &[Earning], lang: Lang) -> String {
    parts
        .iter()
        .map(|p| {
            let n = p.armies();
            match (p, lang) {
                (Earning::Empire(g), Lang::En) => format!("{} {n}", map().empire_name(*g)),
                (Earning::Empire(g), Lang::Fr) => format!("{} {n}", cap(&words::group(*g, lang))),
                (Earning::Independents, Lang::En) => format!("all independents {n}"),
                (Earning::Independents, Lang::Fr) => {
                    format!("tous les territoires indépendants {n}")
                }
                (Earning::Tokens(k), Lang::En) => format!(
                    "{} {n}",
                    castellan_engine::lang::en::count(
                        i64::from(*k),
                        "captured castle token",
                        "captured castle tokens"
                    )
                ),
                (Earning::Tokens(k), Lang::Fr) => format!(
                    "{} {n}",
                    fr::count(
                        i64::from(*k),
                        "jeton de château pris",
                        "jetons de château pris"
                    )
                ),
            }
        })
        .collect::<Vec<_>>()
        .join(", ")
}
