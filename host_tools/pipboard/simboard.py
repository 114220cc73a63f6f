"""A headless simulated board: the firmware app with driver twins and a physical model.

``SimBoard`` runs the same ``pipcore.app.App`` as ``main.py`` on the Pico,
with twins of the drivers, and models the physical board: which checkers (by
colour) lie on every location, and a box for checkers off the board. Tests
drive it like people do::

    board = SimBoard(seed=1)
    board.follow_guidance()          # set up the checkers as the LEDs ask
    board.press("ROLL")              # opening roll
    board.move(loc_from, loc_to)     # lift and place (settles the switches)
    board.press("DONE")
    board.power_cut(); board.power_on()

Time is virtual: ``advance(ms)`` polls the app at that instant, and switch
changes settle after ``settle_ms`` (the debounce of the scan driver), so
thousands of games run in seconds.
"""

import json
import random

from pipcore import geometry as g
from pipcore.app import App
from pipcore.board import BAR0, DEFAULT_CAPACITY, NLOC
from pipdrivers.board import Board
from pipboard.twins import MemFlash, PowerCut, VirtualBoard, _MemFile
from pipcore.names import (M_ADD, M_ERROR, M_FIX_FROM, M_FIX_TO, M_MISSING, M_REMOVE, MOVING, PICK)
from pipcore.position import CHECKERS

SCAN_MS = 5  # pipcore.app.SCAN_PERIOD_MS
SETTLE_MS = 25  # five scans: a clean change settles after four (pipdrivers.board samples)
PRESS_MS = 40  # a button held long enough for its debounce (three reads at 10 ms)
LONG_MS = 900  # a long press (pipdrivers.buttons long_ms is 800)

# button name -> (button of player 0, button of player 1), geometry.BUTTON_NAMES order
_BUTTONS = {
    "ROLL": (g.BTN_WHITE_ROLL, g.BTN_BLACK_ROLL),
    "DONE": (g.BTN_WHITE_ROLL, g.BTN_BLACK_ROLL),
    "DOUBLE": (g.BTN_WHITE_DOUBLE, g.BTN_BLACK_DOUBLE),
    "BEAVER": (g.BTN_WHITE_DOUBLE, g.BTN_BLACK_DOUBLE),
    "RACCOON": (g.BTN_WHITE_DOUBLE, g.BTN_BLACK_DOUBLE),
    "TAKE": (g.BTN_WHITE_TAKE, g.BTN_BLACK_TAKE),
    "DROP": (g.BTN_WHITE_DROP, g.BTN_BLACK_DROP),
    "NEXT": (g.BTN_MENU, g.BTN_MENU),
    "UNDO": (g.BTN_UNDO, g.BTN_UNDO),
    "RESIGN": (g.BTN_WHITE_DROP, g.BTN_BLACK_DROP),  # held long (pipcore.resign)
}
_LONG_BUTTONS = {"NEW": g.BTN_UNDO, "MENU": g.BTN_MENU}
_HELD = ("RESIGN",)  # a side's button held long


class _FastFile(_MemFile):
    """``MemFlash`` file that writes in bulk with the same power-cut semantics (bytes before the cut land)."""

    def write(self, data):
        flash = self.flash
        flash._check()
        buf = flash.files[self.path]
        data = bytes(data)
        flash._room(buf, self.pos, len(data))
        budget = flash._budget
        cut = budget is not None and flash.units + len(data) > budget
        if cut:
            data = data[: max(0, budget - flash.units)]
        pos = self.pos
        buf[pos : pos + len(data)] = data
        self.pos = pos + len(data)
        flash.units += len(data)
        if cut:
            flash.dead = True
            raise PowerCut("power cut after %d units" % flash.units)
        return len(data)


class FastFlash(MemFlash):
    """The flash twin, fast enough for thousands of simulated games."""

    def open(self, path, mode="rb"):
        self._check()
        if "w" in mode or ("a" in mode and path not in self.files):
            self.files[path] = bytearray()
        elif path not in self.files:
            raise OSError(2, "no such file: %s" % path)
        return _FastFile(self, path, mode)


class StripView:
    """The LED chain as people see it: ``len()`` pixels, ``view[i]`` is the ``(r, g, b)`` last set on
    pixel ``i`` (before brightness and blinking, so a flashing pixel reads the same in every frame)."""

    def __init__(self, board):
        self.board = board

    def __len__(self):
        return g.LEDS

    def __getitem__(self, i):
        app = self.board.app
        if app is None:
            return (0, 0, 0)
        px = app.hw.pixels
        layer = px._layers[px._effect[i]]
        o = 3 * i
        return (layer[o + px._ro], layer[o + px._go], layer[o + px._bo])


class BoardError(AssertionError):
    """The virtual hands were asked to do something physically impossible."""


class SimBoard:
    """The whole board in software (see module docstring)."""

    def __init__(self, seed=None, capacity=None, options=None, variant="backgammon", build=None, flash=None):
        self.rng = random.Random(seed)
        self.build = build  # build(board) -> pipdrivers.board.Board on board.twins; None: as on MicroPython
        self.capacity = bytes(capacity) if capacity is not None else DEFAULT_CAPACITY
        self.options = options
        self.variant = variant
        self.stacks = [[] for _ in range(NLOC)]
        self.box = [CHECKERS, CHECKERS]  # checkers off the board, per colour
        self.hand = []
        self.now = 0
        self.twins = VirtualBoard(seed=self.rng.randrange(1 << 30))
        # the flash: in RAM (power cuts at any byte), or a FolderFlash (pipboard sim --flash DIR)
        self.twins.flash = self.flash = flash if flash is not None else FastFlash()
        self.pixels = StripView(self)
        self.app = None
        self.power_cuts = 0
        self.power_on()

    # -- power ---------------------------------------------------------------
    def power_on(self):
        """Boot: fresh drivers (RAM) on the same twins (switches, LEDs, buttons, flash)."""
        tw = self.twins
        self.flash.power_on()
        tw.pad.state = 0
        if self.build is not None:  # another composition root on the same twins (CircuitPython's)
            self.hw = self.build(self)
        else:
            self.hw = Board(tw.switches.readinto, tw.strip.write, tw.pad.read, tw.flash, tw.entropy,
                            led_return=tw.strip.returned)
        self.saved_at_boot = self.storage_text
        self.app = App(self.hw, options=self.options, variant=self.variant, capacity=self.capacity)
        self.resumed_state = json.dumps(self.app.ctl.snapshot()) if self.app.resumed else None
        self.settle()

    def power_cut(self, during_save_units=None):
        """Lose everything in RAM now; with ``during_save_units`` the cut falls inside the next save."""
        if during_save_units is not None:
            self.flash.cut_after(during_save_units)
            return
        self.app = None
        self.power_cuts += 1

    @property
    def ctl(self):
        return self.app.ctl

    @property
    def storage_text(self):
        """The newest complete save, decoded (what a resume reads)."""
        from pipdrivers.storage import AtomicStore
        data = AtomicStore(self.flash, "/pipboard_state.bin").load() if not self.flash.dead else None
        return data.decode() if data else None

    # -- time ----------------------------------------------------------------
    def advance(self, ms):
        """Let ``ms`` pass, the app polling every scan period."""
        end = self.now + ms
        while self.now < end:
            self.now = min(self.now + SCAN_MS, end)
            if self.app is not None:
                try:
                    self.app.poll(self.now)
                except PowerCut:
                    self.app = None
                    self.power_cuts += 1
            if self.app is None:
                return

    def settle(self):
        """Let the switches settle and the app see it."""
        self.advance(SETTLE_MS)

    def _sync(self, loc):
        n = len(self.stacks[loc])
        self.twins.switches.place(loc, n if n < g.SLOTS else g.SLOTS)

    # -- hands ---------------------------------------------------------------
    def lift(self, loc, colour=None, settle=True):
        """Lift a checker (of ``colour`` if given) from ``loc`` into the hand; returns its colour."""
        stack = self.stacks[loc]
        if not stack:
            raise BoardError("no checker to lift at location %d" % loc)
        if colour is None:
            c = stack.pop()
        else:
            if colour not in stack:
                raise BoardError("no checker of colour %d at location %d" % (colour, loc))
            stack.remove(colour)
            c = colour
        self.hand.append(c)
        self._sync(loc)
        if settle:
            self.settle()
        return c

    def place(self, loc, colour=None, settle=True):
        """Put a checker from the hand (of ``colour`` if given) on ``loc``."""
        if colour is None:
            c = self.hand.pop()
        else:
            self.hand.remove(colour)
            c = colour
        self.stacks[loc].append(c)
        self._sync(loc)
        if settle:
            self.settle()

    def move(self, src, dst, colour=None, settle=True):
        c = self.lift(src, colour, settle)
        self.place(dst, c, settle)

    def take_from_box(self, colour):
        if self.box[colour] <= 0:
            raise BoardError("no checker of colour %d left in the box" % colour)
        self.box[colour] -= 1
        self.hand.append(colour)

    def put_in_box(self):
        self.box[self.hand.pop()] += 1

    def press(self, name, player=None, long=False):
        """Press and release the button meaning ``name`` (the right player's button by default); ``long``:
        hold it (as TAKE held steps a menu number by ten)."""
        ctl = self.ctl
        if name in _LONG_BUTTONS:
            button = _LONG_BUTTONS[name]
            hold = LONG_MS
        else:
            if player is None:
                player = ctl.mover
                offer = ctl.pending.display if ctl.pending is not None else ()
                if offer and offer[0] == "resign":
                    # the offering side raises (DROP) and withdraws (RESIGN); the other side answers
                    player = offer[1] if name == "RESIGN" else 1 - offer[1]
                elif name in ("TAKE", "DROP", "BEAVER", "RACCOON", "DOUBLE", "RESIGN") and ctl.offerer >= 0:
                    player = ctl.ref.cube.responder()  # the side that must answer the cube
            button = _BUTTONS[name][player]
            hold = LONG_MS if long or name in _HELD else PRESS_MS
        pad = self.twins.pad
        pad.press(button)
        self.advance(hold)
        pad.release(button)
        self.advance(PRESS_MS)

    def key(self, button, long=False):
        """Press physical button ``button`` (0..9, geometry.BUTTON_NAMES) short, or hold it (``long``)."""
        if not 0 <= button < g.BUTTONS:
            raise BoardError("there is no button %r (0..%d)" % (button, g.BUTTONS - 1))
        pad = self.twins.pad
        pad.press(button)
        self.advance(LONG_MS if long else PRESS_MS)
        pad.release(button)
        self.advance(PRESS_MS)

    def stick(self, bit, level):
        """A faulty switch: ``level`` 1 stuck closed, 2 stuck open, 0 working again."""
        sw = self.twins.switches
        if level:
            sw.stick(bit, level == 1)
        elif 0 <= bit < g.SENSORS:
            sw.unstick(bit)
        else:
            raise BoardError("scan bit must be 0..%d, not %r" % (g.SENSORS - 1, bit))
        self.settle()

    def follow_self_test(self, limit=2000):
        """Do what the self-test's LEDs ask (pipcore.selftest): every checker off the board, then the slots
        covered in turn, checkers pushed to the edge as people do; DONE where a switch does not answer.
        Returns the steps taken; the result stays on the board (DONE leaves it)."""
        from pipcore.selftest import CLEAR, WALK, TestSession
        steps = 0
        walked = -1  # the location being walked
        while steps < limit:
            overlay = self.app.overlay if self.app is not None else None
            if not isinstance(overlay, TestSession) or overlay.test.step not in (CLEAR, WALK):
                break
            test = overlay.test
            steps += 1
            if test.step == CLEAR:
                if any(self.stacks) or self.hand:
                    self.clear_board()
                    continue
                self.press("DONE")  # the board is empty and a switch still reads closed: it is stuck
                continue
            loc, slot = g.sensor_at(test.target)
            if loc != walked:
                if walked >= 0:
                    self._empty(walked)
                    self.settle()
                walked = loc
                continue
            stack = self.stacks[loc]
            if len(stack) > slot:  # covered, and the switch did not close: skip it
                self.press("DONE")
                continue
            colour = 1 if loc in (g.LOC_BAR_BLACK, g.LOC_OFF_BLACK) else 0
            self.take_from_box(colour)
            self.place(loc, colour)
        if walked >= 0:
            self._empty(walked)
            self.settle()
        return steps

    def _empty(self, loc):
        stack = self.stacks[loc]
        while stack:
            self.box[stack.pop()] += 1
        self._sync(loc)

    def clear_board(self):
        """Every checker off the board, the bars and the trays, into the box."""
        while self.hand:
            self.put_in_box()
        for loc in range(NLOC):
            self._empty(loc)
        self.settle()

    def chatter(self, loc, reads=3):
        """Switch bounce at ``loc``: the next scans read its switches at random (below the debounce)."""
        sw = self.twins.switches
        n = len(self.stacks[loc])
        slot = min(n, g.SLOTS - 1)
        sw.chatter(g.sensor_bit(loc, slot), reads)
        self.advance(SCAN_MS * (reads + 1))
        self.settle()

    def knock(self, locs, reads=2):
        """A knock: many switches bounce at once for a couple of scans."""
        sw = self.twins.switches
        for loc in locs:
            n = len(self.stacks[loc])
            sw.chatter(g.sensor_bit(loc, min(n, g.SLOTS - 1)), reads)
            if n:
                sw.chatter(g.sensor_bit(loc, n - 1 if n <= g.SLOTS else g.SLOTS - 1), reads)
        self.advance(SCAN_MS * (reads + 1))
        self.settle()

    # -- what people see ------------------------------------------------------
    def marked(self, role):
        m = self.ctl.marks
        return [i for i in range(NLOC) if m[i] == role]

    def physical_counts(self):
        return [len(s) for s in self.stacks]

    def colour_total(self, colour):
        n = self.box[colour] + self.hand.count(colour)
        for s in self.stacks:
            n += s.count(colour)
        return n

    def _take_extra(self, colour):
        """A person who has no spare checker takes the one they misplaced (on a stack taller than it should be)."""
        want = self.ctl.expected_counts()
        for loc in range(NLOC):
            if colour in self.stacks[loc] and len(self.stacks[loc]) > want[loc]:
                self.stacks[loc].remove(colour)
                self._sync(loc)
                self.hand.append(colour)
                return
        raise BoardError("no checker of colour %d to be found: stacks %r want %r box %r hand %r marks %r" % (
            colour, ["".join(map(str, st)) for st in self.stacks], list(want), self.box, self.hand,
            list(self.ctl.marks)))

    def arrange(self, pos, mover):
        """Put the checkers exactly as ``pos`` (seen from ``mover``) says, in one sweep of the hands."""
        from pipcore.board import fill_counts
        want = bytearray(NLOC)
        fill_counts(pos, mover, want)
        colours = []
        for loc in range(NLOC):
            owner = -1
            if loc >= BAR0:
                owner = (loc - BAR0) & 1
            elif want[loc]:
                from pipcore.board import loc_point
                p = loc_point(mover, loc)
                owner = mover if pos.me[p] else 1 - mover
            colours.append(owner)
        for loc in range(NLOC):  # everything off the board first
            stack = self.stacks[loc]
            while stack:
                self.box[stack.pop()] += 1
            self._sync(loc)
        while self.hand:
            self.put_in_box()
        for loc in range(NLOC):
            for _ in range(want[loc]):
                c = colours[loc]
                if self.box[c] <= 0:
                    raise BoardError("no checker of colour %d left to arrange" % c)
                self.box[c] -= 1
                self.stacks[loc].append(c)
            self._sync(loc)
        self.settle()

    def follow_guidance(self, limit=200):
        """Do what the LEDs ask (setup, fixes; the self-test's steps) until they ask nothing more; returns the
        steps taken."""
        if self.app is not None and hasattr(self.app.overlay, "test"):
            return self.follow_self_test()
        steps = 0
        while steps < limit:
            if self.app is None:
                return steps  # the power failed (inside a save): the caller boots again
            ctl = self.ctl
            marks = ctl.marks
            players = ctl.mark_player
            src = -1
            dst = -1
            for i in range(NLOC):
                r = marks[i]
                if r in (M_FIX_FROM, M_ERROR, M_REMOVE) and src < 0:
                    src = i
                elif r in (M_FIX_TO, M_ADD, M_MISSING) and dst < 0:
                    dst = i
            if src < 0 and dst < 0:
                return steps
            steps += 1
            if src >= 0:
                want = players[dst] if dst >= 0 else 2
                if marks[src] == M_REMOVE and players[src] in (0, 1):
                    want = players[src]
                stack = self.stacks[src]
                if want in (0, 1) and want in stack:
                    self.lift(src, want)
                else:
                    self.lift(src)
                if dst >= 0 and self.hand[-1] == players[dst] or dst >= 0 and players[dst] == 2:
                    self.place(dst)
                else:
                    self.put_in_box()
            else:
                colour = players[dst]
                if colour not in (0, 1):
                    raise BoardError("guidance asks to add a checker of unknown colour at %d" % dst)
                # people fill a point to the count they know it needs, even past what the switches see
                want = ctl.expected_counts()[dst]
                n = max(1, want - len(self.stacks[dst])) if marks[dst] == M_ADD else 1
                for _ in range(n):
                    if colour not in self.hand:
                        if self.box[colour] <= 0:
                            self._take_extra(colour)
                        else:
                            self.take_from_box(colour)
                    self.place(dst, colour)
        raise BoardError("guidance did not converge after %d steps" % limit)

    def tidy_tall_stacks(self):
        """What a person does after setup: fix stacks taller than the switches see to the known count
        (the surplus into the box first, then the short stacks filled from it)."""
        ctl = self.ctl
        want = ctl.expected_counts()
        cap = self.capacity
        tall = [loc for loc in range(NLOC)
                if len(self.stacks[loc]) >= cap[loc] and want[loc] >= cap[loc] and len(self.stacks[loc]) != want[loc]]
        for loc in tall:
            stack = self.stacks[loc]
            while len(stack) > want[loc]:
                self.box[stack.pop()] += 1
        for loc in tall:
            stack = self.stacks[loc]
            colour = stack[0]
            while len(stack) < want[loc]:
                    if self.box[colour] <= 0:
                        raise BoardError("no checker left to fill location %d" % loc)
                    self.box[colour] -= 1
                    stack.append(colour)

    def in_turn(self):
        return self.ctl.phase in (MOVING, PICK)


# the players that drive it (re-exported: tests and tools import them from here)
from pipboard.virtualplayer import PlayFailure, VirtualPlayer  # noqa: E402

__all__ = ["SimBoard", "VirtualPlayer", "BoardError", "PlayFailure", "SETTLE_MS"]
