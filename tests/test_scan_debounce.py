"""Debounce properties (Hypothesis + the switch twin).

Scripted physics: each switch follows a sequence of real states; right after
every real change it chatters (random levels) for up to ``samples`` scans,
and at any time it may glitch (a run shorter than ``samples`` scans of the
wrong level, followed by at least ``samples`` clean scans).  Then:

* the settled changes are exactly the real ones, in order, none invented;
* each real change settles at most ``2 * samples`` scans after it happened
  (chatter window + ``samples`` clean scans), i.e. within the configured time.
"""

from hypothesis import given, settings
from hypothesis import strategies as st
from pipboard.twins import VirtualSwitches
from pipcore import geometry as g
from pipdrivers.scan import Scanner

PERIOD_MS = 5


@st.composite
def timelines(draw, samples):
    """Per-scan raw levels of one switch, and the scans where it really changed."""
    levels, changes = [], []
    state = draw(st.integers(0, 1))
    levels += [state] * samples  # settles at power-up
    for _ in range(draw(st.integers(0, 4))):
        # A quiet stretch with glitches.
        for _ in range(draw(st.integers(0, 3))):
            length = draw(st.integers(1, samples - 1))
            levels += [1 - state] * length + [state] * draw(st.integers(samples, 3 * samples))
        levels += [state] * draw(st.integers(0, 5))
        # A real change with chatter.
        state = 1 - state
        changes.append((len(levels), state))
        for _ in range(draw(st.integers(0, samples))):
            levels.append(draw(st.integers(0, 1)))
        levels += [state] * samples
    levels += [state] * samples
    return levels, changes


@settings(max_examples=120, deadline=None)
@given(data=st.data(), samples=st.integers(2, 6), bits=st.sets(st.integers(0, g.SENSORS - 1), min_size=1, max_size=4))
def test_debounce_reports_exactly_the_real_changes(data, samples, bits):
    scripts = {bit: data.draw(timelines(samples)) for bit in sorted(bits)}
    length = max(len(levels) for levels, _ in scripts.values())
    step = [0]

    def readinto(buf):
        for i in range(len(buf)):
            buf[i] = 0
        buf[g.SCAN_BYTES] = 0xFF
        for bit, (levels, _) in scripts.items():
            level = levels[min(step[0], len(levels) - 1)]
            if level:
                buf[bit >> 3] |= 1 << (bit & 7)

    sc = Scanner(readinto, samples=samples, ring=256)
    # Adopt the power-up state (the first level of each script).
    sc.sync()
    events = {bit: [] for bit in bits}
    for k in range(length + samples):
        step[0] = k
        sc.scan(k * PERIOD_MS)
        while True:
            code = sc.pop()
            if code < 0:
                break
            assert code >> 1 in bits, "a change on a switch nobody touched"
            events[code >> 1].append((sc.popped_time // PERIOD_MS, code & 1))
    assert sc.overflows == 0
    for bit, (levels, changes) in scripts.items():
        got = events[bit]
        assert [s for _, s in got] == [s for _, s in changes], (bit, got, changes)
        for (when, _), (real, _) in zip(got, changes):
            assert real <= when <= real + 2 * samples - 1, (bit, when, real)


def test_twin_chatter_on_a_still_checker_never_settles():
    sw = VirtualSwitches(seed=4)
    sw.place(g.point_loc(8), 3)
    sc = Scanner(sw.readinto, samples=4)
    sc.sync()
    bit = g.sensor_bit(g.point_loc(8), 1)
    for k in range(2000):
        if k % 20 == 0:
            sw.chatter(bit, 3)  # bursts shorter than 4 samples, 17 clean scans apart
        sc.scan(k * PERIOD_MS)
    assert sc.pending() == 0


def test_twin_placing_a_checker_settles_once_within_the_configured_time():
    sw = VirtualSwitches(seed=9)
    sc = Scanner(sw.readinto, samples=4)
    sc.sync()
    bit = g.sensor_bit(g.LOC_BAR_WHITE, 0)
    for trial in range(50):
        closed = trial % 2 == 0
        sw.set(bit, closed)
        sw.chatter(bit, 4)
        start = trial * 100
        for k in range(start, start + 20):
            sc.scan(k * PERIOD_MS)
        assert sc.pop() == (bit << 1 | closed)
        assert sc.popped_time <= (start + 8) * PERIOD_MS  # 4 scans chatter + 4 clean: 40 ms
        assert sc.pop() == -1


def test_twin_stuck_switch_reads_closed():
    sw = VirtualSwitches()
    sw.stick(g.sensor_bit(g.point_loc(20), 5), 1)
    sc = Scanner(sw.readinto)
    sc.sync()
    assert sc.bitmap() == 1 << g.sensor_bit(19, 5)  # (pipcore.selftest names it: point 20 slot 6)
