"""The idle board (issue 23 point 7): with nothing changing, the app asks for a pass once a scan period,
such a pass only scans (no drawing, no work ahead, no allocation), and the work ahead stops once done.

Runs under CPython and the real MicroPython (no pytest here). ``Bench`` (tests/mp/resilience.py) is the
``App`` on twins of the hardware functions with the protocol handler in front, passes every 5 ms.
"""

from pipcore.app import SCAN_PERIOD_MS
from pipcore.names import MOVING, OPENING
from resilience import Bench
from test_zero_alloc import measure


class Calls:
    """Counts the calls of ``obj.name`` (an instance attribute over the method)."""

    def __init__(self, obj, name):
        self.n = 0
        real = getattr(obj, name)

        def counted(*args):
            self.n += 1
            return real(*args)

        setattr(obj, name, counted)


def _opening():
    bench = Bench()
    bench.step("setup")
    bench.advance(200)
    assert bench.app.ctl.phase == OPENING
    return bench


def test_waiting_for_the_opening_roll_the_next_pass_is_a_scan_period_ahead():
    bench = _opening()
    app = bench.app
    for _ in range(20):
        bench.advance(5)
        assert app.due == bench.now + SCAN_PERIOD_MS, (app.due, bench.now)


def test_a_calm_pass_neither_draws_nor_works_ahead_and_a_press_is_still_seen():
    bench = _opening()
    app = bench.app
    draws = Calls(app, "draw")
    quiets = Calls(app, "quiet")
    frame = bytes(bench.frame)
    bench.advance(400)
    assert draws.n == 0 and quiets.n == 0, (draws.n, quiets.n)
    bench.press(0)  # white's ROLL: the opening roll is shown at once
    assert draws.n > 0 and bytes(bench.frame) != frame  # (the dice on the panel)
    assert app.ctl.message != "press ROLL for the opening roll"


def test_the_work_ahead_stops_once_done_and_starts_again_at_the_next_event():
    bench = _opening()
    bench.press(0)  # the opening roll (the bench's dice: 3-1, white moves)
    app = bench.app
    ctl = app.ctl
    assert ctl.phase == MOVING
    idles = Calls(ctl, "idle")
    for _ in range(200):  # the work ahead of a 3-1 is done within a few hundred passes
        before = idles.n
        bench.advance(50)
        if idles.n == before:
            break
    done = idles.n
    assert done > 0, "no work ahead was done"
    bench.advance(500)
    assert idles.n <= done + 1, (done, idles.n)  # (once more at most: a heap too full is looked at each second)
    counts = bytearray(bench.counts)
    counts[7] -= 1  # a checker lifted from white's 8 point: the work ahead starts again
    bench.show(counts)
    assert idles.n > done


def test_a_calm_pass_allocates_nothing():
    bench = _opening()
    app = bench.app
    faults = app.faults
    passes = [bench.now]

    def loop():
        now = passes[0]
        for _ in range(200):
            now += 5
            app.poll(now)
        passes[0] = now

    assert measure(loop) == 0 and app.faults == faults
    assert app.ctl.phase == OPENING


def test_a_deeper_reading_due_is_ticked_on_time_between_calm_passes():
    """A change answered in haste is read again at ``deep_at`` (issue 23 point 5), not a calm second later."""
    bench = _opening()
    bench.press(0)  # the opening roll: white moves
    app = bench.app
    ctl = app.ctl
    bench.advance(2000)  # the work ahead done: the passes are calm again
    assert ctl.phase == MOVING and ctl.deep_at < 0
    deepened = Calls(ctl, "_deepen")
    ctl.deep_at = bench.now + 20  # as a settled change answered in haste leaves it (its event counted, as
    app.changes += 1  # App.step counts it; the work ahead is done, so nothing else keeps the passes busy)
    bench.advance(20 + 2 * SCAN_PERIOD_MS)
    assert deepened.n == 1 and ctl.deep_at < 0, (deepened.n, ctl.deep_at, bench.now)


def test_a_save_is_made_after_the_events_garbage_is_collected():
    """A commit's dropped turn tables (or a roll's search) are collected before the save makes its own garbage:
    DONE's peak is the larger of the two, not their sum (a long nardy 1-1: 47 KB free at its worst on the
    Pico without this, 53 KB with it; tests/pico/heap.py)."""
    import pipcore.app as appmod

    bench = _opening()
    app = bench.app
    order = []
    store = app.hw.state_store
    save = store.save

    def saved(payload):
        order.append("save")
        return save(payload)

    store.save = saved
    real = appmod._collect
    appmod._collect = lambda: order.append("collect")
    try:
        bench.press(0)  # the opening roll is saved
    finally:
        appmod._collect = real
    assert "save" in order, order
    for i, what in enumerate(order):
        if what == "save":
            assert i > 0 and order[i - 1] == "collect", order
