#!/usr/bin/env python3
"""Answer latency of a Hub engine at a zero clock: sends `level time=0 inc=INC` and `go think`
N times from a few positions and measures, from writing `go think` to reading `done`, the
wall time of each answer. Prints count, median, 90th/99th percentile, max, and how many
answers took longer than the increment.

    python3 tools/research/hub_latency.py [--inc 0.01] [--n 500] [--variant turkish] [--param threads=2] \
        -- ENGINE ARGS...

The positions follow the engine's own answers from the start (60 moves, then again; a game
that ends starts again). Standard library only.
"""
import argparse, subprocess, time

START = {
    "turkish": "Weeeeeeeebbbbbbbbbbbbbbbbeeeeeeeeeeeeeeeewwwwwwwwwwwwwwwweeeeeeee",
    "russian": "Wbbbbbbbbbbbbeeeeeeeewwwwwwwwwwww",
}

def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--inc", type=float, default=0.01)
    ap.add_argument("--n", type=int, default=500)
    ap.add_argument("--variant", default="turkish")
    ap.add_argument("--param", action="append", default=[])
    ap.add_argument("engine", nargs="+")
    a = ap.parse_args()
    p = subprocess.Popen(a.engine, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1)
    def send(s):
        p.stdin.write(s + "\n"); p.stdin.flush()
    def until(*words):
        while True:
            l = p.stdout.readline()
            if not l:
                raise SystemExit("engine closed its output")
            if l.split(" ", 1)[0].strip() in words:
                return l
    send("hub"); until("wait")
    send(f"set-param name=variant value={a.variant}")
    for kv in a.param:
        k, v = kv.split("=", 1)
        send(f"set-param name={k} value={v}")
    send("init"); until("ready")
    lat = []
    moves = []
    for i in range(a.n):
        send(f"pos pos={START[a.variant]}" + (f' moves="{" ".join(moves)}"' if moves else ""))
        send(f"level time=0 inc={a.inc}")
        t = time.perf_counter()
        send("go think")
        done = until("done", "error")
        lat.append(time.perf_counter() - t)
        # A game that ended (no legal move: `error`) starts again from the start.
        m = done.split("move=", 1)[1].split()[0].strip() if done.startswith("done move=") else None
        moves = moves + [m] if m and len(moves) < 60 else []
    send("quit")
    lat.sort()
    q = lambda f: lat[min(len(lat) - 1, int(f * len(lat)))] * 1000
    over = sum(x > a.inc for x in lat)
    print(f"n={len(lat)} median={q(0.5):.2f}ms p90={q(0.9):.2f}ms p99={q(0.99):.2f}ms "
          f"max={lat[-1]*1000:.2f}ms over_inc={over}")

if __name__ == "__main__":
    main()
