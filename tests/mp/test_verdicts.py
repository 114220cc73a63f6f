"""Verdicts that do not depend on timing (issue 23, point 5), under CPython and the real MicroPython.

The hands' sequences of issue 16 and random plays of random games (legal
plays in hands' orders, wrong placements, lifts put back, illegal plays
undone, DONE pressed early and at the end, picks, hits, bear-offs) are played
with no quiet poll, all of them, all of them with the heap too short to work
ahead, and a random number (0 included) between events: the board must say
the same after every event (``verdicts.check``: phase, message, every mark and
its colour, the dice display, the play committed). A few here, as this module
also runs under both MicroPython ports; tests/test_verdicts_property.py draws
many more with Hypothesis.
"""

import hands
import verdicts
from test_hands import SEQUENCES


def _events(rng, spec):
    """A sequence of the issue as the harness's events, with the app's ticks at random, then DONE."""
    pid, mover, dice, steps = hands.parse_steps(spec)
    events = []
    for loc, delta, colour in steps:
        events.append(("hand", loc, delta, colour))
        r = rng.below(3)
        if r:
            events.append(("tick", 5 if r == 1 else 25))
    events.append(("button", "DONE"))
    events.append(("button", "DONE"))
    return pid, mover, dice, events


def test_the_hands_sequences_say_the_same_whatever_polls_ran():
    rng = hands.Rng(5)
    for spec, _text in SEQUENCES:
        pid, mover, dice, events = _events(rng, spec)
        said = verdicts.check(rng, pid, mover, dice, events, 2)
        assert said[-1][0] != 4, (spec, said[-1])  # DONE committed the play (or asks to pick), in every run


def test_random_plays_say_the_same_whatever_polls_ran():
    rng = hands.Rng(23)
    n = 0
    for pid, mover, dice in verdicts.game_positions(rng, 24):
        verdicts.check(rng, pid, mover, dice)
        n += 1
    assert n == 24


def test_bear_offs_say_the_same_whatever_polls_ran():
    """Races home (the bear-off the old firmware refused at DONE on the emulated Pico)."""
    rng = hands.Rng(7)
    for pid in ("PwAAgP9eAAAAAA", "d7cNAAC7tw0AAA", "ZgcAABkHAAAAAA", "2wCAAKIEAAAAAA", "3wcAIPAeDgAAAA"):
        for mover in (0, 1):
            for _ in range(3):
                a = 1 + rng.below(6)
                b = 1 + rng.below(6)
                verdicts.check(rng, pid, mover, (a, b))


def test_the_check_catches_polls_that_change_what_the_board_says():
    """The firmware before this point: a quiet poll showed the deeper reading of counts at once."""
    pid, mover, dice = "72ESARh/LgcACA", 0, (5, 1)
    events = [("hand", 21, -1, 0), ("hand", 9, 1, 0), ("hand", 9, -1, 0), ("hand", 16, 1, 0), ("tick", 5),
              ("hand", 16, -1, 1), ("tick", 5), ("hand", 25, 1, 1), ("hand", 3, -1, 0), ("tick", 5),
              ("hand", 2, 1, 0), ("tick", 5), ("button", "DONE"), ("button", "DONE")]
    verdicts.check(hands.Rng(1), pid, mover, dice, events)  # the firmware's: the same
    try:
        verdicts.check(hands.Rng(1), pid, mover, dice, events, 1, verdicts.hasty())
    except AssertionError as exc:
        assert "differs after event" in str(exc), exc
        return
    raise AssertionError("a controller whose polls change its verdicts went unnoticed")
