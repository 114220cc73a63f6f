"""A slow, plain reference for backgammon plays, and Hypothesis strategies.

Written from RULES.md section 1 without looking at ``pipcore.rules``: single
moves are checked one by one, every multiset of moves reachable in a legal
order is enumerated level by level, and the obligations (O1, O2) are applied
to the complete plays at the end. Used by the property tests as the judge.
"""

import itertools

from hypothesis import assume
from hypothesis import strategies as st

from pipcore.position import Position, PositionError

BAR = 25


# -- single moves ------------------------------------------------------------
def ref_target(pos, s, d):
    """Where die ``d`` takes a checker from ``s`` now (0 = off), or None if illegal."""
    me, opp = pos.me, pos.opp
    if not 1 <= s <= BAR or me[s] == 0:
        return None
    if me[BAR] and s != BAR:
        return None  # B1: enter first
    t = s - d
    if t > 0:
        return t if opp[25 - t] < 2 else None
    if any(me[p] for p in range(7, 26)):
        return None  # E1
    if t == 0:
        return 0  # E2
    return None if any(me[p] for p in range(s + 1, 7)) else 0  # E3


def ref_apply(pos, s, t):
    """A copy of ``pos`` with one checker moved s -> t, hitting a lone opponent checker."""
    out = Position(pos.me, pos.opp)
    out.me[s] -= 1
    if t:
        out.me[t] += 1
        if out.opp[25 - t] == 1:
            out.opp[25 - t] = 0
            out.opp[BAR] += 1
    else:
        out.me[0] += 1
    return out


# -- plays -------------------------------------------------------------------
class Reference:
    """All legal plays of ``dice`` in ``position`` by exhaustive search."""

    def __init__(self, position, dice):
        self.position = position
        hi, lo = max(dice), min(dice)
        self.double = hi == lo
        pool = (hi,) * 4 if self.double else (hi, lo)
        level = {(): position}
        complete = []  # (sorted moves, final position)
        while level:
            nxt = {}
            for moves, pos in level.items():
                left = list(pool)
                for m in moves:
                    left.remove(m[2])
                extended = False
                if pos.me[0] < 15:
                    for d in set(left):
                        for s in range(1, 26):
                            t = ref_target(pos, s, d)
                            if t is None:
                                continue
                            extended = True
                            key = tuple(sorted(moves + ((s, t, d),)))
                            new = ref_apply(pos, s, t)
                            # a set of moves gives one position whatever the order
                            assert nxt.setdefault(key, new) == new
                if not extended:
                    complete.append((moves, pos))
            level = nxt
        # O1: the most dice (a game won part-way through a double counts as all four)
        def used(entry):
            moves, pos = entry
            return 4 if self.double and pos.me[0] == 15 else len(moves)

        self.max_used = max(used(c) for c in complete)
        plays = [c for c in complete if used(c) == self.max_used]
        # O2: one die of a non-double only: the higher one when it can be played
        if not self.double and self.max_used == 1 and any(c[0][0][2] == hi for c in plays):
            plays = [c for c in plays if c[0][0][2] == hi]
        self.plays = plays  # every legal multiset of moves (several may give one result)
        self.results = {}
        for _, pos in plays:
            self.results[pos.key()] = pos

    def steps(self):
        """``{position key: set of steps}`` for every position part-way through a legal play.

        Every sub-multiset of every legal play, applied in every order the
        checkers physically allow (a checker must stand on the source).
        """
        ways = {}
        for moves, _ in self.plays:
            for order in set(itertools.permutations(moves)):
                pos = self.position
                for k in range(len(order) + 1):
                    entry = ways.setdefault(pos.key(), set())
                    if k == len(order):
                        break
                    s, t, d = order[k]
                    if pos.me[s] == 0:
                        break  # not physically possible in this order
                    entry.add((s, t, d))
                    pos = ref_apply(pos, s, t)
        return ways


# -- strategies ----------------------------------------------------------------
_SLOTS = {
    # mover's own slots (0 off, 25 bar); the opponent uses the same lists in its own numbering
    "spread": list(range(0, 26)),
    "contact": list(range(1, 25)) + [BAR] * 3,
    "home": [0, 0, 1, 2, 3, 4, 5, 6, 1, 2, 3, 4, 5, 6, 7, 8, 25],
    "bearoff": [0, 0, 0, 1, 2, 3, 4, 5, 6],
}


@st.composite
def positions(draw, modes=("spread", "contact", "home", "bearoff")):
    """Valid positions with the mover on roll, biased towards hard cases."""
    mode_me = draw(st.sampled_from(modes))
    mode_opp = draw(st.sampled_from(("spread", "contact", "home")))
    me_slots = draw(st.lists(st.sampled_from(_SLOTS[mode_me]), min_size=15, max_size=15))
    opp_slots = draw(st.lists(st.sampled_from(_SLOTS[mode_opp]), min_size=15, max_size=15))
    pos = Position()
    for slot in me_slots:
        pos.me[slot] += 1
    for slot in opp_slots:
        if 1 <= slot <= 24 and pos.me[25 - slot]:
            slot = 0  # that point is the mover's: this checker is borne off instead
        pos.opp[slot] += 1
    if pos.me[0] == 15:  # the mover has something to play
        free = [p for p in range(1, 7) if not pos.opp[25 - p]]
        assume(free)
        pos.me[0] -= 1
        pos.me[draw(st.sampled_from(free))] += 1
    if pos.opp[0] == 15:
        pos.opp[0] -= 1
        pos.opp[BAR] += 1
    try:
        pos.validate()
    except PositionError:
        assume(False)
    return pos


dice = st.tuples(st.integers(1, 6), st.integers(1, 6))
