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
