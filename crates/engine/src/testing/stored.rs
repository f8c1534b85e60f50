//! Games stored by older builds, checked the one way every game checks them: each fixture
//! `NAME.json` (a table as `Session::to_json` gave it) loads as the judge's store gives it
//! (snapshot and entries apart) and whole, the same game both ways; it replays from its
//! seed; it is over unless listed unfinished; it is told in English and French word for
//! word as `NAME.en.txt` and `NAME.fr.txt` say; stored again by this build, it loads,
//! replays and is told the same.

use crate::{load_table_json, Lang, Rules, Session, StoredTable, Table};

/// How a game's fixtures tell it (each game's texts were written in one of these shapes,
/// and are never written again).
#[derive(Clone, Copy, Debug)]
pub enum Told {
    /// Castrum and Castello: the public narration, each seat's own lines, the views, the
    /// outcome.
    Sections,
    /// Risk: public lines, private lines, dice, outcome, then the views.
    WithDice,
    /// Castle Risk: each history entry's public lines then its seats' own, entry by entry.
    ByEntry,
}

/// A game's fixtures: their names, and those not played to the end.
#[derive(Clone, Copy, Debug)]
pub struct Fixtures<'a> {
    pub names: &'a [&'a str],
    pub unfinished: &'a [&'a str],
    pub told: Told,
}

/// One fixture, loaded and checked: its JSON as stored and the table it gives.
pub struct Checked<R: Rules> {
    pub name: String,
    pub json: serde_json::Value,
    pub table: Table<R>,
}

/// Check every fixture (`read` gives a fixture file's text by its file name); the loaded
/// games are handed back for a game's own further checks.
pub fn check<R: Rules>(fixtures: &Fixtures, read: &dyn Fn(&str) -> String) -> Vec<Checked<R>> {
    let mut all = Vec::new();
    for name in fixtures.names {
        let json: serde_json::Value = serde_json::from_str(&read(&format!("{name}.json")))
            .unwrap_or_else(|e| panic!("{name}.json: {e}"));
        let parts = StoredTable::from_table_json(&json).unwrap_or_else(|e| panic!("{name}: {e}"));
        let table = Table::<R>::from_stored(&parts).unwrap_or_else(|e| panic!("{name}: {e}"));
        let whole = load_table_json::<R>(json.clone()).unwrap_or_else(|e| panic!("{name}: {e}"));
        assert_eq!(
            whole.to_json().unwrap(),
            Session::to_json(&table).unwrap(),
            "{name}: read whole or in parts, the same game"
        );
        table
            .verify()
            .unwrap_or_else(|e| panic!("{name}: replays from its seed: {e}"));
        let over = !fixtures.unfinished.contains(name);
        assert_eq!(table.outcome().is_some(), over, "{name}: over is {over}");
        let again = Table::<R>::from_stored(&table.stored(0).unwrap())
            .unwrap_or_else(|e| panic!("{name}, stored again: {e}"));
        again
            .verify()
            .unwrap_or_else(|e| panic!("{name}, stored again, replays: {e}"));
        for (lang, tag) in [(Lang::En, "en"), (Lang::Fr, "fr")] {
            let want = read(&format!("{name}.{tag}.txt"));
            let what = format!("{name} ({tag}) is told differently now");
            super::same(&told(fixtures.told, &table, lang), &want, &what);
            let what = format!("{name} ({tag}) stored again is told differently");
            super::same(&told(fixtures.told, &again, lang), &want, &what);
        }
        all.push(Checked {
            name: name.to_string(),
            json,
            table,
        });
    }
    assert_eq!(all.len(), fixtures.names.len());
    all
}

/// A new fixture's files (the table's JSON, then what it tells in English and French), for
/// a test that adds a game; a stored one is never written again.
pub fn files<R: Rules>(name: &str, t: &Table<R>, how: Told) -> Vec<(String, String)> {
    let json = serde_json::to_string_pretty(&Session::to_json(t).unwrap()).unwrap();
    vec![
        (format!("{name}.json"), json + "\n"),
        (format!("{name}.en.txt"), told(how, t, Lang::En)),
        (format!("{name}.fr.txt"), told(how, t, Lang::Fr)),
    ]
}

/// Everything the game tells in `lang`, in the fixtures' shape `how`.
pub fn told<R: Rules>(how: Told, t: &Table<R>, lang: Lang) -> String {
    match how {
        Told::Sections => sections(t, lang),
        Told::WithDice => with_dice(t, lang),
        Told::ByEntry => by_entry(t, lang),
    }
}

fn sections(s: &dyn Session, lang: Lang) -> String {
    let mut out = String::new();
    let n = s.narrate_since(0, lang);
    out.push_str("== narration ==\n");
    for l in &n.public {
        out.push_str(l);
        out.push('\n');
    }
    for seat in 0..s.players().len() {
        out.push_str(&format!("== seat {seat} alone ==\n"));
        for (_, l) in n.private.iter().filter(|(p, _)| *p == seat) {
            out.push_str(l);
            out.push('\n');
        }
    }
    out.push_str("== public view ==\n");
    out.push_str(&s.public_view(lang));
    out.push('\n');
    for seat in 0..s.players().len() {
        out.push_str(&format!("== private view of seat {seat} ==\n"));
        out.push_str(&s.private_view(seat, lang));
        out.push('\n');
    }
    out.push_str("== outcome ==\n");
    if let Some(o) = s.outcome() {
        out.push_str(&format!("{:?}: {}\n", o.winners, o.reason_in(lang)));
    }
    out
}

fn with_dice(s: &dyn Session, lang: Lang) -> String {
    let all = s.narrate_since(0, lang);
    let mut out = String::from("== public\n");
    for line in &all.public {
        out += &format!("{line}\n");
    }
    out += "== private\n";
    for (seat, line) in &all.private {
        out += &format!("[seat {seat}] {line}\n");
    }
    out += "== dice\n";
    for r in &all.rolls {
        out += &format!("{r:?}\n");
    }
    out += "== outcome\n";
    if let Some(o) = s.outcome() {
        out += &format!("{:?}: {}\n", o.winners, o.reason_in(lang));
    }
    out += "== public view\n";
    out += &s.public_view(lang);
    for seat in 0..s.players().len() {
        out += &format!("\n== private view {seat}\n");
        out += &s.private_view(seat, lang);
    }
    out += "\n";
    out
}

fn by_entry<R: Rules>(t: &Table<R>, lang: Lang) -> String {
    let mut one = Table {
        history: Vec::new(),
        ..t.clone()
    };
    let mut out = String::new();
    for (i, e) in t.history.iter().enumerate() {
        one.history = vec![e.clone()];
        one.base = t.base + i;
        let n = one.narrate_since(one.base, lang);
        out.push_str(&format!("# entry {}\n", one.base));
        for l in &n.public {
            out.push_str(l);
            out.push('\n');
        }
        for (s, l) in &n.private {
            out.push_str(&format!("[{s}] {l}\n"));
        }
    }
    out
}
