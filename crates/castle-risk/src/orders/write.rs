//! Orders written back as a player writes them, in English or French.

use super::*;

/// The order as a player writes it; `parse(order_text(o)) == o`.
pub fn order_text(g: &CastleRisk, o: &Order) -> String {
    order_text_in(g, o, Lang::En)
}

/// The attack plan as written in `lang` (empty for the default).
pub fn plan_text(plan: &AttackPlan, lang: Lang) -> String {
    crate::words::kw_line(lang, &plan.text())
}

/// The order as a reader of `lang` writes it (French keywords and names in French);
/// `parse(order_text_in(o, lang)) == o` in both languages.
pub fn order_text_in(g: &CastleRisk, o: &Order, lang: Lang) -> String {
    let t = |t: &T| tn(*t, lang).to_string();
    let k = |w: &'static str| kw(lang, w);
    let list = |l: &[T]| l.iter().map(t).collect::<Vec<_>>().join(", ");
    match o {
        Order::Castle(x) => format!("{} {}", k("CASTLE"), t(x)),
        Order::Claim(x) => format!("{} {}", k("CLAIM"), t(x)),
        Order::Rank(l) if l.is_empty() => k("RANK").into(),
        Order::Rank(l) => format!("{} {}", k("RANK"), list(l)),
        Order::Place(p) => format!(
            "{} {}",
            k("PLACE"),
            p.iter()
                .map(|(x, n)| format!("{n} {}", t(x)))
                .collect::<Vec<_>>()
                .join(", ")
        ),
        Order::Hide(x) => format!("{} {}", k("HIDE"), t(x)),
        Order::Reinforce(n) => format!("{} {n}", k("REINFORCE")),
        Order::Truce(s) => format!("{} {}", k("TRUCE"), g.name(*s)),
        Order::Spy { target, prefer } if prefer.is_empty() => {
            format!("{} {}", k("SPY"), g.name(*target))
        }
        Order::Spy { target, prefer } => format!(
            "{} {} {} {}",
            k("SPY"),
            g.name(*target),
            k("DISCARD"),
            prefer
                .iter()
                .map(|c| c.name_in(lang))
                .collect::<Vec<_>>()
                .join(", ")
        ),
        Order::Reveal(None) => k("REVEAL").into(),
        Order::Reveal(Some(x)) => format!("{} {}", k("REVEAL"), t(x)),
        Order::Attack { .. } | Order::Sail { .. } => attack_text(o, lang),
        _ => answer_text(o, lang),
    }
}

/// An attack by land or sea, with its plan and General.
fn attack_text(o: &Order, lang: Lang) -> String {
    let t = |t: &T| tn(*t, lang).to_string();
    let k = |w: &'static str| kw(lang, w);
    let with_plan = |base: String, plan: &AttackPlan, general: bool, again: Option<bool>| {
        let mut s = base;
        let p = plan_text(plan, lang);
        if !p.is_empty() {
            s.push(' ');
            s.push_str(&p);
        }
        if general {
            s.push(' ');
            s.push_str(k("GENERAL"));
            match again {
                Some(true) => s.push_str(&format!(" {}", k("AGAIN"))),
                Some(false) => s.push_str(&format!(" {}", k("ONCE"))),
                None => {}
            }
        }
        s
    };
    match o {
        Order::Attack {
            to,
            from,
            plan,
            general,
            again,
        } => with_plan(
            format!("{} {} {} {}", k("ATTACK"), t(to), k("FROM"), t(from)),
            plan,
            *general,
            *again,
        ),
        Order::Sail {
            armies,
            from,
            to,
            dice,
            general,
            again,
        } => {
            let plan = AttackPlan {
                dice: *dice,
                ..AttackPlan::default()
            };
            with_plan(
                format!(
                    "{} {armies} {} {} {} {}",
                    k("SAIL"),
                    k("FROM"),
                    t(from),
                    k("TO"),
                    t(to)
                ),
                &plan,
                *general,
                *again,
            )
        }
        _ => String::new(),
    }
}

/// The end of a turn, and the answers out of turn: occupation, annexation, defence,
/// counter-Spy, standing orders.
fn answer_text(o: &Order, lang: Lang) -> String {
    let t = |t: &T| tn(*t, lang).to_string();
    let k = |w: &'static str| kw(lang, w);
    match o {
        Order::End => k("END").into(),
        Order::Occupy(OccupyWhat::All) => format!("{} {}", k("OCCUPY"), k("ALL")),
        Order::Occupy(OccupyWhat::Pass) => k("PASS").into(),
        Order::Occupy(OccupyWhat::One { t: x, from: None }) => format!("{} {}", k("OCCUPY"), t(x)),
        Order::Occupy(OccupyWhat::One {
            t: x,
            from: Some(f),
        }) => format!("{} {} {} {}", k("OCCUPY"), t(x), k("FROM"), t(f)),
        Order::Annex { t: x, from: None } => format!("{} {}", k("ANNEX"), t(x)),
        Order::Annex {
            t: x,
            from: Some(f),
        } => format!("{} {} {} {}", k("ANNEX"), t(x), k("FROM"), t(f)),
        Order::Defend {
            dice,
            marshal,
            reveal,
        } => {
            let mut s = format!("{} {dice}", k("DEFEND"));
            if *marshal {
                s.push(' ');
                s.push_str(k("MARSHAL"));
            }
            if *reveal {
                s.push(' ');
                s.push_str(k("REVEAL"));
            }
            s
        }
        Order::CounterSpy(true) => k("COUNTERSPY").into(),
        Order::CounterSpy(false) => k("NO COUNTERSPY").into(),
        Order::Set(s) => s.text_in(lang),
        _ => String::new(),
    }
}
