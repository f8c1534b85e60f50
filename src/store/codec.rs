//! How a reply waiting in the outbox is stored: plain JSON, deflated JSON, or a frame
//! (its JSON without the HTML part, then the page as it is), so that no value passes
//! 64 KiB (issue 11) and sled writes a quarter of the bytes.

use super::{err, OutboxItem};
use castellan_judge::StoreError;

/// The first byte of an outbox value kept deflated (a JSON value never starts with it).
pub(super) const DEFLATED: u8 = 1;
/// The first byte of an outbox value with an HTML part: deflated, the item's JSON without
/// the HTML part (after its length, 4 bytes big-endian), then the HTML part as it is. Its
/// quotes and angle brackets cost nothing to store or read back, where JSON escapes each.
pub(super) const FRAMED: u8 = 2;

/// Outbox values up to this size are plain JSON; larger ones (a report with its HTML part
/// and picture: 25-40 KB, up to 150 KB) are deflated (zlib-rs, fastest level), 4-5 times
/// smaller, so no stored value passes 64 KiB (issue 11) and sled writes a quarter of the
/// bytes. Measured with `castellan bench`: the database after 500 mails at one table
/// 51 MB -> 16 MB, throughput within the runs' noise (with miniz_oxide it cost a fifth).
const DEFLATE_OVER: usize = 8 * 1024;

thread_local! {
    /// One compressor a thread, reset for each value: making one (its tables and window)
    /// was a fifth of the time of deflating a reply.
    static DEFLATE: std::cell::RefCell<flate2::Compress> =
        std::cell::RefCell::new(flate2::Compress::new(flate2::Compression::fast(), false));
}

/// `first`, then `parts` one after the other as one raw deflate stream.
pub(super) fn deflated(first: u8, parts: &[&[u8]]) -> Result<Vec<u8>, StoreError> {
    use flate2::{FlushCompress, Status};
    let total: usize = parts.iter().map(|p| p.len()).sum();
    let mut out = Vec::with_capacity(total / 3 + 64);
    out.push(first);
    DEFLATE.with(|c| {
        let mut c = c.borrow_mut();
        c.reset();
        let last = parts.len().saturating_sub(1);
        for (i, part) in parts
            .iter()
            .chain(parts.is_empty().then_some(&&[][..]))
            .enumerate()
        {
            let flush = if i == last {
                FlushCompress::Finish
            } else {
                FlushCompress::None
            };
            let mut input: &[u8] = part;
            loop {
                if out.capacity() - out.len() < 1024 {
                    out.reserve(out.capacity().max(4096));
                }
                let read = c.total_in();
                let status = c.compress_vec(input, &mut out, flush).map_err(err)?;
                input = &input[(c.total_in() - read) as usize..];
                let done = match flush {
                    FlushCompress::Finish => status == Status::StreamEnd,
                    _ => input.is_empty(),
                };
                if done {
                    break;
                }
            }
        }
        Ok(out)
    })
}

fn inflated(v: &[u8]) -> Result<Vec<u8>, StoreError> {
    // Inflated whole: serde_json reading through the decoder goes a byte at a time.
    use std::io::Read;
    let mut out = Vec::with_capacity(v.len() * 4);
    flate2::read::DeflateDecoder::new(v)
        .read_to_end(&mut out)
        .map_err(err)?;
    Ok(out)
}

/// An outbox value: a reply with an HTML part [`FRAMED`]; else its JSON, deflated past
/// [`DEFLATE_OVER`].
pub(super) fn encode_outbox(item: &OutboxItem) -> Result<Vec<u8>, StoreError> {
    if let Some(html) = &item.mail.html {
        let mut bare = item.clone();
        bare.mail.html = None;
        let json = serde_json::to_vec(&bare).map_err(err)?;
        let len = u32::try_from(json.len()).map_err(err)?.to_be_bytes();
        return deflated(FRAMED, &[&len, &json, html.as_bytes()]);
    }
    let json = serde_json::to_vec(item).map_err(err)?;
    if json.len() <= DEFLATE_OVER {
        return Ok(json);
    }
    deflated(DEFLATED, &[&json])
}

/// An outbox value read back (framed, deflated or plain JSON).
pub(super) fn decode_outbox(v: &[u8]) -> Result<OutboxItem, StoreError> {
    match v.split_first() {
        Some((&FRAMED, rest)) => {
            let frame = inflated(rest)?;
            let bad = || err("an outbox value's frame is cut short");
            let (len, rest) = frame.split_first_chunk::<4>().ok_or_else(bad)?;
            let len = u32::from_be_bytes(*len) as usize;
            let (json, html) = (rest.get(..len).ok_or_else(bad)?, &rest[len..]);
            let mut item: OutboxItem = serde_json::from_slice(json).map_err(err)?;
            item.mail.html = Some(String::from_utf8(html.to_vec()).map_err(err)?);
            Ok(item)
        }
        Some((&DEFLATED, rest)) => serde_json::from_slice(&inflated(rest)?).map_err(err),
        _ => serde_json::from_slice(v).map_err(err),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The compressor kept by each thread deflates any parts, one value after another, to
    /// a stream that inflates to them end to end: none, empty ones, text, and bytes that
    /// do not compress (the output grows past its first guess).
    #[test]
    fn values_deflated_one_after_another_inflate_to_their_parts() {
        let mut noise = Vec::new();
        let mut x: u32 = 7;
        for _ in 0..200_000 {
            x = x.wrapping_mul(1_103_515_245).wrapping_add(12_345);
            noise.push((x >> 16) as u8);
        }
        let text = "Saxony attacks Prussia. ".repeat(3000);
        let cases: Vec<Vec<&[u8]>> = vec![
            vec![],
            vec![b""],
            vec![b"", b"a", b""],
            vec![text.as_bytes()],
            vec![&noise, text.as_bytes(), &noise[..10]],
            vec![&[0, 0, 0, 2], b"{}", text.as_bytes()],
        ];
        for parts in cases {
            let v = deflated(FRAMED, &parts).unwrap();
            assert_eq!(v[0], FRAMED);
            assert_eq!(inflated(&v[1..]).unwrap(), parts.concat());
        }
    }
}
