//! A fifth game added by its own crate alone: crates/toy-nim (a two-player Nim) joins the
//! registry here, through its API (`games::with`), and is played through the judge by
//! mail: created, joined, a refused order, played to its end. No engine, judge or service
//! code names it: its kind of prompt, its orders, its refusal and its winner are its own.

use castellan_engine::{game_info, GameInfo, Session};
use castellan_judge::{Judge, JudgeConfig, Outbound, Status, Store, Templates};
use castellan_toy_nim::Nim;

mod by_mail;
use by_mail::ByMail;

const GM: &str = "gm@example.org";
const ANNA: &str = "anna@example.org";
const BOB: &str = "bob@example.org";

struct World {
    mail: ByMail,
    nim: GameInfo,
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
        let nim = game_info::<Nim>();
        let games = castellan::games::with(nim).expect("a name of its own");
        World {
            mail: ByMail::new(Judge::new(config, games, Templates::builtin())),
            nim,
        }
    }

    /// Mail the judge; the replies and reports it sends.
    fn send(&mut self, from: &str, subject: &str, body: &str) -> Vec<Outbound> {
        self.mail.send(from, subject, body)
    }

    fn game(&self) -> castellan_judge::StoredGame {
        self.mail
            .store
            .game_whole("nim-1")
            .unwrap()
            .expect("the game")
    }

    fn session(&self) -> Box<dyn Session> {
        (self.nim.load)(self.game().table.clone().expect("started")).unwrap()
    }

    /// Orders from the seat of `addr`, in a mail tagged with its token.
    fn orders(&mut self, addr: &str, body: &str) -> Vec<Outbound> {
        let g = self.game();
        let seat = g.seat_of(addr).expect("a seat");
        let subject = format!("orders [nim-1 #{}]", g.seats[seat].token);
        self.send(addr, &subject, body)
    }
}

/// The judge's answer to the mail `addr` just sent.
fn reply_to<'a>(mails: &'a [Outbound], addr: &str) -> &'a Outbound {
    mails
        .iter()
        .find(|m| m.to == addr && m.in_reply_to.is_some())
        .unwrap_or_else(|| panic!("no reply to {addr} in {mails:#?}"))
}

#[test]
fn a_fifth_game_from_its_own_crate_is_created_joined_and_played_to_its_end_by_mail() {
    let mut w = World::new();
    assert!(
        castellan::games::find("nim").is_none(),
        "the toy stays in the tests"
    );

    // Created by mail, with a deadline for its own kind of prompt ("take").
    let out = w.send(
        GM,
        "new game",
        "CREATE nim seats=2 player=Anna:anna@example.org password=letmein deadline-take=12",
    );
    let r = reply_to(&out, GM);
    assert!(r.body.contains("nim-1 is created"), "{}", r.body);
    assert_eq!(w.game().status, Status::Forming);
    assert_eq!(w.game().deadlines.hours_for("take"), 12);
    let out = w.send(
        GM,
        "another",
        "CREATE nim seats=2 player=Anna:anna@example.org deadline-turn=12",
    );
    let r = reply_to(&out, GM);
    assert!(
        r.body.contains("deadline-turn") && r.body.contains("take"),
        "only its own kinds: {}",
        r.body
    );

    // Joined: every seat taken, it starts; Anna is asked first.
    let out = w.send(BOB, "JOIN nim-1 letmein AS Bob", "");
    let r = reply_to(&out, BOB);
    assert!(r.body.contains("the game starts"), "{}", r.body);
    assert_eq!(w.game().status, Status::Running);
    let asked = out
        .iter()
        .find(|m| m.to == ANNA && m.subject.contains("your move"))
        .expect("Anna is asked to move");
    assert!(
        asked
            .body
            .contains("Take 1 to 3 stones; the last stone wins."),
        "{}",
        asked.body
    );

    // A refusal: the game's own words, nothing applied.
    let out = w.orders(ANNA, "TAKE 5");
    let r = reply_to(&out, ANNA);
    assert!(r.body.contains("take 1 to 3 stones"), "{}", r.body);
    assert!(!r.body.contains("applied."), "{}", r.body);
    assert_eq!(
        w.session().public_view(castellan_engine::Lang::En),
        "stones: 10"
    );

    // Played to its end: 3, 3, 3 and Bob takes the last stone.
    let mut last = Vec::new();
    for (addr, take) in [(ANNA, 3), (BOB, 3), (ANNA, 3), (BOB, 1)] {
        assert_eq!(
            w.session().awaiting(),
            vec![w.game().seat_of(addr).unwrap()]
        );
        last = w.orders(addr, &format!("TAKE {take}"));
        let r = reply_to(&last, addr);
        assert!(r.body.contains("1 order line applied"), "{}", r.body);
    }
    assert_eq!(w.game().status, Status::Finished);
    let outcome = w.session().outcome().expect("over");
    assert_eq!(outcome.winners, vec![1], "Bob took the last stone");
    for addr in [ANNA, BOB, GM] {
        assert!(
            last.iter()
                .any(|m| m.to == addr && m.body.contains("took the last stone")),
            "{addr} is told the end: {last:#?}"
        );
    }
}
