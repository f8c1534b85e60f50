//! The map in a report: the text map, and the lines that changed since the last one.

use castellan_engine::{Lang, Session};

/// The game's map as a report shows it: its public view without blank lines (its
/// sections have headings; a 6-player report stays short).
pub(super) fn map_text(session: &dyn Session, lang: Lang) -> String {
    let view = session.public_view(lang);
    let mut out = String::with_capacity(view.len());
    for l in view.lines().filter(|l| !l.trim().is_empty()) {
        out.push_str(l);
        out.push('\n');
    }
    out
}

/// Maps shorter than this are shown whole: a short map is read at a glance.
const SHORT_MAP_LINES: usize = 40;

/// The indices of `now`'s lines that the last report's map (`before`) did not have; `None`
/// when the whole map should be shown: no map before (the first report), a short map, or
/// more than three lines in four changed.
pub(crate) fn changed_lines(before: &str, now: &str) -> Option<Vec<usize>> {
    if before.is_empty() {
        return None;
    }
    let lines: Vec<&str> = now.lines().collect();
    if lines.len() < SHORT_MAP_LINES {
        return None;
    }
    let old: std::collections::HashSet<&str> = before.lines().collect();
    let changed: Vec<usize> = (0..lines.len())
        .filter(|i| !lines[*i].trim().is_empty() && !old.contains(lines[*i]))
        .collect();
    (changed.len() * 4 <= lines.len() * 3).then_some(changed)
}

/// The lines of `map` at `changed`, each indented line under the heading above it (the
/// nearest line before it that is not indented), each heading once. `None` when an index
/// is past the map's end.
pub(crate) fn with_headings(map: &str, changed: &[usize]) -> Option<Vec<String>> {
    let lines: Vec<&str> = map.lines().collect();
    if changed.iter().any(|i| *i >= lines.len()) {
        return None;
    }
    let mut out = Vec::new();
    let mut last_heading: Option<usize> = None;
    for &i in changed {
        if lines[i].starts_with(' ') {
            if let Some(h) = (0..i)
                .rev()
                .find(|j| !lines[*j].starts_with(' ') && !lines[*j].trim().is_empty())
            {
                if last_heading != Some(h) && !changed.contains(&h) {
                    out.push(lines[h].to_string());
                }
                last_heading = Some(h);
            }
        } else {
            last_heading = Some(i);
        }
        out.push(lines[i].to_string());
    }
    Some(out)
}

#[cfg(test)]
mod map_tests {
    use super::*;

    fn map(rows: &[(&str, u32)]) -> String {
        let mut s = String::from("BOARD (turn 3)\nFRANCE\n");
        for (i, (name, n)) in rows.iter().enumerate() {
            if i == rows.len() / 2 {
                s.push_str("SPAIN\n");
            }
            s.push_str(&format!("  {name:<10} {n}\n"));
        }
        s
    }

    /// "Then what changed on the map. The full map comes last, or only on
    /// request (MAP)": a report shows the changed lines under their headings.
    #[test]
    fn only_the_changed_lines_are_shown_under_their_heading() {
        let names: Vec<String> = (0..50).map(|i| format!("T{i}")).collect();
        let before: Vec<(&str, u32)> = names.iter().map(|n| (n.as_str(), 1)).collect();
        let mut after = before.clone();
        after[3].1 = 5;
        after[40].1 = 2;
        let (b, a) = (map(&before), map(&after));
        let c = changed_lines(&b, &a).expect("a long map with few changes");
        let shown = with_headings(&a, &c).unwrap();
        assert_eq!(
            shown,
            vec!["FRANCE", "  T3         5", "SPAIN", "  T40        2"],
            "{shown:#?}"
        );
        // The first report, and a map mostly changed, are shown whole.
        assert_eq!(changed_lines("", &a), None);
        let all: Vec<(&str, u32)> = names.iter().map(|n| (n.as_str(), 9)).collect();
        assert_eq!(changed_lines(&b, &map(&all)), None);
        // A short map is shown whole.
        assert_eq!(changed_lines(&map(&before[..5]), &map(&after[..5])), None);
    }
}
