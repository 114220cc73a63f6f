"""What outside players ask of the controller: a play to execute, the coach's word.

Loaded only when a host sends them (``pipboard play``, ``remote``, ``coach``):
a board played by two people at the table never needs this code.
"""

from pipcore.controller import ControllerError
from pipcore.names import MOVING, PICK, SETUP
from pipcore.variants import play_result


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
