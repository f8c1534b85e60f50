//! "Too much mail" and "Silence", end to end on real parts (Maildir, sled, file
//! outbox) with a Castle Risk game played by mail: a game created by mail drafts its
//! territories; the deadline of a simultaneous phase is set once per phase; a turn sent in
//! several mails is reported once, when it passes.

use castellan::config::Config;
use castellan::play::demo::LocalJudge;
use castellan::play::players::{load_session, MailPlayers};
use castellan_castle_risk::Ask;
use castellan_judge::Store;
use std::path::PathBuf;

fn open(dir: &std::path::Path) -> LocalJudge {
    let base = Config {
        templates_dir: PathBuf::from(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/crates/judge/templates"
        )),
        ..Config::default()
    };
    LocalJudge::open(&base, dir, 11).unwrap()
}

/// A reply to a player's mail (under the subject of the report it carries, if any).
fn is_reply(body: &str) -> bool {
    body.starts_with("The judge answers your mail.")
}

/// Mails the judge wrote since the last look, to `address`, that are not replies.
fn reports_to(bots: &mut MailPlayers, address: &str) -> usize {
    bots.read_outbox()
        .unwrap()
        .into_iter()
        .filter(|(_, m)| m.to.iter().any(|t| t == address) && !is_reply(&m.body))
        .count()
}

#[test]
fn a_drafted_game_keeps_one_deadline_per_phase_and_reports_a_turn_once() {
    let dir = tempfile::tempdir().unwrap();
    let j = open(dir.path());
    let mut bots = MailPlayers::new(&j.svc, "budget").unwrap();
    let game = bots.create_game(&j.svc, "castle-risk", 3, &[]).unwrap();
    j.pass_after(600).unwrap();
    let rec = j.svc.store.game(&game).unwrap().unwrap();
    // "By-mail games default to the draft or the random deal for claiming territories".
    assert!(
        rec.options
            .contains(&("claim".to_string(), "draft".to_string())),
        "{:?}",
        rec.options
    );
    // ... and, likewise, to placing the armies blind, all at once (docs/rules/castle-risk.md).
    assert!(
        rec.options
            .contains(&("placement".to_string(), "blind".to_string())),
        "{:?}",
        rec.options
    );
    // Castles first, in turn; then every seat is asked for its ranked list at once: one
    // phase, one deadline.
    let mut s = load_session(&rec).unwrap().unwrap();
    for _ in 0..10 {
        let p = s.pending(castellan_engine::Lang::En);
        if p.iter().any(|p| p.kind == Ask::Rank) {
            break;
        }
        let rec = j.svc.store.game(&game).unwrap().unwrap();
        let seat = p[0].seat;
        bots.send(&j.svc, &rec, seat, &s.bot_text(seat)).unwrap();
        j.pass_after(600).unwrap();
        s = load_session(&j.svc.store.game(&game).unwrap().unwrap())
            .unwrap()
            .unwrap();
    }
    let rec = j.svc.store.game(&game).unwrap().unwrap();
    let deadline = rec.deadline.expect("a deadline");
    let ranks: Vec<usize> = s
        .pending(castellan_engine::Lang::En)
        .iter()
        .filter(|p| p.kind == Ask::Rank)
        .map(|p| p.seat)
        .collect();
    assert_eq!(
        ranks.len(),
        3,
        "{:?}",
        s.pending(castellan_engine::Lang::En)
    );
    for &seat in &ranks[..2] {
        let line = s.bot_text(seat);
        let rec = j.svc.store.game(&game).unwrap().unwrap();
        bots.send(&j.svc, &rec, seat, &format!("{line}\n")).unwrap();
        j.pass_after(3600).unwrap();
        let now = j.svc.store.game(&game).unwrap().unwrap();
        assert_eq!(
            now.deadline,
            Some(deadline),
            "the deadline of the draft moved when seat {seat} sent its list"
        );
    }
    // Play on with bots' whole turns until a turn takes more than one line; then send it in
    // two mails: the others hear of it once, when it passes.
    for _ in 0..200 {
        let rec = j.svc.store.game(&game).unwrap().unwrap();
        s = load_session(&rec).unwrap().unwrap();
        let seat = s.awaiting()[0];
        let lines = s.bot_turn(seat, 500);
        let other = (seat + 1) % 3;
        let other_addr = rec.seats[other].address.clone().unwrap();
        let split = lines.len() >= 2
            && s.pending(castellan_engine::Lang::En)
                .iter()
                .any(|p| p.kind == Ask::Turn && p.seat == seat)
            && !lines[0].to_uppercase().starts_with("SPY");
        if !split {
            bots.send(&j.svc, &rec, seat, &lines.join("\n")).unwrap();
            j.pass_after(600).unwrap();
            continue;
        }
        reports_to(&mut bots, &other_addr);
        bots.send(&j.svc, &rec, seat, &format!("{}\n", lines[0]))
            .unwrap();
        j.pass_after(600).unwrap();
        let still = load_session(&j.svc.store.game(&game).unwrap().unwrap())
            .unwrap()
            .unwrap();
        if still.awaiting() != vec![seat]
            || still
                .narrate_since(0, castellan_engine::Lang::En)
                .private
                .len()
                != s.narrate_since(0, castellan_engine::Lang::En).private.len()
        {
            // The first line ended the turn or told someone something: not this case.
            continue;
        }
        assert_eq!(
            reports_to(&mut bots, &other_addr),
            0,
            "a report went out in the middle of a turn"
        );
        let rec = j.svc.store.game(&game).unwrap().unwrap();
        let rest = still.bot_turn(seat, 500);
        bots.send(&j.svc, &rec, seat, &rest.join("\n")).unwrap();
        j.pass_after(600).unwrap();
        let after = load_session(&j.svc.store.game(&game).unwrap().unwrap())
            .unwrap()
            .unwrap();
        assert_ne!(
            after.awaiting(),
            vec![seat],
            "the rest of the turn was not played"
        );
        assert!(
            reports_to(&mut bots, &other_addr) >= 1,
            "the turn passed and nobody was told"
        );
        return;
    }
    panic!("no turn in two mails was found in 200 turns");
}

/// Mails since the last look: (to, subject, text).
fn new_mails(bots: &mut MailPlayers) -> Vec<(String, String, String)> {
    bots.read_outbox()
        .unwrap()
        .into_iter()
        .map(|(_, m)| (m.to.join(","), m.subject.clone(), m.body.clone()))
        .collect()
}

/// "A question mid-turn (defend, Marshal, counter-Spy, a Castrum defence card)
/// goes only to the player who must answer it." Castrum with `defend=ask` (every attack
/// asks its victim): the attacker's mail gets its reply; the victim alone gets the question
/// with what happened so far; the third player hears nothing until the turn's report; when
/// the victim answers, the attacker alone is told their turn goes on.
#[test]
fn a_question_mid_turn_goes_to_its_answerer_alone() {
    let dir = tempfile::tempdir().unwrap();
    let j = open(dir.path());
    let mut bots = MailPlayers::new(&j.svc, "question").unwrap();
    let game = bots
        .create_game(
            &j.svc,
            "castrum",
            3,
            &[("defend".to_string(), "ask".to_string())],
        )
        .unwrap();
    j.pass_after(600).unwrap();
    let addr = |seat: usize| {
        j.svc.store.game(&game).unwrap().unwrap().seats[seat]
            .address
            .clone()
            .unwrap()
    };
    for _ in 0..400 {
        let rec = j.svc.store.game(&game).unwrap().unwrap();
        let s = load_session(&rec).unwrap().unwrap();
        if s.outcome().is_some() {
            break;
        }
        let seat = s.awaiting()[0];
        new_mails(&mut bots);
        bots.send(&j.svc, &rec, seat, &s.bot_turn(seat, 500).join("\n"))
            .unwrap();
        j.pass_after(600).unwrap();
        let now = load_session(&j.svc.store.game(&game).unwrap().unwrap())
            .unwrap()
            .unwrap();
        let asked: Vec<_> = now
            .pending(castellan_engine::Lang::En)
            .into_iter()
            .filter(|p| p.kind == castellan_castrum::Ask::Defend)
            .collect();
        if asked.len() != 1 || asked[0].seat == seat {
            continue;
        }
        let victim = asked[0].seat;
        let third = (0..3).find(|s| *s != seat && *s != victim).unwrap();
        let out = new_mails(&mut bots);
        let to = |a: &str| out.iter().filter(|m| m.0 == a).collect::<Vec<_>>();
        let mine = to(&addr(seat));
        assert_eq!(mine.len(), 1, "the attacker gets one reply: {mine:#?}");
        assert!(is_reply(&mine[0].2));
        let theirs = to(&addr(victim));
        assert_eq!(
            theirs.len(),
            1,
            "the victim gets the question alone: {out:#?}"
        );
        assert!(theirs[0].2.contains("You are asked:"), "{}", theirs[0].2);
        assert!(
            theirs[0].2.contains("What happened so far this turn"),
            "{}",
            theirs[0].2
        );
        assert!(to(&addr(third)).is_empty(), "the third player: {out:#?}");
        // The victim answers: their reply, and the attacker is told their turn goes on.
        let rec = j.svc.store.game(&game).unwrap().unwrap();
        bots.send(&j.svc, &rec, victim, &now.bot_text(victim))
            .unwrap();
        j.pass_after(600).unwrap();
        let out = new_mails(&mut bots);
        let to = |a: &str| out.iter().filter(|m| m.0 == a).collect::<Vec<_>>();
        assert_eq!(to(&addr(victim)).len(), 1);
        assert!(is_reply(&to(&addr(victim))[0].2));
        let back = to(&addr(seat));
        assert_eq!(back.len(), 1, "{out:#?}");
        assert!(back[0].2.contains("You are asked:"), "{}", back[0].2);
        assert!(to(&addr(third)).is_empty(), "the third player: {out:#?}");
        // The attacker ends the turn: the third player gets the turn's report, with the
        // attack and its answer in it.
        let rec = j.svc.store.game(&game).unwrap().unwrap();
        let s = load_session(&rec).unwrap().unwrap();
        if s.awaiting() != vec![seat] {
            return;
        }
        bots.send(&j.svc, &rec, seat, &s.bot_turn(seat, 500).join("\n"))
            .unwrap();
        j.pass_after(600).unwrap();
        let out = new_mails(&mut bots);
        let reports: Vec<_> = out.iter().filter(|m| m.0 == addr(third)).collect();
        assert_eq!(reports.len(), 1, "{out:#?}");
        return;
    }
    panic!("no attack asked its victim in 400 turns");
}
