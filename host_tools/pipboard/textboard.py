"""The board as text, drawn the way GNU Backgammon's ``show board`` draws it.

``draw_board`` draws a position from X's side (X's points 13-24 along the top,
12-1 along the bottom) with gnubg's seven margin texts beside it: O's name,
O's score and note (``Rolled 52``, ``On roll``, ``Cube offered at 2``), the
centre line (``3 points match (Cube: 1)``), X's note, X's score and X's name.
The owned cube is written after its owner's name (``X: X (Cube: 2)``), the
centred cube on the centre line, and the Crawford game there too, as gnubg
does. ``margins`` reads those texts from a ``pipcore.match.Referee``: the text
game (``pipboard.textgame``) draws what the referee says, nothing else.
"""

from pipcore.position import BAR

NAMES = ("X", "O")
TOP_LABEL, O_SCORE, O_NOTE, CENTRE, X_NOTE, X_SCORE, X_LABEL = range(7)  # gnubg's order of the margin texts


def _points(n):
    return "%d point%s" % (n, "" if n == 1 else "s")


def plain_margins(x_on_roll, dice=None, names=NAMES):
    """The margin without a referee: the names, and the roll beside the player who rolled it."""
    texts = ["O: %s" % names[1], "", "", "", "", "", "X: %s" % names[0]]
    if dice:
        texts[X_NOTE if x_on_roll else O_NOTE] = "Rolled %d%d" % (dice[0], dice[1])
    return texts


def margins(ref, names=NAMES, resigning=None):
    """gnubg's margin texts for the referee's moment (``resigning``: a waiting offer ``(player, level)``)."""
    from pipcore.cube import CENTRE as CENTRED, IDLE
    from pipcore.match import ANSWER, CUBE_OR_ROLL, PLAY

    texts = plain_margins(ref.turn == 0, ref.dice if ref.phase == PLAY else None, names)
    match = ref.match
    texts[X_SCORE] = _points(match.score[0])
    texts[O_SCORE] = _points(match.score[1])
    centre = ["%d points match" % match.length] if match.length else []
    cube = ref.cube
    if cube is not None:
        if cube.crawford_game:
            centre.append("(Crawford game)")
        elif not ref.options["cubeEnabled"]:
            centre.append("(no cube)")
        elif cube.owner == CENTRED:
            if cube.state == IDLE:  # no offer waiting (gnubg leaves the centre empty while one waits)
                centre.append("(Cube: %d)" % cube.value)
        else:
            label = X_LABEL if cube.owner == 0 else TOP_LABEL
            texts[label] += " (Cube: %d)" % cube.value
    texts[CENTRE] = " ".join(centre)

    def note(player, text):
        texts[X_NOTE if player == 0 else O_NOTE] = text

    if ref.phase == CUBE_OR_ROLL:
        note(ref.turn, "On roll")
    elif ref.phase == ANSWER:
        note(cube.responder(), "Cube offered at %d" % cube.offered_value)
    if resigning is not None:
        player, level = resigning
        note(1 - player, "Resignation offered: %s" % ("single", "gammon", "backgammon")[level - 1])
    return texts


def draw_board(position, x_on_roll, dice=None, names=NAMES, margin=None, match_id=None):
    """The board as gnubg's ``show board`` draws it, from X's side.

    ``position`` is seen from the player on roll; ``x_on_roll`` says who
    that is. ``margin``: gnubg's seven margin texts (``margins``); without
    it, the names and the roll (``dice``).
    """
    x, o = (position.me, position.opp) if x_on_roll else (position.opp, position.me)
    if margin is None:
        margin = plain_margins(x_on_roll, dice, names)

    def cell(point, row):
        ch, n = ("X", x[point]) if x[point] else ("O", o[25 - point])
        if n > row:
            if row == 4 and n > 5:
                return "%2d " % n if n > 9 else " %d " % n
            return " %s " % ch
        return "   "

    def side(text):
        return "     " + text if text else ""

    top_notes = [margin[O_SCORE], margin[O_NOTE], "O off: %d" % o[0] if o[0] else "", "", ""]
    bottom_notes = [margin[X_SCORE], margin[X_NOTE], "X off: %d" % x[0] if x[0] else "", "", ""]
    lines = [" Position ID: %s" % position.position_id()]
    if match_id:
        lines.append(" Match ID   : %s" % match_id)
    lines.append(" +13-14-15-16-17-18------19-20-21-22-23-24-+" + side(margin[TOP_LABEL]))
    for row in range(5):
        left = "".join(cell(p, row) for p in range(13, 19))
        right = "".join(cell(p, row) for p in range(19, 25))
        bar = " O " if o[BAR] > row else "   "
        lines.append(" |%s|%s|%s|%s" % (left, bar, right, side(top_notes[row])))
    arrow = "v" if x_on_roll else "^"
    lines.append("%s|                  |BAR|                  |%s" % (arrow, side(margin[CENTRE])))
    for row in range(4, -1, -1):
        left = "".join(cell(p, row) for p in range(12, 6, -1))
        right = "".join(cell(p, row) for p in range(6, 0, -1))
        bar = " X " if x[BAR] > row else "   "
        lines.append(" |%s|%s|%s|%s" % (left, bar, right, side(bottom_notes[row])))
    lines.append(" +12-11-10--9--8--7-------6--5--4--3--2--1-+" + side(margin[X_LABEL]))
    lines.append(" Pip count  O: %d  X: %d" % (position.pips(o), position.pips(x)))
    return "\n".join(lines)
