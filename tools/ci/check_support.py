"""What the real-client checks (hub_check.py, lidraughts_check.py, dxp_check.py) share: the
failure list, the command line with its checked engine path, the strict reading of every line
damka writes and of pydraughts' warnings, the replay of a finished game in damka (which judges
its legality: pydraughts' Turkish move list is looser than the rules) and the closing summary.
It runs with pydraughts 0.5.7 and 0.6.x alike."""

import argparse
import logging
import os
import re

from draughts.engine import HubEngine

failures = []

# Every line damka may write to a client, in the strict form: a command word, then
# key=value arguments, values quoted only when they hold a space.
ARG = r'[a-z][a-z-]*=(?:"[^"=]*"|[^\s"=]+)'
LINE = re.compile(r"^(id|param|wait|ready|info|done|pong)( " + ARG + r")*$")
INFO = re.compile(
    r"^info depth=\d+ mean-depth=\d+\.\d score=-?\d+\.\d\d nodes=\d+ time=\d+\.\d+"
    r' nps=\d+\.\d+( pv="[0-9x\- ]+"| pv=[0-9x\-]+)?( book=yes)?$'
)
DONE = re.compile(r"^done move=\d+[-x][0-9x]+( ponder=\d+[-x][0-9x]+)?$")


def fail(msg):
    """Records a failure and prints it at once (the checks go on)."""
    failures.append(msg)
    print("FAIL:", msg, flush=True)


class WarningCatcher(logging.Handler):
    """pydraughts logs every line it did not expect (an `error` among them) as a warning."""

    def emit(self, record):
        if record.levelno >= logging.WARNING:
            fail("pydraughts: " + record.getMessage())


def install_line_checks():
    """Fails on every line pydraughts receives from damka that is not in the strict form (an
    `error` line included), and listens to pydraughts' warnings."""
    logging.getLogger("pydraughts").addHandler(WarningCatcher())
    logging.getLogger("pydraughts").setLevel(logging.WARNING)
    original_recv = HubEngine.recv

    def recv(self):
        line = original_recv(self)
        if not LINE.match(line):
            fail(f"unreadable or unexpected line from damka: {line!r}")
        elif line.startswith("info ") and not INFO.match(line):
            fail(f"info line not in Scan's form: {line!r}")
        elif line.startswith("done ") and not DONE.match(line):
            fail(f"done line not in Hub form: {line!r}")
        return line

    HubEngine.recv = recv


def engine_path(path):
    """The engine's absolute path; refused (argparse then exits with status 2) when it is not
    an executable."""
    engine = os.path.realpath(path)
    if not os.access(engine, os.X_OK):
        raise argparse.ArgumentTypeError(f"no engine at {engine}")
    return engine


def arguments(doc):
    """A check's command line: described by the first line of its docstring `doc`, with
    `--engine`, the damka to check (its absolute path once parsed)."""
    ap = argparse.ArgumentParser(description=doc.split("\n")[0])
    ap.add_argument("--engine", type=engine_path, default="target/release/damka")
    return ap


def replay_in_damka(engine, variant, start, moves, played, options=None, report=True):
    """damka must accept the whole game as legal: one pos line, then ping. `played` says
    where the game was played, for the failure message; `options` are set first (the
    numbering). Returns whether damka accepted it; with `report` false a refusal is not a
    failure (the caller judges)."""
    h = HubEngine([engine])
    accepted = True
    try:
        h.configure(dict(options or {}, variant=variant))
        h.init()
        h.send(f'pos pos={start} moves="{" ".join(moves)}"')
        h.send("ping")
        while True:
            command, arg = h.recv_hub()
            if command == "pong":
                return accepted
            accepted = False
            if report:
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
