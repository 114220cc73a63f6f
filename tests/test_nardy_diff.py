"""The fast long-nardy generator against the naive one written from RULES.md.

``make test`` compares them on more than 20,000 positions (first turns of both
players after every opening, random games in both block-check modes,
six-block situations, bear-offs, scattered positions); ``make soak`` on many
more. Besides the distinct results and the number of dice used, ``steps()``
is compared with the naive generator's legal sequences on a sample.
"""

import random

import nardy_cases as nc
import nardy_naive as naive
import pytest
from pipcore import nardy

MIN_POSITIONS = 20000


def _families(rng, scale):
    yield "first turns", "per-move", nc.first_turn_cases()
    yield "random games", "per-move", nc.random_game_cases(rng, 7000 * scale)
    yield "random games, end-of-turn", "end-of-turn", nc.random_game_cases(rng, 2000 * scale, "end-of-turn")
    yield "six-block situations", "per-move", nc.block_cases(rng, 1600 * scale)
    yield "six-block situations, end-of-turn", "end-of-turn", nc.block_cases(rng, 800 * scale)
    yield "bear-offs", "per-move", nc.bear_off_cases(rng, 4000 * scale)
    yield "scattered", "per-move", nc.scattered_cases(rng, 4500 * scale)


def _compare(pos, dice, first, mode):
    """Return an error text, or None when both generators agree."""
    turn = nardy.Turn(pos, dice, first_turn=first, block_check=mode)
    fast = [tuple(r.me) for r in turn.results()]
    used, expected = naive.results(pos.me, pos.opp, dice, first, mode)
    if len(set(fast)) != len(fast):
        return "duplicate results"
    if set(fast) != expected:
        return "results differ: fast-only %s, naive-only %s" % (sorted(set(fast) - expected)[:2],
                                                               sorted(expected - set(fast))[:2])
    if used != turn.dice_used:
        return "dice used %d, naive %d" % (turn.dice_used, used)
    for r in turn.results():
        if not turn.is_complete(r) or r.opp != pos.opp:
            return "is_complete refuses a result"
    return None


def _run(seed, scale):
    rng = random.Random(seed)
    total = 0
    rule_mattered = {"block": 0, "head": 0}
    failures = []
    for family, mode, cases in _families(rng, scale):
        for pos, dice, first in cases:
            total += 1
            error = _compare(pos, dice, first, mode)
            if error:
                failures.append("%s: %s %s first=%s %s: %s" % (family, pos.describe("nardy"), dice, first, mode, error))
            if family.startswith("six-block"):
                _, unchecked = naive.results(pos.me, pos.opp, dice, first, "none")
                _, checked = naive.results(pos.me, pos.opp, dice, first, mode)
                rule_mattered["block"] += unchecked != checked
            if first and dice[0] == dice[1]:
                rule_mattered["head"] += 1
    return total, rule_mattered, failures


def test_fast_and_naive_generators_agree():
    total, mattered, failures = _run(seed=20261129, scale=1)
    assert not failures, "%d of %d positions differ:\n%s" % (len(failures), total, "\n".join(failures[:10]))
    assert total >= MIN_POSITIONS, total
    # the families really exercise the rules they are there for
    assert mattered["block"] >= 100, mattered
    assert mattered["head"] >= 80, mattered
    print("long nardy: fast and naive generators agree on %d positions" % total)


@pytest.mark.soak
def test_fast_and_naive_generators_agree_soak():
    total, _, failures = _run(seed=7, scale=5)
    assert not failures, "%d of %d positions differ:\n%s" % (len(failures), total, "\n".join(failures[:10]))


def _compare_steps(pos, dice, first, mode):
    turn = nardy.Turn(pos, dice, first_turn=first, block_check=mode)
    table = naive.steps_by_position(pos.me, pos.opp, dice, first, mode)
    for me, moves in table.items():
        reached = pos.copy()
        reached.me[:] = bytes(me)
        got = turn.steps(reached)
        if got is None or set(got) != moves or len(got) != len(moves):
            return "at %s: steps %s, naive %s" % (reached.describe("nardy"), got, sorted(moves))
        if not moves and not turn.is_complete(reached):
            return "at %s: is_complete %s" % (reached.describe("nardy"), turn.is_complete(reached))
    # positions off the way (one more checker moved anywhere) get None
    for me in list(table)[:4]:
        for s in range(1, 25):
            for d in set(dice):
                if not me[s]:
                    continue
                off = list(me)
                off[s] -= 1
                off[max(s - d, 0)] += 1
                if tuple(off) in table:
                    continue
                wrong = pos.copy()
                wrong.me[:] = bytes(off)
                if turn.steps(wrong) is not None:
                    return "at %s (off the way): steps %s" % (wrong.describe("nardy"), turn.steps(wrong))
    return None


def test_steps_agree_with_naive_sequences():
    rng = random.Random(4)
    cases = []
    cases += [(c, "per-move") for c in nc.first_turn_cases()[:60]]
    cases += [(c, "per-move") for c in nc.random_game_cases(rng, 300)]
    cases += [(c, "per-move") for c in nc.block_cases(rng, 150)]
    cases += [(c, "end-of-turn") for c in nc.block_cases(rng, 100)]
    cases += [(c, "per-move") for c in nc.bear_off_cases(rng, 150)]
    failures = []
    for (pos, dice, first), mode in cases:
        error = _compare_steps(pos, dice, first, mode)
        if error:
            failures.append("%s %s first=%s %s: %s" % (pos.describe("nardy"), dice, first, mode, error))
    assert not failures, "%d of %d differ:\n%s" % (len(failures), len(cases), "\n".join(failures[:5]))
