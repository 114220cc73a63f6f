"""Which single moves remain legal part-way through a turn (the board's view).

On the physical board the player moves checkers one at a time, in any order,
and the controller sees only positions. ``legal_steps(turn, position)``
answers, for whatever the checkers now show, which single moves
``(from, to, die)`` (``to`` 0 = off, ``from`` 25 = bar) still lead to a legal
play of ``turn``; ``None`` when ``position`` is not on the way to any legal
play (the controller then guides the player back). ``is_complete`` says
whether ``position`` is one of the legal results.

Positions are judged, not the order of moves: a position is on the way when
it is the start position plus some of the single moves of one legal play
(a multiset of moves that can be played legally in some order), applied in
any order the checkers physically allow. So bearing off first and bringing
the last outside checker home afterwards is fine when the two moves together
are a legal play. Hits count: the opponent's bar and blots must match too.

Doubles: every move uses the same die, so the multiset of source points is
fixed by the mover's net change (decoded from the bar down) and the
position is on the way iff that multiset is part of some legal play's
sources. Non-doubles: every legal way to play both dice (both orders, every
checker) is listed once per turn, lazily, keyed by position.
"""

from pipcore.position import BAR, CHECKERS
from pipcore.rules import apply_move

_INDEX = "_steps_index"


def legal_steps(turn, position):
    """Single moves ``[(from, to, die), ...]`` still legal at ``position``, or None."""
    index = _index(turn)
    if turn.double:
        return _double_steps(turn, index, position, False)
    return index[0].get(position.key())


def is_complete(turn, position):
    """True iff ``position`` is one of the turn's legal results."""
    index = _index(turn)
    if turn.double:
        return _double_steps(turn, index, position, True)
    return position.key() in index[1]


def _index(turn):
    index = getattr(turn, _INDEX, None)
    if index is None:
        if turn.double:
            index = _double_index(turn)
        else:
            index = _mixed_index(turn)
        setattr(turn, _INDEX, index)
    return index


# -- doubles --------------------------------------------------------------
def _double_index(turn):
    """Each legal play's sources, highest first, plus scratch arrays."""
    sources = []
    for code in turn.plays:
        srcs = [s for s, _, _ in turn.moves(code)]
        srcs.sort()
        srcs.reverse()
        sources.append(bytes(srcs))
    return (sources, bytearray(26), bytearray(26), bytearray(26), bytearray(26))


def _double_steps(turn, index, position, complete_only):
    sources, counts, me, opp, marks = index
    d = turn.high
    start = turn.position
    p0 = start.me
    pm = position.me
    # sources of the moves made so far, from the net change, bar first
    total = 0
    for p in range(BAR, 0, -1):
        n = (counts[p + d] if p + d <= BAR else 0) - pm[p] + p0[p]
        if n < 0 or n > 4:
            return False if complete_only else None
        counts[p] = n
        total += n
    if total > 4:
        return False if complete_only else None
    # replay them and compare whole positions (borne off, hits, opponent)
    me[:] = p0
    opp[:] = start.opp
    made = bytearray(total)
    k = 0
    for p in range(BAR, 0, -1):
        for _ in range(counts[p]):
            made[k] = p
            k += 1
            me[p] -= 1
            t = p - d
            if t > 0:
                me[t] += 1
                if opp[25 - t] == 1:
                    opp[25 - t] = 0
                    opp[BAR] += 1
            else:
                me[0] += 1
    if me != pm or opp != position.opp:
        return False if complete_only else None
    if complete_only:
        for play in sources:
            if play == made:
                return True
        return False
    found = False
    out = []
    for p in range(26):
        marks[p] = 0
    for play in sources:
        # is ``made`` a sub-multiset of ``play``? both are sorted high to low
        i = 0
        n = len(made)
        ok = True
        for s in play:
            if i < n and made[i] == s:
                i += 1
            elif i < n and made[i] > s:
                ok = False
                break
        if not ok or i < n:
            continue
        found = True
        i = 0
        for s in play:
            if i < n and made[i] == s:
                i += 1
            elif pm[s] and not marks[s]:
                marks[s] = 1
                out.append((s, s - d if s > d else 0, d))
    return out if found else None


# -- non-doubles ------------------------------------------------------------
def _mixed_index(turn):
    """``({position key: [steps]}, {result key: True})`` over every legal way to play."""
    results = {}
    for code in turn.plays:
        results[turn.result(code).key()] = True
    start = turn.position
    ways = {start.key(): []}
    if turn.dice_used == 0:
        return ways, results
    plays = []  # every legal way: (first, second or None), each (from, to, die)
    pos = start.copy()
    for d1, d2 in ((turn.high, turn.low), (turn.low, turn.high)):
        for a in range(BAR, 0, -1):
            r1 = _move(pos, a, d1)
            if r1 < 0:
                continue
            first = (a, r1 & 31, d1)
            if turn.dice_used == 1 or pos.me[0] == CHECKERS:
                if pos.key() in results:
                    plays.append((first, None))
            else:
                for b in range(BAR, 0, -1):
                    r2 = _move(pos, b, d2)
                    if r2 < 0:
                        continue
                    if pos.key() in results:
                        plays.append((first, (b, r2 & 31, d2)))
                    _unmove(pos, b, r2)
            _unmove(pos, a, r1)
    key0 = start.key()
    for first, second in plays:
        _add(ways, key0, first)
        if second is None:
            continue
        _add(ways, _after(start, first), second)
        # the same two moves the other way round, when the checkers allow it
        if start.me[second[0]]:
            _add(ways, key0, second)
            pos = start.copy()
            apply_move(pos, second[0], second[1])
            if pos.me[first[0]]:
                _add(ways, pos.key(), first)
    for key in results:
        if key not in ways:
            ways[key] = []
    return ways, results


def _after(position, step):
    pos = position.copy()
    apply_move(pos, step[0], step[1])
    return pos.key()


def _add(ways, key, step):
    steps = ways.get(key)
    if steps is None:
        ways[key] = [step]
    elif step not in steps:
        steps.append(step)


def _move(pos, s, d):
    """Play die ``d`` from ``s`` if the rules allow it now.

    Returns the target (0 = off) plus 32 when it hit a blot, or -1.
    """
    m = pos.me
    o = pos.opp
    if not m[s] or (m[BAR] and s != BAR):
        return -1
    t = s - d
    if t >= 1:
        hit = o[25 - t]
        if hit >= 2:
            return -1
        m[s] -= 1
        m[t] += 1
        if hit:
            o[25 - t] = 0
            o[BAR] += 1
            return t + 32
        return t
    for p in range(7, BAR + 1):
        if m[p]:
            return -1
    if t < 0:
        for p in range(s + 1, 7):
            if m[p]:
                return -1
    m[s] -= 1
    m[0] += 1
    return 0


def _unmove(pos, s, result):
    """Undo ``_move`` given its return value."""
    m = pos.me
    t = result & 31
    m[s] += 1
    if t:
        m[t] -= 1
        if result & 32:
            pos.opp[25 - t] = 1
            pos.opp[BAR] -= 1
    else:
        m[0] -= 1
