#!/usr/bin/env python3
"""Real-client check of damka's DXP server with pydraughts 0.6.7, unmodified.

For each game (Russian, Turkish), `damka dxp` is started as a server on a free loopback
port and pydraughts' DXPEngine (the initiator) plays one whole game against it: the DXP
engine is damka, its opponent's moves come from a second damka over pydraughts' HubEngine.
damka plays White in Russian and Black in Turkish. In the Russian game pydraughts also
takes moves back once (BACKREQ, `DXPEngine.takeback`) and the game goes on from there.

The game ends when pydraughts' board says it is over, or when damka ends it itself by the
rules with a GAMEEND (pydraughts then stops waiting for a move: see `dxp_move`). After a
win on pydraughts' board damka must answer the last move with a GAMEEND; after a draw by
pydraughts' approximate Russian counters it may play on by its own rules (one more move,
checked like the others). It fails
on a move pydraughts cannot follow (pydraughts logs it as illegal and would wait for ever),
on no move within the time limit, on a takeback damka does not accept, on a game damka does
not accept as legal when replayed in one Hub `pos ... moves=` line (Turkish legality is
judged by damka: pydraughts' Turkish kings pass through their own men), on damka's clock
overstepped (damka's own accounting, from the arrival of each message handing it the move
to the sending of its answer, as its log reports it), on that accounting far below the time
taken at pydraughts' socket,
and on a server that does not end cleanly after the connection.

Usage: dxp_check.py --engine target/release/damka [--clock 6] [--movetime 0.05]
"""

import logging
import os
import re
import socket
import subprocess
import sys
import tempfile
import threading
import time

import draughts
import draughts.engines.dxp_communication.dxp_classes
from draughts import Board, WHITE, BLACK
from draughts.engine import DXPEngine, HubEngine

from check_support import arguments, fail, replay_in_damka, summary

MAX_PLIES = 300
# The wire time (taken at pydraughts' socket) includes pydraughts' own latency: its receiver
# thread waits for Python's interpreter lock, held by its busy-waiting main thread, and on a
# loaded machine for a CPU. Measured: 2-15 ms a move, against damka's own clock (arrival to
# sending). damka's clock must stay within the game's time; the wire time must agree with it
# up to that latency.
WIRE_SLACK = 1.3


class IllegalCatcher(logging.Handler):
    """pydraughts only logs (at debug level) a move it cannot find among its legal moves."""

    def __init__(self):
        super().__init__(logging.DEBUG)
        self.seen = []

    def emit(self, record):
        text = record.getMessage()
        if "received move is illegal" in text:
            self.seen.append(text)


class WireClock:
    """damka's thinking time as the wire shows it: from each message pydraughts sends that
    hands damka the move (GAMEREQ, MOVE, BACKREQ) to the arrival of damka's MOVE, taken where
    pydraughts' socket sends and receives, so pydraughts' own work on a move (its Python move
    generator, slow in Turkish) is not charged to damka."""

    def __init__(self):
        self.used = 0.0
        self.last_send = None
        self.moves = 0
        dxp_classes = draughts.engines.dxp_communication.dxp_classes
        original_send, original_receive = dxp_classes.MySocket.send, dxp_classes.MySocket.receive
        clock = self

        def send(sock, msg):
            r = original_send(sock, msg)
            if msg[:1] in ("R", "M", "B"):
                clock.last_send = time.perf_counter()
            if os.environ.get("DXP_CHECK_TRACE"):
                print(f"  sent {msg}")
            return r

        def receive(sock):
            msg = original_receive(sock)
            if msg.startswith("M") and clock.last_send is not None:
                clock.used += time.perf_counter() - clock.last_send
                if os.environ.get("DXP_CHECK_TRACE"):
                    print(f"  move {clock.moves + 1}: {time.perf_counter() - clock.last_send:.3f}s {msg}")
                clock.moves += 1
                clock.last_send = None
            return msg

        dxp_classes.MySocket.send = send
        dxp_classes.MySocket.receive = receive

    def reset(self):
        self.used, self.last_send, self.moves = 0.0, None, 0


def free_port():
    s = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
    s.close()
    return port


def start_server(engine, variant, port, clock, log_path):
    with open(log_path, "w") as log:
        proc = subprocess.Popen(
            [engine, "dxp", "--variant", variant, "--port", str(port), "--connections", "1",
             "--zero-minute-clock", str(clock), "--idle-timeout", "60", "--grace", "30"],
            stdout=subprocess.PIPE, stderr=log, stdin=subprocess.DEVNULL)
    deadline = time.monotonic() + 20
    while time.monotonic() < deadline:
        with open(log_path) as f:
            if "listening on" in f.read():
                return proc
        if proc.poll() is not None:
            break
        time.sleep(0.05)
    fail(f"{variant}: damka dxp did not start listening")
    proc.kill()
    return None


def dxp_move(e, board, catcher, timeout):
    """DXPEngine.play in a thread; returns (move or None, why). pydraughts waits for ever
    when damka ends the game with GAMEEND instead of a move; this sees its GAMEEND (the
    result pydraughts records) and stops that wait through pydraughts' own exit flag."""
    out = {}

    def run():
        out["r"] = e.play(board)

    t = threading.Thread(target=run, daemon=True)
    t.start()
    deadline = time.monotonic() + timeout
    why = None
    while t.is_alive():
        t.join(0.01)
        if e.sender.current.result is not None:
            why = "gameend"
        elif catcher.seen:
            why = "illegal: " + catcher.seen[-1]
        elif time.monotonic() > deadline:
            why = "timeout"
        if why:
            e.receiver.listening = False
            t.join(5)
            return None, why
    r = out.get("r")
    if r is None or r.move is None:
        return None, "no move"
    return r.move, None


def play_game(engine, variant, dxp_color, port, clock, movetime, catcher, takeback_at):
    board = Board(variant)
    hub = HubEngine([engine])
    hub.configure({"variant": variant, "hash": 16})
    hub.init()
    e = DXPEngine(None, {"engine-opened": True, "ip": "127.0.0.1", "port": port},
                  initial_time=0)
    used, dxp_moves, ended_by_damka, took_back = 0.0, 0, None, False
    try:
        while not board.is_over() and len(board.move_stack) < MAX_PLIES:
            if board.turn == dxp_color:
                if takeback_at and not took_back and len(board.move_stack) >= takeback_at:
                    took_back = True
                    target = len(board.move_stack) - 4
                    number, color = target // 2 + 1, (WHITE if target % 2 == 0 else BLACK)
                    t0 = time.perf_counter()
                    ok, _, result = e.takeback(number, color)
                    used += time.perf_counter() - t0
                    if not ok:
                        fail(f"{variant}: damka refused BACKREQ to move {number}")
                        break
                    while len(board.move_stack) > target:
                        board.pop()
                    if result.move is None:
                        fail(f"{variant}: no move after the takeback")
                        break
                    board.push(draughts.Move(board, hub_move=result.move.hub_move))
                    dxp_moves += 1
                    print(f"{variant}: took back to move {number}, damka answered "
                          f"{result.move.hub_move}", flush=True)
                    continue
                t0 = time.perf_counter()
                move, why = dxp_move(e, board, catcher, timeout=clock + 30)
                used += time.perf_counter() - t0
                if move is None:
                    if why == "gameend":
                        ended_by_damka = e.sender.current.result
                    else:
                        fail(f"{variant}: ply {len(board.move_stack) + 1}: {why}")
                    break
                board.push(draughts.Move(board, hub_move=move.hub_move))
                dxp_moves += 1
            else:
                moves = " ".join(m.hub_move for m in board.move_stack)
                best, _ = hub.go(board._game.initial_hub_fen, moves=moves, movetime=movetime)
                board.push(draughts.Move(board, hub_move=best))
        if board.move_stack and board.turn == dxp_color and ended_by_damka is None:
            # The opponent's last move: damka must hear it and answer on its turn. A win
            # (no piece or no move left) is the same in both rule books, and damka must say
            # so with a GAMEEND. pydraughts' Russian draw rules are approximations (its
            # counters run from the last capture, not from when the balance arose, and a
            # promotion does not reset them), so after a draw by pydraughts' book damka may
            # rightly play on: its move is then checked like any other (pydraughts can
            # follow it, and the replay in damka accepts it).
            drawn_here = board.is_over() and board.winner() == 0
            move, why = dxp_move(e, board, catcher, timeout=clock + 30)
            if move is not None:
                if board.is_over() and not drawn_here:
                    fail(f"{variant}: damka played {move.hub_move} after the game was won")
                else:
                    board.push(draughts.Move(board, hub_move=move.hub_move))
                    dxp_moves += 1
                    if drawn_here:
                        print(f"{variant}: pydraughts scores a draw by its own counters, "
                              f"damka plays on by the rules: {move.hub_move}", flush=True)
            elif why == "gameend":
                ended_by_damka = e.sender.current.result
            elif board.is_over():
                fail(f"{variant}: no GAMEEND from damka after the last move ({why})")
    finally:
        e.quit()  # GAMEEND E01, then pydraughts closes the socket (after 7 s)
        e.kill_process()
        hub.quit()
        hub.kill_process()
    if takeback_at and not took_back:
        fail(f"{variant}: the game ended before the takeback")
    record = (board._game.initial_hub_fen, [m.hub_move for m in board.move_stack])
    return record, used, dxp_moves, ended_by_damka, board


def check_variant(engine, variant, dxp_color, clock, movetime, catcher, wire, tmp):
    wire.reset()
    port = free_port()
    log_path = os.path.join(tmp, f"dxp-{variant}.log")
    server = start_server(engine, variant, port, clock, log_path)
    if server is None:
        return
    t0 = time.perf_counter()
    try:
        takeback_at = 12 if variant == "russian" else 0
        (start, moves), used, n, ended, board = play_game(
            engine, variant, dxp_color, port, clock, movetime, catcher, takeback_at)
    except Exception as ex:
        fail(f"{variant}: the game failed: {ex!r}")
        server.kill()
        return
    try:
        out, _ = server.communicate(timeout=40)
        if out:
            fail(f"{variant}: damka dxp wrote to stdout: {out[:200]!r}")
        if server.returncode != 0:
            fail(f"{variant}: damka dxp exited with status {server.returncode}")
    except subprocess.TimeoutExpired:
        fail(f"{variant}: damka dxp did not end after its connection")
        server.kill()
    with open(log_path) as f:
        log = f.read()
    if "panick" in log:
        fail(f"{variant}: damka panicked: {log[-2000:]}")
    ends = re.findall(r"game over after (\d+) plies: (.*) \(used ([\d.]+) s of ([\d.]+) s\)", log)
    if len(ends) != 1:
        fail(f"{variant}: expected one game in damka's log, found {ends}")
    else:
        plies, how, srv_used, srv_clock = ends[0]
        # When damka's own move ended the game by a rule pydraughts does not have (Turkish
        # lone king against man, the Russian draw rules), pydraughts plays on and damka
        # answers that move with its GAMEEND: one ply more on pydraughts' side.
        by_rules = re.match(r"(White wins|Black wins|draw) \(", how) is not None
        late = ended and int(plies) == len(moves) - 1 and by_rules
        if int(plies) != len(moves) and not late:
            fail(f"{variant}: damka saw {plies} plies, pydraughts {len(moves)}")
        if float(srv_used) > float(srv_clock):
            fail(f"{variant}: damka overstepped its clock: {srv_used} s of {srv_clock} s")
        if wire.used > float(srv_used) * WIRE_SLACK + 0.5:
            fail(f"{variant}: damka's clock ({srv_used} s) is far below the time its answers "
                 f"took on the wire ({wire.used:.2f} s)")
        print(f"{variant}: damka's view: {how}, its clock {srv_used} s of {srv_clock} s",
              flush=True)
    over = "over" if board.is_over() else ("ended by damka" if ended else "ply limit")
    print(f"{variant}: {len(moves)} plies ({n} by damka over DXP), {over}, damka's time on "
          f"the wire {wire.used:.2f} s of {clock} s ({wire.moves} moves; {used:.2f} s with "
          f"pydraughts' own work), {time.perf_counter() - t0:.0f} s", flush=True)
    replay_in_damka(engine, variant, start, moves, "played over DXP")


def main():
    ap = arguments(__doc__)
    ap.add_argument("--clock", type=float, default=6.0,
                    help="seconds damka has for each game (GAMEREQ says 000 minutes)")
    ap.add_argument("--movetime", type=float, default=0.05, help="the opponent's seconds a move")
    ap.add_argument("--variants", default="russian,turkish")
    ap.add_argument("--log-dir", help="keep damka's logs (dxp-VARIANT.log) in this directory")
    args = ap.parse_args()
    engine = args.engine
    sys.setswitchinterval(0.001)  # pydraughts busy-waits: let its receiver thread in sooner
    catcher = IllegalCatcher()
    logger = logging.getLogger("pydraughts")
    logger.addHandler(catcher)
    logger.setLevel(logging.DEBUG)
    logger.propagate = False

    wire = WireClock()
    t0 = time.perf_counter()
    colors = {"russian": WHITE, "turkish": BLACK}
    with tempfile.TemporaryDirectory() as tmp:
        tmp = args.log_dir or tmp
        for variant in args.variants.split(","):
            print(f"== {variant}: pydraughts DXPEngine against damka dxp", flush=True)
            check_variant(engine, variant, colors[variant], args.clock, args.movetime,
                          catcher, wire, tmp)
    print(f"{time.perf_counter() - t0:.0f}s in all")
    return summary("dxp_check")


if __name__ == "__main__":
    sys.exit(main())
