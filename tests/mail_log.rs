//! One log line per mail, as Postfix writes one per message, and one per reply sent or
//! parked (src/serve/maillog.rs): the real binary takes a Maildir of mails (a CREATE that
//! makes a game, a LIST, a second copy of the CREATE, a message that is not a mail) with
//! `serve --once`, logging to a file, and the log names each mail's queue id, Message-ID,
//! sender (or its digest, with `log.addresses: hashed`), the games it touched, the
//! outcome and the replies queued; each reply sent has its line; and at `debug` the storage
//! library says nothing.

use std::path::Path;
use std::process::Command;

const CREATE: &str = "From: Gemma <gemma@example.org>\r\nTo: judge@castellan.invalid\r\n\
Subject: new game\r\nMessage-ID: <create-1@example.org>\r\n\r\n\
CREATE castle-risk player=Anna:anna@example.org player=Bob:bob@example.org\r\n";
const LIST: &str = "From: Ann <ann@example.org>\r\nTo: judge@castellan.invalid\r\n\
Subject: hi\r\nMessage-ID: <list-1@example.org>\r\n\r\nLIST\r\n";

/// `mails` (name, text) put in the Maildir's new/ under `dir`, then `serve --once` with
/// `config_extra` and the filter `filter`; the log file's lines.
fn serve_once_log(
    dir: &Path,
    config_extra: &str,
    filter: &str,
    mails: &[(&str, &str)],
) -> Vec<String> {
    let new = dir.join("mail/inbox/new");
    std::fs::create_dir_all(&new).unwrap();
    for d in ["cur", "tmp"] {
        std::fs::create_dir_all(dir.join("mail/inbox").join(d)).unwrap();
    }
    for (name, text) in mails {
        std::fs::write(new.join(name), text).unwrap();
    }
    let cfg = dir.join("castellan.yaml");
    std::fs::write(
        &cfg,
        format!(
            "data_dir: {}\ntemplates_dir: {}/crates/judge/templates\n{config_extra}",
            dir.display(),
            env!("CARGO_MANIFEST_DIR")
        ),
    )
    .unwrap();
    let log = dir.join("castellan.log");
    let out = Command::new(env!("CARGO_BIN_EXE_castellan"))
        .arg("--config")
        .arg(&cfg)
        .args(["serve", "--once"])
        .env("CASTELLAN_LOG", filter)
        .env("CASTELLAN_LOG_FILE", &log)
        .output()
        .unwrap();
    assert!(out.status.success(), "{out:?}");
    std::fs::read_to_string(&log)
        .unwrap()
        .lines()
        .map(str::to_string)
        .collect()
}

fn mail_lines(log: &[String]) -> Vec<&String> {
    log.iter()
        .filter(|l| l.contains("castellan::mail: mail "))
        .collect()
}

#[test]
fn each_mail_gets_one_line_with_its_id_sender_games_outcome_and_replies() {
    let tmp = tempfile::tempdir().unwrap();
    let mails = [
        ("1700000001.M1P1.host", CREATE),
        ("1700000002.M2P1.host", LIST),
        ("1700000003.M3P1.host", CREATE),
        ("1700000004.M4P1.host", "\u{0}\u{1}not a mail at all"),
    ];
    let log = serve_once_log(tmp.path(), "", "info", &mails);
    let lines = mail_lines(&log);
    assert_eq!(lines.len(), 4, "one line a mail: {log:#?}");
    let line_of = |queue_id: &str| {
        let found: Vec<_> = lines
            .iter()
            .filter(|l| l.contains(&format!("queue_id={queue_id} ")))
            .collect();
        assert_eq!(found.len(), 1, "{queue_id}: {log:#?}");
        found[0].to_string()
    };
    let create = line_of("1700000001.M1P1.host");
    assert!(
        create.contains("message_id=<create-1@example.org>"),
        "{create}"
    );
    assert!(create.contains("from=gemma@example.org"), "{create}");
    assert!(create.contains("games=castle-1 "), "{create}");
    assert!(create.contains("outcome=create"), "{create}");
    let replies: usize = field(&create, "replies").parse().unwrap();
    assert!(replies >= 1, "{create}");
    // Postfix's lines carry the time: so do these, in a file.
    assert!(create.starts_with("20"), "{create}");
    let list = line_of("1700000002.M2P1.host");
    assert!(
        list.contains("from=ann@example.org") && list.contains("games=- "),
        "{list}"
    );
    assert!(list.contains("replies=1"), "{list}");
    let again = line_of("1700000003.M3P1.host");
    assert!(
        again.contains("outcome=duplicate") && again.contains("replies=0"),
        "{again}"
    );
    assert!(
        again.contains("message_id=<create-1@example.org>"),
        "{again}"
    );
    let junk = line_of("1700000004.M4P1.host");
    assert!(junk.contains("outcome=unreadable"), "{junk}");
    // One line per reply sent, naming it and its recipient.
    let sent: Vec<_> = log.iter().filter(|l| l.contains("reply sent")).collect();
    assert_eq!(sent.len(), replies + 1, "{log:#?}");
    assert!(
        sent.iter().any(|l| l.contains("to=ann@example.org")),
        "{sent:#?}"
    );
}

#[test]
fn addresses_are_hashed_when_the_configuration_says_so() {
    let tmp = tempfile::tempdir().unwrap();
    let log = serve_once_log(
        tmp.path(),
        "log:\n  addresses: hashed\n",
        "info",
        &[("1700000002.M2P1.host", LIST)],
    );
    let lines = mail_lines(&log);
    assert_eq!(lines.len(), 1, "{log:#?}");
    assert!(lines[0].contains("from=sha256:"), "{}", lines[0]);
    assert!(
        !log.iter().any(|l| l.contains("ann@example.org")),
        "an address in the log: {log:#?}"
    );
}

#[test]
fn at_debug_the_storage_library_is_silent_unless_asked() {
    let tmp = tempfile::tempdir().unwrap();
    let log = serve_once_log(tmp.path(), "", "debug", &[("1700000002.M2P1.host", LIST)]);
    assert_eq!(mail_lines(&log).len(), 1, "{log:#?}");
    let sled: Vec<_> = log.iter().filter(|l| l.contains(" sled::")).collect();
    assert!(sled.is_empty(), "sled's own lines at debug: {sled:#?}");
    let tmp = tempfile::tempdir().unwrap();
    let log = serve_once_log(tmp.path(), "", "debug,sled=debug", &[]);
    assert!(
        log.iter().any(|l| l.contains(" sled::")),
        "asked for: {log:#?}"
    );
}

fn field<'a>(line: &'a str, key: &str) -> &'a str {
    let start = line.find(&format!("{key}=")).unwrap() + key.len() + 1;
    line[start..].split(' ').next().unwrap()
}
