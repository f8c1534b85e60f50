//! "A reply to a mail written in French opens in French", told by each game's own order
//! words (`Rules::reads_as_french`): a seat that chose no language and writes, in an
//! English game, only orders of that game in French words that are no French command word
//! and not among the French order words the games share, is answered in French; the same
//! mail with the orders in English is answered in English.
mod common;

use castellan_engine::{game_info, GameInfo};
use common::*;

/// A judge of the four games, Anna and Bob seated in a new English game of `info`.
fn seated(info: GameInfo) -> (World, String, String) {
    let name = info.name;
    let mut w = World::new(Judge::new(config(), vec![info], Templates::builtin()));
    let created = w.send(
        GM,
        "new game",
        &format!("CREATE {name} player=Anna:anna@example.org player=Bob:bob@example.org"),
    );
    let (bpw, _) = creds(&created, BOB);
    // The game's id, from the tag of Bob's welcome: "[castle-1 #k3j9x] ...".
    let welcome = created.iter().find(|m| m.to == BOB).expect("a welcome");
    let id = welcome.subject[1..].split([' ', ']']).next().unwrap();
    (w, id.to_string(), bpw)
}

/// Bob's mail of `orders` to the game answered in French, and in English once they are
/// written in English; the French lines are no word the games share.
fn answered_in_french(info: GameInfo, french: &str, english: &str) {
    let reads = info.reads_as_french;
    for line in french.lines() {
        assert!(reads(line), "{line}: a French order of {}", info.name);
        assert!(
            !castellan_engine::lang::fr::is_order_line(line),
            "{line}: the game's own word, not the shared list's"
        );
    }
    for line in english.lines() {
        assert!(!reads(line), "{line}: English");
    }
    let (mut w, id, bpw) = seated(info);
    let out = w.send(BOB, "orders", &format!("GAME {id} {bpw}\n{french}"));
    let r = reply_to(&out, BOB);
    assert!(r.body.starts_with("L'arbitre répond"), "{}", r.body);
    let out = w.send(BOB, "orders", &format!("GAME {id} {bpw}\n{english}"));
    let r = reply_to(&out, BOB);
    assert!(r.body.starts_with("The judge answers"), "{}", r.body);
}

#[test]
fn castle_risk_orders_in_french_are_answered_in_french() {
    answered_in_french(
        castellan_castle_risk::game_info(),
        "RENFORCER 2\nATTAQUER Bohême DEPUIS Saxe",
        "REINFORCE 2\nATTACK Bohemia FROM Saxony",
    );
}

#[test]
fn risk_orders_in_french_are_answered_in_french() {
    answered_in_french(
        game_info::<castellan_risk::Risk>(),
        "RÉCLAMER Alaska\nFORTIFIER 3 DEPUIS Alaska VERS Alberta",
        "CLAIM Alaska\nFORTIFY 3 FROM Alaska TO Alberta",
    );
}

#[test]
fn castrum_orders_in_french_are_answered_in_french() {
    answered_in_french(
        game_info::<castellan_castrum::Castrum>(),
        "CONSTRUIS muraille\nBÂTIR tour",
        "BUILD wall\nBUILD tower",
    );
}

#[test]
fn castello_orders_in_french_are_answered_in_french() {
    answered_in_french(
        game_info::<castellan_castello::Castello>(),
        "PROPOSER LA NULLE",
        "OFFER DRAW",
    );
}
