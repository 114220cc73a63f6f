"""The referee meets the outside: a position set up by a host, and the moment as a Match ID state.

Neither is needed while a match is played at the table, so the board loads
this module only when a host sets a position (``set_position``) or asks for
a Match ID (``Referee.load`` and ``Referee.match_state`` call in here).
"""

from pipcore.cube import Cube
from pipcore.match import ANSWER, CUBE_OR_ROLL, NO_GAME, OPENING, PLAY, TIME, Match, MatchError
from pipcore.position import CHECKERS
from pipcore.options import make_options
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


def match_state(ref):
    """``ref``'s moment as a ``pipcore.matchid.MatchState``."""
    state = _match_state(ref)
    state.jacoby = bool(ref.options["jacoby"]) and not ref.match.length
    return state


def _match_state(ref):
    from pipcore.matchid import GAME_DROPPED, GAME_NONE, GAME_OVER, GAME_PLAYING, GAME_RESIGNED, MatchState
    cube = ref.cube
    if ref.phase == NO_GAME or cube is None:
        return MatchState(game_state=GAME_NONE, length=ref.match.length, score=ref.match.score,
                          crawford=ref.match.crawford_game)
    if ref.phase == OPENING:
        return MatchState(cube_value=cube.value, game_state=GAME_NONE, length=ref.match.length,
                          score=ref.match.score, crawford=cube.crawford_game)
    if ref.game_over():
        # as gnubg: the score already includes the finished game
        r = ref.result
        if r.dropped:
            gs, turn, resigned = GAME_DROPPED, ref._dropper, 0
        elif r.resigned:
            gs, turn, resigned = GAME_RESIGNED, ref.turn, r.kind
        elif r.kind == TIME:  # as gnubg reads the game from a .mat file: a resignation
            kind = r.points // cube.value
            gs, turn, resigned = GAME_RESIGNED, ref.turn, 1 if kind < 1 else (3 if kind > 3 else kind)
        else:
            gs, turn, resigned = GAME_OVER, ref.turn, 0
        return MatchState(cube_value=cube.value, cube_owner=cube.owner, on_roll=ref.turn,
                          crawford=cube.crawford_game, game_state=gs, turn=turn, resigned=resigned,
                          dice=r.dice or (0, 0), length=ref.match.length, score=ref.match.score)
    doubled = ref.phase == ANSWER
    turn = cube.responder() if doubled else ref.turn
    dice = ref.dice if ref.phase == PLAY else (0, 0)
    return MatchState(cube_value=cube.value, cube_owner=cube.owner, on_roll=ref.turn,
                      crawford=cube.crawford_game, game_state=GAME_PLAYING, turn=turn, doubled=doubled,
                      dice=dice, length=ref.match.length, score=ref.match.score)
