//! Attacks by land and by sea (Admiral), before a die is rolled: the checks, the
//! declaration and the defender's answer asked or taken from the standing orders; the dice
//! a line asks for checked against the rule.

use super::*;

impl CastleRisk {
    fn attack_on_own(to: T) -> OrderError {
        err(
            format!("{} is yours", Self::tname(to)),
            format!("{} est à vous", cap(&words::le(to))),
            "attack a territory held by another player",
            "attaquez un territoire occupé par un autre joueur",
        )
    }

    /// CHECK of a line after one that rolls dice (`Rules::check_past_chance`), from the state
    /// before them: an attack, by land or by sea, on a territory the seat already holds (no
    /// roll in a player's own turn takes a territory from them).
    pub(crate) fn attack_past_chance(&self, seat: Seat, order: &Order) -> Result<(), OrderError> {
        match order {
            Order::Attack { to, .. } | Order::Sail { to, .. }
                if self.board[*to].owner == Some(seat) =>
            {
                Err(Self::attack_on_own(*to))
            }
            _ => Ok(()),
        }
    }

    pub(crate) fn check_attack(&self, seat: Seat, from: T, to: T) -> Result<Seat, OrderError> {
        if self.board[from].owner != Some(seat) {
            return Err(err(
                format!("you do not hold {}", Self::tname(from)),
                format!("vous n'occupez pas {}", words::le(from)),
                "attack from one of your own territories",
                "attaquez depuis un de vos territoires",
            ));
        }
        let Some(def) = self.board[to].owner else {
            return Err(refusal(
                format!("{} is empty", Self::tname(to)),
                format!("{} est vide", cap(&words::le(to))),
            ));
        };
        if def == seat {
            return Err(Self::attack_on_own(to));
        }
        if self.truce_between(seat, def) {
            return Err(refusal(
                format!(
                    "you have a truce with {}: no attack between you this turn",
                    self.name(def)
                ),
                format!(
                    "vous avez une trêve avec {} : pas d'attaque entre vous ce tour-ci",
                    self.name(def)
                ),
            ));
        }
        Ok(def)
    }

    pub fn attack(
        &mut self,
        seat: Seat,
        from: T,
        to: T,
        plan: AttackPlan,
        (general, again): (bool, Option<bool>),
        dice: &mut DiceBox,
    ) -> Result<Vec<Event>, OrderError> {
        self.in_turn(seat, "ATTACK")?;
        // An attack the seat can make now, near the one it wrote.
        let hint = || crate::orders::attack_hint_now(self, seat, &[to], &[from]);
        self.check_attack(seat, from, to)
            .map_err(|e| match hint() {
                Some((en, fr)) => e.hints(en, fr),
                None => e,
            })?;
        if !map().board.adjacent(from, to) {
            return Err(self.not_adjacent(seat, from, to));
        }
        if self.board[from].armies < 2 {
            let e = refusal(
                format!(
                    "{} has only {} army: attack from a territory with at least 2",
                    Self::tname(from),
                    self.board[from].armies
                ),
                format!(
                    "{} n'a que {} : attaquez depuis un territoire qui en a au moins 2",
                    cap(&words::le(from)),
                    armees(self.board[from].armies)
                ),
            );
            return Err(match hint() {
                Some((en, fr)) => e.hints(en, fr),
                None => e,
            });
        }
        if general && !self.hand_has(seat, Card::General) && !self.engaged(seat, Card::General) {
            return Err(err(
                "you hold no General",
                "vous n'avez pas de Général",
                "leave GENERAL out of the attack line",
                "retirez GÉNÉRAL de la ligne d'attaque",
            ));
        }
        self.check_dice(from, to, plan.dice, self.board[from].armies, false)?;
        self.check_move_in(from, to, &plan)?;
        let p = PendingAttack {
            attacker: seat,
            from,
            to,
            plan,
            general,
            again: self.general_again(seat, again),
            ship: None,
        };
        Ok(self.declare(p, dice))
    }

    pub(crate) fn not_adjacent(&self, seat: Seat, from: T, to: T) -> OrderError {
        let near: Vec<T> = map()
            .board
            .neighbors(from)
            .filter(|&n| self.board[n].owner != Some(seat))
            .collect();
        let names = |lang: Lang| {
            near.iter()
                .map(|t| tn(*t, lang))
                .collect::<Vec<_>>()
                .join(", ")
        };
        let (f, t) = (Self::tname(from), Self::tname(to));
        let (ff, tf) = (tn(from, Lang::Fr), tn(to, Lang::Fr));
        err(
            format!("{f} does not border {t} (an Admiral can sail: SAIL n FROM {f} TO {t})"),
            format!(
                "{} ne touche pas {} (un Amiral peut traverser : AMIRAL n DEPUIS {ff} VERS {tf})",
                cap(&words::le(from)),
                words::le(to)
            ),
            if near.is_empty() {
                "attack a neighbouring enemy territory".to_string()
            } else {
                format!("from {f} you can attack {}", names(Lang::En))
            },
            if near.is_empty() {
                "attaquez un territoire ennemi voisin".to_string()
            } else {
                format!(
                    "depuis {} vous pouvez attaquer {}",
                    words::le(from),
                    names(Lang::Fr)
                )
            },
        )
    }

    pub fn sail(
        &mut self,
        seat: Seat,
        armies: u32,
        from: T,
        to: T,
        plan: AttackPlan,
        (general, again): (bool, Option<bool>),
        dice: &mut DiceBox,
    ) -> Result<Vec<Event>, OrderError> {
        self.in_turn(seat, "SAIL")?;
        self.check_attack(seat, from, to)
            .map_err(
                |e| match crate::orders::hint::sail_hint_now(self, seat, &[to], &[from]) {
                    Some((en, fr)) => e.hints(en, fr),
                    None => e,
                },
            )?;
        self.check_sail(seat, armies, from, to, general)?;
        self.check_dice(from, to, plan.dice, armies, true)?;
        self.take_from_hand(seat, Card::Admiral);
        self.in_play.push((seat, Card::Admiral));
        let p = PendingAttack {
            attacker: seat,
            from,
            to,
            plan,
            general,
            again: self.general_again(seat, again),
            ship: Some(armies),
        };
        Ok(self.declare(p, dice))
    }

    pub(crate) fn check_sail(
        &self,
        seat: Seat,
        armies: u32,
        from: T,
        to: T,
        general: bool,
    ) -> Result<(), OrderError> {
        // A crossing the seat can make now, near the one it wrote (without an Admiral, an
        // attack by land).
        let hinted =
            |e: OrderError| match crate::orders::hint::sail_hint_now(self, seat, &[to], &[from]) {
                Some((en, fr)) => e.hints(en, fr),
                None => e,
            };
        if !self.hand_has(seat, Card::Admiral) {
            return Err(hinted(refusal(
                "you hold no Admiral",
                "vous n'avez pas d'Amiral",
            )));
        }
        let (sf, st) = (map().sea[from], map().sea[to]);
        if sf == Sea::None || st == Sea::None {
            let land = if sf == Sea::None { from } else { to };
            return Err(hinted(refusal(
                format!(
                    "{} has no coast: an Admiral sails only between coastal territories",
                    Self::tname(land)
                ),
                format!(
                    "{} n'a pas de côte : un Amiral ne navigue qu'entre territoires côtiers",
                    cap(&words::le(land))
                ),
            )));
        }
        if !shares_sea(sf, st) {
            return Err(hinted(refusal(
                format!(
                    "{} and {} are not on the same sea (the Black Sea only reaches the Black Sea)",
                    Self::tname(from),
                    Self::tname(to)
                ),
                format!(
                    "{} et {} ne sont pas sur la même mer (la mer Noire ne mène qu'à la mer Noire)",
                    cap(&words::le(from)),
                    words::le(to)
                ),
            )));
        }
        if armies == 0 || armies >= self.board[from].armies {
            let can = self.board[from].armies.saturating_sub(1);
            let e = err(
                format!(
                    "{} armies cannot board from {}: it holds {} and must keep one",
                    armies,
                    Self::tname(from),
                    self.board[from].armies
                ),
                format!(
                    "{} ne peuvent pas embarquer {} : il y en a {} et une doit rester",
                    armees(armies),
                    words::de(from),
                    self.board[from].armies
                ),
                format!(
                    "write: SAIL {can} FROM {} TO {}",
                    Self::tname(from),
                    Self::tname(to)
                ),
                format!(
                    "écrivez : AMIRAL {can} DEPUIS {} VERS {}",
                    tn(from, Lang::Fr),
                    tn(to, Lang::Fr)
                ),
            );
            // One army alone cannot board: a crossing from another port, if any.
            return Err(if can == 0 { hinted(e) } else { e });
        }
        if general && !self.hand_has(seat, Card::General) && !self.engaged(seat, Card::General) {
            return Err(err(
                "you hold no General",
                "vous n'avez pas de Général",
                "leave GENERAL out of the line",
                "retirez GÉNÉRAL de la ligne",
            ));
        }
        Ok(())
    }

    pub(crate) fn declare(&mut self, p: PendingAttack, dice: &mut DiceBox) -> Vec<Event> {
        self.attacked = true;
        self.attacks += 1;
        let def = self.board[p.to].owner.unwrap_or(0);
        let mut ev = vec![Event::AttackDeclared {
            seat: p.attacker,
            from: p.from,
            to: p.to,
            ship: p.ship,
        }];
        let s = &self.players[def].standing;
        let unset = s.defend.is_none() || s.marshal.is_none() || s.reveal.is_none();
        if self.options.ask && unset {
            ev.push(Event::Waiting {
                seat: def,
                what: Awaited::Defence(p.to),
            });
            self.interrupt = Some(Interrupt::Defend(p));
            return ev;
        }
        let d = self.standing_defence(def, p.to);
        ev.extend(self.resolve_attack(p, d, dice));
        ev
    }
}

/// The dice an attack line asks for, checked against the rule before anything is rolled:
/// refused, never silently changed.
impl CastleRisk {
    /// Whether `GENERAL` in this line may bring a second General: the line's word, else the
    /// seat's standing order, else the documented default (ONCE).
    pub(crate) fn general_again(&self, seat: Seat, word: Option<bool>) -> bool {
        word.or(self.players[seat].standing.general_again)
            .unwrap_or(DEFAULT_GENERAL_AGAIN)
    }

    /// `MOVE n` against the rule. "vous devez déplacer au moins autant d'armées (depuis le
    /// territoire duquel vous avez attaqué) que le nombre de dés que vous avez jetés": a
    /// MOVE below the dice the attack's first roll throws (the most allowed, or `WITH n
    /// DICE`) is refused, never raised in silence (the dice of later rolls never grow, so
    /// a MOVE the first roll allows is never raised). Rules revision 2 on.
    pub(crate) fn check_move_in(
        &self,
        from: T,
        to: T,
        plan: &AttackPlan,
    ) -> Result<(), OrderError> {
        let castellan_engine::assault::MoveIn::Exactly(n) = plan.move_in else {
            return Ok(());
        };
        if self.options.revision < 2 {
            return Ok(());
        }
        let castle = self.board[to]
            .owner
            .is_some_and(|o| self.players[o].castle == Some(to));
        let armies = self.board[from].armies;
        let first = plan
            .dice_now(max_attack_dice(armies, if castle { 2 } else { 3 }), armies)
            .max(1);
        if n >= first {
            return Ok(());
        }
        let dies = |k: u32| if k == 1 { "die" } else { "dice" };
        let des = |k: u32| if k == 1 { "dé" } else { "dés" };
        // Fewer dice to move fewer in (the parser reads DÉS, not DÉ).
        let (or_en, or_fr) = if n >= 1 {
            (
                format!(", or WITH {n} {} THEN MOVE {n}", dies(n).to_uppercase()),
                format!(", ou AVEC {n} DÉS PUIS DÉPLACER {n}"),
            )
        } else {
            (String::new(), String::new())
        };
        Err(err(
            format!(
                "MOVE {n}: this attack rolls {first} {}, and a conquest moves in at least as many armies as dice last rolled",
                dies(first)
            ),
            format!(
                "DÉPLACER {n} : cette attaque lance {first} {}, et une conquête déplace au moins autant d'armées que de dés lancés en dernier",
                des(first)
            ),
            format!("write THEN MOVE {first} or more{or_en}"),
            format!("écrivez PUIS DÉPLACER {first} ou plus{or_fr}"),
        ))
    }

    /// `WITH n DICE` against the rule. "vous pouvez jeter un, deux, ou trois dés rouges ...
    /// mais vous devez avoir dans votre territoire au moins une armée de plus que le nombre
    /// de dés que vous jetez" and "Quand vous attaquez un château, vous pouvez ne jamais
    /// utiliser plus de deux dés". `pool`: the armies of `from`, or those aboard (`ship`).
    pub(crate) fn check_dice(
        &self,
        from: T,
        to: T,
        asked: Option<u32>,
        pool: u32,
        ship: bool,
    ) -> Result<(), OrderError> {
        let Some(n) = asked.filter(|_| self.options.revision >= 1) else {
            return Ok(());
        };
        let castle = self.board[to]
            .owner
            .is_some_and(|o| self.players[o].castle == Some(to));
        if castle && n > 2 {
            return Err(err(
                format!(
                    "{} is a castle: an attack on a castle rolls at most 2 dice",
                    Self::tname(to)
                ),
                format!(
                    "{} est un château : contre un château on ne lance jamais plus de deux dés",
                    cap(&words::le(to))
                ),
                "write WITH 2 DICE, or leave the dice out (the most allowed)",
                "écrivez AVEC 2 DÉS, ou n'indiquez pas les dés (le plus permis)",
            ));
        }
        let most = if ship { pool } else { pool.saturating_sub(1) };
        if n > most {
            let can = most.clamp(1, 3);
            return Err(if ship {
                err(
                    format!("{pool} armies aboard cannot roll {n} dice (one die per army aboard)"),
                    format!(
                        "{} à bord ne peuvent pas lancer {n} dés (un dé par armée à bord)",
                        armees(pool)
                    ),
                    format!("write WITH {can} DICE, or embark more armies"),
                    format!("écrivez AVEC {can} DÉS, ou embarquez plus d'armées"),
                )
            } else {
                err(
                    format!(
                        "{} has {pool} armies: rolling {n} dice needs at least {} (one more than the dice)",
                        Self::tname(from),
                        n + 1
                    ),
                    format!(
                        "{} a {} : lancer {n} dés demande au moins {} (une de plus que les dés)",
                        cap(&words::le(from)),
                        armees(pool),
                        n + 1
                    ),
                    format!("write WITH {can} DICE"),
                    format!("écrivez AVEC {can} DÉS"),
                )
            });
        }
        Ok(())
    }
}
