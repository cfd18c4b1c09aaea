#!/usr/bin/env python3
"""Turkish perft speed, side by side: damka against the kish library (PyPI `kish`).

Runs damka's single-threaded perft from the start position and then `kish.Board().perft(depth)`
in this process, and prints the times and the ratio (kish time / damka time: above 1 means
damka is faster). kish counts every capture path and counts a position with no move as 1, so the
leaf counts differ slightly; compare times, not counts.

Both wall-clock and CPU times are shown; on a shared machine the CPU times are the fairer
comparison (both programs are single-threaded).

    pip install kish                     # builds from source: needs cargo and maturin
    cargo build --release
    python3 tools/research/kish_compare.py        # depth 9; --depth N for another depth

Not part of CI: depth 9 takes tens of seconds.
"""

import argparse
import os
import re
import resource
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def run_damka(binary, depth):
    """Runs damka perft; returns (leaves, wall seconds, CPU seconds)."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    out = subprocess.run(
        [binary, "perft", "--variant", "turkish", "--depth", str(depth), "--threads", "1"],
        check=True,
        capture_output=True,
        text=True,
    ).stdout
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    m = re.search(r"nodes=(\d+)", out)
    if not m:
        sys.exit(f"unexpected damka output: {out!r}")
    return int(m.group(1)), wall, cpu


def run_kish(depth):
    """Runs kish perft in this process; returns (leaves, wall seconds, CPU seconds)."""
    import kish

    board = kish.Board()
    start, cpu_start = time.perf_counter(), time.process_time()
    n = board.perft(depth)
    return n, time.perf_counter() - start, time.process_time() - cpu_start


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--depth", type=int, default=9)
    ap.add_argument(
        "--damka",
        default=os.path.join(ROOT, "target", "release", "damka"),
        help="damka binary (default: target/release/damka)",
    )
    ap.add_argument("--check", action="store_true", help="exit 1 if damka is slower (CPU time)")
    args = ap.parse_args()
    try:
        import kish  # noqa: F401
    except ImportError:
        sys.exit("kish is not installed: pip install kish")
    if not os.path.exists(args.damka):
        sys.exit(f"{args.damka} not found: cargo build --release")

    dn, dwall, dcpu = run_damka(args.damka, args.depth)
    kn, kwall, kcpu = run_kish(args.depth)
    print(f"turkish perft depth {args.depth} from the start position, one thread")
    print(f"{'':6} {'leaves':>14} {'wall s':>9} {'cpu s':>9} {'Mnodes/s (cpu)':>15}")
    print(f"{'damka':6} {dn:>14} {dwall:>9.3f} {dcpu:>9.3f} {dn / dcpu / 1e6:>15.1f}")
    print(f"{'kish':6} {kn:>14} {kwall:>9.3f} {kcpu:>9.3f} {kn / kcpu / 1e6:>15.1f}")
    print(f"ratio kish/damka: cpu {kcpu / dcpu:.2f}x, wall {kwall / dwall:.2f}x")
    if args.check and dcpu > kcpu:
        sys.exit(1)


if __name__ == "__main__":
    main()
