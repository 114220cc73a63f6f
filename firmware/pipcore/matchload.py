"""A position set up by a host: the controller's side (``load_position``) and the referee's (``load``).

Not needed while a match is played at the table, so the board loads this
module only when a host sets a position (``set_position``, the controller's
``load`` event). The moment as a Match ID state is
``pipcore.matchid.referee_state``'s.
"""

from pipcore.cube import Cube
from pipcore.match import CUBE_OR_ROLL, PLAY, Match, MatchError
from pipcore.position import CHECKERS
from pipcore.rules import check_dice


def load(ref, position, turn, dice=None, state=None):
    """Continue from ``position`` (seen from ``turn``), as a host sets it up.

    ``dice`` (or None: the turn starts before the roll); ``state`` an
    optional MatchState for the cube, the score, the match length and
    the Crawford game. The record cannot say how the match got here: the
    writer is dropped (``writer`` becomes None). Raises MatchError for a
    finished game.
    """
    if turn not in (0, 1):
        raise MatchError("the player on turn must be 0 or 1, not %r" % (turn,))
    if position.me[0] == CHECKERS or position.opp[0] == CHECKERS:
        raise MatchError("that game is over: a side has borne off all its checkers")
    if dice:
        dice = check_dice(dice)
    if state is not None:
        length = state.length
        if length != ref.match.length:
            opts = dict(ref.options)
            opts["matchLength"] = length
            opts["crawford"] = length > 0
            if length:
                opts["beavers"] = opts["raccoons"] = opts["jacoby"] = False
                opts["autoDoubles"] = 0
            from pipcore.options import make_options

            ref.options = make_options(opts, ref.variant)
        m = Match(length, ref.options["crawford"])
        m.score = [state.score[0], state.score[1]]
        if m.is_over():
            raise MatchError("that match is over at %d-%d" % (m.score[0], m.score[1]))
        m.crawford_game = bool(state.crawford)
        # Crawford is behind us once a player stands 1-away outside the Crawford game
        m.crawford_done = m.crawford and (m.crawford_game or length - 1 in m.score)
        ref.match = m
    ref.writer = None
    ref.position = position
    ref.turn = turn
    ref.game_number = max(ref.game_number, 1)
    ref.move_number = max(ref.move_number, 1)
    ref.result = None
    ref.opening_ties = 0
    start = ref.start_position().key()
    ref.played = [position.key() != start, position.swapped().key() != start]
    cube = Cube(ref.options, crawford_game=ref.match.crawford_game)
    if state is not None:
        cube.value = state.cube_value
        cube.owner = state.cube_owner
        cube.player_doubled = state.cube_value > 1
    ref.cube = cube
    cube.start_turn(turn)
    ref.dice = None
    ref.opening_dice = False
    ref.phase = CUBE_OR_ROLL
    if dice:
        cube.note_roll()
        ref.dice = dice
        ref.phase = PLAY


def load_position(ctl, pid, mover, dice, match_id):
    """The controller ``ctl`` continues from a host's Position ID (and Match ID): the board is set up
    again; raises ControllerError (nothing changed) for a bad or finished position."""
    from pipcore.controller import ControllerError
    from pipcore.position import PositionError
    from pipcore.variants import decode_position

    try:
        pos = decode_position(pid, ctl.variant)
    except PositionError as exc:
        raise ControllerError("bad Position ID %r: %s" % (pid, exc))
    if mover not in (0, 1):
        raise ControllerError("mover must be 0 or 1, not %r" % (mover,))
    state = None
    if match_id:
        from pipcore.matchdecode import decode_match_id
        try:
            state = decode_match_id(match_id)
        except ValueError as exc:
            raise ControllerError("bad Match ID %r: %s" % (match_id, exc))
    ref = ctl.ref
    was_setup = ctl.setting_up
    old_pos = ctl.tracker.cur.pos if ctl.tracker is not None else ref.position
    old_mover = ref.turn
    writer = ref.writer
    try:
        ref.load(pos, mover, tuple(dice) if dice else None, state)
    except ValueError as exc:  # MatchError, DiceError: nothing changed
        raise ControllerError(str(exc))
    ctl.options = ref.options
    ctl._reveal(writer)
    ctl.records.stop()  # the record cannot say how the match got here: the text log only
    ctl._fair_dice(None)
    ctl.forced = None
    if not was_setup:
        ctl.layout.seed(old_pos, old_mover)
    ctl._start_setup()
    ctl._evaluate()
