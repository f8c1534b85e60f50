//! Castrum, rule by rule. Quotes are from the rules (seed 002, French). Refused orders are
//! rule cases, data in tests/cases/ (run by tests/cases.rs).

mod common;
use castellan_castrum::*;
use castellan_engine::{Rules, Viewer};
use common::*;
use Card::*;

/// Matériel: "90 cartes"; and "x2 Lapides and x2 Rustici among them".
#[test]
fn deck_file_sums_to_90_with_x2_cards() {
    let d = Deck::standard().unwrap();
    assert_eq!(d.total(), 90);
    assert!(d.count(LapidesX2) > 0 && d.count(RusticiX2) > 0);
    for c in Card::ALL {
        assert!(d.count(c) > 0, "{} missing from the deck", c.name());
    }
    assert!(
        Deck::from_yaml("structores: 3").is_err(),
        "every card needs a count"
    );
}

/// Mise en place: "Chaque joueur reçoit 5 cartes"; "celui qui réalise le meilleur score débute".
#[test]
fn setup_deals_five_and_the_best_die_begins() {
    for seed in ["a", "b", "c", "d"] {
        for n in 2..=4 {
            let (g, _) = new_game(n, &family(), &format!("{seed}{n}"));
            assert!(g.hands.iter().all(|h| h.len() == 5));
            assert_eq!(g.pile_size(), 90 - 5 * n);
            assert_eq!(g.card_count(), 90);
            let mut dice = castellan_engine::DiceBox::new(
                &format!("{seed}{n}"),
                castellan_engine::Secret::derive(format!("{seed}{n}").as_bytes()),
            );
            let (_, ev) = Castrum::setup(&players(n), &family(), &mut dice).unwrap();
            let Event::FirstPlayer { rolls, seat } = &ev[0] else {
                panic!("first event")
            };
            let last = rolls.last().unwrap();
            let best = last.iter().map(|(_, v)| *v).max().unwrap();
            assert_eq!(last.iter().filter(|(_, v)| *v == best).count(), 1);
            assert!(last.contains(&(*seat, best)));
            assert_eq!(g.current, *seat);
        }
    }
}

/// "A son tour, chaque joueur peut soit jouer 1 ou 2 cartes, soit se défausser d'une, de 2
/// ou de 3 cartes. On ne peut donc pas se défausser et jouer dans un même tour !"
#[test]
fn a_turn_is_one_or_two_cards_or_a_discard_of_one_to_three() {
    let hand: &[Card] = &[Lapides, Lapides, Lapides, Rustici, Rustici];
    let (mut g, mut d) = position(2, &family(), "t1", &[hand], &[]);
    ok(&mut g, &mut d, 0, "PLAY Lapides");
    ok(&mut g, &mut d, 0, "PLAY Lapides");
    ok(&mut g, &mut d, 0, "END");
    assert_eq!(g.current, 1);

    let (mut g, mut d) = position(2, &family(), "t2", &[hand], &[]);
    ok(&mut g, &mut d, 0, "DISCARD Lapides, Lapides, Rustici");
    assert_eq!(g.current, 1, "a discard is the whole turn");
    assert_eq!(g.hands[0].len(), 5);
}

/// "le joueur reconstitue son jeu de 5 cartes en piochant le nombre de cartes nécessaire"
#[test]
fn the_hand_is_refilled_to_five_from_the_pile() {
    let (mut g, mut d) = position(
        2,
        &family(),
        "r",
        &[&[Lapides, Lapides, Rustici, Mage, Mage]],
        &[],
    );
    let pile = g.pile_size();
    ok(&mut g, &mut d, 0, "PLAY Lapides");
    ok(&mut g, &mut d, 0, "PLAY Rustici");
    assert_eq!(g.hands[0].len(), 3);
    let ev = ok(&mut g, &mut d, 0, "END");
    assert_eq!(g.hands[0].len(), 5);
    assert_eq!(g.pile_size(), pile - 2);
    assert!(ev
        .iter()
        .any(|e| matches!(e, Event::Drew { seat: 0, cards } if cards.len() == 2)));
}

/// "1 Muraille = 1 Structores + 2 Lapides + 3 Rustici. 1 Tour = 1 Structores + 5 Lapides + 6 Rustici."
#[test]
fn a_wall_and_a_tower_cost_what_the_rules_say() {
    let wall: &[Card] = &[
        Structores, Lapides, Lapides, Rustici, Rustici, Rustici, Mage,
    ];
    let (mut g, mut d) = position(2, &family(), "w", &[], &[wall]);
    ok(&mut g, &mut d, 0, "BUILD WALL");
    assert_eq!(g.sites[0].walls, 1);
    assert_eq!(g.sites[0].cards, vec![Mage]);

    let tower: &[Card] = &[
        Structores, Lapides, Lapides, Lapides, Lapides, Lapides, Rustici, Rustici, Rustici,
        Rustici, Rustici, Rustici,
    ];
    let (mut g, mut d) = position(2, &family(), "w3", &[], &[tower]);
    ok(&mut g, &mut d, 0, "BUILD TOWER");
    assert_eq!((g.sites[0].towers, g.sites[0].cards.len()), (1, 0));
}

/// "Les cartes Rustici et Lapides marquées d'un «X2» offrent en une seule carte les effets
/// de deux cartes non marquées."
#[test]
fn x2_cards_count_twice() {
    let site: &[Card] = &[Structores, LapidesX2, RusticiX2, Rustici];
    let (mut g, mut d) = position(2, &family(), "x", &[], &[site]);
    let ev = ok(&mut g, &mut d, 0, "BUILD WALL");
    assert_eq!(g.sites[0].walls, 1);
    assert!(g.sites[0].cards.is_empty());
    assert!(ev
        .iter()
        .any(|e| matches!(e, Event::Built { used, .. } if used.len() == 4)));
}

/// "On peut toujours remplacer une carte de ce type par deux cartes simples qui peuvent être
/// prises dans la pioche. A l'issue de cette opération, il convient de bien mélanger la pioche."
#[test]
fn an_x2_card_is_exchanged_for_two_simple_cards_from_the_pile() {
    let (mut g, mut d) = position(2, &family(), "ex", &[], &[&[LapidesX2, Rustici]]);
    let lap_in_pile = g.pile.iter().filter(|c| **c == Lapides).count();
    ok(&mut g, &mut d, 0, "EXCHANGE Lapides x2");
    assert_eq!(g.sites[0].count(Lapides), 2);
    assert_eq!(g.sites[0].count(LapidesX2), 0);
    assert_eq!(
        g.pile.iter().filter(|c| **c == Lapides).count(),
        lap_in_pile - 2
    );
    assert!(
        g.pile.contains(&LapidesX2) && g.under.is_empty(),
        "x2 shuffled into the pile"
    );
    assert_eq!(g.turn_state.played, 0, "an exchange is not a play");
}

/// "ATTENTION: une carte ne peut faire effet que sur un seul chantier" and building cards go
/// on one's own site.
#[test]
fn a_card_acts_on_one_site_and_materials_go_on_your_own() {
    let (mut g, mut d) = position(
        3,
        &family(),
        "o",
        &[&[Lapides, Incendie, Rustici, Rustici, Rustici]],
        &[&[], &[], &[Lapides]],
    );
    g.defend[2] = DefendPolicy::Never;
    ok(&mut g, &mut d, 0, "PLAY Incendie ON Carol");
    assert!(g.sites[1].cards.is_empty() && g.sites[0].cards.is_empty());
}

/// Incendie: "Le joueur victime lance alors le dé pour chacune des cartes posées sur son
/// chantier... Si c'est pair, il perd sa carte... si le chiffre obtenu est impair, la carte est sauvée"
#[test]
fn family_fire_loses_each_site_card_on_an_even_die() {
    let site: &[Card] = &[Structores, Lapides, LapidesX2, Rustici, Rustici, RusticiX2];
    let (mut seen_lost, mut seen_saved) = (false, false);
    for i in 0..40 {
        let (mut g, mut d) = position(
            2,
            &family(),
            &format!("fire{i}"),
            &[&[Incendie, Rustici, Rustici, Rustici, Rustici]],
            &[&[], site],
        );
        g.defend[1] = DefendPolicy::Never;
        let ev = ok(&mut g, &mut d, 0, "PLAY Incendie ON Bob");
        let mut kept = Vec::new();
        let mut rolled = 0;
        for e in &ev {
            if let Event::FireDie {
                card, die, lost, ..
            } = e
            {
                rolled += 1;
                assert_eq!(*lost, die.is_multiple_of(2));
                if *lost {
                    seen_lost = true;
                } else {
                    seen_saved = true;
                    kept.push(*card);
                }
            }
        }
        assert_eq!(rolled, site.len(), "one die per site card");
        assert_eq!(g.sites[1].cards, kept);
        if seen_lost && seen_saved && i > 3 {
            return;
        }
    }
    panic!("never saw both outcomes");
}

/// Incendie, MODE EXPERT: "on place les cartes face cachée sur le chantier par lots de trois.
/// L'attaquant retire alors une carte sur trois (aucune pour un lot de 1 à 2 cartes)."
#[test]
fn expert_fire_takes_one_card_per_full_lot_of_three() {
    for (cards, lost) in [(7usize, 2usize), (2, 0), (3, 1), (6, 2)] {
        let site: Vec<Card> = [
            Structores, Lapides, Rustici, Lapides, Rustici, Rustici, Lapides,
        ][..cards]
            .to_vec();
        let (mut g, mut d) = position(
            2,
            &expert(),
            "xf",
            &[&[Incendie, Rustici, Rustici, Rustici, Rustici]],
            &[&[], &site],
        );
        g.defend[1] = DefendPolicy::Never;
        let ev = ok(&mut g, &mut d, 0, "PLAY Incendie ON Bob");
        assert_eq!(g.sites[1].cards.len(), cards - lost, "{cards} cards");
        assert!(
            !ev.iter().any(|e| matches!(e, Event::FireDie { .. })),
            "expert: no die"
        );
    }
}

/// Sorcière: "L'attaquant lance le dé et détruit la carte visée s'il obtient un chiffre pair."
#[test]
fn family_witch_destroys_the_aimed_card_on_an_even_die() {
    let (mut even, mut odd) = (false, false);
    for i in 0..40 {
        let (mut g, mut d) = position(
            2,
            &family(),
            &format!("w{i}"),
            &[&[Sorciere, Rustici, Rustici, Rustici, Rustici]],
            &[&[], &[Structores, Lapides]],
        );
        g.defend[1] = DefendPolicy::Never;
        let ev = ok(&mut g, &mut d, 0, "PLAY Sorcière ON Bob TARGET Structores");
        let die = ev
            .iter()
            .find_map(|e| match e {
                Event::Witch { die, .. } => *die,
                _ => None,
            })
            .expect("a die");
        if die.is_multiple_of(2) {
            even = true;
            assert_eq!(g.sites[1].cards, vec![Lapides]);
        } else {
            odd = true;
            assert_eq!(g.sites[1].cards.len(), 2);
        }
        if even && odd {
            return;
        }
    }
    panic!("never saw both faces");
}

/// Sorcière, MODE EXPERT: "Nul besoin de lancer le dé, en l'absence de la bonne carte
/// défense, la carte visée est détruite."
#[test]
fn expert_witch_destroys_without_a_die() {
    let (mut g, mut d) = position(
        2,
        &expert(),
        "xw",
        &[&[Sorciere, Rustici, Rustici, Rustici, Rustici]],
        &[&[], &[Structores, LapidesX2]],
    );
    g.defend[1] = DefendPolicy::Never;
    let ev = ok(&mut g, &mut d, 0, "PLAY witch on bob target lapides x2");
    assert_eq!(g.sites[1].cards, vec![Structores]);
    assert!(ev.iter().any(|e| matches!(
        e,
        Event::Witch {
            die: None,
            destroyed: true,
            ..
        }
    )));
}

/// Pièces d'Or: "Celui qui joue cette carte prend la carte Structores visée et la place sur
/// son propre chantier, à défaut de défense du joueur attaqué."
#[test]
fn gold_hires_away_a_structores() {
    let (mut g, mut d) = position(
        2,
        &family(),
        "g",
        &[&[PiecesOr, Rustici, Rustici, Rustici, Rustici]],
        &[&[], &[Structores, Lapides]],
    );
    g.defend[1] = DefendPolicy::Never;
    ok(&mut g, &mut d, 0, "PLAY Pièces d'Or ON Bob");
    assert_eq!(g.sites[0].cards, vec![Structores]);
    assert_eq!(g.sites[1].cards, vec![Lapides]);
}

/// Mage: "la carte Mage reste sur le chantier cible jusqu'au tour suivant de celui qui l'a
/// posée. Le joueur victime ne peut donc pas jouer."
#[test]
fn mage_blocks_the_site_until_the_casters_next_turn() {
    let wall: &[Card] = &[Structores, Lapides, Lapides, Rustici, Rustici, Rustici];
    let (mut g, mut d) = position(
        3,
        &family(),
        "m",
        &[
            &[Mage, Lapides, Rustici, Rustici, Rustici],
            &[Lapides, Mage, Rustici, Rustici, Rustici],
        ],
        &[&[], wall],
    );
    g.defend[1] = DefendPolicy::Never;
    ok(&mut g, &mut d, 0, "PLAY Mage ON Bob");
    ok(&mut g, &mut d, 0, "END");
    assert_eq!(g.current, 1);
    ok(&mut g, &mut d, 1, "DISCARD Mage");
    ok(&mut g, &mut d, 2, "DISCARD Rustici");
    settle(&mut g, &mut d);
    // Alice's next turn: the Mage leaves.
    assert_eq!(g.current, 0);
    assert!(!g.blocked(1));
    assert_eq!(g.card_count(), 90);
}

/// "Chaque joueur reçoit des cartes attaques sur son chantier en dehors de son tour de jeu.
/// Dans ce cas, on peut immédiatement jouer une carte défense ... les deux cartes sont placées
/// sous la pioche" + Gardes/Moines/Reliques cancel Incendie / Sorcière or Pièces d'Or / Mage.
#[test]
fn each_defence_card_cancels_its_attacks_out_of_turn() {
    let bob_site: &[Card] = &[Structores, Lapides, Rustici];
    for (attack, line, defence) in [
        (Incendie, "PLAY Incendie ON Bob", Gardes),
        (Sorciere, "PLAY Sorcière ON Bob TARGET Structores", Moines),
        (PiecesOr, "PLAY Pièces d'Or ON Bob", Moines),
        (Mage, "PLAY Mage ON Bob", Reliques),
    ] {
        let (mut g, mut d) = position(
            2,
            &family(),
            "def",
            &[
                &[attack, Rustici, Rustici, Rustici, Rustici],
                &[defence, Gardes, Lapides, Lapides, Lapides],
            ],
            &[&[], bob_site],
        );
        ok(&mut g, &mut d, 0, line);
        let p = g.pending(castellan_engine::Lang::En);
        assert_eq!(p.len(), 1);
        assert_eq!((p[0].seat, p[0].kind), (1, castellan_castrum::Ask::Defend));
        assert!(p[0].choices.contains(&"DEFEND".to_string()));
        assert_eq!(
            p[0].default, "DEFEND",
            "documented default: defend when you can"
        );
        let ev = ok(&mut g, &mut d, 1, "DEFEND");
        assert!(ev.iter().any(|e| matches!(e, Event::Defended { defence: x, attack: y, .. } if *x == defence && *y == attack)));
        assert_eq!(
            g.sites[1].cards,
            bob_site.to_vec(),
            "{attack:?} had no effect"
        );
        assert!(!g.blocked(1));
        assert_eq!(g.hands[1].len(), 5, "the defender refills at once");
        assert!(g.under.is_empty(), "the pile was shuffled");
        assert_eq!(
            (g.current, g.turn_state.played),
            (0, 1),
            "the attacker's turn goes on"
        );
    }
}

/// Gardes only answer Incendie ("Elle permet de se protéger contre les effets de la carte Incendie").
#[test]
fn only_the_right_defence_card_is_offered() {
    let (mut g, mut d) = position(
        2,
        &family(),
        "wd",
        &[
            &[Mage, Rustici, Rustici, Rustici, Rustici],
            &[Gardes, Moines, Lapides, Lapides, Lapides],
        ],
        &[],
    );
    ok(&mut g, &mut d, 0, "PLAY Mage ON Bob");
    let p = &g.pending(castellan_engine::Lang::En)[0];
    assert_eq!(p.choices, vec!["ACCEPT".to_string()]);
    ok(&mut g, &mut d, 1, "ACCEPT");
    assert!(g.blocked(1));
}

/// By email: the attacked player is always asked (so the wait reveals nothing about the
/// hand), may set a standing order (SET DEFEND ALWAYS|NEVER), and has a default.
#[test]
fn standing_defence_orders_answer_without_a_prompt() {
    let hands: &[&[Card]] = &[
        &[Incendie, Incendie, Rustici, Rustici, Rustici],
        &[Gardes, Lapides, Lapides, Lapides, Lapides],
    ];
    let site: &[&[Card]] = &[&[], &[Lapides, Lapides, Rustici]];
    // ASK without the card still prompts.
    let (mut g, mut d) = position(
        2,
        &family(),
        "s0",
        &[&[Incendie, Incendie, Rustici, Rustici, Rustici]],
        site,
    );
    ok(&mut g, &mut d, 0, "PLAY Incendie ON Bob");
    assert_eq!(
        g.pending(castellan_engine::Lang::En)[0].kind,
        castellan_castrum::Ask::Defend
    );
    assert_eq!(g.pending(castellan_engine::Lang::En)[0].default, "ACCEPT");

    let (mut g, mut d) = position(2, &family(), "s1", hands, site);
    ok(&mut g, &mut d, 1, "SET DEFEND ALWAYS");
    let ev = ok(&mut g, &mut d, 0, "PLAY Incendie ON Bob");
    assert!(ev.iter().any(|e| matches!(e, Event::Defended { .. })));
    assert_eq!(
        g.pending(castellan_engine::Lang::En)[0].kind,
        castellan_castrum::Ask::Turn
    );

    let (mut g, mut d) = position(2, &family(), "s2", hands, site);
    ok(&mut g, &mut d, 1, "set defend never");
    let ev = ok(&mut g, &mut d, 0, "PLAY Incendie ON Bob");
    assert!(ev.iter().any(|e| matches!(e, Event::FireDie { .. })));
    assert!(g.hands[1].contains(&Gardes));
    assert_eq!(
        g.pending(castellan_engine::Lang::En)[0].kind,
        castellan_castrum::Ask::Turn
    );
}

/// docs/rules/castrum.md, point 8 (a decision for play by mail): a new game
/// starts every player on SET DEFEND ALWAYS, the answer the deadline would give ("DEFEND if
/// the right card is in hand, else ACCEPT"), so an attack costs no mail round trip; the
/// game never waits on the victim, with or without the card, so nothing is revealed.
#[test]
fn by_mail_a_new_game_answers_attacks_at_once_as_the_default_would() {
    let by_mail = Options::default();
    let site: &[&[Card]] = &[&[], &[Lapides, Lapides, Rustici]];
    let hands: &[&[Card]] = &[
        &[Incendie, Incendie, Rustici, Rustici, Rustici],
        &[Gardes, Lapides, Lapides, Lapides, Lapides],
    ];
    let (mut g, mut d) = position(2, &by_mail, "m0", hands, site);
    let ev = ok(&mut g, &mut d, 0, "PLAY Incendie ON Bob");
    assert!(ev.iter().any(|e| matches!(e, Event::Defended { .. })));
    assert_eq!(
        g.pending(castellan_engine::Lang::En)[0].kind,
        castellan_castrum::Ask::Turn
    );
    let (mut g, mut d) = position(
        2,
        &by_mail,
        "m1",
        &[&[Incendie, Incendie, Rustici, Rustici, Rustici]],
        site,
    );
    let ev = ok(&mut g, &mut d, 0, "PLAY Incendie ON Bob");
    assert!(ev.iter().any(|e| matches!(e, Event::FireDie { .. })));
    assert_eq!(
        g.pending(castellan_engine::Lang::En)[0].kind,
        castellan_castrum::Ask::Turn
    );
    // SET DEFEND ASK brings the question back.
    let (mut g, mut d) = position(2, &by_mail, "m2", hands, site);
    ok(&mut g, &mut d, 1, "SET DEFEND ASK");
    ok(&mut g, &mut d, 0, "PLAY Incendie ON Bob");
    assert_eq!(
        g.pending(castellan_engine::Lang::En)[0].kind,
        castellan_castrum::Ask::Defend
    );
}

/// Roue de Carrier: "Jouer cette carte au début de son tour permet de poser 4 cartes sur son
/// chantier (3 cartes en plus de la Roue de Carrier). On ne peut jouer aucune carte «Attaque»
/// avec une carte «Roue de Carrier»."
#[test]
fn the_wheel_opens_a_turn_of_three_more_building_cards_and_no_attack() {
    let (mut g, mut d) = position(
        2,
        &family(),
        "rw",
        &[&[Roue, Lapides, Rustici, Structores, Incendie]],
        &[&[], &[Lapides]],
    );
    ok(&mut g, &mut d, 0, "PLAY Roue de Carrier");
    ok(&mut g, &mut d, 0, "PLAY Lapides");
    ok(&mut g, &mut d, 0, "PLAY Rustici");
    ok(&mut g, &mut d, 0, "PLAY Structores");
    assert_eq!(g.sites[0].cards.len(), 3);
    let (mut g, mut d) = position(
        2,
        &family(),
        "rw2",
        &[&[Roue, Lapides, Rustici, Structores, Lapides]],
        &[],
    );
    ok(&mut g, &mut d, 0, "PLAY wheel");
    for l in ["PLAY Lapides", "PLAY Rustici", "PLAY Structores"] {
        ok(&mut g, &mut d, 0, l);
    }
}

/// "A la fin de chaque tour de table ... on lance le dé, le score obtenu donne l'événement"
#[test]
fn the_event_die_is_rolled_after_every_full_round_and_told_to_all() {
    let mut faces = [false; 6];
    for i in 0..80 {
        let (mut g, mut d) = position(
            2,
            &family(),
            &format!("ev{i}"),
            &[&[Lapides; 5], &[Lapides; 5]],
            &[],
        );
        ok(&mut g, &mut d, 0, "PLAY Lapides");
        let ev = ok(&mut g, &mut d, 0, "END");
        assert!(
            !ev.iter().any(|e| matches!(e, Event::EventDie { .. })),
            "not after one turn"
        );
        let ev = ok(&mut g, &mut d, 1, "DISCARD Lapides");
        let (die, h) = ev
            .iter()
            .find_map(|e| match e {
                Event::EventDie { die, happening, .. } => Some((*die, *happening)),
                _ => None,
            })
            .expect("event die after the round");
        assert_eq!(h, Happening::from_die(die));
        assert_eq!(g.in_force, Some(h));
        assert_eq!(g.round, 2);
        let public = g
            .narrate(
                &ev.iter()
                    .find(|e| matches!(e, Event::EventDie { .. }))
                    .unwrap()
                    .clone(),
                Viewer::Public,
                castellan_engine::Lang::En,
            )
            .unwrap();
        assert!(public.contains(h.name()));
        faces[die as usize - 1] = true;
        if faces.iter().all(|f| *f) {
            break;
        }
    }
    assert!(faces.iter().all(|f| *f));
    assert_eq!(Happening::from_die(1), Happening::Famine);
    assert_eq!(Happening::from_die(6), Happening::FeastOfFools);
}

/// 3 PESTE: "Chaque joueur rassemble ses cartes Rustici et Structores et en retire une sur deux."
#[test]
fn plague_removes_every_second_rustici_and_structores() {
    let site: &[Card] = &[
        Rustici, Rustici, Rustici, RusticiX2, Structores, Structores, Structores, Lapides,
    ];
    let (mut g, mut d) = position(2, &family(), "pl", &[], &[site, &[Rustici]]);
    g.happen(Happening::Plague, &mut d);
    let s = &g.sites[0];
    assert_eq!((s.count(Rustici) + s.count(RusticiX2)), 2);
    assert_eq!(s.count(Structores), 2);
    assert_eq!(s.count(Lapides), 1);
    assert_eq!(s.count(RusticiX2), 1, "simple cards go first");
    assert_eq!(
        g.sites[1].cards,
        vec![Rustici],
        "one card: nothing to halve"
    );
    assert_eq!(g.card_count(), 90);
}

/// 3 PESTE: "L'épidémie détruit une carte Rustici et Structures sur deux. Chaque
/// joueur rassemble ses cartes Rustici et Structores et en retire une sur deux." The two kinds
/// are gathered into ONE pile: 1 Rustici and 1 Structores lose one card (halving each kind
/// apart would lose none), 3 and 3 lose three (apart: two).
#[test]
fn plague_halves_the_rustici_and_structores_gathered_together() {
    let cases: &[(&[Card], usize, (usize, usize))] = &[
        // (site, cards lost, (Rustici left, Structores left))
        (&[Rustici, Structores, Lapides], 1, (0, 1)),
        (
            &[
                Rustici, Rustici, Rustici, Structores, Structores, Structores,
            ],
            3,
            (1, 2),
        ),
        (&[Rustici, Structores, Structores, Structores], 2, (1, 1)),
        (&[Rustici, Rustici, Rustici, Structores], 2, (1, 1)),
        (&[Structores], 0, (0, 1)),
    ];
    for (i, (site, lost, (r, st))) in cases.iter().enumerate() {
        let (mut g, mut d) = position(2, &family(), &format!("pg{i}"), &[], &[site, &[]]);
        g.happen(Happening::Plague, &mut d);
        let s = &g.sites[0];
        let left_r = s.count(Rustici) + s.count(RusticiX2);
        assert_eq!(
            (left_r, s.count(Structores)),
            (*r, *st),
            "{site:?}: Rustici and Structores left"
        );
        assert_eq!(site.len() - s.cards.len(), *lost, "{site:?}: cards lost");
        assert_eq!(
            s.count(Lapides),
            site.iter().filter(|c| **c == Lapides).count()
        );
        assert_eq!(g.card_count(), 90);
    }
    // A game stored before this decision (no `revision` in its options) replays as it was
    // played: each kind halved apart, so 1 Rustici and 1 Structores lose nothing.
    let (mut g, mut d) = position(2, &family(), "pg-old", &[], &[&[Rustici, Structores], &[]]);
    g.options =
        serde_json::from_str(r#"{"mode":"family","victory":"classic","rounds":20}"#).unwrap();
    assert_eq!(g.options.revision, 0);
    g.happen(Happening::Plague, &mut d);
    assert_eq!(g.sites[0].cards.len(), 2);
}

/// 4 POUR LES OEUVRES: "Chaque joueur doit se séparer d'une carte, selon son choix, parmi
/// celles placées sur son chantier ... Si un joueur ne dispose d'aucune carte sur son chantier,
/// il ne donne rien."
#[test]
fn for_the_works_asks_each_player_with_site_cards_for_one() {
    let (mut g, mut d) = position(
        3,
        &family(),
        "wk",
        &[],
        &[&[Lapides, Rustici, Structores], &[], &[Lapides, Rustici]],
    );
    ok(&mut g, &mut d, 2, "SET WORKS Lapides");
    g.happen(Happening::ForTheWorks, &mut d);
    assert_eq!(
        g.sites[2].cards,
        vec![Rustici],
        "standing order gave the Lapides"
    );
    let p = g.pending(castellan_engine::Lang::En);
    assert_eq!(p.len(), 1, "Bob has nothing to give");
    assert_eq!((p[0].seat, p[0].kind), (0, castellan_castrum::Ask::Works));
    assert_eq!(p[0].default, "GIVE Rustici", "documented default");
    assert!(p[0].standing.is_some());
    refused(&mut g, &mut d, 0, "GIVE Mage");
    ok(&mut g, &mut d, 0, "GIVE Structores");
    assert_eq!(g.sites[0].cards, vec![Lapides, Rustici]);
    assert_eq!(
        g.pending(castellan_engine::Lang::En)[0].kind,
        castellan_castrum::Ask::Turn
    );
}

/// 6 FETE DES FOUS: "Chaque joueur passe son jeu complet (les 5 cartes qu'il a en mains) à son voisin de gauche."
#[test]
fn feast_of_fools_passes_every_hand_to_the_left() {
    let (mut g, mut d) = position(
        3,
        &family(),
        "ff",
        &[
            &[Mage, Mage, Mage, Lapides, Lapides],
            &[Gardes, Gardes, Gardes, Rustici, Rustici],
            &[Moines, Moines, Moines, Moines, Structores],
        ],
        &[],
    );
    let before = g.hands.clone();
    let ev = g.happen(Happening::FeastOfFools, &mut d);
    for (s, hand) in before.iter().enumerate() {
        assert_eq!(&g.hands[(s + 1) % 3], hand);
    }
    // The public hears that hands passed, not what they hold.
    for e in &ev {
        if let Some(p) = g.narrate(e, Viewer::Public, castellan_engine::Lang::En) {
            assert!(!p.contains("Mage") && !p.contains("Gardes"), "{p}");
        }
    }
}

/// PARTIE CLASSIQUE: "elle se termine dès qu'un joueur peut construire le dernier bâtiment
/// d'un château complet (1 tour + 4 murailles). Gagne le joueur qui réalise cette construction."
#[test]
fn classic_game_ends_with_the_first_complete_castle() {
    let tower: &[Card] = &[
        Structores, Lapides, Lapides, Lapides, Lapides, Lapides, Rustici, Rustici, Rustici,
        Rustici, Rustici, Rustici, Structores, Lapides, Lapides, Rustici, Rustici, Rustici,
    ];
    let (mut g, mut d) = position(2, &family(), "cw", &[], &[tower]);
    g.sites[0].walls = 4;
    ok(&mut g, &mut d, 0, "BUILD TOWER");
    let o = g.outcome().expect("game over");
    assert_eq!(o.winners, vec![0]);
    assert!(g.pending(castellan_engine::Lang::En).is_empty());

    let (mut g, mut d) = position(2, &family(), "cw2", &[], &[tower]);
    g.sites[0].walls = 3;
    ok(&mut g, &mut d, 0, "BUILD TOWER");
    ok(&mut g, &mut d, 0, "BUILD WALL");
    assert_eq!(g.outcome().unwrap().winners, vec![0]);
}

/// PARTIE PROGRAMMEE: "A la fin du temps on termine le tour de jeu en cours et on compte les
/// points (1 tour bâtie = 4 pts / 1 muraille = 1pt)."
#[test]
fn timed_game_scores_tower_4_wall_1_at_the_end_of_the_last_round() {
    let o = Options {
        victory: Victory::Timed,
        rounds: 2,
        ..Options::default()
    };
    let (mut g, mut d) = position(2, &o, "tm", &[&[Lapides; 5], &[Lapides; 5]], &[]);
    g.options = o.clone();
    g.sites[0].towers = 1; // 4 points
    g.sites[1].walls = 3; // 3 points
    g.in_force = None;
    ok(&mut g, &mut d, 0, "DISCARD Lapides");
    ok(&mut g, &mut d, 1, "DISCARD Lapides");
    settle(&mut g, &mut d);
    assert!(g.outcome().is_none(), "round 1 of 2");
    assert_eq!(g.round, 2);
    g.sites[1].walls = 4; // a tie at 4
    ok(&mut g, &mut d, 0, "DISCARD Lapides");
    assert!(g.outcome().is_none(), "the round in progress is finished");
    ok(&mut g, &mut d, 1, "DISCARD Lapides");
    let out = g.outcome().expect("over after 2 rounds");
    assert_eq!(out.winners, vec![0, 1], "tie shared");
    assert!(g.pending(castellan_engine::Lang::En).is_empty());
}

/// Our decision: a classic game nobody has won after CLASSIC_ROUND_LIMIT rounds is scored.
#[test]
fn classic_game_is_scored_at_the_round_limit() {
    let (mut g, mut d) = position(2, &family(), "lim", &[&[Lapides; 5], &[Lapides; 5]], &[]);
    g.round = CLASSIC_ROUND_LIMIT;
    g.sites[1].walls = 2;
    ok(&mut g, &mut d, 0, "DISCARD Lapides");
    ok(&mut g, &mut d, 1, "DISCARD Lapides");
    assert_eq!(g.outcome().unwrap().winners, vec![1]);
}

/// Names are forgiving (case, accents, French and English names, prefixes), errors say how
/// to write it right.
#[test]
fn orders_are_forgiving_and_errors_have_hints() {
    let (g, _) = position(3, &family(), "n", &[], &[]);
    let p = |l: &str| g.parse(0, l);
    assert_eq!(
        p("play pierres x2").unwrap(),
        Order::Play {
            card: LapidesX2,
            target: None,
            aim: None
        }
    );
    assert_eq!(
        p("JOUER sorciere SUR bo CIBLE macons").unwrap(),
        Order::Play {
            card: Sorciere,
            target: Some(1),
            aim: Some(Structores)
        }
    );
    assert_eq!(
        p("play gold coins on carol").unwrap(),
        Order::Play {
            card: PiecesOr,
            target: Some(2),
            aim: None
        }
    );
    assert_eq!(
        p("discard mage and gardes, lapides").unwrap(),
        Order::Discard(vec![Mage, Gardes, Lapides])
    );
    assert_eq!(p("construire muraille").unwrap(), Order::Build(Piece::Wall));
    assert_eq!(p("no defence").unwrap(), Order::Accept);
    assert_eq!(
        p("play lapides on me").unwrap(),
        Order::Play {
            card: Lapides,
            target: None,
            aim: None
        }
    );
    let e = p("PLAY Lapidez").unwrap();
    assert_eq!(
        e,
        Order::Play {
            card: Lapides,
            target: None,
            aim: None
        }
    );
    assert!(p("").is_err());
}

// ------------------------------------------------------------------------------------------
// Coverage audit (Castrum): rules that had no test of their own.

/// "Hands only in private mails; sites and castles in the public report". Rules:
/// the site is "zone située devant chaque joueur où des cartes sont posées face visible";
/// hands are kept "faces cachées".
#[test]
fn the_public_report_shows_sites_and_castles_and_only_the_owner_sees_a_hand() {
    let (mut g, _) = position(
        2,
        &family(),
        "view",
        &[
            &[Reliques, Gardes, Moines, Roue, Sorciere],
            &[Incendie, Incendie, Lapides, Lapides, Lapides],
        ],
        &[&[Structores, LapidesX2, Rustici], &[]],
    );
    g.sites[0].walls = 2;
    g.sites[0].towers = 1;
    g.sites[1].mage = Some(0);
    let pv = g.public_view(castellan_engine::Lang::En);
    let alice = pv
        .lines()
        .find(|l| l.trim_start().starts_with("Alice"))
        .expect("Alice's site line");
    assert!(
        alice.contains("castle: 2/4 walls, 1/1 tower (6 pt)"),
        "{alice}"
    );
    assert!(
        alice.contains("1 Structores, 1 Lapides x2, 1 Rustici"),
        "{alice}"
    );
    assert!(alice.contains("[S 1 L 2 R 1]"), "{alice}");
    assert!(alice.contains("hand: 5 cards"), "{alice}");
    let bob = pv
        .lines()
        .find(|l| l.trim_start().starts_with("Bob"))
        .expect("Bob's site line");
    assert!(bob.contains("site: empty"), "{bob}");
    assert!(bob.contains("BLOCKED by Alice's Mage"), "{bob}");
    for hidden in [
        "Reliques",
        "Gardes",
        "Moines",
        "Roue",
        "Sorcière",
        "Incendie",
    ] {
        assert!(!pv.contains(hidden), "public report shows {hidden}:\n{pv}");
    }
    let mine = g.private_view(0, castellan_engine::Lang::En);
    assert!(mine.contains("Your hand (5)"), "{mine}");
    assert!(
        mine.contains("Reliques") && mine.contains("Sorcière"),
        "{mine}"
    );
    let theirs = g.private_view(1, castellan_engine::Lang::En);
    assert!(theirs.contains("Incendie"), "{theirs}");
    assert!(!theirs.contains("Reliques") && !theirs.contains("Sorcière"));
}

/// QUAND CONSTRUIRE: "On peut transformer les cartes de son chantier en construction à
/// n'importe quel moment de son tour": before a card is played, between and after the
/// plays; never in another player's turn.
#[test]
fn building_is_at_any_moment_of_ones_own_turn_and_only_then() {
    let two_walls: &[Card] = &[
        Structores, Structores, Lapides, Lapides, Lapides, Lapides, Rustici, Rustici, Rustici,
        Rustici, Rustici, Rustici,
    ];
    let one_wall: &[Card] = &[Structores, Lapides, Lapides, Rustici, Rustici, Rustici];
    let (mut g, mut d) = position(
        2,
        &family(),
        "when",
        &[
            &[Lapides, Lapides, Lapides, Rustici, Rustici],
            &[Lapides; 5],
        ],
        &[two_walls, one_wall],
    );
    ok(&mut g, &mut d, 0, "BUILD WALL");
    assert_eq!(g.sites[0].walls, 1, "before any card is played");
    ok(&mut g, &mut d, 0, "PLAY Lapides");
    ok(&mut g, &mut d, 0, "PLAY Lapides");
    ok(&mut g, &mut d, 0, "BUILD WALL");
    assert_eq!(g.sites[0].walls, 2, "after the cards played");
    assert_eq!(g.sites[0].cards, vec![Lapides, Lapides]);
    ok(&mut g, &mut d, 0, "END");
    ok(&mut g, &mut d, 1, "BUILD WALL");
    assert_eq!(g.sites[1].walls, 1, "in Bob's own turn");
}

/// Decision 18 (docs/rules/castrum.md): EXCHANGE is allowed under famine and bad weather
/// (no new worker arrives, nothing is built) but not on a site blocked by a Mage ("bloque
/// toute activité du chantier").
#[test]
fn an_exchange_under_famine_or_bad_weather_but_not_under_a_mage() {
    for h in [Happening::Famine, Happening::BadWeather] {
        let (mut g, mut d) = position(2, &family(), "ex-ev", &[], &[&[RusticiX2]]);
        g.in_force = Some(h);
        ok(&mut g, &mut d, 0, "EXCHANGE Rustici x2");
        assert_eq!(g.sites[0].cards, vec![Rustici, Rustici], "{h:?}");
    }
    let (mut g, mut d) = position(2, &family(), "ex-mage", &[], &[&[RusticiX2]]);
    g.sites[0].mage = Some(1);
    remove_from_pile(&mut g, Mage);
    let e = refused(&mut g, &mut d, 0, "EXCHANGE Rustici x2");
    assert!(e.message.contains("blocked"), "{}", e.message);
}

fn remove_from_pile(g: &mut Castrum, c: Card) {
    let i = g.pile.iter().position(|x| *x == c).expect("in the pile");
    g.pile.remove(i);
}
