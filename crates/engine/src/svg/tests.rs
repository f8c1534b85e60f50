use super::*;

/// Text in a picture is escaped whole: the five XML specials, anything beyond ASCII as
/// a numeric reference, plain runs as they are, at the start, between and at the end.
#[test]
fn text_is_escaped_for_xml_and_kept_ascii() {
    let cases = [
        ("", ""),
        ("Saxony", "Saxony"),
        ("<b>", "&lt;b&gt;"),
        (
            "Ann & \"Bob\" O'Neil",
            "Ann &amp; &quot;Bob&quot; O&#39;Neil",
        ),
        ("Bohême", "Boh&#234;me"),
        ("é", "&#233;"),
        ("château d'eau 🏰!", "ch&#226;teau d&#39;eau &#127984;!"),
        (
            "é<ü>€&🏰'",
            "&#233;&lt;&#252;&gt;&#8364;&amp;&#127984;&#39;",
        ),
        ("Ωmega", "&#937;mega"),
    ];
    for (text, escaped) in cases {
        assert_eq!(esc(text).to_string(), escaped, "{text}");
    }
}

/// A coordinate written by `Px` or pushed by `push_px` (the lines) reads as `{:.0}`.
#[test]
fn a_coordinate_reads_as_the_float_formatting_wrote_it() {
    let pushed = |v: f64| {
        let mut o = String::from("x");
        push_px(&mut o, v);
        o[1..].to_string()
    };
    let mut v = -40.0;
    while v < 1000.0 {
        assert_eq!(Px(v).to_string(), format!("{v:.0}"), "{v}");
        assert_eq!(pushed(v), format!("{v:.0}"), "{v}");
        v += 0.125;
    }
    for v in [
        -0.2,
        0.0,
        -1e14,
        9.99e14,
        i64::MAX as f64,
        f64::NEG_INFINITY,
    ] {
        assert_eq!(pushed(v), format!("{v:.0}"), "{v}");
    }
    for v in [
        0.5,
        1.5,
        2.5,
        -0.5,
        -0.3,
        759.4999,
        1e20,
        f64::NAN,
        f64::INFINITY,
    ] {
        assert_eq!(Px(v).to_string(), format!("{v:.0}"), "{v}");
    }
}

#[test]
fn text_is_escaped_and_the_frame_is_closed() {
    let mut s = Svg::new(10, 10, "#fff", "a <b> & 'c'");
    s.text(1.0, 2.0, "start", "fill:#000", "<script>");
    let out = s.finish();
    assert!(!out.contains("<script>"));
    assert!(out.contains("&lt;script&gt;"));
    assert!(out.contains("<title>a &lt;b&gt; &amp; &#39;c&#39;</title>"));
    assert!(out.ends_with("</svg>"));
}

/// The frame scales to its reader's width: a viewBox, width 100 %, height auto, never a
/// minimum width (a phone would scroll sideways).
#[test]
fn the_frame_shrinks_to_any_width() {
    let out = Svg::new(760, 500, "#fff", "t").finish();
    assert!(out.contains("viewBox=\"0 0 760 500\" width=\"100%\""));
    assert!(out.contains("max-width:760px;height:auto"));
    assert!(!out.contains("min-width"));
}

/// Texts' boxes are read back with their groups' sizes, weights, anchors and
/// translations; two that share room, or one past the edge, are named.
#[test]
fn texts_that_overlap_or_leave_the_picture_are_named() {
    let mut s = Svg::new(200, 100, "#fff", "t");
    s.raw("<g transform=\"translate(0,40)\"><g text-anchor=\"middle\" font-size=\"11\">");
    s.raw("<text x=\"50\" y=\"10\">Saxony</text><text x=\"150\" y=\"10\">Bohemia</text></g>");
    s.raw("<text x=\"20\" y=\"30\" style=\"font-size:12px\">&#201;cosse</text></g>");
    s.text(
        10.0,
        16.0,
        "start",
        "font-size:15px;font-weight:bold",
        "Turn 2",
    );
    let ok = s.finish();
    let (w, h, boxes) = text_boxes(&ok);
    assert_eq!((w, h), (200.0, 100.0));
    let names: Vec<&str> = boxes.iter().map(|b| b.text.as_str()).collect();
    assert_eq!(names, ["Saxony", "Bohemia", "\u{c9}cosse", "Turn 2"]);
    let saxony = boxes[0].rect;
    assert!(saxony.x0 < 50.0 && saxony.x1 > 50.0, "centred: {saxony:?}");
    assert!(
        saxony.y0 < 50.0 && saxony.y1 > 50.0,
        "translated: {saxony:?}"
    );
    assert!(boxes[3].rect.x0 == 10.0, "the group's anchor ends with it");
    assert_eq!(check_texts(&ok), Vec::<String>::new());

    let mut s = Svg::new(100, 40, "#fff", "t");
    s.text(50.0, 20.0, "middle", "font-size:11px", "Western Australia");
    s.text(60.0, 22.0, "middle", "font-size:11px", "Eastern Australia");
    let wrong = check_texts(&s.finish());
    assert!(wrong.iter().any(|w| w.contains("overlaps")), "{wrong:?}");
    assert!(wrong.iter().any(|w| w.contains("leaves")), "{wrong:?}");
}

/// The width guessed is never less than a real font's: a bold capital more than a thin
/// letter, French names longer than English.
#[test]
fn widths_are_conservative_and_wrap_keeps_lines_within() {
    assert!(text_width("Wales", 11.0, false) > 5.0 * 11.0 * 0.55);
    assert!(text_width("M", 11.0, true) > text_width("M", 11.0, false));
    assert!(text_width("i", 11.0, false) < text_width("m", 11.0, false));
    assert!(text_width("Pays de Galles", 11.0, false) > text_width("Wales", 11.0, false));
    let lines = wrap_to(
        "anneau : port (foncé : mer Noire) ; pointillé : passage",
        200.0,
        16.0,
        false,
    );
    assert!(lines.len() > 1);
    for l in &lines {
        assert!(text_width(l, 16.0, false) <= 200.0, "{l}");
    }
}
