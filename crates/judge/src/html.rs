//! The HTML part of a report: the same text as the plain part (escaped, in a `<pre>`) and
//! the board's picture (inline SVG) drawn by the game. Mail clients block scripts, remote
//! images and web fonts: the page has none, its styles are inline, it follows the reader's
//! width (a phone's too: the picture shrinks to it, never wider than the screen, so nothing
//! scrolls sideways) and colours (the picture carries its own light background, so it
//! reads the same in a dark-mode client). It does not depend on the report's layout: the
//! text goes in whole.

use crate::model::{GameRecord, MailFormat};
use crate::run::Run;
use castellan_engine::svg::esc_into;
use castellan_engine::{Lang, Seat, Session, Viewer};

/// The largest HTML part sent; a bigger one is left out (the text part is complete).
pub const HTML_LIMIT: usize = 150 * 1024;

/// The head of the page, one element a line, up to the title (`lang` goes between).
const HEAD_OPEN: &str = "<!DOCTYPE html>\n<html lang=\"";
/// The rest of the head up to the title.
const HEAD_TITLE: &str = "\">\n<head>\n<meta charset=\"utf-8\"/>\n\
    <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\"/>\n\
    <meta name=\"color-scheme\" content=\"light dark\"/>\n<title>";
/// From the title to the heading.
const HEAD_H1: &str = "</title>\n</head>\n<body style=\"margin:0;padding:8px\">\n\
    <div style=\"max-width:940px;margin:0 auto\">\n\
    <h1 style=\"font-family:Helvetica,Arial,sans-serif;font-size:17px;margin:4px 0 8px\">";
/// From the heading to the picture.
const HEAD_PICTURE: &str = "</h1>\n<div style=\"margin:0 0 12px\">\n";
/// From the picture to the text.
const TEXT_OPEN: &str = "\n</div>\n<pre style=\"white-space:pre-wrap;overflow-wrap:anywhere;\
    font-family:Menlo,Consolas,monospace;font-size:13px;line-height:1.35;margin:0\">\n";
/// After the text.
const TAIL: &str = "</pre>\n</div></body></html>\n";

/// The HTML page: `title` as its heading, the picture, then `text` as it reads in the
/// plain part. One element a line in the head, and the text as it is: a mail's lines stay
/// short, and a page of ASCII (esc writes the rest as references) goes as 7bit, not
/// base64. Written in one pass into a string of about its size.
pub fn page(title: &str, text: &str, svg: &str, lang: Lang) -> String {
    let fixed = HEAD_OPEN.len()
        + HEAD_TITLE.len()
        + HEAD_H1.len()
        + HEAD_PICTURE.len()
        + TEXT_OPEN.len()
        + TAIL.len();
    let mut out =
        String::with_capacity(fixed + 2 * title.len() + svg.len() + text.len() * 9 / 8 + 64);
    out.push_str(HEAD_OPEN);
    out.push_str(lang.code());
    out.push_str(HEAD_TITLE);
    // An empty title's tags, like any two tags met, stand on lines of their own.
    let title_in = |out: &mut String| {
        if title.is_empty() {
            out.push('\n');
        } else {
            esc_into(out, title);
        }
    };
    title_in(&mut out);
    out.push_str(HEAD_H1);
    title_in(&mut out);
    out.push_str(HEAD_PICTURE);
    out.push_str(svg);
    out.push_str(TEXT_OPEN);
    esc_into(&mut out, text);
    out.push_str(TAIL);
    out
}

/// Are `mine` (stamped for `seat`) and `public` (stamped public) the same picture but for
/// their stamps? Each stamp is taken out of each, first found first, as
/// `replacen(stamp, "", 1)` would; without copying either when each starts with its own
/// stamp and holds no other.
fn same_but_stamps(mine: &str, public: &str, seat: Seat) -> bool {
    let seat_stamp = format!(" data-viewer=\"seat-{}\"", seat + 1);
    const PUBLIC: &str = " data-viewer=\"public\"";
    if let (Some(m), Some(p)) = (after_stamp(mine, &seat_stamp), after_stamp(public, PUBLIC)) {
        return m == p;
    }
    let unstamped = |s: &str| s.replacen(&seat_stamp, "", 1).replacen(PUBLIC, "", 1);
    unstamped(mine) == unstamped(public)
}

/// What follows `<svg` and `stamp` at the start of `svg`, if it starts so and no other
/// stamp follows.
fn after_stamp<'a>(svg: &'a str, stamp: &str) -> Option<&'a str> {
    let rest = svg.strip_prefix("<svg")?.strip_prefix(stamp)?;
    (!rest.contains("data-viewer")).then_some(rest)
}

/// A seat's own picture, when it shows more than the public one (its hand, its hidden
/// armies): otherwise the public picture says the same, and a private mail stays text
/// only. `public` is the public picture in `lang` when the caller already drew it.
pub(crate) fn seat_picture(
    session: &dyn Session,
    seat: Seat,
    lang: Lang,
    public: Option<&str>,
) -> Option<String> {
    if !session.picture_shows_secrets(seat) {
        return None;
    }
    let mine = session.picture(Viewer::Seat(seat), lang)?;
    let same = match public {
        Some(p) => same_but_stamps(&mine, p, seat),
        None => same_but_stamps(
            &mine,
            &session.picture(Viewer::Public, lang).unwrap_or_default(),
            seat,
        ),
    };
    (!same).then_some(mine)
}

impl Run<'_> {
    /// Give the mail just drafted (a report, or a seat's private mail) its HTML part with
    /// `svg`, unless the game draws no picture, its reader chose `SET FORMAT TEXT`, or the
    /// page would pass [`HTML_LIMIT`]. The picture is kept with the mail (moved, not
    /// copied) to redraw the page when a reply takes the mail in.
    pub(crate) fn attach_picture(&mut self, rec: &GameRecord, svg: Option<String>, lang: Lang) {
        let (Some(svg), Some(d)) = (svg, self.mails.last_mut()) else {
            return;
        };
        let text_only = rec
            .seat_of(&d.to)
            .is_some_and(|s| rec.seats[s].format == MailFormat::Text);
        if text_only {
            return;
        }
        let html = page(&d.subject, &d.body, &svg, lang);
        if html.len() <= HTML_LIMIT {
            d.html = Some(html);
            d.svg = Some(svg);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_page_escapes_the_text_and_carries_the_picture() {
        let p = page(
            "[g-1] Turn 2",
            "a <b> & c",
            "<svg xmlns=\"http://www.w3.org/2000/svg\"></svg>",
            Lang::Fr,
        );
        assert!(p.contains("a &lt;b&gt; &amp; c"));
        assert!(p.contains("<svg xmlns"));
        assert!(p.contains("lang=\"fr\""));
        assert!(!p.contains("<script") && !p.contains("src=") && !p.contains("<link"));
    }

    /// The page as it was first written: formatted whole, its head's lines broken after.
    fn page_formatted(title: &str, text: &str, svg: &str, lang: Lang) -> String {
        use castellan_engine::svg::esc;
        let head = format!(
            "<!DOCTYPE html>\n<html lang=\"{code}\"><head><meta charset=\"utf-8\"/>\
             <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\"/>\
             <meta name=\"color-scheme\" content=\"light dark\"/><title>{t}</title></head>\
             <body style=\"margin:0;padding:8px\"><div style=\"max-width:940px;margin:0 auto\">\
             <h1 style=\"font-family:Helvetica,Arial,sans-serif;font-size:17px;margin:4px 0 8px\">{t}</h1>\
             <div style=\"margin:0 0 12px\">",
            code = lang.code(),
            t = esc(title),
        )
        .replace("><", ">\n<");
        format!(
            "{head}\n{svg}\n</div>\n<pre style=\"white-space:pre-wrap;overflow-wrap:anywhere;\
             font-family:Menlo,Consolas,monospace;font-size:13px;line-height:1.35;margin:0\">\n{}</pre>\n\
             </div></body></html>\n",
            esc(text)
        )
    }

    #[test]
    fn the_page_is_written_byte_for_byte_as_formatted_whole() {
        let svg = "<svg data-viewer=\"public\" xmlns=\"http://www.w3.org/2000/svg\">\n<title>x</title>\n</svg>";
        for title in ["", "[g-1] Turn 2", "Tour d'été <b> & \"c\""] {
            for text in ["", "a <b> & c\n", "Armées : 3 à Köln\n\n— fin ><\n"] {
                for lang in [Lang::En, Lang::Fr] {
                    assert_eq!(
                        page(title, text, svg, lang),
                        page_formatted(title, text, svg, lang),
                        "{title:?} {text:?}"
                    );
                }
            }
        }
    }

    #[test]
    fn a_seats_picture_is_told_from_the_public_one_without_the_stamps() {
        let body = " xmlns=\"http://www.w3.org/2000/svg\">\n<title>x</title>\n</svg>";
        let public = format!("<svg data-viewer=\"public\"{body}");
        let mine = format!("<svg data-viewer=\"seat-2\"{body}");
        assert!(same_but_stamps(&mine, &public, 1));
        // Another seat's stamp is no stamp of this seat's.
        assert!(!same_but_stamps(&mine, &public, 0));
        let marked = mine.replace("<title>x", "<title>x, hidden armies");
        assert!(!same_but_stamps(&marked, &public, 1));
        // Unstamped pictures, or stamps elsewhere: compared as the stamps taken out would.
        assert!(same_but_stamps(
            &format!("<svg{body}"),
            &format!("<svg{body}"),
            1
        ));
        let odd = format!("<svg{body} data-viewer=\"seat-2\"");
        assert!(same_but_stamps(&odd, &format!("<svg{body}"), 1));
        assert!(!same_but_stamps(&odd, &public, 0));
    }
}
