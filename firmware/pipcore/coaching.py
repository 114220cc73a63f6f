"""The coach's word on the board (``pipboard coach``, docs/coach.md), loaded only when a host sends it.

The protocol's ``coach`` command carries gnubg's verdict on a player's last
play or cube decision: the rating (gnubg's words), the equity lost in
thousandths, the better play (gnubg notation, that player's numbering) and
the line the coach prints. The board lights the better play in the coach's
violet (``pipcore.render``: roles ``coach-from`` / ``coach-to``) and puts the
rating and the loss on the panel's dice until the next action, between rolls
only. Nothing here is imported by a board that is never coached.
"""

from pipcore.board import slot_loc
from pipcore.names import M_COACH_FROM, M_COACH_TO

RATINGS = ("none", "doubtful", "bad", "very bad")
TEXT_MAX = 200  # characters of the coach's line
LOSS_MAX = 100000  # thousandths of a point


def command(app, msg):
    """Check a ``coach`` frame (already checked for types) and hand it to the app; returns the reply."""
    from pipcore.notation import parse_play
    from pipcore.protocol import E_BAD_ARGS, ProtocolError

    player = msg["player"]
    if player != 0 and player != 1:
        raise ProtocolError(E_BAD_ARGS, "coach: player must be 0 (white) or 1 (black)")
    rating = msg["rating"]
    if rating not in RATINGS:
        raise ProtocolError(E_BAD_ARGS, "coach: rating must be one of %s" % ", ".join(RATINGS))
    loss = msg.get("loss", 0)
    if not 0 <= loss <= LOSS_MAX:
        raise ProtocolError(E_BAD_ARGS, "coach: loss is the equity lost in thousandths, 0..%d" % LOSS_MAX)
    text = msg.get("text", "")
    if len(text) > TEXT_MAX:
        raise ProtocolError(E_BAD_ARGS, "coach: text is at most %d characters" % TEXT_MAX)
    segments = parse_play(msg.get("play", ""))  # notation errors are reported before the app sees it
    return {"shown": bool(app.coach(player, segments, RATINGS.index(rating), loss, text))}


def panel_pips(loss):
    """The panel's scale: one pip per tenth of a point of equity lost (``loss`` in thousandths),
    rounded up, at most six."""
    pips = (loss + 99) // 100
    return min(6, pips)


def marks_of(player, segments, nardy=False):
    """``[(location, role)]`` of a play's net from points (``coach-from``) and to points (``coach-to``)."""
    net = [0] * 26
    for seg in segments:
        net[seg[0]] -= 1
        net[seg[1]] += 1
    marks = []
    for p in range(26):
        if net[p]:
            marks.append((slot_loc(player, p, nardy), M_COACH_FROM if net[p] < 0 else M_COACH_TO))
    return marks
