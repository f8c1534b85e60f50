#!/usr/bin/env bash
# The figures of issue 30, measured the same way before and after a change:
#
#   scripts/attack-figures.sh [BINARY]      (default: target/release/castellan)
#
# Each attack runs against a fresh data directory on the embedded defaults (Maildir in,
# .eml files out, sled on disk), through `castellan ingest` as an MTA pipe would deliver,
# under /usr/bin/time. Printed, one line per attack:
#   * one stranger mail with 20 CREATE lines of 6 players: CPU seconds, peak RSS, mails
#     to addresses that never wrote to the judge, games stored;
#   * one stranger mail with a 64 KB tournament line: the same;
#   * a flood of 2,000 mails forged from a seated player's address, each with two wrong
#     tokens in its subject (then the real player's mail with her real token alone, and
#     with her token and password): CPU, peak RSS, how many of the flood were answered,
#     and whether the real player's mails were accepted.
# Figures only: nothing here asserts a time (docs/security.md gives the bounds and tests).
set -euo pipefail

BIN=${1:-target/release/castellan}
BIN=$(readlink -f "$BIN")
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT

# A raw mail: FROM SUBJECT BODY-FILE N
mail() {
    printf 'From: %s\r\nTo: judge@castellan.invalid\r\nSubject: %s\r\nMessage-ID: <attack-%s@evil.example>\r\nDate: Sat, 28 Nov 2026 03:00:00 +0000\r\n\r\n' \
        "$1" "$2" "$4"
    cat "$3"
}

# Peak RSS (MiB) and CPU seconds of one ingest: DIR FILE
timed_ingest() {
    /usr/bin/time -f '%M %U %S' -o "$WORK/time" "$BIN" --config /dev/null --data-dir "$1" ingest "$2" >/dev/null 2>&1 || true
    read -r rss user sys <"$WORK/time"
    echo "$((rss / 1024)) $(echo "$user + $sys" | bc)"
}

# The To line of every mail in the outbox: DIR
to_lines() {
    [ -d "$1/mail/outbox" ] || return 0
    find "$1/mail/outbox" -name '*.eml' -print0 | xargs -0 -r -n1 grep -i -h -m1 '^To:'
}

# Mails in the outbox to addresses other than the writer: DIR WRITER
unasked() {
    to_lines "$1" | grep -v -i -c "$2" || true
}

games() {
    "$BIN" --config /dev/null --data-dir "$1" game list 2>/dev/null | grep -c -E '^[a-z-]+-[0-9]+' || true
}

# 1. Twenty CREATE lines.
D="$WORK/create20"
: >"$WORK/body"
for i in $(seq 1 20); do
    line="CREATE risk"
    for p in 0 1 2 3 4 5; do line="$line player=P${p}_$i:p${p}_$i@victims.example"; done
    echo "$line" >>"$WORK/body"
done
mail "stranger@evil.example" "hello" "$WORK/body" c20 >"$WORK/c20.eml"
read -r rss cpu < <(timed_ingest "$D" "$WORK/c20.eml")
echo "20-CREATE mail ($(wc -c <"$WORK/c20.eml") bytes): cpu ${cpu}s, peak RSS ${rss} MiB, mails to never-asked addresses $(unasked "$D" stranger@evil.example), games $(games "$D")"

# 2. One 64 KB tournament line.
D="$WORK/tournament"
{
    printf 'CAMPAIGN NEW Cup tournament=risk players='
    for i in $(seq 1 3900); do printf "P%d:p%d@x.io," "$i" "$i"; done
    printf "Z:z@x.io\n"
} >"$WORK/body"
mail "stranger@evil.example" "hello" "$WORK/body" t64 >"$WORK/t64.eml"
read -r rss cpu < <(timed_ingest "$D" "$WORK/t64.eml")
echo "tournament mail ($(wc -c <"$WORK/t64.eml") bytes): cpu ${cpu}s, peak RSS ${rss} MiB, mails to never-asked addresses $(unasked "$D" stranger@evil.example), games $(games "$D")"

# 3. A flood forged from a seated player's address.
D="$WORK/flood"
"$BIN" --config /dev/null --data-dir "$D" game new --game castle-risk --gm gm@castellan.test \
    --player Alice=alice@castellan.test --player Bob=bob@castellan.test >/dev/null 2>&1 || true
GAME=$("$BIN" --config /dev/null --data-dir "$D" game list 2>/dev/null | grep -o -E '^castle-[0-9]+' | head -1)
TOKEN=$(grep -l -i '^To:.*alice' "$D"/mail/outbox/*.eml | head -1 | xargs grep -h -i -m1 '^Subject:' | sed -E 's/.*#([a-z0-9]+)\].*/\1/')
PASSWORD=$(grep -l -i '^To:.*alice' "$D"/mail/outbox/*.eml | xargs grep -h -m1 '^Your password:' | head -1 | sed -E 's/^Your password: *([^ \r]+).*/\1/')
rm -rf "$D/mail/outbox"
mkdir -p "$D/mail/inbox/new"
echo "STATUS" >"$WORK/body"
for i in $(seq 1 2000); do
    t1=$(printf '%06d' "$i" | tr 0-9 a-j)
    mail "alice@castellan.test" "[$GAME #${t1}] [$GAME #${t1}x]" "$WORK/body" "f$i" >"$D/mail/inbox/new/f$i.eml"
done
/usr/bin/time -f "%M %U %S" -o "$WORK/time" "$BIN" --config /dev/null --data-dir "$D" serve --once >/dev/null 2>&1 || true
read -r rss user sys <"$WORK/time"
rss=$((rss / 1024))
cpu=$(echo "$user + $sys" | bc)
answered=$(to_lines "$D" | grep -i -c alice || true)
rm -rf "$D/mail/outbox"
# The real player after the flood: her token alone (locked by the guesses from her
# address), then her token with her password (judged whatever is locked).
answered_ok() {
    grep -l -i '^To:.*alice' "$D"/mail/outbox/*.eml 2>/dev/null | xargs -r grep -L -e 'Too many mails' -e 'not checked' -e 'refused' | wc -l || true
}
mail "alice@castellan.test" "Re: [$GAME #$TOKEN] report" "$WORK/body" real >"$WORK/real.eml"
"$BIN" --config /dev/null --data-dir "$D" ingest "$WORK/real.eml" >/dev/null 2>&1 || true
alone=$(answered_ok)
rm -rf "$D/mail/outbox"
printf 'GAME %s %s\nSTATUS\n' "$GAME" "$PASSWORD" >"$WORK/body2"
mail "alice@castellan.test" "Re: [$GAME #$TOKEN] report" "$WORK/body2" real2 >"$WORK/real2.eml"
"$BIN" --config /dev/null --data-dir "$D" ingest "$WORK/real2.eml" >/dev/null 2>&1 || true
both=$(answered_ok)
echo "2,000-mail forged flood (token $TOKEN of $GAME): cpu ${cpu}s, peak RSS ${rss} MiB, flood mails answered $answered; then the real player's mail answered without refusal: token alone $alone, token and password $both"
