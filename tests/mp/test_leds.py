"""LED frame: adafruit API shape, effects, power limiter, both compose paths."""

from pipcore import geometry as g
from pipdrivers.leds import BLINK, LEVEL_OF, LEVEL_VALUE, PULSE, STEADY, LedError, Pixels, warm


class Strip:
    def __init__(self):
        self.frames = []

    def write(self, buf):
        self.frames.append(bytes(buf))


def channel_sum(buf):
    total = 0
    for v in buf:
        total += v
    return total


def current_ua(px, buf):
    return px.base_ma * 1000 + px.n * px.idle_ua + channel_sum(buf) * px.channel_ma * 1000 // 255


def test_adafruit_shape_and_wire_order():
    strip = Strip()
    px = Pixels(4, strip.write)
    px[0] = (1, 2, 3)
    px[-1] = 0x0A0B0C
    assert px[0] == (1, 2, 3) and px[3] == (10, 11, 12)
    assert len(px) == 4
    px.show()
    assert strip.frames[-1] == bytes((2, 1, 3, 0, 0, 0, 0, 0, 0, 11, 10, 12))
    px.fill((5, 6, 7))
    px.show()
    assert strip.frames[-1] == bytes((6, 5, 7)) * 4


def test_level_ladder_is_increasing_and_rounds_down():
    for k in range(1, len(LEVEL_VALUE)):
        assert LEVEL_VALUE[k] > LEVEL_VALUE[k - 1]
    assert LEVEL_VALUE[len(LEVEL_VALUE) - 1] == 256
    for scale in range(257):
        k = LEVEL_OF[scale]
        assert LEVEL_VALUE[k] <= scale
        assert k == len(LEVEL_VALUE) - 1 or LEVEL_VALUE[k + 1] > scale


def test_brightness_scales_down_to_a_level():
    strip = Strip()
    px = Pixels(2, strip.write, brightness=0.5)
    px[0] = (255, 100, 0)
    px.show()
    v = LEVEL_VALUE[LEVEL_OF[128]]
    assert v <= 128 and v > 100
    assert strip.frames[-1][:3] == bytes((100 * v >> 8, 255 * v >> 8, 0))
    px.brightness = 0
    px.show()
    assert strip.frames[-1] == bytes(6)


def test_bad_values_raise():
    px = Pixels(3, Strip().write)
    for bad in ((256, 0, 0), (0, -1, 0)):
        try:
            px[0] = bad
        except LedError:
            pass
        else:
            assert False, bad
    try:
        px[3] = (0, 0, 0)
    except LedError as exc:
        assert "0..2" in str(exc)
    else:
        assert False
    try:
        Pixels(600, Strip().write, budget_ma=500)
    except LedError as exc:
        assert "below the static draw" in str(exc)
    else:
        assert False


def test_blink_and_pulse_follow_time():
    strip = Strip()
    px = Pixels(3, strip.write, blink_ms=600, pulse_ms=1200)
    px.blink(0, 0, 200, 0)
    px.pulse(1, 0, 0, 200)
    px[2] = (9, 9, 9)
    assert px.effect(0) == BLINK and px.effect(1) == PULSE and px.effect(2) == STEADY
    px.show(0)
    on = strip.frames[-1]
    px.show(400)
    off = strip.frames[-1]
    assert on[0] == 200 and off[0] == 0  # G of pixel 0
    assert on[6:] == off[6:] == bytes((9, 9, 9))
    levels = []
    for t in range(0, 1200, 100):
        px.show(t)
        levels.append(strip.frames[-1][5])
    assert min(levels) >= 200 * LEVEL_VALUE[LEVEL_OF[24]] >> 8 and max(levels) == 200
    assert levels[0] < levels[3] and levels[6] > levels[9]
    # Moving a pixel to another effect clears it from its old layer.
    px[0] = (1, 1, 1)
    px.show(400)
    assert strip.frames[-1][:3] == bytes((1, 1, 1))


def test_limiter_keeps_full_white_within_budget():
    strip = Strip()
    px = Pixels(g.LEDS, strip.write)
    px.fill((255, 255, 255))
    px.show()
    assert px.limited
    assert current_ua(px, strip.frames[-1]) <= 500 * 1000
    assert px.estimate_ma() <= 500
    # It uses most of what it may: within a 1/32 step of the budget.
    assert current_ua(px, strip.frames[-1]) > 400 * 1000


def lcg(seed):
    while True:
        seed = (seed * 1103515245 + 12345) & 0x7FFFFFFF
        yield seed >> 8


def test_random_frames_within_budget_and_paths_agree():
    rnd = lcg(7)
    for trial in range(12):
        budget = 250 + next(rnd) % 500
        strips = [Strip(), Strip(), Strip()]
        pixels = [Pixels(g.LEDS, strips[0].write, budget_ma=budget, brightness=(next(rnd) % 101) / 100)]
        # the native mix where the port has it, framebuf's blits, plain Python: the same bytes
        pixels.append(Pixels(g.LEDS, strips[1].write, budget_ma=budget, use_native=False))
        pixels.append(Pixels(g.LEDS, strips[2].write, budget_ma=budget, use_framebuf=False, use_native=False))
        pixels[1].brightness = pixels[2].brightness = pixels[0].brightness
        lit = next(rnd) % g.LEDS
        for _ in range(lit):
            i, r, gg, b, e = next(rnd) % g.LEDS, next(rnd) & 255, next(rnd) & 255, next(rnd) & 255, next(rnd) % 3
            for px in pixels:
                px.set(i, r, gg, b, e)
        now = next(rnd) % 5000
        for px in pixels:
            px.show(now)
        assert strips[0].frames[-1] == strips[1].frames[-1] == strips[2].frames[-1], trial
        assert current_ua(pixels[0], strips[0].frames[-1]) <= budget * 1000, trial


def test_the_native_mix_is_used_where_the_port_has_native_code():
    import sys

    from pipdrivers import leds

    arch = getattr(sys.implementation, "_mpy", 0) >> 10  # the native code this MicroPython runs (0: none)
    if sys.implementation.name == "micropython" and arch:
        assert leds._mix is not None
        assert Pixels(10, Strip().write)._mix is leds._mix
    elif sys.implementation.name != "micropython":
        assert leds._mix is None  # CPython: no micropython module, the other paths
    assert Pixels(10, Strip().write, use_native=False)._mix is None


def test_the_native_put_writes_what_the_plain_one_does():
    import sys

    from pipdrivers import leds

    arch = getattr(sys.implementation, "_mpy", 0) >> 10
    if sys.implementation.name != "micropython" or not arch:
        assert Pixels.put is Pixels._put  # one put: the plain one
        return
    assert Pixels.put is not Pixels._put and leds.put is not None
    rnd = lcg(11)
    for byteorder in ("GRB", "RGB", "BGR"):
        native = Pixels(g.LEDS, Strip().write, byteorder=byteorder)
        plain = Pixels(g.LEDS, Strip().write, byteorder=byteorder)
        for _ in range(600):
            i, code = next(rnd) % g.LEDS, (next(rnd) % 3) << 24 | next(rnd) & 0xFFFFFF
            native.put(i, code)
            Pixels._put(plain, i, code)
        assert bytes(native._effect) == bytes(plain._effect), byteorder
        for layer in range(3):
            assert bytes(native._layers[layer]) == bytes(plain._layers[layer]), (byteorder, layer)
        assert list(native._load) == list(plain._load), byteorder
    for index, code in ((g.LEDS, 0), (-1, 0), (0, 3 << 24), (0, -1)):
        said = []
        for put in (native.put, lambda i, c: Pixels._put(native, i, c)):
            try:
                put(index, code)
            except LedError as exc:
                said.append(str(exc))
        assert len(said) == 2 and said[0] == said[1], (index, code, said)


def test_warm_builds_palettes_once():
    px = Pixels(10, Strip().write)
    warm(px)
    px.brightness = 0.3
    px[1] = (100, 100, 100)
    px.show()


def test_slice_assignment():
    px = Pixels(6, Strip().write)
    px[1:4] = [(1, 1, 1), 0x020202, (3, 3, 3)]
    assert [px[i] for i in range(6)] == [(0, 0, 0), (1, 1, 1), (2, 2, 2), (3, 3, 3), (0, 0, 0), (0, 0, 0)]
    try:
        px[0:2] = [(1, 1, 1)]
    except LedError:
        pass
    else:
        assert False
