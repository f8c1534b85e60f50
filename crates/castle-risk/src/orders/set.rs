//! Standing orders (`SET ...`).

use super::*;

fn set_policy_err(en: &str, fr: &str, hint_en: &str, hint_fr: &str) -> OrderError {
    refusal(en, fr).hints(hint_en, hint_fr)
}

pub(super) fn parse_set(rest: &[(String, String)]) -> Result<SetOrder, OrderError> {
    let hint = (
        "write: SET DEFEND 2, SET MARSHAL WHEN 3+, SET COUNTERSPY ALWAYS, SET REVEAL ON ATTACK, SET ANNEX AUTO, SET REOCCUPY ALL",
        "écrivez : CONSIGNE DÉFENDRE 2, CONSIGNE MARÉCHAL QUAND 3+, CONSIGNE CONTRE-ESPION TOUJOURS, CONSIGNE DÉVOILER SUR ATTAQUE, CONSIGNE ANNEXER AUTO, CONSIGNE RÉOCCUPER TOUT",
    );
    let Some(what) = rest.first() else {
        return Err(refusal("SET what?", "CONSIGNE pour quoi ?").hints(hint.0, hint.1));
    };
    let args = &rest[1..];
    let a0 = args.first().map(|w| w.1.as_str());
    let when_n = |args: &[(String, String)]| -> Result<u32, OrderError> {
        number(args.get(1), ("WHEN", "QUAND"), hint)
    };
    let s = match what.1.as_str() {
        "DEFEND" => SetOrder::Defend(number(
            args.first(),
            ("SET DEFEND", "CONSIGNE DÉFENDRE"),
            ("write: SET DEFEND 2", "écrivez : CONSIGNE DÉFENDRE 2"),
        )?),
        "MARSHAL" => SetOrder::Marshal(match a0 {
            Some("ALWAYS") => MarshalPolicy::Always,
            Some("NEVER") | Some("NO") => MarshalPolicy::Never,
            Some("WHEN") => MarshalPolicy::When(when_n(args)?.max(1)),
            _ => {
                return Err(set_policy_err(
                    "SET MARSHAL needs ALWAYS, NEVER or WHEN n+",
                    "CONSIGNE MARÉCHAL demande TOUJOURS, JAMAIS ou QUAND n+",
                    "write: SET MARSHAL WHEN 3+",
                    "écrivez : CONSIGNE MARÉCHAL QUAND 3+",
                ))
            }
        }),
        "COUNTERSPY" => SetOrder::CounterSpy(match a0 {
            Some("ALWAYS") => true,
            Some("NEVER") | Some("NO") => false,
            _ => {
                return Err(set_policy_err(
                    "SET COUNTERSPY needs ALWAYS or NEVER",
                    "CONSIGNE CONTRE-ESPION demande TOUJOURS ou JAMAIS",
                    "write: SET COUNTERSPY ALWAYS",
                    "écrivez : CONSIGNE CONTRE-ESPION TOUJOURS",
                ))
            }
        }),
        "REVEAL" => SetOrder::Reveal(match a0 {
            Some("NEVER") | Some("NO") => RevealPolicy::Never,
            Some("ON") | Some("ALWAYS") => RevealPolicy::OnAttack(1),
            Some("WHEN") => RevealPolicy::OnAttack(when_n(args)?.max(1)),
            _ => {
                return Err(set_policy_err(
                    "SET REVEAL needs ON ATTACK, NEVER or WHEN n+",
                    "CONSIGNE DÉVOILER demande SUR ATTAQUE, JAMAIS ou QUAND n+",
                    "write: SET REVEAL ON ATTACK",
                    "écrivez : CONSIGNE DÉVOILER SUR ATTAQUE",
                ))
            }
        }),
        "ANNEX" => match a0 {
            Some("AUTO") | None => SetOrder::Annex(vec![]),
            _ => SetOrder::Annex(territory_list(&join(args))?),
        },
        "REOCCUPY" | "OCCUPY" => SetOrder::Reoccupy(match a0 {
            Some("ALL") => Some(true),
            Some("NONE") | Some("NEVER") => Some(false),
            Some("ASK") => None,
            _ => {
                return Err(set_policy_err(
                    "SET REOCCUPY needs ALL, NONE or ASK",
                    "CONSIGNE RÉOCCUPER demande TOUT, AUCUN ou DEMANDER",
                    "write: SET REOCCUPY ALL",
                    "écrivez : CONSIGNE RÉOCCUPER TOUT",
                ))
            }
        }),
        "GENERAL" => SetOrder::General(match a0 {
            Some("AGAIN") => true,
            Some("ONCE") => false,
            _ => {
                return Err(set_policy_err(
                    "SET GENERAL needs AGAIN or ONCE",
                    "CONSIGNE GÉNÉRAL demande ENCORE ou SEUL",
                    "write: SET GENERAL AGAIN (another General when one is beaten) or SET GENERAL ONCE",
                    "écrivez : CONSIGNE GÉNÉRAL ENCORE (un autre Général quand l'un est battu) ou CONSIGNE GÉNÉRAL SEUL",
                ))
            }
        }),
        "ASK" => SetOrder::Ask,
        other => {
            return Err(refusal(
                format!("there is no standing order \"{other}\""),
                format!("il n'y a pas de consigne « {} »", what.0),
            )
            .hints(hint.0, hint.1))
        }
    };
    Ok(s)
}

/// A standing order as written (`SET DEFEND 1`, or its French): how an older build stored
/// the standing orders its events noted.
pub fn parse_standing(line: &str) -> Result<SetOrder, OrderError> {
    let ws = words(line);
    match ws.split_first() {
        Some((first, rest)) if first.1 == "SET" => parse_set(rest),
        _ => Err(refusal("not a standing order", "pas une consigne")),
    }
}
