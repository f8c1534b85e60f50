//! The game in French: every narration, view, prompt and refusal of bot-played games is in
//! French, French order words parse to the same orders as the English ones, and every
//! French prompt choice parses back to the order of the English choice at the same index.
mod common;
use castellan_castle_risk::map::map;
use castellan_castle_risk::{CastleRisk, ClaimMode, Options, PlacementMode};
use castellan_engine::{Lang, Rules, Source, Table, Viewer};
use common::*;

/// Words only the English phrasing uses (lowercase): any of them in a French text is an
/// untranslated phrase.
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
    "is",
    "has",
    "of",
    "to",
    "in",
    "holds",
    "plays",
    "draws",
    "cards",
    "card",
    "waiting",
    "game",
    "over",
    "hidden",
    "castle",
    "hand",
    "none",
    "default",
    "asked",
    "standing",
    "truce",
    "truces",
    "players",
    "territories",
    "territory",
    "discard",
    "pile",
    "earn",
    "earns",
    "earned",
    "earnings",
    "reinforce",
    "reinforcements",
    "marshal",
    "admiral",
    "general",
    "spy",
    "british",
    "russian",
    "german",
    "austrian",
    "italy",
    "spain",
    "scandinavia",
    "write",
    "until",
    "dice",
    "die",
    "defend",
    "claim",
    "rank",
    "reveal",
    "sail",
    "occupy",
    "annex",
    "annexes",
    "pass",
    "end",
    "ends",
    "set",
    "counter",
    "counterspy",
    "independent",
    "independents",
    "setup",
    "nobody",
    "private",
    "conquers",
    "captures",
    "eliminated",
    "returns",
    "sent",
    "order",
    "orders",
    "it",
    "by",
    "sea",
    "black",
    "used",
    "unused",
    "worth",
    "now",
    "all",
    "no",
    "not",
    "for",
    "left",
    "move",
    "leave",
    "then",
    "always",
    "never",
    "when",
    "ask",
    "taken",
    "fleet",
    "ship",
    "empty",
    "lost",
    "shared",
    "stalemate",
    "limit",
    "reached",
    "leader",
    "draft",
    "deal",
    "random",
    "ranked",
    "list",
];

/// Proper nouns that contain an English word above.
const ALLOWED: &[&str] = &["castle risk"];

fn check_french(what: &str, text: &str) {
    for line in text.lines() {
        let mut l = line.to_lowercase();
        for a in ALLOWED {
            l = l.replace(a, "");
        }
        for w in l.split(|c: char| !c.is_alphanumeric()) {
            assert!(
                !ENGLISH.contains(&w),
                "{what}: English \"{w}\" in the French line: {line}"
            );
        }
    }
}

/// Every event of the table's history narrated in French, publicly and to each seat,
/// shown exactly where the English is.
fn check_narration(t: &Table<CastleRisk>, from: usize) {
    let n = t.players.len();
    for entry in &t.history[from..] {
        for e in &entry.events {
            let mut viewers = vec![Viewer::Public];
            viewers.extend((0..n).map(Viewer::Seat));
            for v in viewers {
                let en = t.state.narrate(e, v, Lang::En);
                let fr = t.state.narrate(e, v, Lang::Fr);
                assert_eq!(en.is_some(), fr.is_some(), "{e:?} {v:?}");
                if let Some(f) = fr {
                    check_french(&format!("narration of {e:?}"), &f);
                }
            }
        }
    }
}

/// The French prompts match the English ones: same seats, kinds and number of choices;
/// each French line (choice, default, standing order) parses to the English line's order.
fn check_prompts(t: &Table<CastleRisk>) {
    let g = &t.state;
    let en = g.pending(Lang::En);
    let fr = g.pending(Lang::Fr);
    assert_eq!(en.len(), fr.len());
    for (e, f) in en.iter().zip(&fr) {
        assert_eq!((e.seat, e.kind), (f.seat, f.kind));
        assert_eq!(e.choices.len(), f.choices.len(), "{e:?} / {f:?}");
        check_french("question", &f.question);
        let mut pairs: Vec<(&String, &String)> = e.choices.iter().zip(&f.choices).collect();
        pairs.push((&e.default, &f.default));
        if let (Some(a), Some(b)) = (&e.standing, &f.standing) {
            pairs.push((a, b));
        }
        for (a, b) in pairs {
            let oa = g.parse(e.seat, a).unwrap_or_else(|x| panic!("{a}: {x:?}"));
            let ob = g.parse(e.seat, b).unwrap_or_else(|x| panic!("{b}: {x:?}"));
            assert_eq!(oa, ob, "\"{a}\" and \"{b}\"");
            check_french("choice", b);
        }
    }
}

fn play_in_french(id: &str, n: usize, options: Options) -> Table<CastleRisk> {
    let mut t = table(id, n, options);
    check_narration(&t, 0);
    let mut steps = 0;
    while t.state.outcome().is_none() {
        assert!(steps < 100_000, "{id}: too long");
        check_prompts(&t);
        if steps % 25 == 0 {
            check_french("public view", &t.state.public_view(Lang::Fr));
            for s in 0..n {
                check_french("private view", &t.state.private_view(s, Lang::Fr));
            }
        }
        let seat = t.state.pending(Lang::En)[0].seat;
        let order = t.bot_order(seat);
        let fr_line = castellan_castle_risk::orders::order_text_in(&t.state, &order, Lang::Fr);
        assert_eq!(
            t.state.parse(seat, &fr_line).as_ref(),
            Ok(&order),
            "{fr_line}"
        );
        let before = t.history.len();
        t.apply(seat, order, Source::Bot).expect("bot order");
        check_narration(&t, before);
        steps += 1;
    }
    check_french("final public view", &t.state.public_view(Lang::Fr));
    let o = t.state.outcome().unwrap();
    check_french("outcome", o.reason_in(Lang::Fr));
    t
}

/// Whole bot games in French: table claim and rounds with questions asked (defence,
/// counter-Spy, annexation prompts), a draft with blind placement, a random deal to a turn
/// limit.
#[test]
fn whole_games_read_in_french() {
    play_in_french(
        "fr-1",
        3,
        Options {
            ask: true,
            ..Options::default()
        },
    );
    play_in_french(
        "fr-2",
        4,
        Options {
            claim: ClaimMode::Draft,
            placement: PlacementMode::Blind,
            ask: true,
            turn_limit: 0,

            ..Options::default()
        },
    );
    let t = play_in_french(
        "fr-3",
        5,
        Options {
            claim: ClaimMode::Random,
            turn_limit: 12,
            ..Options::default()
        },
    );
    let fr = t.state.outcome().unwrap().reason_in(Lang::Fr).to_string();
    assert!(fr.contains("limite de tours atteinte (12 tours)"), "{fr}");
}

#[test]
fn french_order_words_parse_to_the_english_orders() {
    let g = position(
        3,
        &["Paris", "Moscow", "Vienna"],
        &[("Prussia", 0, 5), ("Poland", 1, 3)],
    );
    for (en, fr) in [
        ("ATTACK Poland FROM Prussia", "ATTAQUE la Pologne DEPUIS la Prusse"),
        ("ATTACK Poland FROM Prussia UNTIL CONQUERED", "attaquer Pologne depuis Prusse jusqu'à conquête"),
        ("ATTACK Poland FROM Prussia UNTIL 2 LEFT WITH 2 DICE THEN MOVE ALL GENERAL", "ATTAQUE Pologne DEPUIS Prusse JUSQU'À 2 RESTANTS AVEC 2 DÉS PUIS DÉPLACER TOUT GÉNÉRAL"),
        ("ATTACK Poland FROM Prussia FOR 2 ROLLS LEAVE 2", "ATTAQUE Pologne DEPUIS Prusse POUR 2 LANCERS LAISSER 2"),
        ("SAIL 4 FROM Prussia TO Saint Petersburg WITH 2 DICE", "AMIRAL 4 DEPUIS Prusse VERS Saint-Pétersbourg AVEC 2 DES"),
        ("PLACE 3 Paris, 2 Brittany", "PLACER 3 Paris, 2 Bretagne"),
        ("CASTLE Wales", "CHÂTEAU Pays de Galles"),
        ("CLAIM Ireland", "PRENDRE l'Irlande"),
        ("RANK Scotland, Netherlands, Vienna", "CLASSEMENT Écosse, Pays-Bas, Vienne"),
        ("HIDE Norway", "CACHER la Norvège"),
        ("REINFORCE 2", "RENFORT 2"),
        ("TRUCE Bruno", "TRÊVE Bruno"),
        ("SPY Bruno DISCARD Admiral, General", "ESPION Bruno DÉFAUSSER Amiral, Général"),
        ("REVEAL Livonia", "DÉVOILER Livonie"),
        ("END", "FIN"),
        ("OCCUPY ALL", "OCCUPER TOUT"),
        ("OCCUPY Bohemia FROM Bavaria", "OCCUPER Bohême DEPUIS Bavière"),
        ("PASS", "PASSER"),
        ("ANNEX Hungary FROM Galicia", "ANNEXER Hongrie DEPUIS Galicie"),
        ("DEFEND 2 MARSHAL REVEAL", "DÉFENDRE 2 MARÉCHAL DÉVOILER"),
        ("COUNTERSPY", "CONTRE-ESPION"),
        ("NO COUNTERSPY", "PAS DE CONTRE-ESPION"),
        ("SET DEFEND 1", "CONSIGNE DÉFENDRE 1"),
        ("SET MARSHAL WHEN 3+", "CONSIGNE MARÉCHAL QUAND 3+"),
        ("SET COUNTERSPY NEVER", "CONSIGNE CONTRE-ESPION JAMAIS"),
        ("SET REVEAL ON ATTACK", "CONSIGNE DÉVOILER SUR ATTAQUE"),
        ("SET ANNEX Switzerland, Denmark", "CONSIGNE ANNEXER Suisse, Danemark"),
        ("SET REOCCUPY NONE", "CONSIGNE RÉOCCUPER AUCUN"),
        ("SET ASK", "CONSIGNE DEMANDER"),
    ] {
        let a = g.parse(0, en).unwrap_or_else(|e| panic!("{en}: {e:?}"));
        let b = g.parse(0, fr).unwrap_or_else(|e| panic!("{fr}: {e:?}"));
        assert_eq!(a, b, "{en} / {fr}");
        // The order written for a French reader parses back to itself.
        let line = castellan_castle_risk::orders::order_text_in(&g, &a, Lang::Fr);
        assert_eq!(g.parse(0, &line).unwrap(), a, "{line}");
        check_french("order", &line);
    }
}

/// The French names of data/board.yaml: the rules text's names resolve, each to its own
/// territory; every French name resolves to its territory.
#[test]
fn french_names_resolve() {
    let m = map();
    for t in 0..m.board.len() {
        assert_eq!(m.board.resolve(&m.fr[t].name), Ok(t), "{}", m.fr[t].name);
    }
    for (fr, en) in [
        ("le Yorkshire", "Yorkshire"),
        ("Irlande", "Ireland"),
        ("Pays de Galles", "Wales"),
        ("Londres", "London"),
        ("Ecosse", "Scotland"),
        ("Norvège", "Norway"),
        ("Suisse", "Switzerland"),
        ("Suède", "Sweden"),
        ("Venise", "Venice"),
        ("Finlande", "Finland"),
        ("Barcelone", "Barcelona"),
        ("Danemark", "Denmark"),
    ] {
        assert_eq!(
            m.board
                .name(m.board.resolve(fr.trim_start_matches("le ")).unwrap()),
            en
        );
    }
    let t = |n: &str| m.board.resolve(n).unwrap();
    assert_eq!(m.fr[t("Poland")].le(), "la Pologne");
    assert_eq!(m.fr[t("Ireland")].de(), "de l'Irlande");
    assert_eq!(m.fr[t("Yorkshire")].en(), "au Yorkshire");
    assert_eq!(m.fr[t("Netherlands")].de(), "des Pays-Bas");
    assert_eq!(m.fr[t("Paris")].en(), "à Paris");
    assert_eq!(m.group_name(1, Lang::Fr), "Empire Britannique");
}

/// A refused order reads in French: message and hint.
#[test]
fn refusals_read_in_french() {
    let g = position(
        3,
        &["Paris", "Moscow", "Vienna"],
        &[("Prussia", 0, 5), ("Poland", 1, 3)],
    );
    let e = g.parse(0, "ATTAQUE Narnia DEPUIS Prusse").unwrap_err();
    assert!(
        e.message_in(Lang::Fr)
            .contains("n'est pas un nom que je connais"),
        "{e:?}"
    );
    // The example is an attack the player can make: from Prussia, theirs.
    assert_eq!(
        e.hint_in(Lang::Fr),
        Some("écrivez : ATTAQUE Livonie DEPUIS Prusse JUSQU'À CONQUÊTE")
    );
    let e = g
        .parse(0, "ATTAQUE Pologne DEPUIS Prusse JUSQU'À 3")
        .unwrap_err();
    assert_eq!(
        e.message_in(Lang::Fr),
        "JUSQU'À 3 doit être suivi de RESTANTS"
    );
    let mut d = any_dice();
    let mut g2 = g.clone();
    let o = g.parse(1, "FIN").unwrap();
    let e = g2.apply(1, &o, &mut d).unwrap_err();
    assert_eq!(
        e.message_in(Lang::Fr),
        "c'est le tour d'Alice, pas le vôtre"
    );
    assert_eq!(e.message_in(Lang::En), "it is Alice's turn, not yours");
    let o = g.parse(0, "ATTAQUE Moscou DEPUIS Prusse").unwrap();
    let e = g2.apply(0, &o, &mut d).unwrap_err();
    assert_eq!(
        e.message_in(Lang::Fr),
        "la Prusse ne touche pas Moscou (un Amiral peut traverser : AMIRAL n DEPUIS Prusse VERS Moscou)"
            .replace("la Prusse", "La Prusse")
    );
    check_french("hint", e.hint_in(Lang::Fr).unwrap());
    let o = g.parse(0, "RENFORT 2").unwrap();
    let e = g2.apply(0, &o, &mut d).unwrap_err();
    assert_eq!(e.message_in(Lang::Fr), "vous avez 0 carte Renfort, pas 2");
    assert_eq!(
        e.hint_in(Lang::Fr),
        Some("vous n'avez aucune carte Renfort à jouer")
    );
}

#[test]
fn the_help_is_in_french() {
    let h = CastleRisk::order_help(Lang::Fr);
    assert!(h.contains("ATTAQUE Livonie DEPUIS Pologne"));
    assert_ne!(h, CastleRisk::order_help(Lang::En));
}
