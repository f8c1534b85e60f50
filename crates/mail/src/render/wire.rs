//! A text part's headers and body written straight into the mail's buffer, in one pass
//! over the text: CRLF line endings, then 7bit if the text is ASCII in lines shorter than
//! the part's limit, else quoted-printable. The bytes are those lettre's builder wrote
//! with the bodies encoded ahead (`super::oracle`), which cost 9 to 22 instructions a byte
//! of a report (a search for `\n` a line, a copy of the whole text, then lettre's copies);
//! this about 2 a byte for 7bit, 13 for the quoted-printable of French.

/// `Content-Type` of the text part: its text is written by [`super::flowed`].
pub(super) const TEXT_PLAIN: &[u8] = b"text/plain; charset=utf-8; format=flowed";
/// `Content-Type` of the HTML part.
pub(super) const TEXT_HTML: &[u8] = b"text/html; charset=utf-8";

/// The longest line (without its CRLF) quoted-printable writes: RFC 2045 6.7 (5).
const QP_LINE: usize = 76;

/// Bytes quoted-printable writes as themselves anywhere in a line: printable ASCII but
/// `=`, and space and tab (except at a line's end, which [`qp_line`] checks).
const PLAIN: [bool; 256] = {
    let mut t = [false; 256];
    let mut b = 33;
    while b <= 126 {
        t[b] = b != b'=' as usize;
        b += 1;
    }
    t[b' ' as usize] = true;
    t[b'\t' as usize] = true;
    t
};

const HEX: &[u8; 16] = b"0123456789ABCDEF";

/// Appends a part's `Content-Type` (`content_type`) and `Content-Transfer-Encoding`
/// headers, the blank line, then `text` encoded: 7bit if it is ASCII in lines shorter than
/// `limit` bytes (76 for text, 999 for a page: RFC 5322's 998), else quoted-printable.
pub(super) fn part(out: &mut Vec<u8>, content_type: &[u8], text: &str, limit: usize) {
    let start = out.len();
    if text.is_ascii() {
        head(out, content_type, b"7bit");
        if seven_bit(out, text.as_bytes(), limit) {
            return;
        }
        // A line too long: rare, and found at most once a text.
        out.truncate(start);
    }
    head(out, content_type, b"quoted-printable");
    quoted_printable(out, text.as_bytes());
}

fn head(out: &mut Vec<u8>, content_type: &[u8], encoding: &[u8]) {
    out.extend_from_slice(b"Content-Type: ");
    out.extend_from_slice(content_type);
    out.extend_from_slice(b"\r\nContent-Transfer-Encoding: ");
    out.extend_from_slice(encoding);
    out.extend_from_slice(b"\r\n\r\n");
}

/// Appends `text` with each line ending CRLF (a `\r` before a `\n` is kept once, one at
/// the very end as it is), unless a line (without its line ending) is `limit` bytes or
/// more: then returns false, having written part of it.
fn seven_bit(out: &mut Vec<u8>, text: &[u8], limit: usize) -> bool {
    out.reserve(text.len() + text.len() / 16 + 2);
    let mut from = 0;
    for nl in memchr::memchr_iter(b'\n', text) {
        let end = if nl > from && text[nl - 1] == b'\r' {
            nl - 1
        } else {
            nl
        };
        if end - from >= limit {
            return false;
        }
        out.extend_from_slice(&text[from..end]);
        out.extend_from_slice(b"\r\n");
        from = nl + 1;
    }
    if text.len() - from >= limit {
        return false;
    }
    out.extend_from_slice(&text[from..]);
    true
}

/// Appends the quoted-printable (RFC 2045 6.7) of `text`: each line (split at `\n`, one
/// `\r` before it dropped, as one at the very end) ends CRLF; `=`, controls and bytes past
/// ASCII are written `=XX`, as a space or tab that ends a line; lines are kept to 76
/// characters with soft breaks (`=` at the end).
pub(super) fn quoted_printable(out: &mut Vec<u8>, text: &[u8]) {
    out.reserve(text.len() * 3 / 2 + 2);
    let mut from = 0;
    for nl in memchr::memchr_iter(b'\n', text) {
        qp_line(out, &text[from..nl]);
        out.extend_from_slice(b"\r\n");
        from = nl + 1;
    }
    qp_line(out, &text[from..]);
}

/// One line of [`quoted_printable`], without its line ending: runs of plain bytes copied
/// whole, soft breaks where a token would pass column 75 (76 for the line's last).
fn qp_line(out: &mut Vec<u8>, line: &[u8]) {
    let line = line.strip_suffix(b"\r").unwrap_or(line);
    let Some((&last, body)) = line.split_last() else {
        return;
    };
    let soft = |out: &mut Vec<u8>, width: &mut usize| {
        out.extend_from_slice(b"=\r\n");
        *width = 0;
    };
    let mut width = 0;
    let mut i = 0;
    while i < body.len() {
        let run = plain_run(&body[i..]);
        let end = i + run;
        while i < end {
            // Room for the next byte and a soft break after it.
            if width == QP_LINE - 1 {
                soft(out, &mut width);
            }
            let take = (end - i).min(QP_LINE - 1 - width);
            out.extend_from_slice(&body[i..i + take]);
            i += take;
            width += take;
        }
        if let Some(&b) = body.get(i) {
            if width + 3 > QP_LINE - 1 {
                soft(out, &mut width);
            }
            escape(out, b);
            width += 3;
            i += 1;
        }
    }
    // The last byte needs no room for a soft break after it, but a space or tab there is
    // escaped (RFC 2045 6.7 (3)).
    let plain = PLAIN[last as usize] && last != b' ' && last != b'\t';
    if width + if plain { 1 } else { 3 } > QP_LINE {
        soft(out, &mut width);
    }
    if plain {
        out.push(last);
    } else {
        escape(out, last);
    }
}

/// How many of the bytes `bytes` starts with are plain: 8 at a time, then one by one from
/// the first that may not be.
fn plain_run(bytes: &[u8]) -> usize {
    let mut n = 0;
    while let Some(word) = bytes.get(n..n + 8) {
        let odd = not_plain(u64::from_le_bytes(word.try_into().expect("8 bytes")));
        if odd != 0 {
            n += odd.trailing_zeros() as usize / 8;
            break;
        }
        n += 8;
    }
    while bytes.get(n).is_some_and(|&b| PLAIN[b as usize]) {
        n += 1;
    }
    n
}

/// `0x0101...` times a byte: that byte in each of a word's 8 lanes.
const fn lanes(b: u8) -> u64 {
    u64::from_ne_bytes([b; 8])
}

/// The lanes of `x` (high bit set) that may not be plain, the lowest of them exactly:
/// below a space (tab included), past `~`, or `=`. A plain lane carries or borrows
/// nothing into the lanes above it, so no lane below a true one is flagged.
fn not_plain(x: u64) -> u64 {
    let high = lanes(0x80);
    let below_space = x.wrapping_sub(lanes(0x20)) & !x & high;
    let past_tilde = (x.wrapping_add(lanes(1)) | x) & high;
    let eq = x ^ lanes(b'=');
    let equals = eq.wrapping_sub(lanes(1)) & !eq & high;
    below_space | past_tilde | equals
}

fn escape(out: &mut Vec<u8>, b: u8) {
    out.extend_from_slice(&[b'=', HEX[(b >> 4) as usize], HEX[(b & 15) as usize]]);
}
