"""Play codes shared by every generator (``pipcore.rules``, ``pipcore.nardy``,
``pipcore.caucasian``).

A play code is one small integer: bits 0-2 the number of single moves, then
5 bits per source point from bit 3, and bit 23 set when the high die is
played first (always set for doubles). ``PlayList`` gives a generator the
``moves``/``result``/``results``/``result_for`` part of the Turn interface;
the generator sets ``position``, ``high``, ``low``, ``double`` and ``plays``
and names its ``_apply_move(position, from, to)``.
"""

from array import array


def compact(plays):
    """``plays`` as an ``array('I')``: 4 bytes a play instead of a list's pointers and spare room."""
    return plays if isinstance(plays, array) else array("I", plays)


_EMPTY = array("I")


def play_store(n):
    """An empty ``array('I')`` with room for ``n`` play codes, allocated in one piece.

    MicroPython's ``array.append`` grows an array 8 items at a time: the 2,226
    plays of IAKI6H+klFJKKQ 1-1 took 278 reallocations, each needing a longer
    contiguous block than the last; on a crowded, fragmented heap that is what
    failed first ("allocating 3104 bytes" with 60 KB free in small holes).
    The board's app allocates one store at power-up and its controller's
    turns use it again roll after roll (``rules.Turn(..., store)``).
    """
    codes = array("I", range(n))
    codes[0:] = _EMPTY  # length 0; a slice assignment that shrinks an array keeps its allocation
    return codes


class CodeStore:
    """The plays of a double as they are found: an ``array('I')`` appended to in place (4 bytes a
    play, never a list's block of pointers: 8.9 KB instead of 32 KB on a 64-bit host for the
    2,226 plays of IAKI6H+klFJKKQ 1-1), and where the longest plays start (shorter ones found
    before a longer play are dropped by moving ``start``, not by deleting: arrays cannot).

    With a ``store`` (``play_store``) the plays are written into it and it becomes the turn's
    plays: whatever turn had it before must be finished with (the controller's previous roll)."""

    def __init__(self, store=None):
        if store is not None:
            store[0:] = _EMPTY  # empty again; its room stays
            self.codes = store
        else:
            self.codes = array("I")
        self.start = 0

    def plays(self):
        """The longest plays: the array itself, the shorter plays found first cut off in place."""
        codes = self.codes
        if self.start:
            codes[0:self.start] = _EMPTY
        return codes


def pack(sources, high_first):
    """The code of a play whose single moves start from ``sources`` in order."""
    code = len(sources) | (high_first << 23)
    for i in range(len(sources)):
        code |= sources[i] << (3 + 5 * i)
    return code


class PlayList:
    """``moves``, ``result``, ``results`` and ``result_for`` over play codes."""

    def moves(self, code):
        """The single moves of a play as ``[(from, to, die), ...]``; 0 is off."""
        n = code & 7
        if self.double:
            dice = (self.high,) * 4
        elif code >> 23 & 1:
            dice = (self.high, self.low)
        else:
            dice = (self.low, self.high)
        out = []
        for i in range(n):
            s = code >> (3 + 5 * i) & 31
            t = s - dice[i]
            out.append((s, t if t > 0 else 0, dice[i]))
        return out

    def result(self, code):
        """The position after the play ``code``."""
        pos = self.position.copy()
        for s, t, _ in self.moves(code):
            self._apply_move(pos, s, t)
        return pos

    def results(self):
        """All distinct legal resulting positions."""
        return [self.result(code) for code in self.plays]

    def result_for(self, position):
        """The play code whose result is ``position``, or None."""
        for code in self.plays:
            if self.result(code) == position:
                return code
        return None


def orders(items):
    """Every distinct ordering of the list ``items``.

    Recursion: one level per item; callers pass the moves of one play (at
    most four)."""
    if len(items) <= 1:
        return [list(items)]
    out = []
    tried = []
    for i in range(len(items)):
        if items[i] in tried:
            continue
        tried.append(items[i])
        for rest in orders(items[:i] + items[i + 1:]):
            out.append([items[i]] + rest)
    return out
