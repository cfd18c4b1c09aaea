"""What the real-client checks (hub_check.py, dxp_check.py) share: the failure list, the
engine path from the command line, the replay of a finished game in damka (which judges its
legality: pydraughts' Turkish move list is looser than the rules) and the closing summary."""

import os
import sys

from draughts.engine import HubEngine

failures = []


def fail(msg):
    """Records a failure and prints it at once (the checks go on)."""
    failures.append(msg)
    print("FAIL:", msg, flush=True)


def engine_path(path):
    """The engine's absolute path, or None (with a message) when it is not an executable."""
    engine = os.path.realpath(path)
    if not os.access(engine, os.X_OK):
        print(f"no engine at {engine}", file=sys.stderr)
        return None
    return engine


def replay_in_damka(engine, variant, start, moves, played):
    """damka must accept the whole game as legal: one pos line, then ping. `played` says
    where the game was played, for the failure message."""
    h = HubEngine([engine])
    try:
        h.configure({"variant": variant})
        h.init()
        h.send(f'pos pos={start} moves="{" ".join(moves)}"')
        h.send("ping")
        while True:
            command, arg = h.recv_hub()
            if command == "pong":
                return
            fail(f"{variant}: damka rejects the game {played}: {command} {arg}")
    finally:
        h.quit()
        h.kill_process()


def summary(tool):
    """Prints the outcome and gives the exit status: 1 after any failure."""
    if failures:
        print(f"{tool}: {len(failures)} failure(s)")
        return 1
    print(f"{tool}: all passed")
    return 0
