"""Turn.steps and Turn.is_complete against an exhaustive reference (Hypothesis).

For random positions and dice, every position part-way through every legal
play (every sub-multiset of its moves, in every physically possible order)
must get exactly the reference's set of remaining single moves, results must
be complete, and one wrong move from any of them must give None.
"""

from hypothesis import HealthCheck, given, settings

from pipcore.rules import Turn
from rules_reference import Reference, dice, positions, ref_apply

SETTINGS = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def check_steps(position, roll):
    turn = Turn(position, roll)
    ref = Reference(position, roll)
    ways = ref.steps()
    assert position.key() in ways
    for key, expected in ways.items():
        here = _position(key)
        got = turn.steps(here)
        assert got is not None, "%s %r: %s is on the way" % (position.describe(), roll, here.describe())
        assert len(got) == len(set(got)), got
        assert set(got) == expected, "%s %r at %s" % (position.describe(), roll, here.describe())
        assert turn.is_complete(here) == (key in ref.results)
        # any single move not offered leads off every legal path
        for d in set(roll):
            for s in range(1, 26):
                if not here.me[s] or (s, max(s - d, 0), d) in expected:
                    continue
                wrong = ref_apply(here, s, max(s - d, 0))
                if wrong.key() not in ways:
                    assert turn.steps(wrong) is None, "%s %r: %s" % (position.describe(), roll, wrong.describe())
                    assert not turn.is_complete(wrong)


def _position(key):
    from pipcore.position import Position

    return Position(key[:26], key[26:])


@SETTINGS
@given(positions(), dice)
def test_steps_match_the_reference(position, roll):
    check_steps(position, roll)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(positions(modes=("home", "bearoff")), dice)
def test_steps_match_the_reference_bearing_off(position, roll):
    check_steps(position, roll)
