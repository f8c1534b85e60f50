//! The doctor's mail checks: the inbox (Maildir or IMAP) and the outbox (sendmail, SMTP
//! or a folder), each server reached and greeted, never sent to.

use super::{fail, ok, writable, Check, NET_TIMEOUT};
use crate::config::{Config, InboundKind, OutboundKind};
use std::io::{BufRead, BufReader, Write};
use std::net::{TcpStream, ToSocketAddrs};

pub(super) fn inbox(c: &Config) -> Vec<Check> {
    let mut out = Vec::new();
    let dir = c.inbox_path();
    if !dir.exists() {
        out.push(ok(
            "inbox",
            format!(
                "Maildir {} is made on the first serve or ingest",
                dir.display()
            ),
        ));
    } else {
        let mut problems = Vec::new();
        for sub in ["new", "cur", "tmp"] {
            let d = dir.join(sub);
            if !d.is_dir() {
                problems.push(format!("{} is missing or not a folder", d.display()));
            } else if let Err(e) = writable(&d) {
                problems.push(format!("{} is not writable: {e}", d.display()));
            }
        }
        if problems.is_empty() {
            let waiting = std::fs::read_dir(dir.join("new"))
                .map(|rd| rd.count())
                .unwrap_or(0);
            out.push(ok(
                "inbox",
                format!("Maildir {}: {waiting} message(s) waiting", dir.display()),
            ));
        } else {
            out.push(fail(
                "inbox",
                problems.join("; "),
                format!(
                    "make {0}/new, {0}/cur and {0}/tmp folders owned by the user that runs castellan (and that the MTA's pipe runs as)",
                    dir.display()
                ),
            ));
        }
    }
    match c.inbound.kind {
        InboundKind::Imap => out.push(imap(c)),
        InboundKind::None => out.push(ok(
            "inbox",
            "fed by `castellan ingest` only (inbound.kind: none)",
        )),
        InboundKind::Maildir => {}
    }
    out
}

fn imap(c: &Config) -> Check {
    let i = &c.inbound.imap;
    let tls = match i.tls {
        true => castellan_mail::ImapTls::Tls {
            ca_file: i.ca_file.clone(),
        },
        false => castellan_mail::ImapTls::None,
    };
    let rt = match tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
    {
        Ok(rt) => rt,
        Err(e) => return fail("imap", e.to_string(), "try again"),
    };
    let r = rt.block_on(async {
        tokio::time::timeout(
            NET_TIMEOUT,
            castellan_mail::ImapInbox::connect(
                &i.host,
                i.port,
                &tls,
                &i.user,
                &i.password,
                &i.mailbox,
            ),
        )
        .await
    });
    match r {
        Ok(Ok(inbox)) => {
            let _ = rt.block_on(inbox.logout());
            ok(
                "imap",
                format!("{}:{} logged in as {}, mailbox {}", i.host, i.port, i.user, i.mailbox),
            )
        }
        Ok(Err(e)) => fail(
            "imap",
            format!("{}:{}: {e}", i.host, i.port),
            "check inbound.imap.host, port, tls, user, password and mailbox (docs/config.md), and that the server runs",
        ),
        Err(_) => fail(
            "imap",
            format!("{}:{}: no answer in {}s", i.host, i.port, NET_TIMEOUT.as_secs()),
            "check inbound.imap.host and port, and the firewall",
        ),
    }
}

pub(super) fn outbox(c: &Config) -> Vec<Check> {
    let o = &c.outbound;
    match o.kind {
        OutboundKind::File => {
            let dir = c.outbox_path();
            let check = if !dir.exists() {
                ok(
                    "transport",
                    format!("file outbox {} is made on the first reply", dir.display()),
                )
            } else if !dir.is_dir() {
                fail(
                    "transport",
                    format!("{} is not a folder", dir.display()),
                    "set outbound.dir to a folder, or move the file away",
                )
            } else {
                match writable(&dir) {
                    Ok(()) => ok(
                        "transport",
                        format!("file outbox {} is writable", dir.display()),
                    ),
                    Err(e) => fail(
                        "transport",
                        format!("{} is not writable: {e}", dir.display()),
                        "give the folder to the user that runs castellan",
                    ),
                }
            };
            vec![check]
        }
        OutboundKind::Sendmail => {
            let p = &o.sendmail;
            let exec = std::fs::metadata(p).map(|m| {
                use std::os::unix::fs::PermissionsExt;
                m.is_file() && m.permissions().mode() & 0o111 != 0
            });
            vec![match exec {
                Ok(true) => ok("transport", format!("sendmail program {} is there", p.display())),
                Ok(false) => fail(
                    "transport",
                    format!("{} is not an executable file", p.display()),
                    "set outbound.sendmail to the MTA's sendmail (Postfix and Exim: /usr/sbin/sendmail)",
                ),
                Err(e) => fail(
                    "transport",
                    format!("{}: {e}", p.display()),
                    "install the MTA (apt-get install postfix) or set outbound.sendmail to its sendmail program",
                ),
            }]
        }
        OutboundKind::Smtp => vec![smtp(&o.smtp.host, o.smtp.port, &o.smtp.security)],
    }
}

/// Connects, reads the greeting and (plain and STARTTLS) says EHLO; never sends mail.
fn smtp(host: &str, port: u16, security: &str) -> Check {
    let fix =
        "check outbound.smtp.host, port and security (docs/config.md), and that the relay runs";
    let addrs: Vec<_> = match (host, port).to_socket_addrs() {
        Ok(a) => a.collect(),
        Err(e) => return fail("smtp", format!("{host}:{port}: {e}"), fix),
    };
    let Some(addr) = addrs.first() else {
        return fail("smtp", format!("{host}:{port}: no address"), fix);
    };
    let stream = match TcpStream::connect_timeout(addr, NET_TIMEOUT) {
        Ok(s) => s,
        Err(e) => return fail("smtp", format!("{host}:{port}: {e}"), fix),
    };
    let sec = security.to_lowercase();
    if sec == "tls" || sec == "smtps" {
        return ok(
            "smtp",
            format!("{host}:{port} accepts connections (TLS from the first byte: the handshake is tried at the first reply)"),
        );
    }
    let _ = stream.set_read_timeout(Some(NET_TIMEOUT));
    let _ = stream.set_write_timeout(Some(NET_TIMEOUT));
    let mut w = match stream.try_clone() {
        Ok(w) => w,
        Err(e) => return fail("smtp", e.to_string(), fix),
    };
    let mut r = BufReader::new(stream);
    let read_reply = |r: &mut BufReader<TcpStream>| -> Result<(String, String), String> {
        let mut all = String::new();
        loop {
            let mut line = String::new();
            match r.read_line(&mut line) {
                Ok(0) => return Err("the server closed the connection".into()),
                Ok(_) => {}
                // A relay that takes the connection and says nothing: what hangs a drain.
                Err(e)
                    if matches!(
                        e.kind(),
                        std::io::ErrorKind::WouldBlock | std::io::ErrorKind::TimedOut
                    ) =>
                {
                    return Err(format!(
                        "the relay took the connection but did not answer within {} s \
                         (a relay that hangs: each drain waits outbound.smtp.timeout_seconds)",
                        NET_TIMEOUT.as_secs()
                    ))
                }
                Err(e) => return Err(e.to_string()),
            }
            all.push_str(&line);
            if line.len() < 4 || line.as_bytes()[3] != b'-' {
                return Ok((line.get(..3).unwrap_or("").to_string(), all));
            }
        }
    };
    match read_reply(&mut r) {
        Ok((code, _)) if code == "220" => {}
        Ok((_, text)) => {
            return fail(
                "smtp",
                format!("{host}:{port} greets with: {}", text.trim()),
                fix,
            )
        }
        Err(e) => return fail("smtp", format!("{host}:{port}: {e}"), fix),
    }
    if w.write_all(b"EHLO castellan-doctor\r\n").is_err() {
        return fail("smtp", format!("{host}:{port}: cannot write"), fix);
    }
    let ehlo = read_reply(&mut r);
    let _ = w.write_all(b"QUIT\r\n");
    match ehlo {
        Ok((code, text)) if code == "250" => {
            if sec == "starttls" && !text.to_uppercase().contains("STARTTLS") {
                fail(
                    "smtp",
                    format!("{host}:{port} does not offer STARTTLS"),
                    "use the relay's submission port (587), or security: none for a relay on 127.0.0.1",
                )
            } else {
                ok("smtp", format!("{host}:{port} answers EHLO ({sec})"))
            }
        }
        Ok((_, text)) => fail(
            "smtp",
            format!("{host}:{port} refuses EHLO: {}", text.trim()),
            fix,
        ),
        Err(e) => fail("smtp", format!("{host}:{port}: {e}"), fix),
    }
}
