"""Preallocated ring buffer of timed events (after peterhinch's ringbuf_queue).

Each event is a small int ``code`` with a time ``now`` (ms), kept modulo
2**30 like MicroPython's ``ticks_ms()`` (compare times with ``ticks_diff``).  ``push`` and
``pop`` allocate nothing.  When the ring is full the oldest event is dropped
and ``overflows`` counts it, so a slow reader learns that it missed events
and can resynchronise from the driver's state.
"""

from array import array

from pipcore.compat import const

TICKS_MASK = const(0x3FFFFFFF)


class RingError(ValueError):
    """A ring configured with an impossible size."""


class Ring:
    def __init__(self, size=64):
        if size < 2 or size & (size - 1) or size > 0x8000:
            raise RingError("ring size must be a power of two 2..32768, not %r" % (size,))
        self._times = array("i", [0] * size)
        self._codes = array("H", [0] * size)
        self._mask = size - 1
        self._head = 0  # next write, counts modulo 0x10000
        self._tail = 0  # next read
        self.overflows = 0
        self.popped_time = 0

    def push(self, code, now):
        h = self._head
        if ((h - self._tail) & 0xFFFF) > self._mask:  # full: drop the oldest
            self._tail = (self._tail + 1) & 0xFFFF
            self.overflows += 1
        self._times[h & self._mask] = now & TICKS_MASK
        self._codes[h & self._mask] = code
        self._head = (h + 1) & 0xFFFF

    def __len__(self):
        return (self._head - self._tail) & 0xFFFF

    def pop(self):
        """Oldest code (its time in ``popped_time``), or -1 when empty."""
        t = self._tail
        if t == self._head:
            return -1
        self.popped_time = self._times[t & self._mask]
        self._tail = (t + 1) & 0xFFFF
        return self._codes[t & self._mask]

    def clear(self):
        self._tail = self._head
