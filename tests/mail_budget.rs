//! Issue 12, "Too much mail" and "Silence", end to end on real parts (Maildir, sled, file
//! outbox) with a Castle Risk game played by mail: a game created by mail drafts its
//! territories; the deadline of a simultaneous phase is set once per phase; a turn sent in
//! several mails is reported once, when it passes.

use castellan::config::Config;
use castellan::demo::LocalJudge;
use castellan::players::{load_session, MailPlayers};
use castellan_engine::PromptKind;
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

/// Mails the judge wrote since the last look, to `address`, that are not replies.
fn reports_to(bots: &mut MailPlayers, address: &str) -> usize {
    bots.read_outbox()
        .unwrap()
        .into_iter()
        .filter(|(_, m)| m.to.iter().any(|t| t == address) && !m.subject.starts_with("Re:"))
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
    // Castles first, in turn; then every seat is asked for its ranked list at once: one
    // phase, one deadline.
    let mut s = load_session(&rec).unwrap().unwrap();
    for _ in 0..10 {
        let p = s.pending(castellan_engine::Lang::En);
        if p.iter().any(|p| p.kind == PromptKind::Rank) {
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
        .filter(|p| p.kind == PromptKind::Rank)
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
                .any(|p| p.kind == PromptKind::Turn && p.seat == seat)
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
