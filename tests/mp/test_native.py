"""Native code (``pipcore.native``, where the port has the native emitter) against the plain paths it
stands in for: the same answers, in the same order."""

import sys

from pipcore import rules
from pipcore.position import Position
from pipcore.rules import Turn

_NATIVE = sys.implementation.name == "micropython" and getattr(sys.implementation, "_mpy", 0) >> 10


def _random_position(seed):
    me = bytearray(26)
    opp = bytearray(26)
    for side, arr in ((0, me), (1, opp)):
        left = 15
        while left:
            seed = (seed * 1103515245 + 12345) & 0x7FFFFFFF
            p = seed >> 8 & 31
            if p > 25 or (p == 25 and seed >> 16 & 7):  # the bar now and then
                continue
            if side and 1 <= p <= 24 and me[25 - p]:
                continue  # a point holds one colour
            if not side and p and seed >> 20 & 1 and p > 6 and left > 3:
                p = (seed >> 21) % 6 + 1  # home boards fuller: bear-offs come up
            arr[p] += 1
            left -= 1
    return Position(me, opp), seed


def test_a_double_generates_the_same_plays_natively():
    if _NATIVE:
        assert rules.expand is not None  # the native third and fourth moves are the ones run
    cases = [(Position.from_id("IAKI6H+klFJKKQ"), 1), (Position.from_id("4HPwATDgc/ABMA"), 1)]
    seed = 17
    for _ in range(60):
        pos, seed = _random_position(seed)
        cases.append((pos, 1 + seed % 6))
    native = rules.expand
    for pos, d in cases:
        for die in (d, 1 + d % 6):
            got = Turn(pos, (die, die))
            rules.expand = None
            try:
                want = Turn(pos, (die, die))
            finally:
                rules.expand = native
            assert list(got.plays) == list(want.plays), (pos.position_id(), die)
            assert got.dice_used == want.dice_used, (pos.position_id(), die)
    assert len(Turn(cases[0][0], (1, 1)).plays) == 2226


def _caucasian_both(caucasian, pos, d, scope, jail):
    """The plays of a Caucasian double with the native loops (where loaded) and without them."""
    native = (caucasian.extend, caucasian.thirds)
    got = caucasian.Turn(pos, (d, d), True, scope, jail)
    caucasian.extend = caucasian.thirds = None
    try:
        want = caucasian.Turn(pos, (d, d), True, scope, jail)
    finally:
        caucasian.extend, caucasian.thirds = native
    return list(got.plays), list(want.plays)


def test_a_caucasian_double_generates_the_same_plays_natively():
    from pipcore import caucasian

    if _NATIVE:
        assert caucasian.extend is not None and caucasian.thirds is not None
    seed = 29
    # three cases embedded in tests/pico/bench_caucasian.py, then make bench's worst ones (many marks,
    # debts and exact checks: the native loops hand candidates over to the general path often)
    cases = [("AAAEtEmTAAAAAA", 1, "board"), ("AAAQiLn1DAAAAA", 1, "home"), ("ABAgaFRdOQAAAA", 1, "home"),
             ("bwyGgKBSVSYqAA", 1, "board"), ("GOAfBImULDEWCg", 1, "board"), ("DDyPCEFSKZFUCg", 2, "board"),
             ("22YABAlsaaWUAA", 2, "board"), ("3h6AiICKNFWqAA", 1, "home")]
    for pid, d, scope in cases:
        for jail in (False, True):
            got, want = _caucasian_both(caucasian, Position.from_id(pid), d, scope, jail)
            assert got == want, (pid, d, jail)
    for k in range(30):
        pos, seed = _random_position(seed)
        d = 1 + seed % 6
        scope = "board" if k & 1 else "home"
        got, want = _caucasian_both(caucasian, pos, d, scope, k % 3 == 0)
        assert got == want, (pos.position_id(), d, scope)
