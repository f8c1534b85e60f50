//! Attacks by land and sea: the territories, the General and the engine's attack plan.

use super::*;
use castellan_engine::words::joined;

/// Where the plan starts, the General (`GENERAL`, `GENERAL AGAIN`, `GENERAL ONCE`) and the
/// plan's words.
fn split_plan(ws: &[(String, String)]) -> (usize, bool, Option<bool>, Vec<String>) {
    let cut = ws
        .iter()
        .position(|w| PLAN_WORDS.contains(&w.1.as_str()))
        .unwrap_or(ws.len());
    let mut general = false;
    let mut again = None;
    let mut plan = Vec::new();
    for w in &ws[cut..] {
        match w.1.as_str() {
            "GENERAL" => general = true,
            "AGAIN" if general => again = Some(true),
            "ONCE" if general => again = Some(false),
            _ => plan.push(w.1.clone()),
        }
    }
    (cut, general, again, plan)
}

/// The engine's attack plan, its errors worded in both languages.
fn plan(words: &[String]) -> Result<AttackPlan, OrderError> {
    let pw: Vec<&str> = words.iter().map(|s| s.as_str()).collect();
    AttackPlan::parse(&pw).map_err(|e| {
        OrderError::new(e.to_string())
            .hint(assault::HOW)
            .fr(plan_error_fr(&e))
            .hint_fr(PLAN_HOW_FR)
    })
}

const PLAN_HOW_FR: &str = "après les territoires écrivez JUSQU'À CONQUÊTE, JUSQU'À 3 RESTANTS, POUR 2 LANCERS, AVEC 2 DÉS, PUIS DÉPLACER 4, DÉPLACER TOUT ou LAISSER 2";

/// An attack plan's error in French.
fn plan_error_fr(e: &PlanError) -> String {
    match e {
        PlanError::NumberMissing { after } => {
            format!("il manque un nombre après {}", kw(Lang::Fr, after))
        }
        PlanError::UntilWithoutLeft(n) => format!("JUSQU'À {n} doit être suivi de RESTANTS"),
        PlanError::UntilWhat => "JUSQU'À demande CONQUÊTE ou un nombre d'armées RESTANTS".into(),
        PlanError::ForNoRolls => "POUR 0 LANCERS n'attaquerait pas du tout".into(),
        PlanError::Dice(n) => format!("{n} dés : l'attaquant lance de 1 à 3 dés"),
        PlanError::NotUnderstood(w) => format!(
            "je ne comprends pas « {} » dans une attaque",
            kw(Lang::Fr, w)
        ),
    }
}

pub(super) fn parse_attack(
    g: &CastleRisk,
    seat: Seat,
    rest: &[(String, String)],
) -> Result<Order, OrderError> {
    let Some(fi) = rest.iter().position(|w| w.1 == "FROM") else {
        let (en, fr) = attack_hint(g, seat, &[], &[]);
        return Err(refusal(
            "say where the attack comes from",
            "dites d'où part l'attaque",
        )
        .hints(en, fr));
    };
    let after = &rest[fi + 1..];
    let (cut, general, again, plan_words) = split_plan(after);
    // Both names read before either is refused: a line with both wrong is told both.
    let to = resolve(&join(&rest[..fi]));
    let from = resolve(&join(&after[..cut]));
    let (to, from) = match (to, from) {
        (Ok(to), Ok(from)) => (to, from),
        (to, from) => {
            let (en, fr) = attack_hint(g, seat, &map().board.meant(&to), &map().board.meant(&from));
            let refused = |e: NameError| name_refused(&e, &en, &fr);
            return Err(match (to, from) {
                (Err(a), Err(b)) => joined(refused(a), [refused(b)]),
                (Err(e), _) | (_, Err(e)) => refused(e),
                (Ok(_), Ok(_)) => unreachable!("matched above"),
            });
        }
    };
    let plan = plan(&plan_words)?;
    Ok(Order::Attack {
        to,
        from,
        plan,
        general,
        again,
    })
}

/// An attack `seat` could write now, for a hint ([`castellan_engine::board::Board::attack_example`]):
/// on a territory another player holds, one the seat has no truce with.
pub(crate) fn attack_example(g: &CastleRisk, seat: Seat, to: &[T], from: &[T]) -> Option<(T, T)> {
    map().board.attack_example(
        to,
        from,
        |t| g.board[t].owner == Some(seat),
        |t| {
            g.board[t]
                .owner
                .is_some_and(|o| o != seat && !g.truce_between(seat, o))
        },
        |t| g.board[t].armies,
    )
}

/// "write: ATTACK Bohemia FROM Saxony UNTIL CONQUERED" with an attack the seat can make
/// ([`attack_example`]); the rules' example when it has none.
pub(crate) fn attack_hint(g: &CastleRisk, seat: Seat, to: &[T], from: &[T]) -> (String, String) {
    attack_hint_now(g, seat, to, from).unwrap_or((ATTACK_HINT.into(), ATTACK_HINT_FR.into()))
}

/// "write: ATTACK Bohemia FROM Saxony UNTIL CONQUERED" with an attack the seat can make
/// ([`attack_example`]); `None` when it can make none (a refusal then keeps its own words).
pub(crate) fn attack_hint_now(
    g: &CastleRisk,
    seat: Seat,
    to: &[T],
    from: &[T],
) -> Option<(String, String)> {
    let (to, from) = attack_example(g, seat, to, from)?;
    Some((
        format!(
            "write: ATTACK {} FROM {} UNTIL CONQUERED",
            tn(to, Lang::En),
            tn(from, Lang::En)
        ),
        format!(
            "écrivez : ATTAQUE {} DEPUIS {} JUSQU'À CONQUÊTE",
            tn(to, Lang::Fr),
            tn(from, Lang::Fr)
        ),
    ))
}

pub(super) fn parse_sail(
    g: &CastleRisk,
    seat: Seat,
    rest: &[(String, String)],
) -> Result<Order, OrderError> {
    // The hint: a crossing the seat can make, near the names it gave where they read.
    let names = |r: &[(String, String)]| {
        let fi = r.iter().position(|w| w.1 == "FROM")?;
        let ti = r.iter().position(|w| w.1 == "TO").filter(|&ti| ti > fi)?;
        let after = &r[ti + 1..];
        let (cut, ..) = split_plan(after);
        Some((
            resolve(&join(&after[..cut])),
            resolve(&join(&r[fi + 1..ti])),
        ))
    };
    let (to, from) = match names(rest) {
        Some((to, from)) => (map().board.meant(&to), map().board.meant(&from)),
        None => (vec![], vec![]),
    };
    let hint = super::hint::sail_hint(g, seat, &to, &from);
    let hint = (hint.0.as_str(), hint.1.as_str());
    let armies = number(
        rest.first(),
        (
            "SAIL (the armies that board)",
            "AMIRAL (les armées qui embarquent)",
        ),
        hint,
    )?;
    let r = &rest[1..];
    let r = if matches!(
        r.first().map(|w| normalize(&w.0)).as_deref(),
        Some("armies" | "armees")
    ) {
        &r[1..]
    } else {
        r
    };
    if r.first().map(|w| w.1.as_str()) != Some("FROM") {
        return Err(refusal(
            "say the port the armies board at",
            "dites le port où les armées embarquent",
        )
        .hints(hint.0, hint.1));
    }
    let Some(ti) = r.iter().position(|w| w.1 == "TO") else {
        return Err(refusal(
            "say the territory attacked by sea",
            "dites le territoire attaqué par la mer",
        )
        .hints(hint.0, hint.1));
    };
    let from = tres(&join(&r[1..ti]), hint.0, hint.1)?;
    let after = &r[ti + 1..];
    let (cut, general, again, pw) = split_plan(after);
    let to = tres(&join(&after[..cut]), hint.0, hint.1)?;
    let plan = plan(&pw)?;
    if plan.until != castellan_engine::assault::Until::Conquered
        || plan.move_in != castellan_engine::assault::MoveIn::Least
    {
        return Err(refusal(
            "an Admiral's attack goes on to the end and every survivor lands",
            "l'attaque d'un Amiral va jusqu'au bout et tous les survivants débarquent",
        )
        .hints(
            format!("only WITH n DICE and GENERAL may follow; {}", hint.0),
            format!("seuls AVEC n DÉS et GÉNÉRAL peuvent suivre ; {}", hint.1),
        ));
    }
    Ok(Order::Sail {
        armies,
        from,
        to,
        dice: plan.dice,
        general,
        again,
    })
}
