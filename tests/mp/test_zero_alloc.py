"""Zero allocation in the hot paths, proved under MicroPython.

Scans with debounce (switches moving and chattering), LED frames (set
pixels, blink, pulse, limiter, show), button polls and the protocol's frame
reading (serial bytes pumped into the handler, byte by byte) run 1,000 times
each with the collector disabled:

* under the unix MicroPython the loop runs with ``micropython.heap_lock()``:
  the first allocation raises ``MemoryError``, so the proof holds for every
  allocation, including a temporary buffer freed again before the loop ends;
* under the WebAssembly port, where ``heap_lock()`` hangs, ``gc.mem_alloc()``
  must be unchanged after the loop (that port is 32-bit like the Pico: an int
  past 30 bits is a heap object there, not on the 64-bit unix port).

``PROOF`` says which of the two ran (tests/test_micropython.py checks that the
unix run used the heap lock). Under CPython the loops still run, as a smoke
test, but there is nothing to measure.
"""

import gc
import sys

from pipcore import geometry as g
from pipcore import protocol
from pipdrivers.leds import Pixels, warm
from pipdrivers.scan import Scanner
from pipdrivers.usb_serial import UsbSerial

ON_MICROPYTHON = sys.implementation.name == "micropython"
try:
    import micropython
except ImportError:  # CPython
    micropython = None

# heap_lock() hangs the WebAssembly port (its heap grows by itself), so that port measures instead.
if micropython is not None and hasattr(micropython, "heap_lock") and sys.platform != "webassembly":
    PROOF = "heap_lock"
elif ON_MICROPYTHON:
    PROOF = "mem_alloc"
else:
    PROOF = "none"

class Chain:
    def __init__(self):
        self.raw = bytearray(g.SCAN_BYTES + 1)
        self.raw[g.SCAN_BYTES] = 0xFF

    def readinto(self, buf):
        raw = self.raw
        for i in range(len(buf)):
            buf[i] = raw[i]


def measure(loop):
    """Bytes ``loop()`` allocated (0 under CPython); -1 if it allocated under the heap lock."""
    gc.collect()
    gc.disable()
    try:
        before = gc.mem_alloc() if ON_MICROPYTHON else 0
        if PROOF == "heap_lock":
            locked_out = False
            micropython.heap_lock()
            try:
                loop()
            except MemoryError:
                locked_out = True
            finally:
                micropython.heap_unlock()
            if locked_out:
                return -1
        else:
            loop()
        after = gc.mem_alloc() if ON_MICROPYTHON else 0
    finally:
        gc.enable()
    return after - before


def test_the_proof_sees_an_allocation():
    """The measure can fail: a loop that builds one small list is caught."""
    kept = [None]

    def loop():
        for k in range(10):
            kept[0] = [k]

    got = measure(loop)
    if ON_MICROPYTHON:
        assert got != 0, got
    if PROOF == "heap_lock":
        assert got == -1 and kept[0] is None, (got, kept)


def test_scans_and_debounce_allocate_nothing():
    chain = Chain()
    sc = Scanner(chain.readinto, samples=3, ring=16)
    raw = chain.raw

    def loop():
        for k in range(1000):
            # A checker slides along point 1, with chatter on every 7th scan.
            bit = (k >> 4) % 12
            raw[bit >> 3] ^= 1 << (bit & 7) if k % 16 == 0 or k % 7 == 0 else 0
            sc.scan(k * 5)
            if k & 3 == 0:
                while sc.pop() >= 0:
                    pass

    sc.scan(0)  # first call outside the measurement
    assert measure(loop) == 0
    assert sc.bitmap() >= 0


def test_led_frames_allocate_nothing():
    frames = [0]

    def write(buf):
        frames[0] += 1

    px = Pixels(g.LEDS, write, brightness=0.6)
    warm(px)
    for i in range(40):
        px.blink(g.led_index(i % 24, i % 6), 200, 20, 0)
    for i in range(30):
        px.pulse(g.led_index(12 + i % 12, i % 6), 0, 60, 220)

    def loop():
        for k in range(1000):
            i = k % g.LEDS
            px.set(i, k & 255, 40, 255 - (k & 255), k % 3)
            if k % 250 == 0:
                px.fill_rgb(255, 255, 255)  # forces the limiter
            px.show(k * 20)

    px.show(0)
    assert measure(loop) == 0
    assert frames[0] == 1001


def test_button_polls_allocate_nothing():
    from pipdrivers.buttons import Buttons

    pad = [0]
    buttons = Buttons(lambda: pad[0], samples=2, long_ms=100)

    def loop():
        for k in range(1000):
            pad[0] = (1 << (k // 40 % 10)) if k % 40 < 30 else 0  # short and long presses
            buttons.poll(k * 10)
            while buttons.pop() >= 0:
                pass

    buttons.poll(0)
    assert measure(loop) == 0


class Line:
    """A serial line twin that allocates nothing: ``readinto`` and ``poll`` walk preset bytes."""

    def __init__(self, data):
        self.data = data
        self.at = 0
        self.ready = [1]
        self.idle = []

    def readinto(self, buf):
        buf[0] = self.data[self.at]
        self.at += 1
        return 1

    def poll(self, timeout):
        return self.ready if self.at < len(self.data) else self.idle

    def write(self, data):
        pass


def test_protocol_frame_reading_allocates_nothing():
    """Bytes pumped into the protocol handler one by one, as on the Pico, until a line ends.

    A line longer than the frame buffer is skipped as it arrives; only a line's
    end may allocate (a complete frame is decoded as JSON, an oversized one
    answered with an error), so the bytes measured here end before a newline.
    """
    replies = []
    handlers = (protocol.ProtocolHandler(None, replies.append), protocol.ProtocolHandler(None, replies.append))
    feeds = (handlers[0].feed, handlers[1].feed)  # bound once, as HostLink does
    handlers[1].feed(b"x" * (protocol.MAX_FRAME + 300) + b"\n")  # an oversized line's reply, unmeasured
    assert handlers[1].errors == 1 and len(replies) == 1
    partial = bytearray(b'{"id": 7, "cmd": "ping", "data": "' + b"y" * 600)
    over = bytearray(b"z" * (protocol.MAX_FRAME + 200))
    lines = (Line(partial), Line(over))
    links = (UsbSerial(lines[0], lines[0], lines[0]), UsbSerial(lines[1], lines[1], lines[1]))

    def loop():
        for k in range(2):
            link = links[k]
            feed = feeds[k]
            while link.pump(feed):
                pass

    got = measure(loop)
    assert got == 0, got
    assert lines[0].at == len(partial) and lines[1].at == len(over)
    assert links[0].bytes_in + links[1].bytes_in == len(partial) + len(over)
    # The bytes were kept, not lost: the frame's end gets its reply, the long line its error.
    handlers[0].feed(b'"}\n')
    handlers[1].feed(b"\n")
    assert len(replies) == 3, replies
    assert b'"id": 7' in replies[1] and b'"pong": "yyy' in replies[1], replies
    assert protocol.E_OVERSIZED.encode() in replies[2], replies
