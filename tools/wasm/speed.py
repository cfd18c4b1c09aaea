#!/usr/bin/env python3
"""Bench speed of the WebAssembly builds against the native binary, in one run on one
machine: `damka bench` (one thread), the same bench in Node and in headless Chromium for each
.wasm of target/wasm/. Rounds alternate native and WebAssembly, and each figure is the best of
its rounds, so that a busy machine (other jobs come and go) spoils as little as possible.

    python3 tools/wasm/speed.py [--rounds 3] [--native target/release/damka] [--dir target/wasm]

Needs the release binary (cargo build --release) and tools/wasm/build.sh's output; run it
with the venv of the browser tests for the Chromium figures (tools/wasm/check.sh makes it).
"""

import argparse
import os
import re
import subprocess
import sys

BUILDS = ["damka-simd-jspi.wasm", "damka-simd.wasm", "damka.wasm"]

NODE_BENCH = r"""
const fs = require('fs');
const bytes = fs.readFileSync(process.argv[1]);
const env = { damka_now_ms: () => Date.now(), damka_yield: () => {} };
WebAssembly.instantiate(bytes, { env }).then(({ instance }) => {
  const w = instance.exports;
  const t = performance.now();
  const nodes = w.damka_bench(0) + w.damka_bench(1);
  console.log(`nodes=${nodes} time=${((performance.now() - t) / 1000).toFixed(3)}`);
});
"""

BROWSER_BENCH = """
const [name, done] = arguments;
const env = { damka_now_ms: () => Date.now(), damka_yield: () => {} };
fetch(name).then((r) => r.arrayBuffer()).then((b) => WebAssembly.instantiate(b, { env }))
  .then(({ instance }) => {
    const w = instance.exports;
    const t = performance.now();
    const nodes = w.damka_bench(0) + w.damka_bench(1);
    done(`nodes=${nodes} time=${((performance.now() - t) / 1000).toFixed(3)}`);
  }, (e) => done('error ' + e));
"""


def parse(text):
    m = re.search(r"nodes=(\d+) time=([\d.]+)", text)
    if not m:
        raise RuntimeError(f"no bench figures in {text!r}")
    return int(m.group(1)), float(m.group(2))


def native(binary):
    out = subprocess.run([binary, "bench"], capture_output=True, text=True, check=True).stdout
    return parse(out.strip().splitlines()[-1])


def node(path):
    out = subprocess.run(["node", "-e", NODE_BENCH, path], capture_output=True, text=True, check=True)
    return parse(out.stdout)


def browser_runner(folder):
    """A function running the bench of one .wasm in headless Chromium, and a closer."""
    sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "web"))
    sys.path.insert(0, os.path.dirname(__file__))
    import tempfile
    from browser_test import start_browser
    from browser_check import serve
    server, url = serve(folder)
    driver = start_browser(tempfile.mkdtemp(prefix="damka-speed-"))
    driver.set_script_timeout(600)
    driver.get(url + "damka-worker.js")

    def run(name):
        return parse(driver.execute_async_script(BROWSER_BENCH, name))

    def close():
        driver.quit()
        server.kill()
    return run, close


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--native", default="target/release/damka")
    ap.add_argument("--dir", default="target/wasm")
    ap.add_argument("--no-browser", action="store_true")
    args = ap.parse_args()
    best = {}

    def keep(key, nodes_time):
        nodes, t = nodes_time
        if key not in best or t < best[key][1]:
            best[key] = (nodes, t)

    run_browser, close = (None, None) if args.no_browser else browser_runner(args.dir)
    try:
        for _ in range(args.rounds):
            for build in BUILDS:
                keep(("native", ""), native(args.native))
                keep(("node", build), node(os.path.join(args.dir, build)))
                if run_browser:
                    keep(("native", ""), native(args.native))
                    keep(("chromium", build), run_browser(build))
    finally:
        if close:
            close()
    base_nodes, base_time = best[("native", "")]
    print(f"{'where':<10} {'build':<22} {'nodes':>9} {'time s':>7} {'nps':>9} {'of native':>9}")
    for (where, build), (nodes, t) in best.items():
        ratio = base_time / t
        print(f"{where:<10} {build or 'damka bench':<22} {nodes:>9} {t:>7.3f} {nodes / t:>9.0f} {ratio:>8.0%}")
        if nodes != base_nodes:
            print(f"           node count differs from native ({base_nodes})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
