//! The kill -9 soak: the real binary killed at random moments during `serve`,
//! `ingest` and `recover`, with injected disk-full (`CASTELLAN_FAULT=disk-full-journal`,
//! `disk-full-flush`), crashes between a mail's acknowledgement and its commit
//! (`after-acknowledge`) and a database deleted or zeroed now and then (then `recover`).
//! The MTA's part is played by the test: a mail whose `ingest` did not exit 0 is delivered
//! again later. A mail is acknowledged once its journal entry is durable, so what was
//! acknowledged and not committed is a pending entry, rolled forward at the next open or
//! pass. At the end: 0 accepted mails lost, 0 acknowledged mails (in cur/) not applied
//! (no pending entry left behind), 0 applied twice (each mail has exactly one reply
//! Message-ID: a resend keeps its Message-ID, a second application would make a new one),
//! 0 replies lost, 0 databases that do not open after `recover`.
//!
//! Short form in the suite; `cargo test -p castellan --test soak -- --ignored` runs the
//! long one.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::Duration;

struct Rng(u64);
impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
}

struct Soak {
    dir: PathBuf,
    cfg: PathBuf,
    rng: Rng,
    next: u32,
    /// Mails the "MTA" still has to deliver (no `ingest` of them exited 0 yet).
    pending: BTreeSet<u32>,
    accepted: BTreeSet<u32>,
    unopenable_after_recover: usize,
    kills: usize,
    tempfails: usize,
}

fn bin() -> Command {
    Command::new(env!("CARGO_BIN_EXE_castellan"))
}

fn letter(n: u32) -> Vec<u8> {
    // One sender per mail: the rate limit is not what is tested here.
    format!(
        "From: p{n}@example.org\r\nTo: judge@castellan.invalid\r\nSubject: hi\r\n\
         Message-ID: <soak-{n}@example.org>\r\n\r\nLIST\r\n"
    )
    .into_bytes()
}

impl Soak {
    fn new(dir: &Path, seed: u64) -> Soak {
        let cfg = dir.join("castellan.yaml");
        std::fs::write(
            &cfg,
            format!(
                "data_dir: {}\ntick_seconds: 1\nbackup:\n  every_hours: 1\n  keep: 2\n",
                dir.display()
            ),
        )
        .unwrap();
        Soak {
            dir: dir.to_path_buf(),
            cfg,
            rng: Rng(seed | 1),
            next: 0,
            pending: BTreeSet::new(),
            accepted: BTreeSet::new(),
            unopenable_after_recover: 0,
            kills: 0,
            tempfails: 0,
        }
    }

    fn cmd(&self, args: &[&str], fault: Option<&str>) -> Command {
        let mut c = bin();
        c.arg("--config").arg(&self.cfg).args(args);
        c.stdout(Stdio::null()).stderr(Stdio::null());
        if let Some(f) = fault {
            c.env("CASTELLAN_FAULT", f);
        }
        c
    }

    fn spawn_ingest(&mut self, n: u32, fault: Option<&str>) -> Child {
        let msg = self.dir.join(format!("msg-{n}.eml"));
        std::fs::write(&msg, letter(n)).unwrap();
        self.cmd(&["ingest", msg.to_str().unwrap()], fault)
            .spawn()
            .unwrap()
    }

    fn settle_ingest(&mut self, n: u32, mut child: Child, kill_after: Option<u64>) {
        if let Some(ms) = kill_after {
            std::thread::sleep(Duration::from_millis(ms));
            if child.try_wait().unwrap().is_none() {
                let _ = child.kill(); // SIGKILL
                self.kills += 1;
            }
        }
        let status = child.wait().unwrap();
        match status.code() {
            Some(0) => {
                self.pending.remove(&n);
                self.accepted.insert(n);
            }
            Some(75) => self.tempfails += 1,
            _ => {}
        }
    }

    /// A few mails, each possibly with a disk-full fault or killed.
    fn ingest_some(&mut self) {
        let k = 1 + self.rng.below(4) as u32;
        let mut mails: Vec<u32> = (0..k)
            .map(|_| {
                self.next += 1;
                self.pending.insert(self.next);
                self.next
            })
            .collect();
        // Retry one the MTA kept, now and then.
        if let Some(&old) = self.pending.iter().next() {
            if !mails.contains(&old) && self.rng.below(2) == 0 {
                mails.push(old);
            }
        }
        for n in mails {
            let fault = match self.rng.below(8) {
                0 => Some("disk-full-journal"),
                1 => Some("disk-full-flush"),
                2 => Some("after-acknowledge"),
                _ => None,
            };
            let kill = (self.rng.below(4) == 0).then(|| self.rng.below(150));
            let child = self.spawn_ingest(n, fault);
            self.settle_ingest(n, child, kill);
        }
    }

    fn serve_and_kill(&mut self) {
        let fault = (self.rng.below(5) == 0).then_some("disk-full-flush");
        let mut child = self.cmd(&["serve"], fault).spawn().unwrap();
        // Some mail while it runs: ingest leaves it to the daemon.
        self.ingest_some();
        std::thread::sleep(Duration::from_millis(50 + self.rng.below(400)));
        let _ = child.kill();
        let _ = child.wait();
        self.kills += 1;
    }

    fn opens(&self) -> bool {
        self.cmd(&["outbox"], None).status().unwrap().success()
    }

    fn recover(&mut self, kill_first: bool) {
        if kill_first {
            let mut child = self.cmd(&["recover"], None).spawn().unwrap();
            std::thread::sleep(Duration::from_millis(self.rng.below(300)));
            let _ = child.kill();
            let _ = child.wait();
            self.kills += 1;
        }
        let mut c = self.cmd(&["recover"], None);
        c.stderr(Stdio::piped()).stdout(Stdio::piped());
        let out = c.output().unwrap();
        if !out.status.success() || !self.opens() {
            eprintln!(
                "recover failed: {}{}",
                String::from_utf8_lossy(&out.stdout),
                String::from_utf8_lossy(&out.stderr)
            );
            let mut o = self.cmd(&["outbox"], None);
            o.stderr(Stdio::piped());
            eprintln!(
                "open: {}",
                String::from_utf8_lossy(&o.output().unwrap().stderr)
            );
            self.unopenable_after_recover += 1;
        }
    }

    fn damage(&mut self) {
        let db = self.dir.join("db");
        match self.rng.below(3) {
            0 => {
                let _ = std::fs::remove_dir_all(&db);
            }
            1 => {
                if let Ok(m) = std::fs::metadata(db.join("db")) {
                    std::fs::write(db.join("db"), vec![0u8; m.len() as usize]).unwrap();
                }
            }
            _ => {
                if let Ok(f) = std::fs::File::options().write(true).open(db.join("db")) {
                    let len = f.metadata().unwrap().len();
                    f.set_len(len / 2).unwrap();
                }
            }
        }
        let kill = self.rng.below(2) == 0;
        self.recover(kill);
    }

    fn round(&mut self) {
        match self.rng.below(10) {
            0..=4 => self.ingest_some(),
            5..=7 => self.serve_and_kill(),
            _ => self.damage(),
        }
    }

    /// The MTA delivers what it kept; a last `serve --once` drains the inbox and outbox.
    fn finish(&mut self) {
        if !self.opens() {
            self.recover(false);
        }
        for _ in 0..20 {
            let left: Vec<u32> = self.pending.iter().copied().collect();
            if left.is_empty() {
                break;
            }
            for n in left {
                let child = self.spawn_ingest(n, None);
                self.settle_ingest(n, child, None);
            }
        }
        assert!(self.pending.is_empty(), "the MTA could deliver every mail");
        assert!(self
            .cmd(&["serve", "--once"], None)
            .status()
            .unwrap()
            .success());
    }

    /// The soak's mails acknowledged (in the inbox's cur/), by number.
    fn acknowledged(&self) -> BTreeSet<u32> {
        std::fs::read_dir(self.dir.join("mail/inbox/cur"))
            .unwrap()
            .flatten()
            .filter_map(|e| {
                let text = std::fs::read_to_string(e.path()).ok()?;
                let id = text
                    .lines()
                    .find_map(|l| l.strip_prefix("Message-ID: <soak-"))?;
                id.strip_suffix("@example.org>")?.parse().ok()
            })
            .collect()
    }

    /// Reply Message-IDs by the mail they answer (from the file outbox).
    fn replies(&self) -> BTreeMap<String, BTreeSet<String>> {
        let mut out: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
        for e in std::fs::read_dir(self.dir.join("mail/outbox"))
            .unwrap()
            .flatten()
        {
            let text = std::fs::read_to_string(e.path()).unwrap();
            let header = |name: &str| {
                text.lines()
                    .find(|l| l.to_ascii_lowercase().starts_with(name))
                    .map(|l| l[name.len()..].trim().to_string())
            };
            if let (Some(to), Some(id)) = (header("in-reply-to:"), header("message-id:")) {
                out.entry(to).or_default().insert(id);
            }
        }
        out
    }
}

fn soak(rounds: usize, seed: u64) {
    let tmp = tempfile::tempdir().unwrap();
    let mut s = Soak::new(tmp.path(), seed);
    for _ in 0..rounds {
        s.round();
    }
    s.finish();
    let replies = s.replies();
    let acknowledged = s.acknowledged();
    let store = castellan::store::SledStore::open(&tmp.path().join("db")).unwrap();
    let mut lost = Vec::new();
    let mut twice = Vec::new();
    let mut no_reply = Vec::new();
    for &n in &s.accepted {
        let id = format!("<soak-{n}@example.org>");
        if !store.handled_message_id(&id).unwrap() {
            lost.push(n);
        }
        match replies.get(&id).map(|r| r.len()) {
            None | Some(0) => no_reply.push(n),
            Some(1) => {}
            Some(_) => twice.push(n),
        }
    }
    let not_applied: Vec<u32> = acknowledged
        .iter()
        .copied()
        .filter(|n| {
            !store
                .handled_message_id(&format!("<soak-{n}@example.org>"))
                .unwrap()
        })
        .collect();
    let waiting = store.outbox().unwrap().len();
    eprintln!(
        "soak seed {seed}: {} rounds, {} mails accepted, {} kills, {} exits 75",
        rounds,
        s.accepted.len(),
        s.kills,
        s.tempfails
    );
    assert!(s.accepted.len() > rounds / 4, "the soak accepted mail");
    assert_eq!(lost, Vec::<u32>::new(), "accepted mails lost");
    assert!(!acknowledged.is_empty(), "the soak acknowledged mail");
    assert_eq!(
        not_applied,
        Vec::<u32>::new(),
        "acknowledged mails never applied (a pending entry left behind)"
    );
    assert_eq!(twice, Vec::<u32>::new(), "mails applied twice");
    assert_eq!(no_reply, Vec::<u32>::new(), "replies lost");
    assert_eq!(waiting, 0, "every reply sent");
    assert_eq!(
        s.unopenable_after_recover, 0,
        "databases unopenable after recover"
    );
}

#[test]
fn kill_9_soak_short() {
    soak(25, 0x5eed_0001);
}

#[test]
#[ignore = "long: cargo test -p castellan --test soak -- --ignored"]
fn kill_9_soak_long() {
    for seed in 1..=8 {
        soak(150, 0x5eed_1000 + seed);
    }
}
