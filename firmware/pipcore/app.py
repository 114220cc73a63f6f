"""The app: the board's drivers in, the controller stepped, LEDs / dice display / saves out.

One loop for the Pico (``main.py`` with ``pipdrivers.board_pins.build()``)
and the simulated board (``pipboard.simboard`` with the twins of
``pipboard.twins``): both hand ``App`` a ``pipdrivers.board.Board``. The app
never imports ``machine``, files or clocks; ``poll(now)`` is its only entry
and the caller owns time.

Each ``poll``: scan the switches (every ``SCAN_PERIOD_MS``), turn settled
changes into per-location counts (``geometry.location_counts``) and step the
controller; debounce the buttons and step it with their meaning; roll when it
asks; save its state when it asks; redraw the LEDs right after any change
(and every ``FRAME_PERIOD_MS`` for blinking) and the panel (dice, cube, turn).

Buttons (geometry.BUTTON_NAMES): a player's roll/done button is ROLL before
the roll and DONE after it; double, take and drop act on the cube (double,
facing a double, beavers; after a beaver, raccoons); ``menu`` short shows
the next candidate when the board asks to pick; ``menu`` long toggles
tournament mode; ``undo`` long starts a new match.
"""

import json

from pipcore import geometry as g
from pipcore.board import NLOC
from pipcore.controller import (CUBE_OFFERED, GAME_OVER, MATCH_OVER, MOVING, OPENING, PICK, Controller,
                                ControllerError)
from pipcore.render import Renderer

SCAN_PERIOD_MS = 5
BUTTON_PERIOD_MS = 10
FRAME_PERIOD_MS = 20

_SHORT = 1  # pipdrivers.buttons.SHORT
_LONG = 2  # pipdrivers.buttons.LONG
# button index -> name for a short press (geometry.BUTTON_NAMES order)
_SHORT_NAMES = ("ROLL", "DOUBLE", "TAKE", "DROP", "ROLL", "DOUBLE", "TAKE", "DROP", None, "NEXT")
_LONG_NAMES = (None, None, None, None, None, None, None, None, "NEW", "TOURNAMENT")


def _shown(value):
    """True for the cube values the panel has a pixel for (1, 2, 4 .. 64)."""
    return 1 <= value <= 64 and not value & (value - 1)


def _encode(snapshot):
    return json.dumps(snapshot).encode()


class App:
    """Owns the controller and moves data between it and the drivers of ``hw``."""

    def __init__(self, hw, options=None, variant="backgammon", capacity=None):
        self.hw = hw
        self.capacity = capacity if capacity is not None else g.CAPACITY
        self.counts = bytearray(NLOC)
        self.renderer = Renderer(hw.pixels, self.counts)
        self.resumed = False
        self.load_error = None
        self.saves = 0
        self.save_errors = 0
        self.dice = hw.dice  # anything with roll() -> (d1, d2) or one die per call
        self.sensors = self  # the protocol bridge reads ``sensors.counts``
        self.ctl = self._power_up(options, variant)
        self._scan_at = None
        self._button_at = None
        self._frame_at = -FRAME_PERIOD_MS
        self._drawn = -1
        self._panel = None
        self._dirty = True

    # -- power-up -----------------------------------------------------------
    def _power_up(self, options, variant):
        payload = None
        try:
            payload = self.hw.state_store.load()
        except (OSError, ValueError) as exc:
            self.load_error = "reading the saved game failed: %s" % exc
        if payload:
            try:
                ctl = Controller.restore(json.loads(payload), self.capacity)
                self.resumed = True
                return ctl
            except (ValueError, ControllerError) as exc:
                # a damaged save must not brick the board: start afresh, and say why
                self.load_error = "the saved game was unusable: %s" % exc
        ctl = Controller(options, variant, self.capacity)
        ctl.save_due = True
        return ctl

    # -- the loop ------------------------------------------------------------
    def poll(self, now):
        """One pass of the main loop at time ``now`` (ms)."""
        hw = self.hw
        ctl = self.ctl
        busy = False
        if self._scan_at is None or now - self._scan_at >= SCAN_PERIOD_MS:
            first = self._scan_at is None
            self._scan_at = now
            scanner = hw.scanner
            scanner.scan(now)
            if scanner.pending() or first:
                while scanner.pop() >= 0:
                    pass
                counts = self.counts
                g.location_counts(scanner.bits, counts)
                for i in range(NLOC):
                    counts[i] &= 0x7F  # a checker not pushed home still counts in its run
                self.step(("board", counts), now)
                busy = True
        if self._button_at is None or now - self._button_at >= BUTTON_PERIOD_MS:
            self._button_at = now
            buttons = hw.buttons
            if buttons.poll(now):
                code = buttons.pop()
                while code >= 0:
                    self._button(code >> 2, code & 3, now)
                    code = buttons.pop()
                    busy = True
        if ctl.transit_since >= 0:
            self.step(("tick",), now)
        self.draw(now)
        if not busy:
            ctl.idle()  # nothing happened: prepare the next lift's targets

    def _button(self, button, kind, now):
        if button >= len(_SHORT_NAMES):
            return
        if kind == _SHORT:
            name = _SHORT_NAMES[button]
            phase = self.ctl.phase
            if name == "ROLL" and phase in (MOVING, PICK, GAME_OVER, MATCH_OVER):
                name = "DONE"
            elif name == "DOUBLE" and phase == CUBE_OFFERED:
                name = "BEAVER" if self.ctl.offer_stage == 1 else "RACCOON"
            if name:
                self.step(("button", name), now)
        elif kind == _LONG:
            name = _LONG_NAMES[button]
            if name == "TOURNAMENT":
                self.step(("tournament", not self.ctl.tournament), now)
            elif name:
                self.step(("button", name), now)

    def step(self, event, now):
        """Step the controller with one event and carry out what it asks (roll, save)."""
        ctl = self.ctl
        ctl.step(event, now)
        if ctl.save_due:
            self._save()
        while ctl.want_roll:
            d1, d2 = self._roll()
            ctl.step(("dice", d1, d2), now)
            if ctl.save_due:
                self._save()

    event = step  # the protocol bridge's name for it

    def _roll(self):
        got = self.dice.roll()
        if isinstance(got, int):
            return got, self.dice.roll()
        return got[0], got[1]

    def new_game(self, variant, options):
        """A new match with ``options`` (from the host); the board is then set up."""
        ctl = Controller(options, variant, self.capacity)
        ctl.step(("board", self.counts), self._scan_at or 0)
        ctl.save_due = True
        self.ctl = ctl
        self._save()
        self._drawn = -1

    def record_bytes(self):
        """The whole match as a ``pipcore.record`` record (text lines where the controller keeps none)."""
        return self.ctl.record_bytes()

    def _save(self):
        ctl = self.ctl
        ctl.save_due = False
        try:
            self.hw.state_store.save(_encode(ctl.snapshot()))
            self.saves += 1
        except (OSError, ValueError):
            # the game goes on; the next commit tries again
            self.save_errors += 1
            ctl.save_due = True

    # -- output ---------------------------------------------------------------
    def draw(self, now):
        """Push a frame when the marks or the panel changed, and every frame period while something blinks."""
        ctl = self.ctl
        dirty = self._dirty
        if ctl.frame != self._drawn:
            self._drawn = ctl.frame
            self.renderer.draw(ctl.marks, ctl.mark_player)
            dirty = True
        panel = ctl.display + (ctl.cube, ctl.owner, ctl.dice_left(), ctl.phase, ctl.mover)
        if panel != self._panel:
            self._panel = panel
            self._draw_panel()
            dirty = True
        if not dirty and (not self.renderer.animated or now - self._frame_at < FRAME_PERIOD_MS):
            return
        self.hw.pixels.show(now)
        self._frame_at = now
        self._dirty = False

    def _draw_panel(self):
        ctl = self.ctl
        disp = self.hw.display
        phase = ctl.phase
        disp.turn(ctl.mover if phase not in (OPENING, GAME_OVER, MATCH_OVER) else -1)
        value = ctl.cube
        # the panel's cube shows 2..64; other values (arithmetic cube, past 64) are on the host's screen
        if _shown(value):
            offer = ctl.display[1] if phase == CUBE_OFFERED and ctl.display and ctl.display[0] == "offer" else 0
            if offer and _shown(offer):
                disp.offer(offer, ctl.offerer)
            else:
                disp.cube(value, ctl.owner)
        item = ctl.display
        kind = item[0] if item else ""
        if kind == "dice" and ctl.dice:
            a, b = ctl.dice
            left = list(ctl.dice_left())
            if a == b:
                disp.dice(a, b, ctl.mover, not left, not left, len(left))
            else:
                used_a = a not in left
                if not used_a:
                    left.remove(a)
                disp.dice(a, b, ctl.mover, used_a, b not in left, -1)
        elif kind == "tie":
            disp.dice(item[1], item[2], -1 if False else 0, False, False, -1)
        elif kind == "result":
            points = item[2]
            disp.dice(min(points, 6), 0, item[1], False, False, -1)
        else:
            disp.blank()
