"""The physical board as the controller sees it: locations and checker counts.

Reed switches cannot tell colours, so the controller works on **locations**
(places a checker can lie) and on how many checkers the switches sense at
each. Locations are fixed, whatever the board's wiring (``pipcore.geometry``
maps them to switch and LED indices):

    0..23   the 24 points, as player 0 (white) numbers them minus one:
            location ``p - 1`` is white's point ``p`` and black's ``25 - p``
    24, 25  the bar zone of player 0 and of player 1
    26, 27  the tray (borne-off checkers) of player 0 and of player 1

A point holds only one colour at a time, so the game state tells whose
checkers a sensed count is; bars and trays are split per colour by geometry.

Stacks can be taller than the switches under a location: ``capacity[loc]``
is how many checkers the switches of ``loc`` can sense. A sensed count is
``min(actual, capacity)``.
"""

from pipcore import geometry
from pipcore.compat import const

NLOC = const(28)  # geometry.LOCATIONS
BAR0 = const(24)  # geometry.LOC_BAR_WHITE
TRAY0 = const(26)  # geometry.LOC_OFF_WHITE

# Checkers the switches of each location can count (pipcore.geometry).
DEFAULT_CAPACITY = geometry.CAPACITY

# ``find(a, b)`` writes into ``index`` the locations where two count arrays differ, in order, then 255
# (one buffer for the core: each user reads it before anything else calls ``find``). The tracker asks at
# every node it judges: ``pipcore.native``'s where the port runs native code, else ``pipcore.plain``'s,
# the same in bytecode. (Names MicroPython interns anyway: each new name costs the board an entry of its
# pool of names, near the pool's next step; tests/bench/README.md.)
try:
    from pipcore.native import index, find  # noqa: F401  (for the tracker, the guide, the search)
except Exception:  # CPython, no native emitter, a .mpy for another CPU
    from pipcore.plain import index, find  # noqa: F401

# slot (0 = off, 1..24 points, 25 = bar) of a player's array -> location
_SLOT_LOC = (
    bytes([TRAY0] + [p - 1 for p in range(1, 25)] + [BAR0]),
    bytes([TRAY0 + 1] + [24 - p for p in range(1, 25)] + [BAR0 + 1]),
)


# long nardy: black's own point p is board point p - 12 or p + 12 (geometry.board_point)
_SLOT_LOC_NARDY = (
    _SLOT_LOC[0],
    bytes([TRAY0 + 1] + [(p - 12 if p > 12 else p + 12) - 1 for p in range(1, 25)] + [BAR0 + 1]),
)


def slot_loc(player, slot, nardy=False):
    """Location of ``slot`` (0 off, 1..24, 25 bar) in ``player``'s own numbering."""
    return (_SLOT_LOC_NARDY if nardy else _SLOT_LOC)[player][slot]


def slot_table(player, nardy=False):
    """The 26-byte slot -> location table of ``player``."""
    return (_SLOT_LOC_NARDY if nardy else _SLOT_LOC)[player]


def opp_slot(p, nardy=False):
    """The opponent's number for the mover's point ``p`` (1..24)."""
    if nardy:
        return p + 12 if p <= 12 else p - 12
    return 25 - p


def loc_point(player, loc, nardy=False):
    """The point number ``player`` calls location ``loc`` (0..23), or 25 / 0 for its bar / tray."""
    if loc < 24:
        if player == 0:
            return loc + 1
        if nardy:
            b = loc + 1
            return b + 12 if b <= 12 else b - 12
        return 24 - loc
    if loc == BAR0 + player:
        return 25
    if loc == TRAY0 + player:
        return 0
    return -1


def loc_name(loc):
    """A short human name: ``p13`` (white numbering), ``bar0``, ``tray1``."""
    if loc < 24:
        return "p%d" % (loc + 1)
    if loc < TRAY0:
        return "bar%d" % (loc - BAR0)
    return "tray%d" % (loc - TRAY0)


def fill_counts(pos, mover, out, capacity=None, nardy=False):
    """Write the checker count of every location into ``out`` (``bytearray(NLOC)``).

    ``pos`` is seen from ``mover`` (``pos.me`` is mover's array). With
    ``capacity`` the counts are clipped to what the switches can sense.
    """
    for i in range(NLOC):
        out[i] = 0
    table = _SLOT_LOC_NARDY if nardy else _SLOT_LOC
    lm = table[mover]
    lo = table[1 - mover]
    me = pos.me
    opp = pos.opp
    for s in range(26):
        out[lm[s]] += me[s]
        out[lo[s]] += opp[s]
    if capacity is not None:
        for i in range(NLOC):
            if out[i] > capacity[i]:
                out[i] = capacity[i]
    return out


def owner_at(pos, mover, loc, nardy=False):
    """Whose checkers (0/1) stand on ``loc`` in ``pos`` (seen from ``mover``), or -1 when it is empty."""
    if loc >= BAR0:
        player = (loc - BAR0) & 1
        slot = 25 if loc < TRAY0 else 0
        arr = pos.me if player == mover else pos.opp
        return player if arr[slot] else -1
    p = loc_point(mover, loc, nardy)
    if pos.me[p]:
        return mover
    if pos.opp[opp_slot(p, nardy)]:
        return 1 - mover
    return -1
