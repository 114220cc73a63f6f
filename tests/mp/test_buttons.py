"""Buttons: debounce, short and long presses (CPython and MicroPython)."""

from pipcore import geometry as g
from pipdrivers.buttons import DOWN, LONG, SHORT, UP, ButtonError, Buttons, describe


class Pad:
    def __init__(self):
        self.level = 0

    def read(self):
        return self.level


def run(buttons, pad, script, now=0, step=5):
    """``script``: levels, one per poll.  Returns [(time, button, kind)]."""
    for level in script:
        pad.level = level
        buttons.poll(now)
        now += step
    events = []
    while True:
        code = buttons.pop()
        if code < 0:
            return events, now
        events.append((buttons.popped_time, code >> 2, code & 3))


def test_short_press():
    pad = Pad()
    b = Buttons(pad.read, samples=3, long_ms=800)
    m = 1 << g.BTN_WHITE_ROLL
    events, _ = run(b, pad, [m] * 10 + [0] * 5)
    assert [(e[1], e[2]) for e in events] == [(0, DOWN), (0, SHORT), (0, UP)]
    assert events[0][0] == 10  # third poll at 5 ms steps


def test_long_press_fires_once_while_held():
    pad = Pad()
    b = Buttons(pad.read, samples=2, long_ms=100)
    m = 1 << g.BTN_UNDO
    events, _ = run(b, pad, [m] * 60 + [0] * 3)
    kinds = [e[2] for e in events]
    assert kinds == [DOWN, LONG, UP]
    assert events[1][0] - events[0][0] == 100
    assert describe(g.BTN_UNDO << 2 | LONG) == "undo long"


def test_bounces_and_glitches_do_not_press():
    pad = Pad()
    b = Buttons(pad.read, samples=3)
    m = 1 << g.BTN_BLACK_DROP
    events, _ = run(b, pad, [m, 0, m, m, 0, 0, m, 0, 0, 0, 0])
    assert events == []
    assert b.state == 0


def test_two_buttons_at_once():
    pad = Pad()
    b = Buttons(pad.read, samples=1, long_ms=1000)
    both = (1 << g.BTN_WHITE_TAKE) | (1 << g.BTN_BLACK_TAKE)
    events, _ = run(b, pad, [both, both, 1 << g.BTN_BLACK_TAKE, 0])
    assert (g.BTN_WHITE_TAKE, SHORT) in [(e[1], e[2]) for e in events]
    assert (g.BTN_BLACK_TAKE, SHORT) in [(e[1], e[2]) for e in events]
    assert len(events) == 6


def test_bad_configuration():
    try:
        Buttons(Pad().read, n=31)
    except ButtonError:
        pass
    else:
        assert False


def test_host_clock_times_beyond_32_bits_wrap_like_ticks():
    pad = Pad()
    b = Buttons(pad.read, samples=1, long_ms=100)
    start = 1_700_000_000_000  # a host clock in ms
    pad.level = 1
    for k in range(30):
        b.poll(start + 10 * k)
    pad.level = 0
    b.poll(start + 300)
    kinds = []
    while True:
        code = b.pop()
        if code < 0:
            break
        kinds.append(code & 3)
        assert 0 <= b.popped_time < 1 << 30
    assert kinds == [DOWN, LONG, UP]
