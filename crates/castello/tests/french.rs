//! Castello in French: every text of a bot-played game reads in French with no English
//! phrase left, French order words parse to the same orders as the English ones, and a
//! refused order is explained in French.

use castellan_castello::{sq, Ask, Castello, First, Options, Order, BLACK, RED};
use castellan_engine::dice::Secret;
use castellan_engine::{Lang, Prompt, Rules, Source, Table};

/// Words and phrases only the English texts of Castello use: any of them in a French text
/// is an untranslated phrase.
const ENGLISH: &[&str] = &[
    " the ",
    "The ",
    " and ",
    " of ",
    " to ",
    " is ",
    " on ",
    " it ",
    "your",
    "you ",
    "You ",
    "pawn",
    "castle",
    "move",
    "Move",
    "takes",
    "taking",
    "wins",
    "draw",
    "Red",
    "Black",
    "offer",
    "game",
    "Game",
    "legal",
    "square",
    "write",
    "board",
    "capture",
    "first",
    "jump",
    "step",
    "more",
    "resign",
    "RESIGN",
    "ACCEPT DRAW",
    "OFFER",
    "plays",
    "begins",
    "against",
    "columns",
    "row",
    "deadline",
    "judge",
    "by lot",
    "turn",
    "home",
    "boundary",
    "stands",
    "declined",
    "agree",
    "enemy",
    "instance",
    "free",
    "empty",
    "never",
    "only",
    "after",
    "then",
    "cannot",
    "took",
    "times",
    "without",
];

/// Proper nouns that may appear in French texts.
const PROPER: &[&str] = &["Castello", "Alice", "Bob"];

/// Fails naming the first line of `text` that holds an English word.
fn assert_french(what: &str, text: &str) {
    for line in text.lines() {
        let mut l = line.to_string();
        for p in PROPER {
            l = l.replace(p, "");
        }
        if let Some(w) = ENGLISH.iter().find(|w| l.contains(*w)) {
            panic!("{what}: English \"{w}\" in the French line: {line}");
        }
    }
}

fn table(id: &str, options: Options) -> Table<Castello> {
    Table::new(
        id,
        Secret::derive(id.as_bytes()),
        vec!["Alice".into(), "Bob".into()],
        options,
    )
    .expect("setup")
}

/// The French prompt lists the same orders as the English one, in the same order, with
/// the same default; every French line parses to the order of its English twin.
fn same_prompt(g: &Castello, en: &Prompt<Ask>, fr: &Prompt<Ask>) {
    assert_eq!(en.seat, fr.seat);
    assert_eq!(en.kind, fr.kind);
    assert_eq!(en.choices.len(), fr.choices.len(), "{:?}", fr.choices);
    let pairs = en
        .choices
        .iter()
        .zip(&fr.choices)
        .chain([(&en.default, &fr.default)]);
    for (e, f) in pairs {
        let oe = g.parse(en.seat, e).unwrap_or_else(|x| panic!("{e}: {x}"));
        let of = g.parse(fr.seat, f).unwrap_or_else(|x| panic!("{f}: {x}"));
        assert_eq!(oe, of, "{e} / {f}");
    }
    assert_eq!(en.standing.is_some(), fr.standing.is_some());
    assert_french("question", &fr.question);
    for c in fr.choices.iter().chain([&fr.default]) {
        assert_french("choice", c);
    }
}

/// Every view and prompt of the position, in French.
fn check_position(t: &Table<Castello>) {
    let g = &t.state;
    assert_french("public view", &g.public_view(Lang::Fr));
    for seat in 0..2 {
        assert_french("private view", &g.private_view(seat, Lang::Fr));
    }
    let (en, fr) = (g.pending(Lang::En), g.pending(Lang::Fr));
    assert_eq!(en.len(), fr.len());
    for (e, f) in en.iter().zip(&fr) {
        same_prompt(g, e, f);
    }
    for seat in 0..2 {
        for line in [
            "A1-A4", "K8-K9", "Z9", "E5", "JOUE", "A1-C3-A1", "U8-S8", "?",
        ] {
            for c in t.check(seat, line, Lang::Fr) {
                assert_french("refused order", &format!("{:?}", c.verdict));
            }
        }
    }
}

/// The whole history narrated in French, for the public and for each seat.
fn check_narration(t: &Table<Castello>) {
    let n = t.narrate_since(0, Lang::Fr);
    assert!(!n.public.is_empty());
    for l in &n.public {
        assert_french("narration", l);
    }
    for seat in 0..2 {
        for l in n.private_for(seat) {
            assert_french("private narration", l);
        }
    }
    assert_eq!(n.public.len(), t.narrate_since(0, Lang::En).public.len());
}

/// Bots play the game out; a French draw offer on the way; every text checked in French.
fn play_in_french(id: &str, options: Options) -> Table<Castello> {
    let mut t = table(id, options);
    let mut orders = 0;
    while t.state.outcome().is_none() {
        if orders % 3 == 0 || t.state.draw_offer().is_some() {
            check_position(&t);
        }
        let seat = t.state.pending(Lang::En)[0].seat;
        if orders == 4 {
            t.submit(seat, "propose nulle", Lang::Fr)
                .expect("a French draw offer");
            check_position(&t);
        }
        let o = t.bot_order(seat);
        t.apply(seat, o, Source::Bot).expect("bot order");
        orders += 1;
        assert!(orders < 5000, "{id}: runaway game");
    }
    check_position(&t);
    check_narration(&t);
    let o = t.state.outcome().unwrap();
    let fr = o.reason_in(Lang::Fr);
    assert_ne!(fr, o.reason);
    assert_french("outcome", fr);
    t
}

#[test]
fn a_bot_game_reads_wholly_in_french() {
    let t = play_in_french("fr-1", Options::default());
    let public = t.narrate_since(0, Lang::Fr).public.join("\n");
    assert!(public.starts_with("La partie de Castello commence : Rouge (Alice)"));
    assert!(
        public.contains("Noir propose la nulle.") || public.contains("Rouge propose la nulle.")
    );
    assert!(public.contains("la proposition de nulle est refusée"));
    assert!(public.contains("Partie terminée : "), "{public}");
    assert!(public.contains(" et prend "), "{public}");
    assert!(public.contains(" conquiert le château en "), "{public}");
}

#[test]
fn short_games_end_in_french_too() {
    // A draw by the move limit, and a random first player.
    let o = Options {
        move_limit: 10,
        first: First::Random,
        ..Options::default()
    };
    let t = play_in_french("fr-2", o);
    let public = t.narrate_since(0, Lang::Fr).public.join("\n");
    assert!(public.contains("(tiré au sort)"), "{public}");
    // Resignation and an agreed draw.
    let mut r = table("fr-3", Options::default());
    r.submit(0, "J'abandonne", Lang::Fr).unwrap();
    let n = r.narrate_since(1, Lang::Fr).public;
    assert_eq!(
        n,
        vec![
            "Rouge abandonne.",
            "Partie terminée : Noir (Bob) gagne (Rouge a abandonné)."
        ]
    );
    check_position(&r);
    let mut d = table("fr-4", Options::default());
    d.submit(0, "PROPOSE NULLE\nB1-C1", Lang::Fr).unwrap();
    let before = d.history.len();
    let p = &d.state.pending(Lang::Fr)[0];
    assert!(p
        .question
        .contains("Rouge propose la nulle : ACCEPTE NULLE"));
    assert_eq!(p.choices.last().unwrap(), "ACCEPTE NULLE");
    assert!(d
        .state
        .private_view(1, Lang::Fr)
        .contains("Rouge vous propose la nulle : écrivez ACCEPTE NULLE"));
    check_position(&d);
    d.submit(1, "accepte la nulle", Lang::Fr).unwrap();
    let n = d.narrate_since(before, Lang::Fr).public;
    assert_eq!(
        n,
        vec![
            "Les joueurs conviennent de la nulle.",
            "Partie terminée : nulle d'un commun accord."
        ]
    );
    check_narration(&d);
}

#[test]
fn french_order_words_parse_like_english_ones() {
    let g = table("words", Options::default()).state;
    let pairs = [
        ("RESIGN", "ABANDON"),
        ("RESIGN", "abandonne"),
        ("RESIGN", "Abandonner"),
        ("RESIGN", "J’abandonne."),
        ("OFFER DRAW", "PROPOSE NULLE"),
        ("OFFER DRAW", "proposer la nulle"),
        ("OFFER DRAW", "nulle"),
        ("ACCEPT DRAW", "ACCEPTE NULLE"),
        ("ACCEPT DRAW", "accepter la nulle"),
        ("ACCEPT DRAW", "Accepté"),
        ("MOVE A1-A3", "JOUE A1-A3"),
        ("move a1 a3", "jouer a1 a3"),
        ("PLAY A1-A3", "DÉPLACE A1-A3"),
        ("A1-A3", "deplace A1 A3"),
    ];
    for (en, fr) in pairs {
        assert_eq!(g.parse(0, en).unwrap(), g.parse(0, fr).unwrap(), "{fr}");
    }
    for o in [
        Order::Resign,
        Order::OfferDraw,
        Order::AcceptDraw,
        Order::Move(vec![sq("A1"), sq("A3")]),
    ] {
        let fr = g.order_text_in(&o, Lang::Fr);
        assert_eq!(g.parse(0, &fr).unwrap(), o, "{fr}");
        // The canonical text stays English.
        assert_eq!(g.order_text(&o), g.order_text_in(&o, Lang::En));
    }
    assert_eq!(g.order_text(&Order::Resign), "RESIGN");
}

#[test]
fn a_refused_order_is_explained_in_french() {
    let mut t = table("refused", Options::default());
    let errs = t.submit(RED as usize, "B1-E1", Lang::Fr).unwrap_err();
    assert_eq!(
        errs[0].message,
        "B1 vers E1 n'est pas un coup : un pion avance d'une case dans l'une des 8 directions, \
         de deux cases lors de son premier mouvement, ou saute un pion voisin"
    );
    let hint = errs[0].hint.as_deref().unwrap();
    assert!(hint.starts_with("coups légaux de B1 : "), "{hint}");
    let errs = t.submit(RED as usize, "U1-U2", Lang::Fr).unwrap_err();
    assert_eq!(
        errs[0].message,
        "le pion en U1 est noir ; vous jouez avec les rouges"
    );
    assert!(errs[0].hint.as_deref().unwrap().starts_with("écrivez : A"));
    let errs = t.submit(BLACK as usize, "U1-U2", Lang::Fr).unwrap_err();
    assert_eq!(errs[0].message, "c'est à Rouge de jouer, pas à vous");
    let errs = t.submit(RED as usize, "attaque E4", Lang::Fr).unwrap_err();
    assert!(errs[0]
        .message
        .starts_with("« ATTAQUE » n'est ni une case ni un ordre"));
    let hint = errs[0].hint.as_deref().unwrap();
    assert!(hint.starts_with("écrivez la case du pion"), "{hint}");
    assert!(hint.contains("(par exemple A1-"), "{hint}");
    // The same refusal still reads in English for an English reader.
    let errs = t.submit(RED as usize, "B1-E1", Lang::En).unwrap_err();
    assert!(errs[0].message.starts_with("B1 to E1 is not a move"));
    assert!(errs[0]
        .hint
        .as_deref()
        .unwrap()
        .starts_with("legal moves of B1: "));
    let errs = t
        .submit(RED as usize, "ACCEPTE NULLE", Lang::Fr)
        .unwrap_err();
    assert_eq!(errs[0].message, "Noir n'a pas proposé la nulle");
    assert_eq!(
        errs[0].hint.as_deref(),
        Some("écrivez : PROPOSE NULLE, pour la proposer vous-même")
    );
}

#[test]
fn the_french_board_and_help() {
    let g = table("board", Options::default()).state;
    let v = g.public_view(Lang::Fr);
    assert!(
        v.starts_with("Castello, coup 1 : à Rouge (Alice) de jouer.\n"),
        "{v}"
    );
    assert!(
        v.contains(" 15  R R . . . . . | . . . . . . . | . . . . . N N 15\n"),
        "{v}"
    );
    assert!(v.contains("Rouge (Alice) : 30 pions sur le tablier, a pris 0 pion adverse sur 28 et 0 château sur 4.\n"), "{v}");
    let help = Castello::order_help(Lang::Fr);
    // The help names the English order words on purpose.
    let english_words = "(RESIGN, OFFER DRAW, ACCEPT DRAW, MOVE)";
    assert!(help.contains(english_words));
    assert_french("help", &help.replace(english_words, ""));
    for w in [
        "ABANDON",
        "PROPOSE NULLE",
        "ACCEPTE NULLE",
        "E4-E2-C2-A2-C4",
        "château",
    ] {
        assert!(help.contains(w), "{w}");
    }
    assert!(Castello::order_help(Lang::En).starts_with("Castello orders (one per line):"));
}
