//! The turn: its beginning, who may act now (and why not), placing armies in turn, and
//! standing orders.

use super::*;

impl CastleRisk {
    pub(crate) fn begin_turn(&mut self, seat: Seat, dice: &mut DiceBox) -> Vec<Event> {
        self.current = seat;
        self.turns_played += 1;
        self.turn = self.turns_played.max(1);
        self.attacked = false;
        self.attacks = 0;
        self.to_place = 0;
        self.placing_earnings = false;
        let mut ev = vec![Event::TurnBegins {
            seat,
            number: self.turns_played,
        }];
        // Rule 2: fill the hand to 3, then draw one more.
        let mut got = Vec::new();
        while self.players[seat].hand.len() < 3 {
            match self.draw(seat, dice, &mut ev) {
                Some(c) => got.push(c),
                None => break,
            }
        }
        if let Some(c) = self.draw(seat, dice, &mut ev) {
            got.push(c);
        }
        ev.push(Event::Drew { seat, cards: got });
        ev
    }

    pub(crate) fn wrong_phase(&self, what: &str) -> OrderError {
        let (now, now_fr) = match &self.phase {
            Phase::Castles { .. } => (
                "the castles are being placed (CASTLE Paris)",
                "les châteaux sont en cours de placement (CHÂTEAU Paris)",
            ),
            Phase::Claim { .. } => (
                "territories are being claimed (CLAIM Livonia)",
                "les territoires sont en cours de prise (PRENDRE Livonie)",
            ),
            Phase::Draft { .. } => (
                "the draft waits for ranked lists (RANK Livonia, Poland, ...)",
                "la répartition attend les classements (CLASSEMENT Livonie, Pologne, ...)",
            ),
            Phase::Place { .. } | Phase::Blind { .. } => (
                "armies are being placed (PLACE 3 Paris, 2 Brittany)",
                "les armées sont en cours de placement (PLACER 3 Paris, 2 Bretagne)",
            ),
            Phase::Hide => (
                "hidden-army territories are being chosen (HIDE Livonia)",
                "les territoires des armées cachées sont en cours de choix (CACHER Livonie)",
            ),
            Phase::Play => ("the game is under way", "la partie est en cours"),
            Phase::Over => ("the game is over", "la partie est terminée"),
        };
        refusal(
            format!("{what} is not an order for now: {now}"),
            format!(
                "{} n'est pas un ordre pour maintenant : {now_fr}",
                kw(Lang::Fr, what)
            ),
        )
        .hints(
            "your private report lists the orders you may send now",
            "votre rapport privé donne les ordres que vous pouvez envoyer maintenant",
        )
    }

    /// Refuse if `seat` may not act in turn now.
    pub(crate) fn in_turn(&self, seat: Seat, what: &str) -> Result<(), OrderError> {
        if self.phase != Phase::Play {
            return Err(self.wrong_phase(what));
        }
        if let Some(i) = &self.interrupt {
            let who = self.interrupt_seat(i);
            return Err(refusal(
                format!(
                    "the game waits for {} ({}); {what} must wait",
                    self.name(who),
                    self.interrupt_what(i)
                ),
                format!(
                    "la partie attend {} ({}) ; {} doit attendre",
                    self.name(who),
                    self.interrupt_what_in(i, Lang::Fr),
                    kw(Lang::Fr, what)
                ),
            )
            .hints(
                "send your next orders once it is answered",
                "envoyez vos ordres suivants une fois la réponse donnée",
            ));
        }
        if seat != self.current {
            return Err(refusal(
                format!("it is {}'s turn, not yours", self.name(self.current)),
                format!(
                    "c'est le tour {}, pas le vôtre",
                    fr::de(self.name(self.current))
                ),
            )
            .hints(
                "standing orders (SET ...) may be sent at any time",
                "les consignes (CONSIGNE ...) s'envoient à tout moment",
            ));
        }
        if self.to_place > 0 {
            let (en, fr) = crate::orders::hint::place_hint(self, seat);
            return Err(err(
                format!(
                    "place your {} first",
                    castellan_engine::lang::en::count(self.to_place, "army", "armies")
                ),
                format!("placez d'abord vos {}", armees(self.to_place)),
                en,
                fr,
            ));
        }
        Ok(())
    }

    pub fn interrupt_seat(&self, i: &Interrupt) -> Seat {
        match i {
            Interrupt::Defend(p) => self.board[p.to].owner.unwrap_or(0),
            Interrupt::CounterSpy { target, .. } => *target,
            Interrupt::Reoccupy { victor, .. } => *victor,
            Interrupt::Annex { next, .. } => *next,
        }
    }

    pub fn interrupt_what(&self, i: &Interrupt) -> String {
        self.interrupt_what_in(i, Lang::En)
    }

    /// What the game waits for, in `lang`.
    pub fn interrupt_what_in(&self, i: &Interrupt, lang: Lang) -> String {
        match (i, lang) {
            (Interrupt::Defend(p), Lang::En) => format!("defence of {}", Self::tname(p.to)),
            (Interrupt::Defend(p), Lang::Fr) => format!("défense {}", words::de(p.to)),
            (Interrupt::CounterSpy { spy, .. }, Lang::En) => {
                format!("a Spy from {}", self.name(*spy))
            }
            (Interrupt::CounterSpy { spy, .. }, Lang::Fr) => {
                format!("un Espion {}", fr::de(self.name(*spy)))
            }
            (Interrupt::Reoccupy { .. }, _) => lang
                .pick(
                    "re-occupation after a castle capture",
                    "réoccupation après la prise d'un château",
                )
                .into(),
            (Interrupt::Annex { .. }, _) => lang
                .pick(
                    "annexation of vacated territories",
                    "annexion des territoires libérés",
                )
                .into(),
        }
    }

    pub(crate) fn place_in_turn(
        &mut self,
        seat: Seat,
        placements: &[(T, u32)],
        dice: &mut DiceBox,
    ) -> Result<Vec<Event>, OrderError> {
        if self.interrupt.is_some() || seat != self.current {
            self.in_turn(seat, "PLACE")?;
        }
        if self.to_place == 0 {
            return Err(refusal(
                "you have no armies to place now",
                "vous n'avez pas d'armées à placer maintenant",
            )
            .hints(
                "armies come from Reinforcements cards (REINFORCE 1) and end-of-turn earnings",
                "les armées viennent des cartes Renfort (RENFORT 1) et des nouvelles troupes de fin de tour",
            ));
        }
        let total: u32 = placements.iter().map(|p| p.1).sum();
        if total > self.to_place {
            let (en, fr) = crate::orders::hint::place_hint(self, seat);
            return Err(err(
                format!("you have {} armies to place, not {total}", self.to_place),
                format!("vous avez {} à placer, pas {total}", armees(self.to_place)),
                en,
                fr,
            ));
        }
        for &(t, k) in placements {
            self.put(seat, t, k);
        }
        self.to_place -= total;
        let why = if self.placing_earnings {
            PlaceWhy::Earnings
        } else {
            PlaceWhy::Reinforcements
        };
        let mut ev = vec![Event::Placed {
            seat,
            placements: placements.to_vec(),
            why,
        }];
        if self.to_place == 0 && self.placing_earnings {
            ev.extend(self.finish_turn(dice));
        }
        Ok(ev)
    }

    pub fn set_standing(&mut self, seat: Seat, s: &SetOrder) -> Result<Vec<Event>, OrderError> {
        if self.phase == Phase::Over {
            return Err(self.wrong_phase("SET"));
        }
        let st = &mut self.players[seat].standing;
        match s {
            SetOrder::Defend(n) => {
                if !(1..=2).contains(n) {
                    return Err(err(
                        "a defender rolls 1 or 2 dice",
                        "le défenseur lance 1 ou 2 dés",
                        "write: SET DEFEND 2",
                        "écrivez : CONSIGNE DÉFENDRE 2",
                    ));
                }
                st.defend = Some(*n)
            }
            SetOrder::Marshal(p) => st.marshal = Some(*p),
            SetOrder::CounterSpy(b) => st.counterspy = Some(*b),
            SetOrder::Reveal(p) => st.reveal = Some(*p),
            SetOrder::Annex(l) => st.annex = Some(l.clone()),
            SetOrder::Reoccupy(b) => st.reoccupy = *b,
            SetOrder::General(b) => st.general_again = Some(*b),
            SetOrder::Ask => *st = Standing::default(),
        }
        Ok(vec![Event::StandingSet {
            seat,
            order: s.clone(),
        }])
    }
}
