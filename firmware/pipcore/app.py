"""The app: drivers in, controller stepped, LEDs / dice display / saves out.

One loop for the Pico (``main.py`` with the real drivers) and the simulated
board (``pipboard.simboard`` with the driver twins). Drivers are injected; the
app never imports ``machine``, files or clocks, and ``poll(now)`` is the only
entry: the caller owns time.

Driver interfaces (small on purpose; the hardware drivers are adapted to them
in the composition root):

* ``sensors.poll(now)`` -> True when the settled counts changed;
  ``sensors.counts`` is a ``bytearray(NLOC)`` of settled checker counts.
* ``buttons.poll(now)`` -> a button name (``controller.BUTTONS``) or None.
* ``dice.roll()`` -> a die value 1..6 (fair).
* ``display.show(item)`` with the controller's display tuple.
* ``storage.load(name)`` -> text or None; ``storage.save(name, text)`` (atomic).
* ``pixels``: NeoPixel API, drawn by ``pipcore.render.Renderer``.
"""

import json

from pipcore.controller import Controller, ControllerError, ROLL_OPENING
from pipcore.render import Renderer

SAVE_NAME = "game"


class App:
    """Owns the controller and moves data between it and the drivers."""

    def __init__(self, sensors, buttons, dice, display, storage, pixels, loc_leds=None, capacity=None,
                 options=None, variant="backgammon"):
        self.sensors = sensors
        self.buttons = buttons
        self.dice = dice
        self.display = display
        self.storage = storage
        self.renderer = Renderer(pixels, loc_leds)
        self.capacity = capacity
        self.resumed = False
        self.load_error = None
        self.ctl = self._power_up(options, variant)
        self.drawn = -1
        self.shown = None
        self.saves = 0
        self.booted = False

    def _power_up(self, options, variant):
        text = self.storage.load(SAVE_NAME)
        if text:
            try:
                ctl = Controller.restore(json.loads(text), self.capacity)
                self.resumed = True
                return ctl
            except (ValueError, ControllerError) as exc:
                # a damaged save must not brick the board: start afresh, say why
                self.load_error = str(exc)
        ctl = Controller(options, variant, self.capacity)
        ctl.save_due = True
        return ctl

    def event(self, event, now):
        """Step the controller with one event and carry out what it asks."""
        ctl = self.ctl
        ctl.step(event, now)
        self._effects(now)

    def _effects(self, now):
        ctl = self.ctl
        if ctl.save_due:
            ctl.save_due = False
            self.storage.save(SAVE_NAME, json.dumps(ctl.snapshot()))
            self.saves += 1
        if ctl.want_roll:
            kind = ctl.want_roll
            a = self.dice.roll()
            b = self.dice.roll()
            if kind != ROLL_OPENING:
                pass
            ctl.step(("dice", a, b), now)
            if ctl.save_due:
                ctl.save_due = False
                self.storage.save(SAVE_NAME, json.dumps(ctl.snapshot()))
                self.saves += 1

    def poll(self, now):
        """One pass of the main loop at time ``now`` (ms)."""
        ctl = self.ctl
        if self.sensors.poll(now) or not self.booted:
            self.booted = True  # the first pass reports the board as found at power-up
            self.event(("board", self.sensors.counts), now)
        name = self.buttons.poll(now)
        while name:
            self.event(("button", name), now)
            name = self.buttons.poll(now)
        if ctl.transit_since >= 0:
            self.event(("tick",), now)
        self._effects(now)
        self.draw(now)

    def draw(self, now):
        ctl = self.ctl
        if ctl.frame != self.drawn or self.renderer.flashing:
            self.drawn = ctl.frame
            self.renderer.draw(ctl.marks, now)
        if ctl.display != self.shown:
            self.shown = ctl.display
            self.display.show(ctl.display)
