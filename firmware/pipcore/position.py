"""Backgammon positions and the GNU Backgammon Position ID.

A position is seen from the player on roll (the *mover*), as gnubg sees it:
two 26-slot arrays, one per side, each in that side's **own** numbering.

    slot 0        checkers borne off
    slots 1..24   the side's own points 1..24 (1-6 is its home board)
    slot 25       the side's bar

In backgammon the mover's point ``p`` is the opponent's point ``25 - p``.
Long nardy keeps the same container but relates the two sides by ``p +- 12``
(see ``pipcore.nardy``); the Position ID packs both games the same way.
"""

from pipcore.compat import const

CHECKERS = const(15)
BAR = const(25)
OFF = const(0)

B64_CODES = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"
B64_VALUES = bytearray(b"\x40" * 128)  # ASCII code -> 6-bit value; 64 marks a bad character
for _i in range(64):
    B64_VALUES[B64_CODES[_i]] = _i
del _i
# for each byte: how many of its lowest bits are 1 (are 0; 8 for a zero byte)
_TRAILING_ONES = bytearray(256)
_TRAILING_ZEROS = bytearray(256)
for _i in range(256):
    _n = 0
    while _i >> _n & 1:
        _n += 1
    _TRAILING_ONES[_i] = _n
    _n = 0
    while _n < 8 and not _i >> _n & 1:
        _n += 1
    _TRAILING_ZEROS[_i] = _n
del _i, _n


class PositionError(ValueError):
    """A Position ID or a position that is malformed or impossible."""


class Position:
    """Checkers of both sides, seen from the player on roll.

    ``me`` and ``opp`` are ``bytearray(26)`` in each side's own numbering;
    slot 0 (borne off) is kept equal to 15 minus the checkers on the board.
    """

    def __init__(self, me=None, opp=None):
        self.me = bytearray(26) if me is None else bytearray(me)
        self.opp = bytearray(26) if opp is None else bytearray(opp)

    # -- construction -------------------------------------------------
    @classmethod
    def start(cls):
        """The backgammon starting position (RULES.md 1.3)."""
        pos = cls()
        for side in (pos.me, pos.opp):
            side[24] = 2
            side[13] = 5
            side[8] = 3
            side[6] = 5
        return pos

    @classmethod
    def from_dicts(cls, me, opp=None, opp_numbering="backgammon"):
        """Build from RULES.md notation: ``M{13:5, bar:1}`` and ``O{...}`` (``pipcore.posdicts``: tests,
        tools and the rules CLI; the board never loads it)."""
        from pipcore.posdicts import from_dicts

        return from_dicts(cls(), me, opp, opp_numbering)

    @classmethod
    def from_id(cls, position_id):
        """Decode a gnubg Position ID (validated; raises PositionError)."""
        pos = decode_position_id(position_id)
        pos.validate()
        return pos

    def copy(self):
        return Position(self.me, self.opp)

    # -- queries ------------------------------------------------------
    def position_id(self):
        """The gnubg Position ID: 14 characters, side not on roll first."""
        return encode_position_id(self)

    def pips(self, side=None):
        """Pip count of ``me`` (default) or the given side array."""
        side = self.me if side is None else side
        total = 0
        for p in range(1, 26):
            total += p * side[p]
        return total

    def swapped(self):
        """The same position seen by the other player (gnubg's SwapSides)."""
        return Position(self.opp, self.me)

    def on_board(self, side):
        n = 0
        for p in range(1, 26):
            n += side[p]
        return n

    def validate(self, geometry="backgammon"):
        """Raise PositionError unless this is a possible position."""
        for name, side in (("player on roll", self.me), ("opponent", self.opp)):
            n = self.on_board(side)
            if n > CHECKERS:
                raise PositionError("%s has %d checkers on the board (at most 15)" % (name, n))
            if side[0] != CHECKERS - n:
                raise PositionError("%s: borne-off count %d does not make 15" % (name, side[0]))
        me, opp = self.me, self.opp
        if geometry == "backgammon":
            for p in range(1, 25):
                if me[p] and opp[25 - p]:
                    raise PositionError("both players have checkers on point %d" % p)
            if me[BAR] and opp[BAR] and _closed(me, opp) and _closed(opp, me):
                raise PositionError("both players are on the bar against closed boards")
        else:
            for p in range(1, 25):
                if me[p] and opp[p + 12 if p <= 12 else p - 12]:
                    raise PositionError("both players have checkers on point %d" % p)
            if me[BAR] or opp[BAR]:
                raise PositionError("long nardy has no bar")

    def __eq__(self, other):
        return isinstance(other, Position) and self.me == other.me and self.opp == other.opp

    def __ne__(self, other):
        return not self.__eq__(other)

    def __hash__(self):
        return hash(bytes(self.me) + bytes(self.opp))

    def key(self):
        """A hashable value identifying the position."""
        return bytes(self.me) + bytes(self.opp)

    def __repr__(self):
        return "Position.from_id(%r)" % self.position_id()

    def describe(self, opp_numbering="backgammon"):
        """RULES.md notation, e.g. ``M{13:5, 8:3} O{6:5}`` (mover's numbering; ``pipcore.posdicts``)."""
        from pipcore.posdicts import describe

        return describe(self, opp_numbering)


def _closed(side, other):
    """True when ``side`` holds all six points of its home board."""
    for p in range(1, 7):
        if side[p] < 2:
            return False
    return True


def encode_position_id(pos):
    """Pack both sides (opponent first) into gnubg's 80-bit key, base64.

    Each point's run of checkers is or-ed into the key bytes at once, and
    the 14 characters are written into one bytearray (no big integers, no
    list of strings): 4 us on CPython, about 40 us in WASM MicroPython.
    """
    key = bytearray(10)
    bit = 0
    for side in (pos.opp, pos.me):
        for slot in range(1, 26):
            n = side[slot]
            if n:
                run = ((1 << n) - 1) << (bit & 7)  # at most 15 + 7 bits: three bytes
                i = bit >> 3
                key[i] |= run & 0xFF
                if run > 0xFF:
                    key[i + 1] |= (run >> 8) & 0xFF
                    if run > 0xFFFF:
                        key[i + 2] |= run >> 16
                bit += n
            bit += 1
    out = bytearray(14)
    j = 0
    for i in (0, 3, 6):
        a = key[i]
        b = key[i + 1]
        c = key[i + 2]
        out[j] = B64_CODES[a >> 2]
        out[j + 1] = B64_CODES[((a & 3) << 4) | (b >> 4)]
        out[j + 2] = B64_CODES[((b & 15) << 2) | (c >> 6)]
        out[j + 3] = B64_CODES[c & 63]
        j += 4
    a = key[9]
    out[12] = B64_CODES[a >> 2]
    out[13] = B64_CODES[(a & 3) << 4]
    return str(out, "ascii")


def decode_position_id(position_id):
    """Unpack a Position ID into a Position without validating the result."""
    if not isinstance(position_id, str):
        raise PositionError("a Position ID is a string of 14 characters")
    text = position_id.strip()
    if len(text) != 14:
        raise PositionError("a Position ID has 14 characters, not %d: %r" % (len(text), position_id))
    values = bytearray(14)
    raw = text.encode()  # bytes, not text[i]: MicroPython interns each 1-character string for good
    for i in range(14):
        v = raw[i]
        v = B64_VALUES[v] if v < 128 else 64
        if v == 64:
            raise PositionError("character %r is not allowed in a Position ID" % text[i])
        values[i] = v
    if values[13] & 0xF:
        raise PositionError("Position ID %r has stray bits in its last character" % text)
    key = bytearray(10)
    j = 0
    for i in (0, 4, 8):
        a = values[i]
        b = values[i + 1]
        c = values[i + 2]
        d = values[i + 3]
        key[j] = (a << 2) | (b >> 4)
        key[j + 1] = ((b & 15) << 4) | (c >> 2)
        key[j + 2] = ((c & 3) << 6) | d
        j += 3
    key[9] = (values[12] << 2) | (values[13] >> 4)
    pos = Position()
    side = pos.opp
    side_index = 0
    slot = 1
    count = 0
    # walk the key in runs (checkers on one point, or empty points) rather than bit by bit
    for i in range(10):
        byte = key[i]
        left = 8
        while left:
            if byte & 1:
                run = _TRAILING_ONES[byte]
                if side_index == 2:
                    raise PositionError("Position ID %r has more than 30 checkers" % text)
                count += run
                if count > CHECKERS:
                    raise PositionError("Position ID %r gives a side more than 15 checkers" % text)
                side[slot] += run
            else:
                run = _TRAILING_ZEROS[byte]
                if run > left:
                    run = left
                if side_index < 2:
                    slot += run
                    while slot >= 26 and side_index < 2:
                        side_index += 1
                        side = pos.me
                        slot -= 25
                        count = 0
            byte >>= run
            left -= run
    if side_index != 2:
        raise PositionError("Position ID %r is truncated" % text)
    pos.opp[0] = CHECKERS - pos.on_board(pos.opp)
    pos.me[0] = CHECKERS - pos.on_board(pos.me)
    return pos
