#![allow(dead_code)]
use castellan_castle_risk::{CastleRisk, ClaimMode, Options, PlacementMode};
use castellan_engine::{play_out, PlayedGame, Secret, Table};

pub fn names(n: usize) -> Vec<String> {
    ["Alice", "Bruno", "Chloé", "Dmitri", "Eva", "Farid"][..n]
        .iter()
        .map(|s| s.to_string())
        .collect()
}

pub fn table(id: &str, n: usize, options: Options) -> Table<CastleRisk> {
    Table::new(id, Secret::derive(id.as_bytes()), names(n), options).expect("table")
}

pub fn options(claim: ClaimMode, placement: PlacementMode) -> Options {
    Options {
        claim,
        placement,
        ..Options::default()
    }
}

/// One bot game to the end.
pub fn bot_game(id: &str, n: usize, options: Options) -> (Table<CastleRisk>, PlayedGame) {
    let mut t = table(id, n, options);
    let r = play_out(&mut t, 400_000).unwrap_or_else(|e| panic!("{id}: {e}"));
    (t, r)
}

use castellan_castle_risk::cards::full_deck;
use castellan_castle_risk::game::Phase;
use castellan_castle_risk::map::map;
use castellan_engine::DiceBox;

pub fn t(name: &str) -> usize {
    map().board.resolve(name).unwrap()
}

/// A position in the middle of play: every territory goes round the table with 1 army,
/// then the listed overrides; castles where given; empty hands; the whole deck in the pile;
/// seat 0 to play.
pub fn position(n: usize, castles: &[&str], owners: &[(&str, usize, u32)]) -> CastleRisk {
    let mut d = DiceBox::new("pos", Secret::derive(b"pos"));
    let (mut g, _) = CastleRisk::new_game(&names(n), &Options::default(), &mut d).unwrap();
    for x in 0..g.board.len() {
        g.board[x].owner = Some(x % n);
        g.board[x].armies = 1;
    }
    for (s, c) in castles.iter().enumerate() {
        let c = t(c);
        g.players[s].castle = Some(c);
        g.board[c].owner = Some(s);
        g.players[s].empire = map().group_of(c);
        g.players[s].tokens = vec![g.players[s].empire];
    }
    for (name, s, a) in owners {
        g.board[t(name)].owner = Some(*s);
        g.board[t(name)].armies = *a;
    }
    for s in 0..n {
        g.players[s].setup_armies = 0;
    }
    g.pile = full_deck();
    g.phase = Phase::Play;
    g.current = 0;
    g.turns_played = 1;
    g.turn = 1;
    g
}

/// Give `seat` these cards from the pile.
pub fn give(g: &mut CastleRisk, seat: usize, cards: &[castellan_castle_risk::Card]) {
    for c in cards {
        let i = g.pile.iter().position(|x| x == c).expect("card in pile");
        g.pile.remove(i);
        g.players[seat].hand.push(*c);
    }
}

/// A dice box whose first public d6 rolls satisfy `want` (searching seeds and turns; the
/// hash chain is computed once per seed).
pub fn dice_with(count: usize, want: impl Fn(&[u8]) -> bool) -> DiceBox {
    for i in 0..1000 {
        let mut base = DiceBox::new(
            &format!("faces-{i}"),
            Secret::derive(format!("faces-{i}").as_bytes()),
        );
        base.turn_seed(1);
        for k in 1..1000 {
            let mut d = base.clone();
            d.enter_turn(k);
            let mut probe = d.clone();
            let faces: Vec<u8> = probe.roll_d6(count).iter().map(|r| r.value).collect();
            if want(&faces) {
                return d;
            }
        }
    }
    panic!("no seed gives the wanted faces");
}

pub fn any_dice() -> DiceBox {
    DiceBox::new("any", Secret::derive(b"any"))
}

/// A territory as the text map shows it: (name, holder, armies, castle).
pub type MapFact = (String, String, u32, bool);

/// Every territory of a public view's map, read back from its paragraphs, one an empire:
/// "FRENCH EMPIRE (4 for all). Alice: Paris* 1, Burgundy 2 (castle). Bruno: Gascony* 1."
/// or "SPAIN (INDEPENDENT), all held by Bruno: Barcelona* 1, Madrid* 1." (and in French).
pub fn map_facts(view: &str, lang: castellan_engine::Lang) -> Vec<MapFact> {
    let fr = lang == castellan_engine::Lang::Fr;
    let (groups, held, colon, castle) = if fr {
        (
            [" (4 pour l'empire entier)", " (INDÉPENDANTS)"],
            ", tout à ",
            " : ",
            " (château)",
        )
    } else {
        (
            [" (4 for all)", " (INDEPENDENT)"],
            ", all held by ",
            ": ",
            " (castle)",
        )
    };
    let mut out = Vec::new();
    for line in view.lines() {
        if !groups.iter().any(|g| line.contains(g)) {
            continue;
        }
        let rest = line.trim_end_matches('.');
        let parts: Vec<(String, &str)> = if let Some(i) = rest.find(held) {
            let (who, list) = rest[i + held.len()..]
                .split_once(colon)
                .expect("held by one: a list");
            vec![(who.to_string(), list)]
        } else {
            let body = &rest[rest.find("). ").expect("a group's header") + 3..];
            body.split(". ")
                .map(|p| {
                    let (who, list) = p.split_once(colon).expect("a holder's list");
                    (who.to_string(), list)
                })
                .collect()
        };
        for (who, list) in parts {
            for e in list.split(", ") {
                let has_castle = e.ends_with(castle);
                let e = e.trim_end_matches(castle);
                let (name, armies) = e.rsplit_once(' ').expect("a territory and its armies");
                let name = name.trim_end_matches(['*', '^']).to_string();
                out.push((
                    name,
                    who.clone(),
                    armies.parse().expect("armies"),
                    has_castle,
                ));
            }
        }
    }
    out
}
