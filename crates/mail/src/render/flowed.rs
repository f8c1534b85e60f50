//! A text part as RFC 3676 `format=flowed` (DelSp=no), in lines of at most [`WIDTH`]
//! characters: what a terminal reader shows without wrapping it again, and what a client
//! that knows the format joins back and wraps to its own window (a phone's), so that a
//! reply quoting it stays clean.
//!
//! Each line of the text is a paragraph. One that fits is written as it is (a fixed line);
//! a longer one is cut after a space into lines that each end with that space (a soft
//! break), so that a reader joining them gets the paragraph back exactly
//! (`crate::parse::unflow`). A word longer than a line (a token, an address, a digest) is
//! never cut: it stands on a line of its own. A fixed line cannot end with a space (it
//! would read as a soft break), so trailing spaces go; and a line starting with a space,
//! `>` or `From ` is space-stuffed (one space put before it, which the reader takes off).

/// The longest line written, in characters, its space-stuffing and soft break included:
/// RFC 3676 (4.2) and RFC 5322 (2.1.1) ask for 78.
pub(crate) const WIDTH: usize = 78;

/// `text` (lines ending `\n`, or `\r\n`) as format=flowed, lines ending `\n`.
pub(crate) fn flowed(text: &str) -> String {
    let mut out = String::with_capacity(text.len() + text.len() / 16 + 8);
    for (n, raw) in text.split('\n').enumerate() {
        if n > 0 {
            out.push('\n');
        }
        let line = raw.strip_suffix('\r').unwrap_or(raw);
        if line == "-- " {
            // The signature separator is never a soft break.
            out.push_str(line);
        } else {
            paragraph(&mut out, line.trim_end_matches(' '));
        }
    }
    out
}

/// One paragraph (it does not end with a space) written in lines of at most [`WIDTH`].
fn paragraph(out: &mut String, mut rest: &str) {
    loop {
        let stuffed = needs_stuffing(rest);
        let room = WIDTH - usize::from(stuffed);
        // Most lines are shorter in bytes than a line's room: no character to count.
        if rest.len() <= room {
            push_line(out, stuffed, rest);
            return;
        }
        let cut = match cut_within(rest, room) {
            None => {
                push_line(out, stuffed, rest);
                return;
            }
            Some(cut) => cut,
        };
        push_line(out, stuffed, &rest[..cut]);
        out.push('\n');
        rest = &rest[cut..];
    }
}

/// Where to end the next line of `rest`, if it is longer than `room` characters: after
/// the last space within `room` that follows a word (so no line is only the paragraph's
/// indent), else after the first space past it (a word longer than a line stays whole),
/// else nowhere (`None`: the rest is one word and goes whole).
fn cut_within(rest: &str, room: usize) -> Option<usize> {
    let mut after_space = None;
    let mut word_seen = false;
    for (count, (i, c)) in rest.char_indices().enumerate() {
        if count == room {
            return after_space.or_else(|| {
                // No space to cut at within the line: after the first space beyond it,
                // when a word follows that space.
                let tail = &rest[i..];
                let space = tail.find(' ')?;
                let cut = i + space + 1;
                (cut < rest.len()).then_some(cut)
            });
        }
        if c == ' ' {
            // Never a line of "-- " alone: a reader takes it for the signature's mark.
            if word_seen && i + 1 < rest.len() && &rest[..=i] != "-- " {
                after_space = Some(i + 1);
            }
        } else {
            word_seen = true;
        }
    }
    None
}

/// RFC 3676 (4.4): a line that starts with a space, `>` or `From ` gets one space before it.
fn needs_stuffing(line: &str) -> bool {
    line.starts_with([' ', '>']) || line.starts_with("From ")
}

fn push_line(out: &mut String, stuffed: bool, line: &str) {
    if stuffed {
        out.push(' ');
    }
    out.push_str(line);
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::parse::unflow;
    use proptest::prelude::*;

    /// Every line fits, but one that holds a single word longer than a line (after a
    /// "-- " that cannot stand alone on a line).
    fn lines_fit(text: &str) -> bool {
        text.split('\n').all(|l| {
            let word = l.trim();
            let word = word.strip_prefix("-- ").unwrap_or(word);
            l.chars().count() <= WIDTH || !word.contains(' ')
        })
    }

    #[test]
    fn a_short_text_is_written_as_it_is() {
        let text = "Turn 5: Bot2 to play.\nDeadline: Wed 25 Nov 2026 14:40 UTC\n";
        assert_eq!(flowed(text), text);
    }

    #[test]
    fn a_long_line_is_cut_after_spaces_and_reads_back_whole() {
        let line = "Standing orders: defend with 2 dice (default); Marshal: when the \
                    territory holds 3+ armies or is the castle (default); counter-Spy: \
                    always (default)";
        let text = flowed(line);
        assert!(text.lines().count() > 1, "{text}");
        for l in text.lines() {
            assert!(l.chars().count() <= WIDTH, "{l:?}");
        }
        let mut lines = text.lines().collect::<Vec<_>>();
        let last = lines.pop().unwrap();
        assert!(
            lines.iter().all(|l| l.ends_with(' ')),
            "soft breaks: {text}"
        );
        assert!(!last.ends_with(' '));
        assert_eq!(unflow(&text, false), line);
    }

    #[test]
    fn lines_starting_with_a_space_a_quote_mark_or_from_are_stuffed() {
        assert_eq!(
            flowed("  Bot1 plays.\n> not a quote\nFrom here on\nFromage"),
            "   Bot1 plays.\n > not a quote\n From here on\nFromage"
        );
        assert_eq!(
            unflow(&flowed("  Bot1 plays.\n> not a quote\nFrom here"), false),
            "  Bot1 plays.\n> not a quote\nFrom here"
        );
    }

    #[test]
    fn a_word_longer_than_a_line_stands_whole_on_its_own_line() {
        let digest = "5f372123eb1bd982d48cf0a17ccc8fb0f0785beab80a0301c8d0272f0a4be010";
        let line = format!("commitment of the chain (S0): {digest} and then some more words");
        let text = flowed(&line);
        assert!(text.lines().any(|l| l.starts_with(digest)), "{text}");
        assert!(
            text.lines()
                .all(|l| l.chars().count() <= WIDTH || l.starts_with(digest)),
            "{text}"
        );
        assert_eq!(unflow(&text, false), line);
    }

    #[test]
    fn trailing_spaces_go_and_the_signature_separator_stays() {
        assert_eq!(flowed("orders  \n-- \nthe judge"), "orders\n-- \nthe judge");
    }

    #[test]
    fn an_indented_line_is_not_cut_inside_its_indent() {
        let line = format!("      {}", "x".repeat(90));
        assert_eq!(flowed(&line), format!(" {line}"));
    }

    proptest! {
        /// Any text reads back (RFC 3676's way, as a client joins it) as itself without
        /// its lines' trailing spaces, and every line fits but one that holds a single
        /// word longer than a line.
        #[test]
        fn flowed_text_reads_back_and_fits(
            words in proptest::collection::vec(
                prop_oneof![
                    "[a-zé]{1,12}",
                    Just(" ".to_string()),
                    Just("  ".to_string()),
                    Just("\n".to_string()),
                    Just(">".to_string()),
                    Just("From ".to_string()),
                    Just("-- ".to_string()),
                    "[0-9a-f]{70,90}",
                ],
                0..120,
            )
        ) {
            let text: String = words.concat();
            let out = flowed(&text);
            prop_assert!(lines_fit(&out), "{out:?}");
            let expected = text
                .split('\n')
                .map(|l| if l == "-- " { l } else { l.trim_end_matches(' ') })
                .collect::<Vec<_>>()
                .join("\n");
            prop_assert_eq!(unflow(&out, false), expected);
        }
    }
}
