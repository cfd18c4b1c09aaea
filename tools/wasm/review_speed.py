#!/usr/bin/env python3
"""Speed of a game review in the browser (docs/wasm.md, "Review speed"): a 60-ply game played
by the native engine against itself is opened on the static page (target/wasm/, served by
Python's http.server) in headless Chromium and reviewed at the default budget (0.3 s a
position) by the engine in the browser. Prints the time the review took and the longest gap
between two animation frames of the page while it ran and its longest task (the Long Tasks
API: the page's own thread busy for 50 ms or more; the page stays responsive when none takes
longer than 100 ms). A benchmark, not a test: it fails only when the review does
not finish.

    python3 tools/wasm/review_speed.py [--plies 60] [--variant russian] [--native target/release/damka]

Needs tools/wasm/build.sh's output and the venv of the browser tests (tools/wasm/check.sh).
"""

import argparse
import os
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(__file__))
sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "web"))
import browser_check  # noqa: E402
import browser_review  # noqa: E402
from browser_test import Page, start_browser  # noqa: E402


def self_play(native, variant, plies):
    """Hub moves of a game the native engine plays against itself, 0.05 s a move."""
    proc = subprocess.Popen([native, "hub"], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)

    def say(line):
        proc.stdin.write(line + "\n")
        proc.stdin.flush()

    say("hub")
    say(f"set-param name=variant value={variant}")
    say("init")
    moves = []
    try:
        while len(moves) < plies:
            say(f'pos start moves="{" ".join(moves)}"')
            say("level move-time=0.05")
            say("go think")
            while True:
                line = proc.stdout.readline()
                if not line:
                    raise RuntimeError("the engine stopped")
                if line.startswith("done"):
                    break
                if line.startswith("error"):
                    return moves  # the game ended before `plies`
            move = line.split("move=")[1].split()[0]
            moves.append(move)
    finally:
        say("quit")
        proc.wait(timeout=10)
    return moves


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--plies", type=int, default=60)
    ap.add_argument("--variant", default="russian", choices=["russian", "turkish"])
    ap.add_argument("--native", default="target/release/damka")
    ap.add_argument("--dir", default="target/wasm")
    args = ap.parse_args()
    moves = self_play(args.native, args.variant, args.plies)
    server, url = browser_check.serve(args.dir)
    downloads = tempfile.mkdtemp(prefix="damka-review-speed-")
    driver = start_browser(downloads)
    try:
        p = Page(driver, url)
        browser_check.open_page(p)
        took, gap, task = browser_review.speed(p, moves, args.variant)
        print(f"review of {len(moves)} plies ({args.variant}) in the browser: {took:.1f} s, "
              f"longest frame {gap:.0f} ms, longest task of the page's thread {task} ms")
    finally:
        driver.quit()
        server.kill()


if __name__ == "__main__":
    main()
