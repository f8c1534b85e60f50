#![allow(dead_code)]
//! Test helpers: tables, positions set up directly, names.

use castellan_engine::{options_from_pairs, Rules, Seat, Secret, Table};
use castellan_risk::map::board;
use castellan_risk::{Options, Owner, Phase, Risk, Stage};

pub fn opts(v: &[(&str, &str)]) -> Options {
    let pairs: Vec<(String, String)> = v
        .iter()
        .map(|(k, v)| (k.to_string(), v.to_string()))
        .collect();
    options_from_pairs(&pairs).expect("options parse")
}

pub fn table(players: usize, v: &[(&str, &str)], id: &str) -> Table<Risk> {
    let names = (0..players).map(|i| format!("P{i}")).collect();
    Table::new(id, Secret::derive(id.as_bytes()), names, opts(v)).expect("setup")
}

/// Play documented defaults until the game proper starts.
pub fn to_play(t: &mut Table<Risk>) {
    let mut guard = 0;
    while t.state.phase != Phase::Play && guard < 10_000 {
        guard += 1;
        let seat = t.state.pending(castellan_engine::Lang::En)[0].seat;
        t.play_default(seat).expect("default accepted");
    }
}

pub fn id(name: &str) -> usize {
    board().resolve(name).expect("territory name")
}

/// A table in play where `seat` is to move (attack stage, nothing to place), every
/// territory held by `rest` with 1 army except those listed.
pub fn position(
    players: usize,
    v: &[(&str, &str)],
    seed: &str,
    seat: Seat,
    rest: Owner,
    listed: &[(&str, Owner, u32)],
) -> Table<Risk> {
    let mut t = table(
        players,
        &[v, &[("claim", "random"), ("placement", "blind")]].concat(),
        seed,
    );
    to_play(&mut t);
    let s = &mut t.state;
    for x in 0..s.board.len() {
        s.board[x].owner = rest;
        s.board[x].armies = 1;
    }
    for (name, o, a) in listed {
        let x = id(name);
        s.board[x].owner = *o;
        s.board[x].armies = *a;
    }
    for p in s.players.iter_mut() {
        p.hand.clear();
        p.eliminated = false;
    }
    s.deck = (0..44).collect();
    s.discard.clear();
    s.to_move = seat;
    s.battle = None;
    s.turn_state.stage = Stage::Attack;
    s.turn_state.reinforcements = 0;
    s.turn_state.conquered = false;
    s.turn_state.bonus_given = false;
    s.turn_state.commander_used = false;
    t
}

pub fn seat(p: Seat) -> Owner {
    Owner::Seat(p)
}

/// Public narration lines of an accepted submission.
pub fn submit(t: &mut Table<Risk>, seat: Seat, text: &str) -> Vec<String> {
    match t.submit(seat, text, castellan_engine::Lang::En) {
        Ok(n) => n.public,
        Err(e) => panic!("refused: {e:?}"),
    }
}

pub fn refused(t: &mut Table<Risk>, seat: Seat, text: &str) -> (String, Option<String>) {
    let before = serde_json::to_value(&t.state).unwrap();
    match t.submit(seat, text, castellan_engine::Lang::En) {
        Ok(_) => panic!("\"{text}\" was accepted"),
        Err(e) => {
            assert_eq!(before, serde_json::to_value(&t.state).unwrap());
            (e[0].message.clone(), e[0].hint.clone())
        }
    }
}

/// The armies on each territory.
pub fn armies(s: &Risk) -> Vec<u32> {
    s.board.iter().map(|x| x.armies).collect()
}

/// Who holds each territory.
pub fn owners(s: &Risk) -> Vec<Owner> {
    s.board.iter().map(|x| x.owner).collect()
}

/// The starting armies each seat has still to place.
pub fn to_place(s: &Risk) -> Vec<u32> {
    s.players.iter().map(|p| p.to_place).collect()
}
