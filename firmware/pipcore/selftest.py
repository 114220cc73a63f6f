"""The board's self-test: every reed switch checked with the players' help, the chains at power-up.

Started from the menu (item "self-test", ROLL/DONE) or by the host (protocol ``self_test``); loaded
only then. Two steps, guided on the LEDs (one pixel under every slot):

1. **Clear.** "Take every checker off the board, the bars and the trays": every switch that still reads
   closed blinks red. The walk starts by itself once none is closed; DONE starts it anyway, and the
   switches closed at that moment are *stuck closed* (a checker forgotten there and lifted later is
   found working after all).
2. **Walk.** "Cover every slot in turn": the slot to cover pulses green, point 1 slot 1 first, then
   slot 2 ... of every point, the bars and the trays (checkers pushed to the edge as in play cover the
   slots in this order: one more checker, one more slot). A slot whose switch does not close is
   skipped with DONE: a switch never seen closed is *stuck open* (a reed stuck open, a broken joint, no
   switch), one seen closed at some other moment of the test is *misplaced* (it works, but not under
   its own slot: set too deep or beside its place, or wired to another input).

The result lights each faulty switch's own pixel (stuck closed: blinking red, stuck open: magenta,
misplaced: orange) and is in the snapshot's ``self_test`` and the ``self_test`` event, switch by point and
slot (``geometry.sensor_name``). Menu held stops the walk early (the slots not reached are not judged);
DONE or menu held leaves the result and gives the LEDs back to the game, which guides the checkers back.

The switch chain (its sentinel byte, ``Scanner.chain_ok``) and the LED chain (``Board.check_leds``:
a frame one pixel longer than the chain must come back on the return line) are checked at power-up by
``pipcore.app`` and again here.
"""

from pipcore import geometry as g
from pipcore.render import BLINK, PULSE

CLEAR = 0
WALK = 1
DONE = 2
STEP_NAMES = ("clear", "walk", "done")
STUCK_CLOSED = "stuck closed"
STUCK_OPEN = "stuck open"  # never closed
MISPLACED = "misplaced"  # closed, but not when its own slot was covered

_BYTES = (g.SENSORS + 7) // 8
_SHORT = 1  # pipdrivers.buttons kinds
_LONG = 2
_RED = (140, 0, 0)
_ORANGE = (130, 60, 0)
_MAGENTA = (120, 0, 90)
_TARGET = (0, 130, 0)
_PASSED = (0, 18, 0)


def _get(buf, bit):
    return (buf[bit >> 3] >> (bit & 7)) & 1


def _put(buf, bit, on):
    if on:
        buf[bit >> 3] |= 1 << (bit & 7)
    else:
        buf[bit >> 3] &= ~(1 << (bit & 7)) & 0xFF


class SelfTest:
    """The test's progress over the switches (pure: the settled switch bits come in, the verdicts out)."""

    def __init__(self):
        self.step = CLEAR
        self.target = 0  # the scan bit to cover next
        self.stuck = bytearray(_BYTES)  # closed on the cleared board
        self.skipped = bytearray(_BYTES)  # did not close at their turn
        self.seen = bytearray(_BYTES)  # closed at some moment of the walk
        self.closed = bytearray(_BYTES)  # what the switches read now
        self.complete = False  # the walk reached the last slot
        self.frame = 0

    def sensed(self, bits):
        """The settled switches (a scan bitmap, ``Scanner.bits``) changed; returns True if the LEDs must
        change."""
        closed = self.closed
        changed = False
        for i in range(_BYTES):
            b = bits[i]
            if i == _BYTES - 1 and g.SENSORS & 7:
                b &= (1 << (g.SENSORS & 7)) - 1
            if closed[i] != b:
                closed[i] = b
                changed = True
        if self.step == CLEAR:
            if not any(closed):
                self._walk()
            return self._bump(changed)
        if self.step != WALK:
            return False
        seen = self.seen
        stuck = self.stuck
        for i in range(_BYTES):
            seen[i] |= closed[i]
            if stuck[i] & ~closed[i]:
                stuck[i] &= closed[i]  # it opened: a checker left there, not a stuck switch
                changed = True
        before = self.target
        self._advance()
        return self._bump(changed or self.target != before)

    def proceed(self):
        """DONE: start the walk now (clear), skip the slot that does not answer (walk)."""
        if self.step == CLEAR:
            for i in range(_BYTES):
                self.stuck[i] = self.closed[i]
            self._walk()
        elif self.step == WALK:
            _put(self.skipped, self.target, 1)
            self.target += 1
            self._advance()
        self.frame += 1

    def finish(self):
        """End the test now (a walk stopped early judges only the slots it reached)."""
        self.step = DONE
        self.frame += 1

    def _walk(self):
        self.step = WALK
        self.target = 0
        self._advance()

    def _advance(self):
        """Past every slot whose switch reads closed (covered, or stuck closed: it cannot be walked)."""
        while self.target < g.SENSORS and (_get(self.closed, self.target) or _get(self.stuck, self.target)):
            self.target += 1
        if self.target >= g.SENSORS:
            self.complete = True
            self.finish()

    def _bump(self, changed):
        if changed:
            self.frame += 1
        return changed

    def fault(self, bit):
        """The verdict on one switch: STUCK_CLOSED, STUCK_OPEN, MISPLACED or None (works, or not reached)."""
        if _get(self.stuck, bit):
            return STUCK_CLOSED
        if _get(self.skipped, bit):
            return MISPLACED if _get(self.seen, bit) else STUCK_OPEN
        return None

    def problems(self):
        """``[(bit, fault)]`` of every faulty switch found so far, in scan order."""
        found = []
        for bit in range(g.SENSORS):
            fault = self.fault(bit)
            if fault is not None:
                found.append((bit, fault))
        return found

    def state(self):
        """The snapshot's ``self_test`` (docs/protocol.md)."""
        out = {"step": STEP_NAMES[self.step], "checked": self.target if self.step != CLEAR else 0,
               "total": g.SENSORS, "complete": self.complete,
               "problems": [describe(bit, fault) for bit, fault in self.problems()]}
        if self.step == WALK:
            loc, slot = g.sensor_at(self.target)
            out["location"] = loc
            out["slot"] = slot + 1
            out["switch"] = g.sensor_name(self.target)
        return out

    def message(self):
        if self.step == CLEAR:
            return ("self-test: take every checker off the board, the bars and the trays (red: a switch still "
                    "closed); DONE when the board is empty")
        if self.step == WALK:
            return ("self-test: put a checker on %s (green; checkers pushed to the edge); DONE skips a slot that "
                    "does not answer, hold menu to stop" % g.sensor_name(self.target))
        found = self.problems()
        if not found:
            return "self-test: all %d switches work%s; DONE to go back to the game" % (
                g.SENSORS, "" if self.complete else " (of the slots reached)")
        names = ", ".join("%s %s" % (g.sensor_name(bit), fault) for bit, fault in found[:6])
        return "self-test: %d faulty switch%s: %s%s; DONE to go back to the game" % (
            len(found), "" if len(found) == 1 else "es", names, ", ..." if len(found) > 6 else "")

    def draw(self, px, display):
        """The step on the location pixels and the panel (a DiceDisplay)."""
        for i in range(g.LED_LOC_BASE, g.LEDS):
            px.set(i, 0, 0, 0)
        display.blank()
        display.turn(-1)
        for k in range(g.LED_CUBE_VALUE, g.LED_TURN_WHITE):
            px.set(k, 0, 0, 0)
        if self.step == CLEAR:
            for bit in range(g.SENSORS):
                if _get(self.closed, bit):
                    loc, slot = g.sensor_at(bit)
                    px.set(g.led_index(loc, slot), _RED[0], _RED[1], _RED[2], BLINK)
            return
        all_good = self.step == DONE and self.complete and not self.problems_found()
        for bit in range(g.SENSORS):
            loc, slot = g.sensor_at(bit)
            fault = self.fault(bit)
            if fault == STUCK_CLOSED:
                c, effect = _RED, BLINK
            elif fault == MISPLACED:
                c, effect = _ORANGE, 0
            elif fault == STUCK_OPEN:
                c, effect = _MAGENTA, 0
            elif self.step == WALK and bit == self.target:
                c, effect = _TARGET, PULSE
            elif self.step == WALK and bit < self.target and bit // g.SLOTS == self.target // g.SLOTS:
                c, effect = _PASSED, 0  # this location's slots already walked
            elif all_good and slot == 0:
                c, effect = _PASSED, 0  # every switch works: a green light on every place
            else:
                continue
            px.set(g.led_index(loc, slot), c[0], c[1], c[2], effect)
        quarters = 4 * self.target // g.SENSORS if self.step == WALK else (4 if self.complete else 0)
        display.moves(quarters, 0x00C000)  # progress: a move marker per quarter of the slots walked

    def problems_found(self):
        for i in range(_BYTES):
            if self.stuck[i] or self.skipped[i]:
                return True
        return False


def describe(bit, fault):
    """One faulty switch as the snapshot and the events name it."""
    loc, slot = g.sensor_at(bit)
    return {"switch": g.sensor_name(bit), "location": loc, "slot": slot + 1, "bit": bit, "fault": fault}


class TestSession:
    """The running self-test on the board (``App.overlay``); its result stays in ``App.tested``."""

    def __init__(self, app):
        from pipcore.names import MOVING, PICK

        if app.ctl.phase in (MOVING, PICK):
            raise ValueError("the self-test waits until the roll being played is committed")
        self.app = app
        self.test = SelfTest()
        hw = app.hw
        self.switch_chain = hw.scanner.check_chain()
        check = getattr(hw, "check_leds", None)
        self.led_chain = check() if check is not None else None
        app.hardware_checked(self.switch_chain, self.led_chain)
        if self.switch_chain:
            self.test.sensed(hw.scanner.bits)
        else:
            self.test.finish()  # a broken chain reads nothing true: there is nothing to walk
        self._publish()

    @property
    def frame(self):
        return self.test.frame

    def sensed(self, now):
        if self.test.sensed(self.app.hw.scanner.bits) and self.test.step == DONE:
            self._publish()
        return True  # the game does not see the test's checkers

    def press(self, button, kind, now):
        test = self.test
        if kind == _LONG and button == g.BTN_MENU:
            if test.step == DONE:
                self.close(now)
            else:
                test.finish()
                self._publish()
        elif kind == _SHORT and button in (g.BTN_WHITE_ROLL, g.BTN_BLACK_ROLL):
            if test.step == DONE:
                self.close(now)
            else:
                test.proceed()
                if test.step == DONE:
                    self._publish()

    def stop(self, now):
        """The host's ``self_test`` ``stop``: the result so far, then the game."""
        if self.test.step != DONE:
            self.test.finish()
            self._publish()
        self.close(now)

    def _publish(self):
        if self.test.step == DONE:
            self.app.tested = self.state()

    def close(self, now):
        app = self.app
        app.show_overlay(None)
        app.step(("board", app.counts), now)  # the game sees the checkers as they lie now

    def state(self):
        out = self.test.state()
        out["switch_chain"] = self.switch_chain
        out["led_chain"] = self.led_chain
        return out

    def describe(self, snap):
        snap["self_test"] = self.state()
        snap["message"] = self.test.message()

    @property
    def message(self):
        return self.test.message()

    def draw(self, px, display):
        self.test.draw(px, display)


def command(app, action, now):
    """The host's ``self_test`` (docs/protocol.md): ``start`` (the test takes the board; refused while a roll
    is being played), ``stop`` (the result so far, and the LEDs back to the game) or ``status``; returns the
    test's state, else the last result (None if the board never ran one)."""
    overlay = app.overlay
    running = isinstance(overlay, TestSession)
    if action == "start" and not running:
        session = TestSession(app)
        if overlay is not None:
            overlay.close(False, now)  # the open menu gives way, its changes forgotten
        app.show_overlay(session)
        return session.state()
    if running and action == "stop":
        overlay.stop(now)
    elif running:
        return overlay.state()
    return app.tested
