//! The refusals the checks share, worded in both languages, and the options a game
//! cannot be set up with.

use crate::cards::CardRef;
use crate::map::{self, board};
use crate::words;
use crate::*;
use castellan_engine::board::TerritoryId;
use castellan_engine::words::{cap, refusal, refuse, refuse_bare, write, Hints};

/// "it is P1's turn to claim" / "c'est à P1 de réclamer".
pub fn not_your_turn(who: &str, en: &str, fr: &str) -> OrderError {
    refuse_bare(|l| match l {
        Lang::En => format!("it is {who}'s turn{en}"),
        Lang::Fr => format!("c'est à {who} {fr}"),
    })
}

/// Options no game can be set up with: the seat count, no armies a placement turn, a cap
/// too low for the starting armies.
pub fn refuse_options(n: usize, o: &Options) -> Result<(), OrderError> {
    if !(2..=6).contains(&n) {
        return Err(refuse_bare(|l| match l {
            Lang::En => format!("Risk is played by 2 to 6 players, not {n}"),
            Lang::Fr => format!("le Risk se joue de 2 à 6 joueurs, pas à {n}"),
        }));
    }
    if o.place_per_turn == 0 {
        return Err(refusal(
            "place_per_turn must be at least 1",
            "place_per_turn doit valoir au moins 1",
        )
        .hints(
            "use --option place-per-turn=1",
            "utilisez --option place-per-turn=1",
        ));
    }
    if (1..5).contains(&o.max_armies_per_territory) {
        return Err(refusal(
            "at most 1 to 4 armies a territory cannot hold the starting armies",
            "avec au plus 1 à 4 armées par territoire, les armées de départ ne tiennent pas",
        )
        .hints(
            "use max-armies-per-territory=12 (the optional rule) or 0 (no limit)",
            "utilisez max-armies-per-territory=12 (la règle facultative) ou 0 (pas de limite)",
        ));
    }
    Ok(())
}

impl Risk {
    pub(crate) fn place_hint(&self, seat: Seat, n: u32, l: Lang) -> String {
        let t = self
            .owned(seat)
            .into_iter()
            .find(|&t| self.room(t) >= n.max(1));
        match t {
            Some(t) => write(l, &format!("PLACE {} {}", n.max(1), map::name_in(t, l))),
            None => write(
                l,
                l.pick(
                    "PLACE 1 <one of your territories>",
                    "PLACE 1 <un de vos territoires>",
                ),
            ),
        }
    }

    pub(crate) fn check_placements(
        &self,
        seat: Seat,
        own: &Placements,
        neutral: &Placements,
    ) -> Result<(), OrderError> {
        let mut extra = vec![0u32; self.board.len()];
        for &(t, k) in own {
            if !self.owns(seat, t) {
                return Err(refuse(|l| not_yours(t, l), |l| self.place_hint(seat, k, l)));
            }
            extra[t] += k;
        }
        for &(t, k) in neutral {
            if self.board[t].owner != Owner::Neutral {
                return Err(refuse(
                    |l| match l {
                        Lang::En => format!("{} is not a neutral territory", map::name(t)),
                        Lang::Fr => {
                            format!("{} n'est pas un territoire neutre", cap(&words::le(t, l)))
                        }
                    },
                    |l| {
                        write(
                            l,
                            l.pick(
                                "PLACE 2 Alaska NEUTRAL 1 <a neutral territory>",
                                "PLACE 2 Alaska NEUTRE 1 <un territoire neutre>",
                            ),
                        )
                    },
                ));
            }
            extra[t] += k;
        }
        for (t, &k) in extra.iter().enumerate() {
            if k > 0 && k > self.room(t) {
                return Err(refuse(
                    |l| self.over_cap(t, l),
                    |l| {
                        l.pick(
                            "put the armies on another territory",
                            "mettez ces armées sur un autre territoire",
                        )
                        .into()
                    },
                ));
            }
        }
        Ok(())
    }

    /// "Alaska would hold more than 12 armies".
    pub(crate) fn over_cap(&self, t: TerritoryId, l: Lang) -> String {
        match l {
            Lang::En => format!(
                "{} would hold more than {} armies",
                map::name(t),
                self.cap()
            ),
            Lang::Fr => format!(
                "{} aurait plus de {}",
                cap(&words::le(t, l)),
                words::armies(self.cap(), l)
            ),
        }
    }
}

pub fn game_over() -> OrderError {
    refuse_bare(|l| l.pick("the game is over", "la partie est terminée").into())
}

/// "Alaska is not yours" / "l'Alaska ne vous appartient pas".
pub fn not_yours(t: TerritoryId, l: Lang) -> String {
    match l {
        Lang::En => format!("{} is not yours", map::name(t)),
        Lang::Fr => format!("{} ne vous appartient pas", cap(&words::le(t, l))),
    }
}

/// "Alaska does not border Peru" / "l'Alaska n'est pas adjacent au Pérou" (French:
/// "n'est pas voisin du Pérou", which needs no agreement with the article).
pub fn not_bordering(a: TerritoryId, b: TerritoryId, l: Lang) -> String {
    match l {
        Lang::En => format!("{} does not border {}", map::name(a), map::name(b)),
        Lang::Fr => format!(
            "{} ne touche pas {}",
            cap(&words::le(a, l)),
            words::le(b, l)
        ),
    }
}

/// "place exactly 2 of your armies and 1 neutral now (you wrote 3 and 0 neutral)".
pub fn placement_count_msg(l: Lang, due: (u32, u32), got: (u32, u32)) -> String {
    let ((due, due_n), (got, got_n)) = (due, got);
    let with_n = got_n > 0 || due_n > 0;
    match l {
        Lang::En => format!(
            "place exactly {due} of your armies{} now (you wrote {got}{})",
            if due_n > 0 {
                format!(" and {due_n} neutral")
            } else {
                String::new()
            },
            if with_n {
                format!(" and {got_n} neutral")
            } else {
                String::new()
            }
        ),
        Lang::Fr => format!(
            "placez maintenant exactement {due} de vos armées{} (vous en avez écrit {got}{})",
            if due_n > 0 {
                format!(" et {due_n} neutre{}", if due_n > 1 { "s" } else { "" })
            } else {
                String::new()
            },
            if with_n {
                format!(" et {got_n} neutre{}", if got_n > 1 { "s" } else { "" })
            } else {
                String::new()
            }
        ),
    }
}

/// Every territory id an order names exists (typed orders may come from stored JSON).
pub fn ids_in_range(o: &Order) -> bool {
    let n = board().len();
    let ok = |t: &TerritoryId| *t < n;
    match o {
        Order::Claim(t) | Order::Hq(t) => ok(t),
        Order::Rank(l) => l.iter().all(ok),
        Order::Place { own, neutral } => own.iter().chain(neutral.iter()).all(|p| ok(&p.0)),
        Order::Trade(refs) => refs.iter().all(|r| match r {
            CardRef::Territory(t) => ok(t),
            CardRef::Wild => true,
        }),
        Order::Attack { to, from, .. } | Order::Fortify { from, to, .. } => ok(to) && ok(from),
        Order::Defend(_) | Order::End | Order::SetDefend(_) | Order::SetNeutral(_) => true,
    }
}
