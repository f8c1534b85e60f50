//! The orders of a turn in play checked: trades, reinforcements, attacks, fortifying.

use super::refusals::*;
use crate::cards::{self, Card, CardRef};
use crate::map::{self, board};
use crate::words;
use crate::*;
use castellan_engine::board::TerritoryId;
use castellan_engine::words::{cap, refusal, refuse, refuse_bare, write, Hints};

impl Risk {
    pub(crate) fn validate_play(&self, seat: Seat, order: &Order) -> Result<(), OrderError> {
        if let Some(b) = &self.battle {
            let who = &self.players[b.responder].name;
            return Err(refuse_bare(|l| match l {
                Lang::En => format!("the attack on {} waits for {who}'s dice", map::name(b.to)),
                Lang::Fr => format!(
                    "l'attaque contre {} attend les dés de {who}",
                    words::le(b.to, l)
                ),
            }));
        }
        if seat != self.to_move {
            return Err(not_your_turn(
                &self.players[self.to_move].name,
                "",
                "de jouer",
            ));
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
            _ => {
                let (en, fr) = crate::orders::hint::play_hint(self, seat);
                Err(refusal(
                    "that order is for the setting up of the game",
                    "cet ordre sert à la mise en place de la partie",
                )
                .hints(
                    format!("in play: PLACE, TRADE, ATTACK, FORTIFY or END; {en}"),
                    format!("en jeu : PLACE, ÉCHANGE, ATTAQUE, FORTIFIE ou FIN ; {fr}"),
                ))
            }
        }
    }

    pub(crate) fn validate_trade(&self, seat: Seat, refs: &[CardRef]) -> Result<(), OrderError> {
        if self.turn_state.stage != Stage::Reinforce {
            return Err(refusal(
                "sets are traded at the start of a turn (or at once after an elimination)",
                "les combinaisons s'échangent au début du tour (ou aussitôt après une élimination)",
            )
            .hints(
                "trade before your last PLACE",
                "échangez avant votre dernier PLACE",
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

    pub(crate) fn validate_reinforce(
        &self,
        seat: Seat,
        own: &Placements,
        neutral: &Placements,
    ) -> Result<(), OrderError> {
        let ts = &self.turn_state;
        let must_trade = ts.stage == Stage::Reinforce && self.players[seat].hand.len() >= 5;
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
            let e = refusal(
                "you have no armies left to place",
                "il ne vous reste aucune armée à placer",
            );
            // An attack the seat can make now, if any.
            return Err(
                match crate::orders::hint::attack_example(self, seat, &[], &[]) {
                    Some(_) => {
                        let (en, fr) = crate::orders::attack_hint(self, seat, &[], &[]);
                        e.hints(
                            format!("{en} (or FORTIFY, or END)"),
                            format!("{fr} (ou FORTIFIE, ou FIN)"),
                        )
                    }
                    None => e.hints(
                        "write: ATTACK <territory> FROM <yours>, FORTIFY or END",
                        "écrivez : ATTAQUE <territoire> DEPUIS <le vôtre>, FORTIFIE ou FIN",
                    ),
                },
            );
        }
        if must_trade {
            return Err(self.trade_first(seat));
        }
        let got: u32 = own.iter().map(|p| p.1).sum();
        if got > ts.reinforcements {
            let r = ts.reinforcements;
            return Err(refuse(
                |l| match l {
                    Lang::En => format!("you have only {} to place", words::armies(r, l)),
                    Lang::Fr => format!("vous n'avez que {} à placer", words::armies(r, l)),
                },
                |l| self.place_hint(seat, r, l),
            ));
        }
        self.check_placements(seat, own, neutral)
    }

    /// "you hold 5 cards: trade a set first".
    pub(crate) fn trade_first(&self, seat: Seat) -> OrderError {
        let k = self.players[seat].hand.len();
        refuse(
            |l| match l {
                Lang::En => format!("you hold {k} cards: trade a set first"),
                Lang::Fr => format!("vous avez {k} cartes : échangez d'abord une combinaison"),
            },
            |l| self.trade_hint(seat, l),
        )
    }

    /// Refusal of a fighting order while reinforcements are due.
    pub(crate) fn reinforce_first(&self, seat: Seat) -> OrderError {
        if self.players[seat].hand.len() >= 5 {
            return self.trade_first(seat);
        }
        let r = self.turn_state.reinforcements;
        refuse(
            |l| match l {
                Lang::En => format!("place your {} first", words::armies(r, l)),
                Lang::Fr if r == 1 => "placez d'abord votre armée".into(),
                Lang::Fr => format!("placez d'abord vos {r} armées"),
            },
            |l| self.place_hint(seat, r, l),
        )
    }

    /// What of an attack chance cannot change: its target is not already the attacker's
    /// (no roll in a player's own turn takes a territory from them) and borders `from`.
    pub(crate) fn attack_target(
        &self,
        seat: Seat,
        from: TerritoryId,
        to: TerritoryId,
    ) -> Result<(), OrderError> {
        if self.owns(seat, to) {
            return Err(refuse(
                |l| match l {
                    Lang::En => format!("{} is already yours", map::name(to)),
                    Lang::Fr => format!("{} est déjà à vous", cap(&words::le(to, l))),
                },
                |l| match crate::orders::hint::attack_example(self, seat, &[], &[from]) {
                    Some(_) => {
                        let (en, fr) = crate::orders::attack_hint(self, seat, &[], &[from]);
                        l.pick(&en, &fr).to_string()
                    }
                    None => l
                        .pick(
                            "attack a territory you do not hold",
                            "attaquez un territoire que vous ne tenez pas",
                        )
                        .into(),
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
                    Some(n) => write(
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

    pub(crate) fn validate_attack(
        &self,
        seat: Seat,
        from: TerritoryId,
        to: TerritoryId,
    ) -> Result<(), OrderError> {
        if !self.owns(seat, from) {
            // An attack of the seat's own on that target, or from its own position.
            let hint = crate::orders::attack_hint(self, seat, &[to], &[]);
            return Err(refuse(
                |l| not_yours(from, l),
                |l| l.pick(&hint.0, &hint.1).to_string(),
            ));
        }
        self.attack_target(seat, from, to)?;
        if self.board[from].armies < 2 {
            return Err(refuse(
                |l| match l {
                    Lang::En => format!(
                        "{} holds only 1 army: attack from a territory with at least 2",
                        map::name(from)
                    ),
                    Lang::Fr => format!(
                        "{} n'a qu'une armée : attaquez depuis un territoire qui en a au moins 2",
                        cap(&words::le(from, l))
                    ),
                },
                |l| match crate::orders::hint::attack_example(self, seat, &[to], &[]) {
                    Some(_) => {
                        let (en, fr) = crate::orders::attack_hint(self, seat, &[to], &[]);
                        l.pick(&en, &fr).to_string()
                    }
                    None => l
                        .pick(
                            "attack from a territory with 2 armies or more",
                            "attaquez depuis un territoire de 2 armées ou plus",
                        )
                        .into(),
                },
            ));
        }
        Ok(())
    }

    pub(crate) fn validate_attack_options(
        &self,
        reroll: bool,
        commander: bool,
    ) -> Result<(), OrderError> {
        if reroll && !self.opts.reroll {
            return Err(refusal(
                "the re-roll rule is not in play in this game",
                "la règle de la relance n'est pas en jeu dans cette partie",
            )
            .hints("leave out REROLL", "retirez RELANCE"));
        }
        if commander && !self.opts.commander {
            return Err(refusal(
                "the commander rule is not in play in this game",
                "la règle des commandants n'est pas en jeu dans cette partie",
            )
            .hints("leave out COMMANDER", "retirez COMMANDANT"));
        }
        Ok(())
    }

    pub(crate) fn validate_fortify(
        &self,
        seat: Seat,
        from: TerritoryId,
        to: TerritoryId,
        armies: u32,
    ) -> Result<(), OrderError> {
        // A move the seat can make now, near the one it wrote.
        let (en, fr) =
            crate::orders::hint::fortify_hint_now(self, seat, &[to], &[from]).unwrap_or((
                "no move of yours can be made now: write: END".into(),
                "aucun déplacement ne vous est possible maintenant : écrivez : FIN".into(),
            ));
        let hint = |l: Lang| l.pick(&en, &fr).to_string();
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
        let held = self.board[from].armies;
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
                        cap(&words::le(from, l)),
                        words::armies(held, l),
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

    pub(crate) fn check_fortify_path(
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
                    words::le(from, l),
                    words::le(to, l)
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
            |l| match crate::orders::hint::fortify_hint_now(self, seat, &[to], &[from]) {
                Some((en, fr)) => l.pick(&en, &fr).to_string(),
                None => l
                    .pick(
                        "move between adjacent territories of yours",
                        "déplacez entre deux de vos territoires adjacents",
                    )
                    .into(),
            },
        ))
    }

    pub(crate) fn check_fighting_stage(&self, seat: Seat) -> Result<(), OrderError> {
        match self.turn_state.stage {
            Stage::Reinforce => Err(self.reinforce_first(seat)),
            Stage::Fortify => Err(refusal(
                "after fortifying you may only fortify again or END",
                "après une fortification, vous ne pouvez que fortifier encore ou FIN",
            )
            .hints("write: END", "écrivez : FIN")),
            Stage::Attack => Ok(()),
        }
    }

    /// A chain of `seat`'s territories joins `a` to `b`.
    pub fn connected(&self, seat: Seat, a: TerritoryId, b: TerritoryId) -> bool {
        let mut seen = vec![false; self.board.len()];
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
    /// The cards an order names, from `seat`'s hand.
    pub fn cards_for(&self, seat: Seat, refs: &[CardRef]) -> Result<Vec<Card>, OrderError> {
        let hand = &self.players[seat].hand;
        let mut out: Vec<Card> = Vec::new();
        for r in refs {
            let c = match r {
                CardRef::Territory(t) => {
                    if !hand.contains(t) || out.contains(t) {
                        return Err(refuse(
                            |l| match l {
                                Lang::En => format!("you do not hold the {} card", map::name(*t)),
                                Lang::Fr => {
                                    format!("vous n'avez pas la carte {}", map::name_in(*t, l))
                                }
                            },
                            |l| self.trade_hint(seat, l),
                        ));
                    }
                    *t
                }
                CardRef::Wild => match hand
                    .iter()
                    .find(|c| cards::is_wild(**c) && !out.contains(c))
                {
                    Some(c) => *c,
                    None => {
                        return Err(refuse(
                            |l| {
                                l.pick(
                                    "you hold no (more) wild card",
                                    "vous n'avez pas (ou plus) de carte passe-partout",
                                )
                                .into()
                            },
                            |l| self.trade_hint(seat, l),
                        ))
                    }
                },
            };
            out.push(c);
        }
        Ok(out)
    }

    pub fn trade_hint(&self, seat: Seat, l: Lang) -> String {
        let held = |t: usize| self.owns(seat, t);
        match cards::sets_in(&self.players[seat].hand, &held).first() {
            Some(set) => write(l, &crate::orders::trade_text_in(set, l)),
            None => l
                .pick(
                    "you hold no set: three alike, one of each, or two and a wild card",
                    "vous n'avez aucune combinaison : trois pareilles, une de chaque, ou deux et un passe-partout",
                )
                .into(),
        }
    }
}
