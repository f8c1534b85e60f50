//! The hostile promises' checks, each made to fail by a mail a broken judge would send.

use super::*;

fn mail(to: &str, subject: &str, irt: Option<&str>) -> Outbound {
    Outbound {
        message_id: "<m@judge>".into(),
        to: to.into(),
        subject: subject.into(),
        body: String::new(),
        in_reply_to: irt.map(String::from),
        references: Vec::new(),
        headers: Vec::new(),
        html: None,
        attachments: Vec::new(),
    }
}

fn writing(address: &str, id: &str, stop: bool, hostile: Option<Kind>) -> Writing {
    Writing {
        address: address.into(),
        message_id: id.into(),
        about: None,
        stop,
        hostile,
        named: Vec::new(),
    }
}

#[test]
fn a_second_mail_about_an_unconfirmed_game_breaks_only_confirmed_games() {
    let mut l = Ledger::default();
    let m = mail("v@x", "[castle-7 #abc] Welcome", None);
    assert!(l
        .check(None, "", "", std::slice::from_ref(&m), 0, &[], 30)
        .is_empty());
    let found = l.check(None, "", "", &[m], 10, &[], 30);
    assert_eq!(found.len(), 1, "{found:?}");
    assert_eq!(found[0].0, "only_confirmed_games");
}

#[test]
fn mail_after_stop_breaks_stop_holds_but_the_stop_answer_does_not() {
    let mut l = Ledger::default();
    let w = writing("s@x", "<s1@x>", true, None);
    l.wrote(&w);
    let answer = mail("s@x", "Re: STOP", Some("<s1@x>"));
    assert!(l.check(Some(&w), "", "", &[answer], 0, &[], 30).is_empty());
    let welcome = mail("s@x", "[castle-2 #abc] Welcome", None);
    let found = l.check(None, "", "", &[welcome], 5, &[], 30);
    assert_eq!(found[0].0, "stop_holds", "{found:?}");
}

#[test]
fn a_hostile_mail_that_changes_the_game_breaks_no_seat_without_credential() {
    let mut l = Ledger::default();
    let w = writing("alice@x", "<f1@x>", false, Some(Kind::Forger));
    l.wrote(&w);
    let found = l.check(Some(&w), "history 3", "history 4", &[], 0, &[], 30);
    assert_eq!(found[0].0, "no_seat_without_credential");
}

#[test]
fn a_stranger_mail_to_nine_addresses_breaks_stranger_bounded() {
    let mut l = Ledger::default();
    let mut w = writing("s@evil", "<c1@evil>", false, Some(Kind::Stranger));
    w.about = None;
    l.wrote(&w);
    let mails: Vec<Outbound> = (0..9)
        .map(|i| mail(&format!("v{i}@x"), &format!("[risk-{i}] Welcome"), None))
        .collect();
    let found = l.check(Some(&w), "", "", &mails, 0, &[], 30);
    assert!(
        found.iter().any(|(p, _)| *p == "stranger_bounded"),
        "{found:?}"
    );
}

#[test]
fn an_answer_to_a_stranger_naming_a_player_breaks_addresses_private() {
    let mut l = Ledger::default();
    let w = writing("s@evil", "<c1@evil>", false, Some(Kind::Stranger));
    l.wrote(&w);
    let mut m = mail("s@evil", "Re: HISTORY", Some("<c1@evil>"));
    m.body = "Game master: gm@players.example".into();
    let found = l.check(
        Some(&w),
        "",
        "",
        &[m],
        0,
        &["gm@players.example".into()],
        30,
    );
    assert_eq!(found[0].0, "addresses_private", "{found:?}");
}

#[test]
fn answers_past_two_allowances_an_hour_break_flood_bounded() {
    let mut l = Ledger::default();
    let mut found = Vec::new();
    for i in 0..10 {
        let id = format!("<f{i}@x>");
        let w = writing("f@x", &id, false, Some(Kind::Flooder));
        l.wrote(&w);
        let m = mail("f@x", "Re: HELP", Some(&id));
        found.extend(l.check(Some(&w), "", "", &[m], i * 60, &[], 3));
    }
    assert_eq!(found.len(), 1, "{found:?}");
    assert_eq!(found[0].0, "flood_bounded");
}
