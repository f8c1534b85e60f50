//! Checking an order: is it legal for this seat now? Nothing changes (`Castrum::check`);
//! each refusal says what is wrong, with a hint of what would do.

use super::*;
use crate::orders::order_text_in;
use castellan_engine::lang::fr;

impl Castrum {
    /// Is this order legal for `seat` now? Changes nothing.
    pub fn check(&self, seat: Seat, order: &Order) -> Result<(), OrderError> {
        if seat >= self.seats() {
            return Err(refusal(
                format!("there is no seat {seat}"),
                format!("il n'y a pas de place {seat}"),
            ));
        }
        match order {
            Order::SetDefend(_) => return Ok(()),
            Order::SetWorks(cards) => {
                if cards.len() > 16 {
                    return Err(refusal("name at most 16 cards", "nommez au plus 16 cartes"));
                }
                return Ok(());
            }
            _ => {}
        }
        let over = || refusal("the game is over", "la partie est terminée");
        if self.outcome.is_some() {
            return Err(over());
        }
        match &self.phase {
            Phase::Over => Err(over()),
            Phase::Defence(att) => self.check_defence(seat, order, att),
            Phase::Works(owed) => self.check_works(seat, order, owed),
            Phase::Turn => self.check_turn(seat, order),
        }
    }

    fn check_defence(&self, seat: Seat, order: &Order, att: &Attack) -> Result<(), OrderError> {
        if seat != att.victim {
            return Err(refusal(
                format!(
                    "the game waits for {} to answer the {} played on their site",
                    self.name(att.victim),
                    att.card.name()
                ),
                format!(
                    "la partie attend la réponse {} à la carte {} posée sur son chantier",
                    fr::de(self.name(att.victim)),
                    att.card.name()
                ),
            ));
        }
        let def = att.defence_card();
        match order {
            Order::Accept => Ok(()),
            Order::Defend => {
                if self.hands[seat].contains(&def) {
                    Ok(())
                } else {
                    Err(refusal(
                        format!(
                            "you hold no {}: only {} stop a {}",
                            def.name(),
                            def.name(),
                            att.card.name()
                        ),
                        format!(
                            "vous n'avez pas de carte {} : seule une carte {} arrête une carte {}",
                            def.name(),
                            def.name(),
                            att.card.name()
                        ),
                    )
                    .write("ACCEPT", "ACCEPTER"))
                }
            }
            _ => Err(refusal(
                format!(
                    "{} played {} on your site: answer it first",
                    self.name(att.attacker),
                    att.card.name()
                ),
                format!(
                    "{} a joué une carte {} sur votre chantier : répondez-y d'abord",
                    self.name(att.attacker),
                    att.card.name()
                ),
            )
            .write(
                format!("DEFEND (with {}) or ACCEPT", def.name()),
                format!("DÉFENDRE (avec {}) ou ACCEPTER", def.name()),
            )),
        }
    }

    fn check_works(&self, seat: Seat, order: &Order, owed: &[Seat]) -> Result<(), OrderError> {
        if !owed.contains(&seat) {
            let names = owed
                .iter()
                .map(|s| self.name(*s).to_string())
                .collect::<Vec<_>>()
                .join(", ");
            return Err(refusal(
                format!("the game waits for {names} to give a card for the works"),
                format!("la partie attend que {names} cède une carte pour les œuvres"),
            ));
        }
        match order {
            Order::Give(c) if self.sites[seat].cards.contains(c) => Ok(()),
            Order::Give(c) => Err(self.give_hint(
                seat,
                refusal(
                    format!("there is no {} on your site", c.name()),
                    format!("il n'y a pas de carte {} sur votre chantier", c.name()),
                ),
            )),
            _ => Err(self.give_hint(
                seat,
                refusal(
                    "for the works, give up one card of your site",
                    "pour les œuvres, cédez une carte de votre chantier",
                ),
            )),
        }
    }

    fn give_hint(&self, seat: Seat, e: OrderError) -> OrderError {
        let c = self.sites[seat]
            .cards
            .first()
            .copied()
            .unwrap_or(Card::Rustici);
        e.write(format!("GIVE {}", c.name()), format!("DONNER {}", c.name()))
    }

    fn check_turn(&self, seat: Seat, order: &Order) -> Result<(), OrderError> {
        match order {
            Order::Defend | Order::Accept => {
                return Err(refusal(
                    "nobody is attacking your site now",
                    "personne n'attaque votre chantier en ce moment",
                ));
            }
            Order::Give(_) => {
                return Err(refusal(
                    "nobody asks for a card for the works now",
                    "personne ne demande de carte pour les œuvres en ce moment",
                ))
            }
            _ => {}
        }
        if seat != self.current {
            return Err(refusal(
                format!("it is {}'s turn, not yours", self.name(self.current)),
                format!(
                    "c'est au tour {}, pas au vôtre",
                    fr::de(self.name(self.current))
                ),
            )
            .hints("you may send SET DEFEND ALWAYS|NEVER|ASK or SET WORKS at any time", "vous pouvez envoyer CONSIGNE DÉFENSE TOUJOURS|JAMAIS|DEMANDER ou CONSIGNE ŒUVRES à tout moment"));
        }
        let ts = &self.turn_state;
        match order {
            Order::Play { card, target, aim } => self.check_play(seat, *card, *target, *aim),
            Order::Discard(cards) => self.check_discard(seat, cards),
            Order::Build(piece) => self.check_build(seat, *piece),
            Order::Exchange(card) => self.check_exchange(seat, *card),
            Order::End => {
                if ts.played == 0 && !self.blocked(seat) && !self.hands[seat].is_empty() {
                    return Err(refusal(
                        "play 1 or 2 cards or discard 1 to 3 before ending your turn",
                        "jouez 1 ou 2 cartes ou défaussez-en 1 à 3 avant de finir votre tour",
                    )
                    .write(
                        "PLAY Lapides, or DISCARD Mage",
                        "JOUER Lapides, ou DÉFAUSSER Mage",
                    ));
                }
                Ok(())
            }
            _ => Err(refusal(
                "that order is not for your turn",
                "cet ordre ne se donne pas pendant votre tour",
            )),
        }
    }

    fn blocked_err(&self, seat: Seat) -> OrderError {
        let caster = self.sites[seat].mage.unwrap_or(0);
        refusal(
            format!(
                "your site is blocked by the Mage of {} until their next turn",
                self.name(caster)
            ),
            format!(
                "votre chantier est bloqué par le Mage {} jusqu'à son prochain tour",
                fr::de(self.name(caster))
            ),
        )
        .hints(
            "you may only DISCARD 1 to 3 cards or END",
            "vous pouvez seulement DÉFAUSSER 1 à 3 cartes ou FIN",
        )
    }

    fn check_discard(&self, seat: Seat, cards: &[Card]) -> Result<(), OrderError> {
        if self.turn_state.played > 0 {
            return Err(refusal(
                "you have played cards this turn: a turn is either playing or discarding",
                "vous avez joué des cartes ce tour-ci : on ne peut pas jouer et se défausser dans un même tour",
            )
            .write("END", "FIN"));
        }
        if cards.is_empty() || cards.len() > 3 {
            return Err(
                refusal("discard 1, 2 or 3 cards", "défaussez 1, 2 ou 3 cartes")
                    .write("DISCARD Mage, Lapides", "DÉFAUSSER Mage, Lapides"),
            );
        }
        if !holds_all(&self.hands[seat], cards) {
            return Err(self.hand_hint(
                seat,
                refusal(
                    "you do not hold all these cards",
                    "vous n'avez pas toutes ces cartes en main",
                ),
            ));
        }
        Ok(())
    }

    fn check_build(&self, seat: Seat, piece: Piece) -> Result<(), OrderError> {
        if self.blocked(seat) {
            return Err(self.blocked_err(seat));
        }
        if self.in_force == Some(Happening::BadWeather) {
            return Err(refusal(
                "bad weather: nobody may build this round (event die 2)",
                "mauvaises conditions climatiques : personne ne peut construire pendant ce tour de table (dé des événements : 2)",
            ));
        }
        let site = &self.sites[seat];
        match piece {
            Piece::Wall if site.walls >= CASTLE_WALLS => {
                return Err(refusal(
                    "your castle has its 4 walls already",
                    "votre château a déjà ses 4 murailles",
                )
                .write("BUILD TOWER", "CONSTRUIRE TOUR"))
            }
            Piece::Tower if site.towers >= CASTLE_TOWERS => {
                return Err(refusal(
                    "your castle has its tower already",
                    "votre château a déjà sa tour",
                )
                .write("BUILD WALL", "CONSTRUIRE MURAILLE"))
            }
            _ => {}
        }
        let (s, l, r) = piece.cost();
        let (hs, hl, hr) = (
            site.units(Material::Structores),
            site.units(Material::Lapides),
            site.units(Material::Rustici),
        );
        if hs < s || hl < l || hr < r {
            return Err(refusal(
                format!(
                    "a {} needs {s} Structores, {l} Lapides and {r} Rustici; your site has {hs}, {hl} and {hr}",
                    piece.name()
                ),
                format!(
                    "une {} demande {s} Structores, {l} Lapides et {r} Rustici ; votre chantier en a {hs}, {hl} et {hr}",
                    piece.name_in(Lang::Fr)
                ),
            ));
        }
        Ok(())
    }

    fn check_exchange(&self, seat: Seat, card: Card) -> Result<(), OrderError> {
        if !card.is_double() {
            return Err(refusal(
                format!("{} is not an x2 card", card.name()),
                format!("{} n'est pas une carte x2", card.name()),
            )
            .write("EXCHANGE Lapides x2", "ÉCHANGER Lapides x2"));
        }
        if self.blocked(seat) {
            return Err(self.blocked_err(seat));
        }
        if !self.sites[seat].cards.contains(&card) {
            return Err(refusal(
                format!("there is no {} on your site", card.name()),
                format!("il n'y a pas de carte {} sur votre chantier", card.name()),
            ));
        }
        // Rules revision 2: what the pile holds is not checked here (it would tell the
        // hands); the exchange itself looks (`exec`).
        if self.options.revision < 2 && self.simple_in_pile(card) < 2 {
            let simple = card.simple();
            return Err(refusal(
                format!("the pile holds fewer than two {} cards", simple.name()),
                format!("la pioche contient moins de deux cartes {}", simple.name()),
            ));
        }
        Ok(())
    }

    fn check_play(
        &self,
        seat: Seat,
        card: Card,
        target: Option<Seat>,
        aim: Option<Card>,
    ) -> Result<(), OrderError> {
        if !self.hands[seat].contains(&card) {
            return Err(self.hand_hint(
                seat,
                refusal(
                    format!("you hold no {}", card.name()),
                    format!("vous n'avez pas de carte {} en main", card.name()),
                ),
            ));
        }
        if self.blocked(seat) {
            return Err(self.blocked_err(seat));
        }
        self.check_play_limits(card)?;
        let own = target.is_none() || target == Some(seat);
        if card.is_defence() {
            return Err(refusal(
                format!(
                    "{} are played out of your turn, when your site is attacked",
                    card.name()
                ),
                format!(
                    "les cartes {} se jouent hors de votre tour, quand votre chantier est attaqué",
                    card.name()
                ),
            )
            .hints(
                format!("keep it, or write: DISCARD {}", card.name()),
                format!("gardez-la, ou écrivez : DÉFAUSSER {}", card.name()),
            ));
        }
        if aim.is_some()
            && card != Card::Sorciere
            && !(card == Card::PiecesOr && aim == Some(Card::Structores))
        {
            return Err(refusal(
                format!("{} takes no TARGET", card.name()),
                format!("{} ne prend pas de CIBLE", card.name()),
            ));
        }
        if card == Card::Roue || card.is_material() {
            return self.check_own_card(card, own);
        }
        self.check_attack(seat, card, target, aim)
    }

    /// How many cards this turn may still play (Roue de Carrier: 3 building cards).
    fn check_play_limits(&self, card: Card) -> Result<(), OrderError> {
        let ts = &self.turn_state;
        if ts.wheel {
            if ts.played >= 4 {
                return Err(refusal(
                    "you have put your 3 cards after the Roue de Carrier",
                    "vous avez posé vos 3 cartes après la Roue de Carrier",
                )
                .write("END", "FIN"));
            }
            if !card.is_material() {
                return Err(refusal(
                    "after the Roue de Carrier you may only put building cards on your site (no attack card with it)",
                    "après la Roue de Carrier, vous ne pouvez poser que des cartes de construction sur votre chantier (aucune carte attaque avec elle)",
                )
                .write("PLAY Lapides, or END", "JOUER Lapides, ou FIN"));
            }
        } else if ts.played >= 2 {
            return Err(refusal(
                "you have played 2 cards this turn",
                "vous avez joué 2 cartes ce tour-ci",
            )
            .write("END", "FIN"));
        }
        Ok(())
    }

    /// The Roue de Carrier and building cards, on one's own site.
    fn check_own_card(&self, card: Card, own: bool) -> Result<(), OrderError> {
        let ts = &self.turn_state;
        if card == Card::Roue {
            if !own {
                return Err(refusal(
                    "the Roue de Carrier goes on your own site",
                    "la Roue de Carrier se pose sur votre propre chantier",
                )
                .write("PLAY Roue de Carrier", "JOUER Roue de Carrier"));
            }
            if ts.played > 0 {
                return Err(refusal(
                    "the Roue de Carrier is played at the start of your turn, as your first card",
                    "la Roue de Carrier se joue au début de votre tour, comme première carte",
                ));
            }
            return Ok(());
        }
        if let Some((m, _)) = card.material() {
            if !own {
                return Err(refusal(
                    format!(
                        "{} goes on your own site, not on another player's",
                        card.name()
                    ),
                    format!(
                        "une carte {} se pose sur votre propre chantier, pas sur celui d'un autre joueur",
                        card.name()
                    ),
                )
                .write(format!("PLAY {}", card.name()), format!("JOUER {}", card.name())));
            }
            if self.in_force == Some(Happening::Famine) && m != Material::Lapides {
                return Err(refusal(
                    "famine: no Structores or Rustici may be put on a site this round (event die 1)",
                    "famine : aucune carte Structores ni Rustici ne peut être posée sur les chantiers pendant ce tour de table (dé des événements : 1)",
                ));
            }
            return Ok(());
        }
        Ok(())
    }

    /// The simple cards of `x2`'s kind in the pile and under it.
    pub(crate) fn simple_in_pile(&self, x2: Card) -> usize {
        let simple = x2.simple();
        self.pile
            .iter()
            .chain(self.under.iter())
            .filter(|c| **c == simple)
            .count()
    }

    /// An attack card on another player's site.
    fn check_attack(
        &self,
        seat: Seat,
        card: Card,
        target: Option<Seat>,
        aim: Option<Card>,
    ) -> Result<(), OrderError> {
        // An attack card.
        let Some(t) = target.filter(|t| *t != seat && *t < self.seats()) else {
            return Err(self.attack_hint(
                seat,
                card,
                refusal(
                    format!("{} is played on another player's site", card.name()),
                    format!(
                        "une carte {} se joue sur le chantier d'un autre joueur",
                        card.name()
                    ),
                ),
            ));
        };
        if self.in_force == Some(Happening::MonasticReform)
            && matches!(card, Card::Mage | Card::Sorciere)
        {
            return Err(refusal(
                "monastic reform: no Mage or Sorcière may be played this round (event die 5)",
                "réforme monastique : aucune carte Mage ni Sorcière ne peut être jouée pendant ce tour de table (dé des événements : 5)",
            ));
        }
        let site = &self.sites[t];
        match card {
            Card::Incendie if site.cards.is_empty() => Err(refusal(
                format!("{}'s site has no card to burn", self.name(t)),
                format!("le chantier {} n'a aucune carte à brûler", fr::de(self.name(t))),
            )),
            Card::Sorciere => match aim {
                None => Err(self.attack_hint(
                    seat,
                    card,
                    refusal(
                        "name the site card the Sorcière aims at",
                        "nommez la carte du chantier que vise la Sorcière",
                    ),
                )),
                Some(a) if !site.cards.contains(&a) => Err(self.attack_hint(
                    seat,
                    card,
                    refusal(
                        format!("there is no {} on {}'s site", a.name(), self.name(t)),
                        format!(
                            "il n'y a pas de carte {} sur le chantier {}",
                            a.name(),
                            fr::de(self.name(t))
                        ),
                    ),
                )),
                Some(_) => Ok(()),
            },
            Card::PiecesOr if !site.cards.contains(&Card::Structores) => Err(refusal(
                format!(
                    "there is no Structores on {}'s site to hire away",
                    self.name(t)
                ),
                format!(
                    "il n'y a pas de carte Structores à débaucher sur le chantier {}",
                    fr::de(self.name(t))
                ),
            )),
            Card::PiecesOr if self.in_force == Some(Happening::Famine) => Err(refusal(
                "famine: no Structores may be put on a site this round, not even a hired one (event die 1)",
                "famine : aucune carte Structores ne peut être posée sur un chantier pendant ce tour de table, même débauchée (dé des événements : 1)",
            )),
            Card::Mage if site.mage.is_some() => Err(refusal(
                format!("{}'s site is blocked by a Mage already", self.name(t)),
                format!(
                    "le chantier {} est déjà bloqué par un Mage",
                    fr::de(self.name(t))
                ),
            )),
            _ => Ok(()),
        }
    }

    /// `e` with an example of this attack on the next player's site, in both languages.
    fn attack_hint(&self, seat: Seat, card: Card, e: OrderError) -> OrderError {
        let other = (seat + 1) % self.seats();
        let aim = match card {
            Card::Sorciere => Some(
                self.sites[other]
                    .cards
                    .first()
                    .copied()
                    .unwrap_or(Card::Structores),
            ),
            _ => None,
        };
        let o = Order::Play {
            card,
            target: Some(other),
            aim,
        };
        e.write(
            order_text_in(self, &o, Lang::En),
            order_text_in(self, &o, Lang::Fr),
        )
    }

    /// `e` with the hand as its hint, in both languages.
    fn hand_hint(&self, seat: Seat, e: OrderError) -> OrderError {
        let hand = &self.hands[seat];
        e.hints(
            format!("your hand: {}", list(hand)),
            format!("votre main : {}", list_in(hand, Lang::Fr)),
        )
    }
}
