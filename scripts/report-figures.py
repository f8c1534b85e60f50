#!/usr/bin/env python3
"""The figures of "a report read in ten seconds": what the players of each game's demo
read, measured from the mails as they went out (the .eml files of the outbox).

    python3 scripts/report-figures.py [--bin target/release/castellan] [--seed 7]

For each game and number of players it runs `castellan demo` on the built-in defaults
in a folder of its own, then reads every mail to a player (not the game master's):

- turn reports: the mails that tell a turn (their subject names a turn or the game's
  end, or, for a reply, their text has a deadline line): how many, the median and the
  longest in lines of the text part as sent (as a terminal shows it);
- wide lines: text lines of every mail longer than 78 columns that hold more than one
  word (a token, an address or a digest alone on its line is allowed to be longer), of
  all text lines; and the longest line;
- subject lies: mails whose text tells a turn (its report's heading line) that the
  subject does not name (a reply under "Re: ... orders" or a stale "Turn 1"), or whose
  subject says "your move" though the report does not wait for its reader.

Nothing here is a test: it prints figures, before and after a change.
"""

import argparse
import email
import email.policy
import os
import re
import statistics
import subprocess
import sys
import tempfile

RUNS = [
    ("castle-risk", 3),
    ("castle-risk", 6),
    ("risk", 3),
    ("risk", 6),
    ("castrum", 3),
    ("castrum", 4),
    ("castello", 2),
]


def text_part(msg):
    for part in msg.walk():
        if part.get_content_type() == "text/plain":
            raw = part.get_payload(decode=True) or b""
            return raw.decode("utf-8", "replace").replace("\r\n", "\n")
    return ""


TURN = re.compile(r"\bTurn (\d+)\b|\bTour (\d+)\b")
HEADING = re.compile(r"^\S+ \([^)]*\), (?:turn|tour) (\d+)")


def game_over(subject):
    return "Game over" in subject or "Partie terminée" in subject


def measure(outbox, gm):
    reports, lines_all, wide, longest, subject_lies = [], 0, 0, 0, []
    for name in sorted(os.listdir(outbox)):
        if not name.endswith(".eml"):
            continue
        with open(os.path.join(outbox, name), "rb") as f:
            msg = email.message_from_binary_file(f, policy=email.policy.compat32)
        to = str(msg.get("To", ""))
        if gm in to:
            continue
        subject = " ".join(str(msg.get("Subject", "")).split())
        text = text_part(msg)
        lines = text.rstrip("\n").split("\n") if text else []
        lines_all += len(lines)
        for line in lines:
            width = len(line.rstrip(" "))
            longest = max(longest, width)
            if width > 78 and " " in line.strip():
                wide += 1
        is_reply = subject.startswith("Re:") or "] Re:" in subject
        tells_turn = (not is_reply and (TURN.search(subject) or "Game over" in subject)) or (
            is_reply and any(l.startswith("Deadline:") for l in lines)
        )
        if tells_turn:
            reports.append(len(lines))
        # The turn a report tells: its heading line, "castle-1 (castle-risk), turn 5...",
        # wherever it stands (a reply carries its report after the answers).
        told = next((m for m in map(HEADING.match, lines) if m), None)
        if told and not game_over(subject):
            t = TURN.search(subject)
            if not t or (t.group(1) or t.group(2)) != told.group(1):
                subject_lies.append(subject)
        if "your move" in subject:
            at = next((i for i, l in enumerate(lines) if HEADING.match(l)), 0)
            near = "\n".join(lines[at : at + 4])
            if "(you)" not in near and "(vous)" not in near and "Your move" not in near:
                subject_lies.append(subject)
    return reports, lines_all, wide, longest, subject_lies


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--bin", default="target/release/castellan")
    ap.add_argument("--seed", default="7")
    ap.add_argument("--show-lies", action="store_true")
    args = ap.parse_args()
    binary = os.path.abspath(args.bin)
    print(
        f"{'game':<12} {'pl':>2} {'reports':>7} {'median':>6} {'longest':>7} "
        f"{'wide lines':>16} {'longest line':>12} {'subject lies':>12}"
    )
    with tempfile.TemporaryDirectory() as tmp:
        for game, players in RUNS:
            d = os.path.join(tmp, f"{game}-{players}")
            r = subprocess.run(
                [binary, "demo", "--config", "/dev/null", "--dir", d, "--game", game,
                 "--players", str(players), "--seed", args.seed],
                capture_output=True, text=True, cwd=tmp,
            )
            if r.returncode != 0:
                print(f"{game:<12} {players:>2} demo failed: {r.stderr.strip()[-300:]}")
                continue
            reports, lines_all, wide, longest, lies = measure(
                os.path.join(d, "mail", "outbox"), "gm@players.invalid"
            )
            median = statistics.median(reports) if reports else 0
            print(
                f"{game:<12} {players:>2} {len(reports):>7} {median:>6} "
                f"{max(reports, default=0):>7} {wide:>7} of {lines_all:<6} "
                f"{longest:>12} {len(lies):>12}"
            )
            if args.show_lies:
                for s in lies[:5]:
                    print(f"    {s}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
