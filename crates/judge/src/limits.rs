//! Bounded work per mail ("Amplification and junk"): how many commands one mail
//! may hold, how many bytes its reply may take, what a name may be, and the cleaning of
//! anything relayed to others or stored as a name (no control characters, no bidi
//! overrides). docs/security.md says what each bound stops.

/// A player's name: at most this many characters (after cleaning).
pub const MAX_NAME_CHARS: usize = 32;

/// The reply to a mail is never cut below this many bytes, whatever the mail's size (so a
/// one-line HELP is answered whole); above it, at most 10 × the mail's size.
pub const REPLY_FLOOR_BYTES: usize = 16 * 1024;

/// Room kept at the end of a reply for the note saying what was left out.
const NOTE_ROOM: usize = 1024;

/// Is `c` a character never relayed or stored: C0 and C1 controls (tab kept) and the
/// bidirectional controls that reorder what a reader sees (U+061C, U+200E, U+200F,
/// U+202A-U+202E, U+2066-U+2069).
pub fn is_stripped(c: char) -> bool {
    (c.is_control() && c != '\t' && c != '\n')
        || matches!(c, '\u{061C}' | '\u{200E}' | '\u{200F}' | '\u{202A}'..='\u{202E}' | '\u{2066}'..='\u{2069}')
}

/// `text` without control characters (line breaks and tabs kept) and bidi controls.
pub fn clean_text(text: &str) -> String {
    text.chars().filter(|c| !is_stripped(*c)).collect()
}

/// A name as it will be stored: encoded words decoded, invisible, format and control
/// characters removed, NFKC, white space one space, trimmed (`ident::normalise_name`);
/// `Err` with the cleaned text (cut for quoting) when it is empty, longer than
/// [`MAX_NAME_CHARS`], or holds an encoded word that cannot be decoded. Whether it reads
/// like another seat's name is the game's check (`ident::names_alike`).
pub fn clean_name(name: &str) -> Result<String, String> {
    let Some(clean) = crate::ident::normalise_name(name, is_stripped) else {
        let shown: String = clean_text(name).replace("=?", "= ?");
        return Err(clip(&shown, MAX_NAME_CHARS + 8));
    };
    if clean.is_empty() || clean.chars().count() > MAX_NAME_CHARS {
        return Err(clip(&clean, MAX_NAME_CHARS + 8));
    }
    Ok(clean)
}

/// At most `max` characters of `s`, with "…" when cut.
pub fn clip(s: &str, max: usize) -> String {
    if s.chars().count() <= max {
        return s.to_string();
    }
    let mut out: String = s.chars().take(max).collect();
    out.push('…');
    out
}

/// The most bytes the reply to a mail of `request_bytes` may take: `max_reply_bytes`, and
/// no more than 10 × the request once past `REPLY_FLOOR_BYTES`.
pub fn reply_budget(max_reply_bytes: usize, request_bytes: usize) -> usize {
    max_reply_bytes.min(REPLY_FLOOR_BYTES.max(request_bytes.saturating_mul(10)))
}

/// What an HTML page adds to a reply besides its picture and the text it repeats (its
/// head, heading and styles), counted when a picture is admitted.
pub(crate) const PAGE_CHROME: usize = 1024;

/// What the reply's bounds left out (`templates/LANG/answers/intake.txt`, `cut`).
#[derive(Clone, Debug, Default)]
pub(crate) struct Bounds {
    /// Bytes the reply may take, text and HTML parts together (`usize::MAX`: no bound,
    /// ticks and admin).
    pub budget: usize,
    pub used: usize,
    /// Titles of the answers left out.
    pub left_out: Vec<String>,
    /// A picture was admitted (HISTORY … PICTURE): the HTML part repeats the text, so
    /// every later section counts twice.
    pub pictured: bool,
    /// The note saying what was left out is written: it, and anything after it, goes in
    /// (its room is kept).
    pub noting: bool,
}

impl Bounds {
    pub(crate) fn unbounded() -> Bounds {
        Bounds {
            budget: usize::MAX,
            ..Default::default()
        }
    }

    /// May a section of `bytes` more go into the reply? Counts it if so.
    pub(crate) fn admit(&mut self, title: &str, bytes: usize) -> bool {
        let bytes = if self.pictured {
            bytes.saturating_mul(2)
        } else {
            bytes
        };
        if self.noting {
            self.used = self.used.saturating_add(bytes);
            return true;
        }
        let room = self.budget.saturating_sub(NOTE_ROOM);
        if !self.left_out.is_empty() || self.used.saturating_add(bytes) > room {
            self.left_out.push(title.to_string());
            return false;
        }
        self.used += bytes;
        true
    }

    /// May a picture of `svg` bytes go into the reply's HTML part, with the section of
    /// `section` bytes that announces it? The page repeats the reply's text (what is in
    /// it so far, that section, and every later one: [`Bounds::pictured`]), so it costs
    /// the picture, the page's chrome and the text again. Counts the picture if so (the
    /// section is counted when it is added).
    pub(crate) fn admit_picture(&mut self, svg: usize, section: usize) -> bool {
        if self.budget == usize::MAX {
            self.pictured = true;
            return true;
        }
        let room = self.budget.saturating_sub(NOTE_ROOM);
        let cost = svg.saturating_add(PAGE_CHROME).saturating_add(self.used);
        let need = self
            .used
            .saturating_add(cost)
            .saturating_add(section.saturating_mul(2));
        if !self.left_out.is_empty() || self.pictured || need > room {
            return false;
        }
        self.used += cost;
        self.pictured = true;
        true
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn controls_and_bidi_overrides_are_stripped() {
        assert_eq!(
            clean_text("a\u{0}b\u{1b}[31mc\u{202E}d\u{85}e\tf\ng"),
            "ab[31mcde\tf\ng"
        );
        assert_eq!(clean_name("  Ann\u{202E}a  ").unwrap(), "Anna");
        assert!(clean_name(&"x".repeat(33)).is_err());
        assert_eq!(clean_name(&"é".repeat(32)).unwrap().chars().count(), 32);
        assert!(clean_name("\u{202E}\u{0}").is_err());
    }

    #[test]
    fn the_reply_budget_is_64k_and_ten_times_the_request_past_the_floor() {
        assert_eq!(reply_budget(65536, 100), REPLY_FLOOR_BYTES);
        assert_eq!(reply_budget(65536, 3000), 30000);
        assert_eq!(reply_budget(65536, 1 << 20), 65536);
    }
}
