//! Dice peeking, as attacks on every game (docs/rules/dice.md): a mail whose
//! orders are refused must not show a die (or a hidden draw) that does not count, and
//! CHECK shows legality only. Each test runs on all four games, at states found by bots
//! where the seat to move has an order that rolls dice.
//!
//! The proof is by comparison: two copies of one game differ only in their master secret
//! (same board, hands and history; different dice from here on). A reply that is the same
//! on both copies tells nothing about the dice to come.

use castellan_engine::{Lang, Secret, Session};

/// Castello rolls no die once set up (docs/rules/castello.md): its states are any states.
const NO_DICE: &str = "castello";

/// A game of `info` after bots have played until the seat to move has an order that rolls
/// dice (Castello: any order); that seat and the line. `skip` such states are passed over
/// first.
fn dice_state(g: usize, skip: usize) -> Option<(Box<dyn Session>, usize, String)> {
    let info = castellan::games::all()[g];
    let players = (1..=info.min_seats.max(2).min(info.max_seats))
        .map(|i| format!("P{i}"))
        .collect();
    let mut s = (info.create)(
        &format!("peek-{g}"),
        Secret::derive(format!("peek/{g}").as_bytes()),
        players,
        &[],
    )
    .ok()?;
    let mut found = 0;
    for _ in 0..3000 {
        if s.outcome().is_some() {
            return None;
        }
        let seat = *s.awaiting().first()?;
        let line = s.bot_text(seat);
        let mut probe = copy(&*s, None);
        if let Ok(n) = probe.submit(seat, &line, Lang::En) {
            assert!(
                info.name != NO_DICE || n.rolls.is_empty(),
                "Castello rolled a die in play"
            );
            if !n.rolls.is_empty() || (info.name == NO_DICE && s.history_len() > 1) {
                if found == skip {
                    return Some((s, seat, line));
                }
                found += 1;
            }
        }
        s.play_bot(seat).ok()?;
    }
    None
}

/// A copy of the game through its stored form; with `secret`, the same game with another
/// master secret: everything already decided is the same, every die to come differs.
fn copy(s: &dyn Session, secret: Option<&str>) -> Box<dyn Session> {
    let mut json = s.to_json().unwrap();
    if let Some(label) = secret {
        json["dice"]["master"] = serde_json::Value::String(Secret::derive(label.as_bytes()).hex());
    }
    let info = castellan::games::find(s.game()).unwrap();
    (info.load_json)(json).unwrap()
}

fn json(s: &dyn Session) -> String {
    s.to_json().unwrap().to_string()
}

/// Every game of the registry, by its index there.
fn games() -> std::ops::Range<usize> {
    0..castellan::games::all().len()
}

/// The attack: a refused line, then a line that rolls dice, then lines that are legal only
/// if those dice fell as they will (worked out on a copy, as a player guessing would). The
/// refusal must be the same whatever the dice, and change nothing: nothing can be learnt
/// from it about the dice to come.
#[test]
fn a_refused_mail_does_not_show_dice_it_does_not_count() {
    for g in games() {
        for skip in 0..5 {
            let Some((s, seat, line)) = dice_state(g, skip) else {
                panic!("game {g}: no state with a dice-rolling order found");
            };
            // What a player who knew these dice would send next.
            let mut knows = copy(&*s, None);
            let _ = knows.submit(seat, &line, Lang::En);
            let next = knows.bot_turn(seat, 6).join("\n");
            let mail = format!("this is no order\n{line}\n{next}");
            let mut a = copy(&*s, None);
            let mut b = copy(&*s, Some("other dice"));
            let (before_a, before_b) = (json(&*a), json(&*b));
            let ra = format!("{:?}", a.submit(seat, &mail, Lang::En));
            let rb = format!("{:?}", b.submit(seat, &mail, Lang::En));
            assert!(ra.starts_with("Err"), "{}: {ra}", s.game());
            assert_eq!(
                ra,
                rb,
                "{}: the refusal depends on dice not yet rolled",
                s.game()
            );
            assert_eq!(
                json(&*a),
                before_a,
                "{}: a refused mail changed the game",
                s.game()
            );
            assert_eq!(json(&*b), before_b);
        }
    }
}

/// The attack itself: good lines that roll dice, then a refused line. Whatever the
/// reply shows of those dice counts: the game is exactly as if the lines before the
/// refused one had been sent alone (so the next mail rolls the dice that mail would), and
/// the dice audit still replays it.
#[test]
fn a_refused_mail_counts_every_die_it_shows() {
    for g in games() {
        for skip in 0..5 {
            let (s, seat, line) = dice_state(g, skip).expect("a dice state");
            // The nonsense sits between orders: refused (a line after the last order that
            // is no order at all would only be ignored).
            let mail = format!("{line}\n{line}\nthis is no order\n{line}");
            let mut sent = copy(&*s, None);
            let refused = sent.submit(seat, &mail, Lang::En).unwrap_err();
            if s.game() == NO_DICE {
                // No die: all or nothing.
                assert!(refused.stood.is_empty(), "{}", s.game());
                continue;
            }
            assert!(
                !refused.stood.is_empty(),
                "{}: the first line rolled dice, so it stands",
                s.game()
            );
            let prefix: Vec<&str> = mail
                .lines()
                .enumerate()
                .filter(|(i, _)| refused.stood.contains(&(i + 1)))
                .map(|(_, l)| l)
                .collect();
            let mut alone = copy(&*s, None);
            let n = alone.submit(seat, &prefix.join("\n"), Lang::En).unwrap();
            assert_eq!(*refused.narration, n, "{}", s.game());
            assert_eq!(json(&*sent), json(&*alone), "{}", s.game());
            sent.verify().unwrap();
        }
    }
}

/// CHECK on lines that roll dice (or draw hidden cards) gives the same answer whatever the
/// dice, and never says what a legal line would do.
#[test]
fn check_shows_legality_never_an_outcome() {
    for g in games() {
        for skip in 0..3 {
            let (s, seat, line) = dice_state(g, skip).expect("a dice state");
            let text = format!("{line}\n{line}\nthis is no order");
            let a = copy(&*s, None).check(seat, &text, Lang::En);
            let b = copy(&*s, Some("other dice")).check(seat, &text, Lang::En);
            // (A legal line's verdict is `LineVerdict::Ok` alone: no outcome can be told.)
            assert_eq!(a, b, "{}", s.game());
        }
    }
}

/// CHECK never shows a hidden fact: for every legal order a bot would send through a
/// whole game, CHECK's answer is the same on two copies with different secrets (hands
/// drawn from here on, reveals) and carries no narration.
#[test]
fn check_shows_no_hidden_fact() {
    for g in games() {
        let info = castellan::games::all()[g];
        let players = (1..=info.min_seats.max(2).min(info.max_seats))
            .map(|i| format!("P{i}"))
            .collect();
        let mut s = (info.create)("hid-1", Secret::derive(b"hid"), players, &[]).unwrap();
        for _ in 0..400 {
            if s.outcome().is_some() {
                break;
            }
            let seat = s.awaiting()[0];
            let line = s.bot_text(seat);
            let a = copy(&*s, None).check(seat, &line, Lang::En);
            let b = copy(&*s, Some("other")).check(seat, &line, Lang::En);
            assert_eq!(a, b, "{}: {line}", s.game());
            s.play_bot(seat).unwrap();
        }
    }
}

// ------------------------------------------------------------------ others' holdings

/// A copy of the game with its history cut to the last entry (CHECK and a refused mail
/// look at the state and what the mail adds; loading stays cheap).
fn trimmed(s: &dyn Session) -> serde_json::Value {
    let mut json = s.to_json().unwrap();
    let len = s.history_len();
    if let Some(h) = json["history"].as_array_mut() {
        let last = h.pop().unwrap();
        *h = vec![last];
        json["base"] = serde_json::json!(len - 1);
    }
    json
}

/// `json` with hand `hand`'s first card swapped for each distinct kind of card in `pile`
/// (at most `max` of them): every other card a hidden hand could hold there.
fn swap_variants(
    json: &serde_json::Value,
    hand: &[&str],
    pile: &str,
    max: usize,
) -> Vec<serde_json::Value> {
    let mut out = Vec::new();
    let get = |j: &serde_json::Value| -> Option<serde_json::Value> {
        let mut v = &j["state"];
        for k in hand {
            v = match k.parse::<usize>() {
                Ok(i) => &v[i],
                Err(_) => &v[*k],
            };
        }
        Some(v.clone())
    };
    let Some(held) = get(json).and_then(|h| h.as_array().cloned()) else {
        return out;
    };
    let Some(first) = held.first() else {
        return out;
    };
    let piles = json["state"][pile].as_array().cloned().unwrap_or_default();
    let mut seen = vec![first.clone()];
    for (i, c) in piles.iter().enumerate() {
        if seen.contains(c) || out.len() >= max {
            continue;
        }
        seen.push(c.clone());
        let mut j = json.clone();
        j["state"][pile][i] = first.clone();
        let mut v = &mut j["state"];
        for k in hand {
            v = match k.parse::<usize>() {
                Ok(n) => &mut v[n],
                Err(_) => &mut v[*k],
            };
        }
        v[0] = c.clone();
        out.push(j);
    }
    out
}

/// Every hidden holding of the seats other than `seat` this test sets up, as stored
/// states: hands (each other kind of card from the pile in place of one), Castle Risk's
/// unused hidden armies moved to each other territory of their owner, Risk's secret
/// headquarters likewise, Castrum's standing answers to attacks. Castello has none.
fn others_holdings(s: &dyn Session, seat: usize) -> Vec<serde_json::Value> {
    let json = trimmed(s);
    let n = s.players().len();
    let mut out = vec![json.clone()];
    for k in (0..n).filter(|k| *k != seat) {
        let ks = k.to_string();
        match s.game() {
            "castle-risk" => {
                out.extend(swap_variants(&json, &["players", &ks, "hand"], "pile", 6));
                let board = json["state"]["board"]
                    .as_array()
                    .cloned()
                    .unwrap_or_default();
                let owned: Vec<usize> = (0..board.len())
                    .filter(|t| board[*t]["owner"] == serde_json::json!(k))
                    .collect();
                let hidden = json["state"]["players"][k]["hidden"]
                    .as_array()
                    .cloned()
                    .unwrap_or_default();
                for (h, slot) in hidden.iter().enumerate() {
                    if slot["used"] == serde_json::json!(true) {
                        continue;
                    }
                    for t in owned.iter().take(6) {
                        let mut j = json.clone();
                        j["state"]["players"][k]["hidden"][h]["territory"] = serde_json::json!(t);
                        out.push(j);
                    }
                }
            }
            "risk" => {
                out.extend(swap_variants(&json, &["hands", &ks], "deck", 6));
                if json["state"]["hq_revealed"] == serde_json::json!(false)
                    && !json["state"]["hq"][k].is_null()
                {
                    let owner = json["state"]["owner"]
                        .as_array()
                        .cloned()
                        .unwrap_or_default();
                    for t in (0..owner.len())
                        .filter(|t| owner[*t] == serde_json::json!({ "Seat": k }))
                        .take(6)
                    {
                        let mut j = json.clone();
                        j["state"]["hq"][k] = serde_json::json!(t);
                        out.push(j);
                    }
                }
            }
            "castrum" => {
                out.extend(swap_variants(&json, &["hands", &ks], "pile", 13));
                for p in ["Always", "Ask", "Never"] {
                    let mut j = json.clone();
                    j["state"]["defend"][k] = serde_json::json!(p);
                    out.push(j);
                }
            }
            _ => {}
        }
    }
    out
}

/// What the sender of a refused mail is told: which lines stood, which were refused and
/// why, which were not checked. Once a line stands, what it did is learnt by playing it
/// (its narration, and what the lines after it meet): then only which lines stood and the
/// first refusal count.
fn refusal(s: &mut dyn Session, seat: usize, text: &str) -> String {
    match s.submit(seat, text, Lang::En) {
        Ok(_) => "accepted".to_string(),
        Err(r) if !r.stood.is_empty() => {
            format!("stood {:?}; first error {:?}", r.stood, r.errors.first())
        }
        Err(r) => format!(
            "stood {:?}; errors {:?}; unchecked {:?}",
            r.stood, r.errors, r.unchecked
        ),
    }
}

/// docs/rules/dice.md, "CHECK shows legality, never an outcome" ("no hand, no hidden
/// army") and rule 1 ("all or nothing until chance speaks": a hand is not chance): in
/// every game, at states found by bots, the seat to move sends CHECK and refused mails of
/// the lines it is offered and its bot's line; every answer is the same whatever the
/// other seats hold unseen (hands, hidden armies, headquarters, standing answers).
/// Castrum's CHECK `PLAY Mage ON Bot1` said "ok" when Bot1 held no
/// Reliques and "dice decide" when they did.
#[test]
fn check_and_refusals_are_the_same_whatever_the_others_hold() {
    for g in games() {
        let info = castellan::games::all()[g];
        let seats = 3.clamp(info.min_seats, info.max_seats);
        let players = (1..=seats).map(|i| format!("P{i}")).collect();
        let options: &[(String, String)] = if info.name == "risk" {
            &[("headquarters".to_string(), "all".to_string())]
        } else {
            &[]
        };
        let mut s = (info.create)(
            &format!("held-{g}"),
            Secret::derive(format!("held/{g}").as_bytes()),
            players,
            options,
        )
        .unwrap();
        let mut compared = 0;
        for step in 0..240 {
            if s.outcome().is_some() {
                break;
            }
            let seat = s.awaiting()[0];
            if step % 6 == 0 {
                let mut lines: Vec<String> = s
                    .pending(Lang::En)
                    .into_iter()
                    .filter(|p| p.seat == seat)
                    .flat_map(|p| p.choices)
                    .take(10)
                    .collect();
                lines.push(s.bot_text(seat));
                let held: Vec<Box<dyn Session>> = others_holdings(&*s, seat)
                    .into_iter()
                    .map(|j| (info.load_json)(j).unwrap())
                    .collect();
                for line in &lines {
                    let mails = [
                        format!("this is no order\n{line}"),
                        format!("{line}\nthis is no order\n{line}"),
                    ];
                    let mut first: Option<String> = None;
                    for h in &held {
                        let check =
                            h.check(seat, &format!("{line}\n{line}\nthis is no order"), Lang::En);
                        let refused: Vec<String> = mails
                            .iter()
                            .map(|m| {
                                let mut c = (info.load_json)(h.to_json().unwrap()).unwrap();
                                refusal(&mut *c, seat, m)
                            })
                            .collect();
                        let answer = format!("{check:?}\n{refused:?}");
                        match &first {
                            None => first = Some(answer),
                            Some(f) => assert_eq!(
                                f, &answer,
                                "{}: the answer to {line:?} depends on another seat's hidden holding",
                                s.game()
                            ),
                        }
                        compared += 1;
                    }
                }
            }
            s.play_bot(seat).unwrap();
        }
        assert!(
            compared > 20,
            "{}: only {compared} answers compared",
            s.game()
        );
    }
}
