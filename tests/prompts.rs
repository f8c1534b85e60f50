//! A prompt lists only moves that are possible: in bot games of every game (and
//! each claim mode of Castle Risk), every choice every prompt lists parses and applies, on a
//! copy of the game, for the seat it is offered to; and so does its default line.

use castellan_engine::{Lang, Secret, Session, StoredTable};

/// A copy of the game, through its stored form.
fn copy(
    s: &dyn Session,
    load: fn(StoredTable) -> Result<Box<dyn Session>, String>,
) -> Box<dyn Session> {
    load(s.stored(0).unwrap()).unwrap()
}

fn check_game(game: &str, players: usize, options: &[(String, String)], seed: &str) -> usize {
    let info = castellan::games::find(game).unwrap();
    let names = (1..=players).map(|i| format!("P{i}")).collect();
    let mut s = (info.create)(seed, Secret::derive(seed.as_bytes()), names, options).unwrap();
    let mut checked = 0;
    for step in 0..4000 {
        if s.outcome().is_some() {
            break;
        }
        // Every prompt, every 5th step (and every step of the first 60: the setup).
        if step < 60 || step % 5 == 0 {
            for lang in [Lang::En, Lang::Fr] {
                for p in s.pending(lang) {
                    let lines: Vec<String> = p
                        .choices
                        .iter()
                        .cloned()
                        .chain(std::iter::once(p.default.clone()))
                        .filter(|l| !l.trim().is_empty())
                        .collect();
                    for line in lines {
                        let mut c = copy(&*s, info.load);
                        if let Err(e) = c.submit(p.seat, &line, lang) {
                            panic!(
                                "{seed} step {step}: {:?} prompt offers \"{line}\" to seat {}, refused: {:?}\n{}",
                                p.kind, p.seat, e.errors, p.question
                            );
                        }
                        checked += 1;
                    }
                }
            }
        }
        let seat = s.awaiting()[0];
        s.play_bot(seat).unwrap();
    }
    checked
}

#[test]
fn every_choice_a_prompt_offers_is_possible() {
    let mut checked = 0;
    // Each game's cases (seats, options, seeds); a game not listed: its fewest seats.
    let listed = [
        ("castle-risk", (3, vec![], 3)),
        (
            "castle-risk",
            (4, vec![("claim", "random"), ("ask", "true")], 3),
        ),
        ("castle-risk", (2, vec![("claim", "draft")], 2)),
        ("risk", (3, vec![], 2)),
        ("risk", (2, vec![], 2)),
        ("castrum", (3, vec![], 2)),
        ("castello", (2, vec![], 1)),
    ];
    let games = castellan::games::cases(&listed, |g| (g.min_seats, vec![], 1)).unwrap();
    for (info, (players, opts, seeds)) in games {
        let game = info.name;
        let opts: Vec<(String, String)> = opts
            .iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect();
        for n in 0..seeds {
            checked += check_game(
                game,
                players,
                &opts,
                &format!("prompts-{game}-{players}-{n}"),
            );
        }
    }
    assert!(checked > 500, "only {checked} choices checked");
}
