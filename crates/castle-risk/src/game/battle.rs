//! Attacks by land and by sea (Admiral): checks, the defender's answer, the battles with
//! General, Marshal and hidden armies, conquest.

use super::*;

impl CastleRisk {
    fn attack_on_own(to: T) -> OrderError {
        err(
            format!("{} is yours", Self::tname(to)),
            format!("{} est à vous", cap(&text::le(to))),
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
                format!("vous n'occupez pas {}", text::le(from)),
                "attack from one of your own territories",
                "attaquez depuis un de vos territoires",
            ));
        }
        let Some(def) = self.board[to].owner else {
            return Err(oe(
                format!("{} is empty", Self::tname(to)),
                format!("{} est vide", cap(&text::le(to))),
            ));
        };
        if def == seat {
            return Err(Self::attack_on_own(to));
        }
        if self.truce_between(seat, def) {
            return Err(oe(
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
        self.check_attack(seat, from, to)?;
        if !map().board.adjacent(from, to) {
            return Err(self.not_adjacent(seat, from, to));
        }
        if self.board[from].armies < 2 {
            return Err(oe(
                format!(
                    "{} has only {} army: attack from a territory with at least 2",
                    Self::tname(from),
                    self.board[from].armies
                ),
                format!(
                    "{} n'a que {} : attaquez depuis un territoire qui en a au moins 2",
                    cap(&text::le(from)),
                    armees(self.board[from].armies)
                ),
            ));
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
                cap(&text::le(from)),
                text::le(to)
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
                    text::le(from),
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
        self.check_attack(seat, from, to)?;
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
        if !self.hand_has(seat, Card::Admiral) {
            return Err(oe("you hold no Admiral", "vous n'avez pas d'Amiral").hints(
                format!("attack by land: ATTACK {} FROM ...", Self::tname(to)),
                format!(
                    "attaquez par la terre : ATTAQUE {} DEPUIS ...",
                    tn(to, Lang::Fr)
                ),
            ));
        }
        let (sf, st) = (map().sea[from], map().sea[to]);
        if sf == Sea::None || st == Sea::None {
            let land = if sf == Sea::None { from } else { to };
            return Err(oe(
                format!(
                    "{} has no coast: an Admiral sails only between coastal territories",
                    Self::tname(land)
                ),
                format!(
                    "{} n'a pas de côte : un Amiral ne navigue qu'entre territoires côtiers",
                    cap(&text::le(land))
                ),
            ));
        }
        if !shares_sea(sf, st) {
            return Err(oe(
                format!(
                    "{} and {} are not on the same sea (the Black Sea only reaches the Black Sea)",
                    Self::tname(from),
                    Self::tname(to)
                ),
                format!(
                    "{} et {} ne sont pas sur la même mer (la mer Noire ne mène qu'à la mer Noire)",
                    cap(&text::le(from)),
                    text::le(to)
                ),
            ));
        }
        if armies == 0 || armies >= self.board[from].armies {
            let can = self.board[from].armies.saturating_sub(1).max(1);
            return Err(err(
                format!(
                    "{} armies cannot board from {}: it holds {} and must keep one",
                    armies,
                    Self::tname(from),
                    self.board[from].armies
                ),
                format!(
                    "{} ne peuvent pas embarquer {} : il y en a {} et une doit rester",
                    armees(armies),
                    text::de(from),
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
            ));
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

    /// The defence a seat's standing orders (or the defaults) give for territory `t`.
    pub fn standing_defence(&self, def: Seat, t: T) -> Defence {
        let s = &self.players[def].standing;
        let dice = s.defend.unwrap_or(DEFAULT_DEFEND);
        let is_castle = self.players[def].castle == Some(t);
        let marshal = match s.marshal.unwrap_or(DEFAULT_MARSHAL) {
            MarshalPolicy::Never => false,
            MarshalPolicy::Always => true,
            MarshalPolicy::When(n) => is_castle || self.board[t].armies >= n,
        };
        let reveal = match s.reveal.unwrap_or(DEFAULT_REVEAL) {
            RevealPolicy::Never => false,
            RevealPolicy::OnAttack(n) => self.hidden_value() >= n.max(1),
        };
        Defence {
            dice,
            marshal,
            reveal,
        }
    }

    pub fn defend(
        &mut self,
        seat: Seat,
        d: Defence,
        dice: &mut DiceBox,
    ) -> Result<Vec<Event>, OrderError> {
        let Some(Interrupt::Defend(p)) = self.interrupt.clone() else {
            return Err(oe(
                "no attack is waiting for your defence",
                "aucune attaque n'attend votre défense",
            )
            .hints(
                "to say in advance how you defend, write: SET DEFEND 2",
                "pour dire à l'avance comment vous défendre, écrivez : CONSIGNE DÉFENDRE 2",
            ));
        };
        let def = self.board[p.to].owner.unwrap_or(0);
        if seat != def {
            return Err(oe(
                format!(
                    "the attack on {} waits for {}'s defence, not yours",
                    Self::tname(p.to),
                    self.name(def)
                ),
                format!(
                    "l'attaque sur {} attend la défense {}, pas la vôtre",
                    text::le(p.to),
                    fr::de(self.name(def))
                ),
            ));
        }
        if !(1..=2).contains(&d.dice) {
            return Err(err(
                "a defender rolls 1 or 2 dice",
                "le défenseur lance 1 ou 2 dés",
                "write: DEFEND 2",
                "écrivez : DÉFENDRE 2",
            ));
        }
        if d.marshal && !self.hand_has(seat, Card::Marshal) && !self.engaged(seat, Card::Marshal) {
            return Err(err(
                "you hold no Marshal",
                "vous n'avez pas de Maréchal",
                "write: DEFEND 2",
                "écrivez : DÉFENDRE 2",
            ));
        }
        if d.reveal {
            self.check_reveal_worth().map_err(|e| {
                e.hints(
                    "write: DEFEND 2 (without REVEAL)",
                    "écrivez : DÉFENDRE 2 (sans DÉVOILER)",
                )
            })?;
        }
        self.interrupt = None;
        Ok(self.resolve_attack(p, d, dice))
    }

    /// Roll the battles of one attack (rule 5), with the General, Marshal, Admiral and
    /// hidden armies, then the conquest and a castle capture (rule 6).
    pub(crate) fn resolve_attack(
        &mut self,
        p: PendingAttack,
        d: Defence,
        dice: &mut DiceBox,
    ) -> Vec<Event> {
        let def = self.board[p.to].owner.unwrap_or(0);
        let mut ev = Vec::new();
        let is_castle = self.players[def].castle == Some(p.to);
        let cap = if is_castle { 2 } else { 3 };
        // Hidden armies on defence: revealed before the first battle (rule 7).
        if d.reveal {
            let h = &self.players[def].hidden;
            if let Some(i) = (0..h.len()).find(|&i| !h[i].used && h[i].territory == p.to) {
                ev.extend(self.do_reveal(def, i));
            }
        }
        // The ship's armies board now (after any wait for the defender's answer).
        let mut ship = p
            .ship
            .map(|k| k.min(self.board[p.from].armies.saturating_sub(1)));
        if let Some(k) = ship {
            self.board[p.from].armies -= k;
        }
        let mut rolls = 0;
        let mut last_dice = 0;
        loop {
            let pool = ship.unwrap_or(self.board[p.from].armies);
            let defenders = self.board[p.to].armies;
            let go = match ship {
                // Rule 4 (Admiral): "vous devez continuer à vous battre jusqu'à la fin".
                Some(s) => s > 0 && defenders > 0,
                None => p.plan.go_on(pool, defenders, rolls),
            };
            if !go {
                break;
            }
            let allowed = match ship {
                Some(s) => s.min(cap),
                None => max_attack_dice(pool, cap),
            };
            // The Admiral fights to the end: no UNTIL applies to its ships.
            let attacking = if ship.is_some() { u32::MAX } else { pool };
            let ad = p.plan.dice_now(allowed, attacking).max(1);
            // Fewer dice than the line asked (the armies fell during the attack): said in
            // the report, once each time the count drops.
            if let Some(asked) = p.plan.dice.filter(|_| self.options.revision >= 1) {
                if ad < asked && (rolls == 0 || ad < last_dice) {
                    ev.push(Event::DiceFewer {
                        from: p.from,
                        asked,
                        rolled: ad,
                        armies: pool,
                        ship: ship.is_some(),
                    });
                }
            }
            let dd = d.dice.min(max_defence_dice(defenders, 2)).max(1);
            self.battle(&p, d, (ad, dd), &mut ship, dice, &mut ev);
            rolls += 1;
            last_dice = ad;
        }
        ev.extend(self.conclude_attack(&p, ship, last_dice, is_castle));
        ev
    }

    /// One battle (rule 5): cards engaged before the dice, the dice, the losses, and a
    /// General or Marshal beaten.
    fn battle(
        &mut self,
        p: &PendingAttack,
        d: Defence,
        (ad, dd): (u32, u32),
        ship: &mut Option<u32>,
        dice: &mut DiceBox,
        ev: &mut Vec<Event>,
    ) {
        let att = p.attacker;
        let def = self.board[p.to].owner.unwrap_or(0);
        // A second General in the same attack only when asked ("jouer une autre carte
        // Générale si vous souhaitez"): GENERAL AGAIN or SET GENERAL AGAIN.
        let beaten =
            self.options.revision >= 1 && ev.iter().any(|e| matches!(e, Event::GeneralLost { .. }));
        if p.general
            && (p.again || !beaten)
            && !self.engaged(att, Card::General)
            && self.take_from_hand(att, Card::General)
        {
            self.in_play.push((att, Card::General));
            ev.push(Event::GeneralEngaged { seat: att });
        }
        if d.marshal && !self.engaged(def, Card::Marshal) && self.take_from_hand(def, Card::Marshal)
        {
            self.in_play.push((def, Card::Marshal));
            ev.push(Event::MarshalEngaged { seat: def });
        }
        let gen = self.engaged(att, Card::General);
        let mar = self.engaged(def, Card::Marshal);
        let a: Vec<u8> = dice.roll_d6(ad as usize).iter().map(|r| r.value).collect();
        let b: Vec<u8> = dice.roll_d6(dd as usize).iter().map(|r| r.value).collect();
        let x = exchange(&a, &b, u8::from(gen), u8::from(mar));
        match ship {
            Some(s) => *s -= x.attacker_losses.min(*s),
            None => self.board[p.from].armies -= x.attacker_losses,
        }
        self.board[p.to].armies -= x.defender_losses;
        self.ledger.lost += (x.attacker_losses + x.defender_losses) as u64;
        let top_a = x.attacker[0] + u8::from(gen);
        let top_d = x.defender[0] + u8::from(mar);
        ev.push(Event::Battle {
            from: p.from,
            to: p.to,
            attacker: x.attacker.clone(),
            defender: x.defender.clone(),
            general: gen,
            marshal: mar,
            attacker_losses: x.attacker_losses,
            defender_losses: x.defender_losses,
        });
        // General: "éliminée dès que votre adversaire obtient un dé égal ou supérieur
        // à votre dé le plus élevé + 1". Marshal: discarded when the attacker's highest
        // beats the defender's highest + 1.
        if gen && top_d >= top_a {
            self.disengage(att, Card::General);
            self.discard_card(Card::General);
            ev.push(Event::GeneralLost { seat: att });
        }
        if mar && top_a > top_d {
            self.disengage(def, Card::Marshal);
            self.discard_card(Card::Marshal);
            ev.push(Event::MarshalLost { seat: def });
        }
    }

    /// After the last battle: the conquest (armies move in, the Admiral comes back, a castle
    /// is captured) or the attack stops (a lost fleet).
    fn conclude_attack(
        &mut self,
        p: &PendingAttack,
        ship: Option<u32>,
        last_dice: u32,
        is_castle: bool,
    ) -> Vec<Event> {
        let att = p.attacker;
        let def = self.board[p.to].owner.unwrap_or(0);
        let mut ev = Vec::new();
        if self.board[p.to].armies == 0 {
            let moved = match ship {
                Some(s) => s,
                None => {
                    let m = p.plan.armies_to_move(self.board[p.from].armies, last_dice);
                    self.board[p.from].armies -= m;
                    m
                }
            };
            self.board[p.to] = Territory {
                owner: Some(att),
                armies: moved,
            };
            ev.push(Event::Conquered {
                seat: att,
                from: p.from,
                to: p.to,
                moved,
                by_sea: ship.is_some(),
            });
            if ship.is_some() {
                self.disengage(att, Card::Admiral);
                self.players[att].hand.push(Card::Admiral);
                ev.push(Event::AdmiralBack { seat: att });
            }
            if is_castle {
                ev.extend(self.capture_castle(att, def, p.to));
            }
            return ev;
        }
        if let Some(s) = ship {
            // A sea attack ends only when one side is gone: here the ship is empty.
            debug_assert_eq!(s, 0);
            self.disengage(att, Card::Admiral);
            self.discard_card(Card::Admiral);
            ev.push(Event::AdmiralLost {
                seat: att,
                to: p.to,
            });
        }
        ev.push(Event::AttackStopped {
            from: p.from,
            to: p.to,
            left: self.board[p.from].armies,
            defenders: self.board[p.to].armies,
        });
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
                    cap(&text::le(to))
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
                        cap(&text::le(from)),
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
