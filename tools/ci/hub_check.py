#!/usr/bin/env python3
"""Real-client check of damka's Hub protocol with pydraughts 0.6.7, unmodified.

For each game (Russian, Turkish):
  1. one damka process driven by pydraughts' HubEngine directly: handshake with
     set-param variant, every kind of `level` pydraughts sends (time+inc, time+moves,
     move-time, depth, nodes), `go ponder` + `ponder-hit`, `go ponder` + `stop`, ping;
  2. complete games between two damka processes in pydraughts' RoundRobin
     (players configured with {"variant": ...}) at a short time control.

It fails on any line pydraughts cannot read or does not expect (an `error`, a warning of
pydraughts' logger, anything on stderr: pydraughts merges it into stdout), on a move
pydraughts does not accept, on a game lost on time (a move that took longer than the
clock had), and on a finished game that damka itself does not accept as legal when it is
replayed in one `pos ... moves=` line. pydraughts' own Turkish move list is looser than
the rules (it lets kings pass their own men), so legality is judged by damka replaying the
game, with pydraughts only checking it can follow every move.

Usage: hub_check.py --engine target/release/damka [--games 2] [--time 4] [--inc 0.2]
"""

import os
import sys
import tempfile
import threading
import time

import draughts
from draughts import Board
from draughts.engine import HubEngine, Limit
from draughts.tournament import RoundRobin

from check_support import arguments, fail, install_line_checks, replay_in_damka, summary

VARIANTS = ["russian", "turkish"]

games = []  # (variant, initial hub position, [hub moves]) of each finished game
clock_log = []  # (used, available) of every timed move


def install_play_checks():
    """Wraps HubEngine.play (what RoundRobin calls for each move) to time every move exactly
    as RoundRobin charges it, and to record the game."""
    original_play = HubEngine.play

    def play(self, board, time_limit, ponder):
        available = time_limit.time
        start = time.perf_counter()
        result = original_play(self, board, time_limit, ponder)
        used = time.perf_counter() - start
        if available is not None:
            clock_log.append((used, available))
            if used > available:
                fail(
                    f"{board.variant}: lost on time at ply {len(board.move_stack) + 1}: "
                    f"used {used:.3f}s of {available:.3f}s"
                )
        if result.move is None:
            fail(f"{board.variant}: no move returned at ply {len(board.move_stack) + 1}")
        else:
            moves = [m.hub_move for m in board.move_stack] + [result.move.hub_move]
            current_game["record"] = (board.variant, board._game.initial_hub_fen, moves)
        return result

    HubEngine.play = play


current_game = {}


def direct_checks(engine_path, variant):
    """One HubEngine session through every limit pydraughts can send, and pondering."""
    e = HubEngine([engine_path])
    try:
        if "variant" not in e.options or set(e.variants) != set(VARIANTS):
            fail(f"hub declared options {e.options} variants {e.variants}")
        for name in ("name", "version", "author"):
            if name not in e.id:
                fail(f"id lacks {name}: {e.id}")
        e.configure({"variant": variant, "threads": 1, "hash": 16})
        e.init()
        e.ping()
        board = Board(variant)
        limits = [
            dict(my_time=1.0, inc=0.1),
            dict(my_time=0.8, moves_left=20),
            dict(my_time=0.6, inc=0.05, moves_left=10),
            dict(my_time=0.5),
            dict(my_time=-0.2),  # an overstepped clock: move at once
            dict(movetime=0.2),
            dict(depth=3),
            dict(nodes=5000),
        ]
        for lim in limits:
            moves = " ".join(m.hub_move for m in board.move_stack)
            t0 = time.perf_counter()
            best, ponder = e.go(board._game.initial_hub_fen, moves=moves, **lim)
            used = time.perf_counter() - t0
            budget = lim.get("my_time", lim.get("movetime"))
            if budget is not None and used > max(budget, 0) + 0.25:
                fail(f"{variant}: {lim} took {used:.3f}s")
            try:
                move = draughts.Move(board, hub_move=best)
            except Exception as ex:  # pydraughts raises KeyError for a move it does not know
                fail(f"{variant}: pydraughts rejects done move={best} ({ex!r})")
                return
            board.push(move)
            if board.is_over():
                return

        # go ponder, then ponder-hit from another thread (as pydraughts users do it)
        moves = " ".join(m.hub_move for m in board.move_stack)
        out = {}

        def ponder_search():
            out["r"] = e.go(board._game.initial_hub_fen, moves=moves, movetime=0.3, ponder=True)

        t = threading.Thread(target=ponder_search)
        t.start()
        time.sleep(0.3)
        if not t.is_alive():
            fail(f"{variant}: go ponder ended before ponder-hit")
        e.ponderhit()
        t.join(10)
        if t.is_alive() or "r" not in out:
            fail(f"{variant}: no done after ponder-hit")
            return
        draughts.Move(board.copy(), hub_move=out["r"][0])

        # go ponder, then stop: done at once
        out.clear()
        t = threading.Thread(target=ponder_search)
        t.start()
        time.sleep(0.2)
        while e._last_sent != "go ponder":
            time.sleep(0.01)
        t0 = time.perf_counter()
        e.stop()
        t.join(10)
        if t.is_alive() or "r" not in out:
            fail(f"{variant}: no done after stop")
            return
        if time.perf_counter() - t0 > 0.5:
            fail(f"{variant}: done came {time.perf_counter() - t0:.3f}s after stop")
        e.ping()
    finally:
        e.quit()
        e.kill_process()


def tournament(engine_path, variant, n_games, start_time, inc, max_moves):
    """Complete games between two damka processes in pydraughts' RoundRobin."""
    original_play_game = RoundRobin.play_game

    def play_game(self, p1, p2, game_number):
        current_game.clear()
        t0 = time.perf_counter()
        result = original_play_game(self, p1, p2, game_number)
        record = current_game.get("record")
        if record is None:
            fail(f"{variant}: game {game_number} has no moves")
            return result
        v, start, moves = record
        board = Board(v, start)
        for m in moves:
            board.push(draughts.Move(board, hub_move=m))
        over = board.is_over()
        if not over and len(moves) < max_moves:
            fail(f"{variant}: game {game_number} stopped after {len(moves)} plies, not over")
        print(
            f"{variant} game {self.round + 1}.{game_number}: {len(moves)} plies, "
            f"{'over' if over else 'move limit'}, result {result[0]}, "
            f"{time.perf_counter() - t0:.1f}s",
            flush=True,
        )
        games.append(record)
        return result

    RoundRobin.play_game = play_game
    try:
        with tempfile.TemporaryDirectory() as tmp:
            players = [
                ([engine_path], "hub", {"variant": variant}, None),
                ([engine_path], "hub", {"variant": variant}, None),
            ]
            rr = RoundRobin(
                os.path.join(tmp, "games.pdn"),
                players,
                start_time,
                inc,
                variant=variant,
                games_per_pair=n_games,
                max_moves=max_moves,
            )
            rr.play()
    finally:
        RoundRobin.play_game = original_play_game


def main():
    ap = arguments(__doc__)
    ap.add_argument("--games", type=int, default=2, help="games per variant (colours alternate)")
    ap.add_argument("--time", type=float, default=4.0, help="seconds per player per game")
    ap.add_argument("--inc", type=float, default=0.2, help="increment per move, seconds")
    ap.add_argument("--max-moves", type=int, default=300, help="plies before a game is stopped")
    ap.add_argument("--variants", default=",".join(VARIANTS))
    args = ap.parse_args()
    engine = args.engine
    install_line_checks()
    install_play_checks()

    t0 = time.perf_counter()
    for variant in args.variants.split(","):
        print(f"== {variant}: HubEngine session", flush=True)
        try:
            direct_checks(engine, variant)
        except Exception as ex:
            fail(f"{variant}: HubEngine session failed: {ex!r}")
        print(f"== {variant}: RoundRobin, {args.games} games at {args.time}s+{args.inc}s", flush=True)
        before = len(games)
        try:
            tournament(engine, variant, args.games, args.time, args.inc, args.max_moves)
        except Exception as ex:
            fail(f"{variant}: RoundRobin failed: {ex!r}")
        if len(games) - before != args.games:
            fail(f"{variant}: {len(games) - before} of {args.games} games finished")
        for v, start, moves in games[before:]:
            replay_in_damka(engine, v, start, moves, "it played")

    tight = min((a - u for u, a in clock_log), default=0.0)
    print(
        f"{len(games)} games, {len(clock_log)} timed moves, least time left "
        f"{tight:.3f}s, {time.perf_counter() - t0:.0f}s in all"
    )
    return summary("hub_check")


if __name__ == "__main__":
    sys.exit(main())
