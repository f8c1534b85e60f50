//! How a reply waiting in the outbox is stored: plain JSON, compressed JSON, or a
//! compressed frame (its JSON without the HTML part, then the page as it is), so that no
//! value passes 64 KiB and sled writes about a third of the bytes. Values
//! written by older builds (deflated) still read back.

use super::{err, OutboxItem};
use castellan_judge::StoreError;

/// The first byte of an outbox value kept deflated (a JSON value never starts with it):
/// written by older builds, read still.
pub(super) const DEFLATED: u8 = 1;
/// The first byte of an outbox value with an HTML part, written by older builds: deflated,
/// the item's JSON without the HTML part (after its length, 4 bytes big-endian), then the
/// HTML part as it is. Its quotes and angle brackets cost nothing to store or read back,
/// where JSON escapes each.
pub(super) const FRAMED: u8 = 2;
/// [`DEFLATED`], compressed with LZ4 instead ([`compressed`]).
pub(super) const LZ4: u8 = 3;
/// [`FRAMED`], compressed with LZ4 instead ([`compressed`]).
pub(super) const LZ4_FRAMED: u8 = 4;

/// Outbox values up to this size are plain JSON; larger ones (a report with its HTML part
/// and picture: 25-40 KB, up to 150 KB) are compressed, so no stored value passes 64 KiB
/// and sled writes about a third of the bytes. LZ4 rather than deflate:
/// measured on the demo's mails, 2.3-3 times faster to compress (about 1 GB/s against
/// 330-440 MB/s for zlib-rs at its fastest level) for 15% more bytes; deflating was a
/// seventh of a one-table pass.
const COMPRESS_OVER: usize = 8 * 1024;

/// The largest value an LZ4 value may say it holds: a damaged length is an error, not an
/// allocation of gigabytes.
const LZ4_MOST: usize = 64 * 1024 * 1024;

/// `first`, the length of `bytes` (4 bytes, big-endian), then `bytes` compressed as one
/// LZ4 block.
pub(super) fn compressed(first: u8, bytes: &[u8]) -> Result<Vec<u8>, StoreError> {
    let len = u32::try_from(bytes.len()).map_err(err)?.to_be_bytes();
    let most = lz4_flex::block::get_maximum_output_size(bytes.len());
    let mut out = vec![0; 1 + len.len() + most];
    out[0] = first;
    out[1..5].copy_from_slice(&len);
    let n = lz4_flex::block::compress_into(bytes, &mut out[5..]).map_err(err)?;
    out.truncate(5 + n);
    Ok(out)
}

/// The bytes of a value [`compressed`], after its first byte.
fn decompressed(v: &[u8]) -> Result<Vec<u8>, StoreError> {
    let (len, block) = v
        .split_first_chunk::<4>()
        .ok_or_else(|| err("an outbox value's length is cut short"))?;
    let len = u32::from_be_bytes(*len) as usize;
    if len > LZ4_MOST {
        return Err(err(format!("an outbox value says it holds {len} bytes")));
    }
    lz4_flex::block::decompress(block, len).map_err(err)
}

#[cfg(test)]
thread_local! {
    /// One compressor a thread, reset for each value: making one (its tables and window)
    /// was a fifth of the time of deflating a reply.
    static DEFLATE: std::cell::RefCell<flate2::Compress> =
        std::cell::RefCell::new(flate2::Compress::new(flate2::Compression::fast(), false));
}

/// `first`, then `parts` one after the other as one raw deflate stream (how older builds
/// stored a large reply).
#[cfg(test)]
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

/// An outbox value: a reply with an HTML part [`LZ4_FRAMED`]; else its JSON, compressed
/// past [`COMPRESS_OVER`].
pub(super) fn encode_outbox(item: &OutboxItem) -> Result<Vec<u8>, StoreError> {
    if let Some(html) = &item.mail.html {
        // The item without its HTML part, which is not copied.
        let m = &item.mail;
        let bare = OutboxItem {
            mail: castellan_judge::Outbound {
                message_id: m.message_id.clone(),
                to: m.to.clone(),
                subject: m.subject.clone(),
                body: m.body.clone(),
                in_reply_to: m.in_reply_to.clone(),
                references: m.references.clone(),
                headers: m.headers.clone(),
                html: None,
                attachments: m.attachments.clone(),
            },
            attempts: item.attempts,
            not_before: item.not_before,
            last_error: item.last_error.clone(),
            failed: item.failed,
        };
        // The frame: the JSON's length, the JSON, the page.
        let mut frame = Vec::with_capacity(4 + 1024 + m.body.len() + html.len());
        frame.extend_from_slice(&[0; 4]);
        serde_json::to_writer(&mut frame, &bare).map_err(err)?;
        let len = u32::try_from(frame.len() - 4).map_err(err)?.to_be_bytes();
        frame[..4].copy_from_slice(&len);
        frame.extend_from_slice(html.as_bytes());
        return compressed(LZ4_FRAMED, &frame);
    }
    let json = serde_json::to_vec(item).map_err(err)?;
    if json.len() <= COMPRESS_OVER {
        return Ok(json);
    }
    compressed(LZ4, &json)
}

/// An outbox value read back (framed, compressed or plain JSON).
pub(super) fn decode_outbox(v: &[u8]) -> Result<OutboxItem, StoreError> {
    let frame = match v.split_first() {
        Some((&LZ4_FRAMED, rest)) => decompressed(rest)?,
        Some((&FRAMED, rest)) => inflated(rest)?,
        Some((&LZ4, rest)) => return serde_json::from_slice(&decompressed(rest)?).map_err(err),
        Some((&DEFLATED, rest)) => return serde_json::from_slice(&inflated(rest)?).map_err(err),
        _ => return serde_json::from_slice(v).map_err(err),
    };
    let bad = || err("an outbox value's frame is cut short");
    let (len, rest) = frame.split_first_chunk::<4>().ok_or_else(bad)?;
    let len = u32::from_be_bytes(*len) as usize;
    let (json, html) = (rest.get(..len).ok_or_else(bad)?, &rest[len..]);
    let mut item: OutboxItem = serde_json::from_slice(json).map_err(err)?;
    item.mail.html = Some(String::from_utf8(html.to_vec()).map_err(err)?);
    Ok(item)
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
        for parts in &cases {
            let v = deflated(FRAMED, parts).unwrap();
            assert_eq!(v[0], FRAMED);
            assert_eq!(inflated(&v[1..]).unwrap(), parts.concat());
        }
        // And the same parts compressed (how a reply is stored now) come back whole.
        for parts in &cases {
            let v = compressed(LZ4_FRAMED, &parts.concat()).unwrap();
            assert_eq!(v[0], LZ4_FRAMED);
            assert_eq!(decompressed(&v[1..]).unwrap(), parts.concat());
        }
    }

    /// A damaged compressed value is an error, never a panic nor a huge allocation: cut
    /// short anywhere, a length past what a value may hold, bytes flipped.
    #[test]
    fn a_damaged_compressed_value_is_an_error() {
        let text = "Saxony attacks Prussia. ".repeat(3000);
        let v = compressed(LZ4, text.as_bytes()).unwrap();
        for cut in [1, 3, 5, v.len() / 2, v.len() - 1] {
            assert!(decompressed(&v[1..cut]).is_err(), "cut at {cut}");
        }
        let mut huge = v.clone();
        huge[1..5].copy_from_slice(&u32::MAX.to_be_bytes());
        assert!(decompressed(&huge[1..]).is_err());
        for i in (5..v.len()).step_by(7) {
            let mut flipped = v.clone();
            flipped[i] ^= 0x5a;
            // Either an error or some bytes, never a panic.
            let _ = decode_outbox(&flipped);
        }
    }
}
