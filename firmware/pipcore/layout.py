"""The setup guide: from whatever lies on the board to a wanted position.

Switches see neither colours nor stacks taller than their slots, so the
guide keeps a belief per location, seeded from the last position known to
lie on the board: what colour stands there, and how many checkers when the
switches are saturated. A belief follows the sensed count down as well as
up; where the switches are full, the 15 checkers of each colour tell how many
stand on its full stacks (a checker taken from one unseen shows where it is
put). Points holding the wrong colour are cleared first.

``Layout`` knows nothing of the game's flow: it answers "is the board set
up?" and marks what to add and remove. ``guide_back`` is the same job one
checker at a time, for a board that must return to a committed position.
"""

from pipcore.board import BAR0, NLOC, fill_counts, loc_point, opp_slot, owner_at
from pipcore.names import M_ADD, M_ERROR, M_FIX_FROM, M_FIX_TO, M_MISSING, M_REMOVE, NOBODY

UNKNOWN = NOBODY  # colour belief: nothing known about the point


class Layout:
    """Beliefs about what lies on the board while it is being set up."""

    def __init__(self, capacity, nardy=False):
        self.capacity = capacity
        self.nardy = nardy
        self.colour = bytearray(b"\x02" * NLOC)  # colour known to lie on each point (UNKNOWN)
        self.count = bytearray(NLOC)  # checkers believed on each location
        self.want = bytearray(NLOC)

    def forget(self):
        """Nothing is known about the board (a fresh start)."""
        for i in range(NLOC):
            self.colour[i] = UNKNOWN
            self.count[i] = 0

    def seed(self, pos, mover):
        """What is known to lie on the board: ``pos`` seen from ``mover``."""
        fill_counts(pos, mover, self.count, None, self.nardy)
        for loc in range(24):
            p = loc_point(mover, loc, self.nardy)
            if pos.me[p]:
                self.colour[loc] = mover
            elif pos.opp[opp_slot(p, self.nardy)]:
                self.colour[loc] = 1 - mover
            else:
                self.colour[loc] = UNKNOWN

    def check(self, sensed, pos, mover, mark):
        """Mark every addition and removal that sets ``pos`` up; True when it is set up.

        ``mark(loc, role, player)`` receives M_ADD / M_REMOVE marks.
        """
        colour = self.colour
        belief = self.count
        cap = self.capacity
        want = self.want
        nardy = self.nardy
        fill_counts(pos, mover, want, None, nardy)
        ok = True
        before = self._totals(pos, mover)
        for loc in range(NLOC):
            c = sensed[loc]
            if c < cap[loc] or belief[loc] < c:
                belief[loc] = c  # below capacity the switches count exactly
            if not c:
                colour[loc] = UNKNOWN
        unsure = self._full_stacks(sensed, pos, mover, before)
        for loc in range(NLOC):
            c = sensed[loc]
            owner = owner_at(pos, mover, loc, nardy)
            if loc < 24 and c and colour[loc] != UNKNOWN and owner >= 0 and owner != colour[loc]:
                mark(loc, M_REMOVE, colour[loc])
                ok = False
            elif belief[loc] > want[loc]:
                mark(loc, M_REMOVE, colour[loc] if loc < 24 else (loc - BAR0) & 1)
                ok = False
            elif belief[loc] < want[loc] and not (c >= cap[loc] and unsure & (1 << self._owner(pos, mover, loc))):
                # (on a full stack the belief comes from the 15 checkers; with some of them neither
                # counted nor believed anywhere, those added from the box are trusted)
                mark(loc, M_ADD, owner)
                ok = False
        return ok

    def _owner(self, pos, mover, loc):
        if loc < 24:
            who = self.colour[loc]
            if who == UNKNOWN:
                who = owner_at(pos, mover, loc, self.nardy)
            return who
        return (loc - BAR0) & 1

    def _totals(self, pos, mover):
        """Checkers of each colour believed on the board: ``(white, black)``."""
        n0 = 0
        n1 = 0
        belief = self.count
        for loc in range(NLOC):
            who = self._owner(pos, mover, loc)
            if who == 0:
                n0 += belief[loc]
            elif who == 1:
                n1 += belief[loc]
        return (n0, n1)

    def _full_stacks(self, sensed, pos, mover, before):
        """Beliefs of the stacks the switches clip, from the 15 checkers of each colour.

        A checker taken from or put on a full stack is not seen, but it shows
        wherever else it goes: the checkers of a colour not counted below
        capacity are on its full stacks. Their beliefs go down (or up) to that
        number, the stacks furthest from what the position wants first. Up
        only by the checkers that went out of sight since ``before`` (the
        totals believed on the board), and only on stacks that want more: the
        rest of the 15 may be in the box, and a checker put away is not one
        added unseen to a stack that has enough. Returns a bit per colour
        (1 << colour) whose checkers are not all counted or believed (some
        may be in the box, or unseen on its full stacks).
        """
        unsure = 0
        cap = self.capacity
        belief = self.count
        want = self.want
        for c in (0, 1):
            known = 0
            fulls = []
            for loc in range(NLOC):
                if self._owner(pos, mover, loc) != c:
                    continue
                if sensed[loc] >= cap[loc]:
                    fulls.append(loc)
                else:
                    known += sensed[loc]
            if not fulls:
                continue
            extra = 15 - known  # on the full stacks
            for loc in fulls:
                extra -= belief[loc]
            if extra > 0:  # gone out of sight: before minus what is believed now
                gone = before[c] - known
                for loc in fulls:
                    gone -= belief[loc]
                if extra > gone:
                    extra = gone if gone > 0 else 0
            # extra < 0: fewer than believed (taken away unseen); > 0: more (added unseen)
            while extra:
                pick = -1
                gap = 0
                for loc in fulls:
                    g = belief[loc] - want[loc] if extra < 0 else want[loc] - belief[loc]
                    if (extra < 0 and belief[loc] <= cap[loc]) or (extra > 0 and g <= 0) or (pick >= 0 and g <= gap):
                        continue
                    pick = loc
                    gap = g
                if pick < 0:
                    break
                step = -1 if extra < 0 else 1
                belief[pick] += step
                extra -= step
            rest = 15 - known
            for loc in fulls:
                rest -= belief[loc]
            if rest > 0:
                unsure |= 1 << c
        return unsure


def guide_back(sensed, want, pos, mover, mark, nardy=False):
    """Lead the board back to ``pos`` (``want``: its clipped counts) one checker at a time.

    The first surplus location is the one to take from and the first
    deficit the one to put on; other surplus flashes and other deficits
    show as missing. Returns True when the board shows ``pos``.
    """
    surplus = -1
    deficit = -1
    for i in range(NLOC):
        if sensed[i] > want[i]:
            if surplus < 0:
                surplus = i
            else:
                mark(i, M_ERROR, NOBODY)
        elif sensed[i] < want[i]:
            if deficit < 0:
                deficit = i
            else:
                mark(i, M_MISSING, owner_at(pos, mover, i, nardy))
    if surplus >= 0:
        mark(surplus, M_FIX_FROM, NOBODY)
    if deficit >= 0:
        mark(deficit, M_FIX_TO, owner_at(pos, mover, deficit, nardy))
    return surplus < 0 and deficit < 0
