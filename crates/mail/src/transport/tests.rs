use super::*;

/// A batch's temporary file left by a process that died is swept once it is old; a
/// young one (another process's batch) and the mails are left alone.
#[test]
fn stale_temporary_files_are_swept_and_nothing_else() {
    let tmp = tempfile::tempdir().unwrap();
    let t = Transport::File {
        dir: tmp.path().to_path_buf(),
    };
    let stale = tmp.path().join(".r1@judge.example.eml.4242.0.tmp");
    let young = tmp.path().join(".r2@judge.example.eml.4243.0.tmp");
    let mail = tmp.path().join("r3@judge.example.eml");
    for p in [&stale, &young, &mail] {
        std::fs::write(p, b"x").unwrap();
    }
    let hour_ago = std::time::SystemTime::now() - Duration::from_secs(3600);
    for p in [&stale, &mail] {
        std::fs::File::options()
            .write(true)
            .open(p)
            .unwrap()
            .set_modified(hour_ago)
            .unwrap();
    }
    assert_eq!(t.sweep_stale(Duration::from_secs(600)).unwrap(), 1);
    assert!(!stale.exists() && young.exists() && mail.exists());
}

fn mail(to: &str) -> OutgoingMail {
    OutgoingMail {
        html: None,
        headers: Vec::new(),
        message_id: "<r1/x@judge.example>".into(),
        from: "judge@judge.example".into(),
        to: to.into(),
        subject: "s".into(),
        body: "b".into(),
        in_reply_to: None,
        references: vec![],
        attachments: Vec::new(),
    }
}

#[test]
fn eml_names_are_safe() {
    assert_eq!(
        eml_file_name("<r1/x@judge.example>"),
        "r1_x@judge.example.eml"
    );
    assert_eq!(eml_file_name("<../../etc>"), "_.._.._etc.eml");
    assert_eq!(eml_file_name("<>"), "_.eml");
}

#[tokio::test]
async fn file_transport_writes_one_eml_and_no_temp_file() {
    let dir = tempfile::tempdir().unwrap();
    let t = Transport::File {
        dir: dir.path().join("out"),
    };
    t.send(&mail("alice@example.org"), 0).await.unwrap();
    let names: Vec<String> = std::fs::read_dir(dir.path().join("out"))
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    assert_eq!(names, ["r1_x@judge.example.eml"]);
    let bytes = std::fs::read(dir.path().join("out/r1_x@judge.example.eml")).unwrap();
    assert_eq!(bytes, crate::render(&mail("alice@example.org"), 0));
}

#[tokio::test]
async fn bad_address_is_permanent() {
    let dir = tempfile::tempdir().unwrap();
    let t = Transport::File {
        dir: dir.path().to_path_buf(),
    };
    let e = t.send(&mail("nobody"), 0).await.unwrap_err();
    assert!(!e.is_transient(), "{e}");
}

#[tokio::test]
async fn refused_connection_is_transient() {
    // a port nothing listens on: bind, read the port, close
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port();
    let t = Transport::Smtp {
        host: "127.0.0.1".into(),
        port,
        security: SmtpSecurity::None,
        user: None,
        password: None,
        ca_file: None,
        timeout: Duration::from_secs(60),
    };
    let e = t.send(&mail("alice@example.org"), 0).await.unwrap_err();
    assert!(e.is_transient(), "{e}");
}

/// A relay that accepts the connection and never says a word (lettre's bug 1027:
/// its timeout covers the connect only) fails the mail, transiently, within the
/// session's deadline; the rest of the batch fails at once.
#[tokio::test]
async fn a_relay_that_never_answers_times_out_within_the_deadline() {
    let port = crate::silent_server();
    let deadline = Duration::from_millis(500);
    let t = Transport::Smtp {
        host: "127.0.0.1".into(),
        port,
        security: SmtpSecurity::None,
        user: None,
        password: None,
        ca_file: None,
        timeout: deadline,
    };
    // a generous outer bound, only so that a hang fails instead of stalling CI
    let outer = deadline * 10;
    let mut mailer = t.mailer();
    let e = tokio::time::timeout(outer, mailer.send(&mail("alice@example.org"), 0))
        .await
        .expect("send did not return within 10x its deadline")
        .unwrap_err();
    assert!(
        e.is_transient() && e.to_string().contains("no answer"),
        "{e}"
    );
    let e = tokio::time::timeout(outer, mailer.send(&mail("bob@example.org"), 0))
        .await
        .expect("the second send did not return")
        .unwrap_err();
    assert!(e.is_transient(), "{e}");
}

#[tokio::test]
async fn an_unusable_ca_file_is_permanent_and_named_before_connecting() {
    // nothing listens on the port: the CA file is refused before any connection
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port();
    let dir = tempfile::tempdir().unwrap();
    let not_pem = dir.path().join("not-a-ca.pem");
    std::fs::write(&not_pem, "hello\n").unwrap();
    for (security, ca_file) in [
        (SmtpSecurity::StartTls, dir.path().join("missing.pem")),
        (SmtpSecurity::Tls, not_pem),
    ] {
        let t = Transport::Smtp {
            host: "127.0.0.1".into(),
            port,
            security,
            user: None,
            password: None,
            ca_file: Some(ca_file.clone()),
            timeout: Duration::from_secs(60),
        };
        let e = t.send(&mail("alice@example.org"), 0).await.unwrap_err();
        assert!(!e.is_transient(), "{e}");
        assert!(
            e.to_string()
                .contains(&format!("CA file {}", ca_file.display())),
            "{e}"
        );
    }
}

#[tokio::test]
async fn sendmail_gets_the_envelope_and_the_rendered_bytes() {
    use std::os::unix::fs::PermissionsExt;
    let dir = tempfile::tempdir().unwrap();
    let cmd = dir.path().join("fake-sendmail");
    let script = format!(
        "#!/bin/sh\necho \"$@\" > {d}/args\ncat > {d}/stdin\n",
        d = dir.path().display()
    );
    std::fs::write(&cmd, script).unwrap();
    std::fs::set_permissions(&cmd, std::fs::Permissions::from_mode(0o755)).unwrap();
    let t = Transport::Sendmail { command: cmd };
    t.send(&mail("Alice <alice@example.org>"), 7).await.unwrap();
    let args = std::fs::read_to_string(dir.path().join("args")).unwrap();
    assert_eq!(
        args.trim(),
        "-i -f judge@judge.example -- alice@example.org"
    );
    let sent = std::fs::read(dir.path().join("stdin")).unwrap();
    assert_eq!(sent, crate::render(&mail("Alice <alice@example.org>"), 7));
}

#[tokio::test]
async fn failing_sendmail_is_transient() {
    let t = Transport::Sendmail {
        command: "/bin/false".into(),
    };
    let e = t.send(&mail("alice@example.org"), 0).await.unwrap_err();
    assert!(e.is_transient(), "{e}");
}
