"""Faults at every step of a scripted game: the board survives and loses no committed play.

Runs under CPython and the real MicroPython (no pytest here). ``Bench`` is
the firmware's ``App`` on minimal twins of the hardware functions (switch
chain, LED writer, buttons, an in-memory flash), with the protocol handler
in front of it as on the Pico. ``SCRIPT`` is two turns played the way
people play them: the opening roll, white's 31 lifted and placed checker
by checker, DONE, black's roll, black's 64, DONE.

``Faults`` wraps every method of the classes a pass of the loop goes
through (controller, renderer, panel, LED driver, storage, scanner,
buttons, protocol bridge) with a counter; armed with ``(k, kind)`` it makes
the k-th call fail:

* ``"memory"``  raises MemoryError before the method runs;
* ``"runtime"`` raises RuntimeError (a bug);
* ``"heap"``    (MicroPython) locks the heap for that call, so the first
  real allocation inside it raises a real MemoryError; unlocked on the way
  out, a short shortage like a fragmented heap gives.

``run(k, kind)`` plays the script with that fault and returns what the
check needs: the last committed state (read back from the flash, as a power
cut would), whether the host got exactly one answer to every request
(a ping and a snapshot after every action), and whether the fault fired.
"""

import gc
import json

from pipcore import geometry as g
from pipcore import guard
from pipcore.app import App
from pipcore.board import NLOC, fill_counts
from pipcore.notation import parse_play
from pipcore.position import Position
from pipcore.bridge import AppBridge
from pipcore.protocol import ProtocolHandler
from pipcore.rules import apply_move
from pipdrivers.board import Board

try:
    import micropython
except ImportError:
    micropython = None

DICE = ((3, 1), (6, 4), (5, 2), (4, 4))
SCRIPT = ("setup", ("press", g.BTN_WHITE_ROLL), ("play", 0, "8/5 6/5"), ("press", g.BTN_WHITE_ROLL),
          ("press", g.BTN_BLACK_ROLL), ("play", 1, "24/18 13/9"), ("press", g.BTN_BLACK_ROLL))
KEYS = ("ref", "rec", "setup", "forced")  # the whole committed match (the referee's state), the record, setup


def _plain(f):
    return f


_FUNCTION = type(_plain)


def _target_classes():
    from pipcore.controller import Controller
    from pipcore.render import Renderer
    from pipdrivers.buttons import Buttons
    from pipdrivers.dice_display import DiceDisplay
    from pipdrivers.leds import Pixels
    from pipdrivers.scan import Scanner
    from pipdrivers.storage import AtomicStore

    from pipdrivers.recstore import MatchStore

    return (Controller, Renderer, DiceDisplay, Pixels, AtomicStore, MatchStore, Scanner, Buttons, AppBridge)


class Faults:
    """Counts the calls of every method of the target classes; fails the k-th once armed."""

    def __init__(self):
        self.calls = 0
        self.at = -1
        self.kind = None
        self.fired = 0
        self.where = None  # the method that failed
        self.saved = []
        for cls in _target_classes():
            for name in list(cls.__dict__):
                fn = cls.__dict__[name]
                if type(fn) is not _FUNCTION or name in ("__init__", "__len__"):
                    continue
                self.saved.append((cls, name, fn))
                setattr(cls, name, self._wrap(fn, name))

    def _wrap(self, fn, name):
        faults = self

        def wrapper(*args, **kw):
            faults.calls += 1
            if faults.calls != faults.at:
                return fn(*args, **kw)
            faults.fired += 1
            faults.where = name
            if faults.kind == "memory":
                raise MemoryError("injected")
            if faults.kind == "runtime":
                raise RuntimeError("injected")
            micropython.heap_lock()
            try:
                return fn(*args, **kw)
            finally:
                micropython.heap_unlock()

        return wrapper

    def arm(self, at, kind):
        self.calls = 0
        self.at = at
        self.kind = kind
        self.fired = 0

    def remove(self):
        for cls, name, fn in self.saved:
            setattr(cls, name, fn)
        self.saved = []


class _File:
    def __init__(self, files, path, write):
        self.files = files
        self.path = path
        self.pos = 0
        if write:
            files[path] = bytearray()

    def write(self, data):
        buf = self.files[self.path]
        buf[self.pos:self.pos + len(data)] = data
        self.pos += len(data)
        return len(data)

    def read(self, n=-1):
        data = self.files[self.path]
        chunk = data[self.pos:] if n < 0 else data[self.pos:self.pos + n]
        self.pos += len(chunk)
        return bytes(chunk)

    def seek(self, offset, whence=0):
        self.pos = offset + (len(self.files[self.path]) if whence == 2 else 0)

    def tell(self):
        return self.pos

    def flush(self):
        pass

    def close(self):
        pass


class Flash:
    """An in-memory filesystem with the calls ``AtomicStore`` and ``MatchStore`` make."""

    def __init__(self):
        self.files = {}

    def open(self, path, mode="rb"):
        if "w" not in mode and path not in self.files:
            raise OSError(2)
        return _File(self.files, path, "w" in mode)

    def rename(self, old, new):
        if old not in self.files:
            raise OSError(2)
        self.files[new] = self.files.pop(old)

    def remove(self, path):
        if path not in self.files:
            raise OSError(2)
        del self.files[path]

    def listdir(self):
        return list(self.files)


class ScriptDice:
    def __init__(self, rolls):
        self.rolls = list(rolls)
        self.rolled = 0

    def roll(self):
        self.rolled += 1
        return self.rolls.pop(0)


class Bench:
    """The App on twins, with the protocol handler in front (see module docstring)."""

    def __init__(self, flash=None):
        self.bits = bytearray(g.SCAN_BYTES)
        self.pressed = 0
        self.flash = flash if flash is not None else Flash()
        self.frame = None
        self.hw = Board(self.read_chain, self.write_leds, self.read_buttons, self.flash, lambda n: bytes(n))
        self.dice = ScriptDice(DICE)
        self.hw.dice = self.dice
        self.app = App(self.hw)
        self.out = []
        self.bridge = AppBridge(self.app)
        self.handler = ProtocolHandler(self.bridge, self.out.append, "bench", {})
        self.now = 0
        self.requests = 0
        self.unanswered = 0
        self.counts = bytearray(NLOC)

    # -- the hardware functions ----------------------------------------------------
    def read_chain(self, buf):
        n = g.SCAN_BYTES
        buf[:n] = self.bits
        if len(buf) > n:
            buf[n] = 0xFF

    def write_leds(self, buf):
        self.frame = buf

    def read_buttons(self):
        return self.pressed

    # -- people and host --------------------------------------------------------------
    def advance(self, ms):
        """Passes of the loop as main.py runs them: guarded by ``guard.call``."""
        end = self.now + ms
        while self.now < end:
            self.now += 5
            guard.call(self._pass, self.now, self.app)

    def _pass(self, now):
        self.bridge.poll(now)
        self.handler.poll()

    def show(self, counts):
        for loc in range(NLOC):
            if counts[loc] != self.counts[loc]:
                g.set_count(self.bits, loc, counts[loc])
                self.counts[loc] = counts[loc]
        self.advance(30)

    def press(self, button):
        self.pressed |= 1 << button
        self.advance(40)
        self.pressed &= ~(1 << button)
        self.advance(40)

    def play(self, mover, text):
        """Lift and place the checkers of ``text`` one at a time (no hits in SCRIPT)."""
        pos = Position.from_id(self.app.ctl.pos.position_id()) if self.app.ctl.mover == mover else None
        if pos is None:
            raise AssertionError("not %d's turn" % mover)
        counts = bytearray(self.counts)
        for seg in parse_play(text):
            before = bytearray(NLOC)
            fill_counts(pos, mover, before)
            apply_move(pos, seg[0], seg[1])
            after = bytearray(NLOC)
            fill_counts(pos, mover, after)
            for loc in range(NLOC):  # the lift first, then the placement
                if after[loc] < before[loc]:
                    counts[loc] -= 1
            self.show(counts)
            for loc in range(NLOC):
                if after[loc] > before[loc]:
                    counts[loc] += 1
            self.show(counts)

    def ask(self):
        """A ping and a snapshot request: each must get exactly one answer."""
        for frame in (b'{"id": 1, "cmd": "ping"}\n', b'{"id": 2, "cmd": "snapshot"}\n'):
            self.requests += 1
            before = len(self.out)
            self.handler.feed(frame)
            replies = [json.loads(line) for line in self.out[before:] if b'"id"' in line]
            if len(replies) != 1:
                self.unanswered += 1

    def step(self, action):
        if action == "setup":
            counts = bytearray(NLOC)
            fill_counts(Position.start(), 0, counts)
            self.show(counts)
        elif action[0] == "press":
            self.press(action[1])
        else:
            self.play(action[1], action[2])
        self.ask()

    def committed(self):
        """The state a power-up would resume: read back from the flash."""
        payload = self.app.hw.state_store.load()
        if not payload:
            return None
        snap = json.loads(payload)
        out = dict((k, snap.get(k)) for k in KEYS)
        rec = snap.get("rec")
        if rec and rec[0]:  # the record's committed bytes, as a resume reads them from its file
            out["record"] = self.app.hw.match_store.read(rec[0], 0, rec[1])
        return out


def run(faults=None, at=-1, kind=None, script=SCRIPT):
    """Play ``script`` with the ``at``-th call failing; returns (committed, bench, faults fired)."""
    if faults is not None:
        faults.arm(-1, None)
    gc.collect()  # the last run's board is garbage now: a small heap holds one board at a time
    bench = Bench()
    if faults is not None:
        faults.arm(at, kind)
    for action in script:
        bench.step(action)
    fired = 0
    if faults is not None:
        fired = faults.fired
        faults.arm(-1, None)
    return bench.committed(), bench, fired


def sweep(kinds, points=40, faults=None, only=None):
    """Fault-free run, then one run per (fault point, kind); returns a list of failures (empty: all good).

    Fault points: the first and the middle call of every scripted action,
    and ``points`` more spread evenly over the whole game.
    """
    own = faults is None
    if own:
        faults = Faults()
    try:
        faults.arm(-1, None)
        bench = Bench()
        faults.arm(-1, None)  # count from the first action, as ``run`` does
        marks = [0]
        for action in SCRIPT:
            bench.step(action)
            marks.append(faults.calls)
        expected = bench.committed()
        total = marks[-1]
        rolls = bench.dice.rolled
        unanswered = bench.unanswered
        bench = None
        ref = expected["ref"] if expected is not None else None
        if ref is None or expected["setup"] or ref["phase"] != 1 or ref["turn"] != 0 or unanswered:  # 1: cube or roll
            return ["the fault-free game did not reach white's next turn: %r" % (expected,)], 0, total
        at = []
        for i in range(len(SCRIPT)):
            at.append(marks[i] + 1)
            at.append((marks[i] + marks[i + 1]) // 2)
        step = max(1, total // points)
        for k in range(step // 2 + 1, total + 1, step):
            at.append(k)
        failures = []
        runs = 0
        for k in at:
            if only is not None and k not in only:
                continue
            for kind in kinds:
                runs += 1
                try:
                    got, b, fired = run(faults, k, kind)
                except Exception as exc:  # the script could not go on: the board lost track
                    failures.append("%s in %s (call %d of %d): %s: %s" % (kind, faults.where, k, total,
                                                                          type(exc).__name__, exc))
                    continue
                where = "%s in %s (call %d of %d; app: %r, %r)" % (kind, faults.where, k, total, b.app.last_fault,
                                                                   b.app.error)
                if fired != 1:
                    failures.append("%s: the fault did not fire" % where)
                elif got != expected:
                    failures.append("%s: committed %r, expected %r" % (where, got, expected))
                elif b.unanswered:
                    failures.append("%s: %d of %d requests unanswered" % (where, b.unanswered, b.requests))
                elif b.dice.rolled != rolls:
                    failures.append("%s: %d dice rolls, expected %d (a fault re-rolled)" % (where, b.dice.rolled, rolls))
                got = b = None
        return failures, runs, total
    finally:
        if own:
            faults.remove()
