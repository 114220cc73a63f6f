"""Zero allocation in the hot paths (checked under MicroPython only).

With the collector disabled, 1,000 scans (switches moving and chattering)
and 1,000 LED frames (set pixels, blink, pulse, limiter, show) must leave
``gc.mem_alloc()`` unchanged.  Under CPython the loops still run, as a
smoke test, but there is nothing to measure.
"""

import gc
import sys

from pipcore import geometry as g
from pipdrivers.leds import Pixels, warm
from pipdrivers.scan import Scanner

ON_MICROPYTHON = sys.implementation.name == "micropython"


class Chain:
    def __init__(self):
        self.raw = bytearray(g.SCAN_BYTES + 1)
        self.raw[g.SCAN_BYTES] = 0xFF

    def readinto(self, buf):
        raw = self.raw
        for i in range(len(buf)):
            buf[i] = raw[i]


def measure(loop):
    gc.collect()
    gc.disable()
    try:
        before = gc.mem_alloc() if ON_MICROPYTHON else 0
        loop()
        after = gc.mem_alloc() if ON_MICROPYTHON else 0
    finally:
        gc.enable()
    return after - before


def test_scans_allocate_nothing():
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
