//! The game in French: every narration line, view, prompt, refusal and the help, with no
//! English left in them; French order words read as the English ones; French choices
//! parse back to the same orders as the English choices.

mod common;
use castellan_engine::Secret;
use castellan_engine::{Lang, Outcome, Rules, Source, Table, Viewer};
use castellan_risk::{Allotment, Event, Order, Owner, Policy, Risk, WinReason};
use common::*;

/// Words only the English phrasing uses (compared as whole words, case-insensitive): any
/// untranslated phrase of the game contains at least one.
const ENGLISH: &[&str] = &[
    "the",
    "and",
    "with",
    "from",
    "your",
    "you",
    "armies",
    "army",
    "attacks",
    "attack",
    "turn",
    "wins",
    "of",
    "to",
    "claims",
    "claim",
    "places",
    "trade",
    "trades",
    "traded",
    "card",
    "cards",
    "round",
    "defend",
    "held",
    "players",
    "winner",
    "dice",
    "die",
    "neutral",
    "nobody",
    "conquers",
    "moves",
    "draws",
    "ends",
    "eliminated",
    "territories",
    "territory",
    "standing",
    "ranking",
    "headquarters",
    "waits",
    "loses",
    "commitment",
    "salt",
    "key",
    "infantry",
    "cavalry",
    "artillery",
    "wild",
    "north",
    "south",
    "east",
    "west",
    "australia",
    "america",
    "africa",
    "asia",
    "until",
    "conquered",
    "fortify",
    "end",
    "set",
    "hq",
    "rank",
    "left",
    "rolls",
    "waiting",
    "default",
    "view",
    "private",
    "revealed",
    "sets",
    "worth",
    "is",
    "has",
    "not",
    "yours",
    "already",
    "free",
    "send",
    "choose",
    "how",
    "many",
    "again",
    "first",
    "goes",
    "rolled",
    "highest",
    "holds",
    "takes",
    "must",
    "now",
    "an",
    "in",
    "for",
    "when",
    "allowed",
    "ask",
    "write",
    "orders",
    "order",
    "none",
    "game",
    "over",
    "no",
    "or",
    "there",
    "say",
    "name",
    "know",
    "did",
    "mean",
    "leave",
    "move",
    "reroll",
    "commander",
    "dealt",
    "drafted",
    "random",
    "most",
    "limit",
    "reached",
    "opponent",
    "enemy",
    "its",
    "own",
];

/// English names of places (those the French board names otherwise).
const ENGLISH_NAMES: &[&str] = &[
    "eastern",
    "western",
    "northern",
    "southern",
    "united",
    "states",
    "northwest",
    "central",
    "great",
    "britain",
    "iceland",
    "greenland",
    "brazil",
    "peru",
    "argentina",
    "egypt",
    "china",
    "india",
    "japan",
    "mongolia",
    "siberia",
    "irkutsk",
    "yakutsk",
    "indonesia",
    "guinea",
    "new",
    "middle",
    "scandinavia",
    "quebec",
    "ural",
];

/// Proper nouns and symbols the French text may share with the English.
const ALLOW: &[&str] = &["RISK", "SHA", "PLACE", "P0", "P1", "P2", "P3", "P4", "P5"];

/// `text` without the player's own words quoted back (« ... »).
fn unquoted(text: &str) -> String {
    let mut out = String::new();
    let mut rest = text;
    while let Some(i) = rest.find('«') {
        out += &rest[..i];
        rest = rest[i..].split_once('»').map(|(_, r)| r).unwrap_or("");
    }
    out + rest
}

/// The first English word of `text`, if any (the line is named in the failure).
fn english_word(text: &str) -> Option<String> {
    let text = unquoted(text);
    let words: Vec<&str> = text
        .split(|c: char| !c.is_alphanumeric() && c != '_')
        .filter(|w| !w.is_empty())
        .collect();
    // a board key after "clé"/"key" is an identifier (the headquarters check), not a word
    let key = |i: usize| i > 0 && ["clé", "key"].contains(&words[i - 1]);
    (0..words.len())
        .filter(|&i| !key(i) && !words[i].contains('_') && !ALLOW.contains(&words[i]))
        .map(|i| words[i])
        .find(|w| {
            let w = w.to_lowercase();
            ENGLISH.contains(&w.as_str()) || ENGLISH_NAMES.contains(&w.as_str())
        })
        .map(str::to_string)
}

fn assert_french(what: &str, text: &str) {
    for line in text.lines() {
        if let Some(w) = english_word(line) {
            panic!("{what}: English word \"{w}\" in French line: {line}");
        }
    }
}

const VARIANTS: &[(usize, &[(&str, &str)])] = &[
    (2, &[]),
    (3, &[]),
    (4, &[("claim", "draft"), ("placement", "blind")]),
    (
        3,
        &[
            ("headquarters", "all"),
            ("reroll", "true"),
            ("commander", "true"),
        ],
    ),
    (
        4,
        &[
            ("max_armies_per_territory", "12"),
            ("free_fortify", "true"),
            ("turn_limit", "3"),
        ],
    ),
    (5, &[("headquarters", "quick"), ("claim", "random")]),
    (2, &[("placement", "blind")]),
];

/// The order a line means, read by the game.
fn read(t: &Table<Risk>, seat: usize, line: &str) -> Order {
    t.state
        .parse(seat, line)
        .unwrap_or_else(|e| panic!("{line:?} refused: {}", e.message))
}

/// Every prompt in French: worded in French, and each French line (choice, default,
/// standing) is the same order as the English line at the same place.
fn check_prompts(t: &Table<Risk>, id: &str) {
    let en = t.state.pending(Lang::En);
    let fr = t.state.pending(Lang::Fr);
    assert_eq!(en.len(), fr.len(), "{id}");
    for (e, f) in en.iter().zip(&fr) {
        assert_eq!((e.seat, e.kind), (f.seat, f.kind), "{id}");
        assert_french(id, &f.question);
        assert_eq!(e.choices.len(), f.choices.len(), "{id}: {:?}", f.choices);
        let pairs = e
            .choices
            .iter()
            .zip(&f.choices)
            .chain([(&e.default, &f.default)])
            .chain(e.standing.iter().zip(f.standing.iter()));
        for (le, lf) in pairs {
            assert_eq!(
                read(t, e.seat, le),
                read(t, e.seat, lf),
                "{id}: {le} / {lf}"
            );
            assert_french(id, lf);
        }
    }
}

fn check_views(t: &Table<Risk>, id: &str) {
    assert_french(id, &t.state.public_view(Lang::Fr));
    for seat in 0..t.players.len() {
        assert_french(id, &t.state.private_view(seat, Lang::Fr));
    }
}

/// Bot games of every variant: every event narrated in French for the public and every
/// seat, views and prompts in French along the way, the outcome in French.
#[test]
fn whole_bot_games_read_in_french_without_english() {
    for (i, (players, v)) in VARIANTS.iter().enumerate() {
        let id = format!("fr-{i}");
        let mut t = table(*players, v, &id);
        for step in 0..20_000 {
            if step % 5 == 0 {
                check_prompts(&t, &id);
                check_views(&t, &id);
            }
            if t.state.outcome().is_some() {
                break;
            }
            let seat = t.state.pending(Lang::Fr)[0].seat;
            let o = t.bot_order(seat);
            t.apply(seat, o, Source::Bot).expect("bot order accepted");
        }
        let outcome: Outcome = t.state.outcome().expect("the game ends");
        assert_french(&id, outcome.reason_in(Lang::Fr));
        check_views(&t, &id);
        for entry in &t.history {
            for e in &entry.events {
                let viewers =
                    std::iter::once(Viewer::Public).chain((0..*players).map(Viewer::Seat));
                for v in viewers {
                    if let Some(line) = t.state.narrate(e, v, Lang::Fr) {
                        assert_french(&format!("{id} {e:?}"), &line);
                    }
                }
            }
        }
    }
}

/// French order words (accents optional, any case) read as the English ones.
#[test]
fn french_order_words_read_as_the_english_ones() {
    let t = position(
        2,
        &[("reroll", "true"), ("commander", "true")],
        "fr-words",
        0,
        seat(1),
        &[("Alaska", seat(0), 5), ("Alberta", seat(0), 3)],
    );
    let pairs = [
        ("CLAIM Northwest Territory", "RÉCLAME Territoires du Nord-Ouest"),
        ("CLAIM Eastern United States", "reclame etats de l'est"),
        ("RANK Eastern Australia, Indonesia", "CLASSE Australie orientale, Indonésie"),
        ("PLACE 3 Alaska, 2 Peru", "PLACER 3 Alaska, 2 Pérou"),
        ("PLACE 2 Alaska NEUTRAL 1 Peru", "PLACE 2 Alaska NEUTRE 1 Pérou"),
        ("HQ Ural", "QG Oural"),
        ("TRADE Alaska, Peru, WILD", "ÉCHANGE Alaska, Pérou, PASSE-PARTOUT"),
        ("TRADE Alaska, Peru, WILD", "echanger alaska, perou, joker"),
        ("ATTACK Kamchatka FROM Alaska", "ATTAQUE Kamchatka DEPUIS Alaska"),
        (
            "ATTACK Kamchatka FROM Alaska UNTIL CONQUERED",
            "attaquer Kamtchatka depuis Alaska jusqu'à conquête",
        ),
        (
            "ATTACK Kamchatka FROM Alaska UNTIL 3 LEFT WITH 2 DICE MOVE ALL REROLL COMMANDER",
            "ATTAQUE Kamchatka DEPUIS Alaska JUSQU'À 3 RESTANTES AVEC 2 DÉS DÉPLACE TOUT RELANCE COMMANDANT",
        ),
        (
            "ATTACK Middle East FROM East Africa FOR 2 ROLLS THEN LEAVE 2",
            "ATTAQUE Moyen-Orient DEPUIS Afrique de l'Est POUR 2 LANCERS PUIS LAISSE 2",
        ),
        ("ATTACK Peru FROM Brazil WITH 1 DIE MOVE 4", "ATTAQUE Pérou DEPUIS Brésil AVEC 1 DÉ DÉPLACE 4"),
        ("DEFEND 2", "DÉFENDS 2"),
        ("DEFEND 1", "defendre 1"),
        ("FORTIFY 4 FROM Ontario TO Quebec", "FORTIFIE 4 DEPUIS Ontario VERS Québec"),
        ("FORTIFY 4 FROM Ontario TO Quebec", "DÉPLACE 4 DEPUIS Ontario À Québec"),
        ("END", "FIN"),
        ("END", "TERMINER"),
        ("END", "fin du tour"),
        ("SET DEFEND 2", "RÈGLE DÉFENSE 2"),
        ("SET DEFEND ASK", "regle defense demande"),
        ("SET NEUTRAL 1", "RÈGLE NEUTRE 1"),
    ];
    for (en, fr) in pairs {
        assert_eq!(read(&t, 0, en), read(&t, 0, fr), "{en} / {fr}");
        // the French line as the game writes it reads back as the same order
        let o = read(&t, 0, en);
        assert_eq!(read(&t, 0, &french_text(&o)), o, "{en}");
    }
}

/// The line a French reader is shown for an order (its French choice form).
fn french_text(o: &Order) -> String {
    castellan_risk::order_text_in(o, Lang::Fr)
}

/// A refused order says why and how to write it in French, with French order words.
#[test]
fn a_refused_order_is_explained_in_french() {
    let mut t = position(
        3,
        &[],
        "fr-refused",
        0,
        seat(1),
        &[("Alaska", seat(0), 5), ("Alberta", seat(0), 3)],
    );
    let cases = [
        (
            "ATTAQUE Pérou DEPUIS Alaska",
            "L'Alaska ne touche pas le Pérou",
            "attaquez un territoire voisin",
        ),
        (
            "ATTAQUE Kamchatka DEPUIS Alberta",
            "ne touche pas le Kamchatka",
            "écrivez : ATTAQUE Kamchatka DEPUIS Alaska",
        ),
        (
            "ATTAQUE Alberta DEPUIS Alaska",
            "est déjà à vous",
            "écrivez : ATTAQUE Territoires du Nord-Ouest DEPUIS Alaska",
        ),
        (
            "ATTACK Kamchatka FROM Peru",
            "Le Pérou ne vous appartient pas",
            "écrivez : ATTAQUE",
        ),
        (
            "FORTIFIE 9 DEPUIS Alaska VERS Alberta",
            "L'Alaska a 5 armées",
            "écrivez : FORTIFIE 4 DEPUIS Alaska VERS Alberta",
        ),
        ("RÉCLAME Atlantide", "n'est pas un nom", "écrivez : RÉCLAME"),
        (
            "ATTAQUE Kamchatka DEPUIS Alaska JUSQU'À l'aube",
            "je ne comprends pas",
            "JUSQU'À CONQUÊTE",
        ),
        (
            "DÉFENDS 2",
            "aucune attaque n'attend vos dés",
            "RÈGLE DÉFENSE 2",
        ),
        (
            "BONJOUR",
            "je ne connais pas l'ordre « BONJOUR »",
            "ATTAQUE",
        ),
        ("RÈGLE NEUTRE 1", "partie à 2 joueurs", "RÈGLE DÉFENSE 2"),
    ];
    for (line, message, hint) in cases {
        let before = serde_json::to_value(&t.state).unwrap();
        let e = t.submit(0, line, Lang::Fr).expect_err(line);
        assert_eq!(before, serde_json::to_value(&t.state).unwrap());
        let h = e[0].hint.clone().unwrap_or_default();
        assert!(e[0].message.contains(message), "{line}: {}", e[0].message);
        assert!(h.contains(hint), "{line}: {h}");
        assert_french(line, &e[0].message);
        assert_french(line, &h);
    }
    // the English reader still reads English
    let e = t
        .submit(0, "ATTAQUE Pérou DEPUIS Alaska", Lang::En)
        .unwrap_err();
    assert_eq!(e[0].message, "Alaska does not border Peru");
    assert_eq!(
        e[0].hint.as_deref(),
        Some("attack a territory next to one of yours")
    );
}

/// Refusals of the whole order language in French, at many points of bot games.
#[test]
fn every_refusal_has_french_words() {
    const BAD: &[&str] = &[
        "",
        "FOO",
        "CLAIM",
        "CLAIM Atlantis",
        "CLAIM Alaska",
        "RANK Peru, Peru",
        "RANK",
        "PLACE",
        "PLACE x Alaska",
        "PLACE 0 Alaska",
        "PLACE 3 Alaska",
        "PLACE 1 Alaska NEUTRAL 1 Peru",
        "HQ Alaska",
        "TRADE a, b",
        "TRADE Alaska, Peru, WILD",
        "TRADE WILD, WILD, WILD",
        "ATTACK Peru",
        "ATTACK Peru FROM Brazil",
        "ATTACK Peru FROM Brazil UNTIL dawn",
        "ATTACK Peru FROM Alaska",
        "ATTACK Peru FROM Brazil REROLL COMMANDER",
        "DEFEND 3",
        "DEFEND 1",
        "FORTIFY x",
        "FORTIFY 3 Alaska",
        "FORTIFY 3 TO Alaska FROM Peru",
        "FORTIFY 3 FROM Alaska TO Peru",
        "FORTIFY 100 FROM Alaska TO Alberta",
        "END now",
        "END",
        "SET",
        "SET DEFEND 3",
        "SET DEFEND",
        "SET NEUTRAL 1",
        "CLAIM Europe",
        "CLAIM kamchatkka",
        "PLACE 99 Alaska",
    ];
    for (i, (players, v)) in VARIANTS.iter().enumerate().take(5) {
        let id = format!("fr-bad-{i}");
        let mut t = table(*players, v, &id);
        for step in 0..400 {
            if t.state.outcome().is_some() {
                break;
            }
            if step % 23 == 0 {
                for seat in 0..*players {
                    for line in BAD {
                        let mut c = t.clone();
                        if let Err(errs) = c.submit(seat, line, Lang::Fr) {
                            for e in errs {
                                let what = format!("{id} seat {seat} {line:?}");
                                assert_french(&what, &e.message);
                                assert_french(&what, e.hint.as_deref().unwrap_or(""));
                            }
                        }
                    }
                }
            }
            let seat = t.state.pending(Lang::En)[0].seat;
            let o = t.bot_order(seat);
            t.apply(seat, o, Source::Bot).expect("bot order accepted");
        }
    }
}

/// The ORDERS help in French: French order words, every example line reads.
#[test]
fn the_french_help_uses_french_words() {
    let help = Risk::order_help(Lang::Fr);
    for w in [
        "RÉCLAME",
        "ATTAQUE",
        "DEPUIS",
        "FORTIFIE",
        "VERS",
        "FIN",
        "RÈGLE DÉFENSE",
    ] {
        assert!(help.contains(w), "{w}");
    }
    // the help's words are French (its first line says English order words also work)
    for line in help.lines().skip(2) {
        assert!(english_word(line).is_none(), "{line}");
    }
    assert_ne!(help, Risk::order_help(Lang::En));
}

/// One event of every kind (those bots never cause too: a defence asked for, a standing
/// order, a tie at the turn limit, lost armies), narrated to everyone: the French has no
/// English word, and the English has one (the word list covers every English phrase).
#[test]
fn every_kind_of_event_reads_in_french_and_the_word_list_catches_its_english() {
    let t = table(2, &[("headquarters", "all")], "fr-events");
    let (a, b) = (id("Alaska"), id("Kamchatka"));
    let events = vec![
        Event::FirstPlayer { seat: 0 },
        Event::Claimed { seat: 0, t: a },
        Event::Ranked {
            seat: 0,
            list: vec![a, b],
        },
        Event::Allotted {
            picks: vec![(Owner::Seat(0), a), (Owner::Neutral, b)],
            how: Allotment::Random,
        },
        Event::Allotted {
            picks: vec![(Owner::Seat(1), a)],
            how: Allotment::Draft,
        },
        Event::Placed {
            seat: 0,
            own: vec![(a, 2)],
            neutral: vec![(b, 1)],
        },
        Event::BlindSent {
            seat: 0,
            own: vec![(a, 2)],
            neutral: vec![(b, 1)],
        },
        Event::BlindRevealed {
            all: vec![(0, vec![(a, 2)], vec![(b, 1)])],
        },
        Event::HqCommitted {
            seat: 0,
            t: a,
            commitment: "c0ffee".into(),
        },
        Event::HqRevealed {
            all: vec![(0, a, Secret::derive(b"s"))],
        },
        Event::TurnBegins {
            seat: 1,
            round: 2,
            territories: 14,
            base: 4,
            continents: vec![1, 5],
            total: 8,
        },
        Event::Traded {
            seat: 0,
            cards: vec![a, b, 42],
            value: 6,
            bonus_on: Some(a),
        },
        Event::ArmiesLost { seat: 0, armies: 3 },
        Event::AwaitDefence {
            responder: 1,
            from: a,
            to: b,
        },
        Event::Battle {
            seat: 0,
            from: a,
            to: b,
            attack: vec![6, 3],
            defence: vec![5],
            attacker_losses: 0,
            defender_losses: 1,
            reroll: Some((a, 1, 6)),
            commander: Some(2),
            held: None,
        },
        Event::Conquered {
            seat: 0,
            from: a,
            to: b,
            moved: 3,
        },
        Event::HqTaken {
            seat: 0,
            of: 1,
            t: b,
        },
        Event::Eliminated {
            victim: 1,
            by: 0,
            cards: vec![a, 43],
        },
        Event::Eliminated {
            victim: 1,
            by: 0,
            cards: vec![],
        },
        Event::MustTrade { seat: 0, cards: 6 },
        Event::Drew { seat: 0, card: 42 },
        Event::Fortified {
            seat: 0,
            from: a,
            to: b,
            armies: 1,
        },
        Event::TurnEnds { seat: 0 },
        Event::StandingSet {
            seat: 0,
            neutral: true,
            policy: Policy::Ask,
        },
        Event::StandingSet {
            seat: 0,
            neutral: false,
            policy: Policy::Dice(1),
        },
        Event::Extended {
            round: 11,
            tied: vec![0, 1],
        },
        Event::Won {
            winners: vec![0],
            reason: WinReason::Opponent,
        },
        Event::Won {
            winners: vec![0],
            reason: WinReason::World,
        },
        Event::Won {
            winners: vec![1],
            reason: WinReason::Headquarters { taken: 2 },
        },
        Event::Won {
            winners: vec![1],
            reason: WinReason::TurnLimit {
                territories: 20,
                rounds: 10,
            },
        },
        Event::Allotted {
            picks: vec![(Owner::Seat(0), a), (Owner::Seat(1), b)],
            how: Allotment::Piles,
        },
    ];
    for e in &events {
        for v in [Viewer::Public, Viewer::Seat(0), Viewer::Seat(1)] {
            let (en, fr) = (
                t.state.narrate(e, v, Lang::En),
                t.state.narrate(e, v, Lang::Fr),
            );
            assert_eq!(en.is_some(), fr.is_some(), "{e:?}");
            if let (Some(en), Some(fr)) = (en, fr) {
                assert_french(&format!("{e:?}"), &fr);
                assert!(english_word(&en).is_some(), "the word list misses: {en}");
            }
        }
    }
    let fr = t
        .state
        .narrate(&events[15], Viewer::Public, Lang::Fr)
        .unwrap();
    assert_eq!(
        fr,
        "P0 conquiert le Kamchatka et y fait entrer 3 armées depuis l'Alaska."
    );
    let fr = t
        .state
        .narrate(&events[21], Viewer::Public, Lang::Fr)
        .unwrap();
    assert_eq!(fr, "P0 déplace 1 armée de l'Alaska vers le Kamchatka.");
}

/// The English views and prompts are caught by the word list (so the French checks bite):
/// every line the French view words differently has an English word in its English form.
#[test]
fn the_word_list_catches_the_english_views_and_prompts() {
    let mut t = table(2, &[("placement", "blind")], "fr-catch");
    to_play(&mut t);
    let mut views = vec![(t.state.public_view(Lang::En), t.state.public_view(Lang::Fr))];
    for seat in 0..2 {
        views.push((
            t.state.private_view(seat, Lang::En),
            t.state.private_view(seat, Lang::Fr),
        ));
    }
    for (en, fr) in views {
        assert_eq!(en.lines().count(), fr.lines().count());
        for (le, lf) in en.lines().zip(fr.lines()) {
            let words = |l: &str| l.split_whitespace().collect::<Vec<_>>().join(" ");
            if words(le) != words(lf) {
                assert!(english_word(le).is_some(), "the word list misses: {le}");
            }
        }
    }
    for p in t.state.pending(Lang::En) {
        assert!(english_word(&p.question).is_some(), "{}", p.question);
    }
}
