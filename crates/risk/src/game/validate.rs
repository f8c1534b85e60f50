//! Every order checked completely before anything changes (`Risk::validate`): whose turn
//! and phase it is, setup claims and placements, trades, reinforcements, attacks, fortify
//! paths; each refusal says what is wrong and how to write it right.

use super::*;

impl Risk {
    /// Check an order completely; nothing changes.
    pub fn validate(&self, seat: Seat, order: &Order) -> Result<(), OrderError> {
        if self.outcome.is_some() || self.phase == Phase::Over {
            return Err(game_over());
        }
        if seat >= self.n() {
            return Err(refuse_bare(|l| match l {
                Lang::En => format!("there is no seat {seat}"),
                Lang::Fr => format!("il n'y a pas de place {seat}"),
            }));
        }
        if !ids_in_range(order) {
            return Err(refuse2(
                (
                    "that order names a territory that does not exist",
                    "cet ordre nomme un territoire qui n'existe pas",
                ),
                (
                    "name territories as on the map",
                    "nommez les territoires comme sur la carte",
                ),
            ));
        }
        match order {
            Order::SetDefend(p) | Order::SetNeutral(p) => {
                return self.validate_standing(order, *p);
            }
            Order::Defend(d) => return self.validate_defend(seat, *d),
            _ => {}
        }
        match self.phase {
            Phase::Claim => self.validate_claim(seat, order),
            Phase::Draft => {
                let Order::Rank(list) = order else {
                    return Err(refuse2(
                        (
                            "territories are being drafted from ranked lists",
                            "les territoires sont répartis d'après les listes de préférence",
                        ),
                        (
                            "write: RANK Eastern Australia, Indonesia, New Guinea, ...",
                            "écrivez : CLASSE Australie orientale, Indonésie, Nouvelle-Guinée, ...",
                        ),
                    ));
                };
                if self.ranks[seat].is_some() {
                    return Err(refuse_bare(|l| {
                        l.pick(
                            "you have already sent your ranking",
                            "vous avez déjà envoyé votre liste",
                        )
                        .into()
                    }));
                }
                if list.is_empty() {
                    return Err(refuse2(
                        ("the ranking is empty", "la liste est vide"),
                        (
                            "write: RANK Peru, Brazil, ...",
                            "écrivez : CLASSE Pérou, Brésil, ...",
                        ),
                    ));
                }
                Ok(())
            }
            Phase::Place | Phase::BlindPlace => self.validate_setup_place(seat, order),
            Phase::Headquarters => self.validate_hq(seat, order),
            Phase::Over => Err(game_over()),
            Phase::Play => self.validate_play(seat, order),
        }
    }

    fn validate_standing(&self, order: &Order, p: Policy) -> Result<(), OrderError> {
        if let Policy::Dice(d) = p {
            if !(1..=2).contains(&d) {
                return Err(refuse2(
                    (
                        "a defender rolls 1 or 2 dice",
                        "le défenseur lance 1 ou 2 dés",
                    ),
                    (
                        "write: SET DEFEND 2 (or 1, or ASK)",
                        "écrivez : RÈGLE DÉFENSE 2 (ou 1, ou DEMANDE)",
                    ),
                ));
            }
        }
        if matches!(order, Order::SetNeutral(_)) && !self.two_player() {
            return Err(refuse2(
                (
                    "neutral armies are only in the 2-player game",
                    "il n'y a d'armées neutres que dans la partie à 2 joueurs",
                ),
                ("write: SET DEFEND 2", "écrivez : RÈGLE DÉFENSE 2"),
            ));
        }
        Ok(())
    }

    fn validate_defend(&self, seat: Seat, d: u32) -> Result<(), OrderError> {
        let ahead = (
            "set your answer in advance: SET DEFEND 2",
            "réglez votre réponse à l'avance : RÈGLE DÉFENSE 2",
        );
        let Some(b) = &self.battle else {
            return Err(refuse2(
                (
                    "no attack is waiting for your dice",
                    "aucune attaque n'attend vos dés",
                ),
                ahead,
            ));
        };
        if b.responder != seat {
            return Err(refuse2(
                (
                    "this attack is not waiting for your dice",
                    "cette attaque n'attend pas vos dés",
                ),
                ahead,
            ));
        }
        let max = max_defence_dice(self.armies[b.to], 2);
        if d == 0 || d > max {
            let held = self.armies[b.to];
            return Err(refuse(
                |l| match l {
                    Lang::En => format!(
                        "{} holds {held} armies: defend with 1 to {max} dice",
                        map::name(b.to)
                    ),
                    Lang::Fr => format!(
                        "{} a {} : défendez avec 1 à {max} dés",
                        say::cap(&say::le(b.to, l)),
                        say::armies(held, l)
                    ),
                },
                |l| say::write(l, &crate::orders::text_in(&Order::Defend(max), l)),
            ));
        }
        Ok(())
    }

    fn validate_claim(&self, seat: Seat, order: &Order) -> Result<(), OrderError> {
        let Order::Claim(t) = order else {
            return Err(refuse2(
                (
                    "territories are being claimed",
                    "les territoires sont en train d'être réclamés",
                ),
                (
                    "write: CLAIM <a free territory>",
                    "écrivez : RÉCLAME <un territoire libre>",
                ),
            ));
        };
        if seat != self.to_move {
            return Err(not_your_turn(
                &self.players[self.to_move],
                " to claim",
                "de réclamer",
            ));
        }
        if self.owner[*t] != Owner::Nobody {
            let free = (0..self.owner.len()).find(|&x| self.owner[x] == Owner::Nobody);
            return Err(refuse(
                |l| match l {
                    Lang::En => format!("{} is already claimed", map::name(*t)),
                    Lang::Fr => format!("{} est déjà pris", say::cap(&say::le(*t, l))),
                },
                |l| match free {
                    Some(f) => say::write(l, &crate::orders::text_in(&Order::Claim(f), l)),
                    None => say::write(
                        l,
                        l.pick("CLAIM <a free territory>", "RÉCLAME <un territoire libre>"),
                    ),
                },
            ));
        }
        Ok(())
    }

    fn validate_setup_place(&self, seat: Seat, order: &Order) -> Result<(), OrderError> {
        let Order::Place { own, neutral } = order else {
            return Err(refuse(
                |l| {
                    l.pick(
                        "armies are being placed",
                        "les armées sont en train d'être placées",
                    )
                    .into()
                },
                |l| self.place_hint(seat, self.placement_due(seat).0, l),
            ));
        };
        if self.phase == Phase::Place && seat != self.to_move {
            return Err(not_your_turn(
                &self.players[self.to_move],
                " to place",
                "de placer",
            ));
        }
        if self.phase == Phase::BlindPlace && self.blind[seat].is_some() {
            return Err(refuse_bare(|l| {
                l.pick(
                    "you have already sent your placement",
                    "vous avez déjà envoyé vos placements",
                )
                .into()
            }));
        }
        let (due, due_n) = self.placement_due(seat);
        let got: u32 = own.iter().map(|p| p.1).sum();
        let got_n: u32 = neutral.iter().map(|p| p.1).sum();
        if got != due || got_n != due_n {
            return Err(refuse(
                |l| placement_count_msg(l, (due, due_n), (got, got_n)),
                |l| {
                    if due_n > 0 {
                        say::write(
                            l,
                            &match l {
                                Lang::En => format!(
                                    "PLACE {due} <your territory> NEUTRAL {due_n} <a neutral territory>"
                                ),
                                Lang::Fr => format!(
                                    "PLACE {due} <votre territoire> NEUTRE {due_n} <un territoire neutre>"
                                ),
                            },
                        )
                    } else {
                        self.place_hint(seat, due, l)
                    }
                },
            ));
        }
        self.check_placements(seat, own, neutral)
    }

    fn validate_hq(&self, seat: Seat, order: &Order) -> Result<(), OrderError> {
        let hint = (
            "write: HQ <one of your territories>",
            "écrivez : QG <un de vos territoires>",
        );
        let Order::Hq(t) = order else {
            return Err(refuse2(
                (
                    "headquarters are being chosen",
                    "les quartiers généraux sont en train d'être choisis",
                ),
                hint,
            ));
        };
        if self.hq[seat].is_some() {
            return Err(refuse_bare(|l| {
                l.pick(
                    "you have already chosen your headquarters",
                    "vous avez déjà choisi votre quartier général",
                )
                .into()
            }));
        }
        if !self.owns(seat, *t) {
            return Err(refuse(
                |l| not_yours(*t, l),
                |l| l.pick(hint.0, hint.1).into(),
            ));
        }
        Ok(())
    }

    fn validate_play(&self, seat: Seat, order: &Order) -> Result<(), OrderError> {
        if let Some(b) = &self.battle {
            let who = &self.players[b.responder];
            return Err(refuse_bare(|l| match l {
                Lang::En => format!("the attack on {} waits for {who}'s dice", map::name(b.to)),
                Lang::Fr => format!(
                    "l'attaque contre {} attend les dés de {who}",
                    say::le(b.to, l)
                ),
            }));
        }
        if seat != self.to_move {
            return Err(not_your_turn(&self.players[self.to_move], "", "de jouer"));
        }
        match order {
            Order::Trade(refs) => self.validate_trade(seat, refs),
            Order::Place { own, neutral } => self.validate_reinforce(seat, own, neutral),
            Order::Attack {
                to,
                from,
                reroll,
                commander,
                ..
            } => {
                self.check_fighting_stage(seat)?;
                self.validate_attack(seat, *from, *to)?;
                self.validate_attack_options(*reroll, *commander)
            }
            Order::Fortify { from, to, armies } => {
                if self.turn_state.stage != Stage::Fortify {
                    self.check_fighting_stage(seat)?;
                }
                self.validate_fortify(seat, *from, *to, *armies)
            }
            Order::End => {
                if self.turn_state.stage == Stage::Reinforce {
                    return Err(self.reinforce_first(seat));
                }
                Ok(())
            }
            _ => Err(refuse2(
                (
                    "that order is for the setting up of the game",
                    "cet ordre sert à la mise en place de la partie",
                ),
                (
                    "write: PLACE, TRADE, ATTACK, FORTIFY or END",
                    "écrivez : PLACE, ÉCHANGE, ATTAQUE, FORTIFIE ou FIN",
                ),
            )),
        }
    }

    fn validate_trade(&self, seat: Seat, refs: &[CardRef]) -> Result<(), OrderError> {
        if self.turn_state.stage != Stage::Reinforce {
            return Err(refuse2(
                (
                    "sets are traded at the start of a turn (or at once after an elimination)",
                    "les combinaisons s'échangent au début du tour (ou aussitôt après une élimination)",
                ),
                (
                    "trade before your last PLACE",
                    "échangez avant votre dernier PLACE",
                ),
            ));
        }
        if refs.len() != 3 {
            return Err(refuse(
                |l| {
                    l.pick(
                        "a set is three cards",
                        "une combinaison, c'est trois cartes",
                    )
                    .into()
                },
                |l| self.trade_hint(seat, l),
            ));
        }
        let cs = self.cards_for(seat, refs)?;
        if !cards::is_set(&cs) {
            return Err(refuse(
                |l| {
                    l.pick(
                    "these three cards are not a set (three alike, one of each, or two and a wild card)",
                    "ces trois cartes ne forment pas une combinaison (trois pareilles, une de chaque, ou deux et un passe-partout)",
                ).into()
                },
                |l| self.trade_hint(seat, l),
            ));
        }
        Ok(())
    }

    fn validate_reinforce(
        &self,
        seat: Seat,
        own: &Placements,
        neutral: &Placements,
    ) -> Result<(), OrderError> {
        let ts = &self.turn_state;
        let must_trade = ts.stage == Stage::Reinforce && self.hands[seat].len() >= 5;
        if !neutral.is_empty() {
            return Err(refuse(
                |l| {
                    l.pick(
                        "neutral armies are never reinforced",
                        "les armées neutres ne reçoivent jamais de renforts",
                    )
                    .into()
                },
                |l| self.place_hint(seat, ts.reinforcements, l),
            ));
        }
        if ts.stage != Stage::Reinforce || ts.reinforcements == 0 && !must_trade {
            return Err(refuse2(
                (
                    "you have no armies left to place",
                    "il ne vous reste aucune armée à placer",
                ),
                (
                    "write: ATTACK <territory> FROM <yours>, FORTIFY or END",
                    "écrivez : ATTAQUE <territoire> DEPUIS <le vôtre>, FORTIFIE ou FIN",
                ),
            ));
        }
        if must_trade {
            return Err(self.trade_first(seat));
        }
        let got: u32 = own.iter().map(|p| p.1).sum();
        if got > ts.reinforcements {
            let r = ts.reinforcements;
            return Err(refuse(
                |l| match l {
                    Lang::En => format!("you have only {r} armies to place"),
                    Lang::Fr => format!("vous n'avez que {} à placer", say::armies(r, l)),
                },
                |l| self.place_hint(seat, r, l),
            ));
        }
        self.check_placements(seat, own, neutral)
    }

    /// "you hold 5 cards: trade a set first".
    fn trade_first(&self, seat: Seat) -> OrderError {
        let k = self.hands[seat].len();
        refuse(
            |l| match l {
                Lang::En => format!("you hold {k} cards: trade a set first"),
                Lang::Fr => format!("vous avez {k} cartes : échangez d'abord une combinaison"),
            },
            |l| self.trade_hint(seat, l),
        )
    }

    /// Refusal of a fighting order while reinforcements are due.
    fn reinforce_first(&self, seat: Seat) -> OrderError {
        if self.hands[seat].len() >= 5 {
            return self.trade_first(seat);
        }
        let r = self.turn_state.reinforcements;
        refuse(
            |l| match l {
                Lang::En => format!("place your {r} armies first"),
                Lang::Fr if r == 1 => "placez d'abord votre armée".into(),
                Lang::Fr => format!("placez d'abord vos {r} armées"),
            },
            |l| self.place_hint(seat, r, l),
        )
    }

    /// What of an attack chance cannot change: its target is not already the attacker's
    /// (no roll in a player's own turn takes a territory from them) and borders `from`.
    fn attack_target(
        &self,
        seat: Seat,
        from: TerritoryId,
        to: TerritoryId,
    ) -> Result<(), OrderError> {
        if self.owns(seat, to) {
            return Err(refuse(
                |l| match l {
                    Lang::En => format!("{} is already yours", map::name(to)),
                    Lang::Fr => format!("{} est déjà à vous", say::cap(&say::le(to, l))),
                },
                |l| {
                    l.pick(
                        "attack a territory you do not hold",
                        "attaquez un territoire que vous ne tenez pas",
                    )
                    .into()
                },
            ));
        }
        if !board().adjacent(from, to) {
            let near = board().neighbors(to).find(|&x| self.owns(seat, x));
            return Err(refuse(
                |l| not_bordering(from, to, l),
                |l| match near {
                    None => l
                        .pick(
                            "attack a territory next to one of yours",
                            "attaquez un territoire voisin d'un des vôtres",
                        )
                        .into(),
                    Some(n) => say::write(
                        l,
                        &match l {
                            Lang::En => format!("ATTACK {} FROM {}", map::name(to), map::name(n)),
                            Lang::Fr => format!(
                                "ATTAQUE {} DEPUIS {}",
                                map::name_in(to, l),
                                map::name_in(n, l)
                            ),
                        },
                    ),
                },
            ));
        }
        Ok(())
    }

    /// CHECK of a line after one that rolls dice (`Rules::check_past_chance`), from the state
    /// before them: an attack on a territory the seat already holds, or not next to `from`.
    pub(crate) fn validate_past_chance(&self, seat: Seat, order: &Order) -> Result<(), OrderError> {
        match order {
            Order::Attack { to, from, .. } => self.attack_target(seat, *from, *to),
            _ => Ok(()),
        }
    }

    fn validate_attack(
        &self,
        seat: Seat,
        from: TerritoryId,
        to: TerritoryId,
    ) -> Result<(), OrderError> {
        if !self.owns(seat, from) {
            return Err(refuse(
                |l| not_yours(from, l),
                |l| say::write(l, &crate::orders::attack_choice(to, from, l)),
            ));
        }
        self.attack_target(seat, from, to)?;
        if self.armies[from] < 2 {
            return Err(refuse(
                |l| match l {
                    Lang::En => format!(
                        "{} holds only 1 army: attack from a territory with at least 2",
                        map::name(from)
                    ),
                    Lang::Fr => format!(
                        "{} n'a qu'une armée : attaquez depuis un territoire qui en a au moins 2",
                        say::cap(&say::le(from, l))
                    ),
                },
                |l| {
                    l.pick(
                        "attack from a territory with 2 armies or more",
                        "attaquez depuis un territoire de 2 armées ou plus",
                    )
                    .into()
                },
            ));
        }
        Ok(())
    }

    fn validate_attack_options(&self, reroll: bool, commander: bool) -> Result<(), OrderError> {
        if reroll && !self.opts.reroll {
            return Err(refuse2(
                (
                    "the re-roll rule is not in play in this game",
                    "la règle de la relance n'est pas en jeu dans cette partie",
                ),
                ("leave out REROLL", "retirez RELANCE"),
            ));
        }
        if commander && !self.opts.commander {
            return Err(refuse2(
                (
                    "the commander rule is not in play in this game",
                    "la règle des commandants n'est pas en jeu dans cette partie",
                ),
                ("leave out COMMANDER", "retirez COMMANDANT"),
            ));
        }
        Ok(())
    }

    fn validate_fortify(
        &self,
        seat: Seat,
        from: TerritoryId,
        to: TerritoryId,
        armies: u32,
    ) -> Result<(), OrderError> {
        let hint = |l: Lang| {
            say::write(
                l,
                &crate::orders::text_in(
                    &Order::Fortify {
                        from,
                        to,
                        armies: 1,
                    },
                    l,
                ),
            )
        };
        if !self.owns(seat, from) || !self.owns(seat, to) {
            return Err(refuse(
                |l| {
                    l.pick(
                        "you may move armies only between your own territories",
                        "vous ne pouvez déplacer des armées qu'entre vos propres territoires",
                    )
                    .into()
                },
                hint,
            ));
        }
        if from == to {
            return Err(refuse(
                |l| {
                    l.pick(
                        "name two different territories",
                        "nommez deux territoires différents",
                    )
                    .into()
                },
                hint,
            ));
        }
        let held = self.armies[from];
        if armies == 0 || armies >= held {
            return Err(refuse(
                |l| match l {
                    Lang::En => format!(
                        "{} holds {held} armies: move 1 to {} (leave at least one)",
                        map::name(from),
                        held.saturating_sub(1)
                    ),
                    Lang::Fr => format!(
                        "{} a {} : déplacez-en de 1 à {} (laissez-en au moins une)",
                        say::cap(&say::le(from, l)),
                        say::armies(held, l),
                        held.saturating_sub(1)
                    ),
                },
                hint,
            ));
        }
        if armies > self.room(to) {
            return Err(refuse(|l| self.over_cap(to, l), hint));
        }
        self.check_fortify_path(seat, from, to)
    }

    fn check_fortify_path(
        &self,
        seat: Seat,
        from: TerritoryId,
        to: TerritoryId,
    ) -> Result<(), OrderError> {
        let free = self.opts.free_fortify;
        let ok = if free {
            self.connected(seat, from, to)
        } else {
            board().adjacent(from, to)
        };
        if ok {
            return Ok(());
        }
        Err(refuse(
            |l| match (l, free) {
                (Lang::En, true) => format!(
                    "no chain of your territories joins {} to {}",
                    map::name(from),
                    map::name(to)
                ),
                (Lang::Fr, true) => format!(
                    "aucune chaîne de vos territoires ne relie {} à {}",
                    say::le(from, l),
                    say::le(to, l)
                ),
                (Lang::En, false) => format!(
                    "{} does not border {}: fortify between two adjacent territories",
                    map::name(from),
                    map::name(to)
                ),
                (Lang::Fr, false) => format!(
                    "{} : fortifiez entre deux territoires adjacents",
                    not_bordering(from, to, l)
                ),
            },
            |l| {
                l.pick(
                    "move between adjacent territories of yours",
                    "déplacez entre deux de vos territoires adjacents",
                )
                .into()
            },
        ))
    }

    fn check_fighting_stage(&self, seat: Seat) -> Result<(), OrderError> {
        match self.turn_state.stage {
            Stage::Reinforce => Err(self.reinforce_first(seat)),
            Stage::Fortify => Err(refuse2(
                (
                    "after fortifying you may only fortify again or END",
                    "après une fortification, vous ne pouvez que fortifier encore ou FIN",
                ),
                ("write: END", "écrivez : FIN"),
            )),
            Stage::Attack => Ok(()),
        }
    }

    /// A chain of `seat`'s territories joins `a` to `b`.
    pub fn connected(&self, seat: Seat, a: TerritoryId, b: TerritoryId) -> bool {
        let mut seen = vec![false; self.owner.len()];
        let mut stack = vec![a];
        seen[a] = true;
        while let Some(t) = stack.pop() {
            if t == b {
                return true;
            }
            for x in board().neighbors(t) {
                if !seen[x] && self.owns(seat, x) {
                    seen[x] = true;
                    stack.push(x);
                }
            }
        }
        false
    }
}
