#!/usr/bin/env python3
"""Whole Russian games driven the way lidraughts-bot drives a Hub engine, with the pydraughts
of the venv it runs in: 0.5.7 (what lidraughts-bot pins; it numbers squares from the top, so
damka is started with `--numbering=top`, as lidraughts-bot's `engine_options` passes it) or
0.6.x (squares from a1, damka's default).

For each game, as lidraughts-bot's engine_wrapper.py and lidraughts-bot.py do:
  - a new HubEngine for the game, started as [damka, "hub", "--numbering=..."] in a working
    folder; configure() with lidraughts-bot's default hub_options (book-ply 20, tt-size 23,
    bb-size 0: what its `auto` gives without Scan's data folders) plus `variant` and
    `initial-time`, then init();
  - the first move on a fixed move time, every later one on the clock (time and increment),
    the start position and every move sent each time (pydraughts' `play`);
  - with pondering on: after each move, `go ponder` on the expected reply in a thread; on
    the opponent's move `ponder-hit` when it was the expected one, else `stop` and a new
    search;
  - the opponent is a second damka (its numbering set with `set-param`) at a fixed number of
    nodes.
damka plays White in half of the games, and ponders in half of them.

It fails on any `error` or unexpected line, a warning of pydraughts' logger, a move
pydraughts cannot follow, a game lost on the clock, a search that does not answer within its
time (a hang), and a game damka itself does not accept when replayed. pydraughts 0.5.7's own
Russian capture rules are wrong in a few positions (a man crowned during a capture stops
there, a king may stop before a further capture): when it cannot follow a move that damka
(the referee) accepts, that game ends there and another is played; fewer than --games whole
games is a failure.

Usage: lidraughts_check.py --engine target/ci/damka [--games 4] [--time 6] [--inc 0.1]
"""

import os
import sys
import tempfile
import threading
import time

import draughts
from draughts.engine import HubEngine, Limit

from check_support import arguments, fail, install_line_checks, replay_in_damka, summary

VERSION = draughts.__version__
OLD = VERSION.startswith("0.5")
# pydraughts up to 0.5 numbers squares from the top left (1 = b8), later ones from a1.
NUMBERING = "top" if OLD else "standard"
VARIANT = "russian"
# lidraughts-bot's default config.yml hub_options (bb-size `auto` becomes 0 without Scan's
# ./data/bb_russian folders).
HUB_OPTIONS = {"book-ply": 20, "tt-size": 23, "bb-size": 0}
# lidraughts-bot thinks 10 s on its first move (lidraughts' 30 s limit); shorter here.
FIRST_MOVE_TIME = 0.5


def new_board():
    return draughts.Game(variant=VARIANT) if OLD else draughts.Board(variant=VARIANT)


def push(board, move):
    board.push(move.board_move if OLD else move)


def initial_hub_fen(board):
    return board.initial_hub_fen if OLD else board._game.initial_hub_fen


class Stopped(Exception):
    """pydraughts cannot follow a move damka accepts (its own rules differ): the game ends.
    `move` is the move pydraughts could not read, `record` the game before it."""

    def __init__(self, message, move=None):
        super().__init__(message)
        self.move = move
        self.record = None


class Watchdog:
    """Kills both engines when a game runs past its deadline, so that a hang is a failure
    (pydraughts then reads end of file) instead of a check that never ends."""

    def __init__(self, seconds, engines):
        self.fired = False
        self.timer = threading.Timer(seconds, self.fire, [engines])
        self.timer.daemon = True
        self.timer.start()

    def fire(self, engines):
        self.fired = True
        for e in engines:
            try:
                e.kill_process()
            except Exception:
                pass

    def cancel(self):
        self.timer.cancel()


def start_engine(engine, folder, initial_time, on_command_line):
    """A HubEngine as lidraughts-bot makes one: the numbering on the command line for the
    engine under test, by set-param for the opponent."""
    command = [engine, "hub"]
    options = dict(HUB_OPTIONS, variant=VARIANT)
    options["initial-time"] = initial_time
    if on_command_line:
        command.append(f"--numbering={NUMBERING}")
    else:
        options["numbering"] = NUMBERING
    e = HubEngine(command, cwd=folder)
    if "numbering" not in e.options:
        fail(f"hub does not declare numbering: {sorted(e.options)}")
    e.configure(options)
    e.init()
    return e


def follow(engine, board, result, who):
    """The move of a PlayResult, checked: pydraughts has already read it (`play` raises when
    it cannot); None raises Stopped."""
    if result is None or result.move is None:
        raise Stopped(f"{who} returned no move")
    return result.move


def remember_done_moves():
    """Keeps the move of each engine's last `done` line: when pydraughts cannot read it, the
    referee still needs its text."""
    original_recv = HubEngine.recv

    def recv(self):
        line = original_recv(self)
        if line.startswith("done move="):
            self.last_done = line.split()[1].split("=", 1)[1]
        return line

    HubEngine.recv = recv


def play_move(engine, board, limit, ponder, who):
    """engine.play, with pydraughts failing to read damka's move turned into a judgement:
    damka must accept its own move (then pydraughts' rules differ and the game stops), or it
    is a failure."""
    try:
        return engine.play(board, limit, ponder=ponder)
    except (KeyError, ValueError) as ex:
        move = getattr(engine, "last_done", "?")
        raise Stopped(f"{who}: pydraughts cannot read damka's move {move} ({ex!r})", move)


def stop_pondering(bot, thread):
    """Stops a ponder search the way the bot does, once `go ponder` has gone out; whether its
    thread got its `done` within 5 s."""
    while bot._last_sent != "go ponder" and thread.is_alive():
        time.sleep(0.001)
    bot.stop()
    thread.join(5)
    return not thread.is_alive()


def game(engine, n, clock0, inc, nodes, max_plies):
    """One game; returns (whole, plies, record) or raises Stopped."""
    damka_white = n % 2 == 0
    ponder = (n // 2) % 2 == 0
    folder = tempfile.mkdtemp(prefix="lidraughts-check-")
    bot = start_engine(engine, folder, clock0, on_command_line=True)
    opponent = start_engine(engine, folder, 60.0, on_command_line=False)
    dog = Watchdog(clock0 + 3 * max_plies * 0.1 + 30, [bot, opponent])
    board = new_board()
    clock = clock0
    pondering = None  # (thread, expected reply's hub move, result holder)
    try:
        while not board.is_over() and len(board.move_stack) < max_plies:
            white_to_move = len(board.move_stack) % 2 == 0  # the game starts with White
            if white_to_move != damka_white:
                r = play_move(opponent, board, Limit(nodes=nodes), False, "opponent")
                push(board, follow(opponent, board, r, "opponent"))
                continue
            t0 = time.perf_counter()
            result = None
            if pondering is not None:
                thread, expected, out = pondering
                pondering = None
                last = board.move_stack[-1].hub_move
                if last == expected:
                    bot.ponderhit()
                    thread.join(clock + inc + 5)
                    result = out.get("result")
                    if "error" in out:
                        raise out["error"]
                    if thread.is_alive() or result is None:
                        fail(f"game {n}: no done after ponder-hit")
                        return False, len(board.move_stack), None
                else:
                    if not stop_pondering(bot, thread):
                        fail(f"game {n}: no done after stop")
                        return False, len(board.move_stack), None
                    if "error" in out:
                        raise out["error"]
            if result is None:
                if len(board.move_stack) < 2:
                    limit = Limit(movetime=FIRST_MOVE_TIME)
                else:
                    limit = Limit(time=clock, inc=inc)
                result = play_move(bot, board, limit, False, "damka")
            used = time.perf_counter() - t0
            if len(board.move_stack) >= 2:
                clock = clock - used + inc
                if clock < 0:
                    fail(f"game {n}: damka lost on time at ply {len(board.move_stack) + 1}")
            best = follow(bot, board, result, "damka")
            push(board, best)
            if ponder and result.ponder is not None and not board.is_over():
                expected = result.ponder.hub_move
                ponder_board = board.copy()
                push(ponder_board, result.ponder)
                out = {}
                ponder_clock = clock

                def search(b=ponder_board, out=out, c=ponder_clock):
                    try:
                        out["result"] = bot.play(b, Limit(time=c, inc=inc), ponder=True)
                    except Exception as ex:  # judged on the main thread
                        out["error"] = Stopped(f"ponder: {ex!r}")

                thread = threading.Thread(target=search, daemon=True)
                thread.start()
                pondering = (thread, expected, out)
        if pondering is not None:
            thread, _, _ = pondering
            if not stop_pondering(bot, thread):
                fail(f"game {n}: no done after the last stop")
        record = (initial_hub_fen(board), [m.hub_move for m in board.move_stack])
        return True, len(board.move_stack), record
    except EOFError:
        why = "a search did not answer in time (hang)" if dog.fired else "damka exited"
        fail(f"game {n}: {why} at ply {len(board.move_stack) + 1}")
        return False, len(board.move_stack), None
    except Stopped as ex:
        record = (initial_hub_fen(board), [m.hub_move for m in board.move_stack])
        ex.record = record
        raise
    finally:
        dog.cancel()
        for e in (bot, opponent):
            try:
                e.quit()
                e.kill_process()
            except Exception:
                pass


def main():
    ap = arguments(__doc__)
    ap.add_argument("--games", type=int, default=4, help="whole games to play")
    ap.add_argument("--extra", type=int, default=4, help="more games allowed to replace games "
                    "stopped where pydraughts' rules differ")
    ap.add_argument("--time", type=float, default=6.0, help="damka's clock, seconds")
    ap.add_argument("--inc", type=float, default=0.1, help="increment per move, seconds")
    ap.add_argument("--nodes", type=int, default=3000, help="the opponent's nodes per move")
    ap.add_argument("--max-plies", type=int, default=200)
    args = ap.parse_args()
    engine = args.engine
    install_line_checks()
    remember_done_moves()
    print(f"== pydraughts {VERSION}: numbering={NUMBERING}, {args.games} games at "
          f"{args.time}s+{args.inc}s against {args.nodes} nodes a move", flush=True)
    t0 = time.perf_counter()
    whole = 0
    n = 0
    options = {"numbering": NUMBERING}
    while whole < args.games and n < args.games + args.extra:
        g0 = time.perf_counter()
        colour = "White" if n % 2 == 0 else "Black"
        ponder = "ponder" if (n // 2) % 2 == 0 else "no ponder"
        try:
            ok, plies, record = game(engine, n, args.time, args.inc, args.nodes, args.max_plies)
        except Stopped as ex:
            start, moves = ex.record
            if ex.move is not None:
                moves = moves + [ex.move]
            # damka is the referee: the game so far, and the move pydraughts could not read,
            # must be legal (it replays the game in the client's numbering).
            if ex.move is None:
                fail(f"game {n}: {ex}")
            elif "x" not in ex.move:
                # pydraughts' rules differ only in captures: a quiet move it cannot read is
                # in the wrong numbering.
                fail(f"game {n}: {ex}: a quiet move, so the numbering is wrong")
            elif replay_in_damka(engine, VARIANT, start, moves, f"with pydraughts {VERSION}",
                                 options):
                print(f"game {n} ({colour}, {ponder}) stopped after {len(moves)} plies: {ex}; "
                      f"pydraughts {VERSION}'s rules differ there", flush=True)
            n += 1
            continue
        n += 1
        if not ok:
            continue
        start, moves = record
        replay_in_damka(engine, VARIANT, start, moves, f"with pydraughts {VERSION}", options)
        whole += 1
        print(f"game {n - 1} ({colour}, {ponder}): {plies} plies, "
              f"{time.perf_counter() - g0:.1f}s", flush=True)
    if whole < args.games:
        fail(f"{whole} of {args.games} whole games in {n} tries")
    print(f"{whole} whole games in {n}, {time.perf_counter() - t0:.0f}s in all")
    return summary(f"lidraughts_check (pydraughts {VERSION})")


if __name__ == "__main__":
    sys.exit(main())
