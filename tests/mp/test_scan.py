"""Switch scanner: integration debounce, events, self-test (CPython and MicroPython)."""

from pipcore import geometry as g
from pipdrivers.ring import RingError
from pipdrivers.scan import ScanError, Scanner


class Chain:
    """Raw switch levels as the shift registers would deliver them."""

    def __init__(self, nbytes=g.SCAN_BYTES, broken=False):
        self.raw = bytearray(nbytes)
        self.broken = broken

    def set(self, bit, closed):
        if closed:
            self.raw[bit >> 3] |= 1 << (bit & 7)
        else:
            self.raw[bit >> 3] &= ~(1 << (bit & 7)) & 0xFF

    def readinto(self, buf):
        n = len(self.raw)
        buf[:n] = self.raw
        buf[n] = 0x00 if self.broken else 0xFF


def drain(scanner):
    events = []
    while True:
        code = scanner.pop()
        if code < 0:
            return events
        events.append((scanner.popped_time, code >> 1, code & 1))


def test_clean_change_settles_after_samples_scans():
    chain = Chain()
    sc = Scanner(chain.readinto, samples=4)
    bit = g.sensor_bit(12, 0)
    chain.set(bit, True)
    for k in range(3):
        assert sc.scan(k * 5) == 0
        assert not sc.closed(bit)
    assert sc.scan(15) == 1
    assert sc.closed(bit)
    assert drain(sc) == [(15, bit, 1)]
    assert sc.bitmap() == 1 << bit


def test_glitches_shorter_than_samples_never_settle():
    chain = Chain()
    sc = Scanner(chain.readinto, samples=4)
    now = 0
    for bit in (0, 7, 8, 100, 167):
        for width in (1, 2, 3):
            for _ in range(3):
                chain.set(bit, True)
                for _ in range(width):
                    sc.scan(now)
                    now += 5
                chain.set(bit, False)
                for _ in range(width + 1):
                    sc.scan(now)
                    now += 5
    for _ in range(10):
        sc.scan(now)
        now += 5
    assert drain(sc) == []
    assert sc.bitmap() == 0


def test_chatter_then_stable_settles_once():
    chain = Chain()
    sc = Scanner(chain.readinto, samples=4)
    bit = 77
    pattern = (1, 0, 1, 1, 0, 1, 0, 0, 1, 1, 1)  # bounce while the checker lands
    now = 0
    for level in pattern:
        chain.set(bit, level)
        sc.scan(now)
        now += 5
    chain.set(bit, 1)
    clean = 0
    while not sc.closed(bit):
        sc.scan(now)
        now += 5
        clean += 1
        assert clean <= 4, "did not settle within 4 clean scans"
    events = drain(sc)
    assert len(events) == 1 and events[0][1:] == (bit, 1)


def test_events_ring_keeps_order_and_counts_overflow():
    chain = Chain()
    sc = Scanner(chain.readinto, samples=1, ring=8)
    for i in range(10):
        chain.set(i, True)
        sc.scan(i)
    assert sc.pending() == 8
    assert sc.overflows == 2
    events = drain(sc)
    assert [e[1] for e in events] == list(range(2, 10))
    assert [e[0] for e in events] == list(range(2, 10))


def test_sync_adopts_state_without_events():
    chain = Chain()
    for b in (3, 50, 160):
        chain.set(b, True)
    sc = Scanner(chain.readinto)
    sc.sync()
    assert sc.bitmap() == (1 << 3) | (1 << 50) | (1 << 160)
    assert sc.pending() == 0
    out = bytearray(g.LOCATIONS)
    # Each closed switch has open slots before it: three irregular locations.
    assert g.location_counts(sc.bits, out) == 3
    assert out[0] == g.IRREGULAR and out[8] == g.IRREGULAR and out[26] == g.IRREGULAR


def test_a_stuck_switch_stays_closed_and_settles_once():
    # (the guided self-test, pipcore.selftest, names it: tests/test_board_menu.py)
    chain = Chain()
    sc = Scanner(chain.readinto, samples=2)
    stuck = g.sensor_bit(g.point_loc(13), 2)
    chain.set(stuck, True)
    for k in range(3):
        sc.scan(k)
    assert sc.closed(stuck) and sc.bitmap() == 1 << stuck
    assert sc.pop() == stuck << 1 | 1 and sc.pop() == -1


def test_broken_chain_is_reported():
    chain = Chain(broken=True)
    sc = Scanner(chain.readinto)
    sc.scan(0)
    assert not sc.chain_ok
    assert not sc.check_chain()


def test_bad_configuration_raises():
    for kwargs in ({"samples": 0}, {"ring": 6}):
        try:
            Scanner(Chain().readinto, **kwargs)
        except (ScanError, RingError):
            pass
        else:
            assert False, kwargs
