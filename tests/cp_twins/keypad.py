"""Twin of CircuitPython's ``keypad``: ``Keys`` and ``ShiftRegisterKeys`` over the virtual hardware.

As documented for the real module: keys start released; a scan runs every
``interval`` in the background; a key's state changes after
``debounce_threshold`` scans "on average" (an integrator: +1 per scan that
disagrees with the settled state, -1 per scan that agrees); changes are
queued as ``Event`` s with the scan's ``supervisor.ticks_ms``; a full queue
drops the new event and sets ``overflowed``.

The background scan is caught up whenever the queue is looked at, one scan
per ``interval`` elapsed on the simulator's clock; its phase is that of the
first look (a real scanner's phase against the loop is arbitrary; this one
scans at the loop's instants, as the MicroPython build's scanner does, so
the two builds' frames can be compared byte for byte).
"""

from cpsim import WIRING


class Event:
    def __init__(self, key_number=0, pressed=True, timestamp=None):
        self.key_number = key_number
        self.pressed = pressed
        self.timestamp = WIRING.now() & ((1 << 29) - 1) if timestamp is None else timestamp

    @property
    def released(self):
        return not self.pressed

    def __eq__(self, other):
        return isinstance(other, Event) and (self.key_number, self.pressed) == (other.key_number, other.pressed)

    def __hash__(self):
        return hash((self.key_number, self.pressed))

    def __repr__(self):
        return "<Event: key_number %d %s>" % (self.key_number, "pressed" if self.pressed else "released")


class EventQueue:
    def __init__(self, scanner, max_events):
        self._scanner = scanner
        self._max = max_events
        self._queue = []
        self._overflowed = False

    @property
    def overflowed(self):
        self._scanner._catch_up()
        return self._overflowed

    def _put(self, key_number, pressed, timestamp):
        if len(self._queue) >= self._max:
            self._overflowed = True
            return
        self._queue.append((key_number, pressed, timestamp))

    def get(self):
        self._scanner._catch_up()
        if not self._queue:
            return None
        k, p, t = self._queue.pop(0)
        return Event(k, p, t)

    def get_into(self, event):
        self._scanner._catch_up()
        if not self._queue:
            return False
        event.key_number, event.pressed, event.timestamp = self._queue.pop(0)
        return True

    def clear(self):
        self._queue = []
        self._overflowed = False

    def __len__(self):
        self._scanner._catch_up()
        return len(self._queue)

    def __bool__(self):
        return len(self) > 0


class _Scanner:
    def __init__(self, pins, key_count, interval, max_events, debounce_threshold):
        if max_events < 1:
            raise ValueError("max_events must be >= 1")
        if not 1 <= debounce_threshold <= 127:
            raise ValueError("debounce_threshold must be 1..127")
        if interval < 0 or interval > 100:
            raise ValueError("interval out of range")
        self._pins = []
        for pin in pins:
            WIRING.claim(pin, self)
            self._pins.append(pin)
        self.key_count = key_count
        self.interval_ms = round(interval * 1000)
        self.debounce_threshold = debounce_threshold
        self._pressed = [False] * key_count
        self._count = [0] * key_count
        self.events = EventQueue(self, max_events)
        self._next_scan = None
        self._quiet = None  # the raw reading of the last scan that left every key settled
        self.scans = 0
        self.deinited = False

    def _catch_up(self):
        if self.deinited:
            raise ValueError("Object has been deinitialized and can no longer be used. Create a new object.")
        now = WIRING.now()
        if self._next_scan is None:
            self._next_scan = now
        while self._next_scan <= now:
            self._scan(self._next_scan)
            self._next_scan += max(1, self.interval_ms)

    def _scan(self, t):
        self.scans += 1
        raw = self._raw()
        if raw == self._quiet:  # nothing moved and nothing half-way: what the C loop would find too
            return
        levels = self._levels(raw)
        threshold = self.debounce_threshold
        pressed = self._pressed
        count = self._count
        pending = False
        for k in range(self.key_count):
            c = count[k]
            if levels[k] != pressed[k]:
                c += 1
                if c >= threshold:
                    c = 0
                    pressed[k] = levels[k]
                    self.events._put(k, levels[k], t & ((1 << 29) - 1))
            elif c:
                c -= 1
            count[k] = c
            pending = pending or c != 0
        self._quiet = None if pending else raw  # every key settled at these levels

    def reset(self):
        self._pressed = [False] * self.key_count
        self._count = [0] * self.key_count
        self._quiet = None

    def deinit(self):
        if not self.deinited:
            for pin in self._pins:
                WIRING.release(pin)
            self.deinited = True

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.deinit()


class Keys(_Scanner):
    def __init__(self, pins, *, value_when_pressed, pull=True, interval=0.020, max_events=64,
                 debounce_threshold=1):
        pins = tuple(pins)
        super().__init__(pins, len(pins), interval, max_events, debounce_threshold)
        self.value_when_pressed = bool(value_when_pressed)
        self.pull_up = bool(pull) and not value_when_pressed

    def _raw(self):
        return WIRING.levels([p.gpio for p in self._pins], self.pull_up)

    def _levels(self, raw):
        return [level == self.value_when_pressed for level in raw]


class ShiftRegisterKeys(_Scanner):
    def __init__(self, *, clock, data, latch, value_to_latch=True, key_count, value_when_pressed,
                 interval=0.020, max_events=64, debounce_threshold=1):
        if not isinstance(data, (list, tuple)):
            data = (data,)
        if not isinstance(key_count, (list, tuple)):
            key_count = (key_count,)
        if len(data) != len(key_count):
            raise ValueError("data and key_count must have the same length")
        super().__init__((clock, latch) + tuple(data), sum(key_count), interval, max_events, debounce_threshold)
        self._clock, self._latch, self._data = clock, latch, tuple(data)
        self._counts = tuple(key_count)
        self.value_to_latch = value_to_latch
        self.value_when_pressed = bool(value_when_pressed)

    def _chain_bytes(self, n):
        """The bytes shifted out of the virtual 74HC165 chain for ``n`` clocks (Q7 of register 0 first)."""
        clock, _, latch = WIRING.chain_pins
        wired = WIRING.chain is not None and self._clock.gpio == clock and self._latch.gpio == latch
        nbytes = (n + 7) // 8
        if not wired or not self.value_to_latch:
            return bytes(nbytes)  # nothing loaded or clocked: the data line's pull-down
        buf = bytearray(22)  # 21 registers and the sentinel byte, one load and 176 clocks
        WIRING.chain.readinto(buf)
        if nbytes > len(buf):  # past the sentinel register the last DS (tied high) keeps shifting in
            buf += b"\xff" * (nbytes - len(buf))
        return bytes(buf[:nbytes])

    def _raw(self):
        return tuple(self._chain_bytes(count) if pin.gpio == WIRING.chain_pins[1] else bytes((count + 7) // 8)
                     for pin, count in zip(self._data, self._counts))

    def _levels(self, raw):
        levels = []
        for data, count in zip(raw, self._counts):
            levels.extend(bool(data[k >> 3] >> (7 - (k & 7)) & 1) == self.value_when_pressed for k in range(count))
        return levels
