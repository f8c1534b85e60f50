#!/usr/bin/env python3
"""The service's instructions per order mail, every thread summed, by thread kind and by
part, from a callgrind run of `castellan bench` made with `--separate-threads=yes`.

    valgrind --tool=callgrind --separate-threads=yes --callgrind-out-file=cg.out \\
        target/release/castellan bench --tables 1 --games 0 --late-turn 0 --mails 300
    python3 scripts/callgrind-parts.py cg.out 300

callgrind writes one file a thread, cg.out-01 (thread 1, the bench's main thread),
cg.out-02, ...; the script reads each through `callgrind_annotate --inclusive=yes
--threshold=100 --tree=caller` (Debian's valgrind) and sums. Every figure is millions of
instructions per order mail (the MAILS given), and, for the service's, its share of the
service total.

What counts as the service:
- On the main thread, only what runs inside the service's passes: the inclusive cost of
  `Runtime::block_on` (each call one `LocalJudge::pass_after`, one `Service::run_once`:
  `take_inboxes` / `process_maildir`, `Service::tick`, `drain_outbox_deferred`). The
  bots (`play_games` outside the passes, `MailPlayers::send`, `read_outbox`,
  `budget::measure`) and the games' creation are not: the "main thread outside the passes"
  line shows them apart. The few passes right after a game's creation (called from
  `bench::run_in`, not from `play_games`: the bench does not time them; an empty inbox,
  the creation's replies sent) are in, and shown apart.
- Every other thread is the service's: sled's flusher and threadpool, the threads that
  render replies ahead (`castellan_mail::transport::prestage`) and the transport's blocking
  tasks, the journal's fsync thread, the optimistic judge workers when there are any.
  callgrind reuses a thread's number once it ended: a file may hold several short-lived
  threads one after the other; it is classed by the kind whose marker costs most in it.

"by thread kind": the service total split by the thread it ran on.

"by part": the inclusive cost of marker functions, summed over the threads. A line's
indented lines are parts of it (never more than it); "(rest)" is what its listed parts
leave; lines under "of which, wherever called" may overlap each other and the lines
above them (a picture is drawn inside a report). On the main thread a marker that the bots
could reach too is counted for its share under the passes only: each function's cost is
split among its callers as callgrind measured it, and a function's share inside the passes
is passed down to what it calls in proportion (gprof's assumption: exact for the service's
own functions, which are called from the passes only, approximate below generic ones such
as iterator adapters; the bench's own functions, `castellan::play::`, are never the
service, whatever calls them: so a marker under one, like `encode_reply`, is counted as its
specific ancestor's share, `commit_group_encoded` called from `commit_group` and not from
the games' creation). The columns "main" and "others" say where a part ran.

Counts of instructions do not vary from run to run: compare two builds by these; the time
a syscall waits (fsync) costs no instruction and is not here (`castellan bench` reports it).
"""
import glob
import re
import subprocess
import sys

# The service's passes on the main thread; those the bench times are called from here.
PASSES = r"^tokio::runtime::runtime::Runtime::block_on$"
PASSES_TIMED = r"^castellan::play::players::play_games$"
# The bench and its bots: never the service, whatever generic function calls them.
BOTS = r"^<?castellan::play::"
# Without block_on (a bench built otherwise): the passes' own entry points.
PASS_ENTRIES = [
    r"^castellan::serve::pass::<impl castellan::serve::service::Service>::take_inboxes::\{\{closure\}\}$",
    r"^castellan::serve::outbox::<impl castellan::serve::service::Service>::drain_outbox_deferred::\{\{closure\}\}$",
    r"^castellan::serve::service::Service::tick$",
]

# Thread kinds (files other than the main thread's), by marker functions.
KINDS = [
    ("judge", "optimistic judge workers", [r"Judge>::handle$", r"^castellan::serve::optimistic::"]),
    ("render", "reply rendering and writing (prestage, the transport's tasks)", [r"^castellan_mail::"]),
    ("sled", "sled (flusher, threadpool)", [r"^sled::flusher::run$", r"^sled::threadpool::"]),
    ("journal", "the journal's fsync thread", [r"^castellan::store::journal::", r"^castellan::store::fault::fault_delay$"]),
]

W = 70  # the labels' width
GROUP = r"SledStore>::commit_group_encoded$"
F = "fn"
K = "kind"
# (depth, label, terms, rest): terms are (F, regex[, via[, anchor]]) for a function's
# inclusive cost (its service share on the main thread, whole elsewhere; with `via`, its
# calls from those callers only; with `anchor`, on the main thread, its cost times the
# anchor's share: for a function below generic callers) or (K, kind) for a kind's
# threads; `rest`: print what the lines under it leave.
PARTS = [
    (0, "inbox passes (process_maildir; judge workers' threads)", [(F, r"Service>::process_maildir$"), (K, "judge")], True),
    (1, "reading and screening the mails (Service::screen)", [(F, r"^castellan::serve::service::Service::screen$")], False),
    (1, "journal written ahead (Journal::write_all)", [(F, r"^castellan::store::journal::Journal::write_all$")], False),
    (1, "judging (Judge::handle)", [(F, r"Judge>::handle$")], True),
    (2, "game loaded (Run::take)", [(F, r"^castellan_judge::run::Run::take$")], False),
    (2, "orders: engine submit, its narration included (Session::submit)", [(F, r"Session>::submit$")], False),
    (2, "answers (Run::reply)", [(F, r"Run>::reply$")], False),
    (2, "reports and mails (Run::settle_all)", [(F, r"Run>::settle_all$")], False),
    (3, "reports (Run::report)", [(F, r"Run>::report$")], True),
    (4, "SVG pictures (Session::picture, from the report)", [(F, r"Session>::picture$", r"Run>::report$")], False),
    (4, "seats' views (Run::private_ctx)", [(F, r"Run>::private_ctx$", r"Run>::report$")], False),
    (4, "HTML parts (Run::attach_picture)", [(F, r"Run>::attach_picture$", r"Run>::report$")], False),
    (4, "templates (Templates::render_in, from the report)", [(F, r"^castellan_judge::templates::Templates::render_in$", r"Run>::report$")], False),
    (4, "narration (Narrations::since)", [(F, r"^castellan_judge::reports::Narrations::since$")], False),
    (4, "text maps (map::map_text)", [(F, r"^castellan_judge::reports::map::map_text$")], False),
    (2, "game stored (Run::finish_into)", [(F, r"^castellan_judge::run::Run::finish_into$")], False),
    (2, "of which, wherever called:", [], False),
    (3, "SVG (Session::picture)", [(F, r"Session>::picture$")], False),
    (3, "HTML page (castellan_judge::html::page)", [(F, r"^castellan_judge::html::page$")], False),
    (3, "templates (minijinja Template::render)", [(F, r"^minijinja::template::Template::render$")], False),
    (3, "engine narration (Table::narrate_since)", [(F, r"^castellan_engine::api::table::Table<R>::narrate_since$")], False),
    (1, "group commit (Service::commit_group)", [(F, r"Service>::commit_group$")], True),
    (2, "replies encoded for the outbox (encode_reply)", [(F, r"^castellan::store::commit::encode_reply$", None, GROUP)], True),
    (3, "LZ4 (lz4_flex compress)", [(F, r"^lz4_flex::block::compress::compress_internal$", None, GROUP)], False),
    (3, "serde (OutboxItem::serialize)", [(F, r"OutboxItem>::serialize$", None, GROUP)], False),
    (2, "sled transaction (Transactional::transaction)", [(F, r"^sled::transaction::Transactional::transaction$", r"commit_group_encoded$")], False),
    (1, "replies written ahead: start and join (Prestager)", [(F, r"^castellan::serve::prestage::Prestager::(start|finish)$")], False),
    (1, "flush: sled's and one syncfs (flush_filesystems)", [(F, r"SledStore>::flush_filesystems$")], False),
    (1, "acknowledgement (Maildir::acknowledge_all_unsynced)", [(F, r"Maildir::acknowledge_all_unsynced$")], False),
    (0, "outbox drain (drain_outbox_deferred)", [(F, r"drain_outbox_deferred::\{\{closure\}\}$")], True),
    (1, "sent marks in sled (mark_sent_all)", [(F, r"SledStore>::mark_sent_all$")], False),
    (0, "deadlines (Service::tick)", [(F, r"^castellan::serve::service::Service::tick$")], False),
    (0, "reply rendering and writing threads", [(K, "render")], True),
    (1, "MIME (castellan_mail::render::try_render)", [(F, r"^castellan_mail::render::try_render$")], False),
    (0, "sled's threads", [(K, "sled")], False),
    (0, "the journal's fsync thread", [(K, "journal")], False),
    (0, "other threads", [(K, "other")], False),
]


class Thread:
    """One file of callgrind_annotate --inclusive=yes --tree=caller."""

    def __init__(self, path):
        out = subprocess.run(
            ["callgrind_annotate", "--inclusive=yes", "--threshold=100", "--tree=caller", path],
            capture_output=True, text=True, check=True,
        ).stdout
        self.path = path
        self.total = 0
        self.incl = {}  # function -> inclusive cost
        self.callers = {}  # function -> {caller: cost of its calls from there}
        pending = {}
        for line in out.splitlines():
            m = re.match(r"\s*([\d,]+) \([^)]*\)\s+([*<>])?\s*(.*)$", line)
            if not m:
                pending = {}
                continue
            n, mark, what = int(m.group(1).replace(",", "")), m.group(2), m.group(3)
            if "PROGRAM TOTALS" in what:
                self.total = n
                continue
            name = re.sub(r" \([\d,]+x\)", "", what).split(" [")[0]
            name = name.split(":", 1)[1] if ":" in name else name
            if mark == "<":
                pending[name] = pending.get(name, 0) + n
            elif mark == "*":
                self.incl[name] = n
                self.callers[name] = pending
                pending = {}
        self.share = None  # function -> service share, main thread only

    def matching(self, pattern):
        return [f for f in self.incl if re.search(pattern, f)]

    def edge(self, caller_pattern, callee_pattern):
        return sum(
            n
            for f in self.matching(callee_pattern)
            for c, n in self.callers[f].items()
            if re.search(caller_pattern, c)
        )

    def service_shares(self):
        """Each function's share of its cost inside the service's passes (main thread);
        returns the passes' cost, that of those the bench times, and how it was found."""
        source = {f: 0.0 for f in self.incl}
        timed = 0
        for f in self.matching(PASSES):
            source[f] = float(self.incl[f])
            timed += sum(n for c, n in self.callers[f].items() if re.search(PASSES_TIMED, c))
        how = "Runtime::block_on"
        if not any(source.values()):
            how = "the passes' entry points (no block_on under play_games)"
            for p in PASS_ENTRIES:
                for f in self.matching(p):
                    source[f] = float(self.incl[f])
        order = sorted(self.incl, key=lambda f: -self.incl[f])
        share = {f: 0.0 for f in self.incl}
        for _ in range(30):
            moved = 0.0
            for f in order:
                if re.search(BOTS, f) and not source[f]:
                    continue
                inside = source[f] + sum(
                    share.get(c, 0.0) * n for c, n in self.callers[f].items() if c != f
                )
                s = min(1.0, inside / self.incl[f]) if self.incl[f] else 0.0
                moved = max(moved, abs(s - share[f]))
                share[f] = s
            if moved < 1e-9:
                break
        self.share = share
        passes = sum(source.values())
        return passes, timed or passes, how

    def cost(self, pattern, via=None, anchor=None):
        """A function's inclusive cost (its service share on the main thread); with `via`,
        only its calls from callers matching it; with `anchor` (main thread), its cost
        times the share of that function."""
        total = 0.0
        for f in self.matching(pattern):
            if self.share is None and via is None:
                total += self.incl[f]
                continue
            if self.share is not None and anchor is not None and via is None:
                shares = [self.share[a] for a in self.matching(anchor)]
                total += self.incl[f] * (max(shares) if shares else 0.0)
                continue
            for c, n in self.callers[f].items():
                if via is not None and not re.search(via, c):
                    continue
                total += n * (1.0 if self.share is None else self.share.get(c, 0.0))
        return total

    def kind(self):
        best, best_cost = "other", 0
        for key, _, patterns in KINDS:
            c = max((self.incl[f] for p in patterns for f in self.matching(p)), default=0)
            if c > best_cost:
                best, best_cost = key, c
        return best


def thread_files(base):
    files = sorted(
        (f for f in glob.glob(glob.escape(base) + "-*") if re.search(r"-\d+$", f)),
        key=lambda f: int(f.rsplit("-", 1)[1]),
    )
    if not files:
        sys.exit(
            f"no {base}-01, {base}-02, ...: run callgrind with --separate-threads=yes "
            "(for one file of every thread, scripts/callgrind-per-mail.py)"
        )
    return files


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    base, mails = sys.argv[1], int(sys.argv[2])
    threads = [Thread(f) for f in thread_files(base)]
    main_thread, others = threads[0], threads[1:]
    passes, timed, how = main_thread.service_shares()
    kinds = {}
    for t in others:
        k = t.kind()
        kinds.setdefault(k, []).append(t)
    kind_total = {k: sum(t.total for t in ts) for k, ts in kinds.items()}
    service = passes + sum(kind_total.values())
    program = sum(t.total for t in threads)

    def m(n):
        return f"{n / mails / 1e6:8.2f}"

    def pc(n):
        return f"{100.0 * n / service:5.1f}%" if service else "     -"

    print(f"{len(threads)} thread files ({threads[0].path} .. {threads[-1].path}), {mails} order mails; M instructions a mail")
    print(f"{'program total, every thread, bots included':{W}} {m(program)}")
    print(f"{'service total, every thread':{W}} {m(service)} 100.0%")
    print()
    print("by thread kind")
    print(f"  {'main thread, inside the passes':{W - 2}} {m(passes)} {pc(passes)}  ({how})")
    print(f"    {'of which those right after creating games (bench times them not)':{W - 4}} {m(passes - timed)} {pc(passes - timed)}")
    for key, label, _ in KINDS + [("other", "other", [])]:
        n = kind_total.get(key, 0)
        files = len(kinds.get(key, []))
        print(f"  {label:{W - 2}} {m(n)} {pc(n)}  ({files} file{'s' if files != 1 else ''})")
    print(f"  {'(main thread outside the passes: bots, game creation; not service)':{W - 2}} {m(main_thread.total - passes)}")
    print()
    print(f"by part {'':{W - 8}} {'M/mail':>8} {'share':>6} {'main':>8} {'others':>8}")

    def part(terms):
        on_main, on_others = 0.0, 0.0
        for term in terms:
            if term[0] == K:
                on_others += kind_total.get(term[1], 0)
                continue
            pattern, via, anchor = (list(term[1:]) + [None, None])[:3]
            on_main += main_thread.cost(pattern, via, anchor)
            on_others += sum(t.cost(pattern, via) for t in others)
        return on_main, on_others

    rows = []
    for depth, label, terms, rest in PARTS:
        a, b = part(terms) if terms else (None, None)
        rows.append((depth, label, a, b, rest))
    top_sum = [0.0, 0.0]
    pending = []  # (depth, line): a "(rest)" printed once its lines are

    def flush_rests(depth):
        while pending and pending[-1][0] >= depth:
            print(pending.pop()[1])

    for i, (depth, label, a, b, rest) in enumerate(rows):
        flush_rests(depth)
        ind = "  " * (depth + 1)
        if a is None:
            print(f"{ind}{label}")
            continue
        print(f"{ind}{label:{W - len(ind)}} {m(a + b)} {pc(a + b)} {m(a)} {m(b)}")
        if depth == 0:
            top_sum[0] += a
            top_sum[1] += b
        if rest:
            kids = [0.0, 0.0]
            for d2, _, a2, b2, _ in rows[i + 1:]:
                if d2 <= depth:
                    break
                if d2 == depth + 1 and a2 is None:
                    break  # "of which": overlaps the lines above
                if d2 == depth + 1:
                    kids[0] += a2
                    kids[1] += b2
            ra, rb = a - kids[0], b - kids[1]
            ind2 = "  " * (depth + 2)
            pending.append((depth, f"{ind2}{'(rest)':{W - len(ind2)}} {m(ra + rb)} {pc(ra + rb)} {m(ra)} {m(rb)}"))
    flush_rests(0)
    ra, rb = passes - top_sum[0], sum(kind_total.values()) - top_sum[1]
    print(f"  {'(rest of the passes: the runtime, the pass itself)':{W - 2}} {m(ra + rb)} {pc(ra + rb)} {m(ra)} {m(rb)}")


if __name__ == "__main__":
    main()
