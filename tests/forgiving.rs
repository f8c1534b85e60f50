//! "Forgiving, and honest about it", end to end on real parts (Maildir, sled,
//! file outbox): a plain signature without "-- ", a "thanks!" line and a format=flowed mail
//! each play their orders in a Castle Risk game by mail, and the reply names the lines it
//! ignored.

use castellan::config::Config;
use castellan::play::demo::LocalJudge;
use castellan::play::players::{load_session, MailPlayers};
use castellan_judge::{Status, Store};
use std::path::PathBuf;

fn open(dir: &std::path::Path) -> LocalJudge {
    let base = Config {
        templates_dir: PathBuf::from(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/crates/judge/templates"
        )),
        ..Config::default()
    };
    LocalJudge::open(&base, dir, 7).unwrap()
}

/// The seat the game waits for, its whole bot turn, and the history length now.
fn next_turn(j: &LocalJudge, game: &str) -> (usize, Vec<String>, usize) {
    let rec = j.svc.store.game(game).unwrap().unwrap();
    assert_eq!(rec.status, Status::Running);
    let s = load_session(&rec).unwrap().unwrap();
    let seat = s.awaiting()[0];
    (seat, s.bot_turn(seat, 500), s.history_len())
}

fn history(j: &LocalJudge, game: &str) -> usize {
    let rec = j.svc.store.game(game).unwrap().unwrap();
    load_session(&rec).unwrap().unwrap().history_len()
}

#[test]
fn a_signature_a_thanks_line_and_a_flowed_mail_each_play_their_orders() {
    let dir = tempfile::tempdir().unwrap();
    let j = open(dir.path());
    let mut bots = MailPlayers::new(&j.svc, "forgiving").unwrap();
    let game = bots
        .create_game(
            &j.svc,
            "castle-risk",
            3,
            &[("claim".into(), "random".into())],
        )
        .unwrap();
    j.pass_after(600).unwrap();

    // 1. A plain signature, no "-- " line.
    let (seat, lines, before) = next_turn(&j, &game);
    let rec = j.svc.store.game(&game).unwrap().unwrap();
    let body = format!("{}\n\nCordialement,\nBruno\n", lines.join("\n"));
    let sent = bots.send(&j.svc, &rec, seat, &body).unwrap();
    j.pass_after(600).unwrap();
    let reply = bots.reply_to(&sent.message_id).unwrap().expect("a reply");
    assert!(
        history(&j, &game) > before,
        "the orders were not played: {reply}"
    );
    assert!(reply.contains("== Not read =="), "{reply}");
    assert!(
        reply.contains("\"Cordialement,\"") && reply.contains("\"Bruno\""),
        "{reply}"
    );
    assert!(
        !reply.contains(&format!("Orders for {game} refused")),
        "{reply}"
    );

    // 2. A "thanks!" line after the orders.
    let (seat, lines, before) = next_turn(&j, &game);
    let rec = j.svc.store.game(&game).unwrap().unwrap();
    let body = format!("{}\nthanks!\n", lines.join("\n"));
    let sent = bots.send(&j.svc, &rec, seat, &body).unwrap();
    j.pass_after(600).unwrap();
    let reply = bots.reply_to(&sent.message_id).unwrap().expect("a reply");
    assert!(
        history(&j, &game) > before,
        "the orders were not played: {reply}"
    );
    assert!(reply.contains("\"thanks!\""), "{reply}");

    // 3. format=flowed with DelSp=yes: each order line is wrapped in two by the client.
    let (seat, lines, before) = next_turn(&j, &game);
    let rec = j.svc.store.game(&game).unwrap().unwrap();
    let flowed: Vec<String> = lines
        .iter()
        .map(|l| match l.split_once(' ') {
            // "ATTACK Livonia ..." -> "ATTACK  " + CRLF + "Livonia ..." (a soft break)
            Some((first, rest)) => format!("{first}  \n{rest}"),
            None => l.clone(),
        })
        .collect();
    bots.read_outbox().unwrap();
    let sent = bots.send(&j.svc, &rec, seat, "placeholder").unwrap();
    // Rewrite the delivered file as the flowed mail a client would send, same headers.
    let raw = std::fs::read_to_string(&sent.path).unwrap();
    let (head, _) = raw.split_once("\r\n\r\n").unwrap();
    let head = head
        .replace("charset=utf-8; format=flowed", "charset=utf-8")
        .replace(
            "Content-Type: text/plain; charset=utf-8",
            "Content-Type: text/plain; charset=utf-8; format=flowed; delsp=yes",
        );
    assert!(head.contains("format=flowed"));
    let flowed_mail = format!(
        "{head}\r\n\r\n{}\r\n",
        flowed.join("\n").replace('\n', "\r\n")
    );
    std::fs::write(&sent.path, flowed_mail).unwrap();
    j.pass_after(600).unwrap();
    let reply = bots.reply_to(&sent.message_id).unwrap().expect("a reply");
    assert!(
        history(&j, &game) > before,
        "the flowed orders were not played: {reply}"
    );
    assert!(
        !reply.contains(&format!("Orders for {game} refused")),
        "{reply}"
    );
}

/// The shape of the board: `MAP Prussia` and `NEIGHBOURS <game> Prussia` by mail
/// answer for one territory (its borders and who holds them), in the reader's language.
#[test]
fn map_and_neighbours_by_mail_answer_for_one_territory() {
    let dir = tempfile::tempdir().unwrap();
    let j = open(dir.path());
    let mut bots = MailPlayers::new(&j.svc, "shape").unwrap();
    let game = bots
        .create_game(
            &j.svc,
            "castle-risk",
            3,
            &[("claim".into(), "random".into())],
        )
        .unwrap();
    j.pass_after(600).unwrap();
    let rec = j.svc.store.game(&game).unwrap().unwrap();
    let sent = bots.send(&j.svc, &rec, 0, "MAP Prussia\n").unwrap();
    let named = bots
        .send(&j.svc, &rec, 1, &format!("NEIGHBOURS {game} Ukraine\n"))
        .unwrap();
    j.pass_after(600).unwrap();
    let reply = bots.reply_to(&sent.message_id).unwrap().expect("a reply");
    assert!(reply.contains(&format!("NEIGHBOURS in {game}")), "{reply}");
    assert!(reply.contains("Land borders: Livonia ("), "{reply}");
    let reply = bots.reply_to(&named.message_id).unwrap().expect("a reply");
    assert!(reply.contains("Ukraine (Russian Empire)"), "{reply}");
}

/// A report is read on a phone: a player's private view tells the board around them in
/// short ("Yours (...)", the attacks they can make), never a line per territory with its
/// neighbours; a bare NEIGHBOURS (VOISINS) answers with that whole list, in the writer's
/// language.
#[test]
fn neighbours_alone_lists_the_writers_territories_with_their_neighbours() {
    let dir = tempfile::tempdir().unwrap();
    let j = open(dir.path());
    let mut bots = MailPlayers::new(&j.svc, "borders").unwrap();
    let game = bots
        .create_game(
            &j.svc,
            "castle-risk",
            3,
            &[("claim".into(), "random".into())],
        )
        .unwrap();
    j.pass_after(600).unwrap();
    // The setup played by mail, until every seat holds territories.
    for _ in 0..200 {
        let rec = j.svc.store.game(&game).unwrap().unwrap();
        let s = load_session(&rec).unwrap().unwrap();
        if (0..3).all(|seat| s.borders(seat, castellan_engine::Lang::En).is_some()) {
            break;
        }
        bots.play_one(&j.svc, &game, 500)
            .unwrap()
            .expect("the game waits");
        j.pass_after(60).unwrap();
    }
    let reports: Vec<String> = bots
        .read_outbox()
        .unwrap()
        .into_iter()
        .map(|(_, m)| m.body)
        .filter(|b| b.contains("Your private view:"))
        .collect();
    assert!(reports.iter().any(|r| r.contains("\nYours, ")));
    for r in &reports {
        assert!(!r.contains("Your territories and their neighbours"), "{r}");
        if r.contains("\nYours, ") {
            assert!(r.contains("\nNEIGHBOURS: each of yours"), "{r}");
        }
    }
    let rec = j.svc.store.game(&game).unwrap().unwrap();
    let bare = bots.send(&j.svc, &rec, 0, "NEIGHBOURS\n").unwrap();
    let fr = bots
        .send(&j.svc, &rec, 1, "SET LANGUAGE fr\nVOISINS\n")
        .unwrap();
    j.pass_after(600).unwrap();
    let reply = bots.reply_to(&bare.message_id).unwrap().expect("a reply");
    assert!(reply.contains(&format!("NEIGHBOURS in {game}")), "{reply}");
    assert!(
        reply.contains("Your territories and their neighbours (~ a dotted crossing):"),
        "{reply}"
    );
    let rec = j.svc.store.game(&game).unwrap().unwrap();
    let session = load_session(&rec).unwrap().unwrap();
    let text = session.borders(0, castellan_engine::Lang::En).unwrap();
    for line in text.lines().skip(1) {
        assert!(reply.contains(line.trim()), "{line} in {reply}");
    }
    let reply = bots.reply_to(&fr.message_id).unwrap().expect("a reply");
    assert!(reply.contains(&format!("VOISINS dans {game}")), "{reply}");
    assert!(
        reply.contains("Vos territoires et leurs voisins (~ une traversée en pointillé) :"),
        "{reply}"
    );
}
