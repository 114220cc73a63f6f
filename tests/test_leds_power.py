"""Power limiter: over arbitrary frames the estimated current never exceeds the budget (Hypothesis)."""

from hypothesis import given, settings
from hypothesis import strategies as st
from pipcore import geometry as g
from pipdrivers.leds import LEVEL_OF, LEVEL_VALUE, STEADY, Pixels


class Strip:
    def __init__(self):
        self.last = None

    def write(self, buf):
        self.last = bytes(buf)


def current_ua(px, frame):
    """The model of hardware/power.md applied to the bytes actually written."""
    return px.base_ma * 1000 + px.n * px.idle_ua + sum(frame) * px.channel_ma * 1000 / 255


channel = st.integers(0, 255)
op = st.one_of(
    st.tuples(st.just("set"), st.integers(0, g.LEDS - 1), channel, channel, channel, st.integers(0, 2)),
    st.tuples(st.just("fill"), channel, channel, channel),
)


@settings(max_examples=150, deadline=None)
@given(
    ops=st.lists(op, max_size=60),
    dense=st.booleans(),
    brightness=st.floats(0, 1),
    budget=st.integers(g.POWER_BASE_MA + g.LEDS * g.LED_IDLE_UA // 1000 + 1, 3000),
    now=st.integers(0, 1 << 29),
)
def test_no_frame_exceeds_the_budget(ops, dense, brightness, budget, now):
    strip = Strip()
    px = Pixels(g.LEDS, strip.write, brightness=brightness, budget_ma=budget, use_framebuf=False)
    if dense:
        px.fill_rgb(255, 255, 255)
    for o in ops:
        if o[0] == "set":
            px.set(*o[1:])
        else:
            px.fill_rgb(*o[1:])
    px.show(now)
    assert current_ua(px, strip.last) <= budget * 1000
    assert px.estimate_ma() <= budget
    assert sum(strip.last) <= px.est_units  # the estimate bounds the real frame


@settings(max_examples=60, deadline=None)
@given(pixels=st.lists(st.tuples(st.integers(0, g.LEDS - 1), channel, channel, channel), max_size=4),
       brightness=st.floats(0, 1))
def test_frames_within_budget_are_not_dimmed(pixels, brightness):
    strip = Strip()
    px = Pixels(g.LEDS, strip.write, brightness=brightness, use_framebuf=False)
    for i, r, gg, b in pixels:
        px.set(i, r, gg, b, STEADY)
    px.show(0)
    # 500 mA - 45 mA base - 197 dark pixels x 1 mA leaves 258 mA of light:
    # four full-white pixels (4 x 60 mA) always fit, eight do not.
    assert not px.limited
    scale = LEVEL_VALUE[LEVEL_OF[int(brightness * 256 + 0.5)]]
    for i in range(g.LEDS):
        r, gg, b = px[i]
        o = 3 * i
        assert strip.last[o : o + 3] == bytes((gg * scale >> 8, r * scale >> 8, b * scale >> 8))


def test_limited_frame_uses_most_of_the_budget():
    strip = Strip()
    px = Pixels(g.LEDS, strip.write, budget_ma=500)
    px.fill((255, 255, 255))
    px.show(0)
    assert px.limited
    light = 500_000 - current_ua(px, bytes(len(strip.last)))
    used = current_ua(px, strip.last) - current_ua(px, bytes(len(strip.last)))
    # Rounding down costs one level step (at most 20%) and, at a scale as low as
    # this one (5/256), up to one unit per byte: it still uses over 60%.
    assert 0.6 * light <= used <= light
