"""Driver timings: scan + debounce per cycle, LED frame per frame, button poll; PASS/FAIL per budget.

    mpremote run tests/pico/bench_drivers.py

The chain, strip and buttons are in-memory stand-ins, so only the Python work
is timed; on the board add the wire times (SPI 22 bytes at 1 MHz = 176 us;
197 pixels at 800 kHz = 5.9 ms). Budgets on the Pico: 2 ms per scan and per
frame (limited frame included), so the board scans at 200 Hz and animates.
"""

from pipbench import check_ms, finish, per_call_us
from pipcore import geometry as g
from pipdrivers.buttons import Buttons
from pipdrivers.dice_display import DiceDisplay
from pipdrivers.leds import Pixels, warm
from pipdrivers.scan import Scanner

class Chain:
    """The shift-register chain replaying a script of raw reads."""

    def __init__(self):
        self.frames = [bytearray(g.SCAN_BYTES + 1)]
        self.frames[0][g.SCAN_BYTES] = 0xFF
        self.k = 0

    def readinto(self, buf):
        buf[:] = self.frames[self.k % len(self.frames)]


def timed(label, func):
    us = per_call_us(func, 168)  # 168: the frame scripts below cycle over the 168 point LEDs
    print("%s %.3f" % (label, us))
    return us


def main():
    results = {}
    chain = Chain()
    sc = Scanner(chain.readinto, samples=4)
    base = chain.frames[0]
    for loc in range(0, 24, 3):  # a middle-game position
        g.set_count(base, loc, loc % 5 + 1)
    sc.sync()
    results["scan_quiet"] = timed("scan_quiet", lambda k: sc.scan(k * 5))
    # Script: two checkers moving at once (one lifted, one landing elsewhere),
    # every switch bouncing for three scans before it settles, 64 scans long.
    frames = []
    lifted = g.sensor_bit(5, 4)
    landed = g.sensor_bit(16, 2)
    for step in range(64):
        raw = bytearray(base)
        phase = step % 32
        if phase < 16:  # lifted: bounces, then open
            if phase >= 3 or phase == 1:
                raw[lifted >> 3] &= ~(1 << (lifted & 7)) & 0xFF
        elif phase >= 19 or phase == 17:  # landed: bounces, then closed
            raw[landed >> 3] |= 1 << (landed & 7)
        frames.append(raw)
    chain.frames = frames

    def busy(k):
        chain.k = k
        if sc.scan(k * 5):
            while sc.pop() >= 0:
                pass

    results["scan_busy"] = timed("scan_busy", busy)

    written = [0]

    def write(buf):
        written[0] += 1

    px = Pixels(g.LEDS, write, brightness=0.4)
    warm(px)
    display = DiceDisplay(px)
    display.dice(6, 3, 0, moves_left=2)
    display.cube(2, -1)
    display.turn(0)

    for j in range(4):  # four sources pulse, four destinations blink
        px.pulse(g.led_index(j * 5, 0), 0, 80, 255)
        px.blink(g.led_index(j * 5 + 2, 1), 255, 120, 0)

    def frame(k):
        # One animated frame: a checker lifted (its pixel turns amber), the last
        # one put down (back to dark), then compose, limit and write.
        px.set(g.LED_LOC_BASE + k % 168, 255, 120, 0)
        px.set(g.LED_LOC_BASE + (k + 84) % 168, 0, 0, 0)
        px.show(k * 20)

    results["led_frame"] = timed("led_frame", frame)
    results["led_show"] = timed("led_show", lambda k: px.show(k * 20))
    results["led_set"] = timed("led_set", lambda k: px.set(k % g.LEDS, 10, 20, k & 255, k % 3))

    def limited(k):
        px.fill_rgb(255, 255, 255)
        px.pulse(k % g.LEDS, 255, 0, 0)
        px.show(k * 20)

    results["led_frame_limited"] = timed("led_frame_limited", limited)
    pad = [0]
    buttons = Buttons(lambda: pad[0])

    def poll(k):
        pad[0] = (1 << (k // 50 % 10)) if k % 50 < 30 else 0
        if buttons.poll(k * 10):
            while buttons.pop() >= 0:
                pass

    results["buttons_poll"] = timed("buttons_poll", poll)
    for name, kind in (("scan_quiet", "scan"), ("scan_busy", "scan"), ("led_frame", "led_frame"),
                       ("led_frame_limited", "limited_frame"), ("buttons_poll", "buttons")):
        check_ms(name, results[name], kind, 2)
    finish()


main()
