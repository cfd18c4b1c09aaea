#!/usr/bin/env python3
"""Keeps whole games, at random, from `damka datagen` files (for `datagen --rescore`).

    python3 tools/research/sample_games.py OUT EVERY SEED IN...

Reads the 32-byte records of every IN in order; a game starts where a record's ply does not
follow the previous record's; each game is kept with probability 1/EVERY (seeded by SEED) and
its records are written to OUT.
"""
import random
import sys

RECORD = 32


def main():
    if len(sys.argv) < 5:
        sys.exit(__doc__)
    out, every, seed = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
    rng = random.Random(seed)
    kept = games = 0
    with open(out, "wb") as o:
        for name in sys.argv[4:]:
            with open(name, "rb") as f:
                data = f.read()
            if len(data) % RECORD:
                sys.exit(f"{name}: not a whole number of {RECORD}-byte records")
            prev, keep = None, False
            for i in range(0, len(data), RECORD):
                rec = data[i : i + RECORD]
                ply = int.from_bytes(rec[22:24], "little")
                if prev is None or ply != (prev + 1) & 0xFFFF:
                    keep = rng.random() < 1.0 / every
                    games += 1
                    kept += keep
                prev = ply
                if keep:
                    o.write(rec)
    print(f"kept {kept} of {games} games", file=sys.stderr)


if __name__ == "__main__":
    main()
