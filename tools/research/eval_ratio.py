#!/usr/bin/env python3
"""Node speed of the learned evaluation against the hand-written one, by `damka bench`.

One bench takes well under a second, and on a shared or virtual machine the speed of a single
run moves by a quarter from one run to the next. So the two evaluations are benched one after
the other, `--rounds` times each in alternation (learned, classic, learned, ...), and the
median nodes per second of each is compared: the ratio learned/classic of the medians, and the
median of the ratios of each round's pair. The node counts must be the same in every round
(the bench is deterministic with one thread); a round that differs is an error.

    cargo build --release
    python3 tools/research/eval_ratio.py                      # each game, then the whole bench, 15 rounds
    python3 tools/research/eval_ratio.py --variant both       # the whole bench only (the node-speed ratio of docs/performance.md)
    python3 tools/research/eval_ratio.py --variant turkish --rounds 31 --eval-file NET

Prints one line per game, for example:

    turkish rounds=21 learned nodes=473381 nps=2.80M classic nodes=841284 nps=3.39M ratio=0.83 pairs=0.89

With `--against OLD` (another build's binary) it compares the two builds instead, each
evaluation in turn, the builds alternated the same way (the bench speed of docs/performance.md):

    python3 tools/research/eval_ratio.py --variant both --rounds 21 --against ../old/target/release/damka
    both learned rounds=21 new nodes=2729907 nps=2.79M old nodes=1577630 nps=2.60M ratio=1.08 pairs=1.10

Exit status 0, or 2 with a one-line message if the binary fails or its output is not a bench's.
Time it on a quiet machine: anything else running moves the figures.
"""

import argparse
import os
import re
import statistics
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
LAST = re.compile(r"^bench nodes=(\d+) time=([0-9.]+) nps=(\d+)$")


def fail(message):
    """Ends the run: the message on stderr, exit status 2."""
    print(f"eval_ratio: {message}", file=sys.stderr)
    sys.exit(2)


def bench(binary, variant, extra):
    """(nodes, nps) of one `damka bench` run."""
    # `both`: the whole bench, both games' positions in one run (what `damka bench` does).
    cmd = [binary, "bench"] + ([] if variant == "both" else ["--variant", variant]) + extra
    try:
        out = subprocess.run(cmd, capture_output=True, text=True, timeout=600)
    except (OSError, subprocess.TimeoutExpired) as e:
        fail(f"{' '.join(cmd)}: {e}")
    lines = out.stdout.strip().splitlines()
    m = LAST.match(lines[-1]) if out.returncode == 0 and lines else None
    if not m:
        tail = (out.stderr.strip() or out.stdout.strip()).splitlines()[-1:] or ["no output"]
        fail(f"{' '.join(cmd)}: {tail[0]}")
    return int(m.group(1)), int(m.group(3))


def measure(variant, rounds, sides):
    """Medians and counts of `rounds` alternated runs of the two `sides`, each a (name, binary,
    extra arguments) triple; the ratio is the first side's speed over the second's."""
    runs = {name: [] for name, _, _ in sides}
    nodes = {}
    for _ in range(rounds):
        for name, binary, extra in sides:
            n, nps = bench(binary, variant, extra)
            if nodes.setdefault(name, n) != n:
                fail(f"{variant} {name}: {nodes[name]} nodes, then {n}: not deterministic")
            runs[name].append(nps)
    (a, _, _), (b, _, _) = sides
    pairs = [x / y for x, y in zip(runs[a], runs[b])]
    med = {k: statistics.median(v) for k, v in runs.items()}
    return nodes, med, med[a] / med[b], statistics.median(pairs)


def report(label, rounds, sides, nodes, med, ratio, pairs):
    """One line of results."""
    each = " ".join(f"{n} nodes={nodes[n]} nps={med[n] / 1e6:.2f}M" for n, _, _ in sides)
    print(f"{label} rounds={rounds} {each} ratio={ratio:.2f} pairs={pairs:.2f}", flush=True)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--binary", default=os.path.join(ROOT, "target", "release", "damka"))
    ap.add_argument(
        "--variant",
        choices=["russian", "turkish", "both"],
        help="only this game, or only the whole bench (both)",
    )
    ap.add_argument("--rounds", type=int, default=15, help="runs of each evaluation")
    ap.add_argument("--eval-file", help="the learned net to measure (default: compiled in)")
    ap.add_argument(
        "--against",
        metavar="OLD",
        help="compare --binary with this other build, each evaluation, instead of the evaluations",
    )
    a = ap.parse_args()
    if a.rounds < 1:
        fail("--rounds must be at least 1")
    if a.eval_file and a.variant in (None, "both"):
        fail("--eval-file needs --variant russian or turkish (a net is for one game)")
    learned = ["--eval-file", a.eval_file] if a.eval_file else ["--eval", "learned"]
    classic = ["--eval", "classic"]
    for v in [a.variant] if a.variant else ["russian", "turkish", "both"]:
        if a.against:
            for name, extra in (("learned", learned), ("classic", classic)):
                sides = [("new", a.binary, extra), ("old", a.against, extra)]
                report(f"{v} {name}", a.rounds, sides, *measure(v, a.rounds, sides))
        else:
            sides = [("learned", a.binary, learned), ("classic", a.binary, classic)]
            report(v, a.rounds, sides, *measure(v, a.rounds, sides))
    return 0


if __name__ == "__main__":
    sys.exit(main())
