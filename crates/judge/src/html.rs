//! The HTML part of a report: the same text as the plain part (escaped, in a `<pre>`) and
//! the board's picture (inline SVG) drawn by the game. Mail clients block scripts, remote
//! images and web fonts: the page has none, its styles are inline, it follows the reader's
//! width (a phone's too) and colours (the picture carries its own light background, so it
//! reads the same in a dark-mode client). It does not depend on the report's layout: the
//! text goes in whole.

use crate::model::{GameRecord, MailFormat};
use crate::run::Run;
use castellan_engine::svg::esc;
use castellan_engine::{Lang, Seat, Session, Viewer};

/// The largest HTML part sent; a bigger one is left out (the text part is complete).
pub const HTML_LIMIT: usize = 150 * 1024;

/// The HTML page: `title` as its heading, the picture, then `text` as it reads in the
/// plain part.
pub fn page(title: &str, text: &str, svg: &str, lang: Lang) -> String {
    let head = format!(
        "<!DOCTYPE html>\n<html lang=\"{code}\"><head><meta charset=\"utf-8\"/>\
         <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\"/>\
         <meta name=\"color-scheme\" content=\"light dark\"/><title>{t}</title></head>\
         <body style=\"margin:0;padding:8px\"><div style=\"max-width:940px;margin:0 auto\">\
         <h1 style=\"font-family:Helvetica,Arial,sans-serif;font-size:17px;margin:4px 0 8px\">{t}</h1>\
         <div style=\"margin:0 0 12px;overflow-x:auto\">",
        code = lang.code(),
        t = esc(title),
    )
    .replace("><", ">\n<");
    // One element a line, and the text as it is: a mail's lines stay short, and a page of
    // ASCII (esc writes the rest as references) goes as 7bit, not base64.
    format!(
        "{head}\n{svg}\n</div>\n<pre style=\"white-space:pre-wrap;overflow-wrap:anywhere;\
         font-family:Menlo,Consolas,monospace;font-size:13px;line-height:1.35;margin:0\">\n{}</pre>\n\
         </div></body></html>\n",
        esc(text)
    )
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
    let public = match public {
        Some(p) => std::borrow::Cow::Borrowed(p),
        None => std::borrow::Cow::Owned(session.picture(Viewer::Public, lang).unwrap_or_default()),
    };
    let unstamped = |s: &str| {
        s.replacen(&format!(" data-viewer=\"seat-{}\"", seat + 1), "", 1)
            .replacen(" data-viewer=\"public\"", "", 1)
    };
    (unstamped(&mine) != unstamped(&public)).then_some(mine)
}

impl Run<'_> {
    /// Give the mail just drafted (a report, or a seat's private mail) its HTML part with
    /// `svg`, unless the game draws no picture, its reader chose `SET FORMAT TEXT`, or the
    /// page would pass [`HTML_LIMIT`].
    pub(crate) fn attach_picture(&mut self, rec: &GameRecord, svg: Option<&str>, lang: Lang) {
        let (Some(svg), Some(d)) = (svg, self.mails.last_mut()) else {
            return;
        };
        let text_only = rec
            .seat_of(&d.to)
            .is_some_and(|s| rec.seats[s].format == MailFormat::Text);
        if text_only {
            return;
        }
        let html = page(&d.subject, &d.body, svg, lang);
        if html.len() <= HTML_LIMIT {
            d.html = Some(html);
            d.svg = Some(svg.to_string());
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
}
