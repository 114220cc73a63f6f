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

_B64 = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"


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
        """Build from RULES.md notation: ``M{13:5, bar:1}`` and ``O{...}``.

        Keys are points in the **mover's** numbering (as in RULES.md 0.3), or
        ``"bar"``/``"off"``. Missing checkers are counted as borne off, unless
        ``off`` is given explicitly. ``opp_numbering`` is ``"backgammon"``
        (opponent point = 25 - p) or ``"nardy"`` (p +- 12).
        """
        pos = cls()
        _fill(pos.me, me, None)
        _fill(pos.opp, opp or {}, opp_numbering)
        return pos

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
        """RULES.md notation, e.g. ``M{13:5, 8:3} O{6:5}`` (mover's numbering)."""
        return "M%s O%s" % (_dict_text(self.me, None), _dict_text(self.opp, opp_numbering))


def _closed(side, other):
    """True when ``side`` holds all six points of its home board."""
    for p in range(1, 7):
        if side[p] < 2:
            return False
    return True


def _convert(p, numbering):
    if numbering is None:
        return p
    if numbering == "backgammon":
        return 25 - p
    return p + 12 if p <= 12 else p - 12


def _fill(side, spec, numbering):
    total = 0
    off = None
    for key in spec:
        n = spec[key]
        if key == "off":
            off = n
            continue
        if key == "bar":
            slot = BAR
        else:
            p = int(key)
            if not 1 <= p <= 24:
                raise PositionError("point %r out of range" % key)
            slot = _convert(p, numbering)
        side[slot] += n
        total += n
    if total > CHECKERS:
        raise PositionError("%d checkers on the board (at most 15)" % total)
    side[0] = CHECKERS - total
    if off is not None and off != side[0]:
        raise PositionError("off:%d does not make 15 with the checkers on the board" % off)


def _dict_text(side, numbering):
    parts = []
    for mover_point in range(24, 0, -1):
        n = side[_convert(mover_point, numbering)]
        if n:
            parts.append("%d:%d" % (mover_point, n))
    if side[BAR]:
        parts.insert(0, "bar:%d" % side[BAR])
    if side[0]:
        parts.append("off:%d" % side[0])
    return "{" + ", ".join(parts) + "}"


def encode_position_id(pos):
    """Pack both sides (opponent first) into gnubg's 80-bit key, base64."""
    key = bytearray(10)
    bit = 0
    for side in (pos.opp, pos.me):
        for slot in range(1, 26):
            for _ in range(side[slot]):
                key[bit >> 3] |= 1 << (bit & 7)
                bit += 1
            bit += 1
    chars = []
    acc = 0
    nbits = 0
    for byte in key:
        acc = (acc << 8) | byte
        nbits += 8
        while nbits >= 6:
            nbits -= 6
            chars.append(_B64[(acc >> nbits) & 63])
    chars.append(_B64[(acc << (6 - nbits)) & 63])
    return "".join(chars)


def decode_position_id(position_id):
    """Unpack a Position ID into a Position without validating the result."""
    if not isinstance(position_id, str):
        raise PositionError("a Position ID is a string of 14 characters")
    text = position_id.strip()
    if len(text) != 14:
        raise PositionError("a Position ID has 14 characters, not %d: %r" % (len(text), position_id))
    acc = 0
    for ch in text:
        v = _B64.find(ch)
        if v < 0:
            raise PositionError("character %r is not allowed in a Position ID" % ch)
        acc = (acc << 6) | v
    if acc & 0xF:
        raise PositionError("Position ID %r has stray bits in its last character" % text)
    acc >>= 4  # 84 bits -> 80
    key = bytearray(10)
    for i in range(9, -1, -1):
        key[i] = acc & 0xFF
        acc >>= 8
    pos = Position()
    sides = (pos.opp, pos.me)
    side_index = 0
    slot = 1
    count = 0
    for bit in range(80):
        if side_index == 2:
            if key[bit >> 3] >> (bit & 7) & 1:
                raise PositionError("Position ID %r has more than 30 checkers" % text)
            continue
        if key[bit >> 3] >> (bit & 7) & 1:
            count += 1
            if count > CHECKERS:
                raise PositionError("Position ID %r gives a side more than 15 checkers" % text)
            sides[side_index][slot] += 1
        else:
            slot += 1
            if slot == 26:
                side_index += 1
                slot = 1
                count = 0
    if side_index != 2:
        raise PositionError("Position ID %r is truncated" % text)
    for side in sides:
        side[0] = CHECKERS - pos.on_board(side)
    return pos
