"""The setup guide: from whatever lies on the board to a wanted position.

Switches see neither colours nor stacks taller than their slots, so the
guide keeps a belief per location, seeded from the last position known to
lie on the board: what colour stands there, and how many checkers when the
switches are saturated. A belief follows the sensed count down as well as
up, except where the switches are full (then the count is only known to be
at least the capacity, and checkers added to a full stack are trusted). Points holding the wrong colour are cleared first.

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
        for loc in range(NLOC):
            c = sensed[loc]
            full = c >= cap[loc]
            if not full or belief[loc] < c:
                # below capacity the switches count exactly; at capacity the belief can only be
                # raised to what is sensed (checkers added to a full stack cannot be seen)
                belief[loc] = c
            if not c:
                colour[loc] = UNKNOWN
            owner = owner_at(pos, mover, loc, nardy)
            if loc < 24 and c and colour[loc] != UNKNOWN and owner >= 0 and owner != colour[loc]:
                mark(loc, M_REMOVE, colour[loc])
                ok = False
            elif belief[loc] > want[loc]:
                mark(loc, M_REMOVE, colour[loc] if loc < 24 else (loc - BAR0) & 1)
                ok = False
            elif belief[loc] < want[loc] and not (full and want[loc] >= cap[loc]):
                mark(loc, M_ADD, owner)
                ok = False
        return ok


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
