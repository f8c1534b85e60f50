//! A slice of `simulate --by-mail`'s seeds goes through the whole shell (sled,
//! the Maildir, the file outbox's .eml files parsed back, src/play/mailsim/shell.rs). Here a
//! Castle Risk game and a Castello game through the shell keep every promise, and the
//! shell and the pure judge, given the same seed and index, send the very same mails.

use castellan::play::mailsim::post::{Delivered, Post, Pure};
use castellan::play::mailsim::shell::Shell;
use castellan::play::mailsim::{judge, play_with, GameRun};
use castellan_judge::{Env, Outbound, Store};
use std::sync::{Arc, Mutex};

/// Events per game: enough for the set-up and a few turns, deadlines and reminders.
const EVENTS: usize = 150;

/// A [`Post`] that keeps every mail the judge sent through it.
struct Recorded {
    inner: Box<dyn Post>,
    mails: Arc<Mutex<Vec<Outbound>>>,
}

impl Post for Recorded {
    fn deliver(&mut self, raw: &[u8], env: &Env) -> Result<Delivered, String> {
        let d = self.inner.deliver(raw, env)?;
        self.mails.lock().unwrap().extend(d.out.iter().cloned());
        Ok(d)
    }
    fn tick(&mut self, env: &Env) -> Result<Vec<Outbound>, String> {
        let out = self.inner.tick(env)?;
        self.mails.lock().unwrap().extend(out.iter().cloned());
        Ok(out)
    }
    fn store(&self) -> &dyn Store {
        self.inner.store()
    }
}

fn play(seed: u64, index: usize, post: Box<dyn Post>) -> (GameRun, Vec<Outbound>) {
    let mails = Arc::new(Mutex::new(Vec::new()));
    let run = play_with(
        seed,
        index,
        EVENTS,
        Box::new(Recorded {
            inner: post,
            mails: mails.clone(),
        }),
    );
    let mails = std::mem::take(&mut *mails.lock().unwrap());
    (run, mails)
}

fn same_game_both_ways(seed: u64, index: usize, kind: &str) {
    let start = std::time::Instant::now();
    let shell = Shell::new().expect("the shell opens");
    let dir = shell.dir().to_path_buf();
    let (by_shell, shell_mails) = play(seed, index, Box::new(shell));
    let shell_time = start.elapsed();
    assert!(!dir.exists(), "the shell's data folder is removed on drop");
    let start = std::time::Instant::now();
    let (pure, pure_mails) = play(seed, index, Box::new(Pure::new(judge())));
    eprintln!(
        "seed {seed} game #{index} ({}): {} mails in, {} out, {} ticks; shell {:.2?}, pure {:.2?}",
        by_shell.game,
        by_shell.mails_in,
        by_shell.mails_out,
        by_shell.ticks,
        shell_time,
        start.elapsed()
    );
    assert!(by_shell.game.starts_with(kind), "{}", by_shell.game);
    let broken: Vec<String> = by_shell.violations.iter().map(|v| v.to_string()).collect();
    assert!(
        broken.is_empty(),
        "through the shell:\n{}",
        broken.join("\n")
    );
    assert!(pure.violations.is_empty(), "pure: {:?}", pure.violations);
    assert!(by_shell.mails_out > 10, "the game went on: {by_shell:?}");
    // Reports with their picture went through multipart/alternative and back.
    let with_html = shell_mails.iter().filter(|m| m.html.is_some()).count();
    let with_token = shell_mails
        .iter()
        .filter(|m| m.headers.iter().any(|(n, _)| n == "X-Castellan-Token"))
        .count();
    eprintln!("  {with_html} mails with an HTML part, {with_token} with X-Castellan-Token");
    assert!(with_html > 0 && with_token > 0);
    // The same mails, field by field, in the same order: the rendering and parsing back
    // lose nothing a player reads (line ends aside: the wire's CRLF read back as LF, as
    // the judge writes them), and sled, the journal and the Maildir change nothing the
    // judge decides.
    for (i, (s, p)) in shell_mails.iter().zip(&pure_mails).enumerate() {
        assert_eq!(
            s, p,
            "mail {i} of the game differs (left: shell, right: pure)"
        );
    }
    assert_eq!(shell_mails.len(), pure_mails.len());
    assert_eq!(
        (
            by_shell.game,
            by_shell.finished,
            by_shell.capped,
            by_shell.mails_in,
            by_shell.mails_out,
            by_shell.ticks
        ),
        (
            pure.game,
            pure.finished,
            pure.capped,
            pure.mails_in,
            pure.mails_out,
            pure.ticks
        )
    );
}

#[test]
fn castle_risk_through_the_shell_keeps_its_promises_and_matches_the_pure_judge() {
    same_game_both_ways(1, 0, "castle-risk");
}

#[test]
fn castello_through_the_shell_keeps_its_promises_and_matches_the_pure_judge() {
    same_game_both_ways(1, 3, "castello");
}
