//! "Identity as DMARC means it", the mail layer's half: who wrote a mail is its
//! one From address, as DMARC authenticates it, or nobody (the mail is refused, not judged
//! and not answered). Each test failed on the main branch before the fix.

use castellan_mail::{parse, ParseError};

fn read(headers: &str) -> Result<castellan_mail::Inbound, ParseError> {
    let raw = format!("{headers}\r\nTo: judge@example.org\r\nSubject: orders\r\n\r\nHELP\r\n");
    parse(raw.as_bytes(), 65536)
}

fn refused(headers: &str) -> bool {
    read(headers).is_err()
}

/// "with two From headers DMARC judged the first and the judge uses the last": a mail
/// with two From headers has two authors to the judge, and is refused.
#[test]
fn two_from_headers_are_refused() {
    assert!(refused(
        "From: Anna <anna@example.org>\r\nFrom: Eve <eve@evil.example>"
    ));
    assert!(refused(
        "From: Eve <eve@evil.example>\r\nFrom: Anna <anna@example.org>"
    ));
}

/// More than one address in the From header: refused too (RFC 5322 needs a Sender then,
/// and DMARC which of them it checked is unknown).
#[test]
fn two_addresses_in_one_from_are_refused() {
    assert!(refused("From: anna@example.org, eve@evil.example"));
    assert!(refused("From: Team: anna@example.org, eve@evil.example;"));
}

/// "`From: Eve <>` plus `Reply-To:` (or `Sender:`) takes the identity from a header DMARC
/// does not authenticate": without a From address the mail is refused.
#[test]
fn reply_to_and_sender_never_decide_who_wrote() {
    for other in ["Reply-To", "Sender"] {
        let r = read(&format!("From: Eve <>\r\n{other}: anna@example.org"));
        assert!(r.is_err(), "{other}: {r:?}");
        let r = read(&format!("{other}: anna@example.org"));
        assert!(r.is_err(), "{other} alone: {r:?}");
    }
    // Nor the Return-Path: a mail without From has no author.
    assert!(refused("Return-Path: <anna@example.org>"));
    // With a From, Reply-To and Sender are not read for the author.
    let m = read(
        "From: Eve <eve@evil.example>\r\nReply-To: anna@example.org\r\nSender: anna@example.org",
    )
    .unwrap();
    assert_eq!(m.from, "eve@evil.example");
}

/// "`\u212Aate@` (Kelvin sign) folds into kate@": an address that NFKC would make another
/// address is refused; so is one holding what an address cannot (format characters).
#[test]
fn a_from_address_that_folds_into_another_is_refused() {
    for bad in [
        "From: \u{212A}ate@example.org",
        "From: Kate <\u{212A}ate@example.org>",
        "From: ｋａｔｅ@example.org",
        "From: kate@ｅｘａｍｐｌｅ.org",
        "From: ka\u{200B}te@example.org",
        "From: kate\u{202E}@example.org",
    ] {
        assert!(refused(bad), "{bad:?}: {:?}", read(bad));
    }
    // Canonical: lower case, NFC (a decomposed letter is the same address composed).
    let m = read("From: Zoë <ZOE\u{308}@Example.ORG>").unwrap();
    assert_eq!(m.from, "zo\u{eb}@example.org");
    let m = read("From: =?utf-8?b?S2F0ZQ==?= <kate@example.org>").unwrap();
    assert_eq!(m.from, "kate@example.org");
}

/// The refusal says why (for the log), and is no panic on any From.
#[test]
fn the_refusal_names_the_reason() {
    match read("From: a@x.org\r\nFrom: b@y.org") {
        Err(e) => assert!(e.to_string().contains("From"), "{e}"),
        Ok(m) => panic!("read as {m:?}"),
    }
    match read("From: \u{212A}ate@example.org") {
        Err(e) => assert!(e.to_string().contains("U+212A"), "{e}"),
        Ok(m) => panic!("read as {m:?}"),
    }
}

/// Pieces of hostile identities, so random input reaches every branch of the address,
/// name and Authentication-Results readers.
const PIECES: &[&str] = &[
    "@",
    "\"",
    "\\",
    "=?",
    "?=",
    "?b?",
    "?q?",
    "utf-8",
    "=E2=80=AE",
    "4oCuQm9i",
    "\u{212A}",
    "\u{202E}",
    "\u{200B}",
    "\u{FEFF}",
    "ｋ",
    "В",
    "o",
    "(",
    ")",
    ";",
    "=",
    "header.d=",
    "dkim=pass",
    "spf=fail",
    "dmarc=pass",
    "header.from=",
    ".",
    " ",
    "\u{308}",
    "\u{130}",
];

proptest::proptest! {
    #![proptest_config(proptest::prelude::ProptestConfig { cases: 512, ..Default::default() })]

    /// Whatever a stranger writes as an address, a name or an Authentication-Results
    /// header: no panic, and a canonical address is its own canonical form.
    #[test]
    fn identity_readers_never_panic(
        parts in proptest::collection::vec(proptest::sample::select(PIECES), 0..24),
        noise in ".{0,24}",
    ) {
        let text = format!("{}{noise}", parts.concat());
        if let Ok(a) = castellan_judge::canonical_address(&text) {
            proptest::prop_assert_eq!(castellan_judge::canonical_address(&a), Ok(a.clone()));
        }
        let _ = castellan_judge::clean_name(&text);
        let _ = castellan_judge::names_alike(&text, "Bob");
        if let Some(r) = castellan_judge::AuthenticationResults::parse(&text) {
            let _ = r.forged(&text);
            let _ = r.forged("anna@example.org");
        }
        let raw = format!("From: {text}\r\nReply-To: a@b.c\r\n\r\nHELP\r\n");
        let _ = parse(raw.as_bytes(), 4096);
    }
}
