use super::*;

#[test]
fn quoted_lines_go_and_interleaved_answers_stay() {
    let t = "ATTACK A FROM B\n> old order\n>> older\nEND TURN\n> more";
    assert_eq!(strip_quoted(t), "ATTACK A FROM B\nEND TURN");
}

#[test]
fn an_attribution_over_an_unquoted_copy_cuts_everything_below() {
    let t = "PLACE 3 Poland\n\nOn Tue, 3 Mar 2026 at 10:00, Judge <judge@x.org> wrote:\nYour turn\n> ATTACK";
    assert_eq!(strip_quoted(t), "PLACE 3 Poland");
}

/// The judge's report as a player's client quotes it, order-like lines included.
const QUOTED_REPORT: &str = "> Turn 3: Blue to move.\n> Your last orders were:\n> PLACE 4 Vienna\n> ATTACK Ural FROM Siberia\n>\n> Reply with your orders.";

#[test]
fn orders_below_an_english_quote_are_read_and_the_quote_is_not() {
    let t = format!(
            "On Mon, 12 Jan 2026 at 10:02, Castellan judge <judge@example.org> wrote:\n{QUOTED_REPORT}\n\nPLACE 9 Mongolia\nEND\n"
        );
    assert_eq!(strip_quoted(&t), "PLACE 9 Mongolia\nEND");
}

#[test]
fn orders_below_a_wrapped_attribution_are_read() {
    let t = format!(
            "On Mon, 12 Jan 2026 at 10:02, Castellan judge\n<judge@example.org> wrote:\n\n{QUOTED_REPORT}\nPLACE 9 Mongolia\nEND"
        );
    assert_eq!(strip_quoted(&t), "PLACE 9 Mongolia\nEND");
}

#[test]
fn orders_below_a_french_quote_are_read_and_the_quote_is_not() {
    let t = format!(
            "Le lun. 12 janv. 2026 à 10:02, Castellan <juge@example.org> a écrit\u{a0}:\r\n{}\r\n\r\nPLACE 9 Mongolie\r\nFIN\r\n",
            QUOTED_REPORT.replace('\n', "\r\n")
        );
    assert_eq!(strip_quoted(&t), "PLACE 9 Mongolie\nFIN");
}

#[test]
fn orders_below_a_german_quote_are_read() {
    let t = format!(
            "Am Mo., 12. Jan. 2026 um 10:02 Uhr schrieb Castellan <judge@example.org>:\n{QUOTED_REPORT}\nPLACE 9 Mongolia\nEND"
        );
    assert_eq!(strip_quoted(&t), "PLACE 9 Mongolia\nEND");
}

#[test]
fn interleaved_answers_below_an_attribution_are_all_read() {
    let t = "On Mon, 12 Jan 2026 at 10:02, Castellan judge <judge@example.org> wrote:\n> Turn 3: place 9 armies.\n> PLACE 4 Vienna\nPLACE 9 Mongolia\n\n> Then attack.\n> ATTACK Ural FROM Siberia\nATTACK Irkutsk FROM Mongolia\n> Reply with your orders.\nEND";
    assert_eq!(
        strip_quoted(t),
        "PLACE 9 Mongolia\n\nATTACK Irkutsk FROM Mongolia\nEND"
    );
}

#[test]
fn nothing_of_a_quote_below_top_posted_orders_is_read() {
    let t = format!(
            "PLACE 9 Mongolia\nEND\n\nOn Mon, 12 Jan 2026 at 10:02, Castellan judge <judge@example.org> wrote:\n{QUOTED_REPORT}\n"
        );
    assert_eq!(strip_quoted(&t), "PLACE 9 Mongolia\nEND");
}

#[test]
fn an_outlook_top_post_is_still_cut_at_its_header_block() {
    // Outlook copies the old mail below its header block without `>` markers
    let t = "PLACE 9 Mongolia\r\nEND\r\n\r\n________________________________\r\nFrom: Castellan judge <judge@example.org>\r\nSent: Monday, January 12, 2026 10:02\r\nTo: alice@example.org\r\nSubject: [risk-3] Turn 3\r\n\r\nTurn 3: Blue to move.\r\nPLACE 4 Vienna\r\n";
    assert_eq!(strip_quoted(t), "PLACE 9 Mongolia\nEND");
    let t = "PLACE 9 Mongolia\n\n-----Original Message-----\nFrom: Castellan judge\nSent: Monday\n\nPLACE 4 Vienna\n> PLACE 5 Vienna\nATTACK Ural FROM Siberia";
    assert_eq!(strip_quoted(t), "PLACE 9 Mongolia");
}

#[test]
fn a_signature_below_bottom_posted_orders_is_cut() {
    let t = format!(
            "On Mon, 12 Jan 2026 at 10:02, Castellan judge <judge@example.org> wrote:\n{QUOTED_REPORT}\n\nPLACE 9 Mongolia\nEND\n\n-- \nAlice, Khan of Mongolia\nPASS\n"
        );
    assert_eq!(strip_quoted(&t), "PLACE 9 Mongolia\nEND");
    let t = format!(
            "On Mon, 12 Jan 2026 at 10:02, Castellan judge <judge@example.org> wrote:\n{QUOTED_REPORT}\nPLACE 9 Mongolia\nEND\n\nSent from my iPhone\n"
        );
    assert_eq!(strip_quoted(&t), "PLACE 9 Mongolia\nEND");
}

#[test]
fn a_phone_signature_above_the_quote_of_a_top_post_is_not_read() {
    let t = format!(
            "PLACE 9 Mongolia\nEND\n\nSent from my iPhone\n\nOn Mon, 12 Jan 2026 at 10:02, Castellan judge <judge@example.org> wrote:\n{QUOTED_REPORT}\n"
        );
    assert_eq!(strip_quoted(&t), "PLACE 9 Mongolia\nEND");
}

#[test]
fn text_after_an_unquoted_attribution_is_never_read_even_if_quotes_follow_later() {
    // the attribution is followed by an unquoted copy: everything below is cut, even
    // a `>` block and text further down
    let t = "PASS\nOn Mon, 12 Jan 2026 at 10:02, Castellan judge <judge@example.org> wrote:\nTurn 3\nPLACE 4 Vienna\n> old\nATTACK Ural FROM Siberia";
    assert_eq!(strip_quoted(t), "PASS");
    // an attribution with nothing below it is cut as well
    assert_eq!(
        strip_quoted("PASS\n\nOn Mon, 12 Jan 2026, Judge <j@x.org> wrote:\n\n"),
        "PASS"
    );
}

#[test]
fn wrapped_attribution_is_recognised() {
    let t = "PASS\nOn Tue, 3 Mar 2026 at 10:00, Castellan Judge\n<judge@castellan.example> wrote:\n\n> old";
    assert_eq!(strip_quoted(t), "PASS");
}

#[test]
fn french_attribution_is_recognised() {
    let t = "ATTAQUE Livonie DEPUIS Pologne\n\nLe mar. 3 mars 2026 à 10:00, Juge <judge@x.org> a écrit :\n> vieux";
    assert_eq!(strip_quoted(t), "ATTAQUE Livonie DEPUIS Pologne");
}

#[test]
fn bare_wrote_line_needs_quotes_below() {
    // a line that merely ends in "wrote:" without quotes below is the player's text
    let t = "STATUS\nHere is what I wrote:\nPASS";
    assert_eq!(strip_quoted(t), t);
    let t = "STATUS\nAlice wrote:\n> PASS";
    assert_eq!(strip_quoted(t), "STATUS");
}

#[test]
fn outlook_original_message_and_header_block() {
    let t = "PASS\n\n-----Original Message-----\nFrom: Judge\nSent: Monday\nTo: Alice\nSubject: Turn 3\n\nATTACK X";
    assert_eq!(strip_quoted(t), "PASS");
    let t = "PASS\n________________________________\nFrom: Judge <judge@x>\nSent: Monday\nTo: Alice\n\nold";
    assert_eq!(strip_quoted(t), "PASS");
    let t = "PASSE\nDe : Juge <judge@x>\nEnvoyé : lundi\nÀ : Alice\nObjet : Tour 3\nvieux";
    assert_eq!(strip_quoted(t), "PASSE");
}

#[test]
fn a_lone_from_line_is_not_a_header_block() {
    let t = "From: the north I attack\nATTACK A FROM B";
    assert_eq!(strip_quoted(t), t);
}

#[test]
fn signature_after_dash_dash_space() {
    let t = "END TURN\n-- \nAlice, Queen of Livonia\n";
    assert_eq!(strip_quoted(t), "END TURN");
    let t = "END TURN\n--\nAlice";
    assert_eq!(strip_quoted(t), "END TURN");
    // a dash-dash inside a line is not a signature
    let t = "SET DEFEND 2 -- always";
    assert_eq!(strip_quoted(t), t);
}

#[test]
fn trailing_phone_signature_goes_but_not_in_the_middle() {
    assert_eq!(strip_quoted("PASS\n\nSent from my iPhone\n"), "PASS");
    let t = "Sent from my tent: PASS\nEND TURN";
    assert_eq!(strip_quoted(t), t);
}

#[test]
fn crlf_and_blank_edges_are_normalised() {
    assert_eq!(strip_quoted("\r\n\r\nPASS  \r\nEND\r\n\r\n"), "PASS\nEND");
    assert_eq!(strip_quoted("END\u{a0}TURN\u{202f}!"), "END TURN !");
}

#[test]
fn html_blockquotes_are_removed_nested() {
    let h = "<p>PASS</p><BLOCKQUOTE type=cite>old<blockquote>older</blockquote>still old</blockquote><p>END</p>";
    assert_eq!(strip_html_quotes(h), "<p>PASS</p><p>END</p>");
    // unclosed runs to the end; <blockquotex> is not a blockquote
    assert_eq!(strip_html_quotes("a<blockquote>b"), "a");
    assert_eq!(strip_html_quotes("a<blockquotex>b"), "a<blockquotex>b");
}

#[test]
fn html_blocks_become_lines() {
    let h = "<html><head><style>p{}</style></head><body>PLACE 3 Poland<div>ATTACK Livonia FROM Poland</div><div><br></div><div>END&nbsp;TURN</div><p>a &amp; b</p></body></html>";
    assert_eq!(
        flatten_html(h).trim(),
        "PLACE 3 Poland\nATTACK Livonia FROM Poland\nEND\u{a0}TURN\na & b"
    );
}

#[test]
fn orders_below_an_html_quote_are_read_and_the_quote_is_not() {
    // Gmail: the attribution and the blockquote in a gmail_quote div, orders below it
    let h = "<div dir=\"ltr\"><br></div><br><div class=\"gmail_quote\"><div dir=\"ltr\" class=\"gmail_attr\">On Mon, 12 Jan 2026 at 10:02, Castellan judge &lt;<a href=\"mailto:judge@example.org\">judge@example.org</a>&gt; wrote:<br></div><blockquote class=\"gmail_quote\" style=\"margin:0px 0px 0px 0.8ex\"><div>Turn 3: Blue to move.</div><div>PLACE 4 Vienna</div><blockquote>ATTACK Ural FROM Siberia</blockquote></blockquote></div><div>PLACE 9 Mongolia</div><div>END</div>";
    assert_eq!(strip_html_reply(h), "PLACE 9 Mongolia\nEND");
    // Thunderbird: moz-cite-prefix, blockquote type=cite, paragraphs below
    let h = "<html><body><div class=\"moz-cite-prefix\">Le 12/01/2026 à 10:02, Castellan a écrit&nbsp;:<br></div><blockquote type=\"cite\"><p>PLACE 4 Vienne</p></blockquote><p>PLACE 9 Mongolie</p><p>FIN</p><div class=\"moz-signature\">-- <br>Alice</div></body></html>";
    assert_eq!(strip_html_reply(h), "PLACE 9 Mongolie\nFIN");
}

#[test]
fn an_html_attribution_over_an_unquoted_copy_cuts_everything_below() {
    let h = "<div>PASS</div><div>On Mon, 12 Jan 2026, Judge &lt;j@x.org&gt; wrote:</div><div>Turn 3</div><div>PLACE 4 Vienna</div>";
    assert_eq!(strip_html_reply(h), "PASS");
}

#[test]
fn html_reply_keeps_only_new_text() {
    let h = "<div>ATTACK Livonia FROM Poland</div><div class=\"gmail_quote\"><div>On Mon, Judge wrote:<br></div><blockquote>old orders</blockquote></div>";
    assert_eq!(strip_html_reply(h), "ATTACK Livonia FROM Poland");
}
