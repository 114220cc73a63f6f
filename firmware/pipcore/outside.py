"""What outside players ask of the controller: a play to execute, the coach's word.

Loaded only when a host sends them (``pipboard play``, ``remote``, ``coach``):
a board played by two people at the table never needs this code.
"""

from pipcore.controller import ControllerError
from pipcore.names import MOVING, PICK, SETUP
from pipcore.variants import decode_position


def show_play(ctl, text):
    """The one play an outside player (host, engine, remote board) allows this roll: the LEDs guide to it."""
    if ctl.phase not in (MOVING, PICK):
        raise ControllerError("a play can be given only while a roll is being played")
    turn = ctl._roll_tracker().turn
    ref = ctl.ref
    try:
        target = play_result(turn, ref.position, ref.dice, text, ctl.variant)
    except ValueError as exc:  # not notation, or not legal (each variant's IllegalPlayError)
        raise ControllerError("host play %r refused: %s" % (text, exc))
    ctl.forced = target
    ctl.pick = None
    ctl._track(turn, target)
    ctl._evaluate()


def coach(ctl, player, segments, level, pips, text):
    """Light the coach's better play and its rating (``pipboard coach``), between rolls only."""
    if player not in (0, 1) or not 0 <= level <= 3 or not 0 <= pips <= 6:
        raise ControllerError("coach: player 0/1, level 0..3, pips 0..6")
    phase = ctl.phase
    if phase in (SETUP, MOVING, PICK):
        return  # a roll is being played: its guidance comes first (the host still has the line)
    from pipcore.coaching import marks_of

    marks = marks_of(player, segments, ctl.nardy)
    if ctl.coach_panel is None:
        ctl._prompt = ctl.message
    ctl.coach = (player, marks)
    ctl.coach_panel = (level, pips) if level or marks else None
    ctl.message = ("%s | coach: %s" % (ctl._prompt, text)) if text else ctl._prompt
    ctl._evaluate()


def play_result(turn, position, dice, text, variant="backgammon"):
    """The result (seen from the mover) of the play ``text`` of ``turn``; raises ValueError.

    ``text`` is a play in gnubg notation, checked by the variant's own
    referee, or the Position ID of a legal result (seen from either side).
    """
    text = text.strip()
    if len(text) == 14 and " " not in text:  # a Position ID (its alphabet has "/" too)
        from pipcore.position import PositionError
        try:
            pos = decode_position(text, variant)
        except PositionError:
            pos = None
        if pos is not None:
            for cand in (pos, pos.swapped()):
                if turn.result_for(cand) is not None:
                    return cand
    from pipcore.notation import parse_play
    try:
        segments = parse_play(text)
    except ValueError as exc:
        raise ValueError("neither a play in gnubg notation nor the Position ID of a legal result: %s" % exc)
    check = getattr(turn, "check", None)  # the variant's own referee (long nardy)
    if check is not None:
        return check(segments)[1]
    from pipcore.rules import AmbiguousPlayError, check_play
    try:
        return check_play(position, dice, segments)[1]
    except AmbiguousPlayError:
        found = _gnubg_reading(turn, position, text)  # gnubg marks hits per landing: 17/7* is not 17/11*/7*
        if found is None:
            raise
        return found


def _gnubg_reading(turn, position, text):
    """The one legal result whose play gnubg writes as ``text`` (hits marked per landing), or None."""
    from pipcore.notation import canonical, format_play_from
    from pipcore.rules import apply_move
    want = canonical(text)
    found = None
    for code in turn.plays:
        if canonical(format_play_from(position, turn.moves(code), apply_move)) == want:
            result = turn.result(code)
            if found is not None and found != result:
                return None
            found = result
    return found
