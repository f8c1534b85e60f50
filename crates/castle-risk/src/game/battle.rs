//! An attack fought: the defender's answer, the battles with General, Marshal and hidden
//! armies, conquest.

use super::*;

impl CastleRisk {
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
            return Err(refusal(
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
            return Err(refusal(
                format!(
                    "the attack on {} waits for {}'s defence, not yours",
                    Self::tname(p.to),
                    self.name(def)
                ),
                format!(
                    "l'attaque sur {} attend la défense {}, pas la vôtre",
                    words::le(p.to),
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
            seats: self.board[p.to].owner.map(|_| (att, def)),
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
