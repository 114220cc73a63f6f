"""``pipcore.caucasian`` against the naive named-checker generator, and the
options off against the standard generator."""

import random

import caucasian_naive as naive
import pytest
from pipcore import caucasian, rules
from pipcore.position import Position
from pipcore.variants import make_turn

OPTION_SETS = [
    dict(caucasian=True, scope="home", jail=False),
    dict(caucasian=True, scope="board", jail=False),
    dict(caucasian=False, scope="home", jail=True),
    dict(caucasian=True, scope="home", jail=True),
    dict(caucasian=True, scope="board", jail=True),
]


def random_position(rng):
    """Mover mostly near or in the home board, opponent blots within reach."""
    me = bytearray(26)
    opp = bytearray(26)
    home_game = rng.random() < 0.5
    points = list(range(1, 7)) if home_game else list(range(1, 14))
    n = rng.randint(3, 15)
    for _ in range(n):
        me[rng.choice(points)] += 1
    if not home_game and rng.random() < 0.15:
        me[25] += 1
    # opponent: blots and points in the mover's home and outer board
    for _ in range(rng.randint(1, 5)):
        t = rng.randint(1, 12)
        if not me[t]:
            opp[25 - t] = 1 if rng.random() < 0.7 else 2
    for _ in range(rng.randint(0, 6)):
        q = rng.randint(1, 12)  # far from the mover's checkers
        if not me[25 - q]:
            opp[q] += 1
    if sum(me[1:]) > 15 or sum(opp[1:]) > 15:
        return None
    me[0] = 15 - sum(me[1:])
    opp[0] = 15 - sum(opp[1:])
    pos = Position(me, opp)
    try:
        pos.validate()
    except ValueError:
        return None
    return pos


def _cases(seed, count):
    rng = random.Random(seed)
    out = []
    while len(out) < count:
        pos = random_position(rng)
        if pos is None:
            continue
        dice = (rng.randint(1, 6), rng.randint(1, 6))
        if rng.random() < 0.3:
            dice = (dice[0], dice[0])
        out.append((pos, dice, rng.choice(OPTION_SETS)))
    return out


def _compare(pos, dice, opts):
    turn = caucasian.Turn(pos, dice, **opts)
    got = [(tuple(r.me), tuple(r.opp)) for r in turn.results()]
    used, expected = naive.legal_plays(pos.me, pos.opp, dice, **opts)
    if len(set(got)) != len(got):
        return "duplicate results"
    if set(got) != expected:
        return "results differ: %d fast, %d naive" % (len(got), len(expected))
    if used != turn.dice_used:
        return "dice used %d, naive %d" % (turn.dice_used, used)
    return None


def _run(seed, count):
    failures = []
    restricted = 0
    for pos, dice, opts in _cases(seed, count):
        error = _compare(pos, dice, opts)
        if error:
            failures.append("%s %s %s: %s" % (pos.describe(), dice, opts, error))
        plain = set(r.key() for r in rules.Turn(pos, dice).results())
        restricted += plain != set(r.key() for r in caucasian.Turn(pos, dice, **opts).results())
    return failures, restricted


def test_caucasian_and_jail_agree_with_named_checkers():
    failures, restricted = _run(seed=3, count=700)
    assert not failures, "%d differ:\n%s" % (len(failures), "\n".join(failures[:8]))
    assert restricted >= 30, restricted  # the options really removed plays


@pytest.mark.soak
def test_caucasian_and_jail_agree_soak():
    failures, _ = _run(seed=11, count=8000)
    assert not failures, "%d differ:\n%s" % (len(failures), "\n".join(failures[:8]))


def test_without_a_hit_in_scope_the_plain_rules_apply():
    checked = 0
    for pos, dice, opts in _cases(9, 400):
        if caucasian.restriction_possible(pos, opts["caucasian"], opts["scope"], opts["jail"], dice):
            continue
        options = {"caucasian": opts["caucasian"], "caucasianScope": opts["scope"], "jailBearOff": opts["jail"]}
        turn = make_turn(pos, dice, options=options)
        assert isinstance(turn, rules.Turn)
        slow = caucasian.Turn(pos, dice, **opts)
        assert set(r.key() for r in slow.results()) == set(r.key() for r in turn.results())
        checked += 1
    assert checked >= 60, checked


def test_steps_follow_every_order_of_the_legal_ways():
    """Every prefix of every order of a legal play's moves is on the way."""
    for pos, dice, opts in _cases(21, 120):
        turn = caucasian.Turn(pos, dice, **opts)
        for code in turn.plays:
            moves = turn.moves(code)
            cur = pos.copy()
            for s, t, d in moves:
                nxt = turn.steps(cur)
                assert nxt is not None and (s, t, d) in nxt, (pos.describe(), dice, opts, moves)
                rules.apply_move(cur, s, t)
            assert turn.is_complete(cur) and turn.steps(cur) is not None
        # a checker moved backwards: never on the way
        for s in range(1, 24):
            if pos.me[s]:
                wrong = pos.copy()
                wrong.me[s] -= 1
                wrong.me[s + 1] += 1
                assert turn.steps(wrong) is None


# -- against the first (breadth-first, whole-board state) generator -----------
# tests/caucasian_reference.py searched every order of single moves with
# checker identity; the firmware's generator searches move multisets in one
# order and checks the rare reordered plays exactly. These crowded positions
# with blots among the mover's checkers and small doubles exercise the marks,
# the debts (a marked checker landing where checkers still have to leave) and
# the exact check.

def crowded_double(rng):
    """``(position, double)``: the mover's checkers spread over few points, opponent blots among them."""
    while True:
        me = bytearray(26)
        opp = bytearray(26)
        top = rng.choice([9, 12, 15, 20, 25])
        for _ in range(rng.randint(4, 15)):
            me[rng.randint(1, top)] += 1
        for _ in range(rng.randint(1, 5)):
            t = rng.randint(1, min(24, top))
            if not me[t]:
                opp[25 - t] = 1
        if rng.random() < 0.15:
            me[25] = rng.randint(1, 2)
        if sum(me[1:]) > 15 or sum(opp[1:]) > 15:
            continue
        me[0] = 15 - sum(me[1:])
        opp[0] = 15 - sum(opp[1:])
        pos = Position(me, opp)
        try:
            pos.validate()
        except ValueError:
            continue
        d = rng.randint(1, 6)
        return pos, (d, d)


def _against_reference(pos, dice, opts, with_steps):
    import caucasian_reference as reference

    fast = caucasian.Turn(pos, dice, **opts)
    slow = reference.Turn(pos, dice, **opts)
    got = [r.key() for r in fast.results()]
    if len(set(got)) != len(got):
        return "duplicate results"
    if set(got) != set(r.key() for r in slow.results()):
        return "results differ"
    if fast.dice_used != slow.dice_used:
        return "dice used %d, reference %d" % (fast.dice_used, slow.dice_used)
    if with_steps:
        slow.steps(pos)
        for key, steps in slow._graph.items():  # every position on the way to a legal play
            at = Position(bytearray(key[:26]), bytearray(key[26:]))
            if set(fast.steps(at) or ()) != set(steps):
                return "steps at %s: %s, reference %s" % (at.describe(), fast.steps(at), steps)
        for code in slow.plays:
            done = slow.result(code)
            if not fast.is_complete(done) or fast.result(fast.result_for(done)) != done:
                return "result %s not complete" % done.describe()
            if set(fast.steps(done)) != set(slow.steps(done)):
                return "steps at the result %s" % done.describe()
    return None


def _run_reference(seed, count, steps_every):
    rng = random.Random(seed)
    calls = [0]
    exact = caucasian.Turn._exact

    def counted(self, code):
        calls[0] += 1
        return exact(self, code)

    failures = []
    caucasian.Turn._exact = counted
    try:
        for i in range(count):
            if i % 2:
                pos, dice = crowded_double(rng)
            else:
                pos = None
                while pos is None:
                    pos = random_position(rng)
                dice = (rng.randint(1, 6), rng.randint(1, 6))
            opts = rng.choice(OPTION_SETS)
            error = _against_reference(pos, dice, opts, i % steps_every == 0)
            if error:
                failures.append("%s %s %s: %s" % (pos.position_id(), dice, opts, error))
    finally:
        caucasian.Turn._exact = exact
    return failures, calls[0]


def test_agrees_with_the_reference_generator_and_its_steps():
    failures, exact_checks = _run_reference(seed=5, count=1200, steps_every=5)
    assert not failures, "%d differ:\n%s" % (len(failures), "\n".join(failures[:8]))
    assert exact_checks >= 50, exact_checks  # the reordered plays were really met


@pytest.mark.soak
def test_agrees_with_the_reference_generator_soak():
    failures, _ = _run_reference(seed=17, count=30000, steps_every=4)
    assert not failures, "%d differ:\n%s" % (len(failures), "\n".join(failures[:8]))


def _full_search(turn, code):
    """``Turn._exact_from`` on every move of ``code`` from the start: no move left out."""
    m = bytearray(turn.position.me)
    n = code & 7
    return turn._exact_from(m, code, (1 << n) - 1, 0, 0, sum(m[7:26]))


def _multisets(points, i0, k):
    """Every multiset of ``k`` of ``points[i0:]``, in their order."""
    if not k:
        yield []
        return
    for i in range(i0, len(points)):
        for rest in _multisets(points, i, k - 1):
            yield [points[i]] + rest


def test_exact_check_may_leave_out_the_moves_that_share_no_point():
    """``Turn._exact`` leaves out a move that no other move leaves from or lands on,
    and that hits nothing (nothing borne off, the bar empty), and keeps the answer
    for the rest: it must agree with the full search on every multiset the
    generator can ask about (its checkers there in non-increasing order)."""
    rng = random.Random(29)
    checked = left_out = 0
    for _ in range(80):
        pos, dice = crowded_double(rng)
        turn = caucasian.Turn(pos, dice, **rng.choice(OPTION_SETS))
        turn._memo = {}
        d = dice[0]
        cand = list(turn._cand[:turn._n])

        for n in (2, 3, 4):
            for sources in _multisets(cand, 0, n):
                m = bytearray(pos.me)
                reachable = True
                for s in sources:
                    if not m[s]:
                        reachable = False
                        break
                    m[s] -= 1
                    m[max(s - d, 0)] += 1
                if not reachable:
                    continue
                code = caucasian._HIGH_FIRST | n
                for i, s in enumerate(sources):
                    code |= s << (3 + 5 * i)
                assert turn._exact(code) == _full_search(turn, code), (pos.position_id(), dice, sources)
                checked += 1
        left_out += len(turn._memo)
    assert checked >= 5000 and left_out >= 100, (checked, left_out)  # the shortcut was really taken
