"""Whole games through the protocol, as the Pico target played them (CPython or the real MicroPython).

``resilience.Bench`` is the firmware's ``App`` on twins of the hardware
functions with the protocol handler in front, as ``main.py`` runs it. Here a
seeded player plays whole money games on it: random legal plays laid on the
switches (hits included), the cube now and then, a ping and a snapshot
request after every action. Run under the unix MicroPython with a fixed heap
(tests/test_unix_micropython.py), it shows that ordinary games meet no fault:
``play(n, seed)`` returns ``(games, plays, faults, internal errors)``.
"""

import json

from pipcore import geometry as g
from pipcore.board import NLOC, fill_counts

from resilience import Bench

try:
    import random
except ImportError:  # pragma: no cover
    import urandom as random
try:
    import os
except ImportError:  # pragma: no cover
    import uos as os


class DiskFlash:
    """The board's filesystem as real files in ``folder``: like the Pico's flash, outside the heap
    (an in-memory twin would charge the heap with the saves themselves)."""

    def __init__(self, folder):
        self.folder = folder

    def _path(self, path):
        return self.folder + "/" + path.lstrip("/")

    def open(self, path, mode="rb"):
        return open(self._path(path), mode)

    def rename(self, old, new):
        os.rename(self._path(old), self._path(new))

    def remove(self, path):
        os.remove(self._path(path))

    def listdir(self):
        return os.listdir(self.folder)


class Dice:
    """Seeded dice: a pair per roll."""

    def __init__(self, seed):
        random.seed(seed)
        self.rolled = 0

    def roll(self):
        self.rolled += 1
        return random.randint(1, 6), random.randint(1, 6)


def _roll_button(player):
    return g.BTN_WHITE_ROLL if player == 0 else g.BTN_BLACK_ROLL


def _answer_buttons(player):
    return (g.BTN_WHITE_TAKE, g.BTN_WHITE_DROP) if player == 0 else (g.BTN_BLACK_TAKE, g.BTN_BLACK_DROP)


def _double_button(player):
    return g.BTN_WHITE_DOUBLE if player == 0 else g.BTN_BLACK_DOUBLE


def lay(bench, pos, mover):
    counts = bytearray(NLOC)
    fill_counts(pos, mover, counts)
    bench.show(counts)


def play(games, seed, budget=4000, folder=None):
    """Play ``games`` whole games; returns (games finished, plays, faults, internal errors).

    ``folder``: an empty folder for the saves (real files), else the in-memory flash twin.
    """
    bench = Bench(DiskFlash(folder) if folder else None)
    bench.dice = Dice(seed)
    bench.bridge.dice.dice = bench.dice  # under the protocol's wrapper, as on the board
    finished = plays = internal = 0
    steps = 0
    lay(bench, bench.app.ctl.pos, bench.app.ctl.mover)
    while finished < games and steps < budget:
        steps += 1
        ctl = bench.app.ctl
        phase = ctl.phase_name()
        if phase == "setup":
            bench.show(bytearray(NLOC))  # the hands clear the board (switches cannot tell colours), then set it up
            lay(bench, ctl.pos, ctl.mover)
        elif phase == "opening":
            bench.press(g.BTN_WHITE_ROLL)
        elif phase == "turn-start":
            if ctl.can_double() and random.randint(0, 9) == 0:
                bench.press(_double_button(ctl.mover))
            else:
                bench.press(_roll_button(ctl.mover))
        elif phase == "cube-offered":
            take, drop = _answer_buttons(1 - ctl.offerer)
            bench.press(take if random.randint(0, 3) else drop)
        elif phase == "moving":
            turn = ctl.turn
            code = turn.plays[random.randint(0, len(turn.plays) - 1)]
            lay(bench, turn.result(code), ctl.mover)
            bench.press(_roll_button(ctl.mover))
            plays += 1
        elif phase == "pick":
            bench.press(_roll_button(ctl.mover))  # DONE takes the candidate shown
        elif phase in ("game-over", "match-over"):
            finished += 1
            bench.press(_roll_button(0))
        for line in bench.out:
            if b'"internal"' in line:
                internal += 1
        del bench.out[:]
        bench.ask()
        for line in bench.out:
            msg = json.loads(line)
            if msg.get("error") == "internal":
                internal += 1
        del bench.out[:]
    return finished, plays, bench.app.faults, internal
