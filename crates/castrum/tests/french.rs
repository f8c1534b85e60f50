//! Castrum in French: every text of a bot-played game in French with no English left in
//! it, French order words, French choices that parse back to the English ones, and
//! refused orders explained in French.

mod common;

use castellan_castrum::orders::order_text_in;
use castellan_castrum::*;
use castellan_engine::{Lang, Rules, Secret, Table, Viewer};
use common::*;

/// Words only the English phrasing of Castrum uses (compared whole-word, ignoring case).
const ENGLISH: &[&str] = &[
    "the",
    "and",
    "with",
    "from",
    "your",
    "you",
    "card",
    "cards",
    "turn",
    "round",
    "rounds",
    "wins",
    "site",
    "sites",
    "wall",
    "walls",
    "tower",
    "towers",
    "pile",
    "hand",
    "plays",
    "play",
    "draws",
    "draw",
    "discard",
    "discards",
    "build",
    "builds",
    "lost",
    "saved",
    "game",
    "over",
    "scores",
    "standing",
    "order",
    "orders",
    "event",
    "waiting",
    "blocked",
    "of",
    "to",
    "is",
    "no",
    "exchange",
    "exchanges",
    "end",
    "ends",
    "defend",
    "accept",
    "give",
    "gives",
    "set",
    "always",
    "never",
    "ask",
    "works",
    "fire",
    "plague",
    "feast",
    "fools",
    "witch",
    "gold",
    "masons",
    "stones",
    "peasants",
    "rules",
    "family",
    "timed",
    "classic",
    "rolls",
    "die",
    "dice",
    "their",
    "they",
    "has",
    "goes",
    "puts",
    "hires",
    "answers",
    "answer",
    "aiming",
    "free",
    "again",
    "until",
    "next",
    "first",
    "begins",
    "empty",
    "none",
    "may",
    "write",
    "if",
    "not",
    "every",
    "it",
    "its",
    "at",
    "by",
    "for",
    "in",
    "target",
    "castle",
    "players",
    "player",
    "bad",
    "weather",
    "reform",
    "monastic",
    "famine's",
    "shows",
    "receive",
    "passes",
    "left",
    "neighbour",
    "spares",
    "destroys",
    "taken",
    "each",
    "away",
];

/// Proper nouns a French text may hold: card names, player names, the game.
fn allowed(word: &str) -> bool {
    let w = word.to_lowercase();
    let in_card = Card::ALL.iter().any(|c| {
        c.name()
            .split(|ch: char| !ch.is_alphanumeric())
            .any(|p| p.to_lowercase() == w)
    });
    in_card || NAMES.iter().any(|n| n.to_lowercase() == w) || w == "castrum"
}

/// Fails naming the line if it holds an English word.
fn assert_french(what: &str, text: &str) {
    for line in text.lines() {
        for word in line.split(|c: char| !(c.is_alphanumeric() || c == '\'')) {
            let w = word.trim_matches('\'');
            if w.is_empty() || allowed(w) {
                continue;
            }
            // "d'Alice", "l'emporte": the part after the apostrophe is the word.
            let w = w.rsplit('\'').next().unwrap_or(w).to_lowercase();
            assert!(
                !ENGLISH.contains(&w.as_str()),
                "{what}: English word \"{w}\" in French line \"{line}\""
            );
        }
    }
}

fn table(seats: usize, options: Options, id: &str) -> Table<Castrum> {
    let players = players(seats);
    Table::<Castrum>::new(id, Secret::derive(id.as_bytes()), players, options).unwrap()
}

/// Every French prompt has the English prompt's shape and each French line (choices,
/// default, standing) parses to the same order as the English line at the same place.
fn check_prompts(g: &Castrum, id: &str) {
    let en = g.pending(Lang::En);
    let fr = g.pending(Lang::Fr);
    assert_eq!(en.len(), fr.len(), "{id}: as many prompts");
    for (e, f) in en.iter().zip(fr.iter()) {
        assert_eq!((e.seat, e.kind), (f.seat, f.kind), "{id}: same prompt");
        assert_eq!(e.choices.len(), f.choices.len(), "{id}: as many choices");
        assert_french(id, &f.question);
        let mut pairs: Vec<(&String, &String)> = e.choices.iter().zip(f.choices.iter()).collect();
        pairs.push((&e.default, &f.default));
        if let (Some(se), Some(sf)) = (&e.standing, &f.standing) {
            pairs.push((se, sf));
        }
        assert_eq!(e.standing.is_some(), f.standing.is_some());
        for (le, lf) in pairs {
            let oe = g.parse(e.seat, le).expect("English choice parses");
            let of = g
                .parse(f.seat, lf)
                .unwrap_or_else(|er| panic!("{id}: French \"{lf}\" refused: {}", er.message));
            assert_eq!(oe, of, "{id}: \"{lf}\" and \"{le}\" are the same order");
            assert_french(id, lf);
        }
    }
}

/// Lines to refuse at any moment of a game (some may be legal: those are skipped).
const ODD_LINES: &[&str] = &[
    "",
    "JOUER",
    "JOUER Zorglub",
    "JOUER Gardes",
    "JOUER Incendie",
    "JOUER Incendie SUR Zed",
    "JOUER Lapides SUR Bob",
    "JOUER Sorcière SUR Bob",
    "JOUER Sorcière SUR Bob CIBLE Mage",
    "JOUER Mage CIBLE Lapides",
    "JOUER Roue de Carrier SUR Bob",
    "JOUER Pièces d'Or SUR Bob",
    "JOUER Mage SUR Bob",
    "DÉFAUSSER",
    "DÉFAUSSER Mage, Mage, Mage, Mage",
    "CONSTRUIRE",
    "CONSTRUIRE MURAILLE",
    "CONSTRUIRE TOUR",
    "ÉCHANGER Lapides",
    "ÉCHANGER Lapides x2",
    "FIN",
    "FIN maintenant",
    "DÉFENDRE",
    "DÉFENDRE AVEC Lapides",
    "DÉFENDRE AVEC Moines",
    "ACCEPTER",
    "DONNER Lapides",
    "CONSIGNE",
    "CONSIGNE DÉFENSE",
    "CONSIGNE TRUC",
    "CONSIGNE ŒUVRES",
    "ATTAQUER Bob",
];

/// Every refusal is worded in French, hint included, and holds no English.
fn check_refusals(g: &Castrum, dice: &castellan_engine::DiceBox, id: &str) {
    for s in 0..g.seats() {
        for line in ODD_LINES {
            let r = g.parse(s, line).and_then(|o| {
                let (mut g2, mut d2) = (g.clone(), dice.clone());
                g2.apply(s, &o, &mut d2).map(|_| ())
            });
            let Err(e) = r else { continue };
            let fr = e.french.as_ref().expect("a French wording");
            let msg = fr.message.as_deref().expect("a French message");
            assert_french(&format!("{id} refusal of {line}"), msg);
            assert_eq!(
                e.hint.is_some(),
                fr.hint.is_some(),
                "{id}: French hint for {line}"
            );
            if let Some(h) = &fr.hint {
                assert_french(&format!("{id} hint for {line}"), h);
            }
        }
    }
}

fn check_views(g: &Castrum, id: &str) {
    assert_french(&format!("{id} public view"), &g.public_view(Lang::Fr));
    for s in 0..g.seats() {
        assert_french(&format!("{id} view of {s}"), &g.private_view(s, Lang::Fr));
    }
}

fn check_narration(t: &Table<Castrum>, id: &str) -> usize {
    let mut lines = 0;
    for entry in &t.history {
        for e in &entry.events {
            let mut viewers = vec![Viewer::Public];
            viewers.extend((0..t.state.seats()).map(Viewer::Seat));
            for v in viewers {
                let en = t.state.narrate(e, v, Lang::En);
                let fr = t.state.narrate(e, v, Lang::Fr);
                assert_eq!(en.is_some(), fr.is_some(), "{id}: {e:?} told to {v:?}");
                if let Some(line) = fr {
                    assert_french(&format!("{id} {e:?} to {v:?}"), &line);
                    assert_ne!(Some(line), en, "{id}: {e:?} translated");
                    lines += 1;
                }
            }
        }
    }
    lines
}

/// A bot game, read in French all along: prompts and views at every step, then the
/// narration of every event for the public and each seat.
fn french_game(seats: usize, options: Options, id: &str) {
    let mut t = table(seats, options, id);
    // Standing orders set in French (their narration is checked too).
    t.submit(1, "CONSIGNE DÉFENSE TOUJOURS", Lang::Fr).unwrap();
    t.submit(0, "consigne oeuvres Rustici, Lapides", Lang::Fr)
        .unwrap();
    assert_eq!(t.state.defend[1], DefendPolicy::Always);
    for step in 0..20_000 {
        check_prompts(&t.state, id);
        if step % 5 == 0 {
            check_views(&t.state, id);
        }
        if step % 11 == 0 {
            check_refusals(&t.state, &t.dice, id);
        }
        let Some(p) = t.state.pending(Lang::En).first().cloned() else {
            break;
        };
        t.play_bot(p.seat).unwrap();
    }
    let out = t.state.outcome().expect("finished");
    assert!(
        out.reason_fr.is_some(),
        "{id}: the outcome is worded in French"
    );
    assert_french(id, out.reason_in(Lang::Fr));
    check_views(&t.state, id);
    assert!(check_narration(&t, id) > 100, "{id}: a whole game told");
}

#[test]
fn bot_games_read_in_french_hold_no_english() {
    french_game(2, Options::default(), "castrum-fr-2");
    french_game(3, expert(), "castrum-fr-3");
    let timed = Options {
        victory: Victory::Timed,
        rounds: 6,
        ..Options::default()
    };
    french_game(4, timed, "castrum-fr-4");
}

/// One event of every kind, told in French to the public and to each seat.
#[test]
fn every_event_is_told_in_french() {
    let (g, _) = new_game(3, &family(), "castrum-fr-events");
    let l = vec![Card::Lapides, Card::Mage];
    let events = vec![
        Event::FirstPlayer {
            rolls: vec![vec![(0, 6), (1, 6), (2, 2)], vec![(0, 1), (1, 4)]],
            seat: 1,
        },
        Event::Drew {
            seat: 0,
            cards: l.clone(),
        },
        Event::Reshuffled { cards: 12 },
        Event::TurnBegins { seat: 0, round: 3 },
        Event::MageLeaves {
            caster: 1,
            victim: 0,
        },
        Event::Placed {
            seat: 0,
            card: Card::Rustici,
        },
        Event::Wheel { seat: 0 },
        Event::Attacked {
            attacker: 0,
            victim: 1,
            card: Card::Sorciere,
            aim: Some(Card::Lapides),
        },
        Event::Attacked {
            attacker: 0,
            victim: 1,
            card: Card::Incendie,
            aim: None,
        },
        Event::Defended {
            victim: 1,
            defence: Card::Gardes,
            attack: Card::Incendie,
        },
        Event::FireDie {
            victim: 1,
            card: Card::Lapides,
            die: 4,
            lost: true,
        },
        Event::FireDie {
            victim: 1,
            card: Card::Lapides,
            die: 3,
            lost: false,
        },
        Event::FireLots {
            victim: 1,
            lots: 2,
            lost: l.clone(),
        },
        Event::FireLots {
            victim: 1,
            lots: 0,
            lost: vec![],
        },
        Event::Witch {
            victim: 1,
            card: Card::Lapides,
            die: Some(2),
            destroyed: true,
        },
        Event::Witch {
            victim: 1,
            card: Card::Lapides,
            die: None,
            destroyed: false,
        },
        Event::Stolen {
            attacker: 0,
            victim: 1,
        },
        Event::Blocked {
            caster: 0,
            victim: 1,
        },
        Event::Built {
            seat: 0,
            piece: Piece::Wall,
            used: l.clone(),
            walls: 1,
            towers: 0,
        },
        Event::Built {
            seat: 0,
            piece: Piece::Tower,
            used: l.clone(),
            walls: 3,
            towers: 1,
        },
        Event::Exchanged {
            seat: 0,
            card: Card::RusticiX2,
        },
        Event::Discarded {
            seat: 0,
            cards: l.clone(),
        },
        Event::TurnEnds { seat: 0 },
        Event::Plague {
            seat: 2,
            lost: l.clone(),
        },
        Event::Gave {
            seat: 2,
            card: Card::Rustici,
        },
        Event::Received {
            seat: 0,
            from: 2,
            cards: l.clone(),
        },
        Event::HandsPassed,
        Event::StandingSet {
            seat: 0,
            standing: Standing::Defend(DefendPolicy::Always),
        },
        Event::StandingSet {
            seat: 0,
            standing: Standing::Works(vec![Card::Rustici, Card::Lapides]),
        },
        Event::Scores {
            points: vec![5, 1, 0],
        },
        Event::Won {
            winners: vec![0],
            end: End::Castle,
        },
        Event::Won {
            winners: vec![0, 2],
            end: End::RoundsOver {
                rounds: 20,
                points: 5,
            },
        },
        Event::Won {
            winners: vec![1],
            end: End::RoundLimit {
                rounds: 80,
                points: 1,
            },
        },
    ];
    for h in Happening::ALL {
        let ev = Event::EventDie {
            round: 2,
            die: 4,
            happening: h,
        };
        let line = g.narrate(&ev, Viewer::Public, Lang::Fr).unwrap();
        assert!(line.contains(h.name_in(Lang::Fr)), "{line}");
        assert_french("event die", &line);
    }
    let mut told = 0;
    for ev in &events {
        for v in [
            Viewer::Public,
            Viewer::Seat(0),
            Viewer::Seat(1),
            Viewer::Seat(2),
        ] {
            if let Some(line) = g.narrate(ev, v, Lang::Fr) {
                assert_french(&format!("{ev:?} to {v:?}"), &line);
                told += 1;
            }
        }
    }
    assert!(told >= events.len() * 3);
    let standing = g.narrate(&events[27], Viewer::Seat(0), Lang::Fr).unwrap();
    assert_eq!(
        standing,
        "Consigne permanente enregistrée : CONSIGNE DÉFENSE TOUJOURS."
    );
    let built = g.narrate(&events[18], Viewer::Public, Lang::Fr).unwrap();
    assert_eq!(
        built,
        "Alice construit une muraille (avec Lapides, Mage) : 1 muraille et 0 tour."
    );
    let turn = g.narrate(&events[3], Viewer::Public, Lang::Fr).unwrap();
    assert_eq!(turn, "Tour de table 3 : c'est au tour d'Alice.");
}

/// French order words read as the English ones, accents and case optional.
#[test]
fn french_order_words_parse_to_the_english_orders() {
    let (g, _) = new_game(2, &family(), "castrum-fr-words");
    let pairs = [
        ("JOUER Lapides", "PLAY Lapides"),
        ("pose Pierres", "PLAY Lapides"),
        ("JOUER Incendie SUR Bob", "PLAY Incendie ON Bob"),
        ("joue incendie contre bob", "PLAY Incendie ON Bob"),
        (
            "JOUER Sorcière SUR Bob CIBLE Lapides x2",
            "PLAY Sorcière ON Bob TARGET Lapides x2",
        ),
        ("JOUER Roue de Carrier", "PLAY Roue de Carrier"),
        ("DÉFAUSSER Mage, Lapides", "DISCARD Mage, Lapides"),
        ("defausse mage et pierres", "DISCARD Mage, Lapides"),
        ("CONSTRUIRE MURAILLE", "BUILD WALL"),
        ("bâtir une tour", "BUILD TOWER"),
        ("ÉCHANGER Paysans x2", "EXCHANGE Rustici x2"),
        ("FIN", "END"),
        ("terminer", "END"),
        ("DÉFENDRE", "DEFEND"),
        ("défendre avec Gardes", "DEFEND WITH Gardes"),
        ("ACCEPTER", "ACCEPT"),
        ("pas de défense", "ACCEPT"),
        ("DONNER Paysans", "GIVE Rustici"),
        ("CONSIGNE DÉFENSE TOUJOURS", "SET DEFEND ALWAYS"),
        ("consigne defense jamais", "SET DEFEND NEVER"),
        ("CONSIGNE DÉFENSE DEMANDER", "SET DEFEND ASK"),
        (
            "CONSIGNE ŒUVRES Rustici, Lapides",
            "SET WORKS Rustici, Lapides",
        ),
        ("consigne oeuvres demander", "SET WORKS ASK"),
    ];
    for (fr, en) in pairs {
        let of = g
            .parse(0, fr)
            .unwrap_or_else(|e| panic!("\"{fr}\" refused: {}", e.message));
        assert_eq!(of, g.parse(0, en).unwrap(), "{fr} = {en}");
        // The French form written back parses to the same order.
        let again = order_text_in(&g, &of, Lang::Fr);
        assert_eq!(g.parse(0, &again).unwrap(), of, "{again}");
    }
    assert_eq!(
        order_text_in(
            &g,
            &g.parse(0, "PLAY Sorcière ON Bob TARGET Lapides").unwrap(),
            Lang::Fr
        ),
        "JOUER Sorcière SUR Bob CIBLE Lapides"
    );
    // The stored form stays English.
    assert_eq!(
        g.order_text(&g.parse(0, "CONSTRUIRE TOUR").unwrap()),
        "BUILD TOWER"
    );
}

/// Refused orders come back in French, with a French hint that parses.
#[test]
fn refused_orders_are_explained_in_french() {
    let (mut g, mut dice) = position(
        2,
        &family(),
        "castrum-fr-refused",
        &[&[
            Card::Gardes,
            Card::Lapides,
            Card::Incendie,
            Card::Mage,
            Card::Rustici,
        ]],
        &[],
    );
    let e = refused(&mut g, &mut dice, 0, "JOUER Gardes");
    assert_eq!(
        e.message_in(Lang::Fr),
        "les cartes Gardes se jouent hors de votre tour, quand votre chantier est attaqué"
    );
    assert_eq!(
        e.hint_in(Lang::Fr),
        Some("gardez-la, ou écrivez : DÉFAUSSER Gardes")
    );
    // English unchanged beside it.
    assert_eq!(
        e.hint_in(Lang::En),
        Some("keep it, or write: DISCARD Gardes")
    );
    let e = refused(&mut g, &mut dice, 0, "JOUER Incendie SUR Bob");
    assert_eq!(
        e.message_in(Lang::Fr),
        "le chantier de Bob n'a aucune carte à brûler"
    );
    let e = refused(&mut g, &mut dice, 0, "JOUER Incendie");
    assert_eq!(
        e.message_in(Lang::Fr),
        "une carte Incendie se joue sur le chantier d'un autre joueur"
    );
    let hint = e.hint_in(Lang::Fr).unwrap();
    let order = hint.strip_prefix("écrivez : ").expect(hint);
    assert_eq!(order, "JOUER Incendie SUR Bob");
    g.parse(0, order).unwrap();
    let e = refused(&mut g, &mut dice, 0, "ATTAQUER Bob");
    assert_eq!(
        e.message_in(Lang::Fr),
        "« ATTAQUER » n'est pas un ordre de Castrum"
    );
    let e = refused(&mut g, &mut dice, 0, "JOUER Zorglub");
    assert_eq!(e.message_in(Lang::Fr), "« Zorglub » n'est pas un nom connu");
    let e = refused(&mut g, &mut dice, 1, "FIN");
    assert_eq!(
        e.message_in(Lang::Fr),
        "c'est au tour d'Alice, pas au vôtre"
    );
    let e = refused(&mut g, &mut dice, 0, "CONSTRUIRE MURAILLE");
    assert_eq!(
        e.message_in(Lang::Fr),
        "une muraille demande 1 Structores, 2 Lapides et 3 Rustici ; votre chantier en a 0, 0 et 0"
    );
    // Through the Table, in the reader's language.
    let mut t = table(2, family(), "castrum-fr-submit");
    let other = 1 - t.state.current;
    let errs = t.submit(other, "FIN", Lang::Fr).unwrap_err();
    assert!(
        errs[0].message.starts_with("c'est au tour"),
        "{}",
        errs[0].message
    );
    assert!(errs[0]
        .hint
        .as_deref()
        .unwrap()
        .contains("CONSIGNE DÉFENSE"));
}

/// The help in French names the French order words, and its examples parse.
#[test]
fn french_help_examples_parse() {
    let (g, _) = new_game(2, &family(), "castrum-fr-help");
    let help = Castrum::order_help(Lang::Fr);
    assert_french("help", &help);
    let mut n = 0;
    for line in help.lines().filter(|l| l.starts_with("  ")) {
        let order = line.trim().split("  ").next().unwrap();
        let first = order.split(" | ").next().unwrap();
        g.parse(0, first)
            .unwrap_or_else(|e| panic!("help example \"{first}\": {}", e.message));
        n += 1;
    }
    assert_eq!(n, 12);
    assert_eq!(Castrum::order_help(Lang::En), orders::HELP);
}

/// French names come from data/names.yaml; the English ones are unchanged.
#[test]
fn names_in_both_languages() {
    assert_eq!(Piece::Wall.name_in(Lang::Fr), "muraille");
    assert_eq!(Piece::Tower.name_in(Lang::Fr), "tour");
    assert_eq!(Piece::Wall.name(), "wall");
    assert_eq!(Happening::ForTheWorks.name_in(Lang::Fr), "Pour les œuvres");
    assert_eq!(Happening::BadWeather.name(), "Bad weather");
    assert_eq!(
        Happening::BadWeather.name_in(Lang::Fr),
        "Mauvaises conditions climatiques"
    );
    assert_eq!(Card::PiecesOr.name(), "Pièces d'Or");
    assert_eq!(Card::Structores.gloss(Lang::Fr), "maçons");
    for c in Card::ALL {
        assert!(!c.name().is_empty());
        assert_eq!(Card::names().resolve(c.name()).unwrap(), c);
    }
    for h in Happening::ALL {
        assert_ne!(h.effect_in(Lang::Fr), h.effect());
    }
}
