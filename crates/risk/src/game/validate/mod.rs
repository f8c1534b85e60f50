//! Every order checked completely before anything changes (`Risk::validate`): whose turn
//! and phase it is, setup claims and placements, trades, reinforcements, attacks, fortify
//! paths; each refusal says what is wrong and how to write it right.

use crate::map;
use crate::words;
use crate::*;
use castellan_engine::battle::max_defence_dice;
use castellan_engine::words::{cap, refusal, refuse, refuse_bare, write, Hints};
use refusals::*;

mod play;
pub(super) mod refusals;

impl Risk {
    /// Check an order completely; nothing changes.
    pub fn validate(&self, seat: Seat, order: &Order) -> Result<(), OrderError> {
        if self.won.is_some() || self.phase == Phase::Over {
            return Err(game_over());
        }
        if seat >= self.n() {
            return Err(refuse_bare(|l| match l {
                Lang::En => format!("there is no seat {seat}"),
                Lang::Fr => format!("il n'y a pas de place {seat}"),
            }));
        }
        if !ids_in_range(order) {
            return Err(refusal(
                "that order names a territory that does not exist",
                "cet ordre nomme un territoire qui n'existe pas",
            )
            .hints(
                "name territories as on the map",
                "nommez les territoires comme sur la carte",
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
                    return Err(refusal(
                        "territories are being drafted from ranked lists",
                        "les territoires sont répartis d'après les listes de préférence",
                    )
                    .hints(
                        "write: RANK Eastern Australia, Indonesia, New Guinea, ...",
                        "écrivez : CLASSE Australie orientale, Indonésie, Nouvelle-Guinée, ...",
                    ));
                };
                if self.players[seat].rank.is_some() {
                    return Err(refuse_bare(|l| {
                        l.pick(
                            "you have already sent your ranking",
                            "vous avez déjà envoyé votre liste",
                        )
                        .into()
                    }));
                }
                if list.is_empty() {
                    return Err(refusal("the ranking is empty", "la liste est vide").hints(
                        "write: RANK Peru, Brazil, ...",
                        "écrivez : CLASSE Pérou, Brésil, ...",
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
                return Err(refusal(
                    "a defender rolls 1 or 2 dice",
                    "le défenseur lance 1 ou 2 dés",
                )
                .hints(
                    "write: SET DEFEND 2 (or 1, or ASK)",
                    "écrivez : RÈGLE DÉFENSE 2 (ou 1, ou DEMANDE)",
                ));
            }
        }
        if matches!(order, Order::SetNeutral(_)) && !self.two_player() {
            return Err(refusal(
                "neutral armies are only in the 2-player game",
                "il n'y a d'armées neutres que dans la partie à 2 joueurs",
            )
            .hints("write: SET DEFEND 2", "écrivez : RÈGLE DÉFENSE 2"));
        }
        Ok(())
    }

    fn validate_defend(&self, seat: Seat, d: u32) -> Result<(), OrderError> {
        let ahead = (
            "set your answer in advance: SET DEFEND 2",
            "réglez votre réponse à l'avance : RÈGLE DÉFENSE 2",
        );
        let Some(b) = &self.battle else {
            return Err(refusal(
                "no attack is waiting for your dice",
                "aucune attaque n'attend vos dés",
            )
            .hints(ahead.0, ahead.1));
        };
        if b.responder != seat {
            return Err(refusal(
                "this attack is not waiting for your dice",
                "cette attaque n'attend pas vos dés",
            )
            .hints(ahead.0, ahead.1));
        }
        let max = max_defence_dice(self.board[b.to].armies, 2);
        if d == 0 || d > max {
            let held = self.board[b.to].armies;
            return Err(refuse(
                |l| match l {
                    Lang::En => format!(
                        "{} holds {held} armies: defend with 1 to {max} dice",
                        map::name(b.to)
                    ),
                    Lang::Fr => format!(
                        "{} a {} : défendez avec 1 à {max} dés",
                        cap(&words::le(b.to, l)),
                        words::armies(held, l)
                    ),
                },
                |l| write(l, &crate::orders::text_in(&Order::Defend(max), l)),
            ));
        }
        Ok(())
    }

    fn validate_claim(&self, seat: Seat, order: &Order) -> Result<(), OrderError> {
        let Order::Claim(t) = order else {
            let (en, fr) = crate::orders::hint::territory_hint(
                self,
                seat,
                ("CLAIM", "RÉCLAME"),
                (
                    "write: CLAIM <a free territory>",
                    "écrivez : RÉCLAME <un territoire libre>",
                ),
            );
            return Err(refusal(
                "territories are being claimed",
                "les territoires sont en train d'être réclamés",
            )
            .hints(en, fr));
        };
        if seat != self.to_move {
            return Err(not_your_turn(
                &self.players[self.to_move].name,
                " to claim",
                "de réclamer",
            ));
        }
        if self.board[*t].owner != Owner::Nobody {
            let free = (0..self.board.len()).find(|&x| self.board[x].owner == Owner::Nobody);
            return Err(refuse(
                |l| match l {
                    Lang::En => format!("{} is already claimed", map::name(*t)),
                    Lang::Fr => format!("{} est déjà pris", cap(&words::le(*t, l))),
                },
                |l| match free {
                    Some(f) => write(l, &crate::orders::text_in(&Order::Claim(f), l)),
                    None => write(
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
                &self.players[self.to_move].name,
                " to place",
                "de placer",
            ));
        }
        if self.phase == Phase::BlindPlace && self.players[seat].blind.is_some() {
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
                        write(
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
        let hint = crate::orders::hint::territory_hint(
            self,
            seat,
            ("HQ", "QG"),
            (
                "write: HQ <one of your territories>",
                "écrivez : QG <un de vos territoires>",
            ),
        );
        let hint = (hint.0.as_str(), hint.1.as_str());
        let Order::Hq(t) = order else {
            return Err(refusal(
                "headquarters are being chosen",
                "les quartiers généraux sont en train d'être choisis",
            )
            .hints(hint.0, hint.1));
        };
        if self.players[seat].hq.is_some() {
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
}
