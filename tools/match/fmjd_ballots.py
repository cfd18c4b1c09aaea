#!/usr/bin/env python3
"""Writes src/data/openings/russian-fmjd-ballots.txt: the drawing table of three-move openings
of Russian draughts (150 ballots, 1-I to 15-X), as damka-match openings.

Source: the table as pydraughts ships it for Russian and Brazilian draughts
(draughts/ballot_files/150russian_and_brazilian.json, pydraughts 0.6.7 on PyPI, GPL-3.0). Each ballot there is named by short moves ("cd4 ba5 dc5":
c3-d4 b6-a5 d4-c5; "Free": the start position). This script replays every name with
pydraughts, taking for each short move the one legal move from that file to that square,
and writes the moves in damka's notation with the ballot's name, so that the file is checked
by replaying it (tools/match/tests/ballots.rs) rather than trusted.

Usage (a venv with pydraughts 0.6.7): python3 tools/match/fmjd_ballots.py > FILE
"""

import importlib.resources
import json
import sys

import draughts

FILES = "abcdefgh"
# The start position, for the ballot with no moves (an opening line needs a position or moves).
START = "W:Wa1,c1,e1,g1,b2,d2,f2,h2,a3,c3,e3,g3:Bb6,d6,f6,h6,a7,c7,e7,g7,b8,d8,f8,h8"


def algebraic(number):
    """pydraughts' (0.6) Russian square number as a square name: 1 is a1, 2 c1, ..., 5 b2."""
    row, col = divmod(int(number) - 1, 4)
    return FILES[2 * col + row % 2] + str(row + 1)

def main():
    text = (importlib.resources.files("draughts") / "ballot_files" / "150russian_and_brazilian.json").read_text()
    data = json.loads(text)
    names = data["standard"]
    print("# The drawing table of three-move openings of Russian draughts: 150 ballots,")
    print("# 1-I to 15-X, each played twice with colours reversed (damka-match's default).")
    print("# Source: the table as shipped by pydraughts 0.6.7 for Russian and Brazilian draughts")
    print("# (draughts/ballot_files/150russian_and_brazilian.json); made by:")
    print("# python3 tools/match/fmjd_ballots.py (see docs/match.md).")
    print("# A ballot of fewer than three plies leaves the rest free; \"Free\" is the start position.")
    for name in names:
        number, _, moves = name.partition(" ")
        board = draughts.Board(variant="russian")
        played = []
        if moves != "Free":
            for short in moves.split():
                src_file, dst = short[0], short[1:]
                found = []
                for move in board.legal_moves():
                    squares = [algebraic(n) for n in move.pdn_move.replace("x", "-").split("-")]
                    path = ("-" if "-" in move.pdn_move else ":").join(squares)
                    if squares[0][0] == src_file and squares[-1] == dst:
                        found.append((move, path))
                if len(found) != 1:
                    sys.exit(f"{name}: {short} matches {len(found)} legal moves")
                move, path = found[0]
                board.push(move)
                played.append(path)
        line = " ".join(played) if played else START
        print(f"{line:<20}  # {number} {moves}")

if __name__ == "__main__":
    main()
