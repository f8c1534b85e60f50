//! One small mail from a stranger cost seconds of CPU and gigabytes of memory: a mail of
//! 20 CREATE lines hashed 140 Argon2id passwords (19 MiB each; glibc kept the freed
//! blocks resident: 2.1 GB). Now the judge's own passwords are kept by keyed hash, a mail
//! costs at most one Argon2id computation, and its memory is one buffer reused by the
//! thread. Counted here with a counting allocator (this test binary's global allocator),
//! at the judge's default cost: allocations of 1 MiB or more.

mod common;
use common::*;
use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicUsize, Ordering::SeqCst};

struct Counting;

/// Allocations of at least `BIG` bytes, by any thread of this binary.
static BIG_ALLOCATIONS: AtomicUsize = AtomicUsize::new(0);
const BIG: usize = 1 << 20;

unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, l: Layout) -> *mut u8 {
        if l.size() >= BIG {
            BIG_ALLOCATIONS.fetch_add(1, SeqCst);
        }
        unsafe { System.alloc(l) }
    }
    unsafe fn alloc_zeroed(&self, l: Layout) -> *mut u8 {
        if l.size() >= BIG {
            BIG_ALLOCATIONS.fetch_add(1, SeqCst);
        }
        unsafe { System.alloc_zeroed(l) }
    }
    unsafe fn dealloc(&self, p: *mut u8, l: Layout) {
        unsafe { System.dealloc(p, l) }
    }
    unsafe fn realloc(&self, p: *mut u8, l: Layout, new: usize) -> *mut u8 {
        if new >= BIG {
            BIG_ALLOCATIONS.fetch_add(1, SeqCst);
        }
        unsafe { System.realloc(p, l, new) }
    }
}

#[global_allocator]
static ALLOC: Counting = Counting;

/// The judge at its default Argon2id cost (19 MiB, 2 passes).
fn default_cost() -> Judge {
    judge_with(JudgeConfig {
        password_memory_kib: JudgeConfig::default().password_memory_kib,
        password_iterations: JudgeConfig::default().password_iterations,
        ..config()
    })
}

/// One test only in this binary: the count is of the whole process.
#[test]
fn a_mail_costs_at_most_one_argon2id_buffer() {
    let mut w = World::new(default_cost());
    // 20 CREATE lines, each naming two players and a join password of the game master's
    // choosing: one is hashed (Argon2id), the others are refused and say why.
    let body: String = (0..20)
        .map(|i| {
            format!("CREATE race seats=3 password=castle{i} player=A{i}:a{i}@example.org player=B{i}:b{i}@example.org\n")
        })
        .collect();
    let before = BIG_ALLOCATIONS.load(SeqCst);
    let out = w.send(GM, "new games", &body);
    let big = BIG_ALLOCATIONS.load(SeqCst) - before;
    assert!(big <= 1, "{big} allocations of 1 MiB or more");
    let b = &reply_to(&out, GM).body;
    assert!(
        b.contains("one game with a join password of your choosing per mail"),
        "{b}"
    );
    assert!(w.store.game("race-1").unwrap().is_some());
    assert!(w.store.game("race-2").unwrap().is_none());
    // Without password= the judge draws the join passwords: 20 games, no Argon2id.
    let body: String = (0..20)
        .map(|i| format!("CREATE race seats=3 player=C{i}:c{i}@example.org\n"))
        .collect();
    let before = BIG_ALLOCATIONS.load(SeqCst);
    w.send(GM, "new games", &body);
    assert_eq!(BIG_ALLOCATIONS.load(SeqCst) - before, 0);
    assert!(w.store.game("race-21").unwrap().is_some());
    // 20 JOIN guesses: one checked, in the buffer already there.
    let guesses: String = (0..20).map(|i| format!("JOIN race-1 guess{i}\n")).collect();
    let before = BIG_ALLOCATIONS.load(SeqCst);
    let out = w.send("eve@example.org", "join", &guesses);
    assert_eq!(BIG_ALLOCATIONS.load(SeqCst) - before, 0);
    assert!(reply_to(&out, "eve@example.org")
        .body
        .contains("one password"));
}
