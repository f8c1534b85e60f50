//! Every command line of docs/operating.md (the indented command blocks, and the fenced
//! blocks made of commands) is run, in the order the page gives them, in a scratch root:
//! three hosts (the judge's, "the other judge" a game or campaign moves to, and "the new
//! host" the whole judge moves to), each with its own /etc/castellan and
//! /var/lib/castellan mapped into a temporary folder. `castellan` is the
//! real binary; `sudo -u castellan` runs the command as is; `systemctl` is a stand-in that
//! fails on a unit the package does not ship; `dpkg`, `scp` and `install` stand in for the
//! package's install (scripts/check-deb.sh checks the package itself), the copy between
//! hosts and the ownership of files. A line that fails, or a line that neither runs nor is
//! named below as checked elsewhere, fails the test.

use std::path::{Path, PathBuf};
use std::process::Command;

/// Lines the page shows that run elsewhere, and where.
const ELSEWHERE: &[(&str, &str)] = &[(
    "bash scripts/build-deb.sh",
    "scripts/check-deb.sh (run by scripts/test) builds the package with it",
)];

/// The command lines of `markdown`, in order, each with the host it runs on (0: the
/// judge's, 1: the other judge, 2: the new host).
fn command_lines(markdown: &str) -> Vec<(String, usize)> {
    let mut lines = Vec::new();
    let mut fence: Option<Vec<String>> = None;
    let mut prose = String::new();
    for line in markdown.lines() {
        if line.starts_with("```") {
            match fence.take() {
                Some(block) => {
                    if block.iter().all(|l| is_command(l)) {
                        lines.extend(block.into_iter().map(|l| (l, other_host(&prose, ""))));
                    }
                }
                None if line.trim() == "```" => fence = Some(Vec::new()),
                None => fence = Some(vec!["(not a command block)".into()]),
            }
            continue;
        }
        if let Some(block) = fence.as_mut() {
            block.push(line.to_string());
        } else if let Some(cmd) = line.strip_prefix("    ") {
            if !cmd.starts_with(' ') && !cmd.trim().is_empty() {
                lines.push((cmd.to_string(), other_host(&prose, cmd)));
            }
        } else if !line.trim().is_empty() {
            if line.starts_with('#') || prose.ends_with("\n\n") {
                prose.clear();
            }
            prose.push_str(line);
            prose.push('\n');
        } else {
            prose.push('\n');
        }
    }
    lines
}

fn is_command(line: &str) -> bool {
    let first = line.split_whitespace().next().unwrap_or("");
    ["systemctl", "sudo", "dpkg"].contains(&first)
        || (first == "castellan" && line.split_whitespace().nth(1).is_some_and(|w| w != "unix"))
}

/// The host a line runs on: the other judge if its comment says so, the new host if the
/// paragraph before its block does, else the judge's.
fn other_host(prose: &str, line: &str) -> usize {
    if line.contains("# on the other judge") {
        1
    } else if prose.contains("On the new host") {
        2
    } else {
        0
    }
}

/// A host: /etc/castellan and /var/lib/castellan of its own, and a working folder.
struct Host {
    root: PathBuf,
}

impl Host {
    fn new(root: &Path) -> Host {
        for d in ["etc", "data", "cwd"] {
            std::fs::create_dir_all(root.join(d)).unwrap();
        }
        std::fs::write(
            root.join("etc/castellan.yaml"),
            // The same file on every host (a relative data_dir, from the working folder), as
            // /etc/castellan/castellan.yaml is the same on the old host and the new.
            format!(
                "data_dir: ../data\ntemplates_dir: {}/crates/judge/templates\n\
                 judge:\n  address: judge@example.org\n  domain: example.org\n",
                env!("CARGO_MANIFEST_DIR")
            ),
        )
        .unwrap();
        Host {
            root: root.to_path_buf(),
        }
    }

    /// `line` with the package's paths moved into this host.
    fn rewrite(&self, line: &str) -> String {
        let line = line.split(" # ").next().unwrap().trim_end();
        line.replace("[FILE]", "")
            .replace("/usr/bin/castellan", "castellan")
            .replace("/etc/castellan", &format!("{}/etc", self.root.display()))
            .replace(
                "/var/lib/castellan",
                &format!("{}/data", self.root.display()),
            )
    }
}

/// Stand-ins for what a scratch root cannot do, and the real binary, first on PATH.
fn stand_ins(dir: &Path, other: &Path) -> PathBuf {
    let bin = dir.join("bin");
    std::fs::create_dir_all(&bin).unwrap();
    std::os::unix::fs::symlink(env!("CARGO_BIN_EXE_castellan"), bin.join("castellan")).unwrap();
    let contrib = concat!(env!("CARGO_MANIFEST_DIR"), "/contrib");
    let scripts = [
        // Every unit named must be one the package ships.
        (
            "systemctl",
            format!(
                "for a; do case \"$a\" in -*|enable|start|stop|reload|restart|disable) ;;\n\
                 *) u=\"${{a%.service}}\"; case \"$u\" in *.timer) f=\"$u\";; *@*) f=\"${{u%%@*}}@.service\";; *) f=\"$u.service\";; esac\n\
                 [ -f {contrib}/\"$f\" ] || {{ echo \"no unit $a in contrib/\" >&2; exit 1; }};; esac; done"
            ),
        ),
        ("sudo", "[ \"$1\" = -u ] && shift 2; exec \"$@\"".to_string()),
        ("dpkg", "exit 0".to_string()),
        (
            "scp",
            format!(
                "for a; do case \"$a\" in *:) ;; *) cp \"$a\" {}/cwd/;; esac; done",
                other.display()
            ),
        ),
        (
            "install",
            "args=; while [ $# -gt 0 ]; do case \"$1\" in -o|-g) shift 2;; *) args=\"$args $1\"; shift;; esac; done\n\
             exec /usr/bin/install $args"
                .to_string(),
        ),
    ];
    for (name, body) in scripts {
        let p = bin.join(name);
        std::fs::write(&p, format!("#!/bin/sh\n{body}\n")).unwrap();
        Command::new("chmod").arg("+x").arg(&p).status().unwrap();
    }
    bin
}

const MAIL: &str = "From: Ann <ann@example.org>\r\nTo: judge@example.org\r\nSubject: hi\r\n\
Message-ID: <doc-1@example.org>\r\n\r\nLIST\r\n";

#[test]
fn every_command_line_of_operating_md_runs_in_a_scratch_root() {
    let page =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/docs/operating.md")).unwrap();
    let lines = command_lines(&page);
    assert!(lines.len() >= 20, "too few command lines found: {lines:#?}");
    let tmp = tempfile::tempdir().unwrap();
    let hosts = ["judge", "other", "new"].map(|h| Host::new(&tmp.path().join(h)));
    let bin = stand_ins(tmp.path(), &hosts[2].root);
    let a = &hosts[0];
    let path = format!("{}:{}", bin.display(), std::env::var("PATH").unwrap());
    let run = |host: &Host, line: &str| {
        let mut child = Command::new("sh")
            .arg("-c")
            .arg(line)
            .current_dir(host.root.join("cwd"))
            .env("PATH", &path)
            .env("CASTELLAN_CONFIG", host.root.join("etc/castellan.yaml"))
            .env_remove("CASTELLAN_LOG_FILE")
            .stdin(std::process::Stdio::piped())
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::piped())
            .spawn()
            .unwrap();
        use std::io::Write;
        let _ = child.stdin.take().unwrap().write_all(MAIL.as_bytes());
        child.wait_with_output().unwrap()
    };
    // The judge the page speaks of has games (castle-1, castle-2) and a league's folder.
    for _ in 0..2 {
        let out = run(
            a,
            "castellan game new --game castle-risk --player Ann=ann@example.org \
             --player Bob=bob@example.org --gm gm@example.org",
        );
        assert!(out.status.success(), "{out:?}");
    }
    std::fs::create_dir_all(a.root.join("data/league")).unwrap();
    let mut ran = 0;
    for (line, on_other) in &lines {
        if let Some((_, why)) = ELSEWHERE.iter().find(|(l, _)| line.starts_with(l)) {
            assert!(!why.is_empty());
            continue;
        }
        let host = &hosts[*on_other];
        if *on_other == 1 {
            // The file an export wrote, carried to the other judge.
            for f in std::fs::read_dir(a.root.join("cwd")).unwrap() {
                let f = f.unwrap().path();
                std::fs::copy(&f, host.root.join("cwd").join(f.file_name().unwrap())).unwrap();
            }
        }
        let shell = host.rewrite(line);
        let out = run(host, &shell);
        assert!(
            out.status.success(),
            "docs/operating.md: `{line}` (run as `{shell}`) failed:\n{}{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        );
        ran += 1;
    }
    assert!(ran >= 20, "{ran} lines run");
    // The move: the new host holds the same games and outbox as the old.
    for cmd in [
        "castellan game list",
        "castellan outbox",
        "castellan game export castle-1",
    ] {
        let on = |h: &Host| String::from_utf8(run(h, cmd).stdout).unwrap();
        assert_eq!(on(a), on(&hosts[2]), "{cmd}");
    }
}

#[test]
fn the_reader_finds_command_blocks_and_skips_configuration() {
    let md = "Intro.\n\n    castellan doctor\n\n```\ncastellan unix - n n - - pipe\n```\n\n\
              ```\nsystemctl stop castellan; castellan compact\n```\n\n\
              ```yaml\ndata_dir: x\n```\n\nOn the new host, then:\n\n    castellan game list\n";
    let lines = command_lines(md);
    assert_eq!(
        lines,
        vec![
            ("castellan doctor".to_string(), 0),
            ("systemctl stop castellan; castellan compact".to_string(), 0),
            ("castellan game list".to_string(), 2),
        ]
    );
}
