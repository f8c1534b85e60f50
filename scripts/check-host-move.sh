#!/usr/bin/env bash
# docs/operating.md, "Move the judge to another host", run for real on two scratch data
# directories (the old host's and the new host's): a judge with a game, players' mail
# handled and replies waiting in the outbox (its relay refuses them) is backed up, the
# backup restored into a fresh data directory with the same configuration, and the two
# must hold the same games and outbox: `game list`, `game show`, `game export` and `outbox`
# print the same on both. Mail that came after the backup, copied from the Maildir's new/,
# is then handled on the new host. Run by scripts/test; fails (never skips).
set -euo pipefail
cd "$(dirname "$0")/.."
die() { echo "check-host-move: $*" >&2; exit 1; }

cargo build --locked --quiet
bin="$PWD/target/debug/castellan"
scratch="$(mktemp -d)"
trap 'rm -rf "$scratch"' EXIT
old="$scratch/old" new="$scratch/new"
mkdir -p "$old" "$new"
config() { # data dir: a configuration whose relay refuses every reply (they wait)
  cat <<YAML
data_dir: $1
templates_dir: $PWD/crates/judge/templates
outbound:
  kind: smtp
  smtp: { host: 127.0.0.1, port: 9, security: none, timeout_seconds: 2 }
judge:
  address: judge@example.org
  domain: example.org
YAML
}
config "$old" >"$old/castellan.yaml"
config "$new" >"$new/castellan.yaml"
on() { local dir="$1"; shift; "$bin" --config "$dir/castellan.yaml" "$@" 2>/dev/null; }
mail() { # id, body
  printf 'From: Ann <ann@example.org>\r\nTo: judge@example.org\r\nSubject: move\r\nMessage-ID: <%s@example.org>\r\n\r\n%s\r\n' "$1" "$2"
}

# The old host: a game, mail handled, replies waiting.
on "$old" game new --game castle-risk --player Ann=ann@example.org --player Bob=bob@example.org \
  --gm gm@example.org >/dev/null
mail list-1 LIST | on "$old" ingest >/dev/null
mail status-1 "STATUS castle-1" | on "$old" ingest >/dev/null
waiting="$(on "$old" outbox)"
grep -q . <<<"$waiting" || die "no reply waits in the old host's outbox"

# The procedure: one backup on the old host, restored into the new host's empty data dir.
on "$old" backup "$scratch/move.jsonl" >/dev/null
cp "$scratch/move.jsonl" "$new/move.jsonl"
on "$new" backup --restore "$new/move.jsonl" >/dev/null
for cmd in "game list" "game show castle-1" "game export castle-1" "outbox" "campaign list"; do
  # shellcheck disable=SC2086
  a="$(on "$old" $cmd)" || die "old host: castellan $cmd failed"
  # shellcheck disable=SC2086
  b="$(on "$new" $cmd)" || die "new host: castellan $cmd failed"
  [ "$a" = "$b" ] || die "castellan $cmd differs after the move:
--- old host
$a
--- new host
$b"
done

# Mail that reached the old host after the backup: its Maildir's new/, copied, is handled.
mkdir -p "$old/mail/inbox/new"
mail late-1 LIST >"$old/mail/inbox/new/1800000000.late.host"
mkdir -p "$new/mail/inbox/new"
cp "$old/mail/inbox/new/"* "$new/mail/inbox/new/"
took="$(on "$new" serve --once)"
grep -q "took 1 message" <<<"$took" || die "the new host did not take the late mail: $took"
echo "check-host-move: ok (games, exports and outbox identical after backup and restore)"
