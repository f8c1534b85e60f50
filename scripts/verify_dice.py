#!/usr/bin/env python3
"""Check a Castellan game's dice with nothing but Python's standard library.

  verify_dice.py chain  SEED_HEX PREVIOUS_HEX         -> does SHA-256(seed) equal the previous seed/commitment?
  verify_dice.py roll   GAME_ID TURN SEED_HEX SIDES...  -> the faces the judge must have rolled in that turn

Example (turn 3 of castle-7, four six-sided dice then a 3-sided draw):
  verify_dice.py roll castle-7 3 9f2c...e1 6 6 6 6 3
How the dice are made: mail HELP DICE to the judge (docs/dice.md in its sources); this
script is the reference implementation.
"""
import hashlib, hmac, struct, sys

def rotl(v, c):
    return ((v << c) & 0xFFFFFFFF) | (v >> (32 - c))

def quarter(s, a, b, c, d):
    s[a] = (s[a] + s[b]) & 0xFFFFFFFF; s[d] = rotl(s[d] ^ s[a], 16)
    s[c] = (s[c] + s[d]) & 0xFFFFFFFF; s[b] = rotl(s[b] ^ s[c], 12)
    s[a] = (s[a] + s[b]) & 0xFFFFFFFF; s[d] = rotl(s[d] ^ s[a], 8)
    s[c] = (s[c] + s[d]) & 0xFFFFFFFF; s[b] = rotl(s[b] ^ s[c], 7)

def chacha20_words(key):
    """ChaCha20 (20 rounds), 64-bit block counter from 0, stream/nonce 0: yields u32 words."""
    k = list(struct.unpack("<8I", key))
    counter = 0
    while True:
        init = [0x61707865, 0x3320646E, 0x79622D32, 0x6B206574] + k + [
            counter & 0xFFFFFFFF, counter >> 32, 0, 0]
        s = init[:]
        for _ in range(10):
            quarter(s, 0, 4, 8, 12); quarter(s, 1, 5, 9, 13)
            quarter(s, 2, 6, 10, 14); quarter(s, 3, 7, 11, 15)
            quarter(s, 0, 5, 10, 15); quarter(s, 1, 6, 11, 12)
            quarter(s, 2, 7, 8, 13); quarter(s, 3, 4, 9, 14)
        for i in range(16):
            yield (s[i] + init[i]) & 0xFFFFFFFF
        counter += 1

def faces(game_id, turn, seed_hex, sides_list):
    key = hmac.new(bytes.fromhex(seed_hex), f"{game_id}|{turn}|dice".encode(), hashlib.sha256).digest()
    words = chacha20_words(key)
    out = []
    for sides in sides_list:
        bound = (1 << 32) - ((1 << 32) % sides)
        while True:
            x = next(words)
            if x < bound:
                out.append(x % sides + 1)
                break
    return out

def main(argv):
    if len(argv) >= 3 and argv[0] == "chain":
        ok = hashlib.sha256(bytes.fromhex(argv[1])).hexdigest() == argv[2].lower()
        print("ok" if ok else "MISMATCH")
        return 0 if ok else 1
    if len(argv) >= 4 and argv[0] == "roll":
        print(" ".join(str(f) for f in faces(argv[1], int(argv[2]), argv[3], [int(s) for s in argv[4:]])))
        return 0
    print(__doc__)
    return 2

if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
