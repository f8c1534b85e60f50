//! Auditable randomness: public dice from a per-turn hash chain, secret card draws
//! from a separate stream. The algorithm is spelled out in docs/dice.md; keep both in step.
//!
//! * A game has a 32-byte master secret `M` (drawn by the judge, never shown while the game runs).
//! * Public chain, epoch `e` (turns `e*CHAIN_LEN+1 ..= (e+1)*CHAIN_LEN`):
//!   top `S_L = HMAC-SHA256(M, "castellan/chain/" || e)`, `S_{k} = SHA-256(S_{k+1})`,
//!   commitment `S_0 = SHA-256(S_1)`. Turn `n` (1-based, `k = n - e*CHAIN_LEN`) uses `S_k`.
//! * Turn `n` dice: ChaCha20 keyed by `HMAC-SHA256(S_k, game_id || "|" || n || "|dice")`.
//! * A die with `s` sides: take the next `u32` of that stream; reject it while
//!   `x >= 2^32 - (2^32 mod s)`; the face is `x mod s + 1`.
//! * Secret draws (shuffles, deals, card draws): ChaCha20 keyed by
//!   `HMAC-SHA256(M, "castellan/cards/" || game_id)`, committed as its SHA-256 at creation and
//!   revealed only when the game ends. Same rejection rule for `below(n)`.

use hmac::{Hmac, Mac};
use rand::RngCore;
use rand::SeedableRng;
use rand_chacha::ChaCha20Rng;
use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};

/// Turns covered by one committed hash chain.
pub const CHAIN_LEN: u32 = 1000;

/// Links of a chain kept: every `CHECKPOINT`-th (`S_0`, `S_25`, ..., `S_L`), so any link is
/// at most 24 hashes from one kept.
const CHECKPOINT: usize = 25;
const _: () = assert!((CHAIN_LEN as usize).is_multiple_of(CHECKPOINT));

/// The most chains [`chain_checkpoints`] keeps (1.3 KB each); past it, it starts afresh.
const CHAINS_KEPT: usize = 1024;

/// Every [`CHECKPOINT`]-th link of the chain whose top is `top` (`[i]` = `S_{i*CHECKPOINT}`).
/// A chain is 1,000 hashes, and a game is loaded again for every mail: each chain is
/// computed once in the process and kept, by its top (a pure function of it: what it
/// keeps changes no result, only how soon it comes).
fn chain_checkpoints(top: [u8; 32]) -> std::sync::Arc<Vec<[u8; 32]>> {
    use std::collections::HashMap;
    use std::sync::{Arc, Mutex, OnceLock};
    type Kept = Mutex<HashMap<[u8; 32], Arc<Vec<[u8; 32]>>>>;
    static KEPT: OnceLock<Kept> = OnceLock::new();
    let kept = KEPT.get_or_init(Default::default);
    let lock = || kept.lock().unwrap_or_else(|e| e.into_inner());
    if let Some(links) = lock().get(&top) {
        return links.clone();
    }
    let len = CHAIN_LEN as usize;
    let mut links = vec![[0u8; 32]; len / CHECKPOINT + 1];
    let mut s = top;
    for k in (0..=len).rev() {
        // s = S_k
        if k % CHECKPOINT == 0 {
            links[k / CHECKPOINT] = s;
        }
        if k > 0 {
            s = sha256(&s);
        }
    }
    let links = Arc::new(links);
    let mut kept = lock();
    if kept.len() >= CHAINS_KEPT {
        kept.clear();
    }
    kept.insert(top, links.clone());
    links
}

type HmacSha256 = Hmac<Sha256>;

/// 32 bytes, written as lowercase hex in JSON and in reports.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Secret(pub [u8; 32]);

impl Secret {
    pub fn hex(&self) -> String {
        hex::encode(self.0)
    }
    pub fn from_hex(s: &str) -> Option<Secret> {
        let v = hex::decode(s.trim()).ok()?;
        let a: [u8; 32] = v.try_into().ok()?;
        Some(Secret(a))
    }
    /// Derive a 32-byte secret from arbitrary bytes (used by tests, `simulate --seed`).
    pub fn derive(label: &[u8]) -> Secret {
        Secret(sha256(label))
    }
}

impl std::fmt::Debug for Secret {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        // Never print a secret by accident (logs, panics).
        write!(f, "Secret(…)")
    }
}

impl Serialize for Secret {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(&self.hex())
    }
}
impl<'de> Deserialize<'de> for Secret {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let s = String::deserialize(d)?;
        Secret::from_hex(&s).ok_or_else(|| serde::de::Error::custom("expected 64 hex digits"))
    }
}

pub fn sha256(data: &[u8]) -> [u8; 32] {
    let mut h = Sha256::new();
    h.update(data);
    h.finalize().into()
}

pub fn hmac(key: &[u8], msg: &[u8]) -> [u8; 32] {
    let mut m = <HmacSha256 as Mac>::new_from_slice(key).expect("HMAC takes any key length");
    m.update(msg);
    m.finalize().into_bytes().into()
}

/// A salted commitment to a short secret text (hidden-army territory, headquarters):
/// `SHA-256(salt_hex || ":" || text)` in hex. Reveal `salt` and `text` to open it.
pub fn commit_text(salt: &Secret, text: &str) -> String {
    hex::encode(sha256(format!("{}:{}", salt.hex(), text).as_bytes()))
}

/// One public die roll, as logged and reported.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Roll {
    /// Dice turn whose stream produced it.
    pub turn: u32,
    /// 0-based index of this die within the turn's stream.
    pub index: u32,
    pub sides: u8,
    pub value: u8,
}

fn uniform_below(rng: &mut ChaCha20Rng, n: u32) -> u32 {
    assert!(n > 0);
    // Reject while x >= 2^32 - (2^32 mod n): every face keeps the same number of u32 values.
    let bound = (1u64 << 32) - ((1u64 << 32) % n as u64);
    loop {
        let x = rng.next_u32() as u64;
        if x < bound {
            return (x % n as u64) as u32;
        }
    }
}

/// Everything random in one game. Lives inside the game's stored state; holds the master
/// secret, so the judge must never show it (public views never include it).
#[derive(Clone, Serialize, Deserialize)]
pub struct DiceBox {
    pub game_id: String,
    master: Secret,
    /// Current dice turn (1-based). Set by [`DiceBox::enter_turn`].
    turn: u32,
    /// Rolls already made in the current turn (the next roll's index).
    rolls_in_turn: u32,
    /// Position in the current turn's ChaCha stream (32-bit words).
    word_pos: u128,
    /// Position in the secret card stream.
    secret_pos: u128,
    /// Rolls made since the last [`DiceBox::take_rolls`].
    #[serde(default)]
    pending_rolls: Vec<Roll>,
    /// Dry run (CHECK): any roll is refused.
    #[serde(skip)]
    dry: bool,
    #[serde(skip)]
    dry_wanted: bool,
    #[serde(skip)]
    cache: Option<ChainCache>,
}

#[derive(Clone)]
struct ChainCache {
    epoch: u32,
    /// The epoch's chain, every [`CHECKPOINT`]-th link ([`chain_checkpoints`]); computed
    /// when a link is first asked for.
    links: Option<std::sync::Arc<Vec<[u8; 32]>>>,
    turn_rng: Option<(u32, ChaCha20Rng)>,
    secret_rng: Option<ChaCha20Rng>,
}

impl std::fmt::Debug for DiceBox {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("DiceBox")
            .field("game_id", &self.game_id)
            .field("turn", &self.turn)
            .field("rolls_in_turn", &self.rolls_in_turn)
            .finish()
    }
}

impl PartialEq for DiceBox {
    fn eq(&self, o: &Self) -> bool {
        self.game_id == o.game_id
            && self.master == o.master
            && self.turn == o.turn
            && self.rolls_in_turn == o.rolls_in_turn
            && self.word_pos == o.word_pos
            && self.secret_pos == o.secret_pos
    }
}

impl DiceBox {
    pub fn new(game_id: &str, master: Secret) -> DiceBox {
        DiceBox {
            game_id: game_id.to_string(),
            master,
            turn: 1,
            rolls_in_turn: 0,
            word_pos: 0,
            secret_pos: 0,
            pending_rolls: Vec::new(),
            dry: false,
            dry_wanted: false,
            cache: None,
        }
    }

    /// The game's master secret (replay, export). Never put it in a report.
    pub fn master_secret(&self) -> Secret {
        self.master
    }

    /// A copy that refuses to roll: used by CHECK ("what would happen up to the first die").
    pub fn dry_copy(&self) -> DiceBox {
        let mut d = self.clone();
        d.dry = true;
        d
    }

    /// True if a dry copy was asked for a public die or a hidden draw.
    pub fn dry_roll_wanted(&self) -> bool {
        self.dry_wanted
    }

    pub fn is_dry(&self) -> bool {
        self.dry
    }

    pub fn turn(&self) -> u32 {
        self.turn
    }

    /// Move the public stream to dice turn `turn` (no-op if already there).
    pub fn enter_turn(&mut self, turn: u32) {
        let turn = turn.max(1);
        if turn != self.turn {
            self.turn = turn;
            self.rolls_in_turn = 0;
            self.word_pos = 0;
        }
    }

    fn epoch_of(turn: u32) -> u32 {
        (turn.max(1) - 1) / CHAIN_LEN
    }

    /// The cache of epoch `epoch` (made empty if it held another epoch's).
    fn cache_for(&mut self, epoch: u32) -> &mut ChainCache {
        if self.cache.as_ref().is_none_or(|c| c.epoch != epoch) {
            let secret_rng = self.cache.as_mut().and_then(|c| c.secret_rng.take());
            self.cache = Some(ChainCache {
                epoch,
                links: None,
                turn_rng: None,
                secret_rng,
            });
        }
        self.cache.as_mut().expect("cache set")
    }

    /// `S_k` of epoch `epoch`'s chain.
    fn link(&mut self, epoch: u32, k: usize) -> [u8; 32] {
        let master = self.master.0;
        let links = self.cache_for(epoch).links.get_or_insert_with(|| {
            chain_checkpoints(hmac(&master, format!("castellan/chain/{epoch}").as_bytes()))
        });
        let i = k.div_ceil(CHECKPOINT);
        let mut s = links[i];
        for _ in k..i * CHECKPOINT {
            s = sha256(&s);
        }
        s
    }

    /// The seed `S_k` used for dice turn `turn` (reveal it only once the turn is over).
    pub fn turn_seed(&mut self, turn: u32) -> Secret {
        let turn = turn.max(1);
        let e = Self::epoch_of(turn);
        let k = (turn - e * CHAIN_LEN) as usize;
        Secret(self.link(e, k))
    }

    /// The published commitment `S_0` of the chain covering `turn`.
    pub fn commitment_for(&mut self, turn: u32) -> Secret {
        let e = Self::epoch_of(turn);
        Secret(self.link(e, 0))
    }

    /// The key of the turn's dice stream, from the turn's seed.
    pub fn turn_key(game_id: &str, seed: &Secret, turn: u32) -> [u8; 32] {
        hmac(&seed.0, format!("{game_id}|{turn}|dice").as_bytes())
    }

    /// The secret stream's key; revealed only when the game has ended.
    pub fn secret_key(&self) -> Secret {
        Secret(hmac(
            &self.master.0,
            format!("castellan/cards/{}", self.game_id).as_bytes(),
        ))
    }

    /// SHA-256 of the secret stream's key, published at creation.
    pub fn secret_commitment(&self) -> Secret {
        Secret(sha256(&self.secret_key().0))
    }

    /// Verify one revealed seed against the previous one: `SHA-256(seed) == previous`.
    pub fn seed_follows(seed: &Secret, previous: &Secret) -> bool {
        sha256(&seed.0) == previous.0
    }

    /// Replay the dice of a turn from its revealed seed: the first `count` rolls of `sides`.
    pub fn replay(game_id: &str, seed: &Secret, turn: u32, sides: &[u8]) -> Vec<u8> {
        let mut rng = ChaCha20Rng::from_seed(Self::turn_key(game_id, seed, turn));
        sides
            .iter()
            .map(|&s| (uniform_below(&mut rng, s as u32) + 1) as u8)
            .collect()
    }

    fn turn_rng(&mut self) -> &mut ChaCha20Rng {
        let turn = self.turn;
        let need = self
            .cache
            .as_ref()
            .and_then(|c| c.turn_rng.as_ref())
            .map(|(t, _)| *t != turn)
            .unwrap_or(true);
        if need {
            let seed = self.turn_seed(turn);
            let mut rng = ChaCha20Rng::from_seed(Self::turn_key(&self.game_id, &seed, turn));
            rng.set_word_pos(self.word_pos);
            self.cache.as_mut().expect("chain cached").turn_rng = Some((turn, rng));
        }
        let c = self.cache.as_mut().expect("chain cached");
        let (_, rng) = c.turn_rng.as_mut().expect("rng set");
        if rng.get_word_pos() != self.word_pos {
            rng.set_word_pos(self.word_pos);
        }
        rng
    }

    /// Roll one public die. In a dry copy, returns `None` and records that a die was wanted.
    pub fn try_roll(&mut self, sides: u8) -> Option<Roll> {
        if self.dry {
            self.dry_wanted = true;
            return None;
        }
        Some(self.roll(sides))
    }

    /// Roll one public die (panics only on `sides == 0`, a programming error).
    /// A dry copy answers 1s; callers that care use [`DiceBox::try_roll`].
    pub fn roll(&mut self, sides: u8) -> Roll {
        if self.dry {
            self.dry_wanted = true;
            return Roll {
                turn: self.turn,
                index: self.rolls_in_turn,
                sides,
                value: 1,
            };
        }
        let rng = self.turn_rng();
        let v = uniform_below(rng, sides as u32) as u8 + 1;
        let pos = rng.get_word_pos();
        self.word_pos = pos;
        let roll = Roll {
            turn: self.turn,
            index: self.rolls_in_turn,
            sides,
            value: v,
        };
        self.rolls_in_turn += 1;
        self.pending_rolls.push(roll);
        roll
    }

    /// Roll `n` six-sided dice.
    pub fn roll_d6(&mut self, n: usize) -> Vec<Roll> {
        (0..n).map(|_| self.roll(6)).collect()
    }

    /// Rolls made since the last call (the judge logs and reports them).
    pub fn take_rolls(&mut self) -> Vec<Roll> {
        std::mem::take(&mut self.pending_rolls)
    }

    fn secret_rng(&mut self) -> &mut ChaCha20Rng {
        if self.cache.is_none() {
            self.cache_for(Self::epoch_of(self.turn));
        }
        if self
            .cache
            .as_ref()
            .map(|c| c.secret_rng.is_none())
            .unwrap_or(true)
        {
            let key = self.secret_key();
            let mut rng = ChaCha20Rng::from_seed(key.0);
            rng.set_word_pos(self.secret_pos);
            self.cache.as_mut().expect("cache").secret_rng = Some(rng);
        }
        let rng = self
            .cache
            .as_mut()
            .and_then(|c| c.secret_rng.as_mut())
            .expect("secret rng");
        if rng.get_word_pos() != self.secret_pos {
            rng.set_word_pos(self.secret_pos);
        }
        rng
    }

    /// How far the secret stream has been read: a change means a hidden draw was made.
    pub fn secret_position(&self) -> u128 {
        self.secret_pos
    }

    /// A secret uniform index in `0..n` (card draws, shuffles, deals). Never reported.
    /// A dry copy (CHECK) draws nothing: it answers 0 and records that chance was wanted.
    pub fn secret_below(&mut self, n: usize) -> usize {
        assert!(n > 0 && n <= u32::MAX as usize);
        if self.dry {
            self.dry_wanted = true;
            return 0;
        }
        let rng = self.secret_rng();
        let v = uniform_below(rng, n as u32) as usize;
        self.secret_pos = rng.get_word_pos();
        v
    }

    /// Secret Fisher–Yates shuffle.
    pub fn secret_shuffle<T>(&mut self, items: &mut [T]) {
        for i in (1..items.len()).rev() {
            let j = self.secret_below(i + 1);
            items.swap(i, j);
        }
    }

    /// A fresh secret salt for a commitment (drawn from the secret stream).
    /// A dry copy answers zeros and records that chance was wanted.
    pub fn secret_salt(&mut self) -> Secret {
        if self.dry {
            self.dry_wanted = true;
            return Secret([0; 32]);
        }
        let rng = self.secret_rng();
        let mut b = [0u8; 32];
        rng.fill_bytes(&mut b);
        self.secret_pos = rng.get_word_pos();
        Secret(b)
    }

    /// A public uniform index in `0..n` from the turn's dice stream (who goes first,
    /// castle-token draws): logged like a die with `n` sides.
    pub fn public_below(&mut self, n: usize) -> usize {
        assert!(n > 0 && n <= 255);
        (self.roll(n as u8).value - 1) as usize
    }
}

/// Randomness for bots only (never for the game): deterministic per game, turn and seat,
/// so simulations replay, and independent of the dice so bots cannot peek at them.
pub struct BotRng(ChaCha20Rng);

impl BotRng {
    pub fn new(label: &str) -> BotRng {
        BotRng(ChaCha20Rng::from_seed(sha256(
            format!("castellan/bot/{label}").as_bytes(),
        )))
    }
    pub fn below(&mut self, n: usize) -> usize {
        if n == 0 {
            return 0;
        }
        uniform_below(&mut self.0, n.min(u32::MAX as usize) as u32) as usize
    }
    /// True with probability `p`.
    pub fn chance(&mut self, p: f64) -> bool {
        (self.0.next_u32() as f64) < p * (u32::MAX as f64)
    }
    pub fn pick<'a, T>(&mut self, items: &'a [T]) -> Option<&'a T> {
        if items.is_empty() {
            None
        } else {
            Some(&items[self.below(items.len())])
        }
    }
}

#[cfg(test)]
mod tests;
