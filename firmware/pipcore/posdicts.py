"""Positions in RULES.md notation: ``M{13:5, 8:3, bar:1}`` and ``O{6:5}``.

The notation of the rules' test scenarios, for tests, tools and the rules
CLI (``Position.from_dicts`` and ``Position.describe`` call in here); the
board itself speaks Position IDs and never loads this module.
"""

from pipcore.position import BAR, CHECKERS, PositionError


def from_dicts(pos, me, opp=None, opp_numbering="backgammon"):
    """Fill the empty ``pos`` from ``me`` and ``opp``: keys are points in the **mover's** numbering (as in
    RULES.md 0.3), or ``"bar"``/``"off"``. Missing checkers are counted as borne off, unless ``off`` is
    given explicitly. ``opp_numbering`` is ``"backgammon"`` (opponent point = 25 - p) or ``"nardy"``
    (p +- 12). Returns ``pos``."""
    _fill(pos.me, me, None)
    _fill(pos.opp, opp or {}, opp_numbering)
    return pos


def describe(pos, opp_numbering="backgammon"):
    """RULES.md notation of ``pos``, e.g. ``M{13:5, 8:3} O{6:5}``."""
    return "M%s O%s" % (_dict_text(pos.me, None), _dict_text(pos.opp, opp_numbering))


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
