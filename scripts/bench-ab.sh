#!/usr/bin/env bash
# Compare two builds of castellan with `castellan bench`, alternating them (A B A B ...) so
# that whatever drifts on the machine meanwhile (the disk's state after deletions, another
# load) falls on both alike: each bench removes its data when it ends, and on ext4
# without a journal that makes the next run's file creations slower for minutes (README
# "Measuring"). Each run gets a fresh folder under ROOT.
#
#   scripts/bench-ab.sh [-n PAIRS] [-r ROOT] BINARY_A BINARY_B [-- BENCH ARGS...]
#
# ROOT defaults to a new folder under /tmp. For the CPU work alone, without the disk's
# syncs and its state, give a tmpfs: `mount -t tmpfs -o size=10g tmpfs /mnt/rt`, then
# `-r /mnt/rt`. Prints, per count of tables, each run's order mails/s, CPU ms a mail, and
# the group commits, flush and outbox drain in ms a mail; the JSON reports stay in
# ROOT/reports.
set -euo pipefail

pairs=3
root=""
while getopts "n:r:" opt; do
    case $opt in
        n) pairs=$OPTARG ;;
        r) root=$OPTARG ;;
        *) sed -n '2,14p' "$0" >&2; exit 2 ;;
    esac
done
shift $((OPTIND - 1))
if [ $# -lt 2 ]; then
    sed -n '2,14p' "$0" >&2
    exit 2
fi
a=$1 b=$2
shift 2
[ "${1:-}" = "--" ] && shift
[ $# -gt 0 ] || set -- --tables 1,64 --games 0 --late-turn 0 --mails 1500
root=${root:-$(mktemp -d /tmp/bench-ab.XXXXXX)}
mkdir -p "$root/reports"

for i in $(seq 1 "$pairs"); do
    for which in A B; do
        bin=$a
        [ "$which" = B ] && bin=$b
        dir="$root/run-$which-$i"
        mkdir -p "$dir"
        sync
        sleep 3
        echo "bench-ab: run $i of $pairs, $which ($bin)" >&2
        TMPDIR=$dir "$bin" bench --json "$@" >"$root/reports/$which-$i.json"
    done
done

python3 - "$root/reports" <<'PY'
import collections, glob, json, os, sys
runs = collections.defaultdict(lambda: collections.defaultdict(list))
for f in sorted(glob.glob(os.path.join(sys.argv[1], "*.json"))):
    which = os.path.basename(f).split("-")[0]
    for t in json.load(open(f))["tables"]:
        runs[t["tables"]][which].append(t)
def col(ts, f):
    return ", ".join(f(t) for t in ts)
for tables in sorted(runs):
    for which in sorted(runs[tables]):
        ts = runs[tables][which]
        print(f"{tables} table(s), {which}: mails/s {col(ts, lambda t: '%.0f' % t['mails_per_sec_service'])}"
              f" | CPU ms a mail {col(ts, lambda t: '%.2f' % t['service_cpu_ms_per_mail'])}"
              f" | commit {col(ts, lambda t: '%.2f' % t['inbox_steps']['commit'])}"
              f" | flush {col(ts, lambda t: '%.2f' % t['inbox_steps']['flush'])}"
              f" | outbox {col(ts, lambda t: '%.2f' % t['outbox_ms_per_mail'])}")
PY
echo "bench-ab: reports in $root/reports" >&2
