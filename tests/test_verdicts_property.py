"""Issue 23, point 5: what the board says about the hands never depends on how many quiet polls ran.

Hypothesis draws the game (its seed: random legal plays from the start), the
roll to play, the hands' events (``tests/mp/verdicts.py``: a legal play in a
hands' order with hits and bear-offs, wrong placements and lifts put back, an
illegal play undone, DONE pressed early and at the end, picks, the app's
ticks) and the quiet polls after every event (none, some, all; with or
without the heap to work ahead), and the board must say after every event what
it says with no quiet poll at all and with all of them. The same property
runs seeded under the unix and WebAssembly MicroPython (tests/mp/test_verdicts.py);
``make soak`` runs many more rolls.
"""

import os
import sys

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "mp"))

import hands  # noqa: E402
import verdicts  # noqa: E402

POLLS = st.tuples(st.one_of(st.integers(0, 40), st.just(verdicts.ALL)), st.booleans())


@st.composite
def rolls(draw):
    """(pid, mover, dice, events, polls after each event)."""
    game = draw(st.integers(0, 2**20))
    k = draw(st.integers(0, 59))
    pid, mover, dice = verdicts.game_positions(hands.Rng(game), k + 1)[k]
    events = verdicts.episode(hands.Rng(draw(st.integers(0, 2**20))), pid, mover, dice)
    polls = draw(st.lists(POLLS, min_size=len(events), max_size=len(events)))
    return pid, mover, dice, events, polls


def _same(case):
    pid, mover, dice, events, polls = case
    none = verdicts.run(pid, mover, dice, events, lambda k: (0, True))
    verdicts.compare("all", pid, mover, dice, events, none,
                      verdicts.run(pid, mover, dice, events, lambda k: (verdicts.ALL, True)))
    verdicts.compare("drawn", pid, mover, dice, events, none,
                      verdicts.run(pid, mover, dice, events, lambda k: polls[k]))


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(rolls())
def test_the_board_says_the_same_whatever_quiet_polls_ran(case):
    _same(case)


@pytest.mark.soak
@settings(max_examples=20000, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(rolls())
def test_the_board_says_the_same_whatever_quiet_polls_ran_soak(case):
    _same(case)


def test_the_property_fails_where_polls_change_what_the_board_says():
    """Quiet polls that show the deeper reading as soon as they make it (the firmware before): caught."""
    found = 0
    for game in range(3):
        rng = hands.Rng(game + 1)
        for pid, mover, dice in verdicts.game_positions(rng, 60):
            events = verdicts.episode(rng, pid, mover, dice)
            none = verdicts.run(pid, mover, dice, events, lambda k: (0, True), verdicts.hasty())
            try:
                verdicts.compare("all", pid, mover, dice, events, none,
                                  verdicts.run(pid, mover, dice, events, lambda k: (verdicts.ALL, True),
                                               verdicts.hasty()))
            except AssertionError:
                found += 1
    assert found >= 3, found
