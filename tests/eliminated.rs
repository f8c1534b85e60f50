//! An eliminated player was never told he is out; he kept getting 'for you alone' reports
//! with a dead seat's standing orders; the final report had no standings or placings. The
//! promise (docs/promises.md): "every change a seat must know reaches every seat of the game
//! in the next mail it gets (... an elimination, the end with the standings)". The rule that
//! puts a seat out: seeds/000, "Annexion d'un Château": "vous avez capturé le château de ce
//! joueur et l'avez éliminé du jeu".
//!
//! End to end on the pure judge and a MemoryStore: a Castle Risk game of four, every seat
//! played by mail with the bots' orders, to its end.

use castellan_judge::{Judge, JudgeConfig, Outbound, Status, Store, Templates};
use std::collections::BTreeMap;

mod by_mail;
use by_mail::ByMail;

const GM: &str = "gm@example.org";
const PLAYERS: [(&str, &str); 4] = [
    ("Anna", "anna@example.org"),
    ("Bob", "bob@example.org"),
    ("Carol", "carol@example.org"),
    ("Dan", "dan@example.org"),
];

struct World {
    mail: ByMail,
}

impl World {
    fn new() -> World {
        let config = JudgeConfig {
            address: "judge@example.org".into(),
            domain: "example.org".into(),
            password_memory_kib: 8,
            password_iterations: 1,
            confirm_addresses: false,
            ..JudgeConfig::default()
        };
        World {
            mail: ByMail::new(Judge::new(
                config,
                castellan::games::all(),
                Templates::builtin(),
            )),
        }
    }

    fn send(&mut self, from: &str, subject: &str, body: &str) -> Vec<Outbound> {
        self.mail.send(from, subject, body)
    }

    fn game(&self, id: &str) -> castellan_judge::StoredGame {
        self.mail.store.game_whole(id).unwrap().expect("the game")
    }
}

/// What a mail to a seat out of the game must never hold: a part for its eyes only, a
/// question, its private view.
const PRIVATE_MARKS: [&str; 4] = [
    "this mail is for you alone",
    "You are asked",
    "Your private view",
    "Only you were told",
];

/// The standings of a final report, as (place, name) in the order listed.
fn standings(body: &str) -> Vec<(usize, String)> {
    body.lines()
        .skip_while(|l| *l != "Standings:")
        .skip(1)
        .take_while(|l| !l.trim().is_empty())
        .map(|l| {
            let (place, rest) = l.trim().split_once(". ").expect("N. Name");
            let name = rest.split(" (").next().unwrap_or(rest).to_string();
            (place.parse().expect("a place"), name)
        })
        .collect()
}

#[test]
fn an_eliminated_player_is_told_loses_his_private_part_and_the_end_lists_the_standings() {
    let mut w = World::new();
    let create = format!(
        "CREATE castle-risk {}",
        PLAYERS
            .iter()
            .map(|(n, a)| format!("player={n}:{a}"))
            .collect::<Vec<_>>()
            .join(" ")
    );
    let created = w.send(GM, "new game", &create);
    let id = w
        .mail
        .store
        .game_ids()
        .unwrap()
        .first()
        .cloned()
        .expect("created");
    let mut mails: BTreeMap<&str, Vec<Outbound>> = BTreeMap::new();
    let file = |mails: &mut BTreeMap<&str, Vec<Outbound>>, out: &[Outbound]| {
        for m in out {
            if let Some((_, a)) = PLAYERS.iter().find(|(_, a)| *a == m.to) {
                mails.entry(a).or_default().push(m.clone());
            }
        }
    };
    file(&mut mails, &created);
    // What each address's next mail must say: (seat out, its line).
    let mut expected: BTreeMap<&str, Vec<String>> = BTreeMap::new();
    let mut out_midway = 0;
    for _ in 0..20_000 {
        let rec = w.game(&id);
        if rec.status == Status::Finished {
            break;
        }
        assert_eq!(rec.status, Status::Running, "{id}");
        let session = castellan::play::players::load_session(&rec)
            .unwrap()
            .unwrap();
        let seat = *session.awaiting().first().expect("someone is awaited");
        let (_, addr) = PLAYERS[seat];
        let body = session.bot_turn(seat, 20).join("\n");
        let subject = format!("orders [{id} #{}]", rec.seats[seat].token);
        let was_out = rec.out.len();
        let out = w.send(addr, &subject, &body);
        let rec = w.game(&id);
        for o in &rec.out[was_out..] {
            let name = PLAYERS[o.seat].0;
            if rec.status != Status::Finished {
                out_midway += 1;
            }
            let by = o.by.map(|b| format!(", put out by {}", PLAYERS[b].0));
            let turn = o.turn;
            expected
                .entry(PLAYERS[o.seat].1)
                .or_default()
                .push(format!("You are out of the game (turn {turn}"));
            for (s, (_, a)) in PLAYERS.iter().enumerate() {
                if s != o.seat && !rec.is_out(s) {
                    expected.entry(a).or_default().push(format!(
                        "{name} is out of the game (turn {turn}{})",
                        by.clone().unwrap_or_default()
                    ));
                }
            }
        }
        for m in &out {
            if let Some(want) = expected.remove(m.to.as_str()) {
                for line in want {
                    assert!(
                        m.body.contains(&line),
                        "the next mail to {} does not say \"{line}\":\n{}",
                        m.to,
                        m.body
                    );
                }
            }
            if let Some(s) = PLAYERS.iter().position(|(_, a)| *a == m.to) {
                if rec.is_out(s) {
                    for mark in PRIVATE_MARKS {
                        assert!(
                            !m.body.contains(mark),
                            "{} is out, yet a mail to them says \"{mark}\":\n{}",
                            m.to,
                            m.body
                        );
                    }
                }
            }
        }
        file(&mut mails, &out);
    }
    let rec = w.game(&id);
    assert_eq!(rec.status, Status::Finished, "{id} did not end");
    assert!(
        out_midway > 0,
        "no seat went out before the end: {:?}",
        rec.out
    );
    assert!(expected.is_empty(), "never told: {expected:?}");
    // The final mail to every seat lists the standings: the winner first, then those out,
    // the last out highest.
    let session = castellan::play::players::load_session(&rec)
        .unwrap()
        .unwrap();
    let winners: Vec<&str> = session
        .outcome()
        .expect("an outcome")
        .winners
        .iter()
        .map(|w| PLAYERS[*w].0)
        .collect();
    let out_last_first: Vec<&str> = rec.out.iter().rev().map(|o| PLAYERS[o.seat].0).collect();
    for (_, addr) in PLAYERS {
        let last = mails[addr].last().expect("mails");
        let table = standings(&last.body);
        assert_eq!(table.len(), 4, "{addr}: {}", last.body);
        let names: Vec<&str> = table.iter().map(|(_, n)| n.as_str()).collect();
        assert_eq!(
            &names[..winners.len()],
            &winners[..],
            "{addr}: {}",
            last.body
        );
        assert!(table[..winners.len()].iter().all(|(p, _)| *p == 1));
        assert_eq!(
            &names[4 - out_last_first.len()..],
            &out_last_first[..],
            "{addr}: {}",
            last.body
        );
        assert!(
            table.windows(2).all(|p| p[0].0 <= p[1].0),
            "{addr}: places in order: {table:?}"
        );
    }
}
