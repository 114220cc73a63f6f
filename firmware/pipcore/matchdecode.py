"""Match IDs read back, and cube questions about a state: loaded when a Match ID comes in.

The board writes its own Match ID (``pipcore.matchid``: ``MatchState.encode``) for every snapshot, and
reads one only when a host or a file sets a position (``set_position``, ``pipcore.matchload``) or a tool
asks (``pipboard rules``). So decoding, validation and the cube questions live here, out of the heap of a
board that mirrors a game to its host (~3 KB on the Pico). ``MatchState.decode``, ``from_id`` and
``validate`` load this module when called.
"""

from pipcore.cube import BEAVERED, CENTRE, IDLE, OFFERED, RACCOONED, Cube, CubeError
from pipcore.matchid import GAME_DROPPED, GAME_NONE, GAME_PLAYING, MAX_SCORE, MatchIdError, MatchState
from pipcore.position import B64_VALUES


def decode_match_id(match_id):
    """Decode and validate a Match ID into a MatchState (raises MatchIdError)."""
    return decode(match_id)


def decode(match_id, check=True):
    """A ``MatchState`` from a Match ID, validated unless ``check`` is False (raises MatchIdError)."""
    if not isinstance(match_id, str):
        raise MatchIdError("a Match ID is a string of 12 characters")
    text = match_id.strip()
    if len(text) != 12:
        raise MatchIdError("a Match ID has 12 characters, not %d: %r" % (len(text), match_id))
    vals = bytearray(12)
    raw = text.encode()  # bytes, not characters: MicroPython interns each 1-character string for good
    for i in range(12):
        b = raw[i]
        x = B64_VALUES[b] if b < 128 else 64
        if x == 64:
            raise MatchIdError("character %r is not allowed in a Match ID" % text[i])
        vals[i] = x
    key = bytearray(9)
    for i in range(3):
        a, b, c, d = vals[4 * i:4 * i + 4]
        key[3 * i] = ((a << 2) | (b >> 4)) & 255
        key[3 * i + 1] = ((b << 4) | (c >> 2)) & 255
        key[3 * i + 2] = ((c << 6) | d) & 255
    if _get_bits(key, 67, 5):
        raise MatchIdError("Match ID %r has stray bits after the scores" % text)
    owner = _get_bits(key, 4, 2)
    if owner == 2:
        raise MatchIdError("Match ID %r has an impossible cube owner" % text)
    state = MatchState(cube_value=1 << _get_bits(key, 0, 4),
                       cube_owner=CENTRE if owner == 3 else owner,
                       on_roll=_get_bits(key, 6, 1),
                       crawford=bool(_get_bits(key, 7, 1)),
                       game_state=_get_bits(key, 8, 3),
                       turn=_get_bits(key, 11, 1),
                       doubled=bool(_get_bits(key, 12, 1)),
                       resigned=_get_bits(key, 13, 2),
                       dice=(_get_bits(key, 15, 3), _get_bits(key, 18, 3)),
                       length=_get_bits(key, 21, 15),
                       score=(_get_bits(key, 36, 15), _get_bits(key, 51, 15)),
                       jacoby=not _get_bits(key, 66, 1))
    if check:
        try:
            validate(state)
        except MatchIdError as exc:
            raise MatchIdError("Match ID %r: %s" % (text, exc))
    return state


def validate(state):
    """``state`` (a ``MatchState``) if it is possible; else raises MatchIdError."""
    v = state.cube_value
    if v < 1 or v > 1 << 15 or v & (v - 1):
        raise MatchIdError("cube value %r is not a power of two from 1 to 32768" % (v,))
    if state.cube_owner not in (0, 1, CENTRE):
        raise MatchIdError("cube owner must be player 0, player 1 or the centre")
    if state.cube_owner == CENTRE and v > 1 and state.length:
        raise MatchIdError("in match play a cube above 1 has an owner (centred at %d)" % v)
    for name, x in (("player on roll", state.on_roll), ("player to act", state.turn)):
        if x not in (0, 1):
            raise MatchIdError("%s must be 0 or 1, not %r" % (name, x))
    if not 0 <= state.game_state <= GAME_DROPPED:
        raise MatchIdError("game state %d is not one of 0..4" % state.game_state)
    if not 0 <= state.resigned <= 3:
        raise MatchIdError("resignation value %d is not 0..3" % state.resigned)
    d0, d1 = state.dice
    if not (0 <= d0 <= 6 and 0 <= d1 <= 6):
        raise MatchIdError("dice %d-%d are outside 1..6" % (d0, d1))
    if (d0 == 0) != (d1 == 0):
        raise MatchIdError("only one die is set (%d-%d)" % (d0, d1))
    if state.doubled:
        if d0:
            raise MatchIdError("a double is pending but the dice are already rolled")
        if state.turn == state.on_roll and (state.length or state.cube_owner != 1 - state.on_roll):
            # (only after a beaver does the doubler answer: money play, the beaverer owns the cube)
            raise MatchIdError("a double is pending but the doubler is to act")
        if state.resigned:
            raise MatchIdError("a double and a resignation cannot both be pending")
    elif state.turn != state.on_roll and state.game_state == GAME_PLAYING and not state.resigned:
        raise MatchIdError("the player to act differs from the player on roll with nothing pending")
    if state.game_state == GAME_NONE and (d0 or state.doubled or state.resigned):
        raise MatchIdError("no game is in progress, yet dice, a double or a resignation are set")
    n = state.length
    if not 0 <= n <= MAX_SCORE:
        raise MatchIdError("match length %d out of range" % n)
    s0, s1 = state.score
    if s0 < 0 or s1 < 0 or s0 > MAX_SCORE or s1 > MAX_SCORE:
        raise MatchIdError("score %d-%d out of range" % (s0, s1))
    if n:
        if s0 >= n and s1 >= n:
            raise MatchIdError("both players have reached %d points in a %d-point match" % (n, n))
        if (s0 >= n or s1 >= n) and state.game_state == GAME_PLAYING:
            raise MatchIdError("the match is over at %d-%d, yet a game is being played" % (s0, s1))
        if state.crawford and not ((s0 == n - 1) != (s1 == n - 1)):
            raise MatchIdError("a Crawford game needs exactly one player 1-away (score %d-%d of %d)" % (s0, s1, n))
        if state.crawford and (state.doubled or v > 1):
            raise MatchIdError("the cube cannot have been turned in the Crawford game")
    elif state.crawford:
        raise MatchIdError("there is no Crawford game in money play")
    return state


def _get_bits(key, pos, nbits):
    v = 0
    for i in range(nbits):
        if key[(pos + i) >> 3] >> ((pos + i) & 7) & 1:
            v |= 1 << i
    return v


def cube_of(state, options):
    """A Cube in the state a MatchState describes (for questions such as "may he double?").

    ``options`` are the game's options; a pending double (gnubg's fDoubled)
    is a plain offer, a beaver (the doubler answers) or a raccoon (the cube
    already belongs to the player who answers).
    """
    cube = Cube(options, crawford_game=state.crawford)
    cube.value = state.cube_value
    cube.owner = state.cube_owner
    if state.game_state != GAME_PLAYING:
        return cube
    cube.start_turn(state.on_roll)
    if state.dice[0]:
        cube.rolled = True
    if state.doubled:
        cube.doubler = state.on_roll
        cube.offered_this_turn = True
        cube.player_doubled = True
        if state.turn == state.on_roll:
            cube.state = BEAVERED
        elif state.cube_owner == state.turn:
            cube.state = RACCOONED
        else:
            cube.state = OFFERED
        cube.stake = cube.value
        cube.offered_value = cube.value * 2 if cube.state != OFFERED else cube.next_value(cube.value)
    return cube


def state_after(state, cube, action, player=None):
    """Apply a cube action (OFFER..RACCOON) to ``cube`` (from ``cube_of(state)``).

    Returns ``(new_state, drop_result)``; ``drop_result`` is ``(winner,
    points)`` when the action was a drop, else None. Raises CubeError.
    """
    if state.game_state != GAME_PLAYING:
        raise CubeError("no game is being played")
    if player is None:
        player = state.turn
    result = cube.act(action, player)
    new = MatchState(cube_value=cube.value, cube_owner=cube.owner, on_roll=state.on_roll, crawford=state.crawford,
                     game_state=GAME_PLAYING, turn=state.on_roll, doubled=False, dice=state.dice,
                     length=state.length, score=state.score, jacoby=state.jacoby)
    if result is not None:
        winner, points = result
        score = list(state.score)
        score[winner] += points
        new.score = (score[0], score[1])
        new.game_state = GAME_DROPPED
        new.turn = player
    elif cube.state != IDLE:
        new.doubled = True
        new.turn = cube.responder()
    return new, result
