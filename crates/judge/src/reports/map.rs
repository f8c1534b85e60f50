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

/// Maps shorter than this, in lines on a reader's screen, are shown whole: a short map
/// is read at a glance. (Only a map of paragraphs is told by its changes at all:
/// `Session::map_in_paragraphs`.)
const SHORT_MAP_LINES: usize = 15;

/// The columns of a mail's text (format=flowed wraps a longer line).
const COLUMNS: usize = 78;

/// About how many lines `line` fills on a reader's screen: a map's paragraph (an empire,
/// a continent) wraps at the mail's 78 columns.
fn screen_lines(line: &str) -> usize {
    line.chars().count().div_ceil(COLUMNS).max(1)
}

/// The indices of `now`'s lines that the last report's map (`before`) did not have; `None`
/// when the whole map should be shown: no map before (the first report), a short map, or
/// more than three lines in four changed (both counted on the reader's screen).
pub(crate) fn changed_lines(before: &str, now: &str) -> Option<Vec<usize>> {
    if before.is_empty() {
        return None;
    }
    let lines: Vec<&str> = now.lines().collect();
    let total: usize = lines.iter().map(|l| screen_lines(l)).sum();
    if total < SHORT_MAP_LINES {
        return None;
    }
    let old: std::collections::HashSet<&str> = before.lines().collect();
    // The map's first line, its title ("RISK — round 3, Bob to play"), says what the
    // report's first lines say: not told again among the changes.
    let changed: Vec<usize> = (1..lines.len())
        .filter(|i| !lines[*i].trim().is_empty() && !old.contains(lines[*i]))
        .collect();
    let shown: usize = changed.iter().map(|i| screen_lines(lines[*i])).sum();
    (shown * 4 <= total * 3).then_some(changed)
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

    /// A map told one paragraph an empire (Castle Risk, Risk) has few lines but fills a
    /// screen: its length is counted as the reader sees it, wrapped at 78 columns, so a
    /// report shows only the paragraphs that changed.
    #[test]
    fn a_map_of_long_paragraphs_is_measured_as_the_reader_sees_it() {
        let para = |name: &str, n: u32| {
            let list: Vec<String> = (0..30).map(|i| format!("{name}{i} {n}")).collect();
            format!("{name} EMPIRE. Bot1: {}.", list.join(", "))
        };
        let map = |ns: [u32; 8]| {
            let mut s = String::from("BOARD (turn 3)\n");
            for (i, n) in ns.iter().enumerate() {
                s.push_str(&para(&format!("E{i}"), *n));
                s.push('\n');
            }
            s
        };
        let before = map([1; 8]);
        let after = map([1, 1, 2, 1, 1, 1, 1, 1]);
        assert!(after.lines().count() < 10);
        assert!(screen_lines(after.lines().nth(3).unwrap()) >= 4);
        let c = changed_lines(&before, &after).expect("a long map with one empire changed");
        assert_eq!(c, vec![3]);
        let shown = with_headings(&after, &c).unwrap();
        assert_eq!(shown, vec![para("E2", 2)]);
        // Most of it changed: the whole map.
        assert_eq!(changed_lines(&before, &map([2; 8])), None);
    }
}
