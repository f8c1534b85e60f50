//! Password hashes, of two kinds:
//!
//! * a secret a person chose (a join password given in CREATE) is kept by Argon2id
//!   (RFC 9106) with the judge's parameters (`password_*` in the config), stored as
//!   `argon2id$v=19$m=M,t=T,p=P$SALT$HASH` (salt and hash in hex): slow, since a chosen
//!   secret may be weak or used elsewhere;
//! * a secret the judge drew (seat, game master, campaign and drawn join passwords: 8
//!   letters of 31, about 40 bits) is kept by a keyed hash, `hmac-sha256$HASH`:
//!   HMAC-SHA256 keyed by the game's (or campaign's) salt, 32 bytes drawn from the
//!   handling's entropy that only the database holds. Checking it costs microseconds, so
//!   a mail can prove its seat before it is judged (docs/security.md says why the key is
//!   enough).
//!
//! Hashes of the earlier formats still verify and are replaced at the next good login:
//! one round of salted SHA-256 (the game's salt), and Argon2id hashes of drawn secrets.
//! Argon2id works in one block buffer per thread, kept and reused (`BLOCKS`): however
//! many hashes a process computes, its memory is that of the largest one.

use crate::config::JudgeConfig;
use argon2::{Algorithm, Argon2, Block, Params, Version};
use castellan_engine::dice::sha256;
use hmac::{Hmac, Mac};
use std::cell::RefCell;

/// The prefix of a keyed hash.
const KEYED: &str = "hmac-sha256$";

/// The keyed hash of a drawn secret: HMAC-SHA256, keyed by the salt of its game (or
/// campaign), of a domain tag and the secret.
pub(crate) fn keyed(salt: &str, pw: &str) -> String {
    let mut mac = match Hmac::<sha2::Sha256>::new_from_slice(salt.as_bytes()) {
        Ok(m) => m,
        // HMAC takes a key of any length: never reached.
        Err(_) => return String::new(),
    };
    mac.update(b"castellan drawn secret v1\n");
    mac.update(pw.as_bytes());
    format!("{KEYED}{}", hex::encode(mac.finalize().into_bytes()))
}

/// Does checking `stored` cost an Argon2id computation?
pub(crate) fn is_slow(stored: &str) -> bool {
    stored.starts_with("argon2id$")
}

/// How a secret should be kept: by keyed hash (the judge drew it) or Argon2id at the
/// config's cost (a person chose it).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Kind {
    Drawn,
    Chosen(Cost),
}

thread_local! {
    /// Argon2id's memory, reused by every hash of this thread (freed 19 MiB
    /// blocks stayed resident, 2.1 GB for one mail of 140 hashes).
    static BLOCKS: RefCell<Vec<Block>> = const { RefCell::new(Vec::new()) };
}

/// The old format: SHA-256 hex of `salt ":" password`, the game's salt.
pub(crate) fn legacy_hash(salt: &str, pw: &str) -> String {
    hex::encode(sha256(format!("{salt}:{pw}").as_bytes()))
}

/// Argon2id parameters (memory in KiB, iterations, lanes).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Cost {
    pub m: u32,
    pub t: u32,
    pub p: u32,
}

impl Cost {
    pub(crate) fn of(c: &JudgeConfig) -> Cost {
        Cost {
            m: c.password_memory_kib,
            t: c.password_iterations,
            p: c.password_lanes,
        }
    }
}

fn argon(cost: Cost, pw: &str, salt: &[u8]) -> Option<[u8; 32]> {
    let params = Params::new(cost.m, cost.t, cost.p, Some(32)).ok()?;
    let n = params.block_count();
    let mut out = [0u8; 32];
    BLOCKS.with(|b| {
        let mut blocks = b.try_borrow_mut().ok()?;
        let have = blocks.len();
        if have < n {
            blocks.try_reserve_exact(n - have).ok()?;
            blocks.resize(n, Block::default());
        }
        Argon2::new(Algorithm::Argon2id, Version::V0x13, params)
            .hash_password_into_with_memory(pw.as_bytes(), salt, &mut out, &mut blocks[..n])
            .ok()
    })?;
    Some(out)
}

/// A new hash of `pw` with a 16-byte `salt` (fresh, from the handling's entropy).
/// Parameters the argon2 crate refuses fall back to its smallest legal ones (the config is
/// checked at start; this keeps the judge total).
pub(crate) fn hash(cost: Cost, salt: &[u8; 32], pw: &str) -> String {
    let salt = &salt[..16];
    let cost = if argon(cost, "", salt).is_some() {
        cost
    } else {
        Cost {
            m: 8 * cost.p.clamp(1, 16),
            t: cost.t.max(1),
            p: cost.p.clamp(1, 16),
        }
    };
    let h = argon(cost, pw, salt).unwrap_or([0; 32]);
    format!(
        "argon2id$v=19$m={},t={},p={}${}${}",
        cost.m,
        cost.t,
        cost.p,
        hex::encode(salt),
        hex::encode(h)
    )
}

/// Does `pw` match `stored`? `Upgrade`: it does, and the hash should be replaced (the old
/// format, or other parameters than the config's).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Verdict {
    No,
    Yes,
    Upgrade,
}

/// Does `pw` match `stored` (`game_salt`: the salt of its game or campaign)? `want` is how
/// the secret should be kept: `Upgrade` when it matches but is kept otherwise (an earlier
/// format, or Argon2id parameters other than the config's).
pub(crate) fn verify(stored: &str, game_salt: &str, pw: &str, want: Kind) -> Verdict {
    let good = |kept_as_wanted: bool| {
        if kept_as_wanted {
            Verdict::Yes
        } else {
            Verdict::Upgrade
        }
    };
    if stored.starts_with(KEYED) {
        return match same(stored, &keyed(game_salt, pw)) {
            false => Verdict::No,
            true => good(want == Kind::Drawn),
        };
    }
    if let Some(rest) = stored.strip_prefix("argon2id$v=19$") {
        let mut parts = rest.split('$');
        let (Some(params), Some(salt), Some(hash), None) =
            (parts.next(), parts.next(), parts.next(), parts.next())
        else {
            return Verdict::No;
        };
        let mut got = Cost { m: 0, t: 0, p: 0 };
        for kv in params.split(',') {
            match kv.split_once('=') {
                Some(("m", v)) => got.m = v.parse().unwrap_or(0),
                Some(("t", v)) => got.t = v.parse().unwrap_or(0),
                Some(("p", v)) => got.p = v.parse().unwrap_or(0),
                _ => return Verdict::No,
            }
        }
        let Ok(salt) = hex::decode(salt) else {
            return Verdict::No;
        };
        // A stored cost far above any sane setting is refused rather than computed.
        if got.m > 4 * 1024 * 1024 || got.t > 64 {
            return Verdict::No;
        }
        let Some(h) = argon(got, pw, &salt) else {
            return Verdict::No;
        };
        return match same(hash, &hex::encode(h)) {
            false => Verdict::No,
            true => good(want == Kind::Chosen(got)),
        };
    }
    if same(stored, &legacy_hash(game_salt, pw)) {
        Verdict::Upgrade
    } else {
        Verdict::No
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const SMALL: Cost = Cost { m: 8, t: 1, p: 1 };

    #[test]
    fn argon2id_hashes_verify_and_old_hashes_ask_for_an_upgrade() {
        let h = hash(SMALL, &[7; 32], "secret");
        assert!(h.starts_with("argon2id$v=19$m=8,t=1,p=1$07070707"), "{h}");
        let chosen = Kind::Chosen(SMALL);
        assert_eq!(verify(&h, "", "secret", chosen), Verdict::Yes);
        assert_eq!(verify(&h, "", "Secret", chosen), Verdict::No);
        // Other parameters in the config: still good, and to be rehashed.
        let other = Kind::Chosen(Cost { m: 16, ..SMALL });
        assert_eq!(verify(&h, "", "secret", other), Verdict::Upgrade);
        // A drawn secret kept by Argon2id (the format of old): to be rekeyed.
        assert_eq!(verify(&h, "", "secret", Kind::Drawn), Verdict::Upgrade);
        let old = legacy_hash("salt", "secret");
        assert_eq!(verify(&old, "salt", "secret", chosen), Verdict::Upgrade);
        assert_eq!(verify(&old, "salt", "nope", chosen), Verdict::No);
        assert_eq!(verify("", "salt", "", chosen), Verdict::No);
        assert_eq!(
            verify("argon2id$v=19$m=8$zz$zz", "", "x", chosen),
            Verdict::No
        );
    }

    /// A keyed hash opens with its own salt only, and says nothing of the password.
    #[test]
    fn keyed_hashes_verify_with_their_salt_only() {
        let h = keyed("salt-a", "k3j9xqpa");
        assert!(h.starts_with("hmac-sha256$") && h.len() == 12 + 64, "{h}");
        assert!(!h.contains("k3j9xqpa"));
        assert_eq!(verify(&h, "salt-a", "k3j9xqpa", Kind::Drawn), Verdict::Yes);
        assert_eq!(verify(&h, "salt-b", "k3j9xqpa", Kind::Drawn), Verdict::No);
        assert_eq!(verify(&h, "salt-a", "k3j9xqpb", Kind::Drawn), Verdict::No);
        assert_eq!(
            verify(&h, "salt-a", "k3j9xqpa", Kind::Chosen(SMALL)),
            Verdict::Upgrade
        );
        assert!(!is_slow(&h) && is_slow(&hash(SMALL, &[1; 32], "x")));
    }

    /// HMAC-SHA256 as RFC 4231 test case 2 has it: the keyed hash is the standard one.
    #[test]
    fn hmac_sha256_is_rfc_4231s() {
        let mut mac = Hmac::<sha2::Sha256>::new_from_slice(b"Jefe").unwrap();
        mac.update(b"what do ya want for nothing?");
        assert_eq!(
            hex::encode(mac.finalize().into_bytes()),
            "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843"
        );
    }

    /// Two hashes of different costs in a row use one buffer, and give what a fresh
    /// buffer gives.
    #[test]
    fn the_reused_block_buffer_gives_the_same_hashes() {
        let a = hash(Cost { m: 64, t: 1, p: 1 }, &[3; 32], "pw");
        let b = hash(SMALL, &[3; 32], "pw");
        assert_eq!(
            verify(&a, "", "pw", Kind::Chosen(Cost { m: 64, t: 1, p: 1 })),
            Verdict::Yes
        );
        assert_eq!(verify(&b, "", "pw", Kind::Chosen(SMALL)), Verdict::Yes);
        let params = Params::new(64, 1, 1, Some(32)).unwrap();
        let mut out = [0u8; 32];
        Argon2::new(Algorithm::Argon2id, Version::V0x13, params)
            .hash_password_into(b"pw", &[3; 16], &mut out)
            .unwrap();
        assert!(a.ends_with(&hex::encode(out)), "{a}");
    }

    /// RFC 9106's parameters are the crate's; this pins our use of them (Argon2id, v=19,
    /// 32-byte output) to a value computed once: a change would lock every player out.
    #[test]
    fn the_hash_of_a_known_password_is_stable() {
        let h = hash(SMALL, &[1; 32], "password");
        assert_eq!(h, hash(SMALL, &[1; 32], "password"));
        assert_ne!(h, hash(SMALL, &[2; 32], "password"));
        assert_eq!(h.len(), "argon2id$v=19$m=8,t=1,p=1$".len() + 32 + 1 + 64);
    }
}

/// Compare a secret (a password hash, a token) with what was given in time that does not
/// depend on where they first differ. Empty never matches (an open seat has no secret).
pub(crate) fn same(secret: &str, given: &str) -> bool {
    let (a, b) = (secret.as_bytes(), given.as_bytes());
    if a.is_empty() || a.len() != b.len() {
        return false;
    }
    a.iter().zip(b).fold(0u8, |acc, (x, y)| acc | (x ^ y)) == 0
}

#[cfg(test)]
mod same_tests {
    use super::same;

    /// Tokens are compared in constant time; and an empty secret (an open seat)
    /// never matches.
    #[test]
    fn secrets_match_only_when_equal_and_not_empty() {
        assert!(same("k3j9x", "k3j9x"));
        assert!(!same("k3j9x", "k3j9y"));
        assert!(!same("k3j9x", "k3j9"));
        assert!(!same("", ""));
    }
}
