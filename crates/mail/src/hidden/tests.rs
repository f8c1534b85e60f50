use super::*;

fn seen(html: &str) -> String {
    crate::quote::flatten_html(&visible_html(html))
}

#[test]
fn hidden_elements_go_with_all_they_hold() {
    for html in [
        "<div>Hi!</div><div style=\"display:none\">RESIGN<div>more</div></div><div>bye</div>",
        "<div>Hi!</div><div style='visibility: hidden'>RESIGN<div>more</div></div><div>bye</div>",
        "<div>Hi!</div><span style=\"font-size:0px\">RESIGN<b>more</b></span><div>bye</div>",
        "<div>Hi!</div><p style=\"FONT-SIZE: 0\">RESIGN more</p><div>bye</div>",
        "<div>Hi!</div><font size=\"0\">RESIGN more</font><div>bye</div>",
        "<div>Hi!</div><div hidden>RESIGN more</div><div>bye</div>",
        "<div>Hi!</div><div style=\"color:#ffffff\">RESIGN more</div><div>bye</div>",
        "<div>Hi!</div><font color=white>RESIGN more</font><div>bye</div>",
        "<body bgcolor=\"#000\"><div>Hi!</div><div style=\"color:rgb(0,0,0)\">RESIGN more</div><div>bye</div></body>",
        "<div style=\"background:#123456\"><div>Hi!</div><span style=\"color:#123456\">RESIGN more</span><div>bye</div></div>",
        "<div>Hi!</div><span style=\"color:rgba(0,0,0,0)\">RESIGN more</span><div>bye</div>",
        "<div>Hi!</div><span style=\"opacity:0\">RESIGN more</span><div>bye</div>",
        "<style>.x{display:none}</style><div>Hi!</div><div class=\"a x\">RESIGN more</div><div>bye</div>",
        "<style type=\"text/css\">\np.ghost, .other { font-size: 0; }\n</style><div>Hi!</div><p class=ghost>RESIGN more</p><div>bye</div>",
        "<html><head><style>#h{color:#fff}</style></head><body><div>Hi!</div><div id=\"h\">RESIGN more</div><div>bye</div></body></html>",
    ] {
        let t = seen(html);
        assert!(!t.contains("RESIGN") && !t.contains("more"), "{html} -> {t:?}");
        assert!(t.contains("Hi!") && t.contains("bye"), "{html} -> {t:?}");
    }
}

#[test]
fn a_broken_tag_with_a_character_of_two_bytes_does_not_panic() {
    // tests/no_panic.rs found it: a stray byte stepped into the middle of "®".
    for html in [
        "<div style=\"<div style=\"=''\u{ae}",
        "<p =\u{e6}7 class=x>a</p>",
        "<div style=\"3or<d<span class='a'>@e<div style=\"=''\u{e6}7rgb(1,2",
    ] {
        let _ = visible_html(html);
    }
}

#[test]
fn visible_text_stays() {
    for html in [
        "<div>ADD 1</div><div style=\"color:red\">END</div>",
        "<div style=\"background:#000;color:#fff\">ADD 1<div>END</div></div>",
        "<p>a &lt; b, ADD 1</p><p>END</p>",
        "<div>ADD 1<br/>END</div><img src=x><div style=\"display:block\"></div>",
        "<style>.x{display:none}</style><div class=\"y\">ADD 1</div><div>END</div>",
    ] {
        let t = seen(html);
        assert!(t.contains("ADD 1") && t.contains("END"), "{html} -> {t:?}");
    }
}

#[test]
fn broken_html_never_panics() {
    for html in [
        "<",
        "<<",
        "<div",
        "<div style=\"",
        "</",
        "</div>",
        "<!--",
        "<style>",
        "<style",
        "<font size=",
        "<div style='color:#'>x",
        "<a b=\"c>d\">é</a>",
        "<é>",
        "<div\u{e9}>x",
        "<span style=\"color:rgb(\">x</span>",
        "<style>@media{ .x{display:none}</style>x",
        "<style>/* .x{</style>x",
        "<div style=\"font:0/0 a\">x</div>",
    ] {
        let _ = seen(html);
    }
}
