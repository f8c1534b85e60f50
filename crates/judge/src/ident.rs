//! Who wrote, and what may stand for a person: addresses in one canonical form
//! (or refused), names that cannot pass for another's, and DKIM alignment with the From
//! domain. docs/security.md ("Identity") says what each rule stops and why.
//!
//! Pure functions on strings: no I/O, no clock; they never panic.

use unicode_normalization::UnicodeNormalization;

/// The longest address accepted, in bytes (RFC 5321's path limit of 256 less the angle
/// brackets).
pub const MAX_ADDRESS_BYTES: usize = 254;

/// Why a string is not an address the judge accepts. Its text is for the log and for the
/// answer to a command that named it.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum AddressError {
    #[error("empty address")]
    Empty,
    #[error("longer than {MAX_ADDRESS_BYTES} bytes")]
    TooLong,
    #[error("no single @ between a local part and a domain")]
    NotOneAt,
    #[error("it holds a control character ({})", code(*.0))]
    Control(char),
    #[error("it holds a space ({})", code(*.0))]
    Space(char),
    #[error("it holds an invisible or format character ({})", code(*.0))]
    Invisible(char),
    /// Compatibility folding (NFKC) would make it another address: `\u{212A}ate@` is not
    /// kate@, nor is a fullwidth `ｋａｔｅ@`.
    #[error("it holds {}, which Unicode folds into \"{}\": it would pass for another address", code(*.0), .1)]
    Folds(char, String),
    #[error("it holds {:?}, which an address cannot hold outside quotes", .0)]
    Special(char),
    #[error("its quoted local part is not a plain one")]
    Quoted,
    #[error("its domain is not a domain name")]
    BadDomain,
}

fn code(c: char) -> String {
    format!("U+{:04X}", c as u32)
}

/// Invisible and format characters: Unicode's Default_Ignorable_Code_Point and the format
/// characters (general category Cf), bidirectional controls included. They change how a
/// text reads or nothing at all; never stored in a name, never accepted in an address.
pub fn is_invisible(c: char) -> bool {
    matches!(
        c as u32,
        0x00AD
            | 0x034F
            | 0x061C
            | 0x0600..=0x0605
            | 0x06DD
            | 0x070F
            | 0x0890..=0x0891
            | 0x08E2
            | 0x115F..=0x1160
            | 0x17B4..=0x17B5
            | 0x180B..=0x180F
            | 0x200B..=0x200F
            | 0x202A..=0x202E
            | 0x2060..=0x206F
            | 0x3164
            | 0xFE00..=0xFE0F
            | 0xFEFF
            | 0xFFA0
            | 0xFFF0..=0xFFFB
            | 0x110BD
            | 0x110CD
            | 0x13430..=0x1343F
            | 0x1BCA0..=0x1BCA3
            | 0x1D173..=0x1D17A
            | 0xE0000..=0xE0FFF
    )
}

/// `c` as NFKC leaves it, alone: `None` when it stays itself, else what it folds into.
fn folds(c: char) -> Option<String> {
    let mut it = std::iter::once(c).nfkc();
    match (it.next(), it.next()) {
        (Some(d), None) if d == c => None,
        _ => Some(std::iter::once(c).nfkc().collect()),
    }
}

/// Characters of `atext` (RFC 5322) besides letters and digits, and the dot.
const ATEXT: &str = "!#$%&'*+-/=?^_`{|}~.";

/// An address in the one form the judge stores and compares: local part and domain in
/// lower case (the judge has always read the local part case-insensitively, as nearly
/// every host does; RFC 5321 leaves it to the host), Unicode in NFC, a quoted local part
/// that needs no quotes unquoted (`"kate"@x` is kate@x), one trailing dot of the domain
/// dropped. Refused: controls, spaces, invisible and format characters, specials outside
/// quotes, a quoted local part that needs its quotes (spaces or specials), characters
/// that compatibility folding (NFKC) would turn into others (the Kelvin sign into K,
/// fullwidth letters into ASCII): such an address would read as, or be stored as,
/// another's.
pub fn canonical_address(raw: &str) -> Result<String, AddressError> {
    let s = raw.trim_matches(|c: char| c.is_ascii_whitespace());
    if s.is_empty() {
        return Err(AddressError::Empty);
    }
    if s.len() > MAX_ADDRESS_BYTES {
        return Err(AddressError::TooLong);
    }
    for c in s.chars() {
        if c.is_control() {
            return Err(AddressError::Control(c));
        }
        if is_invisible(c) {
            return Err(AddressError::Invisible(c));
        }
        if c.is_whitespace() && (c != ' ' || !s.starts_with('"')) {
            return Err(AddressError::Space(c));
        }
        if let Some(into) = folds(c) {
            return Err(AddressError::Folds(c, into));
        }
    }
    let (local, domain) = s.rsplit_once('@').ok_or(AddressError::NotOneAt)?;
    let local = unquote(local)?;
    if local.is_empty() || domain.is_empty() || local.contains('@') {
        return Err(AddressError::NotOneAt);
    }
    if let Some(c) = local
        .chars()
        .find(|&c| !(c.is_ascii_alphanumeric() || ATEXT.contains(c) || !c.is_ascii()))
    {
        return Err(AddressError::Special(c));
    }
    if let Some(c) = local.chars().find(|c| c.is_whitespace()) {
        return Err(AddressError::Space(c));
    }
    let domain = domain.strip_suffix('.').unwrap_or(domain);
    let label_ok = |l: &str| {
        !l.is_empty()
            && l.chars().all(|c| {
                c.is_ascii_alphanumeric()
                    || c == '-'
                    || (!c.is_ascii() && c.is_alphanumeric())
                    || (!c.is_ascii() && is_mark(c))
            })
    };
    if !domain.split('.').all(label_ok) {
        return Err(
            match domain
                .chars()
                .find(|c| c.is_ascii_punctuation() && *c != '.' && *c != '-')
            {
                Some(c) => AddressError::Special(c),
                None => AddressError::BadDomain,
            },
        );
    }
    let fold = |t: &str| -> String {
        let once: String = t.nfkc().collect::<String>().to_lowercase();
        once.nfkc().collect()
    };
    Ok(format!("{}@{}", fold(&local), fold(domain)))
}

/// A combining mark (general category M) of the scripts that write domain labels with
/// them: the ranges of combining marks in the Basic Multilingual Plane that letters take.
fn is_mark(c: char) -> bool {
    matches!(c as u32,
        0x0300..=0x036F | 0x0483..=0x0489 | 0x0591..=0x05C7 | 0x0610..=0x061A | 0x064B..=0x065F
        | 0x0670 | 0x06D6..=0x06ED | 0x0900..=0x0DFF | 0x0E31..=0x0E4E | 0x0EB1..=0x0ECD
        | 0x0F18..=0x0FBC | 0x102B..=0x109D | 0x1AB0..=0x1AFF | 0x1DC0..=0x1DFF
        | 0x20D0..=0x20FF | 0x3099..=0x309A | 0xFE20..=0xFE2F)
}

/// A local part without its quotes when they are not needed; `Err` when they are (the
/// quoted text holds a space or a special), or the quotes do not close.
fn unquote(local: &str) -> Result<String, AddressError> {
    let Some(inner) = local.strip_prefix('"') else {
        if local.contains('"') {
            return Err(AddressError::Special('"'));
        }
        return Ok(local.to_string());
    };
    let inner = inner.strip_suffix('"').ok_or(AddressError::Quoted)?;
    let mut out = String::new();
    let mut chars = inner.chars();
    while let Some(c) = chars.next() {
        match c {
            '\\' => out.push(chars.next().ok_or(AddressError::Quoted)?),
            '"' => return Err(AddressError::Quoted),
            c => out.push(c),
        }
    }
    let plain = out.chars().all(|c| {
        (c.is_ascii_alphanumeric() || ATEXT.contains(c) || !c.is_ascii()) && !c.is_whitespace()
    });
    if out.is_empty() || !plain {
        return Err(AddressError::Quoted);
    }
    Ok(out)
}

/// The domain of an address (after its last @), lower case, without a trailing dot.
pub fn domain_of(address: &str) -> String {
    let d = address.rsplit_once('@').map(|(_, d)| d).unwrap_or("");
    d.trim().trim_end_matches('.').to_lowercase()
}

/// Is a DKIM signature of domain `d` aligned with the From domain `from` (RFC 7489 3.1.1),
/// as the judge reads it without a public suffix list: `d` is the From domain or a parent
/// of it of at least two labels (`example.org` signs for `mail.example.org`; `org` signs
/// for nobody). A sub-domain of the From domain does not count.
pub fn aligned(d: &str, from: &str) -> bool {
    let d = d.trim().trim_end_matches('.').to_lowercase();
    let from = from.trim().trim_end_matches('.').to_lowercase();
    if d.is_empty() || from.is_empty() {
        return false;
    }
    d == from || (d.contains('.') && from.ends_with(&format!(".{d}")))
}

// ------------------------------------------------------------------------------ names

/// The longest text read as a name, in bytes, before it is decoded and cleaned (a name
/// has at most 32 characters; a longer text is refused unread, so decoding stays cheap).
pub const MAX_NAME_INPUT_BYTES: usize = 1024;

/// How many rounds of encoded words a name is decoded (one encoded in another…): a name
/// that still holds one after them is refused.
const DECODE_ROUNDS: usize = 4;

/// `text` with its RFC 2047 encoded words (`=?utf-8?b?…?=`, `=?iso-8859-1?q?…?=`)
/// decoded, over and over (a word may hide another) up to `DECODE_ROUNDS` (4) times; `None` when
/// one cannot be decoded (a charset other than UTF-8, US-ASCII or ISO-8859-1, bad
/// base64) or one is still there after them, or the text is over
/// `MAX_NAME_INPUT_BYTES` (1,024; so decoding stays cheap): such a text is never stored as a name,
/// where a reader's mail program would decode it in a subject.
pub fn decode_encoded_words(text: &str) -> Option<String> {
    if text.len() > MAX_NAME_INPUT_BYTES {
        return None;
    }
    let mut text = text.to_string();
    for _ in 0..DECODE_ROUNDS {
        if !text.contains("=?") {
            return Some(text);
        }
        text = decode_round(&text)?;
    }
    (!text.contains("=?")).then_some(text)
}

/// One pass over `text`: every encoded word decoded, the white space between two adjacent
/// ones dropped (RFC 2047 6.2). A `=?` that starts no encoded word is kept (the caller
/// refuses a text that keeps one).
fn decode_round(text: &str) -> Option<String> {
    let mut out = String::new();
    let mut rest = text;
    let mut after_word = false;
    while let Some(start) = rest.find("=?") {
        let (before, from_start) = rest.split_at(start);
        match encoded_word(from_start) {
            Some((len, decoded)) => {
                let decoded = decoded?;
                if !(after_word && before.chars().all(char::is_whitespace)) {
                    out.push_str(before);
                }
                out.push_str(&decoded);
                rest = &from_start[len..];
                after_word = true;
            }
            None => {
                out.push_str(before);
                out.push_str("=?");
                rest = &from_start[2..];
                after_word = false;
            }
        }
    }
    out.push_str(rest);
    Some(out)
}

/// An encoded word at the start of `s`: its length in bytes and its text (`None` inside
/// when it cannot be decoded); `None` when `s` does not start with one.
fn encoded_word(s: &str) -> Option<(usize, Option<String>)> {
    let body = s.strip_prefix("=?")?;
    let q1 = body.find('?')?;
    let charset = &body[..q1];
    let after = &body[q1 + 1..];
    let q2 = after.find('?')?;
    let encoding = &after[..q2];
    let payload_and_rest = &after[q2 + 1..];
    let end = payload_and_rest.find("?=")?;
    let payload = &payload_and_rest[..end];
    if charset.is_empty() || encoding.len() != 1 || payload.contains(char::is_whitespace) {
        return None;
    }
    let len = 2 + q1 + 1 + q2 + 1 + end + 2;
    let bytes = match encoding {
        "b" | "B" => base64(payload),
        "q" | "Q" => q_decode(payload),
        _ => return None,
    };
    let charset = charset.split('*').next().unwrap_or("").to_ascii_lowercase();
    let decoded = bytes.and_then(|b| match charset.as_str() {
        "utf-8" | "utf8" => String::from_utf8(b).ok(),
        "us-ascii" | "ascii" => b.is_ascii().then(|| b.iter().map(|&x| x as char).collect()),
        "iso-8859-1" | "iso8859-1" | "latin1" | "latin-1" => {
            Some(b.iter().map(|&x| x as char).collect())
        }
        _ => None,
    });
    Some((len, decoded))
}

fn base64(s: &str) -> Option<Vec<u8>> {
    let mut out = Vec::new();
    let mut acc = 0u32;
    let mut bits = 0;
    for c in s.trim_end_matches('=').bytes() {
        let v = match c {
            b'A'..=b'Z' => c - b'A',
            b'a'..=b'z' => c - b'a' + 26,
            b'0'..=b'9' => c - b'0' + 52,
            b'+' => 62,
            b'/' => 63,
            _ => return None,
        };
        acc = (acc << 6) | u32::from(v);
        bits += 6;
        if bits >= 8 {
            bits -= 8;
            out.push((acc >> bits) as u8);
            acc &= (1 << bits) - 1;
        }
    }
    Some(out)
}

fn q_decode(s: &str) -> Option<Vec<u8>> {
    let b = s.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while i < b.len() {
        match b[i] {
            b'_' => out.push(b' '),
            b'=' => {
                let hex = s.get(i + 1..i + 3)?;
                out.push(u8::from_str_radix(hex, 16).ok()?);
                i += 2;
            }
            c => out.push(c),
        }
        i += 1;
    }
    Some(out)
}

/// A name as it is stored and shown, before its length is checked: `None` past
/// [`MAX_NAME_INPUT_BYTES`]; encoded words decoded (`None` when they cannot be), invisible and format characters removed, control
/// characters too (`stripped`), NFKC (fullwidth letters, ligatures and compatibility
/// spaces read as what they look like), every run of white space one space, trimmed.
pub fn normalise_name(name: &str, stripped: impl Fn(char) -> bool) -> Option<String> {
    if name.len() > MAX_NAME_INPUT_BYTES {
        return None;
    }
    let decoded = decode_encoded_words(name)?;
    let visible: String = decoded
        .chars()
        .filter(|&c| !is_invisible(c) && (c.is_whitespace() || !stripped(c)))
        .collect();
    let folded: String = visible.nfkc().collect();
    let mut out = String::new();
    for c in folded.chars() {
        if c.is_whitespace() {
            if !out.is_empty() && !out.ends_with(' ') {
                out.push(' ');
            }
        } else if !is_invisible(c) && !stripped(c) {
            out.push(c);
        }
    }
    Some(out.trim_end().to_string())
}

/// The keys under which two names read alike (Unicode TR 39 confusable skeletons): the
/// skeleton of the name in lower case (`Bob`, `BOB`, `bob`), and the lower-cased skeleton
/// of its skeleton (`Воb` in Cyrillic, `Βob` in Greek: `Bob`, then `bob`).
pub(crate) fn name_keys(name: &str) -> [String; 2] {
    let lower: String = unicode_security::skeleton(&name.to_lowercase()).collect();
    let skeleton: String = unicode_security::skeleton(name).collect();
    let upper_first: String = unicode_security::skeleton(&skeleton.to_lowercase()).collect();
    [lower, upper_first]
}

/// Do two names read alike (the same but for case, invisible characters or letters of
/// another script that look the same)? Two seats of a game never have names that do.
pub fn names_alike(a: &str, b: &str) -> bool {
    let (ka, kb) = (name_keys(a), name_keys(b));
    ka[0] == kb[0] || ka[1] == kb[1]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn canonical_addresses() {
        let ok = |s: &str| canonical_address(s).unwrap();
        assert_eq!(ok(" Kate@Example.ORG "), "kate@example.org");
        assert_eq!(ok("\"kate\"@example.org"), "kate@example.org");
        assert_eq!(ok("\"k\\ate\"@example.org."), "kate@example.org");
        assert_eq!(
            ok("ZOE\u{308}@b\u{fc}cher.example"),
            "zo\u{eb}@b\u{fc}cher.example"
        );
        assert_eq!(ok("stop/fan+x@target.example"), "stop/fan+x@target.example");
        assert_eq!(ok("user@localhost"), "user@localhost");
        assert_eq!(ok("\u{130}vy@example.org"), "i\u{307}vy@example.org");
        for (bad, why) in [
            ("", AddressError::Empty),
            ("kate", AddressError::NotOneAt),
            ("kate@", AddressError::NotOneAt),
            ("@example.org", AddressError::NotOneAt),
            ("ka@te@example.org", AddressError::NotOneAt),
            (
                "\u{212A}ate@example.org",
                AddressError::Folds('\u{212A}', "K".into()),
            ),
            ("ｋate@example.org", AddressError::Folds('ｋ', "k".into())),
            (
                "ka\u{200B}te@example.org",
                AddressError::Invisible('\u{200B}'),
            ),
            (
                "kate\u{202E}@example.org",
                AddressError::Invisible('\u{202E}'),
            ),
            ("ka te@example.org", AddressError::Space(' ')),
            ("kate@exa\u{A0}mple.org", AddressError::Space('\u{A0}')),
            ("ka\u{7}te@example.org", AddressError::Control('\u{7}')),
            ("\"ka te\"@example.org", AddressError::Quoted),
            ("\"kate@example.org", AddressError::Quoted),
            ("ka\"te@example.org", AddressError::Special('"')),
            ("<kate@example.org>", AddressError::Special('<')),
            ("kate(x)@example.org", AddressError::Special('(')),
            ("kate@[127.0.0.1]", AddressError::Special('[')),
            ("kate@example..org", AddressError::BadDomain),
            ("kate@exa_mple.org", AddressError::Special('_')),
        ] {
            assert_eq!(canonical_address(bad), Err(why), "{bad:?}");
        }
        assert_eq!(
            canonical_address(&format!("{}@example.org", "k".repeat(250))),
            Err(AddressError::TooLong)
        );
    }

    #[test]
    fn alignment_is_the_from_domain_or_a_parent() {
        assert!(aligned("example.org", "example.org"));
        assert!(aligned("Example.ORG.", "mail.example.org"));
        assert!(!aligned("org", "example.org"));
        assert!(!aligned("mail.example.org", "example.org"));
        assert!(!aligned("evil.example", "example.org"));
        assert!(!aligned("le.org", "example.org"));
        assert!(!aligned("", "example.org"));
    }

    #[test]
    fn encoded_words_are_decoded() {
        let d = |s: &str| decode_encoded_words(s);
        assert_eq!(d("=?utf-8?b?4oCuQm9i?=").as_deref(), Some("\u{202E}Bob"));
        assert_eq!(
            d("=?UTF-8?Q?B=E2=80=8Bo_b?=").as_deref(),
            Some("B\u{200B}o b")
        );
        assert_eq!(
            d("=?iso-8859-1?q?Zo=EB?= =?utf-8?b?IQ==?=").as_deref(),
            Some("Zoë!")
        );
        assert_eq!(d("x =?us-ascii?q?y?= z").as_deref(), Some("x y z"));
        assert_eq!(
            d("=?utf-8?q?=3D=3Futf-8=3Fb=3F4oCuQm9i=3F=3D?=").as_deref(),
            Some("\u{202E}Bob")
        );
        assert_eq!(d("=?koi8-r?b?4oCuQm9i?="), None);
        assert_eq!(d("=?utf-8?b?!!?="), None);
        assert_eq!(d("=?utf-8?b?/w==?="), None);
        assert_eq!(d("A=?B"), None);
        assert_eq!(d("=?=?=?"), None);
        assert_eq!(d("Bob").as_deref(), Some("Bob"));
        // Long texts are refused unread (pathological ones cost no more than 1,024 bytes).
        assert_eq!(d(&"=?a?b?x".repeat(20_000)), None);
        assert_eq!(d(&"=?a?b?x".repeat(140)), None);
    }

    #[test]
    fn names_are_normalised() {
        let n = |s: &str| normalise_name(s, char::is_control).unwrap();
        assert_eq!(n("B\u{AD}o\u{FEFF}b\u{2060}"), "Bob");
        assert_eq!(n("  Ａnna\u{3000}\u{3000}Maria "), "Anna Maria");
        assert_eq!(n("=?utf-8?b?4oCuQm9i?="), "Bob");
        assert_eq!(n("ﬁona"), "fiona");
    }

    #[test]
    fn names_that_read_alike() {
        for twin in [
            "Bob",
            "bob",
            "BOB",
            "\u{412}\u{43E}b",
            "\u{392}ob",
            "B\u{43E}b",
        ] {
            assert!(names_alike("Bob", twin), "{twin:?}");
        }
        assert!(names_alike("Iris", "lris"));
        assert!(names_alike("Tom", "Torn"));
        for other in ["Rob", "Bobby", "Anna", "Bo b"] {
            assert!(!names_alike("Bob", other), "{other:?}");
        }
    }
}
