//! "One small mail from a stranger costs seconds of CPU and gigabytes of memory" and
//! "one stranger mail makes the judge mail thousands who never asked": the real binary
//! (`castellan ingest` as an MTA pipe runs it, `serve --once` for a flood), on a fresh data
//! directory on the embedded defaults (sled on disk, the Maildir, .eml files out), under
//! the bounds docs/security.md states:
//!
//! * the peak RSS of a pass stays under 128 MiB whatever the mails (measured per child
//!   process with `wait4`'s resource usage, not guessed);
//! * one stranger mail makes the judge write to at most 8 addresses besides its writer.
//!
//! No wall-clock time is asserted: `scripts/attack-figures.sh` prints the CPU figures.

use std::path::Path;
use std::process::Command;

/// The bound on one pass's peak resident memory (docs/security.md).
const PEAK_RSS_MIB: i64 = 128;
/// The bound on the addresses one stranger mail makes the judge write to.
const STRANGER_MAILS: usize = 8;

/// Run the binary with `args` on data directory `dir`; its peak RSS in MiB. The child is
/// reaped by `wait4` (for its own resource usage), not by `Child::wait`.
#[allow(clippy::zombie_processes)]
fn peak_rss_of(dir: &Path, args: &[&str]) -> i64 {
    let child = Command::new(env!("CARGO_BIN_EXE_castellan"))
        .args(["--config", "/dev/null", "--data-dir"])
        .arg(dir)
        .args(args)
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .expect("castellan starts");
    let pid = child.id() as libc::pid_t;
    let mut status = 0;
    // SAFETY: an all-zero rusage is a valid value for wait4 to fill in.
    let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
    // SAFETY: `pid` is our own child, not waited for yet; the pointers are to locals.
    let got = unsafe { libc::wait4(pid, &mut status, 0, &mut usage) };
    assert_eq!(got, pid, "wait4 on castellan failed");
    assert!(
        libc::WIFEXITED(status) && libc::WEXITSTATUS(status) == 0,
        "castellan {args:?} exited with status {status}"
    );
    usage.ru_maxrss / 1024
}

/// A raw mail from `from` with `body`.
fn mail(from: &str, subject: &str, id: &str, body: &str) -> String {
    format!(
        "From: {from}\r\nTo: judge@castellan.invalid\r\nSubject: {subject}\r\nMessage-ID: <{id}@evil.example>\r\nDate: Sat, 28 Nov 2026 03:00:00 +0000\r\n\r\n{body}"
    )
}

/// The addresses of the mails in the outbox, but `writer`.
fn others_mailed(dir: &Path, writer: &str) -> Vec<String> {
    let mut out = Vec::new();
    let Ok(entries) = std::fs::read_dir(dir.join("mail/outbox")) else {
        return out;
    };
    for e in entries.flatten() {
        let text = std::fs::read_to_string(e.path()).unwrap_or_default();
        if let Some(to) = text.lines().find_map(|l| l.strip_prefix("To: ")) {
            let to = to.trim().to_lowercase();
            if !to.contains(writer) && !out.contains(&to) {
                out.push(to);
            }
        }
    }
    out
}

fn ingest(dir: &Path, name: &str, raw: &str) -> i64 {
    let file = dir.with_extension(format!("{name}.eml"));
    std::fs::write(&file, raw).unwrap();
    peak_rss_of(dir, &["ingest", file.to_str().unwrap()])
}

#[test]
fn a_stranger_mail_of_20_create_lines_is_bounded_in_memory_and_in_mails() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("data");
    let body: String = (0..20)
        .map(|i| {
            let players: Vec<String> = (0..6)
                .map(|p| format!("player=P{p}_{i}:p{p}_{i}@victims.example"))
                .collect();
            format!("CREATE risk {}\n", players.join(" "))
        })
        .collect();
    let raw = mail("stranger@evil.example", "hello", "c20", &body);
    let rss = ingest(&dir, "c20", &raw);
    assert!(
        rss <= PEAK_RSS_MIB,
        "a 20-CREATE mail took {rss} MiB (at most {PEAK_RSS_MIB})"
    );
    let mailed = others_mailed(&dir, "stranger@evil.example");
    assert!(
        mailed.len() <= STRANGER_MAILS,
        "one stranger mail made the judge write to {} addresses: {mailed:?}",
        mailed.len()
    );
}

#[test]
fn a_stranger_tournament_line_of_60_kb_is_bounded_in_memory_and_in_mails() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("data");
    let players: Vec<String> = (0..3900).map(|i| format!("P{i}:p{i}@x.io")).collect();
    let body = format!(
        "CAMPAIGN NEW Cup tournament=risk players={}\n",
        players.join(",")
    );
    let raw = mail("stranger@evil.example", "hello", "t64", &body);
    let rss = ingest(&dir, "t64", &raw);
    assert!(
        rss <= PEAK_RSS_MIB,
        "a 60 KB tournament line took {rss} MiB (at most {PEAK_RSS_MIB})"
    );
    let mailed = others_mailed(&dir, "stranger@evil.example");
    assert!(
        mailed.len() <= STRANGER_MAILS,
        "one stranger mail made the judge write to {} addresses",
        mailed.len()
    );
}

#[test]
fn a_flood_forged_in_a_players_name_is_bounded_in_memory_and_never_locks_the_player_out() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("data");
    let status = Command::new(env!("CARGO_BIN_EXE_castellan"))
        .args(["--config", "/dev/null", "--data-dir"])
        .arg(&dir)
        .args([
            "game",
            "new",
            "--game",
            "castle-risk",
            "--gm",
            "gm@castellan.test",
            "--player",
            "Alice=alice@castellan.test",
            "--player",
            "Bob=bob@castellan.test",
        ])
        .output()
        .unwrap();
    assert!(status.status.success(), "{status:?}");
    // Alice's password, from her welcome.
    let password = std::fs::read_dir(dir.join("mail/outbox"))
        .unwrap()
        .flatten()
        .map(|e| std::fs::read_to_string(e.path()).unwrap())
        .filter(|t| t.contains("To: alice@castellan.test"))
        .find_map(|t| {
            t.lines()
                .find_map(|l| l.strip_prefix("Your password: "))
                .map(|p| p.trim().to_string())
        })
        .expect("Alice's welcome carries her password");
    std::fs::remove_dir_all(dir.join("mail/outbox")).unwrap();
    let new = dir.join("mail/inbox/new");
    std::fs::create_dir_all(&new).unwrap();
    for i in 0..1000 {
        let guess = format!("{i:06}").replace(|c: char| c.is_ascii_digit(), "a");
        let raw = mail(
            "alice@castellan.test",
            &format!("[castle-1 #{guess}{i}] [castle-1 #x{i}]"),
            &format!("flood{i}"),
            "STATUS\n",
        );
        std::fs::write(new.join(format!("flood{i}.eml")), raw).unwrap();
    }
    let rss = peak_rss_of(&dir, &["serve", "--once"]);
    assert!(
        rss <= PEAK_RSS_MIB,
        "a pass over a 1,000-mail flood took {rss} MiB (at most {PEAK_RSS_MIB})"
    );
    std::fs::remove_dir_all(dir.join("mail/outbox")).unwrap();
    // Alice's own mail, with her password, in the same hour: read and answered (the
    // flood's wrong tokens lock only the tokens from her address, docs/security.md).
    let raw = mail(
        "alice@castellan.test",
        "Re: [castle-1] Turn 1",
        "real",
        &format!("GAME castle-1 {password}\nSTATUS\n"),
    );
    ingest(&dir, "real", &raw);
    let answers: Vec<String> = std::fs::read_dir(dir.join("mail/outbox"))
        .unwrap()
        .flatten()
        .map(|e| std::fs::read_to_string(e.path()).unwrap())
        .filter(|t| t.contains("To: alice@castellan.test"))
        .collect();
    assert_eq!(answers.len(), 1, "Alice's mail is answered once");
    assert!(
        !answers[0].contains("Too many mails")
            && !answers[0].contains("Nothing in this mail was read"),
        "Alice's own mail was refused after the flood:\n{}",
        answers[0]
    );
}
