#!/usr/bin/env python3
"""Instructions per order mail, by step, from a callgrind file of `castellan bench`.

    valgrind --tool=callgrind --callgrind-out-file=cg.out \\
        target/release/castellan bench --tables 1 --games 0 --late-turn 0 --mails 300
    python3 scripts/callgrind-per-mail.py cg.out 300

Reads `callgrind_annotate --inclusive=yes` (Debian's valgrind) and prints, for each step
of the service that it finds, its inclusive instruction count divided by the mails. The
steps nest (the judge runs inside the inbox pass, a store load inside the judge): read
them as a breakdown, not a sum. Threads the service starts (replies written ahead, sled's
own) are counted where their work runs, not under the pass that started them: the
"program total" line includes them, and the bench's bots too.
"""
import re
import subprocess
import sys

STEPS = [
    ("inbox pass (process_maildir)", r"::process_maildir$"),
    ("  judging a mail (Judge::handle)", r"castellan_judge::[a-z:]*(<impl castellan_judge::judge::)?Judge>?::handle$"),
    ("    settle: reports and mails", r"Run>::settle_all$"),
    ("    game loaded from the store", r"SledStore::load$"),
    ("  group commit (commit_group)", r"Service>::commit_group$"),
    ("the bench's game loop (bots and passes)", r"players::play_games$"),
]


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    path, mails = sys.argv[1], int(sys.argv[2])
    out = subprocess.run(
        ["callgrind_annotate", "--inclusive=yes", path],
        capture_output=True, text=True, check=True,
    ).stdout
    counts = {}
    total = None
    for line in out.splitlines():
        m = re.match(r"\s*([\d,]+) \([^)]*\)\s+(.*)$", line)
        if not m:
            continue
        n = int(m.group(1).replace(",", ""))
        what = m.group(2)
        if "PROGRAM TOTALS" in what:
            total = n
            continue
        name = what.split(":", 1)[-1].split(" [")[0]
        for label, pattern in STEPS:
            if re.search(pattern, name) and label not in counts:
                counts[label] = n
    if total is not None:
        print(f"{'program total (all threads, bots included)':45} {total / mails / 1e6:8.2f} M/mail")
    for label, _ in STEPS:
        if label in counts:
            print(f"{label:45} {counts[label] / mails / 1e6:8.2f} M/mail")
        else:
            print(f"{label:45} {'-':>8}")


if __name__ == "__main__":
    main()
