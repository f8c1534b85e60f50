use super::*;

fn mail(headers: &str) -> Vec<u8> {
    format!("{headers}\r\n\r\nPASS\r\n").into_bytes()
}

fn auto(headers: &str) -> Option<String> {
    parse(&mail(headers), 10_000).unwrap().automatic
}

const BASE: &str =
    "From: Alice <Alice@Example.org>\r\nTo: judge@x.org\r\nSubject: t\r\nMessage-ID: <m1@x>";

#[test]
fn a_person_is_answered() {
    assert_eq!(auto(BASE), None);
    assert_eq!(auto(&format!("{BASE}\r\nAuto-Submitted: no")), None);
    assert_eq!(
        auto(&format!("{BASE}\r\nReturn-Path: <alice@example.org>")),
        None
    );
    assert_eq!(auto(&format!("{BASE}\r\nPrecedence: first-class")), None);
}

#[test]
fn auto_submitted_other_than_no_is_automatic() {
    for v in [
        "auto-replied",
        "auto-generated",
        "Auto-Replied; owner-email=x@y",
        "auto-notified",
    ] {
        let r = auto(&format!("{BASE}\r\nAuto-Submitted: {v}"));
        assert!(
            r.as_deref().unwrap().starts_with("Auto-Submitted"),
            "{v}: {r:?}"
        );
    }
}

#[test]
fn bounces_are_automatic() {
    assert!(auto(&format!("{BASE}\r\nReturn-Path: <>"))
        .unwrap()
        .contains("Return-Path"));
    let r = auto("From: MAILER-DAEMON@mx.example.org\r\nTo: judge@x.org\r\nSubject: Undelivered");
    assert!(r.unwrap().contains("mailer-daemon@mx.example.org"));
    let r = auto("From: Postmaster <postmaster@example.org>\r\nTo: judge@x.org");
    assert!(r.unwrap().contains("postmaster"));
    let r = auto(&format!(
        "{BASE}\r\nContent-Type: multipart/report; report-type=delivery-status; boundary=b"
    ));
    assert!(r.unwrap().contains("multipart/report"));
}

#[test]
fn bulk_list_junk_and_list_id_are_automatic() {
    for p in ["bulk", "list", "junk", "BULK"] {
        assert!(auto(&format!("{BASE}\r\nPrecedence: {p}"))
            .unwrap()
            .starts_with("Precedence"));
    }
    assert!(auto(&format!("{BASE}\r\nList-Id: <games.example.org>"))
        .unwrap()
        .contains("List-Id"));
    assert!(auto(&format!("{BASE}\r\nX-Auto-Response-Suppress: All")).is_some());
    assert!(auto(&format!("{BASE}\r\nX-Autoreply: yes")).is_some());
}

#[test]
fn sender_is_bare_lowercase_and_name_is_kept() {
    let p = parse(&mail(BASE), 1000).unwrap();
    assert_eq!(p.from, "alice@example.org");
    assert_eq!(p.from_name.as_deref(), Some("Alice"));
    assert_eq!(p.message_id, "<m1@x>");
}

#[test]
fn recipients_include_delivered_to_and_original_to_once() {
    let h = "From: a@b.c\r\nTo: Judge <Judge+Tok123@x.org>, bob@x.org\r\nCc: carol@x.org\r\nDelivered-To: judge+tok123@x.org\r\nX-Original-To: judge+other@x.org";
    let p = parse(&mail(h), 1000).unwrap();
    assert_eq!(
        p.to,
        [
            "judge+tok123@x.org",
            "bob@x.org",
            "carol@x.org",
            "judge+other@x.org"
        ]
    );
}

#[test]
fn threading_ids_keep_brackets() {
    let h = "From: a@b.c\r\nIn-Reply-To: <r2@j>\r\nReferences: <r1@j> <r2@j>";
    let p = parse(&mail(h), 1000).unwrap();
    assert_eq!(p.in_reply_to.as_deref(), Some("<r2@j>"));
    assert_eq!(p.references, ["<r1@j>", "<r2@j>"]);
}

#[test]
fn missing_message_id_is_stable_and_distinct() {
    let a = mail("From: a@b.c\r\nSubject: x");
    let b = mail("From: a@b.c\r\nSubject: y");
    let pa = parse(&a, 1000).unwrap();
    assert_eq!(pa.message_id, parse(&a, 1000).unwrap().message_id);
    assert_ne!(pa.message_id, parse(&b, 1000).unwrap().message_id);
    assert!(pa.message_id.ends_with("@castellan.invalid>"));
    assert_eq!(pa.message_id.len(), 64 + "<@castellan.invalid>".len());
}

#[test]
fn unreadable_input_is_an_error_not_a_panic() {
    assert_eq!(parse(b"", 100), Err(ParseError::Empty));
    assert_eq!(parse(b"  \r\n", 100), Err(ParseError::Empty));
    assert_eq!(
        parse(b"Subject: no sender\r\n\r\nhi", 100),
        Err(ParseError::NoSender)
    );
}

#[test]
fn body_over_the_cap_is_cut_with_a_note() {
    let body = "PASS\n".repeat(100);
    let raw = format!("From: a@b.c\r\n\r\n{body}");
    let p = parse(raw.as_bytes(), 50).unwrap();
    assert!(p.truncated);
    assert!(p.body.ends_with(TRUNCATION_NOTE));
    let kept = p.body.trim_end_matches(TRUNCATION_NOTE).trim_end();
    assert!(
        kept.len() <= 50 && kept.starts_with("PASS\nPASS"),
        "{kept:?}"
    );
    let p = parse(raw.as_bytes(), 10_000).unwrap();
    assert!(!p.truncated);
}

/// `Authentication-Results` headers are read (folded or not), topmost
/// first, for the judge to trust or not.
#[test]
fn authentication_results_are_read() {
    let raw = "Authentication-Results: mx.judge.example;\r\n spf=pass smtp.mailfrom=a@example.org;\r\n dkim=fail header.d=example.org; dkim=pass header.d=example.org;\r\n dmarc=pass header.from=example.org\r\nAuthentication-Results: relay.example 1; spf=fail\r\nFrom: a@example.org\r\nSubject: hi\r\n\r\nHELP\r\n";
    let p = parse(raw.as_bytes(), 65536).unwrap();
    assert_eq!(p.authentication_results.len(), 2);
    let top = &p.authentication_results[0];
    assert_eq!(top.authserv_id, "mx.judge.example");
    assert_eq!(
        (
            top.spf.as_deref(),
            top.dkim.as_deref(),
            top.dmarc.as_deref()
        ),
        (Some("pass"), Some("pass"), Some("pass"))
    );
    assert_eq!(top.forged("a@example.org"), None);
    assert_eq!(p.authentication_results[1].authserv_id, "relay.example");
    assert_eq!(
        p.authentication_results[1]
            .forged("a@example.org")
            .as_deref(),
        Some("spf=fail without a DMARC pass")
    );
}

/// Header lines of 10,002 characters were all accepted; now what the judge
/// echoes in its reply's header lines stays within RFC 5322's 998 characters.
#[test]
fn over_long_header_lines_are_not_echoed() {
    let long = "x".repeat(10_002);
    let raw = format!(
            "From: a@example.org\r\nSubject: {long}\r\nMessage-ID: <{long}@example.org>\r\nReferences: <{long}@e> <a@e> <b@e> <c@e> <d@e>\r\nIn-Reply-To: <{long}@e>\r\n\r\nHELP\r\n"
        );
    let p = parse(raw.as_bytes(), 65536).unwrap();
    assert!(p.subject.len() <= MAX_SUBJECT_BYTES);
    assert!(p.message_id.len() < 100, "{}", p.message_id);
    assert_eq!(p.references, vec!["<b@e>", "<c@e>", "<d@e>"]);
    assert_eq!(p.in_reply_to, None);
    assert_eq!(p.body.trim(), "HELP");
}

#[test]
fn cut_respects_char_boundaries() {
    let (s, c) = cut("ééééé", 3);
    assert!(c);
    assert_eq!(s, "é");
}
