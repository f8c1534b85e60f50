//! A mail's attached files (VERIFY's reply carries the dice script): each a part of its
//! own after the text, `Content-Disposition: attachment`, its bytes in base64.

use castellan_judge::Attachment;

/// Base64's alphabet (RFC 4648 4).
const ALPHABET: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

/// Base64 lines of 76 characters (RFC 2045 6.8): 57 bytes each.
const LINE_BYTES: usize = 57;

/// Appends one attachment's part: its headers (a name of letters, digits, `.`, `-` and `_`
/// only; a content type of token characters and `/`, else `application/octet-stream`), the
/// blank line, then its bytes in base64, lines ending CRLF.
pub(super) fn part(out: &mut Vec<u8>, a: &Attachment) {
    let name: String = a
        .filename
        .chars()
        .filter(|c| c.is_ascii_alphanumeric() || matches!(c, '.' | '-' | '_'))
        .collect();
    let name = if name.is_empty() { "file".into() } else { name };
    let token = |c: char| c.is_ascii_alphanumeric() || matches!(c, '/' | '.' | '-' | '+');
    let content_type = if a.content_type.contains('/') && a.content_type.chars().all(token) {
        a.content_type.as_str()
    } else {
        "application/octet-stream"
    };
    out.extend_from_slice(
        format!(
            "Content-Type: {content_type}; name=\"{name}\"\r\n\
             Content-Disposition: attachment; filename=\"{name}\"\r\n\
             Content-Transfer-Encoding: base64\r\n\r\n"
        )
        .as_bytes(),
    );
    base64(out, &a.content);
}

/// Appends `bytes` in base64, 76 characters a line, each line ending CRLF but the last.
fn base64(out: &mut Vec<u8>, bytes: &[u8]) {
    for (i, line) in bytes.chunks(LINE_BYTES).enumerate() {
        if i > 0 {
            out.extend_from_slice(b"\r\n");
        }
        for group in line.chunks(3) {
            let b = [
                group[0],
                group.get(1).copied().unwrap_or(0),
                group.get(2).copied().unwrap_or(0),
            ];
            let n = (u32::from(b[0]) << 16) | (u32::from(b[1]) << 8) | u32::from(b[2]);
            for k in 0..4 {
                if k <= group.len() {
                    out.push(ALPHABET[(n >> (18 - 6 * k) & 63) as usize]);
                } else {
                    out.push(b'=');
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn b64(bytes: &[u8]) -> String {
        let mut out = Vec::new();
        base64(&mut out, bytes);
        String::from_utf8(out).unwrap()
    }

    /// RFC 4648's test vectors (10), and a long input cut in lines of 76.
    #[test]
    fn base64_as_rfc_4648_writes_it() {
        for (input, want) in [
            ("", ""),
            ("f", "Zg=="),
            ("fo", "Zm8="),
            ("foo", "Zm9v"),
            ("foob", "Zm9vYg=="),
            ("fooba", "Zm9vYmE="),
            ("foobar", "Zm9vYmFy"),
        ] {
            assert_eq!(b64(input.as_bytes()), want);
        }
        let long = b64(&[0xffu8; 200]);
        let lines: Vec<&str> = long.split("\r\n").collect();
        assert_eq!(lines.len(), 4);
        assert!(lines[..3].iter().all(|l| l.len() == 76));
    }

    /// A name or type that could break the headers is cleaned.
    #[test]
    fn names_and_types_cannot_inject_headers() {
        let mut out = Vec::new();
        part(
            &mut out,
            &Attachment {
                filename: "x\"\r\nBcc: a@b.c\r\n.py".into(),
                content_type: "text/plain\r\nX: y".into(),
                content: b"hi".to_vec(),
            },
        );
        let text = String::from_utf8(out).unwrap();
        assert!(
            text.starts_with("Content-Type: application/octet-stream; name=\"xBccab.c.py\"\r\n"),
            "{text}"
        );
        assert_eq!(text.matches("\r\n").count(), 4, "{text}");
    }
}
