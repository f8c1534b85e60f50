//! What the judge's [`castellan_judge::Env`] is made of: the time and fresh entropy, each
//! injectable so tests, the demo and the benchmark run on a fake clock and a seed.

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;

/// The wall clock, injectable so tests and the benchmark can run on a fake one.
pub type Clock = Arc<dyn Fn() -> i64 + Send + Sync>;

pub fn system_clock() -> Clock {
    Arc::new(|| {
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map(|d| d.as_secs() as i64)
            .unwrap_or(0)
    })
}

/// Where fresh randomness for game secrets, passwords and tokens comes from: the OS, or
/// (demo, bench, tests) a seed, so a run can be repeated exactly, or (the simulation
/// through the shell, src/play/mailsim/shell.rs) the bytes its caller hands the judge: set
/// before each pass, so the shell draws what the pure judge is given.
pub enum Entropy {
    Os,
    Seeded { seed: u64, drawn: AtomicU64 },
    Fixed([u8; 32]),
}

impl Entropy {
    pub fn seeded(seed: u64) -> Entropy {
        Entropy::Seeded {
            seed,
            drawn: AtomicU64::new(0),
        }
    }
    pub fn draw(&self) -> [u8; 32] {
        match self {
            Entropy::Os => rand::random(),
            Entropy::Seeded { seed, drawn } => {
                let n = drawn.fetch_add(1, Ordering::Relaxed);
                castellan_engine::dice::sha256(format!("castellan-entropy/{seed}/{n}").as_bytes())
            }
            Entropy::Fixed(bytes) => *bytes,
        }
    }
}
