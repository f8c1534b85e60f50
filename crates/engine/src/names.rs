//! Forgiving name matching for order text: case, accents, spaces, hyphens and
//! underscores do not matter; aliases (English and French names) and unique prefixes are
//! accepted; a miss suggests the nearest names ("did you mean Livonia?").

use crate::words::or_list;
use crate::Lang;

/// Lowercase, strip accents and keep only letters and digits.
pub fn normalize(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        let c = fold_accent(c);
        for l in c.to_lowercase() {
            if l.is_ascii_alphanumeric() {
                out.push(l);
            }
        }
    }
    out
}

fn fold_accent(c: char) -> char {
    match c {
        'à' | 'á' | 'â' | 'ã' | 'ä' | 'å' | 'À' | 'Á' | 'Â' | 'Ã' | 'Ä' | 'Å' => 'a',
        'ç' | 'Ç' => 'c',
        'è' | 'é' | 'ê' | 'ë' | 'È' | 'É' | 'Ê' | 'Ë' => 'e',
        'ì' | 'í' | 'î' | 'ï' | 'Ì' | 'Í' | 'Î' | 'Ï' => 'i',
        'ñ' | 'Ñ' => 'n',
        'ò' | 'ó' | 'ô' | 'õ' | 'ö' | 'ø' | 'Ò' | 'Ó' | 'Ô' | 'Õ' | 'Ö' | 'Ø' => 'o',
        'ù' | 'ú' | 'û' | 'ü' | 'Ù' | 'Ú' | 'Û' | 'Ü' => 'u',
        'ý' | 'ÿ' | 'Ý' => 'y',
        'œ' | 'Œ' => 'o',
        'æ' | 'Æ' => 'a',
        other => other,
    }
}

/// Edit distance on normalized strings (small inputs only): letters added, dropped or
/// changed, and two neighbours swapped ("Bohemai", "Irkutks"), each one edit (the optimal
/// string alignment distance, Damerau–Levenshtein without edits inside a swap).
pub fn edit_distance(a: &str, b: &str) -> usize {
    let a: Vec<char> = a.chars().collect();
    let b: Vec<char> = b.chars().collect();
    // Three rows: two back (for a swap), the last, the one being filled.
    let mut before: Vec<usize> = vec![0; b.len() + 1];
    let mut prev: Vec<usize> = (0..=b.len()).collect();
    let mut cur = vec![0; b.len() + 1];
    for i in 1..=a.len() {
        cur[0] = i;
        for j in 1..=b.len() {
            let cost = usize::from(a[i - 1] != b[j - 1]);
            let mut d = (prev[j] + 1).min(cur[j - 1] + 1).min(prev[j - 1] + cost);
            if i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] {
                d = d.min(before[j - 2] + 1);
            }
            cur[j] = d;
        }
        std::mem::swap(&mut before, &mut prev);
        std::mem::swap(&mut prev, &mut cur);
    }
    prev[b.len()]
}

/// Why a name did not resolve, ready to be shown to a player.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum NameError {
    Unknown {
        given: String,
        suggestions: Vec<String>,
    },
    Ambiguous {
        given: String,
        candidates: Vec<String>,
    },
}

impl std::fmt::Display for NameError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            NameError::Unknown { given, suggestions } if suggestions.is_empty() => {
                write!(f, "\"{given}\" is not a name I know")
            }
            NameError::Unknown { given, suggestions } => write!(
                f,
                "\"{given}\" is not a name I know: did you mean {}?",
                or_list(suggestions, Lang::En)
            ),
            NameError::Ambiguous { given, candidates } => write!(
                f,
                "\"{given}\" could be {}: write more of the name",
                or_list(candidates, Lang::En)
            ),
        }
    }
}

/// How a game words a [`NameError`] in French; each game chose its words once and its
/// players read them ever since, so they stay the game's.
#[derive(Clone, Copy, Debug)]
pub struct FrNameWords {
    /// After « given » when nothing comes near: "n'est pas un nom que je connais".
    pub unknown: &'static str,
    /// After « given » before the suggestions: "n'est pas un nom que je connais".
    pub unknown_but: &'static str,
    /// After the candidates of an ambiguous name: "écrivez davantage du nom".
    pub write_more: &'static str,
}

impl FrNameWords {
    /// The French of the engine's English ("is not a name I know", "write more of the name").
    pub const DEFAULT: FrNameWords = FrNameWords {
        unknown: "n'est pas un nom que je connais",
        unknown_but: "n'est pas un nom que je connais",
        write_more: "écrivez davantage du nom",
    };
}

impl NameError {
    /// The error in French: « Prusia » n'est pas un nom ... : vouliez-vous dire a ou b ?
    /// `fr_name` gives the French of a suggested name (a territory's French name).
    pub fn french(&self, words: FrNameWords, fr_name: impl Fn(&str) -> String) -> String {
        let french =
            |names: &[String]| -> Vec<String> { names.iter().map(|n| fr_name(n)).collect() };
        match self {
            NameError::Unknown { given, suggestions } if suggestions.is_empty() => {
                format!("« {given} » {}", words.unknown)
            }
            NameError::Unknown { given, suggestions } => format!(
                "« {given} » {} : vouliez-vous dire {} ?",
                words.unknown_but,
                or_list(&french(suggestions), Lang::Fr)
            ),
            NameError::Ambiguous { given, candidates } => format!(
                "« {given} » peut désigner {} : {}",
                or_list(&french(candidates), Lang::Fr),
                words.write_more
            ),
        }
    }
}

/// A table of names for ids of type `T` (territories, cards, players).
#[derive(Clone, Debug, Default)]
pub struct Names<T: Copy + PartialEq> {
    /// (normalized spelling, display name, id)
    entries: Vec<(String, String, T)>,
}

impl<T: Copy + PartialEq> Names<T> {
    pub fn new() -> Self {
        Names {
            entries: Vec::new(),
        }
    }

    /// Add the display name of `id` (also accepted as input).
    pub fn add(&mut self, display: &str, id: T) {
        self.add_alias(display, display, id);
    }

    /// Add another spelling of `id`; `display` is the name shown in messages.
    pub fn add_alias(&mut self, alias: &str, display: &str, id: T) {
        let n = normalize(alias);
        if n.is_empty() || self.entries.iter().any(|(s, _, i)| *s == n && *i == id) {
            return;
        }
        self.entries.push((n, display.to_string(), id));
    }

    /// Resolve `given`: exact spelling, then unique prefix, then one typo away.
    pub fn resolve(&self, given: &str) -> Result<T, NameError> {
        let g = normalize(given);
        if g.is_empty() {
            return Err(NameError::Unknown {
                given: given.trim().to_string(),
                suggestions: vec![],
            });
        }
        if let Some((_, _, id)) = self.entries.iter().find(|(s, _, _)| *s == g) {
            return Ok(*id);
        }
        let mut prefixed: Vec<(T, &str)> = Vec::new();
        for (s, d, id) in &self.entries {
            if s.starts_with(&g) && !prefixed.iter().any(|(i, _)| i == id) {
                prefixed.push((*id, d));
            }
        }
        match prefixed.len() {
            1 => return Ok(prefixed[0].0),
            n if n > 1 => {
                return Err(NameError::Ambiguous {
                    given: given.trim().to_string(),
                    candidates: prefixed.iter().map(|(_, d)| d.to_string()).collect(),
                })
            }
            _ => {}
        }
        // Near misses: a single typo on a name of 5+ letters is accepted if unique.
        let mut scored: Vec<(usize, T, &str)> = Vec::new();
        for (s, d, id) in &self.entries {
            let dist = edit_distance(&g, s);
            if !scored.iter().any(|(_, i, _)| i == id) {
                scored.push((dist, *id, d));
            } else if let Some(e) = scored.iter_mut().find(|(_, i, _)| i == id) {
                if dist < e.0 {
                    *e = (dist, *id, d);
                }
            }
        }
        scored.sort_by_key(|(d, _, _)| *d);
        if let Some(&(d, id, _)) = scored.first() {
            let unique = scored.get(1).map(|s| s.0 > d).unwrap_or(true);
            if d == 1 && g.len() >= 5 && unique {
                return Ok(id);
            }
        }
        let limit = (g.len() / 2).clamp(2, 4);
        let suggestions: Vec<String> = scored
            .iter()
            .filter(|(d, _, _)| *d <= limit)
            .take(3)
            .map(|(_, _, d)| d.to_string())
            .collect();
        Err(NameError::Unknown {
            given: given.trim().to_string(),
            suggestions,
        })
    }

    /// Display names, one per id, in insertion order.
    pub fn displays(&self) -> Vec<String> {
        let mut out: Vec<String> = Vec::new();
        let mut seen: Vec<T> = Vec::new();
        for (_, d, id) in &self.entries {
            if !seen.contains(id) {
                seen.push(*id);
                out.push(d.clone());
            }
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn table() -> Names<u8> {
        let mut n = Names::new();
        n.add("Livonia", 1);
        n.add("Saint Petersburg", 2);
        n.add_alias("Saint-Pétersbourg", "Saint Petersburg", 2);
        n.add("Saxony", 3);
        n.add_alias("Saxe", "Saxony", 3);
        n.add("Sardinia", 4);
        n
    }

    #[test]
    fn case_accents_and_spaces_do_not_matter() {
        let t = table();
        assert_eq!(t.resolve("LIVONIA"), Ok(1));
        assert_eq!(t.resolve("saint-petersbourg"), Ok(2));
        assert_eq!(t.resolve("Saint Pétersbourg"), Ok(2));
        assert_eq!(t.resolve("saint_petersburg"), Ok(2));
    }

    #[test]
    fn unique_prefix_resolves_and_ambiguous_prefix_lists_candidates() {
        let t = table();
        assert_eq!(t.resolve("liv"), Ok(1));
        assert_eq!(t.resolve("saxo"), Ok(3));
        match t.resolve("sa") {
            Err(NameError::Ambiguous { candidates, .. }) => {
                assert!(candidates.contains(&"Saxony".to_string()));
                assert!(candidates.contains(&"Sardinia".to_string()));
            }
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn one_typo_is_forgiven_and_worse_gets_did_you_mean() {
        let t = table();
        // Two neighbours swapped are one typo, as a letter dropped is.
        assert_eq!(t.resolve("Livonai"), Ok(1));
        assert_eq!(t.resolve("Lvionia"), Ok(1));
        assert_eq!(t.resolve("Livnia"), Ok(1));
        let e = t.resolve("Lavanoa").unwrap_err();
        assert!(e.to_string().contains("did you mean Livonia?"), "{e}");
    }

    /// A swap of two neighbours is one edit; two swaps, or a swap of letters apart, more.
    #[test]
    fn a_swap_of_neighbours_is_one_edit() {
        assert_eq!(edit_distance("bohemai", "bohemia"), 1);
        assert_eq!(edit_distance("irkutks", "irkutsk"), 1);
        assert_eq!(edit_distance("obhemai", "bohemia"), 2);
        assert_eq!(edit_distance("ab", "ba"), 1);
        assert_eq!(edit_distance("abc", "cba"), 2);
        assert_eq!(edit_distance("", "abc"), 3);
        assert_eq!(edit_distance("kitten", "sitting"), 3);
    }

    #[test]
    fn empty_name_is_an_error_not_a_panic() {
        assert!(table().resolve("  ").is_err());
        assert!(table().resolve("!!").is_err());
    }

    fn names(v: &[&str]) -> Vec<String> {
        v.iter().map(|x| x.to_string()).collect()
    }

    #[test]
    fn name_errors_in_french_with_the_games_words() {
        let up = |n: &str| n.to_uppercase();
        let unknown = NameError::Unknown {
            given: "Prusia".into(),
            suggestions: vec![],
        };
        assert_eq!(
            unknown.french(FrNameWords::DEFAULT, up),
            "« Prusia » n'est pas un nom que je connais"
        );
        let near = NameError::Unknown {
            given: "Prusia".into(),
            suggestions: names(&["Prussia", "Russia"]),
        };
        assert_eq!(
            near.french(FrNameWords::DEFAULT, up),
            "« Prusia » n'est pas un nom que je connais : vouliez-vous dire PRUSSIA ou RUSSIA ?"
        );
        let two = NameError::Ambiguous {
            given: "Po".into(),
            candidates: names(&["Poland", "Portugal"]),
        };
        let words = FrNameWords {
            write_more: "écrivez le nom plus complètement",
            ..FrNameWords::DEFAULT
        };
        assert_eq!(
            two.french(words, |n| n.to_string()),
            "« Po » peut désigner Poland ou Portugal : écrivez le nom plus complètement"
        );
    }
}
