"""Reed-switch scanner: shift-register chain -> debounced bitmap + change events.

The chain is read by an injected ``readinto(buf)`` (on the Pico: pulse the
74HC165 SH/LD line, then ``spi.readinto(buf)``; in the simulator: copy the
virtual switches).  ``buf`` has one byte per register plus one sentinel byte:
the serial input of the last register is tied high, so an intact chain reads
0xFF there and a broken one does not (MISO has a pull-down).

Each switch is debounced by integration: a counter rises by one for every
scan where the raw level differs from the settled level and falls by one for
every scan where it agrees; the settled level flips only when the counter
reaches ``samples``.  A glitch or chatter burst shorter than that never
becomes a change; a clean change settles after exactly ``samples`` scans,
and after ``samples`` clean scans once the bouncing stops.

Settled changes go into a preallocated ring buffer as ``bit << 1 | closed``
with their ``now``.  Nothing in ``scan()`` allocates (checked under
MicroPython by tests/mp/test_zero_alloc.py): buffers are ``bytearray`` and
``array``, the bitmap is a ``bytearray`` (a 168-bit int would be a heap
object in MicroPython) numbered as in ``pipcore.geometry``.

Measured (tests/bench/bench_drivers.py): see the benchmark output; a quiet
scan is one ``memcmp``; a scan with switches moving walks the 21 bytes.
"""

from pipcore import geometry
from pipcore.compat import const

from pipdrivers.ring import Ring

_DEFAULT_RING = const(64)
_CHUNK = const(7)  # bytes compared at once before looking at single bytes


class ScanError(ValueError):
    """A scanner configured with impossible values."""


class Scanner:
    """Debounced view of the switch chain.

    ``samples``: consecutive disagreeing scans needed to settle a change (at
    a 5 ms scan period, 4 samples settle a clean change in 20 ms).
    ``nbytes``: bytes of switch data (21 for the board).
    """

    def __init__(self, readinto, samples=4, nbytes=geometry.SCAN_BYTES, ring=_DEFAULT_RING, sentinel=True):
        if not 1 <= samples <= 250:
            raise ScanError("samples must be 1..250, not %r" % (samples,))
        self._readinto = readinto
        self.samples = samples
        self.nbytes = nbytes
        self._sentinel = 1 if sentinel else 0
        self._buf = bytearray(nbytes + self._sentinel)  # raw read, sentinel last
        # Settled state, bit set = switch closed; the sentinel byte is kept at
        # 0xFF so that one comparison with the raw read detects "no change".
        self.bits = bytearray(nbytes + self._sentinel)
        if sentinel:
            self.bits[nbytes] = 0xFF
        self._count = bytearray(nbytes * 8)  # integration counters
        self._pend = bytearray(nbytes)  # bit set = counter not zero
        self._npend = 0
        self.events = Ring(ring)  # settled changes: bit << 1 | closed
        self.chain_ok = True
        # Views of equal chunks of the raw read, the settled state and the
        # pending mask, made once here so that scan() allocates nothing.
        self._raw_views = []
        self._bit_views = []
        self._pend_views = []
        self._zero_views = []
        for start in range(0, nbytes, _CHUNK):
            end = min(start + _CHUNK, nbytes)
            self._raw_views.append(memoryview(self._buf)[start:end])
            self._bit_views.append(memoryview(self.bits)[start:end])
            self._pend_views.append(memoryview(self._pend)[start:end])
            self._zero_views.append(memoryview(bytearray(end - start)))

    # -- the hot path -------------------------------------------------------
    def scan(self, now):
        """Read the chain once and debounce; returns how many changes settled.

        (Few locals: MicroPython puts a frame of more than 11 locals and stack slots on the heap, and
        finding that block in a game's heap cost a quiet scan 0.3 ms on the emulated Pico: the walk
        over moving switches has its own frame.)"""
        buf = self._buf
        self._readinto(buf)
        if self._sentinel:
            self.chain_ok = buf[self.nbytes] == 0xFF
        if self._npend == 0 and buf == self.bits:  # one memcmp: nothing moved
            return 0
        return self._walk(now)

    def _walk(self, now):
        """Debounce the chunks where a switch moves or a counter runs."""
        buf = self._buf
        bits = self.bits
        pend = self._pend
        settled = 0
        raw_views = self._raw_views
        bit_views = self._bit_views
        pend_views = self._pend_views
        zero_views = self._zero_views
        for c in range(len(raw_views)):
            # Skip a whole chunk with two memcmps when nothing in it moves.
            if raw_views[c] == bit_views[c] and pend_views[c] == zero_views[c]:
                continue
            for i in range(c * _CHUNK, min(c * _CHUNK + _CHUNK, self.nbytes)):
                d = (buf[i] ^ bits[i]) | pend[i]
                if d:
                    settled += self._debounce_byte(i, d, now)
        return settled

    def _debounce_byte(self, i, d, now):
        raw = self._buf[i]
        st = self.bits[i]
        count = self._count
        samples = self.samples
        pend = self._pend[i]
        settled = 0
        base = i << 3
        k = 0
        while d:
            if d & 1:
                m = 1 << k
                c = count[base + k]
                if (raw ^ st) & m:
                    c += 1
                    if c >= samples:
                        st ^= m
                        c = 0
                        self.events.push((base + k) << 1 | ((st >> k) & 1), now)
                        settled += 1
                elif c:
                    c -= 1
                count[base + k] = c
                if c:
                    if not pend & m:
                        pend |= m
                        self._npend += 1
                elif pend & m:
                    pend &= ~m & 0xFF
                    self._npend -= 1
            d >>= 1
            k += 1
        self.bits[i] = st
        self._pend[i] = pend
        return settled

    # -- consuming events (see pipdrivers.ring) -----------------------------
    def pending(self):
        """Number of settled changes not yet popped."""
        return len(self.events)

    def pop(self):
        """Oldest change as ``bit << 1 | closed`` (its time in ``popped_time``), or -1."""
        return self.events.pop()

    @property
    def popped_time(self):
        return self.events.popped_time

    @property
    def overflows(self):
        return self.events.overflows

    # -- state -------------------------------------------------------------
    def closed(self, bit):
        """Settled state of one switch."""
        return (self.bits[bit >> 3] >> (bit & 7)) & 1

    def bitmap(self):
        """Settled state as one int, bit n = scan bit n (allocates: host and tests)."""
        value = 0
        for i in range(self.nbytes - 1, -1, -1):
            value = (value << 8) | self.bits[i]
        return value

    def sync(self):
        """Adopt the raw state as settled at once, with no events (power-up)."""
        self._readinto(self._buf)
        if self._sentinel:
            self.chain_ok = self._buf[self.nbytes] == 0xFF
        for i in range(self.nbytes):
            self.bits[i] = self._buf[i]
            self._pend[i] = 0
        for i in range(self.nbytes * 8):
            self._count[i] = 0
        self._npend = 0

    def check_chain(self):
        """Read the chain once: is its sentinel byte intact? (power-up and self-test; the settled switches
        are left as they are)"""
        if self._sentinel:
            self._readinto(self._buf)
            self.chain_ok = self._buf[self.nbytes] == 0xFF
        return self.chain_ok
