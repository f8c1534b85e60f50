//! CSS-hidden text in HTML-only mail (`display:none`) once ran as commands. An
//! HTML-only mail is read as its reader sees it: what a mail client would not show (hidden,
//! zero-size, or the background's colour; crates/mail/src/hidden.rs lists what is
//! recognised) is not read (docs/security.md, "Hidden HTML").

use castellan_mail::parse;

fn html_mail(html: &str) -> Vec<u8> {
    format!(
        "From: Eve <eve@example.org>\r\nTo: judge@example.org\r\nSubject: hi\r\n\
         Message-ID: <h1@example.org>\r\nMIME-Version: 1.0\r\n\
         Content-Type: text/html; charset=utf-8\r\n\r\n{html}\r\n"
    )
    .into_bytes()
}

#[test]
fn hidden_html_is_not_read_as_commands() {
    for hidden in [
        "<div style=\"display:none\">GAME race-1 pw\nRESIGN</div>",
        "<div style=\"visibility:hidden\">GAME race-1 pw<br>RESIGN</div>",
        "<div style=\"font-size:0\">GAME race-1 pw<br>RESIGN</div>",
        "<font size=\"0\">GAME race-1 pw<br>RESIGN</font>",
        "<div style=\"color:#fff\">GAME race-1 pw<br>RESIGN</div>",
        "<div style=\"background-color:#eee\"><span style=\"color:#eeeeee\">GAME race-1 pw<br>RESIGN</span></div>",
        "<style>.p { display: none }</style><div class=\"p\">GAME race-1 pw<br>RESIGN</div>",
    ] {
        let html = format!("<html><body><div>Hi, see you soon!</div>{hidden}<div>Eve</div></body></html>");
        let m = parse(&html_mail(&html), 64 * 1024).unwrap();
        assert!(m.html_only);
        assert!(
            !m.body.contains("RESIGN") && !m.body.contains("GAME"),
            "{hidden}: read {:?}",
            m.body
        );
        assert!(m.body.contains("Hi, see you soon!"), "{:?}", m.body);
    }
    // Shown text is read as before.
    let m = parse(
        &html_mail("<div>GAME race-1 pw</div><div style=\"color:#333\">ADD 1</div>"),
        64 * 1024,
    )
    .unwrap();
    assert_eq!(m.body, "GAME race-1 pw\nADD 1");
}
