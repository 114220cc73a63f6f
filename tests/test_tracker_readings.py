"""The tracker's readings of clipped counts against exhaustive references (Hypothesis).

The switches count at most ``capacity`` checkers per location, so several
positions of a turn can show the same counts. ``Tracker.showing`` builds them
from the counts instead of listing every legal result; it must find exactly
the legal results (and exactly the positions on the way to one) whose clipped
counts are the reading, for any capacities, in every variant.
"""

import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pipcore.board import NLOC
from pipcore.position import Position
from pipcore.rules import Turn, winner_of
from pipcore.tracker import Tracker
from pipcore.variants import make_turn
from rules_reference import Reference, dice, positions

SETTINGS = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
CAPACITIES = st.lists(st.sampled_from((1, 2, 3, 6, 6, 6)), min_size=NLOC, max_size=NLOC).map(bytes)


def _keys(positions_):
    return sorted(set(p.key() for p in positions_))


@given(positions(), dice, CAPACITIES, st.integers(0, 1))
@SETTINGS
def test_readings_name_every_result_and_every_position_on_the_way(position, roll, cap, mover):
    turn = Turn(position, roll)
    ref = Reference(position, roll)
    tr = Tracker(turn, position, mover, cap)
    ways = ref.steps()
    by_reading = {}
    for key in ways:
        pos = Position(key[:26], key[26:])
        by_reading.setdefault(tr.key(pos), []).append(pos)
    for s, found in by_reading.items():
        done = [p for p in found if p.key() in ref.results]
        on_way = [p for p in found if p.key() not in ref.results]
        assert _keys(tr.showing(s, True)) == _keys(done), position.describe()
        assert _keys(tr.showing(s, False)) == _keys(on_way), position.describe()
        assert _keys(n.pos for n in tr._results_showing(s)) == _keys(done)
    # a reading no position of the turn shows
    s = bytearray(tr.key(position))
    s[27 - mover] = cap[27 - mover] if s[27 - mover] < cap[27 - mover] else 0  # the opponent's tray never changes
    assert tr.showing(bytes(s), True) == [] and tr.showing(bytes(s), False) == []


def _play_out(variant, options, seed, games=6):
    """Readings of the results of random games against the turn's own list of results."""
    rng = random.Random(seed)
    checked = 0
    for _ in range(games):
        if variant == "nardy":
            from pipcore.nardy import start_position
            pos = start_position()
        else:
            pos = Position.start()
        first = True
        for _ply in range(70):
            turn = make_turn(pos, (rng.randint(1, 6), rng.randint(1, 6)), variant, options, first)
            first = False
            results = turn.results()
            mover = rng.randint(0, 1)
            cap = bytes(rng.choice((1, 2, 3, 6, 6, 6)) for _ in range(NLOC))
            tr = Tracker(turn, pos, mover, cap, variant == "nardy")
            for res in rng.sample(results, min(len(results), 12)):
                s = tr.key(res)
                want = [r for r in results if tr.key(r) == s]
                assert _keys(tr.showing(s, True)) == _keys(want), (pos.position_id(), turn.high, turn.low)
                checked += 1
            only = rng.choice(results)  # a host's play: that result only
            tr = Tracker(turn, pos, mover, cap, variant == "nardy", only)
            s = tr.key(only)
            assert _keys(tr.showing(s, True)) == [only.key()]
            pos = rng.choice(results)
            if winner_of(pos) or pos.me[0] == 15:
                break
            pos = pos.swapped()
    assert checked > 100


def test_readings_in_long_nardy():
    _play_out("nardy", None, 4)


def test_readings_with_caucasian_hits():
    _play_out("backgammon", {"caucasian": True, "jailBearOff": True}, 5)


def test_the_worst_double_is_read_from_the_counts():
    """The 2,226-play 1-1 with ten black checkers on the bar (a full location): every result's counts
    name exactly the results showing them."""
    pos = Position.from_id("IAKI6H+klFJKKQ")
    turn = Turn(pos, (1, 1))
    assert len(turn.plays) == 2226
    tr = Tracker(turn, pos, 0, b"\x06" * NLOC)
    groups = {}
    for res in turn.results():
        groups.setdefault(tr.key(res), []).append(res)
    for s in list(groups)[::37]:
        assert _keys(tr.showing(s, True)) == _keys(groups[s])


@given(positions(), dice, CAPACITIES, st.integers(0, 1))
@SETTINGS
def test_the_bound_of_a_wrong_placement_holds_every_position_of_the_turn(position, roll, cap, mover):
    """``reach.top``: a count above it reads as no position, so a wrong placement is answered without
    the search. It must hold every position part-way through a legal play (the exhaustive reference),
    with one more where a blot stands (its hitter may land while it is still there)."""
    from pipcore.reach import top

    turn = Turn(position, roll)
    tr = Tracker(turn, position, mover, cap)
    most = top(tr)
    obar = 25 - mover  # the opponent's bar: judged by the search
    for key in Reference(position, roll).steps():
        k = tr.key(Position(key[:26], key[26:]))
        for i in range(NLOC):
            if i != obar:
                assert k[i] + (1 if tr.blots[i] else 0) <= most[i], (position.position_id(), roll, i)


def test_a_checker_lifted_again_is_read_again():
    """Lifted, put back, lifted again: both lifts read as a checker in hand (the second was answered
    from the counts read before the put-back, as at rest: the sources lit, not the targets)."""
    from pipcore.tracker import AT_REST, IN_HAND
    from pipcore.board import slot_loc

    pos = Position.from_id("O9TEBQgXVuKABQ")
    tr = Tracker(Turn(pos, (1, 1)), pos, 0, b"\x06" * NLOC)
    s = bytearray(tr.root.key)
    loc = slot_loc(0, 20)
    for _ in range(3):
        s[loc] -= 1
        assert tr.follow(bytes(s)) == IN_HAND and tr.hand == 1
        s[loc] += 1
        assert tr.follow(bytes(s)) == AT_REST
