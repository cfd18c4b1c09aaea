#!/usr/bin/env python3
"""How the drawn games of a Russian `damka-match --pdn` file ended, and with what material.

    python3 tools/research/pdn_endings.py FILE.pdn ENGINE

For every drawn game (result 1-1) played from the start position (games with a FEN tag are
left out), replays its moves to the last position and counts the games
by who had more material there (ENGINE, its opponent, or level; a king counts as 2.5 men),
by the men and kings of each side and by the PDN `Termination` tag. The replay only moves the
pieces the notation names (captured pieces are the ones on the jumped lines, a man crowns on
the far rank, also during a capture): the file comes from the engine, so its moves are legal.
"""
import collections
import re
import sys


def square(text):
    return ord(text[0]) - ord("a"), int(text[1]) - 1


def games(path):
    with open(path, encoding="utf-8") as f:
        text = f.read()
    for chunk in text.split("[Event")[1:]:
        tags = dict(re.findall(r'\[(\w+) "([^"]*)"\]', chunk))
        body = re.sub(r"\[[^\]]*\]", "", chunk)
        body = re.sub(r"\{[^}]*\}", "", body)
        yield tags, re.findall(r"[a-h][1-8](?:[-:][a-h][1-8])+", body)


def crowned(piece, rank):
    if piece == "w" and rank == 7:
        return "W"
    if piece == "b" and rank == 0:
        return "B"
    return piece


def last_position(moves):
    """The board after `moves` from the start: square -> 'w', 'b' (men) or 'W', 'B' (kings)."""
    board = {}
    for rank in range(8):
        for file in range(8):
            if (file + rank) % 2 == 0 and rank != 3 and rank != 4:
                board[(file, rank)] = "w" if rank < 3 else "b"
    for move in moves:
        points = [square(s) for s in re.split("[-:]", move)]
        piece = board.pop(points[0])
        if ":" in move:
            for a, b in zip(points, points[1:]):
                df = 1 if b[0] > a[0] else -1
                dr = 1 if b[1] > a[1] else -1
                x, y = a[0] + df, a[1] + dr
                while (x, y) != b:
                    board.pop((x, y), None)
                    x, y = x + df, y + dr
                piece = crowned(piece, b[1])
        end = points[-1]
        board[end] = crowned(piece, end[1])
    return board


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    path, engine = sys.argv[1], sys.argv[2]
    by_side = collections.Counter()
    detail = collections.Counter()
    try:
        records = list(games(path))
    except (OSError, UnicodeDecodeError) as e:
        print(f"pdn_endings: cannot read {path}: {e}", file=sys.stderr)
        sys.exit(2)
    for tags, moves in records:
        if tags.get("Result") != "1-1" or "FEN" in tags:
            continue
        try:
            count = collections.Counter(last_position(moves).values())
        except KeyError:
            print(f"pdn_endings: a move of round {tags.get('Round', '?')} starts on an empty "
                  "square (not a Russian game from the start position?)", file=sys.stderr)
            sys.exit(2)
        white = tags.get("White") == engine
        own = (count["w"], count["W"]) if white else (count["b"], count["B"])
        opp = (count["b"], count["B"]) if white else (count["w"], count["W"])
        lead = (own[0] + 2.5 * own[1]) - (opp[0] + 2.5 * opp[1])
        side = f"{engine} up" if lead > 0 else "opponent up" if lead < 0 else "level"
        by_side[side] += 1
        what = f"{own[0]} men {own[1]} kings against {opp[0]} men {opp[1]} kings"
        detail[(side, what, tags.get("Termination", "?"))] += 1
    for (side, what, end), n in sorted(detail.items(), key=lambda kv: (kv[0][0], -kv[1])):
        print(f"{n:4}  {side:12}  {what:40}  {end}")
    print("draws: " + ", ".join(f"{k} {v}" for k, v in sorted(by_side.items())))


if __name__ == "__main__":
    main()
