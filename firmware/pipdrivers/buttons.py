"""Buttons: integration debounce, short and long presses, timed events.

``read()`` is injected and returns the pressed buttons as one small int
(bit ``n`` = button ``n`` of ``pipcore.geometry``, 1 = pressed); on the Pico
it reads the GPIOs (pull-ups, pressed = 0), in the simulator the virtual
buttons.  ``poll(now)`` debounces by integration like the switch scanner and
puts events in a ring as ``button << 2 | kind``:

    DOWN   the press has settled
    LONG   still held ``long_ms`` after DOWN (once per press)
    SHORT  released before ``long_ms``
    UP     released (after SHORT or LONG)

The controller normally acts on SHORT and LONG; DOWN and UP are for
immediate feedback.  ``poll`` allocates nothing.
"""

from array import array

from pipcore import geometry
from pipcore.compat import const

from pipdrivers.ring import Ring

DOWN = const(0)
SHORT = const(1)
LONG = const(2)
UP = const(3)
KIND_NAMES = ("down", "short", "long", "up")
_TICKS_MASK = const(0x3FFFFFFF)  # MicroPython ticks_ms wraps at 2**30


class ButtonError(ValueError):
    """Buttons configured with impossible values."""


class Buttons:
    def __init__(self, read, n=geometry.BUTTONS, samples=3, long_ms=800, ring=32):
        if not 1 <= n <= 30:
            raise ButtonError("1..30 buttons fit in one small int, not %r" % (n,))
        if not 1 <= samples <= 250:
            raise ButtonError("samples must be 1..250, not %r" % (samples,))
        self._read = read
        self.n = n
        self.samples = samples
        self.long_ms = long_ms
        self.state = 0  # settled: bit set = pressed
        self._count = bytearray(n)
        self._pend = 0  # bit set = counter not zero
        self._long = 0  # bit set = LONG already sent for this press
        self._since = array("i", [0] * n)
        self.events = Ring(ring)

    def poll(self, now):
        """Read and debounce once; returns the number of new events. (Few locals, as ``Scanner.scan``: a
        quiet poll's frame stays off the heap.)"""
        raw = self._read()
        state = self.state
        if raw == state and not self._pend and not (state & ~self._long):
            return 0  # nothing changing and no press waiting to turn long
        return self._settle(raw, state, now)

    def _settle(self, raw, state, now):
        before = len(self.events)
        count = self._count
        samples = self.samples
        for b in range(self.n):
            m = 1 << b
            c = count[b]
            if (raw ^ state) & m:
                c += 1
                if c >= samples:
                    c = 0
                    state ^= m
                    if state & m:
                        self._since[b] = now & _TICKS_MASK
                        self._long &= ~m
                        self.events.push(b << 2 | DOWN, now)
                    else:
                        if not self._long & m:
                            self.events.push(b << 2 | SHORT, now)
                        self.events.push(b << 2 | UP, now)
            elif c:
                c -= 1
            count[b] = c
            if c:
                self._pend |= m
            else:
                self._pend &= ~m
            if state & m and not self._long & m and ((now - self._since[b]) & _TICKS_MASK) >= self.long_ms:
                self._long |= m
                self.events.push(b << 2 | LONG, now)
        self.state = state
        return len(self.events) - before

    def pop(self):
        """Oldest event as ``button << 2 | kind`` (time in ``popped_time``), or -1."""
        return self.events.pop()

    @property
    def popped_time(self):
        return self.events.popped_time

    def pressed(self, button):
        return (self.state >> button) & 1


def describe(code):
    """``"white double long"``: text of an event code (logs, tests)."""
    return "%s %s" % (geometry.BUTTON_NAMES[code >> 2], KIND_NAMES[code & 3])
